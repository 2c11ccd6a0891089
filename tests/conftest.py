"""Shared settings for every test. Browser fixtures live in tests/browser/conftest.py, so
nothing here needs Playwright."""

from __future__ import annotations

from hypothesis import settings

# Timing is not what the properties test: on a busy 2-core CI machine a per-example deadline
# only produces flaky failures.
settings.register_profile("project", deadline=None, print_blob=True)
settings.load_profile("project")

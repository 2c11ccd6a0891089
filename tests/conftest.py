"""Shared settings for every test. Browser fixtures live in tests/browser/conftest.py, so
nothing here needs Playwright.

The tests mirror the layers: ``tests/engine`` (ndcg_core's engine), ``tests/teaching`` (the
teaching layer and Class mode's storage), ``tests/app`` (the Streamlit pages, run with AppTest, and
the project's set-up) and ``tests/browser`` (a real Chromium). Each test carries its layer's marker,
so ``pytest -m engine`` (or ``teaching``, ``app``, ``browser``) runs one layer.
"""

from __future__ import annotations

import pathlib
import sys

import pytest
from hypothesis import settings

# Timing is not what the properties test: on a busy 2-core CI machine a per-example deadline
# only produces flaky failures.
settings.register_profile("project", deadline=None, print_blob=True)
settings.load_profile("project")


LAYERS = ("engine", "teaching", "app", "browser")
TESTS = pathlib.Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with the layer its folder names (doctests in the package count as the engine's
    or the teaching layer's by module)."""
    for item in items:
        path = pathlib.Path(str(item.path)).resolve()
        if path.is_relative_to(TESTS):
            layer = path.relative_to(TESTS).parts[0]
        else:
            parts = path.parts
            layer = "teaching" if ("teaching" in parts or "classroom" in parts) else "engine"
        if layer in LAYERS:
            item.add_marker(layer)


@pytest.fixture(autouse=True)
def own_database(request, tmp_path, monkeypatch):
    """AppTest sessions (tests/app) keep what they save, a learner's progress and Class rooms, in a
    database of their own test: nothing is written under the work tree's data/ folder. (Here rather
    than in tests/app/conftest.py: a second module named conftest clashes with this one when the
    doctest collector imports it.)"""
    if pathlib.Path(str(request.node.path)).resolve().is_relative_to(TESTS / "app"):
        monkeypatch.setenv("NDCG_DATA_DIR", str(tmp_path / "data"))
        monkeypatch.delenv("NDCG_DATABASE_URL", raising=False)
        room = sys.modules.get("views.room.common")
        if room is not None:  # the answer limit lives in the process: each test starts afresh (the
            room.ANSWER_LIMIT.clear()  # room-code limit lives in the database: the test's own)


@pytest.fixture(scope="session")
def postgres_url():
    """One throwaway PostgreSQL cluster for the whole run (one per pytest-xdist worker), started by
    the first test that asks for it (tests/postgres_support.py): Class mode's store, the learners'
    progress and the shared rate limits all run on it. Each test drops the tables it made, so the
    next starts from an empty database."""
    from postgres_support import postgres_server

    with postgres_server() as url:
        yield url

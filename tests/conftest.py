"""Shared fixtures: the browser tests run Debian's Chromium against a live app server."""

from __future__ import annotations

import pathlib

import pytest
from browser_support import CHROMIUM_ARGS, chromium_path, streamlit_server
from hypothesis import settings
from playwright.sync_api import expect

# Timing is not what the properties test: on a busy 2-core CI machine a per-example deadline
# only produces flaky failures.
settings.register_profile("project", deadline=None, print_blob=True)
settings.load_profile("project")

# Auto-retrying assertions: give a loaded CI machine time, never a fixed sleep.
expect.set_options(timeout=15_000)

ARTIFACTS = pathlib.Path(__file__).resolve().parents[1] / "artifacts"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # Playwright cannot download its own browser here: use Debian's.
    return {**browser_type_launch_args, "executable_path": chromium_path(), "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1280, "height": 720}}


@pytest.fixture(scope="session")
def app_url():
    with streamlit_server() as url:
        yield url


@pytest.fixture(scope="session")
def artifacts() -> pathlib.Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS

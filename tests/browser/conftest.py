"""Browser-only fixtures: Debian's Chromium through Playwright against a live app server.

Only the tests in this folder need Playwright installed; the unit, property, cross-library
and AppTest suites do not import it.
"""

from __future__ import annotations

import pathlib

import pytest
from browser_support import CHROMIUM_ARGS, chromium_path, streamlit_server
from playwright.sync_api import expect

from ndcg_core.classroom import Store

# Auto-retrying assertions: give a loaded CI machine time, never a fixed sleep.
expect.set_options(timeout=15_000)

ARTIFACTS = pathlib.Path(__file__).resolve().parents[2] / "artifacts"


HERE = pathlib.Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    # A hook in this conftest sees every collected test: mark only the ones in this folder. Under
    # pytest-xdist (make test), the browser tests share one worker (--dist loadgroup): one app
    # server and one Chromium, their timings as when they ran alone, beside the other layers.
    for item in items:
        if HERE in pathlib.Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.xdist_group("browser"))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # Playwright cannot download its own browser here: use Debian's.
    return {**browser_type_launch_args, "executable_path": chromium_path(), "args": CHROMIUM_ARGS}


#: The cookie of a browser that has seen the start panel (views.ui.start): the tests of the pages
#: themselves are returning visitors, so the Playground at "/" opens without the panel on top. The
#: first visit has its own tests (test_browser_path.py), in contexts without it.
RETURNING = {"name": "ndcg_start", "value": "1", "domain": "127.0.0.1", "path": "/"}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {
        **browser_context_args,
        "viewport": {"width": 1280, "height": 720},
        "storage_state": {"cookies": [RETURNING], "origins": []},
    }


@pytest.fixture(scope="session")
def class_server(tmp_path_factory):
    """The app server every browser test uses, and a handle on the Class-mode store it saves to:
    rooms are made, run and read through the store (``browser_support.open_question``) without
    clicking, and what a page stored can be checked."""
    data = tmp_path_factory.mktemp("ndcg-data")
    # Uploads may hold 50 MB once decompressed (the deployment's default is 2,000 MB): a test's small
    # gzip that expands past it costs the shared server 50 MB, not gigabytes.
    with streamlit_server(data_dir=data, env={"NDCG_MAX_CONTENT_MB": "50"}) as url:
        store = Store(f"sqlite:///{data / 'classroom.sqlite3'}")
        yield url, store
        store.dispose()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """Close the browser contexts a test opened itself (a phone, a projector, another browser), even
    when it fails: Class pages poll the one shared app server every second or two, so a page left
    open would go on loading it through every later test (and did: a later test's phones waited
    60 s for a page). Contexts of fixtures (pytest-playwright's ``page``, a module's shared page)
    are opened before the call and left to their fixtures."""
    browser = getattr(item, "funcargs", {}).get("browser")
    before = set(browser.contexts) if browser is not None else set()
    yield
    if browser is not None:
        for context in browser.contexts:
            if context not in before:
                context.close()


@pytest.fixture(scope="session")
def app_url(class_server):
    return class_server[0]


@pytest.fixture(scope="session")
def artifacts() -> pathlib.Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS

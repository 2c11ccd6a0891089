"""What the Class-mode AppTests share: a store of their own, the browser's cookies, and reading a
session's link, cookies and text.

Each AppTest is one browser session; a new one is a reload, given the cookies the first one asked
the browser to keep (``views.ui.learner.browser_cookies`` patched: AppTest sends no cookies).
Import the fixtures by name into a test module to use them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit as st
from apptest_support import ok
from streamlit.testing.v1 import AppTest

from ndcg_core.classroom import Store
from views.ui import keys, learner

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_DATA_DIR", str(tmp_path))
    for name in ("NDCG_TRUSTED_PROXIES", "NDCG_DATABASE_URL", "NDCG_ROOM_HOURS"):  # this machine's own
        monkeypatch.delenv(name, raising=False)
    st.cache_resource.clear()  # the page's one store per process: a new one on this test's file
    yield tmp_path
    st.cache_resource.clear()


@pytest.fixture
def cookies(monkeypatch):
    """The cookies the next sessions' browser sends (a dict the test fills)."""
    jar: dict[str, str] = {}
    monkeypatch.setattr(learner, "browser_cookies", lambda: dict(jar))
    return jar


def db(data_dir: Path, **kwargs) -> Store:
    """The store the page uses, opened by the test (``kwargs``: a ``clock``, ``hours``)."""
    return Store(f"sqlite:///{data_dir / 'classroom.sqlite3'}", **kwargs)


def open_page(page: str, params: dict[str, str] | None = None) -> AppTest:
    """The app's ``page`` opened with a link's ``params``."""
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in (params or {}).items():  # the session starts on the link (its list)
        if name != "lang":  # the language on the page's run only, as these tests were written
            at.query_params[name] = value
    ok(at.run())
    at.switch_page(page)  # AppTest knows the pages after a first run
    for name, value in (params or {}).items():
        at.query_params[name] = value
    return ok(at.run())


def params(at: AppTest) -> dict[str, str]:
    return {k: v[0] if isinstance(v, list) else v for k, v in at.query_params.items()}


def wanted_cookies(at: AppTest) -> dict[str, str]:
    """The cookies this session asked the browser to keep."""
    return dict(at.session_state[keys.LR_COOKIES]) if keys.LR_COOKIES in at.session_state else {}

"""Issue 14 (hardening) through AppTest: the app never crashes, never loses work, shows user text as text."""

from __future__ import annotations

import pathlib

from streamlit.testing.v1 import AppTest

ROOT = pathlib.Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")


def app(params: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in (params or {}).items():
        at.query_params[key] = value
    return at.run()


def ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def test_item6_huge_k_in_the_link_keeps_the_page_usable():
    at = app({"rel": "3,2,1", "k": "9007199254740992"})
    ok(at)
    assert any("'k'" in w.value for w in at.warning)
    assert at.metric[0].value == "1.000" or at.metric[0].value == "1"  # 3,2,1 is ideal

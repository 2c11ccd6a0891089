"""Helpers for AppTests of the playground."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

#: The playground's tabs (views/playground.py): only the open one's content is drawn.
ORDER, EDIT, POOL = "Order", "Edit items", "Not retrieved"


def open_tab(at: AppTest, label: str, *, lang: str = "en", run: bool = True) -> AppTest:
    """Open one of the playground's tabs, as a click on it does (the tabs are keyed per language)."""
    key = f"pg_tab_{lang}"
    assert key in at.session_state, f"no playground tabs keyed {key!r} in the last run"
    at.session_state[key] = label
    return at.run() if run else at

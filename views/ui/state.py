"""The playground's state in the session: the ranking and the judged pool, put in place and read back."""

from __future__ import annotations

import streamlit as st

from ndcg_core.teaching.playground import (
    PlaygroundState,
)

from .formula import PLAYGROUND, load_spec
from .session import bump


def load_state(state: PlaygroundState, example: str | None = None) -> None:
    """Put a whole state in place: items, pool and the playground's formula."""
    ss = st.session_state
    ss.pg_items = state.items
    ss.pg_pool = state.pool
    ss.pg_example = example
    ss.pop("pg_move_id", None)
    load_spec(PLAYGROUND, state.spec)
    for name in ("pg_sort_version", "pg_editor_version", "pg_pool_version"):
        bump(name)


def current_state() -> PlaygroundState:
    """The shared state: items and pool, and the spec the playground's controls settled on this run."""
    ss = st.session_state
    return PlaygroundState(items=ss.pg_items, pool=ss.pg_pool, spec=ss.pg_spec)

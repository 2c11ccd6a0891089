"""The playground's state in the session: the ranking and the judged pool, put in place and read back."""

from __future__ import annotations

import streamlit as st

from ndcg_core.teaching.playground import (
    PlaygroundState,
)

from . import keys
from .formula import PLAYGROUND, load_spec
from .session import bump


def load_state(state: PlaygroundState, example: str | None = None) -> None:
    """Put a whole state in place: items, pool and the playground's formula."""
    ss = st.session_state
    ss[keys.PG_ITEMS] = state.items
    ss[keys.PG_POOL] = state.pool
    ss[keys.PG_EXAMPLE] = example
    ss.pop(keys.PG_MOVE_ID, None)
    load_spec(PLAYGROUND, state.spec)
    for name in keys.LIST_VERSIONS:
        bump(name)


def current_state() -> PlaygroundState:
    """The shared state: items and pool, and the spec the playground's controls settled on this run."""
    ss = st.session_state
    return PlaygroundState(items=ss[keys.PG_ITEMS], pool=ss[keys.PG_POOL], spec=ss[keys.PG_SPEC])

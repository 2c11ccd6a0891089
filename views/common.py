"""Session plumbing shared by the pages: one state, read from and written to the URL.

The playground's state lives in ``st.session_state``: the ranking and the
judged pool under ``pg_items`` / ``pg_pool`` (tuples of ``Item``), the
variant in the keyed controls (``k_all``, ``k``, ``gain``, ``gain_table``,
``discount``, ``base``, ``base_custom``, ``zero_idcg``). Everything else is
computed from it by ``ndcg_core``.
"""

from __future__ import annotations

import math
import re

import streamlit as st

from ndcg_core import Variant
from ndcg_core.playground import PlaygroundState, from_query_params, to_query_params
from ndcg_core.variants import format_base, parse_gain_table

NAMED_BASES = {"2": 2.0, "e": math.e, "10": 10.0}

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~])")


def md_escape(text: str) -> str:
    """Make user text safe inside Markdown: it shows literally, never as formatting."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def bump(name: str) -> None:
    """Change a component's key so it redraws from the state (sortables, editors)."""
    st.session_state[name] = st.session_state.get(name, 0) + 1


def load_state(state: PlaygroundState, example: str | None = None) -> None:
    """Put a whole state in place: items, pool and every variant control."""
    ss = st.session_state
    ss.pg_items = state.items
    ss.pg_pool = state.pool
    ss.pg_example = example
    v = state.variant
    ss.k_all = v.k is None
    ss.k = v.k if v.k is not None else max(len(state.items), 1)
    if v.gain_table is not None:
        ss.gain = "custom"
        ss.gain_table = ", ".join(f"{g:g}:{x:g}" for g, x in v.gain)
    else:
        ss.gain = v.gain
    named = next((name for name, b in NAMED_BASES.items() if b == v.log_base), None)
    ss.base = named or "custom"
    ss.base_custom = v.log_base
    ss.discount = v.discount
    ss.zero_idcg = v.zero_idcg
    for name in ("pg_sort_version", "pg_editor_version", "pg_pool_version"):
        bump(name)


def init_session() -> None:
    """On a session's first run, take the state from the share link (or the default)."""
    ss = st.session_state
    if ss.get("pg_ready"):
        return
    state, warnings = from_query_params(st.query_params.to_dict())
    ss.gain_table = "0:0, 1:1, 2:3, 3:7"
    load_state(state)
    ss.pg_url_warnings = warnings
    ss.pg_messages = []
    ss.pg_last_variant = state.variant
    ss.pg_ready = True


def variant_from_controls() -> tuple[Variant, list[str]]:
    """The variant the controls describe; a bad entry keeps the last good variant's value."""
    ss = st.session_state
    errors: list[str] = []
    last: Variant = ss.pg_last_variant
    k = None if ss.k_all else int(ss.k)
    gain = ss.gain
    if gain == "custom":
        try:
            gain = parse_gain_table(ss.gain_table)
            grades = {i.grade for i in ss.pg_items + ss.pg_pool}
            missing = sorted(grades - set(gain))
            if missing:
                raise ValueError(
                    f"grade {missing[0]:g} has no gain in the table; add an entry such as {missing[0]:g}:1"
                )
        except ValueError as err:
            errors.append(f"Gain table: {err}. Still using the previous gain.")
            gain = last.gain_table or last.gain
    base = NAMED_BASES.get(ss.base, ss.base_custom)
    try:
        variant = Variant(k=k, gain=gain, discount=ss.discount, log_base=base, zero_idcg=ss.zero_idcg)
    except ValueError as err:
        errors.append(f"Log base: {err}. Still using base {format_base(last.log_base)}.")
        variant = Variant(
            k=k, gain=gain, discount=ss.discount, log_base=last.log_base, zero_idcg=ss.zero_idcg
        )
    ss.pg_last_variant = variant
    return variant, errors


def current_state() -> PlaygroundState:
    variant, _ = variant_from_controls()
    return PlaygroundState(items=st.session_state.pg_items, pool=st.session_state.pg_pool, variant=variant)


def sync_url(state: PlaygroundState) -> None:
    """Write the state into the address bar, so copying it shares this exact view."""
    params = to_query_params(state)
    if st.query_params.to_dict() != params:
        st.query_params.from_dict(params)

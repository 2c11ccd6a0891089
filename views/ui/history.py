"""Undo and redo of the playground's list."""

from __future__ import annotations

import contextlib

import streamlit as st

from ndcg_core.i18n import _
from ndcg_core.teaching.history import History

from .session import bump


def _snapshot() -> tuple:
    ss = st.session_state
    return (ss.pg_items, ss.pg_pool)


def record_history() -> None:
    """Note the list after this run's changes (call once per run, after the list may have changed)."""
    ss = st.session_state
    history = ss.get("pg_history")
    ss.pg_history = History.start(_snapshot()) if history is None else history.record(_snapshot())


def _restore(which: str) -> None:
    ss = st.session_state
    history = ss.get("pg_history") or History.start(_snapshot())
    history, (items, pool) = history.undo() if which == "undo" else history.redo()
    ss.pg_history = history
    ss.pg_items, ss.pg_pool = items, pool
    ss.pg_messages = []
    for name in ("pg_sort_version", "pg_editor_version", "pg_pool_version"):
        bump(name)


def history_buttons(prefix: str, *, inline: bool = False) -> None:
    """Undo and Redo buttons for list changes (drags, edits, loaded examples).

    They share a row (a horizontal container, so they stay side by side on a phone); ``inline``
    draws them in the caller's horizontal container instead, after its own buttons.
    """
    record_history()  # a change made earlier in this run (a drag) enables Undo right away
    history = st.session_state.get("pg_history")
    buttons = (
        ("undo", _("Undo"), ":material/undo:", history is not None and history.can_undo,
         _("Undo the last change to the list")),
        ("redo", _("Redo"), ":material/redo:", history is not None and history.can_redo,
         _("Redo the change you undid")),
    )  # fmt: skip
    with contextlib.nullcontext() if inline else st.container(horizontal=True, gap="small"):
        for which, label, icon, possible, explained in buttons:
            st.button(
                label,
                key=f"{prefix}_{which}",
                icon=icon,
                on_click=_restore,
                args=(which,),
                disabled=not possible,
                help=explained,
                width="content" if inline else "stretch",
            )

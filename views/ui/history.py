"""Undo and redo of the playground's list."""

from __future__ import annotations

import contextlib

import streamlit as st

from ndcg_core.i18n import _
from ndcg_core.teaching.history import History

from . import keys
from .session import bump


def _snapshot() -> tuple:
    ss = st.session_state
    return (ss[keys.PG_ITEMS], ss[keys.PG_POOL])


def record_history() -> None:
    """Note the list after this run's changes (call once per run, after the list may have changed)."""
    ss = st.session_state
    history = ss.get(keys.PG_HISTORY)
    ss[keys.PG_HISTORY] = History.start(_snapshot()) if history is None else history.record(_snapshot())


def _restore(which: str) -> None:
    ss = st.session_state
    history = ss.get(keys.PG_HISTORY) or History.start(_snapshot())
    history, (items, pool) = history.undo() if which == "undo" else history.redo()
    ss[keys.PG_HISTORY] = history
    ss[keys.PG_ITEMS], ss[keys.PG_POOL] = items, pool
    ss[keys.PG_MESSAGES] = []
    for name in keys.LIST_VERSIONS:
        bump(name)


def history_buttons(prefix: str, *, inline: bool = False) -> None:
    """Undo and Redo buttons for list changes (drags, edits, loaded examples).

    They share a row (a horizontal container, so they stay side by side on a phone); ``inline``
    draws them in the caller's horizontal container instead, after its own buttons.
    """
    record_history()  # a change made earlier in this run (a drag) enables Undo right away
    history = st.session_state.get(keys.PG_HISTORY)
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

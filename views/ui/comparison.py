"""Explore's comparison state, put in place from any page (Explore's presets, the Data sets page)."""

from __future__ import annotations

import streamlit as st

from ndcg_core.teaching.compare import RANKING_NAMES, Comparison, RankingsForm
from ndcg_core.teaching.playground import make_items

from . import keys
from .session import bump

#: Explore's ranking-name boxes take this many characters.
NAME_CHARS = 20


def load_comparison(c: Comparison) -> None:
    """Explore's judged items and rankings from ``c``, also in the copies Explore restores its widgets from.

    Explore keeps its widgets' values across pages (:func:`views.ui.session.keep_widgets`): when
    another page puts a comparison in place, the kept copies must say the same, or Explore would
    restore the old rankings over it.
    """
    st.session_state[keys.CMP_JUDGED] = make_items(c.judged)
    load_rankings(RankingsForm.of(c))
    bump(keys.table_version(keys.CMP))


def load_rankings(form: RankingsForm) -> None:
    """Explore's ranking boxes (names and orders, and their kept copies) showing ``form``'s rankings."""
    ss = st.session_state
    ss[keys.CMP_COUNT] = len(form.rankings)
    for i, key in enumerate(keys.CMP_RANKS):
        name, order = form.rankings[i] if i < len(form.rankings) else (RANKING_NAMES[i], "")
        for target in (key, keys.kept(key)):
            ss[target] = order
        for target in (keys.rank_name(key), keys.kept(keys.rank_name(key))):
            ss[target] = name[:NAME_CHARS]


def rankings_form() -> RankingsForm:
    """Explore's form as its widgets hold it now."""
    ss = st.session_state
    ranks = keys.CMP_RANKS[: ss[keys.CMP_COUNT]]
    return RankingsForm(
        tuple((i.label, i.grade) for i in ss[keys.CMP_JUDGED]),
        tuple((ss.get(keys.rank_name(key), ""), ss.get(key, "")) for key in ranks),
    )

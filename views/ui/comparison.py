"""Explore's comparison state, put in place from any page (Explore's presets, the Data sets page)."""

from __future__ import annotations

import streamlit as st

from ndcg_core.teaching.compare import Comparison
from ndcg_core.teaching.playground import make_items

from . import keys
from .session import bump

NAMES = ["A", "B", "C", "D"]
#: Explore's ranking-name boxes take this many characters.
NAME_CHARS = 20


def load_comparison(c: Comparison) -> None:
    """Explore's judged items and rankings from ``c``, also in the copies Explore restores its widgets from.

    Explore keeps its widgets' values across pages (:func:`views.ui.session.keep_widgets`): when
    another page puts a comparison in place, the kept copies must say the same, or Explore would
    restore the old rankings over it.
    """
    ss = st.session_state
    ss[keys.CMP_JUDGED] = make_items(c.judged)
    ss[keys.CMP_COUNT] = len(c.rankings)
    for i, key in enumerate(keys.CMP_RANKS):
        order = ", ".join(c.rankings[i][1]) if i < len(c.rankings) else ""
        name = c.rankings[i][0][:NAME_CHARS] if i < len(c.rankings) else NAMES[i]
        for target in (key, keys.kept(key)):
            ss[target] = order
        for target in (keys.rank_name(key), keys.kept(keys.rank_name(key))):
            ss[target] = name
    bump(keys.table_version(keys.CMP))

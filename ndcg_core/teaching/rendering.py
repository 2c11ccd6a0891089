"""What a page draws for one playground state, computed once per state and reused.

A drag or an edit reruns the page; everything here depends only on the state (a frozen,
hashable :class:`~ndcg_core.teaching.playground.PlaygroundState`), so it is kept in small
least-recently-used caches: a rerun that did not change the state (choosing an item to move,
switching tabs, the chart selector going back) reuses the explanation, the chart and the
formulas. The returned objects are shared: read them, never change them in place.
"""

from __future__ import annotations

from functools import lru_cache

import plotly.graph_objects as go

from ..errors import NDCGError
from ..explanation import Explanation
from ..i18n import language
from .figures import cumulative_figure, gains_figure, ndcg_at_k_figure
from .formula import dcg_latex, definition_latex, ndcg_latex
from .playground import DEFAULT_STATE, PlaygroundState

__all__ = ["CHART_KINDS", "clear", "explained", "state_figure", "state_formulas", "warm"]

#: The charts of one state: gain per position, cumulative DCG against the ideal's, the cumulative DCG
#: alone (before the lesson has taught the ideal ordering), NDCG at every k.
CHART_KINDS = ("gains", "cumulative", "dcg", "ndcg_at_k")
CACHED_STATES = 64


@lru_cache(maxsize=CACHED_STATES)
def explained(state: PlaygroundState) -> Explanation:
    """``state.explain()``, once per state (raises ValueError as it does)."""
    return state.explain()


def state_figure(state: PlaygroundState, kind: str) -> go.Figure:
    """One of the :data:`CHART_KINDS` charts of the state, in the current language."""
    return _state_figure(state, kind, language())


@lru_cache(maxsize=CACHED_STATES)
def _state_figure(state: PlaygroundState, kind: str, lang: str) -> go.Figure:
    """The cached chart: its titles are in ``lang`` (the cache key), which is the current language."""
    ex = explained(state)
    if kind == "gains":
        return gains_figure(ex)
    if kind in ("cumulative", "dcg"):
        return cumulative_figure(ex, ideal=kind == "cumulative")
    if kind == "ndcg_at_k":
        return ndcg_at_k_figure(state.curve(ex), ex.k)
    raise NDCGError("chart_kind", allowed=", ".join(CHART_KINDS), kind=repr(kind))


def state_formulas(state: PlaygroundState) -> tuple[str, str, str, str]:
    """The general formula, then DCG@k, IDCG@k and NDCG@k written out with the state's numbers.

    In the current language: the words inside the LaTeX (an undefined value, the IDCG = 0 rule,
    a gain table) are translated.
    """
    return _state_formulas(state, language())


@lru_cache(maxsize=CACHED_STATES)
def _state_formulas(state: PlaygroundState, lang: str) -> tuple[str, str, str, str]:
    """The cached formulas, in ``lang`` (the cache key), which is the current language."""
    ex = explained(state)
    return definition_latex(state.variant), dcg_latex(ex), dcg_latex(ex, ideal=True), ndcg_latex(ex)


def clear() -> None:
    """Empty every cache here (a benchmark measures a state never seen)."""
    for cached in (explained, _state_figure, _state_formulas):
        cached.cache_clear()


def warm() -> None:
    """Compute the default state's explanation, charts and formulas once (the first page's), so
    a session finds them cached. Drawing a chart needs only its spec, not plotly's objects."""
    for kind in CHART_KINDS:
        state_figure(DEFAULT_STATE, kind)
    state_formulas(DEFAULT_STATE)

"""Open one query of a data set as a playground state, or several runs' rankings of it side by side.

The state carries the very :class:`~ndcg_core.spec.Spec` the data set was
scored with (formula, tie rule, a library's input rules), and the items keep
their run scores, so the playground ranks them by the same rule and shows the
very NDCG of the per-query table.

>>> import pandas as pd
>>> from ndcg_core import resolve
>>> qrels = pd.DataFrame({"query": ["q"] * 3, "doc": ["a", "b", "z"], "relevance": [1, 2, 3]})
>>> run = pd.DataFrame({"query": ["q"] * 2, "doc": ["a", "b"], "score": [0.9, 0.9]})
>>> state = query_state(qrels, run, "q", spec=resolve("trec_eval"))
>>> [(i.label, i.grade) for i in state.items], [(i.label, i.grade) for i in state.pool]
([('b', 2.0), ('a', 1.0)], [('z', 3.0)])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import pandas as pd

from ..errors import NDCGError
from ..metrics import rank_by_scores
from ..spec import Spec
from .compare import MAX_RANKINGS, Comparison
from .playground import PlaygroundState, make_items

__all__ = ["query_state", "runs_comparison"]


def _ranked_docs(run: pd.DataFrame, query: str, spec: Spec) -> list[str]:
    q_run = run[run["query"].astype(str) == str(query)]
    docs = q_run["doc"].astype(str).tolist()
    order, _ = rank_by_scores(q_run["score"].to_numpy(dtype=float), docs, spec.variant.ties)
    return [docs[i] for i in order]


def query_state(qrels: pd.DataFrame, run: pd.DataFrame, query: str, *, spec: Spec) -> PlaygroundState:
    """The playground state of one query, under the spec the data set was scored with.

    Parameters
    ----------
    qrels, run : pandas.DataFrame
        As for :func:`ndcg_core.evaluate` (columns query/doc/relevance and
        query/doc/score).
    query : str
        The query id.
    spec : Spec
        The spec :func:`ndcg_core.evaluate` used. The items are listed in the
        order its tie rule ranks them (:func:`ndcg_core.metrics.rank_by_scores`)
        and keep their scores, so the playground ranks them the same way. With
        no cutoff, ``k`` is set to cover every retrieved and judged document,
        so the playground (whose ``k = None`` stops the ideal at the list's
        length) agrees with :func:`ndcg_core.evaluate` (whose ``k = None`` does not).

    Raises
    ------
    ValueError
        If the query is in neither table.
    """
    q_run = run[run["query"].astype(str) == str(query)]
    q_rels = qrels[qrels["query"].astype(str) == str(query)]
    if q_run.empty and q_rels.empty:
        raise NDCGError("query_not_found", query=repr(query))
    docs = q_run["doc"].astype(str).tolist()
    scores = q_run["score"].to_numpy(dtype=float)
    order, _ = rank_by_scores(scores, docs, spec.variant.ties)
    grade_of = dict(zip(q_rels["doc"].astype(str), q_rels["relevance"].astype(float), strict=True))
    ranked = [(docs[i], grade_of.get(docs[i], 0.0)) for i in order]
    retrieved = set(docs)
    pool = [(d, g) for d, g in grade_of.items() if d not in retrieved]
    if spec.k is None:
        spec = spec.with_k(max(len(ranked) + len(pool), 1))
    items = tuple(
        replace(item, score=float(scores[i])) for item, i in zip(make_items(ranked), order, strict=True)
    )
    return PlaygroundState(items=items, pool=make_items(pool, start=len(items)), spec=spec)


def runs_comparison(
    qrels: pd.DataFrame, runs: Mapping[str, pd.DataFrame], query: str, *, spec: Spec
) -> Comparison:
    """One query's rankings by several runs (2 to 4), as an Explore comparison of the same judged items.

    Each run's ranking is its documents in the order the spec's tie rule ranks them; with a
    cutoff and the judged pool as the ideal, only its first k count, so only those are listed
    (a run of 1,000 documents a query stays readable). The judged items are every document the
    qrels judge for the query, then the listed documents they do not judge (grade 0). With no
    cutoff, k is set to cover every item, as in :func:`query_state`.

    >>> qrels = pd.DataFrame({"query": ["q"] * 2, "doc": ["a", "b"], "relevance": [2, 1]})
    >>> one = pd.DataFrame({"query": ["q"] * 2, "doc": ["b", "x"], "score": [2.0, 1.0]})
    >>> two = pd.DataFrame({"query": ["q"] * 2, "doc": ["a", "b"], "score": [2.0, 1.0]})
    >>> c = runs_comparison(qrels, {"one": one, "two": two}, "q", spec=Spec().with_k(2))
    >>> print(c.judged, c.rankings)
    (('a', 2.0), ('b', 1.0), ('x', 0.0)) (('one', ('b', 'x')), ('two', ('a', 'b')))
    """
    q_rels = qrels[qrels["query"].astype(str) == str(query)]
    grade_of = dict(zip(q_rels["doc"].astype(str), q_rels["relevance"].astype(float), strict=True))
    rankings = {name: _ranked_docs(run, query, spec) for name, run in list(runs.items())[:MAX_RANKINGS]}
    if not grade_of and not any(rankings.values()):
        raise NDCGError("query_not_found", query=repr(query))
    if spec.k is not None and spec.ideal_source == "pool":
        rankings = {name: docs[: spec.k] for name, docs in rankings.items()}
    judged = dict(grade_of)
    for docs in rankings.values():
        judged.update({d: 0.0 for d in docs if d not in judged})
    if spec.k is None:
        spec = spec.with_k(max(len(judged), 1))
    return Comparison(
        judged=tuple(judged.items()),
        rankings=tuple((name, tuple(docs)) for name, docs in rankings.items()),
        spec=spec,
    )

"""Open one query of a data set as a playground state: its ranking and its judged pool.

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

from dataclasses import replace

import pandas as pd

from ..errors import NDCGError
from ..metrics import rank_by_scores
from ..spec import Spec
from .playground import PlaygroundState, make_items

__all__ = ["query_state"]


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

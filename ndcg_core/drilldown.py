"""Open one query of a data set as a playground state: its ranking and its judged pool.

The ranking is the run's documents for the query, best score first, with
equal scores ordered by the same tie rule the data-set evaluation used, so
the playground shows the very NDCG of the per-query table.

>>> import pandas as pd
>>> qrels = pd.DataFrame({"query": ["q"] * 3, "doc": ["a", "b", "z"], "relevance": [1, 2, 3]})
>>> run = pd.DataFrame({"query": ["q"] * 2, "doc": ["a", "b"], "score": [0.9, 0.9]})
>>> state = query_state(qrels, run, "q")
>>> [(i.label, i.grade) for i in state.items], [(i.label, i.grade) for i in state.pool]
([('b', 2.0), ('a', 1.0)], [('z', 3.0)])
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from .playground import PlaygroundState, make_items
from .variants import Variant

__all__ = ["query_state"]


def query_state(
    qrels: pd.DataFrame,
    run: pd.DataFrame,
    query: str,
    *,
    variant: Variant | None = None,
    ties: str = "docid_desc",
) -> PlaygroundState:
    """The playground state of one query.

    Parameters
    ----------
    qrels, run : pandas.DataFrame
        As for :func:`ndcg_core.evaluate` (columns query/doc/relevance and
        query/doc/score).
    query : str
        The query id.
    variant : Variant, optional
        The formula to open it with. With no cutoff, ``k`` is set to cover
        every retrieved and judged document, so the playground (whose ``k =
        None`` stops the ideal at the list's length) agrees with
        :func:`ndcg_core.evaluate` (whose ``k = None`` does not).
    ties : {"docid_desc", "stable"}
        ``"docid_desc"``: scores as float32, equal scores by document id
        descending (trec_eval). ``"stable"``: equal scores keep the run's
        row order. ``"average"``: shown in file order, with each tie group's
        gains averaged by the playground, as the evaluation does.

    Raises
    ------
    ValueError
        If the query is in neither table.
    """
    q_run = run[run["query"].astype(str) == str(query)]
    q_rels = qrels[qrels["query"].astype(str) == str(query)]
    if q_run.empty and q_rels.empty:
        raise ValueError(f"query {query!r} is in neither the run nor the qrels")
    docs = q_run["doc"].astype(str).to_numpy()
    scores = q_run["score"].to_numpy(dtype=float)
    if ties == "docid_desc":
        scores32 = scores.astype(np.float32)
        # lexsort: last key first; doc id descending via the rank of the text
        doc_rank = pd.Series(docs).rank(method="dense").to_numpy()
        order = np.lexsort((-doc_rank, -scores32))
    else:
        order = np.argsort(-scores, kind="stable")
    grade_of = dict(zip(q_rels["doc"].astype(str), q_rels["relevance"].astype(float), strict=True))
    ranked = [(docs[i], grade_of.get(docs[i], 0.0)) for i in order]
    retrieved = set(docs)
    pool = [(d, g) for d, g in grade_of.items() if d not in retrieved]
    v = (variant or Variant()).with_(ties=ties if ties in {"docid_desc", "average"} else "stable")
    if v.k is None:
        v = v.with_(k=max(len(ranked) + len(pool), 1))
    # The items keep their scores, so the playground shows the tie groups (and, for "average",
    # averages their gains exactly as the data-set evaluation did).
    items = tuple(
        replace(item, score=float(scores[i])) for item, i in zip(make_items(ranked), order, strict=True)
    )
    return PlaygroundState(items=items, pool=make_items(pool, start=len(items)), variant=v)

"""Unjudged is not zero: how much of each query's top k was judged, and one query's ranking in full.

NDCG counts a retrieved document nobody judged as grade 0, like one judged not relevant: a run that
finds relevant documents the judges never saw is scored down, silently. :func:`judged_at` gives each
query's Judged@k (ir_measures' definition: the share of its first min(k, n) retrieved documents that
have a judgement, whatever its grade); :func:`query_ranking` lists one query's ranked documents with
their grade, or none for an unjudged one, and what each adds to DCG. The Data sets page shows both;
``ndcg-eval -m Judged@10`` prints the first (trec_eval's ``unj.10`` is its complement over k).

>>> import pandas as pd
>>> qrels = pd.DataFrame({"query": ["q"] * 2, "doc": ["a", "b"], "relevance": [2, 0]})
>>> run = pd.DataFrame({"query": ["q"] * 3, "doc": ["x", "a", "b"], "score": [3.0, 2.0, 1.0]})
>>> judged_at(qrels, run, 2)[["query", "judged", "top", "judged@2"]].values.tolist()
[['q', 1, 2, 0.5]]
>>> query_ranking(qrels, run, "q", k=3)[["rank", "doc", "grade", "judged"]].values.tolist()
[[1, 'x', nan, False], [2, 'a', 2.0, True], [3, 'b', 0.0, True]]
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import NDCGError
from ..metrics import divisors, gains, rank_by_scores
from ..presets import as_spec
from ..spec import Spec
from .scoring import DATASET_BASE
from .tables import _QRELS_COLUMNS, _RUN_COLUMNS, _normalize_columns, source_name

__all__ = ["judged_at", "query_ranking"]


def _tables(qrels: pd.DataFrame, run: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    qrels = _normalize_columns(qrels, _QRELS_COLUMNS, source_name(qrels, "qrels"))
    run = _normalize_columns(run, _RUN_COLUMNS, source_name(run, "run"))
    return qrels.astype({"query": str, "doc": str}), run.astype({"query": str, "doc": str})


def judged_at(qrels: pd.DataFrame, run: pd.DataFrame, k: int, *, spec: Spec | None = None) -> pd.DataFrame:
    """Each query's Judged@k: how many of its first k retrieved documents have a judgement.

    Parameters
    ----------
    qrels, run : pandas.DataFrame
        As for :func:`ndcg_core.evaluate`.
    k : int
        The cutoff.
    spec : Spec, optional
        Its tie rule orders equal scores (default :data:`~ndcg_core.dataset.scoring.DATASET_BASE`'s,
        trec_eval's: float32, then document id descending; ``"stable"`` and ``"average"`` keep the
        run's order).

    Returns
    -------
    pandas.DataFrame
        One row per query of the run: ``query``, ``judged`` (judged documents among the first k),
        ``top`` (documents there: min(k, retrieved)) and ``judged@k`` (their ratio).
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise NDCGError("k_below_one", value=repr(k))
    spec = DATASET_BASE if spec is None else as_spec(spec, None)
    qrels, run = _tables(qrels, run)
    docid = spec.variant.ties == "docid_desc"
    ordered = run.assign(
        _score=run["score"].to_numpy(dtype=np.float32 if docid or spec.score_dtype == "float32" else float),
        _row=np.arange(len(run)),
    )
    keys, ascending = ["query", "_score", "doc" if docid else "_row"], [True, False, not docid]
    ordered = ordered.sort_values(keys, ascending=ascending, kind="stable")
    top = ordered[ordered.groupby("query", sort=False).cumcount() < k]
    judged = pd.MultiIndex.from_frame(top[["query", "doc"]]).isin(
        pd.MultiIndex.from_frame(qrels[["query", "doc"]])
    )
    counts = top.assign(judged=judged).groupby("query", sort=False)["judged"].agg(["sum", "size"])
    order = pd.unique(run["query"])
    counts = counts.reindex(order)
    return pd.DataFrame(
        {
            "query": order,
            "judged": counts["sum"].to_numpy(dtype=int),
            "top": counts["size"].to_numpy(dtype=int),
            f"judged@{k}": (counts["sum"] / counts["size"]).to_numpy(dtype=float),
        }
    )


def query_ranking(
    qrels: pd.DataFrame, run: pd.DataFrame, query: str, *, spec: Spec | None = None, k: int | None = None
) -> pd.DataFrame:
    """One query's retrieved documents in ranked order, judged or not, and what each adds to DCG.

    Parameters
    ----------
    qrels, run : pandas.DataFrame
        As for :func:`ndcg_core.evaluate`.
    query : str
        The query id.
    spec : Spec, optional
        The formula and tie rule (default :data:`~ndcg_core.dataset.scoring.DATASET_BASE`); its
        grade rules apply (trec_eval's negative grades count as 0).
    k : int, optional
        How many ranks to list (default the spec's cutoff, else every document).

    Returns
    -------
    pandas.DataFrame
        ``rank`` (from 1), ``doc``, ``score``, ``grade`` (NaN for an unjudged document), ``judged``,
        ``gain`` (an unjudged document's is grade 0's, as NDCG counts it), ``divisor``,
        ``discounted`` (gain / divisor) and ``in_top_k``.
    """
    spec = DATASET_BASE if spec is None else as_spec(spec, None)
    qrels, run = _tables(qrels, run)
    rows = run[run["query"] == str(query)]
    if rows.empty and not (qrels["query"] == str(query)).any():
        raise NDCGError("query_not_found", query=repr(query))
    docs = rows["doc"].tolist()
    order, _ = rank_by_scores(rows["score"].to_numpy(dtype=float), docs, spec.variant.ties)
    grade_of = dict(
        zip(*(qrels.loc[qrels["query"] == str(query), c] for c in ("doc", "relevance")), strict=True)
    )
    ranked = [docs[i] for i in order]
    grade = np.array([grade_of.get(d, np.nan) for d in ranked], dtype=float)
    judged = ~np.isnan(grade)
    counted = spec.rewrite_grades(np.where(judged, grade, 0.0))
    gain = gains(counted, spec.variant.gain_spec)
    divisor = divisors(len(ranked), spec.variant.discount, spec.variant.log_base)
    cut = k if k is not None else spec.k
    out = pd.DataFrame(
        {
            "rank": np.arange(1, len(ranked) + 1),
            "doc": ranked,
            "score": rows["score"].to_numpy(dtype=float)[order],
            "grade": grade,
            "judged": judged,
            "gain": gain,
            "divisor": divisor,
            "discounted": gain / divisor,
            "in_top_k": np.arange(len(ranked)) < (cut if cut is not None else len(ranked)),
        }
    )
    return out if k is None else out.head(k)

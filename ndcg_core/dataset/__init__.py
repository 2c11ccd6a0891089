"""NDCG over a whole data set: many queries at once, vectorised.

:func:`evaluate` scores every query of a run against a set of relevance
judgements (qrels) in one pass of array operations: no Python loop per query.
Each query's numbers are those :func:`ndcg_core.ndcg` gives for that query's
ranked grades with the judged pool as ``ideal``. :func:`aggregate` averages a
data set both ways (mean of NDCG and ΣDCG/ΣIDCG) and says what the IDCG = 0
policy did. :func:`read_qrels` and :func:`read_run` load TREC files and
CSV/TSV tables with a header.

Examples
--------
>>> import pandas as pd
>>> from ndcg_core import evaluate, aggregate
>>> qrels = pd.DataFrame({"query": ["q1", "q1", "q2"], "doc": ["a", "b", "c"], "relevance": [1, 2, 0]})
>>> run = pd.DataFrame({"query": ["q1", "q1", "q2"], "doc": ["a", "b", "c"], "score": [0.9, 0.1, 0.5]})
>>> per_query = evaluate(qrels, run)
>>> per_query[["query", "dcg", "idcg", "ndcg"]].round(3)
  query    dcg   idcg  ndcg
0    q1  2.262  2.631  0.86
1    q2  0.000  0.000  0.00
>>> agg = aggregate(per_query)
>>> round(agg.mean_ndcg, 3), round(agg.ratio_of_sums, 3), agg.n_idcg_zero
(0.43, 0.86, 1)

The package, in reading order: :mod:`.scoring` (:func:`evaluate`,
:func:`aggregate`: the API and its rules), :mod:`.tables` (columns, checks and
the TREC/CSV readers), :mod:`.keys` (ids to integer codes and packed sort keys;
the join of run rows with the qrels), :mod:`.kernels` (ranking, DCG and IDCG of
every query, in cache-sized blocks on up to two threads).
"""

from typing import TYPE_CHECKING

from ..lazy import lazy_names

#: Each public name's module, imported on first use (PEP 562): ``ndcg_core.dataset.sources`` or
#: ``.lean`` load without pandas and the kernels.
_LAZY = {
    "DUPLICATE_RULES": "..spec",
    "IDEAL_SOURCES": "..spec",
    "QUERY_RULES": "..spec",
    "DATASET_BASE": ".scoring",
    "TIE_RULES": ".scoring",
    "Aggregate": ".scoring",
    "aggregate": ".scoring",
    "evaluate": ".scoring",
    "read_qrels": ".tables",
    "read_run": ".tables",
}

__all__ = [
    "DATASET_BASE",
    "DUPLICATE_RULES",
    "IDEAL_SOURCES",
    "QUERY_RULES",
    "TIE_RULES",
    "Aggregate",
    "aggregate",
    "evaluate",
    "read_qrels",
    "read_run",
]


__getattr__, __dir__ = lazy_names(__name__, _LAZY)


if TYPE_CHECKING:
    from ..spec import DUPLICATE_RULES, IDEAL_SOURCES, QUERY_RULES
    from .scoring import DATASET_BASE, TIE_RULES, Aggregate, aggregate, evaluate
    from .tables import read_qrels, read_run

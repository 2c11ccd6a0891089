"""What each real library reports: its NDCG as a value of the variant schema.

A :class:`Preset` is a :class:`~ndcg_core.variants.Variant` (gain, discount,
log base, IDCG = 0 policy, tie rule) plus the few rules a library adds around
the formula: where the ideal ordering comes from, which grades it accepts or
rewrites, and the precision it stores scores in. :func:`ndcg_core.ndcg`
resolves ``preset="..."`` to these values and runs its one engine; there is
no per-library code path. Adding a library is one entry in :data:`PRESETS`.

Each preset names the library version whose behaviour it encodes, says in
one line why it differs from the default formula wherever it does, and
carries a snippet that reproduces the number in the library itself.

Examples
--------
>>> from ndcg_core import ndcg
>>> round(ndcg([0, 1, 2], scores=[0.9, 0.5, 0.5], preset="sklearn"), 4)
0.6448
>>> ndcg([-1, 2], preset="sklearn")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: scikit-learn refuses this list: ndcg_score should not be used on negative y_true values...
"""

from __future__ import annotations

import importlib.util
import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from string import Template
from typing import Any

import numpy as np
import pandas as pd

from .variants import SCHEMA, Variant

__all__ = ["PRESETS", "Preset", "get_preset", "library_table"]

_DEFAULTS = {o.name: o.default for o in SCHEMA}
_GRADE_RULES = {
    "any": "any finite number",
    "non_negative": "numbers of at least 0",
    "integer": "whole numbers",
    "non_negative_integer": "whole numbers of at least 0",
}


@dataclass(frozen=True)
class Preset:
    """One library's NDCG: a formula variant plus the library's input rules.

    Parameters
    ----------
    name : str
        The key in :data:`PRESETS` and the ``preset=`` value.
    library : str
        The library and the function or measure reproduced.
    version : str
        The library version whose behaviour this encodes.
    variant : Variant
        Gain, discount, log base, IDCG = 0 policy and tie rule (``k`` unset).
    differences : tuple of str
        One line for every way this differs from the default formula, and why.
    snippet : str
        A :class:`string.Template` of Python code reproducing the number in the
        library; fill it with :meth:`snippet_for`.
    ideal_source : {"list", "pool"}
        ``"list"``: the library sees only the ranked list, so ``ideal`` is
        ignored. ``"pool"``: the ideal ordering comes from every judged item
        (``ideal``), retrieved or not.
    ideal_depth : {"k", "pool", "retrieved"}
        How many ideal positions IDCG sums. ``"k"``: ``k`` (the list's length
        without a cutoff). ``"pool"``: without a cutoff, the whole judged pool
        (trec_eval's ``ndcg``, ranx). ``"retrieved"``: never more positions
        than items retrieved in the top ``k`` (Elasticsearch).
    allowed_grades : {"any", "non_negative", "integer", "non_negative_integer"}
        Grades the library accepts; others raise ``ValueError`` with
        ``grade_error``.
    max_grade : float, optional
        The largest grade the library accepts.
    grade_error : str
        The library's own rule, shown when it refuses a grade.
    truncate_grades : bool
        The library stores grades as integers, dropping any fraction.
    relevant_from : float, optional
        Grades below this count as not relevant (gain 0).
    drop_negative : bool
        Items with a negative grade are padding: removed from the list.
    min_items : int
        The fewest items the library scores, with ``min_items_error``.
    unique_labels : bool
        The library keys items by id, so ids must be distinct.
    score_dtype : {"float64", "float32"}
        The precision the library stores scores in; scores equal at that
        precision tie.
    module : str
        The Python module to import the library as (for "installed here").
    checked_here : bool
        This repository's tests compare the preset with the real library.
    """

    name: str
    library: str
    version: str
    variant: Variant
    differences: tuple[str, ...]
    snippet: str
    ideal_source: str = "list"
    ideal_depth: str = "k"
    allowed_grades: str = "any"
    max_grade: float | None = None
    grade_error: str = ""
    truncate_grades: bool = False
    relevant_from: float | None = None
    drop_negative: bool = False
    min_items: int = 0
    min_items_error: str = ""
    unique_labels: bool = False
    score_dtype: str = "float64"
    module: str = ""
    checked_here: bool = False
    notes: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if self.variant.k is not None:
            raise ValueError(f"preset {self.name!r}: the variant must leave k unset (k is per call)")
        for attr, allowed in (
            ("ideal_source", {"list", "pool"}),
            ("ideal_depth", {"k", "pool", "retrieved"}),
            ("allowed_grades", set(_GRADE_RULES)),
            ("score_dtype", {"float64", "float32"}),
        ):
            if getattr(self, attr) not in allowed:
                raise ValueError(f"preset {self.name!r}: {attr} must be one of {sorted(allowed)}")

    @property
    def installed(self) -> bool:
        """Whether the library can be imported in this Python environment."""
        return bool(self.module) and importlib.util.find_spec(self.module) is not None

    def check_overrides(self, given: Mapping[str, Any]) -> None:
        """Refuse formula keywords that contradict this preset.

        A keyword left at its schema default is taken to mean "not given".
        """
        for key, value in given.items():
            mine = getattr(self.variant, key)
            if key == "gain" and isinstance(value, Mapping):
                value = tuple(sorted(value.items()))
            if value != _DEFAULTS[key] and value != mine:
                raise ValueError(
                    f"preset {self.name!r} fixes {key}={mine!r}; drop {key}={value!r} or drop the preset"
                )

    def _refuse(self, why: str) -> ValueError:
        return ValueError(f"{self.library.split()[0]} refuses this list: {why}")

    def _check_grades(self, grades: np.ndarray, what: str) -> None:
        rule = self.allowed_grades
        for i, g in enumerate(grades):
            bad = (
                (rule in {"non_negative", "non_negative_integer"} and g < 0)
                or (rule in {"integer", "non_negative_integer"} and g != math.floor(g))
                or (self.max_grade is not None and g > self.max_grade)
            )
            if bad:
                where = f"position {i + 1}" if what == "relevances" else f"position {i + 1} of ideal"
                raise self._refuse(f"{self.grade_error} (grade {g:g} at {where})")

    def _rewrite(self, grades: np.ndarray) -> np.ndarray:
        out = np.trunc(grades) if self.truncate_grades else grades.copy()
        if self.relevant_from is not None:
            out[out < self.relevant_from] = 0.0
        return out

    def prepare(
        self,
        grades: np.ndarray,
        ideal: np.ndarray | None,
        scores: np.ndarray | None,
        labels: list[str] | None,
    ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None, list[str] | None]:
        """Apply the library's input rules to checked arrays.

        Parameters
        ----------
        grades : numpy.ndarray
            Grades in input order.
        ideal : numpy.ndarray or None
            Grades of the judged pool, if given.
        scores : numpy.ndarray or None
            Scores in input order, if given.
        labels : list of str or None
            Item ids in input order, if given.

        Returns
        -------
        tuple
            ``(grades, ideal, scores, labels)`` as the library would see them.

        Raises
        ------
        ValueError
            When the library refuses the input; the message states its rule.
        """
        if self.drop_negative:
            keep = grades >= 0
            if labels is None:
                labels = [f"D{i}" for i in range(1, grades.size + 1)]
            labels = [name for name, kept in zip(labels, keep, strict=True) if kept]
            grades = grades[keep]
            scores = None if scores is None else scores[keep]
            ideal = None if ideal is None else ideal[ideal >= 0]
        if grades.size < self.min_items:
            raise self._refuse(f"{self.min_items_error} (the list has {grades.size})")
        self._check_grades(grades, "relevances")
        if self.unique_labels and labels is not None:
            dupes = sorted(name for name, count in Counter(labels).items() if count > 1)
            if dupes:
                raise self._refuse(f"it identifies items by id, and ids repeat: {', '.join(dupes[:3])}")
        grades = self._rewrite(grades)
        if self.ideal_source == "list":
            return grades, None, scores, labels
        if ideal is None:
            return grades, None, scores, labels
        self._check_grades(ideal, "ideal")
        ideal = self._rewrite(ideal)
        _pool_extras(grades, ideal)  # raises if the pool misses a retrieved relevant grade
        return grades, ideal, scores, labels

    def snippet_for(
        self,
        relevances: Any,
        scores: Any = None,
        labels: Sequence[Any] | None = None,
        k: int | None = None,
        ideal: Any = None,
    ) -> str:
        """The library code that reproduces this preset's number for a list.

        Examples
        --------
        >>> print(PRESETS["sklearn"].snippet_for([2, 0, 1], k=2))
        from sklearn.metrics import ndcg_score
        print(ndcg_score([[2, 0, 1]], [[3, 2, 1]], k=2))
        """
        return Template(self.snippet).substitute(_snippet_values(relevances, scores, labels, k, ideal))


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _pool_extras(grades: np.ndarray, ideal: np.ndarray) -> list[float]:
    """Grades of judged items that were not retrieved: the pool minus the list.

    Raises ``ValueError`` when the pool lacks a relevant grade of the list:
    a pool is every judged item, retrieved ones included.
    """
    pool = Counter(float(x) for x in ideal)
    for g in grades:
        if pool[float(g)] > 0:
            pool[float(g)] -= 1
        elif g != 0:
            raise ValueError(
                f"ideal must hold the grade of every judged item, retrieved ones included; "
                f"it lacks the list's grade {g:g}"
            )
    return sorted(pool.elements(), reverse=True)


def _snippet_values(
    relevances: Any, scores: Any, labels: Sequence[Any] | None, k: int | None, ideal: Any
) -> dict[str, str]:
    from .metrics import to_grades

    grades = to_grades(relevances)
    n = grades.size
    s = list(range(n, 0, -1)) if scores is None else [float(x) for x in to_grades(scores, "scores")]
    ids = [f"D{i}" for i in range(1, n + 1)] if labels is None else [str(x) for x in labels]
    qrels = {name: int(g) if float(g).is_integer() else float(g) for name, g in zip(ids, grades, strict=True)}
    if ideal is not None:
        try:
            extras = _pool_extras(grades, to_grades(ideal, "ideal"))
        except ValueError:
            extras = []
        for i, g in enumerate(extras, start=1):
            qrels[f"J{i}"] = int(g) if float(g).is_integer() else float(g)
    run = {name: score for name, score in zip(ids, s, strict=True)}
    grade_list = "[" + ", ".join(_num(g) for g in grades) + "]"
    score_list = "[" + ", ".join(_num(x) for x in s) + "]"
    cut = n if k is None else int(k)
    return {
        "grades": grade_list,
        "scores": score_list,
        "n": str(n),
        "k": str(k),
        "cut": str(cut),
        "k_arg": "" if k is None else f", k={k}",
        "at_k": "" if k is None else f"@{k}",
        "qrels": repr(qrels),
        "run": repr(run),
        "trec_measure": "ndcg" if k is None else f"ndcg_cut_{k}",
        "trec_measure_arg": "ndcg" if k is None else f"ndcg_cut.{k}",
        "ranx_k": "" if k is None else f"@{k}",
        "irm_cutoff": "" if k is None else f"@{k}",
        "topn": "None" if k is None else str(k),
        "ratings": json.dumps(
            [{"_index": "my-index", "_id": name, "rating": g} for name, g in qrels.items()]
        ),
        "hits": json.dumps(ids),
    }


_SKLEARN_GRADES = "ndcg_score should not be used on negative y_true values"
_SKLEARN_ONE = "Computing NDCG is only meaningful when there is more than 1 document"
_TREC_GRADES = "pytrec_eval expects relevance to be an integer"
_XGB_GRADES = (
    "when using relevance degree as target, label must be either 0 or a positive integer, "
    "at most 31 with the exponential NDCG gain"
)
_LGB_GRADES = (
    "labels must be non-negative integers for ranking, each below the number of label_gain "
    "entries (31 by default)"
)
_ES_GRADES = (
    "rank_eval ratings are integers; a negative rating would give 2^r - 1 between -1 and 0, "
    "which this preset does not model"
)

_RANX_RULE = (
    "ranx stores qrels as integers and ignores judgments below rel_lvl=1: fractional grades are "
    "truncated and grades below 1 count as 0"
)
_POOL = "the ideal ordering sorts every judged document of the query, retrieved or not"
_RANX_TIES = (
    "ties keep input order on short lists only: ranx sorts with numba's unstable quicksort, whose "
    "order is arbitrary above about 15 documents"
)

_SKLEARN_SNIPPET = """from sklearn.metrics import ndcg_score
print(ndcg_score([$grades], [$scores]$k_arg))"""

_PRESET_LIST = (
    Preset(
        name="sklearn",
        library="scikit-learn sklearn.metrics.ndcg_score",
        version="1.9.1",
        variant=Variant(ties="average"),
        differences=(
            "ties='average': tied scores share their mean gain (McSherry & Najork 2008), so input "
            "order never matters",
            "ideal from the list only: ndcg_score sees one row, not the judged pool",
            "refuses negative grades and lists of fewer than 2 items",
        ),
        snippet=_SKLEARN_SNIPPET,
        allowed_grades="non_negative",
        grade_error=_SKLEARN_GRADES,
        min_items=2,
        min_items_error=_SKLEARN_ONE,
        module="sklearn",
        checked_here=True,
    ),
    Preset(
        name="sklearn-ignore-ties",
        library="scikit-learn sklearn.metrics.ndcg_score(ignore_ties=True)",
        version="1.9.1",
        variant=Variant(ties="reverse_argsort"),
        differences=(
            "ties='reverse_argsort': ranks by numpy's argsort reversed, so short lists put tied "
            "items in reverse input order",
            "ideal from the list only: ndcg_score sees one row, not the judged pool",
            "refuses negative grades and lists of fewer than 2 items",
        ),
        snippet="""from sklearn.metrics import ndcg_score
print(ndcg_score([$grades], [$scores]$k_arg, ignore_ties=True))""",
        allowed_grades="non_negative",
        grade_error=_SKLEARN_GRADES,
        min_items=2,
        min_items_error=_SKLEARN_ONE,
        module="sklearn",
        checked_here=True,
    ),
    Preset(
        name="trec_eval",
        library="trec_eval via pytrec_eval (ndcg / ndcg_cut_k)",
        version="pytrec-eval-terrier 0.5.11 (trec_eval 9)",
        variant=Variant(ties="docid_desc"),
        differences=(
            "ties='docid_desc': trec_eval stores scores as float32 and breaks ties by document id, "
            "descending",
            _POOL,
            "without a cutoff (measure 'ndcg'), IDCG sums the whole judged pool, not just as many "
            "documents as were retrieved",
            "negative grades count as 0 (not relevant); grades must be integers",
        ),
        snippet="""import pytrec_eval
qrels = {"q": $qrels}
run = {"q": $run}
evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"$trec_measure_arg"})
print(evaluator.evaluate(run)["q"]["$trec_measure"])""",
        ideal_source="pool",
        ideal_depth="pool",
        allowed_grades="integer",
        grade_error=_TREC_GRADES,
        relevant_from=0.0,
        unique_labels=True,
        score_dtype="float32",
        module="pytrec_eval",
        checked_here=True,
    ),
    Preset(
        name="ir_measures-exp",
        library="ir_measures nDCG(dcg='exp-log2') through its ranx provider",
        version="ir-measures 0.4.3 with ranx 0.3.21",
        variant=Variant(gain="exponential"),
        differences=(
            "gain='exponential' (2^grade - 1): ir_measures hands dcg='exp-log2' to ranx's ndcg_burges",
            "with a cutoff, plain ir_measures.calc_aggregate routes to gdeval instead (integer grades "
            "up to 4, numeric query ids, 5 decimals); the snippet pins the ranx provider",
            _POOL,
            "without a cutoff, IDCG sums the whole judged pool",
            _RANX_RULE,
            _RANX_TIES,
        ),
        snippet="""import ir_measures, pandas as pd
from ir_measures import nDCG
qrels, run = $qrels, $run
qrels = pd.DataFrame({"query_id": pd.Series(["q"] * len(qrels), dtype=object),
                      "doc_id": pd.Series(list(qrels), dtype=object), "relevance": list(qrels.values())})
run = pd.DataFrame({"query_id": pd.Series(["q"] * len(run), dtype=object),
                    "doc_id": pd.Series(list(run), dtype=object), "score": [float(s) for s in run.values()]})
print(ir_measures.ranx.calc_aggregate([nDCG(dcg="exp-log2")$irm_cutoff], qrels, run))""",
        ideal_source="pool",
        ideal_depth="pool",
        truncate_grades=True,
        relevant_from=1.0,
        unique_labels=True,
        module="ir_measures",
        checked_here=True,
    ),
    Preset(
        name="ranx",
        library="ranx evaluate(..., 'ndcg')",
        version="0.3.21",
        variant=Variant(),
        differences=(_POOL, "without a cutoff, IDCG sums the whole judged pool", _RANX_RULE, _RANX_TIES),
        snippet="""from ranx import Qrels, Run, evaluate
qrels = Qrels({"q": $qrels})
run = Run({"q": $run})
print(evaluate(qrels, run, "ndcg$ranx_k", make_comparable=True))""",
        ideal_source="pool",
        ideal_depth="pool",
        truncate_grades=True,
        relevant_from=1.0,
        unique_labels=True,
        module="ranx",
        checked_here=True,
    ),
    Preset(
        name="ranx-burges",
        library="ranx evaluate(..., 'ndcg_burges')",
        version="0.3.21",
        variant=Variant(gain="exponential"),
        differences=(
            "gain='exponential' (2^grade - 1), Burges et al. 2005",
            _POOL,
            "without a cutoff, IDCG sums the whole judged pool",
            _RANX_RULE,
            _RANX_TIES,
        ),
        snippet="""from ranx import Qrels, Run, evaluate
qrels = Qrels({"q": $qrels})
run = Run({"q": $run})
print(evaluate(qrels, run, "ndcg_burges$ranx_k", make_comparable=True))""",
        ideal_source="pool",
        ideal_depth="pool",
        truncate_grades=True,
        relevant_from=1.0,
        unique_labels=True,
        module="ranx",
        checked_here=True,
    ),
    Preset(
        name="torchmetrics",
        library="torchmetrics retrieval_normalized_dcg",
        version="1.4 (from its source; not installed here)",
        variant=Variant(ties="average"),
        differences=(
            "ties='average': a port of scikit-learn's tie averaging",
            "scores are cast to float32 (preds.float()), so scores equal at float32 precision tie",
            "ideal from the list only",
        ),
        snippet="""import torch
from torchmetrics.functional.retrieval import retrieval_normalized_dcg
print(retrieval_normalized_dcg(torch.tensor($scores), torch.tensor($grades), top_k=$topn))""",
        min_items=1,
        min_items_error="`preds` and `target` must be non-empty and non-scalar tensors",
        score_dtype="float32",
        module="torchmetrics",
        notes=(
            "Recent torchmetrics releases treat items scored 0 or below as not retrieved; "
            "this preset follows the 1.4 definition.",
        ),
    ),
    Preset(
        name="xgboost",
        library="XGBoost eval_metric 'ndcg@k'",
        version="3.2.0",
        variant=Variant(gain="exponential", zero_idcg="one"),
        differences=(
            "gain='exponential' (2^grade - 1, ndcg_exp_gain=True by default)",
            "zero_idcg='one': a query with nothing relevant scores 1 (use 'ndcg-' for 0)",
            "predictions are float32, so scores equal at float32 precision tie (kept in input order)",
            "labels must be whole numbers from 0 to 31",
        ),
        snippet="""import numpy as np, xgboost as xgb
y = np.array($grades, dtype=float)
d = xgb.DMatrix(np.zeros((len(y), 1)), label=y, base_margin=np.array($scores, dtype=float))
d.set_group([len(y)])
booster = xgb.train({"objective": "rank:ndcg", "eval_metric": "ndcg$at_k"}, d, num_boost_round=0)
print(booster.eval(d))""",
        allowed_grades="non_negative_integer",
        max_grade=31,
        grade_error=_XGB_GRADES,
        score_dtype="float32",
        module="xgboost",
        checked_here=True,
    ),
    Preset(
        name="xgboost-minus",
        library="XGBoost eval_metric 'ndcg@k-'",
        version="3.2.0",
        variant=Variant(gain="exponential"),
        differences=(
            "gain='exponential' (2^grade - 1, ndcg_exp_gain=True by default)",
            "the trailing '-' makes a query with nothing relevant score 0, as the default does",
            "predictions are float32, so scores equal at float32 precision tie (kept in input order)",
            "labels must be whole numbers from 0 to 31",
        ),
        snippet="""import numpy as np, xgboost as xgb
y = np.array($grades, dtype=float)
d = xgb.DMatrix(np.zeros((len(y), 1)), label=y, base_margin=np.array($scores, dtype=float))
d.set_group([len(y)])
booster = xgb.train({"objective": "rank:ndcg", "eval_metric": "ndcg$at_k-"}, d, num_boost_round=0)
print(booster.eval(d))""",
        allowed_grades="non_negative_integer",
        max_grade=31,
        grade_error=_XGB_GRADES,
        score_dtype="float32",
        module="xgboost",
        checked_here=True,
    ),
    Preset(
        name="lightgbm",
        library="LightGBM metric 'ndcg' (eval_at)",
        version="4.7.0",
        variant=Variant(gain="exponential", zero_idcg="one"),
        differences=(
            "gain='exponential': the default label_gain is 2^i - 1",
            "zero_idcg='one': a query with nothing relevant scores 1",
            "labels must be whole numbers from 0 to 30 (31 label_gain entries)",
        ),
        snippet="""import numpy as np, lightgbm as lgb
y = np.array($grades, dtype=float)
data = lgb.Dataset(np.zeros((len(y), 1)), label=y, group=[len(y)],
                   init_score=np.array($scores, dtype=float), params={"verbose": -1})
params = {"objective": "lambdarank", "metric": "ndcg", "eval_at": [$cut], "verbose": -1}
print(lgb.Booster(params=params, train_set=data).eval_train())""",
        allowed_grades="non_negative_integer",
        max_grade=30,
        grade_error=_LGB_GRADES,
        module="lightgbm",
        checked_here=True,
    ),
    Preset(
        name="tf_ranking",
        library="TF-Ranking tfr.keras.metrics.NDCGMetric",
        version="0.5 (from its documentation; not installed here)",
        variant=Variant(gain="exponential"),
        differences=(
            "gain='exponential': the default gain_fn is 2^label - 1",
            "items with a negative label are padding: removed from the list before ranking",
            "scores are float32; TF-Ranking breaks ties at random, so with tied scores its value "
            "varies between runs (here ties keep input order)",
        ),
        snippet="""import tensorflow as tf, tensorflow_ranking as tfr
metric = tfr.keras.metrics.NDCGMetric(topn=$topn)
print(float(metric(tf.constant([$grades], tf.float32), tf.constant([$scores], tf.float32))))""",
        drop_negative=True,
        score_dtype="float32",
        module="tensorflow_ranking",
    ),
    Preset(
        name="elasticsearch",
        library="Elasticsearch _rank_eval metric dcg (normalize: true)",
        version="8.x (from its source; not run here)",
        variant=Variant(gain="exponential"),
        differences=(
            "gain='exponential' (2^rating - 1)",
            "the ideal ordering sorts every rated document of the query",
            "IDCG sums only as many positions as hits were returned in the top k",
            "ratings must be whole numbers; the hits' order is Elasticsearch's own (its scores are float32)",
            "without k, Elasticsearch itself uses k=10; this preset uses the whole list",
        ),
        snippet="""# POST /my-index/_rank_eval  (the hits must come back in this order: $hits)
{"requests": [{"id": "q", "request": {"query": {"match_all": {}}},
               "ratings": $ratings}],
 "metric": {"dcg": {"k": $cut, "normalize": true}}}""",
        ideal_source="pool",
        ideal_depth="retrieved",
        allowed_grades="non_negative_integer",
        grade_error=_ES_GRADES,
        score_dtype="float32",
    ),
)

#: Every library preset, by name. Adding a library is one entry.
PRESETS: dict[str, Preset] = {p.name: p for p in _PRESET_LIST}


def get_preset(name: str | Preset) -> Preset:
    """Look a preset up by name, with a clear error for an unknown one."""
    if isinstance(name, Preset):
        return name
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        known = ", ".join(repr(p) for p in PRESETS)
        raise ValueError(f"unknown preset {name!r}; choose one of {known}") from None


def library_table(
    relevances: Any,
    scores: Any = None,
    labels: Sequence[Any] | None = None,
    k: int | None = None,
    ideal: Any = None,
) -> pd.DataFrame:
    """What each library would report for one list, one row per preset.

    Parameters
    ----------
    relevances, scores, labels, k, ideal
        As for :func:`ndcg_core.ndcg`.

    Returns
    -------
    pandas.DataFrame
        Columns ``preset``, ``library``, ``version``, ``value`` (NaN when the
        library refuses the list), ``differences`` (one line per difference
        from the default formula, joined by newlines), ``refusal`` (the
        library's rule, or empty), ``snippet``, ``installed`` and
        ``checked_here`` (its real library is installed and this repository's
        tests compare the preset with it).

    Examples
    --------
    >>> table = library_table([3, 2, 0, 1], k=3)
    >>> table.set_index("preset").loc[["sklearn", "xgboost"], "value"].round(4).tolist()
    [0.895, 0.9468]
    """
    from .metrics import ndcg

    rows = []
    for p in PRESETS.values():
        try:
            value = ndcg(relevances, k, scores=scores, labels=labels, preset=p.name, ideal=ideal)
            refusal = ""
        except ValueError as exc:
            value, refusal = math.nan, str(exc)
        try:
            snippet = p.snippet_for(relevances, scores, labels, k, ideal)
        except ValueError:
            snippet = ""
        rows.append(
            {
                "preset": p.name,
                "library": p.library,
                "version": p.version,
                "value": value,
                "differences": "\n".join(p.differences),
                "refusal": refusal,
                "snippet": snippet,
                "installed": p.installed,
                "checked_here": p.checked_here and p.installed,
            }
        )
    return pd.DataFrame(rows)

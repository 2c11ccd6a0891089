"""What each real library reports: its NDCG as a :class:`~ndcg_core.spec.Spec`.

A :class:`Preset` is a resolved :class:`~ndcg_core.spec.Spec` (the formula
variant plus the library's input rules: where the ideal ordering comes from,
which grades it accepts or rewrites, the precision it stores scores in) and
what a person needs to trust it: the library version it encodes, one line per
difference from the default formula, a snippet reproducing the number in the
library, and what this repository's tests checked against the real library.
:func:`resolve` turns a preset name and/or formula choices into the one
:class:`~ndcg_core.spec.Spec` that :func:`ndcg_core.ndcg`,
:func:`ndcg_core.explain` and :func:`ndcg_core.evaluate` all take: the rules
are applied by the Spec, the same for every library. Adding a library is one
entry in :data:`PRESETS`.

Examples
--------
>>> from ndcg_core import ndcg
>>> round(ndcg([0, 1, 2], scores=[0.9, 0.5, 0.5], preset="sklearn"), 4)
0.6448
>>> ndcg([-1, 2], preset="sklearn")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ndcg_core.errors.NDCGError: scikit-learn refuses this list: ndcg_score should not be used on negative ...
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from .errors import NDCGError
from .i18n import N_
from .spec import RULE_FIELDS, Spec
from .variants import Variant

__all__ = ["PRESETS", "Preset", "as_spec", "get_preset", "resolve"]


@dataclass(frozen=True)
class Preset:
    """One library's NDCG: a resolved spec and what backs it.

    Parameters
    ----------
    name : str
        The key in :data:`PRESETS` and the ``preset=`` value.
    library : str
        The library and the function or measure reproduced.
    version : str
        The library version whose behaviour this encodes.
    spec : Spec
        The formula (``k`` unset: it is per call) and the library's input rules.
    differences : tuple of str
        One line for every way this differs from the default formula, and why.
    snippet : str
        A :class:`string.Template` of code reproducing the number in the
        library; :func:`ndcg_core.libraries.snippet_for` fills it in.
    module : str
        The Python module the library is imported as.
    checked : str
        What this repository's tests compared with the real library: the
        version checked and where (empty when the preset is built from the
        library's source or documentation only).
    notes : tuple of str
        Anything else a user should know.
    """

    name: str
    library: str
    version: str
    spec: Spec
    differences: tuple[str, ...]
    snippet: str
    module: str = ""
    checked: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if self.spec.variant.k is not None:
            raise NDCGError("preset_sets_k", name=repr(self.name))
        if self.spec.preset != self.name:
            raise NDCGError("preset_unnamed", name=repr(self.name))

    @property
    def variant(self) -> Variant:
        """The formula choices (gain, discount, log base, IDCG = 0 policy, ties)."""
        return self.spec.variant


_SKLEARN_GRADES = "ndcg_score should not be used on negative y_true values"

_SKLEARN_ONE = "Computing NDCG is only meaningful when there is more than 1 document"

_TREC_GRADES = (
    "grades must be whole numbers (pytrec_eval refuses others: 'pytrec_eval expects relevance to be an "
    "integer'; the trec_eval program reads 1.5 as 1)"
)

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

_RANX_RULE = N_(
    "ranx stores qrels as integers and ignores judgments below rel_lvl=1: fractional grades are "
    "truncated and grades below 1 count as 0"
)

_POOL = N_("the ideal ordering sorts every judged document of the query, retrieved or not")

_RANX_TIES = N_(
    "ties keep input order on short lists only: ranx sorts with numba's unstable quicksort, whose "
    "order is arbitrary above about 15 documents"
)

_SKLEARN_SNIPPET = """from sklearn.metrics import ndcg_score
print(ndcg_score([$grades], [$scores]$k_arg))"""

#: XGBoost's ndcg@k; its "ndcg@k-" twin differs only where a query has nothing relevant.
_XGBOOST = Preset(
    name="xgboost",
    library=N_("XGBoost eval_metric 'ndcg@k'"),
    version="3.2.0",
    spec=Spec(
        variant=Variant(gain="exponential", zero_idcg="one"),
        preset="xgboost",
        library="XGBoost",
        ideal_source="retrieved",
        allowed_grades="non_negative_integer",
        max_grade=31,
        grade_error=_XGB_GRADES,
        score_dtype="float32",
        queries="run",
    ),
    differences=(
        N_("gain='exponential' (2^grade - 1, ndcg_exp_gain=True by default)"),
        N_("zero_idcg='one': a query with nothing relevant scores 1 (use 'ndcg-' for 0)"),
        N_("predictions are float32, so scores equal at float32 precision tie (kept in input order)"),
        N_("labels must be whole numbers from 0 to 31"),
    ),
    snippet="""import numpy as np, xgboost as xgb
y = np.array($grades, dtype=float)
d = xgb.DMatrix(np.zeros((len(y), 1)), label=y, base_margin=np.array($scores, dtype=float))
d.set_group([len(y)])
booster = xgb.train({"objective": "rank:ndcg", "eval_metric": "ndcg$at_k"}, d, num_boost_round=0)
print(booster.eval(d))""",
    module="xgboost",
    checked="xgboost 3.2.0, tests/engine/test_crosscheck_libraries.py",
)

_XGBOOST_MINUS = replace(
    _XGBOOST,
    name="xgboost-minus",
    library=N_("XGBoost eval_metric 'ndcg@k-'"),
    spec=replace(_XGBOOST.spec, variant=Variant(gain="exponential"), preset="xgboost-minus"),
    differences=(
        _XGBOOST.differences[0],
        N_("the trailing '-' makes a query with nothing relevant score 0, as the default does"),
        *_XGBOOST.differences[2:],
    ),
    snippet=_XGBOOST.snippet.replace('"ndcg$at_k"', '"ndcg$at_k-"'),
)

_PRESET_LIST = (
    Preset(
        name="sklearn",
        library=N_("scikit-learn sklearn.metrics.ndcg_score"),
        version="1.9.1",
        spec=Spec(
            variant=Variant(ties="average"),
            preset="sklearn",
            library="scikit-learn",
            ideal_source="retrieved",
            allowed_grades="non_negative",
            grade_error=_SKLEARN_GRADES,
            min_items=2,
            min_items_error=_SKLEARN_ONE,
            queries="run",
        ),
        differences=(
            N_(
                "ties='average': tied scores share their mean gain (McSherry & Najork 2008), so input "
                "order never matters"
            ),
            N_("ideal from the list only: ndcg_score sees one row, not the judged pool"),
            N_("refuses negative grades and lists of fewer than 2 items"),
        ),
        snippet=_SKLEARN_SNIPPET,
        module="sklearn",
        checked="scikit-learn 1.9.1, tests/engine/test_crosscheck_libraries.py",
    ),
    Preset(
        name="sklearn-ignore-ties",
        library=N_("scikit-learn sklearn.metrics.ndcg_score(ignore_ties=True)"),
        version="1.9.1",
        spec=Spec(
            variant=Variant(ties="reverse_argsort"),
            preset="sklearn-ignore-ties",
            library="scikit-learn",
            ideal_source="retrieved",
            allowed_grades="non_negative",
            grade_error=_SKLEARN_GRADES,
            min_items=2,
            min_items_error=_SKLEARN_ONE,
            queries="run",
        ),
        differences=(
            N_(
                "ties='reverse_argsort': ranks by numpy's argsort reversed, so short lists put tied "
                "items in reverse input order"
            ),
            N_("ideal from the list only: ndcg_score sees one row, not the judged pool"),
            N_("refuses negative grades and lists of fewer than 2 items"),
        ),
        snippet="""from sklearn.metrics import ndcg_score
print(ndcg_score([$grades], [$scores]$k_arg, ignore_ties=True))""",
        module="sklearn",
        checked="scikit-learn 1.9.1, tests/engine/test_crosscheck_libraries.py",
    ),
    Preset(
        name="trec_eval",
        library=N_("trec_eval via pytrec_eval (ndcg / ndcg_cut_k)"),
        version="pytrec-eval-terrier 0.5.11 (trec_eval 9)",
        spec=Spec(
            variant=Variant(ties="docid_desc"),
            preset="trec_eval",
            library="trec_eval",
            ideal_source="pool",
            ideal_depth="pool",
            allowed_grades="integer",
            grade_error=_TREC_GRADES,
            relevant_from=0.0,
            unique_labels=True,
            score_dtype="float32",
            queries="both",
        ),
        differences=(
            N_(
                "ties='docid_desc': trec_eval stores scores as float32 and breaks ties by document id, "
                "descending"
            ),
            _POOL,
            N_(
                "without a cutoff (measure 'ndcg'), IDCG sums the whole judged pool, not just as many "
                "documents as were retrieved"
            ),
            N_("negative grades count as 0 (not relevant); grades must be integers"),
        ),
        snippet="""import pytrec_eval
qrels = {"q": $qrels}
run = {"q": $run}
evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"$trec_measure_arg"})
print(evaluator.evaluate(run)["q"]["$trec_measure"])""",
        module="pytrec_eval",
        checked="pytrec-eval-terrier 0.5.11, tests/engine/test_crosscheck_libraries.py",
    ),
    Preset(
        name="ir_measures-exp",
        library=N_("ir_measures nDCG(dcg='exp-log2') through its ranx provider"),
        version="ir-measures 0.4.3 with ranx 0.3.21",
        spec=Spec(
            variant=Variant(gain="exponential"),
            preset="ir_measures-exp",
            library="ir_measures",
            ideal_source="pool",
            ideal_depth="pool",
            truncate_grades=True,
            relevant_from=1.0,
            unique_labels=True,
            queries="both",
        ),
        differences=(
            N_("gain='exponential' (2^grade - 1): ir_measures hands dcg='exp-log2' to ranx's ndcg_burges"),
            N_(
                "with a cutoff, plain ir_measures.calc_aggregate routes to gdeval instead (integer grades "
                "up to 4, numeric query ids, 5 decimals); the snippet pins the ranx provider"
            ),
            _POOL,
            N_("without a cutoff, IDCG sums the whole judged pool"),
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
        module="ir_measures",
        checked="ir-measures 0.4.3 with ranx 0.3.21, tests/engine/test_crosscheck_libraries.py",
    ),
    Preset(
        name="ranx",
        library=N_("ranx evaluate(..., 'ndcg')"),
        version="0.3.21",
        spec=Spec(
            variant=Variant(),
            preset="ranx",
            library="ranx",
            ideal_source="pool",
            ideal_depth="pool",
            truncate_grades=True,
            relevant_from=1.0,
            unique_labels=True,
            queries="qrels",
        ),
        differences=(_POOL, N_("without a cutoff, IDCG sums the whole judged pool"), _RANX_RULE, _RANX_TIES),
        snippet="""from ranx import Qrels, Run, evaluate
qrels = Qrels({"q": $qrels})
run = Run({"q": $run})
print(evaluate(qrels, run, "ndcg$ranx_k", make_comparable=True))""",
        module="ranx",
        checked="ranx 0.3.21, tests/engine/test_crosscheck_libraries.py",
    ),
    Preset(
        name="ranx-burges",
        library=N_("ranx evaluate(..., 'ndcg_burges')"),
        version="0.3.21",
        spec=Spec(
            variant=Variant(gain="exponential"),
            preset="ranx-burges",
            library="ranx",
            ideal_source="pool",
            ideal_depth="pool",
            truncate_grades=True,
            relevant_from=1.0,
            unique_labels=True,
            queries="qrels",
        ),
        differences=(
            N_("gain='exponential' (2^grade - 1), Burges et al. 2005"),
            _POOL,
            N_("without a cutoff, IDCG sums the whole judged pool"),
            _RANX_RULE,
            _RANX_TIES,
        ),
        snippet="""from ranx import Qrels, Run, evaluate
qrels = Qrels({"q": $qrels})
run = Run({"q": $run})
print(evaluate(qrels, run, "ndcg_burges$ranx_k", make_comparable=True))""",
        module="ranx",
        checked="ranx 0.3.21, tests/engine/test_crosscheck_libraries.py",
    ),
    Preset(
        name="torchmetrics",
        library=N_("torchmetrics retrieval_normalized_dcg"),
        version="1.9.0",
        spec=Spec(
            variant=Variant(ties="average"),
            preset="torchmetrics",
            library="torchmetrics",
            ideal_source="retrieved",
            min_items=1,
            min_items_error="`preds` and `target` must be non-empty and non-scalar tensors",
            score_dtype="float32",
            zero_test="exact",
            queries="run",
        ),
        differences=(
            N_("ties='average': a port of scikit-learn's tie averaging"),
            N_("scores are cast to float32 (preds.float()), so scores equal at float32 precision tie"),
            N_("ideal from the list only"),
            N_(
                "NDCG is set to 0 only when the ideal DCG is exactly 0; a negative ideal DCG (negative "
                "targets) is divided by, so the result can exceed 1"
            ),
            N_(
                "targets are float32 too: grades below about 1e-45 become 0 and above 3.4e38 become inf "
                "(cases this preset does not follow)"
            ),
        ),
        snippet="""import torch
from torchmetrics.functional.retrieval import retrieval_normalized_dcg
print(retrieval_normalized_dcg(torch.tensor($scores), torch.tensor($grades), top_k=$topn))""",
        module="torchmetrics",
        checked="torchmetrics 1.9.0 with torch 2.13.0, make check-heavy-peers (checks_heavy/)",
    ),
    _XGBOOST,
    _XGBOOST_MINUS,
    Preset(
        name="lightgbm",
        library=N_("LightGBM metric 'ndcg' (eval_at)"),
        version="4.7.0",
        spec=Spec(
            variant=Variant(gain="exponential", zero_idcg="one"),
            preset="lightgbm",
            library="LightGBM",
            ideal_source="retrieved",
            allowed_grades="non_negative_integer",
            max_grade=30,
            grade_error=_LGB_GRADES,
            queries="run",
        ),
        differences=(
            N_("gain='exponential': the default label_gain is 2^i - 1"),
            N_("zero_idcg='one': a query with nothing relevant scores 1"),
            N_("labels must be whole numbers from 0 to 30 (31 label_gain entries)"),
        ),
        snippet="""import numpy as np, lightgbm as lgb
y = np.array($grades, dtype=float)
data = lgb.Dataset(np.zeros((len(y), 1)), label=y, group=[len(y)],
                   init_score=np.array($scores, dtype=float), params={"verbose": -1})
params = {"objective": "lambdarank", "metric": "ndcg", "eval_at": [$cut], "verbose": -1}
print(lgb.Booster(params=params, train_set=data).eval_train())""",
        module="lightgbm",
        checked="lightgbm 4.7.0, tests/engine/test_crosscheck_libraries.py",
    ),
    Preset(
        name="tf_ranking",
        library=N_("TF-Ranking tfr.keras.metrics.NDCGMetric"),
        version="0.5.3",
        spec=Spec(
            variant=Variant(gain="exponential"),
            preset="tf_ranking",
            library="TF-Ranking",
            ideal_source="retrieved",
            drop_negative=True,
            score_dtype="float32",
            queries="run",
        ),
        differences=(
            N_("gain='exponential': the default gain_fn is 2^label - 1"),
            N_("items with a negative label are padding: removed from the list before ranking"),
            N_(
                "scores are float32; TF-Ranking breaks ties at random, so with tied scores its value "
                "varies between runs (here ties keep input order)"
            ),
            N_(
                "labels are float32 too: gains overflow from label 128 up and labels below about 1e-45 "
                "become 0 (cases this preset does not follow)"
            ),
        ),
        snippet="""# tensorflow_ranking 0.5.3's package import needs tf.estimator (TensorFlow 2.15 or older)
import tensorflow as tf, tensorflow_ranking as tfr
metric = tfr.keras.metrics.NDCGMetric(topn=$topn)
print(float(metric(tf.constant([$grades], tf.float32), tf.constant([$scores], tf.float32))))""",
        module="tensorflow_ranking",
        checked="tensorflow-ranking 0.5.3 with TensorFlow 2.21, make check-heavy-peers (checks_heavy/)",
    ),
    Preset(
        name="elasticsearch",
        library=N_("Elasticsearch _rank_eval metric dcg (normalize: true)"),
        version="8.x (from its source; not run here)",
        spec=Spec(
            variant=Variant(gain="exponential"),
            preset="elasticsearch",
            library="Elasticsearch",
            ideal_source="pool",
            ideal_depth="retrieved",
            allowed_grades="non_negative_integer",
            grade_error=_ES_GRADES,
            score_dtype="float32",
            queries="run",
        ),
        differences=(
            N_("gain='exponential' (2^rating - 1)"),
            N_("the ideal ordering sorts every rated document of the query"),
            N_("IDCG sums only as many positions as hits were returned in the top k"),
            N_(
                "ratings must be whole numbers; the hits' order is Elasticsearch's own "
                "(its scores are float32)"
            ),
            N_("without k, Elasticsearch itself uses k=10; this preset uses the whole list"),
        ),
        snippet="""# POST /my-index/_rank_eval  (the hits must come back in this order: $hits)
{"requests": [{"id": "q", "request": {"query": {"match_all": {}}},
               "ratings": $ratings}],
 "metric": {"dcg": {"k": $cut, "normalize": true}}}""",
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
        raise NDCGError("unknown_preset", name=repr(name), known=known) from None


_VARIANT_FIELDS = tuple(f.name for f in fields(Variant))
#: What a caller may still choose on top of a preset: the cutoff and the data-set handling.
_FREE_WITH_PRESET = ("k", "queries", "duplicates")


def resolve(preset: str | Preset | None = None, /, *, base: Spec | None = None, **choices: Any) -> Spec:
    """The one :class:`~ndcg_core.spec.Spec` for a preset and/or formula choices.

    Parameters
    ----------
    preset : str or Preset, optional
        A library's NDCG (a key of :data:`PRESETS`). Its formula and rules
        are fixed: a choice that contradicts them is refused.
    base : Spec, optional
        What fills the choices not given when there is no preset (default:
        the schema's defaults, ``Spec()``). :func:`ndcg_core.evaluate` starts
        from trec_eval's tie order, for instance.
    **choices
        Any field of :class:`~ndcg_core.variants.Variant` (``k``, ``gain``,
        ``discount``, ``log_base``, ``zero_idcg``, ``ties``) or an input rule
        of :class:`~ndcg_core.spec.Spec` (``ideal_source``, ``score_dtype``,
        ``queries``, ``duplicates``, ...). ``None`` means not given.

    Returns
    -------
    Spec

    Raises
    ------
    ValueError
        An unknown preset or choice, an invalid value, or a choice that
        contradicts the preset.

    Examples
    --------
    >>> resolve(gain="exponential", k=10).name
    "nDCG(gain='exponential')@10"
    >>> resolve("xgboost", k=5).variant.zero_idcg
    'one'
    >>> try:
    ...     resolve("xgboost", zero_idcg="zero")
    ... except ValueError as err:
    ...     print(err)
    preset 'xgboost' fixes zero_idcg='one'; drop zero_idcg='zero' or drop the preset
    """
    given = {key: value for key, value in choices.items() if value is not None}
    unknown = sorted(set(given) - set(_VARIANT_FIELDS) - set(RULE_FIELDS))
    if unknown:
        raise NDCGError(
            "unknown_choice", key=repr(unknown[0]), allowed=", ".join(_VARIANT_FIELDS + RULE_FIELDS)
        )
    start = base if base is not None else Spec()
    if preset is not None:
        p = get_preset(preset)
        start = p.spec
        for key, value in given.items():
            if key in _FREE_WITH_PRESET:
                continue
            mine = getattr(p.variant if key in _VARIANT_FIELDS else p.spec, key)
            if Variant(gain=value).gain != mine if key == "gain" else value != mine:
                raise NDCGError(
                    "preset_fixes", name=repr(p.name), key=key, fixed=repr(mine), value=repr(value)
                )
    variant = start.variant.with_(**{key: v for key, v in given.items() if key in _VARIANT_FIELDS})
    rules = {key: v for key, v in given.items() if key in RULE_FIELDS}
    return replace(start, variant=variant, **rules)


def as_spec(spec: Spec | None, preset: str | Preset | None, *, base: Spec | None = None, **choices) -> Spec:
    """A function's ``spec=`` argument, or its preset and keywords resolved (not both).

    ``k`` may accompany a spec: it replaces the spec's cutoff.
    """
    if spec is None:
        return resolve(preset, base=base, **choices)
    if not isinstance(spec, Spec):
        raise NDCGError("not_a_spec", value=repr(spec))
    extra = sorted(key for key, value in choices.items() if value is not None and key != "k")
    if preset is not None or extra:
        named = "preset" if preset is not None else extra[0]
        raise NDCGError("spec_and_choices", named=named)
    k = choices.get("k")
    return spec if k is None else spec.with_k(k)

"""Gain, discount, DCG, IDCG and NDCG for one ranked list.

One routine computes a DCG from gains in ranked order (:func:`_dcg_of_gains`);
the ideal DCG is that same routine applied to the ideal ordering, so the two
can never drift apart.

References
----------
.. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of IR
       techniques", ACM TOIS 20(4), 422-446, 2002.
.. [2] C. Burges et al., "Learning to rank using gradient descent", ICML 2005.
.. [3] Wikipedia, "Discounted cumulative gain" (the D1..D6 example).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from .errors import NDCGError
from .presets import Preset, as_spec
from .rules import DISCOUNT_RULES, GAIN_RULES
from .spec import Spec
from .variants import Variant, check_choice, check_log_base

__all__ = [
    "STEP_COLUMNS",
    "dcg",
    "divisors",
    "gains",
    "ndcg",
    "ndcg_curve",
    "rank_by_scores",
    "to_grades",
]

#: Column names of :attr:`Explanation.steps`, written to be shown as they are.
STEP_COLUMNS = (
    "Position",
    "Item",
    "Grade",
    "Gain",
    "Divisor",
    "Discounted gain",
    "Cumulative DCG",
    "Beyond k",
    "Score",
    "Tie group",
)

GainSpec = str | Mapping[float, float]


def to_grades(values: Any, what: str = "relevances") -> np.ndarray:
    """Convert grades to a 1-D float array, refusing what is not a finite number.

    The error names the first offending position (1-based) so a person can
    find it in their list.

    >>> to_grades([3, "2", 1.5])
    array([3. , 2. , 1.5])
    >>> to_grades([1, "x"])
    Traceback (most recent call last):
    ...
    ndcg_core.errors.NDCGError: relevances: position 2 is 'x', expected a finite number
    """
    if isinstance(values, (str, bytes)):
        raise NDCGError("got_a_string", what=what, value=repr(values))
    if isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype.kind in "biuf":
        arr = values.astype(float, copy=False)
    else:
        items = list(values)
        arr = np.empty(len(items), dtype=float)
        for i, v in enumerate(items):
            try:
                if isinstance(v, (Sequence, np.ndarray)) and not isinstance(v, str):
                    raise TypeError
                arr[i] = float(v)
            except (TypeError, ValueError):
                raise NDCGError("not_finite_at", what=what, n=i + 1, value=repr(v)) from None
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        i = int(bad[0])
        raise NDCGError("not_finite_at", what=what, n=i + 1, value=repr(arr[i]))
    return arr


def gains(grades: Any, gain: GainSpec = "linear") -> np.ndarray:
    """Turn relevance grades into gains.

    Parameters
    ----------
    grades : array-like of float
        Relevance grades.
    gain : {"linear", "exponential", "binary"} or mapping
        ``"linear"``: the gain is the grade. ``"exponential"``: ``2**g - 1``,
        so each grade step doubles the gain; a negative grade is mirrored to
        ``-(2**|g| - 1)``, so a Bad (-1) costs exactly what a Fair (+1) earns.
        ``"binary"``: 1 for a grade above 0, else 0. (The records:
        :data:`ndcg_core.rules.GAIN_RULES`.)
        A mapping is a custom gain table from grade to gain (trec_eval's
        ``ndcg`` parameters, LightGBM's ``label_gain``).

    Returns
    -------
    numpy.ndarray

    Raises
    ------
    ValueError
        A grade missing from a custom table, or a grade so large that
        ``2**g`` overflows.

    Examples
    --------
    >>> gains([3, 1, 0, -1], "exponential")
    array([ 7.,  1.,  0., -1.])
    >>> gains([2, 1], {0: 0, 1: 1, 2: 4})
    array([4., 1.])
    """
    g = to_grades(grades)
    if isinstance(gain, Mapping):
        table = {float(key): float(value) for key, value in gain.items()}
        bad = [(key, value) for key, value in table.items() if not math.isfinite(value)]
        if bad:
            raise NDCGError("gain_not_finite", g=f"{bad[0][0]:g}", gain=repr(bad[0][1]))
        out = np.empty_like(g)
        for i, grade in enumerate(g):
            if grade not in table:
                known = ", ".join(f"{x:g}" for x in sorted(table))
                raise NDCGError("grade_not_in_table", g=f"{grade:g}", n=i + 1, known=known)
            out[i] = table[grade]
        return out
    check_choice("gain", gain)
    out = GAIN_RULES[gain].gains(g)
    bad = np.flatnonzero(~np.isfinite(out))
    if bad.size:  # 2**grade past the largest float
        i = int(bad[0])
        raise NDCGError("grade_overflows", g=f"{g[i]:g}", n=i + 1)
    return out


def divisors(n: int, discount: str = "log", log_base: float = 2.0) -> np.ndarray:
    """The number each position's gain is divided by, for positions 1..n.

    ``"log"``: ``log_b(i + 1)``. ``"jarvelin"``: ``max(1, log_b(i))``, the
    original Järvelin–Kekäläinen form [1]_, in which positions before ``b``
    are not discounted at all.

    >>> divisors(4).round(3)
    array([1.   , 1.585, 2.   , 2.322])
    >>> divisors(4, "jarvelin").round(3)
    array([1.   , 1.   , 1.585, 2.   ])
    """
    check_choice("discount", discount)
    check_log_base(log_base)
    return DISCOUNT_RULES[discount].divisors(np.arange(1, n + 1, dtype=float), math.log(log_base))


def _dcg_of_gains(ranked_gains: np.ndarray, k: int, discount: str, log_base: float) -> float:
    """DCG@k of gains already in ranked order: the one DCG routine."""
    top = ranked_gains[:k]
    with np.errstate(over="ignore", invalid="ignore"):
        value = float(np.sum(top / divisors(top.size, discount, log_base)))
    if not math.isfinite(value):
        raise NDCGError("too_large")  # the only way there, as gains and divisors are finite
    return value


def _ideal_gains(ideal_gains: np.ndarray) -> np.ndarray:
    """Gains sorted best first (stable, so equal gains keep their order)."""
    return ideal_gains[np.argsort(-ideal_gains, kind="stable")]


def _normalize(dcg_value: float, idcg_value: float, spec: Spec) -> float:
    """NDCG of one list: the spec's division, or its IDCG = 0 policy (raising under "error")."""
    if spec.variant.zero_idcg == "error" and spec.undefined(np.array([idcg_value]))[0]:
        raise NDCGError("idcg_zero", idcg=f"{idcg_value:g}")
    return float(spec.normalize(np.array([dcg_value]), np.array([idcg_value]))[0])


def _check_scores(scores: Any, n: int) -> np.ndarray:
    s = to_grades(scores, "scores")
    if s.size != n:
        raise NDCGError("scores_count", n=s.size, grades=n)
    return s


def rank_by_scores(
    scores: Any, labels: Sequence[Any] | None = None, ties: str = "stable"
) -> tuple[np.ndarray, np.ndarray]:
    """Order items by score, highest first, and number their tie groups.

    Parameters
    ----------
    scores : array-like of float
        One score per item, in input order.
    labels : sequence, optional
        The items' ids, in input order (default ``D1, D2, ...``). Only
        ``ties="docid_desc"`` looks at them, comparing them as strings.
    ties : {"stable", "average", "docid_desc", "reverse_argsort"}
        The tie rule; see :data:`ndcg_core.variants.TIES`. ``"average"``
        orders like ``"stable"``; the averaging happens on the gains.

    Returns
    -------
    order : numpy.ndarray of int
        Input indices in ranked order.
    groups : numpy.ndarray of int
        For each ranked position, its tie group (1, 2, ...): positions
        whose scores are equal (as the tie rule compares them) share one.

    Examples
    --------
    >>> order, groups = rank_by_scores([0.5, 0.9, 0.5], labels=["a", "b", "c"], ties="docid_desc")
    >>> order.tolist(), groups.tolist()
    ([1, 2, 0], [1, 2, 2])
    """
    check_choice("ties", ties)
    s = to_grades(scores, "scores")
    n = s.size
    if ties == "docid_desc":
        s = s.astype(np.float32).astype(float)
        names = _check_labels(labels, n, "labels")
        by_id = np.array(sorted(range(n), key=lambda i: names[i], reverse=True), dtype=int)
        order = by_id[np.argsort(-s[by_id], kind="stable")] if n else by_id
    elif ties == "reverse_argsort":
        order = np.argsort(s[None, :], axis=1)[0][::-1]
    else:
        order = np.argsort(-s, kind="stable")
    ranked = s[order]
    groups = np.ones(n, dtype=int)
    if n > 1:
        groups[1:] += np.cumsum(ranked[1:] != ranked[:-1])
    return order, groups


def _average_over_groups(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Replace each value by the mean of its tie group (McSherry & Najork)."""
    if values.size == 0:
        return values
    sums = np.bincount(groups - 1, weights=values)
    counts = np.bincount(groups - 1)
    return (sums / counts)[groups - 1]


@dataclass(frozen=True)
class _Computation:
    """Everything one NDCG computation produced, shared by ndcg() and explain()."""

    grades: np.ndarray  # ranked order
    gains: np.ndarray  # ranked order, as counted (tie-averaged under "average")
    order: np.ndarray  # input index of each ranked position
    scores: np.ndarray | None  # ranked order, as compared
    groups: np.ndarray
    pool_grades: np.ndarray  # ideal order
    pool_gains: np.ndarray
    pool_order: np.ndarray  # index into the pool
    cut: int
    ideal_cut: int
    dcg: float
    idcg: float
    ndcg: float
    spec: Spec
    labels: list[str] | None  # input order, after any preset rule
    pool_is_list: bool


def _compute(
    relevances: Any,
    spec: Spec,
    *,
    scores: Any = None,
    labels: Sequence[Any] | None = None,
    ideal: Any = None,
) -> _Computation:
    """The one NDCG computation: every public function of this module runs through it."""
    v = spec.variant
    grades = to_grades(relevances)
    ideal_grades = None if ideal is None else to_grades(ideal, "ideal")
    if scores is not None:
        scores = _check_scores(scores, grades.size)
    if labels is not None:
        labels = _check_labels(labels, grades.size, "labels")
    grades, ideal_grades, scores, labels = spec.prepare(grades, ideal_grades, scores, labels)
    gain = v.gain_spec
    g = gains(grades, gain)
    n = grades.size
    if scores is None:
        order = np.arange(n)
        groups = np.arange(1, n + 1)
        ranked_scores = None
    else:
        order, groups = rank_by_scores(scores, labels, v.ties)
        ranked_scores = scores[order]
        if v.ties == "docid_desc":
            ranked_scores = ranked_scores.astype(np.float32).astype(float)
    ranked_g = g[order]
    if v.ties == "average" and scores is not None:
        ranked_g = _average_over_groups(ranked_g, groups)
    pool_is_list = ideal_grades is None
    pool_grades = grades if pool_is_list else ideal_grades
    pool_g = g if pool_is_list else gains(pool_grades, gain)
    pool_order = np.argsort(-pool_g, kind="stable")
    cut = n if v.k is None else v.k
    if spec.ideal_depth == "pool" and v.k is None:
        ideal_cut = max(n, pool_g.size)
    elif spec.ideal_depth == "retrieved":
        ideal_cut = min(cut, n)
    else:
        ideal_cut = cut
    dcg_value = _dcg_of_gains(ranked_g, cut, v.discount, v.log_base)
    idcg_value = _dcg_of_gains(pool_g[pool_order], ideal_cut, v.discount, v.log_base)
    return _Computation(
        grades=grades[order],
        gains=ranked_g,
        order=order,
        scores=ranked_scores,
        groups=groups,
        pool_grades=pool_grades[pool_order],
        pool_gains=pool_g[pool_order],
        pool_order=pool_order,
        cut=cut,
        ideal_cut=ideal_cut,
        dcg=dcg_value,
        idcg=idcg_value,
        ndcg=_normalize(dcg_value, idcg_value, spec),
        spec=spec,
        labels=labels,
        pool_is_list=pool_is_list,
    )


def dcg(
    relevances: Any,
    k: int | None = None,
    *,
    gain: GainSpec | None = None,
    discount: str | None = None,
    log_base: float | None = None,
) -> float:
    """Discounted cumulative gain of a ranked list.

    Parameters
    ----------
    relevances : array-like of float
        Relevance grades in ranked order, position 1 first.
    k : int, optional
        Cutoff: only the first ``k`` positions count. ``None`` means all.
    gain : {"linear", "exponential"} or mapping, optional
        How grades become gains; see :func:`gains`. Default: linear.
    discount : {"log", "jarvelin"}, optional
        How gains shrink with position; see :func:`divisors`. Default: log.
    log_base : float, optional
        The base ``b`` of the logarithm in the discount. Default: 2.

    Returns
    -------
    float

    Examples
    --------
    Seed 000's binary list 1, 0, 1, 1, 0 cut at 3: the first item keeps its
    full gain, the second has none, the third is divided by log2(4) = 2.

    >>> dcg([1, 0, 1, 1, 0], k=3)
    1.5
    """
    v = as_spec(None, None, k=k, gain=gain, discount=discount, log_base=log_base).variant
    g = gains(relevances, v.gain_spec)
    return _dcg_of_gains(g, g.size if v.k is None else v.k, v.discount, v.log_base)


def ndcg(
    relevances: Any,
    k: int | None = None,
    *,
    scores: Any = None,
    labels: Sequence[Any] | None = None,
    ideal: Any = None,
    spec: Spec | None = None,
    preset: str | Preset | None = None,
    gain: GainSpec | None = None,
    discount: str | None = None,
    log_base: float | None = None,
    zero_idcg: str | None = None,
    ties: str | None = None,
) -> float:
    """Normalized discounted cumulative gain: DCG@k divided by the ideal DCG@k.

    Parameters
    ----------
    relevances : array-like of float
        Relevance grades in ranked order, position 1 first; with ``scores``,
        one grade per item in any order. Negative grades are allowed: they
        give negative gains, so a bad item placed high lowers the score, and
        NDCG can then fall below 0.
    k : int, optional
        Cutoff. ``None`` means ``k`` is the length of the list. A ``k`` larger
        than the list is allowed: the missing positions add nothing to DCG,
        while the ideal DCG may still use ``k`` grades from ``ideal``.
    scores : array-like of float, optional
        One model score per item, in the order of ``relevances``. The ranking
        then follows the scores, highest first, and ``ties`` says what
        happens to equal scores. Default: ``relevances`` are already ranked.
    labels : sequence, optional
        The items' ids, in the order of ``relevances``. Only the
        ``"docid_desc"`` tie rule (trec_eval) looks at them; default
        ``D1, D2, ...``.
    ideal : array-like of float, optional
        Grades of every judged item for this query, retrieved or not. The
        ideal ordering sorts this pool, best first. Default: the list itself.
    spec : Spec, optional
        Every choice at once, as :func:`ndcg_core.resolve` builds it; then
        give no preset or formula keyword (``k`` may still replace its cutoff).
    preset : str, optional
        A library's NDCG, by name (a key of :data:`ndcg_core.presets.PRESETS`,
        e.g. ``"sklearn"`` or ``"trec_eval"``). It sets the formula choices
        and that library's rules on grades, ideal and scores, so the result
        equals what the library reports for the same input. A formula
        keyword that contradicts it is refused.
    gain, discount, log_base
        The formula variant; see :func:`dcg`. ``None`` (the default) means
        the schema's default (:data:`ndcg_core.SCHEMA`), or the preset's.
    zero_idcg : {"zero", "one", "skip", "error"}, optional, default "zero"
        What to return when the ideal DCG is not positive (no item with a
        positive gain to find). ``"zero"`` follows scikit-learn and trec_eval:
        a system cannot earn credit where nothing can be earned, and in a
        mean over queries such lists pull the average down rather than
        vanishing silently. ``"one"`` follows LightGBM and XGBoost, ``"skip"``
        returns NaN so averages can leave the list out, ``"error"`` raises.
    ties : {"stable", "average", "docid_desc", "reverse_argsort"}, optional, default "stable"
        How equal ``scores`` are ranked; see :data:`ndcg_core.variants.TIES`.
        ``"average"`` gives each item of a tie group the group's mean gain,
        so the result does not depend on the input order.

    Returns
    -------
    float
        Between 0 and 1 for non-negative gains when ``ideal`` covers the list.

    Raises
    ------
    ValueError
        For a grade or score that is not a finite number, ``k < 1``, an
        unknown variant or preset, IDCG = 0 with ``zero_idcg="error"``, or an
        input the preset's library refuses (the message states its rule).

    See Also
    --------
    explain : the same computation, step by step, as tables.

    Examples
    --------
    Wikipedia's D1..D6 with grades 3, 2, 3, 0, 1, 2 uses the original
    discount, rel1 + sum of rel_i / log2(i): DCG6 = 3 + 2 + 3/1.585 + 0 +
    1/2.322 + 2/2.585 = 8.097. The ideal order 3, 3, 2, 2, 1, 0 gives
    IDCG6 = 8.693, and the ratio is 0.932.

    >>> round(ndcg([3, 2, 3, 0, 1, 2], discount="jarvelin"), 3)
    0.932

    The Shaped article's list A finds two of three relevant items; the third
    was never retrieved, but it still counts in the ideal ordering:

    >>> round(ndcg([0, 1, 1], k=3, ideal=[1, 1, 1]), 3)
    0.531

    Scores decide the order; equal scores are a tie:

    >>> round(ndcg([0, 1], scores=[0.5, 0.5]), 4)
    0.6309
    >>> round(ndcg([0, 1], scores=[0.5, 0.5], ties="average"), 4)
    0.8155
    >>> round(ndcg([3, 1, 0], scores=[0.2, 0.9, 0.1], preset="xgboost"), 4)
    0.7098
    """
    spec = as_spec(
        spec, preset, k=k, gain=gain, discount=discount, log_base=log_base, zero_idcg=zero_idcg, ties=ties
    )
    return _compute(relevances, spec, scores=scores, labels=labels, ideal=ideal).ndcg


def ndcg_curve(
    relevances: Any,
    *,
    ideal: Any = None,
    spec: Spec | None = None,
    gain: GainSpec | None = None,
    discount: str | None = None,
    log_base: float | None = None,
    zero_idcg: str | None = None,
    max_k: int | None = None,
) -> pd.DataFrame:
    """DCG@k, IDCG@k and NDCG@k for every k from 1 to ``max_k``, in one pass.

    ``relevances`` are gains' grades in ranked order (the spec's tie rule and
    input rules do not apply: rank the list first). ``max_k`` defaults to the
    longer of the list and the ideal pool.

    >>> ndcg_curve([0, 1]).round(3)
       k    dcg  idcg   ndcg
    0  1  0.000   1.0  0.000
    1  2  0.631   1.0  0.631
    """
    spec = as_spec(spec, None, gain=gain, discount=discount, log_base=log_base, zero_idcg=zero_idcg)
    v = spec.variant
    gain_of = v.gain_spec
    g = gains(relevances, gain_of)
    ideal_g = _ideal_gains(g if ideal is None else gains(to_grades(ideal, "ideal"), gain_of))
    n = Variant(k=max_k).k or max(g.size, ideal_g.size, 1)
    d = divisors(n, v.discount, v.log_base)
    padded = np.zeros(n)
    padded[: min(n, g.size)] = g[:n]
    ideal_padded = np.zeros(n)
    ideal_padded[: min(n, ideal_g.size)] = ideal_g[:n]
    dcg_k = np.cumsum(padded / d)
    idcg_k = np.cumsum(ideal_padded / d)
    if v.zero_idcg == "error":  # a curve shows every k: mark undefined points instead of raising
        spec = replace(spec, variant=v.with_(zero_idcg="skip"))
    ndcg_k = spec.normalize(dcg_k, idcg_k)
    return pd.DataFrame({"k": np.arange(1, n + 1), "dcg": dcg_k, "idcg": idcg_k, "ndcg": ndcg_k})


def _check_labels(labels: Any, n: int, what: str) -> list[str]:
    if labels is None:
        return [f"D{i}" for i in range(1, n + 1)]
    out = [str(x) for x in labels]
    if len(out) != n:
        raise NDCGError("labels_count", what=what, n=len(out), grades=n)
    return out

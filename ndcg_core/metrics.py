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
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .variants import Variant, check_choice, check_k, check_log_base

__all__ = [
    "STEP_COLUMNS",
    "Explanation",
    "dcg",
    "divisors",
    "explain",
    "gains",
    "ndcg",
    "ndcg_curve",
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
    ValueError: relevances: position 2 is 'x', expected a finite number
    """
    if isinstance(values, (str, bytes)):
        raise ValueError(f"{what}: expected a list of numbers, got a string {values!r}")
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
                raise ValueError(f"{what}: position {i + 1} is {v!r}, expected a finite number") from None
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"{what}: position {i + 1} is {arr[i]!r}, expected a finite number")
    return arr


def gains(grades: Any, gain: GainSpec = "linear") -> np.ndarray:
    """Turn relevance grades into gains.

    Parameters
    ----------
    grades : array-like of float
        Relevance grades.
    gain : {"linear", "exponential"} or mapping
        ``"linear"``: the gain is the grade. ``"exponential"``: ``2**g - 1``,
        so each grade step doubles the gain; a negative grade is mirrored to
        ``-(2**|g| - 1)``, so a Bad (-1) costs exactly what a Fair (+1) earns.
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
        out = np.empty_like(g)
        for i, grade in enumerate(g):
            if grade not in table:
                known = ", ".join(f"{x:g}" for x in sorted(table))
                raise ValueError(
                    f"grade {grade:g} (position {i + 1}) is not in the gain table, which has grades {known}"
                )
            out[i] = table[grade]
        return out
    check_choice("gain", gain)
    if gain == "linear":
        return g.copy()
    with np.errstate(over="ignore"):
        out = np.sign(g) * np.expm1(np.abs(g) * math.log(2.0))
    bad = np.flatnonzero(~np.isfinite(out))
    if bad.size:
        i = int(bad[0])
        raise ValueError(
            f"grade {g[i]:g} (position {i + 1}) is too large for exponential gain: "
            "2^grade overflows a float (grades must stay between -1023 and 1023)"
        )
    # expm1(x*ln2) is 2**x - 1 without cancellation; round integers exactly.
    exact = np.abs(g) == np.round(np.abs(g))
    out[exact] = np.sign(g[exact]) * (np.exp2(np.abs(g[exact])) - 1.0)
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
    positions = np.arange(1, n + 1, dtype=float)
    ln_b = math.log(log_base)
    if discount == "log":
        return np.log1p(positions) / ln_b
    return np.maximum(1.0, np.log(positions) / ln_b)


def _dcg_of_gains(ranked_gains: np.ndarray, k: int, discount: str, log_base: float) -> float:
    """DCG@k of gains already in ranked order: the one DCG routine."""
    top = ranked_gains[:k]
    return float(np.sum(top / divisors(top.size, discount, log_base)))


def _ideal_gains(ideal_gains: np.ndarray) -> np.ndarray:
    """Gains sorted best first (stable, so equal gains keep their order)."""
    return ideal_gains[np.argsort(-ideal_gains, kind="stable")]


def _apply_zero_idcg(dcg_value: float, idcg_value: float, policy: str) -> float:
    if idcg_value > 0:
        return dcg_value / idcg_value
    if policy == "zero":
        return 0.0
    if policy == "one":
        return 1.0
    if policy == "skip":
        return math.nan
    raise ValueError(
        f"IDCG is {idcg_value:g}: no item in the ideal ordering has a positive gain, so NDCG "
        "is undefined (choose zero_idcg='zero', 'one' or 'skip' to score such lists)"
    )


def dcg(
    relevances: Any,
    k: int | None = None,
    *,
    gain: GainSpec = "linear",
    discount: str = "log",
    log_base: float = 2.0,
) -> float:
    """Discounted cumulative gain of a ranked list.

    Parameters
    ----------
    relevances : array-like of float
        Relevance grades in ranked order, position 1 first.
    k : int, optional
        Cutoff: only the first ``k`` positions count. ``None`` means all.
    gain : {"linear", "exponential"} or mapping, default "linear"
        How grades become gains; see :func:`gains`.
    discount : {"log", "jarvelin"}, default "log"
        How gains shrink with position; see :func:`divisors`.
    log_base : float, default 2
        The base ``b`` of the logarithm in the discount.

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
    k = check_k(k)
    g = gains(relevances, gain)
    return _dcg_of_gains(g, g.size if k is None else k, discount, log_base)


def ndcg(
    relevances: Any,
    k: int | None = None,
    *,
    gain: GainSpec = "linear",
    discount: str = "log",
    log_base: float = 2.0,
    ideal: Any = None,
    zero_idcg: str = "zero",
) -> float:
    """Normalized discounted cumulative gain: DCG@k divided by the ideal DCG@k.

    Parameters
    ----------
    relevances : array-like of float
        Relevance grades in ranked order, position 1 first. Negative grades
        are allowed: they give negative gains, so a bad item placed high
        lowers the score, and NDCG can then fall below 0.
    k : int, optional
        Cutoff. ``None`` means ``k`` is the length of the list. A ``k`` larger
        than the list is allowed: the missing positions add nothing to DCG,
        while the ideal DCG may still use ``k`` grades from ``ideal``.
    gain, discount, log_base
        The formula variant; see :func:`dcg`.
    ideal : array-like of float, optional
        Grades of every judged item for this query, retrieved or not. The
        ideal ordering sorts this pool, best first. Default: the list itself.
    zero_idcg : {"zero", "one", "skip", "error"}, default "zero"
        What to return when the ideal DCG is not positive (no item with a
        positive gain to find). ``"zero"`` follows scikit-learn and trec_eval:
        a system cannot earn credit where nothing can be earned, and in a
        mean over queries such lists pull the average down rather than
        vanishing silently. ``"one"`` follows LightGBM and XGBoost, ``"skip"``
        returns NaN so averages can leave the list out, ``"error"`` raises.

    Returns
    -------
    float
        Between 0 and 1 for non-negative gains when ``ideal`` covers the list.

    Raises
    ------
    ValueError
        For a grade that is not a finite number, ``k < 1``, an unknown
        variant, or IDCG = 0 with ``zero_idcg="error"``.

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
    """
    k = check_k(k)
    check_choice("zero_idcg", zero_idcg)
    g = gains(relevances, gain)
    ideal_g = g if ideal is None else gains(to_grades(ideal, "ideal"), gain)
    cut = g.size if k is None else k
    dcg_value = _dcg_of_gains(g, cut, discount, log_base)
    idcg_value = _dcg_of_gains(_ideal_gains(ideal_g), cut, discount, log_base)
    return _apply_zero_idcg(dcg_value, idcg_value, zero_idcg)


def ndcg_curve(
    relevances: Any,
    *,
    gain: GainSpec = "linear",
    discount: str = "log",
    log_base: float = 2.0,
    ideal: Any = None,
    zero_idcg: str = "zero",
    max_k: int | None = None,
) -> pd.DataFrame:
    """DCG@k, IDCG@k and NDCG@k for every k from 1 to ``max_k``, in one pass.

    ``max_k`` defaults to the longer of the list and the ideal pool.

    >>> ndcg_curve([0, 1]).round(3)
       k    dcg  idcg   ndcg
    0  1  0.000   1.0  0.000
    1  2  0.631   1.0  0.631
    """
    check_choice("zero_idcg", zero_idcg)
    g = gains(relevances, gain)
    ideal_g = _ideal_gains(g if ideal is None else gains(to_grades(ideal, "ideal"), gain))
    n = check_k(max_k) or max(g.size, ideal_g.size, 1)
    d = divisors(n, discount, log_base)
    padded = np.zeros(n)
    padded[: min(n, g.size)] = g[:n]
    ideal_padded = np.zeros(n)
    ideal_padded[: min(n, ideal_g.size)] = ideal_g[:n]
    dcg_k = np.cumsum(padded / d)
    idcg_k = np.cumsum(ideal_padded / d)
    ndcg_k = [_apply_zero_idcg(a, b, zero_idcg) for a, b in zip(dcg_k, idcg_k, strict=True)]
    return pd.DataFrame({"k": np.arange(1, n + 1), "dcg": dcg_k, "idcg": idcg_k, "ndcg": ndcg_k})


@dataclass(frozen=True)
class Explanation:
    """Every intermediate number of one NDCG computation.

    Attributes
    ----------
    steps : pandas.DataFrame
        One row per position of the ranking, columns :data:`STEP_COLUMNS`.
    ideal_steps : pandas.DataFrame
        The same for the ideal ordering of the judged pool.
    cg, dcg, idcg, ndcg : float
        CG@k (the undiscounted sum of gains), DCG@k, IDCG@k and NDCG@k.
    k : int
        The cutoff actually used (the list's length when none was given).
    variant : Variant
        The formula choices used.
    """

    steps: pd.DataFrame
    ideal_steps: pd.DataFrame
    cg: float
    dcg: float
    idcg: float
    ndcg: float
    k: int
    variant: Variant


def _step_table(labels: list[str], grades: np.ndarray, g: np.ndarray, d: np.ndarray, k: int):
    discounted = g / d
    cumulative = np.cumsum(np.where(np.arange(g.size) < k, discounted, 0.0))
    return pd.DataFrame(
        {
            "Position": np.arange(1, g.size + 1),
            "Item": pd.array(labels, dtype=object),
            "Grade": grades,
            "Gain": g,
            "Divisor": d,
            "Discounted gain": discounted,
            "Cumulative DCG": cumulative,
            "Beyond k": np.arange(1, g.size + 1) > k,
        },
        columns=list(STEP_COLUMNS),
    )


def _check_labels(labels: Any, n: int, what: str) -> list[str]:
    if labels is None:
        return [f"D{i}" for i in range(1, n + 1)]
    out = [str(x) for x in labels]
    if len(out) != n:
        raise ValueError(f"{what} has {len(out)} entries but there are {n} grades; give one label per grade")
    return out


def explain(
    relevances: Any,
    k: int | None = None,
    *,
    labels: Sequence[Any] | None = None,
    gain: GainSpec = "linear",
    discount: str = "log",
    log_base: float = 2.0,
    ideal: Any = None,
    ideal_labels: Sequence[Any] | None = None,
    zero_idcg: str = "zero",
) -> Explanation:
    """Compute NDCG and keep every step, as tables a student can read.

    Parameters are those of :func:`ndcg`, plus:

    labels : sequence, optional
        Item names in ranked order (default ``D1, D2, ...``). Duplicates are
        allowed: rows are told apart by their position.
    ideal_labels : sequence, optional
        Names of the items in ``ideal`` (default: the ranking's labels when
        ``ideal`` is None, otherwise ``J1, J2, ...``).

    Returns
    -------
    Explanation

    Examples
    --------
    Seed 000's five documents graded 3, 2, 0, 0, 1:

    >>> ex = explain([3, 2, 0, 0, 1])
    >>> ex.steps[["Item", "Gain", "Divisor", "Discounted gain"]].round(3)
      Item  Gain  Divisor  Discounted gain
    0   D1   3.0    1.000            3.000
    1   D2   2.0    1.585            1.262
    2   D3   0.0    2.000            0.000
    3   D4   0.0    2.322            0.000
    4   D5   1.0    2.585            0.387
    >>> list(ex.ideal_steps["Item"])
    ['D1', 'D2', 'D5', 'D3', 'D4']
    >>> round(ex.cg, 2), round(ex.dcg, 3), round(ex.idcg, 3), round(ex.ndcg, 3)
    (6.0, 4.649, 4.762, 0.976)
    """
    k = check_k(k)
    check_choice("zero_idcg", zero_idcg)
    grades = to_grades(relevances)
    names = _check_labels(labels, grades.size, "labels")
    g = gains(grades, gain)
    if ideal is None:
        pool_grades, pool_names = grades, names
        if ideal_labels is not None:
            pool_names = _check_labels(ideal_labels, grades.size, "ideal_labels")
    else:
        pool_grades = to_grades(ideal, "ideal")
        pool_names = _check_labels(
            ideal_labels if ideal_labels is not None else [f"J{i}" for i in range(1, pool_grades.size + 1)],
            pool_grades.size,
            "ideal_labels",
        )
    pool_g = gains(pool_grades, gain)
    order = np.argsort(-pool_g, kind="stable")
    cut = grades.size if k is None else k
    n_max = max(grades.size, pool_g.size)
    d = divisors(n_max, discount, log_base)
    steps = _step_table(names, grades, g, d[: grades.size], cut)
    ideal_steps = _step_table(
        [pool_names[i] for i in order], pool_grades[order], pool_g[order], d[: pool_g.size], cut
    )
    dcg_value = _dcg_of_gains(g, cut, discount, log_base)
    idcg_value = _dcg_of_gains(pool_g[order], cut, discount, log_base)
    variant = Variant(
        k=k,
        gain=gain if isinstance(gain, str) else dict(gain),
        discount=discount,
        log_base=log_base,
        zero_idcg=zero_idcg,
    )
    return Explanation(
        steps=steps,
        ideal_steps=ideal_steps,
        cg=float(g[:cut].sum()),
        dcg=dcg_value,
        idcg=idcg_value,
        ndcg=_apply_zero_idcg(dcg_value, idcg_value, zero_idcg),
        k=cut,
        variant=variant,
    )

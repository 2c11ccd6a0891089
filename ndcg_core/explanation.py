"""Every intermediate number of one NDCG computation: :func:`explain` and :class:`Explanation`.

:func:`explain` runs the same computation as :func:`ndcg_core.ndcg` (one shared routine in
:mod:`ndcg_core.metrics`) and keeps its steps as tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .metrics import STEP_COLUMNS, GainSpec, _check_labels, _compute, divisors
from .presets import Preset, as_spec
from .spec import Spec
from .variants import Variant

__all__ = ["Explanation", "explain"]


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
    spec : Spec
        Every choice used: :attr:`variant` and, if any, the :attr:`preset`.
    ideal_k : int
        How many ideal positions IDCG sums (usually ``k``; some presets
        differ, e.g. trec_eval's ``ndcg`` without a cutoff sums the whole pool).
    """

    steps: pd.DataFrame
    ideal_steps: pd.DataFrame
    cg: float
    dcg: float
    idcg: float
    ndcg: float
    k: int
    spec: Spec
    ideal_k: int | None = None

    @property
    def variant(self) -> Variant:
        """The formula choices used."""
        return self.spec.variant

    @property
    def preset(self) -> str | None:
        """The library preset whose rules were applied, if any."""
        return self.spec.preset

    @property
    def idcg_depth(self) -> int:
        """How many ideal positions IDCG sums: :attr:`ideal_k`, or :attr:`k` when not given."""
        return self.k if self.ideal_k is None else self.ideal_k

    def named(self, measure: str) -> str:
        """``measure@k`` as the app writes it, e.g. ``"DCG@6"``. IDCG carries its own depth where it
        sums more positions than the ranking has (trec_eval's ``ndcg`` with no cutoff sums every
        judged item): ``"IDCG@5"`` beside ``"DCG@3"``.

        >>> ex = explain([1, 0, 1], ideal=[1, 0, 1, 1, 1], preset="trec_eval")
        >>> ex.named("DCG"), ex.named("IDCG")
        ('DCG@3', 'IDCG@5')
        """
        deeper = measure == "IDCG" and self.idcg_depth > self.k
        return f"{measure}@{self.idcg_depth if deeper else self.k}"


def _step_table(
    labels: list[str],
    grades: np.ndarray,
    g: np.ndarray,
    d: np.ndarray,
    k: int,
    scores: np.ndarray | None = None,
    groups: np.ndarray | None = None,
):
    n = g.size
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
            "Score": np.full(n, np.nan) if scores is None else scores,
            "Tie group": np.arange(1, n + 1) if groups is None else groups,
        },
        columns=list(STEP_COLUMNS),
    )


def explain(
    relevances: Any,
    k: int | None = None,
    *,
    labels: Sequence[Any] | None = None,
    scores: Any = None,
    ideal: Any = None,
    ideal_labels: Sequence[Any] | None = None,
    spec: Spec | None = None,
    preset: str | Preset | None = None,
    gain: GainSpec | None = None,
    discount: str | None = None,
    log_base: float | None = None,
    zero_idcg: str | None = None,
    ties: str | None = None,
) -> Explanation:
    """Compute NDCG and keep every step, as tables a student can read.

    Parameters are those of :func:`ndcg`, plus:

    labels : sequence, optional
        Item names, in the order of ``relevances`` (default ``D1, D2, ...``).
        Duplicates are allowed: rows are told apart by their position.
    ideal_labels : sequence, optional
        Names of the items in ``ideal`` (default: the ranking's labels when
        ``ideal`` is None, otherwise ``J1, J2, ...``).

    Returns
    -------
    Explanation
        ``steps`` lists the ranking (sorted by score when ``scores`` are
        given). Its ``Gain`` column is the gain each position counts: under
        ``ties="average"`` that is the mean gain of the position's tie
        group. ``Score`` is the score as compared (NaN without scores) and
        ``Tie group`` numbers groups of equal scores (without scores, every
        position is its own group).

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

    With scores, the table follows them and shows the tie groups:

    >>> ex = explain([0, 2, 1], scores=[0.7, 0.7, 0.9], ties="average")
    >>> ex.steps[["Item", "Grade", "Gain", "Score", "Tie group"]]
      Item  Grade  Gain  Score  Tie group
    0   D3    1.0   1.0    0.9          1
    1   D1    0.0   1.0    0.7          2
    2   D2    2.0   1.0    0.7          2
    """
    spec = as_spec(
        spec, preset, k=k, gain=gain, discount=discount, log_base=log_base, zero_idcg=zero_idcg, ties=ties
    )
    c = _compute(relevances, spec, scores=scores, labels=labels, ideal=ideal)
    n = c.order.size
    # A preset may drop items (TF-Ranking's padding), so names follow its labels.
    names = c.labels if c.labels is not None else _check_labels(labels, n, "labels")
    if c.pool_is_list:
        pool_names = names  # the ideal ordering sorts the list itself (a given pool may be ignored)
        if ideal is None and ideal_labels is not None:
            pool_names = _check_labels(ideal_labels, n, "ideal_labels")
    else:
        m = c.pool_grades.size
        pool_names = _check_labels(
            ideal_labels if ideal_labels is not None else [f"J{i}" for i in range(1, m + 1)],
            m,
            "ideal_labels",
        )
    d = divisors(max(n, c.pool_gains.size), spec.variant.discount, spec.variant.log_base)
    steps = _step_table(
        [names[i] for i in c.order], c.grades, c.gains, d[:n], c.cut, c.scores, c.groups if n else None
    )
    ideal_steps = _step_table(
        [pool_names[i] for i in c.pool_order],
        c.pool_grades,
        c.pool_gains,
        d[: c.pool_gains.size],
        c.ideal_cut,
    )
    return Explanation(
        steps=steps,
        ideal_steps=ideal_steps,
        cg=float(c.gains[: c.cut].sum()),
        dcg=c.dcg,
        idcg=c.idcg,
        ndcg=c.ndcg,
        k=c.cut,
        spec=spec,
        ideal_k=c.ideal_cut,
    )

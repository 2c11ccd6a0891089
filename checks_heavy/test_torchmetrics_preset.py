"""``preset="torchmetrics"`` against torchmetrics' ``retrieval_normalized_dcg``.

Every expected value is computed by torchmetrics itself on the same input.
The lists are seeded and random, with many tied scores (torchmetrics averages
the gain over a tie, as scikit-learn does), grades of 0, all-zero lists,
negative targets (an ideal DCG of 0 or below), scores that tie only at
float32 precision, and cutoffs of None, inside and beyond the list.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from torchmetrics.functional.retrieval import retrieval_normalized_dcg

import ndcg_core

SEEDS = range(400)
REL, ABS = 1e-5, 2e-6  # torchmetrics computes in float32


def torchmetrics_ndcg(grades, scores, k) -> float:
    """The library's value; integer grades go in as a long tensor, others as float."""
    as_int = all(float(g).is_integer() for g in grades)
    target = torch.tensor([int(g) for g in grades]) if as_int else torch.tensor(grades, dtype=torch.float64)
    preds = torch.tensor(scores, dtype=torch.float64)
    return float(retrieval_normalized_dcg(preds, target, top_k=k))


def random_case(seed: int) -> tuple[list[float], list[float], int | None]:
    """One seeded list: grades, scores (with ties) and a cutoff."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 13))
    kind = seed % 10
    if kind == 0:
        grades = np.zeros(n)
    elif kind in (1, 2):
        grades = rng.integers(-3, 4, n).astype(float)  # negative targets: IDCG can be 0 or below
    elif kind == 3:
        grades = rng.choice([0.0, 0.5, 1.0, 2.5], n)
    else:
        grades = rng.integers(0, 4, n).astype(float)
    style = (seed // 10) % 5
    if style == 0:
        scores = rng.integers(0, 3, n).astype(float)  # heavy ties
    elif style == 1:
        scores = np.zeros(n)  # one tie across the whole list
    elif style == 2:  # distinct in float64, many equal in float32
        scores = 0.1 + rng.integers(0, 3, n) * 1e-12
    elif style == 3:
        scores = rng.normal(size=n)  # negative scores are ranked like any other
    else:
        scores = np.round(rng.normal(size=n), 1)
    k = [None, 1, 2, 3, n, n + int(rng.integers(1, 20))][int(rng.integers(0, 6))]
    return grades.tolist(), scores.tolist(), k


@pytest.mark.parametrize("seed", SEEDS)
def test_random_lists_with_ties(seed):
    grades, scores, k = random_case(seed)
    expected = torchmetrics_ndcg(grades, scores, k)
    got = ndcg_core.ndcg(grades, k, scores=scores, preset="torchmetrics")
    assert math.isclose(got, expected, rel_tol=REL, abs_tol=ABS), (grades, scores, k, expected, got)


def test_the_cases_cover_what_they_claim():
    """The seeds above do include ties, negative and all-zero targets, and values above 1."""
    cases = [random_case(s) for s in SEEDS]
    assert sum(len(set(np.float32(sc))) < len(sc) for _, sc, _ in cases) > 200
    assert sum(all(g == 0 for g in gr) for gr, _, _ in cases) >= 40
    assert sum(min(gr) < 0 for gr, _, _ in cases) >= 60
    assert sum(k is None for *_, k in cases) >= 30
    assert sum(k is not None and k > len(gr) for gr, _, k in cases) >= 30
    assert sum(torchmetrics_ndcg(*c) > 1 + 1e-6 for c in cases) >= 5


@pytest.mark.parametrize("n", [4, 5, 6, 8, 10, 30])
def test_issue_example_negative_targets_all_scores_zero(n):
    """Issue 8, defect 12: targets [-2, -1, -1, 0, ...], every score 0, k=30."""
    grades = [-2, -1, -1] + [0] * (n - 3)
    scores = [0.0] * n
    expected = torchmetrics_ndcg(grades, scores, 30)
    assert expected > 1  # the library divides a negative DCG by a negative ideal DCG
    got = ndcg_core.ndcg(grades, 30, scores=scores, preset="torchmetrics")
    assert math.isclose(got, expected, rel_tol=REL, abs_tol=ABS)


def test_negative_targets_closed_form():
    """Targets [-2, -1, -1, 0], every score 0, k=30: one tie, so DCG is the mean target times the
    sum of the four discounts; the ideal order is [0, -1, -1, -2]. Both are negative, and
    torchmetrics divides them: 2.5616 / 1.9923 = 1.2858."""
    d = [1 / math.log2(i + 1) for i in range(1, 5)]
    dcg = -1.0 * sum(d)
    idcg = 0 * d[0] - d[1] - d[2] - 2 * d[3]
    closed = dcg / idcg
    assert round(closed, 4) == 1.2858
    grades, scores = [-2, -1, -1, 0], [0.0] * 4
    assert math.isclose(torchmetrics_ndcg(grades, scores, 30), closed, rel_tol=REL)
    assert math.isclose(ndcg_core.ndcg(grades, 30, scores=scores, preset="torchmetrics"), closed, rel_tol=REL)


@pytest.mark.parametrize(
    ("grades", "scores", "k"),
    [
        ([0, -1], [0.0, 1.0], 1),  # IDCG@1 exactly 0 while DCG@1 is -1: the library returns 0
        ([-1, -2], [1.0, 0.0], None),  # all negative: IDCG < 0, divided
        ([-1, -2], [0.0, 1.0], 2),
        ([3, -3], [0.5, 0.5], 2),  # a tie over a positive and a negative target
        ([1, 0, 2], [1e8, 1e8 + 1, 1e8 + 2], 2),  # equal once stored as float32 (spacing 8 at 1e8)
        ([2, 1], [-1.0, -2.0], 1),  # scores at or below 0 are ranked like any other
        ([0, 0, 0], [0.3, 0.2, 0.1], 2),
        ([5], [0.0], 10),
    ],
)
def test_edge_cases(grades, scores, k):
    expected = torchmetrics_ndcg(grades, scores, k)
    got = ndcg_core.ndcg(grades, k, scores=scores, preset="torchmetrics")
    assert math.isclose(got, expected, rel_tol=REL, abs_tol=ABS), (expected, got)


def test_empty_list_is_refused_by_both():
    with pytest.raises(ValueError, match="non-empty"):
        retrieval_normalized_dcg(torch.tensor([]), torch.tensor([]))
    with pytest.raises(ValueError, match="non-empty"):
        ndcg_core.ndcg([], None, scores=[], preset="torchmetrics")


def test_k_zero_is_refused_by_both():
    with pytest.raises(ValueError, match="top_k"):
        retrieval_normalized_dcg(torch.tensor([0.5]), torch.tensor([1]), top_k=0)
    with pytest.raises(ValueError):
        ndcg_core.ndcg([1], 0, scores=[0.5], preset="torchmetrics")

"""``preset="tf_ranking"`` against TF-Ranking's NDCG (``metrics_impl.NDCGMetric``).

Every expected value is computed by TF-Ranking itself on the same input.
TF-Ranking breaks tied scores at random (``utils.sort_by_scores`` shuffles
before sorting), so its value on a list whose tied items differ in grade
changes from call to call. The seeded comparisons therefore use only lists
where the order inside every tie cannot matter: tied items (at float32, as
TF-Ranking compares scores) share one grade, or are padding (a negative
label). That still covers ties, grades of 0, all-zero lists, fractional and
negative (padding) labels, and cutoffs of None, inside and beyond the list.
For lists whose ties do matter, :func:`test_ties_give_one_of_the_values_tf_ranking_can_return`
checks that the preset's value is one that TF-Ranking returns for some tie order.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import ndcg_core

SEEDS = range(400)
REL, ABS = 1e-5, 2e-6  # TF-Ranking computes in float32


def tf_ndcg(tfr, grades, scores, k) -> float:
    """TF-Ranking's per-list NDCG for one list (a batch of one)."""
    tf = tfr.tf
    labels = tf.constant([grades], tf.float32)
    preds = tf.constant([scores], tf.float32)
    per_list, _weights = tfr.impl.NDCGMetric("ndcg", topn=k).compute(labels, preds)
    return float(per_list.numpy()[0, 0])


def tie_independent(grades, scores) -> bool:
    """Whether every group of scores equal at float32 holds one grade (padding aside)."""
    seen: dict[np.float32, float] = {}
    for g, s in zip(grades, scores, strict=True):
        if g < 0:
            continue
        key = np.float32(s)
        if seen.setdefault(key, g) != g:
            return False
    return True


def random_case(seed: int) -> tuple[list[float], list[float], int | None]:
    """One seeded list whose value does not depend on how ties are broken."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 13))
    kind = seed % 10
    if kind == 0:
        grades = np.zeros(n)
    elif kind in (1, 2):
        grades = rng.integers(-1, 4, n).astype(float)  # -1: padding, dropped by TF-Ranking
    elif kind == 3:
        grades = rng.choice([0.0, 0.5, 1.0, 2.5], n)
    else:
        grades = rng.integers(0, 4, n).astype(float)
    style = (seed // 10) % 4
    if style == 0:
        scores = rng.normal(size=n)  # no ties
    elif style == 1:  # ties inside each grade: the score is a function of the grade
        table = rng.permutation(8).astype(float)
        scores = np.array([table[int(2 * g) % 8] for g in grades])
    elif style == 2:  # equal only at float32, again within one grade
        table = 0.1 + rng.permutation(8) * 1e-3
        scores = np.array([table[int(2 * g) % 8] for g in grades]) + rng.integers(0, 2, n) * 1e-12
    else:
        scores = np.round(rng.normal(size=n), 1)
    if not tie_independent(grades, scores):
        scores = rng.permutation(n).astype(float)  # distinct
    k = [None, 1, 2, 3, n, n + int(rng.integers(1, 20))][int(rng.integers(0, 6))]
    return grades.tolist(), scores.tolist(), k


@pytest.mark.parametrize("seed", SEEDS)
def test_random_lists(tf_ranking, seed):
    grades, scores, k = random_case(seed)
    expected = tf_ndcg(tf_ranking, grades, scores, k)
    got = ndcg_core.ndcg(grades, k, scores=scores, preset="tf_ranking")
    assert math.isclose(got, expected, rel_tol=REL, abs_tol=ABS), (grades, scores, k, expected, got)


def test_the_cases_cover_what_they_claim():
    cases = [random_case(s) for s in SEEDS]
    valid = [[(g, s) for g, s in zip(gr, sc, strict=True) if g >= 0] for gr, sc, _ in cases]
    assert sum(len({np.float32(s) for _, s in v}) < len(v) for v in valid) >= 100  # tied lists
    assert sum(all(g == 0 for g in gr) for gr, _, _ in cases) >= 40
    assert sum(min(gr) < 0 for gr, _, _ in cases) >= 50
    assert sum(k is None for *_, k in cases) >= 30
    assert sum(k is not None and k > len(gr) for gr, _, k in cases) >= 30


def test_keras_metric_agrees_with_metrics_impl(tf_ranking):
    """The documented entry point, tfr.keras.metrics.NDCGMetric, gives the same values."""
    if tf_ranking.keras is None:
        pytest.fail(f"tfr.keras.metrics did not load ({tf_ranking.how})")
    tf = tf_ranking.tf
    for seed in range(0, 400, 8):
        grades, scores, k = random_case(seed)
        metric = tf_ranking.keras.NDCGMetric(topn=k)
        value = float(metric(tf.constant([grades], tf.float32), tf.constant([scores], tf.float32)))
        assert math.isclose(value, tf_ndcg(tf_ranking, grades, scores, k), rel_tol=REL, abs_tol=ABS)


@pytest.mark.parametrize(
    ("grades", "scores", "k"),
    [
        ([3, 2, 0, -1], [0.1, 0.5, 0.3, 0.9], None),  # the padding item scored highest is dropped
        ([-1, -1], [0.2, 0.1], None),  # only padding: TF-Ranking gives 0
        ([0, 0, 0], [0.3, 0.2, 0.1], 2),
        ([2, -1, 1], [0.5, 0.5, 0.2], None),  # padding tied with a real item: still dropped
        ([1, 2], [1e8, 1e8 + 100], 1),
        ([4], [0.0], 10),
    ],
)
def test_edge_cases(tf_ranking, grades, scores, k):
    expected = tf_ndcg(tf_ranking, grades, scores, k)
    got = ndcg_core.ndcg(grades, k, scores=scores, preset="tf_ranking")
    assert math.isclose(got, expected, rel_tol=REL, abs_tol=ABS), (expected, got)


@pytest.mark.parametrize(
    ("grades", "scores", "k"),
    [
        ([0, 3, 1], [0.5, 0.5, 0.2], None),
        ([2, 0, 1, 3], [1.0, 1.0, 1.0, 0.0], 2),
        ([1, 0], [0.1, 0.1 + 1e-12], 1),  # a tie only at float32
    ],
)
def test_ties_give_one_of_the_values_tf_ranking_can_return(tf_ranking, grades, scores, k):
    """With tied items of different grades TF-Ranking's value varies between calls; the preset
    (ties kept in input order) gives one of the values it returns."""
    seen = {round(tf_ndcg(tf_ranking, grades, scores, k), 5) for _ in range(60)}
    assert len(seen) > 1  # TF-Ranking really does break these ties at random
    got = ndcg_core.ndcg(grades, k, scores=scores, preset="tf_ranking")
    assert any(math.isclose(got, v, rel_tol=REL, abs_tol=ABS) for v in seen), (got, seen)

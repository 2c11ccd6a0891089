"""Inputs where a preset and its library disagree today, each marked ``xfail(strict=True)``.

Every test asserts the library's own value (computed here, live); the reason
names the library rule behind it. When the preset is changed to follow the
library (or to refuse the input with the library's reason, after which the
test should assert that refusal instead), the test passes, strict xfail turns
that into a failure, and the marker must go: the list cannot silently go stale.
Only the preset's side may fail as expected (``AssertionError`` or the
preset's ``ValueError``): if the library itself stops behaving as described,
:func:`library` raises ``LibraryChanged`` and the test fails outright.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest
import torch
from torchmetrics.functional.retrieval import retrieval_normalized_dcg

import ndcg_core

REL, ABS = 1e-5, 2e-6


class LibraryChanged(RuntimeError):
    """The library no longer behaves as the test describes: not an expected failure."""


def library(condition: bool, what: str) -> None:
    if not condition:
        raise LibraryChanged(what)


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=REL, abs_tol=ABS)


def torchmetrics_ndcg(grades, scores, k) -> float:
    target = torch.tensor(grades, dtype=torch.float64)  # float targets: the library stores float32
    return float(retrieval_normalized_dcg(torch.tensor(scores, dtype=torch.float64), target, top_k=k))


def tf_ndcg(tfr, grades, scores, k) -> float:
    tf = tfr.tf
    per_list, _ = tfr.impl.NDCGMetric("ndcg", topn=k).compute(
        tf.constant([grades], tf.float32), tf.constant([scores], tf.float32)
    )
    return float(per_list.numpy()[0, 0])


@pytest.mark.xfail(
    strict=True,
    raises=(AssertionError, ValueError),
    reason="torchmetrics stores float targets as float32 (checks.py: "
    "target.float()); 1e-50 becomes 0, so IDCG is exactly 0 and NDCG 0",
)
def test_torchmetrics_grade_below_float32_range():
    grades, scores = [1e-50, 0.0], [0.0, 1.0]
    library(torchmetrics_ndcg(grades, scores, None) == 0.0, "torchmetrics no longer gives 0")
    assert same(ndcg_core.ndcg(grades, None, scores=scores, preset="torchmetrics"), 0.0)


@pytest.mark.xfail(
    strict=True,
    raises=(AssertionError, ValueError),
    reason="torchmetrics: a float target above float32's range becomes inf, and inf / inf gives NaN",
)
def test_torchmetrics_grade_above_float32_range():
    grades, scores = [3e39, 1.0], [1.0, 0.0]
    library(math.isnan(torchmetrics_ndcg(grades, scores, None)), "torchmetrics no longer gives NaN")
    assert same(ndcg_core.ndcg(grades, None, scores=scores, preset="torchmetrics"), math.nan)


@pytest.mark.xfail(
    strict=True,
    raises=(AssertionError, ValueError),
    reason="torchmetrics sums DCG and IDCG in float32 and tests IDCG == 0 "
    "on that sum (ndcg.py: normalized_gain == 0); the preset sums in float64, gets IDCG "
    "about 1e-16 and divides",
)
def test_torchmetrics_ideal_dcg_cancels_to_zero_in_float32():
    grades, scores = [1.0, -math.log2(3)], [0.0, 1.0]  # IDCG@2 = 1 - log2(3) / log2(3): 0 up to rounding
    lib = torchmetrics_ndcg(grades, scores, 2)
    library(lib == 0.0, f"torchmetrics gives {lib}, not 0")
    assert same(ndcg_core.ndcg(grades, 2, scores=scores, preset="torchmetrics"), lib)


@pytest.mark.xfail(
    strict=True,
    raises=(AssertionError, ValueError),
    reason="scores beyond float32's range: torchmetrics (preds.float()) makes "
    "both +inf, a tie it averages; the preset casts to float32 too, then refuses the inf it "
    "made itself ('position 1 is inf, expected a finite number')",
)
def test_torchmetrics_scores_beyond_float32_range():
    grades, scores = [1.0, 2.0], [1e300, 1e301]
    lib = torchmetrics_ndcg(grades, scores, 1)
    # a tie of (1 + 2) / 2 at rank 1, over the ideal 2
    library(math.isclose(lib, 0.75, rel_tol=REL), f"torchmetrics gives {lib}, not 0.75")
    assert same(ndcg_core.ndcg(grades, 1, scores=scores, preset="torchmetrics"), lib)


@pytest.mark.xfail(
    strict=True,
    raises=(AssertionError, ValueError),
    reason="TF-Ranking computes the gain 2^label - 1 in float32: a label of "
    "128 or more overflows to inf and NDCG is NaN",
)
def test_tf_ranking_label_overflows_float32(tf_ranking):
    grades, scores = [130.0, 1.0], [1.0, 0.0]
    library(math.isnan(tf_ndcg(tf_ranking, grades, scores, None)), "TF-Ranking no longer gives NaN")
    assert same(ndcg_core.ndcg(grades, None, scores=scores, preset="tf_ranking"), math.nan)


@pytest.mark.xfail(
    strict=True,
    raises=(AssertionError, ValueError),
    reason="TF-Ranking casts labels to float32: 1e-50 becomes 0, IDCG is 0 and divide_no_nan gives 0",
)
def test_tf_ranking_label_below_float32_range(tf_ranking):
    grades, scores = [1e-50, 0.0], [0.0, 1.0]
    library(tf_ndcg(tf_ranking, grades, scores, None) == 0.0, "TF-Ranking no longer gives 0")
    assert same(ndcg_core.ndcg(grades, None, scores=scores, preset="tf_ranking"), 0.0)


@pytest.mark.xfail(
    strict=True,
    raises=(AssertionError, ValueError),
    reason="scores beyond float32's range: TF-Ranking casts both to +inf, a "
    "tie it breaks at random; the preset refuses the inf its own float32 cast made",
)
def test_tf_ranking_scores_beyond_float32_range(tf_ranking):
    grades, scores = [1.0, 2.0], [1e300, 1e301]
    seen = {round(tf_ndcg(tf_ranking, grades, scores, 1), 5) for _ in range(40)}
    # gain 1 or 3 at rank 1, over the ideal 3
    library(seen <= {round(1 / 3, 5), 1.0}, f"TF-Ranking gives {seen}")
    got = ndcg_core.ndcg(grades, 1, scores=scores, preset="tf_ranking")
    assert any(same(got, v) for v in seen)


@pytest.mark.xfail(
    strict=True,
    raises=(AssertionError, ValueError),
    reason="TF-Ranking accepts topn=0 (top_k of 0 items) and returns 0; "
    "the preset refuses k=0 (torchmetrics refuses top_k=0 too)",
)
def test_tf_ranking_topn_zero(tf_ranking):
    grades, scores = [1.0, 2.0], [1.0, 0.0]
    library(tf_ndcg(tf_ranking, grades, scores, 0) == 0.0, "TF-Ranking no longer gives 0 at topn=0")
    assert same(ndcg_core.ndcg(grades, 0, scores=scores, preset="tf_ranking"), 0.0)


@pytest.mark.xfail(
    strict=True,
    raises=(AssertionError, ValueError),
    reason="disagreement (reported): evaluate(preset='tf_ranking') drops a query whose retrieved "
    "documents all have negative labels; TF-Ranking scores that list 0 and counts it in its mean",
)
def test_tf_ranking_query_of_padding_only(tf_ranking):
    """Query ``a`` retrieved only documents labelled -1 (padding to TF-Ranking). NDCGMetric gives its
    list 0 (divide_no_nan of 0 by 0) with list weight 1 (a list without relevance gets the average
    weight), so the Keras mean over [a, b] is (0 + 1) / 2."""
    tf = tf_ranking.tf
    labels, preds = [[-1.0, -1.0], [2.0, -1.0]], [[0.2, 0.1], [0.5, 0.0]]
    per_list, weights = tf_ranking.impl.NDCGMetric("ndcg", topn=None).compute(
        tf.constant(labels), tf.constant(preds)
    )
    values, list_weights = per_list.numpy().ravel().tolist(), weights.numpy().ravel().tolist()
    library(values == [0.0, 1.0] and list_weights == [1.0, 1.0], f"TF-Ranking gives {values}, {list_weights}")
    qrels = pd.DataFrame({"query": ["a", "a", "b"], "doc": ["x", "y", "z"], "relevance": [-1, -1, 2]})
    run = pd.DataFrame({"query": ["a", "a", "b"], "doc": ["x", "y", "z"], "score": [0.2, 0.1, 0.5]})
    got = ndcg_core.evaluate(qrels, run, None, preset="tf_ranking").set_index("query")["ndcg"]
    assert got.to_dict() == {"a": 0.0, "b": 1.0}

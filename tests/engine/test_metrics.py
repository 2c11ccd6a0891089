"""Unit tests of the NDCG engine: values, variants and input checking."""

import math

import numpy as np
import pandas as pd
import pytest

import ndcg_core
from ndcg_core import STEP_COLUMNS, Variant, dcg, divisors, explain, gains, ndcg, ndcg_curve


def test_acceptance_wikipedia_value():
    assert ndcg([3, 2, 3, 0, 1, 2], discount="jarvelin") == pytest.approx(0.9315085232, abs=1e-9)


def test_log_discount_value_by_hand():
    # 3/1 + 2/log2(3) + 3/2 + 0 + 1/log2(6) + 2/log2(7)
    expected = 3 + 2 / math.log2(3) + 3 / 2 + 1 / math.log2(6) + 2 / math.log2(7)
    assert dcg([3, 2, 3, 0, 1, 2]) == pytest.approx(expected)


def test_exponential_gain_and_mirrored_negatives():
    assert list(gains([0, 1, 2, 3], "exponential")) == [0, 1, 3, 7]
    assert list(gains([-1, -2], "exponential")) == [-1, -3]
    assert gains([0.5], "exponential")[0] == pytest.approx(2**0.5 - 1)


def test_custom_gain_table_and_missing_grade():
    assert list(gains([2, 0], {0: 0, 1: 1, 2: 10})) == [10, 0]
    with pytest.raises(ValueError, match=r"grade 5 \(position 2\) is not in the gain table"):
        gains([1, 5], {0: 0, 1: 1})


def test_exponential_overflow_is_a_clear_error():
    with pytest.raises(ValueError, match="too large for exponential gain"):
        ndcg([1, 2000], gain="exponential")


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, "x", None, [1]])
def test_non_finite_or_non_numeric_grades_name_the_position(bad):
    with pytest.raises(ValueError, match="position 3"):
        ndcg([1, 2, bad])


@pytest.mark.parametrize("k", [0, -1, 1.5, True])
def test_bad_k(k):
    with pytest.raises(ValueError, match="k must"):
        ndcg([1, 2], k=k)


def test_bad_variant_names():
    with pytest.raises(ValueError, match="gain must be one of"):
        ndcg([1], gain="quadratic")
    with pytest.raises(ValueError, match="discount must be one of"):
        ndcg([1], discount="linear")
    with pytest.raises(ValueError, match="log_base must be"):
        ndcg([1], log_base=1)
    with pytest.raises(ValueError, match="zero_idcg must be one of"):
        ndcg([1], zero_idcg="maybe")


def test_mismatched_labels():
    with pytest.raises(ValueError, match="labels has 2 entries but there are 3 grades"):
        explain([1, 2, 3], labels=["a", "b"])


def test_k_larger_than_list_uses_pool_for_idcg():
    # DCG@5 of 1,1,1 equals DCG@3; IDCG@5 uses five judged relevant items.
    assert dcg([1, 1, 1], k=5) == pytest.approx(dcg([1, 1, 1]))
    value = ndcg([1, 1, 1], k=5, ideal=[1] * 5)
    assert value == pytest.approx(dcg([1, 1, 1]) / dcg([1] * 5))
    # Without a pool, the list is its own ideal.
    assert ndcg([1, 1, 1], k=5) == 1.0


def test_k_none_takes_best_n_of_pool():
    # n = 2: IDCG takes the best 2 grades of the pool, not all 3.
    assert ndcg([1, 0], ideal=[1, 1, 1]) == pytest.approx(1 / dcg([1, 1]))


@pytest.mark.parametrize(("policy", "expected"), [("zero", 0.0), ("one", 1.0), ("skip", None)])
def test_zero_idcg_policies(policy, expected):
    value = ndcg([0, 0, 0], zero_idcg=policy)
    if expected is None:
        assert math.isnan(value)
    else:
        assert value == expected


def test_zero_idcg_error_policy():
    with pytest.raises(ValueError, match="IDCG is 0"):
        ndcg([0, 0], zero_idcg="error")


def test_zero_idcg_default_is_zero():
    assert ndcg([]) == 0.0
    assert ndcg([0, 0]) == 0.0


def test_negative_grades_can_push_ndcg_below_zero():
    assert ndcg([-1, 1]) < 0
    assert ndcg([1, -1]) == 1.0


def test_divisors():
    np.testing.assert_allclose(divisors(3, "log", 2), [1, math.log2(3), 2])
    np.testing.assert_allclose(divisors(3, "jarvelin", math.e), [1, 1, math.log(3)])
    np.testing.assert_allclose(divisors(11, "jarvelin", 10)[:10], np.ones(10))


def test_explain_tables_and_flags():
    ex = explain([3, 2, 3, 0, 1, 2], k=3, labels=list("abcdef"))
    assert list(ex.steps.columns) == list(STEP_COLUMNS)
    assert list(ex.steps["Beyond k"]) == [False] * 3 + [True] * 3
    assert list(ex.ideal_steps["Grade"]) == [3, 3, 2, 2, 1, 0]
    assert list(ex.ideal_steps["Item"]) == ["a", "c", "b", "f", "e", "d"]
    # cumulative DCG stops growing beyond k and ends at DCG@k
    assert ex.steps["Cumulative DCG"].iloc[-1] == pytest.approx(ex.dcg)
    assert ex.ideal_steps["Cumulative DCG"].iloc[-1] == pytest.approx(ex.idcg)
    # DCG@3 = 3 + 2/log2 3 + 3/2 against IDCG@3 = 3 + 3/log2 3 + 2/2
    assert ex.ndcg == pytest.approx((3 + 2 / math.log2(3) + 1.5) / (3 + 3 / math.log2(3) + 1), abs=1e-12)
    assert ex.k == 3 and ex.cg == 8
    assert ex.variant == Variant(k=3)


def test_explain_keeps_duplicate_labels_apart_by_position():
    ex = explain([1, 2], labels=["x", "x"])
    assert list(ex.steps["Position"]) == [1, 2]
    assert list(ex.ideal_steps["Grade"]) == [2, 1]


def test_explain_with_pool_labels():
    ex = explain([0, 1], ideal=[1, 0, 1], ideal_labels=["b", "a", "z"], labels=["a", "b"], k=2)
    assert list(ex.ideal_steps["Item"]) == ["b", "z", "a"]
    assert ex.idcg == pytest.approx(1 + 1 / math.log2(3))


def test_ndcg_curve_matches_pointwise():
    rel = [3, 0, 2, 1]
    curve = ndcg_curve(rel, gain="exponential")
    assert isinstance(curve, pd.DataFrame)
    for k in range(1, 5):
        assert curve.loc[k - 1, "ndcg"] == pytest.approx(ndcg(rel, k=k, gain="exponential"))


def test_numpy_input_and_public_names():
    assert ndcg(np.array([1, 0, 1])) == pytest.approx(ndcg([1, 0, 1]))
    for name in ndcg_core.__all__:
        assert hasattr(ndcg_core, name)

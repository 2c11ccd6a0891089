"""Hypothesis properties of NDCG that must hold for every list."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_core import dcg, ndcg

grades = st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=30)
real_grades = st.lists(
    st.floats(min_value=0, max_value=10, allow_nan=False, allow_infinity=False), min_size=1, max_size=30
)
gain = st.sampled_from(["linear", "exponential"])
discount = st.sampled_from(["log", "jarvelin"])
base = st.sampled_from([2.0, math.e, 10.0, 1.5, 3.0])
ks = st.one_of(st.none(), st.integers(min_value=1, max_value=40))


@given(real_grades, ks, gain, discount, base)
def test_ndcg_between_zero_and_one(rel, k, g, d, b):
    value = ndcg(rel, k, gain=g, discount=d, log_base=b)
    assert -1e-12 <= value <= 1 + 1e-12


@given(real_grades, ks, gain, discount, base)
def test_ideal_order_scores_one_unless_nothing_relevant(rel, k, g, d, b):
    ideal = sorted(rel, reverse=True)
    value = ndcg(ideal, k, gain=g, discount=d, log_base=b)
    cut = len(rel) if k is None else k
    expected = 1.0 if any(x > 0 for x in ideal[:cut]) else 0.0
    assert value == pytest.approx(expected)


@given(grades, ks, gain, base)
def test_log_base_cancels_for_log_discount(rel, k, g, b):
    assert ndcg(rel, k, gain=g, log_base=b) == pytest.approx(ndcg(rel, k, gain=g, log_base=2.0))


@given(grades, ks, base)
def test_log_base_changes_dcg_in_both_forms(rel, k, b):
    if b != 2.0 and any(rel[:1]):
        assert dcg(rel, k, log_base=b) != pytest.approx(dcg(rel, k, log_base=2.0))


def test_log_base_matters_for_jarvelin():
    # Wikipedia: the base does affect NDCG for the original (Jarvelin-Kekalainen) form.
    rel = [3, 2, 3, 0, 1, 2]
    assert ndcg(rel, discount="jarvelin", log_base=10) != pytest.approx(ndcg(rel, discount="jarvelin"))


@settings(max_examples=200)
@given(grades, ks, discount, st.floats(min_value=0.01, max_value=1000))
def test_scaling_linear_grades_changes_nothing(rel, k, d, c):
    scaled = [c * x for x in rel]
    assert ndcg(scaled, k, discount=d) == pytest.approx(ndcg(rel, k, discount=d))


@given(real_grades, gain, discount, base)
def test_dcg_never_decreases_with_k_for_nonnegative_gains(rel, g, d, b):
    values = [dcg(rel, k, gain=g, discount=d, log_base=b) for k in range(1, len(rel) + 3)]
    assert all(b2 >= a - 1e-12 for a, b2 in itertools.pairwise(values))
    # and stops growing once k passes the list's end
    assert values[-1] == pytest.approx(values[len(rel) - 1])


@given(grades, st.permutations(list(range(30))))
def test_any_permutation_scores_at_most_one(rel, perm):
    order = [p for p in perm if p < len(rel)]
    assert ndcg(np.asarray(rel)[order]) <= 1 + 1e-12

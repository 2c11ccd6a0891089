"""Agreement with scikit-learn's ndcg_score on random lists."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import dcg_score, ndcg_score

from ndcg_core import dcg, ndcg


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=4), min_size=2, max_size=25),
    st.one_of(st.none(), st.integers(min_value=1, max_value=30)),
)
def test_matches_sklearn_ignore_ties(rel, k):
    y_true = np.asarray([rel], dtype=float)
    # scores that put the items in their listed order (distinct, descending)
    y_score = np.asarray([np.arange(len(rel), 0, -1)], dtype=float)
    ours = ndcg(rel, k)
    theirs = ndcg_score(y_true, y_score, k=k, ignore_ties=True)
    assert ours == pytest.approx(theirs, abs=1e-12)
    assert dcg(rel, k) == pytest.approx(dcg_score(y_true, y_score, k=k, ignore_ties=True), abs=1e-12)


def test_all_zero_row_scores_zero_like_sklearn():
    assert ndcg([0, 0, 0]) == ndcg_score([[0, 0, 0]], [[3, 2, 1]]) == 0.0

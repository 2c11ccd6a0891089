"""Issue 14 (hardening): no silently wrong number. Library-level regression tests, one per item."""

from __future__ import annotations

import io
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ndcg_core
from ndcg_core import Variant, evaluate, read_qrels, read_run
from ndcg_core.teaching.drilldown import query_state
from ndcg_core.teaching.playground import Item, PlaygroundState, from_query_params, to_query_params

# ---------------------------------------------------------------- item 2: ids are text


def test_item2_empty_query_id_in_csv_qrels_names_the_line():
    text = "query,doc,relevance\nq1,d1,1\nq2,d4,1\n,d5,3\n"
    with pytest.raises(ValueError, match=r"line 4.*empty query id"):
        read_qrels(io.StringIO(text))


def test_item2_empty_doc_id_in_csv_run_names_the_line():
    text = "query,doc,score\nq1,d1,0.5\nq1,,0.4\n"
    with pytest.raises(ValueError, match=r"line 3.*empty document id"):
        read_run(io.StringIO(text))


@pytest.mark.parametrize("word", ["NA", "null", "nan", "None", "N/A", "NULL", "#N/A", "-nan"])
def test_item2_ids_that_look_missing_are_read_as_written(word):
    qrels = read_qrels(io.StringIO(f"query,doc,relevance\n{word},{word},1\n{word},d2,0\n"))
    assert qrels["query"].tolist() == [word, word]
    assert qrels["doc"].tolist() == [word, "d2"]
    run = read_run(io.StringIO(f"q1 Q0 {word} 1 2.0 tag\nq1 Q0 d2 2 1.0 tag\n"))
    assert run["doc"].tolist() == [word, "d2"]
    # Both judged once each: no false "judged twice", and the hand value holds.
    table = evaluate(read_qrels(io.StringIO(f"q1 0 {word} 1\nq1 0 None2 1\n")), run, k=2)
    assert table["ndcg"].tolist() == pytest.approx([1 / (1 + 1 / 1.5849625007211562)])


def test_item2_missing_id_in_a_dataframe_is_a_clear_error():
    qrels = pd.DataFrame({"query": ["q1", "q2"], "doc": ["d1", "d2"], "relevance": [1, 1]})
    run = pd.DataFrame({"query": ["q1", None], "doc": ["d1", "d2"], "score": [1.0, 2.0]})
    with pytest.raises(ValueError, match=r"run: row 1 has no query id"):
        evaluate(qrels, run)


def test_item2_empty_query_id_no_longer_scores_in_another_query():
    # Before: ",d5,3" was counted in q2, which then scored 0.5 instead of 1.
    with pytest.raises(ValueError, match="empty query id"):
        read_qrels(io.StringIO("query,doc,relevance\nq1,d1,1\nq2,d2,3\n,d5,3\n"))


def test_minor_trec_doc_id_with_a_space_is_named():
    with pytest.raises(ValueError, match=r"line 1 has 5 fields.*spaces"):
        read_qrels(io.StringIO("q1 0 my doc 2\nq1 0 d2 1\n"))
    with pytest.raises(ValueError, match=r"line 2.*rank 'doc'.*spaces"):
        read_run(io.StringIO("q1 Q0 d1 1 2.0 tag\nq1 Q0 my doc 2 1.0 tag\n"))


# ---------------------------------------------------------------- item 1: exact numbers in URLs/editors

finite = st.floats(allow_nan=False, allow_infinity=False)


def test_item1_scores_in_a_share_link_round_trip_exactly():
    params = {"rel": "3,1,2", "labels": "a,b,c", "scores": "0.1234561,0.1234564,0.1234562"}
    state, warnings = from_query_params(params)
    assert not warnings
    # Exact: b (1) first, then c (2), then a (3): DCG = 1 + 2/log2(3) + 3/2; IDCG = 3 + 2/log2(3) + 1/2.
    exact = (1 + 2 / math.log2(3) + 3 / 2) / (3 + 2 / math.log2(3) + 1 / 2)
    assert round(exact, 3) == 0.790
    again, _ = from_query_params(to_query_params(state))
    assert again.explain().ndcg == pytest.approx(exact, abs=1e-12)


def test_item1_close_scores_from_a_data_set_stay_apart_in_the_link():
    qrels = pd.DataFrame({"query": ["q"] * 2, "doc": ["a", "b"], "relevance": [0, 1]})
    run = pd.DataFrame({"query": ["q"] * 2, "doc": ["a", "b"], "score": [1000.0002, 1000.0001]})
    # a (grade 0) outscores b: 1/log2(3) = 0.631; rounded to 1000,1000 the id rule put b first (1.0).
    table = evaluate(qrels, run, k=2, ties="docid_desc")
    state = query_state(qrels, run, "q", spec=ndcg_core.resolve(k=2, ties="docid_desc"))
    again, _ = from_query_params(to_query_params(state))
    assert again.explain().ndcg == pytest.approx(table["ndcg"].iloc[0]) == pytest.approx(1 / math.log2(3))


@given(
    grades=st.lists(finite, min_size=1, max_size=8),
    scores=st.lists(finite, min_size=8, max_size=8),
    pool=st.lists(finite, max_size=3),
    base=st.floats(min_value=1.0, max_value=1e6, exclude_min=True),
)
def test_item1_every_number_in_a_share_link_round_trips(grades, scores, pool, base):
    items = tuple(Item(n, f"D{n + 1}", g, s) for n, (g, s) in enumerate(zip(grades, scores, strict=False)))
    pool_items = tuple(Item(100 + n, f"J{n + 1}", g) for n, g in enumerate(pool))
    table = {g: s for g, s in zip(grades + pool, scores + scores, strict=False)}
    variant = Variant(gain=table, log_base=base)
    state = PlaygroundState(items=items, pool=pool_items, spec=ndcg_core.Spec(variant))
    again, warnings = from_query_params(to_query_params(state))
    assert not warnings
    assert [(i.grade, i.score) for i in again.items] == [(i.grade, i.score) for i in items]
    assert [i.grade for i in again.pool] == [i.grade for i in pool_items]
    assert again.variant.log_base == base
    assert again.variant.gain_table == variant.gain_table
    assert Variant.parse(variant.name) == variant  # the data-set cache key reads the variant back


@given(grades=st.lists(finite, min_size=1, max_size=6), scores=st.lists(finite, min_size=6, max_size=6))
def test_item1_the_item_editor_shows_numbers_that_read_back_exactly(grades, scores):
    from views.ui.items import _items_frame

    items = tuple(Item(n, f"D{n}", g, s) for n, (g, s) in enumerate(zip(grades, scores, strict=False)))
    frame = _items_frame(items, with_scores=True)
    assert [float(x) for x in frame["Grade"]] == [i.grade for i in items]
    assert [float(x) for x in frame["Score"]] == [i.score for i in items]


# ---------------------------------------------------------------- item 6 and minor: k


@pytest.mark.parametrize("k", [np.int64(2), np.uint8(2), 2.0, np.float32(2.0)])
def test_minor_k_accepts_any_integer(k):
    # grades 3,2,1 at k=2: DCG = 3 + 2/log2(3); the list is already ideal.
    assert ndcg_core.dcg([3, 2, 1], k=k) == pytest.approx(3 + 2 / math.log2(3))


@pytest.mark.parametrize("k", [math.inf, -math.inf, math.nan, 2.5, True, "3", 0])
def test_minor_k_non_integers_are_a_value_error(k):
    with pytest.raises(ValueError, match="k must be"):
        ndcg_core.ndcg([3, 2, 1], k=k)
    with pytest.raises(ValueError, match="k must be"):
        evaluate(
            pd.DataFrame({"query": ["q"], "doc": ["a"], "relevance": [1]}),
            pd.DataFrame({"query": ["q"], "doc": ["a"], "score": [1.0]}),
            k=k,
        )


def test_item6_huge_k_in_a_share_link_is_a_warning_not_a_crash():
    state, warnings = from_query_params({"rel": "3,2,1", "k": "9007199254740992"})
    assert state.variant.k is None
    assert len(warnings) == 1 and "'k'" in warnings[0]


# ---------------------------------------------------------------- item 3: non-finite intermediate values


def _one_query(grades):
    n = len(grades)
    docs = [f"d{i}" for i in range(n)]
    qrels = pd.DataFrame({"query": ["q1"] * n, "doc": docs, "relevance": grades})
    run = pd.DataFrame({"query": ["q1"] * n, "doc": docs, "score": np.arange(n, 0, -1, dtype=float)})
    return qrels, run


@pytest.mark.filterwarnings("error")
def test_item3_nan_in_a_custom_gain_table_is_named():
    table = {0: 0.0, 1: math.nan, 2: 3.0}
    with pytest.raises(ValueError, match=r"gain table.*grade 1.*nan"):
        ndcg_core.ndcg([2, 1, 0], gain=table)
    with pytest.raises(ValueError, match=r"gain table.*grade 1.*nan"):
        ndcg_core.explain([2, 1, 0], gain=table)
    with pytest.raises(ValueError, match=r"gain table.*grade 1.*nan"):
        evaluate(*_one_query([2, 1, 0]), gain=table)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize(
    ("grades", "gain"), [([1023] * 4, "exponential"), ([1e308] * 5, "linear"), ([-1e308] * 5, "linear")]
)
@pytest.mark.parametrize("zero_idcg", ["zero", "error"])
def test_item3_overflowing_sums_are_a_value_error(grades, gain, zero_idcg):
    with pytest.raises(ValueError, match="too large"):
        ndcg_core.ndcg(grades, gain=gain, zero_idcg=zero_idcg)
    with pytest.raises(ValueError, match="too large"):
        ndcg_core.explain(grades, gain=gain, zero_idcg=zero_idcg)
    with pytest.raises(ValueError, match=r"query 'q1'.*too large"):
        evaluate(*_one_query(grades), gain=gain, zero_idcg=zero_idcg)


@pytest.mark.filterwarnings("error")
def test_item3_aggregate_sums_that_overflow_are_a_value_error():
    table = pd.DataFrame({"dcg": [1e308, 1e308], "idcg": [1.5e308, 1.5e308]})
    with pytest.raises(ValueError, match="too large"):
        ndcg_core.aggregate(table)


# ---------------------------------------------------------------- item 4: IDCG <= 0 in aggregates


@pytest.mark.parametrize(("policy", "mean"), [("zero", 0.5 / 3), ("one", 2.5 / 3), ("skip", 0.5)])
def test_item4_queries_with_idcg_at_most_zero_leave_the_ratio_of_sums(policy, mean):
    # Negative grades: the first two queries have IDCG <= 0 but a positive DCG.
    table = pd.DataFrame({"dcg": [3.0, 2.0, 1.0], "idcg": [0.0, -0.5, 2.0]})
    agg = ndcg_core.aggregate(table, zero_idcg=policy)
    assert agg.mean_ndcg == pytest.approx(mean)
    assert agg.ratio_of_sums == pytest.approx(1.0 / 2.0)  # only the query with IDCG > 0
    assert (agg.sum_dcg, agg.sum_idcg) == (1.0, 2.0)
    assert agg.n_idcg_zero == 2
    assert "ΣDCG/ΣIDCG" in agg.policy_effect


def test_item4_histogram_counts_every_scored_query_and_says_what_it_leaves_out():
    from ndcg_core.teaching.figures import ndcg_histogram

    per_query = pd.DataFrame({"ndcg": [0.5, 18.65, -3.0, 1.0, math.nan]})
    fig = ndcg_histogram(per_query)
    assert sum(fig.data[0].y) == 4
    edges = np.asarray(fig.data[0].customdata)
    assert edges.min() <= -3.0 and edges.max() >= 18.65
    assert "1 query without a score" in fig.layout.title.text


# ---------------------------------------------------------------- item 8: URLs under 8,000 characters


def _url_length(params: dict[str, str]) -> int:
    from urllib.parse import urlencode

    return len("https://ndcg.example.org/?" + urlencode(params))


def test_item8_a_long_state_goes_into_a_compact_link_that_reads_back():
    from ndcg_core.teaching.playground import share_params

    grades = [float(i % 4) for i in range(5_000)]  # 5,000 grades: a 20 KB plain link
    state = PlaygroundState(items=tuple(Item(n, f"D{n + 1}", g) for n, g in enumerate(grades)))
    assert _url_length(to_query_params(state)) > 8_000
    params = share_params(state)
    assert params is not None and set(params) == {"state"}
    assert _url_length(params) < 8_000
    again, warnings = from_query_params(params)
    assert not warnings
    assert [i.grade for i in again.items] == grades


def test_item8_a_state_too_large_for_any_link_round_trips_through_a_file():
    from ndcg_core.teaching.playground import share_params, state_from_file, state_to_file

    rng = np.random.default_rng(0)
    labels = [f"clueweb12-{rng.integers(10**9):010d}-{rng.integers(10**6):06d}" for _ in range(3_000)]
    items = tuple(
        Item(n, lab, float(rng.integers(0, 4)), float(rng.random())) for n, lab in enumerate(labels)
    )
    state = PlaygroundState(items=items, spec=ndcg_core.Spec(Variant(k=10, ties="docid_desc")))
    assert share_params(state) is None  # no link can hold it
    again, warnings = from_query_params(state_from_file(state_to_file(state)))
    assert not warnings
    assert again.items == tuple(Item(n, i.label, i.grade, i.score) for n, i in enumerate(items))
    assert again.variant == state.variant


def test_item8_a_short_state_keeps_its_readable_link():
    from ndcg_core.teaching.playground import share_params

    state, _ = from_query_params({"rel": "3,2,3,0,1,2", "discount": "jarvelin"})
    assert share_params(state) == {"rel": "3,2,3,0,1,2", "discount": "jarvelin"}


@pytest.mark.parametrize("bad", ["!!!", "eJwrSS0uAQAEXQHB", "a" * 10])
def test_item8_a_broken_compact_link_is_a_named_warning(bad):
    state, warnings = from_query_params({"state": bad})
    assert len(warnings) == 1 and "'state'" in warnings[0]
    assert state == from_query_params({})[0]


# ---------------------------------------------------------------- minor


def test_minor_an_invalid_rel_shows_the_default_example_under_its_own_formula():
    state, warnings = from_query_params({"rel": "3,x,1"})
    assert len(warnings) == 1 and "'rel'" in warnings[0]
    assert [i.grade for i in state.items] == [3, 2, 3, 0, 1, 2]
    assert round(state.explain().ndcg, 3) == 0.932  # Wikipedia's figure, Järvelin–Kekäläinen discount

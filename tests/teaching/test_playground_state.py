"""The playground's pure state: examples, share links, orders and parsing."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_core import Spec, Variant
from ndcg_core.teaching import EXAMPLES
from ndcg_core.teaching.playground import (
    DEFAULT_STATE,
    from_query_params,
    make_items,
    parse_entries,
    reorder,
    state_from_example,
    to_query_params,
)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.key for e in EXAMPLES])
def test_every_example_as_a_state_gives_its_own_numbers(example):
    state = state_from_example(example)
    got, expected = state.explain(), example.explain()
    assert (got.dcg, got.idcg, got.k) == pytest.approx((expected.dcg, expected.idcg, expected.k))
    pool = sorted(i.grade for i in state.items + state.pool) if state.pool else None
    assert pool == (sorted(example.pool) if example.pool is not None else None)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.key for e in EXAMPLES])
def test_every_example_survives_a_share_link(example):
    state = state_from_example(example)
    back, warnings = from_query_params(to_query_params(state))
    assert warnings == []
    assert back.variant == state.variant
    assert [(i.label, i.grade) for i in back.items] == [(i.label, i.grade) for i in state.items]
    assert back.explain().ndcg == pytest.approx(state.explain().ndcg, nan_ok=True)


labels = st.text(st.characters(blacklist_categories=["Cs", "Cc"]), min_size=1, max_size=8).filter(
    lambda s: s.strip() == s and s
)


@given(
    st.lists(st.tuples(labels, st.floats(-5, 5, allow_nan=False).map(lambda x: round(x, 3))), max_size=12),
    st.sampled_from(
        [Variant(), Variant(k=3, gain="exponential"), Variant(discount="jarvelin", log_base=math.e)]
    ),
)
def test_share_link_round_trip_property(pairs, variant):
    state = DEFAULT_STATE.with_items(pairs)
    state = type(state)(items=state.items, spec=Spec(variant))
    if not pairs:
        return
    back, warnings = from_query_params(to_query_params(state))
    assert warnings == []
    assert [i.grade for i in back.items] == [i.grade for i in state.items]
    assert [i.label.replace(",", "\u201a") for i in state.items] == [i.label for i in back.items]
    assert back.variant == variant


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"rel": "1,2", "k": "0"}, "'k'"),
        ({"rel": "1,2", "base": "1"}, "'base'"),
        ({"rel": "1,2", "gain": "cubic"}, "'gain'"),
        ({"rel": "1,2", "gain": "custom", "gains": "0:0"}, "'gains'"),
        ({"rel": "1,2", "labels": "a"}, "'labels'"),
        ({"rel": "1,2", "pool": "x"}, "'pool'"),
        ({"rel": "1,2", "zero": "maybe"}, "'zero'"),
        ({"rel": "1,2", "ties": "coin"}, "'ties'"),
        ({"rel": "1,2", "scores": "1"}, "'scores'"),
    ],
)
def test_each_bad_parameter_is_named_and_only_it_falls_back(params, name):
    state, warnings = from_query_params(params)
    assert len(warnings) == 1 and name in warnings[0]
    assert [i.grade for i in state.items] == [1.0, 2.0]


def test_orders():
    items = make_items([("a", 1), ("b", 3), ("c", 2), ("d", 3)])
    assert [i.label for i in reorder(items, "ideal")] == ["b", "d", "c", "a"]
    assert [i.label for i in reorder(items, "worst")] == ["a", "c", "b", "d"]
    assert [i.label for i in reorder(items, "reverse")] == ["d", "c", "b", "a"]
    shuffled = reorder(items, "shuffle", seed=1)
    assert shuffled != items and sorted(i.id for i in shuffled) == [0, 1, 2, 3]
    assert reorder(shuffled, "reset") == items
    with pytest.raises(ValueError, match="unknown order"):
        reorder(items, "sideways")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3,2,3", [(None, 3), (None, 2), (None, 3)]),
        ("A:0.5; B=0.9", [("A", 0.5), ("B", 0.9)]),
        ("Apple Watch: 1, Adidas shorts: 5", [("Apple Watch", 1), ("Adidas shorts", 5)]),
        ("item\trelevance\nx\t2\ny\t-1", [("x", 2), ("y", -1)]),
        ("x 2\ny 0", [("x", 2), ("y", 0)]),
        ("", []),
    ],
)
def test_parse_entries(text, expected):
    assert parse_entries(text) == expected


@pytest.mark.parametrize(
    ("text", "entry"), [("1, x", "entry 2"), ("a:inf", "entry 1"), ("a:1\nb:c", "line 2")]
)
def test_parse_entries_names_the_bad_entry(text, entry):
    with pytest.raises(ValueError, match=entry):
        parse_entries(text)


@pytest.mark.parametrize(
    "params",
    [
        {"rel": "3,2,3,0,1,2", "discount": "jarvelin", "pool": "3"},
        {"rel": "3,2,1,0,2", "scores": "0.9,0.5,0.5,0.2,0.5", "ties": "average", "gain": "exponential"},
    ],
)
def test_curve_agrees_with_explaining_at_each_k(params):
    state, warnings = from_query_params(params)
    assert warnings == []
    curve = state.curve()
    assert len(curve) == len(state.items) + len(state.pool)
    for k, value in zip(curve["k"], curve["ndcg"], strict=True):
        at_k = type(state)(items=state.items, pool=state.pool, spec=state.spec.with_k(int(k)))
        assert value == pytest.approx(at_k.explain().ndcg)
    assert state.curve(state.explain()).equals(curve)


def test_a_preset_in_a_share_link_is_the_librarys_spec_and_round_trips():
    from sklearn.metrics import ndcg_score

    state, warnings = from_query_params(
        {"rel": "3,2,0,1", "scores": "0.9,0.5,0.5,0.1", "preset": "sklearn", "k": "3"}
    )
    assert warnings == []
    assert state.spec.preset == "sklearn" and state.spec.k == 3
    expected = ndcg_score([[3, 2, 0, 1]], [[0.9, 0.5, 0.5, 0.1]], k=3)  # tie-averaged, as sklearn does
    assert state.explain().ndcg == pytest.approx(expected, abs=1e-12)
    written = to_query_params(state)
    assert written["preset"] == "sklearn" and "ties" not in written  # the preset fixes the formula
    assert from_query_params(written)[0].spec == state.spec


def test_an_unknown_preset_in_a_share_link_is_named_and_the_formula_stays():
    state, warnings = from_query_params({"rel": "3,2,1", "preset": "sk-learn", "gain": "exponential"})
    assert len(warnings) == 1 and "'preset'" in warnings[0]
    assert state.spec.preset is None and state.variant.gain == "exponential"

"""Explore's form as a pure model (issue 41, part 3): what a click and a typed order do, without a page.

Expected NDCG values are closed forms: gains over log2(i + 1), against the ideal of the judged items.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_core.errors import NDCGError
from ndcg_core.spec import Spec
from ndcg_core.teaching.compare import (
    MAX_RANKINGS,
    MIN_RANKINGS,
    RankingsForm,
    compare,
    playground_comparison,
)

JUDGED = (("x", 3.0), ("a", 1.0), ("b", 1.0), ("c", 1.0), ("d", 1.0))


def dcg(gains):
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains))


def form(*rankings: tuple[str, str]) -> RankingsForm:
    return RankingsForm(JUDGED, rankings)


def test_a_typed_form_compares_what_it_says():
    """Without a cutoff each ranking is scored over its own length n, against the best n of the judged."""
    c, problems = form(("", "x"), ("B", "a b c d")).comparison(Spec())
    assert problems == []
    values = compare(c).values
    assert values == pytest.approx({"A": 3 / 3, "B": dcg([1, 1, 1, 1]) / dcg([3, 1, 1, 1])})


def test_every_problem_is_named_with_its_ranking_and_none_is_compared():
    c, problems = form(("", "x, z"), ("A", "a, a")).comparison(Spec())
    assert c is None
    assert [(name, err.code) for name, err in problems] == [
        ("A", "position_unknown_item"),  # the first ranking, called by its letter
        ("", "ranking_names_repeat"),  # both are called A
    ]
    c, problems = form(("A", "x"), ("B", "a, a")).comparison(Spec())
    assert c is None and [(name, err.code) for name, err in problems] == [("", "ranking_repeats_item")]


@given(st.lists(st.sampled_from(["add", "remove"]), max_size=12))
def test_clicks_keep_two_to_four_rankings_each_named_by_its_letter(clicks):
    f = form(("", "x"), ("", "a"))
    for click in clicks:
        before = len(f.rankings)
        f = f.add_ranking() if click == "add" else f.remove_ranking()
        expected = min(before + 1, MAX_RANKINGS) if click == "add" else max(before - 1, MIN_RANKINGS)
        assert len(f.rankings) == expected
    assert f.names == ("A", "B", "C", "D")[: len(f.rankings)]
    for _name, order in f.rankings[2:]:  # an added ranking lists every judged item, to be reordered
        assert order == "x, a, b, c, d"


def test_the_playground_list_against_its_ideal():
    """Wikipedia's D1..D6 (3, 2, 3, 0, 1, 2) under log2(i + 1): NDCG 0.961, and its ideal 1."""
    grades = [3, 2, 3, 0, 1, 2]
    items = [(f"D{i}", g) for i, g in enumerate(grades, start=1)]
    values = compare(playground_comparison(items, [], ("Playground", "Ideal"))).values
    assert values["Playground"] == pytest.approx(dcg(grades) / dcg(sorted(grades, reverse=True)))
    assert round(values["Playground"], 3) == 0.961 and values["Ideal"] == pytest.approx(1.0)
    with pytest.raises(NDCGError) as err:
        playground_comparison([("D1", 3), ("D1", 2)], [], ("Playground", "Ideal"))
    assert err.value.code == "label_repeats"

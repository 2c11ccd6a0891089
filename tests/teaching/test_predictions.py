"""The lesson's predictions as a pure value (issue 41, part 3): the rules Learn's page follows when a
student types, checks and skips, tested without a page. The questions' values are closed forms."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from ndcg_core.teaching.lesson import Question
from ndcg_core.teaching.predictions import Predictions
from ndcg_core.teaching.tries import WRONG_TRIES

#: Step 4 of the lesson on D1..D6: the discounted gain at position 3, 3 / log2(3 + 1) = 1.5.
DISCOUNTED = Question("The discounted gain at position 3?", "3 / 2 = 1.5", exact=3 / math.log2(4))
#: Step 7's choice between two.
CHOICE = Question("Do rows beyond k count?", "they do not", choices=("Yes", "No"), answer="No")


def test_an_unreadable_answer_is_kept_and_is_not_a_try():
    p, focus = Predictions().check(4, DISCOUNTED, "one and a half")
    assert focus == "problem" and p.typed[4] == "one and a half"
    assert p.tries == {} and p.answers == {} and p.revealed == frozenset()
    # Typing a right answer in the box without Check keeps the message about what was checked
    # (saying the message of the new text would judge it before Check, and show the answer).
    p = p.type(4, "1.5")
    assert p.unreadable == {4: "one and a half"} and p.typed[4] == "1.5"
    p, _ = p.check(4, DISCOUNTED, "1.50")  # read now: the message goes
    assert p.unreadable == {} and 4 in p.revealed


@given(st.lists(st.sampled_from(["0.9", "0.8", "0.7", "1.2"]), min_size=1, max_size=6))
def test_the_answer_shows_after_the_second_distinct_wrong_try(wrong):
    p, focus = Predictions(), ""
    for text in wrong:
        p, focus = p.check(4, DISCOUNTED, text)
    distinct = len(dict.fromkeys(wrong))  # the same answer twice is one try
    assert (4 in p.revealed) == (distinct >= WRONG_TRIES)
    assert focus == ("answer" if distinct >= WRONG_TRIES else "problem")
    assert p.answers[4] == wrong[-1] and p.tries[4].wrong == min(distinct, WRONG_TRIES)


def test_a_wrong_choice_shows_the_answer_at_once():
    p, focus = Predictions().check(7, CHOICE, "Yes")
    assert focus == "answer" and 7 in p.revealed and p.tries[7].wrong == 1


def test_skip_shows_the_answer_and_keeps_no_answer_of_the_students():
    p, _ = Predictions().check(4, DISCOUNTED, "0.9")
    p = p.skip(4)
    assert 4 in p.revealed and 4 not in p.answers and p.tries[4].shown
    assert p.typed[4] == "0.9"  # the box keeps what was typed


def test_saved_progress_comes_back_in_the_boxes_too():
    p = Predictions().type(2, "3").restored({4}, {4: "1.5"})
    assert p.revealed == {4} and p.answers == {4: "1.5"} and p.typed == {2: "3", 4: "1.5"}

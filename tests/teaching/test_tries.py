"""Issue 27, part 3: retry before the solution. The rule Learn and Practice share, as plain data."""

from __future__ import annotations

from ndcg_core.teaching.tries import WRONG_TRIES, Tries


def test_one_wrong_try_keeps_the_solution_back_and_the_second_shows_it():
    t, counts = Tries().submit("2", correct=False)
    assert counts and t.wrong == 1 and not t.solution_shown
    t, counts = t.submit("3", correct=False)
    assert counts and t.wrong == WRONG_TRIES == 2 and t.solution_shown


def test_the_same_answer_again_is_not_another_try():
    """Enter then Check, or Check on an unchanged answer: judged once, counted once."""
    t, first = Tries().submit("2", correct=False)
    t, again = t.submit("2", correct=False)
    assert first and not again and t.wrong == 1 and not t.solution_shown
    t, back = t.submit("3", correct=False)
    t, repeat = t.submit("2", correct=False)  # an earlier answer typed again: no new try either
    assert back and not repeat and t.wrong == 2 and t.last == "2"


def test_a_right_answer_settles_it_and_nothing_counts_after_the_solution():
    t, counts = Tries().submit("1.585", correct=True)
    assert counts and t.right and t.solution_shown
    t, counts = t.submit("9", correct=False)
    assert not counts and t.wrong == 0
    shown = Tries().show()
    assert shown.solution_shown and not shown.right
    _t, counts = shown.submit("1.585", correct=True)
    assert not counts  # seen the solution: a right answer now is not counted as solved

"""The Practice page's model (ndcg_core.teaching.practice.session): what each click or answer does
and what the page then shows, without Streamlit (issue 41: the page's AppTests, as unit tests).

Expected numbers are closed forms (the sums written out here), never the code's own output.
"""

from __future__ import annotations

import math

import pytest

import ndcg_core
from ndcg_core.teaching.pages import PracticeState
from ndcg_core.teaching.practice import KINDS, kind_for, make_exercise
from ndcg_core.teaching.practice.progress import Progress
from ndcg_core.teaching.practice.session import MIXED, PracticeSession


def dcg(grades):
    return sum(g / math.log2(i + 1) for i, g in enumerate(grades, start=1))


def right_value(e) -> float:
    return dcg(e.grades) / (dcg(sorted(e.grades, reverse=True)) if e.question.quantity == "ndcg" else 1)


def attempts(s: PracticeSession) -> int:
    return sum(s.progress.attempts.values())


def test_a_right_answer_counts_once_toward_the_progress():
    s = PracticeSession(seed=7)
    e = s.exercise
    assert e == make_exercise(7, 1, kind_for(7, 1), 1) and e.question.quantity in {"dcg", "ndcg"}
    s = s.answer(f"{right_value(e):.3f}")
    v = s.view().verdict
    assert v.tone == "success" and v.text.startswith("Right")
    assert s.progress.attempts == {e.kind: 1} and s.progress.correct == {e.kind: 1} and s.progress.streak == 1
    assert s.answer(f"{right_value(e):.3f}").progress == s.progress  # the same answer again counts nothing


def test_a_mistake_is_named_with_the_students_way_then_show_me_gives_the_asked_row_and_formula():
    """Issue 27: the first wrong answer showed the whole solution. It gets the mistake named and the
    student's own way; "Show me" brings the asked row, the right value and the formula."""
    s = PracticeSession(seed=7)
    e = s.exercise
    log2_i = sum(g / max(1.0, math.log2(i)) for i, g in enumerate(e.grades, start=1))
    ideal = sorted(e.grades, reverse=True)
    jk_ideal = sum(g / max(1.0, math.log2(i)) for i, g in enumerate(ideal, start=1))
    wrong = log2_i if e.question.quantity == "dcg" else log2_i / jk_ideal
    s = s.answer(f"{wrong:.3f}")
    v = s.view().verdict
    assert v.tone == "error" and "divided by max(1, log2(i)), leaving position 2 undiscounted too" in v.text
    assert f"{right_value(e):.3f}" not in v.text and not v.latex and v.caption.startswith("Try again")
    assert list(v.focus.columns) == ["Step", "Your way: divisor = max(1, log2 i)"]  # not the asked row
    assert s.progress.streak == 0 and s.view().show_me
    s = s.show_solution()
    v = s.view().verdict
    assert f"The right value is {right_value(e):.3f}" in v.text and v.latex
    assert list(v.focus.columns) == ["Step", "Asked", "Your way: divisor = max(1, log2 i)"]
    assert not s.view().show_me


def test_the_same_answer_counts_once_and_the_second_wrong_one_shows_the_solution():
    """Issue 27: Enter then Check counted two attempts, and Check again on an unchanged answer
    counted again. The second different wrong answer shows the solution."""
    s = PracticeSession(seed=7)
    e = s.exercise
    for _ in range(3):
        s = s.answer("0.123 ")  # Enter, Check, Check again (the same text, stripped)
    assert attempts(s) == 1 and "no common mistake gives it" in s.view().verdict.text
    s = s.answer("0.124")
    assert attempts(s) == 2 and f"({right_value(e):.3f})" in s.view().verdict.text
    s = s.answer(f"{right_value(e):.3f}")  # right after the solution: judged, not counted
    assert s.view().verdict.tone == "success" and attempts(s) == 2 and s.progress.correct == {}


def test_a_retry_that_is_right_counts_as_right():
    s = PracticeSession(seed=7)
    e = s.exercise
    s = s.answer("0.123").answer(f"{right_value(e):.3f}")
    assert s.progress.attempts == {e.kind: 2} and s.progress.correct == {e.kind: 1}


def test_the_issues_exercises_name_their_mistakes_and_a_rough_answer_is_not_a_try():
    """seed 11, ex 2, level 2, cell: 3.00 is 2/1 + 1/1 (log2(i)), not 2.631; seed 11, ex 6, level 2,
    metric: 1.00 is the unsorted ideal (the list as its own ideal)."""
    s = PracticeSession(seed=11).at(PracticeState(seed=11, ex=2, level=2, kind="cell")).answer("3.00")
    assert "divided by max(1, log2(i))" in s.view().verdict.text and "Close" not in s.view().verdict.text
    s = PracticeSession(seed=11).at(PracticeState(seed=11, ex=6, level=2, kind="metric")).answer("1.00")
    assert "used the list in its given order as the ideal" in s.view().verdict.text
    s = s.answer("0.7")
    assert "give at least 2 decimals (you gave 1 decimal)" in s.view().verdict.text
    assert attempts(s) == 1 and not s.view().verdict.counts


def test_an_unreadable_answer_says_why_and_is_not_counted():
    s = PracticeSession(seed=7).answer("__import__('os')")
    assert s.view().verdict.text.startswith("Could not read your answer") and s.progress.attempts == {}


def test_previous_and_next_move_from_the_session_and_retire_a_links_complaints():
    s = PracticeSession(seed=7, warnings=("a complaint",))
    assert s.step(1).number == 2 and s.step(1).warnings == ()
    assert s.step(-1).number == 1 and not s.view().previous and s.step(1).view().previous
    assert s.step(1).step(1).link() == PracticeState(seed=7, ex=3, level=1, kind=None)


def test_kind_and_level_go_in_the_link_and_an_unknown_one_is_refused():
    s = PracticeSession(seed=7).with_kind("cell").with_level(3)
    assert s.exercise.kind == "cell" and s.link() == PracticeState(seed=7, ex=1, level=3, kind="cell")
    with pytest.raises(KeyError):
        s.with_kind("poetry")
    with pytest.raises(KeyError):
        s.with_level(9)


def test_hints_unfold_in_three_levels_the_last_with_both_step_tables():
    s = PracticeSession(seed=7)
    assert s.view().hint_button == "Show a hint"
    for level in (1, 2, 3):
        s = s.more_hint()
        assert [h.hint.level for h in s.view().hints] == list(range(1, level + 1))
    assert s.view().hint_button is None
    titles = [title for title, table in s.view().hints[-1].tables if "Counted" in table.columns]
    assert titles == ["Your ranking", "Ideal ordering"]


def test_a_choice_is_judged_by_its_name():
    number = next(n for n in range(1, 50) if kind_for(7, n) == "winner")
    s = PracticeSession(seed=7, number=number)
    e = s.exercise
    wrong = next(name for name in e.names if name != e.names[e.answer_choice])
    v = s.answer(wrong).view().verdict
    assert v.text.startswith("Not this one") and "The answer is" not in v.text
    assert s.answer(e.names[e.answer_choice]).view().verdict.tone == "success"


def test_a_dragged_order_is_what_is_checked():
    number = next(n for n in range(1, 50) if kind_for(7, n) == "drag")
    s = PracticeSession(seed=7, number=number)
    e = s.exercise
    assert s.check_order().view().verdict.text.startswith("Not yet")
    best = [label for label, _ in sorted(zip(e.labels, e.grades, strict=True), key=lambda p: -p[1])]
    s = s.reorder(best)
    assert s.view().order == tuple(best) and s.check_order().view().verdict.tone == "success"
    assert s.reorder(["nobody"]) == s  # not the exercise's items: nothing changes


def test_practise_what_you_missed_picks_the_missed_kind_more_often():
    s = PracticeSession(seed=7)
    e = s.exercise
    s = s.answer("0.123").with_missed_mode(True)
    picks = []
    for _ in range(6):
        s = s.step(1)
        picks.append(s.pick)
    assert all(p in KINDS for p in picks) and picks.count(e.kind) >= 2  # weighted 4 to 1 against others
    assert s.link().kind == s.pick  # the picked kind goes in the link
    assert s.with_kind("cell").step(1).pick is None  # not in a chosen kind


def test_a_scored_exercise_names_the_tie_mistake():
    seed = next(n for n in range(100) if make_exercise(n, 1, "metric", 3).scores is not None)
    s = PracticeSession(seed=seed, kind="metric", level=3)
    e = s.exercise
    other = "stable" if e.formula.ties == "average" else "average"
    f = e.formula
    ex = ndcg_core.explain(
        list(e.grades), f.k, gain=f.gain_spec, discount=f.discount, scores=list(e.scores), ties=other
    )
    wrong = ex.dcg if e.question.quantity == "dcg" else ex.ndcg
    said = {"stable": "kept tied items in the listed order", "average": "averaged the gains of tied items"}
    assert said[other] in s.answer(f"{wrong:.3f}").view().verdict.text


def test_a_saved_place_is_restored_unless_the_link_names_one():
    progress = Progress(attempts={"cell": 3}, correct={"cell": 1})
    place = PracticeState(seed=42, ex=5, level=2, kind="cell")
    s = PracticeSession(seed=7).restored(progress, True, place, place_in_link=False)
    assert (s.seed, s.number, s.level, s.kind, s.missed_mode) == (42, 5, 2, "cell", True)
    assert s.progress == progress and s.place() == place
    kept = PracticeSession(seed=7).restored(progress, False, place, place_in_link=True)
    assert (kept.seed, kept.number, kept.kind) == (7, 1, MIXED) and kept.progress == progress


def test_a_new_set_starts_at_its_first_exercise():
    s = PracticeSession(seed=7).step(1).step(1).new_set(99)
    assert (s.seed, s.number) == (99, 1)

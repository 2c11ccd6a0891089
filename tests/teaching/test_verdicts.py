"""Issue 27, part 2: feedback that is right about being wrong, in Learn and in Practice (one checker).

The table below is typed answer -> expected verdict for every case the issue lists, and right
answers at several precisions. Every expected verdict is worked out here from closed forms
(math.log2, math.log): the exact value, and the value each mistake gives. The checker's rules
(ndcg_core.teaching.answers): right; a mistake whose value is the typed number to 2 decimals; too
rough when the exact value rounds to the typed number; a mistake whose value rounds to it; wrong.
"""

from __future__ import annotations

import math

import pytest

from ndcg_core import explain
from ndcg_core.errors import error_text
from ndcg_core.teaching.answers import judge
from ndcg_core.teaching.lesson import check_answer, lesson_step
from ndcg_core.teaching.practice import check, make_exercise

L2 = math.log2
WIKI = [3, 2, 3, 0, 1, 2]


def dcg(grades, divisor):
    return sum(g / divisor(i) for i, g in enumerate(grades, start=1))


def log2_i_plus_1(i):
    return L2(i + 1)


def log2_i(i):
    return max(1.0, L2(i))


# ------------------------------------------------------------------ the closed forms

# Learn, ?rel=3,2,3,0,1,2&discount=jarvelin, step 3: the divisor at position 3 is max(1, log2 3).
LEARN_DIVISOR = L2(3)  # 1.585
LEARN_DIVISOR_LOG2_I_PLUS_1 = L2(4)  # 2: what log2(i + 1) gives at position 3
LEARN_DIVISOR_LN = max(1.0, math.log(3))  # 1.0986
# Learn, same list, step 6: NDCG = DCG / IDCG under max(1, log2 i); the ideal is 3, 3, 2, 2, 1, 0.
LEARN_DCG = dcg(WIKI, log2_i)  # 8.097
LEARN_IDCG = dcg(sorted(WIKI, reverse=True), log2_i)  # 8.693
LEARN_NDCG = LEARN_DCG / LEARN_IDCG  # 0.932

# Practice ?seed=11&ex=2&level=2&kind=cell: the cumulative DCG at position 2 of 2, 1, 3, ...
CELL_GRADES = (2.0, 1.0, 3.0, 0.0, 0.0, 3.0, 2.0)
CELL = 2 / L2(2) + 1 / L2(3)  # 2.631
CELL_LOG2_I = 2 / 1 + 1 / max(1.0, L2(2))  # 3: max(1, log2 i) leaves positions 1 and 2 undivided
CELL_ROW_2 = 1 / L2(3)  # 0.631: row 2's discounted gain alone
CELL_ROUNDED_TERMS = round(2 / L2(2), 1) + round(1 / L2(3), 1)  # 2.6

# Practice ?seed=11&ex=6&level=2&kind=metric: NDCG@5 of 1, 3, 3, 0, 2, 0, 2 (log2(i + 1), linear).
METRIC_GRADES = (1.0, 3.0, 3.0, 0.0, 2.0, 0.0, 2.0)
METRIC_DCG = dcg(METRIC_GRADES[:5], log2_i_plus_1)
METRIC_IDCG = dcg(sorted(METRIC_GRADES, reverse=True)[:5], log2_i_plus_1)
METRIC = METRIC_DCG / METRIC_IDCG  # 0.7235
METRIC_UNSORTED_IDEAL = METRIC_DCG / dcg(METRIC_GRADES[:5], log2_i_plus_1)  # 1: the list as its own ideal
METRIC_SWAPPED = METRIC_IDCG / METRIC_DCG  # 1.382
METRIC_EXPONENTIAL = dcg([2**g - 1 for g in METRIC_GRADES[:5]], log2_i_plus_1) / dcg(
    [2**g - 1 for g in sorted(METRIC_GRADES, reverse=True)[:5]], log2_i_plus_1
)  # 0.690


def test_the_closed_forms_are_the_numbers_the_issue_names():
    assert f"{LEARN_DIVISOR:.3f}" == "1.585" and LEARN_DIVISOR_LOG2_I_PLUS_1 == 2
    assert f"{LEARN_NDCG:.3f}" == "0.932" and f"{LEARN_IDCG / LEARN_DCG:.3f}" == "1.074"
    assert f"{CELL:.3f}" == "2.631" and CELL_LOG2_I == 3
    assert METRIC_UNSORTED_IDEAL == 1 and f"{METRIC:.4f}" == "0.7235"
    # the exercises of the issue's links are these lists and questions
    cell = make_exercise(11, 2, "cell", 2)
    assert cell.grades == CELL_GRADES and cell.question.quantity == "cumulative_dcg"
    assert cell.question.position == 2 and cell.exact == pytest.approx(CELL)
    metric = make_exercise(11, 6, "metric", 2)
    assert metric.grades == METRIC_GRADES and metric.question.quantity == "ndcg"
    assert metric.formula.k == 5 and metric.exact == pytest.approx(METRIC)


# ------------------------------------------------------------------ the table

LEARN_STEP_3 = "Learn step 3, divisor at position 3 = 1.585 (max(1, log2 i))"
LEARN_STEP_6 = "Learn step 6, NDCG = 8.097 / 8.693 (max(1, log2 i))"
CELL_Q = "Practice seed 11 ex 2 level 2 cell: cumulative DCG at position 2 = 2.631"
METRIC_Q = "Practice seed 11 ex 6 level 2 metric: NDCG@5 = 0.7235"

# (question, typed, expected verdict, mistakes named); why, from the closed forms above.
TABLE = [
    # Issue 38: a mistake is named only when the number fits it better than any rounding of the
    # right value: 1.585 rounds to 2, so "2" asks for decimals; "2.00" is log2(4), not 1.585.
    (LEARN_STEP_3, "2", "too_rough", ()),
    (LEARN_STEP_3, "2.00", "mistake", ("log2_i_plus_1",)),
    (LEARN_STEP_3, "1.59", "right", ()),  # issue 38: the page prints 1.585, which rounds to 1.59
    # "3/2" is 1.5 exactly: not 1.585, not 2, not ln 3 = 1.099.
    (LEARN_STEP_3, "3/2", "wrong", ()),
    (LEARN_STEP_3, "1.1", "mistake", ("natural_log",)),  # ln 3 = 1.099 rounds to 1.1, 1.585 does not
    (LEARN_STEP_3, "1.6", "too_rough", ()),  # 1.585 rounds to 1.6; no mistake gives 1.6
    (LEARN_STEP_3, "1.58", "right", ()),
    (LEARN_STEP_3, "1.585", "right", ()),
    (LEARN_STEP_3, "1.58496", "right", ()),
    (LEARN_STEP_6, "1.074", "mistake", ("swapped",)),  # IDCG / DCG = 1.0735
    (LEARN_STEP_6, "1", "too_rough", ()),  # 0.932 rounds to 1; 1.074 is not 1.00
    (LEARN_STEP_6, "0.93", "right", ()),
    (LEARN_STEP_6, "0.932", "right", ()),
    # "3.00" is the log2(i) result (2/1 + 1/1), not 2.631; "3" is 2.631 rounded too far.
    (CELL_Q, "3", "too_rough", ()),
    (CELL_Q, "3.00", "mistake", ("log2_i",)),
    (CELL_Q, "0.63", "mistake", ("row_for_cumulative",)),
    (CELL_Q, "2.60", "mistake", ("rounded_terms",)),  # 2.0 + 0.6, typed finer than the terms were rounded
    (
        CELL_Q,
        "2.6",
        "too_rough",
        (),
    ),  # 2.631 rounds to 2.6: the terms rounded to 1 decimal cannot be told apart
    (CELL_Q, "2.63", "right", ()),
    (CELL_Q, "2.631", "right", ()),
    (CELL_Q, "2.6309", "right", ()),
    # "1.00" is the unsorted ideal (the list is its own ideal: NDCG 1); 0.7235 rounds to "1".
    (METRIC_Q, "1", "too_rough", ()),
    (METRIC_Q, "1.00", "mistake", ("ideal_unsorted",)),
    (METRIC_Q, "72%", "right", ()),  # issue 38: a percentage is read as a fraction
    (METRIC_Q, "72", "fraction", ()),  # NDCG is a fraction: 72 would be 0.72
    (METRIC_Q, "1.38", "mistake", ("swapped",)),
    (METRIC_Q, "0.7", "too_rough", ()),  # 0.7235 and the exponential gain's 0.690 both round to 0.7
    (METRIC_Q, "0.69", "mistake", ("exponential_gain",)),
    (METRIC_Q, "0.72", "right", ()),
    (METRIC_Q, "0.723", "right", ()),
    (METRIC_Q, "0.7235", "right", ()),
    (METRIC_Q, "0.5", "wrong", ()),
]


def _learn(step: int):
    return lesson_step(step, explain(WIKI, discount="jarvelin")).question


def verdict_of(question: str, typed: str) -> tuple[str, tuple[str, ...]]:
    """The verdict as each page gets it: Learn through check_answer, Practice through check."""
    if question.startswith("Learn"):
        q = _learn(3 if question == LEARN_STEP_3 else 6)
        fb = check_answer(q, typed)
        kind = {True: "right", None: "too_rough"}.get(fb.correct, "mistake" if fb.mistakes else "wrong")
        return kind, fb.mistakes
    e = make_exercise(11, 2, "cell", 2) if question == CELL_Q else make_exercise(11, 6, "metric", 2)
    fb = check(e, typed)
    if fb.correct:
        return "right", ()
    if fb.problem is not None:
        return ("fraction" if fb.problem.code == "a_fraction" else "too_rough"), ()
    return ("wrong", ()) if fb.mistakes == ("unknown",) else ("mistake", fb.mistakes)


@pytest.mark.parametrize(("question", "typed", "kind", "mistakes"), TABLE)
def test_the_verdict_table(question, typed, kind, mistakes):
    assert verdict_of(question, typed) == (kind, mistakes)


def test_the_table_covers_every_case_the_issue_lists():
    cases = {(q, t) for q, t, _k, _m in TABLE}
    assert {
        (LEARN_STEP_3, "2"),
        (LEARN_STEP_3, "3/2"),
        (CELL_Q, "3"),
        (METRIC_Q, "1"),
        (METRIC_Q, "1.00"),
    } <= cases
    assert {(LEARN_STEP_6, "1.074")} <= cases
    assert sum(1 for q, _t, k, _m in TABLE if k == "right" and q == METRIC_Q) >= 3


def test_the_mistake_values_behind_the_table():
    """The verdicts above follow from these closed-form values, at the precision typed."""
    assert round(LEARN_DIVISOR_LOG2_I_PLUS_1, 2) == 2.0 and round(LEARN_DIVISOR, 2) != 2.0
    assert round(LEARN_DIVISOR, 0) == 2  # 1.585 also rounds to 2: still the log2(i + 1) mistake
    assert round(LEARN_DIVISOR_LN, 1) == 1.1 and round(LEARN_DIVISOR, 1) == 1.6
    assert round(CELL_LOG2_I, 2) == 3 and round(CELL, 0) == 3
    assert round(CELL_ROW_2, 2) == 0.63 and round(CELL_ROUNDED_TERMS, 2) == 2.6
    assert round(METRIC_SWAPPED, 2) == 1.38 and round(METRIC_EXPONENTIAL, 2) == 0.69
    assert round(METRIC_EXPONENTIAL, 1) == round(METRIC, 1) == 0.7


# ------------------------------------------------------------------ what the messages say


def test_the_precision_message_says_how_many_decimals_were_given():
    e = make_exercise(11, 6, "metric", 2)
    rough = check(e, "0.7")
    assert "give at least 2 decimals (you gave 1 decimal)" in rough.message
    assert "Close" not in rough.message and "typed" not in error_text(rough.problem)
    learn = check_answer(_learn(6), "1")
    assert "give at least 2 decimals (you gave 0 decimals)" in learn.message
    assert "you typed 0" not in learn.message


def test_a_named_mistake_is_never_called_close():
    for question, typed, kind, _m in TABLE:
        if kind == "mistake":
            if question.startswith("Learn"):
                fb = check_answer(_learn(3 if question == LEARN_STEP_3 else 6), typed)
            else:
                e = (
                    make_exercise(11, 2, "cell", 2)
                    if question == CELL_Q
                    else make_exercise(11, 6, "metric", 2)
                )
                fb = check(e, typed)
            assert "Close" not in fb.message and "it looks like you" in fb.diagnosis, (question, typed)


def test_learn_names_the_swapped_division():
    """The issue: 1.074 for NDCG got "8.097 ÷ 8.693 = 0.932", not "you divided IDCG by DCG"."""
    fb = check_answer(_learn(6), "1.074")
    assert fb.correct is False
    assert "you divided IDCG by DCG" in fb.diagnosis
    assert "0.932" not in fb.diagnosis  # the answer waits for the second try
    assert "8.097 ÷ 8.693 = 0.932" in fb.message


def test_learn_and_practice_judge_with_the_one_checker():
    """The same typed number against the same values gets the same verdict on both pages."""
    q = _learn(3)
    assert judge("2.00", q.exact, dict(q.mistakes)).mistakes == ("log2_i_plus_1",)
    e = make_exercise(11, 2, "cell", 2)
    assert judge("3.00", e.exact, {"log2_i": [CELL_LOG2_I]}).mistakes == check(e, "3.00").mistakes

"""The lesson as data: every step's columns, numbers and predictions, checked against closed forms."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from ndcg_core import STEP_COLUMNS, explain
from ndcg_core.teaching.formula import dcg_latex, ndcg_latex, trimmed
from ndcg_core.teaching.lesson import (
    COLUMN_HELP,
    IDEAL_COLUMNS,
    N_STEPS,
    check_answer,
    clamp_step,
    ideal_title,
    lesson_step,
    step_frame,
)

WIKI = [3, 2, 3, 0, 1, 2]
L2 = math.log2


def steps_of(ex):
    return [lesson_step(n, ex) for n in range(1, N_STEPS + 1)]


def test_every_column_a_step_or_the_playground_shows_has_one_line_of_help():
    ex = explain(WIKI)
    shown = set(STEP_COLUMNS) | set(IDEAL_COLUMNS) | {"CG", "DCG", "IDCG", "NDCG"}
    for step in steps_of(ex):
        shown |= set(step.columns) | set(step.metrics)
    assert shown <= set(COLUMN_HELP)
    for name, text in COLUMN_HELP.items():
        assert text and "\n" not in text and len(text) < 120, name


def test_the_table_grows_one_step_at_a_time_and_never_loses_a_column():
    steps = steps_of(explain(WIKI))
    assert steps[0].columns == ("Position", "Item", "Grade")
    for before, after in itertools.pairwise(steps):
        assert set(before.columns) <= set(after.columns)
    assert [s.new_columns for s in steps] == [
        (),
        ("Gain",),
        ("Divisor",),
        ("Discounted gain", "Cumulative DCG"),
        (),
        (),
        ("Beyond k",),
    ]
    assert steps[3].before_reveal == ("Position", "Item", "Grade", "Gain", "Divisor")
    assert steps[4].ideal and not any(s.ideal for s in steps if s.number != 5)
    assert [s.number for s in steps if "NDCG" in s.metrics] == [6, 7]


def test_predictions_are_the_closed_form_values_of_the_list():
    ex = explain(WIKI)  # log2(i + 1) discount, linear gain
    assert lesson_step(1, ex).question is None
    assert lesson_step(2, ex).question.exact == 3  # D1, grade 3, linear gain
    assert lesson_step(3, ex).question.exact == pytest.approx(L2(4))  # divisor at position 3 = 2
    assert lesson_step(4, ex).question.exact == pytest.approx(3 / 2)
    assert lesson_step(5, ex).question.exact == 3
    dcg = 3 + 2 / L2(3) + 3 / 2 + 0 + 1 / L2(6) + 2 / L2(7)
    idcg = 3 + 3 / L2(3) + 2 / 2 + 2 / L2(5) + 1 / L2(6)
    assert lesson_step(6, ex).question.exact == pytest.approx(dcg / idcg)
    assert lesson_step(7, ex).question.answer == "No, nothing at all"


def test_predictions_follow_the_formula_variant():
    ex = explain(WIKI, gain="exponential", discount="jarvelin")
    assert lesson_step(2, ex).question.exact == 2**3 - 1
    assert lesson_step(3, ex).question.exact == pytest.approx(L2(3))  # max(1, log2 3)
    assert lesson_step(4, ex).question.exact == pytest.approx(7 / L2(3))
    assert "2^grade − 1" in " ".join(lesson_step(2, ex).text)
    assert "max(1, log2 i)" in " ".join(lesson_step(3, ex).text)
    custom = explain([2, 0, 1], gain={0: 0, 1: 1, 2: 4})
    assert lesson_step(2, custom).question.exact == 4
    assert "2 → 4" in " ".join(lesson_step(2, custom).text)


def test_a_short_list_asks_about_its_last_row():
    ex = explain([0, 2])
    assert "position 2" in lesson_step(3, ex).question.prompt
    assert lesson_step(4, ex).question.exact == pytest.approx(2 / L2(3))


def test_the_ideal_step_names_judged_items_the_list_missed():
    ex = explain([1, 0], labels=["a", "b"], ideal=[1, 0, 3], ideal_labels=["a", "b", "gold"])
    text = " ".join(lesson_step(5, ex).text)
    assert "gold" in text and "never retrieved" in text
    assert lesson_step(5, ex).question.exact == 3
    frame = step_frame(ex, IDEAL_COLUMNS, ideal=True)
    assert list(frame.columns) == list(IDEAL_COLUMNS)
    assert frame["Item"].tolist() == ["gold", "a", "b"]
    assert frame["Cumulative IDCG"].iloc[-1] == pytest.approx(3 + 1 / L2(3))


def test_the_cutoff_step_says_which_rows_k_hides_once_answered():
    ex = explain(WIKI, 3)
    after = " ".join(lesson_step(7, ex).after)
    assert "rows 4 to 6 add nothing to DCG@3" in after and "D6 (grade 2)" in after
    whole = " ".join(lesson_step(7, explain(WIKI)).after)
    assert "covers the whole list" in whole


def test_no_ndcg_question_when_idcg_is_zero():
    step = lesson_step(6, explain([0, 0]))
    assert step.question is None
    assert "IDCG@2 = 0" in " ".join(step.text)


@pytest.mark.parametrize(
    ("typed", "correct"),
    [
        ("1.5", True),
        ("1.50", True),
        ("3/2", True),
        ("1.49", False),
        ("3", False),
        ("0.5", False),
        ("2", None),
    ],
)
def test_number_predictions_are_judged_at_the_precision_typed(typed, correct):
    question = lesson_step(4, explain(WIKI)).question  # exact 1.5
    assert check_answer(question, typed).correct is correct


def test_rounded_predictions_count_and_rough_ones_ask_for_decimals():
    question = lesson_step(6, explain(WIKI)).question  # 0.9608...
    assert check_answer(question, "0.96").correct is True
    assert check_answer(question, "0.961").correct is True
    assert check_answer(question, "0.95").correct is False
    rough = check_answer(question, "1")
    assert rough.correct is None and "2 decimals" in rough.message


@pytest.mark.parametrize("typed", ["", "abc", "log2(3)", "1/0", "9" * 100])
def test_unreadable_predictions_get_a_message_not_a_verdict(typed):
    feedback = check_answer(lesson_step(4, explain(WIKI)).question, typed)
    assert feedback.correct is None
    assert feedback.message.startswith("Your answer could not be read")


def test_choice_predictions():
    question = lesson_step(7, explain(WIKI)).question
    assert len(question.choices) == 2
    assert check_answer(question, "No, nothing at all").correct is True
    assert check_answer(question, "Yes, with a smaller weight").correct is False
    assert check_answer(question, "maybe").correct is None


@pytest.mark.parametrize(("value", "step"), [("4", 4), (" 7 ", 7), ("0", 1), ("99", 7), ("x", 1), (None, 1)])
def test_step_numbers_from_a_link_stay_within_the_lesson(value, step):
    assert clamp_step(value) == step


def test_lesson_step_refuses_what_it_cannot_show():
    with pytest.raises(ValueError, match="steps 1 to 7"):
        lesson_step(8, explain(WIKI))
    with pytest.raises(ValueError, match="at least one item"):
        lesson_step(1, explain([]))


def test_the_written_out_idcg_adds_up_when_the_ideal_sums_the_whole_pool():
    """trec_eval's ndcg with no cutoff sums DCG over the ranking (3 items) but IDCG over every
    judged item (5). The IDCG written out with the user's numbers listed only the first 3 terms,
    1/1 + 1/1.585 + 1/2 = 2.131, and printed 2.562 after them; now every term the sum has is shown,
    and IDCG is named by its own depth. Closed form: 1 + 1/log2 3 + 1/log2 4 + 1/log2 5."""
    ex = explain([1, 0, 1], ideal=[1, 0, 1, 1, 1], preset="trec_eval")
    idcg = 1 + 1 / math.log2(3) + 1 / math.log2(4) + 1 / math.log2(5)
    latex = dcg_latex(ex, ideal=True)
    terms = [float(a) / float(b) for a, b in re.findall(r"\\dfrac\{([\d.]+)\}\{([\d.]+)\}", latex)]
    assert len(terms) == 5 and sum(terms) == pytest.approx(idcg, abs=1e-3)
    assert latex.startswith(r"\mathrm{IDCG@5} = ") and latex.endswith(f"= {idcg:.3f}")
    assert r"\frac{\mathrm{DCG@3}}{\mathrm{IDCG@5}}" in ndcg_latex(ex)
    # with a cutoff both sides stop at k, and IDCG keeps k's name
    cut = explain([1, 0, 1], k=2, ideal=[1, 0, 1, 1, 1], preset="trec_eval")
    assert dcg_latex(cut, ideal=True).startswith(r"\mathrm{IDCG@2} = ")
    assert len(re.findall(r"\\dfrac", dcg_latex(cut, ideal=True))) == 2


def test_the_ideal_step_says_what_the_ideal_is_made_of_under_a_librarys_rules():
    """scikit-learn's rules build the ideal from the retrieved items alone; the lesson said a judged
    item the system missed 'would join it too'. Closed form: NDCG = (1 + 1/2) / (1 + 1/log2 3), not
    the 0.586 of the pool's ideal. trec_eval with no cutoff sums IDCG over all 5 judged items."""
    ex = explain([1, 0, 1], ideal=[1, 0, 1, 1, 1], preset="sklearn")
    assert ex.ndcg == pytest.approx(1.5 / (1 + 1 / math.log2(3)))
    text = " ".join(lesson_step(5, ex).text)
    assert "are left out" in text and "scikit-learn" in text and "would join it too" not in text
    assert ideal_title(ex).startswith("Ideal ordering of your list")
    deep = explain([1, 0, 1], ideal=[1, 0, 1, 1, 1], preset="trec_eval")
    assert "it sums all 5 judged items, so IDCG@5 sits beside DCG@3" in " ".join(lesson_step(5, deep).text)
    assert ideal_title(deep) == "Ideal ordering of all judged items"


def test_the_ndcg_step_follows_the_rules_test_for_an_idcg_that_is_not_above_0():
    """Grades 1, -3: IDCG = 1 - 3/log2 3 = -0.893 although an item has a positive gain. The lesson
    said 'no judged item has a positive gain'; and under torchmetrics' rules, which divide by any
    IDCG but 0, it said the IDCG = 0 rule decides while the app divided (NDCG = 1)."""
    ex = explain([1, -3])
    assert ex.idcg == pytest.approx(1 - 3 / math.log2(3))
    step = lesson_step(6, ex)
    assert step.question is None
    assert "IDCG@2 = -0.893, not above 0" in " ".join(step.text)
    divided = explain([1, -3], preset="torchmetrics")
    assert divided.ndcg == pytest.approx(1.0)
    question = lesson_step(6, divided).question
    assert question is not None and question.exact == pytest.approx(1.0)


# ------------------------------------------- issue 27: questions that never show their answer

LISTS = {
    "D1..D6, max(1, log2 i)": explain(WIKI, discount="jarvelin"),
    "D1..D6, log2(i + 1)": explain(WIKI),
    "D1..D6, exponential gain": explain(WIKI, gain="exponential", discount="jarvelin"),
    "two items": explain([0, 2], discount="jarvelin"),
    "base 10": explain(WIKI, discount="jarvelin", log_base=10),
    "k = 3": explain(WIKI, 3),
    "a judged pool": explain([1, 0], labels=["a", "b"], ideal=[1, 0, 3], ideal_labels=["a", "b", "gold"]),
}


def before_answer(step) -> str:
    """Everything a step shows above and beside its question before it is answered: the title, the
    text and the prompt (its formulas, new columns, new metric and `after` wait for the answer)."""
    return " ".join([step.title, *step.text, step.question.prompt])


@pytest.mark.parametrize("name", LISTS)
def test_no_question_shows_its_answer_before_it_is_answered(name):
    ex = LISTS[name]
    for step in steps_of(ex):
        if step.question is None:
            continue
        shown = before_answer(step)
        q = step.question
        if q.exact is not None and q.exact != round(q.exact):  # a whole number is in every list
            for written in {trimmed(q.exact), f"{q.exact:.2f}", f"{q.exact:.3f}"}:
                assert written not in shown, (name, step.number, written)
        assert q.why not in shown, (name, step.number)
        assert not set(step.new_columns) & set(step.before_reveal)
    # the step 3: the list's divisors came above "What is the divisor at position 3?"
    assert "divisors:" not in before_answer(lesson_step(3, ex))
    assert "Your first divisors" in " ".join(lesson_step(3, ex).after)
    # step 7 said "rows 4 to 6 add nothing to DCG@3" above "Do rows below position k add anything?"
    seven = before_answer(lesson_step(7, ex))
    assert not re.search(r"add nothing|counts only|nothing is hidden|stop counting", seven), seven


def test_the_gain_step_never_prints_the_gain_it_asks_for():
    """Exponential gain: the rule printed "grades 0, 1, 2, 3 are worth 0, 1, 3, 7" above "What is
    the gain of D1 (grade 3)?" (2^3 - 1 = 7). Its examples now leave the grade asked out."""
    for grades, asked in (([3, 2, 0], 3), ([2, 1, 0], 2), ([1, 0], 1)):
        step = lesson_step(2, explain(grades, gain="exponential"))
        shown = before_answer(step)
        assert step.question.exact == 2**asked - 1
        assert f"grade {asked} is worth" not in shown and "2^grade − 1" in shown
        assert re.findall(r"grade (\d) is worth (\d)", shown) and all(
            int(worth) == 2 ** int(g) - 1 for g, worth in re.findall(r"grade (\d) is worth (\d)", shown)
        )


def test_the_ideal_step_gives_the_grades_of_the_items_the_list_missed():
    """Which grade goes first in the ideal? With a judged item the list never retrieved, the
    question needs its grade: it was only named ("gold")."""
    step = lesson_step(5, LISTS["a judged pool"])
    assert "gold (grade 3)" in before_answer(step) and step.question.exact == 3


# ------------------------------------------------------------------ issue 27: the common form first


def test_the_discount_step_teaches_log2_i_plus_1_first_then_the_original_form():
    for ex in (explain(WIKI), explain(WIKI, discount="jarvelin")):
        text = " ".join(lesson_step(3, ex).text)
        common, original = text.index("log2(i + 1)"), text.index("max(1, log2 i)")
        assert common < original
        assert all(name in text[:original] for name in ("scikit-learn", "trec_eval", "Wikipedia"))
    assert "the common form" in " ".join(lesson_step(3, explain(WIKI)).text)
    assert "the original form" in lesson_step(3, explain(WIKI, discount="jarvelin")).text[-1]


def test_the_d1_d6_paragraph_is_true_to_its_closed_forms():
    """After the prediction, step 3 says why D1..D6 scores 0.961 under log2(i + 1), the form the
    lesson teaches (issue 38), and 0.932 under Wikipedia's max(1, log2 i). Each of its numbers, from
    the closed forms."""
    after = " ".join(lesson_step(3, explain(WIKI)).after)

    def ndcg_of(divisor):
        dcg = sum(g / divisor(i) for i, g in enumerate(WIKI, start=1))
        return dcg / sum(g / divisor(i) for i, g in enumerate(sorted(WIKI, reverse=True), start=1))

    original, common = ndcg_of(lambda i: max(1.0, L2(i))), ndcg_of(lambda i: L2(i + 1))
    assert f"NDCG@6 = {common:.3f} with gain = grade and the divisor log2(i + 1) taught here" in after
    assert f"divides by max(1, log2 i) instead and gets {original:.3f}" in after
    # The 2 at position 2 above a 3 at position 3: putting the 3 first gains 1/d2 - 1/d3.
    assert WIKI[1:3] == [2, 3]
    swap_original, swap_common = 1 / 1 - 1 / L2(3), 1 / L2(3) - 1 / 2
    assert f"1 − 1/1.585 = {swap_original:.3f}" in after and f"1/1.585 − 1/2 = {swap_common:.3f}" in after
    assert "divides positions 2 and 3 by 1 and 1.585, log2(i + 1) by 1.585 and 2" in after
    assert (max(1.0, L2(2)), round(L2(3), 3), round(L2(3), 3), L2(4)) == (1, 1.585, 1.585, 2)


def test_the_playground_still_opens_on_d1_d6_at_0_932():
    from ndcg_core.teaching.playground import DEFAULT_STATE
    from ndcg_core.teaching.rendering import explained

    ex = explained(DEFAULT_STATE)
    assert [i.grade for i in DEFAULT_STATE.items] == WIKI and ex.variant.discount == "jarvelin"
    assert f"{ex.ndcg:.3f}" == "0.932"


# ------------------------------------------------------------------ issue 27: predictions name the mistake


def test_a_wrong_prediction_names_its_mistake_without_the_answer():
    ex = explain(WIKI, discount="jarvelin")
    fb = check_answer(lesson_step(3, ex).question, "2.00")  # log2(3 + 1): the common form's divisor
    assert fb.correct is False and fb.mistakes == ("log2_i_plus_1",)
    assert "log2(i + 1)" in fb.diagnosis and "1.585" not in fb.diagnosis
    assert "1.585" in fb.message  # the answer, for after the second try
    dg = check_answer(lesson_step(4, ex).question, "1.5")  # 3 / 2: divided by log2(3 + 1)
    assert dg.mistakes == ("log2_i_plus_1",)
    gain = check_answer(lesson_step(2, ex).question, "7")  # 2^3 - 1 where the gain is the grade
    assert gain.mistakes == ("exponential_gain",)
    first = check_answer(lesson_step(5, explain([2, 3, 0])).question, "2")  # the list's first grade
    assert first.mistakes == ("ideal_unsorted",)

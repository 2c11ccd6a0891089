"""The lecturer's own questions (issue 26, part 4): a typed list with a formula and a quantity, or a
multiple-choice question, judged and diagnosed by Practice's rules.

Expected values are closed forms (math.log2) on Wikipedia's list D1..D6 graded 3, 2, 3, 0, 1, 2.
"""

from __future__ import annotations

import math

import pytest

from ndcg_core.classroom import (
    BadQuestion,
    choice_definition,
    correct_answer,
    exercise,
    grade,
    list_definition,
    playground_definition,
    summarise,
)
from ndcg_core.errors import error_text
from ndcg_core.i18n import set_language
from ndcg_core.teaching.practice import check
from ndcg_core.variants import Variant

GRADES = [3, 2, 3, 0, 1, 2]
JK = Variant(discount="jarvelin")  # gain = grade, divisor = max(1, log2(i))


def jk(i: int) -> float:
    return max(1.0, math.log2(i))


def dcg(grades, divisor, gain=lambda g: g, k=None) -> float:
    return sum(gain(g) / divisor(i) for i, g in enumerate(grades[:k], start=1))


def value(definition) -> float:
    return exercise(definition).exact


@pytest.mark.parametrize(
    ("ask", "position", "expected"),
    [
        ("gain", 3, 3.0),
        ("divisor", 3, math.log2(3)),
        ("discounted_gain", 3, 3 / math.log2(3)),
        ("cumulative_dcg", 3, 3 / 1 + 2 / 1 + 3 / math.log2(3)),
        ("discounted_gain", 1, 3.0),
    ],
)
def test_a_cell_of_the_typed_list_is_the_step_tables(ask, position, expected):
    d = list_definition("3, 2, 3, 0, 1, 2", "", JK, ask, position)
    e = exercise(d)
    assert e.kind == "cell" and e.answer_type == "number"
    assert e.exact == pytest.approx(expected)
    assert f"position {position} (D{position})" in e.prompt
    assert grade(e, f"{expected:.3f}").correct


def test_the_typed_list_with_exponential_gain_and_k():
    gain = lambda g: 2**g - 1  # noqa: E731
    plus_one = lambda i: math.log2(i + 1)  # noqa: E731
    formula = Variant(k=3, gain="exponential", discount="log")
    ideal = sorted(GRADES, reverse=True)
    assert value(list_definition("3 2 3 0 1 2", "", formula, "dcg")) == pytest.approx(
        dcg(GRADES, plus_one, gain, 3)
    )
    assert value(list_definition("3;2;3;0;1;2", "", formula, "idcg")) == pytest.approx(
        dcg(ideal, plus_one, gain, 3)
    )
    ndcg = dcg(GRADES, plus_one, gain, 3) / dcg(ideal, plus_one, gain, 3)
    e = exercise(list_definition("3,2,3,0,1,2,", "", formula, "ndcg"))
    assert e.exact == pytest.approx(ndcg) and e.prompt == "What is NDCG@3 of this list?"


def test_a_wrong_cell_is_diagnosed_as_practice_does():
    """Dividing by log2(i + 1) where the question says max(1, log2(i)): 3 / log2(4) = 1.5."""
    e = exercise(list_definition("3, 2, 3, 0, 1, 2", "", JK, "discounted_gain", 3))
    graded = grade(e, f"{3 / math.log2(4):.2f}")
    assert not graded.correct and graded.mistakes == ("log2_i_plus_1",)
    assert graded.mistakes == tuple(check(e, f"{3 / math.log2(4):.2f}").mistakes)  # Practice's own verdict


def test_labels_are_optional_and_kept_as_typed():
    d = list_definition("1, 0", "", JK, "ndcg")
    assert d["labels"] == ["D1", "D2"] and d["grades"] == [1.0, 0.0]
    d = list_definition("1, 0", " <b>A</b> ,  **B** ", Variant(), "highest")  # 1/log2(3) second
    assert d["labels"] == ["<b>A</b>", "**B**"]
    e = exercise(d)
    assert e.answer_type == "order" and grade(e, ["<b>A</b>", "**B**"]).correct
    assert not grade(e, ["**B**", "<b>A</b>"]).correct


def test_the_typed_list_is_the_same_definition_as_the_playgrounds():
    """One rule for a list question: the typed list is read into playground_definition's dict."""
    typed = list_definition("3, 2, 3, 0, 1, 2", "", JK, "cumulative_dcg", 4)
    labels = [f"D{i}" for i in range(1, 7)]
    assert typed == playground_definition(labels, GRADES, JK, "cumulative_dcg", 4)


@pytest.mark.parametrize(
    ("grades", "labels", "ask", "position", "start"),
    [
        ("", "", "ndcg", None, "Grades: type the list's grades"),
        ("3, two, 1", "", "ndcg", None, "Grades: entry 2 ('two') is not a number"),
        ("3, nan", "", "ndcg", None, "Grades: entry 2 ('nan') is not a number"),
        ("3, 11", "", "ndcg", None, "Grades: entry 2 ('11') is outside 0 to 10"),
        ("3, -1", "", "ndcg", None, "Grades: entry 2 ('-1') is outside 0 to 10"),
        ("3, inf", "", "ndcg", None, "Grades: entry 2 ('inf') is outside 0 to 10"),
        ("3", "", "ndcg", None, "Grades: a class question needs 2 to 12 items"),
        (",".join(["1"] * 13), "", "ndcg", None, "Grades: a class question needs 2 to 12 items"),
        ("0, 0", "", "ndcg", None, "Grades: at least one item must be relevant"),
        ("3, 1", "A, B, C", "ndcg", None, "Labels: 3 labels for 2 grades"),
        ("3, 1", "A, A", "ndcg", None, "Labels: the items' labels must differ"),
        ("3, 1", "A, " + "x" * 21, "ndcg", None, "Labels: it has 21 characters; at most 20 fit"),
        ("3, 1", "A, B\x00", "ndcg", None, "Labels: it holds a character that cannot be shown"),
        ("3, 1", "", "gain", 3, "Position: a cell's position must be a whole number from 1 to 2"),
        ("3, 1", "", "gain", 0, "Position: a cell's position must be a whole number from 1 to 2"),
        ("3, 1", "", "gain", None, "Position: a cell's position"),
    ],
)
def test_bad_lists_are_refused_naming_the_field(grades, labels, ask, position, start):
    with pytest.raises(BadQuestion) as info:
        list_definition(grades, labels, JK, ask, position)
    assert info.value.code == "class_field"
    assert str(info.value).startswith(start), str(info.value)


def test_a_cell_beyond_k_is_refused():
    with pytest.raises(BadQuestion, match="from 1 to 2"):
        list_definition("3, 2, 1", "", Variant(k=2), "discounted_gain", 3)


def test_a_multiple_choice_question_is_judged_by_its_marked_option():
    d = choice_definition(
        "  Which divisor\nleaves position 2 undivided? ", ["log2(i + 1)", "", "max(1, log2 i)"], 2
    )
    assert d == {
        "source": "choice",
        "prompt": "Which divisor leaves position 2 undivided?",
        "options": ["log2(i + 1)", "max(1, log2 i)"],  # the empty one left out, the mark follows
        "right": 1,
    }
    e = exercise(d)
    assert (e.answer_type, e.choices, e.answer_choice) == ("choice", tuple(d["options"]), 1)
    assert grade(e, 1).correct and not grade(e, 0).correct
    assert check(e, 0).message == "Not this one. The answer is: max(1, log2 i)."
    assert correct_answer(e) == "max(1, log2 i)"
    summary = summarise(e, [(str(c), c == 1, None, "") for c in (0, 1, 1)])
    assert (summary.answered, summary.correct, summary.choices) == (3, 2, (1, 2))


@pytest.mark.parametrize(
    ("prompt", "options", "right", "start"),
    [
        ("", ["a", "b"], 0, "Question: it is empty"),
        (" \n ", ["a", "b"], 0, "Question: it is empty"),
        ("q" * 301, ["a", "b"], 0, "Question: it has 301 characters; at most 300 fit"),
        ("\u200b\u200b", ["a", "b"], 0, "Question: it shows nothing"),
        ("q\x1b[31m", ["a", "b"], 0, "Question: it holds a character that cannot be shown"),
        ("q", ["a", "b\u202egnp"], 0, "Option 2: it holds a character that turns the text's direction"),
        ("q", ["a", "x" * 121], 0, "Option 2: it has 121 characters; at most 120 fit"),
        ("q", ["a", "", ""], 0, "Options: fill in 2 to 6 options (filled in now: 1)"),
        ("q", [str(i) for i in range(7)], 0, "Options: fill in 2 to 6 options (filled in now: 7)"),
        ("q", ["a", "b", " a "], 0, "Options: options 1 and 3 are the same"),
        ("q", ["a", "b"], None, "Right answer: mark the option"),
        ("q", ["a", "b"], 5, "Right answer: mark the option"),
        ("q", ["a", "b"], True, "Right answer: mark the option"),
        ("q", ["a", "b", ""], 2, "Right answer: option 3 is marked as the right answer but is empty"),
    ],
)
def test_bad_multiple_choice_questions_are_refused_naming_the_field(prompt, options, right, start):
    with pytest.raises(BadQuestion) as info:
        choice_definition(prompt, options, right)
    assert info.value.code == "class_field"
    assert str(info.value).startswith(start), str(info.value)


def test_a_stored_choice_definition_is_checked_again_when_rebuilt():
    """The store takes a definition dict: a forged one (no options, a right answer out of range) is
    refused as the form's would be."""
    with pytest.raises(BadQuestion):
        exercise({"source": "choice", "prompt": "q", "options": ["a", "b"], "right": 2})
    with pytest.raises(BadQuestion):
        exercise({"source": "choice", "prompt": "<b>" * 200, "options": ["a", "b"], "right": 0})
    with pytest.raises(BadQuestion):
        exercise({**playground_definition(["A", "B"], [1, 0], JK, "ndcg"), "ask": "gain", "position": 9})


def test_the_fields_are_named_in_chinese():
    set_language("zh")
    try:
        with pytest.raises(BadQuestion) as info:
            choice_definition("q", ["a", "a"], 0)
        text = error_text(info.value)
        assert text != str(info.value) and "选项" in text, text
    finally:
        set_language("en")

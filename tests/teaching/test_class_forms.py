"""Class mode's pages as values (ndcg_core.classroom.forms): the lecturer's question form and what a
student's phone shows, without Streamlit or a database.

Expected numbers are closed forms (math.log2) on Wikipedia's list graded 3, 2, 3, 0, 1, 2 or on
lists hypothesis draws; refusals are the English templates of their codes.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_core.classroom import BadAnswer, QuestionInfo, exercise, grade
from ndcg_core.classroom.forms import (
    LIST_ASKS,
    SOURCES,
    AskForm,
    AskRefusal,
    PlaygroundList,
    Question,
    answer_refusal,
    response_of,
    student_screen,
    too_fast,
)
from ndcg_core.classroom.store import NotJoined, QuestionNotOpen, UnknownQuestion
from ndcg_core.errors import error_text
from ndcg_core.i18n import set_language
from ndcg_core.teaching.playground import DEFAULT_STATE

WIKIPEDIA = "3, 2, 3, 0, 1, 2"


def ndcg_linear_log(grades: list[int], k: int | None = None) -> float:
    """NDCG with gain = grade and discount 1/log2(i + 1): the closed form."""

    def dcg(gs: list[int]) -> float:
        return sum(g / math.log2(i + 1) for i, g in enumerate(gs[:k], start=1))

    return dcg(grades) / dcg(sorted(grades, reverse=True))


def test_an_empty_form_reads_as_its_defaults_and_asks_a_practice_exercise():
    assert AskForm.read(lambda name: None) == AskForm() == AskForm.read(lambda name: "")
    q = AskForm().question(seed=7)
    assert isinstance(q, Question) and q.seconds is None
    assert q.definition == {"source": "practice", "seed": 7, "number": 1, "kind": "metric", "level": 1}


def test_the_form_reads_each_field_and_the_options_by_number():
    values = {"source": "choice", "prompt": "Which?", "option_0": "a", "option_2": "c", "right": 2}
    form = AskForm.read(values.get)
    assert (form.source, form.prompt, form.right) == ("choice", "Which?", 2)
    assert form.options == ("a", "", "c", "", "", "")
    q = form.question(seed=1)
    assert q.definition == {"source": "choice", "prompt": "Which?", "options": ["a", "c"], "right": 1}


def test_the_own_list_asks_ndcg_under_its_formula_and_cutoff():
    q = AskForm(source="list", grades=WIKIPEDIA, ask="ndcg", countdown=30).question(seed=1)
    assert q.seconds == 30
    e = exercise(q.definition)
    assert e.exact == pytest.approx(ndcg_linear_log([3, 2, 3, 0, 1, 2]))
    cut = AskForm(source="list", grades=WIKIPEDIA, ask="ndcg", k=3).question(seed=1)
    assert exercise(cut.definition).exact == pytest.approx(ndcg_linear_log([3, 2, 3, 0, 1, 2], k=3))


def test_a_cell_is_asked_at_its_position_and_a_position_past_the_cutoff_is_refused():
    form = AskForm(source="list", grades=WIKIPEDIA, discount="jarvelin", ask="cell", cell="discounted_gain")
    q = form.question(seed=1)  # position 1 by default
    assert exercise(q.definition).exact == pytest.approx(3.0)
    at2 = AskForm(**{**form.__dict__, "position": 2}).question(seed=1)
    assert exercise(at2.definition).exact == pytest.approx(2 / max(1, math.log2(2)))
    refused = AskForm(**{**form.__dict__, "position": 5, "k": 3}).question(seed=1)
    assert isinstance(refused, AskRefusal) and refused.source == "list"
    assert refused.message.values["problem"].code == "class_position"  # under the field's name
    assert str(refused.message).startswith("Position: ") and "1 to 3" in str(refused.message)


def test_a_refusal_names_the_field_and_its_source():
    refused = AskForm(source="list", grades="3, 2, three").question(seed=1)
    assert refused == AskRefusal("list", refused.message)
    assert str(refused.message) == "Grades: entry 3 ('three') is not a number; type grades such as 3, 2, 0"
    choice = AskForm(source="choice", prompt="Which?", options=("a", "b", "", "", "", "")).question(seed=1)
    assert str(choice.message) == "Right answer: mark the option that is the right answer"
    set_language("zh")
    try:
        assert error_text(choice.message) != str(choice.message)  # coded: said in the page's language
    finally:
        set_language("en")


def test_the_playground_list_is_asked_as_the_playground_holds_it():
    items = DEFAULT_STATE.items
    pg = PlaygroundList(tuple(i.label for i in items), tuple(i.grade for i in items), DEFAULT_STATE.spec)
    q = AskForm(source="playground", ask="highest").question(seed=1, playground=pg)
    assert q.definition["labels"] == list(pg.labels) and q.definition["ask"] == "highest"
    e = exercise(q.definition)
    best = [label for _g, label in sorted(zip(pg.grades, pg.labels, strict=True), key=lambda x: -x[0])]
    assert grade(e, best).correct
    missing = AskForm(source="playground").question(seed=1, playground=None)
    assert missing.message.code == "class_formula"


def test_an_unknown_source_is_a_key_error_not_a_fallback():
    with pytest.raises(KeyError):
        AskForm(source="essay").question(seed=1)
    assert set(SOURCES) == {"practice", "playground", "list", "choice"}
    assert "cell" in LIST_ASKS


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10), min_size=2, max_size=12).filter(any), st.integers(0, 12))
def test_any_own_list_asks_the_closed_form_ndcg(grades, k):
    q = AskForm(source="list", grades=" ".join(map(str, grades)), k=k).question(seed=1)
    assert exercise(q.definition).exact == pytest.approx(ndcg_linear_log(grades, k or None))


# ---------------------------------------------------------------------------------- a student's phone


def info(number: int, status: str) -> QuestionInfo:
    d = {"source": "choice", "prompt": "Which?", "options": ["a", "b"], "right": 0}
    return QuestionInfo(number, d, "Which?", status)


@pytest.mark.parametrize(
    ("name", "current", "show"),
    [
        (None, info(1, "open"), "name"),  # not joined: the name box, whatever is asked
        ("Ana", None, "wait"),
        ("Ana", info(1, "draft"), "wait"),  # a question not yet opened is not shown
        ("Ana", info(1, "open"), "open"),
        ("Ana", info(1, "closed"), "closed"),
        ("Ana", info(1, "revealed"), "revealed"),
    ],
)
def test_the_phone_shows_the_name_box_the_wait_or_the_question(name, current, show):
    asked = []
    screen = student_screen(name, current, lambda n: asked.append(n), None)
    assert screen.show == show
    assert asked == ([] if show in {"name", "wait"} else [1])  # the store asked only for a shown question
    assert (screen.question is None) == (show in {"name", "wait"})


def test_a_refused_answer_is_shown_for_its_question_only():
    closed = answer_refusal(QuestionNotOpen())
    on_1 = student_screen("Ana", info(1, "closed"), lambda n: '"a"', (1, closed))
    assert on_1.problem == closed and on_1.saved == '"a"'
    assert student_screen("Ana", info(2, "open"), lambda n: None, (1, closed)).problem is None


def test_responses_are_read_by_the_kind_of_answer():
    choice = exercise({"source": "choice", "prompt": "Which?", "options": ["a", "b"], "right": 1})
    assert response_of(choice, None, "b", None) == choice.names[1]
    assert response_of(choice, None, "not offered", None) is None
    assert grade(choice, response_of(choice, None, "b", None)).correct
    number = exercise(AskForm(source="list", grades=WIKIPEDIA).question(seed=1).definition)
    assert response_of(number, None, None, None) == "" and response_of(number, "0.96", None, None) == "0.96"
    order = exercise(AskForm(source="list", grades=WIKIPEDIA, ask="highest").question(seed=1).definition)
    assert response_of(order, None, None, ("D1", "D3")) == ["D1", "D3"]
    assert response_of(order, None, None, None) == []


def test_each_refusal_says_what_to_do_and_an_unexpected_error_is_not_hidden():
    assert str(answer_refusal(NotJoined())) == "Join the room with your name first."
    assert answer_refusal(UnknownQuestion()) == answer_refusal(QuestionNotOpen())
    bad = BadAnswer("class_type_a_number")
    assert answer_refusal(bad) is bad
    assert str(too_fast(0.2)) == "Too many answers in a short time: wait 1 s, then send again."
    with pytest.raises(KeyError):
        answer_refusal(RuntimeError("database down"))

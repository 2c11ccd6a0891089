"""The lecturer's own questions and the countdown (issue 26, part 4) through AppTest: the form names
the field a refusal is about and keeps what was typed, the lecturer's text is shown as text, and a
countdown that is up closes the question for the phone, which the store enforces.

Expected numbers are closed forms (math.log2) on Wikipedia's list graded 3, 2, 3, 0, 1, 2.
"""

from __future__ import annotations

import math
from datetime import timedelta
from pathlib import Path

import pytest
import streamlit as st
from apptest_support import ok
from room_support import open_page
from sqlalchemy import update
from streamlit.testing.v1 import AppTest

from ndcg_core.classroom import Store
from ndcg_core.classroom.database import timers
from views.ui import keys as session_keys
from views.ui.markup import md_escape

PAGE = "views/classroom.py"
PROMPT = "Which is **bold**? <b>x</b> [link](http://x) $y$ :smile:"
OPTIONS = ["<i>one</i>", "*two*", "=1+1"]


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("NDCG_DATABASE_URL", raising=False)
    st.cache_resource.clear()
    yield tmp_path
    st.cache_resource.clear()


def db(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'classroom.sqlite3'}")


def page(params: dict[str, str] | None = None) -> AppTest:
    return open_page(PAGE, params)


def lecturer(source: str) -> tuple[AppTest, str, str]:
    at = page()
    at.button(key="cl_create").click().run()
    code = at.query_params["room"]
    code = code[0] if isinstance(code, list) else code
    ok(at.segmented_control(key="cl_source").set_value(source).run())
    return at, code, at.session_state[session_keys.CL_KEYS][code]


def ask(at: AppTest) -> AppTest:
    return ok(at.button(key="cl_ask_button").click().run())


def problem(at: AppTest) -> str:
    return " ".join(e.value for e in at.error)


def refused(reason: str) -> str:
    """The form's message for a refused question: the reason (naming the field) shown as text."""
    return f"This question cannot be asked. {md_escape(reason)}."


def student(code: str, name: str = "Ana") -> AppTest:
    at = page({"room": code})
    at.text_input(key="cl_name").input(name)
    return ok(at.button(key="FormSubmitter:cl_join_form-Join").click().run())


def test_the_own_list_form_names_the_field_keeps_the_input_and_asks_a_cell(data_dir):
    at, code, key = lecturer("list")
    at.text_input(key="cl_grades").input("3, 2, three, 0, 1, 2")
    at.text_input(key="cl_labels").input("<b>A</b>, **B**, C, D, E, F")
    ask(at)
    assert problem(at) == refused("Grades: entry 3 ('three') is not a number; type grades such as 3, 2, 0")
    assert at.text_input(key="cl_grades").value == "3, 2, three, 0, 1, 2"  # kept, to be corrected
    assert at.text_input(key="cl_labels").value == "<b>A</b>, **B**, C, D, E, F"
    assert db(data_dir).questions(code, key) == []  # nothing asked

    at.text_input(key="cl_grades").input("3, 2, 3, 0, 1, 2").run()
    assert problem(at) == ""  # a change clears the refusal
    at.radio(key="cl_discount").set_value("jarvelin")
    at.selectbox(key="cl_k").set_value(3)
    at.selectbox(key="cl_ask").set_value("cell").run()
    at.selectbox(key="cl_cell").set_value("discounted_gain")
    at.selectbox(key="cl_position").set_value(5)
    ask(at)
    assert problem(at).startswith(refused("Position: a cell's position")[:-1])
    at.selectbox(key="cl_position").set_value(2)
    ask(at)
    (q,) = db(data_dir).questions(code, key)
    assert q.definition["labels"][:2] == ["<b>A</b>", "**B**"] and q.definition["position"] == 2
    prompt = at.get("stMarkdown")
    shown = [m.value for m in at.markdown]
    assert md_escape("What is the discounted gain at position 2 (**B**)?") in shown, shown
    assert any(md_escape("<b>A</b>") in m for m in shown)  # the list's table escapes the labels
    assert prompt is not None

    ok(at.button(key="cl_open").click().run())
    ana = student(code)
    expected = 2 / max(1.0, math.log2(2))  # grade 2 at position 2, divisor max(1, log2 2) = 1
    ana.text_input(key="cl_answer_1").input(f"{expected:.3f}")
    ok(ana.button(key="FormSubmitter:cl_form_1-Send answer").click().run())
    assert db(data_dir).answers(code, key, 1)[0].correct


def test_a_multiple_choice_question_is_shown_as_typed_and_judged(data_dir):
    at, code, key = lecturer("choice")
    at.text_area(key="cl_mc_prompt").input(PROMPT)
    for i, option in enumerate(OPTIONS):
        at.text_input(key=f"cl_mc_option_{i}").input(option)
    ask(at)
    assert problem(at) == refused("Right answer: mark the option that is the right answer")
    assert at.text_area(key="cl_mc_prompt").value == PROMPT
    assert [at.text_input(key=f"cl_mc_option_{i}").value for i in range(3)] == OPTIONS
    at.text_input(key="cl_mc_option_3").input(OPTIONS[0])  # the same text twice
    at.radio(key="cl_mc_right").set_value(1)
    ask(at)
    assert problem(at) == refused("Options: options 1 and 4 are the same; each option must differ")
    at.text_input(key="cl_mc_option_3").input("")
    ask(at)
    assert problem(at) == ""
    shown = [m.value for m in at.markdown]
    assert md_escape(PROMPT) in shown  # the lecturer's page: text, not Markdown
    assert "  \n".join(f"{i} · {md_escape(o)}" for i, o in enumerate(OPTIONS, start=1)) in shown

    ok(at.button(key="cl_open").click().run())
    ana, bo = student(code, "Ana"), student(code, "Bo")
    assert md_escape(PROMPT) in [m.value for m in ana.markdown]
    radio = ana.radio(key="cl_choice_1")
    assert radio.label == "Your answer" and list(radio.options) == [md_escape(o) for o in OPTIONS]
    ana.radio(key="cl_choice_1").set_value(OPTIONS[1])
    ok(ana.button(key="FormSubmitter:cl_form_1-Send answer").click().run())
    bo.radio(key="cl_choice_1").set_value(OPTIONS[2])
    ok(bo.button(key="FormSubmitter:cl_form_1-Send answer").click().run())
    ok(at.button(key="cl_reveal").click().run())
    assert at.metric[1].value == "50%"
    assert at.success[0].value == "The answer: " + md_escape(OPTIONS[1])
    ok(bo.run())
    assert bo.error[0].value == md_escape(f"Not this one. The answer is: {OPTIONS[1]}.")
    csv = db(data_dir).export_csv(code, key)
    assert "'=1+1" in csv and "*two*" in csv  # the option picked, defused for spreadsheets


def test_a_countdown_that_is_up_closes_the_question_and_a_late_answer_is_not_taken(data_dir):
    at, code, key = lecturer("playground")
    at.segmented_control(key="cl_countdown").set_value(60)
    ask(at)
    assert "Countdown: 60 s, from when you open it for answers." in [c.value for c in at.caption]
    ok(at.button(key="cl_open").click().run())
    assert at.metric[1].label == "Seconds left" and 55 <= int(at.metric[1].value) <= 60
    assert any(m.value.startswith("Closes in **") for m in at.markdown)  # beside the question too
    ana = student(code)
    assert ana.text_input(key="cl_answer_1").label == "Your answer"
    assert any("Closes in" in m.value for m in ana.markdown)
    store = db(data_dir)
    with store.engine.begin() as conn:  # the time is up: the store's clock has passed the deadline
        conn.execute(update(timers).values(closes_at=store.clock() - timedelta(seconds=1)))
    ana.text_input(key="cl_answer_1").input("0.9")
    ok(ana.button(key="FormSubmitter:cl_form_1-Send answer").click().run())
    assert [e.value for e in ana.error] == [md_escape("This question is closed: your answer was not taken.")]
    assert not [t for t in ana.text_input if t.key == "cl_answer_1"]  # no answer box any more
    assert store.answers(code, key, 1) == []
    ok(at.run())
    assert "Closed" in " ".join(m.value for m in at.markdown)
    assert at.metric[1].label == "Right" and not at.button(key="cl_open").disabled
    assert at.button(key="cl_close").disabled


def test_the_bars_of_a_revealed_choice_question_keep_every_option():
    """The bars are labelled 1, 2, 3 and the right one "2 ✓" after the reveal: Plotly took the
    labels for numbers, dropped "2 ✓" and drew no bar for the right answer (seen on the projector).
    Asked of Plotly itself (kaleido): the axis must be categories, one per option."""
    from ndcg_core.classroom import Summary, choice_definition, exercise
    from views.room.bars import answers_figure

    e = exercise(choice_definition("q", ["a", "b", "c"], 1))
    figure = answers_figure(e, Summary(answered=3, correct=2, choices=(1, 2, 0)), revealed=True)
    full = figure.full_figure_for_development(warn=False)
    assert full.layout.xaxis.type == "category"
    assert list(full.data[0].x) == ["1", "2 ✓", "3"] and list(full.data[0].y) == [1, 2, 0]

"""A student's view of a room: join with a name, answer the open question, see the feedback."""

from __future__ import annotations

import streamlit as st

from ndcg_core.classroom import (
    MAX_NAME,
    BadAnswer,
    BadName,
    NotJoined,
    QuestionNotOpen,
    UnknownQuestion,
    correct_answer,
    exercise,
    feedback,
)
from ndcg_core.classroom.forms import StudentScreen, answer_refusal, response_of, student_screen, too_fast
from ndcg_core.classroom.lesson_questions import lesson_table
from ndcg_core.classroom.questions import answer_text
from ndcg_core.errors import error_text
from ndcg_core.i18n import _
from ndcg_core.teaching.answers import examples
from ndcg_core.teaching.practice import Exercise, focus_rows, focus_text
from views.ui import keys
from views.ui.markup import md_escape

from . import common
from .common import (
    ID_REFUSED,
    NAME_PROBLEMS,
    STUDENT_CHECK_EVERY,
    focus_next,
    forget_student,
    get_store,
    guarded,
    live_part,
    remember_student,
    show_exercise,
    student_token,
)
from .watcher import watch_state

#: The first control of the open question's answer (a text box, the first choice, the order's box).
ANSWER_BOX = ".st-key-cl_student_question input"


@guarded
def _join(code: str) -> None:
    ss = st.session_state
    try:
        joined = get_store().join(code, ss.get(keys.CL_NAME) or "")  # the store issues the id
    except BadName as err:
        ss[keys.CL_NAME_ERROR] = err.reason
        return
    ss[keys.CL_NAME_ERROR] = None
    ss.pop(keys.CL_ID_REFUSED, None)
    remember_student(code, joined.token)
    focus_next(ANSWER_BOX)  # the name form is gone: to the open question's answer, when there is one


@guarded
def _submit(code: str, number: int, e: Exercise) -> None:
    ss = st.session_state
    ss[keys.CL_UNCONFIRMED] = number  # until a page run draws the outcome (see student())
    response = response_of(
        e, ss.get(keys.cl_answer(number)), ss.get(keys.cl_choice(number)), ss.get(keys.cl_order(number))
    )
    token = student_token(code)
    if token is None:
        ss[keys.CL_ANSWER_ERROR] = (number, answer_refusal(NotJoined()))
        return
    wait = common.ANSWER_LIMIT.take((code, token))  # before judging: a refused answer costs nothing
    if wait:
        ss[keys.CL_ANSWER_ERROR] = (number, too_fast(wait))
        return
    try:
        get_store().submit(code, token, number, response)
    except (BadAnswer, QuestionNotOpen, UnknownQuestion, NotJoined) as err:
        ss[keys.CL_ANSWER_ERROR] = (number, answer_refusal(err))
        return
    ss[keys.CL_ANSWER_ERROR] = None


def name_form(code: str) -> None:
    ss = st.session_state
    refused = ss.get(keys.CL_ID_REFUSED)
    if refused and refused[0] == code:
        with st.container(key=keys.CL_ID_REFUSED):
            st.warning(_(ID_REFUSED[refused[1]]).format(code=md_escape(code)), icon=":material/badge:")
    st.markdown(_("Room **{code}**: type the name your lecturer will see.").format(code=md_escape(code)))
    with st.form("cl_join_form", border=False):
        st.text_input(_("Your name"), key=keys.CL_NAME)
        st.form_submit_button(_("Join"), type="primary", on_click=_join, args=(code,), width="stretch")
    problem = ss.get(keys.CL_NAME_ERROR)
    if problem:
        with st.container(key=keys.CL_NAME_ERROR):
            st.error(_(NAME_PROBLEMS[problem]).format(n=MAX_NAME))


def student(code: str) -> None:
    with st.container(key="cl_student"):
        token = student_token(code)
        name = None if token is None else get_store().student_name(code, token)  # the store knows
        if name is None and token is not None:  # an id the store did not issue for this room: nobody
            forget_student(code)
        current = None if name is None else get_store().room(code).current

        def saved(number: int) -> str | None:
            mine = get_store().my_answer(code, token, number)
            return None if mine is None else mine.response

        screen = student_screen(name, current, saved, st.session_state.get(keys.CL_ANSWER_ERROR))
        if screen.show == "name":
            st.session_state.pop(keys.CL_UNCONFIRMED, None)  # nobody's answer to show: no redraws
            name_form(code)
            return
        st.session_state.pop(keys.CL_ID_REFUSED, None)
        st.caption(_("Room {code} · you are {name}").format(code=md_escape(code), name=md_escape(name)))
        if screen.show == "wait":
            st.info(_("Wait for the lecturer's question: it appears here by itself."))
        else:
            student_question(code, screen)
        # Drawn to the end, so what became of a sent answer ("Saved" or why not) is on the page. The
        # poll comes last: a run cut short before this line (under load, a few phones in a hundred
        # never got "Saved" although the answer was stored) leaves the mark, and the poll redraws.
        st.session_state.pop(keys.CL_UNCONFIRMED, None)
        drawn = None if current is None else (current.number, current.status)
        watch_state(code, drawn)
        watch(code, drawn)


@live_part(run_every=STUDENT_CHECK_EVERY)
def watch(code: str, drawn: tuple[int, str] | None) -> None:
    """Rerun the page when the outcome of an answer sent was never drawn (its page run was cut
    short), or when the lecturer opened, closed or revealed a question and the page's watcher
    (:func:`~views.room.watcher.watch_state`, every 2 s) did not say so; say so when the database
    cannot be reached. It reads the store's shared, one-query poll (:meth:`Store.poll`) and draws
    nothing while nothing changed."""
    now = get_store().poll(code)
    if now != drawn or keys.CL_UNCONFIRMED in st.session_state:
        st.rerun()


def student_question(code: str, screen: StudentScreen) -> None:
    q = screen.question
    assert q is not None
    e = exercise(q.definition)
    steps = lesson_table(q.definition) if q.definition.get("source") == "lesson" else None
    with st.container(key="cl_student_question", border=True):
        st.markdown(_("**Question {n}**").format(n=q.number))
        show_exercise(e, steps)
        if screen.show == "open":
            if q.closes_at is not None:
                common.countdown(q.closes_at)
            answer_area(code, q.number, e)
        if screen.problem is not None:  # after the box; or an answer sent as the countdown closed it
            with st.container(key=keys.CL_ANSWER_ERROR):
                st.error(md_escape(error_text(screen.problem)))
        elif screen.show == "open" and screen.saved is not None:
            with st.container(key="cl_saved"):
                until = (
                    _("Saved: {answer}. You can change it until the question closes.")
                    if q.closes_at is not None
                    else _("Saved: {answer}. You can change it until the lecturer closes the question.")
                )
                st.success(until.format(answer=md_escape(answer_text(e, screen.saved))))
        if screen.show == "open":
            return
        if screen.saved is None:
            st.info(_("This question is closed; you did not answer it."))
        else:
            st.markdown(_("Your answer: {answer}").format(answer=md_escape(answer_text(e, screen.saved))))
        if screen.show == "closed":
            st.info(_("Answers are closed. Your feedback appears when the lecturer reveals the answer."))
            return
        with st.container(key="cl_feedback"):
            if screen.saved is not None:
                fb = feedback(e, screen.saved)
                (st.success if fb.correct else st.error)(md_escape(fb.message))
                rows = focus_text(focus_rows(e, fb))
                if not fb.correct and len(rows):
                    st.dataframe(rows, hide_index=True)
            st.markdown(_("The answer: {answer}").format(answer=md_escape(correct_answer(e))))


def answer_area(code: str, number: int, e: Exercise) -> None:
    with st.form(f"cl_form_{number}", border=False):
        if e.answer_type == "number":
            st.text_input(
                _("Your answer"),
                key=keys.cl_answer(number),
                placeholder=_("e.g. {number} or {arithmetic}").format(
                    number=examples([e.exact]).number, arithmetic=examples([e.exact]).arithmetic
                ),
                help=_("A number (at least 2 decimals unless it is whole) or arithmetic with + - * / ^ ( )."),
            )
        elif e.answer_type == "choice":
            st.radio(
                _("Your answer"),
                list(e.choices),
                index=None,
                key=keys.cl_choice(number),
                format_func=md_escape,
            )
        else:
            st.multiselect(
                _("Tap the items in your order, first to last"),
                list(e.labels),
                key=keys.cl_order(number),
                placeholder=_("Tap an item"),  # Streamlit's own "Choose an option" is English only
                format_func=lambda label: _("{label} (grade {grade})").format(
                    label=md_escape(label), grade=f"{dict(zip(e.labels, e.grades, strict=True))[label]:g}"
                ),
            )
        st.form_submit_button(
            _("Send answer"), type="primary", on_click=_submit, args=(code, number, e), width="stretch"
        )

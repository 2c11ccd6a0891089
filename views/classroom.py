"""Class: the lecturer asks the room a question, students answer on their phones, answers show live.

The lecturer's URL carries ``room=CODE&key=SECRET``; the students' link only ``room=CODE``. Who may
open, close and reveal is decided by the store (``ndcg_core.classroom``), which checks the key on
every lecturer operation; this page only draws what the key allows.
"""

from __future__ import annotations

import functools
import json
import os
import re
import secrets
from urllib.parse import quote

import plotly.graph_objects as go
import segno
import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ndcg_core.classroom import (
    ASKS,
    MAX_NAME,
    BadAnswer,
    BadName,
    BadQuestion,
    NotJoined,
    QuestionInfo,
    QuestionNotOpen,
    RoomExpired,
    RoomNotFound,
    Store,
    Summary,
    UnknownQuestion,
    clean_code,
    correct_answer,
    exercise,
    feedback,
    formula_of_spec,
    playground_definition,
    practice_definition,
)
from ndcg_core.errors import error_text
from ndcg_core.i18n import N_, _, ngettext
from ndcg_core.teaching.playground import DEFAULT_STATE
from ndcg_core.teaching.practice import KINDS, LEVELS, MISTAKES, Exercise, focus_rows
from views.common import md_escape, ui_params

#: How often the lecturer's live view and the students' waiting screen ask the database.
LIVE_EVERY = 1.0
STUDENT_EVERY = 2.0
QR_WIDTH = 250  # CSS pixels: a phone reads it from the back of a lecture hall on a projector

STATUS_TEXT = {
    "draft": N_("Not open yet"),
    "open": N_("Open for answers"),
    "closed": N_("Closed"),
    "revealed": N_("Answer revealed"),
}
NAME_PROBLEMS = {
    "empty": N_("Type your name (the lecturer sees it next to your answers)."),
    "too_long": N_("Your name is too long: at most {n} characters."),
    "control": N_("Your name holds characters that cannot be shown: use letters, digits and spaces."),
}
CSS = """
<style>
.st-key-cl_student button, .st-key-cl_student input, .st-key-cl_landing button, .st-key-cl_landing input {
  min-height: 3rem; font-size: 1.15rem;
}
.st-key-cl_student [data-baseweb="select"] > div { min-height: 3rem; font-size: 1.15rem; }
.st-key-cl_student label p, .st-key-cl_student [data-testid="stMarkdownContainer"] p { font-size: 1.15rem; }
.st-key-cl_controls button { min-height: 3rem; font-size: 1.2rem; }
.st-key-cl_live [data-testid="stMetricValue"], .st-key-cl_live [data-testid="stMetricValue"] * {
  font-size: 4.5rem !important; line-height: 1.1 !important; font-weight: 700;
}
.st-key-cl_live [data-testid="stMetricLabel"] p { font-size: 1.4rem; }
.st-key-cl_live [data-testid="stMarkdownContainer"] p { font-size: 1.35rem; }
.st-key-cl_prompt [data-testid="stMarkdownContainer"] p { font-size: 1.6rem; font-weight: 600; }
.st-key-cl_code [data-testid="stMarkdownContainer"] p {
  font-size: clamp(2rem, 2.6vw, 3.2rem); font-weight: 700; letter-spacing: 0.12em; white-space: nowrap;
}
</style>
"""


@st.cache_resource
def get_store() -> Store:
    """One store (one engine and connection pool) per server process."""
    return Store()


def _params() -> tuple[str | None, str | None]:
    return st.query_params.get("room"), st.query_params.get("key")


def _shown(text: str, limit: int = 24) -> str:
    """User-typed text in a message: cut short and escaped."""
    text = str(text)
    return md_escape(text if len(text) <= limit else text[:limit] + "…")


def join_link(code: str) -> str:
    """The students' link: NDCG_PUBLIC_URL (the address students reach) or the lecturer's own."""
    base = (os.environ.get("NDCG_PUBLIC_URL") or st.context.url or "").rstrip("/")
    base = base.removesuffix("/class")  # the lecturer's own address ends in this page's path
    lang = "".join(f"&lang={quote(v)}" for v in ui_params().values())  # students see the room's language
    return f"{base}/class?room={quote(code)}{lang}"


def _guarded(callback):
    """A widget callback that turns a database failure into the page's message, not a traceback."""

    @functools.wraps(callback)
    def run(*args):
        try:
            callback(*args)
        except SQLAlchemyError:
            st.session_state.cl_db_error = True

    return run


# ------------------------------------------------------------------ landing


@_guarded
def _create_room() -> None:
    code, key = get_store().create_room()
    st.query_params.from_dict({"room": code, "key": key, **ui_params()})


def _join_code() -> None:
    typed = st.session_state.get("cl_code_input") or ""
    code = clean_code(typed)
    if code is None:
        st.session_state.cl_landing_error = typed
        return
    st.session_state.cl_landing_error = None
    st.query_params.from_dict({"room": code, **ui_params()})


def landing() -> None:
    with st.container(key="cl_landing"):
        st.markdown(
            _(
                "Ask the whole room a question: students answer on their phones and the answers show "
                "up live on your screen."
            )
        )
        join, teach = st.columns(2, gap="large")  # students are most of the visitors: Join first
        with teach:
            st.markdown("#### " + _("Teach"))
            st.button(
                _("Create a room"), key="cl_create", type="primary", on_click=_create_room, width="stretch"
            )
            st.caption(
                _(
                    "Your link then holds the room's lecturer key: keep it to yourself, "
                    "share only the join link."
                )
            )
        with join:
            st.markdown("#### " + _("Join"))
            with st.form("cl_join_code", border=False):
                st.text_input(_("Room code"), key="cl_code_input", max_chars=12, placeholder="ABC234")
                st.form_submit_button(_("Join room"), on_click=_join_code, width="stretch")
            bad = st.session_state.get("cl_landing_error")
            if bad is not None:
                st.error(
                    _("'{code}' is not a room code: a code has 6 letters and digits.").format(
                        code=_shown(bad)
                    )
                )


# ------------------------------------------------------------------ lecturer


@_guarded
def _ask(code: str, key: str) -> None:
    ss = st.session_state
    try:
        if (ss.get("cl_source") or "practice") == "practice":
            definition = practice_definition(
                secrets.randbelow(10**6), 1, ss.get("cl_kind") or "metric", ss.get("cl_level") or 1
            )
        else:
            definition = _playground_definition(ss.get("cl_ask") or "ndcg")
        q = get_store().ask(code, key, definition)
    except BadQuestion as err:
        ss.cl_ask_error = str(err)
        return
    ss.cl_ask_error = None
    ss[f"cl_view_{code}"] = q.number


def _playground_list() -> tuple[list[str], list[float], object]:
    ss = st.session_state
    items = ss.get("pg_items") or DEFAULT_STATE.items
    spec = ss.get("pg_spec") or DEFAULT_STATE.spec
    return [i.label for i in items], [i.grade for i in items], spec


def _playground_definition(ask: str) -> dict:
    labels, grades, spec = _playground_list()
    formula = formula_of_spec(spec)
    if formula is None:
        raise BadQuestion(
            "the playground's formula uses a gain table or discount that class questions cannot state"
        )
    return playground_definition(labels, grades, formula, ask)


@_guarded
def _status(code: str, key: str, number: int, status: str) -> None:
    get_store().set_status(code, key, number, status)


@_guarded
def _show(code: str, key: str, number: int) -> None:
    get_store().show(code, key, number)


def ask_panel(code: str, key: str) -> None:
    ss = st.session_state
    with st.expander(_("Ask a new question"), expanded=not ss.get(f"cl_view_{code}")):
        ss.setdefault("cl_source", "practice")
        st.segmented_control(
            _("Question from"),
            ["practice", "playground"],
            key="cl_source",
            format_func=lambda s: _("A Practice exercise") if s == "practice" else _("The playground's list"),
        )
        if ss.get("cl_source") == "playground":
            labels, grades, spec = _playground_list()
            st.selectbox(_("Ask for"), list(ASKS), key="cl_ask", format_func=lambda a: _(ASKS[a]))
            st.caption(
                _("The list: {items}. Formula: {formula}.").format(
                    items=md_escape(
                        ", ".join(f"{lab} ({g:g})" for lab, g in zip(labels, grades, strict=True))
                    ),
                    formula=md_escape(spec.name),
                )
            )
        else:
            c1, c2 = st.columns(2)
            c1.selectbox(_("Kind"), list(KINDS), key="cl_kind", format_func=lambda k: md_escape(_(KINDS[k])))
            c2.segmented_control(
                _("Level"),
                list(LEVELS),
                key="cl_level",
                default=1,
                format_func=lambda n: _("Level {n}").format(n=n),
            )
        st.button(
            _("Ask this question"), key="cl_ask_button", type="primary", on_click=_ask, args=(code, key)
        )
        if ss.get("cl_ask_error"):
            st.error(
                _("This list cannot be asked: {reason}. Change it on the Playground.").format(
                    reason=md_escape(error_text(ss.cl_ask_error))
                )
            )


def show_exercise(e: Exercise) -> None:
    """The question's data as Markdown tables of escaped text: drawn at once, readable on a phone."""
    with st.container(key="cl_prompt"):
        st.markdown(md_escape(e.prompt))
    if e.kind in {"cell", "metric", "drag"}:
        st.markdown(_("**Formula:** {formula}").format(formula=md_escape(e.formula.describe())))
    with st.container(key="cl_data"):
        if e.kind == "winner":
            st.markdown(_("**First formula:** {formula}").format(formula=md_escape(e.formula.describe())))
            st.markdown(
                _("**Second formula:** {formula}").format(formula=md_escape(e.alt_formula.describe()))
            )
            a, b = st.columns(2)
            for column, title, labels, grades in (
                (a, "A", e.labels, e.grades),
                (b, "B", e.other_labels, e.other),
            ):
                column.markdown(
                    _("**Ranking {name}**").format(name=title) + "\n\n" + _list_table(labels, grades)
                )
            return
        if e.scores is not None:
            st.caption(_("The scores decide the order, highest first; equal scores are a tie."))
        st.markdown(_list_table(e.labels, e.grades, e.scores))
        if e.ideal is not None and e.ideal_labels is not None:
            n = len(e.grades)
            st.markdown(
                _("**Judged but not retrieved**")
                + "\n\n"
                + _list_table(e.ideal_labels[n:], e.ideal[n:], numbered=False)
            )


def _list_table(labels, grades, scores=None, numbered: bool = True) -> str:
    """A Markdown table of a list; every cell escaped (labels may be user text)."""
    head = [_("Item"), _("Grade")] + ([_("Score")] if scores is not None else [])
    if numbered:
        head.insert(0, _("Position"))
    rows = []
    for i, (label, grade) in enumerate(zip(labels, grades, strict=True), start=1):
        cells = [md_escape(label), f"{grade:g}"] + ([f"{scores[i - 1]:g}"] if scores is not None else [])
        if numbered:
            cells.insert(0, str(i))
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head), *rows])


def lecturer(code: str, key: str) -> None:
    ss = st.session_state
    store = get_store()
    history = store.questions(code, key)
    left, right = st.columns([0.62, 0.38], gap="large")
    with left:
        ask_panel(code, key)
    if not history:
        with left:
            st.info(_("No question yet: pick one above and ask it."))
        with right:
            join_panel(code)
        return
    numbers = [q.number for q in history]
    view_key = f"cl_view_{code}"
    if ss.get(view_key) not in numbers:
        ss[view_key] = numbers[-1]
    prompts = {q.number: exercise(q.definition).prompt for q in history}  # in the reader's language
    with left:
        st.selectbox(
            _("Question"),
            numbers,
            key=view_key,
            format_func=lambda n: _("Question {n}: {prompt}").format(n=n, prompt=prompts[n][:90]),
            help=_("Go back to a past question: its answers stay."),
        )
    with right:
        st.download_button(
            _("Download the room's answers (CSV)"),
            data=lambda: store.export_csv(code, key),
            file_name=f"class-{code}.csv",
            mime="text/csv",
            key="cl_csv",
            on_click="ignore",
            width="stretch",
        )
    number = ss[view_key]
    info = next(q for q in history if q.number == number)
    e = exercise(info.definition)
    left, right = st.columns([0.62, 0.38], gap="large")
    with left, st.container(key="cl_question", border=True):
        question_panel(code, key, info, e, store.room(code).current)
    with right:
        join_panel(code)
    live(code, key, number)


def join_panel(code: str) -> None:
    link = join_link(code)
    text, picture = st.columns([0.45, 0.55])
    with text:
        st.markdown(_("**Join at**"))
        with st.container(key="cl_code"):
            st.markdown(md_escape(code))
        st.caption(_("Students scan the code or open the link, then type their name."))
    with picture, st.container(key="cl_qr"):
        svg = segno.make(link, error="m").svg_inline(scale=10, border=2, dark="#0f172a")
        st.image(svg, width=QR_WIDTH)
    st.code(link, language=None)


@st.fragment(run_every=LIVE_EVERY)
def live(code: str, key: str, number: int) -> None:
    """The lecturer's live view of one question: polls the store's summary."""
    store = get_store()
    try:
        info, summary = store.summary(code, key, number)
    except (RoomExpired, RoomNotFound):
        st.rerun()  # the page then says the room has expired
    e = exercise(info.definition)
    chart, side = st.columns([0.62, 0.38], gap="large")
    with chart, st.container(key="cl_chart"):
        if summary.answered:
            figure = answers_figure(e, summary, info.status == "revealed")
            st.plotly_chart(figure, key="cl_histogram", theme=None)
        else:
            st.info(_("No answers yet."))
    with side, st.container(key="cl_live"):
        c1, c2 = st.columns(2)
        with c1, st.container(key="cl_answered"):
            st.metric(_("Answered"), summary.answered)
        with c2, st.container(key="cl_correct"):
            share = f"{summary.share(summary.correct):.0%}" if summary.answered else "–"
            st.metric(_("Right"), share if info.status == "revealed" else "?")
        if info.status == "revealed":
            with st.container(key="cl_correct_answer"):
                st.success(_("The answer: {answer}").format(answer=md_escape(correct_answer(e))))
            mistakes_panel(summary)


def question_panel(
    code: str, key: str, info: QuestionInfo, e: Exercise, current: QuestionInfo | None
) -> None:
    number = info.number
    st.markdown(_("**Question {n}** · {status}").format(n=number, status=_(STATUS_TEXT[info.status])))
    show_exercise(e)
    with st.container(key="cl_controls", horizontal=True):
        st.button(
            _("Open for answers"),
            key="cl_open",
            type="primary" if info.status == "draft" else "secondary",
            on_click=_status,
            args=(code, key, number, "open"),
            disabled=info.status == "open",
        )
        st.button(
            _("Close"),
            key="cl_close",
            on_click=_status,
            args=(code, key, number, "closed"),
            disabled=info.status != "open",
        )
        st.button(
            _("Reveal the answer"),
            key="cl_reveal",
            type="primary" if info.status == "closed" else "secondary",
            on_click=_status,
            args=(code, key, number, "revealed"),
            disabled=info.status == "revealed",
        )
        if current is None or current.number != number:
            st.button(_("Show to students"), key="cl_show", on_click=_show, args=(code, key, number))


def answers_figure(e: Exercise, summary: Summary, revealed: bool) -> go.Figure:
    title = ngettext("{n} answer", "{n} answers", summary.answered).format(n=summary.answered)
    if e.answer_type == "choice":
        labels = [chr(ord("A") + i) if e.kind == "winner" else str(i + 1) for i in range(len(e.choices))]
        colours = [
            "#16a34a" if revealed and i == e.answer_choice else "#6366f1" for i in range(len(e.choices))
        ]
        fig = go.Figure(
            go.Bar(x=labels, y=list(summary.choices), marker_color=colours, text=list(summary.choices))
        )
        fig.update_layout(xaxis_title=_("Choice"), yaxis_title=_("Students"))
    else:
        axis = _("NDCG of the order") if e.answer_type == "order" else _("Answer")
        values = list(summary.values)
        marks = values + ([e.exact] if e.answer_type == "number" else [])
        low, high = min(marks), max(marks)
        span = max(high - low, 0.05)  # bins fine enough that close answers (0.93, 0.95) stay apart
        size = span / 25
        fig = go.Figure(
            go.Histogram(
                x=values,
                marker_color="#6366f1",
                xbins={"start": low - size / 2, "end": high + size, "size": size},
            )
        )
        fig.update_layout(xaxis_title=axis, yaxis_title=_("Students"), bargap=0.08)
        fig.update_xaxes(range=[low - span * 0.1, high + span * 0.1])
        if revealed and e.answer_type == "number":
            fig.add_vline(x=e.exact, line_color="#16a34a", line_width=4)
    fig.update_layout(
        title=title,
        font={"size": 22, "color": "#0f172a"},
        plot_bgcolor="#f8fafc",
        height=330,
        margin={"l": 60, "r": 20, "t": 60, "b": 60},
        yaxis={"dtick": 1},
    )
    return fig


def mistakes_panel(summary: Summary) -> None:
    if not summary.mistakes:
        return
    with st.container(key="cl_mistakes"):
        st.markdown(_("**Mistakes found in the answers**"))
        for mistake, count in summary.mistakes.items():
            known = mistake in MISTAKES
            what = _(MISTAKES[mistake]) if known else _("a wrong value no common mistake explains")
            st.markdown(
                _("{share} · {what}").format(share=f"{summary.share(count):.0%}", what=md_escape(what))
            )


# ------------------------------------------------------------------ students


TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


def _token() -> str:
    """This student's id: kept in the URL (``me=``) so a reloaded phone tab is the same student."""
    ss = st.session_state
    if "cl_token" not in ss:
        given = st.query_params.get("me") or ""
        ss.cl_token = given if TOKEN.match(given) else secrets.token_urlsafe(16)
    return ss.cl_token


@_guarded
def _join(code: str) -> None:
    ss = st.session_state
    try:
        get_store().join(code, _token(), ss.get("cl_name") or "")
    except BadName as err:
        ss.cl_name_error = err.reason
        return
    ss.cl_name_error = None
    st.query_params["me"] = _token()


@_guarded
def _submit(code: str, number: int, e: Exercise) -> None:
    ss = st.session_state
    if e.answer_type == "number":
        response = ss.get(f"cl_answer_{number}") or ""
    elif e.answer_type == "choice":
        picked = ss.get(f"cl_choice_{number}")
        response = e.choices.index(picked) if picked in e.choices else None
    else:
        response = list(ss.get(f"cl_order_{number}") or [])
    try:
        get_store().submit(code, _token(), number, response)
    except BadAnswer as err:
        ss.cl_answer_error = (number, str(err))
        return
    except (QuestionNotOpen, UnknownQuestion):
        ss.cl_answer_error = (number, _("This question is closed: your answer was not taken."))
        return
    except NotJoined:
        ss.cl_answer_error = (number, _("Join the room with your name first."))
        return
    ss.cl_answer_error = None


def name_form(code: str) -> None:
    ss = st.session_state
    st.markdown(_("Room **{code}**: type the name your lecturer will see.").format(code=md_escape(code)))
    with st.form("cl_join_form", border=False):
        st.text_input(_("Your name"), key="cl_name")
        st.form_submit_button(_("Join"), type="primary", on_click=_join, args=(code,), width="stretch")
    problem = ss.get("cl_name_error")
    if problem:
        with st.container(key="cl_name_error"):
            st.error(_(NAME_PROBLEMS[problem]).format(n=MAX_NAME))


def student(code: str) -> None:
    with st.container(key="cl_student"):
        name = get_store().student_name(code, _token())  # the database knows who joined
        if name is None:
            name_form(code)
            return
        st.caption(_("Room {code} · you are {name}").format(code=md_escape(code), name=md_escape(name)))
        current = get_store().room(code).current
        watch(code, None if current is None else (current.number, current.status))
        if current is None or current.status == "draft":
            st.info(_("Wait for the lecturer's question: it appears here by itself."))
            return
        student_question(code, current)


@st.fragment(run_every=STUDENT_EVERY)
def watch(code: str, drawn: tuple[int, str] | None) -> None:
    """Rerun the page when the lecturer opens, closes or reveals a question."""
    try:
        current = get_store().room(code).current
    except (RoomNotFound, RoomExpired):
        st.rerun()
    now = None if current is None else (current.number, current.status)
    if now != drawn:
        st.rerun()


def student_question(code: str, q: QuestionInfo) -> None:
    ss = st.session_state
    e = exercise(q.definition)
    mine = get_store().my_answer(code, _token(), q.number)
    with st.container(key="cl_student_question", border=True):
        st.markdown(_("**Question {n}**").format(n=q.number))
        show_exercise(e)
        if q.status == "open":
            answer_area(code, q.number, e)
            error = ss.get("cl_answer_error")
            if error and error[0] == q.number:
                with st.container(key="cl_answer_error"):
                    st.error(md_escape(error_text(error[1])))
            elif mine is not None:
                with st.container(key="cl_saved"):
                    st.success(
                        _(
                            "Saved: {answer}. You can change it until the lecturer closes the question."
                        ).format(answer=md_escape(_answer_text(e, mine.response)))
                    )
            return
        if mine is None:
            st.info(_("This question is closed; you did not answer it."))
        else:
            st.markdown(_("Your answer: {answer}").format(answer=md_escape(_answer_text(e, mine.response))))
        if q.status == "closed":
            st.info(_("Answers are closed. Your feedback appears when the lecturer reveals the answer."))
            return
        with st.container(key="cl_feedback"):
            if mine is not None:
                fb = feedback(e, mine.response)
                (st.success if fb.correct else st.error)(md_escape(fb.message))
                rows = focus_rows(e, fb)
                if not fb.correct and len(rows):
                    st.dataframe(rows.astype(str), hide_index=True)
            st.markdown(_("The answer: {answer}").format(answer=md_escape(correct_answer(e))))


def _answer_text(e: Exercise, response: str) -> str:
    value = json.loads(response)
    if e.answer_type == "choice" and isinstance(value, int) and 0 <= value < len(e.choices):
        return e.choices[value]
    return ", ".join(value) if isinstance(value, list) else str(value)


def answer_area(code: str, number: int, e: Exercise) -> None:
    with st.form(f"cl_form_{number}", border=False):
        if e.answer_type == "number":
            st.text_input(
                _("Your answer"),
                key=f"cl_answer_{number}",
                placeholder=_("e.g. 0.82 or 3 + 2/1.585"),
                help=_("A number (at least 2 decimals unless it is whole) or arithmetic with + - * / ^ ( )."),
            )
        elif e.answer_type == "choice":
            st.radio(
                _("Your answer"),
                list(e.choices),
                index=None,
                key=f"cl_choice_{number}",
                format_func=md_escape,
            )
        else:
            st.multiselect(
                _("Tap the items in your order, first to last"),
                list(e.labels),
                key=f"cl_order_{number}",
                format_func=lambda label: _("{label} (grade {grade})").format(
                    label=md_escape(label), grade=f"{dict(zip(e.labels, e.grades, strict=True))[label]:g}"
                ),
            )
        st.form_submit_button(
            _("Send answer"), type="primary", on_click=_submit, args=(code, number, e), width="stretch"
        )


# ------------------------------------------------------------------ page


def render() -> None:
    st.html(CSS)
    st.markdown("### " + _("Class"))
    try:
        if st.session_state.pop("cl_db_error", False):
            raise SQLAlchemyError("a callback could not reach the database")
        page()
    except SQLAlchemyError:
        st.error(
            _(
                "The class database cannot be reached just now: try again in a moment. "
                "(Whoever runs the app: check NDCG_DATABASE_URL or NDCG_DATA_DIR.)"
            )
        )


def page() -> None:
    code_param, key = _params()
    if not code_param:
        landing()
        return
    store = get_store()
    try:
        code = store.room(code_param).code
    except RoomNotFound:
        st.error(
            _(
                "There is no room with the code '{code}'. Check the code, or ask your lecturer for the link."
            ).format(code=_shown(code_param))
        )
        landing()
        return
    except RoomExpired:
        st.error(
            _(
                "Room {code} has expired: rooms last {hours:g} hours. Ask your lecturer for a new room."
            ).format(code=_shown(code_param), hours=store.lifetime.total_seconds() / 3600)
        )
        return
    if key is not None:
        if store.is_lecturer(code, key):
            lecturer(code, key)
            return
        st.warning(_("This link's lecturer key is not the room's: you see the student page."))
    student(code)


render()

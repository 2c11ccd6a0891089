"""The lesson drives a room: presenter mode sends each step's question to a Class room's phones.

``/learn?present=1&room=CODE`` in a browser that runs room CODE (the Class page's cookie), or "Start
a room" in presenter mode, links the lesson to the room in this browser; an older link's
``key=SECRET`` is checked, kept in the session and a cookie as the Class page keeps it, and taken
off the address bar. On a step that asks the room, the step's question
(:func:`ndcg_core.classroom.lesson_questions.lesson_definition`) is asked and opened once and made
the room's current question; the presenter sees "Answered N" live, and once the lecturer reveals,
the room's results: the share right, the answers' histogram and the mistakes found. Until then the
projector shows no answer's value (the histogram would show where the answers gather).

Learn imports this module only when a lesson is linked to a room (it loads SQLAlchemy).
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

import streamlit as st

from ndcg_core.classroom import ClassroomError, QuestionInfo, Summary, exercise
from ndcg_core.classroom.lesson_questions import lesson_definition
from ndcg_core.errors import Message, NDCGError, error_text
from ndcg_core.i18n import _
from ndcg_core.teaching.chart_text import chart_summary
from ndcg_core.teaching.lesson import LessonStep
from ndcg_core.teaching.playground import PlaygroundState
from ndcg_core.teaching.practice import MISTAKES
from views.pages import PAGES
from views.ui import keys
from views.ui.markup import md_escape
from views.ui.present import screen_reader_numbers

from .bars import answers_figure
from .common import (
    LIVE_EVERY,
    STORE_FAILURES,
    failure_message,
    get_store,
    join_base,
    join_link,
    lecturer_key,
    live_part,
    qr_html,
    remember_key,
)

#: The answers' histogram beside the projector's table, in px (Streamlit sizes charts in px): under
#: the step's numbers and formula, above the buttons, on a 1280×720 screen.
RESULTS_CHART_PX = 115


@dataclass(frozen=True)
class Room:
    """The room this presenter runs: its code and lecturer key."""

    code: str
    key: str


def linked() -> Room | None:
    """The room the lesson drives in this browser, after taking a key a link brought; None when the
    lesson drives none (a link's room this browser cannot run is named in :func:`room_notes`)."""
    ss = st.session_state
    code = ss.get(keys.LEARN_ROOM)
    given = ss.pop(keys.LEARN_GIVEN_KEY, None)
    if not code:
        return None
    try:
        store = get_store()
        if given is not None and given[0] == code and store.is_lecturer(code, given[1]):
            remember_key(code, given[1])
        key = lecturer_key(code)
        if key is not None:
            store.room(code)  # expired: the room is no longer there to drive
    except ClassroomError:
        key = None
    except STORE_FAILURES as err:
        ss[keys.LEARN_ROOM_PROBLEM] = failure_message(err)
        return None
    if key is None:
        # One message for a wrong key, an unknown and an expired room: a link is no oracle for codes.
        ss[keys.LEARN_ROOM_REFUSED] = code
        ss[keys.LEARN_ROOM] = None
        return None
    return Room(code, key)


def room_notes() -> None:
    """What went wrong with the room a link named, or with sending a question: shown as text."""
    ss = st.session_state
    refused = ss.pop(keys.LEARN_ROOM_REFUSED, None)
    if refused:
        st.warning(
            _(
                "This browser does not run room {code}: the link's key is not the room's, or the room has "
                "expired. The lesson goes on without a room."
            ).format(code=md_escape(str(refused)[:24]))
        )
    problem = ss.pop(keys.LEARN_ROOM_PROBLEM, None)
    if problem:  # the store's failure_message is the page's Markdown already; a coded message is not
        shown = md_escape(error_text(problem)) if isinstance(problem, Message) else problem
        st.warning(shown, icon=":material/group_off:")


def start_room() -> None:
    """ "Start a room": a new Class room, run from this browser, that the lesson now drives."""
    ss = st.session_state
    try:
        code, key = get_store().create_room()
    except STORE_FAILURES as err:
        ss[keys.LEARN_ROOM_PROBLEM] = failure_message(err)
        return
    remember_key(code, key)
    ss[keys.LEARN_ROOM] = code


def leave_room() -> None:
    """The lesson stops driving its room (the room itself stays, with its answers)."""
    st.session_state[keys.LEARN_ROOM] = None


def _definition(step: LessonStep, state: PlaygroundState) -> dict | None:
    try:
        return lesson_definition(step.number, state)
    except NDCGError as err:
        st.session_state[keys.LEARN_ROOM_PROBLEM] = Message("class_lesson_not_sent", problem=err.message)
        return None


def question_number(room: Room, step: LessonStep, state: PlaygroundState, revealed: bool) -> int | None:
    """The room's question for this step, asked and opened the first time the step is shown, and
    made the room's current question: its number, or None when the step asks nothing or cannot be
    sent. A step already revealed keeps its question (changing k afterwards asks nothing new)."""
    if step.question is None:
        return None
    try:
        return _question_number(room, step, state, revealed)
    except ClassroomError:  # the room expired during the lecture
        st.session_state[keys.LEARN_ROOM_REFUSED] = room.code
    except STORE_FAILURES as err:  # the database cannot be reached: the lesson goes on without it
        st.session_state[keys.LEARN_ROOM_PROBLEM] = failure_message(err)
    return None


def _question_number(room: Room, step: LessonStep, state: PlaygroundState, revealed: bool) -> int | None:
    ss = st.session_state
    asked = ss.setdefault(keys.LEARN_ROOM_ASKED, {})
    kept = asked.get((room.code, step.number))
    if revealed and kept is None:  # revealed before the room was linked: too late to ask it
        return None
    if kept is not None and revealed:
        number = kept[1]
    else:
        definition = _definition(step, state)
        if definition is None:
            return None
        text = json.dumps(definition, sort_keys=True)
        if kept is not None and kept[0] == text:
            number = kept[1]
        else:
            number = _ask(room, definition, text)
            asked[(room.code, step.number)] = (text, number)
    if ss.get(keys.LEARN_ROOM_CURRENT) != (room.code, number):
        get_store().show(room.code, room.key, number)
        ss[keys.LEARN_ROOM_CURRENT] = (room.code, number)
    return number


def _ask(room: Room, definition: dict, text: str) -> int:
    """The number of the room's question with this definition: one asked before (a reload, another
    tab), else a new one, opened for answers."""
    store = get_store()
    for info in store.questions(room.code, room.key):
        if json.dumps(info.definition, sort_keys=True) == text:
            return info.number
    number = store.ask(room.code, room.key, definition).number
    store.set_status(room.code, room.key, number, "open")
    return number


def reveal(room: Room, number: int) -> None:
    """The lecturer revealed the step's answer: the room's question too (answers close, phones get
    their feedback). The projector reveals even when the room cannot be reached."""
    try:
        get_store().set_status(room.code, room.key, number, "revealed")
    except ClassroomError:
        st.session_state[keys.LEARN_ROOM_REFUSED] = room.code
    except STORE_FAILURES as err:
        st.session_state[keys.LEARN_ROOM_PROBLEM] = failure_message(err)


def join_panel(room: Room) -> None:
    """The room's code, QR code and join address, for the steps that ask nothing (step 1)."""
    base = join_base()
    address = join_link(room.code, base)
    with st.container(key="learn_room_join"):
        st.markdown(_("**Join room {code}** on your phone:").format(code=md_escape(room.code)))
        st.html(f'<p class="learn-room-code">{html.escape(room.code)}</p>')  # read from the back row
        st.html(qr_html(address))
        st.code(address, language=None, wrap_lines=True)
        if not base.reachable:
            st.warning(
                _("Phones cannot open this localhost link: set NDCG_PUBLIC_URL (see the Class page)."),
                icon=":material/wifi_off:",
            )


@dataclass(frozen=True)
class Results:
    """How the room answered the step's question, drawn in two places on the projector: the
    numbers in the step's row of numbers, the histogram and the mistakes found under its formula.
    Before the reveal only "Answered N", live; the rest would show where the answers gather."""

    room: Room
    number: int
    revealed: bool
    info: QuestionInfo | None = None
    summary: Summary | None = None

    @classmethod
    def of(cls, room: Room, number: int, revealed: bool) -> Results:
        """The results of question ``number``, read once when revealed (answers are closed then)."""
        if not revealed:
            return cls(room, number, False)
        try:
            info, summary = get_store().summary(room.code, room.key, number)
        except (ClassroomError, *STORE_FAILURES):
            return cls(room, number, False)
        return cls(room, number, info.status == "revealed", info, summary)

    def numbers(self) -> None:
        """ "Answered N" (live until the reveal) and, once revealed, the share right: one line."""
        if self.summary is None:
            _answered(self.room, self.number)
            return
        answered = self.summary.answered
        share = f"{self.summary.share(self.summary.correct):.0%}" if answered else "–"
        _line(answered, share)

    def details(self) -> None:
        """The answers' histogram (bars per choice) and the mistakes found, once revealed."""
        if self.summary is None or not self.summary.answered:
            return
        figure = answers_figure(exercise(self.info.definition), self.summary, revealed=True)
        figure.update_layout(
            title=None, height=RESULTS_CHART_PX, font={"size": 15}, margin={"l": 50, "r": 10, "t": 6, "b": 46}
        )
        st.plotly_chart(
            figure,
            key="learn_room_histogram",
            height=RESULTS_CHART_PX,
            alt=chart_summary(figure),
            theme=None,
            config={"displayModeBar": False},
        )
        screen_reader_numbers(figure)
        for mistake, count in list(self.summary.mistakes.items())[:2]:  # the room has space for two
            what = (
                _(MISTAKES[mistake]) if mistake in MISTAKES else _("a wrong value no common mistake explains")
            )
            line = _("{share} of the answers: {what}").format(
                share=f"{self.summary.share(count):.0%}", what=what
            )
            st.html(f'<p class="learn-room-mistake">{html.escape(line)}</p>')


def _line(answered: int | str, share: str | None = None) -> None:
    """The room's numbers in one line of large type (the step's own numbers take the row above)."""
    parts = [html.escape(_("Answered {n}")).format(n=f"<b>{answered}</b>")]
    if share is not None:
        parts.append(html.escape(_("Right {share}")).format(share=f"<b>{html.escape(share)}</b>"))
    st.html(f'<p class="learn-room-line">{" · ".join(parts)}</p>')


@live_part(run_every=LIVE_EVERY)
def _answered(room: Room, number: int) -> None:
    """How many students answered so far, polled ("–" for a question the room no longer has)."""
    try:
        _info, summary = get_store().summary(room.code, room.key, number)
    except ClassroomError:
        _line("–")
        return
    _line(summary.answered)


def room_menu(room: Room | None) -> None:
    """Presenter mode's "Room" menu: start a room, or the one the lesson drives (its code, its
    results screen, and stopping)."""
    with st.popover(_("Room"), icon=":material/groups:", key="learn_room_menu"):
        if room is None:
            st.markdown(
                _(
                    "Start a Class room: each step's question goes to the students' phones, and their "
                    "answers show beside the table."
                )
            )
            st.button(_("Start a room"), key="learn_room_start", on_click=start_room, type="primary")
            return
        st.markdown(_("The lesson drives room **{code}**.").format(code=md_escape(room.code)))
        st.page_link(
            PAGES["class"].script,
            label=_("The room's results screen"),
            query_params={"room": room.code, "present": "1"},
            icon=":material/present_to_all:",
        )
        st.page_link(  # the lecturer's page of the room, with the report of every question asked
            PAGES["class"].script,
            label=_("The room's page and the lesson's report"),
            query_params={"room": room.code},
            icon=":material/summarize:",
        )
        st.button(_("Stop sending questions to the room"), key="learn_room_leave", on_click=leave_room)

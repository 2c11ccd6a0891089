"""The lecturer's view of a room: ask a question, watch the answers arrive, reveal them."""

from __future__ import annotations

import math
from dataclasses import replace
from urllib.parse import urlsplit

import streamlit as st

from ndcg_core.classroom import (
    JoinBase,
    QuestionInfo,
    Summary,
    correct_answer,
    exercise,
)
from ndcg_core.classroom.onetime import MINUTES
from ndcg_core.i18n import _
from ndcg_core.teaching.practice import MISTAKES, Exercise
from views.ui import keys
from views.ui.markup import md_escape

from .ask import ask_panel
from .bars import show_bars
from .common import (
    LIVE_EVERY,
    QR_WIDTH,
    STATUS_TEXT,
    countdown,
    focus_next,
    get_store,
    guarded,
    join_base,
    join_link,
    live_part,
    qr_html,
    refusals_note,
    set_link,
    show_exercise,
)
from .common import link as current_link
from .report import report_panel

#: Where the keyboard focus goes after a status button, which its own press disables: the next one.
NEXT_CONTROL = {
    "open": ".st-key-cl_close button",
    "closed": ".st-key-cl_reveal button",
    "revealed": ".st-key-cl_ask_panel summary",  # a new question
}


@guarded
def _status(code: str, key: str, number: int, status: str) -> None:
    get_store().set_status(code, key, number, status)
    focus_next(NEXT_CONTROL[status])


@guarded
def _show(code: str, key: str, number: int) -> None:
    get_store().show(code, key, number)


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
            join_panel(code, key)
        return
    numbers = [q.number for q in history]
    view_key = keys.cl_view(code)
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
        join_panel(code, key)
    live(code, key, number, info.status)
    report_panel(code, key)  # after the lesson: every question asked, to read and to hand out


def join_panel(code: str, key: str) -> None:
    base = join_base()
    link = join_link(code, base)
    # The code on a line of its own, as wide as the side column: beside the QR code it ran into it
    # at 1280x720.
    st.markdown(_("**Join at**"))
    with st.container(key="cl_code"):
        st.markdown(md_escape(code))
    text, picture = st.columns([0.45, 0.55])
    with text:
        st.caption(_("Students scan the code or open the link, then type their name."))
    with picture, st.container(key="cl_qr"):
        st.html(qr_html(link, QR_WIDTH))
    with st.container(key="cl_join_link"):  # wraps instead of scrolling (views/ui/styles.py: CLASS)
        st.code(link, language=None, wrap_lines=True)
    address_note(base)
    refusals_note()  # while a flood of wrong codes is refused, one sentence
    st.button(
        _("Projector screen"),
        key="cl_present",
        icon=":material/present_to_all:",
        on_click=_present,
        help=_(
            "The code, the QR code and the answers, full screen for the projector, with no names and "
            "no lecturer key on it."
        ),
    )
    with st.expander(_("Run this room from another device")):
        # Folded: the lecturer's screen may be on the projector. No link carries the lecturer key:
        # the link made here carries a code that works once, for MINUTES minutes (Store.handoff),
        # and is shown while it waits to be used (Store.handoff_waiting).
        st.caption(
            _(
                "This browser remembers that you run this room until it expires. To run it from "
                "another device too, make a one-time link and open it there within {minutes} "
                "minutes: it works once, and whoever opens it first can run the room, so keep it "
                "to yourself."
            ).format(minutes=MINUTES)
        )
        made = st.session_state.get(keys.CL_ONE_TIME_MADE)
        if made is not None and made[0] == code and get_store().handoff_waiting(code, key, made[1]):
            with st.container(key="cl_lecturer_link"):
                st.code(join_link(code, base, one_time=made[1]), language=None, wrap_lines=True)
        elif made is not None and made[0] == code:  # used by now, or older than MINUTES minutes
            with st.container(key="cl_lecturer_link_spent"):
                st.caption(
                    _(
                        "The last one-time link was used, or is older than {minutes} minutes: it no "
                        "longer opens this room. Make a new one for another device."
                    ).format(minutes=MINUTES)
                )
        st.button(
            _("Make a one-time link"),
            key="cl_make_one_time",
            icon=":material/devices:",
            on_click=_make_one_time,
            args=(code, key),
        )


@guarded
def _make_one_time(code: str, key: str) -> None:
    one_time, _expires = get_store().handoff(code, key)
    st.session_state[keys.CL_ONE_TIME_MADE] = (code, one_time)


def _present() -> None:
    set_link(replace(current_link(), present=True))


def address_note(base: JoinBase) -> None:
    """Which address phones use, when it is not the one in the lecturer's address bar; a warning when
    the lecturer's page is on localhost and the machine has no network address phones could reach."""
    if base.source == "network":
        host = urlsplit(base.url).netloc
        st.caption(
            _(
                "This page is open on localhost, which only this computer reaches: phones on the "
                "same network (Wi-Fi) use this computer's network address, {address}."
            ).format(address=md_escape(host))
        )
        if base.others:
            others = ", ".join(md_escape(urlsplit(o).netloc) for o in base.others)
            st.caption(_("This computer's other addresses: {addresses}.").format(addresses=others))
    elif base.source == "bound":
        st.warning(
            _(
                "Phones cannot open this link: the app listens on this computer only "
                "(--server.address {address}). Start it without that option, or set NDCG_PUBLIC_URL "
                "to the address students reach."
            ).format(address=md_escape(str(st.get_option("server.address")))),
            icon=":material/wifi_off:",
        )
    elif base.source == "loopback":
        st.warning(
            _(
                "Phones cannot open this link: this page is open on localhost and this computer has "
                "no network address. Connect it to the students' network and reload, or start the "
                "app with NDCG_PUBLIC_URL set to the address students reach, for example "
                "`NDCG_PUBLIC_URL=https://ndcg.example.org make run`."
            ),
            icon=":material/wifi_off:",
        )


@live_part(run_every=LIVE_EVERY)
def live(code: str, key: str, number: int, drawn: str | None = None) -> None:
    """The lecturer's live view of one question: polls the store's summary. When the question's
    status is no longer the one the page drew (``drawn``: its countdown closed it), the whole page
    is drawn again, so its buttons say what they can do."""
    store = get_store()
    info, summary = store.summary(code, key, number)
    if drawn is not None and info.status != drawn:
        st.rerun()
    e = exercise(info.definition)
    chart, side = st.columns([0.62, 0.38], gap="large")
    with chart, st.container(key="cl_chart"):  # redrawn every second: HTML bars, not a plotly chart
        if summary.answered:
            show_bars(e, summary, info.status == "revealed")
        else:
            st.info(_("No answers yet."))
    with side, st.container(key="cl_live"):
        c1, c2 = st.columns(2)
        with c1, st.container(key="cl_answered"):
            st.metric(_("Answered"), summary.answered)
        left = store.seconds_left(info)
        if left is not None:  # while a countdown runs, its seconds stand where "Right" will
            with c2, st.container(key="cl_seconds_left"):
                st.metric(_("Seconds left"), math.ceil(left))
        else:
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
    if info.status == "open" and info.closes_at is not None:
        countdown(info.closes_at)  # counts down beside the question; at 0 the page is drawn again
    elif info.seconds is not None:
        st.caption(countdown_text(info))
    show_exercise(e)
    if not e.traits.has_list:  # the lecturer's own multiple choice: its options, numbered as the bars
        with st.container(key="cl_options"):
            st.markdown("  \n".join(f"{i} · {md_escape(o)}" for i, o in enumerate(e.choices, start=1)))
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


def countdown_text(info: QuestionInfo) -> str:
    """What the lecturer reads about a question's countdown."""
    if info.status == "draft" or info.closes_at is None:
        return _("Countdown: {seconds} s, from when you open it for answers.").format(seconds=info.seconds)
    return _("Countdown: {seconds} s; opening it again starts the countdown again.").format(
        seconds=info.seconds
    )


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

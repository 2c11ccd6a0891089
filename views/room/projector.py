"""The results screen for the projector: ``/class?room=CODE&present=1`` in the lecturer's browser
(issue 26, part 2; a lecturer link with ``&present=1`` loses its key on the first load, issue 30).

One screen, no scrolling at 1280×720 or 1920×1080: the room code, the QR code and the join address
on the left; the current question and its list, "Answered N", "Right" (after the reveal) and the
answers' bars on the right, in type the back row reads (issue 42): a bar per choice, or per group of
numbers that mean one thing, each diagnosed mistake's bar named once revealed. It shows
no student names, and nothing on it holds the lecturer's key: the QR code and the address are the
students' join link. The lecturer opens, closes and reveals from here too (keys O, X and A).
"""

from __future__ import annotations

import math
from dataclasses import replace

import streamlit as st

from ndcg_core.classroom import QuestionInfo, correct_answer, exercise
from ndcg_core.i18n import _, separator
from ndcg_core.teaching.practice import Exercise
from ndcg_core.variants import format_number
from views.ui import styles
from views.ui.markup import md_escape

from .bars import show_bars
from .common import (
    LIVE_EVERY,
    STATUS_TEXT,
    focus_next,
    get_store,
    guarded,
    join_base,
    join_link,
    link,
    live_part,
    qr_html,
    set_link,
)

#: Sizes in viewport units (views/ui/styles.py: PROJECTOR), so the same screen fits 1280×720 and
#: 1920×1080.


#: Where the keyboard focus goes after a button its own press disables (by Tab and Enter, not its key).
NEXT_CONTROL = {
    "open": ".st-key-cp_close button",
    "closed": ".st-key-cp_reveal button",
    "revealed": ".st-key-cp_leave button",
}


@guarded
def _status(code: str, key: str, number: int, status: str) -> None:
    get_store().set_status(code, key, number, status)
    focus_next(NEXT_CONTROL[status])


def leave() -> None:
    """Back to the lecturer's page (the link without ``present``)."""
    set_link(replace(link(), present=False))


def projector(code: str, key: str) -> None:
    st.html(styles.PROJECTOR)
    left, right = st.columns([0.3, 0.7], gap="large")
    with left:
        _join(code)
    current = get_store().room(code).current
    with right:
        _results(code, key, None if current is None else (current.number, current.status))
        # Drawn by the page, not the live fragment: a button in a fragment reruns only the fragment,
        # and leaving must rewrite the link.
        _controls(code, key, current)


def _join(code: str) -> None:
    base = join_base()
    address = join_link(code, base)
    with st.container(key="cp_code"):
        st.markdown(md_escape(code))
    with st.container(key="cp_qr"):
        st.html(qr_html(address))
    with st.container(key="cp_join"):
        st.markdown(_("**Join at**"))
        st.code(address, language=None, wrap_lines=True)
    if not base.reachable:  # the lecturer's page says more; the projector has room for one line
        st.warning(
            _("Phones cannot open this localhost link: set NDCG_PUBLIC_URL (see the lecturer's page)."),
            icon=":material/wifi_off:",
        )


@live_part(run_every=LIVE_EVERY)
def _results(code: str, key: str, drawn: tuple[int, str] | None = None) -> None:
    """The room's current question and its answers, polled like the lecturer's live view; the whole
    screen is drawn again when the question or its status is not the one its buttons were drawn
    for (``drawn``: another question asked, a countdown that closed it)."""
    store = get_store()
    current = store.room(code).current
    if (None if current is None else (current.number, current.status)) != drawn:
        st.rerun()
    if current is None:
        st.info(_("No question yet: ask one on the lecturer's page."))
        return
    info, summary = store.summary(code, key, current.number)
    e = exercise(info.definition)
    revealed = info.status == "revealed"
    with st.container(key="cp_prompt"):
        st.markdown(md_escape(e.prompt))
    with st.container(key="cp_data"):  # what the room needs to answer, on the screen the room sees
        for line in data_lines(e):
            st.markdown(md_escape(line))
    with st.container(key="cp_status"):
        status = _(STATUS_TEXT[info.status])
        st.markdown(_("**Question {n}** · {status}").format(n=info.number, status=status))
    chart, side = st.columns([0.6, 0.4], gap="medium")
    with side, st.container(key="cp_side"):
        with st.container(key="cp_numbers", horizontal=True):
            st.metric(_("Answered"), summary.answered)
            left = store.seconds_left(info)
            if left is not None:  # while a countdown runs, its seconds stand where "Right" will
                st.metric(_("Seconds left"), math.ceil(left))
            else:
                share = f"{summary.share(summary.correct):.0%}" if summary.answered else "–"
                st.metric(_("Right"), share if revealed else "?")
        if revealed:
            st.success(_("The answer: {answer}").format(answer=md_escape(correct_answer(e))))
    with chart, st.container(key="cp_chart"):  # redrawn every second: HTML bars (views.room.bars)
        if summary.answered:
            show_bars(e, summary, revealed)
        else:
            st.info(_("No answers yet."))


def _items(labels, grades) -> str:
    return separator(", ").join(
        f"{label} {format_number(g)}" for label, g in zip(labels, grades, strict=True)
    )


def data_lines(e: Exercise) -> list[str]:
    """The question's list (labels with grades, in ranked order) and formula, a line each: the
    projector asks the room, so the room must see what to compute from, not only the phones."""
    if not e.traits.has_list:  # the lecturer's own multiple choice: its options, numbered as the bars
        return [f"{i} · {option}" for i, option in enumerate(e.choices, start=1)]
    if e.traits.compares_formulas:
        return [
            _("Ranking A: {items}").format(items=_items(e.labels, e.grades)),
            _("Ranking B: {items}").format(items=_items(e.other_labels, e.other)),
            _("First formula: {formula}").format(formula=e.formula_text),
            _("Second formula: {formula}").format(formula=e.alt_formula_text),
        ]
    lines = [_("The list, top first (item and grade): {items}").format(items=_items(e.labels, e.grades))]
    if e.scores is not None:
        scored = separator(", ").join(
            f"{label} {format_number(s)}" for label, s in zip(e.labels, e.scores, strict=True)
        )
        lines.append(_("Their scores (highest first, equal scores tie): {scores}").format(scores=scored))
    if e.ideal is not None and e.ideal_labels is not None:
        n = len(e.grades)
        lines.append(
            _("Judged but not retrieved: {items}").format(items=_items(e.ideal_labels[n:], e.ideal[n:]))
        )
    if e.traits.states_formula:
        lines.append(_("Formula: {formula}").format(formula=e.formula_text))
    return lines


def _controls(code: str, key: str, info: QuestionInfo | None) -> None:
    with st.container(key="cp_controls", horizontal=True):
        if info is not None:
            n, status = info.number, info.status
            st.button(
                _("Open for answers"),
                key="cp_open",
                on_click=_status,
                args=(code, key, n, "open"),
                disabled=status == "open",
                shortcut="O",
            )
            st.button(
                _("Close"),
                key="cp_close",
                on_click=_status,
                args=(code, key, n, "closed"),
                disabled=status != "open",
                shortcut="X",
            )
            st.button(
                _("Reveal the answer"),
                key="cp_reveal",
                type="primary" if status == "closed" else "secondary",
                on_click=_status,
                args=(code, key, n, "revealed"),
                disabled=status == "revealed",
                shortcut="A",
            )
        st.button(_("Leave the projector screen"), key="cp_leave", on_click=leave, shortcut="Esc")

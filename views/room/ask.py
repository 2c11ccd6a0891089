"""The lecturer's "Ask a new question" panel: a Practice exercise, the playground's list, the
lecturer's own list, or their own multiple-choice question, with an optional countdown.

What the lecturer types is checked in ``ndcg_core.classroom`` (:func:`list_definition`,
:func:`choice_definition`), whose refusals name the field (``Grades: ...``, ``Option 3: ...``);
the widgets keep what was typed, so a refused question is corrected, not typed again.
"""

from __future__ import annotations

import secrets

import streamlit as st

from ndcg_core.classroom import ASKS, CELL_ASKS, COUNTDOWNS, MAX_OPTION, MAX_OPTIONS, MAX_PROMPT, BadQuestion
from ndcg_core.classroom.forms import LIST_ASKS, SOURCES, AskForm, AskRefusal, PlaygroundList
from ndcg_core.classroom.own import MAX_GRADE
from ndcg_core.classroom.questions import MAX_ITEMS
from ndcg_core.errors import error_text
from ndcg_core.i18n import _
from ndcg_core.rules import DISCOUNT_RULES, GAIN_RULES
from ndcg_core.teaching.playground import DEFAULT_STATE
from ndcg_core.teaching.practice import KINDS, LEVELS, QUANTITIES
from ndcg_core.teaching.practice.model import formula_parts
from ndcg_core.variants import Variant
from views.ui import keys
from views.ui.markup import md_escape

from .common import focus_next, get_store, guarded

LIST_ASK_TEXT = {"cell": KINDS["cell"]}  # the others: ASKS

#: Each of the form's fields (AskForm) and the widget that holds it.
_WIDGETS = {
    "source": keys.CL_SOURCE,
    "kind": keys.CL_KIND,
    "level": keys.CL_LEVEL,
    "ask": keys.CL_ASK,
    "cell": keys.CL_CELL,
    "position": keys.CL_POSITION,
    "grades": keys.CL_GRADES,
    "labels": keys.CL_LABELS,
    "gain": keys.CL_GAIN,
    "discount": keys.CL_DISCOUNT,
    "k": keys.CL_K,
    "prompt": keys.CL_MC_PROMPT,
    "right": keys.CL_MC_RIGHT,
    "countdown": keys.CL_COUNTDOWN,
    **{f"option_{i}": keys.cl_mc_option(i) for i in range(MAX_OPTIONS)},
}


def _form() -> AskForm:
    """The form as its widgets hold it."""
    ss = st.session_state
    return AskForm.read(lambda name: ss.get(_WIDGETS[name]))


@guarded
def _ask(code: str, key: str) -> None:
    ss = st.session_state
    form = _form()
    outcome = form.question(secrets.randbelow(10**6), _playground_list())
    if isinstance(outcome, AskRefusal):
        ss[keys.CL_ASK_ERROR] = outcome  # coded: shown in the page's language of the moment
        return
    try:
        q = get_store().ask(code, key, outcome.definition, seconds=outcome.seconds)
    except BadQuestion as err:  # the store's own checks (the countdown)
        ss[keys.CL_ASK_ERROR] = AskRefusal(form.source, err)
        return
    ss[keys.CL_ASK_ERROR] = None
    ss[keys.cl_view(code)] = q.number
    focus_next(".st-key-cl_open button")  # the panel folds away: to the next thing, opening it


def _changed() -> None:
    """The lecturer changed the question: the last refusal no longer describes it."""
    st.session_state[keys.CL_ASK_ERROR] = None


def _playground_list() -> PlaygroundList:
    """The playground's list and formula in this session (its default until it was changed)."""
    ss = st.session_state
    items = ss.get(keys.PG_ITEMS) or DEFAULT_STATE.items
    spec = ss.get(keys.PG_SPEC) or DEFAULT_STATE.spec
    return PlaygroundList(tuple(i.label for i in items), tuple(i.grade for i in items), spec)


def ask_panel(code: str, key: str) -> None:
    ss = st.session_state
    panel = st.container(key="cl_ask_panel")  # a name for the focus to find it by
    with panel, st.expander(_("Ask a new question"), expanded=not ss.get(keys.cl_view(code))):
        ss.setdefault(keys.CL_SOURCE, "practice")
        st.segmented_control(
            _("Question from"), list(SOURCES), key=keys.CL_SOURCE, format_func=lambda s: _(SOURCES[s])
        )
        source = ss.get(keys.CL_SOURCE)
        if source == "playground":
            pg = _playground_list()
            st.caption(
                _("The list: {items}. Formula: {formula}.").format(
                    items=md_escape(
                        ", ".join(f"{lab} ({g:g})" for lab, g in zip(pg.labels, pg.grades, strict=True))
                    ),
                    formula=md_escape(pg.spec.name),
                )
            )
            _ask_of_a_list()
        elif source == "list":
            _own_list()
            _ask_of_a_list(cutoff=True)
        elif source == "choice":
            _own_choice()
        else:
            # One above the other: side by side, "Level 3" was cut at the panel's edge at 1280×720.
            st.selectbox(
                _("Kind"), list(KINDS), key=keys.CL_KIND, format_func=lambda k: md_escape(_(KINDS[k]))
            )
            st.segmented_control(
                _("Level"),
                list(LEVELS),
                key=keys.CL_LEVEL,
                default=1,
                format_func=lambda n: _("Level {n}").format(n=n),
            )
        st.segmented_control(
            _("Countdown"),
            [0, *COUNTDOWNS],
            key=keys.CL_COUNTDOWN,
            default=0,
            format_func=lambda s: _("None") if not s else _("{seconds} s").format(seconds=s),
            help=_(
                "Starts when you open the question for answers; when it is up, the question closes by "
                "itself and later answers are not taken."
            ),
        )
        st.button(
            _("Ask this question"), key="cl_ask_button", type="primary", on_click=_ask, args=(code, key)
        )
        failed = ss.get(keys.CL_ASK_ERROR)
        if isinstance(failed, AskRefusal) and failed.source == source:
            reason = md_escape(error_text(failed.message))
            with st.container(key="cl_ask_problem"):
                if source == "playground":
                    st.error(
                        _("This list cannot be asked: {reason}. Change it on the Playground.").format(
                            reason=reason
                        )
                    )
                else:
                    st.error(_("This question cannot be asked. {reason}.").format(reason=reason))


def _ask_of_a_list(cutoff: bool = False) -> None:
    """What a question on a list asks; for a cell, which one and where. With ``cutoff``, the
    lecturer's own list's cutoff k beside it."""
    ss = st.session_state
    where = st
    if cutoff:
        c1, where = st.columns([0.4, 0.6])
        c1.selectbox(
            _("Cutoff"),
            list(range(MAX_ITEMS + 1)),
            key=keys.CL_K,
            on_change=_changed,
            format_func=lambda k: _("whole list (no k)") if not k else f"k = {k}",
        )
    where.selectbox(
        _("Ask for"),
        LIST_ASKS,
        key=keys.CL_ASK,
        on_change=_changed,
        format_func=lambda a: _(LIST_ASK_TEXT.get(a) or ASKS[a]),
    )
    if ss.get(keys.CL_ASK) == "cell":
        c1, c2 = st.columns(2)
        c1.selectbox(
            _("Cell"), CELL_ASKS, key=keys.CL_CELL, on_change=_changed, format_func=lambda q: _(QUANTITIES[q])
        )
        c2.selectbox(
            _("At position"), list(range(1, MAX_ITEMS + 1)), key=keys.CL_POSITION, on_change=_changed
        )


def _own_list() -> None:
    c1, c2 = st.columns(2)
    c1.text_input(
        _("Grades, top first"),
        key=keys.CL_GRADES,
        on_change=_changed,
        placeholder="3, 2, 3, 0, 1, 2",
        help=_("2 to {n} grades from 0 to {max}, separated by commas or spaces.").format(
            n=MAX_ITEMS, max=MAX_GRADE
        ),
    )
    c2.text_input(
        _("Labels (optional)"),
        key=keys.CL_LABELS,
        on_change=_changed,
        placeholder="D1, D2, D3, …",
        help=_("One per grade, separated by commas. Left empty: D1, D2, D3, …"),
    )
    c1, c2 = st.columns([0.42, 0.58])
    # Each rule as its record writes it (ndcg_core.rules), the log in base 2.
    c1.radio(
        _("Gain"),
        list(GAIN_RULES),
        key=keys.CL_GAIN,
        on_change=_changed,
        format_func=lambda g: formula_parts(Variant(gain=g))[0],
    )
    c2.radio(
        _("Discount"),
        list(DISCOUNT_RULES),
        key=keys.CL_DISCOUNT,
        on_change=_changed,
        format_func=lambda d: formula_parts(Variant(discount=d))[1],
    )


def _own_choice() -> None:
    st.text_area(
        _("Question"),
        key=keys.CL_MC_PROMPT,
        on_change=_changed,
        max_chars=MAX_PROMPT,
        height=80,
        placeholder=_("e.g. Which discount leaves position 2 undivided?"),
    )
    columns = st.columns(2)
    for i in range(MAX_OPTIONS):
        columns[i % 2].text_input(
            _("Option {n}").format(n=i + 1),
            key=keys.cl_mc_option(i),
            on_change=_changed,
            max_chars=MAX_OPTION,
            placeholder=_("(optional)") if i >= 2 else None,
        )
    st.radio(
        _("Right answer"),
        list(range(MAX_OPTIONS)),
        key=keys.CL_MC_RIGHT,
        on_change=_changed,
        index=None,
        horizontal=True,
        format_func=lambda i: _("Option {n}").format(n=i + 1),
    )

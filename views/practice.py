"""Practice: generated exercises with instant feedback that names the mistake.

State that must survive a page switch lives under non-widget keys (``pr_*``):
the set (``pr_seed``), the exercise number (``pr_number``), the chosen kind and
level, the kind picked by "practise what you missed" (``pr_pick``), feedback and
hints per exercise, and ``pr_progress`` (a :class:`ndcg_core.teaching.practice.Progress`).
Widgets only mirror them. The share link carries ``seed``, ``ex`` and, when not
the defaults, ``level`` and ``kind`` (:class:`ndcg_core.teaching.pages.PracticeState`).
"""

from __future__ import annotations

import random

import pandas as pd
import streamlit as st
from streamlit_sortables import sort_items

from ndcg_core.i18n import N_, _
from ndcg_core.teaching.formula import number
from ndcg_core.teaching.pages import PracticeState
from ndcg_core.teaching.practice import (
    KINDS,
    LEVELS,
    Exercise,
    Progress,
    check,
    feedback_latex,
    focus_rows,
    hints,
    kind_for,
    make_exercise,
    next_kind,
)
from views.ui.markup import md_escape
from views.ui.share import PRACTICE, adopt, sync_url

MIXED = "mixed"
# a hint table's own column (the step-table names are in ndcg_core.teaching.lesson)
SHOWN_COLUMNS = (N_("Counted"),)
NUMBER_COLUMNS = ["Grade", "Gain", "Divisor", "Discounted gain", "Cumulative DCG"]
KIND_OPTIONS = [MIXED, *KINDS]
SORTABLE_STYLE = """
.sortable-component { background-color: transparent; padding: 0; }
.sortable-container { background-color: transparent; }
.sortable-item, .sortable-item:hover {
  background-color: #eef2ff; color: #1e293b; border: 1px solid #c7d2fe;
  font-size: 1rem; height: auto; min-height: 2.4rem; padding: 0.3rem 0.6rem; margin: 0.2rem 0;
  justify-content: flex-start;
}
"""


# ------------------------------------------------------------------ state


def _defaults() -> None:
    ss = st.session_state
    ss.setdefault("pr_seed", random.randrange(1, 10_000))
    ss.setdefault("pr_number", 1)
    ss.setdefault("pr_kind", MIXED)
    ss.setdefault("pr_level", 1)
    ss.setdefault("pr_pick", None)
    ss.setdefault("pr_missed_mode", False)
    ss.setdefault("pr_progress", Progress())
    ss.setdefault("pr_feedback", {})
    ss.setdefault("pr_hints", {})
    ss.setdefault("pr_orders", {})
    ss.setdefault("pr_warnings", [])


def _load(state: PracticeState, warnings: list[str]) -> None:
    """Put a share link's exercise in place (without a seed of its own, the set stays the same)."""
    ss = st.session_state
    if state.seed is not None:
        ss.pr_seed = state.seed
    ss.pr_number = state.ex
    ss.pr_level = state.level
    ss.pr_kind = state.kind or MIXED
    ss.pr_pick = None
    ss.pr_warnings = warnings


def _state() -> PracticeState:
    """The page's share-link state: the kind picked by "practise what you missed" goes in the link."""
    ss = st.session_state
    kind = ss.pr_pick or (ss.pr_kind if ss.pr_kind != MIXED else None)
    return PracticeState(seed=ss.pr_seed, ex=ss.pr_number, level=ss.pr_level, kind=kind)


def current_exercise() -> Exercise:
    ss = st.session_state
    kind = ss.pr_pick or (ss.pr_kind if ss.pr_kind != MIXED else kind_for(ss.pr_seed, ss.pr_number))
    return make_exercise(ss.pr_seed, ss.pr_number, kind, ss.pr_level)


# ------------------------------------------------------------------ callbacks


def _go(number: int) -> None:
    ss = st.session_state
    ss.pr_warnings = []  # a share link's complaints are retired by the first move
    ss.pr_number = max(1, number)
    if ss.pr_missed_mode and ss.pr_kind == MIXED:
        ss.pr_pick = next_kind(ss.pr_progress, ss.pr_seed, ss.pr_number)
    else:
        ss.pr_pick = None


def _set_level() -> None:
    st.session_state.pr_warnings = []
    st.session_state.pr_level = int(st.session_state.pr_w_level or 1)
    st.session_state.pr_pick = None


def _set_kind() -> None:
    st.session_state.pr_warnings = []
    st.session_state.pr_kind = st.session_state.pr_w_kind
    st.session_state.pr_pick = None


def _set_missed() -> None:
    st.session_state.pr_missed_mode = st.session_state.pr_w_missed


def _new_set() -> None:
    ss = st.session_state
    ss.pr_warnings = []
    ss.pr_seed = random.randrange(1, 10_000)
    ss.pr_number = 1
    ss.pr_pick = None


def _judge(exercise: Exercise, response) -> None:
    ss = st.session_state
    feedback = check(exercise, response)
    ss.pr_feedback = {**ss.pr_feedback, exercise.key: feedback}
    ss.pr_progress = ss.pr_progress.record(exercise, feedback)


def _check_number(exercise: Exercise, key: str) -> None:
    _judge(exercise, st.session_state.get(key) or "")


def _check_choice(exercise: Exercise, key: str) -> None:
    picked = st.session_state.get(key)
    _judge(exercise, exercise.choices.index(picked) if picked in exercise.choices else None)


def _check_order(exercise: Exercise) -> None:
    order = st.session_state.pr_orders.get(exercise.key, exercise.labels)
    _judge(exercise, list(order))


def _more_hint(key: str) -> None:
    ss = st.session_state
    ss.pr_hints = {**ss.pr_hints, key: min(3, ss.pr_hints.get(key, 0) + 1)}


# ------------------------------------------------------------------ drawing


def _list_table(labels, grades, scores=None) -> pd.DataFrame:
    frame = pd.DataFrame(
        {
            "Position": range(1, len(grades) + 1),
            "Item": pd.Series(list(labels), dtype=object),
            "Grade": [f"{g:g}" for g in grades],
        }
    )
    if scores is not None:
        frame["Score"] = [f"{s:g}" for s in scores]
    return frame


def _shown(frame: pd.DataFrame) -> pd.DataFrame:
    """A table with its column names in the reader's language."""
    return frame.rename(columns=_)


def _table(frame: pd.DataFrame, key: str) -> None:
    with st.container(key=key):
        st.dataframe(_shown(frame), hide_index=True, height=38 + 35 * len(frame), width="content")


def _show_data(e: Exercise) -> None:
    if e.kind in {"cell", "metric", "drag"}:
        st.markdown(_("**Formula:** {formula}").format(formula=md_escape(e.formula.describe())))
    if e.kind == "winner":
        st.markdown(_("**First formula:** {formula}").format(formula=md_escape(e.formula.describe())))
        changed = e.alt_formula.changes_from(e.formula)
        st.markdown(
            _("**Second formula:** {formula} (changed: {changed})").format(
                formula=md_escape(e.alt_formula.describe()), changed=md_escape(changed)
            )
        )
        a, b = st.columns(2)
        with a:
            st.markdown("**" + _("Ranking A") + "**")
            _table(_list_table(e.labels, e.grades), "pr_list_a")
        with b:
            st.markdown("**" + _("Ranking B") + "**")
            _table(_list_table(e.other_labels, e.other), "pr_list_b")
        return
    if e.kind == "drag":
        return
    if e.kind == "library" or e.scores is not None:
        st.caption(_("The scores decide the order, highest first; equal scores are a tie."))
        _table(_list_table(e.labels, e.grades, e.scores).drop(columns="Position"), "pr_list")
        return
    _table(_list_table(e.labels, e.grades), "pr_list")
    if e.ideal is not None and e.ideal_labels is not None:
        n = len(e.grades)
        st.markdown("**" + _("Judged but not retrieved") + "**")
        missed = pd.DataFrame(
            {
                _("Item"): pd.Series(list(e.ideal_labels[n:]), dtype=object),
                _("Grade"): [f"{g:g}" for g in e.ideal[n:]],
            }
        )
        _table(missed, "pr_pool")


def _answer_area(e: Exercise) -> None:
    ss = st.session_state
    if e.answer_type == "number":
        key = f"pr_answer_{e.key}"
        with st.form(key=f"pr_form_{e.key}", border=False):
            st.text_input(
                _("Your answer"),
                key=key,
                placeholder=_("e.g. 0.82 or 3 + 2/1.585"),
                help=_("A number (at least 2 decimals unless it is whole) or arithmetic with + - * / ^ ( )."),
            )
            st.form_submit_button(_("Check"), type="primary", on_click=_check_number, args=(e, key))
    elif e.answer_type == "choice":
        key = f"pr_choice_{e.key}"
        st.radio(_("Your answer"), list(e.choices), index=None, key=key, format_func=md_escape)
        st.button(_("Check"), key=f"pr_check_{e.key}", type="primary", on_click=_check_choice, args=(e, key))
    else:
        order = list(ss.pr_orders.get(e.key, e.labels))
        grade = dict(zip(e.labels, e.grades, strict=True))
        shown = {
            _("{label}  ·  grade {g}").format(label=label, g=f"{grade[label]:g}"): label for label in order
        }
        st.caption(_("Drag an item up or down; then check."))
        new = sort_items(
            list(shown), direction="vertical", custom_style=SORTABLE_STYLE, key=f"pr_sort_{e.key}"
        )
        if new and sorted(new) == sorted(shown) and new != list(shown):
            ss.pr_orders = {**ss.pr_orders, e.key: tuple(shown[t] for t in new)}
        st.button(_("Check order"), key=f"pr_check_{e.key}", type="primary", on_click=_check_order, args=(e,))


def _feedback(e: Exercise) -> None:
    fb = st.session_state.pr_feedback.get(e.key)
    if fb is None:
        return
    with st.container(key="pr_feedback"):
        if fb.correct:
            st.success(md_escape(fb.message), icon=":material/check_circle:")
        elif fb.problem:
            st.warning(md_escape(fb.message))
        else:
            st.error(md_escape(fb.message), icon=":material/lightbulb:")
        if fb.correct or e.answer_type != "number":
            return
        if fb.focus is not None:
            rows = focus_rows(e, fb)
            table, position = fb.focus
            if table == "ideal_steps":
                st.markdown(_("**Row {n} of the ideal ordering's step table**").format(n=position))
            else:
                st.markdown(_("**Row {n} of your ranking's step table**").format(n=position))
            shown = rows.assign(**{c: rows[c].map(_cell) for c in rows.columns[1:]})
            shown[shown.columns[0]] = shown[shown.columns[0]].map(_)
            with st.container(key="pr_focus_row"):
                st.dataframe(shown, hide_index=True, width="content")
        for latex in feedback_latex(e, fb):
            st.latex(latex)


def _cell(value) -> str:
    return value if isinstance(value, str) else number(float(value))


def _hints(e: Exercise) -> None:
    ss = st.session_state
    shown = ss.pr_hints.get(e.key, 0)
    levels = hints(e)
    with st.container(key="pr_hints"):
        for hint in levels[:shown]:
            st.markdown(_("**Hint {n}.** {text}").format(n=hint.level, text=md_escape(hint.text)))
            for latex in hint.latex:
                st.latex(latex)
            if hint.tables and e.question is not None:
                ex = e.question.explanation()
                cols = ["Position", "Item", *NUMBER_COLUMNS]
                for title, steps in ((_("Your ranking"), ex.steps), (_("Ideal ordering"), ex.ideal_steps)):
                    st.markdown(f"**{title}**")
                    shown_steps = steps[cols].assign(
                        **{c: steps[c].map(number) for c in cols[2:]},
                        Counted=~steps["Beyond k"],
                    )
                    st.dataframe(_shown(shown_steps), hide_index=True)
        if shown < 3:
            label = _("Show a hint") if shown == 0 else _("Show hint {n} of 3").format(n=shown + 1)
            st.button(label, key=f"pr_hint_{e.key}", on_click=_more_hint, args=(e.key,))


def _progress() -> None:
    p: Progress = st.session_state.pr_progress
    with st.expander(_("Your progress this session"), expanded=False):
        total_attempts = sum(p.attempts.values())
        total_correct = sum(p.correct.values())
        c1, c2, c3 = st.columns(3)
        c1.metric(_("Correct"), f"{total_correct} / {total_attempts}")
        c2.metric(_("Streak"), p.streak)
        c3.metric(_("Best streak"), p.best_streak)
        st.dataframe(_shown(p.table()), hide_index=True)


def render() -> None:
    _defaults()
    adopt(PRACTICE, _load)
    ss = st.session_state
    e = current_exercise()
    sync_url((PRACTICE, _state()))

    st.markdown("### " + _("Practice"))
    st.caption(
        _(
            "Exercises with instant feedback: a wrong number gets the mistake that produced it named. "
            "Each exercise states its own formula."
        )
    )
    for message in ss.pr_warnings:
        st.warning(md_escape(message))

    with st.container(key="pr_controls"):
        c1, c2 = st.columns([0.5, 0.5])
        ss.pr_w_level = ss.pr_level
        c1.segmented_control(
            _("Level"),
            list(LEVELS),
            key="pr_w_level",
            on_change=_set_level,
            format_func=lambda n: _("Level {n}").format(n=n),
            help=" · ".join(map(_, LEVELS.values())),
        )
        ss.pr_w_kind = ss.pr_kind
        c2.selectbox(
            _("Kind"),
            KIND_OPTIONS,
            key="pr_w_kind",
            on_change=_set_kind,
            format_func=lambda k: _("Mixed") if k == MIXED else _(KINDS[k]),
        )
        ss.pr_w_missed = ss.pr_missed_mode
        st.toggle(
            _("Practise what you missed"),
            key="pr_w_missed",
            on_change=_set_missed,
            help=_("In a mixed set, the next exercise favours the kinds you answered wrongly."),
            disabled=ss.pr_kind != MIXED,
        )

    with st.container(key="pr_exercise", border=True):
        st.markdown(
            _("**Exercise {n}** · {kind} · {level}").format(
                n=e.number, kind=md_escape(_(KINDS[e.kind])), level=md_escape(_(LEVELS[e.level]))
            )
        )
        st.markdown(md_escape(e.prompt))
        _show_data(e)
        _answer_area(e)
        _feedback(e)
        _hints(e)

    n1, n2, n3 = st.columns(3)
    n1.button(
        _("Previous"),
        key="pr_prev",
        on_click=_go,
        args=(e.number - 1,),
        disabled=e.number <= 1,
        width="stretch",
    )
    n2.button(
        _("Next exercise"), key="pr_next", on_click=_go, args=(e.number + 1,), type="primary", width="stretch"
    )
    n3.button(_("New set"), key="pr_new", on_click=_new_set, width="stretch", help=_("A new random seed"))
    st.caption(
        _("Exercise set {seed}: share this page's link to hand out the same exercises.").format(
            seed=ss.pr_seed
        )
    )
    _progress()


render()

"""Practice: generated exercises with instant feedback that names the mistake.

The page keeps one value, a :class:`~ndcg_core.teaching.practice.session.PracticeSession` (the set,
the exercise, the level and kind, the progress, each exercise's tries, feedback, hints and dragged
order), under :data:`views.ui.keys.PR_SESSION`. Each click or answer calls one of its methods and
keeps the session it returns; :meth:`~ndcg_core.teaching.practice.session.PracticeSession.view`
says what to draw. Widgets only mirror it. The share link carries ``seed``, ``ex`` and, when not
the defaults, ``level`` and ``kind`` (:class:`ndcg_core.teaching.pages.PracticeState`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pandas as pd
import streamlit as st
from streamlit_sortables import sort_items

from ndcg_core.errors import error_text
from ndcg_core.i18n import _, pgettext
from ndcg_core.teaching.answers import examples
from ndcg_core.teaching.pages import PracticeState
from ndcg_core.teaching.practice import KINDS, LEVELS, Exercise
from ndcg_core.teaching.practice.session import MIXED, PracticeSession, PracticeView
from ndcg_core.teaching.saved import practice_data, practice_from_data
from views.ui import keys
from views.ui.a11y import announce, bring_into_view
from views.ui.learner import learner_message, progress_note, save, take_loaded
from views.ui.markup import md_escape
from views.ui.share import PRACTICE, adopt, sync_url
from views.ui.start import where_next

KIND_OPTIONS = [MIXED, *KINDS]
SORTABLE_STYLE = """
.sortable-component { background-color: transparent; padding: 0; }
.sortable-container { background-color: transparent; }
.sortable-item, .sortable-item:hover {
  background-color: #eef2ff; color: #1e293b; border: 1px solid #c7d2fe;
  font-size: 1rem; height: auto; min-height: 2.4rem; padding: 0.3rem 0.6rem; margin: 0.2rem 0;
  justify-content: flex-start;
}
.sortable-item:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 1px; box-shadow: none; }
"""
#: How each tone of verdict is drawn, and its icon.
TONES = {
    "info": (st.info, ":material/school:"),
    "success": (st.success, ":material/check_circle:"),
    "warning": (st.warning, None),
    "error": (st.error, ":material/lightbulb:"),
}


# ------------------------------------------------------------------ the session


def session() -> PracticeSession:
    """This browser session's Practice (a new random set the first time)."""
    ss = st.session_state
    if keys.PR_SESSION not in ss:
        ss[keys.PR_SESSION] = PracticeSession(seed=random.randrange(1, 10_000))
    return ss[keys.PR_SESSION]


def _do(change: Callable[[PracticeSession], PracticeSession]) -> None:
    """A click or an answer: the session it leads to, from the session as it is now (never from
    values drawn with the button: a second press can reach the server before the first one's run
    has drawn the buttons again)."""
    st.session_state[keys.PR_SESSION] = change(session())


def _load(state: PracticeState, warnings: list[str]) -> None:
    """Put a share link's exercise in place (without a seed of its own, the set stays the same)."""
    _do(lambda s: s.at(state, warnings))


def _restore(place_in_link: bool) -> None:
    """Put the learner's saved progress in place, once loaded; the place too, unless the link names one."""
    data = take_loaded("practice")
    if data is None:
        return
    saved = practice_from_data(data)
    _do(lambda s: s.restored(saved.progress, saved.missed_mode, saved.place, place_in_link))


# ------------------------------------------------------------------ callbacks


def _set_level() -> None:
    _do(lambda s: s.with_level(int(st.session_state[keys.PR_W_LEVEL] or 1)))


def _set_kind() -> None:
    _do(lambda s: s.with_kind(st.session_state[keys.PR_W_KIND]))


def _set_missed() -> None:
    _do(lambda s: s.with_missed_mode(st.session_state[keys.PR_W_MISSED]))


def _new_set() -> None:
    _do(lambda s: s.new_set(random.randrange(1, 10_000)))


def _check_number(key: str) -> None:
    text = st.session_state.get(key) or ""
    _do(lambda s: s.answer(text))


def _check_choice(key: str) -> None:
    picked = st.session_state.get(key)

    def answer(s: PracticeSession) -> PracticeSession:
        e = s.exercise
        return s.answer(e.names[e.choices.index(picked)] if picked in e.choices else None)

    _do(answer)


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
    if e.traits.states_formula:
        st.markdown(_("**Formula:** {formula}").format(formula=md_escape(e.formula_text)))
    if e.traits.compares_formulas:
        st.markdown(_("**First formula:** {formula}").format(formula=md_escape(e.formula_text)))
        changed = e.alt_changes
        st.markdown(
            _("**Second formula:** {formula} (changed: {changed})").format(
                formula=md_escape(e.alt_formula_text), changed=md_escape(changed)
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
    if e.traits.drags:  # the list to drag shows the items
        return
    if e.scores is not None:
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


def _answer_area(view: PracticeView) -> None:
    e = view.exercise
    if e.answer_type == "number":
        key = keys.pr_answer(e.key)
        with st.form(key=f"pr_form_{e.key}", border=False):
            st.text_input(
                _("Your answer"),
                key=key,
                placeholder=_("e.g. {number} or {arithmetic}").format(
                    number=examples([e.exact]).number, arithmetic=examples([e.exact]).arithmetic
                ),
                help=_("A number (at least 2 decimals unless it is whole) or arithmetic with + - * / ^ ( )."),
            )
            st.form_submit_button(_("Check"), type="primary", on_click=_check_number, args=(key,))
        _show_me(view)
    elif e.answer_type == "choice":
        key = keys.pr_choice(e.key)
        st.radio(_("Your answer"), list(e.choices), index=None, key=key, format_func=md_escape)
        with st.container(horizontal=True):
            st.button(
                _("Check"), key=f"pr_check_{e.key}", type="primary", on_click=_check_choice, args=(key,)
            )
            _show_me(view)
    else:
        grade = dict(zip(e.labels, e.grades, strict=True))
        shown = {
            _("{label}  ·  grade {g}").format(label=label, g=f"{grade[label]:g}"): label
            for label in view.order
        }
        st.caption(_("Drag an item up or down; then check."))
        with st.container(key="pr_drag"):  # names the list's frame (views.ui.a11y.FRAMES)
            new = sort_items(
                list(shown), direction="vertical", custom_style=SORTABLE_STYLE, key=f"pr_sort_{e.key}"
            )
        if new and sorted(new) == sorted(shown) and new != list(shown):
            order = tuple(shown[t] for t in new)
            _do(lambda s: s.reorder(order))
        st.button(
            _("Check order"),
            key=f"pr_check_{e.key}",
            type="primary",
            on_click=_do,
            args=(PracticeSession.check_order,),
        )


def _show_me(view: PracticeView) -> None:
    """ "Show me": the worked solution now, for a student who is stuck (until it is shown)."""
    if view.show_me:
        st.button(
            _("Show me"),
            key=f"pr_show_{view.exercise.key}",
            on_click=_do,
            args=(PracticeSession.show_solution,),
        )


def _feedback(view: PracticeView) -> None:
    """The verdict on the last answer, as the session's view says it (the diagnosis alone before the
    solution is shown; then the whole verdict, its row and its formula)."""
    v = view.verdict
    if v is None:
        return
    with st.container(key=keys.PR_VERDICT):
        draw, icon = TONES[v.tone]
        draw(md_escape(v.text), icon=icon)
        if v.counts:  # a verdict is said to a screen reader once per check (a same verdict too)
            announce(f"pr_verdict_{session().checks}", v.text)
        # and shown: on a phone it is drawn below the fold, where nothing would seem to happen
        bring_into_view(f".st-key-{keys.PR_VERDICT}", f"pr_verdict_{session().checks}")
        if v.caption:
            st.caption(v.caption)
        if v.focus is not None:
            st.markdown(v.focus_title)
            with st.container(key="pr_focus_row"):
                st.dataframe(v.focus, hide_index=True, width="content")
        for latex in v.latex:
            st.latex(latex)


def _hints(view: PracticeView) -> None:
    with st.container(key=keys.PR_HINT_PANEL):
        for shown in view.hints:
            hint = shown.hint
            st.markdown(_("**Hint {n}.** {text}").format(n=hint.level, text=md_escape(hint.text)))
            for latex in hint.latex:
                st.latex(latex)
            for title, table in shown.tables:
                st.markdown(f"**{title}**")
                st.dataframe(table, hide_index=True)
        if view.hint_button is not None:
            st.button(
                view.hint_button,
                key=f"pr_hint_{view.exercise.key}",
                on_click=_do,
                args=(PracticeSession.more_hint,),
            )


def _progress() -> None:
    p = session().progress
    with st.expander(_("Your progress"), expanded=False, key="pr_progress_panel"):
        progress_note("practice")
        total_attempts = sum(p.attempts.values())
        total_correct = sum(p.correct.values())
        c1, c2, c3 = st.columns(3)
        c1.metric(_("Correct"), f"{total_correct} / {total_attempts}")
        c2.metric(_("Streak"), p.streak)
        c3.metric(_("Best streak"), p.best_streak)
        st.dataframe(_shown(p.table()), hide_index=True)


def render() -> None:
    place_in_link = PRACTICE.carried(PRACTICE.params(st.query_params.to_dict()))
    session()
    adopt(PRACTICE, _load)
    _restore(place_in_link)
    s = session()
    view = s.view()
    e = view.exercise
    save(
        "practice",
        practice_data(s.progress, s.place(), s.missed_mode),
        worth_keeping=bool(s.progress.attempts),
    )
    sync_url((PRACTICE, s.link()))

    st.markdown("# " + _("Practice"))
    st.caption(
        _(
            "Exercises with instant feedback: a wrong number gets the mistake that produced it named. "
            "Each exercise states its own formula."
        )
    )
    for message in s.warnings:
        st.warning(md_escape(error_text(message)))
    learner_message()

    ss = st.session_state
    with st.container(key="pr_controls"):
        c1, c2 = st.columns([0.5, 0.5])
        ss[keys.PR_W_LEVEL] = s.level
        c1.segmented_control(
            _("Level"),
            list(LEVELS),
            key=keys.PR_W_LEVEL,
            on_change=_set_level,
            format_func=lambda n: _("Level {n}").format(n=n),
            help=" · ".join(map(_, LEVELS.values())),
        )
        ss[keys.PR_W_KIND] = s.kind
        c2.selectbox(
            _("Kind"),
            KIND_OPTIONS,
            key=keys.PR_W_KIND,
            on_change=_set_kind,
            format_func=lambda k: _("Mixed") if k == MIXED else _(KINDS[k]),
        )
        ss[keys.PR_W_MISSED] = s.missed_mode
        st.toggle(
            _("Practise what you missed"),
            key=keys.PR_W_MISSED,
            on_change=_set_missed,
            help=_("In a mixed set, the next exercise favours the kinds you answered wrongly."),
            disabled=s.kind != MIXED,
        )

    with st.container(key="pr_exercise", border=True):
        st.markdown(
            _("**Exercise {n}** · {kind} · {level}").format(
                n=e.number, kind=md_escape(_(KINDS[e.kind])), level=md_escape(_(LEVELS[e.level]))
            )
        )
        st.markdown(md_escape(e.prompt))
        _show_data(e)
        _answer_area(view)
        _feedback(view)
        _hints(view)

    n1, n2, n3 = st.columns(3)
    n1.button(
        pgettext("exercise", "Previous"),  # the previous exercise (Learn's "Previous" is a step)
        key="pr_prev",
        on_click=_do,
        args=(lambda s: s.step(-1),),
        disabled=not view.previous,
        width="stretch",
    )
    n2.button(
        _("Next exercise"),
        key="pr_next",
        on_click=_do,
        args=(lambda s: s.step(1),),
        type="primary",
        width="stretch",
    )
    n3.button(_("New set"), key="pr_new", on_click=_new_set, width="stretch", help=_("A new random seed"))
    # The link says which exercises, never whose progress (that stays in this browser's cookie).
    st.caption(
        _("Exercise set {seed}: share this page's link to hand out the same exercises.").format(seed=s.seed)
    )
    _progress()
    where_next("practice")


def page() -> None:
    """The page: what its script (``views/practice.py``) runs on every run."""
    render()

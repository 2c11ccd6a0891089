"""Practice: generated exercises with instant feedback that names the mistake.

State that must survive a page switch lives under non-widget keys (``pr_*``):
the set (``pr_seed``), the exercise number (``pr_number``), the chosen kind and
level, the kind picked by "practise what you missed" (``pr_pick``), feedback, tries
(:class:`ndcg_core.teaching.tries.Tries`: a wrong answer gets its diagnosis, the worked solution
comes after the second wrong try or on "Show me") and hints per exercise, and ``pr_progress``
(a :class:`ndcg_core.teaching.practice.Progress`, which counts each judged answer once).
Widgets only mirror them. The share link carries ``seed``, ``ex`` and, when not
the defaults, ``level`` and ``kind`` (:class:`ndcg_core.teaching.pages.PracticeState`).
"""

from __future__ import annotations

import random

import pandas as pd
import streamlit as st
from streamlit_sortables import sort_items

from ndcg_core.errors import error_text
from ndcg_core.i18n import N_, _, pgettext
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
    solution,
)
from ndcg_core.teaching.saved import practice_data, practice_from_data
from ndcg_core.teaching.tries import Tries
from views.ui import keys
from views.ui.a11y import announce
from views.ui.learner import learner_message, progress_note, save, take_loaded
from views.ui.markup import md_escape
from views.ui.share import PRACTICE, adopt, sync_url
from views.ui.start import where_next

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
.sortable-item:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 1px; box-shadow: none; }
"""


# ------------------------------------------------------------------ state


def _defaults() -> None:
    ss = st.session_state
    ss.setdefault(keys.PR_SEED, random.randrange(1, 10_000))
    ss.setdefault(keys.PR_NUMBER, 1)
    ss.setdefault(keys.PR_KIND, MIXED)
    ss.setdefault(keys.PR_LEVEL, 1)
    ss.setdefault(keys.PR_PICK, None)
    ss.setdefault(keys.PR_MISSED_MODE, False)
    ss.setdefault(keys.PR_PROGRESS, Progress())
    ss.setdefault(keys.PR_FEEDBACK, {})
    ss.setdefault(keys.PR_TRIES, {})
    ss.setdefault(keys.PR_HINTS, {})
    ss.setdefault(keys.PR_ORDERS, {})
    ss.setdefault(keys.PR_WARNINGS, [])


def _load(state: PracticeState, warnings: list[str]) -> None:
    """Put a share link's exercise in place (without a seed of its own, the set stays the same)."""
    ss = st.session_state
    if state.seed is not None:
        ss[keys.PR_SEED] = state.seed
    ss[keys.PR_NUMBER] = state.ex
    ss[keys.PR_LEVEL] = state.level
    ss[keys.PR_KIND] = state.kind or MIXED
    ss[keys.PR_PICK] = None
    ss[keys.PR_WARNINGS] = warnings


def _state() -> PracticeState:
    """The page's share-link state: the kind picked by "practise what you missed" goes in the link."""
    ss = st.session_state
    kind = ss[keys.PR_PICK] or (ss[keys.PR_KIND] if ss[keys.PR_KIND] != MIXED else None)
    return PracticeState(seed=ss[keys.PR_SEED], ex=ss[keys.PR_NUMBER], level=ss[keys.PR_LEVEL], kind=kind)


def _restore(place_in_link: bool) -> None:
    """Put the learner's saved progress in place, once loaded; the place too, unless the link names one."""
    data = take_loaded("practice")
    if data is None:
        return
    ss = st.session_state
    saved = practice_from_data(data)
    ss[keys.PR_PROGRESS] = saved.progress
    ss[keys.PR_MISSED_MODE] = saved.missed_mode
    if saved.place is not None and not place_in_link:
        _load(saved.place, [])


def _saved_document() -> dict:
    """What the learner keeps of this page: the score, and the set, exercise, level and kind chosen."""
    ss = st.session_state
    place = PracticeState(
        seed=ss[keys.PR_SEED],
        ex=ss[keys.PR_NUMBER],
        level=ss[keys.PR_LEVEL],
        kind=None if ss[keys.PR_KIND] == MIXED else ss[keys.PR_KIND],
    )
    return practice_data(ss[keys.PR_PROGRESS], place, ss[keys.PR_MISSED_MODE])


def current_exercise() -> Exercise:
    ss = st.session_state
    kind = ss[keys.PR_PICK] or (
        ss[keys.PR_KIND] if ss[keys.PR_KIND] != MIXED else kind_for(ss[keys.PR_SEED], ss[keys.PR_NUMBER])
    )
    return make_exercise(ss[keys.PR_SEED], ss[keys.PR_NUMBER], kind, ss[keys.PR_LEVEL])


# ------------------------------------------------------------------ callbacks


def _step(delta: int) -> None:
    """Previous (−1) or Next (+1) from the exercise the session is on now, never from the number
    drawn with the button: a second press can reach the server before the first one's run has
    drawn the buttons again, and it moves on again."""
    ss = st.session_state
    ss[keys.PR_WARNINGS] = []  # a share link's complaints are retired by the first move
    ss[keys.PR_NUMBER] = max(1, ss[keys.PR_NUMBER] + delta)
    if ss[keys.PR_MISSED_MODE] and ss[keys.PR_KIND] == MIXED:
        ss[keys.PR_PICK] = next_kind(ss[keys.PR_PROGRESS], ss[keys.PR_SEED], ss[keys.PR_NUMBER])
    else:
        ss[keys.PR_PICK] = None


def _set_level() -> None:
    st.session_state[keys.PR_WARNINGS] = []
    st.session_state[keys.PR_LEVEL] = int(st.session_state[keys.PR_W_LEVEL] or 1)
    st.session_state[keys.PR_PICK] = None


def _set_kind() -> None:
    st.session_state[keys.PR_WARNINGS] = []
    st.session_state[keys.PR_KIND] = st.session_state[keys.PR_W_KIND]
    st.session_state[keys.PR_PICK] = None


def _set_missed() -> None:
    st.session_state[keys.PR_MISSED_MODE] = st.session_state[keys.PR_W_MISSED]


def _new_set() -> None:
    ss = st.session_state
    ss[keys.PR_WARNINGS] = []
    ss[keys.PR_SEED] = random.randrange(1, 10_000)
    ss[keys.PR_NUMBER] = 1
    ss[keys.PR_PICK] = None


def _judge(exercise: Exercise, response, same) -> None:
    """Judge a response; ``same`` is what makes two responses one (an answer's stripped text):
    a response judged before for this exercise (Enter then Check, Check again) counts nothing."""
    ss = st.session_state
    ss[keys.PR_CHECKS] = ss.get(keys.PR_CHECKS, 0) + 1  # each check is announced, a same verdict too
    feedback = check(exercise, response)
    ss[keys.PR_FEEDBACK] = {**ss[keys.PR_FEEDBACK], exercise.key: feedback}
    if not feedback.counts:  # unreadable or too rough: not a try
        return
    tries, counts = ss[keys.PR_TRIES].get(exercise.key, Tries()).submit(same, feedback.correct)
    ss[keys.PR_TRIES] = {**ss[keys.PR_TRIES], exercise.key: tries}
    if counts:
        ss[keys.PR_PROGRESS] = ss[keys.PR_PROGRESS].record(exercise, feedback)


def _check_number(exercise: Exercise, key: str) -> None:
    text = st.session_state.get(key) or ""
    _judge(exercise, text, text.strip())


def _check_choice(exercise: Exercise, key: str) -> None:
    picked = st.session_state.get(key)
    choice = exercise.names[exercise.choices.index(picked)] if picked in exercise.choices else None
    _judge(exercise, choice, choice)


def _check_order(exercise: Exercise) -> None:
    order = st.session_state[keys.PR_ORDERS].get(exercise.key, exercise.labels)
    _judge(exercise, list(order), tuple(order))


def _show_solution(exercise: Exercise) -> None:
    ss = st.session_state
    shown = ss[keys.PR_TRIES].get(exercise.key, Tries()).show()
    ss[keys.PR_TRIES] = {**ss[keys.PR_TRIES], exercise.key: shown}


def _more_hint(key: str) -> None:
    ss = st.session_state
    ss[keys.PR_HINTS] = {**ss[keys.PR_HINTS], key: min(3, ss[keys.PR_HINTS].get(key, 0) + 1)}


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


def _answer_area(e: Exercise) -> None:
    ss = st.session_state
    if e.answer_type == "number":
        key = keys.pr_answer(e.key)
        with st.form(key=f"pr_form_{e.key}", border=False):
            st.text_input(
                _("Your answer"),
                key=key,
                placeholder=_("e.g. 0.82 or 3 + 2/1.585"),
                help=_("A number (at least 2 decimals unless it is whole) or arithmetic with + - * / ^ ( )."),
            )
            st.form_submit_button(_("Check"), type="primary", on_click=_check_number, args=(e, key))
        _show_me(e)
    elif e.answer_type == "choice":
        key = keys.pr_choice(e.key)
        st.radio(_("Your answer"), list(e.choices), index=None, key=key, format_func=md_escape)
        with st.container(horizontal=True):
            st.button(
                _("Check"), key=f"pr_check_{e.key}", type="primary", on_click=_check_choice, args=(e, key)
            )
            _show_me(e)
    else:
        order = list(ss[keys.PR_ORDERS].get(e.key, e.labels))
        grade = dict(zip(e.labels, e.grades, strict=True))
        shown = {
            _("{label}  ·  grade {g}").format(label=label, g=f"{grade[label]:g}"): label for label in order
        }
        st.caption(_("Drag an item up or down; then check."))
        with st.container(key="pr_drag"):  # names the list's frame (views.ui.a11y.FRAMES)
            new = sort_items(
                list(shown), direction="vertical", custom_style=SORTABLE_STYLE, key=f"pr_sort_{e.key}"
            )
        if new and sorted(new) == sorted(shown) and new != list(shown):
            ss[keys.PR_ORDERS] = {**ss[keys.PR_ORDERS], e.key: tuple(shown[t] for t in new)}
        st.button(_("Check order"), key=f"pr_check_{e.key}", type="primary", on_click=_check_order, args=(e,))


def _show_me(e: Exercise) -> None:
    """ "Show me": the worked solution now, for a student who is stuck (until it is shown)."""
    if not st.session_state[keys.PR_TRIES].get(e.key, Tries()).solution_shown:
        st.button(_("Show me"), key=f"pr_show_{e.key}", on_click=_show_solution, args=(e,))


def _feedback(e: Exercise) -> None:
    """The verdict on the last answer: before the solution is shown, a wrong answer gets its
    diagnosis only (the student tries again); then the whole verdict, its row and its formula."""
    fb = st.session_state[keys.PR_FEEDBACK].get(e.key)
    tries = st.session_state[keys.PR_TRIES].get(e.key, Tries())
    if fb is None and not tries.shown:
        return
    with st.container(key=keys.PR_FEEDBACK):
        if fb is None or (fb.problem and tries.shown):
            fb = solution(e)  # "Show me" with no judged answer to explain
            st.info(md_escape(fb.message), icon=":material/school:")
        elif fb.correct:
            st.success(md_escape(fb.message), icon=":material/check_circle:")
        elif fb.problem:
            st.warning(md_escape(fb.message))
        elif e.answer_type == "order" or tries.solution_shown:
            st.error(md_escape(fb.message), icon=":material/lightbulb:")
        else:
            _announce(fb.diagnosis)
            st.error(md_escape(fb.diagnosis), icon=":material/lightbulb:")
            st.caption(_("Try again. A hint can help; Show me gives the worked solution."))
            _focus_row(e, fb, solved=False)
            return
        _announce(fb.message)
        if fb.correct or e.answer_type != "number":
            return
        _focus_row(e, fb, solved=True)
        for latex in feedback_latex(e, fb):
            st.latex(latex)


def _announce(text: str) -> None:
    """Say the shown verdict to a screen reader, once per check (a same verdict too)."""
    announce(f"pr_verdict_{st.session_state.get(keys.PR_CHECKS, 0)}", text)


def _focus_row(e: Exercise, fb, solved: bool) -> None:
    """The step-table row the feedback points at: the asked formula's beside the student's way;
    before the solution only the student's way (when the mistake is another formula choice)."""
    if fb.focus is None:
        return
    rows = focus_rows(e, fb)
    if not solved:
        if len(rows.columns) < 3:  # no "Your way" column: nothing to show yet
            return
        rows = rows.drop(columns=rows.columns[1])  # the asked formula's row holds the answer
    table, position = fb.focus
    if table == "ideal_steps":
        st.markdown(_("**Row {n} of the ideal ordering's step table**").format(n=position))
    else:
        st.markdown(_("**Row {n} of your ranking's step table**").format(n=position))
    shown = rows.assign(**{c: rows[c].map(_cell) for c in rows.columns[1:]})
    shown[shown.columns[0]] = shown[shown.columns[0]].map(_)
    with st.container(key="pr_focus_row"):
        st.dataframe(shown, hide_index=True, width="content")


def _cell(value) -> str:
    return value if isinstance(value, str) else number(float(value))


def _hints(e: Exercise) -> None:
    ss = st.session_state
    shown = ss[keys.PR_HINTS].get(e.key, 0)
    levels = hints(e)
    with st.container(key=keys.PR_HINTS):
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
    p: Progress = st.session_state[keys.PR_PROGRESS]
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
    _defaults()
    place_in_link = PRACTICE.carried(PRACTICE.params(st.query_params.to_dict()))
    adopt(PRACTICE, _load)
    _restore(place_in_link)
    ss = st.session_state
    e = current_exercise()
    save("practice", _saved_document(), worth_keeping=bool(ss[keys.PR_PROGRESS].attempts))
    sync_url((PRACTICE, _state()))

    st.markdown("# " + _("Practice"))
    st.caption(
        _(
            "Exercises with instant feedback: a wrong number gets the mistake that produced it named. "
            "Each exercise states its own formula."
        )
    )
    for message in ss[keys.PR_WARNINGS]:
        st.warning(md_escape(error_text(message)))
    learner_message()

    with st.container(key="pr_controls"):
        c1, c2 = st.columns([0.5, 0.5])
        ss[keys.PR_W_LEVEL] = ss[keys.PR_LEVEL]
        c1.segmented_control(
            _("Level"),
            list(LEVELS),
            key=keys.PR_W_LEVEL,
            on_change=_set_level,
            format_func=lambda n: _("Level {n}").format(n=n),
            help=" · ".join(map(_, LEVELS.values())),
        )
        ss[keys.PR_W_KIND] = ss[keys.PR_KIND]
        c2.selectbox(
            _("Kind"),
            KIND_OPTIONS,
            key=keys.PR_W_KIND,
            on_change=_set_kind,
            format_func=lambda k: _("Mixed") if k == MIXED else _(KINDS[k]),
        )
        ss[keys.PR_W_MISSED] = ss[keys.PR_MISSED_MODE]
        st.toggle(
            _("Practise what you missed"),
            key=keys.PR_W_MISSED,
            on_change=_set_missed,
            help=_("In a mixed set, the next exercise favours the kinds you answered wrongly."),
            disabled=ss[keys.PR_KIND] != MIXED,
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
        pgettext("exercise", "Previous"),  # the previous exercise (Learn's "Previous" is a step)
        key="pr_prev",
        on_click=_step,
        args=(-1,),
        disabled=e.number <= 1,
        width="stretch",
    )
    n2.button(_("Next exercise"), key="pr_next", on_click=_step, args=(1,), type="primary", width="stretch")
    n3.button(_("New set"), key="pr_new", on_click=_new_set, width="stretch", help=_("A new random seed"))
    # The link says which exercises, never whose progress (that stays in this browser's cookie).
    st.caption(
        _("Exercise set {seed}: share this page's link to hand out the same exercises.").format(
            seed=ss[keys.PR_SEED]
        )
    )
    _progress()
    where_next("practice")


render()

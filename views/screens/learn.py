"""Learn: NDCG built in seven steps, one column at a time, and a presenter mode for the projector.

The list is the playground's own (``pg_items``, ``pg_pool``, ``pg_spec``): one state, so a
change here shows there and back. The lesson itself (text, columns, predictions) comes from
``ndcg_core.teaching.lesson``; this page only lays it out.

Page state (non-widget, so it survives a visit to another page): ``learn_step`` and
``learn_present`` (what the page's share link carries: :class:`ndcg_core.teaching.pages.LearnState`),
``learn_predictions`` (what was typed, judged and revealed at each step:
:class:`ndcg_core.teaching.predictions.Predictions`; a wrong answer gets its diagnosis and another
try, the answer shows after the second wrong one or on "Show me") and ``learn_url`` (the page's
parameters last written to the address bar, see ``views.ui.share``).
"""

from __future__ import annotations

import html
import math

import pandas as pd
import streamlit as st

from ndcg_core.errors import error_text
from ndcg_core.i18n import _
from ndcg_core.teaching import EXAMPLES, get_example
from ndcg_core.teaching.answers import examples
from ndcg_core.teaching.formula import number
from ndcg_core.teaching.lesson import (
    COLUMN_HELP,
    IDEAL_COLUMNS,
    N_STEPS,
    STEP_CHARTS,
    LessonStep,
    check_answer,
    clamp_step,
    cutoff_for,
    ideal_title,
    lesson_step,
    step_frame,
)
from ndcg_core.teaching.pages import LearnState
from ndcg_core.teaching.playground import all_scored, state_from_example
from ndcg_core.teaching.predictions import Predictions
from ndcg_core.teaching.presenter import (
    K_FROM,
    asks,
    k_after,
    projected_text,
    screen,
    screen_table,
)
from ndcg_core.teaching.rendering import explained, state_figure
from ndcg_core.teaching.saved import learn_data, learn_from_data
from views.pages import PAGES
from views.ui import keys, styles
from views.ui.a11y import announce, focused_space_presses_the_button, move_focus
from views.ui.charts import chart
from views.ui.drag import drag_list
from views.ui.formula import PLAYGROUND, formula_name, load_spec
from views.ui.history import history_buttons, record_history
from views.ui.items import items_editor
from views.ui.learner import learner_message, progress_note, save, take_loaded
from views.ui.markup import md_escape
from views.ui.present import projected_chart
from views.ui.session import bump
from views.ui.share import LEARN, SHARED, adopt, sync_url
from views.ui.start import where_next
from views.ui.state import current_state, load_state
from views.ui.tables import export_buttons, lesson_buttons, lesson_grid, lesson_html_table

METRIC_LABEL = {"NDCG": "NDCG", "DCG": "DCG", "IDCG": "IDCG", "CG": "CG"}


# ------------------------------------------------------------------ state and URL


def _init_page() -> None:
    """Take the step and presenter mode from the address bar on arrival and after Back/Forward."""
    ss = st.session_state
    ss.setdefault(keys.LEARN_PREDICTIONS, Predictions())
    ss.setdefault(keys.LEARN_SHOWN, set())
    step_in_link = LEARN.carried(LEARN.params(st.query_params.to_dict()))
    adopt(LEARN, _load)
    _restore(step_in_link)


def _restore(step_in_link: bool) -> None:
    """Put the learner's saved answers in place, once loaded; the step too, unless the link names one."""
    data = take_loaded("learn")
    if data is None:
        return
    ss = st.session_state
    saved = learn_from_data(data)
    ss[keys.LEARN_PREDICTIONS] = ss[keys.LEARN_PREDICTIONS].restored(saved.revealed, saved.answers)
    if saved.step is not None and not step_in_link:
        ss[keys.LEARN_STEP] = saved.step


def _save() -> None:
    """Keep the student's answers and step for a later visit, once a prediction was answered or skipped."""
    ss = st.session_state
    predictions = ss[keys.LEARN_PREDICTIONS]
    document = learn_data(ss[keys.LEARN_STEP], predictions.revealed, predictions.answers)
    save("learn", document, worth_keeping=bool(predictions.revealed))


def _load(state: LearnState, warnings: list[str]) -> None:
    """Put the page's state in place (a link's bad step already fell back to the nearest one), and
    keep the link's warnings with the state they gave."""
    ss = st.session_state
    ss[keys.LEARN_STEP] = state.step
    ss[keys.LEARN_PRESENT] = state.present
    ss[keys.LEARN_ROOM] = state.room
    if state.key is not None:  # checked once the page knows the room (views.room.lesson_link)
        ss[keys.LEARN_GIVEN_KEY] = (state.room, state.key)
    ss[keys.LEARN_WARNINGS] = (state, warnings)


def _link_warnings() -> None:
    """What the link got wrong (its step or presenter mode), shown as text while the page is still
    where that link put it: the first step or mode the user chooses retires it."""
    ss = st.session_state
    state, warnings = ss.get(keys.LEARN_WARNINGS) or (None, [])
    if state != _state():
        ss[keys.LEARN_WARNINGS] = None  # retired: coming back to that step does not bring it back
        return
    for message in warnings:
        st.warning(md_escape(error_text(message)))


def _state() -> LearnState:
    ss = st.session_state
    return LearnState(step=ss[keys.LEARN_STEP], present=ss[keys.LEARN_PRESENT], room=ss.get(keys.LEARN_ROOM))


def _go(delta: int) -> None:
    ss = st.session_state
    ss[keys.LEARN_STEP] = clamp_step(ss[keys.LEARN_STEP] + delta)
    _cut_for_step_7()
    _focus_next("step")


def _cut_for_step_7() -> None:
    """Step 7 asks about the rows below k: opened (by a click) with a k that covers the whole list,
    it sets k below the list's length (:func:`cutoff_for`) so that such rows exist. A k the student
    set below the length stays."""
    ss = st.session_state
    spec, n = ss[keys.PG_SPEC], len(ss[keys.PG_ITEMS])
    k = cutoff_for(n)
    if ss[keys.LEARN_STEP] != N_STEPS or k is None or (spec.variant.k is not None and spec.variant.k < n):
        return
    load_spec(PLAYGROUND, spec.with_k(k), n)


def _focus_next(after: str) -> None:
    """Ask for the keyboard focus to go to the next thing to do after ``after`` ("step": a new
    step was opened; "answer": a prediction was checked or skipped; "problem": it was unreadable),
    drawn by :func:`_move_focus`: Check and Skip disappear once used, and focus fell to the page's
    start (44 to 70 Tab presses back to Next)."""
    ss = st.session_state
    ss[keys.LEARN_FOCUS] = (ss.get(keys.LEARN_FOCUS, (0, ""))[0] + 1, after)


def _move_focus(step: LessonStep | None) -> None:
    """The focus request of the last callback, if any: the new step's prediction box when it asks
    one, else Next (or Previous on the last step); the box again for an unreadable answer."""
    ss = st.session_state
    n, after = ss.get(keys.LEARN_FOCUS, (0, ""))
    if not after:
        return
    ss[keys.LEARN_FOCUS] = (n, "")
    box = None
    if (
        step is not None
        and step.question is not None
        and step.number not in ss[keys.LEARN_PREDICTIONS].revealed
    ):
        key = keys.learn_choice(step.number) if step.question.choices else keys.learn_guess(step.number)
        box = f".st-key-{key} input"
    if after == "problem" or (after == "step" and box):
        target = box
    elif ss[keys.LEARN_STEP] < N_STEPS:
        target = ".st-key-learn_next button"
    else:
        target = ".st-key-learn_prev button"
    if target:
        move_focus(target, f"learn_focus_{n}")


def _go_to(n: int) -> None:
    st.session_state[keys.LEARN_STEP] = clamp_step(n)
    _cut_for_step_7()


def _set_present(on: bool) -> None:
    st.session_state[keys.LEARN_PRESENT] = on


def _toggle_present() -> None:
    _set_present(bool(st.session_state[keys.LEARN_PRESENT_TOGGLE]))


def _load_example() -> None:
    ss = st.session_state
    key = ss.get(keys.LEARN_EXAMPLE)
    if key:
        load_state(state_from_example(get_example(key)), example=key)
        ss[keys.PG_MESSAGES] = []


# ------------------------------------------------------------------ predictions


def _check(n: int) -> None:
    ss = st.session_state
    question = ss[keys.LEARN_QUESTION]
    text = ss.get(keys.learn_choice(n)) if question.choices else ss.get(keys.learn_guess(n), "")
    ss[keys.LEARN_PREDICTIONS], focus = ss[keys.LEARN_PREDICTIONS].check(
        n, question, "" if text is None else str(text)
    )
    _focus_next(focus)


def _skip(n: int) -> None:
    ss = st.session_state
    ss[keys.LEARN_PREDICTIONS] = ss[keys.LEARN_PREDICTIONS].skip(n)
    _focus_next("answer")


def _keep_typed(n: int) -> None:
    ss = st.session_state
    ss[keys.LEARN_PREDICTIONS] = ss[keys.LEARN_PREDICTIONS].type(n, ss.get(keys.learn_guess(n), ""))


def _prediction(step: LessonStep) -> bool:
    """Ask the step's prediction (or show its feedback); True when the new columns may show."""
    ss = st.session_state
    q, n = step.question, step.number
    if q is None:
        return True
    ss[keys.LEARN_QUESTION] = q
    predictions = ss[keys.LEARN_PREDICTIONS]
    with st.container(border=True, key="learn_predict"):
        if n not in predictions.revealed:
            st.markdown(_("**Predict first.** {prompt}").format(prompt=md_escape(q.prompt)))
            if q.choices:
                st.radio(_("Your answer"), q.choices, index=None, key=keys.learn_choice(n), format_func=_)
            else:
                key = keys.learn_guess(n)
                if key not in ss and n in predictions.typed:
                    ss[key] = predictions.typed[n]  # what was typed survives a page switch
                st.text_input(
                    _("Your answer"),
                    key=key,
                    on_change=_keep_typed,
                    args=(n,),
                    # examples that are never this question's answer (nor its printed roundings)
                    placeholder=_("a number, or arithmetic such as {arithmetic}").format(
                        arithmetic=examples([q.exact]).arithmetic
                    ),
                    help=_(
                        "Rounded answers count: {rounded} is right for {unrounded}. Use at least 2 decimals."
                    ).format(rounded=examples([q.exact]).rounded, unrounded=examples([q.exact]).unrounded),
                )
            c1, c2 = st.columns(2)
            c1.button(
                _("Check"), key="learn_check", on_click=_check, args=(n,), type="primary", width="stretch"
            )
            c2.button(_("Skip: show me"), key="learn_skip", on_click=_skip, args=(n,), width="stretch")
            if n in predictions.unreadable:  # said again in the page's language of the moment
                st.warning(md_escape(check_answer(q, predictions.unreadable[n]).message))
            elif n in predictions.answers:  # a wrong try: its diagnosis, not the answer
                with st.container(key="learn_diagnosis"):
                    feedback = check_answer(q, predictions.answers[n])
                    st.error(md_escape(feedback.diagnosis), icon=":material/lightbulb:")
                    st.caption(_("Try again, or Skip: show me for the answer."))
            return False
        with st.container(key="learn_feedback"):
            if n in predictions.answers:
                feedback = check_answer(q, predictions.answers[n])
                announce(f"learn_verdict_{n}", feedback.message)
                text = f"{md_escape(q.prompt)}  \n{md_escape(feedback.message)}"
                if feedback.correct:
                    st.success(text, icon=":material/check_circle:")
                else:
                    st.error(text, icon=":material/cancel:")
            else:
                st.info(md_escape(q.prompt) + "  \n" + _("Answer: {why}.").format(why=md_escape(q.why)))
    return True


# ------------------------------------------------------------------ drawing


def _metrics(step: LessonStep, ex, revealed: bool) -> None:
    if not step.metrics:
        return
    values = {"NDCG": ex.ndcg, "DCG": ex.dcg, "IDCG": ex.idcg, "CG": ex.cg}
    # One row that stays one row on a phone (views/ui/styles.py), like the playground's.
    with st.container(horizontal=True, gap="small", key="metric_row_learn"):
        for name in step.metrics:
            value = values[name]
            shown = _("undefined") if math.isnan(value) else number(value)
            if name == step.new_metric and not revealed:
                shown = "?"  # the prediction comes first
            st.metric(ex.named(METRIC_LABEL[name]), shown, border=True, help=_(COLUMN_HELP[name]))
    if "NDCG" in step.metrics and (step.new_metric != "NDCG" or revealed):
        # A screen reader hears NDCG change after a drag or an edit (not when a step shows it first).
        value = _("undefined") if math.isnan(ex.ndcg) else number(ex.ndcg)
        announce(f"learn_ndcg_{step.number}", f"{ex.named('NDCG')} = {value}", on_first_show=False)


def _table(ex, columns, *, ideal: bool = False) -> tuple[pd.DataFrame, list[bool]]:
    """A lesson table's ``columns`` (the ranking's, or the ideal ordering's) and which of its rows
    count for nothing: the step table's own "Beyond k" flags, since IDCG may sum more rows than k
    (trec_eval's whole pool)."""
    steps = ex.ideal_steps if ideal else ex.steps
    return step_frame(ex, columns, ideal=ideal), steps["Beyond k"].tolist()


def _figure(step: LessonStep, state, ex):
    """The step's chart (steps 1 to 3, which show none, export the gains chart); built once per state."""
    return state_figure(state, STEP_CHARTS.get(step.number, "gains"))


def _nav(present: bool, step: LessonStep | None = None, room=None, number: int | None = None) -> None:
    ss = st.session_state
    n = ss[keys.LEARN_STEP]
    with st.container(horizontal=True, key="learn_nav", vertical_alignment="center"):
        st.button(
            _("Previous"),
            key="learn_prev",
            icon=":material/arrow_back:",
            on_click=_go,
            args=(-1,),
            disabled=n == 1,
            shortcut="Left" if present else None,
        )
        with st.container(key="learn_step_no", width="content"):
            st.markdown(_("**Step {n} of {total}**").format(n=n, total=N_STEPS))
        st.button(
            _("Next"),
            key="learn_next",
            icon=":material/arrow_forward:",
            on_click=_go,
            args=(1,),
            disabled=n == N_STEPS,
            type="primary",
            shortcut="Right" if present else None,
        )
        if present and step is not None and asks(step):
            shown = n in ss[keys.LEARN_SHOWN]
            st.button(
                _("Hide the answer") if shown else _("Reveal the answer"),
                key="learn_reveal",
                icon=":material/visibility_off:" if shown else ":material/visibility:",
                on_click=_toggle_shown,
                args=(n, room, number),
                shortcut="A",
                help=_("Until you reveal it, the number the step asks for reads ? everywhere on the screen."),
            )
        if present and step is not None and step.number >= K_FROM:
            _k_buttons()
        if present:
            st.button(
                _("Leave presenter mode"),
                key="learn_exit",
                on_click=_set_present,
                args=(False,),
                shortcut="Esc",
            )
            history_buttons("learn_presenter", inline=True)
            from views.room.lesson_link import room_menu  # loads the database layer: presenter mode only

            with st.container(key="learn_corner", horizontal=True, width="content"):  # top right
                room_menu(room)
                if step is not None:  # a list NDCG can be computed on
                    with st.popover(
                        _("Slides"),
                        icon=":material/download:",
                        help=_("The whole lesson as one PDF or one PowerPoint deck, one step a page."),
                        key="learn_slides",
                    ):
                        lesson_buttons("learn_presenter", current_state())
        else:
            ss[keys.LEARN_PRESENT_TOGGLE] = ss[keys.LEARN_PRESENT]
            st.toggle(
                _("Presenter mode"),
                key=keys.LEARN_PRESENT_TOGGLE,
                on_change=_toggle_present,
                help=_(
                    "Full screen steps in large type for a projector. Keys: → / PageDown / Space next, "
                    "← / PageUp back, A reveals the answer to the room's question, ↑ / ↓ change k, "
                    "Esc leaves."
                ),
            )
            st.page_link(
                PAGES["playground"].script, label=_("Open in the playground"), icon=":material/tune:"
            )
    if present:
        # Clickers send PageDown/PageUp; Space also moves on. One shortcut per button, so two hidden ones.
        with st.container(key="learn_hidden_keys"):
            st.button(_("Next (PageDown)"), key="learn_next_pd", on_click=_go, args=(1,), shortcut="PageDown")
            st.button(_("Next (Space)"), key="learn_next_space", on_click=_go, args=(1,), shortcut="Space")
            st.button(
                _("Previous (PageUp)"), key="learn_prev_pu", on_click=_go, args=(-1,), shortcut="PageUp"
            )


def _set_k(k: int) -> None:
    """The playground's cutoff, set through its sidebar controls (drawn hidden in presenter mode)."""
    ss = st.session_state
    ss[PLAYGROUND.key("k_all")] = False
    ss[PLAYGROUND.key("k")] = k


def _step_k(delta: int) -> None:
    """k − 1 (``delta`` −1) or k + 1 from the cutoff the controls hold now, never from the k drawn
    with the button: a second press can reach the server before the first one's run has drawn
    the buttons again (a clicker pressed twice), and it moves k again."""
    ss = st.session_state
    kept = ss[keys.PG_SPEC].k
    whole = ss.get(PLAYGROUND.key("k_all"), kept is None)
    k = None if whole else int(ss.get(PLAYGROUND.key("k"), kept))
    _set_k(k_after(k, len(ss[keys.PG_ITEMS]), delta))


def _k_buttons() -> None:
    """k − 1 and k + 1 (keys ↓ and ↑): presenter mode hides the sidebar, where k is set otherwise."""
    n = len(st.session_state[keys.PG_ITEMS])
    k = st.session_state[keys.PG_SPEC].k
    now = n if k is None else k
    about = _("The cutoff k: DCG, IDCG and NDCG count the top k positions.")
    st.button(
        "k − 1",
        key="learn_k_down",
        on_click=_step_k,
        args=(-1,),
        disabled=now <= 1,
        shortcut="Down",
        help=about,
    )
    with st.container(key="learn_k_now", width="content"):
        st.markdown(f"**k = {now}**")
    st.button(
        "k + 1", key="learn_k_up", on_click=_step_k, args=(1,), disabled=now >= n, shortcut="Up", help=about
    )


def _toggle_shown(n: int, room=None, number: int | None = None) -> None:
    st.session_state[keys.LEARN_SHOWN] ^= {n}
    if room is not None and number is not None and n in st.session_state[keys.LEARN_SHOWN]:
        from views.room import lesson_link

        lesson_link.reveal(room, number)


def _presenter(step: LessonStep, ex, state) -> None:
    """The step at projector size; the number it asks the room for stays "?" until revealed. With a
    room, its question goes to the phones and the room's answers stand beside the table."""
    ss = st.session_state
    revealed = step.number in ss[keys.LEARN_SHOWN]
    room = number = results = None
    if ss.get(keys.LEARN_ROOM):
        from views.room import lesson_link  # only with a room: it loads the database layer

        room = lesson_link.linked()
        number = None if room is None else lesson_link.question_number(room, step, state, revealed)
        results = None if number is None else lesson_link.Results.of(room, number, revealed)
        lesson_link.room_notes()
    view = screen(step, revealed)
    st.html(styles.PRESENT)
    focused_space_presses_the_button(".st-key-learn_next_space")  # Space on a focused Previous: back
    with st.container(key="learn_stage"):
        st.html(
            f'<div class="learn-head"><span class="learn-badge">{step.number} / {N_STEPS}</span>'
            f'<h1 class="learn-title">{html.escape(step.title)}</h1></div>'
        )
        paragraphs = "".join(f"<p>{html.escape(p)}</p>" for p in projected_text(step))
        if step.question is not None:
            ask = _("Ask the room: {prompt}").format(prompt=step.question.prompt)
            # The answer joins the question's line: a line more would push the table off 1280×720.
            answer = f' <span class="answer">{html.escape(view.answer)}</span>' if view.answer else ""
            paragraphs += f'<p class="ask">{html.escape(ask)}{answer}</p>'
        st.html(f'<div class="learn-text">{paragraphs}</div>')
        if step.number in STEP_CHARTS or room is not None:  # beside the table: 10 rows fit 1280×720
            table, side = st.columns([0.56, 0.44], gap="medium")
            with table, st.container(key="learn_table"):
                st.html(lesson_html_table(*screen_table(ex, view)))
            with side, st.container(key="learn_present_side"):
                _metrics(step, ex, revealed=view.hidden_metric is None)
                if results is not None:
                    results.numbers()
                for formula in view.formulas:
                    st.latex(formula)
                if results is not None:  # the room's answers, in the chart's place
                    results.details()
                elif room is not None and step.question is None:
                    lesson_link.join_panel(room)
                elif view.chart:  # never while a number reads "?": the chart would show it
                    with st.container(key="learn_present_chart"):
                        projected_chart(_figure(step, current_state(), ex))
        else:
            _metrics(step, ex, revealed=view.hidden_metric is None)
            for formula in view.formulas:
                st.latex(formula)
            with st.container(key="learn_table"):
                st.html(lesson_html_table(*screen_table(ex, view)))
    _nav(present=True, step=step, room=room, number=number)


def _list_panel() -> None:
    ss = st.session_state
    st.markdown("**" + _("Your list") + "**")
    if all_scored(ss[keys.PG_ITEMS]):
        st.caption(_("The ranking follows the items' scores; clear them in the Playground to drag."))
    else:
        drag_list(ss[keys.PG_ITEMS])
    history_buttons("learn")
    with st.expander(_("Edit names and grades")):
        items, problems = items_editor(keys.ITEMS, ss[keys.PG_ITEMS], "D", with_scores=True)
        if not problems and items != ss[keys.PG_ITEMS]:
            ss[keys.PG_ITEMS] = items
            bump(keys.PG_SORT_VERSION)
        for message in problems:
            st.error(message)
    st.selectbox(
        _("Load a worked example"),
        [e.key for e in EXAMPLES],
        index=None,
        key=keys.LEARN_EXAMPLE,
        on_change=_load_example,
        format_func=lambda key: _(get_example(key).title),
        placeholder=_("Choose an example"),
    )


def _lesson(step: LessonStep, state, ex) -> None:
    st.markdown(f"## {step.number}. {md_escape(step.title)}")
    for paragraph in (*step.text, *step.hints):
        st.markdown(md_escape(paragraph))
    revealed = _prediction(step)
    for paragraph in step.after if revealed else ():  # they hold the prediction's answer
        st.markdown(md_escape(paragraph))
    columns = step.columns if revealed else step.before_reveal
    _metrics(step, ex, revealed)
    for formula in step.formulas if revealed else ():  # a formula would give the answer away
        st.latex(formula)
    st.markdown("**" + _("Your ranking") + "**")
    lesson_grid(*_table(ex, columns), "learn_steps")
    if step.ideal and revealed:
        st.markdown("**" + md_escape(ideal_title(ex)) + "**")
        lesson_grid(*_table(ex, IDEAL_COLUMNS, ideal=True), "learn_ideal")
    figure = _figure(step, state, ex)
    if step.number in STEP_CHARTS and revealed:
        chart(figure, key="learn_chart")
    if step.number == N_STEPS:
        with st.container(key="learn_to_practice"):
            st.page_link(
                PAGES["practice"].script,
                label=_("You have built NDCG. Next: test yourself in Practice"),
                icon=":material/quiz:",
            )
    with st.expander(_("Export this step for slides"), icon=":material/download:"):
        frame = step_frame(ex, IDEAL_COLUMNS, ideal=True) if step.ideal else step_frame(ex, columns)
        export_buttons("learn", frame, step.formulas, figure, f"ndcg-step-{step.number}")
    with st.expander(_("Export the whole lesson for slides"), icon=":material/slideshow:"):
        st.caption(
            _(
                "All seven steps of this list, one per 16:9 page: title, text, formula, table and "
                "chart. The PowerPoint's speaker notes hold each step's question and its answer."
            )
        )
        with st.container(horizontal=True):
            lesson_buttons("learn", state)


def _explain(state):
    """The explanation of the shared list, or the message saying why there is none."""
    if not state.items:
        return None, _(
            "The list is empty. Add items under 'Edit names and grades', or load a worked example."
        )
    try:
        return explained(state), None
    except ValueError as err:
        return None, _("Cannot compute NDCG: {problem}").format(problem=md_escape(error_text(err)))


def render() -> None:
    ss = st.session_state
    _init_page()
    _save()  # before drawing: the page's note says whether the progress is kept
    _link_warnings()
    if ss[keys.LEARN_PRESENT]:
        state = current_state()
        ex, problem = _explain(state)
        if ex is not None:
            _presenter(lesson_step(ss[keys.LEARN_STEP], ex), ex, state)
        else:
            st.html(styles.PRESENT)
            st.info(problem)
            _nav(present=True)
        ss[keys.LEARN_FOCUS] = (ss.get(keys.LEARN_FOCUS, (0, ""))[0], "")  # the buttons stay, and the focus
    else:
        for message in ss.get(keys.PG_URL_WARNINGS, []):
            st.warning(md_escape(error_text(message)))
        learner_message()
        st.markdown("# " + _("Learn NDCG in seven steps"))
        formula_name(ss[keys.PG_SPEC])
        _nav(present=False)
        # The lesson comes first (on a phone the columns stack), the list beside it.
        right, left = st.columns([0.7, 0.3], gap="large")
        with left:
            _list_panel()  # drawn first: it may change the list the lesson shows
        state = current_state()
        ex, problem = _explain(state)
        step = None if ex is None else lesson_step(ss[keys.LEARN_STEP], ex)
        with right:
            if step is None:
                st.info(problem)
            else:
                _lesson(step, state, ex)
        progress_note("learn")
        where_next("learn")
        _move_focus(step)
    sync_url((SHARED, state), (LEARN, _state()))
    record_history()


def page() -> None:
    """The page: what its script (``views/learn.py``) runs on every run."""
    render()

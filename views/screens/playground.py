"""The playground: type, paste, drag, and watch every NDCG step update."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from ndcg_core.errors import error_text
from ndcg_core.i18n import N_, _
from ndcg_core.teaching import EXAMPLES, get_example
from ndcg_core.teaching.examples import SOURCES
from ndcg_core.teaching.formula import number
from ndcg_core.teaching.lesson import ideal_title
from ndcg_core.teaching.playground import (
    DEFAULT_STATE,
    MAX_URL,
    Item,
    PlaygroundState,
    all_scored,
    fill_labels,
    make_items,
    parse_entries,
    reorder,
    state_from_example,
)
from ndcg_core.teaching.rendering import explained, state_figure, state_formulas
from ndcg_core.variants import format_number
from views.ui import keys
from views.ui.a11y import announce
from views.ui.charts import chart
from views.ui.drag import drag_list, dragged
from views.ui.formula import PLAYGROUND, formula_name
from views.ui.history import history_buttons, record_history
from views.ui.items import items_table, read_items_table
from views.ui.markup import md_escape
from views.ui.session import bump, next_id, send_now
from views.ui.share import SHARED, state_file_controls, sync_url
from views.ui.start import start_panel, where_next
from views.ui.state import current_state, load_state
from views.ui.tables import export_buttons, step_table

ORDER_HELP = {
    "ideal": N_("Best first: highest gain on top (the highest grade, unless a gain table says otherwise)"),
    "worst": N_("Worst first: the lowest gain on top"),
    "reverse": N_("Turn the current order upside down"),
    "shuffle": N_("A random order"),
    "reset": N_("Back to the order the items were entered in"),
}
ORDER_LABELS = {
    "ideal": N_("Ideal"),
    "worst": N_("Worst"),
    "reverse": N_("Reverse"),
    "shuffle": N_("Shuffle"),
    "reset": N_("Reset"),
}
CHARTS = {
    N_("Gain per position"): "gains",
    N_("Cumulative DCG"): "cumulative",
    N_("NDCG at every k"): "ndcg_at_k",
}
SHOWN_COLUMNS = ["Position", "Item", "Grade", "Gain", "Divisor", "Discounted gain", "Cumulative DCG"]


# ------------------------------------------------------------------ callbacks


def _set_items(items: tuple[Item, ...], *, keep_editor: bool = False) -> None:
    """Adopt ``items``; ``keep_editor``: the item table still holds them (a new order, or its own edit)."""
    ss = st.session_state
    ss[keys.PG_ITEMS] = items
    ss[keys.PG_MESSAGES] = []  # a successful change retires the last complaint
    bump(keys.PG_SORT_VERSION)
    if not keep_editor:
        bump(keys.table_version(keys.ITEMS))


def _order(how: str) -> None:
    try:  # Ideal and Worst sort by the formula's gain (a custom table may rank grades otherwise)
        items = reorder(st.session_state[keys.PG_ITEMS], how, gain=current_state().spec.variant.gain_spec)
    except ValueError:  # a grade the gain table lacks: the page already says so; sort by grade
        items = reorder(st.session_state[keys.PG_ITEMS], how)
    _set_items(items, keep_editor=True)


def _move(delta: int) -> None:
    ss = st.session_state
    items = list(ss[keys.PG_ITEMS])
    ids = [i.id for i in items]
    if ss.get(keys.PG_MOVE_ID) not in ids:
        return
    pos = ids.index(ss[keys.PG_MOVE_ID])
    new = pos + delta
    if 0 <= new < len(items):
        items[pos], items[new] = items[new], items[pos]
        _set_items(tuple(items), keep_editor=True)


def _quick_entry() -> None:
    ss = st.session_state
    try:
        pairs = parse_entries(ss[keys.QUICK_ENTRY])
    except ValueError as err:
        ss[keys.PG_MESSAGES] = [
            _("Quick entry: {problem}. Your list is unchanged.").format(problem=md_escape(error_text(err)))
        ]
        return
    if not pairs:
        ss[keys.PG_MESSAGES] = [_("Quick entry is empty: type grades such as 3,2,3,0,1,2 or A:0.5, B:0.9.")]
        return
    ss[keys.PG_MESSAGES] = []
    _set_items(make_items(fill_labels(pairs), start=next_id()))
    if not ss[PLAYGROUND.key("k_all")] and ss[PLAYGROUND.key("k")] > len(pairs):
        ss[PLAYGROUND.key("k")] = len(pairs)


def _load_example(key: str) -> None:
    load_state(state_from_example(get_example(key)), example=key)
    st.session_state[keys.PG_MESSAGES] = []


def _clear_scores() -> None:
    _set_items(tuple(replace(i, score=None) for i in st.session_state[keys.PG_ITEMS]))


def _reset_all() -> None:
    load_state(DEFAULT_STATE)
    st.session_state[keys.PG_MESSAGES] = []


# ------------------------------------------------------------------ sidebar


def _gallery() -> None:
    """The worked examples, a group per source; a group's buttons are drawn only while it is open.

    Every element on the page costs the browser time whenever a script starts or stops (a drag
    included), and the closed groups would otherwise hold over twenty buttons.
    """
    st.subheader(_("Worked examples"))
    st.caption(_("One click loads the list and the formula a document used."))
    for seed, source in SOURCES.items():
        group = st.expander(_(source), key=f"gallery_{seed}", on_change="rerun")
        if not group.open:
            continue
        with group:
            for ex in (e for e in EXAMPLES if e.seed == seed):
                st.button(
                    _(ex.title),
                    key=f"example_{ex.key}",
                    on_click=_load_example,
                    args=(ex.key,),
                    help=_(ex.lesson),
                    width="stretch",
                )


# ------------------------------------------------------------------ main views


def _shown_columns(steps: pd.DataFrame) -> list[str]:
    scored = "Score" in steps and not np.isnan(steps["Score"].to_numpy(dtype=float)).all()
    return SHOWN_COLUMNS + (["Score", "Tie group"] if scored else [])


def _figures_panel(state: PlaygroundState, ex) -> None:
    key = st.session_state.get(keys.PG_EXAMPLE)
    if not key:
        return
    example = get_example(key)
    original = state_from_example(example)
    same = [(i.label, i.grade, i.score) for i in state.items + state.pool] == [
        (i.label, i.grade, i.score) for i in original.items + original.pool
    ]
    if not same or state.variant != example.variant:
        st.caption(
            _("You changed the loaded example ({title}); its printed figures are hidden.").format(
                title=_(example.title)
            )
        )
        return
    title = _("From the document ({source}): {title}").format(
        source=_(SOURCES[example.seed]), title=_(example.title)
    )
    with st.expander(title, expanded=True):
        st.write(_(example.lesson))
        if example.figures:
            rows = [
                {
                    _("Figure"): _(f.label),
                    _("Printed"): f.printed,
                    _("Exact"): number(f.exact(ex), 6),
                    _("Why they differ"): _(f.note),
                }
                for f in example.figures
            ]
            st.dataframe(pd.DataFrame(rows), hide_index=True)


def _read_tables() -> list[str]:
    """Adopt what the item tables hold (edits typed since the last run); returns their problems.

    Read before anything is drawn, so the numbers a change moves are drawn first.
    """
    ss = st.session_state
    items, problems = read_items_table(keys.ITEMS, ss[keys.PG_ITEMS], "D", with_scores=True)
    if not problems and items != ss[keys.PG_ITEMS]:
        _set_items(items, keep_editor=True)
    pool, pool_problems = read_items_table(keys.POOL, ss[keys.PG_POOL], "J")
    if not pool_problems and pool != ss[keys.PG_POOL]:
        ss[keys.PG_POOL] = pool
    return problems + pool_problems


def _edit_controls() -> None:
    """The Edit items tab: quick entry and the items' table."""
    ss = st.session_state
    st.text_area(  # several lines: rows pasted from a spreadsheet keep their line breaks
        _("Type or paste a list"),
        key=keys.QUICK_ENTRY,
        on_change=_quick_entry,
        height=100,
        placeholder=_("3,2,3,0,1,2   or   A:0.5, B:0.9, C:0.3   or one item a line"),
        help=_(
            "On one line: grades alone or label:grade pairs, separated by commas. On several lines: one "
            "item a line, such as rows pasted from a spreadsheet (label, tab, grade) or a column of grades. "
            "Press Ctrl+Enter, or click outside the box."
        ),
    )
    items_table(keys.ITEMS, ss[keys.PG_ITEMS], with_scores=True)


def _pool_controls() -> None:
    """The Not retrieved tab: the judged items outside the ranking."""
    spec = st.session_state[keys.PG_SPEC]
    if spec.ideal_source == "retrieved":
        st.caption(
            _(
                "Judged items the ranking did not retrieve. Under {library}'s rules they count nowhere: "
                "its ideal ordering uses the retrieved items only."
            ).format(library=spec.library)
        )
    else:
        st.caption(_("Judged items the ranking did not retrieve: they only enter the ideal ordering."))
    items_table(keys.POOL, st.session_state[keys.PG_POOL])


def _order_controls() -> None:
    """The Order tab: the drag list (or the note on scores), one-click orders, move up/down, undo."""
    ss = st.session_state
    score_mode = all_scored(ss[keys.PG_ITEMS])
    if score_mode:  # scored items follow their scores: nothing to drag
        st.info(
            _(
                "The ranking follows the items' scores, higher first; equal scores follow the "
                "'Tied scores' rule in the sidebar. Clear the scores to order the list by hand."
            )
        )
        st.button(_("Clear the scores"), key="clear_scores", on_click=_clear_scores)
    else:
        drag_list(ss[keys.PG_ITEMS])
        with st.container(horizontal=True, gap="small", key="button_row_order"):
            for how in ORDER_LABELS:
                st.button(
                    _(ORDER_LABELS[how]),
                    key=f"order_{how}",
                    on_click=_order,
                    args=(how,),
                    width="stretch",
                    help=_(ORDER_HELP[how]),
                )
    movable = bool(ss[keys.PG_ITEMS]) and not score_mode
    if movable:
        ids = [i.id for i in ss[keys.PG_ITEMS]]
        labels = {
            i.id: f"{n}. {i.label} ({format_number(i.grade)})"
            for n, i in enumerate(ss[keys.PG_ITEMS], start=1)
        }
        if ss.get(keys.PG_MOVE_ID) not in ids:
            ss[keys.PG_MOVE_ID] = ids[0]
        # The choice is kept in non-widget state (pg_move_id); the box is a new widget whenever
        # the order changes, so its labels (which carry positions) are never stale.
        order_key = abs(hash(tuple(ids))) % 10**9
        ss[keys.PG_MOVE_ID] = st.selectbox(
            _("Move an item (keyboard friendly)"),
            ids,
            index=ids.index(ss[keys.PG_MOVE_ID]),
            key=f"move_item_{ss.get(keys.PG_SORT_VERSION, 0)}_{order_key}",
            format_func=labels.get,
        )
    with st.container(horizontal=True, gap="small", key="button_row_move"):
        if movable:
            st.button(_("Move up"), key="move_up", on_click=_move, args=(-1,), width="stretch")
            st.button(_("Move down"), key="move_down", on_click=_move, args=(1,), width="stretch")
        history_buttons("pg", inline=True)


def _metrics(state: PlaygroundState):
    """The metric row, or why there is none; the explained state, or None.

    The row spans the page above the two columns, so on a phone (where the columns stack) the
    number stays in view above the drag list.
    """
    if not state.items:
        st.info(
            _(
                "The list is empty. Type grades in **Edit items** (for example 3,2,3,0,1,2), "
                "or load a worked example from the sidebar."
            )
        )
        return None
    try:
        ex = explained(state)
    except ValueError as err:
        st.error(_("Cannot compute NDCG: {problem}").format(problem=md_escape(error_text(err))))
        return None
    with st.container(horizontal=True, gap="small", key="metric_row_pg"):
        st.metric(ex.named("NDCG"), number(ex.ndcg), border=True)
        st.metric(ex.named("DCG"), number(ex.dcg), border=True)
        st.metric(ex.named("IDCG"), number(ex.idcg), border=True)
        st.metric(ex.named("CG"), number(ex.cg), border=True)
    # A screen reader hears the headline change after a drag or an edit (not on arrival).
    announce("pg_ndcg", f"{ex.named('NDCG')} = {number(ex.ndcg)}", on_first_show=False)
    return ex


def _tables(state: PlaygroundState, ex) -> None:
    """The document's printed figures (for a loaded example) and the two step tables."""
    _figures_panel(state, ex)
    step_table(_("Your ranking"), ex.steps, "steps", _shown_columns(ex.steps))
    step_table(md_escape(ideal_title(ex)), ex.ideal_steps, "ideal_steps", _shown_columns(ex.ideal_steps))


def render() -> None:
    ss = st.session_state

    with st.sidebar:
        st.button(_("Start over (Wikipedia D1..D6)"), on_click=_reset_all, width="stretch")
        with st.expander(_("Save or load this state")):
            state_file_controls()
        _gallery()

    st.markdown("# " + _("NDCG, step by step"))
    start_panel()  # a first visit without a link: what NDCG is for, and three ways in
    for message in ss.get(keys.PG_URL_WARNINGS, []):
        st.warning(md_escape(error_text(message)))

    st.caption(
        _(
            "Drag the items, edit their grades, or change the formula in the sidebar: "
            "every number on this page follows."
        )
    )
    formula_name(ss[keys.PG_SPEC])
    ss[keys.PG_SIDEBAR_INPUTS] = _sidebar_inputs()
    _body()
    where_next("playground")


def _sidebar_inputs() -> tuple:
    """What the sidebar's formula controls read from the list (its length, scores, grades)."""
    ss = st.session_state
    grades = (
        frozenset(i.grade for i in ss[keys.PG_ITEMS] + ss[keys.PG_POOL])
        if ss.get(PLAYGROUND.key("gain")) == "custom"
        else None
    )
    return (len(ss[keys.PG_ITEMS]) + len(ss[keys.PG_POOL]), all_scored(ss[keys.PG_ITEMS]), grades)


@st.fragment
def _body() -> None:
    """Everything a drag or an edit changes: a drag reruns this alone, not the sidebar or the gallery.

    A change the sidebar depends on (the list's length sets k's maximum, scores show the tie
    rule, a custom gain table must cover every grade) reruns the whole page instead.
    The numbers are drawn first (the metric row above the columns, then the step tables, then the
    controls on their left): the browser shows what arrives first, so after a drag the metrics
    change before the tables and buttons are redrawn.
    """
    ss = st.session_state
    ss[keys.PG_BODY_RUNS] = ss.get(keys.PG_BODY_RUNS, 0) + 1
    dropped = (order := dragged(ss[keys.PG_ITEMS])) is not None
    if dropped:
        ss[keys.PG_ITEMS] = order  # the drop, adopted before the drag list is drawn again
    problems = _read_tables()
    if _sidebar_inputs() != ss.get(keys.PG_SIDEBAR_INPUTS):
        st.rerun()  # the sidebar was drawn for another list: redraw the whole page
    state = current_state()
    messages = st.container()
    ex = _metrics(state)
    if dropped:
        send_now()  # the new NDCG on screen first; then the tables, the formulas and the chart
    scored = all_scored(state.items)
    # With scores the left column only holds a note, and the step tables gain two columns.
    left, right = st.columns([0.24, 0.76] if scored else [0.34, 0.66], gap="medium")
    if ex is not None:
        with right:
            _tables(state, ex)
    with left:
        # Every tab is drawn on every run, the hidden ones too. Drawing only the open tab
        # (st.tabs(on_change="rerun")) saved a few ms per drag, but a table editor then mounts as
        # its tab opens and drops an edit made in its first second (a browser test caught it).
        order_tab, edit_tab, pool_tab = st.tabs([_("Order"), _("Edit items"), _("Not retrieved")])
        with edit_tab:
            _edit_controls()
        with pool_tab:
            _pool_controls()
        with order_tab:
            _order_controls()
    if (ss[keys.PG_ITEMS], ss[keys.PG_POOL]) != (state.items, state.pool) and not ss.get(keys.PG_REDRAWN):
        # A control changed the list after the numbers were drawn (none should: drops and table
        # edits were read first, buttons act in callbacks). Never leave stale numbers on screen,
        # and redraw once only: a control that kept changing the list must not loop the server.
        ss[keys.PG_REDRAWN] = True
        st.rerun()
    ss[keys.PG_REDRAWN] = False
    with messages:  # above the columns, where a projector audience sees them
        for message in ss.get(keys.PG_MESSAGES, []) + problems:
            st.error(message)
    if not sync_url((SHARED, state)):
        with messages:
            st.info(
                _(
                    "This state is too large for a link (over {max} characters, even compressed), "
                    "so the address bar no longer holds it. Download it as a file and load it back "
                    "under **Save or load this state** in the sidebar."
                ).format(max=f"{MAX_URL:,}")
            )
            state_file_controls(key="pg_state_download_here", with_loader=False)
    record_history()
    if ex is None:
        return

    st.markdown("## " + _("The formula with your numbers"))
    formulas = state_formulas(state)
    for formula in formulas:
        st.latex(formula)
    st.caption(_("Each term is gain / divisor; the grey #n under it is its row in the step table."))

    if ss.get(keys.CHART) not in CHARTS:
        ss[keys.CHART] = next(iter(CHARTS))
    st.segmented_control(
        _("Chart"), list(CHARTS), key=keys.CHART, label_visibility="collapsed", format_func=_
    )
    figure = state_figure(state, CHARTS[ss[keys.CHART]])
    chart(figure, key="chart_figure")
    export = st.expander(
        _("Export for slides"), icon=":material/download:", key=keys.PG_EXPORT, on_change="rerun"
    )
    if not export.open:
        return  # its buttons are drawn only when it is open (opening it reruns this fragment)
    with export:
        st.caption(
            _("The step table of your ranking, the formulas above, and the chart shown, at slide size.")
        )
        export_buttons("pg", ex.steps[_shown_columns(ex.steps)], formulas, figure, "ndcg-playground")


def page() -> None:
    """The page: what its script (``views/playground.py``) runs on every run."""
    render()

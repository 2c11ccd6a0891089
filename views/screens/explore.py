"""Explore: compare rankings, every formula variant, and what each real library reports."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from ndcg_core import PRESETS, library_table
from ndcg_core.errors import NDCGError, error_text
from ndcg_core.i18n import N_, _, separator
from ndcg_core.lists import read_list
from ndcg_core.teaching import get_example, variant_matrix
from ndcg_core.teaching.cards import CARDS
from ndcg_core.teaching.compare import (
    COMPARISON_PRESETS,
    MAX_RANKINGS,
    MIN_RANKINGS,
    Comparison,
    compare,
    comparison_from_group,
    playground_comparison,
)
from ndcg_core.teaching.export import table_html
from ndcg_core.teaching.figures import base_sensitivity_figure
from ndcg_core.teaching.formula import number
from ndcg_core.teaching.lesson import COLUMN_HELP
from ndcg_core.teaching.playground import state_from_example
from views.pages import PAGES
from views.ui import keys
from views.ui.charts import chart
from views.ui.comparison import NAME_CHARS, load_comparison, load_rankings, rankings_form
from views.ui.formula import OPTIONS, PLAYGROUND, formula_name, load_spec
from views.ui.items import items_editor
from views.ui.markup import md_escape
from views.ui.session import keep_widgets
from views.ui.start import where_next
from views.ui.state import current_state, load_state
from views.ui.tables import HEADERS, STYLE_LIMIT, beyond_caption, step_table, table_box

#: Where the formula table's ideal ordering comes from (ndcg_core.teaching.variant_matrix's "ideal" values).
IDEAL_SOURCES = {"list": N_("list"), "pool": N_("pool")}
#: Column names of the formula table (ndcg_core.teaching.variant_matrix), shown translated.
MATRIX_COLUMNS = (N_("gain"), N_("discount"), N_("log_base"), N_("ideal"), N_("k"), N_("winner"), N_("flips"))
#: The step-table columns of each compared ranking.
COMPARED_COLUMNS = ["Position", "Item", "Grade", "Discounted gain", "Cumulative DCG"]
#: Widgets whose values must survive a visit to another page (Streamlit drops a page's widget state).
KEPT = [
    *keys.CMP_RANKS,
    *map(keys.rank_name, keys.CMP_RANKS),
    keys.LIB_SCORES,
    keys.CMP_BASE_DEMO,
    keys.LIB_SNIPPET,
]


# ------------------------------------------------------------------ state


def _init() -> None:
    ss = st.session_state
    if keys.CMP_JUDGED not in ss:
        _load_group("items", set_variant=False)


def _load_group(group: str, set_variant: bool = True) -> None:
    c = comparison_from_group(group)
    load_comparison(c)
    if set_variant:
        load_spec(PLAYGROUND, c.spec, len(c.judged))


def _from_playground() -> None:
    state = current_state()
    try:
        c = playground_comparison(
            [(i.label, i.grade) for i in state.items],
            [(i.label, i.grade) for i in state.pool],
            (_("Playground"), _("Ideal")),
        )
    except NDCGError as err:  # a label repeats: a ranking could not name its items
        st.session_state[keys.CMP_MESSAGE] = md_escape(error_text(err))
        return
    load_comparison(c)


def _add_ranking() -> None:
    load_rankings(rankings_form().add_ranking())


def _remove_ranking() -> None:
    load_rankings(rankings_form().remove_ranking())


def _open_in_playground(key: str) -> None:
    load_state(state_from_example(get_example(key)), example=key)
    st.session_state[keys.GO_TO_PLAYGROUND] = True


# ------------------------------------------------------------------ sections


def _rankings_form() -> tuple[Comparison | None, list[str]]:
    """The form's widgets, bound to :class:`RankingsForm`; what it compares, or its problems as
    Markdown."""
    ss = st.session_state
    problems: list[str] = []
    left, right = st.columns([0.4, 0.6], gap="medium")
    with left:
        st.markdown(_("**Judged items** (every item with a grade, retrieved or not)"))
        judged, problems = items_editor(keys.CMP, ss[keys.CMP_JUDGED], "I")
        if not problems and judged != ss[keys.CMP_JUDGED]:
            ss[keys.CMP_JUDGED] = judged
    with right:
        st.markdown(_("**Rankings**: item labels in ranked order, separated by commas"))
        form = rankings_form()  # the widgets' values as this run starts: what the reader typed
        for key, name in zip(keys.CMP_RANKS, form.names, strict=False):
            c1, c2 = st.columns([0.22, 0.78], vertical_alignment="bottom")
            c1.text_input(_("Name"), key=keys.rank_name(key), max_chars=NAME_CHARS)
            c2.text_input(_("Order of {name}").format(name=md_escape(name)), key=key)
        count = len(form.rankings)
        b1, b2, b3 = st.columns(3)
        b1.button(_("Add a ranking"), key="cmp_add", on_click=_add_ranking, disabled=count >= MAX_RANKINGS)
        b2.button(
            _("Remove the last"), key="cmp_remove", on_click=_remove_ranking, disabled=count <= MIN_RANKINGS
        )
        b3.button(
            _("Playground list"),
            key="cmp_from_playground",
            on_click=_from_playground,
            help=_("Compare the playground's list with its ideal order"),
        )
    c, errors = form.comparison(current_state().spec)
    for name, err in errors:
        problem = md_escape(error_text(err))
        problems.append(
            _("Ranking {name}: {problem}.").format(name=md_escape(name), problem=problem) if name else problem
        )
    return (None if problems else c), problems


def _compare_section(c: Comparison) -> None:
    result = compare(c)
    k = next(iter(result.explanations.values())).k
    values = ", ".join(f"{name} {number(v)}" for name, v in result.values.items())
    if " = " in result.winner:
        st.info(_("A tie at NDCG@{k}: {values}.").format(k=k, values=md_escape(values)))
    elif result.winner:
        st.success(
            _("**{winner}** ranks better at NDCG@{k}: {values}.").format(
                winner=md_escape(result.winner), k=k, values=md_escape(values)
            )
        )
    cols = st.columns(len(result.explanations))
    for n, (col, (name, ex)) in enumerate(zip(cols, result.explanations.items(), strict=True)):
        with col:
            st.metric(_("NDCG@{k} of {name}").format(k=k, name=md_escape(name)), number(ex.ndcg), border=True)
            step_table(md_escape(name), ex.steps, f"cmp_steps_{n}", COMPARED_COLUMNS)
    ideal = next(iter(result.explanations.values()))
    if c.spec.ideal_source == "retrieved":
        idcgs = ", ".join(f"{name} {number(ex.idcg)}" for name, ex in result.explanations.items())
        st.caption(
            _(
                "Under {library}'s rules each ranking has its own ideal, from the items it lists: "
                "IDCG@{k} = {values}."
            ).format(library=c.spec.library, k=k, values=md_escape(idcgs))
        )
    else:
        st.caption(
            _("All rankings share one ideal: IDCG@{k} = {idcg} from every judged item.").format(
                k=k, idcg=number(ideal.idcg)
            )
        )
    _positions_table(result.positions, list(result.explanations))


def _positions_table(table: pd.DataFrame, names: list[str]) -> None:
    """What each ranking puts and gains at each position, side by side.

    Like the step tables above: up to STYLE_LIMIT rows an escaped HTML table, rows beyond k in
    grey, whose headers wrap on a phone and explain themselves on hover; longer, Streamlit's grid.
    """
    columns = [col for col in table.columns if col != "Beyond k"]
    labels = {"Position": _(HEADERS["Position"])}
    titles = {"Position": _(COLUMN_HELP["Position"])}
    for name in names:
        labels[f"{name}: item"] = _("{name}: item").format(name=name)
        titles[f"{name}: item"] = _("The item ranking {name} puts at this position.").format(name=name)
        labels[f"{name}: discounted gain"] = _("{name}: discounted gain").format(name=name)
        titles[f"{name}: discounted gain"] = _(COLUMN_HELP["Discounted gain"])
    if len(names) >= 2:
        titles[f"{names[1]} - {names[0]}"] = _(
            "{b}'s discounted gain minus {a}'s at this position: above 0, {b} gains more here."
        ).format(a=names[0], b=names[1])
    formats = {col: number for col in columns if pd.api.types.is_float_dtype(table[col])}
    with st.container(key="cmp_positions"):
        if len(table) > STYLE_LIMIT:
            st.markdown(_("**Position by position**: what each ranking gains at each position"))
            config = {c: st.column_config.Column(labels.get(c, c), help=titles.get(c)) for c in columns}
            st.dataframe(table[columns].style.format(formats), hide_index=True, column_config=config)
            return
        st.markdown(
            _(
                "**Position by position**: what each ranking gains at each position "
                "(rows beyond k in grey italics, below a dashed line)"
            )
        )
        beyond = table["Beyond k"].tolist()
        html = table_html(
            table,
            columns=columns,
            beyond=beyond,
            formats=formats,
            labels=labels,
            titles=titles,
            css_class="step-table positions-table",
            caption=beyond_caption(beyond),
        )
        table_box(html, _("Position by position"))


def _matrix_section(c: Comparison) -> None:
    grade = dict(c.judged)
    rankings = {name: [grade[x] for x in order] for name, order in c.rankings}
    omitted = any(len(order) < len(c.judged) for _, order in c.rankings)
    pool = [g for _, g in c.judged] if omitted else None
    st.markdown(
        _(
            "NDCG of every ranking under every combination of formula choices. "
            "Highlighted rows: the winner differs from the winner under the default formula "
            "(linear gain, log2(i+1)) at the same k."
        )
    )
    try:
        matrix = variant_matrix(rankings, ideal=pool, ks=(None, 3, 5, 10))
    except ValueError as err:
        st.error(md_escape(error_text(err)))
        return
    matrix = matrix.assign(
        k=matrix["k"].map(lambda x: _("all") if x is None or x != x else str(int(x))),
        gain=matrix["gain"].map(lambda g: _(OPTIONS["gain"].label_of(g))),
        ideal=matrix["ideal"].map(lambda s: _(IDEAL_SOURCES[s])),
    )
    names = list(rankings)
    flips = matrix["flips"].to_numpy()
    shown = matrix.drop(columns=["default"])
    styled = shown.style.format({n: number for n in names}).apply(
        lambda row: ["background-color: #fde68a" if flips[row.name] else "" for _ in row], axis=1
    )
    config = {c: st.column_config.Column(_(c)) for c in MATRIX_COLUMNS if c in shown.columns}
    st.dataframe(styled, hide_index=True, height=360, column_config=config)
    st.markdown(_("**Does the log base matter?** Move the base and watch both discounts."))
    base = st.select_slider(
        _("Log base b"),
        options=[1.5, 2.0, math.e, 3.0, 5.0, 10.0],
        value=2.0,
        key=keys.CMP_BASE_DEMO,
        format_func=lambda b: "e" if b == math.e else f"{b:g}",
    )
    first_name, first = next(iter(rankings.items()))
    chart(base_sensitivity_figure(first, base, name=first_name, ideal=pool), key="cmp_base_fig")
    st.caption(
        _(
            "With log_b(i + 1) every divisor is scaled by the same factor 1/ln(b), which cancels in "
            "DCG / IDCG: the line is flat. With max(1, log_b i) the first b positions are not "
            "discounted at all, so the base changes which positions count fully and NDCG moves."
        )
    )


def _differences(lines: str) -> str:
    """A preset's differences from the default formula (one per line), translated, in one cell."""
    return separator("; ").join(map(_, lines.split("\n")))


def _libraries_section() -> None:
    state = current_state()
    st.markdown(
        _(
            "The playground's list, scored the way each library scores it. "
            "Give optional model scores to see how each one breaks ties."
        )
    )
    scores_text = st.text_input(
        _("Scores (optional, one per item, higher ranks first)"),
        key=keys.LIB_SCORES,
        placeholder=_("e.g. 0.9, 0.8, 0.8, 0.5, 0.5, 0.1"),
    )
    grades = [i.grade for i in state.items]
    labels = [i.label for i in state.items]
    scores = None
    if scores_text.strip():
        try:
            entries = read_list(scores_text, ",;", skip_empty=True)
            bad = next((n for n, e in enumerate(entries, start=1) if e.value is None), None)
            if bad is not None:  # nan and inf are read: each library says what it makes of them
                raise NDCGError("entry_not_finite", n=bad, text=repr(entries[bad - 1].text))
            scores = [e.value for e in entries]
            if len(scores) != len(grades):
                raise ValueError(
                    _("{a} scores for {b} items; give one score per item").format(
                        a=len(scores), b=len(grades)
                    )
                )
        except ValueError as err:
            st.error(
                _("Scores: {problem}. Showing the list in its own order.").format(
                    problem=md_escape(error_text(err))
                )
            )
            scores = None
    ideal = [i.grade for i in state.items + state.pool] if state.pool else None
    table = library_table(grades, scores=scores, labels=labels, k=state.variant.k, ideal=ideal)
    k_text = f"@{state.variant.k}" if state.variant.k else ""
    shown = pd.DataFrame(
        {
            _("Preset"): table["preset"],
            f"NDCG{k_text}": [
                _("refused") if r else number(v, 4)
                for v, r in zip(table["value"], table["refusal"], strict=True)
            ],
            _("Checked here"): [
                _("yes: {version}").format(version=c.split(",")[0]) if c else _("no: from its source")
                for c in table["checked"]
            ],
            _("Why it differs"): [
                error_text(r) if r else (_differences(d) if d else _("the default formula"))
                for d, r in zip(table["differences"], table["refusal"], strict=True)
            ],
        }
    ).set_index(_("Preset"))
    # A static table wraps its text: every reason is read in full.
    st.table(shown)
    st.caption(
        _(
            "'Checked here': the version of the real library this repository's tests compared the preset "
            "with (make test; torchmetrics and TF-Ranking: make check-heavy-peers). Each preset's library "
            "call, the test that checks it and the code that reproduces the number are below."
        )
    )
    choice = st.selectbox(
        _("Details and code for one library"),
        list(table["preset"]),
        key=keys.LIB_SNIPPET,
        format_func=lambda p: f"{p}: {_(PRESETS[p].library)}",
    )
    row = table.set_index("preset").loc[choice]
    library = _(PRESETS[choice].library)
    checked = row["checked"] or _(
        "not compared with the library here (built from its source and documentation)"
    )
    st.caption(
        _("{library}, version {version}. Checked: {checked}.").format(
            library=md_escape(library),
            version=md_escape(row["version"]),
            checked=md_escape(checked),
        )
    )
    if row["refusal"]:
        st.error(
            _("{library} refuses this list: {problem}").format(
                library=md_escape(library), problem=md_escape(error_text(row["refusal"]))
            )
        )
    for line in filter(None, row["differences"].split("\n")):
        st.markdown(f"- {md_escape(_(line))}")
    snippet = row["snippet"]
    if snippet:
        st.code(snippet, language="python")
    else:
        st.caption(_("This library refuses this list, so there is nothing to reproduce."))


def _cards_section() -> None:
    cols = st.columns(2, gap="medium")
    for n, card in enumerate(CARDS):
        with cols[n % 2].container(border=True, key=f"card_{card.key}"):
            st.markdown(f"**{_(card.title)}**")
            st.write(_(card.body))
            measure = "DCG" if card.key == "two-forms" else "NDCG"
            buttons = st.columns(len(card.examples))
            for col, key in zip(buttons, card.examples, strict=True):
                ex = get_example(key)
                value = card.values()[ex.title]
                grades = ", ".join(f"{g:g}" for g in ex.grades)
                col.button(
                    _("Open {grades} → {measure} {value}").format(
                        grades=grades, measure=measure, value=number(value)
                    ),
                    key=f"card_{card.key}_{key}",
                    help=_("Open in the playground: {title}").format(title=_(ex.title)),
                    on_click=_open_in_playground,
                    args=(key,),
                    width="stretch",
                )


def render() -> None:
    with keep_widgets("explore", KEPT):
        _render()


def _render() -> None:
    _init()
    ss = st.session_state
    if ss.pop(keys.GO_TO_PLAYGROUND, False):
        st.switch_page(PAGES["playground"].script)
    st.markdown("# " + _("Explore: rankings, formulas, libraries"))
    formula_name(ss[keys.PG_SPEC])
    with st.sidebar:
        st.markdown("## " + _("Comparisons from the documents"))
        for key, (title, group) in COMPARISON_PRESETS.items():
            st.button(_(title), key=f"cmp_preset_{key}", on_click=_load_group, args=(group,), width="stretch")
    compare_tab, matrix_tab, library_tab, cards_tab = st.tabs(
        [_("Compare rankings"), _("Every formula"), _("What libraries report"), _("Teaching points")]
    )
    with compare_tab:
        comparison, problems = _rankings_form()
        if ss.get(keys.CMP_MESSAGE):
            st.warning(ss.pop(keys.CMP_MESSAGE))
        for message in problems:
            st.error(message)
        if comparison is None:
            comparison = ss.get(keys.CMP_LAST)
            if comparison is not None:
                st.caption(_("Showing the last valid comparison."))
        else:
            ss[keys.CMP_LAST] = comparison
        if comparison is not None:
            _compare_section(comparison)
    with matrix_tab:
        if comparison is not None:
            _matrix_section(comparison)
    with library_tab:
        _libraries_section()
    with cards_tab:
        _cards_section()


def page() -> None:
    """The page: what its script (``views/explore.py``) runs on every run."""
    render()
    where_next("explore")

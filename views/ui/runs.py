"""The Data sets page's comparison of runs: the table of means with significance marks, the per-query
deltas worst first, and one click to see a query's two rankings side by side in Explore; then whether
the runs' order depends on the formula (every variant and preset, Kendall's τ, the flips and the
queries behind each)."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from ndcg_core import Spec
from ndcg_core.compare_runs import RunComparison, compare_tables
from ndcg_core.dataset.robustness import Robustness, robustness
from ndcg_core.i18n import N_, _
from ndcg_core.teaching.drilldown import query_state, runs_comparison
from ndcg_core.teaching.uploads import DataSetFiles
from views.datastore import get_table

from . import keys
from .comparison import NAME_CHARS, load_comparison
from .formula import PLAYGROUND, load_spec
from .markup import code_span, message_markdown, sentence
from .state import load_state
from .tables import paged

#: A query drop-down offers this many queries (plus the one picked in the table); search finds the rest.
MAX_CHOICES = 500
TEST_CHOICES = {"t": N_("paired t-test"), "randomization": N_("randomization test (Fisher)")}
CORRECTION_CHOICES = {
    "holm": N_("Holm"),
    "bonferroni": N_("Bonferroni"),
    "bh": N_("Benjamini-Hochberg (false discovery rate)"),
    "none": N_("none"),
}
ALPHA = 0.05
PERMUTATIONS = 10_000


@st.cache_data(max_entries=16, show_spinner="Comparing the runs ...")
def _comparison(token: str, _tables: dict, baseline: str, test: str, correction: str) -> RunComparison:
    return compare_tables(
        _tables,
        baseline=baseline,
        test=test,
        correction=correction,
        alpha=ALPHA,
        permutations=PERMUTATIONS,
        seed=0,
    )


def _open_in_explore(query: str, shown: list[tuple[str, str]], spec: Spec) -> None:
    """Open one query's rankings by two runs side by side in Explore (the first also in the playground)."""
    ss = st.session_state
    qrels = get_table(ss[keys.DS_DATA].qrels)
    runs = {name[:NAME_CHARS]: get_table(key) for name, key in shown}
    if qrels is None or any(run is None for run in runs.values()):
        return
    comparison = runs_comparison(qrels, runs, query, spec=spec)
    load_state(query_state(qrels, next(iter(runs.values())), query, spec=spec))
    load_spec(PLAYGROUND, comparison.spec)  # Explore scores with the playground's formula
    load_comparison(comparison)
    ss[keys.GO_TO_EXPLORE] = True


def _p_text(p: float) -> str:
    if p != p:
        return "–"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def compare_section(
    data: DataSetFiles,
    spec: Spec,
    tables: dict[str, pd.DataFrame],
    k_text: str,
    _run_label: Callable[[str], str],
) -> None:
    """The comparison of the loaded runs (two or more), scored as ``tables`` (one per-query table per run)."""
    ss = st.session_state
    names = [name for name, _ in data.runs]
    st.markdown("## " + _("Compare runs"))
    if ss.get(keys.DS_BASELINE) not in names:
        ss[keys.DS_BASELINE] = names[0]
    c1, c2, c3 = st.columns(3)
    baseline = c1.selectbox(
        _("Baseline"),
        names,
        key=keys.DS_BASELINE,
        format_func=_run_label,
        on_change=ss.pop,
        args=(keys.DS_DELTA_QUERY, None),
        help=_("The run every other run is measured against: its deltas, wins and losses."),
    )
    test = c2.selectbox(
        _("Significance test"),
        list(TEST_CHOICES),
        key=keys.DS_TEST,
        format_func=lambda t: _(TEST_CHOICES[t]),
        help=_(
            "Both are paired and two-sided over the queries every run scored. The randomization test "
            "flips the sign of each query's difference at random (10,000 times, seed 0)."
        ),
    )
    correction = c3.selectbox(
        _("Correction for several pairs"),
        list(CORRECTION_CHOICES),
        key=keys.DS_CORRECTION,
        format_func=lambda c: _(CORRECTION_CHOICES[c]),
        help=_("Testing many pairs at once finds some difference by chance; the correction allows for it."),
    )
    token = "|".join(data.tables) + f"|{spec!r}"
    try:
        result = _comparison(token, tables, baseline, test, correction)
    except ValueError as err:
        st.error(sentence(message_markdown(err)))
        return
    letters = result.letters
    rows = result.table
    shown = pd.DataFrame(
        {
            "run": [f"{r.letter}  {_run_label(r.run)}" for r in rows.itertuples()],
            "mean": rows["marked"],
            "delta": ["–" if r.run == baseline else f"{r.delta:+.3f}" for r in rows.itertuples()],
            "wtl": [
                "–" if r.run == baseline else f"{r.wins} / {r.ties} / {r.losses}" for r in rows.itertuples()
            ],
            "p": [_p_text(p) for p in rows["p"]],
        }
    )
    st.dataframe(
        shown,
        hide_index=True,
        key="ds_compare_table",
        column_config={
            "run": st.column_config.TextColumn(_("Run")),
            "mean": st.column_config.TextColumn(
                _("Mean NDCG{k}").format(k=k_text),
                help=_("Superscript letters: the runs this one is significantly better than."),
            ),
            "delta": st.column_config.TextColumn(_("Δ vs baseline")),
            "wtl": st.column_config.TextColumn(
                _("Wins / ties / losses"),
                help=_("Queries where the run is above, equal to, below the baseline."),
            ),
            "p": st.column_config.TextColumn(
                _("p vs baseline"), help=_("After the correction for several pairs.")
            ),
        },
    )
    pairs = len(result.pairs)
    st.caption(
        _(
            "A superscript letter marks a run significantly better than that run: {test}, p ≤ {alpha} "
            "after the {correction} correction for {pairs} pairs, over the {n} queries every run scored."
        ).format(
            test=_(TEST_CHOICES[test]),
            alpha=ALPHA,
            correction=_(CORRECTION_CHOICES[correction]),
            pairs=pairs,
            n=f"{result.n_queries:,}",
        )
        + (
            " " + _("{n} queries some run did not score are left out.").format(n=f"{len(result.left_out):,}")
            if result.left_out
            else ""
        )
    )

    others = [name for name in names if name != baseline]
    if ss.get(keys.DS_VERSUS) not in others:
        ss[keys.DS_VERSUS] = others[0]
    versus = st.selectbox(
        _("Per-query deltas of"),
        others,
        key=keys.DS_VERSUS,
        format_func=_run_label,
        on_change=ss.pop,  # another run's deltas: start again from its worst query
        args=(keys.DS_DELTA_QUERY, None),
    )
    row = result.pair(versus, baseline)
    st.markdown(
        _(
            "**{run} against {baseline}**, worst query first: worse on {losses} queries, better on {wins}, "
            "equal on {ties}."
        ).format(
            run=code_span(f"{letters[versus]} {_run_label(versus)}"),
            baseline=code_span(f"{letters[baseline]} {_run_label(baseline)}"),
            losses=row["losses"],
            wins=row["wins"],
            ties=row["ties"],
        )
    )
    delta = result.deltas[versus].sort_values(kind="stable")
    table = pd.DataFrame(
        {
            "query": delta.index.astype(str),
            "delta": delta.to_numpy(),
            "baseline": result.per_query.loc[delta.index, baseline].to_numpy(),
            "run": result.per_query.loc[delta.index, versus].to_numpy(),
        }
    )
    left, right = st.columns([0.6, 0.4], gap="medium", vertical_alignment="top")
    with left:
        page = paged(table, keys.DS_DELTA_PAGE)  # many queries: a page at a time
        event = st.dataframe(
            page,
            hide_index=True,
            height=260,
            key="ds_delta_table",
            on_select="rerun",
            selection_mode="single-row",
            column_config={
                "query": st.column_config.TextColumn(_("Query")),
                "delta": st.column_config.NumberColumn(_("Δ NDCG{k}").format(k=k_text), format="%+.3f"),
                "baseline": st.column_config.NumberColumn(
                    f"{letters[baseline]}: NDCG{k_text}", format="%.3f", help=_run_label(baseline)
                ),
                "run": st.column_config.NumberColumn(
                    f"{letters[versus]}: NDCG{k_text}", format="%.3f", help=_run_label(versus)
                ),
            },
        )
    queries = table["query"]
    rows_picked = event.selection.rows if event is not None else []
    if rows_picked and rows_picked[0] < len(page):
        ss[keys.DS_DELTA_QUERY] = page["query"].iloc[rows_picked[0]]
    choices = list(queries.iloc[:MAX_CHOICES])
    if ss.get(keys.DS_DELTA_QUERY) in set(queries) and ss[keys.DS_DELTA_QUERY] not in choices:
        choices.append(ss[keys.DS_DELTA_QUERY])
    if ss.get(keys.DS_DELTA_QUERY) not in choices:
        ss[keys.DS_DELTA_QUERY] = choices[0]
    pair = [(f"{letters[n]} {_run_label(n)}", dict(data.runs)[n]) for n in (baseline, versus)]
    with right:
        st.selectbox(
            _("Query to compare"),
            choices,
            key=keys.DS_DELTA_QUERY,
            format_func=lambda q: f"{q}  ({result.deltas.loc[q, versus]:+.3f})",
        )
        st.button(
            _("Open both rankings side by side in Explore"),
            key="ds_open_explore",
            on_click=_open_in_explore,
            args=(ss[keys.DS_DELTA_QUERY], pair, spec),
            width="stretch",
            type="primary",
            help=_("Both runs' step tables for this query, and what each gains at each position."),
        )


# ------------------------------------------------------------------ does the order depend on the formula?


@st.cache_data(max_entries=8, show_spinner="Scoring every run under every formula ...")
def _robustness(token: str, _qrels: pd.DataFrame, _runs: dict, spec: Spec) -> Robustness:
    return robustness(_qrels, _runs, cutoffs=[spec.k], spec=spec)


def _flip_label(flip: tuple[str, str, str], run_label: Callable[[str], str], winner: str) -> str:
    a, b, variant = flip
    if winner == "tie":
        return _("{a} and {b} tie under {variant}").format(a=run_label(a), b=run_label(b), variant=variant)
    return _("{b} beats {a} under {variant}").format(a=run_label(a), b=run_label(b), variant=variant)


def _ask_robustness(token: str) -> None:
    st.session_state[keys.DS_ROBUST] = token


def robustness_section(data: DataSetFiles, spec: Spec, k_text: str, run_label: Callable[[str], str]) -> None:
    """Every run's order under every formula variant and library preset, and the flips with their causes.

    Computed on request (a button: up to 30 scorings of every run), then kept for the data set and
    formula. Everything is text: a sentence, a table of the variants, a choice of flip with the
    queries behind it, and one click to see a query's two rankings side by side in Explore.
    """
    ss = st.session_state
    st.markdown("## " + _("Does the order depend on the formula?"))
    st.caption(
        _(
            "The runs ranked by their mean NDCG{k} under every gain (linear, exponential, binary), every "
            "discount (log(i+1), Järvelin–Kekäläinen) with each log base (2, e, 10), and every library's "
            "preset; Kendall's τ between each order and the order under the page's formula (1: the same "
            "order, −1: reversed); and each pair of runs whose winner changes."
        ).format(k=k_text)
    )
    token = "|".join(data.tables) + f"|{spec!r}"
    if ss.get(keys.DS_ROBUST) != token:
        st.button(
            _("Check every formula"),
            key="ds_robust_go",
            on_click=_ask_robustness,
            args=(token,),
            help=_("Scores every run about 30 times: a few seconds for a large data set."),
        )
        return
    qrels = get_table(data.qrels)
    runs = {name: get_table(key) for name, key in data.runs}
    if qrels is None or any(run is None for run in runs.values()):
        return
    try:
        result = _robustness(token, qrels, runs, spec)
    except ValueError as err:
        st.error(sentence(message_markdown(err)))
        return
    variants = result.variants
    scored = variants[variants["refused"] == ""]
    reference = variants.iloc[0]
    same = int((scored["order"] == reference["order"]).sum())
    names = list(result.runs)
    order_text = (
        " > ".join(run_label(n) for n in reference["order"].split(" > ")) if reference["order"] else ""
    )
    st.markdown(
        _(
            "Under the page's formula the order is **{order}**. The same order under **{same} of {n}** "
            "variants and presets; **{flips}** times a pair of runs changes winner."
        ).format(order=order_text or reference["order"], same=same, n=len(scored), flips=len(result.flips))
    )
    table = pd.DataFrame(
        {
            "variant": scored["variant"],
            "order": scored["order"],
            "tau": scored["tau"],
            "flips": scored["flips"],
            **{n: scored[n] for n in names},
        }
    )
    st.dataframe(
        table,
        hide_index=True,
        key="ds_robust_table",
        column_config={
            "variant": st.column_config.TextColumn(_("Formula or preset")),
            "order": st.column_config.TextColumn(_("Order, best first")),
            "tau": st.column_config.NumberColumn(
                _("Kendall's τ"), format="%.2f", help=_("With the order under the page's formula.")
            ),
            "flips": st.column_config.NumberColumn(_("Pairs flipped")),
            **{n: st.column_config.NumberColumn(run_label(n)[:40], format="%.3f") for n in names},
        },
    )
    refused = variants[variants["refused"] != ""]
    if len(refused):
        st.caption(
            _("Not scored here: {presets}.").format(
                presets="; ".join(f"{r.preset} ({r.refused})" for r in refused.itertuples())
            )
        )
    if result.flips.empty:
        st.success(_("No pair of runs changes winner: the conclusion holds under every formula scored."))
        return
    flips = {(f.run_a, f.run_b, f.variant): f.winner for f in result.flips.itertuples()}
    choices = list(flips)
    if ss.get(keys.DS_ROBUST_FLIP) not in choices:
        ss[keys.DS_ROBUST_FLIP] = choices[0]
    flip = st.selectbox(
        _("A pair whose winner changes"),
        choices,
        key=keys.DS_ROBUST_FLIP,
        format_func=lambda f: _flip_label(f, run_label, flips[f]),
        on_change=ss.pop,
        args=(keys.DS_ROBUST_QUERY, None),
    )
    a, b, variant = flip
    causes = result.causes(a, b, variant, n=10)
    st.markdown(
        _(
            "**{a}** beats **{b}** under the page's formula. The queries that move the difference most "
            "towards {b} under {variant}, per query ({a} − {b}):"
        ).format(a=run_label(a), b=run_label(b), variant=code_span(variant))
    )
    if causes.empty:
        st.info(_("No single query moves it: the change is spread over many queries."))
        return
    st.dataframe(
        causes[["query", "diff_ref", "diff", "sign_flips"]],
        hide_index=True,
        key="ds_robust_causes",
        column_config={
            "query": st.column_config.TextColumn(_("Query")),
            "diff_ref": st.column_config.NumberColumn(_("Under the page's formula"), format="%+.3f"),
            "diff": st.column_config.NumberColumn(_("Under this variant"), format="%+.3f"),
            "sign_flips": st.column_config.CheckboxColumn(_("Winner changes")),
        },
    )
    queries = causes["query"].tolist()
    if ss.get(keys.DS_ROBUST_QUERY) not in queries:
        ss[keys.DS_ROBUST_QUERY] = queries[0]
    left, right = st.columns([0.6, 0.4], vertical_alignment="bottom")
    left.selectbox(_("Query to compare"), queries, key=keys.DS_ROBUST_QUERY)
    letters = {n: chr(ord("A") + i) for i, n in enumerate(names)}
    pair = [(f"{letters[n]} {run_label(n)}", dict(data.runs)[n]) for n in (a, b)]
    right.button(
        _("Open both rankings under this variant in Explore"),
        key="ds_robust_explore",
        on_click=_open_in_explore,
        args=(ss[keys.DS_ROBUST_QUERY], pair, result.specs[variant]),
        width="stretch",
        type="primary",
    )

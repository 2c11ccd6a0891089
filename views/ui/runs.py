"""The Data sets page's comparison of runs: the table of means with significance marks, the per-query
deltas worst first, and one click to see a query's two rankings side by side in Explore."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from ndcg_core import Spec
from ndcg_core.compare_runs import RunComparison, compare_tables
from ndcg_core.i18n import N_, _
from ndcg_core.teaching.drilldown import query_state, runs_comparison
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
    qrels = get_table(ss[keys.DS_DATA]["qrels"])
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
    data: dict, spec: Spec, tables: dict[str, pd.DataFrame], k_text: str, _run_label: Callable[[str], str]
) -> None:
    """The comparison of the loaded runs (two or more), scored as ``tables`` (one per-query table per run)."""
    ss = st.session_state
    names = [name for name, _ in data["runs"]]
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
    token = "|".join([data["qrels"], *(key for _, key in data["runs"])]) + f"|{spec!r}"
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
    pair = [(f"{letters[n]} {_run_label(n)}", dict(data["runs"])[n]) for n in (baseline, versus)]
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

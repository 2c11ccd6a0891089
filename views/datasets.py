"""Data sets: NDCG over many queries, both averages, and a drill-down into any one query."""

from __future__ import annotations

import itertools
import pathlib

import pandas as pd
import streamlit as st

from ndcg_core import Spec, aggregate, evaluate, read_qrels, read_run
from ndcg_core.drilldown import query_state
from ndcg_core.figures import ndcg_histogram
from ndcg_core.formula import latex_number, number
from views.common import formula_name, load_state, md_escape

ASSETS = pathlib.Path(__file__).resolve().parents[1] / "assets"
SAMPLE = ("Bundled sample (250 queries)", ASSETS / "sample_qrels.tsv", ASSETS / "sample_run.tsv")
_tokens = itertools.count(1)
MAX_CHOICES = 500


def _read(kind: str, source):
    """Parse one file; None (and a message) when it cannot be read."""
    reader = read_qrels if kind == "qrels" else read_run
    try:
        return reader(source)
    except ValueError as err:
        st.session_state.ds_message = (
            f"{'Qrels' if kind == 'qrels' else 'Run'} file: {md_escape(str(err))} "
            "The previous data set stays loaded."
        )
        return None


def _use(name: str, qrels: pd.DataFrame, run: pd.DataFrame) -> None:
    ss = st.session_state
    ss.ds_data = {"name": name, "qrels": qrels, "run": run, "token": f"{name}#{next(_tokens)}"}
    ss.ds_message = ""


def _load_sample() -> None:
    name, qrels_path, run_path = SAMPLE
    _use(name, _read("qrels", qrels_path), _read("run", run_path))


@st.cache_data(max_entries=16, show_spinner="Scoring every query ...")
def _evaluate(token: str, _qrels: pd.DataFrame, _run: pd.DataFrame, spec: Spec):
    """Per-query table, cached by the data set's token and the (hashable) spec."""
    return evaluate(_qrels, _run, spec=spec)


def _reconcile_uploads() -> None:
    """Parse each uploaded file once (by its file id) and score the pair when both are in.

    Done on every run rather than in upload callbacks, so a quick second upload cannot
    interrupt the first file's parsing, and a bad file keeps its message while it is there.
    """
    ss = st.session_state
    parsed = {}
    for kind in ("qrels", "run"):
        upload = ss.get(f"ds_{kind}_file")
        if upload is None:
            ss.pop(f"ds_parsed_{kind}", None)
            continue
        cached = ss.get(f"ds_parsed_{kind}")
        if cached is None or cached[0] != upload.file_id:
            ss.ds_message = ""
            table = _read(kind, upload)
            cached = None if table is None else (upload.file_id, upload.name, table)
            ss[f"ds_parsed_{kind}"] = cached
        parsed[kind] = cached
    if parsed.get("qrels") and parsed.get("run"):
        pair = (parsed["qrels"][0], parsed["run"][0])
        if ss.get("ds_pair") != pair:
            ss.ds_pair = pair
            _use(f"{parsed['qrels'][1]} + {parsed['run'][1]}", parsed["qrels"][2], parsed["run"][2])


def _sources() -> None:
    ss = st.session_state
    with st.expander("Data: the bundled sample, or your own qrels and run", expanded=False):
        st.caption(
            "TREC files (`qid 0 docno rel` and `qid Q0 docno rank score tag`) or CSV/TSV with a "
            "header (query/qid, doc/docno, relevance/label, score)."
        )
        c1, c2 = st.columns(2)
        c1.file_uploader("Qrels (judgements)", key="ds_qrels_file")
        c2.file_uploader("Run (ranked results)", key="ds_run_file")
        _reconcile_uploads()
        st.caption("The pair is scored as soon as both files are in.")
        st.button("Back to the bundled sample", key="ds_sample", on_click=_load_sample)
    if ss.get("ds_message"):
        st.error(ss.ds_message)


def _open_query(query: str, spec: Spec) -> None:
    """Open a query in the playground under the very spec the table was scored with."""
    ss = st.session_state
    data = ss.ds_data
    load_state(query_state(data["qrels"], data["run"], query, spec=spec))
    ss.go_to_playground = True


def render() -> None:
    ss = st.session_state
    if ss.pop("go_to_playground", False):
        st.switch_page("views/playground.py")
    if "ds_data" not in ss:
        _load_sample()
    st.markdown("### Data sets: many queries at once")
    formula_name(ss.ds_spec)
    _sources()
    data = ss.get("ds_data")
    if data is None:
        st.info("No data set is loaded.")
        return

    spec: Spec = ss.ds_spec
    try:
        per_query = _evaluate(data["token"], data["qrels"], data["run"], spec)
        agg = aggregate(per_query)
    except ValueError as err:
        st.error(f"Cannot score this data set: {md_escape(str(err))}")
        return

    k_text = f"@{spec.k}" if spec.k else ""
    st.caption(
        f"{md_escape(data['name'])}: {len(data['qrels']):,} judgements, {len(data['run']):,} retrieved "
        f"documents, {agg.n_queries:,} queries."
    )
    m = st.columns(4)
    m[0].metric(f"Mean NDCG{k_text}", number(agg.mean_ndcg), border=True)
    m[1].metric(f"ΣDCG{k_text} / ΣIDCG{k_text}", number(agg.ratio_of_sums), border=True)
    m[2].metric("Queries", f"{agg.n_queries:,}", border=True)
    m[3].metric("Queries with IDCG = 0", f"{agg.n_idcg_zero:,}", border=True)
    st.latex(
        f"\\frac{{1}}{{{agg.n_in_mean}}}\\sum_q \\mathrm{{NDCG}}_q = {latex_number(agg.mean_ndcg)}"
        f"\\qquad \\frac{{\\sum_q \\mathrm{{DCG}}_q}}{{\\sum_q \\mathrm{{IDCG}}_q}} = "
        f"\\frac{{{latex_number(per_query['dcg'].sum())}}}{{{latex_number(per_query['idcg'].sum())}}} = "
        f"{latex_number(agg.ratio_of_sums)}"
    )
    st.caption(
        f"{agg.policy_effect} The mean gives every query one vote; the ratio of sums lets queries "
        "with many highly relevant documents (a large IDCG) weigh more."
    )

    left, right = st.columns([0.45, 0.55], gap="medium")
    with left:
        st.plotly_chart(ndcg_histogram(per_query, k_text), key="ds_hist")
    with right:
        search = st.text_input("Find a query", key="ds_search", placeholder="query id contains ...")
        table = per_query[["query", "ndcg", "dcg", "idcg", "n_retrieved", "n_relevant"]]
        if search.strip():
            table = table[table["query"].astype(str).str.contains(search.strip(), case=False, regex=False)]
        event = st.dataframe(
            table,
            hide_index=True,
            height=300,
            key="ds_table",
            on_select="rerun",
            selection_mode="single-row",
            column_config={
                "query": st.column_config.TextColumn("Query"),
                "ndcg": st.column_config.NumberColumn(f"NDCG{k_text}", format="%.3f"),
                "dcg": st.column_config.NumberColumn("DCG", format="%.3f"),
                "idcg": st.column_config.NumberColumn("IDCG", format="%.3f"),
                "n_retrieved": st.column_config.NumberColumn("Retrieved"),
                "n_relevant": st.column_config.NumberColumn("Relevant"),
            },
        )
        rows = event.selection.rows if event is not None else []
        queries = table["query"].astype(str)
        if rows and rows[0] < len(queries):
            ss.ds_query = queries.iloc[rows[0]]
        # A drop-down of every query of a large data set would be slow and useless: offer the
        # first few hundred (plus the one picked in the table); the search box narrows the rest.
        choices = list(queries.iloc[:MAX_CHOICES])
        if ss.get("ds_query") in set(queries) and ss.ds_query not in choices:
            choices.append(ss.ds_query)
        if choices:
            if ss.get("ds_query") not in choices:
                ss.ds_query = choices[0]
            c1, c2 = st.columns([0.6, 0.4], vertical_alignment="bottom")
            c1.selectbox("Query to open", choices, key="ds_query")
            c2.button(
                "Open in the playground",
                key="ds_open",
                on_click=_open_query,
                args=(ss.ds_query, spec),
                width="stretch",
            )
        else:
            st.info("No query matches that search.")


render()

"""Data sets: NDCG over many queries, both averages, and a drill-down into any one query.

The session keeps only small things: the loaded data set's name and the store keys of its two
tables (see ``views.datastore``). The tables themselves live once per process, keyed by their
content, so a re-uploaded file of the same name is a new data set, and a closed tab leaves no
data set behind in its session.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ndcg_core import Spec, aggregate, evaluate
from ndcg_core.errors import error_text
from ndcg_core.i18n import N_, _
from ndcg_core.teaching.drilldown import query_state
from ndcg_core.teaching.figures import ndcg_histogram
from ndcg_core.teaching.formula import latex_number, number
from views.datastore import SAMPLE_KEYS, SAMPLE_NAME, get_table, load
from views.ui import keys
from views.ui.charts import chart
from views.ui.formula import formula_name
from views.ui.internals import release_uploads
from views.ui.markup import md_escape
from views.ui.state import load_state

MAX_CHOICES = 500
KINDS = {"qrels": N_("Qrels"), "run": N_("Run")}


def _data_name(data: dict) -> str:
    """The data set's name as shown: the bundled sample's in the reader's language, a user's as given."""
    return _(SAMPLE_NAME) if data["name"] == SAMPLE_NAME else data["name"]


def _policy_effect(agg) -> str:
    """What the 'When IDCG = 0' rule did to this data set, in words (from the aggregate's counts)."""
    nz, n, rule = agg.n_idcg_zero, agg.n_queries, agg.zero_idcg
    if nz == 0:
        return _("No query has IDCG = 0; the rule '{rule}' changed nothing.").format(rule=rule)
    what = {
        "zero": _(
            "{nz} of {n} queries have IDCG = 0 (or below); the rule '{rule}' "
            "scored them 0 and kept them in the mean; "
            "ΣDCG/ΣIDCG leaves them out."
        ),
        "one": _(
            "{nz} of {n} queries have IDCG = 0 (or below); the rule '{rule}' "
            "scored them 1 and kept them in the mean; "
            "ΣDCG/ΣIDCG leaves them out."
        ),
        "skip": _(
            "{nz} of {n} queries have IDCG = 0 (or below); the rule '{rule}' left them out of the mean; "
            "ΣDCG/ΣIDCG leaves them out."
        ),
    }.get(rule, agg.policy_effect)
    return what.format(nz=f"{nz:,}", n=f"{n:,}", rule=rule)


def _read(kind: str, upload) -> str | None:
    """Parse an upload into the shared stores (once per content); its key, or None and a message."""
    try:
        # getvalue() hands over the upload's own bytes; getbuffer() would copy them (BytesIO unshares).
        return load(kind, upload.getvalue(), upload.name)
    except ValueError as err:
        st.session_state[keys.DS_MESSAGE] = _(
            "{kind} file: {problem} The previous data set stays loaded."
        ).format(kind=_(KINDS[kind]), problem=md_escape(error_text(err)))
        return None


def _sample_data() -> dict:
    return {"name": SAMPLE_NAME, "qrels": SAMPLE_KEYS[0], "run": SAMPLE_KEYS[1]}


def _load_sample() -> None:
    st.session_state[keys.DS_DATA] = _sample_data()
    st.session_state[keys.DS_MESSAGE] = ""


def _token(data: dict) -> str:
    return f"{data['qrels']}|{data['run']}"


@st.cache_data(max_entries=16, show_spinner="Scoring every query ...")
def _evaluate(token: str, _qrels: pd.DataFrame, _run: pd.DataFrame, spec: Spec):
    """Per-query table, cached by the data set's token and the (hashable) spec."""
    return evaluate(_qrels, _run, spec=spec)


def _score(data: dict, spec: Spec) -> pd.DataFrame:
    """The per-query table of a data set under the page's formula (ValueError if it cannot)."""
    qrels, run = get_table(data["qrels"]), get_table(data["run"])
    if qrels is None or run is None:
        raise ValueError(
            _("the server no longer holds this file (too many large data sets): upload it again.")
        )
    return _evaluate(_token(data), qrels, run, spec)


def _reconcile_uploads() -> None:
    """Parse each uploaded file once (by its file id) and score the pair when both are in.

    Done on every run rather than in upload callbacks, so a quick second upload cannot
    interrupt the first file's parsing, and a bad file keeps its message while it is there.
    A new file pairs with the other one uploaded, or else with the loaded data set's other
    table (a second run against the same qrels). A pair that cannot be scored (say, a document
    judged twice) leaves the previous data set loaded. Once a pair is loaded, the uploaders are
    reset and the files are dropped from Streamlit's upload manager, so the session holds none
    of their bytes.
    """
    ss = st.session_state
    version = ss.setdefault(keys.DS_UPLOAD_VERSION, 0)
    parsed = {}
    for kind in KINDS:
        upload = ss.get(keys.ds_file(kind, version))
        if upload is None:
            ss.pop(keys.ds_parsed(kind), None)
            continue
        cached = ss.get(keys.ds_parsed(kind))
        if cached is None or cached[0] != upload.file_id:
            ss[keys.DS_MESSAGE] = ""
            key = _read(kind, upload)
            cached = None if key is None else (upload.file_id, upload.name, key)
            ss[keys.ds_parsed(kind)] = cached
        elif get_table(cached[2]) is None:  # dropped from the stores while waiting for its pair
            cached = (upload.file_id, upload.name, _read(kind, upload))
        if cached is not None and cached[2] is not None:
            parsed[kind] = cached
    loaded = ss.get(keys.DS_DATA) or _sample_data()
    if not parsed or (len(parsed) == 1 and loaded["qrels"] in SAMPLE_KEYS):
        return  # wait for the other file (a lone file is not scored against the sample)
    names = {kind: loaded.get(f"{kind}_name", "") for kind in KINDS}
    tables = {kind: loaded[kind] for kind in KINDS}
    for kind, (_table, name, key) in parsed.items():
        names[kind], tables[kind] = name, key
    if ss.get(keys.DS_PAIR) == tables:
        return
    ss[keys.DS_PAIR] = tables
    candidate = {
        "name": f"{names['qrels']} + {names['run']}",
        **tables,
        **{f"{k}_name": names[k] for k in KINDS},
    }
    try:
        _score(candidate, ss[keys.DS_SPEC])
    except ValueError as err:
        ss[keys.DS_MESSAGE] = _("{name}: {problem} The previous data set stays loaded.").format(
            name=md_escape(candidate["name"]), problem=md_escape(error_text(err))
        )
        return
    ss[keys.DS_DATA] = candidate
    ss[keys.DS_MESSAGE] = ""
    for kind in KINDS:
        ss.pop(keys.ds_parsed(kind), None)
    ss[keys.DS_UPLOAD_VERSION] = version + 1  # fresh uploaders: the files' bytes are released
    release_uploads([file_id for file_id, _, _ in parsed.values()])


def _sources() -> None:
    ss = st.session_state
    with st.expander(_("Data: the bundled sample, or your own qrels and run"), expanded=False):
        st.caption(
            _(
                "TREC files (`qid 0 docno rel` and `qid Q0 docno rank score tag`) or CSV/TSV with a "
                "header (query/qid, doc/docno, relevance/label, score)."
            )
        )
        _reconcile_uploads()  # before drawing: a loaded pair gets fresh, empty uploaders at once
        version = ss.setdefault(keys.DS_UPLOAD_VERSION, 0)
        c1, c2 = st.columns(2)
        # The uploaders' keys change once a pair is loaded (that releases the files); the keyed
        # containers around them keep one stable name for the page's styles and tests.
        c1.container(key="ds_qrels_file").file_uploader(
            _("Qrels (judgements)"), key=keys.ds_file("qrels", version)
        )
        c2.container(key="ds_run_file").file_uploader(
            _("Run (ranked results)"), key=keys.ds_file("run", version)
        )
        st.caption(
            _(
                "The pair is scored as soon as both files are in; a single new file is scored with the "
                "loaded data set's other file."
            )
        )
        st.button(_("Back to the bundled sample"), key="ds_sample", on_click=_load_sample)
    if ss.get(keys.DS_MESSAGE):
        st.error(ss[keys.DS_MESSAGE])


def _open_query(query: str, spec: Spec) -> None:
    """Open a query in the playground under the very spec the table was scored with."""
    ss = st.session_state
    data = ss[keys.DS_DATA]
    qrels, run = get_table(data["qrels"]), get_table(data["run"])
    if qrels is None or run is None:
        return
    load_state(query_state(qrels, run, query, spec=spec))
    ss[keys.GO_TO_PLAYGROUND] = True


def render() -> None:
    ss = st.session_state
    if ss.pop(keys.GO_TO_PLAYGROUND, False):
        st.switch_page("views/playground.py")
    if keys.DS_DATA not in ss:
        _load_sample()
    st.markdown("### " + _("Data sets: many queries at once"))
    formula_name(ss[keys.DS_SPEC])
    _sources()
    data = ss[keys.DS_DATA]
    qrels, run = get_table(data["qrels"]), get_table(data["run"])
    if qrels is None or run is None:
        st.warning(
            _(
                "{name} is no longer in the server's memory (it keeps only the most "
                "recently used data sets): upload the files again. Showing the bundled sample."
            ).format(name=md_escape(_data_name(data)))
        )
        _load_sample()
        data = ss[keys.DS_DATA]
        qrels, run = get_table(data["qrels"]), get_table(data["run"])

    spec: Spec = ss[keys.DS_SPEC]
    try:
        per_query = _score(data, spec)
        agg = aggregate(per_query)
    except ValueError as err:
        st.error(_("Cannot score this data set: {problem}").format(problem=md_escape(error_text(err))))
        return

    k_text = f"@{spec.k}" if spec.k else ""
    st.caption(
        _("{name}: {judged} judgements, {retrieved} retrieved documents, {queries} queries.").format(
            name=md_escape(_data_name(data)),
            judged=f"{len(qrels):,}",
            retrieved=f"{len(run):,}",
            queries=f"{agg.n_queries:,}",
        )
    )
    with st.container(horizontal=True, gap="small"):  # wraps on a phone instead of stacking
        st.metric(_("Mean NDCG{k}").format(k=k_text), number(agg.mean_ndcg), border=True)
        st.metric(f"ΣDCG{k_text} / ΣIDCG{k_text}", number(agg.ratio_of_sums), border=True)
        st.metric(_("Queries"), f"{agg.n_queries:,}", border=True)
        st.metric(_("Queries with IDCG = 0"), f"{agg.n_idcg_zero:,}", border=True)
    with st.container(horizontal=True, gap="medium"):  # the two formulas, one under the other on a phone
        st.latex(f"\\frac{{1}}{{{agg.n_in_mean}}}\\sum_q \\mathrm{{NDCG}}_q = {latex_number(agg.mean_ndcg)}")
        st.latex(
            f"\\frac{{\\sum_q \\mathrm{{DCG}}_q}}{{\\sum_q \\mathrm{{IDCG}}_q}} = "
            f"\\frac{{{latex_number(agg.sum_dcg)}}}{{{latex_number(agg.sum_idcg)}}} = "
            f"{latex_number(agg.ratio_of_sums)}"
        )
    st.caption(
        _policy_effect(agg)
        + " "
        + _(
            "The mean gives every query one vote; the ratio of sums lets queries "
            "with many highly relevant documents (a large IDCG) weigh more."
        )
    )

    left, right = st.columns([0.45, 0.55], gap="medium")
    with left:
        chart(ndcg_histogram(per_query, k_text), key="ds_hist")
    with right:
        search = st.text_input(_("Find a query"), key="ds_search", placeholder=_("query id contains ..."))
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
                "query": st.column_config.TextColumn(_("Query")),
                "ndcg": st.column_config.NumberColumn(f"NDCG{k_text}", format="%.3f"),
                "dcg": st.column_config.NumberColumn("DCG", format="%.3f"),
                "idcg": st.column_config.NumberColumn("IDCG", format="%.3f"),
                "n_retrieved": st.column_config.NumberColumn(_("Retrieved")),
                "n_relevant": st.column_config.NumberColumn(_("Relevant")),
            },
        )
        rows = event.selection.rows if event is not None else []
        queries = table["query"].astype(str)
        if rows and rows[0] < len(queries):
            ss[keys.DS_QUERY] = queries.iloc[rows[0]]
        # A drop-down of every query of a large data set would be slow and useless: offer the
        # first few hundred (plus the one picked in the table); the search box narrows the rest.
        choices = list(queries.iloc[:MAX_CHOICES])
        if ss.get(keys.DS_QUERY) in set(queries) and ss[keys.DS_QUERY] not in choices:
            choices.append(ss[keys.DS_QUERY])
        if choices:
            if ss.get(keys.DS_QUERY) not in choices:
                ss[keys.DS_QUERY] = choices[0]
            c1, c2 = st.columns([0.6, 0.4], vertical_alignment="bottom")
            c1.selectbox(_("Query to open"), choices, key=keys.DS_QUERY)
            c2.button(
                _("Open in the playground"),
                key="ds_open",
                on_click=_open_query,
                args=(ss[keys.DS_QUERY], spec),
                width="stretch",
            )
        else:
            st.info(_("No query matches that search."))


render()

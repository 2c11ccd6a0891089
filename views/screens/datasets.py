"""Data sets: NDCG over many queries, up to five runs compared, and a drill-down into any one query.

The session keeps only small things: the loaded qrels' and runs' names and store keys (see
``views.datastore``). The tables themselves live once per process, keyed by their content, so
a re-uploaded file of the same name is a new file, and a closed tab leaves no data set behind
in its session.

Uploads: each file is read once (by its upload id). A file that fails to read is let go at once
(its uploader is emptied and its bytes dropped from the server, issue 30) and its message is kept
in the session instead, until a good file of that kind is read or the message is dismissed; so
both files' problems show at once and none disappears when another file comes in. Nothing new is
loaded until every uploaded file can be read and scored.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import replace

import pandas as pd
import streamlit as st

from ndcg_core import Spec, aggregate, evaluate
from ndcg_core.dataset.overlap import NDCGWarning
from ndcg_core.dataset.sources import LIMIT_CODES
from ndcg_core.errors import NDCGError
from ndcg_core.i18n import N_, _
from ndcg_core.teaching.drilldown import query_state
from ndcg_core.teaching.export import table_csv
from ndcg_core.teaching.figures import ndcg_histogram
from ndcg_core.teaching.formula import latex_number, number
from ndcg_core.teaching.uploads import Awaiting, DataSetFiles, TooManyRuns, after_upload
from ndcg_core.variants import choice_label
from views.datastore import SAMPLE_KEYS, SAMPLE_NAME, get_table, load, read_as
from views.pages import PAGES
from views.ui import keys
from views.ui.a11y import move_focus
from views.ui.charts import chart
from views.ui.formula import formula_name
from views.ui.internals import release_uploads
from views.ui.judged import judged_k, judged_table, overlap, query_ranking_section
from views.ui.markup import code_span, message_markdown, sentence
from views.ui.runs import MAX_CHOICES, compare_section, robustness_section
from views.ui.start import where_next
from views.ui.state import load_state
from views.ui.tables import paged

KINDS = {"qrels": N_("Qrels"), "run": N_("Run")}
SAMPLE_RUN = N_("sample run")  # the bundled sample's run, shown through _()
#: Codes of a document judged or retrieved twice: the page offers the choice that fixes them.
TWICE = {"judged_twice", "judged_twice_many", "retrieved_twice", "retrieved_twice_many"}
DUPLICATE_CHOICES = {
    "error": N_("refuse the files (an error naming the rows)"),
    "max": N_("keep the higher grade or score"),
}


# ------------------------------------------------------------------ the loaded data set


def _sample_data() -> DataSetFiles:
    return DataSetFiles(SAMPLE_KEYS[0], SAMPLE_NAME, ((SAMPLE_RUN, SAMPLE_KEYS[1]),), sample=True)


def _run_label(name: str) -> str:
    return _(SAMPLE_RUN) if name == SAMPLE_RUN else name


def _data_name(data: DataSetFiles, run: str) -> str:
    """The data set's name as shown: the bundled sample's in the reader's language, a user's files' names."""
    if data.sample and run == SAMPLE_RUN:
        return _(SAMPLE_NAME)
    return f"{_(data.qrels_name) if data.sample else data.qrels_name} + {_run_label(run)}"


def _load_sample() -> None:
    st.session_state[keys.DS_DATA] = _sample_data()


def _remove_run(run: tuple[str, str]) -> None:
    """Remove the run (its name and table key), never "the run at this place": a second press
    that reaches the server before the first press's run drew the list again would remove the
    run that moved up into that place."""
    ss = st.session_state
    ss[keys.DS_DATA] = ss[keys.DS_DATA].without(run)
    ss.pop(keys.DS_PAIR, None)  # files waiting for room are tried again


def _spec() -> Spec:
    """The page's formula, with the choice for documents judged or retrieved twice."""
    ss = st.session_state
    return replace(ss[keys.DS_SPEC], duplicates=ss.get(keys.DS_DUPLICATES, "error"))


def _policy_effect(agg) -> str:
    """What the 'When IDCG = 0' rule did to this data set, in words (from the aggregate's counts)."""
    nz, n = agg.n_idcg_zero, agg.n_queries
    rule = _(choice_label("zero_idcg", agg.zero_idcg))  # the rule as its control names it
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
    }.get(agg.zero_idcg, agg.policy_effect)
    return what.format(nz=f"{nz:,}", n=f"{n:,}", rule=rule)


# ------------------------------------------------------------------ scoring (cached per process)


@st.cache_data(max_entries=32, show_spinner="Scoring every query ...")
def _evaluate(token: str, _qrels: pd.DataFrame, _run: pd.DataFrame, spec: Spec):
    """Per-query table, cached by the two tables' keys and the (hashable) spec."""
    with warnings.catch_warnings():  # the page says what is wrong with the queries (_overlap)
        warnings.simplefilter("ignore", NDCGWarning)
        return evaluate(_qrels, _run, spec=spec)


def _score(qrels_key: str, run_key: str, spec: Spec) -> pd.DataFrame:
    """The per-query table of one run under the page's formula (ValueError if it cannot)."""
    qrels, run = get_table(qrels_key), get_table(run_key)
    if qrels is None or run is None:
        raise ValueError(
            _("the server no longer holds this file (too many large data sets): upload it again.")
        )
    return _evaluate(f"{qrels_key}|{run_key}", qrels, run, spec)


# ------------------------------------------------------------------ uploads


def _read(kind: str, upload) -> tuple[str, str | None, tuple | None]:
    """(name, store key, None), or (name, None, problem): ("error", err) or ("looks_like", other kind)."""
    data = upload.getvalue()  # the upload's own bytes; getbuffer() would copy them (BytesIO unshares)
    try:
        return upload.name, load(kind, data, upload.name), None
    except ValueError as err:
        other = "run" if kind == "qrels" else "qrels"
        # a file over the limits is over them as the other kind too: not read (and refused) again
        if getattr(err, "code", None) not in LIMIT_CODES and read_as(other, data, upload.name):
            return upload.name, None, ("looks_like", other)
        return upload.name, None, ("error", _detached(err))


def _detached(err: ValueError) -> ValueError:
    """The error without its traceback: its frames hold the file's bytes, which the kept message must not."""
    err.__traceback__ = err.__context__ = err.__cause__ = None
    return err


def _read_uploads(kind: str, uploads: list) -> list[tuple[str, str, str | None, tuple | None]]:
    """Each file of an uploader read once by its upload id: (file id, name, key, problem)."""
    ss = st.session_state
    cache = ss.get(keys.ds_parsed(kind)) or {}
    fresh, out = {}, []
    for upload in uploads:
        hit = cache.get(upload.file_id)
        if hit is None or (hit[1] is not None and get_table(hit[1]) is None):  # new, or dropped meanwhile
            hit = _read(kind, upload)
        fresh[upload.file_id] = hit
        out.append((upload.file_id, *hit))
    ss[keys.ds_parsed(kind)] = fresh
    return out


def _score_problems(candidate: DataSetFiles, spec: Spec) -> list[tuple]:
    """Why a candidate data set cannot be scored: (kind, file name, problem) for each run that fails."""
    problems = []
    for name, key in candidate.runs:
        qrels, run = get_table(candidate.qrels), get_table(key)
        if qrels is not None and run is not None:
            found = overlap(f"{candidate.qrels}|{key}", qrels, run, candidate.qrels_name, name)
            if found is not None and found.code == "no_query_in_common":
                problems.append(("run", name, ("error", NDCGError.of(found))))
                continue
        try:
            _score(candidate.qrels, key, spec)
        except NDCGError as err:
            if err.code.startswith("judged_twice"):  # the qrels' problem, the same with every run
                return [("qrels", candidate.qrels_name, ("error", err))]
            problems.append(("run", name, ("error", err)))
        except ValueError as err:
            problems.append(("run", name, ("error", err)))
    return problems


def _uploads(kind: str) -> list:
    """What the uploader of ``kind`` holds now."""
    ss = st.session_state
    held = ss.get(keys.ds_file(kind, ss[keys.DS_UPLOAD_VERSION], ss[keys.DS_EMPTIED][kind]))
    return list(held or []) if kind == "run" else [held] if held is not None else []


def _let_go_of_bad_files() -> dict[str, list]:
    """Read the uploaders; an uploader holding a file that fails to read is emptied (issue 30).

    Its messages are kept under ``DS_FAILED`` instead, and its files are dropped from Streamlit's
    upload manager and the read cache, so the server holds none of their bytes: a bad file used to
    stay in memory for as long as it sat in its uploader, and after the tab closed. A good file of
    the same kind, once read, takes the kept messages away. Returns the files still held, read.
    """
    ss = st.session_state
    ss.setdefault(keys.DS_UPLOAD_VERSION, 0)
    emptied = ss.setdefault(keys.DS_EMPTIED, dict.fromkeys(KINDS, 0))
    failed = ss.setdefault(keys.DS_FAILED, {kind: [] for kind in KINDS})
    files = {}
    for kind in KINDS:
        got = _read_uploads(kind, _uploads(kind))
        bad = [(name, problem) for _, name, key, problem in got if key is None]
        if got and not bad:
            failed[kind] = []  # a good file of this kind: the old message goes
        elif bad:
            failed[kind] = bad
            emptied[kind] += 1  # a fresh, empty uploader for this kind
            # The focus was on the uploader now replaced: back on the fresh one, to pick another file.
            move_focus(f".st-key-ds_{kind}_file button", f"ds_emptied_{kind}_{emptied[kind]}")
            ss.pop(keys.ds_parsed(kind), None)
            release_uploads([file_id for file_id, *_ in got])
            got = []
        files[kind] = got
    return files


def _dismiss_failed() -> None:
    st.session_state[keys.DS_FAILED] = {kind: [] for kind in KINDS}


def _reconcile_uploads() -> tuple[list[tuple], str]:
    """Read what the uploaders hold and load it once it can be scored; (problems, what is awaited).

    Done on every run rather than in upload callbacks, so a quick second upload cannot
    interrupt the first file's reading, and each bad file keeps its message while it is there.
    A new qrels with runs replaces the data set; a new qrels alone is scored with the loaded runs;
    runs alone join the loaded ones (up to five; with the bundled sample they wait for their
    qrels). Nothing loads while a file has a problem. Once loaded, the uploaders are reset and
    the files dropped from Streamlit's upload manager, so the session holds none of their bytes.
    """
    ss = st.session_state
    files = _let_go_of_bad_files()
    failed = ss[keys.DS_FAILED]
    problems = [(kind, name, problem) for kind in KINDS for name, problem in failed[kind]]
    if problems:
        return problems, ""
    version = ss[keys.DS_UPLOAD_VERSION]
    new_runs = [(name, key) for _, name, key, _ in files["run"]]
    new_qrels = [(name, key) for _, name, key, _ in files["qrels"]]
    candidate = after_upload(ss[keys.DS_DATA], new_qrels, new_runs)
    if candidate is None:  # nothing uploaded
        ss.pop(keys.DS_PAIR, None)
        return [], ""
    if isinstance(candidate, Awaiting):
        return [], candidate.kind
    if isinstance(candidate, TooManyRuns):
        return [("run", "", ("too_many", candidate.n))], ""
    spec = _spec()
    attempt = (candidate.tables, spec)
    if ss.get(keys.DS_PAIR) != attempt:  # each set of files is scored once per formula
        ss[keys.DS_PAIR] = attempt
        ss[keys.DS_MESSAGE] = _score_problems(candidate, spec)
    if ss.get(keys.DS_MESSAGE):
        return ss[keys.DS_MESSAGE], ""
    ss[keys.DS_DATA] = candidate
    added = [name for name, key in candidate.runs if key in {key for _, key in new_runs}]
    if added:
        ss[keys.DS_SHOWN] = added[0]  # the detail below shows what just came in
    for kind in KINDS:
        ss.pop(keys.ds_parsed(kind), None)
    ss.pop(keys.DS_PAIR, None)
    ss[keys.DS_UPLOAD_VERSION] = version + 1  # fresh uploaders: the files' bytes are released
    ss[keys.DS_EMPTIED] = dict.fromkeys(KINDS, 0)
    release_uploads([file_id for got in files.values() for file_id, _, _, _ in got])
    # The uploader that had the keyboard focus is gone with its files, and the focus fell to the
    # page's start: back to where it was, the fresh uploader of the file that came last (a run's,
    # unless a qrels file came alone); the results follow it.
    uploader = "ds_run_file" if new_runs else "ds_qrels_file"
    move_focus(f".st-key-{uploader} button", f"ds_loaded_{version + 1}")
    return [], ""


def _twice_text(err: NDCGError, name: str) -> str:
    v = err.values
    values = {
        "name": code_span(name),
        "doc": code_span(v["doc"]),
        "query": code_span(v["query"]),
        "first": message_markdown(v["first"]),
        "second": message_markdown(v["second"]),
    }
    if err.code.startswith("judged_twice"):
        text = _(
            "Qrels file {name}: document {doc} is judged twice for query {query} ({first} and {second})."
        )
    else:
        text = _(
            "Run file {name}: document {doc} is retrieved twice for query {query} ({first} and {second})."
        )
    text = text.format(**values)
    if "n" in v:
        text += " " + _("{n} such pairs in all.").format(n=f"{v['n']:,}")
    return text + " " + _("Fix the file, or choose below to keep the higher grade or score.")


def _problem_text(kind: str, name: str, problem: tuple) -> str:
    """One file's problem as Markdown: what is wrong, then what to do on this page."""
    what, detail = problem
    file = (_("Qrels file {name}") if kind == "qrels" else _("Run file {name}")).format(name=code_span(name))
    if what == "looks_like":
        if detail == "qrels":
            return _(
                "{file}: this looks like a qrels file (query, 0, document, grade), not a run. "
                "Upload it under Qrels instead."
            ).format(file=file)
        return _(
            "{file}: this looks like a run (query, Q0, document, rank, score, tag), not a qrels file. "
            "Upload it under Run instead."
        ).format(file=file)
    if what == "too_many":
        return _(
            "{n} runs: the page compares five at most. Remove a loaded run (its Remove button) or a "
            "file from the uploader (×)."
        ).format(n=detail)
    if isinstance(detail, NDCGError) and detail.code in TWICE:
        return _twice_text(detail, name)
    return (
        sentence(_("{file}: {problem}").format(file=file, problem=message_markdown(detail)))
        + " "
        + _("Fix the file and upload it again, or dismiss this message.")
    )


# ------------------------------------------------------------------ the page's parts


def _sources(data: DataSetFiles) -> None:
    ss = st.session_state
    problems, awaited = _reconcile_uploads()  # before drawing: a loaded set gets fresh, empty uploaders
    data = ss[keys.DS_DATA]
    with (
        st.container(key="ds_sources"),
        st.expander(
            _("Data: the bundled sample, or your own qrels and up to five runs"),
            # Open while something waits or went wrong, and while the user's own files are loaded (their
            # list and Remove buttons live here); folded on the sample so the results come first.
            expanded=bool(problems or awaited or not data.sample),
        ),
    ):
        st.caption(
            _(
                "TREC files (`qid 0 docno rel` and `qid Q0 docno rank score tag`) or CSV/TSV with a "
                "header (query/qid, doc/docno, relevance/label, score)."
            )
        )
        version, emptied = ss[keys.DS_UPLOAD_VERSION], ss[keys.DS_EMPTIED]
        c1, c2 = st.columns(2)
        # The uploaders' keys change once files are loaded (that releases them); the keyed
        # containers around them keep one stable name for the page's styles and tests.
        c1.container(key="ds_qrels_file").file_uploader(
            _("Qrels (judgements)"), key=keys.ds_file("qrels", version, emptied["qrels"])
        )
        c2.container(key="ds_run_file").file_uploader(
            _("Run (ranked results): one or more"),
            key=keys.ds_file("run", version, emptied["run"]),
            accept_multiple_files=True,
        )
        st.caption(
            _(
                "Qrels with runs replace the data set; runs alone join the loaded ones (five at most); "
                "a qrels file alone is scored with the loaded runs."
            )
        )
        if not data.sample:
            st.markdown(_("**Loaded runs**, judged by {qrels}:").format(qrels=code_span(data.qrels_name)))
            for n, (name, run_key) in enumerate(data.runs):
                c1, c2 = st.columns([0.75, 0.25], vertical_alignment="center")
                c1.markdown(code_span(_run_label(name)))
                c2.button(
                    _("Remove"),
                    key=keys.ds_remove(n),
                    on_click=_remove_run,
                    args=((name, run_key),),
                    disabled=len(data.runs) < 2,
                    width="stretch",
                )
        st.button(_("Back to the bundled sample"), key="ds_sample", on_click=_load_sample)
    for kind, name, problem in problems:
        st.error(_problem_text(kind, name, problem))
    if any(ss[keys.DS_FAILED].values()):  # files let go: their messages stay until dismissed
        st.button(
            _("Dismiss the messages of files that failed to read"),
            key=keys.DS_DISMISS,
            on_click=_dismiss_failed,
        )
    twice = any(p[0] == "error" and getattr(p[1], "code", "") in TWICE for _, _, p in problems)
    if twice or ss.get(keys.DS_DUPLICATES, "error") != "error":
        st.radio(
            _("Documents judged or retrieved twice"),
            list(DUPLICATE_CHOICES),
            key=keys.DS_DUPLICATES,
            format_func=lambda c: _(DUPLICATE_CHOICES[c]),
            horizontal=True,
        )
    if problems:
        st.info(
            _(
                "Still showing {name}: nothing new is loaded until every file above can be read and scored."
            ).format(name=code_span(_data_name(data, data.runs[0][0])))
        )
    elif awaited == "qrels":
        st.info(
            _("Runs read. Now add the qrels file that judges them: runs are not scored against the sample's.")
        )
    elif awaited == "run":
        st.info(_("Qrels read. Now add one or more runs to score against it."))


def _open_query(query: str, run_key: str, spec: Spec) -> None:
    """Open a query in the playground under the very spec the table was scored with."""
    ss = st.session_state
    qrels, run = get_table(ss[keys.DS_DATA].qrels), get_table(run_key)
    if qrels is None or run is None:
        return
    load_state(query_state(qrels, run, query, spec=spec))
    ss[keys.GO_TO_PLAYGROUND] = True


def _one_run_section(
    data: DataSetFiles, run_name: str, per_query: pd.DataFrame, spec: Spec, k_text: str, level: int
) -> None:
    """One run's numbers, table and drill-down; ``level``: its sub-headings' (3 under "One run in
    detail", 2 when the page holds one run)."""
    ss = st.session_state
    run_key = dict(data.runs)[run_name]
    qrels, run = get_table(data.qrels), get_table(run_key)
    agg = aggregate(per_query)
    st.caption(
        _("{name}: {judged} judgements, {retrieved} retrieved documents, {queries} queries.").format(
            name=code_span(_data_name(data, run_name)),
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
        k_judged = judged_k(spec)
        judged = judged_table(f"{data.qrels}|{run_key}|{k_judged}", qrels, run, k_judged, spec)
        every_query = per_query[["query", "ndcg", "dcg", "idcg", "n_retrieved", "n_relevant"]].assign(
            judged=per_query["query"].map(judged[f"judged@{k_judged}"]).to_numpy(dtype=float)
        )
        table = every_query
        if search.strip():
            table = table[table["query"].astype(str).str.contains(search.strip(), case=False, regex=False)]
        page = paged(table, keys.DS_PAGE)  # a large upload's table, a page at a time
        event = st.dataframe(
            page,
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
                "judged": st.column_config.NumberColumn(
                    f"Judged@{k_judged}",
                    format="%.2f",
                    help=_(
                        "The share of the query's first {k} documents that were judged. An unjudged "
                        "document counts as grade 0 in NDCG, though it may be relevant."
                    ).format(k=k_judged),
                ),
            },
        )
        # The table's own toolbar has no download (.streamlit/config.toml, disableDataExport: its CSV
        # left ids such as =HYPERLINK(...) live for a spreadsheet); this one escapes them, whole.
        st.download_button(
            _("Every query (CSV)"),
            data=functools.partial(
                table_csv, every_query.rename(columns={"judged": f"judged@{k_judged}"}), exact=True
            ),
            file_name="ndcg-per-query.csv",
            mime="text/csv",
            key="ds_csv",
            on_click="ignore",
            icon=":material/download:",
        )
        rows = event.selection.rows if event is not None else []
        if rows and rows[0] < len(page):
            ss[keys.DS_QUERY] = str(page["query"].iloc[rows[0]])
        queries = table["query"].astype(str)
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
                args=(ss[keys.DS_QUERY], run_key, spec),
                width="stretch",
            )
        else:
            st.info(_("No query matches that search."))
    if choices:
        query_ranking_section(qrels, run, ss[keys.DS_QUERY], spec, k_judged, level)


def render() -> None:
    ss = st.session_state
    if ss.pop(keys.GO_TO_PLAYGROUND, False):
        st.switch_page(PAGES["playground"].script)
    if ss.pop(keys.GO_TO_EXPLORE, False):
        st.switch_page(PAGES["explore"].script)
    if keys.DS_DATA not in ss:
        _load_sample()
    st.markdown("# " + _("Data sets: many queries at once"))
    spec = _spec()
    formula_name(spec)
    _sources(ss[keys.DS_DATA])
    data = ss[keys.DS_DATA]
    gone = [name for name, key in [("", data.qrels), *data.runs] if get_table(key) is None]
    if gone:
        st.warning(
            _(
                "{name} is no longer in the server's memory (it keeps only the most "
                "recently used data sets): upload the files again. Showing the bundled sample."
            ).format(name=code_span(_data_name(data, data.runs[0][0])))
        )
        _load_sample()
        data = ss[keys.DS_DATA]

    k_text = f"@{spec.k}" if spec.k else ""
    tables = {}
    for name, key in data.runs:
        try:
            tables[name] = _score(data.qrels, key, spec)
        except ValueError as err:
            st.error(
                sentence(
                    _("Cannot score {name}: {problem}").format(
                        name=code_span(_data_name(data, name)), problem=message_markdown(err)
                    )
                )
            )
            return
    qrels_table = get_table(data.qrels)
    for name, key in data.runs:
        run_table = get_table(key)
        if qrels_table is None or run_table is None:
            continue
        found = overlap(f"{data.qrels}|{key}", qrels_table, run_table, data.qrels_name, name)
        if found is not None and found.code == "few_queries_in_common":
            st.warning(sentence(message_markdown(found)))
    names = list(tables)
    if len(names) > 1:
        compare_section(data, spec, tables, k_text, _run_label)
        robustness_section(data, spec, k_text, _run_label)
        st.markdown("## " + _("One run in detail"))
        if ss.get(keys.DS_SHOWN) not in names:
            ss[keys.DS_SHOWN] = names[0]
        st.selectbox(_("Run"), names, key=keys.DS_SHOWN, format_func=_run_label)
        shown = ss[keys.DS_SHOWN]
    else:
        shown = names[0]
    _one_run_section(data, shown, tables[shown], spec, k_text, 3 if len(names) > 1 else 2)


def page() -> None:
    """The page: what its script (``views/datasets.py``) runs on every run."""
    render()
    where_next("datasets")

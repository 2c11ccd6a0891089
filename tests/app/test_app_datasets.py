"""The data-set page through AppTest: both averages, presets, search, and the drill-down."""

from __future__ import annotations

import pathlib

import pytest
from apptest_support import ok
from apptest_support import shown as bodies
from data_support import TREC_EVAL
from streamlit.testing.v1 import AppTest

import ndcg_core
from ndcg_core.teaching.uploads import DataSetFiles
from views.ui import keys

ROOT = pathlib.Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
QRELS = ndcg_core.read_qrels(ROOT / "assets" / "sample_qrels.tsv")
RUN = ndcg_core.read_run(ROOT / "assets" / "sample_run.tsv")


def datasets(params: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in (params or {}).items():
        at.query_params[key] = value
    return at.run().switch_page("views/datasets.py").run()


def shown(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def pytrec_eval_mean(measure: str = "ndcg_cut.10", qrels=QRELS, run=RUN) -> float:
    import pytrec_eval

    judged, ranked = {}, {}
    for q, d, g in qrels[["query", "doc", "relevance"]].itertuples(index=False):
        judged.setdefault(str(q), {})[str(d)] = int(g)
    for q, d, s in run[["query", "doc", "score"]].itertuples(index=False):
        ranked.setdefault(str(q), {})[str(d)] = float(s)
    result = pytrec_eval.RelevanceEvaluator(judged, {measure}).evaluate(ranked)
    key = measure.replace(".", "_")
    return sum(r[key] for r in result.values()) / len(result)


def test_defect_6_data_sets_default_to_trec_evals_ndcg_at_10_whatever_the_playground_shows():
    """Issue 8, defect 6: the sample showed the playground's Järvelin–Kekäläinen formula, not trec_eval's."""
    at = datasets()  # the playground opens on Wikipedia's example (original discount, k = 6)
    ok(at)
    assert f"{pytrec_eval_mean():.3f}" == shown(at)["Mean NDCG@10"]
    assert any("nDCG(ties='docid_desc')@10 as trec_eval" in c.value for c in at.caption)
    assert at.session_state["ds_spec"] == ndcg_core.resolve("trec_eval", k=10)
    assert at.selectbox(key="ds_preset").value == "trec_eval"
    # a k beyond the playground list's length is accepted
    at.toggle(key="ds_k_all").set_value(False).run()
    at.number_input(key="ds_k").set_value(20).run()
    ok(at)
    assert f"{pytrec_eval_mean('ndcg_cut.20'):.3f}" == shown(at)["Mean NDCG@20"]


def trec_eval_printed(name: str, measure: str) -> dict[str, float]:
    """One measure's lines of a trec_eval output file: query (or "all") -> value."""
    lines = (line.split() for line in (TREC_EVAL / name).read_text().splitlines())
    return {query: float(value) for m, query, value in lines if m == measure}


def with_data_set(qrels: bytes, run: bytes, names=("qrels", "run")) -> AppTest:
    """The Data sets page with these files loaded, as the uploaders hand them over (bytes)."""
    from views.datastore import load

    at = AppTest.from_file(APP, default_timeout=60).run()
    at.session_state[keys.DS_DATA] = DataSetFiles(
        load("qrels", qrels, names[0]),
        names[0],
        ((names[1], load("run", run, names[1])),),
    )
    return at.switch_page("views/datasets.py").run()


def test_issue_29_the_default_named_trec_eval_is_trec_eval_with_negative_grades():
    """Issue 29: qrels.rel_level + results.test showed 0.194 (query 303: -0.214) under "trec_eval's
    NDCG@10", where trec_eval prints 0.2656 (303: 0). The expected values are trec_eval's own."""
    from views.ui.formula import DATASET_DEFAULT

    assert ndcg_core.resolve("trec_eval", k=10) == DATASET_DEFAULT
    want = trec_eval_printed("out.test.aql", "ndcg_cut_10")
    at = with_data_set(
        (TREC_EVAL / "qrels.rel_level").read_bytes(),
        (TREC_EVAL / "results.test").read_bytes(),
        ("qrels.rel_level", "results.test"),
    )
    ok(at)
    assert shown(at)["Mean NDCG@10"] == f"{want['all']:.3f}" == "0.266"
    table = next(d.value for d in at.dataframe if "n_retrieved" in d.value.columns).set_index("query")
    for query in ("301", "302", "303"):
        assert table.loc[query, "ndcg"] == pytest.approx(want[query], abs=5e-5), query


def test_issue_29_a_gzipped_upload_is_read_by_its_content():
    """The page hands the uploaded bytes to the readers: a gzip file named like plain text still reads."""
    import gzip

    want = trec_eval_printed("out.test.aq", "ndcg_cut_10")
    at = with_data_set(
        gzip.compress((TREC_EVAL / "qrels.test").read_bytes()),
        gzip.compress((TREC_EVAL / "results.test").read_bytes()),
        ("qrels.txt", "run.txt"),
    )
    ok(at)
    assert shown(at)["Mean NDCG@10"] == f"{want['all']:.3f}"


def test_sample_loads_by_default_with_both_averages():
    at = datasets()
    ok(at)
    expected = ndcg_core.aggregate(ndcg_core.evaluate(QRELS, RUN, 10, preset="trec_eval"))
    got = shown(at)
    assert got["Mean NDCG@10"] == f"{expected.mean_ndcg:.3f}"
    assert got["ΣDCG@10 / ΣIDCG@10"] == f"{expected.ratio_of_sums:.3f}"
    assert got["Queries"] == "250"
    assert got["Queries with IDCG = 0"] == str(expected.n_idcg_zero)
    assert any("scored them 0" in c.value for c in at.caption)


def test_zero_idcg_policy_changes_the_mean():
    at = datasets()
    assert at.selectbox(key="ds_zero_idcg").disabled  # trec_eval fixes it: the formula below frees it
    at.selectbox(key="ds_preset").set_value("").run()
    at.selectbox(key="ds_zero_idcg").set_value("skip").run()
    ok(at)
    expected = ndcg_core.aggregate(ndcg_core.evaluate(QRELS, RUN, 10, zero_idcg="skip"))
    assert shown(at)["Mean NDCG@10"] == f"{expected.mean_ndcg:.3f}"


@pytest.mark.parametrize("preset", ["trec_eval", "sklearn"])
def test_presets(preset):
    at = datasets()
    at.selectbox(key="ds_preset").set_value(preset).run()
    ok(at)
    expected = ndcg_core.aggregate(ndcg_core.evaluate(QRELS, RUN, 10, preset=preset))
    assert shown(at)["Mean NDCG@10"] == f"{expected.mean_ndcg:.3f}"


def test_search_filters_the_table():
    at = datasets()
    at.text_input(key="ds_search").input("q01").run()
    ok(at)
    table = next(d.value for d in at.dataframe if "n_retrieved" in d.value.columns)
    assert len(table) > 0 and all("q01" in q for q in table["query"])
    at.text_input(key="ds_search").input("nothing-like-this").run()
    assert any("No query matches" in i.value for i in at.info)


def test_open_a_query_in_the_playground():
    at = datasets()
    at.selectbox(key="ds_query").set_value("q007").run()
    at.button(key="ds_open").click().run()
    ok(at)
    expected = ndcg_core.evaluate(QRELS, RUN, 10, preset="trec_eval").set_index("query").loc["q007", "ndcg"]
    assert {m.label: m.value for m in at.metric}["NDCG@10"] == f"{expected:.3f}"
    retrieved = RUN[RUN["query"] == "q007"]
    assert len(at.session_state["pg_items"]) == len(retrieved)


def test_histogram_counts_every_scored_query():
    import json

    at = datasets({"rel": "1,0", "k": "10"})
    import base64

    import numpy as np

    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    counts = figure["data"][0]["y"]  # plotly ships numeric arrays base64-encoded
    if isinstance(counts, dict):
        counts = np.frombuffer(base64.b64decode(counts["bdata"]), dtype=counts["dtype"])
    total = int(np.sum(counts))
    expected = ndcg_core.evaluate(QRELS, RUN, 10, preset="trec_eval")["ndcg"].notna().sum()
    assert total == expected


def test_histogram_keeps_negative_scores():
    import pandas as pd

    from ndcg_core.teaching.figures import ndcg_histogram

    fig = ndcg_histogram(pd.DataFrame({"ndcg": [-0.3, 0.5, 1.0]}))
    assert sum(fig.data[0].y) == 3
    assert min(fig.data[0].x) < 0


def test_defect_7_open_in_the_playground_keeps_the_chosen_library():
    """Issue 8, defect 7: "Score as" sklearn showed 0.567 in the table and 0.667 in the playground."""
    from sklearn.metrics import ndcg_score

    at = datasets()
    at.selectbox(key="ds_preset").set_value("sklearn").run()
    for query in ("q007", "q011", "q042"):
        at.selectbox(key="ds_query").set_value(query).run()
        at.button(key="ds_open").click().run()
        ok(at)
        retrieved = RUN[RUN["query"] == query]
        grade = QRELS[QRELS["query"] == query].set_index("doc")["relevance"]
        y_true = [float(grade.get(d, 0.0)) for d in retrieved["doc"]]
        expected = ndcg_score([y_true], [retrieved["score"].tolist()], k=10)
        assert {m.label: m.value for m in at.metric}["NDCG@10"] == f"{expected:.3f}", query
        assert at.session_state["pg_spec"].preset == "sklearn"
        at.switch_page("views/datasets.py").run()


def test_defect_9_headline_numbers_have_a_fixed_precision():
    """Issue 8, defect 9: values were trimmed (mean NDCG "0.48" instead of "0.480", "1" for 1.000)."""
    at = datasets()
    at.selectbox(key="ds_preset").set_value("").run()  # the formula below: its rule can be chosen
    at.selectbox(key="ds_zero_idcg").set_value("one").run()
    ok(at)
    for label in ("Mean NDCG@10", "ΣDCG@10 / ΣIDCG@10"):
        value = shown(at)[label]
        assert len(value.partition(".")[2]) == 3, (label, value)
    at.switch_page("views/playground.py").run()
    at.button(key="order_ideal").click().run()
    ok(at)
    assert shown(at)["NDCG@6"] == "1.000"  # the ideal order: exactly 1, shown as 1.000
    assert all(len(v.partition(".")[2]) == 3 for v in shown(at).values()), shown(at)


# ---------------------------------------------------------------- issue 29: several runs, messages that stay

QRELS_A = b"q1 0 d1 2\nq1 0 d2 1\nq2 0 d3 1\n"
RUN_A = b"q1 Q0 d1 1 0.9 t\nq1 Q0 d2 2 0.8 t\nq2 Q0 d3 1 0.5 t\n"  # every query ideal: mean NDCG 1


def upload(at: AppTest, kind: str, *files: tuple[str, bytes]) -> AppTest:
    """Put files in the qrels uploader (one) or the run uploader (one or more)."""
    given = [(name, content, "text/plain") for name, content in files]
    uploader = next(u for u in at.get("file_uploader") if u.key.startswith(f"ds_{kind}_file_"))
    uploader.set_value(given if kind == "run" else given[0])
    return at.run()


def trec_run(run) -> bytes:
    lines = [
        f"{q} Q0 {d} {i} {s!r} t"
        for i, (q, d, s) in enumerate(run[["query", "doc", "score"]].itertuples(index=False))
    ]
    return ("\n".join(lines) + "\n").encode()


def derived_runs():
    """The sample's run and two noisier versions (seeded), as files."""
    import numpy as np

    rng = np.random.default_rng(7)
    runs = {"base.run": RUN}
    for name, sd in (("noisy.run", 0.08), ("noisier.run", 0.3)):
        runs[name] = RUN.assign(score=(RUN["score"] + rng.normal(0, sd, len(RUN))).round(6))
    return runs


def pytrec_eval_per_query(run, qrels=QRELS, measure: str = "ndcg_cut.10") -> dict[str, float]:
    import pytrec_eval

    judged, ranked = {}, {}
    for q, d, g in qrels[["query", "doc", "relevance"]].itertuples(index=False):
        judged.setdefault(str(q), {})[str(d)] = int(g)
    for q, d, s in run[["query", "doc", "score"]].itertuples(index=False):
        ranked.setdefault(str(q), {})[str(d)] = float(s)
    result = pytrec_eval.RelevanceEvaluator(judged, {measure}).evaluate(ranked)
    return {q: r[measure.replace(".", "_")] for q, r in result.items()}


def messages(at: AppTest) -> list[str]:
    return bodies(at, ("error", "warning", "info", "caption", "markdown"))


def table_with(at: AppTest, column: str):
    return next(d.value for d in at.dataframe if column in d.value.columns)


@pytest.fixture(scope="module")
def three_runs():
    """The Data sets page with the sample's qrels and three runs uploaded."""
    runs = derived_runs()
    at = datasets()
    upload(at, "qrels", ("sample_qrels.tsv", (ROOT / "assets" / "sample_qrels.tsv").read_bytes()))
    upload(at, "run", *((name, trec_run(run)) for name, run in runs.items()))
    ok(at)
    return at, runs


def test_three_runs_give_pytrec_eval_means_scipy_p_values_and_win_tie_loss(three_runs):
    """Means from pytrec_eval per query; p-values from scipy's ttest_rel on them, Holm-corrected by hand."""
    from scipy.stats import ttest_rel

    at, runs = three_runs
    table = table_with(at, "wtl")
    values = {name: pytrec_eval_per_query(run) for name, run in runs.items()}
    queries = sorted(values["base.run"])
    base = [values["base.run"][q] for q in queries]
    raw = {}
    for name in ("noisy.run", "noisier.run"):
        other = [values[name][q] for q in queries]
        raw[name] = ttest_rel(other, base).pvalue
        wins = sum(o > b for o, b in zip(other, base, strict=True))
        ties = sum(o == b for o, b in zip(other, base, strict=True))
        row = table[table["run"].str.endswith(name)].iloc[0]
        assert row["mean"].startswith(f"{sum(other) / len(other):.3f}")
        assert row["wtl"] == f"{wins} / {ties} / {len(queries) - wins - ties}"
    # Holm over the 3 pairs: the baseline's two p-values and noisy vs noisier
    noisy, noisier = ([values[n][q] for q in queries] for n in ("noisy.run", "noisier.run"))
    all_p = sorted([raw["noisy.run"], raw["noisier.run"], ttest_rel(noisy, noisier).pvalue])
    holm = {}
    running = 0.0
    for i, p in enumerate(all_p):
        running = max(running, min(1.0, p * (3 - i)))
        holm[p] = running
    for name in ("noisy.run", "noisier.run"):
        row = table[table["run"].str.endswith(name)].iloc[0]
        expected = holm[raw[name]]
        assert row["p"] == ("< 0.0001" if expected < 1e-4 else f"{expected:.4f}"), (name, row["p"], expected)
    base_row = table[table["run"].str.endswith("base.run")].iloc[0]
    assert base_row["mean"].startswith(f"{sum(base) / len(base):.3f}")
    # the noisiest run is significantly worse than both: the others' means carry its letter (c)
    assert base_row["mean"].endswith("ᶜ") and table["mean"].iloc[1].endswith("ᶜ")
    assert any("Holm correction for 3 pairs" in c for c in messages(at))


def test_per_query_deltas_worst_first(three_runs):
    at, runs = three_runs
    at.selectbox(key="ds_versus").set_value("noisier.run").run()
    ok(at)
    deltas = table_with(at, "baseline")
    base, other = pytrec_eval_per_query(runs["base.run"]), pytrec_eval_per_query(runs["noisier.run"])
    expected = sorted(other[q] - base[q] for q in base)
    assert deltas["delta"].tolist() == pytest.approx(expected, abs=1e-12)
    worst = deltas["query"].iloc[0]
    assert other[worst] - base[worst] == pytest.approx(expected[0], abs=1e-12)
    assert at.selectbox(key="ds_delta_query").value == worst  # the worst query is the one offered first


def test_a_query_opens_in_explore_with_both_runs_step_tables(three_runs):
    at, runs = three_runs
    at.selectbox(key="ds_versus").set_value("noisier.run").run()
    query = at.selectbox(key="ds_delta_query").value
    at.button(key="ds_open_explore").click().run()
    ok(at)
    shown = {m.label.replace("\\", ""): m.value for m in at.metric}  # Explore escapes its names' dots
    base, other = pytrec_eval_per_query(runs["base.run"]), pytrec_eval_per_query(runs["noisier.run"])
    assert shown["NDCG@10 of a base.run"] == f"{base[query]:.3f}", shown
    assert shown["NDCG@10 of c noisier.run"] == f"{other[query]:.3f}", shown
    assert base[query] != other[query]  # the worst query differs: the tables show why
    assert at.session_state["cmp_count"] == 2
    first, second = (at.session_state[f"cmp_rank_{i}"].split(", ") for i in (0, 1))

    def trec_eval_order(run) -> list[str]:  # trec_eval: scores as float32, ties by document id descending
        q = run[run["query"] == query].assign(s=lambda f: f["score"].astype("float32"))
        return q.sort_values(["s", "doc"], ascending=[False, False])["doc"].tolist()

    ranked = {name: trec_eval_order(run) for name, run in runs.items()}
    assert first == ranked["base.run"][:10] and second == ranked["noisier.run"][:10]


def test_a_bad_qrels_keeps_its_message_when_a_good_run_follows():
    """Issue 29: the qrels' message disappeared when a good run was uploaded next."""
    at = datasets()
    upload(at, "qrels", ("bad.qrels", b"q1 0 d1 high\n"))
    first = [e.value for e in at.error]
    assert len(first) == 1 and "bad.qrels" in first[0] and "high" in first[0]
    upload(at, "run", ("good.run", RUN_A))
    ok(at)
    assert [e.value for e in at.error] == first  # still there, unchanged
    assert any("Still showing" in i.value for i in at.info)
    upload(at, "qrels", ("good.qrels", QRELS_A))  # replaced by a good one: message gone, pair loaded
    ok(at)
    assert not at.error
    assert shown(at)["Mean NDCG@10"] == "1.000"


def held_uploads(at: AppTest) -> list:
    """Every uploaded file the session still refers to: in an uploader, or anywhere in its state."""
    from streamlit.runtime.uploaded_file_manager import UploadedFile

    held = [u.value for u in at.get("file_uploader") if u.value]
    for value in at.session_state.to_dict().values():
        values = value if isinstance(value, list) else [value]
        held += [v for v in values if isinstance(v, UploadedFile)]
    return held


def test_issue_30_a_file_that_fails_to_read_is_let_go_and_its_message_stays():
    """Issue 30: five unreadable 190 MB uploads held 922 MB after their tabs closed: a bad file sat in
    its uploader, its bytes in the server, for as long as its message showed. Now the uploader is
    emptied at once and the message (file, line, problem) is kept apart, until a good file comes."""
    at = datasets()
    lines = 500_000
    big = b"q1 0 d1 1\n" * lines + b"q1 0 d2 high\n"  # 5 MB, its last line unreadable
    upload(at, "qrels", ("big <b>bad</b>.qrels", big))
    ok(at)
    assert held_uploads(at) == []  # the uploader is empty and the session refers to no upload
    first = [e.value for e in at.error]
    assert len(first) == 1, first
    assert "`big <b>bad</b>.qrels`" in first[0] and "`'high'`" in first[0]  # the name as code, not HTML
    assert f"{lines + 1:,}" in first[0]  # the line of the bad grade
    assert shown(at)["Queries"] == "250"  # the last good data set stays
    at.run()  # an unrelated rerun: the message stays
    assert [e.value for e in at.error] == first
    upload(at, "run", ("bad.run", b"q1 Q0 d1 first 0.5 t\n"))  # both files' problems at once
    assert len(at.error) == 2 and "Run file `bad.run`" in at.error[1].value and held_uploads(at) == []
    at.button(key="ds_dismiss").click().run()  # dismissed: both go, the sample stays
    ok(at)
    assert not at.error and shown(at)["Queries"] == "250"
    upload(at, "qrels", ("big bad.qrels", big))
    upload(at, "qrels", ("good.qrels", QRELS_A))  # a good file of that kind: the message goes
    ok(at)
    assert not at.error
    upload(at, "run", ("good.run", RUN_A))
    ok(at)
    assert not at.error and shown(at)["Mean NDCG@10"] == "1.000"


def test_both_files_problems_show_at_once():
    at = datasets()
    upload(at, "qrels", ("bad.qrels", b"q1 0 d1 high\n"))
    upload(at, "run", ("bad.run", b"q1 Q0 d1 first 0.5 t\n"))
    errors = [e.value for e in at.error]
    assert len(errors) == 2, errors
    assert "Qrels file `bad.qrels`" in errors[0] and "Run file `bad.run`" in errors[1]
    assert "rank `'first'`" in errors[1]


def test_swapped_files_say_what_they_look_like():
    """Issue 29: a qrels given as a run got "found '301', '0', ..." (pandas' column names)."""
    at = datasets()
    upload(at, "qrels", ("run.txt", RUN_A))
    upload(at, "run", ("qrels.txt", QRELS_A))
    errors = [e.value for e in at.error]
    assert len(errors) == 2, errors
    assert "this looks like a run" in errors[0] and "Upload it under Run" in errors[0]
    assert "this looks like a qrels file" in errors[1] and "Upload it under Qrels" in errors[1]
    assert not any("found" in e for e in errors)
    # the fix it suggests, done on the page: each file in its own uploader
    upload(at, "qrels", ("qrels.txt", QRELS_A))
    upload(at, "run", ("run.txt", RUN_A))
    ok(at)
    assert not at.error and shown(at)["Mean NDCG@10"] == "1.000"


@pytest.mark.parametrize(
    ("qrels", "run", "what"),
    [
        # d1 retrieved twice: 'max' keeps its 0.95, so it ranks first: the ideal order, NDCG 1
        (
            b"q1 0 d1 2\nq1 0 d2 1\n",
            b"q1 Q0 d2 1 0.9 t\nq1 Q0 d1 2 0.5 t\nq1 Q0 d1 3 0.95 t\n",
            "retrieved twice",
        ),
        # d1 judged 0 and 2: 'max' keeps 2, and the run puts it first: NDCG 1
        (b"q1 0 d1 0\nq1 0 d2 1\nq1 0 d1 2\n", b"q1 Q0 d1 1 0.9 t\nq1 Q0 d2 2 0.5 t\n", "judged twice"),
    ],
)
def test_documents_twice_get_a_choice_on_the_page(qrels, run, what):
    at = datasets()
    upload(at, "qrels", ("q.txt", qrels))
    upload(at, "run", ("r.txt", run))
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and what in errors[0] and "`'d1'`" in errors[0], errors
    assert "duplicates=" not in errors[0]  # no fix the page does not offer
    assert errors[0].rstrip().endswith("keep the higher grade or score.")
    at.radio(key="ds_duplicates").set_value("max").run()
    ok(at)
    assert not at.error
    assert shown(at)["Mean NDCG@10"] == "1.000"


def test_no_invisible_characters_and_no_markup_in_messages():
    """Issue 29: every message carried U+2060 after each colon, copied with the text."""
    import re

    at = datasets()
    upload(
        at, "qrels", ("a:smile: [x](y) $x$.txt", b"q1 0 d1 2\nq1 0 d2 :smile:\n")
    )  # a grade that is no number
    upload(at, "run", ("b:smile:.txt", b"q1 0 d1 1\n"))  # a qrels file given as a run
    texts = messages(at)
    assert len([e for e in at.error]) == 2
    for text in texts:
        assert "\u2060" not in text, text
        outside = re.sub(r"(`+)(?:(?!\1).)*?\1", "", text)  # what is not in a code span is Markdown
        assert ":smile:" not in outside and "](" not in outside and "$x$" not in outside, text
    assert any("`a:smile: [x](y) $x$.txt`" in t and "`':smile:'`" in t for t in texts)


def test_a_lone_run_waits_for_its_qrels_and_runs_join_up_to_five():
    at = datasets()
    upload(at, "run", ("r1.txt", RUN_A))
    assert any("Now add the qrels" in i.value for i in at.info)
    upload(at, "qrels", ("q.txt", QRELS_A))
    ok(at)
    assert shown(at)["Mean NDCG@10"] == "1.000"
    worse = [RUN_A.replace(b"0.9", f"0.{n}".encode()).replace(b"d1 1", b"d1 3") for n in range(1, 6)]
    upload(at, "run", *((f"r{n + 2}.txt", w) for n, w in enumerate(worse[:4])))  # 1 + 4 = 5 runs
    ok(at)
    assert len(at.session_state[keys.DS_DATA].runs) == 5
    upload(at, "run", ("r6.txt", worse[4]))
    assert any("6 runs" in e.value and "five at most" in e.value for e in at.error)
    at.button(key="ds_remove_0").click().run()  # the fix it suggests: remove a loaded run
    ok(at)
    assert not at.error
    names = [name for name, _ in at.session_state[keys.DS_DATA].runs]
    assert names == ["r2.txt", "r3.txt", "r4.txt", "r5.txt", "r6.txt"]


def test_remove_pressed_twice_removes_one_run():
    """A second press of a run's Remove can reach the server before the first press's run drew
    the list again (a double press): it removed the run that had moved up into that place."""
    at = datasets()
    upload(at, "qrels", ("q.txt", QRELS_A))
    upload(at, "run", *((f"r{n}.txt", RUN_A.replace(b"0.9", f"0.{n}".encode())) for n in (1, 2, 3)))
    ok(at)
    data = at.session_state[keys.DS_DATA]
    assert [name for name, _ in data.runs] == ["r1.txt", "r2.txt", "r3.txt"]
    at.session_state[keys.DS_DATA] = data.without(data.runs[0])  # the first press's callback ran
    ok(at.button(key=keys.ds_remove(0)).click().run())  # the second press, on the list drawn before
    assert [name for name, _ in at.session_state[keys.DS_DATA].runs] == ["r2.txt", "r3.txt"]


def test_issue_30_a_large_upload_s_table_comes_a_page_at_a_time():
    """Issue 30: an accepted 10M-query upload broke the page: Streamlit ships a table whole and its
    per-query table was 551 MB, past the 200 MB limit. 2,500 queries stand in for it here: the table
    holds 1,000 rows a page, the pages reach every query, and a picked row opens that query."""
    ids = [f"q{i:05d}" for i in range(2_500)]
    qrels = "".join(f"{q} 0 d1 1\n" for q in ids).encode()
    run = "".join(f"{q} Q0 d1 1 1.0 tag\n" for q in ids).encode()
    at = with_data_set(qrels, run)
    ok(at)
    table = at.dataframe(key="ds_table").value
    assert len(table) == 1_000 and list(table["query"]) == ids[:1_000]
    assert any("Rows 1 to 1,000 of 2,500" in c.value for c in at.caption)
    at.number_input(key="ds_page").set_value(3).run()
    ok(at)
    table = at.dataframe(key="ds_table").value
    assert list(table["query"]) == ids[2_000:]
    assert any("Rows 2,001 to 2,500 of 2,500" in c.value for c in at.caption)
    # A search narrows the table below a page: no pager, page 3 forgotten.
    at.text_input(key="ds_search").input("q0249").run()
    assert list(at.dataframe(key="ds_table").value["query"]) == ids[2_490:]
    assert not [n for n in at.number_input if n.key == "ds_page"]


def test_issue_30_two_large_runs_deltas_come_a_page_at_a_time():
    from views.datastore import load

    ids = [f"q{i:05d}" for i in range(2_500)]
    qrels = "".join(f"{q} 0 d1 1\n{q} 0 d2 2\n" for q in ids).encode()
    a = "".join(f"{q} Q0 d1 1 2.0 a\n{q} Q0 d2 2 1.0 a\n" for q in ids).encode()  # d1 first: 0.6309...
    b = "".join(f"{q} Q0 d2 1 2.0 b\n{q} Q0 d1 2 1.0 b\n" for q in ids).encode()  # the ideal order: 1
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.session_state[keys.DS_DATA] = DataSetFiles(
        load("qrels", qrels, "qrels"),
        "qrels",
        (("a", load("run", a, "a")), ("b", load("run", b, "b"))),
    )
    at.switch_page("views/datasets.py").run()
    ok(at)
    deltas = at.dataframe(key="ds_delta_table").value
    assert len(deltas) == 1_000
    assert any("of 2,500" in c.value for c in at.caption)

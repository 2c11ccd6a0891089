"""Issue 29 part 4: several cutoffs from one pass (evaluate(k=[5, 10, 20])) and the thread setting
(threads= for evaluate and the readers, and the NDCG_THREADS environment variable).

Expected values come from closed forms, pytrec_eval, and single-cutoff calls (each column must be
exactly what the call with that one cutoff gives).
"""

from __future__ import annotations

import io
import math
import threading

import numpy as np
import pandas as pd
import pytest

import ndcg_core
from ndcg_core import NDCGError, aggregate, evaluate, read_qrels, read_run
from ndcg_core.dataset import kernels

TODAY = [
    "query",
    "dcg",
    "idcg",
    "ndcg",
    "n_retrieved",
    "n_judged",
    "n_relevant",
    "idcg_zero",
    "in_run",
    "in_qrels",
]


def random_data(seed: int, n_queries: int = 60):
    """Ragged queries, coarse scores (ties, some straddling every cutoff), one-sided queries, -1 grades."""
    rng = np.random.default_rng(seed)
    run_rows, qrels_rows = [], []
    for q in range(n_queries):
        docs = rng.choice(300, size=int(rng.integers(1, 45)), replace=False)
        side = rng.choice(["both"] * 8 + ["run", "qrels"])
        if side != "qrels":
            scores = np.round(rng.random(docs.size) * 3, 1)
            run_rows += [(f"q{q}", f"d{d}", s) for d, s in zip(docs, scores, strict=True)]
        if side != "run":
            pool = np.union1d(docs[rng.random(docs.size) < 0.6], rng.choice(300, size=4, replace=False))
            grades = rng.choice([-1, 0, 1, 2, 3], size=pool.size, p=[0.05, 0.45, 0.25, 0.15, 0.1])
            qrels_rows += [(f"q{q}", f"d{d}", int(g)) for d, g in zip(pool, grades, strict=True)]
    run = pd.DataFrame(run_rows, columns=["query", "doc", "score"]).sample(frac=1.0, random_state=seed)
    return pd.DataFrame(qrels_rows, columns=["query", "doc", "relevance"]), run.reset_index(drop=True)


# ------------------------------------------------------------------ closed forms


def test_several_cutoffs_by_hand():
    qrels = pd.DataFrame({"query": ["q"] * 4, "doc": list("abcd"), "relevance": [3, 2, 1, 0]})
    run = pd.DataFrame({"query": ["q"] * 4, "doc": list("dacb"), "score": [0.9, 0.8, 0.7, 0.6]})
    table = evaluate(qrels, run, k=[1, 2, 4])
    assert list(table.columns) == [
        "query",
        *("ndcg@1", "ndcg@2", "ndcg@4"),
        *("dcg@1", "dcg@2", "dcg@4"),
        *("idcg@1", "idcg@2", "idcg@4"),
        *("idcg_zero@1", "idcg_zero@2", "idcg_zero@4"),
        *("n_retrieved", "n_judged", "n_relevant", "in_run", "in_qrels"),
    ]
    row = table.iloc[0]
    dcg = {1: 0.0, 2: 3 / math.log2(3), 4: 3 / math.log2(3) + 1 / 2 + 2 / math.log2(5)}
    idcg = {1: 3.0, 2: 3 + 2 / math.log2(3), 4: 3 + 2 / math.log2(3) + 1 / 2}
    for k in (1, 2, 4):
        assert row[f"dcg@{k}"] == pytest.approx(dcg[k])
        assert row[f"idcg@{k}"] == pytest.approx(idcg[k])
        assert row[f"ndcg@{k}"] == pytest.approx(dcg[k] / idcg[k])
    assert table.attrs["cutoffs"] == [1, 2, 4]
    assert table.attrs["specs"][2] == ndcg_core.resolve(k=2, ties="docid_desc")


def test_no_cutoff_in_the_list_gives_the_uncut_columns():
    qrels = pd.DataFrame({"query": ["q"] * 3, "doc": list("abc"), "relevance": [1, 1, 1]})
    run = pd.DataFrame({"query": ["q"], "doc": ["c"], "score": [1.0]})
    table = evaluate(qrels, run, k=(None, 1))
    # k=None: IDCG over the whole pool of three (trec_eval's ndcg); k=1: one ideal position
    assert table["ndcg"].iloc[0] == pytest.approx(1 / (1 + 1 / math.log2(3) + 1 / 2))
    assert table["ndcg@1"].iloc[0] == 1.0
    assert {"dcg", "idcg", "idcg_zero"} <= set(table.columns)


def test_one_cutoff_keeps_todays_shape_exactly():
    qrels, run = random_data(0)
    table = evaluate(qrels, run, k=10)
    assert list(table.columns) == TODAY
    assert "cutoffs" not in table.attrs and table.attrs["spec"].k == 10
    assert list(evaluate(qrels, run).columns) == TODAY
    listed = evaluate(qrels, run, k=[10])  # a list, even of one, names its cutoff
    assert "ndcg@10" in listed.columns and "ndcg" not in listed.columns
    np.testing.assert_array_equal(listed["ndcg@10"], table["ndcg"])


# ------------------------------------------------------------ each column is its own call, from one pass

OPTIONS = [
    {},
    {"ties": "stable"},
    {"ties": "average"},
    {"ideal": "retrieved"},
    {"preset": "trec_eval"},
    {"preset": "sklearn"},
    {"preset": "elasticsearch"},  # IDCG no deeper than what was retrieved
    {"gain": "exponential", "discount": "jarvelin", "zero_idcg": "skip"},
]


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default"
)
@pytest.mark.parametrize("seed", [1, 2])
def test_each_cutoff_column_is_exactly_the_single_cutoff_call(options, seed, monkeypatch):
    qrels, run = random_data(seed)
    if options.get("preset") in {"sklearn", "elasticsearch"}:
        qrels = qrels.assign(relevance=qrels["relevance"].clip(lower=0))
    if options.get("preset") == "sklearn":  # it refuses queries of one document
        run = run[run.groupby("query")["query"].transform("size") > 1]
    cutoffs = [3, 1, 10, None, 25]
    rankings = []
    real = kernels._Ranked.__init__
    monkeypatch.setattr(kernels._Ranked, "__init__", lambda self, *a: rankings.append(1) or real(self, *a))
    table = evaluate(qrels, run, k=cutoffs, **options)
    assert len(rankings) == 1  # one ranking of every query serves every cutoff
    for k in cutoffs:
        alone = evaluate(qrels, run, k=k, **options)
        at = "" if k is None else f"@{k}"
        assert table["query"].tolist() == alone["query"].tolist()
        for column in ("dcg", "idcg", "ndcg", "idcg_zero"):
            np.testing.assert_array_equal(table[column + at], alone[column], err_msg=f"{column}{at}")
        agg, want = aggregate(table, k=k), aggregate(alone)
        assert (agg.mean_ndcg, agg.ratio_of_sums, agg.n_idcg_zero) == pytest.approx(
            (want.mean_ndcg, want.ratio_of_sums, want.n_idcg_zero), nan_ok=True
        )


@pytest.mark.parametrize("seed", range(3))
def test_several_cutoffs_match_pytrec_eval(seed):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = random_data(seed)
    judged, ranked = {}, {}
    for q, d, g in qrels.itertuples(index=False):
        judged.setdefault(q, {})[d] = int(g)
    for q, d, s in run.itertuples(index=False):
        ranked.setdefault(q, {})[d] = float(s)
    want = pytrec_eval.RelevanceEvaluator(judged, {"ndcg", "ndcg_cut.5,10,20"}).evaluate(ranked)
    table = evaluate(qrels, run, k=[5, 10, 20, None], preset="trec_eval").set_index("query")
    assert sorted(table.index) == sorted(want)
    for q, values in want.items():
        for k in (5, 10, 20):
            assert table.loc[q, f"ndcg@{k}"] == pytest.approx(values[f"ndcg_cut_{k}"], abs=1e-12), (q, k)
        assert table.loc[q, "ndcg"] == pytest.approx(values["ndcg"], abs=1e-12), q


def test_blocks_of_queries_give_the_same_columns(monkeypatch):
    qrels, run = random_data(3, n_queries=120)
    want = evaluate(qrels, run, k=[2, 7, None])
    monkeypatch.setattr(kernels, "_BLOCK_ROWS", 200)
    for threads in (1, 2):
        pd.testing.assert_frame_equal(evaluate(qrels, run, k=[2, 7, None], threads=threads), want)


# ------------------------------------------------------------ choosing a cutoff of a table, and mistakes


def test_aggregate_needs_a_cutoff_of_a_table_with_several():
    qrels, run = random_data(4)
    table = evaluate(qrels, run, k=[5, 10])
    with pytest.raises(NDCGError) as info:
        aggregate(table)
    assert info.value.code == "which_cutoff" and "k=5" in str(info.value)
    with pytest.raises(NDCGError) as info:
        aggregate(table, k=20)
    assert info.value.code == "no_such_cutoff" and "5, 10" in str(info.value)
    with pytest.raises(NDCGError, match="no cutoff k=None"):
        aggregate(table, k=None)
    one = evaluate(qrels, run, k=10)
    assert aggregate(one, k=10) == aggregate(one)
    with pytest.raises(NDCGError, match="no cutoff k=5; it has 10"):
        aggregate(one, k=5)


@pytest.mark.parametrize(
    ("k", "code"),
    [([], "no_cutoffs"), ([5, 0], "k_below_one"), ([5, 2.5], "k_not_whole"), ([True], "k_not_whole")],
)
def test_bad_cutoff_lists_are_refused(k, code):
    qrels, run = random_data(5)
    with pytest.raises(NDCGError) as info:
        evaluate(qrels, run, k=k)
    assert info.value.code == code


def test_a_cutoff_listed_twice_counts_once_and_order_is_kept():
    qrels, run = random_data(6)
    table = evaluate(qrels, run, k=[10, 5, 10])
    assert [c for c in table.columns if c.startswith("ndcg")] == ["ndcg@10", "ndcg@5"]


def test_zero_idcg_error_names_the_queries_at_any_cutoff():
    qrels = pd.DataFrame({"query": ["a", "b"], "doc": ["x", "y"], "relevance": [1, 0]})
    run = pd.DataFrame({"query": ["a", "b"], "doc": ["x", "y"], "score": [1.0, 1.0]})
    with pytest.raises(NDCGError) as info:
        evaluate(qrels, run, k=[1, 5], zero_idcg="error")
    assert info.value.code == "idcg_zero_query" and "'b'" in str(info.value)


# ------------------------------------------------------------------ threads


def _threads_used(monkeypatch) -> set[int]:
    seen: set[int] = set()
    real = kernels._evaluate_block
    monkeypatch.setattr(kernels, "_evaluate_block", lambda *a: seen.add(threading.get_ident()) or real(*a))
    monkeypatch.setattr(kernels, "_BLOCK_ROWS", 200)  # several blocks
    return seen


@pytest.mark.parametrize("setting", ["argument", "variable"])
def test_one_thread_scores_every_block_on_the_calling_thread(monkeypatch, setting):
    qrels, run = random_data(7, n_queries=150)
    qrels, run = qrels.sort_values("query", kind="stable"), run.sort_values("query", kind="stable")
    want = evaluate(qrels, run, k=10, threads=2)
    seen = _threads_used(monkeypatch)
    if setting == "variable":
        monkeypatch.setenv("NDCG_THREADS", "1")
        got = evaluate(qrels, run, k=10)
    else:
        monkeypatch.setenv("NDCG_THREADS", "2")  # the argument wins over the variable
        got = evaluate(qrels, run, k=10, threads=1)
    assert seen == {threading.get_ident()}
    pd.testing.assert_frame_equal(got, want)


def test_two_threads_score_blocks_on_worker_threads(monkeypatch):
    qrels, run = random_data(8, n_queries=150)
    qrels, run = qrels.sort_values("query", kind="stable"), run.sort_values("query", kind="stable")
    seen = _threads_used(monkeypatch)
    monkeypatch.setenv("NDCG_THREADS", "2")
    evaluate(qrels, run, k=10)
    assert seen and threading.get_ident() not in seen


@pytest.mark.parametrize("threads", [0, -1, 1.5, True, "2"])
def test_bad_thread_counts_are_refused(threads):
    qrels, run = random_data(9)
    with pytest.raises(NDCGError) as info:
        evaluate(qrels, run, k=10, threads=threads)
    assert info.value.code == "bad_threads"
    with pytest.raises(NDCGError) as info:
        read_run(io.StringIO("q Q0 d 1 0.5 t\n"), threads=threads)
    assert info.value.code == "bad_threads"


@pytest.mark.parametrize("text", ["zero", "0", "-2", "1.5"])
def test_a_bad_environment_variable_is_named(monkeypatch, text):
    monkeypatch.setenv("NDCG_THREADS", text)
    qrels, run = random_data(9)
    with pytest.raises(NDCGError) as info:
        evaluate(qrels, run, k=10)
    assert info.value.code == "bad_threads_variable" and "NDCG_THREADS" in str(info.value)
    monkeypatch.setenv("NDCG_THREADS", " ")  # blank: as if unset
    evaluate(qrels, run, k=10)


def test_readers_hand_the_thread_setting_to_arrow(monkeypatch):
    pacsv = pytest.importorskip("pyarrow.csv")
    lines = "".join(f"q{i // 100} Q0 d{i} {i % 100 + 1} {i % 7}.5 tag\n" for i in range(5000))
    asked = []
    real = pacsv.read_csv
    monkeypatch.setattr(
        pacsv, "read_csv", lambda *a, **kw: asked.append(kw["read_options"].use_threads) or real(*a, **kw)
    )
    one = read_run(io.StringIO(lines), threads=1)
    two = read_run(io.StringIO(lines), threads=2)
    monkeypatch.setenv("NDCG_THREADS", "1")
    env = read_run(io.StringIO(lines))
    assert asked == [False, True, False]
    pd.testing.assert_frame_equal(one, two)
    pd.testing.assert_frame_equal(one, env)
    qrels = "".join(f"q{i // 100} 0 d{i} {i % 3}\n" for i in range(5000))
    assert read_qrels(io.StringIO(qrels), threads=1).equals(read_qrels(io.StringIO(qrels), threads=3))

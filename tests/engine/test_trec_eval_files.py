"""Issue 8 defect 11: the readers against trec_eval's own test files, and the values it prints.

The files live in ``<repo>/../shared/external/trec_eval/`` (copied unchanged from
usnistgov/trec_eval's ``test/`` folder; see that folder's README). Each ``out.test.*`` file is
trec_eval's own output for one qrels/run pair: ``evaluate(..., preset="trec_eval")`` must give
its ``ndcg`` and ``ndcg_cut_*`` values (printed with 4 decimals) for every query and the mean.
"""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from ndcg_core import evaluate, read_qrels, read_run

ROOT = pathlib.Path(__file__).resolve().parents[2]
TREC_EVAL = ROOT.parent / "shared" / "external" / "trec_eval"


def printed(name: str) -> dict[tuple[str, str], float]:
    """trec_eval's ndcg / ndcg_cut_* lines of one out.test file: (measure, query) -> value."""
    out = {}
    for line in (TREC_EVAL / name).read_text().splitlines():
        measure, query, value = line.split()
        if measure == "ndcg" or measure.startswith("ndcg_cut_"):
            out[measure, query] = float(value)
    return out


def top_m(run, m: int):
    """trec_eval -M: each query's first m documents in trec_eval's order (score, then docno, desc)."""
    ranked = run.assign(_s=run["score"].astype(np.float32)).sort_values(
        ["query", "_s", "doc"], ascending=[True, False, False], kind="stable"
    )
    return ranked.groupby("query", sort=False).head(m).drop(columns="_s")


def check(expected: dict[tuple[str, str], float], qrels, run, **options) -> None:
    assert expected, "no ndcg lines found"
    measures = {m for m, _ in expected}
    for measure in sorted(measures):
        k = None if measure == "ndcg" else int(float(measure.rsplit("_", 1)[1]))
        table = evaluate(qrels, run, k, preset="trec_eval", **options)
        got = dict(zip(table["query"], table["ndcg"], strict=True))
        got["all"] = float(table["ndcg"].mean())
        want = {q: v for (m, q), v in expected.items() if m == measure}
        assert set(got) == set(want), (measure, sorted(got), sorted(want))
        for query, value in want.items():
            assert got[query] == pytest.approx(value, abs=5e-5), (measure, query, got[query], value)


def test_files_are_there():
    assert (TREC_EVAL / "qrels.test").is_file(), f"trec_eval's test files are expected in {TREC_EVAL}"


def test_qrels_with_comment_lines_reads_like_qrels_test():
    plain = read_qrels(TREC_EVAL / "qrels.test")
    commented = read_qrels(TREC_EVAL / "qrels.test.with-comments")
    assert len(commented) == len(plain)
    assert "CR#93E-1860" in set(commented["doc"])  # a '#' inside a docno is part of it
    lines = (TREC_EVAL / "qrels.test.with-comments").read_text().splitlines()
    first = commented.index[0]
    assert lines[first - 1].split()[2] == commented["doc"].iloc[0]  # index is still the file line
    assert (commented["relevance"].to_numpy() == plain["relevance"].to_numpy()).all()


def test_run_with_text_after_the_tag_is_read():
    run = read_run(TREC_EVAL / "results.trunc")
    assert len(run) == len((TREC_EVAL / "results.trunc").read_text().splitlines())
    assert set(run["query"]) == {"301", "303"}
    row = run[run["doc"] == "FBIS3-27619"]
    assert row["score"].tolist() == [2.138276]


def test_out_test_aq():
    # trec_eval -m all_trec -q qrels.test results.test
    check(printed("out.test.aq"), read_qrels(TREC_EVAL / "qrels.test"), read_run(TREC_EVAL / "results.test"))


def test_out_test_aqc():
    # trec_eval -m all_trec -q -c qrels.test results.trunc (-c: every qrels query, 302 scores 0)
    qrels, run = read_qrels(TREC_EVAL / "qrels.test"), read_run(TREC_EVAL / "results.trunc")
    check(printed("out.test.aqc"), qrels, run, queries="qrels")


def test_out_test_aqcm():
    # trec_eval -m all_trec -q -c -M100 qrels.test results.trunc (-M100: the first 100 per query)
    qrels, run = read_qrels(TREC_EVAL / "qrels.test"), read_run(TREC_EVAL / "results.trunc")
    check(printed("out.test.aqcM"), qrels, top_m(run, 100), queries="qrels")


def test_out_test_aql():
    # trec_eval -m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test (grades -1..4)
    qrels, run = read_qrels(TREC_EVAL / "qrels.rel_level"), read_run(TREC_EVAL / "results.test")
    check(printed("out.test.aql"), qrels, run)


def test_out_test_meas_params():
    # trec_eval -mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 ... qrels.test results.test
    expected = printed("out.test.meas_params")
    check(expected, read_qrels(TREC_EVAL / "qrels.test"), read_run(TREC_EVAL / "results.test"))

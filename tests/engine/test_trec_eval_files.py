"""Issue 8 defect 11 and issue 29 part 1: the readers against trec_eval's own test files, and the
values it prints.

The files live in ``tests/data/trec_eval/`` (``data_support.TREC_EVAL``), copied unchanged from
usnistgov/trec_eval's ``test/`` folder: provenance, checksums and licence in that folder's README.
Each ``out.test.*`` file is trec_eval's own output for one qrels/run pair:
``evaluate(..., preset="trec_eval")`` must give its ``ndcg`` and ``ndcg_cut_*`` values (printed
with 4 decimals) for every query and the mean.
The plain default of ``evaluate`` is not trec_eval's measure (its docstring says so): the tests at
the end pin where the two agree and where they do not.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np
import pytest
from data_support import TREC_EVAL

from ndcg_core import evaluate, read_qrels, read_run


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


def check(expected: dict[tuple[str, str], float], qrels, run, spec_free: bool = False, **options) -> None:
    """evaluate against trec_eval: under preset="trec_eval", or (``spec_free``) the plain default."""
    assert expected, "no ndcg lines found"
    measures = {m for m, _ in expected}
    for measure in sorted(measures):
        k = None if measure == "ndcg" else int(float(measure.rsplit("_", 1)[1]))
        preset = None if spec_free else "trec_eval"
        table = evaluate(qrels, run, k, preset=preset, **options)
        got = dict(zip(table["query"], table["ndcg"], strict=True))
        got["all"] = float(table["ndcg"].mean())
        want = {q: v for (m, q), v in expected.items() if m == measure}
        assert set(got) == set(want), (measure, sorted(got), sorted(want))
        for query, value in want.items():
            assert got[query] == pytest.approx(value, abs=5e-5), (measure, query, got[query], value)


def test_the_vendored_files_are_trec_evals_unchanged():
    """Every file of the folder is listed in its README with the SHA-256 of trec_eval's own copy: an
    editor that trims a trailing space or a line end, a file dropped or added, fails here (the
    numbers below would then be checked against something trec_eval never printed)."""
    readme = (TREC_EVAL / "README.md").read_text()
    listed = dict(re.findall(r"^\| `([^`]+)` \|.*\| `([0-9a-f]{64})` \|$", readme, re.M))
    assert len(listed) == 10, listed
    on_disk = {p.name for p in TREC_EVAL.iterdir()} - {"README.md"}
    assert on_disk == set(listed)
    for name, digest in listed.items():
        assert hashlib.sha256((TREC_EVAL / name).read_bytes()).hexdigest() == digest, name


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


def test_qrels_with_comment_lines_gives_trec_evals_numbers_for_qrels_test():
    # qrels.test.with-comments is qrels.test with '#' lines and one grade-0 docno renamed: trec_eval
    # has no output of its own for it, and its NDCG cannot differ from out.test.aq's (a grade-0
    # document adds no gain, and an unjudged retrieved one is grade 0 too).
    qrels = read_qrels(TREC_EVAL / "qrels.test.with-comments")
    check(printed("out.test.aq"), qrels, read_run(TREC_EVAL / "results.test"))


def test_several_cutoffs_in_one_call_give_trec_evals_numbers():
    """evaluate(k=[...]) under the preset: every ndcg_cut_k column of out.test.aq at once."""
    expected = printed("out.test.aq")
    cutoffs = sorted({int(m.rsplit("_", 1)[1]) for m, _q in expected if m.startswith("ndcg_cut_")})
    assert cutoffs == [5, 10, 15, 20, 30, 100, 200, 500, 1000]
    qrels, run = read_qrels(TREC_EVAL / "qrels.test"), read_run(TREC_EVAL / "results.test")
    table = evaluate(qrels, run, [None, *cutoffs], preset="trec_eval").set_index("query")
    for (measure, query), value in expected.items():
        column = "ndcg" if measure == "ndcg" else "ndcg@" + measure.rsplit("_", 1)[1]
        got = table[column].mean() if query == "all" else table.loc[query, column]
        assert got == pytest.approx(value, abs=5e-5), (measure, query)


# ------------------------------------------------------------------ the plain default is not trec_eval


def test_plain_default_counts_negative_grades_where_trec_eval_counts_them_as_zero():
    """Issue 29: with qrels.rel_level (grades -1..4) the default gave a mean of 0.194 (303: -0.214)
    under a trec_eval label, where trec_eval prints 0.2656 (303: 0). The label is gone from the
    default; the preset gives trec_eval's numbers (test_out_test_aql), and the default still shows
    what the -1 grades do, as documented: the queries without one agree, 303 does not."""
    expected = {q: v for (m, q), v in printed("out.test.aql").items() if m == "ndcg_cut_10"}
    assert expected["303"] == 0.0 and expected["all"] == 0.2656
    qrels, run = read_qrels(TREC_EVAL / "qrels.rel_level"), read_run(TREC_EVAL / "results.test")
    plain = dict(zip(*evaluate(qrels, run, 10)[["query", "ndcg"]].to_numpy().T, strict=True))
    negative = set(qrels.loc[qrels["relevance"] < 0, "query"])
    assert negative == {"303"}
    for query in ("301", "302"):
        assert plain[query] == pytest.approx(expected[query], abs=5e-5)
    assert plain["303"] < 0  # a -1 grade in the top 10 subtracts
    trec = evaluate(qrels, run, 10, preset="trec_eval")
    assert trec["ndcg"].mean() == pytest.approx(expected["all"], abs=5e-5)


def test_plain_default_scores_every_qrels_query_as_trec_eval_c_does():
    """The default keeps every query of either table (queries='union'): with a run that misses
    query 302, that is trec_eval -c (out.test.aqc), not trec_eval's default."""
    qrels, run = read_qrels(TREC_EVAL / "qrels.test"), read_run(TREC_EVAL / "results.trunc")
    check(printed("out.test.aqc"), qrels, run, spec_free=True)


# ------------------------------------------------------------------ every pair of files, through pytrec_eval

QRELS_FILES = ("qrels.test", "qrels.test.with-comments", "qrels.rel_level")
RUN_FILES = ("results.test", "results.trunc")


def _raw(name: str, fields: int) -> dict[str, dict[str, str]]:
    """A TREC file split by hand, as trec_eval reads it: '#' lines skipped, text after the tag ignored."""
    out: dict[str, dict[str, str]] = {}
    for line in (TREC_EVAL / name).read_text().splitlines():
        parts = line.split()
        if not parts or (fields == 4 and line.startswith("#")):
            continue
        out.setdefault(parts[0], {})[parts[2]] = parts[fields - 1] if fields == 4 else parts[4]
    return out


@pytest.mark.parametrize("run_name", RUN_FILES)
@pytest.mark.parametrize("qrels_name", QRELS_FILES)
def test_every_file_pair_matches_pytrec_eval(qrels_name, run_name):
    """trec_eval prints outputs for only some pairs; pytrec_eval (trec_eval as a library) scores them all."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    judged = {q: {d: int(g) for d, g in docs.items()} for q, docs in _raw(qrels_name, 4).items()}
    ranked = {q: {d: float(s) for d, s in docs.items()} for q, docs in _raw(run_name, 6).items()}
    cutoffs = [5, 10, 15, 20, 30, 100, 200, 500, 1000]
    measures = {"ndcg", "ndcg_cut." + ",".join(map(str, cutoffs))}
    want = pytrec_eval.RelevanceEvaluator(judged, measures).evaluate(ranked)
    table = evaluate(
        read_qrels(TREC_EVAL / qrels_name),
        read_run(TREC_EVAL / run_name),
        [None, *cutoffs],
        preset="trec_eval",
    ).set_index("query")
    assert sorted(table.index) == sorted(want)
    for query, values in want.items():
        assert table.loc[query, "ndcg"] == pytest.approx(values["ndcg"], abs=1e-12)
        for c in cutoffs:
            assert table.loc[query, f"ndcg@{c}"] == pytest.approx(values[f"ndcg_cut_{c}"], abs=1e-12)

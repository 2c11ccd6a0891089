"""Issue 40: trec_eval command lines run unchanged, and ``ndcg_rel``, ``unj`` and ``Judged@k``.

Expected values: trec_eval's own output files (``out.test.*``, vendored in ``tests/data/trec_eval``,
byte for byte), pytrec_eval (``judged_docs_only_flag``, trec_eval's -J), ir_measures (``Judged@k``)
and hand-computed closed forms.
"""

from __future__ import annotations

import json
import math
import pathlib
import re

import pytest
from cli_support import run_main
from data_support import TREC_EVAL

from ndcg_core.dataset import lean

ROOT = pathlib.Path(__file__).resolve().parents[2]


def path(name: str) -> str:
    return str(TREC_EVAL / name)


def reference(name: str, measures: str) -> str:
    pattern = re.compile(rf"^({measures}) +\t")
    return "".join(ln for ln in (TREC_EVAL / name).read_text().splitlines(keepends=True) if pattern.match(ln))


# trec_eval's quicktest commands (its Makefile), each with its output file
QUICKTEST = [
    ("out.test.aq", ["-q"], "qrels.test", "results.test"),
    ("out.test.aqc", ["-q", "-c"], "qrels.test", "results.trunc"),
    ("out.test.aqcM", ["-q", "-c", "-M100"], "qrels.test", "results.trunc"),
    ("out.test.aql", ["-q", "-l2"], "qrels.rel_level", "results.test"),
]


@pytest.mark.parametrize(("output", "options", "qrels", "run"), QUICKTEST)
@pytest.mark.parametrize("lean_limit", [lean.LEAN_BYTES, 0])
def test_ndcg_rel_and_unj_are_trec_evals_byte_for_byte(output, options, qrels, run, lean_limit, monkeypatch):
    """Issue 40: ``ndcg_rel`` was an unknown measure; trec_eval's ``unj`` (unjudged share of the top
    k) too. Both paths (lean and full readers) print trec_eval's lines."""
    monkeypatch.setattr(lean, "LEAN_BYTES", lean_limit)
    status, out, _ = run_main(*options, "-m", "ndcg_rel", "-m", "unj", path(qrels), path(run))
    assert status == 0
    assert out == reference(output, r"ndcg_rel|unj_\d+")


def test_trec_evals_own_command_with_l2_prints_its_ndcg_lines_and_a_note():
    """Issue 40: ``-l2`` (in trec_eval's quicktest) was refused. It changes no NDCG line (they match
    out.test.aql, made with -l2); a note on standard error says it is ignored."""
    status, out, err = run_main(
        "-q", "-l2", "-m", "runid", "-m", "num_q", "-m", "ndcg", "-m", "ndcg_cut", "-m", "ndcg_rel",
        path("qrels.rel_level"), path("results.test"),
    )  # fmt: skip
    assert status == 0
    assert out == reference("out.test.aql", r"runid|num_q|ndcg|ndcg_cut_\d+|ndcg_rel")
    assert err.startswith("ndcg-eval: note: -l 2 (the relevance level of trec_eval's binary measures)")
    status, same, _ = run_main("-q", "-l", "2", "-m", "ndcg", path("qrels.rel_level"), path("results.test"))
    assert status == 0 and same == reference("out.test.aql", "ndcg")


@pytest.mark.parametrize(
    ("flags", "note"),
    [
        (["-D", "1"], "-D 1 (trec_eval's debugging output)"),
        (["-N", "1000"], "-N 1000 (the number of documents in the collection"),
        (["-o"], "-o (trec_eval's old output format"),
        (["--level_for_rel", "3"], "-l 3 ("),
    ],
)
def test_options_that_change_no_ndcg_are_accepted_with_a_note(flags, note):
    status, out, err = run_main(*flags, "-m", "ndcg_cut.10", path("qrels.test"), path("results.test"))
    assert status == 0 and out == reference("out.test.aq", "ndcg_cut_10").splitlines(keepends=True)[-1]
    assert f"ndcg-eval: note: {note}" in err


def test_other_formats_and_zscores_are_refused_by_name():
    status, _, err = run_main("-R", "prefs", path("qrels.test"), path("results.test"))
    assert status == 2 and "-R 'prefs': ndcg-eval reads the 'qrels' format only" in err
    status, _, err = run_main("-T", "trec_results", path("qrels.test"), path("results.test"))
    assert status == 0
    status, _, err = run_main("-Z", "zscores_file", path("qrels.test"), path("results.test"))
    assert status == 2 and "-Z zscores_file: z-scores" in err


def test_n_prints_no_summary():
    """trec_eval -n (--nosummary): the per-query lines only."""
    status, out, _ = run_main("-q", "-n", "-m", "ndcg_cut.10", path("qrels.test"), path("results.test"))
    want = reference("out.test.aq", "ndcg_cut_10")
    assert status == 0 and out == "".join(ln for ln in want.splitlines(keepends=True) if "\tall\t" not in ln)
    status, out, _ = run_main("-n", "-m", "ndcg_cut.10", path("qrels.test"), path("results.test"))
    assert (status, out) == (0, "")


# ------------------------------------------------------------------ -J: judged documents only


def _write(tmp_path, name: str, text: str) -> str:
    target = tmp_path / name
    target.write_text(text)
    return str(target)


def test_J_by_hand(tmp_path, monkeypatch):
    """-J drops unjudged documents (and those graded -1, trec_eval's "in the pool, not judged"), so
    the judged ones move up. Run: u (unjudged), a (2), m (-1), b (1); qrels a 2, b 1, c 3, m -1.
    Without -J: DCG@2 = 0 + 2/log2(3); with -J the list is a, b: DCG@2 = 2 + 1/log2(3).
    IDCG@2 = 3 + 2/log2(3) either way."""
    qrels = _write(tmp_path, "q", "1 0 a 2\n1 0 b 1\n1 0 c 3\n1 0 m -1\n")
    run = _write(tmp_path, "r", "1 Q0 u 1 4 t\n1 Q0 a 2 3 t\n1 Q0 m 3 2 t\n1 Q0 b 4 1 t\n")
    idcg = 3 + 2 / math.log2(3)
    for lean_limit in (lean.LEAN_BYTES, 0):
        monkeypatch.setattr(lean, "LEAN_BYTES", lean_limit)
        _, plain, _ = run_main("--format", "json", "-m", "ndcg_cut.2", qrels, run)
        _, judged, _ = run_main("--format", "json", "-J", "-m", "ndcg_cut.2", qrels, run)
        assert json.loads(plain)["runs"][0]["all"]["ndcg_cut_2"] == pytest.approx((2 / math.log2(3)) / idcg)
        assert json.loads(judged)["runs"][0]["all"]["ndcg_cut_2"] == pytest.approx(
            (2 + 1 / math.log2(3)) / idcg
        )


@pytest.mark.parametrize("files", [("qrels.test", "results.test"), ("qrels.rel_level", "results.test")])
def test_J_is_pytrec_evals_judged_docs_only(files, tmp_path):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels_path, run_path = path(files[0]), path(files[1])
    # drop every other judgement so that -J has unjudged documents to remove
    lines = (TREC_EVAL / files[0]).read_text().splitlines(keepends=True)
    qrels_path = _write(tmp_path, "half", "".join(lines[::2]))
    status, out, _ = run_main(
        "--format", "json", "-q", "-J", "-m", "ndcg_cut.10", "-m", "ndcg", qrels_path, run_path
    )
    assert status == 0
    got = json.loads(out)["runs"][0]["queries"]
    with open(qrels_path) as fq, open(run_path) as fr:
        qrels, run = pytrec_eval.parse_qrel(fq), pytrec_eval.parse_run(fr)
    want = pytrec_eval.RelevanceEvaluator(
        qrels, {"ndcg_cut.10", "ndcg"}, judged_docs_only_flag=True
    ).evaluate(run)
    assert set(got) == set(want)
    for q, values in want.items():
        assert got[q]["ndcg_cut_10"] == pytest.approx(values["ndcg_cut_10"], abs=1e-12), q
        assert got[q]["ndcg"] == pytest.approx(values["ndcg"], abs=1e-12), q


# ------------------------------------------------------------------ ndcg_rel, Judged@k by hand


def test_ndcg_rel_by_hand(tmp_path):
    """trec_eval's m_ndcg_rel.c: relevant = gain > 0 (R = 2: a 2, b 1); ranking x (unjudged), a, y,
    with b never retrieved. At rank 2 (a): DCG@2 = 2/log2(3), IDCG@2 = 2 + 1/log2(3); the missing b
    adds DCG@3 / IDCG@2 (DCG@3 = DCG@2); the mean over R = 2."""
    qrels = _write(tmp_path, "q", "1 0 a 2\n1 0 b 1\n1 0 c 0\n")
    run = _write(tmp_path, "r", "1 Q0 x 1 3 t\n1 Q0 a 2 2 t\n1 Q0 y 3 1 t\n")
    dcg, idcg = 2 / math.log2(3), 2 + 1 / math.log2(3)
    status, out, _ = run_main("--format", "json", "-m", "ndcg_rel", qrels, run)
    assert status == 0
    assert json.loads(out)["runs"][0]["all"]["ndcg_rel"] == pytest.approx((dcg / idcg + dcg / idcg) / 2)


def test_judged_at_k_by_hand_and_as_ir_measures_has_it(tmp_path):
    """Judged@3 of x (unjudged), a, y (unjudged), b: 1 of 3; Judged@10 over the 4 retrieved: 2 of 4
    (ir_measures divides by the documents retrieved when fewer than k)."""
    qrels = _write(tmp_path, "q", "1 0 a 2\n1 0 b 0\n2 0 z 1\n")
    run = _write(tmp_path, "r", "1 Q0 x 1 4 t\n1 Q0 a 2 3 t\n1 Q0 y 3 2 t\n1 Q0 b 4 1 t\n2 Q0 z 1 1 t\n")
    status, out, _ = run_main("--format", "json", "-q", "-m", "Judged@3", "-m", "Judged@10", qrels, run)
    got = json.loads(out)["runs"][0]["queries"]
    assert status == 0 and got["1"] == {"Judged@3": pytest.approx(1 / 3), "Judged@10": 0.5}
    ir_measures = pytest.importorskip("ir_measures")
    theirs = {
        (m.query_id, str(m.measure)): m.value
        for m in ir_measures.iter_calc(
            [ir_measures.Judged @ 3, ir_measures.Judged @ 10],
            ir_measures.read_trec_qrels(qrels),
            ir_measures.read_trec_run(run),
        )
    }
    for (query, measure), value in theirs.items():
        assert got[query][measure] == pytest.approx(value), (query, measure)


def test_judged_at_k_matches_ir_measures_on_trec_evals_files():
    ir_measures = pytest.importorskip("ir_measures")
    status, out, _ = run_main("--format", "json", "-q", "-m", "Judged@10", "-m", "Judged@100",
                              path("qrels.test"), path("results.test"))  # fmt: skip
    got = json.loads(out)["runs"][0]["queries"]
    measures = [ir_measures.Judged @ 10, ir_measures.Judged @ 100]
    theirs = ir_measures.iter_calc(
        measures,
        ir_measures.read_trec_qrels(path("qrels.test")),
        ir_measures.read_trec_run(path("results.test")),
    )
    n = 0
    for m in theirs:
        assert got[m.query_id][str(m.measure)] == pytest.approx(m.value), (m.query_id, str(m.measure))
        n += 1
    assert status == 0 and n == 2 * len(got)

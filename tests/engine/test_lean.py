"""Issue 40 part 1: ``ndcg-eval`` reads small plain files with numpy alone, and says the same numbers.

The lean path (:mod:`ndcg_core.dataset.lean`) must give what the full readers and ``evaluate(...,
preset="trec_eval")`` give, to the bit, on every query (the means too); and a new process that
takes it must not import pandas, pyarrow or the comparison code. Expected values: the full path
(itself checked against pytrec_eval and trec_eval's files elsewhere) and pytrec_eval here.
"""

from __future__ import annotations

import io
import json
import math
import os
import pathlib
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from data_support import TREC_EVAL

from ndcg_core import evaluate, read_qrels, read_run
from ndcg_core.cli import main
from ndcg_core.dataset import lean
from ndcg_core.rules import DISCOUNT_RULES

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _files(tmp_path, seed: int, ties: bool = True, numeric: bool = False) -> tuple[str, str]:
    """A seeded qrels and run as TREC text: ragged queries, tied scores, unjudged documents, a query
    on each side only, grades -1..3, documents of several lengths."""
    rng = np.random.default_rng(seed)
    qrels_lines, run_lines = [], []
    for q in range(12):
        qid = str(100 + q) if numeric else f"q{q}"
        docs = [f"d{rng.integers(0, 40)}{'x' * int(rng.integers(0, 12))}" for _ in range(30)]
        docs = list(dict.fromkeys(docs))
        judged = docs[: len(docs) // 2] + [f"u{i}" for i in range(3)]
        if q != 11:  # query 11: retrieved, never judged
            qrels_lines += [f"{qid} 0 {d} {int(rng.integers(-1, 4))}\n" for d in judged]
        if q != 10:  # query 10: judged, never retrieved
            retrieved = rng.permutation(docs)[: int(rng.integers(1, len(docs) + 1))]
            scores = np.round(rng.random(retrieved.size) * (3 if ties else 1000), 1 if ties else 6)
            run_lines += [
                f"{qid} Q0 {d} {i + 1} {s} run\n"
                for i, (d, s) in enumerate(zip(retrieved, scores, strict=True))
            ]
    qp, rp = tmp_path / f"qrels{seed}", tmp_path / f"run{seed}"
    qp.write_text("".join(qrels_lines))
    rp.write_text("".join(run_lines))
    return str(qp), str(rp)


def test_the_log_divisors_are_the_rules_own():
    n = 5000
    want = 1.0 / DISCOUNT_RULES["log"].divisors(np.arange(1, n + 1, dtype=float), math.log(2.0))
    assert np.array_equal(lean._inverse_divisors(n), want)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("numeric", [False, True])
def test_lean_values_are_evaluates_to_the_bit(tmp_path, seed, numeric):
    qp, rp = _files(tmp_path, seed, ties=seed % 2 == 0, numeric=numeric)
    qrels = lean.parse(pathlib.Path(qp).read_bytes(), "qrels")
    run = lean.parse(pathlib.Path(rp).read_bytes(), "run")
    assert qrels is not None and run is not None
    ranked = lean.rank(qrels, run)
    cutoffs = [None, 1, 3, 5, 10, 1000]
    got = lean.ndcg_at(ranked, cutoffs)
    table = evaluate(read_qrels(qp), read_run(rp), cutoffs, preset="trec_eval")
    keep = ranked.in_run & ranked.in_qrels
    labels = [x.decode() for x in ranked.labels[keep].tolist()]
    assert labels == table["query"].tolist()
    for k in cutoffs:
        column = "ndcg" if k is None else f"ndcg@{k}"
        assert np.array_equal(got[k][keep], table[column].to_numpy()), k


def test_lean_and_full_paths_print_the_same_bytes(tmp_path, monkeypatch):
    """Every format, -q, -c, -M and -J: the lean path (small files) and the full readers (forced by
    a lean limit of 0 bytes) write the same output."""
    qp, rp = _files(tmp_path, 3)
    _, rp2 = _files(tmp_path, 4)
    for args in (
        ["-q"],
        ["-q", "-c"],
        ["-q", "-M", "3"],
        ["-q", "-J"],
        ["-q", "-c", "-J", "-M", "5"],
        ["-q", "--format", "csv"],
        ["--format", "json", "-q"],
        ["-m", "ndcg_rel", "-m", "unj.5,10", "-m", "Judged@3", "-m", "ndcg.1=3,2=9", "-q"],
    ):
        outputs = []
        for limit in (lean.LEAN_BYTES, 0):
            monkeypatch.setattr(lean, "LEAN_BYTES", limit)
            out = io.StringIO()
            assert main([*args, qp, rp, rp2], stdout=out) == 0
            outputs.append(out.getvalue())
        assert outputs[0] == outputs[1], args


def test_the_lean_path_matches_pytrec_eval(tmp_path):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qp, rp = _files(tmp_path, 5)
    out = io.StringIO()
    assert main(["--format", "json", "-q", "-m", "ndcg_cut.5", "-m", "ndcg", qp, rp], stdout=out) == 0
    got = json.loads(out.getvalue())["runs"][0]["queries"]
    with open(qp) as fq, open(rp) as fr:
        qrels, run = pytrec_eval.parse_qrel(fq), pytrec_eval.parse_run(fr)
    want = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.5", "ndcg"}).evaluate(run)
    assert set(got) == set(want)
    for q, values in want.items():
        assert got[q]["ndcg_cut_5"] == pytest.approx(values["ndcg_cut_5"], abs=1e-12)
        assert got[q]["ndcg"] == pytest.approx(values["ndcg"], abs=1e-12)


@pytest.mark.parametrize(
    "text",
    [
        b"q 0 d 1\nq 0 e\n",  # a short line
        b"q 0 d 1\nq 0 e 1 x\n",  # a long one
        b"q 0 d 1\n\nq 0 e 1\n",  # a blank line (the reader keeps line numbers)
        b"# a comment\nq 0 d 1\n",  # trec_eval's comments
        b"q 0 d 1.5\n",  # a fractional grade: trec_eval's preset refuses it
        b"q 0 d nan\n",
        b"q 0 d 1_0\n",  # numpy reads 1_0 as 10; the readers do not
        b"q 0 d 1\r\n",
        b"q 0  d 1\n",  # two spaces: an empty field between them
        b"q\t0 d 1\n",  # a tab and spaces
        b"q 0 d\x00 1\n",
        "q 0 dé 1\n".encode(),  # not ASCII: decoded and checked by the readers
    ],
)
def test_what_is_not_plain_goes_to_the_full_readers(text):
    assert lean.parse(text, "qrels") is None


def test_a_pair_listed_twice_goes_to_the_full_readers():
    qrels = lean.parse(b"q 0 d 1\n", "qrels")
    run = lean.parse(b"q Q0 d 1 1 r\nq Q0 d 2 0.5 r\n", "run")
    assert lean.rank(qrels, run) is None
    assert lean.rank(lean.parse(b"q 0 d 1\nq 0 d 2\n", "qrels"), lean.parse(b"q Q0 d 1 1 r\n", "run")) is None


def test_a_small_run_is_scored_without_pandas_in_a_new_process(tmp_path):
    """The import cost was the whole-process gap with pytrec_eval (issue 40): on a small file the
    command imports neither pandas, pyarrow, scipy nor the comparison code."""
    qp, rp = _files(tmp_path, 1)
    script = (
        "import sys\nfrom ndcg_core.cli import main\n"
        f"main(['-q', {qp!r}, {rp!r}], stdout=open('/dev/null', 'w'))\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'pandas', 'pyarrow', 'scipy', 'numba'}))\n"
        "print(sorted(m for m in sys.modules if m.startswith('ndcg_core.') and 'compare' in m))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.split("\n")[:2] == ["[]", "[]"], done.stdout


def test_import_ndcg_core_loads_no_comparison_and_no_pandas():
    script = (
        "import sys, ndcg_core\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pandas', 'scipy', 'pyarrow') "
        "or m in ('ndcg_core.compare_runs', 'ndcg_core.dataset.scoring')))\n"
        "ndcg_core.ndcg([3, 2, 1])\nprint(round(ndcg_core.ndcg([3, 2, 3, 0, 1, 2], discount='jarvelin'), 3))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.split("\n")[:2] == ["[]", "0.932"], done.stdout


def test_every_public_name_still_resolves():
    import ndcg_core
    import ndcg_core.dataset as dataset

    for module in (ndcg_core, dataset):
        for name in module.__all__:
            assert getattr(module, name) is not None, name
        with pytest.raises(AttributeError):
            module.no_such_name  # noqa: B018
    assert isinstance(ndcg_core.evaluate(pd.DataFrame({"query": ["q"], "doc": ["d"], "relevance": [1]}),
                                         pd.DataFrame({"query": ["q"], "doc": ["d"], "score": [1.0]})),
                      pd.DataFrame)  # fmt: skip


def test_which_of_trec_eval_files_take_the_lean_path():
    """trec_eval's qrels are plain; its results.test pads scores with spaces after a tab (two
    delimiters), so the full readers read it (tests/engine/test_cli.py checks both paths' lines)."""
    for name in ("qrels.test", "qrels.rel_level"):
        assert lean.parse((TREC_EVAL / name).read_bytes(), "qrels") is not None, name
    assert lean.parse((TREC_EVAL / "results.test").read_bytes(), "run") is None

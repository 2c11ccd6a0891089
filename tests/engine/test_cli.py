"""Issue 29 part 5: ``ndcg-eval``, the command line, against trec_eval's own output files.

Each ``out.test.*`` file in ``tests/data/trec_eval/`` (``data_support.TREC_EVAL``) is what trec_eval
printed for one pair of its test files; the command, run in a subprocess as ``python -m ndcg_core.cli``, must
print the same lines for the measures it knows, byte for byte (trec_eval's measure padding, tabs,
4 decimals, its query and measure order). The installed ``ndcg-eval`` script is run by
tests/engine/test_install.py.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest
from data_support import TREC_EVAL

from ndcg_core.cli import main, parse_measures

ROOT = pathlib.Path(__file__).resolve().parents[2]
OURS = re.compile(r"^(runid|num_q|ndcg|ndcg_cut_\d+|ndcg_\d=[^ ]*) +\t")
ALL_NDCG = ["-m", "runid", "-m", "num_q", "-m", "ndcg", "-m", "ndcg_cut"]


def cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "ndcg_core.cli", *args], input=stdin, capture_output=True, env=env, timeout=300
    )


def trec_eval_lines(name: str, summary_only: bool = False) -> bytes:
    """The lines of trec_eval's output file for the measures ndcg-eval prints, as bytes."""
    lines = (TREC_EVAL / name).read_bytes().decode().splitlines(keepends=True)
    kept = [ln for ln in lines if OURS.match(ln) and (not summary_only or "\tall\t" in ln)]
    assert kept
    return "".join(kept).encode()


def path(name: str) -> str:
    return str(TREC_EVAL / name)


# ------------------------------------------------------------------ one test per trec_eval output file


def test_out_test_aq():
    # trec_eval -m all_trec -q qrels.test results.test
    done = cli("-q", *ALL_NDCG, path("qrels.test"), path("results.test"))
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == trec_eval_lines("out.test.aq")


def test_out_test_aqc():
    # trec_eval -m all_trec -q -c qrels.test results.trunc (query 302 missing: scored 0)
    done = cli("-q", "-c", *ALL_NDCG, path("qrels.test"), path("results.trunc"))
    assert done.stdout == trec_eval_lines("out.test.aqc") and done.returncode == 0


def test_out_test_aqcm():
    # trec_eval -m all_trec -q -c -M100 qrels.test results.trunc
    done = cli("-q", "-c", "-M100", *ALL_NDCG, path("qrels.test"), path("results.trunc"))
    assert done.stdout == trec_eval_lines("out.test.aqcM") and done.returncode == 0
    without = cli("-q", "-c", *ALL_NDCG, path("qrels.test"), path("results.trunc"))
    assert without.stdout != done.stdout  # -M changes the numbers: it is applied


def test_out_test_aql():
    # trec_eval -m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test: grades -1..4
    # (-l sets the level binary measures call relevant; NDCG uses the grades, so it is not needed)
    done = cli("-q", *ALL_NDCG, path("qrels.rel_level"), path("results.test"))
    assert done.stdout == trec_eval_lines("out.test.aql") and done.returncode == 0


def test_out_test_meas_params():
    # trec_eval -mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 ... -q qrels.test results.test
    done = cli(
        "-q",
        "-m",
        "ndcg.1=3,2=9,4=4.5",
        "-m",
        "ndcg_cut.10,20,23.4",
        path("qrels.test"),
        path("results.test"),
    )
    assert done.stdout == trec_eval_lines("out.test.meas_params") and done.returncode == 0


# ------------------------------------------------------------------ the rest of the command


def test_defaults_are_trec_evals_ndcg_lines_without_q():
    done = cli(path("qrels.test"), path("results.test"))  # ndcg and ndcg_cut, the means only
    want = b"".join(
        ln
        for ln in trec_eval_lines("out.test.aq", summary_only=True).splitlines(keepends=True)
        if not ln.startswith((b"runid", b"num_q"))
    )
    assert done.stdout == want


def test_qrels_with_comments_and_compressed_files_print_the_same():
    packed = gzip.compress((TREC_EVAL / "results.test").read_bytes())
    done = cli("-q", *ALL_NDCG, path("qrels.test.with-comments"), "-", stdin=packed)
    assert done.stdout == trec_eval_lines("out.test.aq") and done.returncode == 0


def test_ir_measures_spelling_prints_under_its_own_name():
    done = cli("-q", "-m", "nDCG@10 nDCG", path("qrels.test"), path("results.test"))
    want = trec_eval_lines("out.test.aq").decode().splitlines()
    by = {(m, q): v for m, q, v in (ln.split() for ln in want)}
    lines = done.stdout.decode().splitlines()
    assert lines[:2] == [
        f"{'nDCG@10':<22}\t301\t{by['ndcg_cut_10', '301']}",
        f"{'nDCG':<22}\t301\t{by['ndcg', '301']}",
    ]
    assert lines[-2:] == [
        f"{'nDCG@10':<22}\tall\t{by['ndcg_cut_10', 'all']}",
        f"{'nDCG':<22}\tall\t{by['ndcg', 'all']}",
    ]
    assert len(lines) == 8


def test_several_runs_print_one_block_each_with_trec_evals_runid_line(tmp_path):
    other = tmp_path / "other.run"
    other.write_text((TREC_EVAL / "results.trunc").read_text().replace("STANDARD", "TRUNC"))
    done = cli("-q", "-m", "ndcg", "-m", "ndcg_cut", path("qrels.test"), path("results.test"), str(other))
    assert done.returncode == 0
    first = trec_eval_lines("out.test.aq").decode().splitlines(keepends=True)
    block = [ln for ln in first if not ln.startswith("num_q")]  # runid stays: several runs print it
    text = done.stdout.decode()
    assert text.startswith("".join(block))
    second = text[len("".join(block)) :].splitlines()
    assert "runid                 \tall\tTRUNC" in second
    # results.trunc without -c: trec_eval scores 301 and 303 only (out.test.aqc's 301 and 303 lines)
    aqc = {
        (m, q): v for m, q, v in (ln.split() for ln in trec_eval_lines("out.test.aqc").decode().splitlines())
    }
    got = {(m, q): v for m, q, v in (ln.split() for ln in second)}
    assert {q for _m, q in got} == {"301", "303", "all"}
    assert all(got[key] == aqc[key] for key in got if key[1] != "all")


@pytest.mark.parametrize("ext", ["", ".gz", ".bz2", ".xz", ".zst"])
def test_the_runid_is_each_runs_tag_read_from_its_first_line_compressed_or_not(ext, tmp_path):
    import bz2
    import lzma

    import zstandard

    pack = {"": bytes, ".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}
    pack[".zst"] = zstandard.ZstdCompressor().compress
    text = (TREC_EVAL / "results.test").read_text()
    runs = []
    for tag in ("FIRST", "SECOND"):
        run = tmp_path / f"{tag}.run{ext}"
        run.write_bytes(pack[ext](("\n\n" + text.replace("STANDARD", tag)).encode()))
        runs.append(str(run))
    done = cli("-m", "runid", "-m", "ndcg_cut.10", path("qrels.test"), *runs)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    runids = [f"{'runid':<22}\tall\t{t}" for t in ("FIRST", "SECOND")]
    assert [ln for ln in lines if ln.startswith("runid")] == runids
    aq = {tuple(ln.split()[:2]): ln.split()[2] for ln in trec_eval_lines("out.test.aq").decode().splitlines()}
    assert [ln.split()[2] for ln in lines if ln.startswith("ndcg_cut_10")] == [aq["ndcg_cut_10", "all"]] * 2


def test_standard_input_and_a_bad_line_name_the_file_and_line(tmp_path):
    bad = tmp_path / "qrels.txt"
    bad.write_text("301 0 FBIS3-10082 1\n301 0 FBIS3-10169 high\n")
    done = cli(str(bad), path("results.test"))
    assert done.returncode == 2 and done.stdout == b""
    assert f"{bad}: relevance on line 2 is 'high'".encode() in done.stderr
    run = (TREC_EVAL / "results.test").read_bytes().splitlines(keepends=True)
    run[2] = b"301 Q0 FR940202-2-00154 124\n"
    done = cli(path("qrels.test"), "-", stdin=b"".join(run))
    assert done.returncode == 2 and b"<stdin>: line 3 has fewer than 6 fields" in done.stderr
    done = cli(path("qrels.test"), str(tmp_path / "missing.run"))
    assert done.returncode == 2 and b"cannot read" in done.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["-m", "P@10"], b"unknown measure 'P@10'"),
        (["-m", "ndcg_cut.0"], b"the cutoff '0'"),
        (["-m", "ndcg.1=x"], b"'1=x' is not a relevance level"),
        (["--threads", "0"], b"threads must be"),
        (["--preset", "nope"], b"invalid choice"),
        (["-M", "0"], b"-M must be at least 1"),
    ],
)
def test_bad_usage_exits_with_status_2(args, said):
    done = cli(*args, path("qrels.test"), path("results.test"))
    assert done.returncode == 2 and said in done.stderr, done.stderr


def test_compare_two_runs_with_trec_evals_numbers_and_scipys_test():
    """--compare at NDCG@10 with -c: the means and per-query deltas are trec_eval's (out.test.aq for
    results.test, out.test.aqc for results.trunc with -c); the paired t-test's p-value is scipy's on
    those printed values (4 decimals, hence the tolerance)."""
    stats = pytest.importorskip("scipy.stats")
    a = {q: v for (m, q), v in reference("out.test.aq").items() if m == "ndcg_cut_10"}
    b = {q: v for (m, q), v in reference("out.test.aqc").items() if m == "ndcg_cut_10"}
    args = [
        "--compare",
        "-c",
        "-m",
        "ndcg_cut.10",
        path("qrels.test"),
        path("results.test"),
        path("results.trunc"),
    ]
    document = json.loads(run_main(*args, "-q", "--format", "json"))["compare"]["ndcg_cut_10"]
    first, second = document["runs"]
    assert first["mean"] == pytest.approx(a["all"], abs=5e-5)
    assert second["mean"] == pytest.approx(b["all"], abs=5e-5)
    queries = ["301", "302", "303"]
    deltas = {row["query"]: row[path("results.trunc")] for row in document["deltas"]}
    assert deltas == pytest.approx({q: b[q] - a[q] for q in queries}, abs=1e-4)
    (pair,) = document["pairs"]
    want = stats.ttest_rel([a[q] for q in queries], [b[q] for q in queries]).pvalue
    assert pair["p_t"] == pytest.approx(want, abs=1e-3)
    assert (pair["wins"], pair["ties"], pair["losses"]) == (1, 1, 1)  # 303 better, 301 equal, 302 worse
    text = run_main(*args)
    assert text.splitlines()[0] == "ndcg_cut_10: 3 queries, t test, holm correction"
    assert f"{a['all']:.4f}" in text and f"{b['all']:.4f}" in text
    rows = list(csv.DictReader(io.StringIO(run_main(*args, "--format", "csv"))))
    assert [r["run"] for r in rows] == [path("results.test"), path("results.trunc")]
    assert float(rows[1]["mean"]) == pytest.approx(b["all"], abs=5e-5)


def test_compare_without_scipy_says_what_to_install_and_exits_with_status_2(monkeypatch):
    """The engine alone has no scipy: --compare says what to install, prints nothing, exits 2."""
    for name in [n for n in sys.modules if n == "scipy" or n.startswith("scipy.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "scipy", None)  # as where it is not installed
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert (
        main(["--compare", path("qrels.test"), path("results.test"), path("results.trunc")], stdout=out) == 2
    )
    assert out.getvalue() == "" and "pip install scipy" in err.getvalue()


def test_compare_needs_two_runs():
    done = cli("--compare", path("qrels.test"), path("results.test"))
    assert done.returncode == 2 and b"--compare needs two runs or more" in done.stderr


# ------------------------------------------------------------------ formats, in process


def run_main(*args: str) -> str:
    out = io.StringIO()
    assert main(list(args), stdout=out) == 0
    return out.getvalue()


def reference(name: str) -> dict[tuple[str, str], float]:
    lines = trec_eval_lines(name).decode().splitlines()
    return {(m, q): float(v) for m, q, v in (ln.split() for ln in lines) if m not in ("runid",)}


def test_csv_has_every_value_at_full_precision():
    text = run_main(
        "-q", "--format", "csv", "-m", "ndcg_cut.10", "-m", "num_q", path("qrels.test"), path("results.test")
    )
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == ["run", "query", "measure", "value"]
    want = reference("out.test.aq")
    assert [(r["query"], r["measure"]) for r in rows] == [
        ("301", "ndcg_cut_10"),
        ("302", "ndcg_cut_10"),
        ("303", "ndcg_cut_10"),
        ("all", "num_q"),
        ("all", "ndcg_cut_10"),
    ]
    for r in rows:
        assert r["run"] == "STANDARD"
        assert float(r["value"]) == pytest.approx(want[r["measure"], r["query"]], abs=5e-5)
    assert len(rows[0]["value"]) > 8  # not rounded to 4 decimals


def test_json_nests_runs_means_and_queries():
    document = json.loads(
        run_main("-q", "--format", "json", "-m", "ndcg", path("qrels.rel_level"), path("results.test"))
    )
    want = reference("out.test.aql")
    (run,) = document["runs"]
    assert run["run"] == "STANDARD" and run["file"] == path("results.test")
    assert run["all"]["ndcg"] == pytest.approx(want["ndcg", "all"], abs=5e-5)
    assert set(run["queries"]) == {"301", "302", "303"}
    for query, values in run["queries"].items():
        assert values["ndcg"] == pytest.approx(want["ndcg", query], abs=5e-5)


def test_markdown_and_latex_tables_show_four_decimals():
    want = reference("out.test.aq")
    md = run_main(
        "-q", "--format", "markdown", "-m", "ndcg_cut.5,10", path("qrels.test"), path("results.test")
    )
    lines = md.splitlines()
    assert lines[0] == "| query | ndcg_cut_5 | ndcg_cut_10 |" and lines[1] == "|---|---:|---:|"
    assert lines[2] == f"| 301 | {want['ndcg_cut_5', '301']:.4f} | {want['ndcg_cut_10', '301']:.4f} |"
    assert lines[-1] == f"| all | {want['ndcg_cut_5', 'all']:.4f} | {want['ndcg_cut_10', 'all']:.4f} |"
    tex = run_main("--format", "latex", "-m", "ndcg_cut.10", path("qrels.test"), path("results.test"))
    assert tex == (
        "\\begin{tabular}{lr}\n\\hline\nquery & ndcg\\_cut\\_10 \\\\\n\\hline\n"
        f"all & {want['ndcg_cut_10', 'all']:.4f} \\\\\n\\hline\n\\end{{tabular}}\n"
    )


def test_preset_none_is_the_plain_default_and_differs_on_negative_grades():
    want = reference("out.test.aql")
    plain = run_main(
        "-q", "--preset", "none", "-m", "ndcg_cut.10", path("qrels.rel_level"), path("results.test")
    )
    values = {q: float(v) for _m, q, v in (ln.split() for ln in plain.splitlines())}
    assert values["301"] == pytest.approx(want["ndcg_cut_10", "301"], abs=5e-5)
    assert values["303"] < 0 < want["ndcg_cut_10", "all"]  # the -1 grades subtract; trec_eval's 303 is 0


def test_measures_are_ordered_as_trec_eval_prints_them():
    names = [
        m.name for m in parse_measures(["ndcg_cut.20,5", "nDCG@3", "num_q", "ndcg", "ndcg_cut.10", "runid"])
    ]
    assert names == ["runid", "num_q", "ndcg", "ndcg_cut_5", "ndcg_cut_10", "ndcg_cut_20", "nDCG@3"]
    assert [m.k for m in parse_measures(["ndcg_cut"])] == [5, 10, 15, 20, 30, 100, 200, 500, 1000]

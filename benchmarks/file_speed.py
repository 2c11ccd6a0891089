"""File to per-query NDCG@k: each tool reads TREC qrels and run files (plain and .gz) and scores them.

:func:`bench_files` writes one data shape of ``dataset_speed.py`` as TREC text files, then times,
each tool in a fresh process of its own on one thread (``NDCG_THREADS=1``, Arrow's pools, BLAS
and numba limited to one), after its imports and a warm-up on a small file (ranx's numba code is
compiled by then):

- ndcg_core: ``read_qrels`` and ``read_run`` (``threads=1``), then ``evaluate(..., preset="trec_eval")``
- pytrec_eval: ``parse_qrel`` and ``parse_run`` on open files (``gzip.open`` for .gz), then
  ``RelevanceEvaluator(...).evaluate``
- ranx: ``Qrels.from_file`` and ``Run.from_file``, then ``evaluate(..., return_mean=False,
  make_comparable=True)`` (the warm-up files' queries differ)
- ir_measures: ``read_trec_qrels`` and ``read_trec_run``, then ``iter_calc``

Peak memory is the child's peak resident set (``VmHWM``, reset after the warm-up) less its
resident set before the first timed call (imports and warm-up excluded). The per-query values
are checked before any time is printed: pytrec_eval's and ir_measures' against ndcg_core's
(trec_eval's definition), ranx's against ``evaluate(..., preset="ranx")``, to 1e-9 on every
query (ranx: on every query whose NDCG@k does not depend on the order of tied scores, which
ranx's unstable sort leaves arbitrary), and every tool must score the same queries.

    python benchmarks/file_speed.py --child TOOL QRELS RUN K REPEATS   # one measurement, JSON out
"""

from __future__ import annotations

import gzip
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ("ndcg_core", "pytrec_eval", "ranx", "ir_measures")
#: The file path must beat these peers by this factor (plain text) and GZ_TARGET (gzip input).
TARGET, GZ_TARGET, TARGET_PEERS = 5.0, 3.0, ("pytrec_eval", "ranx")
ONE_THREAD = {
    "NDCG_THREADS": "1", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
    "NUMBA_NUM_THREADS": "1", "ARROW_NUM_THREADS": "1",
}  # fmt: skip


def write_trec(qrels: pd.DataFrame, run: pd.DataFrame, folder: Path, stem: str) -> dict[str, Path]:
    """The two tables as TREC files (ranks by score within each query), and the same gzipped (level 6)."""
    rank = run.groupby("query", sort=False)["score"].rank(method="first", ascending=False).astype(int)
    qrels_rows = zip(qrels["query"], qrels["doc"], qrels["relevance"], strict=True)
    run_rows = zip(run["query"], run["doc"], rank, run["score"], strict=True)
    lines = {
        "qrels": [f"{q} 0 {d} {r}\n" for q, d, r in qrels_rows],
        "run": [f"{q} Q0 {d} {k} {s} bench\n" for q, d, k, s in run_rows],
    }
    paths = {}
    for kind, text in lines.items():
        data = "".join(text).encode()
        paths[kind] = folder / f"{stem}.{kind}"
        paths[kind].write_bytes(data)
        paths[kind + ".gz"] = folder / f"{stem}.{kind}.gz"
        paths[kind + ".gz"].write_bytes(gzip.compress(data, compresslevel=6, mtime=0))
    return paths


# --------------------------------------------------------------------------- in the child process


def _tool(name: str):
    """(read, score) for one tool: read(qrels_path, run_path) -> data; score(data, k) -> {query: value}."""
    if name == "ndcg_core":
        sys.path.insert(0, str(ROOT))
        import ndcg_core

        def read(qp, rp):
            return ndcg_core.read_qrels(qp, threads=1), ndcg_core.read_run(rp, threads=1)

        def score(data, k):
            out = ndcg_core.evaluate(*data, k, preset="trec_eval", threads=1)
            return dict(zip(out["query"].tolist(), out["ndcg"].tolist(), strict=True))

    elif name == "pytrec_eval":
        import pytrec_eval

        def read(qp, rp):
            opener = gzip.open if qp.endswith(".gz") else open
            with opener(qp, "rt") as fq, opener(rp, "rt") as fr:
                return pytrec_eval.parse_qrel(fq), pytrec_eval.parse_run(fr)

        def score(data, k):
            got = pytrec_eval.RelevanceEvaluator(data[0], {f"ndcg_cut.{k}"}).evaluate(data[1])
            return {q: v[f"ndcg_cut_{k}"] for q, v in got.items()}

    elif name == "ranx":
        from ranx import Qrels, Run, evaluate

        def read(qp, rp):
            kind = "gz" if qp.endswith(".gz") else "trec"
            return Qrels.from_file(qp, kind=kind), Run.from_file(rp, kind=kind)

        def score(data, k):
            values = evaluate(data[0], data[1], f"ndcg@{k}", return_mean=False, make_comparable=True)
            return dict(
                zip(data[1].get_query_ids(), np.asarray(values).tolist(), strict=True)
            )  # the run, made comparable

    else:
        import ir_measures

        def read(qp, rp):
            return list(ir_measures.read_trec_qrels(qp)), list(ir_measures.read_trec_run(rp))

        def score(data, k):
            return {m.query_id: m.value for m in ir_measures.iter_calc([ir_measures.nDCG @ k], *data)}

    return read, score


def _status(field: str) -> int:
    """A size from /proc/self/status in bytes: VmRSS (resident now) or VmHWM (the peak)."""
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) * 1024 for line in fh if line.startswith(field + ":"))


def _reset_peak() -> None:
    """Start VmHWM again from the resident set now (Linux 4.0+). ru_maxrss cannot be used: it
    keeps the parent's peak across fork and exec, which here is the parent's whole data set."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
    except OSError:  # then the peak includes imports and the warm-up (VmHWM restarts at exec)
        pass


def child(tool: str, qrels_path: str, run_path: str, k: int, repeats: int) -> dict:
    """Warm up on the first 2,000 lines of each file, then time ``repeats`` reads and scorings."""
    try:
        import pyarrow as pa

        pa.set_cpu_count(1)
        pa.set_io_thread_count(1)
    except ImportError:
        pass
    read, score = _tool(tool)
    with tempfile.TemporaryDirectory() as tmp:  # warm-up files, compressed as the real ones
        small = []
        for p in (qrels_path, run_path):
            opener = gzip.open if p.endswith(".gz") else open
            with opener(p, "rt") as fh:
                head = "".join(fh.readline() for _ in range(2000))
            target = Path(tmp) / Path(p).name
            target.write_bytes(gzip.compress(head.encode()) if p.endswith(".gz") else head.encode())
            small.append(str(target))
        score(read(*small), k)
    _reset_peak()
    before = _status("VmRSS")
    reads, scores, cpus = [], [], []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        data = read(qrels_path, run_path)
        t1 = time.perf_counter()
        values = score(data, k)
        reads.append(t1 - t0)
        scores.append(time.perf_counter() - t1)
        cpus.append(time.process_time() - c0)
        del data
    peak = _status("VmHWM")
    totals = [a + b for a, b in zip(reads, scores, strict=True)]
    at = totals.index(statistics.median_low(totals))
    return {
        "read": reads[at], "score": scores[at], "total": totals[at], "cpu": cpus[at],
        "first": totals[0], "peak": max(peak - before, 0), "values": values,
    }  # fmt: skip


# --------------------------------------------------------------------------- in the parent


def measure(tool: str, qrels_path: Path, run_path: Path, k: int, repeats: int) -> dict:
    """One tool's measurement, in a fresh process on one thread."""
    env = {**os.environ, **ONE_THREAD}
    out = subprocess.run(
        [sys.executable, __file__, "--child", tool, str(qrels_path), str(run_path), str(k), str(repeats)],
        capture_output=True,
        text=True,
        env=env,
    )
    if out.returncode:
        raise RuntimeError(f"{tool} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout)


#: Whole processes timed (``--whole``): the command a user types, from a cold process to the last line.
#: ndcg-eval prints every query's NDCG@k (-q); pytrec_eval's script prints the same lines.
PYTREC_SCRIPT = r"""
import sys
import pytrec_eval
qp, rp, k = sys.argv[1], sys.argv[2], sys.argv[3]
opener = open
if qp.endswith(".gz"):
    import gzip
    opener = gzip.open
with opener(qp, "rt") as fq, opener(rp, "rt") as fr:
    qrels, run = pytrec_eval.parse_qrel(fq), pytrec_eval.parse_run(fr)
res = pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut.{k}"}).evaluate(run)
name = f"ndcg_cut_{k}"
lines = [f"{name:<22}\t{q}\t{v[name]:.4f}" for q, v in sorted(res.items())]
lines.append(f"{name:<22}\tall\t{sum(v[name] for v in res.values()) / len(res):.4f}")
print("\n".join(lines))
"""


def whole_process(tool: str, qrels_path: Path, run_path: Path, k: int, repeats: int) -> dict:
    """A tool as a new process on one thread, imports included: median wall and CPU seconds, the
    largest peak resident set, and its output. Measured by ``/usr/bin/time`` (GNU time), a small
    process of its own: a child of this benchmark would inherit its large peak (``ru_maxrss`` keeps
    the parent's across fork and exec)."""
    if tool == "ndcg_core":
        cmd = [
            sys.executable,
            "-m",
            "ndcg_core.cli",
            "-q",
            "-m",
            f"ndcg_cut.{k}",
            str(qrels_path),
            str(run_path),
        ]
    else:
        cmd = [sys.executable, "-c", PYTREC_SCRIPT, str(qrels_path), str(run_path), str(k)]
    env = {**os.environ, **ONE_THREAD, "PYTHONPATH": str(ROOT)}
    walls, cpus, peaks, out = [], [], [], b""
    for _ in range(repeats):
        done = subprocess.run(["/usr/bin/time", "-f", "%M %e %U %S", *cmd], capture_output=True, env=env)
        if done.returncode:
            raise RuntimeError(f"{tool} failed:\n{done.stderr.decode()[-2000:]}")
        peak_kb, wall, user, system = done.stderr.decode().strip().splitlines()[-1].split()
        walls.append(float(wall))
        cpus.append(float(user) + float(system))
        peaks.append(int(peak_kb) * 1024)
        out = done.stdout
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus), "peak": max(peaks), "out": out}


def tie_dependent(qrels: pd.DataFrame, run: pd.DataFrame, k: int) -> set:
    """Queries whose NDCG@k depends on how tied scores are ordered: a group of equal scores that
    reaches the top k holds documents of different grades. ranx orders ties arbitrarily there."""
    m = run.merge(qrels, on=["query", "doc"], how="left")
    m["grade"] = m["relevance"].fillna(0)
    m["first"] = m.groupby("query")["score"].rank(method="min", ascending=False)
    grades = m[m["first"] <= k].groupby(["query", "score"])["grade"].nunique()
    return set(grades[grades > 1].index.get_level_values(0))


def check(tool: str, got: dict, reference: dict) -> str:
    """Per-query agreement with ndcg_core (ranx: with preset="ranx"); raises on any difference."""
    want = reference["ranx" if tool == "ranx" else "trec_eval"]
    if set(got) != set(want):
        raise AssertionError(f"{tool} scored {len(got)} queries, ndcg_core {len(want)}")
    compared = [q for q in want if tool != "ranx" or q not in reference["tie_dependent"]]
    diff = max(abs(got[q] - want[q]) for q in compared)
    if diff > 1e-9:
        raise AssertionError(f"{tool} differs from ndcg_core by {diff:.1e}")
    if len(compared) < len(want):
        return f"max |diff| {diff:.1e} on {len(compared):,} of {len(want):,} queries (the rest: tie order)"
    return f"max |diff| {diff:.1e}, {len(want):,} queries"


def bench_files(
    qrels, run, shape: str, n: int, k: int, tools, repeats: int, whole: bool = False
) -> list[dict]:
    """Write one shape's files, time every tool on the plain and the gzipped files; print a table.

    With ``whole``, ndcg-eval and a pytrec_eval script also run as whole new processes (imports
    and printing every query included), each compared on its output lines."""
    import ndcg_core

    rows = []
    with tempfile.TemporaryDirectory(prefix="ndcg-files-") as tmp:
        paths = write_trec(qrels, run, Path(tmp), f"shape-{shape}")
        sizes = {kind: p.stat().st_size for kind, p in paths.items()}
        print(
            f"files: qrels {sizes['qrels'] / 1e6:.0f} MB ({sizes['qrels.gz'] / 1e6:.0f} MB gz), "
            f"run {sizes['run'] / 1e6:.0f} MB ({sizes['run.gz'] / 1e6:.0f} MB gz)",
            flush=True,
        )
        q, r = ndcg_core.read_qrels(paths["qrels"]), ndcg_core.read_run(paths["run"])
        reference = {}
        for preset in ("trec_eval", "ranx"):
            out = ndcg_core.evaluate(q, r, k, preset=preset)
            reference[preset] = dict(zip(out["query"].tolist(), out["ndcg"].tolist(), strict=True))
        reference["tie_dependent"] = tie_dependent(qrels, run, k)
        del q, r
        for gz in ("", ".gz"):
            for tool in tools:
                # every tool timed alike: the same runs, the same statistic (the median), and its
                # first run, which pays for fresh memory as a one-off command does
                got = measure(tool, paths["qrels" + gz], paths["run" + gz], k, repeats)
                agree = check(tool, got.pop("values"), reference)
                rows.append(
                    {
                        "key": f"({shape}) {n:,}",
                        "input": "gz" if gz else "text",
                        "tool": tool,
                        "agree": agree,
                        **got,
                    }
                )
                print(f"  {tool}{gz and ' (gz)'}: {got['total']:.2f} s", flush=True)
        if whole:
            for gz in ("", ".gz"):
                got = {
                    tool: whole_process(tool, paths["qrels" + gz], paths["run" + gz], k, repeats)
                    for tool in ("ndcg_core", "pytrec_eval")
                }
                if got["ndcg_core"]["out"] != got["pytrec_eval"]["out"]:
                    raise AssertionError("ndcg-eval and pytrec_eval print different lines")
                for tool, m in got.items():
                    rows.append(
                        {"key": f"({shape}) {n:,}", "input": ("gz" if gz else "text") + ", whole process",
                         "tool": tool, "agree": "same output lines", "total": m["wall"], "read": math.nan,
                         "score": math.nan, "cpu": m["cpu"], "first": m["wall"], "peak": m["peak"]}
                    )  # fmt: skip
                    print(f"  {tool}{gz and ' (gz)'}, whole process: {m['wall']:.2f} s", flush=True)
    print(
        "| input | tool | file -> values s | reading s | scoring (in memory) s | CPU s | peak MB | "
        "vs ndcg_core | values |"
    )
    print("|---" * 9 + "|")
    for row in rows:
        ours = next(x for x in rows if x["tool"] == "ndcg_core" and x["input"] == row["input"])
        print(
            f"| {row['input']} | {row['tool']} | {row['total']:.3f} | {row['read']:.3f} | "
            f"{row['score']:.3f} | {row['cpu']:.3f} | {row['peak'] / 1e6:.0f} | "
            f"{row['total'] / ours['total']:.1f}x | {row['agree']} |"
        )
    for gz, target in (("text", TARGET), ("gz", GZ_TARGET), ("text, whole process", TARGET)):
        ours = next(x for x in rows if x["tool"] == "ndcg_core" and x["input"] == gz)
        for peer in TARGET_PEERS:
            them = next((x for x in rows if x["tool"] == peer and x["input"] == gz), None)
            if them:
                ratio, cpu = them["total"] / ours["total"], them["cpu"] / ours["cpu"]
                first = them["first"] / ours["first"]
                verdict = "met" if ratio >= target else "MISSED"
                print(
                    f"{gz}: {ratio:.1f}x {peer} ({cpu:.1f}x in CPU seconds; first runs {first:.1f}x; "
                    f"target {target:g}x: {verdict})"
                )
    return rows


def summary(rows: list[dict]) -> None:
    """One markdown table of every shape and size, file path: ours and each peer, with peak memory."""
    print(
        "\n| shape, run rows | input | ndcg_core s (read + score in memory) | peak MB | "
        "peers: s, ratio, peak MB |\n|---|---|---|---|---|"
    )
    for row in rows:
        if row["tool"] != "ndcg_core":
            continue
        peers = [
            f"{x['tool']} {x['total']:.2f} s, {x['total'] / row['total']:.1f}x, {x['peak'] / 1e6:.0f} MB"
            for x in rows
            if x["tool"] != "ndcg_core" and x["input"] == row["input"] and x["key"] == row["key"]
        ]
        print(
            f"| {row['key']} | {row['input']} | "
            f"{row['total']:.3f} ({row['read']:.3f} + {row['score']:.3f}) | "
            f"{row['peak'] / 1e6:.0f} | {'; '.join(peers)} |"
        )


if __name__ == "__main__":
    if len(sys.argv) == 7 and sys.argv[1] == "--child":
        _, _, tool, qp, rp, k, repeats = sys.argv
        print(json.dumps(child(tool, qp, rp, int(k), int(repeats))))
    else:
        sys.exit(__doc__)

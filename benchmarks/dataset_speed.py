"""How fast is ndcg_core.evaluate on a data set, next to the libraries people use?

Builds seeded synthetic data (ragged queries of 20-200 retrieved documents,
scores with ties, a judged pool that includes unretrieved documents and some
queries with nothing relevant), then times NDCG@k for every query, end to end
from the two DataFrames (qrels: query, doc, relevance; run: query, doc, score):

- ndcg_core.evaluate (this project), on its default threads (blocks of queries on up
  to 2 threads) and again on one thread, as every peer runs (pyarrow and BLAS limited to one
  thread for them too)
- scikit-learn ndcg_score(ignore_ties=True) on padded matrices (after the merge
  with the qrels and the padding, which it needs)
- pytrec_eval-terrier, from dicts built from the DataFrames
- ir_measures, from the same kind of dicts
- ranx, warm (numba compiled before timing; ids cast to object for pandas 3)

It checks that the values agree where the definitions match and measures our
peak memory against the size of the input columns, in a fresh process.

    python benchmarks/dataset_speed.py                   # 1M and 10M rows
    python benchmarks/dataset_speed.py --sizes 1e6 --quick
    python benchmarks/dataset_speed.py --sizes 1e6 --paths file   # file -> values only
    python benchmarks/dataset_speed.py --sizes 2e5 --shapes f --paths file --whole  # TREC DL, whole processes

The file path (benchmarks/file_speed.py) writes each shape as TREC qrels and run files, plain and
gzipped, and times file -> per-query NDCG@k for ndcg_core, pytrec_eval, ranx and ir_measures, each
in a process of its own on one thread, with its peak memory; ndcg_core's scoring column is the
in-memory path from the DataFrames it read.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's ndcg_core
import file_speed

import ndcg_core
from ndcg_core.dataset.threads import THREADS_VARIABLE, resolve_threads

#: The data shapes timed, each at every size. (a) is favourable: ids repeat and pack into 8 bytes,
#: both tables grouped. (b)-(d) are what large real runs look like; each adds one thing to the last.
SHAPES = {
    "a": "shared collection: doc ids repeat across queries, half the retrieved judged, grouped",
    "b": "distinct doc ids (14-byte docnos), every retrieved doc judged, both tables grouped",
    "c": "as (b), with 2% of the qrels rows appended at the end in random order (not grouped)",
    "d": "as (c), with the run rows shuffled (arbitrary row order)",
    "e": "MS MARCO dev-style: 1,000 docs a query, numeric ids, about one judgement a query (grade 1)",
    "f": "TREC DL-style: 1,000 docs a query, numeric ids, about 200 graded judgements (0-3) a query",
}

#: Documents retrieved per query in the MS MARCO- and TREC DL-style shapes (e, f), and the size of
#: the collection their passage ids come from (MS MARCO's passage collection).
DEPTH, COLLECTION = 1000, 8_841_823


def make_data(n_rows: int, shape: str = "a", seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Seeded qrels and run with about ``n_rows`` run rows, in one of the :data:`SHAPES`."""
    import pyarrow as pa
    import pyarrow.compute as pc

    rng = np.random.default_rng(seed)
    if shape in ("e", "f"):
        return _deep_runs(n_rows, shape, rng)
    lens = rng.integers(20, 201, size=n_rows // 20 + 10)
    lens = lens[np.cumsum(lens) <= n_rows]
    nq = lens.size
    q = np.repeat(np.arange(nq), lens)
    j = np.arange(q.size) - np.repeat(np.cumsum(lens) - lens, lens)
    scores = np.round(rng.random(q.size) * 100, 1)  # 1001 distinct values: plenty of ties

    def ids(prefix: str, values: np.ndarray, width: int = 0) -> pd.Series:
        text = pc.cast(pa.array(values), pa.string())
        if width:
            text = pc.utf8_lpad(text, width, "0")
        text = pc.binary_join_element_wise(prefix, text, "")
        return pd.Series(text.to_pandas(types_mapper=pd.ArrowDtype)).astype("str")

    if shape == "a":
        collection = max(5 * n_rows // 10, 1000)
        perm = rng.permutation(collection)
        doc_int = perm[(q * 9973 + j) % collection]
        # Judge every other retrieved document plus 10 unretrieved ones per query.
        judged_j = np.concatenate([j[j % 2 == 0], np.tile(np.arange(200, 210), nq)])
        judged_q = np.concatenate([q[j % 2 == 0], np.repeat(np.arange(nq), 10)])
        judged_doc = perm[(judged_q * 9973 + judged_j) % collection]
        prefix, width = "d", 0
    else:
        # Every retrieved document distinct (a large collection), every one judged, plus 10
        # unretrieved judged documents per query; ids like TREC docnos ("WSJ-0001234567").
        perm = rng.permutation(q.size + 10 * nq)
        doc_int = perm[: q.size]
        judged_q = np.concatenate([q, np.repeat(np.arange(nq), 10)])
        judged_doc = np.concatenate([doc_int, perm[q.size :]])
        prefix, width = "WSJ-", 10
    grades = rng.choice([0, 1, 2, 3], size=judged_q.size, p=[0.6, 0.2, 0.15, 0.05])
    nothing = rng.random(nq) < 0.05  # about 5% of queries have nothing relevant
    grades[nothing[judged_q]] = 0
    order = np.argsort(judged_q, kind="stable")  # qrels grouped by query
    if shape in ("c", "d"):  # 2% of the judgements came later: appended at the end, in any order
        late = rng.random(order.size) < 0.02
        order = np.concatenate([order[~late], rng.permutation(order[late])])
    judged_q, judged_doc, grades = judged_q[order], judged_doc[order], grades[order]
    run_order = rng.permutation(q.size) if shape == "d" else np.arange(q.size)
    run = pd.DataFrame(
        {
            "query": ids("q", q[run_order]),
            "doc": ids(prefix, doc_int[run_order], width),
            "score": scores[run_order],
        }
    )
    qrels = pd.DataFrame(
        {
            "query": ids("q", judged_q),
            "doc": ids(prefix, judged_doc, width),
            "relevance": grades.astype(np.int64),
        }
    )
    return qrels, run


def _deep_runs(n_rows: int, shape: str, rng: np.random.Generator) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The MS MARCO dev-style (e) and TREC DL-style (f) shapes: ``n_rows // 1000`` queries of 1,000
    retrieved passages each, numeric query and passage ids (passages from a collection of 8.8M, so
    ids repeat across queries), runs grouped by query and listed best first, scores with 4 decimals.

    (e) judges about one passage a query (grade 1; 7% of queries two), retrieved by the run for
    about 60% of the queries. (f) judges about 200 passages a query, graded 0-3 (55/25/13/7%): the
    first 120 retrieved (a pool of depth 120) and 80 the run did not retrieve. The 7k-query (e)
    file is MS MARCO's dev set's size, and 200 queries of (f) a TREC Deep Learning track's.
    """
    nq = max(n_rows // DEPTH, 1)
    qids = np.sort(rng.choice(1_200_000, size=nq, replace=False))
    q = np.repeat(np.arange(nq), DEPTH)
    j = np.tile(np.arange(DEPTH), nq)
    start = rng.integers(0, COLLECTION, size=nq)
    doc = (start[q] + j.astype(np.int64) * 7919) % COLLECTION  # distinct within a query
    scores = np.round(-np.sort(-rng.random((nq, DEPTH)) * 30, axis=1), 4).ravel()
    if shape == "e":
        two = rng.random(nq) < 0.07
        judged_q = np.concatenate([np.arange(nq), np.flatnonzero(two)])
        retrieved = rng.random(judged_q.size) < 0.6
        at = rng.integers(0, DEPTH, size=judged_q.size)
        outside = (start[judged_q] + (DEPTH + rng.integers(0, 10**6, size=judged_q.size)) * 7919) % COLLECTION
        judged_doc = np.where(retrieved, (start[judged_q] + at * 7919) % COLLECTION, outside)
        # a query's two judgements are distinct passages: the second one is never retrieved
        judged_doc[nq:] = (start[judged_q[nq:]] + (DEPTH + 10**6 + np.arange(two.sum())) * 7919) % COLLECTION
        grades = np.ones(judged_q.size, dtype=np.int64)
    else:
        pool, extra = 120, 80
        judged_q = np.repeat(np.arange(nq), pool + extra)
        jj = np.tile(np.concatenate([np.arange(pool), DEPTH + np.arange(extra)]), nq)
        judged_doc = (start[judged_q] + jj.astype(np.int64) * 7919) % COLLECTION
        grades = rng.choice([0, 1, 2, 3], size=judged_q.size, p=[0.55, 0.25, 0.13, 0.07])
    order = np.argsort(judged_q, kind="stable")
    text = lambda values: pd.Series(values.astype(str)).astype("str")  # noqa: E731
    run = pd.DataFrame({"query": text(qids[q]), "doc": text(doc), "score": scores})
    qrels = pd.DataFrame(
        {"query": text(qids[judged_q[order]]), "doc": text(judged_doc[order]), "relevance": grades[order]}
    )
    return qrels, run


# --------------------------------------------------------------------------- contenders


def ours(qrels, run, k):
    return ndcg_core.evaluate(qrels, run, k)


def sklearn_padded(qrels, run, k):
    from sklearn.metrics import ndcg_score

    merged = run.merge(qrels, on=["query", "doc"], how="left")
    rel = merged["relevance"].fillna(0).to_numpy()
    codes, uniques = pd.factorize(merged["query"])
    counts = np.bincount(codes)
    order = np.argsort(codes, kind="stable")
    pos = np.arange(codes.size) - np.repeat(np.cumsum(counts) - counts, counts)
    width = counts.max()
    y_true = np.zeros((uniques.size, width))
    y_score = np.full((uniques.size, width), -1e12)
    y_true[codes[order], pos] = rel[order]
    y_score[codes[order], pos] = merged["score"].to_numpy()[order]
    return ndcg_score(y_true, y_score, k=k, ignore_ties=True)


def _dicts(qrels, run):
    qd: dict = {}
    for q, d, r in zip(
        qrels["query"].tolist(), qrels["doc"].tolist(), qrels["relevance"].tolist(), strict=True
    ):
        qd.setdefault(q, {})[d] = int(r)
    rd: dict = {}
    for q, d, s in zip(run["query"].tolist(), run["doc"].tolist(), run["score"].tolist(), strict=True):
        rd.setdefault(q, {})[d] = s
    return qd, rd


def pytrec(qrels, run, k):
    import pytrec_eval

    qd, rd = _dicts(qrels, run)
    return pytrec_eval.RelevanceEvaluator(qd, {f"ndcg_cut.{k}"}).evaluate(rd)


def irm(qrels, run, k):
    import ir_measures

    qd, rd = _dicts(qrels, run)
    return {m.query_id: m.value for m in ir_measures.iter_calc([ir_measures.nDCG @ k], qd, rd)}


def ranx_eval(qrels, run, k):
    from ranx import Qrels, Run, evaluate

    q = qrels.astype({"query": object, "doc": object})
    r = run.astype({"query": object, "doc": object})
    qr = Qrels.from_df(q, q_id_col="query", doc_id_col="doc", score_col="relevance")
    rr = Run.from_df(r, q_id_col="query", doc_id_col="doc", score_col="score")
    return evaluate(qr, rr, f"ndcg@{k}", return_mean=False, make_comparable=True)


PEERS = {
    "scikit-learn (ignore_ties)": sklearn_padded,
    "pytrec_eval": pytrec,
    "ir_measures (dicts)": irm,
    "ranx (warm)": ranx_eval,
}


#: CPU seconds (this process, every thread) of the last :func:`timed` call's median run.
CPU: dict[str, float] = {}


def timed(fn, *args, repeats: int):
    """Median wall-clock seconds of ``repeats`` calls, and the last result; CPU seconds go to CPU[fn]."""
    times, cpu, out = [], [], None
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn(*args)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    CPU["last"] = statistics.median(cpu)
    return statistics.median(times), out


def check_values(name, got, per_query, qrels, run, k) -> str:
    """Largest difference from ndcg_core where the definitions match."""
    ours_by_q = per_query.set_index("query")["ndcg"]
    if name == "pytrec_eval":
        theirs = pd.Series({q: v[f"ndcg_cut_{k}"] for q, v in got.items()})
    elif name.startswith("ir_measures"):
        theirs = pd.Series(got)
    elif name.startswith("ranx"):
        # ranx returns an array in its own query order, and breaks ties its own way: compare means.
        mine = ndcg_core.evaluate(qrels, run, k, queries="both")["ndcg"]
        return f"mean differs by {abs(float(np.mean(got)) - mine.mean()):.1e} (tie order differs)"
    else:
        # scikit-learn sees one row: compare with ideal="retrieved" and tie-averaging on 500 queries.
        from sklearn.metrics import ndcg_score

        some = run["query"].drop_duplicates().iloc[:500]
        sub_run = run[run["query"].isin(some)]
        sub_qrels = qrels[qrels["query"].isin(some)]
        mine = ndcg_core.evaluate(sub_qrels, sub_run, k, ideal="retrieved", ties="average", queries="run")
        diffs = []
        for q, rows in sub_run.merge(sub_qrels, on=["query", "doc"], how="left").groupby("query"):
            want = ndcg_score([rows["relevance"].fillna(0)], [rows["score"]], k=k)
            diffs.append(abs(want - mine.set_index("query").loc[q, "ndcg"]))
        return f"max |diff| {max(diffs):.1e} (ties='average', ideal='retrieved', 500 queries)"
    common = theirs.index.intersection(ours_by_q.index)
    return (
        f"max |diff| {float((theirs[common] - ours_by_q[common]).abs().max()):.1e} on {common.size} queries"
    )


def memory(n_rows: int, shape: str, k: int) -> dict:
    """Peak memory of one evaluate() call, in this (fresh) process."""
    qrels, run = make_data(n_rows, shape)
    inputs = int(run.memory_usage(deep=True).sum() + qrels.memory_usage(deep=True).sum())
    ndcg_core.evaluate(qrels.iloc[:1000], run.iloc[:1000], k)
    tracemalloc.start()  # numpy reports its buffers to tracemalloc; Arrow's own pool is not seen
    ndcg_core.evaluate(qrels, run, k)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"inputs": inputs, "tracemalloc_peak": peak}


#: ndcg_core on its default threads must beat the fastest peer by this factor, on one thread too.
TARGET = 5.0


class one_thread:
    """ndcg_core's blocks, pyarrow's thread pool and the BLAS threads limited to one thread.

    The peers run in it too: scikit-learn's ``ndcg_score`` multiplies through OpenBLAS, whose
    second thread gained it no wall-clock time here (0.47-0.50 s either way on 1M (b)) but spun
    about 0.15 CPU seconds, which made every ratio in CPU seconds look better for ndcg_core
    than it was.
    """

    def __enter__(self):
        import pyarrow as pa

        self.saved = os.environ.get(THREADS_VARIABLE), pa.cpu_count()
        os.environ[THREADS_VARIABLE] = "1"  # ndcg_core's readers and evaluate: one thread
        pa.set_cpu_count(1)
        try:
            from threadpoolctl import threadpool_limits
        except ImportError:  # pragma: no cover - scikit-learn installs it
            self.blas = None
        else:
            self.blas = threadpool_limits(limits=1)

    def __exit__(self, *exc):
        import pyarrow as pa

        if self.saved[0] is None:
            os.environ.pop(THREADS_VARIABLE, None)
        else:
            os.environ[THREADS_VARIABLE] = self.saved[0]
        pa.set_cpu_count(self.saved[1])
        if self.blas is not None:
            self.blas.restore_original_limits()


def bench_shape(n: int, shape: str, peers: dict, k: int, quick: bool) -> dict:
    """Time ndcg_core (default threads and one thread) and the peers on one data shape; print a table."""
    qrels, run = make_data(n, shape)
    nq = run["query"].nunique()
    print(
        f"\n({shape}) {SHAPES[shape]}\n{len(run):,} run rows, {len(qrels):,} qrels rows, {nq:,} queries, "
        f"NDCG@{k}",
        flush=True,
    )
    for fn in (ours, *peers.values()):  # warm imports (ranx is compiled on the real ids below)
        fn(qrels.iloc[:3000], run.iloc[:3000], k)
    repeats = 1 if quick else (3 if n >= 5_000_000 else 5)
    t_ours, per_query = timed(ours, qrels, run, k, repeats=repeats)
    threads = resolve_threads()
    results = {"ndcg_core.evaluate": (t_ours, CPU["last"], f"reference ({threads} threads)")}
    with one_thread():  # the same call on one thread, as every peer runs
        t_one, one = timed(ours, qrels, run, k, repeats=repeats)
    same = one.equals(per_query)
    results["ndcg_core.evaluate, 1 thread"] = (t_one, CPU["last"], "identical table" if same else "DIFFERENT")
    big = n >= 5_000_000
    for name, fn in peers.items():
        if name.startswith("ranx"):
            fn(qrels, run, k)  # compile (numba) on these very ids before timing
        with one_thread():  # as ndcg_core's one-thread row (numba's threads, ranx's, are not limited)
            t, out = timed(fn, qrels, run, k, repeats=1 if (quick or big) else 3)
        results[name] = (t, CPU["last"], check_values(name, out, per_query, qrels, run, k))
        print(f"  {name}: {t:.2f} s", flush=True)
    mem = json.loads(
        subprocess.run(
            [sys.executable, __file__, "--memory-child", str(n), "--shape", shape, "--k", str(k)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    print("| library | median s | CPU s | vs ndcg_core | values |\n|---|---|---|---|---|")
    for name, (t, cpu, agree) in sorted(results.items(), key=lambda x: x[1][0]):
        print(f"| {name} | {t:.3f} | {cpu:.3f} | {t / t_ours:.1f}x | {agree} |")
    peers_run = {name: r for name, r in results.items() if not name.startswith("ndcg_core")}
    fastest = min(peers_run, key=lambda name: peers_run[name][0]) if peers_run else None
    row = {
        "n": n, "shape": shape, "queries": nq, "ours": t_ours, "one": t_one,
        "one_cpu": results["ndcg_core.evaluate, 1 thread"][1], "same": same, "fastest": fastest,
        "peer": peers_run[fastest][0] if fastest else None,
        "peer_cpu": peers_run[fastest][1] if fastest else None,
        "mem": mem,
    }  # fmt: skip
    if fastest:
        two_x, one_x, cpu_x = ratios(row)
        print(
            f"ndcg_core is {two_x:.1f}x faster than the fastest peer ({fastest}), {one_x:.1f}x on one "
            f"thread ({cpu_x:.1f}x in CPU seconds): target {TARGET:g}x {verdict(row)}"
        )
    print(
        f"peak memory: inputs {mem['inputs'] / 1e6:.0f} MB; "
        f"tracemalloc peak {mem['tracemalloc_peak'] / 1e6:.0f} MB "
        f"({mem['tracemalloc_peak'] / mem['inputs']:.2f}x the input columns)"
    )
    return row


def ratios(row: dict) -> tuple[float, float, float]:
    """The fastest peer's time over ours: two threads, one thread, one thread in CPU seconds."""
    return row["peer"] / row["ours"], row["peer"] / row["one"], row["peer_cpu"] / row["one_cpu"]


def verdict(row: dict) -> str:
    """Whether ndcg_core beats the fastest peer by TARGET on two threads and on one (wall clock)."""
    two_x, one_x, _ = ratios(row)
    return "met" if min(two_x, one_x) >= TARGET else "MISSED"


def summary(rows: list[dict]) -> None:
    """One markdown table of every shape and size: ours, one thread, the fastest peer, the ratios."""
    print(
        "\n| shape | run rows | ndcg_core, 2 threads | 1 thread (CPU s) | fastest peer (CPU s) | "
        f"ratio, 2 threads | 1 thread | 1 thread, CPU | target {TARGET:g}x |\n" + "|---" * 9 + "|"
    )
    for r in rows:
        ours = f"| ({r['shape']}) | {r['n']:,} | {r['ours']:.3f} s | {r['one']:.3f} s ({r['one_cpu']:.3f}) |"
        if r["fastest"] is None:
            print(f"{ours} - | - | - | - | - |")
            continue
        two_x, one_x, cpu_x = ratios(r)
        print(
            f"{ours} {r['fastest']} {r['peer']:.2f} s ({r['peer_cpu']:.2f}) | {two_x:.1f}x | {one_x:.1f}x | "
            f"{cpu_x:.1f}x | {verdict(r)} |"
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e6,1e7", help="run rows, comma separated (default 1e6,1e7)")
    parser.add_argument("--shapes", default="".join(SHAPES), help="data shapes, e.g. 'ad' (default all)")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="a fast smoke run: 50k rows, one repeat")
    parser.add_argument("--peers", default="all", help="comma separated subset of peers, or 'none'")
    parser.add_argument(
        "--paths", default="memory,file", help="'memory' (from DataFrames), 'file' (from TREC files), or both"
    )
    parser.add_argument(
        "--file-tools", default=",".join(file_speed.TOOLS), help="tools timed on the file path"
    )
    parser.add_argument(
        "--whole",
        action="store_true",
        help="also time ndcg-eval and a pytrec_eval script as whole new processes (file path)",
    )
    parser.add_argument("--memory-child", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--shape", default="a", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_child:
        print(json.dumps(memory(args.memory_child, args.shape, args.k)))
        return 0
    sizes = [50_000] if args.quick else [int(float(s)) for s in args.sizes.split(",")]
    peers = {} if args.peers == "none" else {
        n: f for n, f in PEERS.items() if args.peers == "all" or any(p in n for p in args.peers.split(","))
    }  # fmt: skip
    paths = args.paths.split(",")
    tools = [t for t in file_speed.TOOLS if t in args.file_tools.split(",")]
    rows, file_rows = [], []
    for n in sizes:
        for shape in args.shapes:
            if "memory" in paths:
                rows.append(bench_shape(n, shape, peers, args.k, args.quick))
            if "file" in paths:
                print(f"\n({shape}) file -> per-query values, {n:,} run rows, one thread each", flush=True)
                qrels, run = make_data(n, shape)
                file_rows += file_speed.bench_files(
                    qrels, run, shape, n, args.k, tools, 1 if args.quick else 3, args.whole
                )
                del qrels, run
    if rows:
        summary(rows)
    if file_rows:
        file_speed.summary(file_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())

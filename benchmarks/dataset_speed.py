"""How fast is ndcg_core.evaluate on a data set, next to the libraries people use?

Builds seeded synthetic data (ragged queries of 20-200 retrieved documents,
scores with ties, a judged pool that includes unretrieved documents and some
queries with nothing relevant), then times NDCG@k for every query, end to end
from the two DataFrames (qrels: query, doc, relevance; run: query, doc, score):

- ndcg_core.evaluate (this project), on its default threads (blocks of queries on up
  to 2 threads) and again on one thread, as every peer runs
- scikit-learn ndcg_score(ignore_ties=True) on padded matrices (after the merge
  with the qrels and the padding, which it needs)
- pytrec_eval-terrier, from dicts built from the DataFrames
- ir_measures, from the same kind of dicts
- ranx, warm (numba compiled before timing; ids cast to object for pandas 3)

It checks that the values agree where the definitions match and measures our
peak memory against the size of the input columns, in a fresh process.

    python benchmarks/dataset_speed.py                   # 1M and 10M rows
    python benchmarks/dataset_speed.py --sizes 1e6 --quick
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import tracemalloc

import numpy as np
import pandas as pd

import ndcg_core


def make_data(n_rows: int, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Seeded run and qrels with about ``n_rows`` run rows, grouped by query as TREC runs are."""
    import pyarrow as pa
    import pyarrow.compute as pc

    rng = np.random.default_rng(seed)
    lens = rng.integers(20, 201, size=n_rows // 20 + 10)
    lens = lens[np.cumsum(lens) <= n_rows]
    nq = lens.size
    collection = max(5 * n_rows // 10, 1000)
    perm = rng.permutation(collection)
    q = np.repeat(np.arange(nq), lens)
    j = np.arange(q.size) - np.repeat(np.cumsum(lens) - lens, lens)
    doc_int = perm[(q * 9973 + j) % collection]
    scores = np.round(rng.random(q.size) * 100, 1)  # 1001 distinct values: plenty of ties

    def ids(prefix: str, values: np.ndarray) -> pd.Series:
        text = pc.binary_join_element_wise(prefix, pc.cast(pa.array(values), pa.string()), "")
        return pd.Series(text.to_pandas(types_mapper=pd.ArrowDtype)).astype("str")

    run = pd.DataFrame({"query": ids("q", q), "doc": ids("d", doc_int), "score": scores})
    # Judge every other retrieved document plus 10 unretrieved ones per query.
    judged_j = np.concatenate([j[j % 2 == 0], np.tile(np.arange(200, 210), nq)])
    judged_q = np.concatenate([q[j % 2 == 0], np.repeat(np.arange(nq), 10)])
    grades = rng.choice([0, 1, 2, 3], size=judged_q.size, p=[0.6, 0.2, 0.15, 0.05])
    nothing = rng.random(nq) < 0.05  # about 5% of queries have nothing relevant
    grades[nothing[judged_q]] = 0
    order = np.argsort(judged_q, kind="stable")
    judged_q, judged_j, grades = judged_q[order], judged_j[order], grades[order]
    qrels = pd.DataFrame(
        {
            "query": ids("q", judged_q),
            "doc": ids("d", perm[(judged_q * 9973 + judged_j) % collection]),
            "relevance": grades.astype(np.int64),
        }
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


def timed(fn, *args, repeats: int):
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn(*args)
        times.append(time.perf_counter() - t0)
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


def memory(n_rows: int, k: int) -> dict:
    """Peak memory of one evaluate() call, in this (fresh) process."""
    qrels, run = make_data(n_rows)
    inputs = int(run.memory_usage(deep=True).sum() + qrels.memory_usage(deep=True).sum())
    ndcg_core.evaluate(qrels.iloc[:1000], run.iloc[:1000], k)
    tracemalloc.start()  # numpy reports its buffers to tracemalloc; Arrow's own pool is not seen
    ndcg_core.evaluate(qrels, run, k)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"inputs": inputs, "tracemalloc_peak": peak}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e6,1e7", help="run rows, comma separated (default 1e6,1e7)")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="a fast smoke run: 50k rows, one repeat")
    parser.add_argument("--peers", default="all", help="comma separated subset of peers, or 'none'")
    parser.add_argument("--memory-child", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_child:
        print(json.dumps(memory(args.memory_child, args.k)))
        return 0
    sizes = [50_000] if args.quick else [int(float(s)) for s in args.sizes.split(",")]
    peers = {} if args.peers == "none" else {
        n: f for n, f in PEERS.items() if args.peers == "all" or any(p in n for p in args.peers.split(","))
    }  # fmt: skip
    rows = []
    for n in sizes:
        qrels, run = make_data(n)
        nq = run["query"].nunique()
        print(
            f"\n{len(run):,} run rows, {len(qrels):,} qrels rows, {nq:,} queries, NDCG@{args.k}", flush=True
        )
        for fn in (ours, *peers.values()):  # warm imports (ranx is compiled on the real ids below)
            fn(qrels.iloc[:3000], run.iloc[:3000], args.k)
        t_ours, per_query = timed(ours, qrels, run, args.k, repeats=1 if args.quick else 3)
        results = {
            "ndcg_core.evaluate": (t_ours, f"reference ({ndcg_core.dataset.kernels._THREADS} threads)")
        }
        threads, ndcg_core.dataset.kernels._THREADS = ndcg_core.dataset.kernels._THREADS, 1
        try:  # the same call on one thread, as every peer runs
            t_one, one = timed(ours, qrels, run, args.k, repeats=1 if args.quick else 3)
        finally:
            ndcg_core.dataset.kernels._THREADS = threads
        same = one.equals(per_query)
        results["ndcg_core.evaluate, 1 thread"] = (t_one, "identical table" if same else "DIFFERENT TABLE")
        big = n >= 5_000_000
        for name, fn in peers.items():
            if name.startswith("ranx"):
                fn(qrels, run, args.k)  # compile (numba) on these very ids before timing
            t, out = timed(fn, qrels, run, args.k, repeats=1 if (args.quick or big) else 3)
            results[name] = (t, check_values(name, out, per_query, qrels, run, args.k))
            print(f"  {name}: {t:.2f} s", flush=True)
        mem = json.loads(
            subprocess.run(
                [sys.executable, __file__, "--memory-child", str(n), "--k", str(args.k)],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        fastest_peer = min(
            (t for name, (t, _) in results.items() if not name.startswith("ndcg_core")), default=None
        )
        print("| library | median s | vs ndcg_core | values |\n|---|---|---|---|")
        for name, (t, agree) in sorted(results.items(), key=lambda x: x[1][0]):
            print(f"| {name} | {t:.3f} | {t / t_ours:.1f}x | {agree} |")
        if fastest_peer:
            print(
                f"ndcg_core is {fastest_peer / t_ours:.1f}x faster than the fastest peer "
                f"({fastest_peer / t_one:.1f}x on one thread)"
            )
        print(
            f"peak memory: inputs {mem['inputs'] / 1e6:.0f} MB; "
            f"tracemalloc peak {mem['tracemalloc_peak'] / 1e6:.0f} MB "
            f"({mem['tracemalloc_peak'] / mem['inputs']:.2f}x the input columns)"
        )
        rows.append((n, results, mem))
    return 0


if __name__ == "__main__":
    sys.exit(main())

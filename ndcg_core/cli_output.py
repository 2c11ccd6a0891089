"""``ndcg-eval``'s output: trec_eval's lines or a table, and the ``--compare`` and ``--robustness``
reports. Split from :mod:`ndcg_core.cli` (its start-up path imports only the standard library and
numpy from here); the comparison and robustness modules, which need pandas and scipy, are imported
where a report is asked for.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

    from .cli import Measure, _Result
    from .spec import Spec


def _with_gains(spec: Spec, gains: tuple[tuple[int, float], ...], qrels: pd.DataFrame) -> Spec:
    """trec_eval's ``ndcg.L=G,...``: the given levels' gains, every other level's gain its level."""
    levels = spec.rewrite_grades(qrels["relevance"].to_numpy(dtype=float))
    table = {float(g): float(g) for g in np.unique(np.append(levels, 0.0))}
    table.update({float(level): gain for level, gain in gains})
    return replace(spec, variant=spec.variant.with_(gain=table))


def _trec_value(m: Measure, value: Any) -> str:
    if m.kind == "runid":
        return str(value)
    if m.kind == "num_q":
        return str(int(value))
    return f"{value:6.4f}"


def _write_trec(
    out: TextIO, results: list[_Result], measures: list[Measure], per_query: bool, summary: bool = True
) -> None:
    for result in results:
        if per_query:
            for query in result.queries:
                for m in measures:
                    if not m.summary_only:
                        value = result.values[m.name][query]
                        out.write(f"{m.name:<22}\t{query}\t{_trec_value(m, value)}\n")
        if summary:  # trec_eval -n: no summary
            for m in measures:
                out.write(f"{m.name:<22}\tall\t{_trec_value(m, result.means[m.name])}\n")


def _rows(
    results: list[_Result], measures: list[Measure], per_query: bool, summary: bool = True
) -> Iterable[tuple]:
    """(run, query, measure, value) in trec_eval's order; ``all`` for the means (unless not ``summary``)."""
    for result in results:
        if per_query:
            for query in result.queries:
                for m in measures:
                    if not m.summary_only:
                        yield result.label, query, m, result.values[m.name][query]
        if summary:
            for m in measures:
                yield result.label, "all", m, result.means[m.name]


def _json_value(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _write_table(out: TextIO, fmt: str, results, measures, per_query: bool, summary: bool = True) -> None:
    if fmt == "csv":
        import csv

        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["run", "query", "measure", "value"])
        for run, query, m, value in _rows(results, measures, per_query, summary):
            writer.writerow([run, query, m.name, repr(value) if isinstance(value, float) else value])
        return
    if fmt == "json":
        document = []
        for result in results:
            entry: dict[str, Any] = {"run": result.label, "file": result.path}
            if summary:
                entry["all"] = {m.name: _json_value(result.means[m.name]) for m in measures}
            if per_query:
                entry["queries"] = {
                    q: {m.name: _json_value(result.values[m.name][q]) for m in measures if not m.summary_only}
                    for q in result.queries
                }
            document.append(entry)
        json.dump({"runs": document}, out, indent=2)
        out.write("\n")
        return
    several = len(results) > 1
    shown = [m for m in measures if not (several and m.kind == "runid")]  # the run column says it
    header = [*(["run"] if several else []), "query", *(m.name for m in shown)]
    body = []
    for result in results:
        queries = [*(result.queries if per_query else []), *(["all"] if summary else [])]
        for query in queries:
            cells = []
            for m in shown:
                if query == "all":
                    cells.append(_trec_value(m, result.means[m.name]).strip())
                else:  # runid and num_q are the whole run's
                    cells.append(
                        "" if m.summary_only else _trec_value(m, result.values[m.name][query]).strip()
                    )
            body.append([*([result.label] if several else []), query, *cells])
    if fmt == "markdown":
        out.write("| " + " | ".join(_md(c) for c in header) + " |\n")
        aligns = ["---" if i < len(header) - len(shown) else "---:" for i in range(len(header))]
        out.write("|" + "|".join(aligns) + "|\n")
        for row in body:
            out.write("| " + " | ".join(_md(c) for c in row) + " |\n")
        return
    columns = "l" * (len(header) - len(shown)) + "r" * len(shown)
    out.write(f"\\begin{{tabular}}{{{columns}}}\n\\hline\n")
    out.write(" & ".join(_tex(c) for c in header) + " \\\\\n\\hline\n")
    for row in body:
        out.write(" & ".join(_tex(c) for c in row) + " \\\\\n")
    out.write("\\hline\n\\end{tabular}\n")


def _md(text: str) -> str:
    return str(text).replace("|", "\\|")


_TEX = {c: "\\" + c for c in "&%$#_{}"} | {"~": r"\textasciitilde{}", "^": r"\^{}", "\\": r"\textbackslash{}"}


def _tex(text: str) -> str:
    return "".join(_TEX.get(c, c) for c in str(text))


def _robustness(
    args: argparse.Namespace, qrels, runs: dict[str, pd.DataFrame], spec: Spec, measures, out
) -> int:
    """``--robustness``: the runs' order under every formula variant and library preset.

    :func:`ndcg_core.dataset.robustness.robustness` with ``spec`` as the reference, at the cutoffs
    of the NDCG measures asked with ``-m`` (``ndcg`` is no cutoff; default NDCG@10). Written in the
    chosen ``--format``: the variants (order, Kendall's tau with the reference, means), then each
    pair whose winner flips, with the ``--causes`` queries that flip it most under each variant.
    """
    from .dataset.robustness import robustness

    asked = [m.k for m in measures if m.kind == "ndcg" and m.gains is None] if args.measure else []
    result = robustness(qrels, runs, cutoffs=asked or [10], spec=spec, threads=None)
    names = list(result.runs)
    variants = result.variants
    causes = {
        (f.run_a, f.run_b, f.variant): result.causes(f.run_a, f.run_b, f.variant, args.causes)
        for f in result.flips.itertuples()
    }
    if args.format == "json":
        flips = []
        for f in result.flips.itertuples(index=False):
            record = f._asdict()
            record["causes"] = _records(causes[(f.run_a, f.run_b, f.variant)])
            flips.append(record)
        document = {
            "reference": result.reference,
            "runs": names,
            "variants": _records(variants),
            "tau": _records(result.tau.reset_index()),
            "flips": flips,
        }
        json.dump({"robustness": document}, out, indent=2)
        out.write("\n")
        return 0
    columns = ["variant", "kind", "order", "tau", "flips", *names, "refused"]
    if args.format == "csv":
        import csv

        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        for row in variants[columns].itertuples(index=False):
            writer.writerow([repr(v) if isinstance(v, float) else v for v in row])
        return 0

    def cell(value: Any) -> str:
        if isinstance(value, float):
            return "" if math.isnan(value) else f"{value:.4f}"
        return str(value)

    if args.format in ("markdown", "latex"):
        write_row = (
            (lambda cells: out.write("| " + " | ".join(_md(c) for c in cells) + " |\n"))
            if (args.format == "markdown")
            else (lambda cells: out.write(" & ".join(_tex(c) for c in cells) + " \\\\\n"))
        )
        if args.format == "latex":
            out.write("\\begin{tabular}{" + "l" * 3 + "r" * (len(columns) - 4) + "l}\n\\hline\n")
        write_row(columns)
        if args.format == "markdown":
            out.write("|" + "|".join(["---"] * 3 + ["---:"] * (len(columns) - 4) + ["---"]) + "|\n")
        else:
            out.write("\\hline\n")
        for row in variants[columns].itertuples(index=False):
            write_row([cell(v) for v in row])
        if args.format == "latex":
            out.write("\\hline\n\\end{tabular}\n")
        return 0
    n_scored = int((variants["refused"] == "").sum())
    out.write(
        f"Does the runs' order depend on the formula? {len(names)} runs, {n_scored} variants scored; "
        f"reference {result.reference}: {variants.iloc[0]['order']}\n\n"
    )
    out.write("\t".join(["variant", "order", "tau", "flips", *names]) + "\n")
    for row in variants.itertuples(index=False):
        if row.refused:
            out.write(f"{row.variant}\trefused: {row.refused}\n")
            continue
        means = [cell(row._asdict()[n]) for n in names]
        out.write("\t".join([row.variant, row.order, cell(row.tau), str(row.flips), *means]) + "\n")
    out.write("\n")
    if result.flips.empty:
        out.write("No pair of runs changes winner: the conclusion holds under every variant scored.\n")
        return 0
    for (a, b), group in result.flips.groupby(["run_a", "run_b"], sort=False):
        first = group.iloc[0]
        out.write(
            f"{a} beats {b} under the reference ({first.mean_a_ref:.4f} vs {first.mean_b_ref:.4f}); "
            f"not under {len(group)} of {n_scored - 1} other variants:\n"
        )
        for f in group.itertuples(index=False):
            verdict = "a tie" if f.winner == "tie" else f"{f.winner} wins"
            out.write(f"  {f.variant}: {verdict} ({f.mean_a:.4f} vs {f.mean_b:.4f})")
            shown = causes[(a, b, f.variant)]
            if len(shown):
                moved = ", ".join(
                    f"{r.query} ({r.diff_ref:+.4f} -> {r.diff:+.4f})" for r in shown.itertuples()
                )
                out.write(f"; queries that move it most ({a} - {b}): {moved}")
            out.write("\n")
    return 0


def _compare(
    args: argparse.Namespace, qrels, runs: dict[str, pd.DataFrame], spec: Spec, measures, out
) -> int:
    """``--compare``: the runs against one another at each NDCG measure; the exit status.

    :func:`ndcg_core.compare_runs.compare` is called once per NDCG measure (``test``,
    ``correction``, ``alpha``, ``permutations`` and ``seed`` come from the options). Per measure:
    each run's mean marked as ranx marks it (the letters of the runs it is significantly better
    than), its delta, wins, ties and losses against the first run and the corrected p-value; then
    every pair of runs (both tests, raw and corrected); with ``-q``, each query's delta against the
    first run. Written in the chosen
    ``--format``.
    """
    settings = {
        "test": args.test,
        "correction": args.correction,
        "alpha": args.alpha,
        "permutations": args.permutations,
        "seed": args.seed,
    }
    from .compare_runs import compare

    found = []
    for m in measures:
        if m.kind != "ndcg":
            continue
        measure_spec = spec.with_k(m.k) if m.gains is None else _with_gains(spec.with_k(None), m.gains, qrels)
        try:
            found.append((m, compare(qrels, runs, spec=measure_spec, **settings)))
        except ImportError as err:  # the tests need scipy, which the engine alone does not bring
            print(f"ndcg-eval: {err}", file=sys.stderr)
            return 2
    if args.format == "json":
        document = {
            m.name: {
                "runs": _records(result.table.drop(columns="marked")),
                "pairs": _records(result.pairs),
                "left_out": list(result.left_out),
                **({"deltas": _records(result.deltas.reset_index())} if args.q else {}),
            }
            for m, result in found
        }
        json.dump({"compare": document, **settings}, out, indent=2)
        out.write("\n")
        return 0
    if args.format == "trec":
        for m, result in found:
            out.write(
                f"{m.name}: {result.n_queries} queries, {args.test} test, {args.correction} correction\n"
            )
            out.write(result.to_text(4) + "\n\n")
            for _, r in result.pairs.iterrows():
                out.write(
                    f"{r['run']} vs {r['other']}\tdelta {r['delta']:+.4f}\twin/tie/loss "
                    f"{r['wins']}/{r['ties']}/{r['losses']}\tp_t {r['p_t_adjusted']:.4f}\t"
                    f"p_randomization {r['p_randomization_adjusted']:.4f}\n"
                )
            if args.q:
                letters = result.letters
                base = letters[result.baseline]
                columns = [f"{letters[name]} - {base}" for name in result.deltas.columns]
                out.write("\t".join(["query", *columns]) + "\n")
                for query, row in result.deltas.iterrows():
                    out.write("\t".join([str(query), *(f"{v:+.4f}" for v in row)]) + "\n")
            if result.left_out:
                out.write(f"left out (not scored in every run): {', '.join(result.left_out)}\n")
            out.write("\n")
        return 0
    header = ["measure", "run", "mean", "better_than", "delta", "wins", "ties", "losses", "p"]
    rows = []
    for m, result in found:
        for _, r in result.table.iterrows():
            rows.append(
                [
                    m.name,
                    r["run"],
                    r["mean"],
                    r["better_than"],
                    r["delta"],
                    r["wins"],
                    r["ties"],
                    r["losses"],
                    r["p"],
                ]
            )
    if args.format == "csv":
        import csv

        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        for row in rows:
            writer.writerow([repr(v) if isinstance(v, float) else v for v in row])
        return 0
    shown = [
        [c if not isinstance(c, float) else ("" if math.isnan(c) else f"{c:.4f}") for c in row]
        for row in rows
    ]
    if args.format == "markdown":
        out.write("| " + " | ".join(header) + " |\n|" + "|".join(["---"] * 2 + ["---:"] * 7) + "|\n")
        for row in shown:
            out.write("| " + " | ".join(_md(str(c)) for c in row) + " |\n")
        return 0
    out.write(
        "\\begin{tabular}{llrlrrrrr}\n\\hline\n" + " & ".join(_tex(c) for c in header) + " \\\\\n\\hline\n"
    )
    for row in shown:
        out.write(" & ".join(_tex(str(c)) for c in row) + " \\\\\n")
    out.write("\\hline\n\\end{tabular}\n")
    return 0


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A table as JSON-ready rows (NaN as null, numpy numbers as Python's)."""
    return json.loads(frame.to_json(orient="records", double_precision=15))

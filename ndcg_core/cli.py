"""``ndcg-eval``: NDCG of TREC runs from the command line, printed as trec_eval prints it.

::

    ndcg-eval qrels.txt run.txt                      # ndcg and ndcg_cut_5 ... ndcg_cut_1000, mean
    ndcg-eval -q -m ndcg_cut.10 qrels.txt run.txt    # NDCG@10 of every query, then the mean
    ndcg-eval -m nDCG@10 --format csv qrels run1 run2.gz
    zcat run.gz | ndcg-eval qrels.txt -              # '-' reads standard input

Measures (``-m``, repeatable, or several in one quoted argument) are spelled as trec_eval spells
them (``ndcg``, ``ndcg_cut.5,10``, ``ndcg.1=3,2=9`` for a gain per relevance level, ``runid``,
``num_q``) or as ir_measures does (``nDCG``, ``nDCG@10``; ranx's ``ndcg@10`` too). Scores follow
``--preset`` (default ``trec_eval``, whose numbers these are; ``none`` for the library's plain
default). The default output is trec_eval's: ``measure<TAB>query<TAB>value``, the measure padded
to 22 characters and values with 4 decimals, ``all`` for the mean; ``-q`` adds every query first.
Several runs print one after another, each with trec_eval's ``runid`` line. ``-c`` and ``-M``
are trec_eval's. Bad input exits with status 2 and a message naming the file and line.

The measures parser is :func:`parse_measures`; :func:`main` is the entry point. ``--compare``
hands two runs or more to ``ndcg_core.compare_runs`` at each measure (see :func:`_compare`), where
that module is installed.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TextIO

import numpy as np
import pandas as pd

from .compare_runs import compare
from .dataset import evaluate, read_qrels, read_run
from .dataset.scoring import DATASET_BASE
from .dataset.sources import DEFAULT_LIMITS, ReadLimits, open_decompressed, parse_size, size_text
from .dataset.threads import resolve_threads
from .errors import NDCGError
from .presets import PRESETS, resolve
from .spec import Spec

__all__ = ["FORMATS", "TREC_CUTOFFS", "Measure", "main", "parse_measures"]

#: trec_eval's cutoffs for ``ndcg_cut`` without parameters (and what ``-m all_trec`` prints).
TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)

#: Output formats: trec_eval's three columns, or a table.
FORMATS = ("trec", "csv", "json", "markdown", "latex")

#: The measures printed when no ``-m`` is given: the NDCG lines of trec_eval's ``-m all_trec``.
DEFAULT_MEASURES = ("ndcg", "ndcg_cut")

#: The preset name that means the library's plain default (no library's rules).
NO_PRESET = "none"

#: trec_eval prints measures in the order of its own table, whatever order they were asked in.
_TREC_ORDER = {"runid": 0, "num_q": 1, "ndcg": 2, "ndcg_cut": 3}

_IR_MEASURES = re.compile(r"^(nDCG|NDCG|ndcg)(?:@(\d+))?$")
_TREC_CUT = re.compile(r"^ndcg_cut(?:[._](.+))?$")
_TREC_GAINS = re.compile(r"^ndcg[._](.+=.+)$")


@dataclass(frozen=True)
class Measure:
    """One printed measure: its name as printed, what it is, and its cutoff or gains.

    ``kind`` is ``"ndcg"`` (``k`` its cutoff, None for none; ``gains`` trec_eval's per-level gain
    parameters, if any), ``"runid"`` (the run's name) or ``"num_q"`` (the queries averaged).
    ``order`` places it as trec_eval would print it.
    """

    name: str
    kind: str = "ndcg"
    k: int | None = None
    gains: tuple[tuple[int, float], ...] | None = None
    order: tuple[int, int, int] = (9, 0, 0)

    @property
    def summary_only(self) -> bool:
        """trec_eval prints these on the ``all`` line only."""
        return self.kind != "ndcg"


def _cutoff(text: str, measure: str) -> int:
    """A trec_eval cutoff: a number, truncated to a whole one as trec_eval reads it (23.4 is 23)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or int(value) < 1:
        raise NDCGError("bad_measure_cutoff", measure=repr(measure), text=repr(text))
    return int(value)


def parse_measures(texts: Iterable[str]) -> list[Measure]:
    """The measures these ``-m`` arguments name, in the order trec_eval prints them, each once.

    trec_eval's measures come first, in trec_eval's order (``runid``, ``num_q``, ``ndcg``,
    ``ndcg_cut``, cutoffs ascending); ir_measures' spellings follow in the order given.

    >>> [m.name for m in parse_measures(["nDCG@10", "ndcg_cut.20,5", "ndcg"])]
    ['ndcg', 'ndcg_cut_5', 'ndcg_cut_20', 'nDCG@10']
    >>> parse_measures(["ndcg.1=3,2=9"])[0].gains
    ((1, 3.0), (2, 9.0))
    """
    found: dict[str, Measure] = {}
    given = 0
    for text in texts:
        for word in text.split():
            given += 1
            for m in _parse_one(word, given):
                found.setdefault(m.name, m)
    if not found:
        raise NDCGError("no_measures")
    return sorted(found.values(), key=lambda m: m.order)


def _parse_one(word: str, at: int) -> list[Measure]:
    if word in ("runid", "num_q"):
        return [Measure(word, kind=word, order=(0, _TREC_ORDER[word], 0))]
    if word == "ndcg":
        return [Measure("ndcg", order=(0, _TREC_ORDER["ndcg"], 0))]
    if match := _TREC_CUT.match(word):
        params = match.group(1)
        cutoffs = TREC_CUTOFFS if params is None else [_cutoff(p, word) for p in params.split(",")]
        return [Measure(f"ndcg_cut_{k}", k=k, order=(0, _TREC_ORDER["ndcg_cut"], k)) for k in cutoffs]
    if match := _TREC_GAINS.match(word):
        gains = []
        for pair in match.group(1).split(","):
            level, _, gain = pair.partition("=")
            try:
                entry = (int(level), float(gain))
            except ValueError:
                raise NDCGError("bad_measure_gain", measure=repr(word), text=repr(pair)) from None
            if not math.isfinite(entry[1]) or entry[1] < 0:
                raise NDCGError("bad_measure_gain", measure=repr(word), text=repr(pair))
            gains.append(entry)
        return [Measure(f"ndcg_{match.group(1)}", gains=tuple(gains), order=(0, _TREC_ORDER["ndcg"], at))]
    if match := _IR_MEASURES.match(word):
        k = None if match.group(2) is None else _cutoff(match.group(2), word)
        return [Measure(word, k=k, order=(1, at, 0))]
    raise NDCGError("unknown_measure", measure=repr(word))


# ------------------------------------------------------------------ reading


@dataclass
class _Source:
    """A file named on the command line, and a name for messages. A file is read by its path (so
    the readers can map a large one instead of copying it); standard input ('-') is read at once
    and kept as ``data``."""

    path: str
    data: bytes | None = None

    @property
    def name(self) -> str:
        return "<stdin>" if self.path == "-" else self.path

    def open(self) -> str | io.BytesIO:
        if self.data is None:
            return self.path
        handle = io.BytesIO(self.data)
        handle.name = self.name
        return handle

    def size(self) -> int:
        """Its length in bytes as stored (compressed or not); 0 for what is not a regular file."""
        if self.data is not None:
            return len(self.data)
        return os.path.getsize(self.path) if os.path.isfile(self.path) else 0

    def tag(self, limits: ReadLimits = DEFAULT_LIMITS) -> str | None:
        """The run tag of the first TREC line (trec_eval's runid), if the file is a TREC run: read
        from the file's first lines only (each line bounded by ``limits``), decompressed as the
        readers decompress it."""
        try:
            with open_decompressed(self.open() if self.data is not None else open(self.path, "rb")) as fh:
                while line := fh.readline(limits.max_line + 1):
                    fields = line.split()
                    if fields:
                        return fields[5].decode("utf-8", "replace") if len(fields) >= 6 else None
        except (OSError, EOFError, ValueError, NDCGError):  # read whole already: the run was read
            return None
        return None


def _load(path: str, stdin: Any, limits: ReadLimits) -> _Source:
    if path == "-":  # read up to the limit: what is longer is refused by the reader with it
        return _Source(path, stdin.read(limits.max_bytes + 1))
    try:  # a file that cannot be opened is named now, before any file is read
        with open(path, "rb"):
            pass
    except OSError as err:
        raise NDCGError("cannot_read", name=repr(path), reason=err.strerror or err) from None
    return _Source(path)


def _top_documents(run: pd.DataFrame, m: int) -> pd.DataFrame:
    """trec_eval -M: each query's first m documents in trec_eval's order (float32 score, then docno,
    both descending); the rows keep the file's order."""
    ranked = run.assign(_score=run["score"].to_numpy(dtype=np.float32)).sort_values(
        ["query", "_score", "doc"], ascending=[True, False, False], kind="stable"
    )
    return ranked.groupby("query", sort=False).head(m).drop(columns="_score").sort_index()


# ------------------------------------------------------------------ scoring


def _spec(preset: str, all_queries: bool) -> Spec:
    spec = DATASET_BASE if preset == NO_PRESET else resolve(preset)
    return replace(spec, queries="qrels") if all_queries else spec


def _with_gains(spec: Spec, gains: tuple[tuple[int, float], ...], qrels: pd.DataFrame) -> Spec:
    """trec_eval's ``ndcg.L=G,...``: the given levels' gains, every other level's gain its level."""
    levels = spec.rewrite_grades(qrels["relevance"].to_numpy(dtype=float))
    table = {float(g): float(g) for g in np.unique(np.append(levels, 0.0))}
    table.update({float(level): gain for level, gain in gains})
    return replace(spec, variant=spec.variant.with_(gain=table))


@dataclass
class _Result:
    """One run's numbers: each measure's value per query and its mean."""

    label: str
    path: str
    queries: list[str]
    values: dict[str, dict[str, float]]  # measure -> query -> value
    means: dict[str, Any]  # measure -> mean (runid: text, num_q: count)


def _score(qrels, run, source: _Source, label: str, measures, spec: Spec, threads: int) -> _Result:
    plain = [m for m in measures if m.kind == "ndcg" and m.gains is None]
    values: dict[str, dict[str, float]] = {}
    queries: list[str] = []
    if plain:
        cutoffs = list(dict.fromkeys(m.k for m in plain))
        table = evaluate(qrels, run, cutoffs, spec=spec, threads=threads)
        queries = table["query"].astype(str).tolist()
        for m in plain:
            column = "ndcg" if m.k is None else f"ndcg@{m.k}"
            values[m.name] = dict(zip(queries, table[column].tolist(), strict=True))
    for m in measures:
        if m.gains is not None:
            table = evaluate(qrels, run, spec=_with_gains(spec.with_k(None), m.gains, qrels), threads=threads)
            queries = table["query"].astype(str).tolist()
            values[m.name] = dict(zip(queries, table["ndcg"].tolist(), strict=True))
    if not values:  # only runid / num_q asked for: the queries still decide num_q
        queries = evaluate(qrels, run, 1, spec=spec, threads=threads)["query"].astype(str).tolist()
    means: dict[str, Any] = {}
    for m in measures:
        if m.kind == "runid":
            means[m.name] = label
        elif m.kind == "num_q":
            means[m.name] = len(queries)
        else:
            finite = [v for v in values[m.name].values() if not math.isnan(v)]
            means[m.name] = sum(finite) / len(finite) if finite else math.nan
    return _Result(label, source.name, sorted(queries), values, means)


# ------------------------------------------------------------------ output


def _trec_value(m: Measure, value: Any) -> str:
    if m.kind == "runid":
        return str(value)
    if m.kind == "num_q":
        return str(int(value))
    return f"{value:6.4f}"


def _write_trec(out: TextIO, results: list[_Result], measures: list[Measure], per_query: bool) -> None:
    for result in results:
        if per_query:
            for query in result.queries:
                for m in measures:
                    if not m.summary_only:
                        value = result.values[m.name][query]
                        out.write(f"{m.name:<22}\t{query}\t{_trec_value(m, value)}\n")
        for m in measures:
            out.write(f"{m.name:<22}\tall\t{_trec_value(m, result.means[m.name])}\n")


def _rows(results: list[_Result], measures: list[Measure], per_query: bool) -> Iterable[tuple]:
    """(run, query, measure, value) in trec_eval's order; ``all`` for the means."""
    for result in results:
        if per_query:
            for query in result.queries:
                for m in measures:
                    if not m.summary_only:
                        yield result.label, query, m, result.values[m.name][query]
        for m in measures:
            yield result.label, "all", m, result.means[m.name]


def _json_value(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _write_table(out: TextIO, fmt: str, results, measures, per_query: bool) -> None:
    if fmt == "csv":
        import csv

        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["run", "query", "measure", "value"])
        for run, query, m, value in _rows(results, measures, per_query):
            writer.writerow([run, query, m.name, repr(value) if isinstance(value, float) else value])
        return
    if fmt == "json":
        document = []
        for result in results:
            entry: dict[str, Any] = {
                "run": result.label,
                "file": result.path,
                "all": {m.name: _json_value(result.means[m.name]) for m in measures},
            }
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
        queries = [*(result.queries if per_query else []), "all"]
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


# ------------------------------------------------------------------ the command


def _parser() -> argparse.ArgumentParser:
    presets = [NO_PRESET, *PRESETS]
    parser = argparse.ArgumentParser(
        prog="ndcg-eval",
        description="NDCG of one or more TREC runs against relevance judgements (qrels), printed as "
        "trec_eval prints it. Files may be gzip, bzip2, xz or Zstandard compressed; '-' reads "
        "standard input.",
        epilog="Measures: trec_eval's ndcg, ndcg_cut.5,10 (its default cutoffs without a list), "
        "ndcg.1=3,2=9 (gains per relevance level), runid, num_q; ir_measures' nDCG, nDCG@10. "
        f"Default: {' '.join(DEFAULT_MEASURES)}. Exit status 2: bad input or usage.",
    )
    parser.add_argument("qrels", metavar="QRELS", help="relevance judgements: TREC qrels or CSV/TSV")
    parser.add_argument("runs", metavar="RUN", nargs="+", help="ranked results: TREC run or CSV/TSV")
    parser.add_argument(
        "-m",
        "--measure",
        action="append",
        metavar="MEASURE",
        help="a measure to print (repeatable); default: ndcg and ndcg_cut (trec_eval's cutoffs)",
    )
    parser.add_argument(
        "--preset",
        default="trec_eval",
        choices=presets,
        metavar="NAME",
        help=f"whose NDCG: a library preset ({', '.join(PRESETS)}) or '{NO_PRESET}' for ndcg_core's "
        "plain default; default trec_eval",
    )
    parser.add_argument("-q", action="store_true", help="print every query's values, then the mean")
    parser.add_argument(
        "-c",
        action="store_true",
        help="average over every query of the qrels: a query the run misses scores 0 (trec_eval -c)",
    )
    parser.add_argument(
        "-M",
        type=int,
        metavar="N",
        help="score only each query's first N documents, in trec_eval's order (trec_eval -M)",
    )
    parser.add_argument("--format", choices=FORMATS, default="trec", help="output format (default trec)")
    parser.add_argument(
        "--max-size",
        type=_size,
        default=DEFAULT_LIMITS.max_bytes,
        metavar="SIZE",
        help="refuse a file whose content (decompressed) is larger than this, such as 50G "
        f"(default {size_text(DEFAULT_LIMITS.max_bytes)}: a small .gz can expand to gigabytes)",
    )
    parser.add_argument(
        "--max-line",
        type=_size,
        default=DEFAULT_LIMITS.max_line,
        metavar="SIZE",
        help=f"refuse a file with a line longer than this (default {size_text(DEFAULT_LIMITS.max_line)})",
    )
    parser.add_argument(
        "--threads",
        type=int,
        metavar="N",
        help="threads for reading and scoring (default: $NDCG_THREADS, else up to 2)",
    )
    group = parser.add_argument_group(
        "comparing runs", "--compare: two runs or more, paired query by query (needs scipy)"
    )
    group.add_argument(
        "--compare",
        action="store_true",
        help="compare the runs at each measure: means marked as ranx marks them, deltas, win/tie/loss, "
        "paired t-test and randomization test, corrected for the number of pairs",
    )
    group.add_argument(
        "--test", choices=("t", "randomization"), default="t", help="which test marks (default t)"
    )
    group.add_argument(
        "--correction", choices=("holm", "bonferroni", "bh", "none"), default="holm", help="default holm"
    )
    group.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    group.add_argument("--permutations", type=int, default=10_000, help="randomization test (default 10000)")
    group.add_argument("--seed", type=int, default=0, help="randomization test's seed (default 0)")
    return parser


def _size(text: str) -> int:
    """``--max-size`` and ``--max-line``: a size such as 4G (argparse's message when it is not one)."""
    try:
        return parse_size(text)
    except NDCGError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _labels(sources: list[_Source], limits: ReadLimits) -> list[str]:
    """Each run's runid: its TREC tag when the runs' tags are all there and all differ, else its file."""
    if len(sources) == 1:
        return [sources[0].tag(limits) or sources[0].name]
    tags = [s.tag(limits) for s in sources]
    if None not in tags and len(set(tags)) == len(tags):
        return [str(t) for t in tags]
    return [s.name for s in sources]


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


def main(argv: Sequence[str] | None = None, *, stdin: Any = None, stdout: TextIO | None = None) -> int:
    """Run ``ndcg-eval`` with these arguments (default: the command line's); the exit status.

    0 on success; 2 on bad input (a message naming the file and line goes to standard error) or
    bad usage (argparse's message).
    """
    parser = _parser()
    args = parser.parse_args(argv)
    out = stdout if stdout is not None else sys.stdout
    stdin = stdin if stdin is not None else sys.stdin.buffer
    paths = [args.qrels, *args.runs]
    if paths.count("-") > 1:
        parser.error("only one file can be read from standard input ('-')")
    if args.M is not None and args.M < 1:
        parser.error(f"-M must be at least 1, got {args.M}")
    limits = ReadLimits(args.max_size, args.max_line, "--max-size", "--max-line")
    try:
        threads = resolve_threads(args.threads)
        measures = parse_measures(args.measure or DEFAULT_MEASURES)
        spec = _spec(args.preset, args.c)
        qrels_source = _load(args.qrels, stdin, limits)
        sources = [_load(path, stdin, limits) for path in args.runs]
        qrels = read_qrels(qrels_source.open(), threads=threads, limits=limits)
        runs = [read_run(s.open(), threads=threads, limits=limits) for s in sources]
        if args.M is not None:
            runs = [_top_documents(run, args.M) for run in runs]
        labels = _labels(sources, limits)
        if args.compare:
            if len(runs) < 2:
                parser.error("--compare needs two runs or more")
            try:
                status = _compare(args, qrels, dict(zip(labels, runs, strict=True)), spec, measures, out)
                out.flush()
            except BrokenPipeError:
                _quiet_stdout()
                status = 0
            return status
        if len(runs) > 1 and args.format == "trec" and not any(m.kind == "runid" for m in measures):
            measures = [Measure("runid", kind="runid", order=(0, 0, 0)), *measures]  # trec_eval's convention
        results = [
            _score(qrels, run, source, label, measures, spec, threads)
            for run, source, label in zip(runs, sources, labels, strict=True)
        ]
    except NDCGError as err:
        print(f"ndcg-eval: {err}", file=sys.stderr)
        return 2
    try:
        if args.format == "trec":
            _write_trec(out, results, measures, args.q)
        else:
            _write_table(out, args.format, results, measures, args.q)
        out.flush()
    except BrokenPipeError:
        _quiet_stdout()
    return 0


def _quiet_stdout() -> None:
    """`ndcg-eval ... | head`: the reader has what it wanted; no error at exit for the closed pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":  # python -m ndcg_core.cli
    sys.exit(main())

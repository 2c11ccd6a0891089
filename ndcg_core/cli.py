"""``ndcg-eval``: NDCG of TREC runs from the command line, printed as trec_eval prints it.

::

    ndcg-eval qrels.txt run.txt                      # ndcg and ndcg_cut_5 ... ndcg_cut_1000, mean
    ndcg-eval -q -m ndcg_cut.10 qrels.txt run.txt    # NDCG@10 of every query, then the mean
    ndcg-eval -m nDCG@10 --format csv qrels run1 run2.gz
    zcat run.gz | ndcg-eval qrels.txt -              # '-' reads standard input

Measures (``-m``, repeatable, or several in one quoted argument) are spelled as trec_eval spells
them (``ndcg``, ``ndcg_cut.5,10``, ``ndcg.1=3,2=9`` for a gain per relevance level, ``ndcg_rel``,
``unj.5,10``, ``runid``, ``num_q``) or as ir_measures does (``nDCG``, ``nDCG@10``, ``Judged@10``;
ranx's ``ndcg@10`` too). Scores follow ``--preset`` (default ``trec_eval``, whose numbers these are;
``none`` for the library's plain default). The default output is trec_eval's:
``measure<TAB>query<TAB>value``, the measure padded to 22 characters and values with 4 decimals,
``all`` for the mean; ``-q`` adds every query first. Several runs print one after another, each
with trec_eval's ``runid`` line. trec_eval's options are accepted: ``-c``, ``-M``, ``-J`` and ``-n``
act as in trec_eval; ``-l``, ``-D``, ``-N`` and ``-o`` change none of these measures and say so on
standard error. Bad input exits with status 2 and a message naming the file and line.

Small plain files are read and scored with numpy alone (:mod:`ndcg_core.dataset.lean`): a new
process then imports neither pandas nor pyarrow, and a 200-query run takes less time than
pytrec_eval's. Anything else goes through :func:`ndcg_core.read_qrels`, :func:`ndcg_core.read_run`
and :func:`ndcg_core.evaluate`; the numbers are the same to the bit.

The measures parser is :func:`parse_measures`; :func:`main` is the entry point. ``--compare``
hands two runs or more to ``ndcg_core.compare_runs`` at each measure (see :func:`_compare`), where
that module is installed; ``--robustness`` asks whether the runs' order depends on the formula
(:mod:`ndcg_core.dataset.robustness`).
"""

from __future__ import annotations

import argparse
import io
import math
import os
import re
import sys
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

import numpy as np

from .cli_options import _FORMATS, _NO_EFFECT, DEFAULT_MEASURES, FORMATS, NO_PRESET, _parser, _preset_names
from .cli_output import _compare, _robustness, _with_gains, _write_table, _write_trec
from .dataset import lean
from .dataset.overlap import NDCGWarning, check_queries
from .dataset.sources import (
    DEFAULT_LIMITS,
    ReadLimits,
    check_lines,
    check_size,
    compression_of,
    decompress,
    open_decompressed,
)
from .dataset.threads import resolve_threads
from .errors import Message, NDCGError

if TYPE_CHECKING:  # pandas, the presets and specs are imported only where a file is not read the lean way
    import pandas as pd

    from .spec import Spec

__all__ = ["FORMATS", "TREC_CUTOFFS", "Measure", "main", "parse_measures"]

#: trec_eval's cutoffs for ``ndcg_cut`` without parameters (and what ``-m all_trec`` prints).
TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)

#: trec_eval prints measures in the order of its own table, whatever order they were asked in.
_TREC_ORDER = {"runid": 0, "num_q": 1, "ndcg": 2, "ndcg_rel": 3, "ndcg_cut": 4, "unj": 5}

#: trec_eval's cutoffs for ``unj`` without parameters.
UNJ_CUTOFFS = (5, 10, 20)

_IR_MEASURES = re.compile(r"^(nDCG|NDCG|ndcg)(?:@(\d+))?$")
_JUDGED = re.compile(r"^([Jj]udged)(?:@(\d+))?$")
_TREC_CUT = re.compile(r"^ndcg_cut(?:[._](.+))?$")
_TREC_GAINS = re.compile(r"^ndcg[._](.+=.+)$")
_TREC_REL = re.compile(r"^ndcg_rel(?:[._](.+=.+))?$")
_TREC_UNJ = re.compile(r"^unj(?:[._](.+))?$")


class Measure(NamedTuple):
    """One printed measure: its name as printed, what it is, and its cutoff or gains.

    ``kind`` is ``"ndcg"`` (``k`` its cutoff, None for none; ``gains`` trec_eval's per-level gain
    parameters, if any), ``"ndcg_rel"`` (trec_eval's NDCG averaged over relevant documents;
    ``gains`` as for ``ndcg``), ``"unj"`` (trec_eval's share of unjudged documents in the top ``k``),
    ``"judged"`` (ir_measures' ``Judged@k``: the share of judged documents in the top ``k``),
    ``"runid"`` (the run's name) or ``"num_q"`` (the queries averaged). ``order`` places it as
    trec_eval would print it. (A named tuple: this module is on the command's start-up, where a
    dataclass costs a few ms to build.)
    """

    name: str
    kind: str = "ndcg"
    k: int | None = None
    gains: tuple[tuple[int, float], ...] | None = None
    order: tuple[int, int, int] = (9, 0, 0)

    @property
    def summary_only(self) -> bool:
        """trec_eval prints these on the ``all`` line only."""
        return self.kind in ("runid", "num_q")


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
    ``ndcg_rel``, ``ndcg_cut``, ``unj``, cutoffs ascending); ir_measures' spellings follow in the
    order given.

    >>> [m.name for m in parse_measures(["nDCG@10", "ndcg_cut.20,5", "ndcg", "Judged@10", "unj"])]
    ['ndcg', 'ndcg_cut_5', 'ndcg_cut_20', 'unj_5', 'unj_10', 'unj_20', 'nDCG@10', 'Judged@10']
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


def _gain_pairs(word: str, text: str, negative: bool = False) -> tuple[tuple[int, float], ...]:
    """trec_eval's ``level=gain`` parameters (``1=3,2=9``); gains of at least 0 unless ``negative``."""
    gains = []
    for pair in text.split(","):
        level, _, gain = pair.partition("=")
        try:
            entry = (int(level), float(gain))
        except ValueError:
            raise NDCGError("bad_measure_gain", measure=repr(word), text=repr(pair)) from None
        if not math.isfinite(entry[1]) or (entry[1] < 0 and not negative):
            raise NDCGError("bad_measure_gain", measure=repr(word), text=repr(pair))
        gains.append(entry)
    return tuple(gains)


def _parse_one(word: str, at: int) -> list[Measure]:
    if word in ("runid", "num_q"):
        return [Measure(word, kind=word, order=(0, _TREC_ORDER[word], 0))]
    if word == "ndcg":
        return [Measure("ndcg", order=(0, _TREC_ORDER["ndcg"], 0))]
    if match := _TREC_CUT.match(word):
        params = match.group(1)
        cutoffs = TREC_CUTOFFS if params is None else [_cutoff(p, word) for p in params.split(",")]
        return [Measure(f"ndcg_cut_{k}", k=k, order=(0, _TREC_ORDER["ndcg_cut"], k)) for k in cutoffs]
    if match := _TREC_REL.match(word):
        params = match.group(1)
        if params is None:
            return [Measure("ndcg_rel", kind="ndcg_rel", order=(0, _TREC_ORDER["ndcg_rel"], 0))]
        # trec_eval allows ndcg_rel's gains to be 0 or negative
        gains = _gain_pairs(word, params, negative=True)
        return [
            Measure(
                f"ndcg_rel_{params}", kind="ndcg_rel", gains=gains, order=(0, _TREC_ORDER["ndcg_rel"], at)
            )
        ]
    if match := _TREC_UNJ.match(word):
        params = match.group(1)
        cutoffs = UNJ_CUTOFFS if params is None else [_cutoff(p, word) for p in params.split(",")]
        return [Measure(f"unj_{k}", kind="unj", k=k, order=(0, _TREC_ORDER["unj"], k)) for k in cutoffs]
    if match := _TREC_GAINS.match(word):
        gains = _gain_pairs(word, match.group(1))
        return [Measure(f"ndcg_{match.group(1)}", gains=gains, order=(0, _TREC_ORDER["ndcg"], at))]
    if match := _IR_MEASURES.match(word):
        k = None if match.group(2) is None else _cutoff(match.group(2), word)
        return [Measure(word, k=k, order=(1, at, 0))]
    if match := _JUDGED.match(word):
        k = None if match.group(2) is None else _cutoff(match.group(2), word)
        return [Measure(word, kind="judged", k=k, order=(1, at, 0))]
    raise NDCGError("unknown_measure", measure=repr(word))


# ------------------------------------------------------------------ reading


class _Source:
    """A file named on the command line, and a name for messages. A file is read by its path (so
    the readers can map a large one instead of copying it); standard input ('-') is read at once
    and kept as ``data``."""

    def __init__(self, path: str, data: bytes | None = None):
        self.path, self.data = path, data

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

    def content(self, limits: ReadLimits) -> bytes | None:
        """Its whole content, decompressed and held to ``limits`` as the readers hold it; None for
        what is not a regular file or standard input (a pipe: the readers read it)."""
        if self.data is not None:
            raw = self.data
        elif os.path.isfile(self.path):
            check_size(os.path.getsize(self.path), self.name, limits)
            with open(self.path, "rb") as fh:
                raw = fh.read()
        else:
            return None
        check_size(len(raw), self.name, limits)
        if compression_of(raw) is not None:
            return bytes(decompress(raw, self.name, limits))
        check_lines(raw, self.name, limits)
        return raw

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
    out = ranked.groupby("query", sort=False).head(m).drop(columns="_score").sort_index()
    out.attrs = dict(run.attrs)
    return out


def _judged_only(qrels: pd.DataFrame, run: pd.DataFrame) -> pd.DataFrame:
    """trec_eval -J: the run's documents that have a judgement of at least 0 (rows keep their order)."""
    import pandas as pd

    judged = qrels.loc[qrels["relevance"] >= 0, ["query", "doc"]]
    keep = pd.MultiIndex.from_frame(run[["query", "doc"]]).isin(pd.MultiIndex.from_frame(judged))
    out = run[keep]
    out.attrs = dict(run.attrs)
    return out


# ------------------------------------------------------------------ scoring


def _spec(preset: str, all_queries: bool, duplicates: str = "error") -> Spec:
    if preset == NO_PRESET:
        from .dataset.scoring import DATASET_BASE

        spec = DATASET_BASE
    else:
        from .presets import resolve

        spec = resolve(preset)
    spec = replace(spec, duplicates=duplicates)
    return replace(spec, queries="qrels") if all_queries else spec


class _Result(NamedTuple):
    """One run's numbers: each measure's value per query and its mean."""

    label: str
    path: str
    queries: list[str]
    values: dict[str, dict[str, float]]  # measure -> query -> value
    means: dict[str, Any]  # measure -> mean (runid: text, num_q: count)


class _Options(NamedTuple):
    """What the command line asks of the scoring, whichever path scores: the preset's name and
    ``-c`` (the spec is built only where the full readers score), ``--duplicates``, threads, -M, -J."""

    preset: str
    all_queries: bool
    duplicates: str
    threads: int
    max_docs: int | None
    judged_only: bool

    def spec(self) -> Spec:
        return _spec(self.preset, self.all_queries, self.duplicates)


def _other_values(ranked: lean.Ranked, measures: list[Measure]) -> dict[str, np.ndarray]:
    """ndcg_rel, unj and Judged@k of every query (by ``ranked.labels``), whichever path read the files."""
    out = {}
    for m in measures:
        if m.kind == "ndcg_rel":
            out[m.name] = lean.ndcg_rel(ranked, dict(m.gains or ()))
        elif m.kind == "unj":
            out[m.name] = lean.unjudged_at(ranked, m.k)
        elif m.kind == "judged":
            out[m.name] = lean.judged_at(ranked, m.k if m.k is not None else 1 << 62)
    return out


def _result(label: str, source: _Source, queries: list[str], values, measures) -> _Result:
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


def _check_overlap(run_queries, qrels_queries, run: _Source, qrels: _Source) -> None:
    """No query in common: an error (as trec_eval's "No queries with both results and relevance
    info"); few: a warning on standard error. Both name the files and a few ids of each."""
    problem = check_queries(run_queries, qrels_queries, run_name=run.name, qrels_name=qrels.name)
    if problem is None:
        return
    if problem.code == "no_query_in_common":
        raise NDCGError.of(problem)
    print(f"ndcg-eval: warning: {problem}", file=sys.stderr)


def _lean_results(
    qrels_source: _Source, sources: list[_Source], labels_of, measures, options: _Options, limits: ReadLimits
) -> list[_Result] | None:
    """Every run's numbers the lean way (numpy alone), or None when the files are not small and
    plain (then the full readers read them). Only for trec_eval's numbers (the default preset)."""
    if options.preset != "trec_eval":
        return None
    if sum(s.size() for s in (qrels_source, *sources)) > lean.LEAN_BYTES:  # compressed: read to know
        return None
    contents = []
    for source in (qrels_source, *sources):
        data = source.content(limits)
        if data is None or len(data) > lean.LEAN_BYTES:
            return None
        contents.append(data)
    if sum(map(len, contents)) > lean.LEAN_BYTES:
        return None
    qrels = lean.parse(contents[0], "qrels")
    runs = [lean.parse(data, "run") for data in contents[1:]]
    if qrels is None or any(run is None for run in runs):
        return None
    ranked = [
        lean.rank(qrels, run, max_docs=options.max_docs, judged_only=options.judged_only) for run in runs
    ]
    if any(r is None for r in ranked):  # a pair listed twice: the readers name it (or keep the max)
        return None
    labels = labels_of()
    results = []
    for r, source, label in zip(ranked, sources, labels, strict=True):
        ids = [x.decode() for x in r.labels.tolist()]
        _check_overlap(
            [ids[i] for i in np.flatnonzero(r.in_run)], [ids[i] for i in np.flatnonzero(r.in_qrels)],
            source, qrels_source,
        )  # fmt: skip
        keep = r.in_qrels if options.all_queries else r.in_run & r.in_qrels
        queries = [ids[i] for i in np.flatnonzero(keep)]
        values: dict[str, dict[str, float]] = {}
        plain = [m for m in measures if m.kind == "ndcg"]
        cutoffs = list(dict.fromkeys(m.k for m in plain if m.gains is None))
        by_cutoff = lean.ndcg_at(r, cutoffs) if cutoffs else {}
        columns = {}
        for m in plain:
            if m.gains is None:
                columns[m.name] = by_cutoff[m.k]
            else:
                columns[m.name] = lean.ndcg_at(r, [None], _gain_table(m.gains, qrels.value))[None]
        columns.update(_other_values(r, measures))
        for name, column in columns.items():
            values[name] = dict(zip(queries, column[keep].tolist(), strict=True))
        results.append(_result(label, source, queries, values, measures))
    return results


def _gain_table(gains: tuple[tuple[int, float], ...], grades: np.ndarray) -> dict[float, float]:
    """As :func:`_with_gains`: every level of the qrels (negative ones as 0) its own gain, unless given."""
    levels = np.maximum(np.asarray(grades, dtype=float), 0.0)
    table = {float(g): float(g) for g in np.unique(np.append(levels, 0.0))}
    table.update({float(level): gain for level, gain in gains})
    return table


def _columns(frame: pd.DataFrame, value: str) -> lean.Columns:
    return lean.Columns.of(frame["query"].astype(str), frame["doc"].astype(str), frame[value].to_numpy(float))


def _deduplicated(frame: pd.DataFrame, value: str) -> pd.DataFrame:
    """``--duplicates max`` for the measures :mod:`.lean` computes: each pair's highest value (the first)."""
    order = frame.reset_index(drop=True).sort_values(value, ascending=False, kind="stable")
    return order.drop_duplicates(["query", "doc"]).sort_index()


def _score(qrels, run, source: _Source, label: str, measures, options: _Options) -> _Result:
    """One run's numbers, read by the full readers: NDCG from :func:`ndcg_core.evaluate`."""
    from .dataset.scoring import evaluate

    spec, threads = options.spec(), options.threads
    for_ndcg = run
    if options.max_docs is not None:
        for_ndcg = _top_documents(for_ndcg, options.max_docs)
    if options.judged_only:
        for_ndcg = _judged_only(qrels, for_ndcg)
    plain = [m for m in measures if m.kind == "ndcg" and m.gains is None]
    values: dict[str, dict[str, float]] = {}
    cutoffs = list(dict.fromkeys(m.k for m in plain)) or [1]  # the queries, and every check, in any case
    with warnings.catch_warnings():  # the command line said what it had to about the queries
        warnings.simplefilter("ignore", NDCGWarning)
        table = evaluate(qrels, for_ndcg, cutoffs, spec=spec, threads=threads)
        queries = table["query"].astype(str).tolist()
        for m in plain:
            column = "ndcg" if m.k is None else f"ndcg@{m.k}"
            values[m.name] = dict(zip(queries, table[column].tolist(), strict=True))
        for m in measures:
            if m.kind == "ndcg" and m.gains is not None:
                gain_spec = _with_gains(spec.with_k(None), m.gains, qrels)
                table = evaluate(qrels, for_ndcg, spec=gain_spec, threads=threads)
                values[m.name] = dict(
                    zip(table["query"].astype(str).tolist(), table["ndcg"].tolist(), strict=True)
                )
    others = [m for m in measures if m.kind in ("ndcg_rel", "unj", "judged")]
    if others:
        q_frame, r_frame = qrels, run
        if spec.duplicates == "max":
            q_frame, r_frame = _deduplicated(qrels, "relevance"), _deduplicated(run, "score")
        ranked = lean.rank(
            _columns(q_frame, "relevance"),
            _columns(r_frame, "score"),
            max_docs=options.max_docs,
            judged_only=options.judged_only,
        )
        where = {q.decode(): i for i, q in enumerate(ranked.labels.tolist())}
        for name, column in _other_values(ranked, others).items():
            values[name] = {q: float(column[where[q]]) for q in queries}
    return _result(label, source, queries, values, measures)


# ------------------------------------------------------------------ the command


def _labels(sources: list[_Source], limits: ReadLimits) -> list[str]:
    """Each run's runid: its TREC tag when the runs' tags are all there and all differ, else its file."""
    if len(sources) == 1:
        return [sources[0].tag(limits) or sources[0].name]
    tags = [s.tag(limits) for s in sources]
    if None not in tags and len(set(tags)) == len(tags):
        return [str(t) for t in tags]
    return [s.name for s in sources]


#: The fixes the library's messages offer, as the command line spells them.
_CLI_FIXES = {
    "fix_duplicates_grade": Message("cli_fix_duplicates_grade"),
    "fix_duplicates_score": Message("cli_fix_duplicates_score"),
    "fix_grades_preset": Message("cli_fix_grades_preset"),
    "fix_roles": Message("cli_fix_roles"),
}


def _for_the_command_line(err: NDCGError) -> NDCGError:
    """The error with its fix spelled as an option of this command (``--duplicates max``, not
    ``duplicates='max'``), when it offers one."""
    fix = err.values.get("fix")
    if isinstance(fix, Message) and fix.code in _CLI_FIXES:
        return err.with_values(fix=_CLI_FIXES[fix.code])
    return err


def _trec_eval_options(args: argparse.Namespace) -> list[Message]:
    """trec_eval's options that change nothing here: a note each (returned, for standard error); a
    file format or z-scores that ndcg-eval does not read: an error."""
    notes = []
    for key, (flag, what) in _NO_EFFECT.items():
        value = getattr(args, key)
        if value is not None:
            shown = f"{flag} {value}" if value else flag
            notes.append(Message("flag_ignored", flag=shown, what=what))
    for key, (flag, supported) in _FORMATS.items():
        value = getattr(args, key)
        if value is not None and value != supported:
            raise NDCGError("flag_format", flag=flag, value=repr(value), supported=repr(supported))
    if args.zscore is not None:
        raise NDCGError("flag_unsupported", flag=f"-Z {args.zscore}", what=Message("flag_zscore"))
    return notes


def _read_all(qrels_source: _Source, sources: list[_Source], threads: int, limits: ReadLimits):
    """The qrels and every run, read by the full readers."""
    from .dataset.tables import read_qrels, read_run

    qrels = read_qrels(qrels_source.open(), threads=threads, limits=limits)
    return qrels, [read_run(s.open(), threads=threads, limits=limits) for s in sources]


def _queries_of(frame: pd.DataFrame) -> list[str]:
    import pandas as pd

    return [str(q) for q in pd.unique(frame["query"])]


def main(argv: Sequence[str] | None = None, *, stdin: Any = None, stdout: TextIO | None = None) -> int:
    """Run ``ndcg-eval`` with these arguments (default: the command line's); the exit status.

    0 on success; 2 on bad input (a message naming the file and line goes to standard error) or
    bad usage (argparse's message).
    """
    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = _parser(help_wanted=any(a in ("-h", "--help") or a.startswith("--he") for a in arguments))
    args = parser.parse_args(arguments)
    if args.preset != "trec_eval" and args.preset not in _preset_names():
        parser.error(
            f"argument --preset: invalid choice: {args.preset!r} (choose from {', '.join(_preset_names())})"
        )
    out = stdout if stdout is not None else sys.stdout
    stdin = stdin if stdin is not None else sys.stdin.buffer
    paths = [args.qrels, *args.runs]
    if paths.count("-") > 1:
        parser.error("only one file can be read from standard input ('-')")
    if args.M is not None and args.M < 1:
        parser.error(f"-M must be at least 1, got {args.M}")
    if (args.compare or args.robustness) and len(args.runs) < 2:
        parser.error(f"{'--compare' if args.compare else '--robustness'} needs two runs or more")
    limits = ReadLimits(args.max_size, args.max_line, "--max-size", "--max-line")
    try:
        for note in _trec_eval_options(args):
            print(f"ndcg-eval: {note}", file=sys.stderr)
        threads = resolve_threads(args.threads)
        measures = parse_measures(args.measure or DEFAULT_MEASURES)
        options = _Options(args.preset, args.c, args.duplicates, threads, args.M, args.J)
        qrels_source = _load(args.qrels, stdin, limits)
        sources = [_load(path, stdin, limits) for path in args.runs]
        if args.compare or args.robustness:
            qrels, runs = _read_all(qrels_source, sources, threads, limits)
            labels = _labels(sources, limits)
            for run, source in zip(runs, sources, strict=True):
                _check_overlap(_queries_of(run), _queries_of(qrels), source, qrels_source)
            if args.M is not None:
                runs = [_top_documents(run, args.M) for run in runs]
            if args.J:
                runs = [_judged_only(qrels, run) for run in runs]
            named = dict(zip(labels, runs, strict=True))
            spec = options.spec()
            try:
                if args.compare:
                    status = _compare(args, qrels, named, spec, measures, out)
                else:
                    status = _robustness(args, qrels, named, spec, measures, out)
                out.flush()
            except BrokenPipeError:
                _quiet_stdout()
                status = 0
            return status
        if len(sources) > 1 and args.format == "trec" and not any(m.kind == "runid" for m in measures):
            measures = [Measure("runid", kind="runid", order=(0, 0, 0)), *measures]  # trec_eval's convention
        results = _lean_results(
            qrels_source, sources, lambda: _labels(sources, limits), measures, options, limits
        )
        if results is None:
            qrels, runs = _read_all(qrels_source, sources, threads, limits)
            labels = _labels(sources, limits)
            results = []
            for run, source, label in zip(runs, sources, labels, strict=True):
                _check_overlap(_queries_of(run), _queries_of(qrels), source, qrels_source)
                results.append(_score(qrels, run, source, label, measures, options))
    except NDCGError as err:
        print(f"ndcg-eval: {_for_the_command_line(err)}", file=sys.stderr)
        return 2
    try:
        if args.format == "trec":
            _write_trec(out, results, measures, args.q, not args.n)
        else:
            _write_table(out, args.format, results, measures, args.q, not args.n)
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

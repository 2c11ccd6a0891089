"""The Data sets page's loaded files, and what a set of uploads makes of them, as values.

A :class:`DataSetFiles` names the loaded data set by its tables' store keys (the page keeps the
tables themselves elsewhere, once per server). :func:`after_upload` holds the page's rules for
files as they arrive: a qrels file with runs replaces the data set; runs alone join the loaded
ones (five at most, one file loaded twice is one run); a qrels file alone is scored with the loaded
runs; but on the bundled sample, a run waits for its qrels and a qrels file for its runs.

>>> sample = DataSetFiles("sample-qrels", "sample", (("sample run", "sample-run"),), sample=True)
>>> after_upload(sample, [], [("r.txt", "k1")])
Awaiting(kind='qrels')
>>> own = after_upload(sample, [("q.txt", "kq")], [("r.txt", "k1")])
>>> own
DataSetFiles(qrels='kq', qrels_name='q.txt', runs=(('r.txt', 'k1'),), sample=False)
>>> after_upload(own, [], [("r.txt", "k2")]).runs  # a second run of the same name
(('r.txt', 'k1'), ('r.txt (2)', 'k2'))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

__all__ = ["MAX_RUNS", "Awaiting", "DataSetFiles", "TooManyRuns", "after_upload", "unique_runs"]

#: The runs a data set compares at most.
MAX_RUNS = 5


@dataclass(frozen=True)
class DataSetFiles:
    """A loaded data set: its qrels' store key and file name, each run's (name, store key), and
    whether it is the bundled sample."""

    qrels: str
    qrels_name: str
    runs: tuple[tuple[str, str], ...]
    sample: bool = False

    @property
    def tables(self) -> tuple[str, ...]:
        """The store keys of its tables, the qrels' first: what the data set is, whatever its names."""
        return (self.qrels, *(key for _, key in self.runs))

    def without(self, run: tuple[str, str]) -> DataSetFiles:
        """This data set without ``run`` (its name and key, never its place in the list: a second
        press of a Remove button must not remove the run that moved up into that place)."""
        return replace(self, runs=tuple(r for r in self.runs if tuple(r) != tuple(run)))


@dataclass(frozen=True)
class Awaiting:
    """Nothing loads yet: the uploaded files wait for a file of ``kind`` ("qrels" or "run")."""

    kind: str


@dataclass(frozen=True)
class TooManyRuns:
    """Nothing loads: the uploads would make ``n`` runs, more than :data:`MAX_RUNS`."""

    n: int


def unique_runs(runs: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """Runs by content (one file loaded twice is one run), each with a name of its own."""
    out, names, seen = [], set(), set()
    for name, key in runs:
        if key in seen:
            continue
        seen.add(key)
        shown, n = name, 2
        while shown in names:
            shown, n = f"{name} ({n})", n + 1
        names.add(shown)
        out.append((shown, key))
    return tuple(out)


def after_upload(
    loaded: DataSetFiles,
    qrels: Sequence[tuple[str, str]],
    runs: Sequence[tuple[str, str]],
    max_runs: int = MAX_RUNS,
) -> DataSetFiles | Awaiting | TooManyRuns | None:
    """What the uploaders' files, read and stored as (name, key), make of the ``loaded`` data set:
    the data set to score (then load), what they wait for, or too many runs; None when the
    uploaders hold nothing."""
    if not qrels and not runs:
        return None
    if loaded.sample and not qrels:
        return Awaiting("qrels")  # a run is not scored against the sample's judgements
    if loaded.sample and not runs:
        return Awaiting("run")
    if qrels:
        qrels_name, qrels_key = qrels[0]
        together = unique_runs(runs or loaded.runs)
    else:
        qrels_name, qrels_key = loaded.qrels_name, loaded.qrels
        together = unique_runs([*loaded.runs, *runs])
    if len(together) > max_runs:
        return TooManyRuns(len(together))
    return DataSetFiles(qrels_key, qrels_name, together)

"""TREC measures on plain arrays, with numpy alone: the command line's path for small files.

A new process that imports pandas (and pyarrow) spends about 0.35 s of CPU on the imports before it
reads a byte; pytrec_eval's whole job on a TREC Deep Learning track's 200-query run is about 0.25 s.
So ``ndcg-eval`` reads small plain TREC files here (:func:`parse`: one split of the bytes, every
line checked to hold exactly the TREC fields) and scores them with numpy (:func:`rank`,
:func:`ndcg_at`), importing neither. Anything :func:`parse` is not sure of (a comment, a blank or
short line, a word where a number goes, a byte outside printable ASCII, a pair listed twice, a
fractional grade) returns None, and the caller reads the files with
:func:`ndcg_core.read_qrels` / :func:`ndcg_core.read_run` and scores them with
:func:`ndcg_core.evaluate`, which name the file and line of any problem. The values are those
``evaluate(..., preset="trec_eval")`` gives, to the bit: the same gains and divisors summed in the
same order (``tests/engine/test_lean.py`` checks both paths on trec_eval's files and random ones).

The other trec_eval measures of the command line are computed here for both paths, from a
:class:`Ranked` built from the arrays of either: :func:`ndcg_rel` (trec_eval's ``ndcg_rel``),
:func:`unjudged_at` (``unj``) and :func:`judged_at` (``Judged@k``).

>>> qrels = parse(b"q1 0 a 2\\nq1 0 b 1\\nq1 0 c 0\\n", "qrels")
>>> run = parse(b"q1 Q0 c 1 0.9 r\\nq1 Q0 a 2 0.8 r\\nq1 Q0 x 3 0.7 r\\n", "run")
>>> ranked = rank(qrels, run)
>>> [round(float(v), 4) for v in ndcg_at(ranked, [None, 2])[2]]  # (0 + 2/log2 3) / (2 + 1/log2 3)
[0.4796]
>>> judged_at(ranked, 3).tolist(), unjudged_at(ranked, 5).tolist()
([0.6666666666666666], [0.2])
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

__all__ = [
    "LEAN_BYTES",
    "Columns",
    "Ranked",
    "judged_at",
    "ndcg_at",
    "ndcg_rel",
    "parse",
    "rank",
    "unjudged_at",
]

#: Files (together, as read: decompressed) up to this size take the lean path on the command line.
#: Past it, the imports the full readers need cost less than what their speed saves (a 1M-line run
#: is about 35 MB; docs/performance.md has the measurements).
LEAN_BYTES = 24 << 20


class Columns(NamedTuple):
    """One file's three columns: query and document ids (bytes: numpy ``S`` arrays) and a number each.

    (Named tuples, not dataclasses, here and in :class:`Ranked`: a dataclass compiles its methods
    when its module is imported, a few ms each, and this module is on the command line's start-up.)
    """

    query: np.ndarray
    doc: np.ndarray
    value: np.ndarray

    @property
    def rows(self) -> int:
        return int(self.value.size)

    @classmethod
    def of(cls, query: Sequence, doc: Sequence, value: Sequence[float]) -> Columns:
        """Columns from ids as text (encoded as UTF-8, whose byte order is the text's order)."""
        as_bytes = [np.array([str(x).encode() for x in ids], dtype=bytes) for ids in (query, doc)]
        return cls(*as_bytes, np.asarray(value, dtype=float))


def parse(data: bytes, kind: str) -> Columns | None:
    """A plain TREC qrels (``kind="qrels"``) or run file's columns; None when it is not plain.

    Plain: printable ASCII; one delimiter (a single space, or a single tab) between fields and
    exactly 4 (qrels) or 6 (run) fields on every line; no blank or comment line; every grade a
    whole number, every score and rank a finite number. Anything else is None: the full readers
    then read the file, and name what they refuse. The fields are cut out of the bytes with numpy
    (no Python object per field: a 200k-line run takes about 50 ms).
    """
    if not data or not data.isascii():
        return None
    if not data.endswith(b"\n"):
        data += b"\n"
    width = 4 if kind == "qrels" else 6
    sep = 9 if b"\t" in data else 32
    b = np.frombuffer(data, dtype=np.uint8)
    newlines = np.flatnonzero(b == 10)
    seps = np.flatnonzero(b == sep)
    lines = newlines.size
    # printable ASCII, the delimiter and line breaks only (no CR, NUL, escape, nor both delimiters)
    if b"\x7f" in data or int(np.count_nonzero(b <= 32)) != lines + seps.size:
        return None
    # exactly width - 1 delimiters in every line, none at either end, none doubled: no empty field
    if seps.size != (width - 1) * lines:
        return None
    at = seps.reshape(lines, width - 1)
    starts = np.concatenate(([0], newlines[:-1] + 1))
    if not ((at[:, 0] > starts).all() and (at[:, -1] < newlines - 1).all()):
        return None
    if not (np.diff(at, axis=1) > 1).all():
        return None
    if kind == "qrels" and (b[starts] == ord("#")).any():  # comment lines: the reader skips them
        return None
    bounds = np.column_stack([starts - 1, at, newlines])  # field j: bounds[j] + 1 .. bounds[j + 1]
    longest = int(np.diff(bounds, axis=1).max())
    windows = sliding_window_view(np.concatenate([b, np.zeros(longest, dtype=np.uint8)]), longest)

    def field(j: int) -> tuple[np.ndarray, np.ndarray]:
        return _cut(windows, bounds[:, j] + 1, bounds[:, j + 1])

    value_at = 3 if kind == "qrels" else 4
    value = _numbers(*field(value_at))
    if value is None or (kind == "run" and not _is_numbers(*field(3))):  # a run's rank is a number too
        return None
    if kind == "qrels" and (value != np.floor(value)).any():  # trec_eval's grades are whole numbers
        return None
    return Columns(field(0)[0], field(2)[0], value)


def _cut(windows: np.ndarray, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The fields ``bytes[start[i]:end[i]]`` as a numpy bytes (``S``) array, and their bytes as a
    matrix. ``windows`` is the file's bytes seen through a sliding window as long as its longest
    field (one row copied a field: no index array per byte)."""
    length = end - start
    width = max(int(length.max(initial=1)), 1)
    matrix = windows[start, :width]
    matrix *= np.arange(width) < length[:, None]  # the bytes past each field's end: 0
    return matrix.view(f"S{width}").ravel(), matrix


def _numbers(text: np.ndarray, matrix: np.ndarray) -> np.ndarray | None:
    """Finite numbers, or None. (numpy reads 1_000 as 1000; the readers do not: refused here.)"""
    if (matrix == ord("_")).any():
        return None
    try:
        value = text.astype(np.float64)
    except ValueError:
        return None
    return value if np.isfinite(value).all() else None


def _is_numbers(text: np.ndarray, matrix: np.ndarray) -> bool:
    """Whether every field is a finite number: digits only (a rank, as runs write it), or else read."""
    digits = (matrix >= ord("0")) & (matrix <= ord("9"))
    if (digits | (matrix == 0)).all() and digits[:, 0].all():
        return True
    return _numbers(text, matrix) is not None


def _words(ids: np.ndarray) -> list[np.ndarray]:
    """Bytes ids packed big-endian into 8-byte words, most significant first: comparing the words
    in turn compares the ids as strcmp does (a shorter id is padded with NUL bytes, below any other)."""
    n, size = ids.size, ids.dtype.itemsize
    n_words = (size + 7) // 8
    padded = np.zeros((n, n_words * 8), dtype=np.uint8)
    padded[:, :size] = ids.view(np.uint8).reshape(n, size)
    words = padded.view(">u8").astype(np.uint64)
    return [words[:, j] for j in range(n_words)]


def _sorted_groups(keys: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Rows sorted by ``keys`` (the first most significant, rows in order within equal keys), and
    whether each sorted row starts a new group of equal keys."""
    order = np.lexsort((np.arange(keys[0].size), *reversed(keys)))
    new = np.zeros(order.size, dtype=bool)
    new[:1] = True
    for key in keys:
        ordered = key[order]
        new[1:] |= ordered[1:] != ordered[:-1]
    return order, new


def _first_seen(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ids in the order they first appear, and each id's index among them."""
    order, new = _sorted_groups(_words(ids))
    heads = order[new]  # each distinct id's first row
    code_of_group = np.empty(heads.size, dtype=np.int64)
    code_of_group[np.argsort(heads, kind="stable")] = np.arange(heads.size)
    codes = np.empty(ids.size, dtype=np.int64)
    codes[order] = code_of_group[np.cumsum(new) - 1]
    return ids[np.sort(heads)], codes


class Ranked(NamedTuple):
    """Every query's retrieved documents in trec_eval's order, and every query's judgements.

    ``labels`` are the query ids: the run's in the order they first appear, then the queries only
    the qrels have (:func:`ndcg_core.evaluate`'s order); ``in_run`` and ``in_qrels`` mark which side
    has each. Retrieved rows (``q``, ``rank`` from 0, ``grade``, ``judged``, ``doc``) are sorted by
    query, then rank; judgement rows (``pool_q``, ``pool_grade``) by query.
    """

    labels: np.ndarray
    in_run: np.ndarray
    in_qrels: np.ndarray
    q: np.ndarray
    rank: np.ndarray
    grade: np.ndarray
    judged: np.ndarray
    pool_q: np.ndarray
    pool_grade: np.ndarray
    doc: np.ndarray  # each ranked row's index into the run's rows

    @property
    def nq(self) -> int:
        return int(self.labels.size)


def rank(
    qrels: Columns, run: Columns, *, max_docs: int | None = None, judged_only: bool = False
) -> Ranked | None:
    """Rank each query's retrieved documents as trec_eval does and look up their grades.

    trec_eval's order: scores compared as float32, highest first, equal ones by document id
    descending (byte order). ``max_docs`` keeps each query's first ``max_docs`` documents
    (trec_eval ``-M``), then ``judged_only`` drops every document without a judgement of at least
    0 (trec_eval ``-J``: unjudged documents leave the ranking, the rest move up). None when a
    (query, document) pair is listed twice in either file: the full readers name it.
    """
    n_run = run.rows
    labels, codes = _first_seen(np.concatenate([run.query, qrels.query]))
    nq = labels.size
    run_q, pool_q = codes[:n_run], codes[n_run:]
    in_run = np.bincount(run_q, minlength=nq) > 0
    in_qrels = np.bincount(pool_q, minlength=nq) > 0
    # One sort of both files' (document, query) pairs: a document's place in byte order (trec_eval
    # breaks ties by it), each judged retrieved document's judgement, and any pair listed twice.
    doc_words = _words(np.concatenate([run.doc, qrels.doc]))
    order, new = _sorted_groups([*doc_words, codes])
    doc_new = np.zeros(order.size, dtype=bool)
    doc_new[:1] = True
    for word in doc_words:
        ordered = word[order]
        doc_new[1:] |= ordered[1:] != ordered[:-1]
    doc_codes = np.empty(order.size, dtype=np.int64)
    doc_codes[order] = np.cumsum(doc_new)
    pair = np.flatnonzero(~new[1:])  # sorted rows i and i + 1 are one (document, query) pair
    first, second = order[pair], order[pair + 1]
    if ((first < n_run) == (second < n_run)).any():  # twice in the run, or twice in the qrels
        return None
    run_row, pool_row = np.minimum(first, second), np.maximum(first, second) - n_run
    judged = np.zeros(n_run, dtype=bool)
    judged[run_row] = True
    grade = np.zeros(n_run)
    grade[run_row] = qrels.value[pool_row]
    # trec_eval's order: query, then float32 score descending, then document id descending
    score = run.value.astype(np.float32)
    in_order = (np.diff(run_q) >= 0).all()  # a run file lists each query's documents best first
    if in_order:
        same_q = run_q[1:] == run_q[:-1]
        step = np.diff(score)
        tie = step == 0
        in_order = not (same_q & ((step > 0) | (tie & (doc_codes[1:n_run] > doc_codes[: n_run - 1])))).any()
    order = np.arange(n_run) if in_order else _trec_order(run_q, score, doc_codes[:n_run])
    q, grade, judged = run_q[order], grade[order], judged[order]
    position = _positions(q, nq)
    if max_docs is not None:
        keep = position < max_docs
        q, grade, judged, position, order = q[keep], grade[keep], judged[keep], position[keep], order[keep]
    if judged_only:
        keep = judged & (grade >= 0)
        q, grade, judged, order = q[keep], grade[keep], judged[keep], order[keep]
        position = _positions(q, nq)
    pool_order = np.argsort(pool_q, kind="stable")
    return Ranked(
        labels,
        in_run,
        in_qrels,
        q,
        position,
        grade,
        judged,
        pool_q[pool_order],
        qrels.value[pool_order],
        order,
    )


def _trec_order(q: np.ndarray, score: np.ndarray, doc: np.ndarray) -> np.ndarray:
    """Rows by query, then float32 score descending, then document rank descending.

    Packed into one 64-bit key when they fit (a float32's bits, made to sort as the number does):
    a run listed nearly in that order then sorts in one pass of a stable sort, about 5x faster than
    sorting by three keys.
    """
    doc_bits = int(doc.max(initial=0)).bit_length()
    q_bits = int(q.max(initial=0)).bit_length()
    if q_bits + 32 + doc_bits > 63:
        return np.lexsort((-doc, -score, q))
    bits = (score + np.float32(0.0)).view(np.uint32).astype(np.uint64)  # -0.0 + 0.0 is 0.0: a tie
    ascending = bits ^ np.where(bits >> np.uint64(31), np.uint64(0xFFFFFFFF), np.uint64(0x80000000))
    key = q.astype(np.uint64) << np.uint64(32 + doc_bits)
    key |= (np.uint64(0xFFFFFFFF) - ascending) << np.uint64(doc_bits)
    key |= np.uint64((1 << doc_bits) - 1) - doc.astype(np.uint64)
    return np.argsort(key, kind="stable")


def _positions(q: np.ndarray, nq: int) -> np.ndarray:
    """Each row's place within its query (rows grouped by query), from 0."""
    counts = np.bincount(q, minlength=nq)
    return np.arange(q.size) - np.repeat(np.cumsum(counts) - counts, counts)


def _inverse_divisors(n: int) -> np.ndarray:
    """1 / log2(i + 1) for positions 1..n, as the data-set kernels compute it (``rules.py``'s log
    discount, ``log1p(i) / ln 2``: the same numbers, to the bit; importing the rules' module would
    cost the command line's start-up)."""
    return 1.0 / (np.log1p(np.arange(1, max(n, 1) + 1, dtype=float)) / math.log(2.0))


def _gains(grades: np.ndarray, table: Mapping[float, float] | None) -> np.ndarray:
    """trec_eval's gains: a negative grade counts as 0, a grade its own gain unless ``table`` says."""
    levels = np.maximum(grades, 0.0)
    if not table:
        return levels
    out = levels.copy()
    for level, gain in table.items():
        out[levels == level] = gain
    return out


def ndcg_at(
    ranked: Ranked, cutoffs: Sequence[int | None], gains: Mapping[float, float] | None = None
) -> dict[int | None, np.ndarray]:
    """trec_eval's ``ndcg`` (cutoff None) and ``ndcg_cut_k`` of every query, by :attr:`Ranked.labels`.

    DCG over the first k documents retrieved (all without a cutoff); IDCG over the query's best k
    judgements (all without a cutoff); 0 where IDCG is 0. ``gains`` replaces the gain of the
    levels it names (trec_eval's ``ndcg.1=3,2=9``); an unjudged document has level 0's gain.
    """
    nq = ranked.nq
    unjudged_gain = float(_gains(np.zeros(1), gains)[0])
    row_gain = np.where(ranked.judged, _gains(ranked.grade, gains), unjudged_gain)
    pool_gain = _gains(ranked.pool_grade, gains)
    pool_order = np.lexsort((-pool_gain, ranked.pool_q))
    pool_q, pool_gain = ranked.pool_q[pool_order], pool_gain[pool_order]
    pool_rank = _positions(pool_q, nq)
    depth = int(max(ranked.rank.max(initial=0), pool_rank.max(initial=0))) + 1
    inverse = _inverse_divisors(depth)
    dcg_terms = row_gain * inverse[ranked.rank]
    idcg_terms = pool_gain * inverse[pool_rank]
    out = {}
    for k in cutoffs:
        inside = slice(None) if k is None else ranked.rank < k
        dcg = np.bincount(ranked.q[inside], weights=dcg_terms[inside], minlength=nq)
        ideal = slice(None) if k is None else pool_rank < k
        idcg = np.bincount(pool_q[ideal], weights=idcg_terms[ideal], minlength=nq)
        out[k] = np.divide(dcg, idcg, out=np.zeros(nq), where=idcg > 0)
    return out


def ndcg_rel(ranked: Ranked, gains: Mapping[float, float] | None = None) -> np.ndarray:
    """trec_eval's ``ndcg_rel`` of every query: NDCG averaged over the relevant documents.

    As trec_eval 9's ``m_ndcg_rel.c`` computes it. A query has R judged documents of positive gain
    (its "relevant" ones); IDCG@r sums the best min(r, R) of their gains. At each rank r holding a
    retrieved document of positive gain, DCG@r / IDCG@r is taken; each relevant document not
    retrieved adds DCG@n / IDCG@R (n: the documents retrieved). The sum over R, or 0 when the sum is
    not above 0 (or R is 0). Gains as for :func:`ndcg_at`, except that an unjudged document's is 0.
    Divisors are log2(rank + 1), whatever the gains.
    """
    nq = ranked.nq
    row_gain = np.where(ranked.judged & (ranked.grade >= 0), _gains(ranked.grade, gains), 0.0)
    out = np.zeros(nq)
    pool = _gains(ranked.pool_grade[ranked.pool_grade >= 0], gains)
    pool_q = ranked.pool_q[ranked.pool_grade >= 0]
    run_bounds = np.searchsorted(ranked.q, np.arange(nq + 1))
    pool_bounds = np.searchsorted(pool_q, np.arange(nq + 1))
    for i in range(nq):
        relevant = pool[pool_bounds[i] : pool_bounds[i + 1]]
        ideal = -np.sort(-relevant[relevant > 0])
        n_rel = ideal.size
        if n_rel == 0:
            continue
        g = row_gain[run_bounds[i] : run_bounds[i + 1]]
        positions = np.log2(np.arange(2, max(g.size, n_rel) + 2, dtype=float))
        dcg = np.cumsum(g / positions[: g.size])
        idcg = np.cumsum(ideal / positions[:n_rel])
        hits = np.flatnonzero(g > 0)
        # summed in rank order from 0, as trec_eval adds them
        total = sum((dcg[hits] / idcg[np.minimum(hits, n_rel - 1)]).tolist(), 0.0)
        final = dcg[-1] if g.size else 0.0
        total += (n_rel - hits.size) * final / idcg[-1]
        if total > 0:
            out[i] = total / n_rel
    return out


def _judged_top(ranked: Ranked, k: int, judged: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per query: how many of its first k documents are ``judged``, and how many it retrieved there."""
    inside = ranked.rank < k
    hits = np.bincount(ranked.q[inside], weights=judged[inside].astype(float), minlength=ranked.nq)
    top = np.bincount(ranked.q[inside], minlength=ranked.nq).astype(float)
    return hits, top


def judged_at(ranked: Ranked, k: int) -> np.ndarray:
    """``Judged@k`` of every query (ir_measures' definition): the share of its first min(k, n)
    retrieved documents that have a judgement, whatever its grade (n: documents retrieved); 0 for a
    query that retrieved nothing."""
    hits, top = _judged_top(ranked, k, ranked.judged)
    return np.divide(hits, top, out=np.zeros(ranked.nq), where=top > 0)


def unjudged_at(ranked: Ranked, k: int) -> np.ndarray:
    """trec_eval's ``unj_k`` of every query: the documents among the first k that have no judgement
    (or a negative one: trec_eval's "in the pool but not judged"), divided by k even when fewer
    were retrieved."""
    hits, _ = _judged_top(ranked, k, ~ranked.judged | (ranked.grade < 0))
    return hits / k

"""The vectorised kernels: ranking, DCG@k and IDCG@k of every query, in blocks.

Each query's rows are ranked by one ``np.sort`` of packed keys, only the top k
(and a tie group straddling k) are read, and each pool's ideal list is a
counting sort of its grade levels. Blocks of queries small enough for the CPU
cache run on up to two threads.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from ..errors import Message, NDCGError
from ..metrics import divisors
from ..metrics import gains as _gains
from ..spec import Spec
from ..variants import Variant
from .keys import _bits, _Codes, _doc_keys, _join, _key_columns, _Rows, _take, _text_order, _text_rank
from .tables import _row_name, source_name

#: Rows (run + qrels) per block of queries evaluated together; see :func:`_blocks`.
_BLOCK_ROWS = 1 << 18


def _gain_lookup(grades: np.ndarray, gain: Any) -> np.ndarray:
    """Gains of an array of grades through :func:`ndcg_core.gains` on its distinct values."""
    if grades.size == 0:
        return grades.astype(float)
    uniq = np.sort(pd.unique(grades))
    return _gains(uniq, gain)[np.searchsorted(uniq, grades)]


def _map_blocks(fn, blocks: list, threads: int):
    """``map(fn, blocks)`` in order, on up to ``threads`` threads (numpy's sorts and array passes
    release the GIL); the first block's error wins."""
    if threads < 2 or len(blocks) < 2:
        yield from map(fn, blocks)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(min(threads, len(blocks))) as pool:
        futures = [pool.submit(fn, b) for b in blocks]
        try:
            for f in futures:
                yield f.result()
        finally:
            for f in futures:
                f.cancel()


def _counting_order(codes: np.ndarray, nq: int) -> np.ndarray | None:
    """``np.argsort(codes, kind="stable")`` for codes in ``0 .. nq - 1``, by a counting sort; None
    without pandas' ``groupsort_indexer`` (one pass to count, one to place each row)."""
    try:
        from pandas._libs.algos import groupsort_indexer
    except ImportError:  # pragma: no cover - another pandas: numpy's sorts instead
        return None
    try:
        order, _ = groupsort_indexer(codes.astype(np.intp, copy=False), nq)
    except (TypeError, ValueError):  # pragma: no cover - another signature
        return None
    return np.asarray(order, dtype=np.int64)


#: Group rows by a counting sort when pandas has one (see :func:`_group_order`); a test turns it off.
_COUNTING_SORT = True


def _group_order(codes: np.ndarray, nq: int) -> np.ndarray | None:
    """A stable order grouping the rows by query code, or None if they are.

    Rows sorted but for a short tail (judgements appended to a grouped table) take a merge
    sort, which keeps the sorted part as one run. Others take a counting sort: 0.3 s for 10M
    shuffled run rows of 91k queries, where numpy's radix sorts of 16 bits (two of them past
    65,536 queries, and a gather between) took 1.8 s, most of it cache misses.
    """
    if codes.size < 2:
        return None
    descent = codes[1:] < codes[:-1]
    first = int(descent.argmax())
    if not descent[first]:
        return None
    if (codes.size - first) * 16 < codes.size:
        return np.argsort(codes.astype(np.int64, copy=False), kind="stable")  # timsort: runs merged
    order = _counting_order(codes, nq) if _COUNTING_SORT else None
    if order is not None:
        return order
    if nq <= 65536:
        return np.argsort(codes.astype(np.uint16), kind="stable")
    order = np.argsort((codes & 0xFFFF).astype(np.uint16), kind="stable")
    return order[np.argsort((codes[order] >> 16).astype(np.uint16), kind="stable")]


def _blocks(run_codes: _Codes, qrels_codes: _Codes, nq: int):
    """Query ranges to evaluate one after another, about ``_BLOCK_ROWS`` rows each.

    When both tables list their queries in the same order (as sorted TREC files
    do), they are cut at query boundaries, so every array of a block stays in
    the CPU's cache while a dozen passes run over it (2**18 rows measured
    about 1.4x faster than 2**21 at 10M rows). Otherwise there is one block.
    """
    n_run, n_qrels = run_codes.size, qrels_codes.size
    grouped = run_codes.ascending() and qrels_codes.ascending()
    if not grouped or n_run + n_qrels <= _BLOCK_ROWS:
        yield 0, nq, 0, n_run, 0, n_qrels
        return
    run_end = np.cumsum(run_codes.counts(nq))
    qrels_end = np.cumsum(qrels_codes.counts(nq))
    cuts = np.unique(
        np.searchsorted(run_end + qrels_end, np.arange(_BLOCK_ROWS, n_run + n_qrels, _BLOCK_ROWS))
    )
    edges = np.unique(np.concatenate([[0], np.minimum(cuts + 1, nq), [nq]]))
    for qa, qb in zip(edges[:-1].tolist(), edges[1:].tolist(), strict=True):
        ra = int(run_end[qa - 1]) if qa else 0
        ja = int(qrels_end[qa - 1]) if qa else 0
        yield qa, qb, ra, int(run_end[qb - 1]), ja, int(qrels_end[qb - 1])


class _Part:
    """Some rows of a table (a slice or positions), taken only when a message or text needs them."""

    def __init__(self, frame: pd.DataFrame, rows: slice | np.ndarray):
        self.frame, self.rows = frame, rows

    def column(self, name: str) -> pd.Series:
        return self.frame[name].iloc[self.rows]

    def values_at(self, name: str):
        """A function giving the column's values at some of the part's rows (read only when called)."""
        return lambda i: self.column(name).iloc[i].to_numpy()

    def subset(self, keep: np.ndarray) -> _Part:
        rows = self.rows
        if isinstance(rows, slice):
            rows = np.arange(rows.start, rows.stop)
        return _Part(self.frame, rows[keep])

    def describe(self, i: int) -> tuple[Any, Any, str]:
        """Document, query and row name of the block's row ``i``."""
        at = self.rows.start + i if isinstance(self.rows, slice) else int(self.rows[i])
        return self.frame["doc"].iloc[at], self.frame["query"].iloc[at], _row_name(self.frame.index, at)


def _evaluate_block(run, qrels, keys, run_codes, qrels_codes, nq, scores, grades, graded, spec, cutoffs):
    """DCG and IDCG at each cutoff (rows of a ``(len(cutoffs), nq)`` array) and documents retrieved,
    for the queries ``0 .. nq - 1`` of one block.

    ``run`` and ``qrels`` are :class:`_Part` s; ``keys`` the block's document
    keys if already computed (see :func:`_doc_keys`); ``graded`` the gain
    levels of the whole table and the level of each of the block's qrels rows
    (see :func:`_grade_levels`). ``spec.k`` is the largest cutoff (None if one is None).
    """
    if keys is None:
        keys = _doc_keys(run.column("doc"), qrels.column("doc"))
    run_keys, qrels_keys, keys_ordered = keys
    v = spec.variant
    gain = v.gain_spec
    as_float32 = spec.score_dtype == "float32" or v.ties == "docid_desc"

    def ranking(scores: np.ndarray) -> np.ndarray:
        return scores.astype(np.float32) if as_float32 else scores

    # With a cutoff and the judged pool as the ideal, only the rows that can reach the top k (see
    # _top_candidates) need their judgement: the join looks those up alone, and still checks every
    # row for duplicates. Not when an unjudged row's gain is an error (a gain table without grade 0),
    # nor when the run's own grades matter (negative ones dropped, or the ideal from the run).
    try:
        zero_gain, zero_gain_error = _gain_lookup(np.zeros(1), gain)[0], None
    except ValueError as err:
        zero_gain, zero_gain_error = None, err
    early = v.k is not None and spec.ideal_source == "pool" and not spec.drop_negative
    early = early and zero_gain_error is None

    def rows_and_candidates(codes: np.ndarray, ranked: np.ndarray):
        at = _Rows(codes, nq)
        return at, (_top_candidates(at, ranked, v.k, nq) if early else None)

    ranked = ranking(scores)  # the scores as the ranking compares them
    run_at, top = rows_and_candidates(run_codes, ranked)

    match, run_dups, qrels_dups = _join(run_keys, qrels_keys, run_codes, qrels_codes, nq, top)
    if qrels_dups:
        (doc, query, first), (_, _, second) = (qrels.describe(i) for i in qrels_dups[0])
        pair = {"doc": repr(doc), "query": repr(query), "first": first, "second": second}
        pair |= {"name": source_name(qrels.frame, "qrels"), "fix": Message("fix_duplicates_grade")}
        if len(qrels_dups) > 1:
            raise NDCGError("judged_twice_many", **pair, n=len(qrels_dups))
        raise NDCGError("judged_twice", **pair)
    if run_dups:
        if spec.duplicates == "error":
            (doc, query, first), (_, _, second) = (run.describe(i) for i in run_dups[0])
            pair = {"doc": repr(doc), "query": repr(query), "first": first, "second": second}
            pair |= {"name": source_name(run.frame, "run"), "fix": Message("fix_duplicates_score")}
            if len(run_dups) > 1:
                raise NDCGError("retrieved_twice_many", **pair, n=len(run_dups))
            raise NDCGError("retrieved_twice", **pair)
        keep = _keep_max(run_dups, run_codes, run_keys, scores)
        run = run.subset(keep)
        run_codes, run_keys, ranked = run_codes[keep], _take(run_keys, keep), ranked[keep]
        run_at, top = rows_and_candidates(run_codes, ranked)
        match, _, _ = _join(run_keys, qrels_keys, run_codes, qrels_codes, nq, top)

    levels, qrels_level = graded
    if spec.drop_negative:
        run_grades = np.append(grades, 0.0)[match]  # match -1 (unjudged): grade 0
        if (run_grades < 0).any():
            keep = np.flatnonzero(run_grades >= 0)  # the library treats negative labels as padding
            run = run.subset(keep)
            run_codes, ranked, match = run_codes[keep], ranked[keep], match[keep]
            run_keys = _take(run_keys, keep)
            run_at = _Rows(run_codes, nq)
    if match.size and match.min() < 0:
        if zero_gain_error is not None:
            raise NDCGError("unjudged_gain", problem=zero_gain_error) from None
        judged = match >= 0
        level = np.full(match.size, levels.size, dtype=np.int64)  # unjudged: the gain after the levels
        level[judged] = qrels_level[match[judged]]
        run_gain = np.append(levels, zero_gain)[level]
    else:
        run_gain = levels[qrels_level[match]]

    tie_key: Any = None
    if v.ties == "docid_desc":
        tie_key = run_keys if keys_ordered else run.values_at("doc")
    top_gain = run_gain
    if not early and v.k is not None:
        top = _top_candidates(run_at, ranked, v.k, nq)
        top_gain = run_gain if top is None else run_gain[top]
    dcg_value = _dcg_by_query(run_at, ranked, top_gain, tie_key, v, nq, top, cutoffs)
    n_ret = run_at.counts

    depth = n_ret if spec.ideal_depth == "retrieved" else None
    if spec.ideal_source == "pool":
        idcg_value = _ideal_by_query(_Rows(qrels_codes, nq), levels, qrels_level, v, nq, depth, cutoffs)
    else:
        idcg_value = _ideal_by_query(run_at, *_levels(run_gain), v, nq, cutoffs=cutoffs)

    return dcg_value, idcg_value, n_ret


def _keep_max(pairs: list[tuple[int, int]], codes: np.ndarray, keys: np.ndarray, scores: np.ndarray):
    involved = np.unique(np.array(pairs).ravel())
    words = {f"k{w}": col for w, col in enumerate(_key_columns(_take(keys, involved)))}
    frame = pd.DataFrame({"q": codes[involved], **words, "s": scores[involved], "i": involved})
    best = frame.sort_values(["s", "i"], ascending=[False, True]).drop_duplicates(["q", *words])["i"]
    drop = np.setdiff1d(involved, best.to_numpy())
    keep = np.ones(codes.size, dtype=bool)
    keep[drop] = False
    return np.flatnonzero(keep)


def _inverse_divisors(n: int, discount: str, log_base: float) -> np.ndarray:
    return 1.0 / divisors(n, discount, log_base)


def _divisors_table(n: int, v: Variant) -> np.ndarray:
    return _inverse_divisors(max(n, 1), v.discount, v.log_base)


def _desc_key(scores: np.ndarray) -> tuple[np.ndarray, int]:
    """uint64 keys whose ascending order is the scores' descending order, and their width in bits.

    float32 scores (or float64 ones that are all float32 values) take 32
    bits: their bit patterns, flipped so that they sort as unsigned integers.
    Others take 64.
    """
    if scores.dtype == np.float32 or np.array_equal(scores.astype(np.float32), scores):
        bits = (scores.astype(np.float32) + np.float32(0.0)).view(np.uint32)  # +0.0: -0.0 ties 0.0
        flip = (bits >> np.uint32(31)) * np.uint32(0x7FFFFFFF)  # negative: flip every bit
        flip |= np.uint32(0x80000000)  # positive: flip the sign bit only
        bits ^= flip
        np.invert(bits, out=bits)  # descending
        return bits.astype(np.uint64), 32
    bits = (scores + 0.0).view(np.uint64)
    flip = (bits >> np.uint64(63)) * np.uint64(0x7FFFFFFFFFFFFFFF)
    flip |= np.uint64(1 << 63)
    return ~(bits ^ flip), 64


#: Bits of the ranking sort key (a test lowers it to reach the wider fallbacks).
_RANK_KEY_BITS = 64


class _Ranked:
    """Every query's rows ranked by score (ties in row order), in one array of slots.

    Query ``i`` holds slots ``starts[i] .. starts[i] + counts[i] - 1``, best
    score first. The low bits of each sorted key say where it came from: the
    row itself when it fits (blocks are small), else the row's position
    within its query. :meth:`take` decodes only the slots asked for.
    """

    def __init__(self, at: _Rows, scores: np.ndarray, n_queries: int):
        u64 = np.uint64
        n = at.codes.size
        desc, width = _desc_key(scores)
        qb = _bits(n_queries)
        self.at, self.sorted, self.by_row = at, None, qb + width + _bits(n) <= _RANK_KEY_BITS
        self.low = _bits(n) if self.by_row else _bits(int(at.counts.max()))
        if qb + width + self.low <= _RANK_KEY_BITS:
            s = at.codes.astype(np.uint64) << u64(64 - qb)
            desc <<= u64(self.low)
            s |= desc
            s |= np.arange(n, dtype=np.uint64) if self.by_row else at.pos.astype(np.uint64)
            s.sort()
            self.sorted = s
        else:  # too wide for one integer: sort the three keys together
            self.rows = np.lexsort((np.arange(n), desc, at.codes))
            self.desc = desc[self.rows]

    def take(self, slots: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rows in these slots (of queries ``q``) and a tie key (equal within a query = tied)."""
        if self.sorted is None:
            return self.rows[slots], self.desc[slots]
        s = self.sorted[slots]
        low = (s & np.uint64((1 << self.low) - 1)).astype(np.int64)
        return (low if self.by_row else self.at.row(q, low)), s >> np.uint64(self.low)


def _first_slots(starts: np.ndarray, limit: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Slots ``starts[i] .. starts[i] + limit[i] - 1`` of every query, with their query and rank."""
    total = int(limit.sum())
    first = np.zeros(limit.size, dtype=np.int64)
    np.cumsum(limit[:-1], out=first[1:])
    q = np.repeat(np.arange(limit.size), limit)
    rank = np.arange(total) - first[q]
    return starts[q] + rank, q, rank


def _top_candidates(at: _Rows, scores: np.ndarray, k: int, nq: int) -> np.ndarray | None:
    """The rows scoring at least their query's k-th best score (so ties across k too), or None.

    A partial sort (``np.partition``) of each query's scores, laid out as one
    row of a matrix each, finds the k-th best; the rows below it cannot reach
    the top k. None when nothing would be left out or the matrix would be much
    larger than the rows (a few very long queries).
    """
    n = at.codes.size
    width = int(at.counts.max()) if n else 0
    if width <= k or nq * width > 3 * n:
        return None
    table = np.full((nq, width), -np.inf, dtype=scores.dtype)
    if at.order is None:  # grouped: row r of query q goes to q * width + (r - starts[q])
        place = (np.arange(0, nq * width, width) - at.starts)[at.codes]
        place += np.arange(n)
    else:
        place = at.codes * width + at.pos
    table.ravel()[place] = scores
    kth = np.partition(table, width - k, axis=1)[:, width - k]
    keep = np.flatnonzero(scores >= (np.repeat(kth, at.counts) if at.order is None else kth[at.codes]))
    return keep if keep.size < 0.75 * n else None


def _dcg_by_query(at: _Rows, scores, row_gain, tie_key, v: Variant, nq, keep=None, cutoffs=None):
    """DCG@k per query: one sort ranks every query's rows; only the top k (and ties across k) are read.

    ``keep``: the rows that can reach the top k (see :func:`_top_candidates`), or None for every
    row; ``row_gain`` holds the gains of those rows alone. ``cutoffs`` (default ``(v.k,)``, the
    largest being ``v.k``): one row of the result per cutoff, summed from the same ranking.
    """
    cutoffs = (v.k,) if cutoffs is None else cutoffs
    dcg_value = np.zeros((len(cutoffs), nq))
    if at.codes.size == 0:
        return dcg_value
    k = v.k
    if keep is not None:  # the same ranking on fewer rows: ties keep their row order
        at, scores = _Rows(at.codes[keep], nq), scores[keep]
        if isinstance(tie_key, np.ndarray):
            tie_key = _take(tie_key, keep)
        elif tie_key is not None:
            tie_key = (lambda values_at, rows: lambda i: values_at(rows[i]))(tie_key, keep)
    ranked = _Ranked(at, scores, nq)
    limit = at.counts.copy()
    if k is not None:
        # Positions beyond k add nothing; only a tie group straddling k can change which
        # documents land inside it (or, averaged, the gain they share): read it whole.
        np.minimum(limit, k, out=limit)
        grow = np.flatnonzero(at.counts > limit)
        while grow.size:
            slot = at.starts[grow] + limit[grow]
            _, before = ranked.take(slot - 1, grow)
            _, after = ranked.take(slot, grow)
            grow = grow[before == after]
            limit[grow] += 1
            grow = grow[at.counts[grow] > limit[grow]]
    slots, q, rank = _first_slots(at.starts, limit)
    rows, tie = ranked.take(slots, q)
    g = row_gain[rows]
    tied = np.zeros(slots.size, dtype=bool)
    tied[1:] = (tie[1:] == tie[:-1]) & (q[1:] == q[:-1])
    if v.ties != "stable" and tied.any():
        group = np.cumsum(~tied) - 1
        if v.ties == "average":
            g = (np.bincount(group, weights=g) / np.bincount(group))[group]
        else:
            in_tie = tied.copy()
            in_tie[:-1] |= tied[1:]
            rows = _break_ties(rows, group, in_tie, tie_key)
            g = row_gain[rows]
    if k is not None and int(limit.max()) > k:  # a tie group read past k: count only the first k
        inside = np.flatnonzero(rank < k)
        q, g, rank = q[inside], g[inside], rank[inside]
    divs = _divisors_table(int(rank.max()) + 1 if rank.size else 1, v)
    _sum_at_cutoffs(dcg_value, q, g * divs[rank], rank, cutoffs)
    return dcg_value


def _sum_at_cutoffs(out: np.ndarray, q: np.ndarray, terms: np.ndarray, rank: np.ndarray, cutoffs) -> None:
    """Row ``i`` of ``out`` += each query's terms ranked above ``cutoffs[i]`` (all of them for None)."""
    nq = out.shape[1]
    for i, c in enumerate(cutoffs):
        if c is None or (rank.size and c > int(rank.max())):
            out[i] += np.bincount(q, weights=terms, minlength=nq)
        else:
            inside = rank < c
            out[i] += np.bincount(q[inside], weights=terms[inside], minlength=nq)


def _break_ties(rows: np.ndarray, group: np.ndarray, in_tie: np.ndarray, tie_key: Any) -> np.ndarray:
    """Reorder the rows inside each tie group by document id (as text), descending.

    ``tie_key``: packed ids (an array, see :func:`.keys._pack`) or a function giving the ids of rows.
    """
    at = np.flatnonzero(in_tie)
    tied_rows = rows[at]
    if isinstance(tie_key, np.ndarray):  # packed ids (see keys._pack)
        secondary = [~col for col in _text_order(_take(tie_key, tied_rows))]
    else:
        secondary = [-_text_rank(tie_key(tied_rows))]
    out = rows.copy()
    out[at] = tied_rows[np.lexsort((*secondary, group[at]))]
    return out


def _levels(gain: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct gains, best first, and each element's index among them."""
    levels = np.sort(pd.unique(gain))[::-1]
    return levels, (levels.size - 1 - np.searchsorted(levels[::-1], gain)).astype(np.int64)


def _ideal_by_query(at: _Rows, levels, level, v: Variant, nq, depth=None, cutoffs=None):
    """IDCG@k per query: each query's gains sorted best first (k=None: all of them).

    ``levels`` are the distinct gains best first and ``level`` each row's
    index among them. With few levels a counting sort ranks every pool: each
    query's ideal list is level 0 repeated as often as it occurs, then level
    1, and so on. Otherwise one sort of (query, level) does. ``cutoffs`` as in
    :func:`_dcg_by_query`: one row of the result each.
    """
    cutoffs = (v.k,) if cutoffs is None else cutoffs
    idcg_value = np.zeros((len(cutoffs), nq))
    n = at.codes.size
    if n == 0:
        return idcg_value
    k = v.k
    limit = at.counts if k is None else np.minimum(at.counts, k)
    if depth is not None:  # never more ideal positions than documents retrieved (Elasticsearch)
        limit = np.minimum(limit, depth)
    slots, q, rank = _first_slots(at.starts, limit)
    n_levels = levels.size
    if nq * n_levels <= n:
        count = np.bincount(at.codes * n_levels + level, minlength=nq * n_levels).reshape(nq, n_levels)
        before = np.cumsum(count, axis=1)
        before -= count  # slots of the query's ideal list ahead of each level
        inside = np.clip(limit[:, None] - before, 0, count)  # how many of each level are in the top limit
        best = np.repeat(np.tile(np.arange(n_levels), nq), inside.ravel())
    else:
        u64 = np.uint64
        gb = _bits(n_levels)
        s = at.codes.astype(np.uint64) << u64(gb)
        s |= level.astype(np.uint64)
        s.sort()
        best = (s[slots] & u64((1 << gb) - 1)).astype(np.int64)
    gain = levels[best]
    divs = _divisors_table(int(limit.max()) if limit.size else 1, v)
    _sum_at_cutoffs(idcg_value, q, gain * divs[rank], rank, cutoffs)
    return idcg_value


def _grade_levels(grades: np.ndarray, gain: Any) -> tuple[np.ndarray, np.ndarray]:
    """The distinct gains of these grades, best first, and each grade's index among them.

    Integer grades in a small range (the usual 0..3) go through a lookup table, ``_BLOCK_ROWS``
    grades at a time (no temporary as long as a data set's millions of grades); the indices come
    in the smallest unsigned integer type that holds them.
    """
    if grades.size == 0:
        return np.zeros(0), np.zeros(0, dtype=np.int64)
    low, high = float(grades.min()), float(grades.max())
    small_range = high - low < 65536 and max(abs(low), abs(high)) < 2.0**62  # and int64 holds them
    parts = [grades[i : i + _BLOCK_ROWS] for i in range(0, grades.size, _BLOCK_ROWS)]
    if small_range and low == math.floor(low) and all(np.array_equal(np.floor(p), p) for p in parts):
        present = np.zeros(int(high - low) + 1, dtype=bool)
        for p in parts:
            present[p.astype(np.intp) - int(low)] = True
        present = np.flatnonzero(present)
        levels, of_grade = _levels(_gains(present + low, gain))
        table = np.zeros(int(present[-1]) + 1, dtype=np.min_scalar_type(levels.size - 1))
        table[present] = of_grade
        out = np.empty(grades.size, dtype=table.dtype)
        for i, p in enumerate(parts):
            out[i * _BLOCK_ROWS : i * _BLOCK_ROWS + p.size] = table[p.astype(np.intp) - int(low)]
        return levels, out
    uniq = np.sort(pd.unique(grades))
    levels, of_grade = _levels(_gains(uniq, gain))
    return levels, of_grade[np.searchsorted(uniq, grades)]


def _rows_of(keys: np.ndarray, rows: slice | np.ndarray) -> np.ndarray:
    """Some rows of keys: a view for a slice, else gathered."""
    return keys[rows] if isinstance(rows, slice) else _take(keys, rows)


def score_queries(
    run, qrels, run_codes: _Codes, qrels_codes: _Codes, nq, scores, grades, spec: Spec, cutoffs=None,
    threads=1,
):  # fmt: skip
    """DCG and IDCG at each cutoff, and documents retrieved, of queries ``0 .. nq - 1``, block by block.

    ``run_codes`` / ``qrels_codes`` are each row's query code (see :class:`.keys._Codes`),
    ``scores`` and ``grades`` the rows' numbers (grades already rewritten by the spec).
    ``cutoffs`` (default ``(spec.k,)``; ``spec.k`` must be the largest, or
    None if one is None) are summed from one ranking: DCG and IDCG come back
    as ``(len(cutoffs), nq)`` arrays. Blocks run on up to ``threads`` threads.
    """
    cutoffs = (spec.k,) if cutoffs is None else tuple(cutoffs)
    n_cut = len(cutoffs)
    dcg_value, idcg_value = np.zeros((n_cut, nq)), np.zeros((n_cut, nq))
    n_ret = np.zeros(nq, dtype=np.int64)
    # Blocks need both tables grouped by query in the same order: when they are not, the
    # arrays (not the DataFrames) are put in that order and the blocks read the tables through it.
    run_order = qrels_order = keys = None
    v = spec.variant
    levels, level = _grade_levels(grades, v.gain_spec)
    renumber = None
    big = run_codes.size + qrels_codes.size > _BLOCK_ROWS
    if big and not (run_codes.ascending() and qrels_codes.ascending()):
        renumber = _qrels_numbering(run_codes, qrels_codes, nq)
        if renumber is not None:
            run_codes, qrels_codes = run_codes.renumbered(renumber), qrels_codes.renumbered(renumber)
        run_order, qrels_order = (
            None if c.ascending() else _group_order(c.values, nq) for c in (run_codes, qrels_codes)
        )
        # A block reads its documents' ids through the order and packs them itself (see
        # _evaluate_block) while every reordered side comes in runs of a query (judgements
        # appended to a grouped table): its ids are then read a run at a time. A table in
        # arbitrary order would be read an id at a time: its keys are packed once, here.
        scattered = any(
            o is not None and c.lengths is None
            for o, c in ((run_order, run_codes), (qrels_order, qrels_codes))
        )
        if scattered:
            keys = _doc_keys(run["doc"], qrels["doc"])
        if run_order is not None:  # the rows in query order: one run of codes per query
            run_codes, scores = run_codes.grouped(nq), scores[run_order]
        if qrels_order is not None:
            qrels_codes, grades, level = qrels_codes.grouped(nq), grades[qrels_order], level[qrels_order]

    def one_block(bounds):
        qa, qb, ra, rb, ja, jb = bounds
        run_rows = slice(ra, rb) if run_order is None else run_order[ra:rb]
        qrels_rows = slice(ja, jb) if qrels_order is None else qrels_order[ja:jb]
        return _evaluate_block(
            _Part(run, run_rows),
            _Part(qrels, qrels_rows),
            None if keys is None else (_rows_of(keys[0], run_rows), _rows_of(keys[1], qrels_rows), keys[2]),
            run_codes.rows(ra, rb) - qa,
            qrels_codes.rows(ja, jb) - qa,
            qb - qa,
            scores[ra:rb],
            grades[ja:jb],
            (levels, level[ja:jb]),
            spec,
            cutoffs,
        )

    blocks = list(_blocks(run_codes, qrels_codes, nq))
    for (qa, qb, *_), (d, i, n) in zip(blocks, _map_blocks(one_block, blocks, threads), strict=True):
        dcg_value[:, qa:qb], idcg_value[:, qa:qb], n_ret[qa:qb] = d, i, n
    if renumber is not None:  # back to the callers' query codes
        return dcg_value[:, renumber], idcg_value[:, renumber], n_ret[renumber]
    return dcg_value, idcg_value, n_ret


def _qrels_numbering(run_codes: _Codes, qrels_codes: _Codes, nq: int) -> np.ndarray | None:
    """New query codes in the order the qrels list their queries, when only that spares a reordering.

    The codes follow the run (see :func:`.keys._query_codes`); a run in arbitrary row order
    must be grouped anyway, but qrels grouped by query in another order need not be, if the
    queries are numbered as the qrels list them (judgements appended at the end stay a short
    tail). None when the run is grouped or the qrels are not mostly grouped.
    """
    n = qrels_codes.size
    if run_codes.size < 2 or n < 2 or run_codes.ascending():
        return None
    firsts = qrels_codes.run_heads()  # the code of each run of equal codes
    if (firsts.size - 1) * 8 > n:  # not grouped
        return None
    listed = pd.unique(firsts)  # in order of first appearance
    renumber = np.full(nq, -1, dtype=np.int64)
    renumber[listed] = np.arange(listed.size)
    rest = renumber < 0  # queries only the run has
    renumber[rest] = np.arange(listed.size, listed.size + int(rest.sum()))
    return renumber

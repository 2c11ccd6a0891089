"""Ids to integers: query codes, document keys packed into ``uint64``, and the join.

Every step of :func:`ndcg_core.evaluate` sorts integers, never strings: query ids
become dense codes, document ids 8-byte packed keys (or hashes), and the join of
run rows with qrels rows is one sort of (query, document hash, row) keys.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

_HASH_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # odd: a bijection of uint64 (Fibonacci hashing)


def _ids_as_text_if_mixed(a: pd.Series, b: pd.Series) -> tuple[pd.Series, pd.Series]:
    numeric_a = pd.api.types.is_integer_dtype(a.dtype)
    numeric_b = pd.api.types.is_integer_dtype(b.dtype)
    if numeric_a and numeric_b:
        return a, b
    if numeric_a or numeric_b or not (_is_text(a) and _is_text(b)):
        return a.astype(str), b.astype(str)
    return a, b


def _is_text(s: pd.Series) -> bool:
    return pd.api.types.is_string_dtype(s.dtype)


def _query_codes(run_q: pd.Series, qrels_q: pd.Series) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Integer codes shared by both sides: run queries first (by first appearance), then qrels-only."""
    run_q, qrels_q = _ids_as_text_if_mixed(run_q, qrels_q)
    rc, r_len, ru = _factorize_runs(run_q)
    qc, q_len, qu = _factorize_runs(qrels_q)
    if _is_arrow(ru) and _is_arrow(qu):
        import pyarrow.compute as pc

        if qu.type != ru.type:  # string and large_string
            qu = qu.cast(ru.type)
        where = np.asarray(pc.fill_null(pc.index_in(qu, value_set=ru), -1).to_numpy(), dtype=np.int64)
        ru, qu = ru.to_numpy(zero_copy_only=False), qu.to_numpy(zero_copy_only=False)
    else:
        ru, qu = (u.to_numpy(zero_copy_only=False) if _is_arrow(u) else u for u in (ru, qu))
        where = pd.Index(ru, dtype=object).get_indexer(qu)
    new = where < 0
    where[new] = len(ru) + np.arange(int(new.sum()))
    labels = np.concatenate([np.asarray(ru, dtype=object), np.asarray(qu, dtype=object)[new]])
    run_codes = rc.astype(np.int64) if r_len is None else np.repeat(rc.astype(np.int64), r_len)
    qrels_codes = where[qc].astype(np.int64) if len(qc) else qc.astype(np.int64)
    return run_codes, qrels_codes if q_len is None else np.repeat(qrels_codes, q_len), labels


def _is_arrow(values: Any) -> bool:
    return type(values).__module__.startswith("pyarrow")


def _factorize_runs(s: pd.Series) -> tuple[np.ndarray, np.ndarray | None, Any]:
    """``pd.factorize`` of the first value of each run of equal values, and the run lengths.

    Tables grouped by query (as TREC files are) have one run per query, so
    this hashes thousands of values instead of millions; repeating each
    run's code by its length gives exactly ``pd.factorize(s)``'s codes (the
    uniques are then a pyarrow array for Arrow-backed text). Without long
    runs (or with missing values) it is ``pd.factorize(s)`` itself and the
    lengths are None.
    """
    n = len(s)
    if n > 1024:
        arr = _arrow_strings(s)
        if arr is not None and not arr.null_count:
            import pyarrow.compute as pc

            ree = pc.run_end_encode(arr)
            if len(ree.values) * 8 <= n:
                ends = np.asarray(ree.run_ends.to_numpy(), dtype=np.int64)
                heads = pc.dictionary_encode(ree.values)
                return heads.indices.to_numpy(), np.diff(ends, prepend=0), heads.dictionary
        elif pd.api.types.is_integer_dtype(s.dtype):
            v = s.to_numpy()
            heads = np.flatnonzero(v[1:] != v[:-1]) + 1
            if heads.size * 8 <= n:
                at = np.concatenate([[0], heads])
                codes, uniques = pd.factorize(v[at])
                return codes, np.diff(at, append=n), uniques
    codes, uniques = pd.factorize(s)
    return codes, None, uniques


def _arrow_strings(s: pd.Series) -> Any:
    """The column as one pyarrow string array, without copying; None unless it is Arrow-backed text."""
    try:
        import pyarrow as pa
    except ImportError:  # pragma: no cover - pandas 3 installs it in practice
        return None
    arrow_backed = getattr(s.dtype, "storage", None) == "pyarrow" or isinstance(s.dtype, pd.ArrowDtype)
    if not (_is_text(s) and arrow_backed):
        return None
    try:
        arr = pa.array(s.array)
    except (pa.ArrowException, TypeError, ValueError):  # pragma: no cover - defensive
        return None
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
        return None
    return arr


#: Bytes of a little-endian word that belong to a string of each length 0..8.
_BYTE_MASKS = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=np.uint64)


def _pack8(s: pd.Series) -> np.ndarray | None:
    """Strings of at most 8 bytes (no NUL byte) packed into uint64, else None.

    Equal strings give equal integers and different strings different ones.
    The bytes are read little-endian (a plain unaligned load): ``.byteswap()``
    turns the keys into integers whose order is the strings' (UTF-8 byte, so
    code point) order.
    """
    arr = _arrow_strings(s)
    if arr is None:
        try:
            import pyarrow as pa

            arr = pa.array(s.array if hasattr(s, "array") else s, from_pandas=True)
        except (ImportError, pa.ArrowException, TypeError, ValueError):
            return None
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks()
        if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
            return None
    n = len(arr)
    if arr.null_count:
        return None
    if n == 0:
        return np.zeros(0, dtype=np.uint64)
    bufs = arr.buffers()
    off_type = np.int64 if _is_large(arr) else np.int32
    off = np.frombuffer(bufs[1], dtype=off_type)[arr.offset : arr.offset + n + 1]
    lens = np.diff(off)
    if int(lens.max()) > 8:
        return None
    data = np.frombuffer(bufs[2], dtype=np.uint8) if bufs[2] is not None else np.zeros(0, np.uint8)
    first, end = int(off[0]), int(off[-1])
    if not data[first:end].all():  # a NUL byte: "a" and "a\0" would pack alike
        return None
    starts = off[:-1]
    value = np.zeros(n, dtype=np.uint64)
    # 8 bytes from each string's start, as an unaligned strided view of the buffer;
    # the last few strings (fewer than 8 bytes from the buffer's end) read a padded copy.
    safe = int(np.searchsorted(starts, data.size - 8, side="right")) if data.size >= 8 else 0
    if safe:
        words = np.ndarray(shape=(data.size - 7,), dtype="<u8", buffer=data, strides=(1,))
        value[:safe] = words[starts[:safe]]
    if safe < n:
        base = int(starts[safe])
        tail = np.concatenate([data[base:end], np.zeros(8, np.uint8)])
        words = np.ndarray(shape=(tail.size - 7,), dtype="<u8", buffer=tail, strides=(1,))
        value[safe:] = words[starts[safe:] - base]
    value &= _BYTE_MASKS[lens]
    return value


def _is_large(arr: Any) -> bool:
    import pyarrow as pa

    return pa.types.is_large_string(arr.type)


def _text_order(keys: np.ndarray) -> np.ndarray:
    """Packed keys (see :func:`_pack8`) as integers ordered as the strings are."""
    return keys.astype("<u8").view(">u8").astype(np.uint64)


def _doc_keys(run_d: pd.Series, qrels_d: pd.Series) -> tuple[np.ndarray, np.ndarray, bool]:
    """uint64 keys, equal exactly when the document ids are equal; and whether they are packed text.

    Packed keys (see :func:`_pack8`) give the ids' text order through :func:`_text_order`.
    """
    run_d, qrels_d = _ids_as_text_if_mixed(run_d, qrels_d)
    if pd.api.types.is_integer_dtype(run_d.dtype):
        a = run_d.to_numpy().astype(np.int64).view(np.uint64)
        return a, qrels_d.to_numpy().astype(np.int64).view(np.uint64), False
    a, b = _pack8(run_d), _pack8(qrels_d)
    if a is not None and b is not None:
        return a, b, True
    codes, _ = pd.factorize(pd.concat([run_d, qrels_d], ignore_index=True))
    codes = codes.astype(np.uint64)
    return codes[: len(run_d)], codes[len(run_d) :], False


def _bits(n: int) -> int:
    """Bits that hold the integers 0 .. n - 1 (at least one)."""
    return max(int(n - 1).bit_length(), 1)


class _Rows:
    """One table's rows grouped by query, without moving them."""

    def __init__(self, codes: np.ndarray, n_queries: int):
        self.codes = codes
        self.counts = np.bincount(codes, minlength=n_queries)  # rows per query
        self.starts = np.zeros(n_queries, dtype=np.int64)  # first slot of each query, grouped
        np.cumsum(self.counts[:-1], out=self.starts[1:])
        # the rows in grouped order (None: already grouped by query, so the identity)
        self.order = None
        if codes.size and not np.all(codes[1:] >= codes[:-1]):
            small = codes.astype(np.uint16) if n_queries <= 65536 else codes
            self.order = np.argsort(small, kind="stable")
        self._pos: np.ndarray | None = None

    @property
    def pos(self) -> np.ndarray:
        """Position of each row within its query, in row order."""
        if self._pos is None:
            n = self.codes.size
            if self.order is None:
                self._pos = np.arange(n) - self.starts[self.codes]
            else:
                self._pos = np.empty(n, dtype=np.int64)
                self._pos[self.order] = np.arange(n) - self.starts[self.codes[self.order]]
        return self._pos

    def row(self, codes: np.ndarray, pos: np.ndarray) -> np.ndarray:
        """The row at position ``pos`` of query ``codes``."""
        at = self.starts[codes] + pos
        return at if self.order is None else self.order[at]


#: Fewest hash bits the join keeps beside the query code and the row; with fewer it mixes
#: the query into the hash instead (see :func:`_join`).
_MIN_HASH_BITS = 16


#: Mixes the query code into the document key before hashing (odd, like the multiplier).
_QUERY_MIX = np.uint64(0xD6E8FEB86659FD93)


def _join(
    run_keys: np.ndarray,
    qrels_keys: np.ndarray,
    run_codes: np.ndarray,
    qrels_codes: np.ndarray,
    n_queries: int,
) -> tuple[np.ndarray, list[tuple[int, int]], list[tuple[int, int]]]:
    """For each run row, its qrels row (or -1); and duplicate pairs on each side.

    One sort of (query, hash of the document, row) puts the rows of each
    (query, document) pair next to each other, run rows first: no pandas
    merge and no hash table. Multiplying by an odd constant is a bijection of
    uint64, so its top bits are a well-mixed hash. Rows of one query stay
    together, so reading the pairs back touches memory in order. A collision
    of two different documents is noticed (their keys differ) and the queries
    involved are joined again exactly.
    """
    n_run = run_keys.size
    n = n_run + qrels_keys.size
    match = np.full(n_run, -1, dtype=np.int64)
    if n == 0:
        return match, [], []
    u64 = np.uint64
    keys = np.concatenate([run_keys, qrels_keys])
    codes = np.concatenate([run_codes, qrels_codes])
    qb, rb = _bits(n_queries), _bits(n)
    by_query = 64 - qb - rb >= _MIN_HASH_BITS
    s = keys * _HASH_MULTIPLIER
    if by_query:  # query code in the high bits, then the hash's top bits
        s >>= u64(qb + rb)
        s <<= u64(rb)
        s |= codes.astype(np.uint64) << u64(64 - qb)
    else:  # too many queries or rows for that: hash the query with the document
        s ^= codes.astype(np.uint64) * _QUERY_MIX
        s *= _HASH_MULTIPLIER
        s >>= u64(rb)
        s <<= u64(rb)
    s |= np.arange(n, dtype=np.uint64)
    s.sort()
    hk = s >> u64(rb)
    at = np.flatnonzero(hk[1:] == hk[:-1])
    del hk
    low = u64((1 << rb) - 1)
    a = (s[at] & low).astype(np.int64)
    at += 1
    b = (s[at] & low).astype(np.int64)
    del s, at
    bad = keys[a] != keys[b]
    if not by_query:
        bad |= codes[a] != codes[b]
    if bad.any():  # hash collisions: join the queries involved exactly
        redo = np.unique(np.concatenate([codes[a[bad]], codes[b[bad]]]))
        fine = ~np.isin(codes[a], redo)
        rows = np.flatnonzero(np.isin(codes, redo))
        order = rows[np.lexsort((rows, keys[rows], codes[rows]))]
        ks, cs = keys[order], codes[order]
        same = np.flatnonzero((ks[1:] == ks[:-1]) & (cs[1:] == cs[:-1]))
        a = np.concatenate([a[fine], order[same]])
        b = np.concatenate([b[fine], order[same + 1]])
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    is_match = (lo < n_run) & (hi >= n_run)
    match[lo[is_match]] = hi[is_match] - n_run
    return match, _pairs(lo, hi, hi < n_run, 0), _pairs(lo, hi, lo >= n_run, n_run)


def _pairs(lo: np.ndarray, hi: np.ndarray, which: np.ndarray, shift: int) -> list[tuple[int, int]]:
    """The selected (row, row) pairs, in row order."""
    lo, hi = lo[which] - shift, hi[which] - shift
    first = np.lexsort((hi, lo))
    return list(zip(lo[first].tolist(), hi[first].tolist(), strict=True))


def _text_rank(values: np.ndarray) -> np.ndarray:
    """Dense rank of ids compared as text (how trec_eval compares document numbers)."""
    text = np.array([str(v) for v in values], dtype=object)
    _, inverse = np.unique(text, return_inverse=True)
    return inverse

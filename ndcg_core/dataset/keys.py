"""Ids to integers: query codes, document keys packed into ``uint64`` words, and the join.

Every step of :func:`ndcg_core.evaluate` works on integers, never strings: query
ids become dense codes; document ids of up to 32 bytes are packed into one to
four 8-byte words (longer ones are dictionary-encoded), so no string is hashed
or compared; the join of run rows with qrels rows looks up a hash of each
(query, document) pair in a table of the qrels' pairs (direct-mapped slots
filled by numpy, see :class:`_SlotTable`), every match checked against the
keys themselves, and falls back to one sort of (query, document hash, row)
keys when a pair repeats (to name the duplicates) or two hashes collide.
"""

from __future__ import annotations

import sys
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


class _Codes:
    """Each row's query code, kept as runs of equal codes when the table comes that way.

    Tables grouped by query (as TREC files are) hold a few thousand runs of equal codes among
    millions of rows: their codes are ``heads`` (one per run) and the run ``lengths``, and the
    whole-table steps (counts per query, whether the table is grouped, renumbering) work on the
    runs. A block of rows asks for its own codes (:meth:`rows`); :attr:`values` spells every
    row's code out, once, for the steps that reorder rows. With ``lengths`` None, ``heads`` are
    every row's codes; runs are never empty.
    """

    def __init__(self, heads: np.ndarray, lengths: np.ndarray | None = None):
        self.heads = np.asarray(heads, dtype=np.int64)
        self.lengths = lengths
        self.size = self.heads.size if lengths is None else int(lengths.sum())
        self._values: np.ndarray | None = None if lengths is not None else self.heads
        #: The first row of each run (runs only). Computed here, not on first use: blocks on
        #: several threads read it at once.
        self.starts = None
        if lengths is not None:
            self.starts = np.zeros(self.heads.size, dtype=np.int64)
            np.cumsum(lengths[:-1], out=self.starts[1:])

    @property
    def values(self) -> np.ndarray:
        """Every row's code (int64). Spelled out on first use, before any block runs."""
        if self._values is None:
            self._values = np.repeat(self.heads, self.lengths)
        return self._values

    def counts(self, n_queries: int, where: np.ndarray | None = None) -> np.ndarray:
        """Rows per query (only the rows ``where`` is true, if given), as int64."""
        if self.lengths is None:
            return np.bincount(self.heads if where is None else self.heads[where], minlength=n_queries)
        per_run = self.lengths if where is None else np.add.reduceat(where, self.starts, dtype=np.int64)
        return np.bincount(self.heads, weights=per_run, minlength=n_queries).astype(np.int64)

    def ascending(self) -> bool:
        """Whether the codes never decrease down the rows (the table is grouped in code order)."""
        h = self.heads
        return h.size < 2 or bool(np.all(h[1:] >= h[:-1]))

    def run_heads(self) -> np.ndarray:
        """The code of each run of equal codes, in row order."""
        if self.lengths is not None:
            return self.heads
        v = self.heads
        return v[np.concatenate([[0], np.flatnonzero(v[1:] != v[:-1]) + 1])] if v.size else v

    def grouped(self, n_queries: int) -> _Codes:
        """The codes of the same rows once put in query order (a stable sort by code)."""
        counts = self.counts(n_queries)
        present = np.flatnonzero(counts)
        return _Codes(present, counts[present])

    def renumbered(self, new: np.ndarray) -> _Codes:
        """The same rows with each code ``c`` replaced by ``new[c]``."""
        return _Codes(new[self.heads], self.lengths)

    def rows(self, start: int, stop: int) -> np.ndarray:
        """The codes of rows ``start .. stop - 1``."""
        if self.lengths is None:
            return self.heads[start:stop]
        if self._values is not None:
            return self._values[start:stop]
        first = int(np.searchsorted(self.starts, start, side="right")) - 1
        last = int(np.searchsorted(self.starts, stop, side="left"))
        ends = self.starts[first:last] + self.lengths[first:last]
        lengths = np.minimum(ends, stop) - np.maximum(self.starts[first:last], start)
        return np.repeat(self.heads[first:last], np.maximum(lengths, 0))


def _query_codes(run_q: pd.Series, qrels_q: pd.Series) -> tuple[_Codes, _Codes, np.ndarray]:
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
    qrels_codes = where[qc] if len(qc) else qc
    return _Codes(rc, r_len), _Codes(qrels_codes, q_len), labels


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

            if _long_runs(_text_heads(arr.slice(0, 4096)), 4096):  # a sample first: no pass if not grouped
                at = _text_heads(arr)
                if _long_runs(at, n):
                    heads = pc.dictionary_encode(arr.take(at))
                    return heads.indices.to_numpy(), np.diff(at, append=n), heads.dictionary
        elif pd.api.types.is_integer_dtype(s.dtype):
            v = s.to_numpy()
            at = np.concatenate([[0], np.flatnonzero(v[1:] != v[:-1]) + 1])
            if _long_runs(at, n):
                codes, uniques = pd.factorize(v[at])
                return codes, np.diff(at, append=n), uniques
    codes, uniques = pd.factorize(s)
    return codes, None, uniques


def _text_heads(arr: Any) -> np.ndarray:
    """Where each run of equal values of a pyarrow string array (no missing ones) starts: 0 first."""
    import pyarrow.compute as pc

    differs = pc.indices_nonzero(pc.not_equal(arr.slice(1), arr.slice(0, len(arr) - 1)))
    return np.concatenate([[0], np.asarray(differs, dtype=np.int64) + 1])


def _long_runs(heads: np.ndarray, n: int) -> bool:
    """Whether ``n`` values whose runs start at ``heads`` come in runs of 8 values or more on average."""
    return heads.size * 8 <= n


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

#: Longest ids packed into words: 8 bytes a word, at most this many words (longer ids are
#: dictionary-encoded instead, see :func:`_doc_keys`).
_MAX_WORDS = 4


def _text_array(s: pd.Series) -> Any:
    """The column as one pyarrow string array without missing values (copied only if not Arrow), or None."""
    arr = _arrow_strings(s)
    if arr is None:
        try:
            import pyarrow as pa
        except ImportError:  # the engine alone: pandas' own factorize instead
            return None
        try:
            arr = pa.array(s.array if hasattr(s, "array") else s, from_pandas=True)
        except (pa.ArrowException, TypeError, ValueError):
            return None
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks()
        if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)):
            return None
    return None if arr.null_count else arr


def _buffers(arr: Any) -> tuple[np.ndarray, np.ndarray]:
    """The string offsets (``len + 1`` of them) and the data bytes of a pyarrow string array."""
    bufs = arr.buffers()
    off_type = np.int64 if _is_large(arr) else np.int32
    off = np.frombuffer(bufs[1], dtype=off_type)[arr.offset : arr.offset + len(arr) + 1]
    data = np.frombuffer(bufs[2], dtype=np.uint8) if bufs[2] is not None else np.zeros(0, np.uint8)
    return off, data


def _words_needed(arr: Any) -> int | None:
    """Words of 8 bytes that hold the longest string, or None if one holds a NUL byte."""
    off, data = _buffers(arr)
    if len(arr) == 0:
        return 1
    if not data[int(off[0]) : int(off[-1])].all():  # a NUL byte: "a" and "a\0" would pack alike
        return None
    return max(-(-int(np.diff(off).max()) // 8), 1)


def _pack(arr: Any, words: int) -> np.ndarray:
    """Strings of at most ``8 * words`` bytes, no NUL byte, packed into little-endian uint64 words.

    One word: a 1-D array; more: ``(n, words)``, zero-padded. Equal strings give
    equal words and different strings different ones. Each string's first
    ``8 * words`` bytes are read in place (the bytes past its end belong to the
    next strings, and are masked off); the last few strings, too close to the
    buffer's end for that, are read from a zero-padded copy of the tail.
    :func:`_text_order` turns the words into integers whose order is the
    strings' (UTF-8 byte, so code point) order.
    """
    n = len(arr)
    out = np.zeros((n, words), dtype=np.uint64)
    if n == 0:
        return out[:, 0] if words == 1 else out
    off, data = _buffers(arr)
    lens = np.diff(off)
    item, first, end = 8 * words, int(off[0]), int(off[-1])
    width = int(lens[0])
    fixed = width > 0 and bool(np.all(lens == width))  # ids of one length (docnos often are)
    if fixed:  # evenly spaced: strided views, no index array
        safe = min(n, max(data.size - first - item, -1) // width + 1)
        _read_words(data, (first, width), out[:safe])
    else:
        starts = off[:-1]
        safe = int(np.searchsorted(starts, data.size - item, side="right"))
        _read_words(data, starts[:safe], out[:safe])
    if safe < n:
        base = first + safe * width if fixed else int(starts[safe])
        tail = np.concatenate([data[base:end], np.zeros(item, np.uint8)])
        _read_words(tail, (0, width) if fixed else starts[safe:] - base, out[safe:])
    for w in range(words):
        if fixed and width >= 8 * (w + 1):
            continue  # every byte of this word belongs to the string
        out[:, w] &= _BYTE_MASKS[max(width - 8 * w, 0)] if fixed else _BYTE_MASKS[np.clip(lens - 8 * w, 0, 8)]
    return out[:, 0].copy() if words == 1 else out


def _read_words(buf: np.ndarray, at: np.ndarray | tuple[int, int], out: np.ndarray) -> None:
    """Fill ``out`` (``(count, words)`` uint64) with the ``8 * words`` bytes at each position of ``buf``.

    ``at``: the positions (an array), or ``(first, stride)`` for ``count`` evenly spaced ones; every
    read lies inside ``buf``. The bytes are moved, never computed with: two words at a time as one
    16-byte item (a complex128 view), read little-endian.
    """
    count, words = out.shape
    if count == 0:
        return
    for w in range(0, words, 2):
        pair = words - w >= 2
        kind, size = (np.complex128, 16) if pair else (np.uint64, 8)
        if isinstance(at, tuple):
            first, stride = at
            src = np.ndarray((count,), kind, buffer=buf, offset=first + 8 * w, strides=(stride,))
        else:  # one unaligned item at every byte, gathered
            src = np.ndarray((buf.size - 8 * w - size + 1,), kind, buffer=buf, offset=8 * w, strides=(1,))[at]
        out[:, w : w + size // 8].view(kind)[:, 0] = src
    if _BIG_ENDIAN:
        out.byteswap(inplace=True)


_BIG_ENDIAN = sys.byteorder == "big"


def _is_large(arr: Any) -> bool:
    import pyarrow as pa

    return pa.types.is_large_string(arr.type)


def _text_order(keys: np.ndarray) -> list[np.ndarray]:
    """Packed keys (see :func:`_pack`) as integer columns ordered as the strings are, most significant last.

    Ready for ``np.lexsort``: the first 8 bytes decide first, then the next 8, and so on.
    """
    cols = [keys] if keys.ndim == 1 else [keys[:, w] for w in range(keys.shape[1])]
    return [c.astype("<u8").view(">u8").astype(np.uint64) for c in reversed(cols)]


def _key_hash(keys: np.ndarray) -> np.ndarray:
    """A uint64 hash of each key whose top bits are well mixed; a bijection for 1-D keys."""
    if keys.ndim == 1:
        return keys * _HASH_MULTIPLIER
    h = keys[:, 0] * _HASH_MULTIPLIER
    for w in range(1, keys.shape[1]):
        h ^= h >> np.uint64(29)
        h ^= keys[:, w]
        h *= _HASH_MULTIPLIER
    return h


def _take(keys: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``keys[rows]``, also for rows of words (``np.take`` is many times faster there).

    Rows of two words are gathered as one 16-byte item each (a complex128 view: the bytes are
    copied, never computed with), nearly twice as fast again.
    """
    if keys.ndim == 1:
        return keys[rows]
    if keys.shape[1] == 2 and keys.flags.c_contiguous:
        return keys.view(np.complex128)[:, 0][rows].view(np.uint64).reshape(-1, 2)
    return np.take(keys, rows, axis=0)


def _differ(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether each key of ``a`` differs from the key beside it in ``b`` (any word)."""
    differ = a != b
    if differ.ndim == 1:
        return differ
    out = differ[:, 0].copy()
    for w in range(1, differ.shape[1]):
        out |= differ[:, w]
    return out


def _keys_differ(keys: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether the keys at rows ``a`` and rows ``b`` differ."""
    return _differ(_take(keys, a), _take(keys, b))


def _key_columns(keys: np.ndarray) -> list[np.ndarray]:
    """The key as a list of 1-D columns (one per word)."""
    return [keys] if keys.ndim == 1 else [keys[:, w] for w in range(keys.shape[1])]


def _doc_keys(run_d: pd.Series, qrels_d: pd.Series) -> tuple[np.ndarray, np.ndarray, bool]:
    """uint64 keys, equal exactly when the document ids are equal; and whether they are packed text.

    Ids of up to 8 bytes are one word each, up to ``8 * _MAX_WORDS`` bytes rows
    of words (see :func:`_pack`); packed keys give the ids' text order through
    :func:`_text_order`. Longer ids get integer codes from a dictionary encoding.
    """
    run_d, qrels_d = _ids_as_text_if_mixed(run_d, qrels_d)
    if pd.api.types.is_integer_dtype(run_d.dtype):
        a = run_d.to_numpy().astype(np.int64).view(np.uint64)
        return a, qrels_d.to_numpy().astype(np.int64).view(np.uint64), False
    arrays = _text_array(run_d), _text_array(qrels_d)
    if arrays[0] is not None and arrays[1] is not None:
        need = [_words_needed(arr) for arr in arrays]
        if None not in need and max(need) <= _MAX_WORDS:
            return _pack(arrays[0], max(need)), _pack(arrays[1], max(need)), True
        try:
            import pyarrow as pa
            import pyarrow.compute as pc

            both = pa.chunked_array([arrays[0], arrays[1].cast(arrays[0].type)])
            codes = np.asarray(pc.dictionary_encode(both).combine_chunks().indices, dtype=np.uint64)
            return codes[: len(run_d)], codes[len(run_d) :], False
        except (pa.ArrowException, TypeError, ValueError):  # pragma: no cover - defensive
            pass
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


#: Join through a hash table first (see :func:`_join`); a test turns it off to reach the sort.
_HASH_JOIN = True


def _join(
    run_keys: np.ndarray,
    qrels_keys: np.ndarray,
    run_codes: np.ndarray,
    qrels_codes: np.ndarray,
    n_queries: int,
    rows: np.ndarray | None = None,
) -> tuple[np.ndarray, list[tuple[int, int]], list[tuple[int, int]]]:
    """For each run row (or each of ``rows``), its qrels row (or -1); and duplicate pairs on each side.

    A table of the qrels' (query, document) pair hashes answers when no pair
    repeats and no two pairs share a hash (:func:`_hash_join`, about twice as
    fast as a sort); otherwise the sort of :func:`_sort_join` decides, exactly,
    and names the duplicates. Duplicates are looked for among every row either way.
    """
    if _HASH_JOIN:
        match = _hash_join(run_keys, qrels_keys, run_codes, qrels_codes, rows)
        if match is not None:
            return match, [], []
    match, run_dups, qrels_dups = _sort_join(run_keys, qrels_keys, run_codes, qrels_codes, n_queries)
    return (match if rows is None else match[rows]), run_dups, qrels_dups


def _pair_hash(keys: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each (query code, document key) pair."""
    s = _key_hash(keys)
    s ^= codes.astype(np.uint64) * _QUERY_MIX
    s *= _HASH_MULTIPLIER
    return s


class _HashTable:
    """Positions of distinct uint64 values: pandas' own hash table, or a pandas Index without it."""

    def __init__(self, values: np.ndarray):
        try:  # the table behind pd.Index.get_indexer, without the Index (a third faster here)
            from pandas._libs.hashtable import UInt64HashTable

            self.table = UInt64HashTable(len(values))
            self.table.map_locations(values)
            self.unique = len(self.table) == len(values)
        except (ImportError, AttributeError, TypeError):  # pragma: no cover - another pandas
            self.table = pd.Index(values)
            self.unique = self.table.is_unique

    def lookup(self, values: np.ndarray) -> np.ndarray:
        """Each value's position (the last, if it repeats), or -1."""
        if isinstance(self.table, pd.Index):  # pragma: no cover - another pandas
            return np.asarray(self.table.get_indexer(values), dtype=np.int64)
        return np.asarray(self.table.lookup(values), dtype=np.int64)


#: Slots per value of a :class:`_SlotTable` (a power of two at least this many times the values).
_SLOT_SPREAD = 2

#: A :class:`_SlotTable`'s values that lost their slot go to another slot table, or to a hash
#: table when there are at most this many.
_SLOT_SPILL = 4096


class _SlotTable:
    """Positions of well-mixed uint64 values (hashes), in a direct-mapped table built by numpy.

    Each value's top bits pick a slot among at least ``_SLOT_SPREAD`` per value; one scatter
    fills the table and a gather tells which values lost their slot to another (one in five to
    one in nine): those go to a smaller table of the same kind, and the last few to a
    :class:`_HashTable`. About twice as fast to build as a hash table of every value, about as
    fast to query. ``unique`` is
    exact: equal values share a slot, so one of them lost it to the other (the values compared say
    so) or both lost (the spill table sees it).
    """

    def __init__(self, values: np.ndarray):
        n = len(values)
        self.values = values
        bits = max(int(_SLOT_SPREAD * n - 1).bit_length(), 1)
        self.shift = np.uint64(64 - bits)
        slot = (values >> self.shift).view(np.int64)
        kind = np.int32 if n < 1 << 31 else np.int64
        rows = np.arange(n, dtype=kind)
        table = np.full(1 << bits, -1, dtype=kind)
        table[slot] = rows  # one of the values sharing a slot wins it, whichever
        winner = table[slot]
        lost = np.flatnonzero(winner != rows)
        self.table, self.unique, self.spill = table, True, None
        if lost.size:
            lost_values = values[lost]
            # another slot table while that pays (well-spread values); a hash table past that
            spread = _SLOT_SPILL < lost.size <= n // 2
            self.spill = _SlotTable(lost_values) if spread else _HashTable(lost_values)
            self.unique = self.spill.unique and not (lost_values == values[winner[lost]]).any()
            self.lost = lost
            self.crowded = np.zeros(1 << bits, dtype=bool)  # slots some value lost
            self.crowded[slot[lost]] = True

    def lookup(self, values: np.ndarray) -> np.ndarray:
        """Each value's position, or -1 (for a table of unique values)."""
        slot = (values >> self.shift).view(np.int64)
        found = self.table[slot].astype(np.int64)
        missing = self.values[found] != values  # found -1 reads the last value: also checked below
        missing |= found < 0
        found[missing] = -1
        if self.spill is not None:
            need = np.flatnonzero(missing)
            need = need[self.crowded[slot[need]]]
            if need.size:
                got = self.spill.lookup(values[need])
                found[need] = np.where(got >= 0, self.lost[got], -1)
        return found


def _hash_join(run_keys, qrels_keys, run_codes, qrels_codes, rows=None) -> np.ndarray | None:
    """Each run row's (or each of ``rows``') qrels row (or -1) through a table of pair hashes; None if unsure.

    Equal pairs always hash alike, so a missing hash means a missing pair. Each
    match found is checked against the keys themselves; None (sort instead) if
    one is false, or if a hash repeats on either side (a duplicate pair or a
    collision). With ``rows``, every run row's hash is still checked for repeats
    (a table of them, cheaper than looking every row up), and only ``rows`` are looked up.
    """
    n_run, n_qrels = len(run_keys), len(qrels_keys)
    if n_run == 0 or n_qrels == 0:
        return None
    table = _SlotTable(_pair_hash(qrels_keys, qrels_codes))
    if not table.unique:
        return None
    run_hash = _pair_hash(run_keys, run_codes)
    if rows is not None:
        if not _SlotTable(run_hash).unique:
            return None
        match = table.lookup(run_hash[rows])
        hit = np.flatnonzero(match >= 0)
        found, hit_rows = match[hit], rows[hit]
        if (run_codes[hit_rows] != qrels_codes[found]).any():
            return None
        if run_keys.ndim > 1 and _differ(_take(run_keys, hit_rows), _take(qrels_keys, found)).any():
            return None
        return match  # both sides' pairs distinct: each judgement matched at most once
    match = table.lookup(run_hash)
    hit = np.flatnonzero(match >= 0)
    found = match[hit]
    if (run_codes[hit] != qrels_codes[found]).any():
        return None
    # One-word keys: for one query code the pair hash is a bijection of the key (odd multipliers),
    # so equal hashes and codes mean equal keys. Rows of words hash with losses: compare them.
    if run_keys.ndim > 1 and _differ(_take(run_keys, hit), _take(qrels_keys, found)).any():
        return None
    if found.size and np.bincount(found, minlength=n_qrels).max() > 1:
        return None  # two run rows matched one judgement: the same pair twice
    if hit.size < n_run - 1 and not _SlotTable(run_hash[match < 0]).unique:
        return None
    return match


def _sort_join(
    run_keys: np.ndarray,
    qrels_keys: np.ndarray,
    run_codes: np.ndarray,
    qrels_codes: np.ndarray,
    n_queries: int,
) -> tuple[np.ndarray, list[tuple[int, int]], list[tuple[int, int]]]:
    """:func:`_join` by sorting: exact whatever the keys, and it finds every duplicate pair.

    One sort of (query, hash of the document, row) puts the rows of each
    (query, document) pair next to each other, run rows first: no pandas
    merge and no hash table. Multiplying by an odd constant is a bijection of
    uint64, so its top bits are a well-mixed hash. Rows of one query stay
    together, so reading the pairs back touches memory in order. A collision
    of two different documents is noticed (their keys differ) and the queries
    involved are joined again exactly.
    """
    n_run = len(run_keys)
    n = n_run + len(qrels_keys)
    match = np.full(n_run, -1, dtype=np.int64)
    if n == 0:
        return match, [], []
    u64 = np.uint64
    keys = np.concatenate([run_keys, qrels_keys])
    codes = np.concatenate([run_codes, qrels_codes])
    qb, rb = _bits(n_queries), _bits(n)
    by_query = 64 - qb - rb >= _MIN_HASH_BITS
    s = _key_hash(keys)
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
    bad = _keys_differ(keys, a, b)
    if not by_query:
        bad |= codes[a] != codes[b]
    if bad.any():  # hash collisions: join the queries involved exactly
        redo = np.unique(np.concatenate([codes[a[bad]], codes[b[bad]]]))
        fine = ~np.isin(codes[a], redo)
        rows = np.flatnonzero(np.isin(codes, redo))
        order = rows[np.lexsort((rows, *_key_columns(_take(keys, rows)), codes[rows]))]
        cs = codes[order]
        same = np.flatnonzero(~_keys_differ(keys, order[1:], order[:-1]) & (cs[1:] == cs[:-1]))
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

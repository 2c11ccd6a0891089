"""NDCG over a whole data set: many queries at once, vectorised.

:func:`evaluate` scores every query of a run against a set of relevance
judgements (qrels) in one pass of array operations: no Python loop per query.
Each query's numbers are those :func:`ndcg_core.ndcg` gives for that query's
ranked grades with the judged pool as ``ideal``. :func:`aggregate` averages a
data set both ways (mean of NDCG and ΣDCG/ΣIDCG) and says what the IDCG = 0
policy did. :func:`read_qrels` and :func:`read_run` load TREC files and
CSV/TSV tables with a header.

Examples
--------
>>> import pandas as pd
>>> from ndcg_core import evaluate, aggregate
>>> qrels = pd.DataFrame({"query": ["q1", "q1", "q2"], "doc": ["a", "b", "c"], "relevance": [1, 2, 0]})
>>> run = pd.DataFrame({"query": ["q1", "q1", "q2"], "doc": ["a", "b", "c"], "score": [0.9, 0.1, 0.5]})
>>> per_query = evaluate(qrels, run)
>>> per_query[["query", "dcg", "idcg", "ndcg"]].round(3)
  query    dcg   idcg  ndcg
0    q1  2.262  2.631  0.86
1    q2  0.000  0.000  0.00
>>> agg = aggregate(per_query)
>>> round(agg.mean_ndcg, 3), round(agg.ratio_of_sums, 3), agg.n_idcg_zero
(0.43, 0.86, 1)
"""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from .metrics import gains as _gains
from .presets import Preset, as_spec
from .spec import DUPLICATE_RULES, IDEAL_SOURCES, QUERY_RULES, Spec
from .variants import TIES, Variant

__all__ = [
    "DUPLICATE_RULES",
    "IDEAL_SOURCES",
    "QUERY_RULES",
    "TIE_RULES",
    "Aggregate",
    "aggregate",
    "evaluate",
    "read_qrels",
    "read_run",
]

#: Tie rules :func:`evaluate` can apply over a data set (descriptions from the schema).
#: ``reverse_argsort`` depends on numpy's sort internals for each list and is left out.
TIE_RULES: dict[str, str] = {t: TIES[t] for t in ("docid_desc", "stable", "average")}

#: Where :func:`evaluate` starts when no preset is given: the schema's defaults with
#: trec_eval's tie order, so that the numbers match trec_eval's exactly.
DATASET_BASE = Spec(Variant(ties="docid_desc"))

_ALIASES: dict[str, tuple[str, ...]] = {
    "query": ("query", "qid", "query_id", "queryid", "topic", "topic_id", "topicid", "q"),
    "doc": ("doc", "docid", "docno", "doc_id", "document", "document_id", "pid", "item", "item_id"),
    "relevance": ("relevance", "rel", "label", "grade", "judgment", "judgement", "qrel", "relevance_grade"),
    "score": ("score", "sim", "similarity", "prediction", "pred", "rank_score"),
}
_QRELS_COLUMNS = ("query", "doc", "relevance")
_RUN_COLUMNS = ("query", "doc", "score")
_HASH_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # odd: a bijection of uint64 (Fibonacci hashing)


# --------------------------------------------------------------------------- columns


def _normalize_columns(df: Any, expected: tuple[str, ...], what: str) -> pd.DataFrame:
    """Rename known aliases (case-insensitively) to ``expected``; raise listing what was found."""
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"{what} must be a pandas DataFrame with columns {', '.join(expected)}")
    found = {str(c).strip().lower(): c for c in df.columns}
    rename, missing = {}, []
    for name in expected:
        hit = next((found[a] for a in _ALIASES[name] if a in found), None)
        if hit is None:
            missing.append(name)
        else:
            rename[hit] = name
    if missing:
        shown = ", ".join(repr(str(c)) for c in df.columns) or "no columns"
        hints = "; ".join(f"{m}: {', '.join(_ALIASES[m])}" for m in missing)
        raise ValueError(
            f"{what} needs columns {', '.join(expected)}; missing {', '.join(missing)} "
            f"(accepted names, any case: {hints}); found {shown}"
        )
    return df[list(rename)].rename(columns=rename)


def _row_name(index: pd.Index, i: int) -> str:
    label = index[i]
    return f"line {label}" if index.name == "line" else f"row {label}"


def _show(value: Any) -> str:
    if hasattr(value, "item"):
        value = value.item()
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return "missing (NaN)"
    return repr(value)


def _numeric(values: pd.Series, what: str, table: str) -> np.ndarray:
    """A float array of finite numbers, or a ValueError naming the first bad row."""
    if isinstance(values.dtype, np.dtype) and values.dtype.kind in "fiub":  # numbers already
        arr = values.to_numpy(dtype=float)
    else:
        arr = np.asarray(pd.to_numeric(values, errors="coerce"), dtype=float)
    finite = np.isfinite(arr)
    if not finite.all():
        bad = np.flatnonzero(~finite)
        i = int(bad[0])
        raise ValueError(
            f"{table}: {what} on {_row_name(values.index, i)} is {_show(values.iloc[i])}, "
            "expected a finite number" + (f" ({bad.size} such rows)" if bad.size > 1 else "")
        )
    return arr


# --------------------------------------------------------------------------- ids to integers


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


# --------------------------------------------------------------------------- sort keys
#
# Every grouping below is one ``np.sort`` of packed uint64 keys: what to group
# or order by in the high bits, and where the element came from in the low
# bits. numpy sorts plain integers with SIMD, several times faster than an
# argsort; the low bits make the order stable and tell, once sorted, which row
# each element is: no argsort, no permutation to gather, no padded matrices.


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


#: Rows (run + qrels) per block of queries evaluated together; see :func:`_blocks`.
_BLOCK_ROWS = 1 << 18
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


# --------------------------------------------------------------------------- evaluate


def _gain_lookup(grades: np.ndarray, gain: Any) -> np.ndarray:
    """Gains of an array of grades through :func:`ndcg_core.gains` on its distinct values."""
    if grades.size == 0:
        return grades.astype(float)
    uniq = np.sort(pd.unique(grades))
    return _gains(uniq, gain)[np.searchsorted(uniq, grades)]


def _text_rank(values: np.ndarray) -> np.ndarray:
    """Dense rank of ids compared as text (how trec_eval compares document numbers)."""
    text = np.array([str(v) for v in values], dtype=object)
    _, inverse = np.unique(text, return_inverse=True)
    return inverse


def evaluate(
    qrels: pd.DataFrame,
    run: pd.DataFrame,
    k: int | None = None,
    *,
    spec: Spec | None = None,
    preset: str | Preset | None = None,
    gain: str | Mapping[float, float] | None = None,
    discount: str | None = None,
    log_base: float | None = None,
    zero_idcg: str | None = None,
    ties: str | None = None,
    ideal: str | None = None,
    queries: str | None = None,
    duplicates: str | None = None,
    score_dtype: str | None = None,
) -> pd.DataFrame:
    """NDCG@k of every query of a run, in one vectorised pass.

    Parameters
    ----------
    qrels : pandas.DataFrame
        Relevance judgements, columns ``query``, ``doc``, ``relevance`` (aliases
        such as ``qid``, ``docno``, ``label`` are accepted, in any case). The
        judged pool may include documents the run did not retrieve. A
        (query, doc) pair listed twice is an error.
    run : pandas.DataFrame
        Retrieved documents, columns ``query``, ``doc``, ``score``; a higher
        score ranks first. A retrieved document missing from the qrels is
        unjudged and has grade 0.
    k : int, optional
        Cutoff. ``None`` means no cutoff on either side: DCG over every
        retrieved document and IDCG over the whole ideal pool, as trec_eval's
        ``ndcg``. (Note: :func:`ndcg_core.ndcg` with ``k=None`` cuts the ideal
        at the list's length instead; pass ``k`` explicitly to compare.)
    spec : Spec, optional
        Every choice at once (see :func:`ndcg_core.resolve`); then give no
        preset or keyword below (``k`` may still replace its cutoff).
    preset : str, optional
        A library's conventions from :data:`ndcg_core.PRESETS`: its formula,
        input rules and the queries it scores. ``queries`` and ``duplicates``
        may still be chosen; a formula keyword that contradicts it is refused.
    gain, discount, log_base, zero_idcg
        The formula variant, exactly as in :func:`ndcg_core.ndcg` (``None``:
        the schema's default).
        ``zero_idcg`` decides the NDCG of a query whose IDCG is not positive:
        ``"zero"``, ``"one"``, ``"skip"`` (NaN) or ``"error"``.
    ties : {"docid_desc", "stable", "average"}, optional, default "docid_desc"
        How equal scores are ordered; see :data:`TIE_RULES`. The default is
        trec_eval's rule (:data:`DATASET_BASE`), so the numbers match
        trec_eval's exactly.
    ideal : {"pool", "retrieved"}, optional, default "pool"
        Where the ideal ordering comes from; see :data:`IDEAL_SOURCES`.
    queries : {"union", "run", "qrels", "both"}, optional, default "union"
        Which queries get a row when the two sides disagree; see
        :data:`QUERY_RULES`.
    duplicates : {"error", "max"}, optional, default "error"
        A document listed twice for one query in the run; see
        :data:`DUPLICATE_RULES`.
    score_dtype : {"float64", "float32"}, optional, default "float64"
        Compare scores at this precision (``"docid_desc"`` always uses float32).

    Returns
    -------
    pandas.DataFrame
        One row per query: ``query``, ``dcg``, ``idcg``, ``ndcg``,
        ``n_retrieved``, ``n_judged``, ``n_relevant`` (judged with a positive
        grade), ``idcg_zero``, ``in_run``, ``in_qrels``. Queries come in the
        order they first appear in the run, then qrels-only ones. The spec
        used is kept in ``.attrs["spec"]`` for :func:`aggregate`.

    Raises
    ------
    ValueError
        Missing columns, non-numeric grades or scores (naming the row), a
        duplicate pair, an unknown option, a grade missing from a custom gain
        table, or IDCG = 0 with ``zero_idcg="error"`` (naming the queries).

    Examples
    --------
    Document ``c`` is judged relevant but was not retrieved: it still counts
    in the ideal ordering. ``b`` was retrieved but never judged: grade 0.

    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"query": ["q1"] * 3, "doc": ["a", "c", "d"], "relevance": [1, 1, 0]})
    >>> run = pd.DataFrame({"query": ["q1"] * 2, "doc": ["a", "b"], "score": [2.0, 1.0]})
    >>> evaluate(qrels, run, k=2)[["query", "dcg", "idcg", "ndcg", "n_retrieved", "n_judged"]].round(3)
      query  dcg   idcg   ndcg  n_retrieved  n_judged
    0    q1  1.0  1.631  0.613            2         3
    """
    spec = as_spec(
        spec,
        preset,
        base=DATASET_BASE,
        k=k,
        gain=gain,
        discount=discount,
        log_base=log_base,
        zero_idcg=zero_idcg,
        ties=ties,
        ideal_source=ideal,
        queries=queries,
        duplicates=duplicates,
        score_dtype=score_dtype,
    )
    if spec.variant.ties not in TIE_RULES:
        raise ValueError(
            f"ties={spec.variant.ties!r} depends on numpy's sort internals for each list and cannot be "
            "reproduced over a data set; choose one of "
            + ", ".join(repr(t) for t in TIE_RULES)
            + (" (or preset='sklearn', tie-averaged)" if spec.preset else "")
        )
    k = spec.k

    qrels = _normalize_columns(qrels, _QRELS_COLUMNS, "qrels")
    run = _normalize_columns(run, _RUN_COLUMNS, "run")
    grades = _numeric(qrels["relevance"], "relevance", "qrels")
    spec.check_grades(grades, lambda i: f"on {_row_name(qrels.index, i)}", "these qrels")
    grades = spec.rewrite_grades(grades)
    scores = _numeric(run["score"], "score", "run")
    run_codes, qrels_codes, labels = _query_codes(run["query"], qrels["query"])
    nq = labels.size
    dcg_value, idcg_value, n_ret = np.zeros(nq), np.zeros(nq), np.zeros(nq, dtype=np.int64)
    # Blocks need both tables grouped by query in the same order: when they are not, the
    # arrays (not the DataFrames) are put in that order and the blocks read the tables through it.
    run_order = qrels_order = keys = None
    by_code = (run_codes, qrels_codes, scores, grades)
    if run_codes.size + qrels_codes.size > _BLOCK_ROWS:
        run_order, qrels_order = _group_order(run_codes, nq), _group_order(qrels_codes, nq)
        if run_order is not None or qrels_order is not None:
            keys = _doc_keys(run["doc"], qrels["doc"])
            run_order = np.arange(run_codes.size) if run_order is None else run_order
            qrels_order = np.arange(qrels_codes.size) if qrels_order is None else qrels_order
            by_code = (run_codes[run_order], qrels_codes[qrels_order], scores[run_order], grades[qrels_order])

    def one_block(bounds):
        qa, qb, ra, rb, ja, jb = bounds
        run_rows = slice(ra, rb) if run_order is None else run_order[ra:rb]
        qrels_rows = slice(ja, jb) if qrels_order is None else qrels_order[ja:jb]
        return _evaluate_block(
            _Part(run, run_rows),
            _Part(qrels, qrels_rows),
            None if keys is None else (keys[0][run_rows], keys[1][qrels_rows], keys[2]),
            by_code[0][ra:rb] - qa,
            by_code[1][ja:jb] - qa,
            qb - qa,
            by_code[2][ra:rb],
            by_code[3][ja:jb],
            spec,
        )

    blocks = list(_blocks(by_code[0], by_code[1], nq))
    for (qa, qb, *_), (d, i, n) in zip(blocks, _map_blocks(one_block, blocks), strict=True):
        dcg_value[qa:qb], idcg_value[qa:qb], n_ret[qa:qb] = d, i, n
    if spec.min_items and (short := (n_ret > 0) & (n_ret < spec.min_items)).any():
        raise spec.refusal(
            f"{spec.min_items_error} (it retrieved {n_ret[short][0]})", f"query {labels[short][0]!r}"
        )
    n_judged = np.bincount(qrels_codes, minlength=nq)
    n_relevant = np.bincount(qrels_codes, weights=(grades > 0), minlength=nq).astype(np.int64)
    in_run, in_qrels = n_ret > 0, n_judged > 0
    keep_q = {
        "union": np.ones(nq, dtype=bool),
        "run": in_run,
        "qrels": in_qrels,
        "both": in_run & in_qrels,
    }[spec.queries]
    zero = spec.undefined(idcg_value)
    if spec.variant.zero_idcg == "error" and (zero & keep_q).any():
        bad = labels[zero & keep_q]
        shown = ", ".join(repr(x) for x in bad[:5]) + (", ..." if bad.size > 5 else "")
        raise ValueError(
            f"IDCG is 0 for {bad.size} quer{'y' if bad.size == 1 else 'ies'} ({shown}): nothing relevant "
            "to find, so NDCG is undefined (choose zero_idcg='zero', 'one' or 'skip')"
        )
    ndcg_value = spec.normalize(dcg_value, idcg_value)
    out = pd.DataFrame(
        {
            "query": labels,
            "dcg": dcg_value,
            "idcg": idcg_value,
            "ndcg": ndcg_value,
            "n_retrieved": n_ret,
            "n_judged": n_judged,
            "n_relevant": n_relevant,
            "idcg_zero": zero,
            "in_run": in_run,
            "in_qrels": in_qrels,
        }
    )
    out = out[keep_q].reset_index(drop=True)
    out.attrs["spec"] = spec
    return out


#: Threads evaluating blocks at once (numpy's sorts and array passes release the GIL).
_THREADS = min(2, os.cpu_count() or 1)


def _map_blocks(fn, blocks: list):
    """``map(fn, blocks)`` in order, on up to :data:`_THREADS` threads; the first block's error wins."""
    if _THREADS < 2 or len(blocks) < 2:
        yield from map(fn, blocks)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(_THREADS) as pool:
        futures = [pool.submit(fn, b) for b in blocks]
        try:
            for f in futures:
                yield f.result()
        finally:
            for f in futures:
                f.cancel()


def _group_order(codes: np.ndarray, nq: int) -> np.ndarray | None:
    """A stable order grouping the rows by query code (radix sorts of 16 bits), or None if they are."""
    if codes.size < 2 or np.all(codes[1:] >= codes[:-1]):
        return None
    if nq <= 65536:
        return np.argsort(codes.astype(np.uint16), kind="stable")
    order = np.argsort((codes & 0xFFFF).astype(np.uint16), kind="stable")
    return order[np.argsort((codes[order] >> 16).astype(np.uint16), kind="stable")]


def _blocks(run_codes: np.ndarray, qrels_codes: np.ndarray, nq: int):
    """Query ranges to evaluate one after another, about ``_BLOCK_ROWS`` rows each.

    When both tables list their queries in the same order (as sorted TREC files
    do), they are cut at query boundaries, so every array of a block stays in
    the CPU's cache while a dozen passes run over it (2**18 rows measured
    about 1.4x faster than 2**21 at 10M rows). Otherwise there is one block.
    """
    n_run, n_qrels = run_codes.size, qrels_codes.size
    grouped = (n_run < 2 or bool(np.all(run_codes[1:] >= run_codes[:-1]))) and (
        n_qrels < 2 or bool(np.all(qrels_codes[1:] >= qrels_codes[:-1]))
    )
    if not grouped or n_run + n_qrels <= _BLOCK_ROWS:
        yield 0, nq, 0, n_run, 0, n_qrels
        return
    run_end = np.cumsum(np.bincount(run_codes, minlength=nq))
    qrels_end = np.cumsum(np.bincount(qrels_codes, minlength=nq))
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

    def subset(self, keep: np.ndarray) -> _Part:
        rows = self.rows
        if isinstance(rows, slice):
            rows = np.arange(rows.start, rows.stop)
        return _Part(self.frame, rows[keep])

    def describe(self, i: int) -> tuple[Any, Any, str]:
        """Document, query and row name of the block's row ``i``."""
        at = self.rows.start + i if isinstance(self.rows, slice) else int(self.rows[i])
        return self.frame["doc"].iloc[at], self.frame["query"].iloc[at], _row_name(self.frame.index, at)


def _evaluate_block(run, qrels, keys, run_codes, qrels_codes, nq, scores, grades, spec: Spec):
    """DCG, IDCG and documents retrieved for the queries ``0 .. nq - 1`` of one block.

    ``run`` and ``qrels`` are :class:`_Part` s; ``keys`` the block's document
    keys if already computed (see :func:`_doc_keys`).
    """
    if keys is None:
        keys = _doc_keys(run.column("doc"), qrels.column("doc"))
    run_keys, qrels_keys, keys_ordered = keys
    v = spec.variant
    gain = v.gain_table if v.gain_table is not None else v.gain

    match, run_dups, qrels_dups = _join(run_keys, qrels_keys, run_codes, qrels_codes, nq)
    if qrels_dups:
        (doc, query, first), (_, _, second) = (qrels.describe(i) for i in qrels_dups[0])
        raise ValueError(
            f"qrels: document {doc!r} is judged twice for query {query!r} ({first} and {second}); "
            "each (query, doc) pair must appear once"
            + (f" ({len(qrels_dups)} duplicate pairs in all)" if len(qrels_dups) > 1 else "")
        )
    if run_dups:
        if spec.duplicates == "error":
            (doc, query, first), (_, _, second) = (run.describe(i) for i in run_dups[0])
            raise ValueError(
                f"run: document {doc!r} is retrieved twice for query {query!r} ({first} and {second}); "
                "remove one, or pass duplicates='max' to keep the higher score"
                + (f" ({len(run_dups)} duplicate pairs in all)" if len(run_dups) > 1 else "")
            )
        keep = _keep_max(run_dups, run_codes, run_keys, scores)
        run = run.subset(keep)
        run_codes, run_keys, scores = run_codes[keep], run_keys[keep], scores[keep]
        match, _, _ = _join(run_keys, qrels_keys, run_codes, qrels_codes, nq)

    levels, qrels_level = _grade_levels(grades, gain)
    qrels_gain = levels[qrels_level]
    if spec.drop_negative:
        run_grades = np.append(grades, 0.0)[match]  # match -1 (unjudged): grade 0
        if (run_grades < 0).any():
            keep = np.flatnonzero(run_grades >= 0)  # the library treats negative labels as padding
            run = run.subset(keep)
            run_codes, run_keys, scores, match = run_codes[keep], run_keys[keep], scores[keep], match[keep]
    if match.size and match.min() < 0:
        try:
            zero_gain = _gain_lookup(np.zeros(1), gain)[0]
        except ValueError as err:
            raise ValueError(f"{err} (unjudged retrieved documents count as grade 0)") from None
        run_gain = np.append(qrels_gain, zero_gain)[match]  # match -1 (unjudged): the last one
    else:
        run_gain = qrels_gain[match]

    if spec.score_dtype == "float32" or v.ties == "docid_desc":
        scores = scores.astype(np.float32)
    tie_key: Any = None
    if v.ties == "docid_desc":
        tie_key = run_keys if keys_ordered else run.column("doc")
    run_at = _Rows(run_codes, nq)
    dcg_value = _dcg_by_query(run_at, scores, run_gain, tie_key, v, nq)
    n_ret = run_at.counts

    depth = n_ret if spec.ideal_depth == "retrieved" else None
    if spec.ideal_source == "pool":
        idcg_value = _ideal_by_query(_Rows(qrels_codes, nq), levels, qrels_level, v, nq, depth)
    else:
        idcg_value = _ideal_by_query(run_at, *_levels(run_gain), v, nq)

    return dcg_value, idcg_value, n_ret


def _keep_max(pairs: list[tuple[int, int]], codes: np.ndarray, keys: np.ndarray, scores: np.ndarray):
    involved = np.unique(np.array(pairs).ravel())
    frame = pd.DataFrame({"q": codes[involved], "k": keys[involved], "s": scores[involved], "i": involved})
    best = frame.sort_values(["s", "i"], ascending=[False, True]).drop_duplicates(["q", "k"])["i"]
    drop = np.setdiff1d(involved, best.to_numpy())
    keep = np.ones(codes.size, dtype=bool)
    keep[drop] = False
    return np.flatnonzero(keep)


def _inverse_divisors(n: int, discount: str, log_base: float) -> np.ndarray:
    from .metrics import divisors

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


def _dcg_by_query(at: _Rows, scores, row_gain, tie_key, v: Variant, nq):
    """DCG@k per query: one sort ranks every query's rows; only the top k (and ties across k) are read."""
    dcg_value = np.zeros(nq)
    if at.codes.size == 0:
        return dcg_value
    k = v.k
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
    dcg_value += np.bincount(q, weights=g * divs[rank], minlength=nq)
    return dcg_value


def _break_ties(rows: np.ndarray, group: np.ndarray, in_tie: np.ndarray, tie_key: Any) -> np.ndarray:
    """Reorder the rows inside each tie group by document id (as text), descending."""
    at = np.flatnonzero(in_tie)
    tied_rows = rows[at]
    if isinstance(tie_key, np.ndarray):  # packed ids (see _pack8)
        secondary = ~_text_order(tie_key[tied_rows])
    else:
        secondary = -_text_rank(tie_key.iloc[tied_rows].to_numpy())
    out = rows.copy()
    out[at] = tied_rows[np.lexsort((secondary, group[at]))]
    return out


def _levels(gain: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct gains, best first, and each element's index among them."""
    levels = np.sort(pd.unique(gain))[::-1]
    return levels, (levels.size - 1 - np.searchsorted(levels[::-1], gain)).astype(np.int64)


def _ideal_by_query(at: _Rows, levels, level, v: Variant, nq, depth=None):
    """IDCG@k per query: each query's gains sorted best first (k=None: all of them).

    ``levels`` are the distinct gains best first and ``level`` each row's
    index among them. With few levels a counting sort ranks every pool: each
    query's ideal list is level 0 repeated as often as it occurs, then level
    1, and so on. Otherwise one sort of (query, level) does.
    """
    idcg_value = np.zeros(nq)
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
    idcg_value += np.bincount(q, weights=gain * divs[rank], minlength=nq)
    return idcg_value


def _grade_levels(grades: np.ndarray, gain: Any) -> tuple[np.ndarray, np.ndarray]:
    """The distinct gains of these grades, best first, and each grade's index among them."""
    if grades.size == 0:
        return np.zeros(0), np.zeros(0, dtype=np.int64)
    low, high = float(grades.min()), float(grades.max())
    if high - low < 65536:
        small = (grades - low).astype(np.int64)
        if np.array_equal(small + low, grades):  # integer grades in a small range: a lookup table
            present = np.flatnonzero(np.bincount(small))
            levels, of_grade = _levels(_gains(present + low, gain))
            table = np.zeros(int(present[-1]) + 1, dtype=np.int64)
            table[present] = of_grade
            return levels, table[small]
    uniq = np.sort(pd.unique(grades))
    levels, of_grade = _levels(_gains(uniq, gain))
    return levels, of_grade[np.searchsorted(uniq, grades)]


# --------------------------------------------------------------------------- aggregate


@dataclass(frozen=True)
class Aggregate:
    """A data set's NDCG, averaged both ways.

    Attributes
    ----------
    n_queries : int
        Rows of the per-query table.
    mean_ndcg : float
        Mean of per-query NDCG: every query one vote (NaN scores left out).
    ratio_of_sums : float
        ΣDCG / ΣIDCG: queries with a large IDCG weigh more. IDCG = 0 queries
        add nothing to the denominator whatever the policy. NaN if ΣIDCG = 0.
    n_idcg_zero : int
        Queries whose IDCG is not positive.
    zero_idcg : str
        The policy applied to them.
    n_in_mean : int
        Queries counted in ``mean_ndcg``.
    policy_effect : str
        One sentence saying what the policy did to the mean.
    """

    n_queries: int
    mean_ndcg: float
    ratio_of_sums: float
    n_idcg_zero: int
    zero_idcg: str
    n_in_mean: int
    policy_effect: str

    def as_dict(self) -> dict[str, Any]:
        """The fields as a plain dict (for a table or JSON)."""
        return dict(self.__dict__)


def aggregate(per_query: pd.DataFrame, zero_idcg: str | None = None) -> Aggregate:
    """Average a per-query table from :func:`evaluate` both ways.

    Parameters
    ----------
    per_query : pandas.DataFrame
        Needs columns ``dcg`` and ``idcg`` (``ndcg`` is recomputed from them).
    zero_idcg : {"zero", "one", "skip", "error"}, optional
        Policy for IDCG = 0 queries; default: the one :func:`evaluate` used
        (``"zero"`` if unknown). Passing another shows its effect.

    Returns
    -------
    Aggregate

    Examples
    --------
    Seed 003 ("Intro to NDCG") averages three queries both ways:

    >>> import pandas as pd
    >>> table = pd.DataFrame({"dcg": [2.0, 0.5, 0.0], "idcg": [4.0, 0.5, 0.0]})
    >>> a = aggregate(table)
    >>> a.mean_ndcg, a.ratio_of_sums, a.n_idcg_zero
    (0.5, 0.5555555555555556, 1)
    >>> aggregate(table, zero_idcg="skip").mean_ndcg
    0.75
    >>> print(a.policy_effect)
    1 of 3 queries have IDCG = 0; zero_idcg='zero' scored them 0 and kept them in the mean.
    """
    if not isinstance(per_query, pd.DataFrame) or not {"dcg", "idcg"} <= set(per_query.columns):
        found = list(per_query.columns) if isinstance(per_query, pd.DataFrame) else type(per_query).__name__
        raise ValueError(f"aggregate needs the table from evaluate() with columns dcg and idcg; got {found}")
    spec = per_query.attrs.get("spec", Spec())
    if zero_idcg is not None:
        spec = replace(spec, variant=spec.variant.with_(zero_idcg=zero_idcg))
    policy = spec.variant.zero_idcg
    dcg_value = per_query["dcg"].to_numpy(dtype=float)
    idcg_value = per_query["idcg"].to_numpy(dtype=float)
    zero = spec.undefined(idcg_value)
    n, nz = dcg_value.size, int(zero.sum())
    if policy == "error" and nz:
        raise ValueError(f"{nz} of {n} queries have IDCG = 0 and zero_idcg='error'")
    scores = spec.normalize(dcg_value, idcg_value)
    counted = np.isfinite(scores)
    mean = float(scores[counted].mean()) if counted.any() else math.nan
    total_idcg = float(idcg_value[~zero].sum())
    ratio = float(dcg_value.sum()) / total_idcg if total_idcg > 0 else math.nan
    if nz == 0:
        effect = f"No query has IDCG = 0; zero_idcg={policy!r} changed nothing."
    else:
        what = {
            "zero": "scored them 0 and kept them in the mean",
            "one": "scored them 1 and kept them in the mean",
            "skip": "left them out of the mean",
            "error": "",
        }[policy]
        effect = f"{nz} of {n} queries have IDCG = 0; zero_idcg={policy!r} {what}."
    return Aggregate(n, mean, ratio, nz, policy, int(counted.sum()), effect)


# --------------------------------------------------------------------------- reading files


def _read_text(source: Any) -> tuple[str, str]:
    """The whole text of a path or file-like object, and a name for messages."""
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        try:
            with open(name, "rb") as fh:
                raw = fh.read()
        except OSError as err:
            raise ValueError(f"cannot read {name!r}: {err.strerror or err}") from None
    elif hasattr(source, "read"):
        name = getattr(source, "name", None) or "the uploaded file"
        if hasattr(source, "seek"):
            source.seek(0)
        raw = source.read()
    else:
        raise ValueError(f"expected a file path or a file-like object, got {type(source).__name__}")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise ValueError(f"{name}: not UTF-8 text (byte {err.start}): is this a text file?") from None
    return raw, str(name)


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _read_table(source: Any, kind: str) -> pd.DataFrame:
    expected = _QRELS_COLUMNS if kind == "qrels" else _RUN_COLUMNS
    value_col = expected[2]
    text, name = _read_text(source)
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        trec = "query 0 doc grade" if kind == "qrels" else "query Q0 doc rank score tag"
        raise ValueError(
            f"{name} is empty: expected {kind} lines such as '{trec}' or a CSV/TSV table with a header "
            f"({', '.join(expected)})"
        )
    fields = lines[first].split()
    trec_width = 4 if kind == "qrels" else 6
    value_at = 3 if kind == "qrels" else 4
    looks_trec = len(fields) == trec_width and _is_number(fields[value_at])
    if looks_trec:
        names = ["query", "iter", "doc", "relevance"] if kind == "qrels" else [
            "query", "q0", "doc", "rank", "score", "tag"
        ]  # fmt: skip
        line_base = 1
        try:
            df = pd.read_csv(
                io.StringIO(text),
                sep=r"\s+",
                header=None,
                names=names,
                dtype={"query": str, "doc": str},
                skip_blank_lines=False,
                engine="c",
            )
        except pd.errors.ParserError as err:
            raise ValueError(
                f"{name}: not a TREC {kind} file with {trec_width} fields on every line ({err})"
            ) from None
        df.index = pd.RangeIndex(line_base, line_base + len(df), name="line")
        df = df[df.notna().any(axis=1)]
        short = df[names[-1]].isna()
        if short.any():
            line = df.index[np.flatnonzero(short.to_numpy())[0]]
            raise ValueError(f"{name}: line {line} has fewer than {trec_width} fields (TREC {kind} format)")
        df = df[["query", "doc", value_col]]
    else:
        header = lines[first]
        try:
            sep = csv.Sniffer().sniff(header, delimiters=",\t;|").delimiter
        except csv.Error:
            sep = r"\s+" if len(fields) > 1 else ","
        try:
            df = pd.read_csv(
                io.StringIO(text),
                sep=sep,
                dtype=str,
                skip_blank_lines=False,
                skiprows=first,
                engine="c" if len(sep) == 1 or sep == r"\s+" else "python",
                skipinitialspace=True,
            )
        except pd.errors.ParserError as err:
            raise ValueError(f"{name}: could not read a table with delimiter {sep!r} ({err})") from None
        df.index = pd.RangeIndex(first + 2, first + 2 + len(df), name="line")
        df = df[df.notna().any(axis=1)]
        if df.shape[1] == 1:
            raise ValueError(
                f"{name}: found a single column {str(df.columns[0])!r}: the delimiter was not recognised. "
                f"Use commas, tabs, semicolons or spaces between {', '.join(expected)}, or TREC format"
            )
        df = _normalize_columns(df, expected, f"{name}")
        for col in ("query", "doc"):
            df[col] = df[col].str.strip()
    values = _numeric(df[value_col], value_col, name)
    out = pd.DataFrame(
        {"query": df["query"].astype(str), "doc": df["doc"].astype(str), value_col: values}, index=df.index
    )
    if out.empty:
        raise ValueError(f"{name} has a header but no data rows")
    return out


def read_qrels(source: Any) -> pd.DataFrame:
    """Read relevance judgements from a TREC qrels file or a CSV/TSV table.

    Parameters
    ----------
    source : str, path or file-like
        A path, or an open text/binary file (Streamlit's ``UploadedFile``).
        TREC format: ``query iteration doc grade`` separated by whitespace,
        no header. Otherwise a table with a header whose columns are matched
        case-insensitively with aliases (``qid``, ``topic``; ``docno``,
        ``doc_id``; ``rel``, ``label``, ``grade``) and whose delimiter (comma,
        tab, semicolon, bar or spaces) is sniffed from the header.

    Returns
    -------
    pandas.DataFrame
        Columns ``query``, ``doc`` (text) and ``relevance`` (float), indexed
        by the file's line numbers (``index.name == "line"``), so errors in
        :func:`evaluate` name lines.

    Raises
    ------
    ValueError
        An empty file, an unrecognised delimiter, missing columns (listing
        those found and those expected), or a grade that is not a number
        (naming its line).

    Examples
    --------
    >>> import io
    >>> read_qrels(io.StringIO("q1 0 d1 2\\nq1 0 d2 0\\n")).reset_index()
       line query doc  relevance
    0     1    q1  d1        2.0
    1     2    q1  d2        0.0
    """
    return _read_table(source, "qrels")


def read_run(source: Any) -> pd.DataFrame:
    """Read a ranked run from a TREC run file or a CSV/TSV table.

    TREC format: ``query Q0 doc rank score tag`` separated by whitespace
    (the rank column is ignored: the score decides the order). Tables with a
    header are read as in :func:`read_qrels`, with ``score`` (aliases
    ``sim``, ``similarity``, ``prediction``) instead of a grade.

    Returns
    -------
    pandas.DataFrame
        Columns ``query``, ``doc`` and ``score`` (float), indexed by line.

    Examples
    --------
    >>> import io
    >>> read_run(io.BytesIO(b"qid,docno,score\\nq1,d1,0.5\\nq1,d2,0.25\\n")).reset_index()
       line query doc  score
    0     2    q1  d1   0.50
    1     3    q1  d2   0.25
    """
    return _read_table(source, "run")

"""Plain TREC files read by a compiled scanner, when numba is installed.

The readers (:mod:`ndcg_core.dataset.tables`) try this first for a large file (see
:data:`SCAN_BYTES` and :data:`LOAD_BYTES`): one pass over the bytes on one thread, where Arrow's
CSV reader makes a table of every field and the reader then checks it (docs/performance.md has
the measurements). It reads only the plain form (see :mod:`._trec_scan`) and returns None for
anything else, so every other file is read exactly as before. A value whose digits need more
than one rounding is read by Arrow, so every number equals Arrow's and strtod's.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

#: Files at least this long (bytes) take the scanner once it is loaded: as the readers' fast path
#: (smaller files go to the strict reader). It reads 1 MB in 3.3 ms where Arrow takes 5.8.
SCAN_BYTES = 1 << 16

#: Files at least this long load the scanner (numba's import and the scanner's code from numba's
#: cache: about 0.75 s; 2 s more to compile it the first time). It saves about 1.6 ms a MB on
#: one thread, so a smaller file is read sooner by Arrow alone. A program that reads many large
#: files (the app, a notebook, the benchmark) can call :func:`load` first.
LOAD_BYTES = 1 << 29

_MODULE = __name__.rpartition(".")[0] + "._trec_scan"


def load():
    """The compiled scanner's module, or None without numba. The first call imports numba and
    loads the scanner's code from numba's cache (or compiles it)."""
    try:
        from . import _trec_scan
    except Exception:  # numba is not installed, or cannot compile or cache here: Arrow's reader
        return None  # instead (the tests load it: a scanner that does not load fails them)
    return _trec_scan


def read_plain(data: bytes, end: int, delimiter: bytes, kind: str) -> pd.DataFrame | None:
    """``data[:end]``, a TREC file of one ``delimiter``, as the reader's table; None if not plain.

    The table has the columns ``query``, ``doc`` (Arrow-backed text) and ``relevance`` or
    ``score``, one row a line, indexed by line number from 1.
    """
    if end < (SCAN_BYTES if _MODULE in sys.modules else LOAD_BYTES):
        return None
    scanner = load()
    if scanner is None:
        return None
    import pyarrow as pa
    import pyarrow.compute as pc

    buf = np.frombuffer(data, dtype=np.uint8)
    # At most a line per 8 (qrels) or 12 (run) bytes: each field holds a byte and ends with one.
    lines = end // (8 if kind == "qrels" else 12) + 1

    def empty(n: int, dtype: type) -> np.ndarray:
        # From Arrow's memory pool, as Arrow's reader allocates: the pool keeps freed memory for
        # the next file, and the pages never written (most of these bounds) are never touched.
        return np.frombuffer(pa.allocate_buffer(n * np.dtype(dtype).itemsize), dtype=dtype)

    q_off, d_off, h_off = (empty(lines + 1, np.int64) for _ in range(3))
    q_buf, d_buf, h_buf = (empty(end, np.uint8) for _ in range(3))
    hard_rows = empty(lines, np.int64)
    values = empty(lines, np.float64)
    rows, hard = scanner.scan(
        buf, end, delimiter[0], kind == "run",
        q_off, q_buf, d_off, d_buf, values, hard_rows, h_off, h_buf, scanner.POW10,
    )  # fmt: skip
    if rows < 0:
        return None
    values = values[:rows]  # (the bound's pages past it are never touched)
    if hard:  # long or far-out decimals: Arrow's cast rounds them as its reader does
        text = pa.LargeStringArray.from_buffers(
            hard, pa.py_buffer(h_off[: hard + 1]), pa.py_buffer(h_buf[: h_off[hard]])
        )
        read = pc.cast(text, pa.float64()).to_numpy()
        if not np.isfinite(read).all():
            return None
        values[hard_rows[:hard]] = read

    def ids(offsets: np.ndarray, chars: np.ndarray) -> pd.Series:
        array = pa.LargeStringArray.from_buffers(
            rows, pa.py_buffer(offsets[: rows + 1]), pa.py_buffer(chars[: offsets[rows]])
        )
        return pa.chunked_array([array]).to_pandas().astype(str)

    value_col = "relevance" if kind == "qrels" else "score"
    out = pd.DataFrame({"query": ids(q_off, q_buf), "doc": ids(d_off, d_buf), value_col: values}, copy=False)
    out.index = pd.RangeIndex(1, 1 + rows, name="line")
    return out

"""Large data outside session state: parsed tables shared by every session, bounded in bytes.

Streamlit keeps a closed tab's session state until its session is cleaned up, so a data set
held there (the parsed DataFrames, the uploaded file's bytes) stays in memory long after the
person left. Instead, each parsed table lives once in a process-wide store keyed by a digest
of the file's content, and a session keeps only that key. Two least-recently-used stores,
bounded in bytes, share the work:

- parsed tables (``NDCG_DATA_CACHE_MB``, default 160: about three 1M-row data sets), each
  also dropped once no session has used it for ``NDCG_DATA_IDLE_S`` seconds (default 180), so
  the tables of closed tabs do not stay in memory;
- the files themselves, zlib-compressed (``NDCG_SOURCE_CACHE_MB``, default 160; a 31 MB
  TREC run packs to about 10 MB), from which a dropped table is parsed again when needed
  (about a second for a 1M-row run).

A session whose file was dropped from both is told to upload it again. An uploaded file may hold at
most ``NDCG_MAX_CONTENT_MB`` once decompressed (default the upload limit) and no line
longer than ``NDCG_MAX_LINE_KB`` (default 1000): the reader stops at once past either
(:mod:`ndcg_core.dataset.sources`), so a small compressed file cannot fill the server's memory.
Parsing runs one file at a time per process (a classroom uploading at once queues instead of multiplying the
parser's peak memory), and the bundled sample is parsed once per process.

The stores are module-level values (:func:`per_process`), not ``st.cache_resource``: Streamlit
clears its caches for every user when any client sends a ``clear_cache`` message (one anonymous
websocket message, issue 30), which would drop every user's data sets at once. The bundled
sample stays in ``st.cache_resource``: clearing it costs one parse, nobody's data.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import io
import pathlib
import threading
import time
import weakref
import zlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

import pandas as pd
import streamlit as st

import ndcg_core
from ndcg_core.dataset.sources import ReadLimits
from ndcg_core.errors import Message
from ndcg_core.i18n import N_
from ndcg_core.settings import Setting, non_negative_number, positive_number

# Arrow's default pool (mimalloc) can keep freed pages in per-thread heaps, and Streamlit runs
# each session's script on its own thread; the system allocator's freed memory goes back to the
# OS with malloc_trim (release_memory). Measured: no change in held memory (docs/performance.md, Memory).
with contextlib.suppress(ImportError):
    import pyarrow as _pa

    _pa.set_memory_pool(_pa.system_memory_pool())

# glibc's malloc, as Streamlit uses it (one thread per script run), kept hundreds of MB that the
# parser had freed: each thread's arena keeps its freed chunks, and after a large buffer is freed
# the threshold for handing big blocks straight to the OS (mmap) rises to 32 MB, so later buffers
# land in the arenas too. Two arenas and a fixed 128 kB threshold (large buffers are mmap'ed and
# go back to the OS when freed): 3 sessions with 1M-row data sets held 383 MB instead of 506 MB
# (measured with the environment's MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072; docs/performance.md,
# Memory). Set from here so every way of starting the app gets it. Not glibc: nothing to set.
M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8  # glibc's malloc.h
MMAP_THRESHOLD_BYTES, ARENA_MAX = 128 * 1024, 2
with contextlib.suppress(OSError, AttributeError):
    _libc = ctypes.CDLL("libc.so.6")
    _libc.mallopt(M_ARENA_MAX, ARENA_MAX)
    _libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)

ASSETS = pathlib.Path(__file__).resolve().parents[1] / "assets"
SAMPLE_NAME = N_("Bundled sample (250 queries)")  # shown through _(): a user's files keep their names
SAMPLE_KEYS = ("sample:qrels", "sample:run")
T = TypeVar("T")


def content_key(kind: str, data: bytes | memoryview) -> str:
    """The store key of a file's content: equal bytes give one key, whatever the file's name."""
    return f"{kind}:{hashlib.blake2b(data, digest_size=16).hexdigest()}"


def _table_size(table: pd.DataFrame) -> int:
    return int(table.memory_usage(index=True, deep=False).sum())


class TableStore:
    """A thread-safe LRU of values (DataFrames by default), bounded by their total size in bytes.

    Each value remembers when it was last put or read (``clock``), so values nobody uses can be
    dropped with ``drop_idle``.
    """

    def __init__(
        self,
        budget_bytes: int,
        size: Callable[[Any], int] = _table_size,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.budget = budget_bytes
        self._size = size
        self._clock = clock
        self._items: OrderedDict[str, tuple[Any, int, float]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self._lock:
            hit = self._items.get(key)
            if hit is None:
                return None
            self._items[key] = (hit[0], hit[1], self._clock())
            self._items.move_to_end(key)
            return hit[0]

    def put(self, key: str, value: Any) -> None:
        size = self._size(value)
        with self._lock:
            self._items[key] = (value, size, self._clock())
            self._items.move_to_end(key)
            # Drop the least recently used values beyond the budget (never the one just put).
            evicted = False
            while len(self._items) > 1 and self.used() > self.budget:
                self._items.popitem(last=False)
                evicted = True
        if evicted:
            release_memory()

    def drop_idle(self, idle_seconds: float) -> int:
        """Drop the values not read or put for ``idle_seconds``; how many were dropped."""
        with self._lock:
            cutoff = self._clock() - idle_seconds
            idle = [key for key, (_, _, used) in self._items.items() if used <= cutoff]
            for key in idle:
                del self._items[key]
        if idle:
            release_memory()
        return len(idle)

    def used(self) -> int:
        return sum(size for _, size, _ in self._items.values())

    def __len__(self) -> int:
        return len(self._items)


DATA_CACHE_MB = Setting("NDCG_DATA_CACHE_MB", "160", Message("accepts_megabytes"), positive_number)
SOURCE_CACHE_MB = Setting("NDCG_SOURCE_CACHE_MB", "160", Message("accepts_megabytes"), positive_number)
DATA_IDLE_S = Setting("NDCG_DATA_IDLE_S", "180", Message("accepts_idle_seconds"), non_negative_number)
#: The most content an uploaded file may hold once decompressed; default the upload limit (Streamlit's
#: ``server.maxUploadSize``, in MB): compressed, a file brings no more than it could bring plain. (A
#: 2.4 MB gzip of one repeated line holds 1 GB: at ten times the upload limit, 2 GB, it would still be
#: read whole, 59M rows taking the server from 0.2 to 2.8 GB.)
MAX_CONTENT_MB = Setting("NDCG_MAX_CONTENT_MB", None, Message("accepts_megabytes"), positive_number)
#: The longest line an uploaded file may have (a TREC or CSV line is tens of bytes).
MAX_LINE_KB = Setting("NDCG_MAX_LINE_KB", "1000", Message("accepts_kilobytes"), positive_number)


def read_limits() -> ReadLimits:
    """What one uploaded file may hold (``NDCG_MAX_CONTENT_MB``, ``NDCG_MAX_LINE_KB``): past either
    limit the reader stops at once, and the message names the setting."""
    content_mb = MAX_CONTENT_MB.read()
    if content_mb is None:
        content_mb = float(st.get_option("server.maxUploadSize"))
    return ReadLimits(
        max_bytes=max(1, int(content_mb * 1e6)),
        max_line=max(1, int(MAX_LINE_KB.read() * 1e3)),
        max_bytes_setting=MAX_CONTENT_MB.name,
        max_line_setting=MAX_LINE_KB.name,
    )


def _drop_idle_forever(store: weakref.ref[TableStore], idle_seconds: float) -> None:
    """The sweeper thread of a store: ends once the store itself is gone (say, after reset_stores)."""
    while True:
        time.sleep(min(30.0, idle_seconds / 4))
        current = store()
        if current is None:
            return
        current.drop_idle(idle_seconds)
        del current


def per_process(make: Callable[[], T]) -> Callable[[], T]:
    """``make()`` once per server process, on first use (thread-safe), outside Streamlit's caches.

    The returned function has ``reset()`` (tests: a new value on the next call, so a changed
    environment variable applies).
    """
    lock = threading.Lock()
    made: list[T] = []

    def once() -> T:
        if not made:
            with lock:
                if not made:
                    made.append(make())
        return made[0]

    def reset() -> None:
        with lock:
            made.clear()

    once.reset = reset  # type: ignore[attr-defined]
    once.__doc__, once.__name__ = make.__doc__, make.__name__
    return once


@per_process
def table_store() -> TableStore:
    """The process's parsed tables, shared by every session; idle tables are dropped.

    Nothing else would drop them once the tabs that used them close: the store's LRU bound
    evicts only when a new table comes in.
    """
    store = TableStore(int(DATA_CACHE_MB.read() * 1e6))
    idle_seconds = DATA_IDLE_S.read()
    if idle_seconds > 0:
        sweeper = threading.Thread(
            target=_drop_idle_forever, args=(weakref.ref(store), idle_seconds), daemon=True
        )
        sweeper.start()
    return store


@per_process
def source_store() -> TableStore:
    """The process's uploaded files, compressed: a dropped table is parsed again from here."""
    return TableStore(int(SOURCE_CACHE_MB.read() * 1e6), size=len)


@per_process
def parse_lock() -> threading.Lock:
    """One parse at a time per process: the parser's temporary memory is several times the file."""
    return threading.Lock()


@st.cache_resource
def sample_tables() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The bundled sample, parsed once per process (not counted against the budget)."""
    return ndcg_core.read_qrels(ASSETS / "sample_qrels.tsv"), ndcg_core.read_run(ASSETS / "sample_run.tsv")


def reset_stores() -> None:
    """Forget every stored table and file and the parse lock (tests; never called by the app)."""
    for made in (table_store, source_store, parse_lock):
        made.reset()  # type: ignore[attr-defined]


def release_memory() -> None:
    """Hand freed memory back to the operating system after a large parse or an eviction.

    Parsing a large file leaves tens of MB of freed buffers in the C allocator (glibc keeps
    them in per-thread arenas) and in Arrow's pool; without this the server's resident memory
    stays at its peak long after the tables are gone.
    """
    try:
        import pyarrow as pa

        pa.default_memory_pool().release_unused()
    except (ImportError, AttributeError):
        pass
    with contextlib.suppress(OSError, AttributeError):  # not glibc: nothing to trim
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _parse(kind: str, data: bytes | memoryview, name: str) -> pd.DataFrame:
    source = io.BytesIO(data)
    source.name = name  # messages name the file
    reader = ndcg_core.read_qrels if kind == "qrels" else ndcg_core.read_run
    try:
        return reader(source, limits=read_limits())
    finally:
        del source
        release_memory()  # the parse's buffers (the file's text, the parser's chunks)


def load(kind: str, data: bytes | memoryview, name: str) -> str:
    """Parse a file into the stores (once per content); its key. ``ValueError`` if unreadable."""
    key = content_key(kind, data)
    if table_store().get(key) is None:
        with parse_lock():
            if table_store().get(key) is None:  # another session may have parsed it meanwhile
                table = _parse(kind, data, name)
                table_store().put(key, table)
                source_store().put(key, zlib.compress(data, 1))
    return key


def read_as(kind: str, data: bytes | memoryview, name: str) -> bool:
    """Whether a file reads as ``kind`` (a file refused as the other kind: was it swapped?).

    Parsed and dropped: nothing is stored.
    """
    with parse_lock():
        try:
            _parse(kind, data, name)
        except ValueError:
            return False
    return True


def get_table(key: str) -> pd.DataFrame | None:
    """A stored table (parsed again from its compressed file if it was dropped), or None."""
    if key in SAMPLE_KEYS:
        return sample_tables()[SAMPLE_KEYS.index(key)]
    table = table_store().get(key)
    if table is None and (packed := source_store().get(key)) is not None:
        with parse_lock():
            table = table_store().get(key)
            if table is None:
                table = _parse(key.split(":", 1)[0], zlib.decompress(packed), "the stored file")
                table_store().put(key, table)
    return table

"""Large data outside session state: parsed tables shared by every session, bounded in bytes.

Streamlit keeps a closed tab's session state until its session is cleaned up, so a data set
held there (the parsed DataFrames, the uploaded file's bytes) stays in memory long after the
person left. Instead, each parsed table lives once in a process-wide store keyed by a digest
of the file's content, and a session keeps only that key. The store keeps the most recently
used tables up to a byte budget (``NDCG_DATA_CACHE_MB``, default 256) and drops the least
recently used ones beyond it; a session whose table was dropped is told to upload it again.
The bundled sample is parsed once per process.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import os
import pathlib
import threading
from collections import OrderedDict

import pandas as pd
import streamlit as st

import ndcg_core

ASSETS = pathlib.Path(__file__).resolve().parents[1] / "assets"
SAMPLE_NAME = "Bundled sample (250 queries)"
SAMPLE_KEYS = ("sample:qrels", "sample:run")


def content_key(kind: str, data: bytes) -> str:
    """The store key of a file's content: equal bytes give one key, whatever the file's name."""
    return f"{kind}:{hashlib.blake2b(data, digest_size=16).hexdigest()}"


class TableStore:
    """A thread-safe LRU of DataFrames, bounded by their total size in bytes."""

    def __init__(self, budget_bytes: int):
        self.budget = budget_bytes
        self._tables: OrderedDict[str, tuple[pd.DataFrame, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> pd.DataFrame | None:
        with self._lock:
            hit = self._tables.get(key)
            if hit is None:
                return None
            self._tables.move_to_end(key)
            return hit[0]

    def put(self, key: str, table: pd.DataFrame) -> None:
        size = int(table.memory_usage(index=True, deep=False).sum())
        with self._lock:
            self._tables[key] = (table, size)
            self._tables.move_to_end(key)
            # Drop the least recently used tables beyond the budget (never the one just put).
            evicted = False
            while len(self._tables) > 1 and self.used() > self.budget:
                self._tables.popitem(last=False)
                evicted = True
        if evicted:
            release_memory()

    def used(self) -> int:
        return sum(size for _, size in self._tables.values())

    def __len__(self) -> int:
        return len(self._tables)


@st.cache_resource
def table_store() -> TableStore:
    """The process's one store, shared by every session."""
    return TableStore(int(float(os.environ.get("NDCG_DATA_CACHE_MB", "256")) * 1e6))


@st.cache_resource
def sample_tables() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The bundled sample, parsed once per process (not counted against the budget)."""
    return ndcg_core.read_qrels(ASSETS / "sample_qrels.tsv"), ndcg_core.read_run(ASSETS / "sample_run.tsv")


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


def get_table(key: str) -> pd.DataFrame | None:
    """A stored table, or None when the store dropped it."""
    if key in SAMPLE_KEYS:
        return sample_tables()[SAMPLE_KEYS.index(key)]
    return table_store().get(key)

"""Run the app's Streamlit server with a memory probe inside it (for benchmarks/memory_sessions.py --probe).

    python benchmarks/memory_probe.py PROBE_DIR streamlit-run-arguments...

Not part of the app: this wrapper starts Streamlit in this process, plus one thread that, whenever
a file ``PROBE_DIR/request-<label>`` appears, writes ``PROBE_DIR/report-<label>.json`` with what
the server holds: resident memory, Streamlit's runtime managers (active and disconnected sessions,
the uploaded files' bytes per session, media files, st.cache_data/cache_resource statistics), the
app's two data stores, and (if ``NDCG_PROBE_TRACEMALLOC`` is set) tracemalloc's top allocations.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import pathlib
import sys
import threading
import time
import tracemalloc


def _rss_mb() -> float:
    for line in pathlib.Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _describe(holder: object) -> str:
    """A short description of an object that refers to another (for the probe's report)."""
    if isinstance(holder, dict):
        return f"dict with keys {list(holder)[:6]}"
    return type(holder).__name__


def report() -> dict:
    from streamlit import runtime

    out: dict = {"rss_mb": round(_rss_mb(), 1)}
    if not runtime.exists():
        return out
    rt = runtime.get_instance()
    mgr = rt._session_mgr
    storage = getattr(mgr, "_session_storage", None)
    cache = getattr(storage, "_cache", None)
    # The storage's raw dict: expired entries are still there until something touches the cache.
    stored = getattr(cache, "_data", {})
    out["sessions_active"] = len(getattr(mgr, "_active_session_info_by_id", {}))
    out["sessions_disconnected_held"] = len(stored)
    up = rt.uploaded_file_mgr
    files = getattr(up, "file_storage", {})
    out["upload_mb"] = round(getattr(up, "_total_bytes", 0) / 1e6, 1)
    out["upload_sessions"] = len(files)
    out["upload_files"] = sum(len(v) for v in files.values())
    media = rt.media_file_mgr
    storage_files = getattr(getattr(media, "_storage", None), "_files_by_id", {})
    out["media_files"] = len(storage_files)
    out["media_mb"] = round(sum(len(getattr(f, "content", b"")) for f in storage_files.values()) / 1e6, 1)
    stats: dict[str, float] = {}
    with contextlib.suppress(Exception):
        for items in rt.stats_mgr.get_stats().values():
            for stat in items:
                name = getattr(stat, "category_name", type(stat).__name__)
                stats[name] = stats.get(name, 0) + getattr(stat, "byte_length", 0) / 1e6
    out["stats_mb"] = {name: round(mb, 1) for name, mb in stats.items()}
    stores = {}
    for obj in gc.get_objects():
        if type(obj).__name__ == "TableStore":
            stores[f"{id(obj):x}"] = {"mb": round(obj.used() / 1e6, 1), "items": len(obj)}
    out["table_stores"] = stores
    try:
        import pyarrow as pa

        out["arrow_pool_mb"] = round(pa.total_allocated_bytes() / 1e6, 1)
    except ImportError:
        pass
    if tracemalloc.is_tracing():
        snap = tracemalloc.take_snapshot()
        out["traced_mb"] = round(sum(s.size for s in snap.statistics("filename")) / 1e6, 1)
        out["traced_top"] = [
            f"{s.size / 1e6:.1f} MB {s.count} blocks {s.traceback.format()[-1].strip()}"
            for s in snap.statistics("traceback")[:12]
        ]
        # Where the largest blocks come from, all frames (newest last).
        out["traced_largest"] = [
            [f"{s.size / 1e6:.1f} MB", *(line.strip() for line in s.traceback.format() if line.strip())]
            for s in snap.statistics("traceback")[:3]
        ]
    # Uploaded files still alive anywhere (UploadedFile objects hold the bytes), and who holds them.
    from streamlit.runtime.uploaded_file_manager import UploadedFile

    alive = [obj for obj in gc.get_objects() if isinstance(obj, UploadedFile)]
    out["uploaded_file_objects"] = [
        {
            "name": f.name,
            "mb": round(f.size / 1e6, 1),
            "held_by": [_describe(r) for r in gc.get_referrers(f) if r is not alive],
        }
        for f in alive
    ]
    return out


def _watch(folder: pathlib.Path) -> None:
    while True:
        for request in sorted(folder.glob("request-*")):
            label = request.name.removeprefix("request-")
            request.unlink()
            try:
                data = report()
            except Exception as err:  # a probe must never take the server down
                data = {"error": repr(err)}
            tmp = folder / f".report-{label}.json"
            tmp.write_text(json.dumps(data, indent=1))
            tmp.rename(folder / f"report-{label}.json")
        time.sleep(0.5)


def main() -> None:
    folder = pathlib.Path(sys.argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    if os.environ.get("NDCG_PROBE_TRACEMALLOC"):
        tracemalloc.start(8)
    threading.Thread(target=_watch, args=(folder,), daemon=True).start()
    from streamlit.web import cli

    sys.argv = ["streamlit", *sys.argv[2:]]
    cli.main()


if __name__ == "__main__":
    main()

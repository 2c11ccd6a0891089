"""Run a Streamlit launcher with its script runs timed (used by ``cold_breakdown.py``).

    python benchmarks/cold_trace.py EVENTS_FILE -m streamlit run app.py ...
    python benchmarks/cold_trace.py EVENTS_FILE scripts/serve.py ...

Appends one JSON line per event to EVENTS_FILE: the process start (wall clock), and the start and
end of each script run (wall clock; CPU seconds of the script thread), then hands over to the
launcher as ``python -m ...`` or ``python FILE`` would.
"""

from __future__ import annotations

import json
import runpy
import sys
import threading
import time

EVENTS = sys.argv[1]
_lock = threading.Lock()


def record(event: str, **extra) -> None:
    with _lock, open(EVENTS, "a") as f:
        f.write(json.dumps({"event": event, "wall": time.time(), **extra}) + "\n")


record("process", cpu=time.process_time())

from streamlit.runtime.scriptrunner import script_runner  # noqa: E402

_run_script = script_runner.ScriptRunner._run_script


def _timed(self, rerun_data):
    cpu = time.thread_time()
    record("run_start", modules=len(sys.modules))
    try:
        return _run_script(self, rerun_data)
    finally:
        record("run_end", thread_cpu=time.thread_time() - cpu, modules=len(sys.modules))


script_runner.ScriptRunner._run_script = _timed

args = sys.argv[2:]
if args[0] == "-m":
    sys.argv = [args[1], *args[2:]]
    runpy.run_module(args[1], run_name="__main__", alter_sys=True)
else:
    sys.argv = args
    runpy.run_path(args[0], run_name="__main__")

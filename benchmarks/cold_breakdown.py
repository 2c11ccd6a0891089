"""Where a cold start's time goes: ours beside the bare-Streamlit peer, measured the same way.

    python benchmarks/cold_breakdown.py [--repeats 3] [--ours-launcher serve|streamlit|both] [--resources]

For each server (a fresh process each time) one timeline, all on the wall clock (ms from the
server process being spawned): the interpreter up and tracing (``cold_trace.py``), /_stcore/health
answering, the browser's page load (DOMContentLoaded, load), the websocket opened, the first
script run on the server (start, end, CPU of the script thread, modules imported), the first
metric and the first plotly chart drawn in the browser; and the largest static files fetched.
Also CPU times, which a busy machine disturbs less: the server process's (to healthy, to complete)
and the browser page's main thread (busy, script, layout and style; Chrome's Performance metrics).
``--ours-launcher serve`` (the default) starts ours through ``scripts/serve.py`` (the launcher
``make run`` uses), ``streamlit`` through a plain ``streamlit run``, ``both`` the two in turn.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

from playwright.sync_api import expect, sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from browser_support import (  # noqa: E402
    CHROMIUM_ARGS,
    chromium_path,
    free_port,
    server_options,
    wait_until_healthy,
)

# Page-clock records (epoch ms): websocket open and messages, first metric, first chart svg.
PROBE = """
window.__t = {ws_open: null, ws_msgs: [], metric: null, chart: null};
const Native = window.WebSocket;
window.WebSocket = function (...args) {
  const ws = new Native(...args);
  const now = () => performance.timeOrigin + performance.now();
  ws.addEventListener('open', () => { window.__t.ws_open = now(); });
  ws.addEventListener('message', (e) => {
    window.__t.ws_msgs.push([now(), e.data.size || e.data.byteLength || e.data.length || 0]);
  });
  return ws;
};
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
const watch = () => {
  const now = performance.timeOrigin + performance.now();
  if (window.__t.metric === null && document.querySelector('[data-testid="stMetricValue"]'))
    window.__t.metric = now;
  if (window.__t.chart === null && document.querySelector('.js-plotly-plot .main-svg'))
    window.__t.chart = now;
};
new MutationObserver(watch).observe(document, {subtree: true, childList: true});
"""


def command(script: pathlib.Path, launcher: str, port: int, events: str) -> list[str]:
    options = server_options(port)
    trace = [sys.executable, str(ROOT / "benchmarks" / "cold_trace.py"), events]
    if launcher == "serve":
        return [*trace, str(ROOT / "scripts" / "serve.py"), *options]
    return [*trace, "-m", "streamlit", "run", str(script), *options]


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one(browser, script: pathlib.Path, launcher: str, query: str, chart: bool) -> dict[str, float]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.NamedTemporaryFile("r", suffix=".jsonl") as ev:
        spawned = time.time()
        proc = subprocess.Popen(
            command(script, launcher, port, ev.name),
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_until_healthy(url, proc, 120.0, 0.02, "server died or did not start in 120 s")
            healthy = time.time()
            server_cpu_healthy = cpu_seconds(proc.pid)
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            page.add_init_script(PROBE)
            cdp = page.context.new_cdp_session(page)
            cdp.send("Performance.enable")
            goto = time.time()
            page.goto(f"{url}/{query}")
            expect(page.get_by_test_id("stMetric").first).to_be_visible(timeout=60_000)
            if chart:
                expect(page.locator(".js-plotly-plot .main-svg").first).to_be_visible(timeout=60_000)
            done = time.time()
            server_cpu_done = cpu_seconds(proc.pid)
            metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            t = page.evaluate("window.__t")
            nav = page.evaluate("JSON.parse(JSON.stringify(performance.getEntriesByType('navigation')[0]))")
            origin = page.evaluate("performance.timeOrigin")
            resources = page.evaluate(
                "performance.getEntriesByType('resource').map(e => [e.name, e.startTime, e.responseEnd,"
                " e.encodedBodySize])"
            )
            page.close()
            events = [json.loads(line) for line in ev.read().splitlines()]
        finally:
            proc.terminate()
            proc.wait(10)
    ms = lambda wall: (wall - spawned) * 1000  # noqa: E731
    starts = [e for e in events if e["event"] == "run_start"]
    ends = [e for e in events if e["event"] == "run_end"]
    row = {
        "python up (tracer)": ms(events[0]["wall"]),
        "health answers": ms(healthy),
        "page.goto": ms(goto),
        "DOMContentLoaded": ms(origin / 1000) + nav["domContentLoadedEventEnd"],
        "load": ms(origin / 1000) + nav["loadEventEnd"],
        "websocket open": ms(t["ws_open"] / 1000),
        "run 1 start": ms(starts[0]["wall"]),
        "run 1 end": ms(ends[0]["wall"]),
        "last ws message": ms(t["ws_msgs"][-1][0] / 1000) if t["ws_msgs"] else float("nan"),
        "metric drawn": ms(t["metric"] / 1000),
        "chart drawn": ms(t["chart"] / 1000) if chart and t["chart"] else float("nan"),
        "complete (bench's cold start)": ms(done),
        "run 1 CPU (script thread)": ends[0]["thread_cpu"] * 1000,
        "server CPU, spawn -> healthy": server_cpu_healthy * 1000,
        "server CPU, spawn -> complete": server_cpu_done * 1000,
        "browser page main thread busy": metrics["TaskDuration"] * 1000,
        "  of which script": metrics["ScriptDuration"] * 1000,
        "  of which layout + style": (metrics["LayoutDuration"] + metrics["RecalcStyleDuration"]) * 1000,
        "modules loaded before run 1": starts[0]["modules"],
        "modules loaded after run 1": ends[0]["modules"],
    }
    big = sorted(resources, key=lambda r: -r[3])[:6]
    row["_resources"] = [
        (name.rsplit("/", 1)[-1][:40], ms(origin / 1000) + s, ms(origin / 1000) + e, size)
        for name, s, e, size in big
    ]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--ours-launcher",
        default="serve",
        help="how ours is started: serve (scripts/serve.py, as make run), streamlit, or both (interleaved)",
    )
    parser.add_argument("--resources", action="store_true", help="print the largest static files fetched")
    args = parser.parse_args()
    launchers = ["streamlit", "serve"] if args.ours_launcher == "both" else [args.ours_launcher]
    runs = {**{f"ours/{w}": [] for w in launchers}, "peer": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        for _ in range(args.repeats):
            for w in launchers:
                runs[f"ours/{w}"].append(one(browser, ROOT / "app.py", w, "?rel=0,1,2,3,0,1", chart=True))
            runs["peer"].append(
                one(browser, ROOT / "benchmarks" / "peer_minimal_app.py", "streamlit", "?n=6", chart=False)
            )
        browser.close()
    keys = [k for k in runs["peer"][0] if not k.startswith("_")]
    print(f"{'ms from spawn (median of ' + str(args.repeats) + ')':40}", *(f"{w:>15}" for w in runs))
    for k in keys:
        medians = [statistics.median(r.get(k, math.nan) for r in rs) for rs in runs.values()]
        print(f"{k:40}", *(f"{m:15.0f}" for m in medians))
    done = "complete (bench's cold start)"
    for w in launchers:
        ratios = [round(a[done] / b[done], 2) for a, b in zip(runs[f"ours/{w}"], runs["peer"], strict=True)]
        print(f"complete ours/{w} : peer, per repeat:", ratios)
    if args.resources:
        for who, rs in runs.items():
            print(who, "largest fetched (name, start, end ms from spawn, bytes):")
            for name, s, e, size in rs[-1]["_resources"]:
                print(f"   {name:42} {s:8.0f} {e:8.0f} {size:10d}")


if __name__ == "__main__":
    main()

"""Server memory with many sessions each uploading a large data set, and what it still holds later.

    python benchmarks/memory_sessions.py [--sessions 10] [--rows 1e6] [--wait 300]

Starts the app on a free loopback port, opens ``--sessions`` browser contexts (separate Streamlit
sessions) in ONE headless Chromium, and in each uploads its own seeded qrels + TREC run of
``--rows`` run rows (distinct content per session: the worst case for the shared store), all
uploads in flight at once, then waits until every page shows its data set's query count. It
reads the server process's resident memory from /proc (``VmRSS`` now, ``VmHWM`` = peak), then
closes every session and samples the server's memory for ``--wait`` seconds. Issue 14's target:
held memory at most 600 MB five minutes after the sessions close.

Needs Debian's Chromium (``make test`` installs it). Heavy: run it alone, once.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's ndcg_core and views
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))
from browser_support import CHROMIUM_ARGS, chromium_path, free_port  # noqa: E402
from dataset_speed import make_data  # noqa: E402


def memory_mb(pid: int) -> dict[str, float]:
    """Resident memory of a process now (VmRSS) and at its peak (VmHWM), in MB."""
    out = {}
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) / 1024
    return out


def cpu_seconds(pid: int) -> float:
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def write_pair(folder: pathlib.Path, rows: int, seed: int) -> tuple[pathlib.Path, pathlib.Path, int]:
    qrels, run = make_data(rows, seed=seed)
    q_path, r_path = folder / f"qrels-{seed}.txt", folder / f"run-{seed}.txt"
    qrels.assign(it="0")[["query", "it", "doc", "relevance"]].to_csv(
        q_path, sep=" ", header=False, index=False
    )
    ranks = run.groupby("query", sort=False).cumcount() + 1
    trec = run.assign(q0="Q0", rank=ranks, tag="bench")[["query", "q0", "doc", "rank", "score", "tag"]]
    trec.to_csv(r_path, sep=" ", header=False, index=False)
    n_queries = len(set(run["query"]) | set(qrels["query"]))
    return q_path, r_path, n_queries


def start_server(env: dict[str, str], probe: pathlib.Path | None = None) -> tuple[subprocess.Popen, str]:
    port = free_port()
    # With a probe folder, the server runs inside benchmarks/memory_probe.py (the app is unchanged).
    launcher = ["-m", "streamlit"]
    if probe is not None:
        launcher = [str(ROOT / "benchmarks" / "memory_probe.py"), str(probe)]
    cmd = [sys.executable, *launcher, "run", str(ROOT / "app.py"), "--server.address", "127.0.0.1"]
    cmd += ["--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false"]
    cmd += ["--server.fileWatcherType", "none", "--server.maxUploadSize", "1000"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("streamlit did not start")


def probe_report(folder: pathlib.Path | None, label: str) -> None:
    """Ask the probe inside the server what it holds, and print it (only with --probe)."""
    if folder is None:
        return
    (folder / f"request-{label}").touch()
    report = folder / f"report-{label}.json"
    deadline = time.monotonic() + 120
    while not report.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    print(f"probe {label}: {report.read_text() if report.exists() else 'no answer'}")


def main(argv=None) -> int:
    from playwright.sync_api import expect, sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--rows", type=float, default=1e6)
    parser.add_argument("--wait", type=float, default=300, help="seconds to watch after the sessions close")
    parser.add_argument(
        "--probe", action="store_true", help="report what the server holds (benchmarks/memory_probe.py)"
    )
    args = parser.parse_args(argv)
    rows = int(args.rows)

    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        t0 = time.monotonic()
        pairs = [write_pair(folder, rows, seed) for seed in range(args.sessions)]
        size = pairs[0][1].stat().st_size / 1e6
        print(
            f"{args.sessions} data sets of {rows:,} run rows ({size:.0f} MB run files) "
            f"written in {time.monotonic() - t0:.0f} s"
        )
        probe = folder / "probe" if args.probe else None
        proc, url = start_server(dict(os.environ), probe)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
                pages = []
                for _ in range(args.sessions):
                    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
                    page.goto(f"{url}/datasets")
                    metric = page.get_by_test_id("stMetric").filter(has_text="Queries").first
                    expect(metric.get_by_test_id("stMetricValue")).to_have_text("250", timeout=120_000)
                    page.get_by_text("Data: the bundled sample, or your own qrels and run").click()
                    pages.append(page)
                base = memory_mb(proc.pid)
                cpu0 = cpu_seconds(proc.pid)
                print(f"server with {args.sessions} sessions on the sample: {base['VmRSS']:.0f} MB")
                t0 = time.monotonic()
                for page, (q_path, _, _) in zip(pages, pairs, strict=True):
                    page.locator(".st-key-ds_qrels_file input[type=file]").set_input_files(str(q_path))
                for page, (_, r_path, _) in zip(pages, pairs, strict=True):
                    page.locator(".st-key-ds_run_file input[type=file]").set_input_files(str(r_path))
                retried = 0
                for page, (q_path, r_path, n_queries) in zip(pages, pairs, strict=True):
                    value = page.get_by_test_id("stMetric").filter(has_text="Queries").first
                    try:
                        expect(value.get_by_test_id("stMetricValue")).to_have_text(
                            f"{n_queries:,}", timeout=300_000
                        )
                        continue
                    except AssertionError:
                        # Under load a file set while the page reruns is now and then never sent
                        # (seen with 3 sessions on a busy machine): set both files once more.
                        retried += 1
                        for uploader, path in (("ds_qrels_file", q_path), ("ds_run_file", r_path)):
                            page.locator(f".st-key-{uploader} input[type=file]").set_input_files(str(path))
                    try:
                        expect(value.get_by_test_id("stMetricValue")).to_have_text(
                            f"{n_queries:,}", timeout=600_000
                        )
                    except AssertionError:
                        alerts = page.get_by_test_id("stAlert").all_inner_texts()
                        shot = ROOT / "artifacts" / "memory-bench-failure.png"
                        shot.parent.mkdir(exist_ok=True)
                        page.screenshot(path=str(shot), full_page=True)
                        text = page.get_by_test_id("stMain").inner_text()[:600]
                        raise AssertionError(
                            f"a page never showed {n_queries:,} queries: {alerts}; page: {text!r}; see {shot}"
                        ) from None
                loaded = memory_mb(proc.pid)
                print(
                    f"all {args.sessions} data sets scored in {time.monotonic() - t0:.0f} s "
                    f"({retried} page(s) needed their files set again) "
                    f"(server CPU {cpu_seconds(proc.pid) - cpu0:.0f} s); "
                    f"server now {loaded['VmRSS']:.0f} MB, peak so far {loaded['VmHWM']:.0f} MB"
                )
                probe_report(probe, "loaded")
                browser.close()
            probe_report(probe, "closed")
            closed = time.monotonic()
            samples = []
            while True:
                elapsed = time.monotonic() - closed
                samples.append((elapsed, memory_mb(proc.pid)["VmRSS"]))
                if elapsed >= args.wait:
                    break
                time.sleep(min(60, args.wait - elapsed))
            peak = memory_mb(proc.pid)["VmHWM"]
            probe_report(probe, "end")
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print("after every session closed: " + ", ".join(f"{t:.0f} s: {mb:.0f} MB" for t, mb in samples))
    held = samples[-1][1]
    verdict = "met" if held <= 600 else "missed"
    print(
        f"peak {peak:.0f} MB; held {held:.0f} MB {samples[-1][0]:.0f} s after closing "
        f"(target <= 600 MB: {verdict})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

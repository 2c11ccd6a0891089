"""Issue 30: server memory held by uploads that fail to read, while their sessions are open and after.

    python benchmarks/bad_uploads.py [--sessions 5] [--mb 50] [--wait 60] [--root CHECKOUT]

Starts the app (of this checkout, or of ``--root``, to measure another commit) on a free loopback
port, opens ``--sessions`` browser contexts (separate Streamlit sessions) in one headless Chromium,
and in each uploads its own ``--mb`` MB qrels file whose last line has a grade that is no number,
then waits until every page shows the file's message. It prints the server's resident memory
(``VmRSS``) before the uploads, with every message shown, and for ``--wait`` seconds after the
sessions close. The issue measured five 190 MB files: 171 MB before, 1,093 MB five minutes after.

Needs Debian's Chromium (``make test`` installs it). Heavy: run it alone.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))
import memory_sessions  # noqa: E402
from browser_support import CHROMIUM_ARGS, chromium_path  # noqa: E402
from memory_sessions import memory_mb, start_server  # noqa: E402


def write_bad_qrels(path: pathlib.Path, mb: float, seed: int) -> None:
    """About ``mb`` MB of good qrels lines (distinct per session), then one unreadable grade."""
    line = f"q{seed} 0 d1 1\n".encode()
    path.write_bytes(line * int(mb * 1e6 / len(line)) + f"q{seed} 0 d2 high\n".encode())


def main(argv=None) -> int:
    from playwright.sync_api import expect, sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=5)
    parser.add_argument("--mb", type=float, default=50)
    parser.add_argument("--wait", type=float, default=60, help="seconds to watch after the sessions close")
    parser.add_argument("--root", type=pathlib.Path, default=ROOT, help="the checkout whose app to run")
    args = parser.parse_args(argv)
    memory_sessions.ROOT = args.root.resolve()  # start_server runs ROOT/app.py from ROOT

    with tempfile.TemporaryDirectory() as tmp:
        files = [pathlib.Path(tmp) / f"bad-{n}.qrels" for n in range(args.sessions)]
        for n, path in enumerate(files):
            write_bad_qrels(path, args.mb, n)
        proc, url = start_server(dict(os.environ))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
                pages = []
                for _ in files:
                    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
                    page.goto(f"{url}/datasets")
                    metric = page.get_by_test_id("stMetric").filter(has_text="Queries").first
                    expect(metric.get_by_test_id("stMetricValue")).to_have_text("250", timeout=120_000)
                    page.get_by_text("Data: the bundled sample, or your own qrels").click()
                    pages.append(page)
                before = memory_mb(proc.pid)["VmRSS"]
                for page, path in zip(pages, files, strict=True):
                    page.locator(".st-key-ds_qrels_file input[type=file]").set_input_files(str(path))
                    alert = page.get_by_test_id("stAlert").filter(has_text=path.name)
                    expect(alert).to_be_visible(timeout=300_000)  # one at a time: each upload is read
                time.sleep(5)
                shown = memory_mb(proc.pid)
                browser.close()
            closed, samples = time.monotonic(), []
            while True:
                elapsed = time.monotonic() - closed
                samples.append((elapsed, memory_mb(proc.pid)["VmRSS"]))
                if elapsed >= args.wait:
                    break
                time.sleep(min(30, args.wait - elapsed))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    size = files[0].stat().st_size / 1e6 if files[0].exists() else args.mb
    print(f"{args.sessions} sessions, each one unreadable {size:.0f} MB qrels file ({args.root})")
    print(f"server before the uploads: {before:.0f} MB")
    print(f"every message shown: {shown['VmRSS']:.0f} MB (peak {shown['VmHWM']:.0f} MB)")
    print("after the sessions closed: " + ", ".join(f"{t:.0f} s: {mb:.0f} MB" for t, mb in samples))
    return 0


if __name__ == "__main__":
    sys.exit(main())

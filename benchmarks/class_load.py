"""Class mode under load: 60 students submit to one room within 10 s on a real server.

    python benchmarks/class_load.py [--students 60] [--window 10] [--seed 1]

Method. The app runs as ``streamlit run`` on a fresh SQLite file (NDCG_DATA_DIR in a temporary
folder). A lecturer's Chromium page creates a room through the UI, asks the playground's list
(NDCG) and opens it. Running 60 Chromium renderers on a 2-core machine would measure the
browsers, so the students are simulated: 60 threads join, then each submits at a random moment
(seeded) within the window through the same storage API the page calls (ndcg_core.classroom.Store,
judging included) against the database the server uses; 10 of them submit a second answer later,
which must replace the first.

Measured:
* submit → visible on the lecturer's view: the lecturer page's "Answered" metric (the live
  fragment, run every second) is read about every 50 ms; the answer committed k-th is visible
  when the metric first shows at least k. p50/p95 over all first submits.
* submit → in the aggregation the fragment draws (Store.summary polled every 50 ms).
* errors raised by submits, and answers lost (stored answers vs students; each stored value must
  be the student's last answer).
* the playground stays responsive meanwhile: /_stcore/health every 200 ms, and full page loads
  of the Playground (until its first metric shows) in a second Chromium, before and during.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import os
import pathlib
import random
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
from browser_support import CHROMIUM_ARGS, chromium_path, streamlit_server  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402

from ndcg_core.classroom import Store  # noqa: E402


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary_line(name: str, values: list[float], unit: str = "ms") -> str:
    if not values:
        return f"{name}: no samples"
    return (
        f"{name}: n={len(values)} p50={pct(values, 0.5):.0f} {unit} p95={pct(values, 0.95):.0f} {unit} "
        f"max={max(values):.0f} {unit}"
    )


def lecturer_key(page, code: str, timeout: float = 60.0) -> str:
    """The room's lecturer key: the page keeps it in a cookie, never in the address bar."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for c in page.context.cookies():
            if c["name"] == f"ndcg_lecturer_{code}":
                return c["value"]
        page.wait_for_timeout(100)
    raise RuntimeError(f"the lecturer page wrote no key cookie for room {code}")


def health_probe(url: str, stop: threading.Event, out: list[float]) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=10) as r:
                r.read()
            out.append((time.perf_counter() - start) * 1000)
        except OSError:
            out.append(float("inf"))
        stop.wait(0.2)


def playground_loads(url: str, stop: threading.Event, before: list[float], during: list[float], go) -> None:
    """Load the Playground in its own Chromium, twice before the burst and repeatedly during it."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 720})

        def load() -> float:
            start = time.perf_counter()
            page.goto(f"{url}/")
            expect(page.get_by_test_id("stMetricValue").first).to_be_visible(timeout=60_000)
            return (time.perf_counter() - start) * 1000

        load()  # warm-up
        before.extend(load() for _ in range(2))
        go.set()
        while not stop.is_set():
            during.append(load())
        browser.close()


def run_students(url: str, code: str, tokens: list[str], plan: dict, starts, out) -> None:
    """In a process of its own (so its threads do not slow the lecturer page's polling): submit.

    Says it is ready on ``out``, then takes the common start time (monotonic) from ``starts``.
    """
    store = Store(url)
    store.room(code)  # connected, imports done
    out.put("ready")
    start = starts.get(timeout=120)
    commits: list[float] = []
    submit_ms: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def student(i: int) -> None:
        for number, (offset, text) in enumerate(plan[i]):
            delay = start + offset - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            t0 = time.perf_counter()
            try:
                store.submit(code, tokens[i], 1, text)
            except Exception as err:  # every failure is counted and printed
                with lock:
                    errors.append(f"student {i}: {type(err).__name__}: {err}")
                continue
            with lock:
                submit_ms.append((time.perf_counter() - t0) * 1000)
                if number == 0:
                    commits.append(time.monotonic())

    threads = [threading.Thread(target=student, args=(i,)) for i in range(len(tokens))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store.dispose()
    out.put((commits, submit_ms, errors))


def poll_summary(url: str, code: str, key: str, stop, out) -> None:
    """In a process of its own: the aggregation the live fragment draws, every 50 ms."""
    store = Store(url)
    seen = []
    while not stop.is_set():
        seen.append((time.monotonic(), store.summary(code, key, 1)[1].answered))
        stop.wait(0.05)
    store.dispose()
    out.put(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--window", type=float, default=10.0, help="seconds in which all submit")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="print the timelines")
    parser.add_argument(
        "--no-playground", action="store_true", help="skip the playground page loads (the health probe stays)"
    )
    args = parser.parse_args()

    data = pathlib.Path(tempfile.mkdtemp(prefix="ndcg-class-bench-"))
    os.environ["NDCG_DATA_DIR"] = str(data)
    rng = random.Random(args.seed)
    n = args.students
    with streamlit_server() as url, sync_playwright() as p:
        store = Store(f"sqlite:///{data / 'classroom.sqlite3'}")
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        lecturer = browser.new_page(viewport={"width": 1920, "height": 1080})
        lecturer.goto(f"{url}/class")
        lecturer.locator(".st-key-cl_create button").click()
        expect(lecturer).to_have_url(__import__("re").compile(r"room="), timeout=60_000)
        params = dict(q.split("=", 1) for q in lecturer.evaluate("location.search")[1:].split("&"))
        code = params["room"]
        key = lecturer_key(lecturer, code)
        lecturer.locator(".st-key-cl_source button", has_text="The playground's list").click()
        lecturer.locator(".st-key-cl_ask_button button").click()
        expect(lecturer.locator(".st-key-cl_open button")).to_be_enabled(timeout=60_000)
        lecturer.locator(".st-key-cl_open button").click()
        expect(lecturer.locator(".st-key-cl_question")).to_contain_text("Open for answers", timeout=60_000)
        metric = lecturer.locator(".st-key-cl_answered [data-testid=stMetricValue]")
        expect(metric).to_have_text("0", timeout=60_000)

        tokens = [store.join(code, f"Student {i + 1}").token for i in range(n)]

        # Each student's answers: (offset in s, text). Ten answer twice; the last one must stay.
        plan = {i: [(rng.uniform(0, args.window * 0.8), f"{0.5 + i / 200:.3f}")] for i in range(n)}
        for i in rng.sample(range(n), min(10, n)):
            first = plan[i][0][0]
            plan[i].append((rng.uniform(first + 0.1, args.window), f"{0.9 - i / 400:.3f}"))

        stop = threading.Event()
        health: list[float] = []
        pg_before: list[float] = []
        pg_during: list[float] = []
        go = threading.Event()
        probes = [threading.Thread(target=health_probe, args=(url, stop, health))]
        if args.no_playground:
            go.set()
        else:
            probes.append(
                threading.Thread(target=playground_loads, args=(url, stop, pg_before, pg_during, go))
            )
        for t in probes:
            t.start()
        go.wait(300)

        ctx = multiprocessing.get_context("spawn")
        db_url = store.url
        results, starts, polled, stop_poll = ctx.Queue(), ctx.Queue(), ctx.Queue(), ctx.Event()
        workers = ctx.Process(target=run_students, args=(db_url, code, tokens, plan, starts, results))
        poller = ctx.Process(target=poll_summary, args=(db_url, code, key, stop_poll, polled))
        workers.start()
        poller.start()
        assert results.get(timeout=300) == "ready"
        start = time.monotonic() + 0.5
        starts.put(start)
        seen_page: list[tuple[float, int]] = []
        deadline = start + args.window + 30
        while time.monotonic() < deadline:
            text = metric.text_content(timeout=10_000) or ""
            if text.strip().isdigit():
                seen_page.append((time.monotonic(), int(text)))
                if int(text) >= n and time.monotonic() > start + args.window:
                    break
            lecturer.wait_for_timeout(50)
        commits, submit_ms, errors = results.get(timeout=120)
        workers.join()
        stop_poll.set()
        seen_store = polled.get(timeout=60)
        poller.join()
        stop.set()
        for t in probes:
            t.join()
        burst = max(commits) - start if commits else float("nan")

        def latencies(seen: list[tuple[float, int]]) -> list[float]:
            out = []
            for k, committed in enumerate(sorted(commits), start=1):
                visible = next((t for t, count in seen if count >= k and t >= committed), None)
                out.append(float("inf") if visible is None else (visible - committed) * 1000)
            return out

        stored = store.answers(code, key, 1)
        expected = {f"Student {i + 1}": plan[i][-1][1] for i in range(n)}
        got = {a.name: json.loads(a.response) for a in stored}
        lost = sum(1 for name in expected if name not in got)
        wrong = sum(1 for name, text in expected.items() if name in got and got[name] != text)
        page_lat = latencies(seen_page)
        print(
            f"class_load: {n} students, {sum(len(v) for v in plan.values())} submits "
            f"in {burst:.1f} s, one room"
        )
        print(summary_line("submit call (judge + upsert, SQLite WAL)", submit_ms))
        print(summary_line("submit -> visible on the lecturer's page (Answered metric)", page_lat))
        print(summary_line("submit -> in the live view's aggregation (Store.summary)", latencies(seen_store)))
        print(
            f"errors: {len(errors)}; answers stored: {len(stored)} of {n}; lost: {lost}; "
            f"not the last answer: {wrong}"
        )
        for line in errors[:5]:
            print("  ", line)
        changes = [t for (t, c), (_, before) in zip(seen_page[1:], seen_page, strict=False) if c != before]
        gaps = [(b - a) * 1000 for a, b in itertools.pairwise(changes)]
        if args.verbose:
            print(
                "lecturer page count changes (s after start, count):",
                [(round(t - start, 1), c) for t, c in seen_page if t in changes],
            )
            print("commits (s after start):", [round(t - start, 1) for t in sorted(commits)])
        print(summary_line(f"time between updates of the lecturer's count ({len(changes)} updates)", gaps))
        print(summary_line("health endpoint during the run", health))
        print(summary_line("playground page load before the burst", pg_before))
        print(summary_line("playground page load during the burst", pg_during))
        browser.close()
        store.dispose()
        if lost or wrong or errors or not all(x < float("inf") for x in page_lat):
            sys.exit(1)


if __name__ == "__main__":
    main()

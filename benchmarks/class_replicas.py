"""Class mode through a proxy: 1 app process or R replicas on one PostgreSQL behind nginx, phones
speaking Streamlit's websocket protocol (issue 30, part 5; issue 26, part 7).

    python benchmarks/class_replicas.py [--replicas 1,2] [--phones 100,200,300] [--join 60]
        [--join-window 10] [--browser-phones 5] [--stop-replica] [--seed 1]

The topology ``compose.yaml`` describes, without Docker: a throwaway PostgreSQL 15 (Debian's, as the
storage tests start it: tests/postgres_support.py), R app processes (``scripts/serve.py``, as
``make run`` starts the app, each on its own port, ``NDCG_DATABASE_URL`` on that database,
``NDCG_TRUSTED_PROXIES=1``, one cookie secret), and Debian's nginx on ``deploy/nginx.conf`` in
front (its upstream lines replaced by the local ports: tests/nginx_support.py; installed with
apt-get when missing, or the bench says why it cannot run). R=1 goes through the same proxy, so the
two rows differ only in the number of processes.

Session affinity: the proxy routes on a hash of its ``ndcg_route`` cookie. Every simulated phone
comes from this one host, so ``ip_hash`` would put them all on one replica; each phone sends its
own cookie (``ndcg_route=phone-N``), as each real phone keeps the one the proxy gave it.

Phones (benchmarks/phones.py) are websocket clients in one process of their own: 60 Chromium
renderers (let alone 300) on 2 cores would measure the browsers, not the server. A phone does what
the student page's browser does on the wire: asks for the page, asks the room's state route every
2 s as the page's watcher script does (and reruns the page when the state moved), reruns the
page's slower fragment (the ``auto_rerun`` the server sends), answers through the form (the
widgets' ids and values, the submit trigger), waits for "Saved". The phones are joined through
the store (one row each) before they connect; joining through the page is the separate join burst
below.

Phases, for each R:

1. **Join burst** (issue 26, part 7): ``--join`` new phones open the join link at seeded random
   moments within ``--join-window`` s: each loads the HTML and the scripts and style sheets it names
   (a new phone's empty cache), opens the websocket and asks for the page; measured until the
   "Your name" box arrives. ``--browser-phones`` real Chromium pages (new contexts of one browser)
   open the same link during the burst and are timed until the box is visible, to show what the
   browser's own work adds. The server's CPU per join: the replicas' CPU over the burst, less
   their idle rate measured just before, over the phones.
2. **A room of N phones**, for each N of ``--phones``: a lecturer's Chromium page (through the
   proxy) creates a room, asks the playground's list and opens it; N phones connect (10 a second),
   poll for 8 s, then each answers once at a random moment within N/10 s (10 answers a second).
   Measured: pressed "Send answer" -> visible on the lecturer's page (its "Answered" count, read
   every 50 ms: the k-th answer sent is visible when the count first shows k), pressed -> "Saved"
   on the phone, -> in the database (the live view's count read every 50 ms), the fragment poll's
   round trip, errors, answers lost (told "Saved", not stored), CPU of each part (replicas, nginx,
   PostgreSQL, the lecturer's Chromium, the phones' process, the machine), CPU per finished poll.
3. ``--stop-replica`` (R >= 2, after the largest N): one replica is killed (SIGKILL); its phones
   reconnect through the proxy to another; measured: reconnect time, whether each page still says
   who the phone is, answers stored before and after.

``BENCH_VERBOSE=1`` prints each room's timelines; ``BENCH_SHOT=path`` saves the lecturer's page
when the measuring ends (``path-N.png``).
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import itertools
import json
import multiprocessing
import os
import pathlib
import random
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import psutil

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))
from browser_support import CHROMIUM_ARGS, chromium_path, free_port, server_options, wait_until_healthy  # noqa: E402
from class_load import lecturer_key, pct  # noqa: E402
from nginx_support import nginx_proxy  # noqa: E402
from phones import Phone  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402
from postgres_support import postgres_server  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from ndcg_core.classroom import Store  # noqa: E402

CONNECT_RATE = 10.0  # phones connecting per second
SUBMIT_RATE = 10.0  # answers per second
SETTLE = 8.0  # seconds of polling before the first answer


def ms(values, q) -> str:
    finite = [v for v in values if v != float("inf")]
    if not values:
        return "-"
    if len(finite) < len(values):
        return f"{pct(values, q) * 1000:.0f} ms" if pct(values, q) != float("inf") else "missed"
    return f"{pct(finite, q) * 1000:.0f} ms"


# ------------------------------------------------------------------ processes


def start_replicas(count: int, env: dict[str, str], folder: pathlib.Path):
    procs = []
    for i in range(count):
        port = free_port()
        log = open(folder / f"replica-{i + 1}.log", "w")  # noqa: SIM115
        cmd = [sys.executable, str(ROOT / "scripts" / "serve.py"), *server_options(port)]
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
        procs.append((proc, port, log))
    for proc, port, log in procs:
        wait_until_healthy(
            f"http://127.0.0.1:{port}", proc, 90, 0.2, f"a replica did not start; see {log.name}"
        )
    return procs


def tree(pid: int) -> list[psutil.Process]:
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def cpu_of(procs: list[psutil.Process]) -> float:
    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return total


def postgres_pids(url: str) -> list[psutil.Process]:
    port = int(re.search(r":(\d+)/", url).group(1))
    for p in psutil.process_iter(["name", "cmdline"]):
        if p.info["name"] == "postgres" and f"-p {port}" in " ".join(p.info["cmdline"] or []):
            return tree(p.pid)
    return []


def nginx_pids() -> list[psutil.Process]:
    me = os.getpid()
    return [
        p
        for p in psutil.process_iter(["name", "ppid"])
        if p.info["name"] == "nginx" and any(a.pid == me for a in p.parents())
    ]


def chromium_pids() -> list[psutil.Process]:
    """This bench's Chromium (Playwright's browser: the lecturer's page)."""
    return [p for p in psutil.Process().children(recursive=True) if "chrom" in p.name().lower()]


class Meter:
    """CPU seconds of each part between start() and stop(), and the machine's busy share."""

    def __init__(self, parts) -> None:
        self.parts = parts  # name -> function returning processes

    def start(self) -> None:
        self.t0 = time.monotonic()
        self.c0 = {name: cpu_of(f()) for name, f in self.parts.items()}
        self.m0 = psutil.cpu_times()
        self.load0 = os.getloadavg()[0]

    def stop(self) -> dict[str, float]:
        wall = time.monotonic() - self.t0
        used = {name: cpu_of(f()) - self.c0[name] for name, f in self.parts.items()}
        m1 = psutil.cpu_times()

        def busy_of(t) -> float:
            return t.user + t.nice + t.system + t.irq + t.softirq + t.steal

        busy = busy_of(m1) - busy_of(self.m0)
        used["machine (all processes, other sessions too)"] = busy
        used["wall"] = wall
        used["load"] = (self.load0, os.getloadavg()[0])
        return used


# ------------------------------------------------------------------ the phones' process


def phones_process(kind: str, base: str, code: str, plan: list, start: float, out, ctrl) -> None:
    """``kind`` "join": each plan entry (index, at) opens the join link at ``start + at``, loads the
    page and waits for the name box. "room": each entry (index, token, name, connect_at, submit_at,
    answer) connects, polls, answers, until "stop" arrives on ``ctrl``."""

    async def main():
        loop = asyncio.get_running_loop()
        loop.set_default_executor(concurrent.futures.ThreadPoolExecutor(96))

        def fetch(url: str, headers: dict[str, str]) -> bytes:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=60) as r:
                return r.read()

        async def http(url, headers):
            return await loop.run_in_executor(None, fetch, url, headers)

        if kind == "join":

            async def one(index: int, at: float):
                phone = Phone(index, base, code, None, None)
                await asyncio.sleep(max(0.0, start + at - time.monotonic()))
                phone.log.opened = time.monotonic()
                try:
                    await phone.load_html(http)
                    phone.log.html_done = time.monotonic()
                    await phone.connect()
                    async with asyncio.timeout(120):
                        async for raw in phone.ws:
                            msg = ForwardMsg.FromString(raw)
                            if (
                                msg.WhichOneof("type") == "delta"
                                and msg.delta.WhichOneof("type") == "new_element"
                            ):
                                phone._element(msg.delta.new_element, time.monotonic())
                                if phone.log.name_box is not None:
                                    break
                    await phone.ws.close()
                except Exception as err:  # every failure is counted and printed
                    phone.log.errors.append(f"{type(err).__name__}: {err}")
                return phone.log

            logs = await asyncio.gather(*(one(i, at) for i, at in plan))
            out.put(list(logs))
            return

        stop = asyncio.Event()
        phones = []

        async def one(index, token, name, connect_at, submit_at, answer):
            phone = Phone(index, base, code, token, name)
            phones.append(phone)
            answers[phone] = (submit_at, answer)
            await asyncio.sleep(max(0.0, start + connect_at - time.monotonic()))
            phone.log.opened = time.monotonic()
            try:
                await phone.connect()
                await phone.run(stop)
            except Exception as err:  # every failure is counted and printed
                phone.log.errors.append(f"{type(err).__name__}: {err}")

        answers: dict = {}
        answering = []

        async def control():
            while True:
                word = await loop.run_in_executor(None, ctrl.get)
                if word == "stop":
                    stop.set()
                    for task in answering:
                        task.cancel()
                    return
                if isinstance(word, tuple) and word[0] == "go":  # answers from this moment on
                    for phone, (offset, text) in answers.items():
                        answering.append(asyncio.create_task(phone.answer(word[1] + offset, text)))
                    continue
                if word == "status":
                    out.put(
                        {
                            "connected": sum(p.log.page_done is not None for p in phones),
                            "saved": sum(p.log.saved is not None for p in phones),
                            "reconnected": sum(bool(p.log.reconnect_s) for p in phones),
                            "reconnecting": sum(p.log.reconnects > len(p.log.reconnect_s) for p in phones),
                        }
                    )

        tasks = [asyncio.create_task(one(*entry)) for entry in plan]
        await control()
        await asyncio.wait(tasks, timeout=30)
        out.put([p.log for p in phones])

    asyncio.run(main())


# ------------------------------------------------------------------ the lecturer


class LecturerWire:
    """The lecturer page's websocket frames: when its live fragment asked the server to rerun, and
    when the server said that run finished (timed as Playwright hands the frames over)."""

    def __init__(self, page) -> None:
        self.asked: list[float] = []
        self.finished: list[float] = []
        page.on("websocket", self._socket)

    def _socket(self, ws) -> None:
        def sent(payload) -> None:
            msg = BackMsg.FromString(payload if isinstance(payload, bytes) else payload.encode())
            if msg.WhichOneof("type") == "rerun_script" and msg.rerun_script.is_auto_rerun:
                self.asked.append(time.monotonic())

        def received(payload) -> None:
            msg = ForwardMsg.FromString(payload if isinstance(payload, bytes) else payload.encode())
            if msg.WhichOneof("type") == "script_finished" and msg.script_finished == 3:
                self.finished.append(time.monotonic())

        ws.on("framesent", sent)
        ws.on("framereceived", received)

    def between(self, t0: float, t1: float) -> tuple[list[float], list[float]]:
        """The gaps between the page's asks, and ask -> finished, within [t0, t1]."""
        asked = [t for t in self.asked if t0 <= t <= t1]
        gaps = [b - a for a, b in itertools.pairwise(asked)]
        rounds = []
        for a in asked:
            done = next((f for f in self.finished if f >= a), None)
            if done is not None:
                rounds.append(done - a)
        return gaps, rounds


def new_room(page, base: str) -> tuple[str, str]:
    page.goto(f"{base}/class")
    page.locator(".st-key-cl_create button").click()
    expect(page).to_have_url(re.compile(r"room="), timeout=60_000)
    code = re.search(r"room=([A-Z0-9]+)", page.evaluate("location.href")).group(1)
    key = lecturer_key(page, code)
    page.locator(".st-key-cl_source button", has_text="The playground's list").click()
    page.locator(".st-key-cl_ask_button button").click()
    expect(page.locator(".st-key-cl_open button")).to_be_enabled(timeout=60_000)
    page.locator(".st-key-cl_open button").click()
    expect(page.locator(".st-key-cl_question")).to_contain_text("Open for answers", timeout=60_000)
    expect(page.locator(".st-key-cl_answered [data-testid=stMetricValue]")).to_have_text("0", timeout=60_000)
    return code, key


def connections_per_replica(ports: list[int]) -> list[int]:
    counts = dict.fromkeys(ports, 0)
    for c in psutil.net_connections(kind="tcp"):
        if c.status == psutil.CONN_ESTABLISHED and c.laddr and c.laddr.port in counts:
            counts[c.laddr.port] += 1
    return [counts[p] for p in ports]


# ------------------------------------------------------------------ phases


#: Seconds the replicas' idle CPU is measured before a join burst (the lecturer's page polls).
IDLE_SECONDS = 5.0


def join_burst(ctx, base, code, args, browser, rng, replica_procs) -> None:
    n = args.join
    plan = [(i, rng.uniform(0, args.join_window)) for i in range(n)]
    out, ctrl = ctx.Queue(), ctx.Queue()
    idle = Meter({"replicas": replica_procs})  # what the replicas spend with nobody joining
    idle.start()
    time.sleep(IDLE_SECONDS)
    idle_rate = idle.stop()["replicas"] / IDLE_SECONDS
    meter = Meter({"replicas": replica_procs})
    meter.start()
    start = time.monotonic() + 2.0
    proc = ctx.Process(target=phones_process, args=("join", base, code, plan, start, out, ctrl), daemon=True)
    proc.start()
    chromium: list[float] = []
    for at in sorted(rng.uniform(0, args.join_window) for _ in range(args.browser_phones)):
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        page = context.new_page()
        time.sleep(max(0.0, start + at - time.monotonic()))
        t0 = time.monotonic()
        page.goto(f"{base}/class?room={code}")
        expect(page.get_by_label("Your name")).to_be_visible(timeout=120_000)
        chromium.append(time.monotonic() - t0)
        context.close()
    logs = out.get(timeout=300)
    proc.join()
    time.sleep(2.0)  # the last sessions' ends
    used = meter.stop()
    per_join = (used["replicas"] - idle_rate * used["wall"]) / n
    to_box = [(log.name_box - log.opened) if log.name_box else float("inf") for log in logs]
    html = [log.html_done - log.opened for log in logs if log.html_done]
    ws = [log.name_box - log.html_done for log in logs if log.name_box and log.html_done]
    errors = [e for log in logs for e in log.errors]
    print(
        f"  join burst: {n} phones open the join link within {args.join_window:g} s: "
        f"to the 'Your name' box p50 {ms(to_box, 0.5)}, p95 {ms(to_box, 0.95)}, max {ms(to_box, 1.0)} "
        f"(HTML + scripts + styles p50 {ms(html, 0.5)}, p95 {ms(html, 0.95)}; websocket -> box p50 "
        f"{ms(ws, 0.5)}, p95 {ms(ws, 0.95)}); errors {len(errors)}"
    )
    print(
        f"    server CPU per join: {per_join * 1000:.0f} ms (the replicas' CPU over the burst, "
        f"{used['replicas']:.2f} s in {used['wall']:.0f} s, less their idle rate of "
        f"{idle_rate * 1000:.0f} ms/s, over {n} phones; the {len(chromium)} Chromium pages' joins included)"
    )
    for e in errors[:3]:
        print("    ", e)
    if chromium:
        print(
            f"  real Chromium pages during the burst ({len(chromium)}, 390x844): to the box visible "
            f"p50 {ms(chromium, 0.5)}, max {ms(chromium, 1.0)}"
        )


#: Installed in the lecturer's page: each value its "Answered" count takes, with the time it was drawn.
RECORD_COUNTS = """() => {
  window.__ndcgCounts = [];
  let last = null;
  const note = () => {
    const el = document.querySelector('.st-key-cl_answered [data-testid=stMetricValue]');
    const text = el ? el.textContent.trim() : null;
    if (text !== last && /^[0-9]+$/.test(text || '')) {
      last = text;
      window.__ndcgCounts.push([Date.now(), parseInt(text, 10)]);
    }
  };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true, characterData: true});
  note();
}"""


def room_run(ctx, base, lecturer, wire, n, args, rng, meter, replicas, ports, stop_one=False) -> dict:
    code, key = new_room(lecturer, base)
    store = Store(os.environ["NDCG_DATABASE_URL"])
    tokens = [store.join(code, f"Student {i + 1}").token for i in range(n)]
    window = max(5.0, n / SUBMIT_RATE)
    ramp = n / CONNECT_RATE
    plan = []
    for i in range(n):
        offset = rng.uniform(0, window)  # after all phones are in and have polled for SETTLE s
        plan.append((i, tokens[i], f"Student {i + 1}", i / CONNECT_RATE, offset, f"{0.5 + i / 1000:.3f}"))
    out, ctrl = ctx.Queue(), ctx.Queue()
    start = time.monotonic() + 1.0
    proc = ctx.Process(target=phones_process, args=("room", base, code, plan, start, out, ctrl), daemon=True)
    meter.parts["phones' process"] = lambda: tree(proc.pid)
    proc.start()
    metric = lecturer.locator(".st-key-cl_answered [data-testid=stMetricValue]")
    time.sleep(max(0.0, start + ramp - time.monotonic()))
    all_in = None
    for _ in range(240):  # every phone has its page drawn (joining is measured on its own)
        ctrl.put("status")
        if out.get(timeout=60)["connected"] >= n:
            all_in = time.monotonic() - start
            break
        time.sleep(0.5)
    time.sleep(SETTLE)
    spread = connections_per_replica(ports)
    go = time.monotonic() + 0.5
    ctrl.put(("go", go))
    meter.start()
    in_db: list[tuple[float, int]] = []
    done = threading.Event()

    def aggregation() -> None:  # what the live view counts, straight from the database every 50 ms
        while not done.is_set():
            in_db.append((time.monotonic(), store.summary(code, key, 1)[1].answered))
            done.wait(0.05)

    poller = threading.Thread(target=aggregation)
    poller.start()
    # The page's own record of each count it drew (a MutationObserver, the browser's clock): reading
    # the count every 50 ms through Playwright adds the bench's own delays to what the page shows.
    lecturer.evaluate(RECORD_COUNTS)
    wall_minus_mono = time.time() - time.monotonic()
    seen: list[tuple[float, int]] = []
    deadline = go + window + 40
    while time.monotonic() < deadline:
        text = (metric.text_content(timeout=30_000) or "").strip()
        if text.isdigit():
            seen.append((time.monotonic(), int(text)))
            if int(text) >= n:
                break
        lecturer.wait_for_timeout(50)
    if os.environ.get("BENCH_SHOT"):  # what the lecturer's page shows when the measuring ends
        lecturer.screenshot(path=f"{os.environ['BENCH_SHOT']}-{n}.png")
    for _ in range(40):  # the phones whose answer is stored see "Saved" (or 20 s pass)
        ctrl.put("status")
        status = out.get(timeout=60)
        if status["saved"] >= n:
            break
        time.sleep(0.5)
    cpu = meter.stop()
    drawn = [(t / 1000 - wall_minus_mono, count) for t, count in lecturer.evaluate("window.__ndcgCounts")]
    lecturer_gaps, lecturer_rounds = wire.between(meter.t0, time.monotonic())
    done.set()
    poller.join()
    result = {"n": n, "spread": spread, "cpu": cpu, "seen": seen, "start": go, "all_in": all_in, "ramp": ramp}
    if stop_one:
        stored_before = len(store.answers(code, key, 1))
        victim = replicas[-1][0]
        killed_at = time.monotonic()
        victim.send_signal(signal.SIGKILL)
        for _ in range(60):
            time.sleep(1)
            ctrl.put("status")
            status = out.get(timeout=60)
            if status["reconnecting"] == 0 and status["reconnected"] > 0:
                break
        time.sleep(3)  # the reconnected pages draw who they are and their answer
        result["stop"] = {"stored_before": stored_before, "killed_at": killed_at}
    ctrl.put("stop")
    logs = out.get(timeout=300)
    proc.join()
    sends = sorted(log.sent for log in logs if log.sent is not None)

    def latencies(seen: list[tuple[float, int]]) -> list[float]:
        out = []
        for k, sent in enumerate(sends, start=1):
            visible = next((t for t, count in seen if count >= k and t >= sent), None)
            out.append(float("inf") if visible is None else visible - sent)
        return out

    page_lat = latencies(seen)
    if os.environ.get("BENCH_DUMP"):  # the raw timelines (bench clock), for taking a lag apart
        with open(f"{os.environ['BENCH_DUMP']}-{n}.json", "w") as f:
            json.dump(
                {
                    "sends": sends,
                    "in_db": in_db,
                    "drawn": drawn,
                    "seen": seen,
                    "asked": wire.asked,
                    "finished": wire.finished,
                },
                f,
            )
    stored = store.answers(code, key, 1)
    result.update(
        page=page_lat,
        drawn=latencies(drawn),
        db=latencies(in_db),
        lecturer_gaps=lecturer_gaps,
        lecturer_rounds=lecturer_rounds,
        saved=[log.saved - log.sent for log in logs if log.sent and log.saved],
        unsaved=sum(1 for log in logs if log.sent and not log.saved),
        not_sent=sum(1 for log in logs if log.sent is None),
        polls=[p for log in logs for p in log.polls],
        asks=[a for log in logs for a in log.asks],
        gaps=[g for log in logs for g in log.poll_gaps],
        errors=[e for log in logs for e in log.errors],
        stored=len(stored),
        # Lost: the phone was told "Saved" and the answer is not in the database. An answer still
        # queued in a saturated server when the phones leave was never acknowledged: not stored.
        lost=sum(
            1 for log in logs if log.saved and f"Student {log.index + 1}" not in {a.name for a in stored}
        ),
        logs=logs,
    )
    if stop_one:
        moved = [log for log in logs if log.reconnects]
        result["stop"].update(
            moved=len(moved),
            reconnect=[s for log in moved for s in log.reconnect_s],
            identity_kept=sum(1 for log in moved if f"Student {log.index + 1}" in log.identity_after),
            saved_shown=sum(1 for log in moved if log.saved_after_reconnect),
            stored_after=len(store.answers(code, key, 1)),
            lecturer=(metric.text_content(timeout=60_000) or "").strip(),
        )
    store.dispose()
    return result


def report(r: dict, replicas: int) -> None:
    cpu = r["cpu"]
    polls = len(r["polls"]) + len(r["asks"])
    app_cpu = cpu["replicas"]
    print(
        f"  {r['n']} phones, {replicas} replica(s) (phones per replica by open connections: {r['spread']}; "
        f"connecting {CONNECT_RATE:g} a second, all drawn "
        + (
            f"{r['all_in']:.0f} s after the first, {r['ramp']:.0f} s at best"
            if r["all_in"]
            else "NOT within 2 min"
        )
        + "):\n"
        f"    send -> lecturer's page p50 {ms(r['page'], 0.5)}, p95 {ms(r['page'], 0.95)}, "
        f"max {ms(r['page'], 1.0)} (drawn, by the page's own clock: p50 {ms(r['drawn'], 0.5)}, "
        f"p95 {ms(r['drawn'], 0.95)})"
        f" | send -> 'Saved' on the phone p50 {ms(r['saved'], 0.5)}, p95 {ms(r['saved'], 0.95)}"
        f" | send -> in the database's count p50 {ms(r['db'], 0.5)}, p95 {ms(r['db'], 0.95)}\n"
        f"    state route round trip ({len(r['asks'])} asks, every 2 s) p50 {ms(r['asks'], 0.5)}, p95 "
        f"{ms(r['asks'], 0.95)}; fragment poll round trip ({len(r['polls'])}) p50 {ms(r['polls'], 0.5)}, "
        f"p95 {ms(r['polls'], 0.95)}; errors {len(r['errors'])}, answers not saved "
        f"{r['unsaved']}, not sent {r['not_sent']}, stored {r['stored']} of {r['n']}, lost (told 'Saved', "
        f"not stored) {r['lost']}"
    )
    print(
        f"    the lecturer page's live part (every 1 s): between asks p50 {ms(r['lecturer_gaps'], 0.5)}, "
        f"p95 {ms(r['lecturer_gaps'], 0.95)}; ask -> run finished p50 {ms(r['lecturer_rounds'], 0.5)}, "
        f"p95 {ms(r['lecturer_rounds'], 0.95)}"
    )
    for e in r["errors"][:3]:
        print("     ", e)
    for log in [log for log in r["logs"] if log.sent and not log.saved][:3]:  # what they saw instead
        print(
            f"      not saved, phone {log.index + 1}: runs finished {log.finished_after_send}, "
            f"drew {log.after_send[:6]}"
        )
    if os.environ.get("BENCH_VERBOSE"):
        changes = [
            (round(t - r["start"], 1), c)
            for (t, c), (_, b) in zip(r["seen"][1:], r["seen"], strict=False)
            if c != b
        ]
        print("    lecturer count changes (s, count):", changes)
        print("    sends (s):", sorted(round(log.sent - r["start"], 1) for log in r["logs"] if log.sent))
        print("    saved (s):", sorted(round(log.saved - r["start"], 1) for log in r["logs"] if log.saved))
    parts = ", ".join(
        f"{name} {value:.1f}"
        for name, value in cpu.items()
        if name not in ("wall", "load") and isinstance(value, float)
    )
    print(
        f"    CPU s over the {cpu['wall']:.0f} s measured: {parts}; app CPU per finished poll "
        f"{app_cpu / max(1, polls) * 1000:.1f} ms ({polls} polls, asks of the route included, and "
        f"{r['n']} answers); load average "
        f"{cpu['load'][0]:.1f} -> {cpu['load'][1]:.1f}"
    )
    if "stop" in r:
        s = r["stop"]
        print(
            f"    one replica killed (SIGKILL) after the answers: {s['moved']} phones reconnected "
            "through the proxy, "
            f"reconnect -> page drawn again p50 {ms(s['reconnect'], 0.5)}, p95 {ms(s['reconnect'], 0.95)}; "
            f"the page still named the phone's student for {s['identity_kept']} of {s['moved']}, showed its "
            f"saved answer for {s['saved_shown']}; answers stored {s['stored_before']} before, "
            f"{s['stored_after']} after; the lecturer's count {s['lecturer']}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--replicas", default="1,2")
    parser.add_argument("--phones", default="100,200,300")
    parser.add_argument("--join", type=int, default=60)
    parser.add_argument("--join-window", type=float, default=10.0)
    parser.add_argument("--browser-phones", type=int, default=5)
    parser.add_argument("--stop-replica", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ctx = multiprocessing.get_context("spawn")
    print(f"class_replicas: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start")
    with postgres_server() as db_url, sync_playwright() as p:
        os.environ["NDCG_DATABASE_URL"] = db_url
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        for count in [int(x) for x in args.replicas.split(",")]:
            rng = random.Random(args.seed)
            folder = pathlib.Path(tempfile.mkdtemp(prefix="ndcg-replicas-"))
            env = {
                **os.environ,
                "NDCG_DATABASE_URL": db_url,
                "NDCG_TRUSTED_PROXIES": "1",
                "STREAMLIT_SERVER_COOKIE_SECRET": secrets.token_hex(32),
            }
            replicas = start_replicas(count, env, folder)
            ports = [port for _, port, _ in replicas]
            try:
                with nginx_proxy(ports) as base:
                    print(f"\n{count} app process(es) on ports {ports}, one PostgreSQL, nginx at {base}")
                    lecturer = browser.new_page(viewport={"width": 1920, "height": 1080})
                    wire = LecturerWire(lecturer)
                    code, _key = new_room(lecturer, base)
                    # Every replica draws the student page once before anything is measured.
                    for port in ports:
                        warm = Phone(0, f"http://127.0.0.1:{port}", code, None, None)

                        async def warm_up(phone=warm):
                            await phone.connect()
                            async for raw in phone.ws:
                                if ForwardMsg.FromString(raw).WhichOneof("type") == "script_finished":
                                    break
                            await phone.ws.close()

                        # In a thread: Playwright's sync API keeps an event loop in this one.
                        with concurrent.futures.ThreadPoolExecutor(1) as pool:
                            pool.submit(asyncio.run, asyncio.wait_for(warm_up(), 60)).result()

                    def replica_procs(replicas=replicas) -> list[psutil.Process]:
                        return [q for proc, _, _ in replicas for q in tree(proc.pid)]

                    if args.join:
                        join_burst(ctx, base, code, args, browser, rng, replica_procs)
                    meter = Meter(
                        {
                            "replicas": replica_procs,
                            "nginx": nginx_pids,
                            "PostgreSQL": lambda: postgres_pids(db_url),
                            "the lecturer's Chromium": chromium_pids,
                        }
                    )
                    sizes = [int(x) for x in args.phones.split(",") if x]
                    for n in sizes:
                        r = room_run(
                            ctx,
                            base,
                            lecturer,
                            wire,
                            n,
                            args,
                            rng,
                            meter,
                            replicas,
                            ports,
                            stop_one=args.stop_replica and count >= 2 and n == sizes[-1],
                        )
                        report(r, count)
                        time.sleep(5)  # the last room's sessions close
                    lecturer.close()
            finally:
                for proc, _, log in replicas:
                    if proc.poll() is None:
                        proc.terminate()
                        try:
                            proc.wait(15)
                        except subprocess.TimeoutExpired:
                            proc.kill()
                    log.close()
        browser.close()


if __name__ == "__main__":
    main()

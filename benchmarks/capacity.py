"""Capacity: the server's CPU time per interaction, and how many interactions one core sustains.

    python benchmarks/capacity.py [--repeats 20] [--items 6,100] [--browser-clicks 30]

Method. A classroom is 30-100 people on one server; running 30+ Chromium renderers on a 2-core
machine would measure the browsers, not the server. So:

1. In process (AppTest): Streamlit's own ScriptRunner, session state and widget machinery
   run the real app script for one simulated session, and ``time.process_time()`` (CPU of
   every thread of this process) is read around each interaction: a drag (the sortable list's
   value set, as the component reports it), a grade edit in the data editor, a one-click
   reorder, and switching pages (Playground -> Explore -> Data sets -> Playground). Only CPU
   counts, so the number does not depend on how busy the machine is (wall time does).
2. Real server, one browser: the app runs as ``streamlit run``; one Chromium page clicks the
   one-click reorder ``--browser-clicks`` times and switches pages, waiting for each update;
   the server's CPU time (utime + stime from /proc) over the clicks, divided by their number,
   includes what AppTest leaves out (Tornado, the websocket, protobuf serialisation). Its ratio
   to the AppTest figure for the same click scales the in-process figures.

"Interactions per second one core sustains" = 1 / (CPU seconds per interaction): a core busy
with nothing else. The browser's own work (drawing charts, KaTeX) is not server load.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's ndcg_core and views
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))
from memory_sessions import cpu_seconds, start_server  # noqa: E402

APP = str(ROOT / "app.py")


def grades(n: int) -> str:
    return ",".join(str(i % 4) for i in range(n))


def cpu_ms(action) -> float:
    start = time.process_time()
    action()
    return (time.process_time() - start) * 1000


def in_process(n: int, repeats: int) -> dict[str, float]:
    """Median CPU ms per interaction for one AppTest session with an n-item playground."""
    from streamlit.testing.v1 import AppTest

    def new_session():
        at = AppTest.from_file(APP, default_timeout=120)
        at.query_params["rel"] = grades(n)
        at.query_params["k"] = "10"
        return at

    out: dict[str, list[float]] = {"first load (new session)": [], "drag": [], "edit a grade": []}
    out.update({"one-click reorder": [], "page switch": []})
    new_session().run()  # warm: imports and caches, as on a running server
    for _ in range(repeats):
        fresh = new_session()
        out["first load (new session)"].append(cpu_ms(fresh.run))
    at = new_session().run()
    for r in range(repeats):
        ss = at.session_state
        if n <= 100:  # the drag list is offered up to 100 items
            key = f"sort_{ss.get('pg_sort_version', 0)}"
            texts = [f"{i.label}  ·  {i.grade:g}" for i in ss["pg_items"]]
            texts.insert(0, texts.pop(3))  # item 4 dropped on top
            ss[key] = [{"header": None, "items": texts}]  # the component's value
            out["drag"].append(cpu_ms(at.run))
        version = at.session_state["pg_editor_version"]
        at.session_state[f"editor_{version}"] = {
            "edited_rows": {1: {"Grade": str(r % 4)}},
            "added_rows": [],
            "deleted_rows": [],
        }
        out["edit a grade"].append(cpu_ms(at.run))
        button = at.button(key="order_reverse")
        out["one-click reorder"].append(cpu_ms(lambda b=button: b.click().run()))
        for page in ("views/explore.py", "views/datasets.py", "views/playground.py"):
            out["page switch"].append(cpu_ms(lambda p=page: at.switch_page(p).run()))
        assert not at.exception, [e.value for e in at.exception]
    return {name: statistics.median(values) for name, values in out.items() if values}


def real_server(n: int, clicks: int) -> dict[str, float]:
    """Server CPU ms per one-click reorder and per page switch, driven by one real browser."""
    from browser_support import CHROMIUM_ARGS, chromium_path
    from playwright.sync_api import expect, sync_playwright

    from ndcg_core import ndcg
    from ndcg_core.teaching.formula import number

    proc, url = start_server(dict(os.environ))
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            page.goto(f"{url}/?rel={grades(n)}&k=10")
            headline = page.get_by_test_id("stMetricValue").first
            expect(headline).to_be_visible(timeout=60_000)
            order = [i % 4 for i in range(n)]
            page.wait_for_load_state("networkidle")
            start = cpu_seconds(proc.pid)
            for _ in range(clicks):
                order.reverse()
                reverse = page.locator(".st-key-order_reverse").get_by_role("button", name="Reverse")
                reverse.click()
                expect(headline).to_have_text(number(ndcg(order, 10)), timeout=60_000)
                page.wait_for_load_state("networkidle")
            per_click = (cpu_seconds(proc.pid) - start) / clicks * 1000
            start = cpu_seconds(proc.pid)
            switches = 0
            for _ in range(max(clicks // 3, 1)):
                for title, testid_text in (("Explore", "Compare rankings"), ("Data sets", "Queries")):
                    page.get_by_role("link", name=title).click()
                    expect(page.get_by_text(testid_text).first).to_be_visible(timeout=60_000)
                    switches += 1
                page.get_by_role("link", name="Playground").click()
                expect(headline).to_be_visible(timeout=60_000)
                switches += 1
            page.wait_for_load_state("networkidle")
            per_switch = (cpu_seconds(proc.pid) - start) / switches * 1000
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return {"one-click reorder": per_click, "page switch": per_switch}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--items", default="6,100")
    parser.add_argument("--browser-clicks", type=int, default=30)
    args = parser.parse_args(argv)
    sizes = [int(x) for x in args.items.split(",")]
    table = {n: in_process(n, args.repeats) for n in sizes}
    real = real_server(sizes[0], args.browser_clicks) if args.browser_clicks else {}
    factor = real["one-click reorder"] / table[sizes[0]]["one-click reorder"] if real else 1.0
    print(f"Server CPU per interaction, median of {args.repeats} (AppTest, in process):")
    print("| interaction | " + " | ".join(f"{n} items: CPU ms | /s per core" for n in sizes) + " |")
    print("|---|" + "---|---|" * len(sizes))
    for name in table[sizes[0]]:
        cells = []
        for n in sizes:
            ms = table[n].get(name)
            cells += ["-", "-"] if ms is None else [f"{ms:.0f}", f"{1000 / ms:.1f}"]
        print(f"| {name} | " + " | ".join(cells) + " |")
    if real:
        print(
            f"Real server, one browser, {sizes[0]} items: one-click reorder "
            f"{real['one-click reorder']:.0f} ms CPU, page switch {real['page switch']:.0f} ms CPU; "
            f"real/AppTest for the reorder = {factor:.2f}"
        )
        mix = statistics.mean([table[sizes[0]][k] for k in ("drag", "edit a grade", "page switch")]) * factor
        print(
            f"A mix of drag, edit and page switch at {sizes[0]} items, scaled by that ratio: "
            f"{mix:.0f} ms CPU, {1000 / mix:.1f} interactions/s per core"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

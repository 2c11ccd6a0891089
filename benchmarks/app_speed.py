"""How fast the playground answers, against a bare Streamlit page measured in the same run.

Prints one table: server rerun time (AppTest) at 6, 100 and 1,000 items, browser time
from drag release to updated metric at 6 and 1,000 items, and cold start to a complete
page; each with its target and, where it makes sense, the same measurement on
``peer_minimal_app.py`` (the framework's floor: the same drag component and one metric).

    python benchmarks/app_speed.py [--repeats 9] [--upload-rows 1000000]

Needs Debian's Chromium (``make test`` installs it). Numbers on a 2-core machine vary by
~15% from run to run; read ratios, not milliseconds.
"""

from __future__ import annotations

import argparse
import contextlib
import pathlib
import statistics
import sys
import tempfile
import time

from playwright.sync_api import expect, sync_playwright
from streamlit.testing.v1 import AppTest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from browser_support import CHROMIUM_ARGS, chromium_path, streamlit_server  # noqa: E402

from ndcg_core import ndcg  # noqa: E402
from ndcg_core.formula import number  # noqa: E402

APP = str(ROOT / "app.py")
PEER = str(ROOT / "benchmarks" / "peer_minimal_app.py")
SORTABLE = 'iframe[title="streamlit_sortables.sortable_items"]'

# Records when the first metric's text first changes (performance.now(), page clock) and
# returns the time it was installed. It is installed after the pointer has moved, just before
# the release: the drag component reports the new order only on drop (dnd-kit's onDragEnd),
# so the first change from here on is the drop's update.
WATCH = """() => {
  window.__shownAt = null;
  const before = document.querySelector('[data-testid="stMetricValue"]').textContent;
  new MutationObserver(() => {
    const now = document.querySelector('[data-testid="stMetricValue"]');
    if (window.__shownAt === null && now && now.textContent !== before) {
      window.__shownAt = performance.now();
    }
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
  return performance.now();
}"""


def grades(n: int) -> str:
    return ",".join(str(i % 4) for i in range(n))


def server_rerun_ms(script: str, n: int, repeats: int) -> float:
    at = AppTest.from_file(script, default_timeout=120)
    at.query_params["rel"] = grades(n)
    at.query_params["n"] = str(n)
    at.run()
    times = []
    for _ in range(repeats):
        if script == APP:
            button = at.button(key="order_reverse")
            start = time.perf_counter()
            button.click().run()
        else:
            start = time.perf_counter()
            at.run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def drag_ms(page, url: str, n: int, app: bool, repeats: int) -> float:
    """Median time from releasing item 4 over item 1 to the metric showing the new value."""
    query = f"?rel={grades(n)}&k=10" if app else f"?n={n}"
    page.goto(f"{url}/{query}")
    expect(page.get_by_test_id("stMetric").first).to_be_visible(timeout=60_000)
    order = list(range(n))
    times = []
    for _ in range(repeats):
        order.insert(0, order.pop(3))
        expected = number(ndcg([i % 4 for i in order], 10)) if app else f"D{order[0] + 1}"
        items = page.frame_locator(SORTABLE).last.locator("li")
        expect(items.nth(3)).to_be_visible()
        page.wait_for_load_state("networkidle")
        src, dst = items.nth(3).bounding_box(), items.nth(0).bounding_box()
        page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
        page.mouse.down()
        page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + 2, steps=12)
        released = page.evaluate(WATCH)
        page.mouse.up()
        page.wait_for_function("window.__shownAt !== null", timeout=30_000)
        times.append(page.evaluate("window.__shownAt") - released)
        # the drop landed where the model says (else the timing is of some other change)
        expect(page.get_by_test_id("stMetricValue").first).to_have_text(expected)
        # let the remounted list settle before the next drag
        expect(page.frame_locator(SORTABLE).last.locator("li").first).to_be_visible()
    return statistics.median(times)


def upload_ms(page, url: str, rows: int, folder: pathlib.Path) -> tuple[float, int]:
    """Upload a TREC qrels + run pair of ``rows`` run rows; time the second upload to the results."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from dataset_speed import make_data

    qrels, run = make_data(rows)
    qrels_path, run_path = folder / "qrels.txt", folder / "run.txt"
    qrels.assign(it="0")[["query", "it", "doc", "relevance"]].to_csv(
        qrels_path, sep=" ", header=False, index=False
    )
    run.assign(q0="Q0", rank=1, tag="bench")[["query", "q0", "doc", "rank", "score", "tag"]].to_csv(
        run_path, sep=" ", header=False, index=False
    )
    n_queries = run["query"].nunique() + len(set(qrels["query"]) - set(run["query"]))
    page.goto(f"{url}/datasets")
    expect(page.get_by_test_id("stMetric").first).to_be_visible(timeout=60_000)
    page.get_by_text("Data: the bundled sample, or your own qrels and run").click()
    page.locator(".st-key-ds_qrels_file input[type=file]").set_input_files(str(qrels_path))
    queries = page.get_by_test_id("stMetric").filter(has_text="Queries").first.get_by_test_id("stMetricValue")
    # The pair is scored as soon as the second file is in: time from handing the run file over
    # (its upload to the server included) to the new results.
    start = time.perf_counter()
    page.locator(".st-key-ds_run_file input[type=file]").set_input_files(str(run_path))
    expect(queries).to_have_text(f"{n_queries:,}", timeout=120_000)
    return (time.perf_counter() - start) * 1000, n_queries


def cold_start_ms(page, url: str, query: str) -> float:
    start = time.perf_counter()
    page.goto(f"{url}/{query}")
    expect(page.get_by_test_id("stMetric").first).to_be_visible(timeout=60_000)
    if "n=" not in query:  # the app: complete means the chart is drawn too
        expect(page.locator(".js-plotly-plot .main-svg").first).to_be_visible(timeout=60_000)
    return (time.perf_counter() - start) * 1000


@contextlib.contextmanager
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--upload-rows", type=int, default=1_000_000, help="0 to skip the upload timing")
    args = parser.parse_args()
    rows = []  # (measure, ours, peer, target)

    for n in (6, 100, 1000):
        ours = server_rerun_ms(APP, n, args.repeats)
        peer = server_rerun_ms(PEER, n, args.repeats)
        rows.append((f"server rerun, {n} items (AppTest)", ours, peer, None))

    with browser() as b:
        for script, label in ((APP, "app"), (PEER, "peer")):
            t0 = time.perf_counter()
            with streamlit_server(script=script) as url:
                boot = (time.perf_counter() - t0) * 1000
                page = b.new_page(viewport={"width": 1280, "height": 720})
                query = f"?rel={grades(6)}" if script == APP else "?n=6"
                first = cold_start_ms(page, url, query)
                page.close()
                results = {"boot": boot, "first": first}
                for n in (6, 1000):
                    page = b.new_page(viewport={"width": 1280, "height": 720})
                    results[n] = drag_ms(page, url, n, script == APP, max(3, args.repeats // 2))
                    page.close()
                if script == APP and args.upload_rows:
                    page = b.new_page(viewport={"width": 1280, "height": 720})
                    with tempfile.TemporaryDirectory() as folder:
                        upload = upload_ms(page, url, args.upload_rows, pathlib.Path(folder))
                    page.close()
            if label == "app":
                app_results = results
            else:
                peer_results = results
    rows.append(("drag release -> metric, 6 items (p50)", app_results[6], peer_results[6], 150.0))
    rows.append(("drag release -> metric, 1,000 items (p50)", app_results[1000], peer_results[1000], 400.0))
    rows.append(("server start -> healthy", app_results["boot"], peer_results["boot"], None))
    rows.append(("first page load -> complete page", app_results["first"], peer_results["first"], None))
    cold = app_results["boot"] + app_results["first"]
    rows.append(("cold start -> complete page", cold, peer_results["boot"] + peer_results["first"], 3000.0))
    if args.upload_rows:
        label = f"upload {args.upload_rows:,} run rows -> results ({upload[1]:,} q)"
        rows.append((label, upload[0], None, 2000.0))

    print(
        f"{'measure':44} {'ours ms':>9} {'peer ms':>9} {'ours/peer':>9} {'target ms':>9} {'ours/target':>11}"
    )
    for name, ours, peer, target in rows:
        ratio_peer = f"{ours / peer:9.2f}" if peer else f"{'':9}"
        peer_text = f"{peer:9.0f}" if peer else f"{'':9}"
        tgt = f"{target:9.0f}" if target else f"{'':9}"
        ratio_t = f"{ours / target:11.2f}" if target else f"{'':11}"
        print(f"{name:44} {ours:9.0f} {peer_text} {ratio_peer} {tgt} {ratio_t}")
    print("peer: benchmarks/peer_minimal_app.py (same drag component, one metric, no NDCG)")


if __name__ == "__main__":
    main()

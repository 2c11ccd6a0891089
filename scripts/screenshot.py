"""Take the README's picture of the app: the Playground as a newcomer first sees it.

Starts the app as ``make run`` does, on a free loopback port, opens the Playground in Debian's
headless Chromium through Playwright, waits until the metric is drawn and writes
``assets/screenshot.png``. Run it again after a change to the Playground's look:

    python scripts/screenshot.py                      # 1280x800, assets/screenshot.png
    python scripts/screenshot.py --width 1440 --height 900 --out /tmp/shot.png

It needs what the browser tests need (``make test`` installs it): Playwright and Chromium at
``/usr/bin/chromium`` (or ``NDCG_CHROMIUM``). It never downloads a browser.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from browser_support import CHROMIUM_ARGS, chromium_path, streamlit_server  # noqa: E402

#: What the picture shows: Wikipedia's D1..D6 in the original discount (NDCG@6 = 0.932).
PAGE = "/?rel=3,2,3,0,1,2&labels=D1,D2,D3,D4,D5,D6&discount=jarvelin&lang=en"


def take(out: pathlib.Path, width: int, height: int, settle_ms: int) -> int:
    """Write the screenshot to ``out``; return its size in bytes."""
    from playwright.sync_api import sync_playwright

    with streamlit_server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height}, device_scale_factor=1)
            page.goto(url + PAGE, wait_until="domcontentloaded")
            page.locator('[data-testid="stMetricValue"]').first.wait_for(timeout=60_000)
            # The drag list is a component in its own frame: wait until its items are drawn too.
            frame = page.frame_locator('iframe[title="streamlit_sortables.sortable_items"]').last
            frame.locator("li.sortable-item").first.wait_for(timeout=60_000)
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(settle_ms)  # fonts, KaTeX and the last layout pass
            out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out), full_page=False)
        finally:
            browser.close()
    return out.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "assets" / "screenshot.png")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=800)
    parser.add_argument("--settle-ms", type=int, default=1500, help="wait after the page is drawn")
    args = parser.parse_args()
    size = take(args.out, args.width, args.height, args.settle_ms)
    print(f"wrote {args.out} ({size / 1024:.0f} KB, {args.width}x{args.height})")


if __name__ == "__main__":
    main()

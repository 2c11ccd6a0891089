"""Issue 14 in real Chromium: user text in a share-link warning renders as text (item 5)."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

EVIL = "[x](https://evil.example/p) ![i](https://evil.example/a.png) <b>B</b> $x^2$ :smile: :red[hot] **b**"


def test_item5_warning_shows_markdown_latex_html_and_shortcodes_as_text(page: Page, app_url: str, artifacts):
    page.goto(f"{app_url}/?rel=3,2,1&scores={quote(EVIL)}")
    alert = page.get_by_test_id("stAlert").filter(has_text="scores")
    expect(alert).to_be_visible(timeout=30_000)
    for tag in ("a", "img", "b", "strong", ".katex", "span[style*='color']"):
        expect(alert.locator(tag)).to_have_count(0)
    text = alert.inner_text().replace("\u2060", "")
    for piece in ("[x](https://evil.example/p)", "![i](https://evil.example/a.png)", "<b>B</b>", "$x^2$"):
        assert piece in text
    assert ":smile:" in text and "\U0001f604" not in text  # not turned into an emoji
    assert ":red[hot]" in text and "**b**" in text
    page.screenshot(path=artifacts / "hardening_escaped_warning.png")


def test_issue37_a_gzip_bomb_upload_is_refused_at_its_limit_and_the_server_keeps_its_memory(
    page: Page, app_url: str, tmp_path, artifacts
):
    """A 2.7 MB gzip that expands to 1 GB (59M run lines), uploaded to the shared server (whose
    NDCG_MAX_CONTENT_MB is 50): the page names the file, the limit and the setting; the server's
    memory rises by about the limit while it reads, not by the gigabyte, and drops back after."""
    import gzip
    import threading
    import time

    import psutil
    from browser_support import SERVER_PIDS

    block = gzip.compress(b"q1 Q0 d1 1 1.0 t\n" * 65_536, 9)  # 1.1 MB of lines in about 3 kB
    bomb = tmp_path / "bomb.gz"
    bomb.write_bytes(block * 900)  # 900 gzip members: 1.0 GB of lines
    assert bomb.stat().st_size < 4_000_000
    server = psutil.Process(SERVER_PIDS[app_url])
    page.goto(f"{app_url}/datasets")
    queries = page.get_by_test_id("stMetric").filter(has_text="Queries").first.get_by_test_id("stMetricValue")
    expect(queries).to_have_text("250")
    page.get_by_text("Data: the bundled sample, or your own qrels and up to five runs").click()
    time.sleep(1)
    before = server.memory_info().rss
    peak = [before]
    watching = threading.Event()
    watching.set()

    def watch() -> None:
        while watching.is_set():
            peak[0] = max(peak[0], server.memory_info().rss)
            time.sleep(0.02)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        page.locator(".st-key-ds_run_file input[type=file]").set_input_files(str(bomb))
        alert = page.get_by_test_id("stAlert").filter(has_text="bomb.gz")
        expect(alert).to_contain_text("expands to more than 50 MB", timeout=60_000)
        expect(alert).to_contain_text("NDCG_MAX_CONTENT_MB")
    finally:
        watching.clear()
        watcher.join()
    page.screenshot(path=artifacts / "hardening_gzip_bomb.png")
    expect(queries).to_have_text("250")  # the sample stays
    time.sleep(1)
    after = server.memory_info().rss
    mb = 1_000_000
    # reading holds the upload (2.7 MB), at most the limit's 50 MB of content and a step's output
    assert peak[0] - before < 200 * mb, f"peak {peak[0] / mb:.0f} MB from {before / mb:.0f} MB"
    assert after - before < 40 * mb, f"held {after / mb:.0f} MB after, from {before / mb:.0f} MB"

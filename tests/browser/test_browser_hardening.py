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

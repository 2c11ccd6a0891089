"""A fresh server started by the launcher (scripts/serve.py, as `make run` does) serves a working
first page: its warm-up, running while the first browser connects, breaks nothing on it."""

from __future__ import annotations

import math

from browser_support import streamlit_server
from playwright.sync_api import expect


def test_a_fresh_launcher_server_draws_the_whole_first_page(page):
    grades = [3, 2, 0, 1]
    # NDCG of the whole list, the app's default formula: linear gain, log2(i + 1) discount.
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(grades))
    ideal = sum(g / math.log2(i + 2) for i, g in enumerate(sorted(grades, reverse=True)))
    with streamlit_server() as url:
        page.goto(f"{url}/?rel=3,2,0,1")
        expect(page.get_by_test_id("stMetricValue").first).to_have_text(f"{dcg / ideal:.3f}", timeout=60_000)
        expect(page.locator(".js-plotly-plot .main-svg").first).to_be_visible(timeout=60_000)
        # The drag list: a component registered by the script run (not by the warm-up thread).
        items = page.frame_locator('iframe[src*="/streamlit_sortables.sortable_items/"]').locator("li")
        expect(items).to_have_count(4, timeout=60_000)
        expect(items.first).to_contain_text("D1")
        expect(page.get_by_test_id("stException")).to_have_count(0)

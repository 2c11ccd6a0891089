"""Issue 40 in a real browser, from the keyboard: two runs uploaded, "Check every formula", a flipped
pair chosen, its query opened in Explore under that formula; before that, the drill-down's Judged@k.

The runs are the closed-form case of tests/engine/test_robustness.py: A ranks one grade-3 document
first, B four grade-1 documents; A wins under trec_eval's NDCG@10, B under Järvelin-Kekäläinen's
discount (A 3/5.562 = 0.539, B 3.131/5.562 = 0.563) and under binary gain.
"""

from __future__ import annotations

import re

import pytest
from browser_support import tab_to, upload
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_does_the_order_depend_on_the_formula_from_the_keyboard(page: Page, app_url, tmp_path):
    qrels = tmp_path / "judged.txt"
    qrels.write_text("q 0 x 3\nq 0 a 1\nq 0 b 1\nq 0 c 1\nq 0 d 1\n")
    run_a, run_b = tmp_path / "A.txt", tmp_path / "B.txt"
    run_a.write_text("q Q0 x 1 4 A\nq Q0 n1 2 3 A\nq Q0 n2 3 2 A\nq Q0 n3 4 1 A\n")
    run_b.write_text("q Q0 a 1 4 B\nq Q0 b 2 3 B\nq Q0 c 3 2 B\nq Q0 d 4 1 B\n")
    page.goto(f"{app_url}/datasets")
    expect(page.get_by_test_id("stMetric").first).to_be_visible(timeout=30_000)
    page.get_by_text("Data: the bundled sample, or your own qrels and up to five runs").click()
    upload(page, ".st-key-ds_qrels_file", qrels)
    upload(page, ".st-key-ds_run_file", run_a, run_b)

    # the drill-down of A's query: x, then three documents nobody judged (not "Grade 0")
    expect(page.get_by_text("Judged@10: 1 of 4.")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("They show as unjudged below")).to_be_visible()

    check = page.locator(".st-key-ds_robust_go button:visible")
    expect(check).to_have_count(1, timeout=30_000)
    check.focus()
    page.keyboard.press("Enter")
    summary = page.get_by_text("Under the page's formula the order is")
    expect(summary).to_contain_text("A.txt > B.txt")
    expect(summary).to_contain_text("changes winner")

    # the flipped pair: a select box, chosen from the keyboard
    flip = page.locator(".st-key-ds_robust_flip input")
    expect(flip).to_have_count(1)
    tab_to(page, ".st-key-ds_robust_flip input")
    page.keyboard.press("Enter")  # opens the list; the first option is the first flip
    page.keyboard.press("Enter")
    chosen = page.get_by_role("combobox", name="A pair whose winner changes")
    expect(chosen).to_have_value(re.compile(r"^B\.txt beats A\.txt under nDCG\(discount='jarvelin'"))

    # one click away: the query's two rankings side by side in Explore, under that formula
    tab_to(page, ".st-key-ds_robust_explore button")
    page.keyboard.press("Enter")
    metrics = page.get_by_test_id("stMetric").filter(has_text="NDCG@10 of")
    expect(metrics).to_have_count(2, timeout=30_000)
    values = sorted(m.inner_text().split("\n")[-1].strip() for m in metrics.all())
    assert values == ["0.539", "0.563"], values

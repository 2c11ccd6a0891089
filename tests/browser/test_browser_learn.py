"""Learn and Present in real headless Chromium: the issue's acceptance checks, one by one."""

from __future__ import annotations

import csv
import io
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from browser_support import assert_fits, drag, settled
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

import ndcg_core
from ndcg_core.teaching.lesson import IDEAL_COLUMNS, lesson_step

pytestmark = pytest.mark.browser

WIKI = "3,2,3,0,1,2"
EX = ndcg_core.explain([3, 2, 3, 0, 1, 2], discount="jarvelin")  # the default list (Wikipedia's D1..D6)


def _ndcg_log(grades: list[int], k: int) -> float:
    """NDCG@k with gain = grade and log2(i + 1), in closed form (the ideal: the grades sorted)."""
    dcg = sum(g / math.log2(i + 1) for i, g in enumerate(grades[:k], start=1))
    return dcg / sum(g / math.log2(i + 1) for i, g in enumerate(sorted(grades, reverse=True)[:k], start=1))


#: What the lesson's metric reads at steps 6 and 7: it opens on D1..D6 under log2(i + 1) (0.961), and
#: step 7 sets k = 4 so that two rows lie beyond it (issue 38).
LESSON_NDCG = {
    6: ("NDCG@6", _ndcg_log([3, 2, 3, 0, 1, 2], 6)),
    7: ("NDCG@4", _ndcg_log([3, 2, 3, 0, 1, 2], 4)),
}
SORTABLE = 'iframe[src*="/streamlit_sortables.sortable_items/"]'
# Keys a lecturer (or a presentation clicker) uses, forwards and back.
FORWARD = ["ArrowRight", "PageDown", "Space", "ArrowRight", "PageDown", "Space"]
BACK = ["ArrowLeft", "PageUp"]


def shown(text: str) -> re.Pattern:
    """A message as shown: every colon of escaped text is followed by an invisible word joiner
    (views.ui.markup.md_escape), so ':emoji:' shortcodes in user text never render."""
    return re.compile(re.escape(text).replace(":", ":\u2060?"))


def expected_columns(n: int) -> list[str]:
    """Closed list per step (the issue: the table grows one column per step; step 5 shows the ideal)."""
    base = ["Position", "Item", "Grade"]
    grown = [
        base,
        [*base, "Gain"],
        [*base, "Gain", "Divisor"],
        [*base, "Gain", "Divisor", "Discounted gain", "Cumulative DCG"],
        list(IDEAL_COLUMNS),
        [*base, "Gain", "Divisor", "Discounted gain", "Cumulative DCG"],
        [*base, "Gain", "Divisor", "Discounted gain", "Cumulative DCG", "Beyond k"],
    ]
    return grown[n - 1]


def open_learn(page: Page, url: str, query: str = "") -> None:
    page.goto(f"{url}/learn{query}")
    expect(page.locator(".st-key-learn_step_no")).to_be_visible(timeout=30_000)


def px(locator) -> float:
    return float(locator.evaluate("el => parseFloat(getComputedStyle(el).fontSize)"))


def keys_ready(page: Page) -> None:
    """The presenter's keys are buttons drawn last on the page: wait until they are there."""
    expect(page.locator(".st-key-learn_prev_pu button")).to_be_attached()
    expect(page.locator(".st-key-learn_exit button")).to_be_visible()


def expect_columns(page: Page, step: int) -> None:
    """The step table's headers are the step's: waited for, as the badge can show the step before
    the table is drawn (CI saw an empty header list once)."""
    expect(page.locator("table.learn-table th")).to_have_text(expected_columns(step), use_inner_text=True)


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_presenter_walks_seven_steps_by_keyboard(page: Page, app_url, artifacts: Path, width, height):
    page.set_viewport_size({"width": width, "height": height})
    open_learn(page, app_url, "?present=1&step=1")
    expect(page.get_by_test_id("stSidebar")).to_be_hidden()
    expect(page.get_by_test_id("stHeader")).to_be_hidden()  # the navigation lives in the header
    for n in range(1, 8):
        expect(page.locator(".learn-badge")).to_have_text(f"{n} / 7")
        expect(page.locator(".st-key-learn_step_no")).to_have_text(f"Step {n} of 7")
        expect(page).to_have_url(re.compile(rf"step={n}(&|$)"))
        if n >= 2:  # steps 2 to 7 ask the room: the answer waits for the lecturer's key A (issue 26)
            expect(page.locator(".learn-text p.ask")).to_be_visible()
            expect(page.locator(".learn-text .answer")).to_have_count(0)
            keys_ready(page)
            page.keyboard.press("a")
            expect(page.locator(".learn-text .answer")).to_be_visible()
        expect(page.locator("table.learn-table th")).to_have_count(len(expected_columns(n)))
        expect_columns(page, n)
        expect(page.locator("table.learn-table tbody tr")).to_have_count(6)
        if n >= 6:
            label, value = LESSON_NDCG[n]
            ndcg = page.get_by_test_id("stMetric").filter(has_text=re.compile(rf"^{label}"))
            expect(ndcg.get_by_test_id("stMetricValue")).to_have_text(f"{value:.3f}")
        page.wait_for_load_state("networkidle")
        assert_fits(page)
        if width == 1920:
            assert px(page.locator(".learn-title")) >= 64
            assert px(page.locator("table.learn-table td").first) >= 24
            assert px(page.locator("table.learn-table th").first) >= 24
            if n >= 6:
                assert px(ndcg.get_by_test_id("stMetricValue")) >= 64
        page.screenshot(path=str(artifacts / f"learn-present-{width}x{height}-step{n}.png"))
        if n < 7:
            keys_ready(page)
            page.keyboard.press(FORWARD[n - 1])
    for n, key in zip((6, 5), BACK, strict=True):
        keys_ready(page)
        page.keyboard.press(key)
        expect(page).to_have_url(re.compile(rf"step={n}(&|$)"))
        expect(page.locator(".learn-badge")).to_have_text(f"{n} / 7")
    keys_ready(page)
    page.keyboard.press("Escape")
    expect(page.locator(".st-key-learn_present_toggle")).to_be_visible()
    expect(page).not_to_have_url(re.compile(r"present=1"))
    expect(page.get_by_test_id("stSidebar")).to_be_visible()


TEN = "3,2,3,0,1,2,3,1,0,2"  # NDCG@10, the usual cutoff: ten items


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1920, 1080)])
def test_a_ten_item_list_fits_every_step_before_and_after_the_reveal(
    page: Page, app_url, artifacts, width, height
):
    """Issue 26, part 5: a 10-item list fits the projector at 1280×720 and 1920×1080, on every step,
    with the answer hidden and revealed; from step 4 the step's chart stands beside the table once
    revealed (never before: it would show the asked number), with a text alternative."""
    page.set_viewport_size({"width": width, "height": height})
    open_learn(page, app_url, f"?rel={TEN}&present=1&step=1")
    for n in range(1, 8):
        expect(page.locator(".learn-badge")).to_have_text(f"{n} / 7")
        expect(page.locator("table.learn-table tbody tr")).to_have_count(10)
        keys_ready(page)
        if n >= 2:
            expect(page.locator(".learn-text .answer")).to_have_count(0)
            page.wait_for_load_state("networkidle")
            assert_fits(page)
            expect(page.locator(".st-key-learn_present_chart")).to_have_count(0)
            settled(page)  # a key pressed while the step's run still draws was lost on a loaded CI
            page.keyboard.press("a")
            expect(page.locator(".learn-text .answer")).to_be_visible()
        plot = page.locator(".st-key-learn_present_chart [data-testid=stPlotlyChart]")
        if n >= 4:
            expect(plot).to_be_visible(timeout=15_000)
            expect(plot.locator(".main-svg").first).to_be_visible()
            label = page.locator(".st-key-learn_present_chart [role=figure]").get_attribute("aria-label")
            assert label.startswith("Chart: ")
            # Its numbers, for a screen reader: a table kept off the projected screen.
            numbers = page.locator(".st-key-learn_present_chart .ndcg-sr-only table")
            expect(numbers.locator("tbody tr")).to_have_count(10)
        else:
            expect(plot).to_have_count(0)
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(300)  # the chart's final size
        assert_fits(page)
        page.screenshot(path=str(artifacts / f"learn-present-10-items-{width}x{height}-step{n}.png"))
        if n < 7:
            page.keyboard.press("ArrowRight")


def test_share_link_opens_presenter_on_step_4(page: Page, app_url):
    open_learn(page, app_url, f"?rel={WIKI}&discount=jarvelin&step=4&present=1")
    expect(page.locator(".learn-badge")).to_have_text("4 / 7")
    expect_columns(page, 4)
    # Issue 26: the room is asked for position 3's discounted gain, 3 / log2 3: "?" until revealed.
    dg = page.locator("table.learn-table tbody tr").nth(2).locator("td").nth(5)
    expect(dg).to_have_text("?")
    expect(page.get_by_test_id("stMain")).not_to_contain_text(f"{3 / math.log2(3):.3f}")
    keys_ready(page)
    page.keyboard.press("a")
    expect(dg).to_have_text(f"{3 / math.log2(3):.3f}")
    expect(page.get_by_test_id("stSidebar")).to_be_hidden()
    keys_ready(page)
    page.keyboard.press("PageDown")
    expect(page).to_have_url(re.compile(r"step=5(&|$)"))
    keys_ready(page)
    page.keyboard.press("PageUp")
    expect(page).to_have_url(re.compile(r"step=4(&|$)"))


def test_space_on_a_focused_previous_goes_back_and_arrows_change_k(page: Page, app_url):
    """Issue 26: with "Previous" focused, Space went forward (the presenter's Space shortcut fired
    too). A focused button now does what it says; Space with nothing focused still steps forward.
    ↓ and ↑ are the k − 1 and k + 1 buttons."""
    open_learn(page, app_url, f"?rel={WIKI}&step=4&present=1")
    keys_ready(page)
    page.locator(".st-key-learn_prev button").focus()
    page.keyboard.press("Space")
    expect(page).to_have_url(re.compile(r"step=3(&|$)"))
    expect(page.locator(".learn-badge")).to_have_text("3 / 7")
    keys_ready(page)
    page.locator(".st-key-learn_next button").focus()
    page.keyboard.press("Space")
    expect(page.locator(".learn-badge")).to_have_text("4 / 7")
    page.evaluate("document.activeElement.blur()")
    keys_ready(page)
    page.keyboard.press("Space")
    expect(page.locator(".learn-badge")).to_have_text("5 / 7")
    expect(page.locator(".st-key-learn_k_now")).to_have_text("k = 6")
    keys_ready(page)
    page.keyboard.press("ArrowDown")
    expect(page.locator(".st-key-learn_k_now")).to_have_text("k = 5")
    expect(page.get_by_test_id("stMetric").filter(has_text=re.compile(r"^DCG@5"))).to_be_visible()


def test_learn_is_first_in_the_navigation_and_playground_stays_at_root(page: Page, app_url):
    page.goto(app_url)
    expect(page.get_by_test_id("stMetric").first).to_be_visible(timeout=30_000)
    expect(page.locator(".st-key-order_reverse")).to_be_visible()  # the playground's own control
    links = page.get_by_test_id("stTopNavLink")
    expect(links.first).to_contain_text("Learn")
    links.first.click()
    expect(page).to_have_url(re.compile(r"/learn\?"))
    expect(page.locator(".st-key-learn_step_no")).to_be_visible()


def test_open_in_the_playground_and_back_keeps_the_list(page: Page, app_url):
    open_learn(page, app_url, "?rel=1,3,2&labels=a,b,c&step=2")
    page.get_by_test_id("stPageLink").get_by_text("Open in the playground").click()
    expect(page.locator(".st-key-order_reverse")).to_be_visible()
    expect(page).to_have_url(re.compile(r"rel=1%2C3%2C2&labels=a%2Cb%2Cc$"))
    page.locator(".st-key-order_ideal").get_by_role("button", name="Ideal").click()
    expect(page).to_have_url(re.compile(r"rel=3%2C2%2C1"))
    page.get_by_test_id("stTopNavLink").first.click()
    expect(page.locator(".learn-badge, .st-key-learn_step_no").first).to_contain_text("Step 2 of 7")
    expect(page.locator(".st-key-learn_steps")).to_contain_text("b")
    expect(page).to_have_url(re.compile(r"rel=3%2C2%2C1&labels=b%2Cc%2Ca&step=2"))


def predict(page: Page, text: str) -> None:
    box = page.locator(".st-key-learn_predict input")
    box.fill(text)
    box.press("Enter")
    page.locator(".st-key-learn_check button").click()


def test_a_right_and_a_wrong_prediction(page: Page, app_url):
    open_learn(page, app_url, f"?rel={WIKI}&step=4")  # log2(i + 1): position 3 is 3 / 2
    grid = page.locator(".st-key-learn_steps")
    expect(grid).not_to_contain_text("Discounted gain")
    predict(page, "1.50")
    feedback = page.locator(".st-key-learn_feedback")
    # a colon in an escaped message is followed by an invisible word joiner (views.ui.markup.md_escape)
    expect(feedback.get_by_test_id("stAlertContentSuccess")).to_contain_text(
        re.compile("Right:\u2060? 3 ÷ 2 = 1.5")
    )
    expect(grid).to_contain_text("Discounted gain")

    open_learn(page, app_url, f"?rel={WIKI}&step=3")
    predict(page, "1.7")  # the divisor at 3 is log2(4) = 2: a first wrong try gets another
    diagnosis = page.locator(".st-key-learn_diagnosis")
    expect(diagnosis.get_by_test_id("stAlertContentError")).to_contain_text(shown("Not quite: 1.7 is not it"))
    expect(diagnosis).not_to_contain_text("log2(3 + 1) = 2")
    expect(grid).not_to_contain_text("Divisor")
    predict(page, "1.8")  # the second wrong try shows the answer and the column
    feedback = page.locator(".st-key-learn_feedback")
    expect(feedback.get_by_test_id("stAlertContentError")).to_contain_text(shown("Not quite: you said 1.8"))
    expect(feedback).to_contain_text("log2(3 + 1) = 2")
    expect(grid).to_contain_text("Divisor")


def test_a_wrong_divisor_is_named_not_called_close(page: Page, app_url, artifacts: Path):
    """Issue 27: at ?rel=3,2,3,0,1,2&discount=jarvelin step 3 (max(1, log2 3) = 1.585), typing 2
    got "Close, but give at least 2 decimals (you typed 0)"; 2 is what log2(3 + 1) gives."""
    open_learn(page, app_url, f"?rel={WIKI}&discount=jarvelin&step=3")
    expect(page.get_by_test_id("stMain")).not_to_contain_text("1.585")
    predict(page, "2.00")
    diagnosis = page.locator(".st-key-learn_diagnosis")
    expect(diagnosis).to_contain_text("divided by log2(i + 1)")
    expect(page.get_by_test_id("stMain")).not_to_contain_text("Close")
    expect(page.get_by_test_id("stMain")).not_to_contain_text("1.585")
    page.screenshot(path=str(artifacts / "learn-step3-wrong-1280x720.png"))


def test_an_unreadable_prediction_is_explained_and_kept(page: Page, app_url):
    open_learn(page, app_url, "?step=2")
    predict(page, "three")
    expect(page.get_by_test_id("stAlertContentWarning")).to_contain_text("could not be read")
    expect(page.locator(".st-key-learn_predict input")).to_have_value("three")


def sortable_items(page: Page):
    return page.frame_locator(SORTABLE).last.locator("li.sortable-item")


def test_undo_restores_the_order_before_a_drag(page: Page, app_url):
    open_learn(page, app_url, f"?rel={WIKI}&discount=jarvelin&step=1")
    items = sortable_items(page)
    expect(items).to_have_count(6)
    drag(page, items.nth(3), items.nth(0))
    expect(page).to_have_url(re.compile(r"rel=0%2C3%2C2%2C3%2C1%2C2"))
    expect(items.first).to_contain_text("D4")
    page.locator(".st-key-learn_undo").get_by_role("button", name="Undo").click()
    expect(page).to_have_url(re.compile(r"rel=3%2C2%2C3%2C0%2C1%2C2"))
    expect(items.first).to_contain_text("D1")
    page.locator(".st-key-learn_redo").get_by_role("button", name="Redo").click()
    expect(items.first).to_contain_text("D4")


def download(page: Page, key: str, timeout: float = 30_000) -> bytes:
    with page.expect_download(timeout=timeout) as info:
        page.locator(f".st-key-{key} button").click()
    return Path(info.value.path()).read_bytes()


def test_every_export_downloads_and_parses(page: Page, app_url):
    open_learn(page, app_url, f"?rel={WIKI}&step=4")
    page.locator(".st-key-learn_skip button").click()
    expect(page.locator(".st-key-learn_skip button")).to_have_count(0)
    settled(page)  # a click during the answer's run was lost once on a loaded CI (no download came)
    page.get_by_text("Export this step for slides").click()
    rows = list(csv.reader(io.StringIO(download(page, "learn_export_csv").decode())))
    assert rows[0] == expected_columns(4) and len(rows) == 7
    assert rows[3][5] == "1.5"  # discounted gain at position 3: 3 / log2(4)
    markdown = download(page, "learn_export_md").decode().splitlines()
    assert markdown[0].startswith("| Position | Item |") and len(markdown) == 8
    latex = download(page, "learn_export_tex").decode()
    assert "\\begin{tabular}" in latex and "\\toprule" in latex and "\\bottomrule" in latex
    formula = download(page, "learn_export_formula").decode()
    assert formula.count("\\[") == len(lesson_step(4, ndcg_core.explain([3, 2, 3, 0, 1, 2])).formulas)
    assert "\\mathrm{DCG@6}" in formula
    png = download(page, "learn_export_png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(png[16:20], "big") >= 1280  # slide size
    svg = ET.fromstring(download(page, "learn_export_svg"))
    assert svg.tag.endswith("svg")

    page.goto(f"{app_url}/?rel={WIKI}")  # the playground exports its own table
    expect(page.get_by_test_id("stMetric").first).to_be_visible(timeout=30_000)
    page.get_by_text("Export for slides").click()
    rows = list(csv.reader(io.StringIO(download(page, "pg_export_csv").decode())))
    assert rows[0][:4] == ["Position", "Item", "Grade", "Gain"] and len(rows) == 7
    assert float(rows[-1][-1]) == pytest.approx(
        3 + 2 / math.log2(3) + 3 / 2 + 1 / math.log2(6) + 2 / math.log2(7), abs=5e-4
    )


def test_the_whole_lesson_downloads_as_a_pdf_and_a_deck_in_the_pages_language(page: Page, app_url, artifacts):
    """Issue 26, part 6: both files, clicked in the Learn page and in presenter mode (in Chinese),
    opened and read back: seven 16:9 pages titled as the steps, Wikipedia's numbers in them."""
    from pptx import Presentation
    from pypdf import PdfReader

    open_learn(page, app_url, f"?rel={WIKI}&discount=jarvelin&step=4")
    page.get_by_text("Export the whole lesson for slides").click()
    titles = [lesson_step(n, EX).title for n in range(1, 8)]
    pdf = PdfReader(io.BytesIO(download(page, "learn_lesson_pdf", timeout=120_000)))
    texts = [p.extract_text() for p in pdf.pages]
    assert len(texts) == 7 and all(t in text for t, text in zip(titles, texts, strict=True))
    assert float(pdf.pages[0].mediabox.width) / float(pdf.pages[0].mediabox.height) == pytest.approx(
        16 / 9, 0.001
    )
    assert "8.097" in texts[3] and "0.932" in texts[5]  # Wikipedia's DCG 8.10 and NDCG 0.932
    deck = Presentation(io.BytesIO(download(page, "learn_lesson_pptx", timeout=120_000)))
    assert [s.shapes.title.text for s in deck.slides] == titles

    open_learn(page, app_url, f"?rel={WIKI}&discount=jarvelin&step=4&present=1&lang=zh")
    slides = page.locator(".st-key-learn_slides button").first  # the popover's (with its help)
    expect(slides).to_contain_text("幻灯片")
    keys_ready(page)  # drawn last: the page is whole (CI once measured it half-drawn)
    box = slides.bounding_box()  # top right, out of the slide's way: nothing scrolls
    assert box["x"] + box["width"] <= 1280 and box["y"] < 60
    assert page.evaluate("document.documentElement.scrollHeight") <= 720
    page.screenshot(path=artifacts / "learn-presenter-slides-button-1280x720.png")
    slides.click()
    deck = Presentation(io.BytesIO(download(page, "learn_presenter_lesson_pptx", timeout=120_000)))
    assert deck.slides[0].shapes.title.text == "一个排序列表和它的等级"
    assert deck.slides[6].shapes.title.text == "截断 k"


def test_back_button_steps_through_changes_then_leaves(page: Page, app_url):
    page.goto(f"{app_url}/?rel=3,2,1")
    headline = (
        page.get_by_test_id("stMetric").filter(has_text=re.compile(r"^NDCG@")).get_by_test_id("stMetricValue")
    )
    expect(headline).to_have_text("1.000")
    page.locator(".st-key-order_reverse").get_by_role("button", name="Reverse").click()
    expect(page).to_have_url(re.compile(r"rel=1%2C2%2C3"))
    expect(headline).to_have_text(f"{ndcg_core.ndcg([1, 2, 3]):.3f}")
    page.go_back()
    expect(page).to_have_url(re.compile(r"rel=3(%2C|,)2(%2C|,)1"))
    expect(headline).to_have_text("1.000")
    page.go_back()  # one press per change, then the app is left
    expect(page).to_have_url("about:blank")


def test_column_tooltips_on_the_step_tables(page: Page, app_url):
    open_learn(page, app_url, "?step=4&present=1")
    header = page.locator("table.learn-table th", has_text="Discounted gain")
    expect(header).to_have_attribute("title", re.compile(r"Gain ÷ divisor"))


def test_screenshots_normal_learn_page(page: Page, app_url, artifacts: Path):
    for width, height, name in [(1280, 720, "1280x720"), (1920, 1080, "1920x1080"), (390, 844, "phone")]:
        page.set_viewport_size({"width": width, "height": height})
        open_learn(page, app_url, f"?rel={WIKI}&discount=jarvelin&step=4")
        expect(page.locator(".st-key-learn_predict")).to_be_attached()
        expect(sortable_items(page)).to_have_count(6)
        expect(page.locator(".st-key-learn_next").get_by_role("button", name="Next")).to_be_visible()
        expect(page.get_by_test_id("stSkeleton")).to_have_count(0)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(artifacts / f"learn-{name}-step4.png"))


def test_on_a_phone_the_lesson_metrics_share_one_row(page: Page, app_url):
    """At 390 px Streamlit stacks columns: the lesson's metrics took a screen of their own, one
    under the other. They now sit in one row, as the playground's do."""
    page.set_viewport_size({"width": 390, "height": 844})
    open_learn(page, app_url, f"?rel={WIKI}&discount=jarvelin&step=5")
    metrics = page.get_by_test_id("stMetric")
    expect(metrics).to_have_count(2)  # step 5: DCG and IDCG
    expect(metrics.filter(has_text="DCG@6").first).to_be_visible()
    # Measured once the row has been laid out: while the page is still being drawn, one metric can
    # be caught taller than the other for a frame (a test run failed on it, one in about 30).
    one_row = """() => {
      const metrics = document.querySelectorAll('[data-testid="stMetric"]');
      const [a, b] = [...metrics].map(m => m.getBoundingClientRect());
      return Math.abs(a.top - b.top) < 1 && a.right <= b.left && b.right <= innerWidth;
    }"""
    try:
        page.wait_for_function(one_row, timeout=10_000)
    except PlaywrightTimeoutError:
        pytest.fail(f"the metrics are not one row: {[metrics.nth(i).bounding_box() for i in range(2)]}")

"""What a person does, in real headless Chromium: type, drag, click, share a link."""

from __future__ import annotations

import math
import re
from urllib.parse import parse_qs, urlparse

import pytest
from browser_support import drag, quiet, settled, upload
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

import ndcg_core
import ndcg_core.teaching

pytestmark = pytest.mark.browser

ROW = 35  # data editor row height in px


def headline(page: Page):
    return (
        page.get_by_test_id("stMetric").filter(has_text=re.compile(r"^NDCG@")).get_by_test_id("stMetricValue")
    )


def open_app(page: Page, url: str, query: str = "") -> None:
    page.goto(f"{url}/{query}")
    expect(page.get_by_test_id("stMetric").first).to_be_visible(timeout=30_000)


SORTABLE = 'iframe[src*="/streamlit_sortables.sortable_items/"]'


def sortable_items(page: Page):
    # After a reorder the list remounts; for a moment the stale frame is still there, so take
    # the newest one (expect() retries until the stale one is gone).
    return page.frame_locator(SORTABLE).last.locator("li.sortable-item")


def params(page: Page) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(page.url).query).items()}


def test_default_page_shows_wikipedias_example(page: Page, app_url):
    open_app(page, app_url)
    expect(page.get_by_test_id("stMetricLabel").first).to_have_text("NDCG@6")
    expect(headline(page)).to_have_text("0.932")
    expect(page.get_by_test_id("stException")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"rel=3%2C2%2C3%2C0%2C1%2C2"))


def test_share_link_opens_its_state(page: Page, app_url):
    open_app(page, app_url, "?rel=3,2,3,0,1,2&discount=jarvelin")
    expect(headline(page)).to_have_text("0.932")
    open_app(page, app_url, "?rel=0,1,1&labels=Nike,Adidas,Apple&k=3&pool=1")
    expect(page.get_by_test_id("stMetricLabel").first).to_have_text("NDCG@3")
    expect(headline(page)).to_have_text("0.531")
    expect(sortable_items(page).first).to_contain_text("Nike")


def test_invalid_share_link_warns_by_name(page: Page, app_url):
    open_app(page, app_url, "?rel=3,2,3,0,1,2&discount=cosine")
    expect(page.get_by_test_id("stAlert").filter(has_text="'discount'")).to_be_visible()
    expect(headline(page)).to_have_text(f"{ndcg_core.ndcg([3, 2, 3, 0, 1, 2]):.3f}")


def test_drag_item_four_to_the_top(page: Page, app_url):
    open_app(page, app_url)
    items = sortable_items(page)
    expect(items).to_have_count(6)
    drag(page, items.nth(3), items.nth(0))
    expected = ndcg_core.ndcg([0, 3, 2, 3, 1, 2], discount="jarvelin")
    expect(headline(page)).to_have_text(f"{expected:.3f}")
    expect(items.first).to_contain_text("D4")
    expect(page).to_have_url(re.compile(r"rel=0%2C3%2C2%2C3%2C1%2C2"))


def script_runs(page: Page) -> list[str]:
    """How each script run the server reports on this page ended, in order: "app" for a whole-page
    run, "fragment" for a fragment-only run (read from the websocket's ForwardMsg protobufs)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    kinds = {
        ForwardMsg.FINISHED_SUCCESSFULLY: "app",
        ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY: "fragment",
    }
    runs: list[str] = []

    def on_frame(payload) -> None:
        if isinstance(payload, bytes):
            msg = ForwardMsg.FromString(payload)
            if msg.WhichOneof("type") == "script_finished":
                runs.append(kinds.get(msg.script_finished, "other"))

    page.on("websocket", lambda ws: ws.on("framereceived", on_frame))
    return runs


def hidden_px(elements) -> list[int]:
    """How far each matched element's content runs past its box sideways (it scrolls by that much)."""
    return elements.evaluate_all("els => els.map(el => el.scrollWidth - el.clientWidth)")


def chart_svg(page: Page):
    return page.locator(".js-plotly-plot .main-svg").first


def test_the_first_screen_does_not_wait_for_the_chart(page: Page, app_url):
    """Issue 9, cold start: the browser loads plotly (4.7 MB of script) for a session's first chart
    and showed none of the page until it was ready, so the metric and the list waited for a chart
    two screens below them. The first chart is now a placeholder, and the browser asks for the
    chart itself once it has painted the page."""
    page.add_init_script(
        """
        window.__seen = {};
        const marks = {metric: '[data-testid=stMetric]', placeholder: '.st-key-pending_chart_chart_figure',
                       chart: '.js-plotly-plot .main-svg'};
        new MutationObserver(() => {
          for (const [name, selector] of Object.entries(marks))
            if (!(name in window.__seen) && document.querySelector(selector))
              window.__seen[name] = performance.now();
        }).observe(document, {subtree: true, childList: true});
        """
    )
    runs = script_runs(page)
    open_app(page, app_url)
    expect(headline(page)).to_have_text("0.932")
    chart = chart_svg(page)
    expect(chart).to_be_visible()  # with no click: the browser asked for it
    expect(page.locator(".js-plotly-plot .gtitle")).to_have_text("What each position contributes")
    expect(page.locator(".st-key-pending_chart_chart_figure")).to_have_count(0)
    seen = page.evaluate("window.__seen")
    assert max(seen["metric"], seen["placeholder"]) < seen["chart"], seen
    expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning")
    assert runs == ["app", "fragment"]  # the page, then the playground's body with the chart


def test_a_drag_reruns_only_the_playground_fragment(page: Page, app_url):
    """Issue 9: a drag reruns the step tables, metrics and chart, not the sidebar or the gallery."""
    runs = script_runs(page)
    open_app(page, app_url)
    items = sortable_items(page)
    expect(items).to_have_count(6)
    expect(chart_svg(page)).to_be_visible()  # the session's first chart comes in a run of its own
    expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning")
    assert "app" in runs  # the first load runs the whole page
    before = len(runs)
    drag(page, items.nth(3), items.nth(0))
    expected = ndcg_core.ndcg([0, 3, 2, 3, 1, 2], discount="jarvelin")
    expect(headline(page)).to_have_text(f"{expected:.3f}")
    expect(page).to_have_url(re.compile(r"rel=0%2C3%2C2%2C3%2C1%2C2"))
    expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning")
    assert runs[before:] == ["fragment"]
    # A sidebar control still reruns the whole page (and the fragment with it).
    before = len(runs)
    page.get_by_test_id("stSidebar").get_by_text("exponential", exact=True).click()
    expect(page).to_have_url(re.compile(r"gain=exponential"))
    expected = ndcg_core.ndcg([0, 3, 2, 3, 1, 2], gain="exponential", discount="jarvelin")
    expect(headline(page)).to_have_text(f"{expected:.3f}")
    expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning")
    assert runs[before:] == ["app"]


def test_edit_a_grade_in_the_table(page: Page, app_url):
    open_app(page, app_url)
    page.get_by_role("tab", name="Edit items").click()
    editor = page.locator('[class*="st-key-editor_"]')
    expect(editor).to_be_visible()
    editor.scroll_into_view_if_needed()  # the paste box above it may push its rows below the fold
    # The grid's hidden accessibility table names cells: column 2 is Grade (0 is the row marker).
    expect(editor.locator("#glide-cell-2-3")).to_have_text("0")
    cell = page.locator(".gdg-input")
    for _attempt in range(3):  # a rerun redrawing the grid (the chart's first draw) can eat the click
        quiet(page)
        box = editor.bounding_box()
        # Grade column of row 4 (D4, grade 0): below the header row, fourth data row.
        page.mouse.click(box["x"] + box["width"] * 0.55, box["y"] + ROW + 3 * ROW + ROW / 2)
        page.keyboard.press("Enter")
        try:
            cell.wait_for(state="visible", timeout=5_000)
            break
        except PlaywrightTimeoutError:
            continue
    expect(cell).to_be_visible()
    cell.fill("3")
    expect(cell).to_have_value("3")
    page.keyboard.press("Enter")
    expected = ndcg_core.ndcg([3, 2, 3, 3, 1, 2], discount="jarvelin")
    expect(headline(page)).to_have_text(f"{expected:.3f}")
    expect(editor.locator("#glide-cell-2-3")).to_have_text("3")
    expect(page).to_have_url(re.compile(r"rel=3%2C2%2C3%2C3%2C1%2C2"))


def test_quick_entry_and_literal_labels(page: Page, app_url):
    open_app(page, app_url)
    page.get_by_role("tab", name="Edit items").click()
    box = page.locator(".st-key-quick_entry textarea")
    box.fill("<b>x</b>:1, **y**:2")
    box.press("Control+Enter")
    expect(page.get_by_test_id("stMetricLabel").first).to_have_text("NDCG@2")
    page.get_by_role("tab", name="Order").click()
    expect(sortable_items(page).first).to_have_text(re.compile(r"^<b>x</b>\s+·\s+1$"))
    expect(sortable_items(page).nth(1)).to_have_text(re.compile(r"^\*\*y\*\*\s+·\s+2$"))
    expect(page.frame_locator(SORTABLE).last.locator("b")).to_have_count(0)
    assert params(page)["labels"] == "<b>x</b>,**y**"


def test_bad_quick_entry_keeps_the_list(page: Page, app_url):
    open_app(page, app_url)
    page.get_by_role("tab", name="Edit items").click()
    box = page.locator(".st-key-quick_entry textarea")
    box.fill("3, two, 1")
    box.press("Control+Enter")
    expect(page.get_by_test_id("stAlert").filter(has_text="entry 2")).to_be_visible()
    expect(headline(page)).to_have_text("0.932")
    expect(box).to_have_value("3, two, 1")


def test_changing_a_control_updates_the_url(page: Page, app_url):
    open_app(page, app_url)
    assert "gain" not in params(page)
    page.get_by_test_id("stSidebar").get_by_text("exponential", exact=True).click()
    expect(page).to_have_url(re.compile(r"gain=exponential"))
    expected = ndcg_core.ndcg([3, 2, 3, 0, 1, 2], gain="exponential", discount="jarvelin")
    expect(headline(page)).to_have_text(f"{expected:.3f}")


def choose(page: Page, box, option: str) -> None:
    """Pick an option of a select box. A rerun that redraws the box (the drag list reports its
    order once it has mounted) closes an open menu; then the menu is opened again."""
    for _ in range(5):
        expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning")
        box.click()
        try:
            page.get_by_role("option", name=option).click(timeout=5_000)
            return
        except PlaywrightTimeoutError:
            page.keyboard.press("Escape")
    raise AssertionError(f"could not choose {option!r}")


def test_defect_5_move_up_keeps_moving_the_chosen_item(page: Page, app_url):
    """Issue 8, defect 5: Move up worked once, then the box showed a stale label and moved D1."""
    open_app(page, app_url)
    box = page.get_by_test_id("stSelectbox").filter(has_text="Move an item")
    choose(page, box, "5. D5 (1)")
    chosen = box.get_by_role("combobox")
    expect(chosen).to_have_value("5. D5 (1)")
    for position, rel in ((4, "3,2,3,1,0,2"), (3, "3,2,1,3,0,2"), (2, "3,1,2,3,0,2")):
        page.locator(".st-key-move_up button").click()
        expect(page).to_have_url(re.compile("rel=" + rel.replace(",", "%2C") + "(&|$)"))
        expect(chosen).to_have_value(f"{position}. D5 (1)")
    page.get_by_text(ndcg_core.teaching.examples.SOURCES["002"]).click()  # open the gallery's group
    page.get_by_role("button", name=ndcg_core.teaching.get_example("shop-graded-a").title).click()
    expect(chosen).to_have_value("1. Nike sneakers (3)")


def test_one_click_ideal_order(page: Page, app_url):
    open_app(page, app_url)
    page.get_by_role("button", name="Ideal", exact=True).click()
    expect(headline(page)).to_have_text("1.000")
    expect(sortable_items(page).nth(1)).to_contain_text("D3")


def test_projector_screenshots_and_no_horizontal_scroll(page: Page, app_url, artifacts):
    open_app(page, app_url)
    expect(headline(page)).to_have_text("0.932")
    page.screenshot(path=str(artifacts / "playground-1280x720.png"))
    scroller = page.locator(".st-key-steps .step-table-wrap")
    expect(scroller).to_be_visible()
    (overflow,) = hidden_px(scroller)
    assert overflow <= 1, f"the step table scrolls sideways by {overflow}px"
    page.get_by_text("The formula with your numbers").scroll_into_view_if_needed()
    expect(page.get_by_test_id("stMarkdownContainer").filter(has_text="#1").first).to_be_attached()
    page.screenshot(path=str(artifacts / "playground-formulas-1280x720.png"))


def test_on_a_phone_the_number_and_the_list_share_the_first_screen(page: Page, app_url, artifacts):
    """At 390x844 the columns stack; the metrics still sit above the drag list, four in a row,
    so a student dragging on a phone sees NDCG change without scrolling."""
    page.set_viewport_size({"width": 390, "height": 844})
    open_app(page, app_url)
    items = sortable_items(page)
    expect(items).to_have_count(6)
    page.screenshot(path=str(artifacts / "playground-390x844.png"))
    metric = page.get_by_test_id("stMetric").filter(has_text=re.compile(r"^NDCG@")).bounding_box()
    first_item, last_item = items.first.bounding_box(), items.last.bounding_box()  # page coordinates
    assert metric["y"] + metric["height"] <= first_item["y"], "the metric is not above the list"
    assert last_item["y"] + last_item["height"] <= 844, "the list runs off the first screen"
    tops = {round(m.bounding_box()["y"]) for m in page.get_by_test_id("stMetric").all()}
    assert len(tops) == 1, f"the four metrics wrap onto {len(tops)} rows"
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"
    drag(page, items.nth(3), items.nth(0))
    expected = ndcg_core.ndcg([0, 3, 2, 3, 1, 2], discount="jarvelin")
    expect(headline(page)).to_have_text(f"{expected:.3f}")
    # The metric is drawn before the rest of the drag's run (views.ui.session.send_now): let the run
    # end and the chart be redrawn.
    quiet(page)
    title = page.get_by_test_id("stPlotlyChart").locator(".gtitle")
    legend = page.get_by_test_id("stPlotlyChart").locator("g.legend")
    expect(legend).to_have_count(1)
    t, g = title.bounding_box(), legend.bounding_box()  # page coordinates, scrolled or not
    apart = t["y"] + t["height"] <= g["y"] or g["y"] + g["height"] <= t["y"]
    assert apart, f"the chart's legend {g} overlaps its title {t}"


def test_on_a_phone_every_step_column_formula_term_and_button_is_in_view(page: Page, app_url, artifacts):
    """At 390x844 nothing of the worked example hides behind a sideways scroll: the step tables show
    all seven columns (Cumulative DCG was cut off), the DCG and IDCG formulas break onto a second
    line (their last terms were cut off), and the one-click orders and the move row stay one row
    each (Reset and Redo sat alone on a row, Reset a screen wide)."""
    page.set_viewport_size({"width": 390, "height": 844})
    open_app(page, app_url)
    expect(sortable_items(page)).to_have_count(6)
    for key in ("steps", "ideal_steps"):
        table = page.locator(f".st-key-{key} .step-table-wrap")
        expect(table).to_contain_text("Cumulative DCG")
        (hidden,) = hidden_px(table)
        assert hidden <= 1, f"the {key} table scrolls sideways by {hidden}px"
    # Wikipedia's D1..D6 under rel1 + sum rel_i / log2 i: DCG@6 and IDCG@6 (ideal 3, 3, 2, 2, 1, 0),
    # each on its own line and again in NDCG's.
    dcg = 3 + sum(g / math.log2(i) for i, g in enumerate([2, 3, 0, 1, 2], start=2))
    idcg = 3 + sum(g / math.log2(i) for i, g in enumerate([3, 2, 2, 1, 0], start=2))
    formulas = page.locator(".katex-display")
    expect(formulas.filter(has_text=f"{dcg:.3f}")).to_have_count(2)
    expect(formulas.filter(has_text=f"{idcg:.3f}")).to_have_count(2)
    page.get_by_text("The formula with your numbers").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "playground-formulas-390x844.png"))
    hidden = hidden_px(formulas)
    assert max(hidden) <= 1, f"a formula is cut off (hidden px per formula: {hidden})"
    for row, count in (("button_row_order", 5), ("button_row_move", 4)):
        buttons = page.locator(f".st-key-{row} [data-testid=stButton]")
        expect(buttons).to_have_count(count)
        boxes = [b.bounding_box() for b in buttons.all()]
        assert len({round(b["y"]) for b in boxes}) == 1, f"{row} wraps: {boxes}"
        assert max(b["x"] + b["width"] for b in boxes) <= 390, f"{row} runs off the screen: {boxes}"


#: Installed before the page's own scripts: every distinct position of the Reverse button, measured
#: from the page's heading (so scrolling does not count) on every animation frame.
TRACK_REVERSE_JS = """
window.__tops = [];
(function track() {
  const button = document.querySelector('.st-key-order_reverse');
  const heading = document.querySelector('[data-testid="stMain"] h1');
  if (button && heading) {
    const top = Math.round(button.getBoundingClientRect().top - heading.getBoundingClientRect().top);
    if (window.__tops[window.__tops.length - 1] !== top) window.__tops.push(top);
  }
  requestAnimationFrame(track);
})();
"""


def drag_list_drawn(page: Page, first: str) -> None:
    """Wait until the drag list shows ``first`` at its top, at its drawn height (its script has loaded)."""
    expect(sortable_items(page).first).to_contain_text(first)
    page.wait_for_function(f"() => [...document.querySelectorAll('{SORTABLE}')].at(-1).offsetHeight > 0")
    expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning")


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)], ids=["desktop", "phone"])
def test_the_order_buttons_stay_put_while_the_page_and_a_new_list_load(page: Page, app_url, size):
    """A click aimed at a button lands on it: nothing above the one-click orders changes height while
    it loads. Before, arriving from Learn (as a lecturer does), the buttons moved three times in a
    few hundred ms: the metric row was empty until the browser had loaded the metric's script, and
    the drag list took no room until its own had loaded, on the first draw and again after every
    one-click order (a new list). A click on Ideal in that moment was lost (a CI run failed on it)."""
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    page.add_init_script(TRACK_REVERSE_JS)
    page.goto(f"{app_url}/learn?rel=1,3,2&labels=a,b,c&step=2")
    page.get_by_test_id("stPageLink").get_by_text("Open in the playground").click()
    ideal = 3 + 2 / math.log2(3) + 1 / 2  # grades 3, 2, 1 over log2(i + 1)
    expect(headline(page)).to_have_text(f"{(1 + 3 / math.log2(3) + 2 / 2) / ideal:.3f}")
    drag_list_drawn(page, "a")
    assert len(page.evaluate("window.__tops")) == 1, page.evaluate("window.__tops")

    page.evaluate("window.__tops = []")
    page.locator(".st-key-order_reverse").get_by_role("button", name="Reverse").click()
    expect(headline(page)).to_have_text(f"{(2 + 3 / math.log2(3) + 1 / 2) / ideal:.3f}")
    drag_list_drawn(page, "c")
    assert len(page.evaluate("window.__tops")) == 1, page.evaluate("window.__tops")
    # The room kept for the metrics is the room they take: no empty band under them, none missing.
    row = page.locator(".st-key-metric_row_pg").evaluate("el => parseFloat(getComputedStyle(el).minHeight)")
    assert abs(row - page.get_by_test_id("stMetric").first.bounding_box()["height"]) <= 1


def test_the_room_kept_for_the_drag_list_is_the_room_it_takes(page: Page, app_url):
    """One item, Wikipedia's six, and twelve (the list scrolls inside its greatest height): the
    height kept for the list before its script has loaded is the height it is then drawn at."""
    for n in (1, 6, 12):
        open_app(page, app_url, "?rel=" + ",".join(str(i % 4) for i in range(n)))
        expect(sortable_items(page)).to_have_count(n)
        page.wait_for_function(f"() => document.querySelector('{SORTABLE}').offsetHeight > 0")
        kept = page.locator('[class*="st-key-drag_rows_"]').evaluate(
            "el => parseFloat(getComputedStyle(el).minHeight)"
        )
        drawn = page.locator(SORTABLE).bounding_box()["height"]
        assert abs(kept - drawn) <= 1, (n, kept, drawn)


def test_on_a_phone_the_compared_rankings_show_every_column(page: Page, app_url):
    """At 390x844 each compared ranking's step table, and the table of both side by side, fit the
    screen: before, their grids had fixed column widths wider than a phone and Cumulative DCG (and
    the second ranking's gains) scrolled out of sight."""
    page.set_viewport_size({"width": 390, "height": 844})
    open_app(page, app_url, "explore")
    tables = page.locator('[class*="st-key-cmp_steps_"] .step-table-wrap')
    expect(tables).to_have_count(2)
    expect(tables.first).to_contain_text("Cumulative DCG")
    assert hidden_px(tables) == [0, 0]
    # Position by position: both rankings side by side and their difference, on one screen's width
    positions = page.locator(".st-key-cmp_positions .step-table-wrap")
    expect(positions).to_contain_text("DAECB - ABCDE")
    assert hidden_px(positions) == [0]


def test_compare_view_reads_both_ndcg_values(page: Page, app_url, artifacts):
    open_app(page, app_url, "explore")
    page.get_by_role("button", name="Shop article: lists A and B, bought or not").click()
    metrics = page.get_by_test_id("stMetric")
    expect(metrics).to_have_count(2)
    expect(metrics.nth(0)).to_contain_text("NDCG@3 of A")
    expect(metrics.nth(0).get_by_test_id("stMetricValue")).to_have_text("0.531")
    expect(metrics.nth(1).get_by_test_id("stMetricValue")).to_have_text("0.765")
    expect(page.get_by_test_id("stAlert").filter(has_text="B ranks better")).to_be_visible()
    page.screenshot(path=str(artifacts / "compare-1280x720.png"))


def test_dataset_upload_good_then_bad_keeps_the_last_good(page: Page, app_url, tmp_path, artifacts):
    qrels = tmp_path / "qrels.csv"
    qrels.write_text("qid,docno,label\nq1,a,2\nq1,b,0\nq2,c,1\n")
    run = tmp_path / "run.tsv"
    run.write_text("q1 Q0 a 1 0.9 x\nq1 Q0 b 2 0.5 x\nq2 Q0 c 1 0.1 x\n")
    bad = tmp_path / "bad.csv"
    bad.write_text("topic,document\nq1,a\n")
    open_app(page, app_url, "datasets")
    queries = page.get_by_test_id("stMetric").filter(has_text="Queries").first.get_by_test_id("stMetricValue")
    expect(queries).to_have_text("250")
    page.screenshot(path=str(artifacts / "datasets-1280x720.png"))
    page.get_by_text("Data: the bundled sample, or your own qrels and up to five runs").click()
    upload(page, ".st-key-ds_qrels_file", qrels)
    expect(queries).to_have_text("250")  # one file alone changes nothing
    upload(page, ".st-key-ds_run_file", run)
    expect(queries).to_have_text("2")  # scored as soon as both are in
    # A loaded pair gets fresh uploaders: wait until the old one has left the page.
    fresh = page.locator(".st-key-ds_qrels_file input[type=file]")
    expect(fresh).to_have_count(1)
    fresh.set_input_files(str(bad))
    alert = page.get_by_test_id("stAlert").filter(has_text="Qrels file")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("relevance")  # says what is expected
    expect(queries).to_have_text("2")  # the previous data set stays
    # Issue 30: the bad file is let go (its uploader emptied, its bytes dropped); its message stays.
    expect(page.locator(".st-key-ds_qrels_file").get_by_text("bad.csv")).to_have_count(0)
    expect(alert).to_contain_text("bad.csv")


def test_data_set_formulas_fit_a_phone(page: Page, app_url, artifacts):
    """At 390x844 the two averages' formulas stack instead of running past the right edge."""
    page.set_viewport_size({"width": 390, "height": 844})
    open_app(page, app_url, "datasets")
    queries = page.get_by_test_id("stMetric").filter(has_text="Queries").first.get_by_test_id("stMetricValue")
    expect(queries).to_have_text("250")
    formulas = page.locator(".katex-display")
    expect(formulas.filter(has_text="1955.550")).to_have_count(1)  # ΣIDCG@10 of the bundled sample
    page.screenshot(path=str(artifacts / "datasets-390x844.png"))
    cut = hidden_px(formulas)
    assert max(cut) <= 1, f"a formula is cut off (hidden px per formula: {cut})"


def test_dataset_back_to_sample_after_an_upload(page: Page, app_url, tmp_path):
    qrels = tmp_path / "q.tsv"
    qrels.write_text("q1\t0\ta\t1\n")
    run = tmp_path / "r.tsv"
    run.write_text("q1\tQ0\ta\t1\t0.5\tx\n")
    open_app(page, app_url, "datasets")
    queries = page.get_by_test_id("stMetric").filter(has_text="Queries").first.get_by_test_id("stMetricValue")
    page.get_by_text("Data: the bundled sample, or your own qrels and up to five runs").click()
    upload(page, ".st-key-ds_qrels_file", qrels)
    upload(page, ".st-key-ds_run_file", run)
    expect(queries).to_have_text("1")
    page.locator(".st-key-ds_sample button").click()  # the sources stay open while own files are loaded
    expect(queries).to_have_text("250")
    # The count is drawn before the run ends; until it ends the search box of the upload's layout
    # is still on the page beside the new one (stale elements stay until the run finishes).
    settled(page)
    # a later rerun (a search) must not bring the uploads back
    search = page.locator(".st-key-ds_search input")
    search.fill("q00")
    search.press("Enter")
    expect(page.get_by_test_id("stDataFrame").last).to_be_visible()
    expect(queries).to_have_text("250")


def test_scores_with_tie_groups_fit_the_step_table(page: Page, app_url, artifacts):
    open_app(page, app_url, "?rel=3,2,1,0,2&scores=0.9,0.5,0.5,0.2,0.5&ties=average")
    rel, scores = [3, 2, 1, 0, 2], [0.9, 0.5, 0.5, 0.2, 0.5]
    expected = ndcg_core.ndcg(rel, scores=scores, ties="average")
    expect(headline(page)).to_have_text(f"{expected:.3f}")
    expect(page.get_by_test_id("stAlert").filter(has_text="follows the items' scores")).to_be_visible()
    scroller = page.locator(".st-key-steps .step-table-wrap")
    expect(scroller).to_be_visible()
    (overflow,) = hidden_px(scroller)
    assert overflow <= 1, f"with scores the step table scrolls sideways by {overflow}px"
    page.screenshot(path=str(artifacts / "playground-scores-1280x720.png"))

"""A first-time student's path in real Chromium (issue 27, parts 1, 4 and 7): the start panel, Learn,
Practice with an answer, a reload and a browser opened again with the progress kept, on a phone, in
English and in Chinese; the phone's navigation, step tables and toolbars. Issue 37, part 3: no
address bar carries the learner token, and a laptop continues the phone's progress by a one-time
code.

These contexts are made here without the returning visitor's cookie (tests/browser/conftest.py).
"""

from __future__ import annotations

import contextlib
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 720}
CELL = "seed=11&ex=2&level=2&kind=cell"  # a step-table cell; 3 is the log2(i) mistake
TEXT = {
    "en": {
        "learn": "Learn NDCG in seven steps",
        "practice": "Practice",
        "progress": "Your progress",
        "continue": "Continue on another device",
    },
    "zh": {
        "learn": "七步学会 NDCG",
        "practice": "练习",
        "progress": "你的进度",
        "continue": "在另一台设备上继续",
    },
}


def hidden_px(elements) -> list[int]:
    """How far each matched element's content runs past its box sideways (it scrolls by that much)."""
    return elements.evaluate_all("els => els.map(el => el.scrollWidth - el.clientWidth)")


def sidebar_open(page: Page) -> bool:
    return page.locator('[data-testid="stSidebar"][data-collapsed="false"]').count() == 1


def score(page: Page, lang: str, want: str = "0 / 1") -> str:
    """Practice's "Correct" metric, read from the progress panel (opened if need be), once it reads
    ``want`` or after the wait (saved progress arrives with a rerun after the page's first)."""
    panel = page.locator(".st-key-pr_progress_panel")
    metric = panel.get_by_test_id("stMetricValue").first
    if not metric.is_visible():
        expect(panel.locator("summary")).to_contain_text(TEXT[lang]["progress"])
        panel.locator("summary").click()
    expect(metric).to_be_visible()
    with contextlib.suppress(AssertionError):  # the caller's assertion says what was shown instead
        expect(metric).to_have_text(want, timeout=15_000)
    return metric.inner_text()


def learner_cookie(page: Page, timeout: float = 30.0) -> str:
    """The learner token this browser keeps, once the page has written its cookie."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = [c["value"] for c in page.context.cookies() if c["name"] == "ndcg_learner"]
        if found:
            return found[0]
        page.wait_for_timeout(100)
    raise AssertionError(f"no learner cookie after {timeout} s")


def answer_cell(page: Page, text: str) -> None:
    box = page.locator(".st-key-pr_exercise input[type=text]")
    box.fill(text)
    page.locator(".st-key-pr_exercise [data-testid=stFormSubmitButton] button").click()
    expect(page.locator(".st-key-pr_feedback")).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_first_time_student_on_a_phone_keeps_their_progress(browser: Browser, app_url, artifacts, lang):
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        query = "" if lang == "en" else "?lang=zh"
        page.goto(f"{app_url}/{query}")
        panel = page.locator(".st-key-start_panel")
        expect(panel.locator(".st-key-start_playground").get_by_role("button")).to_be_visible(timeout=30_000)
        expect(panel.locator(".st-key-start_learn").get_by_role("button")).to_be_visible()
        expect(panel.locator(".st-key-start_practice").get_by_role("button")).to_be_visible()
        assert panel.bounding_box()["y"] < 844 / 2, "the start panel is not on the first screen"
        page.screenshot(path=str(artifacts / f"path-{lang}-1-start-390x844.png"))

        panel.locator(".st-key-start_learn").get_by_role("button").click()
        expect(page.get_by_test_id("stMain").get_by_text(TEXT[lang]["learn"])).to_be_visible(timeout=30_000)
        assert not sidebar_open(page)
        # A prediction answered (the gain of D1, grade 3, under linear gain), then the last step.
        page.locator(".st-key-learn_next button").click()
        box = page.locator(".st-key-learn_predict input")
        box.fill("3")
        box.press("Enter")
        page.locator(".st-key-learn_check button").click()
        expect(page.locator(".st-key-learn_feedback [data-testid=stAlertContentSuccess]")).to_be_visible()
        token = learner_cookie(page)
        assert token not in page.evaluate("location.href")  # the cookie keeps it, never the link
        page.screenshot(path=str(artifacts / f"path-{lang}-2-learn-390x844.png"))
        for n in range(3, 8):
            page.locator(".st-key-learn_next button").click()
            expect(page.locator(".st-key-learn_step_no")).to_contain_text(str(n))
        to_practice = page.locator(".st-key-learn_to_practice a")
        expect(to_practice).to_be_visible()
        to_practice.click()
        expect(page.locator(".st-key-pr_exercise")).to_be_visible(timeout=30_000)

        # A teacher's link to one exercise; a wrong answer (the log2(i) mistake), counted.
        page.goto(f"{app_url}/practice?{CELL}" + ("&lang=zh" if lang == "zh" else ""))
        answer_cell(page, "3.00")
        assert score(page, lang) == "0 / 1"
        assert learner_cookie(page) == token and "learner=" not in page.evaluate("location.href")
        page.screenshot(path=str(artifacts / f"path-{lang}-3-practice-390x844.png"))

        page.reload()
        expect(page.locator(".st-key-pr_exercise")).to_be_visible(timeout=30_000)
        assert score(page, lang) == "0 / 1", "a reload lost the progress"
        transfer = page.locator(".st-key-lr_devices_practice").get_by_role(
            "button", name=TEXT[lang]["continue"]
        )
        expect(transfer).to_be_visible()  # a code on request, not a link
        assert token not in page.locator("[data-testid=stMain]").inner_text()
        page.screenshot(path=str(artifacts / f"path-{lang}-4-reloaded-390x844.png"))

        cookie = next(c for c in context.cookies() if c["name"] == "ndcg_learner")
        assert cookie["value"] == token
        assert cookie["expires"] > time.time() + 300 * 86400, "the cookie would not outlive the browser"
        state = context.storage_state()
    finally:
        context.close()

    # The browser opened again: no link, only what the browser kept.
    again = browser.new_context(viewport=PHONE, storage_state=state)
    try:
        page = again.new_page()
        page.goto(f"{app_url}/practice" + ("?lang=zh" if lang == "zh" else ""))
        expect(page.locator(".st-key-pr_exercise")).to_be_visible(timeout=30_000)
        assert score(page, lang) == "0 / 1"
        expect(page).to_have_url(re.compile(r"\?seed=11&ex=2&level=2&kind=cell(&lang=zh)?$"))
        page.goto(f"{app_url}/learn" + ("?lang=zh" if lang == "zh" else ""))
        expect(page.locator(".st-key-learn_step_no")).to_be_visible(timeout=30_000)
        expect(page.locator(".st-key-learn_step_no")).to_contain_text("7")  # the step reached
    finally:
        again.close()


def test_two_students_on_one_server_never_see_each_others_progress(browser: Browser, app_url):
    ana, ben = browser.new_context(viewport=DESKTOP), browser.new_context(viewport=DESKTOP)
    try:
        a, b = ana.new_page(), ben.new_page()
        a.goto(f"{app_url}/practice?{CELL}")
        answer_cell(a, "3.00")
        assert score(a, "en") == "0 / 1"
        b.goto(f"{app_url}/practice?{CELL}")
        expect(b.locator(".st-key-pr_exercise")).to_be_visible(timeout=30_000)
        assert score(b, "en") == "0 / 0"
        assert "learner=" not in b.evaluate("location.href")
    finally:
        ana.close()
        ben.close()


def test_a_laptop_continues_the_phones_progress_by_a_one_time_code(browser: Browser, app_url):
    """Issue 37, part 3: "Continue on another device" makes a code and a link that carries only it;
    the laptop opens the link, gets the phone's progress and cookie, and the code leaves its
    address bar."""
    phone, laptop = browser.new_context(viewport=PHONE), browser.new_context(viewport=DESKTOP)
    try:
        p = phone.new_page()
        p.goto(f"{app_url}/practice?{CELL}")
        answer_cell(p, "3.00")
        assert score(p, "en") == "0 / 1"
        token = learner_cookie(p)
        devices = p.locator(".st-key-lr_devices_practice")
        devices.get_by_role("button", name="Continue on another device").click()
        shown = p.locator(".st-key-lr_code_practice [data-testid=stCode]")
        expect(shown.first).to_contain_text(re.compile(r"^[A-Z2-9]{4}-[A-Z2-9]{4}$"))
        link = shown.nth(1).inner_text().strip()
        assert re.fullmatch(r"http://[^?]+/practice\?continue=[A-Z2-9]{8}", link), link
        assert token not in p.locator("[data-testid=stMain]").inner_text()
        q = laptop.new_page()
        q.goto(app_url + "/practice?" + link.split("?", 1)[1])
        expect(q.locator(".st-key-pr_exercise")).to_be_visible(timeout=30_000)
        assert score(q, "en") == "0 / 1"
        assert learner_cookie(q) == token
        expect(q).not_to_have_url(re.compile(r"continue="))
    finally:
        phone.close()
        laptop.close()


def test_on_a_phone_the_sidebar_closes_after_choosing_a_page(browser: Browser, app_url, artifacts: Path):
    context = browser.new_context(viewport=PHONE)
    try:
        _sidebar_closes(context.new_page(), app_url, artifacts)
    finally:
        context.close()  # a page left open keeps the browser's focus from the next tests' pages


def test_on_a_slow_phone_the_sidebar_closes_even_if_tapped_before_the_page_settled(browser: Browser, app_url):
    """A phone on a hall's network taps a page's link before all of the page's code has arrived: the
    sidebar closes all the same (it stayed open when the close waited for a tap it had not seen).
    Streamlit fetches the code that runs ``st.html`` scripts when a page first draws one; here that
    file is held back until the tap."""
    context = browser.new_context(viewport=PHONE)
    held = []
    try:
        page = context.new_page()
        page.route(re.compile(r"/static/js/Html\.[^/]*\.js$"), lambda route: held.append(route))
        open_practice_from_learns_sidebar(page, app_url)
        assert held, "the page drew no st.html script"
        for route in held:
            route.continue_()
        expect(page.locator('[data-testid="stSidebar"][data-collapsed="false"]')).to_have_count(0)
        # Opened again on the same page, it stays open: only a page change closes it.
        page.get_by_test_id("stExpandSidebarButton").click()
        page.wait_for_timeout(1500)
        expect(page.locator('[data-testid="stSidebar"][data-collapsed="false"]')).to_have_count(1)
    finally:
        context.close()


def open_practice_from_learns_sidebar(page: Page, app_url) -> None:
    """On a phone: open Learn, open the sidebar, tap Practice in it and wait for Practice."""
    page.goto(f"{app_url}/learn")
    expect(page.locator(".st-key-learn_step_no")).to_be_visible(timeout=30_000)
    page.get_by_test_id("stExpandSidebarButton").click()
    expect(page.locator('[data-testid="stSidebar"][data-collapsed="false"]')).to_have_count(1)
    page.locator('[data-testid="stSidebar"] a[href$="/practice"]').click()
    expect(page.locator(".st-key-pr_exercise")).to_be_visible(timeout=30_000)


def _sidebar_closes(page: Page, app_url, artifacts: Path) -> None:
    open_practice_from_learns_sidebar(page, app_url)
    expect(page.locator('[data-testid="stSidebar"][data-collapsed="false"]')).to_have_count(0)
    page.locator(".st-key-next_practice").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "path-practice-next-390x844.png"))
    # Every page is reachable from the page itself.
    links = page.locator(".st-key-next_practice [data-testid=stPageLink] a")
    assert links.count() == 5


@pytest.mark.parametrize("step", [1, 4, 5, 7])
def test_on_a_phone_every_learn_step_table_fits_without_sideways_scrolling(page: Page, app_url, step):
    page.set_viewport_size(PHONE)
    page.goto(f"{app_url}/learn?step={step}")
    expect(page.locator(".st-key-learn_step_no")).to_be_visible(timeout=30_000)
    skip = page.locator(".st-key-learn_skip button")
    if skip.count():
        skip.click()
        expect(skip).to_have_count(0)  # answered: the step's tables are drawn anew, then measured
    tables = page.locator(".learn-phone-table")
    expect(tables.first).to_be_visible()
    assert all(px <= 1 for px in hidden_px(tables)), hidden_px(tables)
    for header in tables.locator("th").all():
        box = header.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, f"{header.inner_text()} is off screen"
    assert not page.locator(".st-key-learn_steps [data-testid=stDataFrame]").is_visible()
    page.set_viewport_size(DESKTOP)  # a wider screen keeps the grid, with its hover help and sorting
    expect(page.locator(".st-key-learn_steps [data-testid=stDataFrame]")).to_be_visible()
    expect(tables.first).to_be_hidden()


TEXT_BOXES = """(tool) => {
  const t = tool.getBoundingClientRect();
  const hits = [];
  for (const el of document.querySelectorAll('[data-testid=stMain] :is(p, h1, h2, h3, h4, li)')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || el.closest('[data-testid=stElementToolbar]')) continue;
    const x = Math.min(t.right, r.right) - Math.max(t.left, r.left);
    const y = Math.min(t.bottom, r.bottom) - Math.max(t.top, r.top);
    if (x > 1 && y > 1) hits.push(el.innerText.slice(0, 40));
  }
  return hits;
}"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_no_toolbar_covers_a_title_or_caption(page: Page, app_url, size):
    """Streamlit's element toolbar floats 44 px above a table or chart: it covered "Ranking A"."""
    page.set_viewport_size(size)
    page.goto(f"{app_url}/learn?step=4")  # the answer shown: the chart and the grid appear
    expect(page.locator(".st-key-learn_step_no")).to_be_visible(timeout=30_000)
    page.locator(".st-key-learn_skip button").click()
    expect(page.locator(".st-key-learn_feedback")).to_be_visible()
    learner_cookie(page)  # the step's answer is kept: this browser's next visits show it
    for url, selector in [
        ("/practice?seed=3&ex=1&kind=winner", "[data-testid=stDataFrame]"),
        ("/learn?step=4", "[data-testid=stPlotlyChart]"),
        ("/learn?step=4", ".st-key-learn_steps [data-testid=stDataFrame]"),
    ]:
        page.goto(app_url + url)
        elements = page.locator(selector)
        if size == PHONE and "learn_steps" in selector:
            continue  # the phone shows the HTML table instead (no toolbar)
        expect(elements.first).to_be_visible(timeout=30_000)
        for element in elements.all():
            if not element.is_visible():
                continue  # in a closed expander
            element.scroll_into_view_if_needed()
            element.hover()
            if "Plotly" in selector:  # plotly's own toolbar, over the chart's title
                bar = element.locator(".modebar-container")
                if size == PHONE:
                    expect(bar).to_be_hidden()
                    continue
                expect(bar.locator(".modebar")).to_be_visible()
                t, g = bar.locator(".modebar").bounding_box(), element.locator(".gtitle").bounding_box()
                apart = t["x"] >= g["x"] + g["width"] or t["y"] >= g["y"] + g["height"]
                assert apart, f"plotly's toolbar {t} covers the chart's title {g}"
                continue
            holder = element.locator("xpath=ancestor::*[@data-testid='stElementContainer'][1]")
            tool = holder.get_by_test_id("stElementToolbar")
            expect(tool).to_be_visible()
            page.wait_for_timeout(300)  # its fade-in
            assert tool.evaluate(TEXT_BOXES) == [], f"{url}: the toolbar covers text"

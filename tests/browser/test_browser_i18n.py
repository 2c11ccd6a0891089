"""Issue 13 in a real browser: every page opened with ``?lang=zh`` shows Chinese (screenshots at
1280x720 in artifacts/, looked at for boxes instead of characters), and the sidebar switch
changes the language and the link."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_support import settled
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from views.ui.styles import SIDEBAR_CLOSE_BUTTON, SIDEBAR_OPEN

#: path, and a text that page shows in Chinese (its heading or a control)
PAGES = {
    "playground": ("", "NDCG，一步一步来"),
    "learn": ("learn", "七步学会 NDCG"),
    "explore": ("explore", "探索：排序、公式与库"),
    "datasets": ("datasets", "数据集：一次看很多查询"),
    "practice": ("practice", "即时反馈的练习"),
    "class": ("class", "向全场提一个问题"),
}


#: Every string a reader sees or a screen reader says: the page's visible text, and the attributes
#: that name or describe a control (formulas, code and hidden decoration left out; a frame's own
#: page is not this page's).
STRINGS_JS = """() => {
  const out = [];
  const skip = (el) => el.closest('.katex, code, pre, script, style, [aria-hidden=true]');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement, text = n.nodeValue.trim();
    if (!text || !el || skip(el) || !el.getClientRects().length) continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    out.push(text);
  }
  const named = ['aria-label', 'title', 'placeholder', 'alt', 'data-title', 'aria-description'];
  for (const el of document.querySelectorAll(named.map((a) => `[${a}]`).join(','))) {
    if (el.closest('.katex')) continue;
    for (const a of named) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  return out;
}"""

#: Latin words a Chinese page may hold: names (people, libraries, products, articles, file formats,
#: the TREC files' kinds and the column names a file must have), the formulas' functions, and the
#: language switch's "English". Abbreviations in capitals (NDCG, CSV, item names such as ABCDE)
#: are names too.
NAMES = (
    "Intro to NDCG",
    "Discounted cumulative gain",
    "Apple Watch",
    "scikit-learn",
    "query/qid",
    "doc/docno",
    "relevance/label",
    "score",
)
WORDS = {
    "Järvelin", "Kekäläinen", "Wikipedia", "Adidas", "Nike", "trec_eval", "pytrec_eval", "ir_measures",
    "ranx", "PowerPoint", "LaTeX", "Markdown", "qrels", "Qrels", "run", "Run", "Judged", "float",
    "log", "log_b", "max", "min", "id", "English", "numpy", "argsort", "XGBoost", "LightGBM",
    "torchmetrics", "ndcg",
}  # fmt: skip


#: Code and addresses a text may quote: a link, a call, a dotted name, a snake_case name, a quoted
#: literal (a library's metric name).
CODE = re.compile(r"https?://\S+|[\w.]+\([^)]*\)|\w+(?:\.\w+)+|\w*_\w*|'[^']*'")


def page_strings(page: Page) -> list[str]:
    """Every string of the page (STRINGS_JS), once the page's script has put its translations in
    place: it runs as its element mounts, which a loaded machine can do after the run has ended."""
    settled(page)
    expect(page.get_by_test_id("stSkipToContent")).to_have_text("跳到主要内容")  # the script's first
    return page.evaluate(STRINGS_JS)


def english_words(strings: list[str]) -> list[str]:
    """The strings that hold a Latin word which is neither a name nor a formula's."""
    found = []
    for text in strings:
        rest = CODE.sub(" ", text)
        for name in NAMES:
            rest = rest.replace(name, " ")
        words = re.findall(r"[A-Za-zÀ-ÿ_]{2,}", rest)
        if any(w not in WORDS and not w.isupper() for w in words):
            found.append(text)
    return sorted(set(found))


@pytest.mark.parametrize("name", list(PAGES))
def test_every_page_in_chinese(page: Page, app_url, artifacts: Path, name):
    """Issue 38, part 6: no English on a Chinese page, Streamlit's own strings (the uploader's,
    the sidebar's, the charts' toolbars, what a screen reader says) included."""
    path, heading = PAGES[name]
    page.goto(f"{app_url}/{path}?lang=zh")
    main = page.get_by_test_id("stMain")
    expect(main.get_by_text(heading).first).to_be_visible(timeout=30_000)
    nav = page.get_by_test_id("stTopNavLinkContainer")
    for title in ("学习", "演练场", "探索", "数据集", "练习", "课堂"):  # the navigation is translated too
        expect(nav.get_by_text(title, exact=True).first).to_be_visible()
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar.locator(".st-key-lang_switch")).to_be_visible()
    expect(page).to_have_url(re.compile(r"lang=zh"))
    page.get_by_test_id("stSkeleton").first.wait_for(state="detached", timeout=30_000)
    settled(page)
    page.screenshot(path=str(artifacts / f"i18n-zh-{name}-1280x720.png"))
    assert english_words(page_strings(page)) == []
    page.get_by_test_id("stSidebar").hover()  # its close button shows on a hover
    page.locator(SIDEBAR_CLOSE_BUTTON).click()  # and with the sidebar folded: its open button
    expect(page.locator(SIDEBAR_OPEN)).to_have_count(0)
    assert english_words(page_strings(page)) == []


@pytest.mark.parametrize("name", list(PAGES))
def test_the_switch_changes_language_and_link_both_ways(page: Page, app_url, name):
    """Every control keeps working after a switch (a select box's choice comes back as its label,
    which a switch changes: the app pins the choices)."""
    path, heading = PAGES[name]
    page.goto(f"{app_url}/{path}")
    nav = page.get_by_test_id("stTopNavLinkContainer")
    expect(nav.get_by_text("Playground", exact=True)).to_be_visible(timeout=30_000)
    switch = page.locator(".st-key-lang_switch button")
    switch.filter(has_text="中文").click()
    expect(page.get_by_test_id("stMain").get_by_text(heading).first).to_be_visible()
    expect(page).to_have_url(re.compile(r"lang=zh"))
    switch.filter(has_text="English").click()
    expect(nav.get_by_text("Playground", exact=True)).to_be_visible()
    expect(page).not_to_have_url(re.compile(r"lang="))
    switch.filter(has_text="中文").click()  # and again, from English
    expect(page.get_by_test_id("stMain").get_by_text(heading).first).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    expect(page.get_by_test_id("stAlertContentError")).to_have_count(0)


def test_a_fragment_rerun_stays_in_chinese(page: Page, app_url):
    """Move down reruns only the Playground's body (st.fragment): its texts stay Chinese."""
    page.goto(f"{app_url}/?lang=zh&rel=3,2,1")
    main = page.get_by_test_id("stMain")
    steps = main.locator(".st-key-steps")
    expect(steps.get_by_text("你的排序")).to_be_visible(timeout=30_000)
    page.locator(".st-key-move_down").get_by_role("button").click()
    expect(page).to_have_url(re.compile(r"rel=2%2C3%2C1|rel=2,3,1"))
    expect(steps.get_by_text("你的排序")).to_be_visible()
    expect(main.get_by_text("Your ranking")).to_have_count(0)
    expect(main.get_by_role("button", name="下移")).to_be_visible()


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1920, 1080)])
def test_presenter_mode_in_chinese(page: Page, app_url, artifacts: Path, width, height):
    """The projector view (no sidebar): a step's title, text and table headers in Chinese."""
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{app_url}/learn?step=4&present=1&lang=zh")
    stage = page.locator(".st-key-learn_stage")
    expect(stage.get_by_text("DCG：把每个位置的价值加起来")).to_be_visible(timeout=30_000)
    expect(stage.locator("th").filter(has_text="折损增益").first).to_be_visible()
    expect(page.locator(".st-key-learn_nav").get_by_text("下一步")).to_be_visible()
    page.screenshot(path=str(artifacts / f"i18n-zh-learn-present-{width}x{height}.png"))


@pytest.mark.parametrize("name", ["learn", "practice"])
def test_phone_in_chinese(page: Page, app_url, artifacts: Path, name):
    """A student's phone (390x844): the Chinese text wraps inside the screen."""
    page.set_viewport_size({"width": 390, "height": 844})
    path, heading = PAGES[name]
    page.goto(f"{app_url}/{path}?lang=zh")
    expect(page.get_by_test_id("stMain").get_by_text(heading).first).to_be_visible(timeout=30_000)
    control = {"learn": ".st-key-learn_next", "practice": ".st-key-pr_w_kind"}[name]
    expect(page.locator(control)).to_be_visible()  # the widgets are drawn, not placeholders
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1
    settled(page)
    page.screenshot(path=str(artifacts / f"i18n-zh-{name}-390x844.png"))
    assert english_words(page_strings(page)) == []  # the phone.s own strings too


def test_a_chinese_browser_gets_chinese_and_an_english_link_wins(browser, app_url):
    """No lang in the link: the browser's language decides (zh-CN -> 中文); lang=en overrides it."""
    context = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(f"{app_url}/explore")
        expect(page.get_by_test_id("stMain").get_by_text("探索：排序、公式与库")).to_be_visible(
            timeout=30_000
        )
        page.goto(f"{app_url}/explore?lang=en")
        expect(
            page.get_by_test_id("stMain").get_by_text("Explore: rankings, formulas, libraries")
        ).to_be_visible(timeout=30_000)
    finally:
        context.close()


def test_class_lecturer_screen_in_chinese(page: Page, app_url, artifacts: Path):
    """The lecturer's projected screen with an open question: join code, prompt and counts in Chinese."""
    page.goto(f"{app_url}/class?lang=zh")
    page.locator(".st-key-cl_create").get_by_role("button").click()
    ask = page.locator(".st-key-cl_ask_button").get_by_role("button")
    opener = page.locator(".st-key-cl_open").get_by_role("button")
    for _attempt in range(3):  # a click while the new room's first run draws can be lost: ask again
        expect(ask).to_be_enabled(timeout=30_000)
        settled(page, timeout=30_000)  # the run ended (the Class page draws no chart to wait for)
        ask.click()
        try:
            opener.wait_for(state="visible", timeout=10_000)
            break
        except PlaywrightTimeoutError:
            continue
    opener.click()
    main = page.get_by_test_id("stMain")
    expect(main.get_by_text("加入地址").first).to_be_visible(timeout=30_000)
    expect(main.get_by_text("开放作答").first).to_be_visible()
    expect(page).to_have_url(re.compile(r"lang=zh"))
    settled(page)
    page.screenshot(path=str(artifacts / "i18n-zh-class-lecturer-1280x720.png"))
    assert english_words(page_strings(page)) == []

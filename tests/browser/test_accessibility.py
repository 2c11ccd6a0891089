"""Issue 28: axe-core finds no accessibility violation on any page, in any main state, in English and
Chinese, on a projector-sized screen (1280x720) and on a phone (390x844).

axe-core is pinned through the test extra (``axe-playwright-python``, which ships ``axe.min.js``;
the version is asserted below). It runs with every rule it has (WCAG 2.0-2.2 A and AA and its best
practices), inside the drag list's frame too. axe reports what lies outside the viewport as
"incomplete", not as a violation, and Streamlit scrolls inside its own container, so before each
run the viewport is made as tall as the page's scrolling content.

One app server and one browser page serve every state; each state is loaded once per language and
checked at both sizes (the sidebar folds away on the phone, as it does when a phone loads the
page). A violation only Streamlit itself can fix goes into :data:`ALLOWED` with its reason.
The counts per state are written to ``artifacts/axe-violations.json``.
"""

from __future__ import annotations

import importlib.util
import json
import math
import pathlib
import re
import time
from dataclasses import dataclass

import pytest
from browser_support import open_question
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from ndcg_core.classroom import Store, practice_definition

pytestmark = pytest.mark.browser

AXE_JS = pathlib.Path(importlib.util.find_spec("axe_playwright_python").origin).with_name("axe.min.js")
AXE_VERSION = "4.12.1"  # what axe-playwright-python 0.1.8 ships (pyproject.toml pins it)
SIZES = ((1280, 720), (390, 844))
LANGS = ("en", "zh")

#: (rule id, CSS selector of the offending element, why only Streamlit or a component can fix it).
#: Keep it short: every entry is a barrier someone meets.
ALLOWED: list[tuple[str, str, str]] = [
    (
        "aria-allowed-role",
        "li.sortable-item",
        "streamlit-sortables (dnd-kit) gives each drag item role=button on an <li>, which HTML does not "
        "allow; the role is what tells a screen reader the item can be picked up with Space, and only "
        "the component can change its markup (the frame's name says how to use it: views/ui/a11y.py)",
    ),
]


@dataclass(frozen=True)
class State:
    """A page in one of its main states: its address, and what shows once it is drawn."""

    path: str
    ready: str
    #: Class mode, who this browser is in a room made through the store: "lecturer", "student", or
    #: "projector" (the lecturer's browser on the results screen; "projector-revealed" after the reveal)
    room: str = ""


STATES = {
    "playground": State("/", '[data-testid="stMetric"]'),
    "playground-k3": State("/?rel=3,2,3,0,1,2&k=3", '[data-testid="stMetric"]'),
    "playground-scores": State("/?rel=3,2,1,0,2&scores=0.9,0.5,0.5,0.2,0.5&ties=average", ".st-key-steps"),
    **{f"learn-{n}": State(f"/learn?step={n}", ".st-key-learn_step_no") for n in range(1, 8)},
    # Presenter mode: a step of text, and the ideal ordering's table with rows beyond k.
    "presenter-1": State("/learn?step=1&present=1", ".st-key-learn_stage"),
    "presenter-5-k3": State("/learn?rel=3,2,3,0,1,2&k=3&step=5&present=1", ".st-key-learn_stage"),
    **{
        f"practice-{kind}": State(f"/practice?seed=7&kind={kind}", ".st-key-pr_exercise")
        for kind in ("cell", "metric", "drag", "winner", "formula", "library")
    },
    "explore": State("/explore", '[data-testid="stMetric"]'),
    "datasets": State("/datasets", '[data-testid="stMetric"]'),
    "class": State("/class", ".st-key-cl_landing"),
    "class-lecturer": State("/class", ".st-key-cl_live", room="lecturer"),
    "class-student": State("/class", ".st-key-cl_student_question", room="student"),
    "class-projector": State("/class", ".st-key-cp_chart .ndcg-bars", room="projector"),
    # Revealed: the answer is said (the bars name the mistakes; issue 42).
    "class-projector-revealed": State(
        "/class", '.st-key-cp_side [data-testid="stAlert"]', room="projector-revealed"
    ),
}

TALL_JS = """() => Math.max(innerHeight, ...['stMain', 'stSidebarContent'].map(
  id => document.querySelector(`[data-testid="${id}"]`)?.scrollHeight ?? 0))"""

RUN_AXE_JS = """async (allowed) => {
  const r = await axe.run(document, {resultTypes: ['violations'], elementRef: true});
  const resolve = target => {  // a node in a frame has one selector per frame on its way
    let doc = document, el = null;
    for (const sel of target) {
      el = doc && doc.querySelector(sel);
      doc = el && el.contentDocument;
    }
    return el;
  };
  const found = [];
  for (const v of r.violations) {
    for (const n of v.nodes) {
      const el = n.element || resolve(n.target);
      const why = allowed.find(([rule, sel]) => rule === v.id && el && el.matches(sel));
      found.push({rule: v.id, impact: n.impact, target: n.target.flat().join(' >>> '),
                  html: n.html.slice(0, 200), summary: n.failureSummary, allowed: why ? why[2] : null});
    }
  }
  const frames = r.incomplete.filter(v => v.id === 'frame-tested').flatMap(v => v.nodes.map(n => n.html));
  return {version: axe.version, found, untested_frames: frames, passes: r.passes.length};
}"""


@pytest.fixture(scope="module")
def shared_page(browser: Browser):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    yield context.new_page()
    context.close()


@pytest.fixture(scope="module")
def counts(artifacts):
    found: dict[str, dict] = {}
    yield found
    (artifacts / "axe-violations.json").write_text(json.dumps(found, indent=1, ensure_ascii=False))


def room_query(store: Store, role: str) -> tuple[str, dict[str, str] | None]:
    """A room with an open question (a Practice metric exercise) and three answers in it: the link
    to open, and the cookie that says who this browser is there (never in a link): the student's id,
    or the lecturer's key for the projector screen (the lecturer's own page takes a lecturer link)."""
    code, key, number = open_question(store, practice_definition(11, 1, "metric", 1))
    tokens = [store.join(code, name).token for name in ("Ada", "Bo", "Cy")]
    for token, answer in zip(tokens, ("0.5", "0.7", "0.9"), strict=True):
        store.submit(code, token, number, answer)
    if role == "lecturer":
        return f"?room={code}&key={key}", None
    if role.startswith("projector"):
        if role == "projector-revealed":
            store.set_status(code, key, number, "closed")
            store.set_status(code, key, number, "revealed")
        return f"?room={code}&present=1", {"name": f"ndcg_lecturer_{code}", "value": key}
    return f"?room={code}", {"name": f"ndcg_student_{code}", "value": tokens[0]}


def settle(page: Page) -> None:
    """Wait until the script has run, the first chart has replaced its placeholder and frames loaded."""
    app = page.get_by_test_id("stApp")
    expect(app).to_have_attribute("data-test-script-state", "notRunning", timeout=30_000)
    loading = page.locator('[class*="st-key-pending_chart_"], [data-testid="stSkeleton"]')
    expect(loading).to_have_count(0, timeout=30_000)
    for frame in page.frames[1:]:
        try:
            frame.wait_for_load_state()
            frame.wait_for_selector("body *", state="attached")
        except PlaywrightError:
            if not frame.is_detached():  # a frame the page replaced meanwhile has nothing to wait for
                raise


def make_tall(page: Page, width: int, height: int) -> None:
    """A viewport as tall as the page's scrolling content, so axe sees every element on screen."""
    page.set_viewport_size({"width": width, "height": height})
    for _ in range(5):
        time.sleep(0.15)  # let the layout follow the new size (iframes report their height)
        tall = page.evaluate(TALL_JS)
        if tall <= page.viewport_size["height"]:
            return
        page.set_viewport_size({"width": width, "height": tall})
    raise AssertionError(f"the page kept growing past {tall} px")


def run_axe(page: Page) -> dict:
    for frame in page.frames:
        if not frame.evaluate("() => !!window.axe"):
            frame.add_script_tag(path=str(AXE_JS))
    allowed = [list(a) for a in ALLOWED]
    return page.evaluate(RUN_AXE_JS, allowed)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(STATES))
def test_no_axe_violations(shared_page: Page, class_server, counts, name, lang):
    url, store = class_server
    state = STATES[name]
    page = shared_page
    query = state.path
    if state.room:
        room, cookie = room_query(store, state.room)
        query += room
        if cookie is not None:
            page.context.add_cookies([{**cookie, "url": url}])
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    page.goto(f"{url}{query}{'&' if '?' in query else '?'}lang={lang}")
    expect(page.locator(state.ready).first).to_be_visible(timeout=30_000)
    settle(page)
    # What axe does not check: the language is the page's, each page its own title, one h1.
    title, heading = PAGES[state.path.strip("/").split("?")[0]][lang]
    expect(page.locator("html")).to_have_attribute("lang", HTML_LANG[lang])
    expect(page).to_have_title(title)
    expect(page.locator("h1")).to_have_count(1)
    if "present=1" not in state.path:  # presenter mode's h1 is the step's title (the projector's: "Class")
        expect(page.locator("h1")).to_have_text(heading)
    problems = []
    for width, height in SIZES:
        make_tall(page, width, height)
        settle(page)
        result = run_axe(page)
        assert result["version"] == AXE_VERSION
        assert result["passes"] > 10, result  # axe really looked at the page
        assert result["untested_frames"] == [], result  # the drag list's frame was checked too
        found = result["found"]
        counts[f"{name} {lang} {width}"] = {
            "violations": sum(f["allowed"] is None for f in found),
            "allowed": sum(f["allowed"] is not None for f in found),
            "rules": sorted({f["rule"] for f in found if f["allowed"] is None}),
        }
        problems += [
            f"{width}px {f['rule']} [{f['impact']}] {f['target']}: {f['summary']}\n    {f['html']}"
            for f in found
            if f["allowed"] is None
        ]
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------ what axe does not check

#: path, and per language: the browser tab's title and the page's one <h1> (checked with axe's run)
PAGES = {
    "": {
        "en": ("Playground · NDCG, step by step", "NDCG, step by step"),
        "zh": ("演练场 · NDCG，一步一步来", "NDCG，一步一步来"),
    },
    "learn": {
        "en": ("Learn · NDCG, step by step", "Learn NDCG in seven steps"),
        "zh": ("学习 · NDCG，一步一步来", "七步学会 NDCG"),
    },
    "explore": {
        "en": ("Explore · NDCG, step by step", "Explore: rankings, formulas, libraries"),
        "zh": ("探索 · NDCG，一步一步来", "探索：排序、公式与库"),
    },
    "datasets": {
        "en": ("Data sets · NDCG, step by step", "Data sets: many queries at once"),
        "zh": ("数据集 · NDCG，一步一步来", "数据集：一次看很多查询"),
    },
    "practice": {
        "en": ("Practice · NDCG, step by step", "Practice"),
        "zh": ("练习 · NDCG，一步一步来", "练习"),
    },
    "class": {"en": ("Class · NDCG, step by step", "Class"), "zh": ("课堂 · NDCG，一步一步来", "课堂")},
}
HTML_LANG = {"en": "en", "zh": "zh-Hans"}  # BCP 47: Simplified Chinese


def open_page(page: Page, url: str, path: str, ready: str = '[data-testid="stMain"] h1') -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{url}/{path}")
    expect(page.locator(ready).first).to_be_visible(timeout=30_000)
    settle(page)


def live_text(page: Page):
    return page.locator("#ndcg-live")


def test_the_language_follows_the_switch_and_survives_reruns(shared_page: Page, class_server):
    url, _store = class_server
    page = shared_page
    open_page(page, url, "?rel=3,2,1&lang=en")
    html = page.locator("html")
    expect(html).to_have_attribute("lang", "en")
    page.locator(".st-key-lang_switch button").filter(has_text="中文").click()
    expect(html).to_have_attribute("lang", "zh-Hans")
    expect(page).to_have_title("演练场 · NDCG，一步一步来")
    page.get_by_role("button", name="下移").click()  # a rerun of the playground's fragment
    expect(page.locator(".st-key-steps")).to_contain_text("D2")
    settle(page)
    expect(html).to_have_attribute("lang", "zh-Hans")
    page.get_by_test_id("stTopNavLinkContainer").get_by_text("学习", exact=True).click()  # another page
    expect(page.locator("h1")).to_have_text("七步学会 NDCG")
    expect(html).to_have_attribute("lang", "zh-Hans")
    page.locator(".st-key-lang_switch button").filter(has_text="English").click()
    expect(html).to_have_attribute("lang", "en")
    expect(page).to_have_title("Learn · NDCG, step by step")


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("?lang=en", "Your ranking: drag an item, or press Space on it and move it with the arrow keys"),
        ("?lang=zh", "你的排序：拖动条目，或在条目上按空格键，再用方向键移动它"),
        ("learn?lang=en", "Your ranking: drag an item, or press Space on it and move it with the arrow keys"),
        (
            "practice?seed=7&kind=drag&lang=en",
            "The exercise's list: drag an item, or press Space on it and move it with the arrow keys",
        ),
    ],
)
def test_the_drag_lists_frame_has_a_name_that_says_how_to_use_it(shared_page: Page, class_server, path, name):
    url, _store = class_server
    open_page(shared_page, url, path)
    frame = shared_page.locator('iframe[src*="/streamlit_sortables.sortable_items/"]')
    expect(frame).to_have_count(1)
    expect(frame).to_have_attribute("aria-label", name)
    expect(frame).to_have_attribute("title", name)  # issue 38: it read "streamlit_sortables.sortable_items"


def test_the_headline_ndcg_is_announced_when_a_reorder_changes_it(shared_page: Page, class_server):
    """Grades 3, 2, 1 with log2(i + 1): moving D1 down gives 2, 3, 1."""
    url, _store = class_server
    page = shared_page
    open_page(page, url, "?rel=3,2,1&lang=en", ready='[data-testid="stMetric"]')
    expect(live_text(page)).to_have_attribute("role", "status")
    expect(live_text(page)).to_have_text("")  # nothing said on arrival
    ideal = 3 + 2 / math.log2(3) + 1 / 2
    page.get_by_role("button", name="Move down").click()
    expect(live_text(page)).to_have_text(f"NDCG@3 = {(2 + 3 / math.log2(3) + 1 / 2) / ideal:.3f}")
    page.get_by_role("button", name="Move down").click()  # D1 to the bottom: 2, 1, 3
    expect(live_text(page)).to_have_text(f"NDCG@3 = {(2 + 1 / math.log2(3) + 3 / 2) / ideal:.3f}")


def test_a_practice_verdict_is_announced(shared_page: Page, class_server):
    url, _store = class_server
    page = shared_page
    open_page(page, url, "practice?seed=7&kind=metric&lang=en", ready=".st-key-pr_exercise")
    box = page.locator(".st-key-pr_exercise input[type=text]")
    for _ in range(2):  # the same verdict twice is said twice: a second check is news too
        box.fill("0.12")
        expect(box).to_have_value("0.12")
        page.get_by_role("button", name="Check", exact=True).click()
        alert = page.locator(".st-key-pr_feedback").get_by_test_id("stAlert")
        expect(alert).to_be_visible()
        shown = alert.get_by_test_id("stMarkdownContainer").inner_text().replace("\u2060", "").strip()
        expect(live_text(page)).to_have_text(shown)
        page.evaluate("document.getElementById('ndcg-live').textContent = ''")


_SAY = """([key, text]) => {
  const el = Object.assign(document.createElement('div'), {className: 'ndcg-quiet ndcg-say'});
  Object.assign(el.dataset, {key, say: text});
  document.body.appendChild(el);
}"""

#: Records what the live region says from now on; past 50 changes it removes the announcements of
#: ``key``, which ends a loop (the test then fails on the record instead of freezing the tab).
_RECORD = """(key) => {
  const live = document.getElementById('ndcg-live'), said = (window.__liveSaid = []);
  new MutationObserver(() => {
    said.push(live.textContent);
    if (said.length <= 50) return;
    document.querySelectorAll(`.ndcg-say[data-key="${key}"]`).forEach((e) => e.remove());
  }).observe(live, {childList: true, characterData: true, subtree: true});
}"""


def test_two_announcements_of_one_key_on_the_page_are_said_once(shared_page: Page, class_server):
    """During a rerun the page holds the last run's announcement beside this run's, one key, two
    texts ("Show me" after a wrong answer, seen in CI): the live region took them in turn, each
    change calling the observer again, and the tab froze for good."""
    url, _store = class_server
    page = shared_page
    open_page(page, url, "practice?seed=7&kind=metric&lang=en", ready=".st-key-pr_exercise")
    page.evaluate(_SAY, ["pr_verdict_test", "Not quite: the last run's verdict"])
    expect(live_text(page)).to_have_text("Not quite: the last run's verdict")
    page.evaluate(_RECORD, "pr_verdict_test")
    page.evaluate(_SAY, ["pr_verdict_test", "The right value is 1.631"])  # the first one stays
    expect(live_text(page)).to_have_text("The right value is 1.631")
    page.evaluate(_SAY, ["pr_verdict_test", "A third text is said too"])
    expect(live_text(page)).to_have_text("A third text is said too")
    assert page.evaluate("window.__liveSaid") == ["The right value is 1.631", "A third text is said too"]


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two CSS colours given as ``rgb(r, g, b)``."""

    def luminance(css: str) -> float:
        r, g, b = (int(x) / 255 for x in re.findall(r"\d+", css)[:3])
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


ROW_STYLE_JS = """rows => rows.map(r => { const s = getComputedStyle(r.cells[1]);
  return [s.fontStyle, s.color, s.borderTopStyle, parseFloat(s.borderTopWidth)]; })"""


@pytest.mark.parametrize(
    ("path", "rows"),
    [
        ("?rel=3,2,3,0,1,2&k=3", ".st-key-steps tbody tr"),
        ("learn?k=3&step=4&present=1", ".learn-table tbody tr"),
    ],
)
def test_rows_beyond_k_are_set_apart_by_more_than_colour(shared_page: Page, class_server, path, rows):
    """Rows 4 to 6 (k = 3): italic, below a dashed line, their grey at least 4.5:1 on white."""
    url, _store = class_server
    open_page(shared_page, url, f"{path}&lang=en", ready=rows)
    styles = shared_page.locator(rows).evaluate_all(ROW_STYLE_JS)
    assert [s[0] for s in styles] == ["normal"] * 3 + ["italic"] * 3
    assert styles[3][2] == "dashed" and styles[3][3] >= 2
    assert all(s[2] != "dashed" for n, s in enumerate(styles) if n != 3)
    assert min(contrast(s[1], "rgb(255, 255, 255)") for s in styles) >= 4.5


#: From the focused element (inside a frame too), the nearest element drawing a ring: its outline's
#: colour, width and style.
RING_JS = """() => {
  let el = document.activeElement;
  if (el.tagName === 'IFRAME') el = el.contentDocument.activeElement;
  const what = el.tagName + ' ' + (el.getAttribute('aria-label') || el.textContent).trim().slice(0, 40);
  for (let d = 0; d < 5 && el; d++, el = el.parentElement) {
    const s = getComputedStyle(el), r = el.getBoundingClientRect();
    if (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 && r.width > 4 && r.height > 4) {
      return {what, color: s.outlineColor, width: parseFloat(s.outlineWidth), style: s.outlineStyle};
    }
  }
  return {what, color: null};
}"""


def test_keyboard_focus_shows_a_ring_of_3_to_1_on_every_kind_of_control(shared_page: Page, class_server):
    """Tab from the top of the playground through the sidebar and the page, drag items included: every
    stop shows a solid ring at least 2 px wide whose colour has at least 3:1 against white and against
    the sidebar's background."""
    url, _store = class_server
    page = shared_page
    open_page(page, url, "?rel=3,2,1&lang=en", ready='[data-testid="stMetric"]')
    kinds, rings = set(), []
    for _ in range(45):
        page.keyboard.press("Tab")
        ring = page.evaluate(RING_JS)
        rings.append(ring)
        kinds.add(ring["what"].split()[0] + (" drag item" if "·" in ring["what"] else ""))
    missing = [r["what"] for r in rings if r["color"] is None or r["style"] != "solid" or r["width"] < 2]
    assert not missing, missing
    weak = [r for r in rings if min(contrast(r["color"], bg) for bg in ("rgb(255, 255, 255)", SIDEBAR)) < 3]
    assert not weak, weak
    assert {"BUTTON", "INPUT", "LI drag item"} <= kinds, kinds  # buttons, boxes, toggles and the drag list


SIDEBAR = "rgb(248, 248, 247)"  # Streamlit's light theme's secondary background (#F8F8F7)

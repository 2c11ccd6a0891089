"""Class mode (issue 12) in real headless Chromium: one lecturer, five students (one on a phone).

Students answer the playground's default list (Wikipedia's D1..D6 graded 3,2,3,0,1,2, with the
Järvelin–Kekäläinen discount max(1, log2(i))); expected values are closed forms (math.log2).
The lecturer's live view shows all five answers without a reload (how fast is a benchmark's
question: `make bench-class` measures submit -> lecturer's screen, p50/p95); after the
reveal each student sees their own feedback; links without the lecturer key show no control,
and the store refuses a forged key.
"""

from __future__ import annotations

import csv
import io
import json
import math
import pathlib
import re
import time
import urllib.error
import urllib.request

import pytest
from browser_support import open_question
from playwright.sync_api import Browser, Page, expect

from ndcg_core.classroom import NotLecturer, playground_definition
from ndcg_core.variants import Variant

pytestmark = pytest.mark.browser

GRADES = [3, 2, 3, 0, 1, 2]
GRADES_LABELS = [f"D{i}" for i in range(1, 7)]


def ndcg(discount) -> float:
    dcg = sum(g / discount(i) for i, g in enumerate(GRADES, start=1))
    return dcg / sum(g / discount(i) for i, g in enumerate(sorted(GRADES, reverse=True), start=1))


RIGHT = ndcg(lambda i: max(1.0, math.log2(i)))  # 0.932
LOG2_I_PLUS_1 = ndcg(lambda i: math.log2(i + 1))  # the other discount: a diagnosed mistake
PHONE = {"width": 390, "height": 844}
QUESTION = playground_definition(
    [f"D{i}" for i in range(1, 7)],
    GRADES,
    Variant(k=None, gain="linear", discount="jarvelin", log_base=2.0),
    "ndcg",
)
CONTROLS = (".st-key-cl_open", ".st-key-cl_close", ".st-key-cl_reveal", ".st-key-cl_ask_button")


def cookie(page: Page, name: str, timeout: float = 30.0) -> str:
    """The value of cookie ``name`` in the page's browser, once the page has written it."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = [c["value"] for c in page.context.cookies() if c["name"] == name]
        if found:
            return found[0]
        page.wait_for_timeout(100)
    raise AssertionError(f"no cookie {name} after {timeout} s")


def open_lecturer(page: Page, url: str) -> tuple[str, str]:
    """Create a room: the address bar gets its code and join tag, never its key (a cookie keeps that)."""
    page.goto(f"{url}/class", timeout=90_000)
    page.locator(".st-key-cl_create button").click()
    expect(page).to_have_url(re.compile(r"/class\?room=\w{6}&tag=\w{6}$"), timeout=30_000)
    code = re.search(r"room=(\w+)", page.evaluate("location.href")).group(1)
    return code, cookie(page, f"ndcg_lecturer_{code}")


def ask_playground_ndcg(page: Page) -> None:
    page.locator(".st-key-cl_source button", has_text="The playground's list").click()
    expect(page.locator(".st-key-cl_ask")).to_be_visible()
    page.locator(".st-key-cl_ask_button button").click()
    expect(page.locator(".st-key-cl_prompt")).to_contain_text("What is NDCG of this list?")
    page.locator(".st-key-cl_open button").click()
    expect(page.locator(".st-key-cl_question")).to_contain_text("Open for answers")


def join(page: Page, url: str, code: str, name: str) -> None:
    page.goto(f"{url}/class?room={code}", timeout=90_000)  # six browsers on a shared 2-core machine
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.locator(".st-key-cl_answer_1 input")).to_be_visible(timeout=30_000)


def send(page: Page, text: str) -> None:
    box = page.locator(".st-key-cl_answer_1 input")
    box.fill(text)
    expect(box).to_have_value(text)
    page.get_by_role("button", name="Send answer").click()
    expect(page.locator(".st-key-cl_saved")).to_contain_text("Saved", timeout=30_000)


def test_five_students_answer_the_lecturer_sees_them_live_and_each_gets_feedback(
    browser: Browser, class_server, artifacts
):
    url, store = class_server
    lecturer = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    code, key = open_lecturer(lecturer, url)
    expect(lecturer.locator(".st-key-cl_code")).to_have_text(code)
    expect(lecturer.locator(".st-key-cl_qr img")).to_be_visible()
    ask_playground_ndcg(lecturer)

    names = ["Ana", "Bo", "<b>Chen</b>", "Dee", "Eli"]
    answers = [f"{RIGHT:.3f}", f"{RIGHT:.3f}", f"{LOG2_I_PLUS_1:.3f}", f"{RIGHT:.4f}", f"{LOG2_I_PLUS_1:.3f}"]
    students = []
    for i, name in enumerate(names):
        context = browser.new_context(viewport=PHONE if i == 0 else {"width": 1280, "height": 720})
        page = context.new_page()
        join(page, url, code, name)
        students.append(page)
    expect(students[2].get_by_text("you are <b>Chen</b>")).to_be_visible()  # shown as text
    for page, text in zip(students, answers, strict=True):
        send(page, text)
    expect(lecturer.locator(".st-key-cl_answered [data-testid=stMetricValue]")).to_have_text(
        "5", timeout=30_000
    )
    expect(lecturer.locator(".st-key-cl_chart figcaption")).to_contain_text("5 answers", timeout=30_000)
    students[0].screenshot(path=str(artifacts / "class-student-saved-390x844.png"))
    lecturer.screenshot(path=str(artifacts / "class-lecturer-live-1920x1080.png"))

    lecturer.locator(".st-key-cl_reveal button").click()
    expect(lecturer.locator(".st-key-cl_correct")).to_contain_text("60%")
    expect(lecturer.locator(".st-key-cl_correct_answer")).to_contain_text(f"{RIGHT:.3f}")
    expect(lecturer.locator(".st-key-cl_mistakes")).to_contain_text("40%")
    lecturer.screenshot(path=str(artifacts / "class-lecturer-revealed-1920x1080.png"))
    lecturer.set_viewport_size({"width": 1280, "height": 720})
    lecturer.screenshot(path=str(artifacts / "class-lecturer-1280x720.png"))

    for page, text in zip(students, answers, strict=True):
        page.bring_to_front()  # each student looks at their own phone (a hidden tab's timers are throttled)
        feedback = page.locator(".st-key-cl_feedback")
        # Each student page notices the reveal within 2 s and reruns; six at once on a busy machine.
        expect(feedback).to_contain_text(
            "Right" if text.startswith(f"{RIGHT:.3f}"[:4]) else "Not quite", timeout=60_000
        )
        expect(feedback).to_contain_text(f"The answer: {RIGHT:.3f}")
    expect(students[2].locator(".st-key-cl_feedback")).to_contain_text("log2(i + 1)")
    students[0].screenshot(path=str(artifacts / "class-student-feedback-390x844.png"))
    stored = store.answers(code, key, 1)
    assert sorted(a.name for a in stored) == sorted(names)
    assert sum(a.correct for a in stored) == 3


def test_a_student_url_cannot_open_close_or_reveal(browser: Browser, class_server):
    url, store = class_server
    lecturer = browser.new_context().new_page()
    code, key = open_lecturer(lecturer, url)
    ask_playground_ndcg(lecturer)
    for query in (f"room={code}", f"room={code}&key=wrong", f"room={code}&key={key[:-1]}"):
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(f"{url}/class?{query}")
        expect(page.get_by_label("Your name")).to_be_visible(timeout=30_000)
        for control in CONTROLS:
            expect(page.locator(control)).to_have_count(0)
        expect(page.locator("[data-testid=stMetric]")).to_have_count(0)
        if "key" in query:
            expect(page.locator("[data-testid=stAlert]")).to_contain_text("lecturer key is not the room's")
        page.context.close()
    # Tried directly against the store with the forged keys: refused, and nothing changed.
    for forged in ("", "wrong", key[:-1]):
        with pytest.raises(NotLecturer):
            store.set_status(code, forged, 1, "revealed")
        with pytest.raises(NotLecturer):
            store.set_status(code, forged, 1, "closed")
    assert store.room(code).current.status == "open"


def test_an_unknown_room_code_shows_a_message_not_a_traceback(page: Page, class_server):
    url, _store = class_server
    page.goto(f"{url}/class?room=NOPE99")
    expect(page.locator("[data-testid=stAlert]")).to_contain_text("There is no room with the code 'NOPE99'")
    expect(page.locator("[data-testid=stException]")).to_have_count(0)


def test_who_you_are_stays_out_of_the_address_bar_and_survives_a_reload(browser: Browser, class_server):
    """Issue 30, part 4, in a real browser: the lecturer's key and a student's id live in cookies,
    never in the address bar (the projector's included); a reload keeps both; another student's id
    in a link is not taken."""
    url, store = class_server
    lecturer = browser.new_context().new_page()
    code, key = open_lecturer(lecturer, url)
    ask_playground_ndcg(lecturer)
    lecturer.reload()
    expect(lecturer.locator(".st-key-cl_close button")).to_be_visible(timeout=30_000)  # still runs it
    assert key not in lecturer.evaluate("location.href")

    phone = browser.new_context(viewport=PHONE).new_page()
    join(phone, url, code, "Ana")
    # No student id in the link: the room's join tag (the same for everyone), once the room is found.
    expect(phone).to_have_url(re.compile(rf"{re.escape(url)}/class\?room={code}&tag=\w{{6}}$"))
    token = cookie(phone, f"ndcg_student_{code}")
    assert store.student_name(code, token) == "Ana"
    send(phone, f"{RIGHT:.3f}")
    phone.reload()
    expect(phone.get_by_text(f"Room {code} · you are Ana")).to_be_visible(timeout=30_000)
    expect(phone.locator(".st-key-cl_saved")).to_contain_text(f"Saved: {RIGHT:.3f}")

    projector = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    projector.goto(f"{url}/class?room={code}&key={key}&present=1", timeout=90_000)
    expect(projector.locator(".st-key-cp_numbers")).to_contain_text("1", timeout=30_000)
    expect(projector).to_have_url(re.compile(rf"{re.escape(url)}/class\?room={code}&tag=\w{{6}}&present=1$"))
    assert cookie(projector, f"ndcg_lecturer_{code}") == key  # written though the sidebar is hidden
    projector.reload()
    expect(projector.locator(".st-key-cp_controls")).to_be_visible(timeout=30_000)
    assert key not in projector.locator("[data-testid=stMain]").inner_text()

    mallory = browser.new_context(viewport=PHONE).new_page()
    mallory.goto(f"{url}/class?room={code}&me={token}", timeout=90_000)
    expect(mallory.get_by_label("Your name")).to_be_visible(timeout=30_000)
    expect(mallory.locator(".st-key-cl_id_refused")).to_contain_text("was not used")
    expect(mallory).to_have_url(re.compile(rf"{re.escape(url)}/class\?room={code}&tag=\w{{6}}$"))
    expect(mallory.get_by_text("you are Ana")).to_have_count(0)
    for page in (lecturer, phone, projector, mallory):
        page.context.close()


#: What the projector screen's layout measures: scrolling, each part's box, and the overflow of texts.
PROJECTOR_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const box = (sel) => { const el = document.querySelector(sel); if (!el) return null;
    const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const cut = [...document.querySelectorAll('.st-key-cp_side *, .st-key-cp_code *, .st-key-cp_join *')]
    .filter(el => el.children.length === 0 && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
    .map(el => el.textContent);
  return {scrolls: main.scrollHeight > main.clientHeight + 1, cut,
          width: innerWidth, height: innerHeight,
          parts: Object.fromEntries(['.st-key-cp_code', '.st-key-cp_qr img', '.st-key-cp_join',
            '.st-key-cp_prompt', '.st-key-cp_data', '.st-key-cp_numbers', '.st-key-cp_chart',
            '.st-key-cp_controls'].map(s => [s, box(s)]))};
}"""

#: The bars on a page: each one's label, count and type sizes (px), in the order drawn.
BARS_JS = """(where) => [...document.querySelectorAll(where + ' li.ndcg-bar')].map(li => {
  const px = (sel) => parseFloat(getComputedStyle(li.querySelector(sel)).fontSize);
  return {label: li.querySelector('.ndcg-bar-label').textContent,
          n: li.querySelector('.ndcg-bar-n').textContent,
          label_px: px('.ndcg-bar-label'), n_px: px('.ndcg-bar-n')};
})"""

#: The smallest type (px) of the question's text and of its list on the projector.
QUESTION_PX_JS = """() => ['.st-key-cp_prompt p', '.st-key-cp_data p'].map(sel =>
  Math.min(...[...document.querySelectorAll(sel)].map(e => parseFloat(getComputedStyle(e).fontSize))))"""

#: Log2(i + 1) asked: the right value, the log2(i) mistake's (max(1, log2 i), the original form).
ASKED = ndcg(lambda i: math.log2(i + 1))  # 0.961
LOG2_I = ndcg(lambda i: max(1.0, math.log2(i)))  # 0.932


def test_the_results_group_answers_by_meaning_at_hall_size_and_the_report_sums_them_up(
    browser: Browser, class_server, artifacts
):
    """Issues 26 (part 2) and 42. The list 3,2,3,0,1,2 under log2(i + 1); two phones answer 0.961
    (right) and 0.932 (the log2(i) mistake), two more 0.96 (right, rounded) and 0.99 (noise). The
    lecturer's view and the projector (/class?room=CODE&key=SECRET&present=1) draw three flat bars,
    only what was typed until the reveal, then "max(1, log2 i) · 0.932", "0.961 ✓" and "0.99". At
    1920×1080 the question and its list are at least 36 px, the labels 24 px and the counts 48 px;
    at 1280×720 and 1920×1080 nothing scrolls or is cut, no name and no key is on the screen; the
    ask panel's "Level 3" is inside it at 1280×720; the lecturer's report says 50% right and the
    log2(i) mistake, and its CSV says the same."""
    url, store = class_server
    code, key, _number = open_question(store, playground_definition(GRADES_LABELS, GRADES, Variant(), "ndcg"))
    names = ["Xanthe Quill", "Yorick Vance", "Zora Pike", "Wendell Moss"]
    phones = []
    for name, text in zip(names[:2], [f"{ASKED:.3f}", f"{LOG2_I:.3f}"], strict=True):
        phone = browser.new_context(viewport=PHONE).new_page()
        join(phone, url, code, name)
        send(phone, text)
        phones.append(phone)
    for name, text in zip(names[2:], [f"{ASKED:.2f}", "0.99"], strict=True):
        store.submit(code, store.join(code, name).token, 1, text)  # what a phone's Send does
    assert (f"{ASKED:.3f}", f"{ASKED:.2f}", f"{LOG2_I:.3f}") == ("0.961", "0.96", "0.932")

    lecturer = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    lecturer.goto(f"{url}/class?room={code}&key={key}", timeout=90_000)
    expect(lecturer.locator(".st-key-cl_answered [data-testid=stMetricValue]")).to_have_text(
        "4", timeout=30_000
    )
    before = lecturer.evaluate(BARS_JS, ".st-key-cl_chart")
    assert [(b["label"], b["n"]) for b in before] == [("0.932", "1"), ("0.961", "2"), ("0.99", "1")]
    lecturer.locator(".st-key-cl_ask_panel summary").click()
    level = lecturer.locator(".st-key-cl_level button", has_text="Level 3")
    expect(level).to_be_visible()
    panel, button = lecturer.locator(".st-key-cl_ask_panel").bounding_box(), level.bounding_box()
    assert button["x"] + button["width"] <= panel["x"] + panel["width"], (button, panel)
    lecturer.screenshot(path=str(artifacts / "class-ask-panel-1280x720.png"))

    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.goto(f"{url}/class?room={code}&key={key}&present=1", timeout=90_000)
    expect(page.locator(".st-key-cp_numbers [data-testid=stMetricValue]").first).to_have_text(
        "4", timeout=30_000
    )
    expect(page.locator(".st-key-cp_controls button", has_text="Reveal the answer")).to_be_visible()
    page.keyboard.press("a")
    expect(page.locator(".st-key-cp_numbers")).to_contain_text("50%")
    expect(page.locator(".st-key-cp_chart")).to_contain_text("max(1, log2 i) · 0.932")
    for width, height in ((1280, 720), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(1500)  # the bars redraw at the new width
        page.screenshot(path=str(artifacts / f"class-projector-{width}x{height}.png"))
        layout = page.evaluate(PROJECTOR_JS)
        assert not layout["scrolls"] and layout["cut"] == [], layout
        for name, part in layout["parts"].items():
            assert part is not None, name
            left, top, right, bottom = part
            assert left >= 0 and top >= 0 and right <= width and bottom <= height, (name, layout)
        bars = page.evaluate(BARS_JS, ".st-key-cp_chart")
        assert [(b["label"], b["n"]) for b in bars] == [
            ("max(1, log2 i) · 0.932", "1"),
            ("0.961 ✓", "2"),
            ("0.99", "1"),
        ]
        if width == 1920:
            assert min(b["label_px"] for b in bars) >= 24 and min(b["n_px"] for b in bars) >= 48, bars
            assert min(page.evaluate(QUESTION_PX_JS)) >= 36
            for number in page.locator(".st-key-cp_numbers [data-testid=stMetricValue]").all():
                assert float(number.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 48
            code_px = page.locator(".st-key-cp_code p").evaluate(
                "e => parseFloat(getComputedStyle(e).fontSize)"
            )
            assert float(code_px) >= 48
    text = page.locator("[data-testid=stMain]").inner_text()
    assert key not in text and not any(n.split()[0] in text for n in names)
    alt = page.locator(".st-key-cp_qr img").get_attribute("alt")
    assert re.search(rf"/class\?room={code}&tag=\w{{6}}$", alt) and key not in alt
    assert key not in page.locator(".st-key-cp_qr img").get_attribute("src")

    # The lecturer's page: the same bars named, and the report of the room's questions.
    lecturer.reload()
    expect(lecturer.locator(".st-key-cl_correct")).to_contain_text("50%", timeout=30_000)
    after = lecturer.evaluate(BARS_JS, ".st-key-cl_chart")
    assert [b["label"] for b in after] == ["max(1, log2 i) · 0.932", "0.961 ✓", "0.99"]
    cut = lecturer.evaluate(
        "() => [...document.querySelectorAll('.st-key-cl_live [data-testid=stMetricValue] div')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert cut == [], cut  # "Right 50%" whole at 1280x720
    lecturer.locator(".st-key-cl_report").locator("xpath=ancestor::details/summary").click()
    report = lecturer.locator(".st-key-cl_report table.ndcg-report")
    expect(report).to_contain_text("max(1, log2 i) (1)")
    cells = report.locator("tbody tr").first.locator("td").all_inner_texts()
    assert cells[1:4] == ["0.961", "4", "50%"], cells
    lecturer.screenshot(path=str(artifacts / "class-report-1280x720.png"), full_page=True)
    with lecturer.expect_download() as download:
        lecturer.locator(".st-key-cl_report_csv button").click()
    rows = list(csv.reader(io.StringIO(pathlib.Path(download.value.path()).read_text("utf-8-sig"))))
    assert rows[1][2:] == ["0.961", "4", "2", "0.5", "max(1, log2 i) (1)"], rows


def test_a_students_phone_never_loads_plotly(browser: Browser, class_server):
    """Issue 26, part 7: phones join fast. Plotly is about 4.7 MB of script; the student's page, from
    joining to the feedback after the reveal, draws no chart, so the phone never fetches it."""
    url, store = class_server
    formula = Variant(k=None, gain="linear", discount="jarvelin", log_base=2.0)
    labels = [f"D{i}" for i in range(1, 7)]
    code, key, number = open_question(store, playground_definition(labels, GRADES, formula, "ndcg"))
    phone = browser.new_context(viewport=PHONE)
    try:
        page = phone.new_page()
        join(page, url, code, "Ana")
        send(page, f"{RIGHT:.3f}")
        store.set_status(code, key, number, "revealed")
        expect(page.locator(".st-key-cl_feedback")).to_contain_text("Right", timeout=60_000)
        fetched = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
        assert fetched and not [name for name in fetched if "lotly" in name], fetched
    finally:
        phone.close()


def test_a_waiting_phone_learns_of_the_question_from_the_state_route_not_a_script_run(
    browser: Browser, class_server
):
    """Issue 30, part 6: a waiting phone asks ``GET /api/room/CODE/state`` every 2 s (views/room/poll.py)
    and reruns its page only when the state moved, through its watcher's trigger; its Streamlit
    poll comes every 15 s only. The lecturer opens a question just after that slow poll, so only
    the watcher can have told the phone within the wait. The route answers the room's own student
    (its cookie) and says nothing to anyone else."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    url, store = class_server
    code, key = store.create_room()
    number = store.ask(code, key, QUESTION).number  # a draft: the phones wait
    page = browser.new_context(viewport=PHONE).new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/room/" in r.url else None)
    reruns: list = []  # (monotonic time, the rerun request the page sent)

    def watch(ws) -> None:
        def sent(payload) -> None:
            msg = BackMsg.FromString(payload if isinstance(payload, bytes) else payload.encode())
            if msg.WhichOneof("type") == "rerun_script":
                reruns.append((time.monotonic(), msg.rerun_script))

        ws.on("framesent", sent)

    page.on("websocket", watch)
    page.goto(f"{url}/class?room={code}", timeout=90_000)
    page.get_by_label("Your name").fill("Ann")
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.get_by_text("Wait for the lecturer's question")).to_be_visible(timeout=30_000)
    token = cookie(page, f"ndcg_student_{code}")
    # The slow Streamlit poll: wait for one to be sent, then open at once (the next is 15 s away).
    end = time.monotonic() + 40
    while not any(r.fragment_id and r.is_auto_rerun for _, r in reruns) and time.monotonic() < end:
        page.wait_for_timeout(200)
    polled = [t for t, r in reruns if r.fragment_id and r.is_auto_rerun]
    assert polled, "no Streamlit poll within 40 s"
    store.set_status(code, key, number, "open")
    opened = time.monotonic()
    expect(page.locator(".st-key-cl_answer_1 input")).to_be_visible(timeout=15_000)
    assert time.monotonic() - polled[-1] < 15  # before the slow poll's next turn
    trigger = [
        (t, r)
        for t, r in reruns
        if t >= opened
        and any(
            w.id.endswith("__events") and f'"{number}:open"' in w.json_trigger_value
            for w in r.widget_states.widgets
        )
    ]
    assert trigger and not trigger[0][1].fragment_id  # the whole page, asked by the watcher
    assert asked and all(u == f"{url}/api/room/{code}/state" for u in asked)

    def ask(cookies: str | None) -> tuple[int, dict]:
        request = urllib.request.Request(
            f"{url}/api/room/{code}/state", headers={"Cookie": cookies} if cookies else {}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                return reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())

    assert ask(f"ndcg_student_{code}={token}") == (200, {"state": f"{number}:open"})
    assert ask(None) == (404, {"state": None})  # no id: nothing, as for a room that does not exist
    assert ask(f"ndcg_student_{code}={'a' * 22}") == (404, {"state": None})

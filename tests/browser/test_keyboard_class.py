"""Issue 28: Class mode and the Data sets page by keyboard alone (Tab, Shift+Tab, Enter, Space and the
arrow keys; no click), in English and Chinese: a student joins a room and answers, a lecturer
creates and runs a room (its page and the projector screen), a data set is uploaded.

Rooms are read and made through the server's own store (``class_server``). Expected numbers are
closed forms (math.log2) on the lists' grades.
"""

from __future__ import annotations

import math
import re

import pytest
from browser_support import focused, open_question, settled, tab_to, upload
from playwright.sync_api import Page, expect

from ndcg_core.classroom import playground_definition
from ndcg_core.variants import Variant

pytestmark = pytest.mark.browser

LANGS = ("en", "zh")
GRADES = [3, 2, 3, 0, 1, 2]  # Wikipedia's D1..D6
LABELS = [f"D{i}" for i in range(1, 7)]
#: NDCG of GRADES with linear gain and the log2(i + 1) discount.
NDCG = sum(g / math.log2(i + 1) for i, g in enumerate(GRADES, start=1)) / sum(
    g / math.log2(i + 1) for i, g in enumerate(sorted(GRADES, reverse=True), start=1)
)
WORDS = {  # what the pages say, per language
    "en": {
        "saved": "Saved",
        "draft": "Not open yet",
        "open": "Open for answers",
        "closed": "Closed",
        "revealed": "Answer revealed",
        "playground": "The playground's list",
    },
    "zh": {
        "saved": "已保存",
        "draft": "尚未开放",
        "open": "开放作答",
        "closed": "已关闭",
        "revealed": "已公布答案",
        "playground": "演练场的列表",
    },
}


def definition() -> dict:
    return playground_definition(LABELS, GRADES, Variant(gain="linear", discount="log"), "ndcg")


@pytest.mark.parametrize("lang", LANGS)
def test_a_student_joins_a_room_and_answers_by_keyboard(page: Page, class_server, lang):
    url, store = class_server
    code, key, number = open_question(store, definition())
    page.goto(f"{url}/class?room={code}&lang={lang}")
    expect(page.locator(".st-key-cl_name input")).to_be_visible(timeout=30_000)
    settled(page)
    tab_to(page, ".st-key-cl_name input")
    page.keyboard.type("Ada")
    page.keyboard.press("Tab")  # to Join
    focused(page, "[class*=st-key-FormSubmitter-cl_join_form-] button")
    page.keyboard.press("Enter")
    # Joined: the name box is gone, and the focus is where the answer goes, not back at the page's top.
    answer = f".st-key-cl_answer_{number} input"
    focused(page, answer)
    page.keyboard.type(f"{NDCG:.3f}")
    page.keyboard.press("Tab")  # to Send answer
    focused(page, f"[class*=st-key-FormSubmitter-cl_form_{number}-] button")
    page.keyboard.press("Space")
    expect(page.locator(".st-key-cl_saved")).to_contain_text(f"{WORDS[lang]['saved']}")
    expect(page.locator(".st-key-cl_saved")).to_contain_text(f"{NDCG:.3f}")
    (stored,) = store.answers(code, key, number)
    assert stored.name == "Ada" and stored.correct
    # The focus stays in the answer's form: a changed answer is Shift+Tab, type, Enter away.
    assert tab_to(page, answer, back=True, limit=3) <= 2


def status(page: Page):
    return page.locator(".st-key-cl_question")


@pytest.mark.parametrize("lang", LANGS)
def test_a_lecturer_creates_and_runs_a_room_by_keyboard(page: Page, class_server, lang):
    """Create a room, ask the playground's default list (D1..D6 graded 3, 2, 3, 0, 1, 2, linear gain
    and the Järvelin-Kekäläinen discount max(1, log2 i)), open it, close it after a student's answer,
    reveal it; then run it from the projector screen, with its keys O, X and A and with its buttons,
    and leave with Esc."""
    url, store = class_server
    jk = sum(g / max(1.0, math.log2(i)) for i, g in enumerate(GRADES, start=1)) / sum(
        g / max(1.0, math.log2(i)) for i, g in enumerate(sorted(GRADES, reverse=True), start=1)
    )
    words = WORDS[lang]
    page.goto(f"{url}/class?lang={lang}")
    expect(page.locator(".st-key-cl_create button")).to_be_visible(timeout=30_000)
    settled(page)
    tab_to(page, ".st-key-cl_create button")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/class\?room=\w{6}"))
    code = re.search(r"room=(\w+)", page.url).group(1)
    focused(page, ".st-key-cl_ask_button button")  # the room is there: the next thing is to ask
    # Back to the question's source (one stop for its options: Shift+Tab lands on the last), and
    # along its options with the arrow keys to the playground's list.
    tab_to(page, ".st-key-cl_source button", back=True, limit=10)
    for _ in range(4):
        if page.evaluate("() => document.activeElement.innerText.trim()") == words["playground"]:
            break
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("Space")
    expect(page.locator(".st-key-cl_ask")).to_be_visible()  # "Ask for": the playground's question
    settled(page)
    tab_to(page, ".st-key-cl_ask_button button", limit=5)
    page.keyboard.press("Enter")
    expect(page.locator(".st-key-cl_prompt")).to_contain_text("NDCG")
    expect(status(page)).to_contain_text(words["draft"])
    focused(page, ".st-key-cl_open button")  # asked: the next thing is to open it
    page.keyboard.press("Enter")
    expect(status(page)).to_contain_text(words["open"])
    focused(page, ".st-key-cl_close button")
    store.submit(code, store.join(code, "Ada").token, 1, f"{jk:.3f}")  # a student answers
    expect(page.locator(".st-key-cl_answered [data-testid=stMetricValue]")).to_have_text("1")
    focused(page, ".st-key-cl_close button")  # the live view's redraws leave the focus alone
    page.keyboard.press("Space")
    expect(status(page)).to_contain_text(words["closed"])
    focused(page, ".st-key-cl_reveal button")
    page.keyboard.press("Enter")
    expect(status(page)).to_contain_text(words["revealed"])
    expect(page.locator(".st-key-cl_correct [data-testid=stMetricValue]")).to_have_text("100%")
    expect(page.locator(".st-key-cl_correct_answer")).to_contain_text(f"{jk:.3f}")
    focused(page, ".st-key-cl_ask_panel summary")  # revealed: the next thing is a new question

    # The projector screen, by its button; there the keys O, X and A open, close and reveal.
    tab_to(page, ".st-key-cl_present button")
    page.keyboard.press("Enter")
    projected = page.locator(".st-key-cp_status")
    expect(projected).to_contain_text(words["revealed"])
    expect(page).to_have_url(re.compile(rf"/class\?room={code}&tag=\w{{6}}&present=1"))
    settled(page)
    for press, now in (("o", "open"), ("x", "closed"), ("a", "revealed"), ("o", "open")):
        page.keyboard.press(press)
        expect(projected).to_contain_text(words[now])
        settled(page)  # the buttons below the results are drawn after them, with their keys
    # Or by its buttons: each press disables its own button, and the focus goes on to the next.
    focused(page, ".st-key-cp_close button")
    page.keyboard.press("Enter")
    expect(projected).to_contain_text(words["closed"])
    focused(page, ".st-key-cp_reveal button")
    page.keyboard.press("Space")
    expect(projected).to_contain_text(words["revealed"])
    focused(page, ".st-key-cp_leave button")
    page.keyboard.press("Escape")
    expect(status(page)).to_contain_text(words["revealed"])  # back on the lecturer's page


def metric(page: Page, n: int):
    """The value of the Data sets page's n-th metric (0: the mean NDCG, 2: the number of queries)."""
    return page.get_by_test_id("stMetric").nth(n).get_by_test_id("stMetricValue")


def choose_file(page: Page, uploader: str, path, key: str = "Enter") -> None:
    """Tab to an uploader's Browse button and press ``key``: the chooser a keyboard user's system
    opens gets ``path`` (Playwright stands in for that dialog); back once the app has run with it."""

    def by_keyboard(paths) -> None:
        tab_to(page, f"{uploader} button", limit=20)
        with page.expect_file_chooser() as chooser:
            page.keyboard.press(key)
        chooser.value.set_files([str(p) for p in paths])

    upload(page, uploader, path, choose=by_keyboard)


@pytest.mark.parametrize("lang", LANGS)
def test_upload_a_data_set_by_keyboard(page: Page, app_url, tmp_path, lang):
    """One query, q1, in TREC files: judged a 3, b 2, c 0, d 1, e 2; the run ranks c, a, d, b (e is
    not retrieved). trec_eval's NDCG@10: gains 0, 3, 1, 2 over the ideal 3, 2, 2, 1, 0."""
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 a 3\nq1 0 b 2\nq1 0 c 0\nq1 0 d 1\nq1 0 e 2\n")
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 c 1 0.9 kb\nq1 Q0 a 2 0.8 kb\nq1 Q0 d 3 0.7 kb\nq1 Q0 b 4 0.6 kb\n")
    dcg = 3 / math.log2(3) + 1 / math.log2(4) + 2 / math.log2(5)
    idcg = 3 + 2 / math.log2(3) + 2 / math.log2(4) + 1 / math.log2(5)
    # Playwright takes the system's file dialog over only while something listens for it: from the
    # start, or the first dialog may open before it does (and no chooser event comes).
    page.on("filechooser", lambda _chooser: None)
    page.goto(f"{app_url}/datasets?lang={lang}")
    expect(metric(page, 2)).to_have_text("250", timeout=30_000)  # the bundled sample's queries
    settled(page)
    tab_to(page, ".st-key-ds_sources summary")  # the folded data panel: open it
    page.keyboard.press("Enter")
    # A file that cannot be read first: its message stays, its uploader is a fresh one (the bytes
    # are let go), and the focus is back on it, to pick another file.
    bad = tmp_path / "bad.txt"
    bad.write_text("q1 0 a 3\nq1 0 b high\n")
    choose_file(page, ".st-key-ds_qrels_file", bad)
    expect(page.get_by_test_id("stAlert").filter(has_text="bad.txt").first).to_be_visible(timeout=30_000)
    focused(page, ".st-key-ds_qrels_file button")

    def from_the_focused_button(paths) -> None:
        with page.expect_file_chooser() as chooser:
            page.keyboard.press("Enter")
        chooser.value.set_files([str(p) for p in paths])

    upload(page, ".st-key-ds_qrels_file", qrels, choose=from_the_focused_button)
    expect(page.locator(".st-key-ds_qrels_file")).to_contain_text("qrels.txt")
    choose_file(page, ".st-key-ds_run_file", run, key="Space")
    # scored as soon as both are in (an upload's run took over 15 s twice on a loaded 2-core CI)
    expect(metric(page, 2)).to_have_text("1", timeout=45_000)
    expect(metric(page, 0)).to_have_text(f"{dcg / idcg:.3f}")
    # The uploaders are new ones now (the files' bytes are released): the focus is back in the
    # run's, where it was, and said what was loaded; Tab goes on to the results.
    focused(page, ".st-key-ds_run_file button")
    tab_to(page, ".st-key-ds_open button")
    page.keyboard.press("Enter")  # open q1 in the playground, under the page's formula
    headline = page.locator(".st-key-metric_row_pg [data-testid=stMetricValue]").first
    expect(headline).to_have_text(f"{dcg / idcg:.3f}", timeout=30_000)


def cells(rows) -> list[str]:
    """A table's rows (a locator), each as its cells' texts joined by " | "."""
    return [" | ".join(row.locator("td, [role=gridcell]").all_inner_texts()) for row in rows.all()]


def bars(scope) -> list[tuple[float, int]]:
    """The answers' bars in ``scope`` that a screen reader reads (views/room/bars.py), as (value,
    count): each bar's value is its label, its count the words after it ("0.500: 1 student")."""
    out = []
    for item in scope.locator(".ndcg-bars li:not([aria-hidden=true])").all():
        (value,) = re.findall(r"\d+(?:\.\d+)?", item.locator(".ndcg-bar-label").inner_text())
        said = item.locator(".ndcg-sr-only").text_content() or ""
        out.append((float(value), int(re.search(r"(\d+) student", said).group(1))))
    return out


def test_the_class_charts_say_what_they_show_and_their_numbers(page: Page, class_server):
    """Issue 28, part 4, for Class mode's charts: three students answer 0.5, 0.7 and the right NDCG.
    The lecturer's bars and the projector's are text: a name saying what they count, and each bar
    its value and its number of students, read by a screen reader. Three answers that mean three
    things (right, and two no mistake gives): a bar each, named by the value typed (issue 42)."""
    url, store = class_server
    code, key, number = open_question(store, definition())
    answers = [0.5, 0.7, round(NDCG, 3)]
    for name, answer in zip(("Ada", "Bo", "Cy"), answers, strict=True):
        store.submit(code, store.join(code, name).token, number, f"{answer:.3f}")

    def check(scope) -> None:
        figure = scope.locator("figure.ndcg-bars")
        expect(figure).to_have_attribute("aria-label", "3 answers, by answer", timeout=30_000)
        assert bars(scope) == [(answer, 1) for answer in sorted(answers)]

    page.context.add_cookies([{"name": f"ndcg_lecturer_{code}", "value": key, "url": url}])
    page.goto(f"{url}/class?room={code}")
    check(page.locator(".st-key-cl_chart"))
    page.goto(f"{url}/class?room={code}&present=1")
    check(page.locator(".st-key-cp_chart"))

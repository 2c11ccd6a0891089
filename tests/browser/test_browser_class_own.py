"""The lecturer's own questions (issue 26, part 4) in real headless Chromium.

A lecturer writes a multiple-choice question with a 30 s countdown, a phone (390×844) answers it,
and the question closes by itself: the real 30 s, once (the unit tests move the store's clock
instead). The lecturer's text is shown as text everywhere. Screenshots of the form at 1280×720 and
of the phone at 390×844, in English and in Chinese, go to artifacts/.
"""

from __future__ import annotations

import math
import os
import re
import time

import pytest
from browser_support import choose_option, streamlit_server
from playwright.sync_api import Browser, Page, expect

from ndcg_core.classroom import QuestionNotOpen, Store

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 720}
#: The prompt and options hold Markdown and HTML: the page must show them as typed.
PROMPT = "Which divisor leaves **position 2** undivided? <b>not bold</b> $x$"
OPTIONS = ["log2(i + 1)", "max(1, log2 i)", "1/i <i>"]
RIGHT = 1  # "max(1, log2 i)": log2(2) = 1, and max(1, 1) = 1, so position 2 is divided by 1


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    """The app on its own SQLite file, so the test can read what was stored."""
    data = tmp_path_factory.mktemp("class-own-data")
    old = os.environ.get("NDCG_DATA_DIR")
    os.environ["NDCG_DATA_DIR"] = str(data)
    try:
        with streamlit_server() as url:
            store = Store(f"sqlite:///{data / 'classroom.sqlite3'}")
            yield url, store
            store.dispose()
    finally:
        if old is None:
            os.environ.pop("NDCG_DATA_DIR", None)
        else:
            os.environ["NDCG_DATA_DIR"] = old


def create_room(page: Page, url: str, lang: str = "") -> str:
    page.goto(f"{url}/class{'?lang=' + lang if lang else ''}", timeout=90_000)
    page.locator(".st-key-cl_create button").click()
    expect(page).to_have_url(re.compile(r"/class\?room=\w{6}"), timeout=30_000)
    return re.search(r"room=(\w+)", page.evaluate("location.href")).group(1)


def lecturer_key(page: Page, code: str) -> str:
    """The room's key, from the cookie that keeps it in the lecturer's browser."""
    return next(c["value"] for c in page.context.cookies() if c["name"] == f"ndcg_lecturer_{code}")


def fill(page: Page, selector: str, text: str) -> None:
    box = page.locator(selector)
    box.fill(text)
    box.press("Tab")  # Streamlit takes a text box's value when it loses the focus
    expect(box).to_have_value(text)


def join(page: Page, url: str, code: str, name: str, lang: str = "") -> None:
    page.goto(f"{url}/class?room={code}{'&lang=' + lang if lang else ''}", timeout=90_000)
    page.locator(".st-key-cl_name input").fill(name)
    page.locator("[data-testid=stFormSubmitButton] button").click()
    expect(page.locator(".st-key-cl_name")).to_have_count(0, timeout=30_000)  # joined


def test_a_multiple_choice_question_with_a_30_s_countdown_closes_by_itself(
    browser: Browser, class_server, artifacts
):
    url, store = class_server
    lecturer = browser.new_context(viewport=LAPTOP).new_page()
    code = create_room(lecturer, url)
    lecturer.locator(".st-key-cl_source button", has_text="Multiple choice").click()
    fill(lecturer, ".st-key-cl_mc_prompt textarea", PROMPT)
    fill(lecturer, ".st-key-cl_mc_option_0 input", OPTIONS[0])
    # Asked with one option and no right answer marked: refused, naming the fields; nothing is lost.
    lecturer.locator(".st-key-cl_ask_button button").click()
    problem = lecturer.locator(".st-key-cl_ask_problem")
    expect(problem).to_contain_text("Options: fill in 2 to 6 options (filled in now: 1)")
    expect(lecturer.locator(".st-key-cl_mc_prompt textarea")).to_have_value(PROMPT)
    fill(lecturer, ".st-key-cl_mc_option_1 input", OPTIONS[1])
    fill(lecturer, ".st-key-cl_mc_option_2 input", OPTIONS[2])
    lecturer.locator(".st-key-cl_ask_button button").click()
    expect(problem).to_contain_text("Right answer: mark the option that is the right answer")
    lecturer.locator(".st-key-cl_mc_right label", has_text="Option 2").click()
    lecturer.locator(".st-key-cl_countdown button", has_text="30 s").click()
    expect(lecturer.locator(".st-key-cl_countdown button", has_text="30 s")).to_have_attribute(
        "aria-checked", "true"
    )
    lecturer.screenshot(path=str(artifacts / "class-own-choice-form-1280x720.png"), full_page=True)
    lecturer.locator(".st-key-cl_ask_button button").click()
    question = lecturer.locator(".st-key-cl_question")
    expect(question.locator(".st-key-cl_prompt")).to_have_text(PROMPT)  # as typed: no bold, no HTML
    expect(question.locator(".st-key-cl_options")).to_contain_text("3 · 1/i <i>")
    expect(question).to_contain_text("Countdown: 30 s, from when you open it for answers.")

    phone = browser.new_context(viewport=PHONE).new_page()
    join(phone, url, code, "Ana")
    lecturer.locator(".st-key-cl_open button").click()
    opened = time.monotonic()
    expect(lecturer.locator(".st-key-cl_seconds_left [data-testid=stMetricValue]")).to_have_text(
        re.compile(r"^(30|29|28|27|26|25)$")
    )
    expect(question.locator(".st-key-cl_seconds")).to_contain_text(re.compile(r"Closes in \d+ seconds"))
    lecturer.screenshot(path=str(artifacts / "class-own-choice-lecturer-1280x720.png"))
    card = phone.locator(".st-key-cl_student_question")
    expect(card.locator(".st-key-cl_prompt")).to_have_text(PROMPT, timeout=30_000)
    seconds = phone.locator(".st-key-cl_seconds")
    expect(seconds).to_contain_text(re.compile(r"Closes in \d+ seconds"))
    first = int(re.search(r"\d+", seconds.inner_text()).group())
    assert 0 < first <= 30
    expect(seconds).not_to_contain_text(f"Closes in {first} seconds", timeout=5_000)  # it counts down
    radio = card.get_by_role("radiogroup", name="Your answer")
    expect(radio).to_contain_text("1/i <i>")  # the options as typed too
    radio.get_by_text(OPTIONS[RIGHT], exact=True).click()
    card.get_by_role("button", name="Send answer").click()
    expect(card.locator(".st-key-cl_saved")).to_contain_text(f"Saved: {OPTIONS[RIGHT]}")
    phone.screenshot(path=str(artifacts / "class-own-choice-phone-390x844.png"))

    # Nobody closes it: 30 s after it opened, the phone, the lecturer and the store say it is closed.
    expect(card).to_contain_text("Answers are closed", timeout=45_000)
    closed_after = time.monotonic() - opened
    assert 28 <= closed_after <= 45, closed_after
    # the lecturer's page redraws its question block when it closes: up to 30 s on a loaded CI
    expect(lecturer.locator(".st-key-cl_question")).to_contain_text("Closed", timeout=30_000)
    expect(lecturer.locator(".st-key-cl_open button")).to_be_enabled()  # it can be opened again
    expect(lecturer.locator(".st-key-cl_close button")).to_be_disabled()
    key = lecturer_key(lecturer, code)
    assert store.room(code).current.status == "closed"
    with pytest.raises(QuestionNotOpen):
        store.submit(code, store.join(code, "Late").token, 1, RIGHT)
    lecturer.locator(".st-key-cl_reveal button").click()
    expect(lecturer.locator(".st-key-cl_correct")).to_contain_text("100%")
    expect(card.locator(".st-key-cl_feedback")).to_contain_text(f"Right: {OPTIONS[RIGHT]}.", timeout=30_000)
    phone.screenshot(path=str(artifacts / "class-own-choice-phone-feedback-390x844.png"))
    assert [(a.name, a.correct) for a in store.answers(code, key, 1)] == [("Ana", True)]

    projector = browser.new_context(viewport=LAPTOP).new_page()
    projector.goto(f"{url}/class?room={code}&key={key}&present=1", timeout=90_000)
    expect(projector.locator(".st-key-cp_prompt")).to_have_text(PROMPT, timeout=30_000)
    expect(projector.locator(".st-key-cp_data")).to_contain_text("2 · max(1, log2 i)")
    expect(projector.locator(".st-key-cp_numbers")).to_contain_text("100%")
    projector.wait_for_timeout(1500)  # the bars draw
    projector.screenshot(path=str(artifacts / "class-own-choice-projector-1280x720.png"))
    for page in (lecturer, phone, projector):
        page.context.close()


def test_the_form_and_the_phone_in_chinese(browser: Browser, class_server, artifacts):
    """The lecturer's own list in Chinese: the form at 1280×720 and a phone at 390×844 answering a
    step-table cell, with the countdown running (not waited for: the test above waits once)."""
    url, store = class_server
    lecturer = browser.new_context(viewport=LAPTOP).new_page()
    code = create_room(lecturer, url, "zh")
    lecturer.locator(".st-key-cl_source button", has_text="你自己的列表").click()
    fill(lecturer, ".st-key-cl_grades input", "3, 2, x")
    lecturer.locator(".st-key-cl_ask_button button").click()
    expect(lecturer.locator(".st-key-cl_ask_problem")).to_contain_text("等级")  # the field, named in Chinese
    fill(lecturer, ".st-key-cl_grades input", "3, 2, 3, 0, 1, 2")
    lecturer.locator(".st-key-cl_discount").get_by_text("max(1, log2 i)").click()
    lecturer.locator(".st-key-cl_countdown button", has_text="90").click()
    choose_option(lecturer, ".st-key-cl_ask", "步骤表的一个单元格")  # one cell of the step table
    choose_option(lecturer, ".st-key-cl_cell", "折损增益")  # the discounted gain
    choose_option(lecturer, ".st-key-cl_position", "3")
    lecturer.screenshot(path=str(artifacts / "class-own-list-form-zh-1280x720.png"), full_page=True)
    lecturer.locator(".st-key-cl_ask_button button").click()
    expect(lecturer.locator(".st-key-cl_question .st-key-cl_prompt")).to_contain_text("D3")
    lecturer.locator(".st-key-cl_open button").click()
    expect(lecturer.locator(".st-key-cl_seconds_left")).to_be_visible()

    phone = browser.new_context(viewport=PHONE).new_page()
    join(phone, url, code, "小明", "zh")
    card = phone.locator(".st-key-cl_student_question")
    expect(card.locator(".st-key-cl_seconds")).to_contain_text("秒")
    box = card.locator(".st-key-cl_answer_1 input")
    box.fill(f"{3 / math.log2(4):.2f}")  # log2(i + 1) where max(1, log2(i)) was asked
    card.locator("button").last.click()
    expect(card.locator(".st-key-cl_saved")).to_be_visible(timeout=30_000)
    phone.screenshot(path=str(artifacts / "class-own-list-phone-zh-390x844.png"))
    key = lecturer_key(lecturer, code)
    (answer,) = store.answers(code, key, 1)
    assert not answer.correct and answer.mistakes == ("log2_i_plus_1",)
    for page in (lecturer, phone):
        page.context.close()


def test_another_device_runs_the_room_through_a_one_time_link(browser: Browser, class_server, artifacts):
    """The lecturer's page showed a link holding the lecturer key, one click away from a projector.
    Now "Run this room from another device" makes a link whose code works once: the second device
    runs the room (a reload too: its cookie), its address bar loses the code, a third is refused."""
    url, _store = class_server
    lecturer = browser.new_context(viewport=LAPTOP).new_page()
    code = create_room(lecturer, url)
    key = lecturer_key(lecturer, code)
    lecturer.get_by_text("Run this room from another device").click()
    lecturer.locator(".st-key-cl_make_one_time button").click()
    made = lecturer.locator(".st-key-cl_lecturer_link")
    expect(made).to_contain_text("lecturer=", timeout=30_000)
    link = made.inner_text().strip()
    assert key not in link and key not in lecturer.content()
    made.scroll_into_view_if_needed()
    lecturer.screenshot(path=str(artifacts / "class-one-time-link-1280x720.png"))
    # The room code fits its line at 1280x720 (beside the QR code it ran into the QR code).
    fits = "p => p.scrollWidth <= p.clientWidth && p.getBoundingClientRect().right <= innerWidth"
    assert lecturer.locator(".st-key-cl_code p").evaluate(fits)

    other = browser.new_context(viewport=LAPTOP).new_page()
    other.goto(link, timeout=90_000)
    expect(other.locator(".st-key-cl_present button").first).to_be_visible(timeout=30_000)  # it runs the room
    expect(other).not_to_have_url(re.compile("lecturer="), timeout=30_000)
    assert lecturer_key(other, code) == key
    other.reload()
    expect(other.locator(".st-key-cl_present button").first).to_be_visible(timeout=30_000)

    third = browser.new_context(viewport=PHONE).new_page()
    third.goto(link, timeout=90_000)
    expect(third.get_by_text("one-time lecturer code cannot be used")).to_be_visible(timeout=30_000)
    expect(third.locator(".st-key-cl_name")).to_be_visible()  # the student page
    assert not [c for c in third.context.cookies() if c["name"] == f"ndcg_lecturer_{code}"]
    third.screenshot(path=str(artifacts / "class-one-time-link-used-390x844.png"), full_page=True)

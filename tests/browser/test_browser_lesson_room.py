"""Issue 26, part 1 in a browser: the presenter walks a linked lesson from step 1 to 7 while five
phones (390×844) answer each step's question and the projector's results screen follows the room.

Expected numbers are closed forms on Wikipedia's D1..D6 (3, 2, 3, 0, 1, 2 under rel1 + Σ rel_i /
log2 i, the lesson's default list): each step gets three right answers and two that a named mistake
explains, so the room is 60% right every time.
"""

from __future__ import annotations

import math
import re

import pytest
from browser_support import assert_fits
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

WIKI = (3, 2, 3, 0, 1, 2)
DCG = sum(g / max(1.0, math.log2(i)) for i, g in enumerate(WIKI, start=1))
IDCG = sum(g / max(1.0, math.log2(i)) for i, g in enumerate(sorted(WIKI, reverse=True), start=1))
PHONE = {"width": 390, "height": 844}

#: Per asking step: the right answer (typed, or the choice's label), a wrong one a mistake explains,
#: and the number the projector must not show before the reveal (None for a choice).
STEPS = {
    2: ("3", "7", None),  # D1's gain, grade 3; 2^3 − 1 = 7 is the exponential gain
    3: (f"{math.log2(3):.3f}", f"{math.log2(4):.3f}", None),  # max(1, log2 3); log2(3 + 1)
    4: (f"{3 / math.log2(3):.3f}", f"{3 / math.log2(4):.3f}", f"{3 / math.log2(3):.3f}"),
    5: ("3", "2", None),  # the ideal ordering's first grade
    6: (f"{DCG / IDCG:.3f}", f"{IDCG / DCG:.3f}", f"{DCG / IDCG:.3f}"),  # 0.932; IDCG ÷ DCG swapped
    7: ("No, nothing at all", "Yes, with a smaller weight", None),
}


def answer(phone: Page, step: int, text: str) -> None:
    phone.bring_to_front()  # each student looks at their own phone (a hidden tab's timers are throttled)
    question = phone.locator(".st-key-cl_student_question")
    expect(question).to_contain_text("Your answer", timeout=60_000)
    if step in (5, 7):
        choice = question.locator("[data-testid=stRadio] label").filter(
            has_text=re.compile(rf"^{re.escape(text)}$")
        )
        choice.click()
        expect(phone.get_by_role("radio", name=text, exact=True)).to_be_checked()
    else:
        box = question.locator("input[type=text]")
        box.fill(text)
        expect(box).to_have_value(text)
    phone.get_by_role("button", name="Send answer").click()
    expect(phone.locator(".st-key-cl_saved")).to_contain_text("Saved", timeout=30_000)


def test_a_linked_lesson_from_step_1_to_7_with_five_phones_and_the_projector(
    browser: Browser, class_server, artifacts
):
    url, store = class_server
    code, key = store.create_room()
    presenter = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    # The lecturer's link names Wikipedia's list and its original discount (STEPS' numbers).
    presenter.goto(
        f"{url}/learn?step=1&present=1&rel=3,2,3,0,1,2&discount=jarvelin&room={code}&key={key}",
        timeout=90_000,
    )
    expect(presenter).not_to_have_url(re.compile("key="), timeout=30_000)  # checked, then taken off
    assert f"room={code}" in presenter.url
    qr = presenter.locator(".st-key-learn_room_join img")
    expect(qr).to_have_attribute("alt", re.compile(rf"/class\?room={code}&tag=\w{{6}}$"))

    projector = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    projector.goto(f"{url}/class?room={code}&key={key}&present=1", timeout=90_000)
    expect(projector.locator(".st-key-cp_code")).to_contain_text(code, timeout=30_000)

    phones = []
    for name in ("Ana", "Bo", "Chen", "Dee", "Eli"):
        phone = browser.new_context(viewport=PHONE).new_page()
        phone.goto(f"{url}/class?room={code}", timeout=90_000)
        phone.get_by_label("Your name").fill(name)
        phone.get_by_role("button", name="Join", exact=True).click()
        expect(phone.get_by_text(f"you are {name}")).to_be_visible(timeout=30_000)
        phones.append(phone)

    line = presenter.locator(".learn-room-line")
    for step in range(2, 8):
        presenter.bring_to_front()
        presenter.keyboard.press("PageDown")  # the clicker
        expect(presenter.locator(".learn-badge")).to_have_text(f"{step} / 7")
        expect(line).to_contain_text("Answered 0", timeout=30_000)
        right, wrong, hidden = STEPS[step]
        for i, phone in enumerate(phones):
            answer(phone, step, right if i < 3 else wrong)
        presenter.bring_to_front()
        expect(line).to_contain_text("Answered 5", timeout=30_000)
        if hidden is not None:  # until revealed, the asked number is nowhere on the projector
            assert hidden not in presenter.locator("[data-testid=stMain]").inner_text()
        if projector is not None:
            expect(projector.locator(".st-key-cp_numbers")).to_contain_text("5", timeout=30_000)
        # Reveal: the question closes, the room's results show (key A is walked in test_browser_learn).
        presenter.locator(".st-key-learn_reveal").get_by_role(
            "button", name=re.compile("Reveal the answer")
        ).click()
        expect(line).to_contain_text("Right 60%", timeout=30_000)
        assert store.room(code).current.status == "revealed"
        if step == 4:
            expect(presenter.locator(".learn-room-mistake").first).to_contain_text("40% of the answers")
            for width, height in ((1280, 720), (1920, 1080)):
                presenter.set_viewport_size({"width": width, "height": height})
                presenter.wait_for_timeout(1000)  # the chart redraws at the new width
                presenter.screenshot(path=str(artifacts / f"lesson-room-step4-{width}x{height}.png"))
                assert_fits(presenter)
            presenter.set_viewport_size({"width": 1280, "height": 720})
            projector.bring_to_front()
            expect(projector.locator(".st-key-cp_numbers")).to_contain_text("60%", timeout=30_000)
            projector.screenshot(path=str(artifacts / "lesson-room-projector-1920x1080.png"))
            projector.context.close()  # seven pages polling one server on two cores: one fewer
            projector = None
        first = phones[0]
        first.bring_to_front()
        expect(first.locator(".st-key-cl_feedback")).to_contain_text("Right", timeout=60_000)
        last = phones[-1]
        last.bring_to_front()
        expect(last.locator(".st-key-cl_feedback")).to_contain_text("Not", timeout=60_000)
        if step == 4:
            first.screenshot(path=str(artifacts / "lesson-room-phone-step4-390x844.png"), full_page=True)
            expect(last.locator(".st-key-cl_feedback")).to_contain_text("log2(i + 1)")

    questions = store.questions(code, key)
    assert [q.definition["step"] for q in questions] == [2, 3, 4, 5, 6, 7]
    for q in questions:
        stored = store.answers(code, key, q.number)
        assert len(stored) == 5 and sum(a.correct for a in stored) == 3, q.definition["step"]

"""Issue 28: the main tasks by keyboard alone (Tab, Enter, Space and the arrow keys; no click), in
English and Chinese: step through Learn (after Check, Skip or Next the focus lands on the next
thing to do), answer Practice exercises, reorder the Playground's list.

Expected numbers are closed forms (math.log2) on the lists' grades.
"""

from __future__ import annotations

import math

import pytest
from browser_support import focused, settled, tab_to
from playwright.sync_api import Page, expect

from ndcg_core.teaching.practice import make_exercise

pytestmark = pytest.mark.browser

RIGHT = {"en": "Right", "zh": "答对了"}  # how a right answer's feedback starts


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_learn_step_by_step_by_keyboard(page: Page, app_url, lang):
    """Wikipedia's D1..D6 (3, 2, 3, 0, 1, 2), linear gain: step 2 asks D1's gain (3)."""
    page.goto(f"{app_url}/learn?step=1&lang={lang}")
    expect(page.locator(".st-key-learn_step_no")).to_be_visible(timeout=30_000)
    settled(page)
    tab_to(page, ".st-key-learn_next button")
    page.keyboard.press("Enter")  # to step 2, which asks a prediction: the focus is in its box
    focused(page, ".st-key-learn_guess_2 input")
    page.keyboard.type("3")
    page.keyboard.press("Tab")  # to Check
    focused(page, ".st-key-learn_check button")
    page.keyboard.press("Enter")
    expect(page.locator(".st-key-learn_feedback")).to_contain_text(RIGHT[lang])
    focused(page, ".st-key-learn_next button")  # Check is gone: the next thing to do is Next
    page.keyboard.press("Enter")
    focused(page, ".st-key-learn_guess_3 input")  # step 3 asks too
    assert tab_to(page, ".st-key-learn_skip button", limit=3) == 2  # past Check, to Skip
    page.keyboard.press("Space")
    expect(page.locator(".st-key-learn_feedback")).to_be_visible()
    focused(page, ".st-key-learn_next button")
    expect(page.locator(".st-key-learn_step_no")).to_contain_text("3")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_learns_last_question_is_a_choice_made_with_the_arrow_keys(page: Page, app_url, lang):
    """Step 7 asks whether rows below k add anything: the second choice ("no") is right."""
    page.goto(f"{app_url}/learn?step=7&lang={lang}")
    expect(page.locator(".st-key-learn_predict")).to_be_visible(timeout=30_000)
    settled(page)
    tab_to(page, ".st-key-learn_choice_7 input")
    page.keyboard.press("ArrowDown")  # to the second choice, and chooses it
    radios = page.locator(".st-key-learn_choice_7 input[type=radio]")
    expect(radios.nth(1)).to_be_checked()
    tab_to(page, ".st-key-learn_check button", limit=3)
    page.keyboard.press("Space")
    expect(page.locator(".st-key-learn_feedback [data-testid=stAlertContentSuccess]")).to_be_visible()
    focused(page, ".st-key-learn_prev button")  # the last step: Next is disabled


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_answer_a_practice_exercise_by_keyboard(page: Page, app_url, lang):
    seed = 7
    e = make_exercise(seed, 1, "metric")
    grades, ideal = list(e.grades), sorted(e.grades, reverse=True)
    assert e.formula.discount == "log" and e.formula.k is None and e.scores is None
    dcg = sum(g / math.log2(i + 1) for i, g in enumerate(grades, start=1))
    idcg = sum(g / math.log2(i + 1) for i, g in enumerate(ideal, start=1))
    right = {"dcg": dcg, "idcg": idcg, "ndcg": dcg / idcg}[e.question.quantity]
    page.goto(f"{app_url}/practice?seed={seed}&kind=metric&lang={lang}")
    expect(page.locator(".st-key-pr_exercise")).to_be_visible(timeout=30_000)
    settled(page)
    tab_to(page, f".st-key-pr_answer_{e.key} input")
    page.keyboard.type(f"{right:.3f}")
    page.keyboard.press("Enter")  # submits the form: Check
    expect(page.locator(".st-key-pr_feedback [data-testid=stAlertContentSuccess]")).to_be_visible()
    expect(page.locator(".st-key-pr_feedback")).to_contain_text(RIGHT[lang])


def test_answer_a_choice_exercise_with_the_arrow_keys(page: Page, app_url):
    e = make_exercise(7, 1, "formula")
    assert e.answer_type == "choice" and len(e.choices) >= 2
    page.goto(f"{app_url}/practice?seed=7&kind=formula")
    expect(page.locator(".st-key-pr_exercise")).to_be_visible(timeout=30_000)
    settled(page)
    radios = page.locator(f".st-key-pr_choice_{e.key} input[type=radio]")
    tab_to(page, f".st-key-pr_choice_{e.key} input")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(radios.nth(2 % len(e.choices))).to_be_checked()
    tab_to(page, f".st-key-pr_check_{e.key} button", limit=3)
    page.keyboard.press("Space")
    verdict = page.locator(".st-key-pr_feedback [data-testid=stAlert]")
    expect(verdict).to_be_visible()  # right or wrong, the choice was judged
    expect(page.locator("#ndcg-live")).not_to_have_text("")  # and announced


def ndcg(grades: list[int]) -> float:
    ideal = sorted(grades, reverse=True)
    dcg = sum(g / math.log2(i + 1) for i, g in enumerate(grades, start=1))
    return dcg / sum(g / math.log2(i + 1) for i, g in enumerate(ideal, start=1))


def headline(page: Page):
    return page.locator(".st-key-metric_row_pg [data-testid=stMetricValue]").first


def move_up(page: Page, said, before: str, after: str) -> None:
    """Press the up arrow in a keyboard drag until the component says ``after``. An arrow the
    component missed (in a CI rehearsal, once: it stayed ``before``) is pressed again, as a
    person would; one it took is never pressed twice."""
    for _attempt in range(3):
        page.keyboard.press("ArrowUp")
        try:
            expect(said).not_to_contain_text(before, timeout=3_000)
            break
        except AssertionError:
            continue
    expect(said).to_contain_text(after)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_reorder_the_playground_by_keyboard(page: Page, app_url, lang):
    """Grades 3, 2, 1: Move down twice takes D1 to the bottom (2, 3, 1, then 2, 1, 3); then, in the
    drag list, Space picks D1 up, the up arrow moves it twice, Space drops it: back to 3, 2, 1."""
    page.goto(f"{app_url}/?rel=3,2,1&lang={lang}")
    expect(headline(page)).to_have_text(f"{ndcg([3, 2, 1]):.3f}", timeout=30_000)
    settled(page)
    tab_to(page, ".st-key-move_down button")  # the chosen item is the first: D1
    page.keyboard.press("Space")
    expect(headline(page)).to_have_text(f"{ndcg([2, 3, 1]):.3f}")
    focused(page, ".st-key-move_down button")  # the focus stays on the button: press again
    page.keyboard.press("Enter")
    expect(headline(page)).to_have_text(f"{ndcg([2, 1, 3]):.3f}")
    settled(page)
    frame = page.frame_locator('iframe[src*="/streamlit_sortables.sortable_items/"]').last
    expect(frame.locator("li").last).to_contain_text("D1")
    tab_to(page, "li.sortable-item", back=True)  # from the buttons below, back into the list: D1
    picked = page.evaluate("() => document.activeElement.contentDocument.activeElement.textContent")
    assert picked.startswith("D1"), picked
    # The component's own announcements (dnd-kit, in English) say where the item is: wait for each.
    said = frame.locator("[id^=DndLiveRegion]")
    page.keyboard.press("Space")
    expect(frame.locator("li.dragging")).to_have_count(1)
    # dnd-kit says D1 is over its own place once the drag has started; in CI an arrow pressed
    # before that was lost, and D1 stayed "over droppable area D1" (the test raced the component)
    expect(said).to_contain_text("over droppable area D1")
    move_up(page, said, "over droppable area D1", "over droppable area D3")
    move_up(page, said, "over droppable area D3", "over droppable area D2")
    page.keyboard.press("Space")
    expect(said).to_contain_text("dropped")
    expect(headline(page)).to_have_text(f"{ndcg([3, 2, 1]):.3f}")
    expect(page.locator("#ndcg-live")).to_contain_text(f"{ndcg([3, 2, 1]):.3f}")

"""The Practice page through AppTest: its widgets bound to its model, and its link.

What a click or an answer does is the model's (tests/teaching/test_practice_session.py); here one
journey checks that the page draws the model's view and sends each widget to the model, plus the
link: opened, kept in step, followed on Back, and its complaints shown as text.
"""

from __future__ import annotations

import math

from apptest_support import ok, shown
from streamlit.testing.v1 import AppTest

from ndcg_core.teaching.practice import KINDS, kind_for, make_exercise
from views.ui import keys
from views.ui.markup import md_escape

APP = str(__import__("pathlib").Path(__file__).resolve().parents[2] / "app.py")


def practice(params: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("views/practice.py")
    for key, value in (params or {}).items():
        at.query_params[key] = value
    return at.run()


def texts(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def answer(at: AppTest, e, text: str) -> AppTest:
    at.text_input(key=f"pr_answer_{e.key}").input(text)
    return at.button(key=f"FormSubmitter:pr_form_{e.key}-Check").click().run()


def messages(at: AppTest) -> str:
    return "\n".join(shown(at, ("success", "error", "warning", "info")))


def dcg(grades):
    return sum(g / math.log2(i + 1) for i, g in enumerate(grades, start=1))


def test_a_journey_through_the_page_answers_hints_kinds_and_the_link():
    at = practice({"seed": "7"})
    ok(at)
    e = make_exercise(7, 1)
    assert "**Exercise 1**" in texts(at) and md_escape(e.prompt) in texts(at)
    assert at.query_params["seed"] == "7" and at.query_params["ex"] == "1"
    # a mistake: named, with the student's way, no right value yet
    log2_i = sum(g / max(1.0, math.log2(i)) for i, g in enumerate(e.grades, start=1))
    jk_ideal = sum(g / max(1.0, math.log2(i)) for i, g in enumerate(sorted(e.grades, reverse=True), start=1))
    wrong = log2_i if e.question.quantity == "dcg" else log2_i / jk_ideal
    right = dcg(e.grades) / (dcg(sorted(e.grades, reverse=True)) if e.question.quantity == "ndcg" else 1)
    at = answer(at, e, f"{wrong:.3f}")
    ok(at)
    assert md_escape("divided by max(1, log2(i)), leaving position 2 undiscounted too") in messages(at)
    frames = [d.value for d in at.dataframe if "Step" in d.value.columns]
    assert len(frames) == 1 and not at.latex
    # Show me: the right value and the formula, and no more Show me
    at = at.button(key=f"pr_show_{e.key}").click().run()
    ok(at)
    assert f"The right value is {right:.3f}".replace(".", "\\.") in messages(at) and at.latex
    assert not [b for b in at.button if b.key == f"pr_show_{e.key}"]
    # a hint, then Next and a kind: in the link
    at = at.button(key=f"pr_hint_{e.key}").click().run()
    assert "**Hint 1.**" in texts(at)
    at = at.button(key="pr_next").click().run()
    assert at.query_params["ex"] == "2" and f"· {KINDS[kind_for(7, 2)]}" in texts(at)
    at = at.selectbox(key=keys.PR_W_KIND).set_value("cell").run()
    ok(at)
    assert at.query_params["kind"] == "cell" and KINDS["cell"] in texts(at)
    # the browser's Back to an earlier exercise is followed
    at.query_params["ex"] = "1"
    at.query_params.pop("kind", None)
    at = at.run()
    ok(at)
    assert "**Exercise 1**" in texts(at) and at.query_params["ex"] == "1"
    # the progress survives a page switch
    progress = at.session_state[keys.PR_SESSION].progress
    assert sum(progress.attempts.values()) == 1
    at.switch_page("views/playground.py").run()
    at.switch_page("views/practice.py").run()
    ok(at)
    assert at.session_state[keys.PR_SESSION].progress == progress


def test_a_choice_and_a_drag_are_sent_to_the_model_by_their_widgets():
    number = next(n for n in range(1, 50) if kind_for(7, n) == "winner")
    at = practice({"seed": "7", "ex": str(number)})
    e = make_exercise(7, number)
    at = at.radio(key=f"pr_choice_{e.key}").set_value(e.choices[e.answer_choice]).run()
    at = at.button(key=f"pr_check_{e.key}").click().run()
    ok(at)
    assert "Right" in messages(at)
    number = next(n for n in range(1, 50) if kind_for(7, n) == "drag")
    at = practice({"seed": "7", "ex": str(number)})
    e = make_exercise(7, number)
    at = at.button(key=f"pr_check_{e.key}").click().run()
    assert "Not yet" in messages(at)


def test_next_and_previous_move_from_where_the_session_is_not_from_where_they_were_drawn():
    """A second press of Next can reach the server while the first one's run is still drawing,
    before it drew the buttons again (a double press, a slow hall network; seen in a browser test
    under load): the press then carried the number of the exercise drawn before, 1 -> 2 -> 2. Here
    the session is moved to exercise 2 behind the drawn buttons, as the first press leaves it."""
    at = practice({"seed": "7"})
    at.session_state[keys.PR_SESSION] = at.session_state[keys.PR_SESSION].step(1)  # the first press ran
    at = at.button(key="pr_next").click().run()
    ok(at)
    assert at.session_state[keys.PR_SESSION].number == 3 and at.query_params["ex"] == "3"
    at.session_state[keys.PR_SESSION] = at.session_state[keys.PR_SESSION].step(-1)
    at = at.button(key="pr_prev").click().run()
    assert at.session_state[keys.PR_SESSION].number == 1 and "**Exercise 1**" in texts(at)


def test_a_bad_link_is_named_as_text_falls_back_and_is_retired_by_the_first_move():
    at = practice({"seed": "abc", "ex": "0", "level": "9", "kind": "**bold**"})
    ok(at)
    warned = " ".join(w.value for w in at.warning)
    for name in ("'seed'", "'ex'", "'level'"):
        assert name in warned
    assert "\\*\\*bold\\*\\*" in warned  # shown as text, not Markdown
    s = at.session_state[keys.PR_SESSION]
    assert (s.number, s.level) == (1, 1) and at.query_params["seed"] == str(s.seed)
    at = at.button(key="pr_next").click().run()
    assert not at.warning

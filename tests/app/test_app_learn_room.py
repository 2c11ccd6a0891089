"""Issue 26, part 1 through AppTest: the presenter's lesson drives a Class room.

``/learn?present=1&room=CODE&key=SECRET`` (or "Start a room") links the lesson to a room; each step
that asks the room opens its question on the phones, "Answered N" counts live, and the reveal
closes the question, shows the room's results on the projector and the feedback on the phones.
Expected numbers are closed forms on Wikipedia's D1..D6 (the default list: 3, 2, 3, 0, 1, 2 under
rel1 + Σ rel_i / log2 i).
"""

from __future__ import annotations

import math

import pytest
import streamlit as st
from apptest_support import ok, texts
from room_support import cookies, data_dir, db, open_page, params, wanted_cookies  # noqa: F401 (fixtures)
from streamlit.testing.v1 import AppTest

from views.room.common import lecturer_cookie
from views.ui import keys

pytestmark = pytest.mark.app

DG3 = 3 / math.log2(3)  # D3's discounted gain: the question of step 4


def lesson(params: dict[str, str]) -> AppTest:
    # The lecturer's link names Wikipedia's list and its original discount (the lesson's own opening
    # is log2(i + 1)).
    return open_page(
        "views/learn.py", {"present": "1", "rel": "3,2,3,0,1,2", "discount": "jarvelin", **params}
    )


def html(at: AppTest) -> str:
    return "\n".join(str(h.value) for h in at.get("html"))


def step(at: AppTest, key: str) -> AppTest:
    return ok(at.button(key=key).click().run())


def test_a_key_link_drives_the_room_and_leaves_the_address_bar_without_the_key(data_dir):
    store = db(data_dir)
    code, key = store.create_room()
    at = lesson({"step": "4", "room": code, "key": key})
    assert params(at)["room"] == code and "key" not in params(at)
    assert wanted_cookies(at)[lecturer_cookie(code)] == key
    assert key not in texts(at) + html(at)
    (question,) = store.questions(code, key)
    assert (question.definition["source"], question.definition["step"], question.status) == (
        "lesson",
        4,
        "open",
    )
    assert store.room(code).current.number == question.number
    assert "Answered <b>0</b>" in html(at)
    assert f"{DG3:.3f}" not in texts(at) + html(at)  # the asked number reads "?" until revealed


def test_the_browser_that_runs_the_room_links_the_lesson_with_no_key_in_the_link(data_dir, cookies):
    """docs/app.md: ``/learn?present=1&room=CODE`` in the browser that runs room CODE (its Class
    cookie) drives the room; the same link elsewhere drives nothing."""
    store = db(data_dir)
    code, key = store.create_room()
    cookies[lecturer_cookie(code)] = key
    at = lesson({"step": "4", "room": code})
    (question,) = store.questions(code, key)
    assert (question.definition["step"], question.status) == (4, "open")
    assert "Answered <b>0</b>" in html(at)
    cookies.clear()
    elsewhere = lesson({"step": "4", "room": code})
    assert "Answered" not in html(elsewhere) and len(store.questions(code, key)) == 1


def test_the_room_answers_and_the_reveal_shows_how_it_did(data_dir):
    store = db(data_dir)
    code, key = store.create_room()
    at = lesson({"step": "4", "room": code, "key": key})
    number = store.room(code).current.number
    for name, typed in (("Ada", f"{DG3:.3f}"), ("Bo", "1.5"), ("Cy", "1.89")):
        store.submit(code, store.join(code, name).token, number, typed)
    at = step(at, "learn_reveal")
    assert store.room(code).current.status == "revealed"  # answers closed, phones get their feedback
    shown = html(at)
    assert "Answered <b>3</b>" in shown and "Right <b>67%</b>" in shown
    # 3 / log2(3 + 1) = 1.5: the divisor log2(i + 1) where max(1, log2 i) was asked.
    assert "33% of the answers: divided by log2(i + 1)" in shown
    assert len(at.get("plotly_chart")) == 1  # the answers' histogram, in the step chart's place


def test_each_step_asks_once_and_going_back_shows_its_question_again(data_dir):
    store = db(data_dir)
    code, key = store.create_room()
    at = lesson({"step": "1", "room": code, "key": key})
    assert store.questions(code, key) == []  # step 1 asks nothing: it shows how to join
    assert f"/class?room={code}" in texts(at)
    for expected in (2, 3, 4):
        at = step(at, "learn_next")
        assert [q.definition["step"] for q in store.questions(code, key)][-1] == expected
    at = step(at, "learn_prev")
    assert len(store.questions(code, key)) == 3  # step 3's question again, not a new one
    assert store.room(code).current.definition["step"] == 3


def test_a_revealed_step_keeps_its_question_when_k_changes(data_dir):
    store = db(data_dir)
    code, key = store.create_room()
    at = step(lesson({"step": "7", "room": code, "key": key}), "learn_reveal")
    at = step(at, "learn_k_down")
    assert len(store.questions(code, key)) == 1
    assert store.room(code).current.status == "revealed"


def test_start_a_room_from_presenter_mode(data_dir):
    at = step(lesson({"step": "2"}), "learn_room_start")
    code = params(at)["room"]
    key = at.session_state[keys.CL_KEYS][code]
    (question,) = db(data_dir).questions(code, key)
    assert question.definition["step"] == 2 and question.status == "open"


@pytest.mark.parametrize("wrong", ["key", "room"])
def test_a_link_this_browser_cannot_run_says_so_once_and_the_lesson_goes_on(data_dir, wrong):
    store = db(data_dir)
    code, key = store.create_room()
    link = {"room": code, "key": key[::-1]} if wrong == "key" else {"room": "ZZZZZZ", "key": key}
    at = lesson({"step": "4", **link})
    assert "This browser does not run room" in texts(at)
    assert store.questions(code, key) == []
    assert "key" not in params(at) and "room" not in params(at)
    assert "?" in html(at)  # the lesson itself still hides the asked number


def test_a_list_the_room_cannot_be_asked_about_is_not_sent_and_the_presenter_says_why(data_dir):
    """A gain table: Practice's formulas cannot state it, so the room would be judged by other
    numbers than the projector shows. Nothing is sent; the reason shows, in the page's language."""
    store = db(data_dir)
    code, key = store.create_room()
    at = lesson({"step": "2", "room": code, "key": key, "gain": "0:0,1:5,2:6,3:9", "lang": "zh"})
    assert "这一步的问题没有发到课堂" in texts(at)
    assert store.questions(code, key) == []


def test_a_database_that_goes_away_mid_lesson_is_a_message_and_the_lesson_goes_on(data_dir, monkeypatch):
    store = db(data_dir)
    code, key = store.create_room()
    at = lesson({"step": "2", "room": code, "key": key})
    monkeypatch.setenv("NDCG_DATABASE_URL", "postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=2")
    st.cache_resource.clear()  # the page's store is now one that cannot connect
    at = step(at, "learn_next")
    assert "The class database cannot be reached" in texts(at)
    assert "?" in html(at) and "3 / 7" in html(at)  # the lesson itself goes on
    at = step(at, "learn_reveal")  # revealing on the projector still works
    assert "Hide the answer" in [b.label for b in at.button]

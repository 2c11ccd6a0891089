"""A student's path (issue 27, parts 1 and 4) through AppTest: the start panel of a first visit,
"where next" at the end of every page, and progress saved under a server-issued learner token.

Each AppTest is one browser session; a new one with the same link is a reload, and one with the
learner cookie (views.ui.learner.browser_cookies, patched: AppTest sends no cookies) is the
browser opened again. The database is this test's own (tests/app/conftest.py).
"""

from __future__ import annotations

import pathlib

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from ndcg_core.classroom.progress import ProgressStore, valid_token
from ndcg_core.classroom.store import database_url
from ndcg_core.teaching.practice import make_exercise
from views.ui import keys, learner

APP = str(pathlib.Path(__file__).resolve().parents[2] / "app.py")
#: Practice's exercise from the issue: a step-table cell whose log2(i) mistake gives 3.
CELL = {"seed": "11", "ex": "2", "level": "2", "kind": "cell"}
ALL_PAGES = {"Learn", "Practice", "Playground", "Explore", "Data sets", "Class"}


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_app(params: dict[str, str] | None = None, page: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in (params or {}).items():
        at.query_params[key] = value
    if page is not None:  # AppTest knows the pages after a first run (the link's, as a browser's)
        ok(at.run())
        at.switch_page(page)
        for key, value in (params or {}).items():
            at.query_params[key] = value
    return ok(at.run())


def param(at: AppTest, name: str) -> str | None:
    value = at.query_params.get(name)
    return value[0] if isinstance(value, list) else value


def practice_answer(at: AppTest, text: str) -> AppTest:
    e = make_exercise(11, 2, "cell", 2)
    at.text_input(key=f"pr_answer_{e.key}").input(text)
    return ok(at.button(key=f"FormSubmitter:pr_form_{e.key}-Check").click().run())


def score(at: AppTest) -> str:
    return next(m.value for m in at.metric if m.label == "Correct")


def panel_texts(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


# ------------------------------------------------------------------ the way in


def test_a_first_visit_opens_on_the_start_panel_with_three_paths():
    at = open_app()
    assert "## New to NDCG? Start here" in panel_texts(at)
    assert any("puts the most relevant items first" in m.value for m in at.markdown)
    assert {b.key for b in at.button} >= {"start_learn", "start_practice", "start_playground"}
    assert at.metric[0].value == "0.932"  # the Playground is still there, under the panel


@pytest.mark.parametrize(
    "params",
    [{"rel": "3,2,3,0,1,2", "discount": "jarvelin"}, {"state": "x"}, {"k": "3"}],
    ids=["list", "compact", "formula"],
)
def test_a_share_link_opens_the_playground_directly(params):
    at = open_app(params)
    assert "start_learn" not in {b.key for b in at.button}
    assert "New to NDCG" not in panel_texts(at)


def test_the_start_panel_speaks_the_links_language():
    at = open_app({"lang": "zh"})  # the language alone is no share link: still a first visit
    assert at.button(key="start_learn").label == "一步一步学"
    assert at.button(key="start_practice").label == "自我测试"


def test_learn_it_opens_learn_and_ends_the_start_for_this_browser():
    at = open_app()
    ok(at.button(key="start_learn").click().run())
    assert any(m.value == "# Learn NDCG in seven steps" for m in at.markdown)
    assert at.session_state[keys.START_DONE] is True
    assert at.session_state[keys.LR_COOKIES] == {learner.START_COOKIE: "1"}


def test_test_yourself_opens_practice():
    at = open_app()
    ok(at.button(key="start_practice").click().run())
    assert any(m.value == "# Practice" for m in at.markdown)


def test_play_with_a_list_closes_the_panel_and_it_stays_closed():
    at = open_app()
    ok(at.button(key="start_playground").click().run())
    assert "start_learn" not in {b.key for b in at.button}
    assert at.session_state[keys.LR_COOKIES] == {learner.START_COOKIE: "1"}
    ok(at.run())
    assert "start_learn" not in {b.key for b in at.button}


def test_after_another_page_the_playground_has_no_panel():
    at = open_app()
    at.switch_page("views/explore.py")
    ok(at.run())
    at.switch_page("views/playground.py")
    ok(at.run())
    assert "start_learn" not in {b.key for b in at.button}
    assert at.session_state[keys.LR_COOKIES] == {learner.START_COOKIE: "1"}


def test_a_browser_that_saw_the_panel_does_not_see_it_again(monkeypatch):
    monkeypatch.setattr(learner, "browser_cookies", lambda: {learner.START_COOKIE: "1"})
    assert "start_learn" not in {b.key for b in open_app().button}


@pytest.mark.parametrize(
    ("page", "name", "first"),
    [
        ("views/learn.py", "learn", "Practice"),
        ("views/practice.py", "practice", "Learn"),
        ("views/playground.py", "playground", "Learn"),
        ("views/explore.py", "explore", "Data sets"),
        ("views/datasets.py", "datasets", "Playground"),
        ("views/classroom.py", "class", "Practice"),
    ],
)
def test_every_page_ends_with_where_next_and_a_link_to_every_other_page(page, name, first):
    at = open_app(page=page)
    last = list(at.main.children.values())[-1]
    assert getattr(last, "key", None) == f"next_{name}", "where next is not the page's end"
    links = [link.proto.label for link in last.get("page_link")]
    suggested = [label for label in links if ": " in label]
    assert suggested[0].startswith(first + ": ")
    reached = {label.split(": ")[0] for label in links}
    own = {"learn": "Learn", "practice": "Practice", "playground": "Playground", "explore": "Explore"}
    own |= {"datasets": "Data sets", "class": "Class"}
    assert reached == ALL_PAGES - {own[name]}
    assert len(links) == len(reached), "a page is offered twice"


def test_learns_last_step_leads_to_practice():
    at = open_app({"step": "7"}, page="views/learn.py")
    labels = [link.proto.label for link in at.get("page_link")]
    assert "You have built NDCG. Next: test yourself in Practice" in labels
    at6 = open_app({"step": "6"}, page="views/learn.py")
    assert "You have built NDCG. Next: test yourself in Practice" not in [
        link.proto.label for link in at6.get("page_link")
    ]


# ------------------------------------------------------------------ progress that lasts


def test_a_visit_that_answered_nothing_gets_no_token():
    at = open_app(CELL, page="views/practice.py")
    ok(at.button(key="pr_next").click().run())
    assert param(at, "learner") is None
    assert keys.LR_TOKEN not in at.session_state
    assert any("saved on this device as soon as you give one" in c.value for c in at.caption)


def test_practice_progress_survives_a_reload_of_its_link():
    at = open_app(CELL, page="views/practice.py")
    practice_answer(at, "3")  # the log2(i) mistake
    token = param(at, "learner")
    assert valid_token(token)
    assert score(at) == "0 / 1"
    assert at.session_state[keys.LR_COOKIES][learner.COOKIE] == token  # and into the cookie
    reloaded = open_app({k: param(at, k) for k in at.query_params}, page="views/practice.py")
    assert score(reloaded) == "0 / 1"
    assert param(reloaded, "learner") == token
    assert (param(reloaded, "seed"), param(reloaded, "ex")) == ("11", "2")


def test_the_browser_opened_again_finds_its_progress_and_place_by_the_cookie(monkeypatch):
    at = open_app(CELL, page="views/practice.py")
    practice_answer(at, "3")
    practice_answer(at, "4")  # a second try: two attempts
    ok(at.button(key="pr_next").click().run())
    token = param(at, "learner")
    monkeypatch.setattr(learner, "browser_cookies", lambda: {learner.COOKIE: token})
    again = open_app(page="views/practice.py")  # no link: a new tab on /practice
    assert score(again) == "0 / 2"
    assert (param(again, "seed"), param(again, "ex"), param(again, "level")) == ("11", "3", "2")
    assert param(again, "learner") == token


def test_two_students_never_see_each_others_progress():
    ana = open_app(CELL, page="views/practice.py")
    practice_answer(ana, "3")
    ben = open_app(CELL, page="views/practice.py")
    assert score(ben) == "0 / 0"
    e = make_exercise(11, 2, "cell", 2)
    practice_answer(ben, f"{e.exact:.4f}")
    assert score(ben) == "1 / 1"
    assert param(ben, "learner") not in (None, param(ana, "learner"))
    reloaded = open_app({**CELL, "learner": param(ana, "learner")}, page="views/practice.py")
    assert score(reloaded) == "0 / 1"


@pytest.mark.parametrize("given", ["nonsense", "../etc/passwd", "A" * 24], ids=["short", "path", "unknown"])
def test_a_bad_or_unknown_token_starts_afresh_with_a_message_and_a_new_server_token(given):
    at = open_app({**CELL, "learner": given}, page="views/practice.py")
    assert any("was not found" in w.value for w in at.warning)
    assert score(at) == "0 / 0"
    assert param(at, "learner") is None  # the link no longer carries it
    practice_answer(at, "3")
    issued = param(at, "learner")
    assert valid_token(issued) and issued != given
    assert not any("was not found" in w.value for w in at.warning)  # retired once a new one is issued


def test_a_token_from_another_server_is_never_adopted(monkeypatch):
    """A well-formed token that this database never issued (a self-chosen one) saves nothing."""
    chosen = "my-own-token-0123456789a"
    monkeypatch.setattr(learner, "browser_cookies", lambda: {learner.COOKIE: chosen})
    at = open_app(CELL, page="views/practice.py")
    assert any("saved in this browser was not found" in w.value for w in at.warning)
    practice_answer(at, "3")
    assert param(at, "learner") != chosen
    assert ProgressStore(database_url()).load(chosen) is None


def test_a_bad_link_on_a_device_with_its_own_progress_shows_that_progress(monkeypatch):
    at = open_app(CELL, page="views/practice.py")
    practice_answer(at, "3")
    token = param(at, "learner")
    monkeypatch.setattr(learner, "browser_cookies", lambda: {learner.COOKIE: token})
    again = open_app({**CELL, "learner": "B" * 24}, page="views/practice.py")
    assert any("This device's own saved progress is shown" in w.value for w in again.warning)
    assert score(again) == "0 / 1" and param(again, "learner") == token


def test_learn_answers_and_step_survive_a_reload():
    at = open_app({"rel": "3,2,1", "step": "2"}, page="views/learn.py")
    at.text_input(key="learn_guess_2").input("3")  # the gain of grade 3 (linear gain)
    ok(at.button(key="learn_check").click().run())
    token = param(at, "learner")
    assert valid_token(token)
    assert 2 in at.session_state[keys.LEARN_REVEALED]
    answered = dict(at.session_state[keys.LEARN_ANSWERS])
    ok(at.button(key="learn_next").click().run())
    again = open_app({"learner": token}, page="views/learn.py")  # no step: the saved one
    assert again.session_state[keys.LEARN_STEP] == 3
    assert dict(again.session_state[keys.LEARN_ANSWERS]) == answered
    back = open_app({"learner": token, "step": "2", "rel": "3,2,1"}, page="views/learn.py")
    assert back.session_state[keys.LEARN_STEP] == 2  # the link's step wins
    assert "learn_guess_2" not in {t.key for t in back.text_input}  # answered: no question again
    assert any("Gain" in str(d.value.columns.tolist()) for d in back.dataframe)  # its column shown
    assert back.success, "the answer's feedback is shown again"


def test_the_continue_link_carries_the_token_and_the_share_link_does_not(monkeypatch):
    monkeypatch.setenv("NDCG_PUBLIC_URL", "https://ndcg.example.edu/app")
    at = open_app(CELL, page="views/practice.py")
    practice_answer(at, "3")
    token = param(at, "learner")
    codes = [c.value for c in at.code]
    assert f"https://ndcg.example.edu/app/practice?learner={token}" in codes
    share = next(c for c in codes if "seed=11" in c)
    assert "learner" not in share and share.startswith("https://ndcg.example.edu/app/practice?")


def test_practice_works_on_when_the_database_cannot_be_reached(monkeypatch):
    monkeypatch.setenv("NDCG_DATABASE_URL", "postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=2")
    st.cache_resource.clear()
    try:
        at = open_app(CELL, page="views/practice.py")
        practice_answer(at, "3")
        assert score(at) == "0 / 1"
        assert param(at, "learner") is None
        assert any("cannot be saved just now" in c.value for c in at.caption)
    finally:
        st.cache_resource.clear()

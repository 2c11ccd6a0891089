"""A student's path (issue 27, parts 1 and 4) through AppTest: the start panel of a first visit,
"where next" at the end of every page, and progress saved under a server-issued learner token,
which no link carries (issue 37, part 3): another device continues through a one-time code.

Each AppTest is one browser session; a new one with the same link is a reload, and one with the
learner cookie (views.ui.learner.browser_cookies, patched: AppTest sends no cookies) is the
browser opened again. The database is this test's own (tests/conftest.py).
"""

from __future__ import annotations

import pathlib
import re
from urllib.parse import parse_qsl, urlsplit

import pytest
import streamlit as st
from apptest_support import ok, texts
from room_support import cookies, params, wanted_cookies  # noqa: F401 (a fixture)
from streamlit.testing.v1 import AppTest

from ndcg_core.classroom.progress import ProgressStore, valid_token
from ndcg_core.classroom.store import database_url
from ndcg_core.teaching.practice import make_exercise
from views.ui import keys, learner

APP = str(pathlib.Path(__file__).resolve().parents[2] / "app.py")
#: Practice's exercise from the issue: a step-table cell whose log2(i) mistake gives 3.
CELL = {"seed": "11", "ex": "2", "level": "2", "kind": "cell"}
ALL_PAGES = {"Learn", "Practice", "Playground", "Explore", "Data sets", "Class"}


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


def own_token(at: AppTest) -> str | None:
    """The learner token this session holds (the server's; AppTest shows no cookie)."""
    try:
        return at.session_state[keys.LR_TOKEN]
    except KeyError:
        return None


def test_after_an_answer_no_link_carries_the_token_and_a_reload_finds_it_by_the_cookie(cookies):
    """Issue 37, part 3: after one answer the address bar read ``...&learner=<token>``, right under
    "share this page's link to hand out the same exercises"."""
    at = open_app(CELL, page="views/practice.py")
    practice_answer(at, "3.00")  # the log2(i) mistake
    token = own_token(at)
    assert valid_token(token) and score(at) == "0 / 1"
    assert params(at) == CELL, "the address bar carries more than the exercise"
    assert token not in texts(at), "the token is shown on the page"
    assert wanted_cookies(at)[learner.COOKIE] == token  # the browser keeps it, in a cookie
    cookies.update(wanted_cookies(at))
    reloaded = open_app(params(at), page="views/practice.py")
    assert score(reloaded) == "0 / 1" and params(reloaded) == CELL


def test_an_old_link_with_someones_token_loads_nothing_and_changes_nothing(cookies):
    """Issue 37, part 3: whoever opened a link with ``learner=<Ana's token>`` saw her record and added
    to it (0/1 became 0/2), and a classmate's link silently replaced the token in your cookie. Now
    the parameter is ignored, without a word, and taken off the address bar."""
    ana = open_app(CELL, page="views/practice.py")
    practice_answer(ana, "3.00")
    anas = own_token(ana)
    stranger = open_app({**CELL, "learner": anas}, page="views/practice.py")
    assert score(stranger) == "0 / 0" and "learner" not in params(stranger)
    assert not stranger.warning and not stranger.error
    practice_answer(stranger, "4.00")
    assert own_token(stranger) != anas
    e = make_exercise(11, 2, "cell", 2)
    ben = open_app(CELL, page="views/practice.py")
    practice_answer(ben, f"{e.exact:.4f}")
    cookies.update(wanted_cookies(ben))  # Ben's browser, with progress of its own, opens her link
    again = open_app({**CELL, "learner": anas}, page="views/practice.py")
    assert score(again) == "1 / 1" and own_token(again) == own_token(ben)
    assert wanted_cookies(again).get(learner.COOKIE) in (None, own_token(ben))
    cookies.clear()
    cookies[learner.COOKIE] = anas  # Ana's own browser: her record is hers alone, still 0/1
    assert score(open_app(page="views/practice.py")) == "0 / 1"


def test_the_browser_opened_again_finds_its_progress_and_place_by_the_cookie(cookies):
    at = open_app(CELL, page="views/practice.py")
    practice_answer(at, "3.00")
    practice_answer(at, "4.00")  # a second try: two attempts
    ok(at.button(key="pr_next").click().run())
    cookies[learner.COOKIE] = own_token(at)
    again = open_app(page="views/practice.py")  # no link: a new tab on /practice
    assert score(again) == "0 / 2"
    assert params(again) == {**CELL, "ex": "3"}


def test_two_students_never_see_each_others_progress(cookies):
    ana = open_app(CELL, page="views/practice.py")
    practice_answer(ana, "3.00")
    ben = open_app(CELL, page="views/practice.py")
    assert score(ben) == "0 / 0"
    e = make_exercise(11, 2, "cell", 2)
    practice_answer(ben, f"{e.exact:.4f}")
    assert score(ben) == "1 / 1"
    assert own_token(ben) not in (None, own_token(ana))
    cookies[learner.COOKIE] = own_token(ana)
    assert score(open_app(CELL, page="views/practice.py")) == "0 / 1"


@pytest.mark.parametrize("chosen", ["my-own-token-0123456789a", "A" * 24, "../etc/passwd"])
def test_a_cookie_token_this_server_never_issued_is_never_adopted(cookies, chosen):
    """A token that this database never issued (a self-chosen one) loads and saves nothing."""
    cookies[learner.COOKIE] = chosen
    at = open_app(CELL, page="views/practice.py")
    assert any("saved in this browser was not found" in w.value for w in at.warning)
    practice_answer(at, "3.00")
    assert valid_token(own_token(at)) and own_token(at) != chosen
    assert not any("was not found" in w.value for w in at.warning)  # retired once a new one is issued
    assert ProgressStore(database_url()).load(chosen) is None


def test_learn_answers_and_step_survive_a_reload(cookies):
    at = open_app({"rel": "3,2,1", "step": "2"}, page="views/learn.py")
    at.text_input(key="learn_guess_2").input("3")  # the gain of grade 3 (linear gain)
    ok(at.button(key="learn_check").click().run())
    token = own_token(at)
    assert valid_token(token) and "learner" not in params(at)
    assert 2 in at.session_state[keys.LEARN_PREDICTIONS].revealed
    answered = dict(at.session_state[keys.LEARN_PREDICTIONS].answers)
    ok(at.button(key="learn_next").click().run())
    cookies[learner.COOKIE] = token
    again = open_app(page="views/learn.py")  # no step: the saved one
    assert again.session_state[keys.LEARN_STEP] == 3
    assert dict(again.session_state[keys.LEARN_PREDICTIONS].answers) == answered
    back = open_app({"step": "2", "rel": "3,2,1"}, page="views/learn.py")
    assert back.session_state[keys.LEARN_STEP] == 2  # the link's step wins
    assert "learn_guess_2" not in {t.key for t in back.text_input}  # answered: no question again
    assert any("Gain" in str(d.value.columns.tolist()) for d in back.dataframe)  # its column shown
    assert back.success, "the answer's feedback is shown again"


# ------------------------------------------------------------------ another device (issue 37, part 3)

CODE_SHOWN = re.compile(r"[A-Z2-9]{4}-[A-Z2-9]{4}")
UNUSABLE = (
    "This code cannot be used: it is mistyped, was used already or is older than 30 minutes. "
    "Nothing was changed."
)


def continue_code(at: AppTest, page: str = "practice") -> tuple[str, str]:
    """Press "Continue on another device": the code shown, and the link that carries it."""
    ok(at.button(key=f"lr_transfer_{page}").click().run())
    values = [c.value for c in at.code]
    (shown,) = [v for v in values if CODE_SHOWN.fullmatch(v)]
    (link,) = [v for v in values if "continue=" in v]
    return shown, link


def link_params(link: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(link).query))


def type_code(at: AppTest, code: str) -> AppTest:
    at.text_input(key=keys.LR_CODE_INPUT).input(code)
    (button,) = [b for b in at.button if b.key.startswith("FormSubmitter:lr_code_form-")]
    return ok(button.click().run())


def test_another_device_continues_by_a_one_time_code_typed_or_opened(cookies, monkeypatch):
    monkeypatch.setenv("NDCG_PUBLIC_URL", "https://ndcg.example.edu/app")
    ana = open_app(CELL, page="views/practice.py")
    practice_answer(ana, "3.00")
    token = own_token(ana)
    shown, link = continue_code(ana)
    assert link == "https://ndcg.example.edu/app/practice?continue=" + shown.replace("-", "")
    assert token not in texts(ana) and "Private: whoever uses it in the next 30 minutes" in texts(ana)
    phone = open_app(page="views/practice.py")  # her phone, with nothing of its own: the code typed
    type_code(phone, " " + shown.lower())
    assert score(phone) == "0 / 1" and wanted_cookies(phone)[learner.COOKIE] == token
    assert [s.value for s in phone.success] == ["Your progress from the other device is here."]
    other = open_app(page="views/practice.py")  # used once: typed again, it changes nothing
    type_code(other, shown)
    assert [w.value for w in other.warning] == [UNUSABLE]
    assert score(other) == "0 / 0" and learner.COOKIE not in wanted_cookies(other)
    _shown, link = continue_code(ana)  # a second code, opened as a link on her tablet
    tablet = open_app(link_params(link), page="views/practice.py")
    assert score(tablet) == "0 / 1" and wanted_cookies(tablet)[learner.COOKIE] == token
    assert "continue" not in params(tablet)  # read, then taken off the address bar


def test_a_continue_link_never_replaces_this_browsers_own_progress_without_asking(cookies):
    ana = open_app(CELL, page="views/practice.py")
    practice_answer(ana, "3.00")
    e = make_exercise(11, 2, "cell", 2)
    ben = open_app(CELL, page="views/practice.py")
    practice_answer(ben, f"{e.exact:.4f}")
    cookies.update(wanted_cookies(ben))  # Ben's browser opens Ana's continue link
    for choice, kept in (("keep", own_token(ben)), ("use", own_token(ana))):
        _shown, link = continue_code(ana)
        at = open_app(link_params(link), page="views/practice.py")
        assert score(at) == "1 / 1", "Ben's progress was replaced before he chose"
        offered = [b.label for b in at.button if b.key.startswith("lr_offer_")]
        assert offered == ["Use the progress from the link", "Keep this device's progress"]
        assert wanted_cookies(at).get(learner.COOKIE) is None
        ok(at.button(key=f"lr_offer_{choice}_link").click().run())
        assert score(at) == ("1 / 1" if choice == "keep" else "0 / 1")
        assert own_token(at) == kept and wanted_cookies(at).get(learner.COOKIE, kept) == kept
        assert not [b for b in at.button if b.key.startswith("lr_offer_")]


def test_an_unknown_code_says_so_in_one_sentence_and_guessing_is_slow(cookies):
    at = open_app({**CELL, "continue": "ABCD-EFGH"}, page="views/practice.py")
    assert [w.value for w in at.warning] == [UNUSABLE]
    assert "continue" not in params(at) and score(at) == "0 / 0"
    assert learner.COOKIE not in wanted_cookies(at)
    for guess in ("ABCD-EFGJ", "ABCD-EFGK", "ABCD-EFGM", "ABCD-EFGN"):  # five tries in all
        assert [w.value for w in type_code(at, guess).warning] == [UNUSABLE]
    (refused,) = [e.value for e in type_code(at, "ABCD-EFGP").error]
    wait = re.fullmatch(r"Too many tries: wait (\d+) s, then type the code again\.", refused)
    assert wait and 1 <= int(wait.group(1)) <= 12, refused  # one try back every 12 s


def test_practice_works_on_when_the_database_cannot_be_reached(monkeypatch):
    monkeypatch.setenv("NDCG_DATABASE_URL", "postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=2")
    st.cache_resource.clear()
    try:
        at = open_app(CELL, page="views/practice.py")
        practice_answer(at, "3.00")
        assert score(at) == "0 / 1"
        assert param(at, "learner") is None
        assert any("cannot be saved just now" in c.value for c in at.caption)
    finally:
        st.cache_resource.clear()

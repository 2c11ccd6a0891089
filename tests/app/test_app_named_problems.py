"""Issue 30, item 7, through AppTest: a link's bad value, a gain table's repeated grade, a TREC run's
``nan`` and an invisible or reversed name are each named on the page, as text, instead of falling
back in silence; the paste box names each line it cannot read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import streamlit as st
from apptest_support import ok
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_page(page: str, params: dict[str, str]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    if page != "views/playground.py":
        at.switch_page(page)
    return ok(at.run())


def class_page(params: dict[str, str] | None = None) -> AppTest:
    """The Class page as tests/app/test_app_class.py opens it (the app first, then the page)."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("views/classroom.py")
    for key, value in (params or {}).items():
        at.query_params[key] = value
    return ok(at.run())


def warnings(at: AppTest) -> list[str]:
    return [str(w.value) for w in at.warning]


def plain(text: str) -> str:
    """Markdown as read: the escapes, code marks and invisible joiners the app puts in dropped."""
    return re.sub(r"\\(.)", r"\1", text).replace("\u2060", "").replace("`", "")


# ---------------------------------------------------------------- Learn's link


@pytest.mark.parametrize(("given", "step"), [("0", 1), ("-1", 1), ("abc", 1), ("99", 7)])
def test_a_bad_step_opens_the_nearest_step_and_says_so(given, step):
    at = open_page("views/learn.py", {"step": given})
    assert at.session_state["learn_step"] == step
    [warning] = [plain(w) for w in warnings(at) if "'step'" in plain(w)]
    assert f"'{given}' is not a whole number from 1 to 7; using step {step} instead." in warning
    ok(at.run())  # a rerun (any click) keeps it: the page is still where the link put it
    assert any("'step'" in plain(w) for w in warnings(at))


def test_the_first_move_retires_the_links_warning_for_good():
    at = open_page("views/learn.py", {"step": "0"})
    assert any("'step'" in plain(w) for w in warnings(at))
    ok(at.button(key="learn_next").click().run())
    assert at.session_state["learn_step"] == 2 and not warnings(at)
    ok(at.button(key="learn_prev").click().run())  # back on step 1: the link's complaint stays gone
    assert at.session_state["learn_step"] == 1 and not warnings(at)


def test_present_yes_shows_the_lesson_and_says_what_present_takes():
    at = open_page("views/learn.py", {"step": "3", "present": "yes"})
    assert at.session_state["learn_step"] == 3 and at.session_state["learn_present"] is False
    assert any("'present': 'yes' is not 1 (presenter mode) or 0" in plain(w) for w in warnings(at))


def test_class_present_yes_says_what_present_takes_instead_of_falling_back_in_silence():
    """Issue 30: /class?present=yes opened the room's page without a word."""
    at = class_page({"present": "yes"})
    expected = (
        "'present': 'yes' is not 1 (presenter mode) or 0; using the room's page, not the projector screen"
    )
    assert any(expected in plain(w) for w in warnings(at)), warnings(at)


def test_a_bad_step_is_named_in_presenter_mode_too():
    at = open_page("views/learn.py", {"step": "12", "present": "1"})
    assert at.session_state["learn_present"] is True
    assert any("'12' is not a whole number from 1 to 7" in plain(w) for w in warnings(at))


# ---------------------------------------------------------------- any page's language


@pytest.mark.parametrize("page", ["views/playground.py", "views/learn.py", "views/practice.py"])
def test_a_bad_language_is_named_as_text_and_the_page_stays_english(page):
    at = open_page(page, {"lang": "<b>zz</b>", "step": "2"} if "learn" in page else {"lang": "<b>zz</b>"})
    [warning] = [w for w in warnings(at) if "'lang'" in plain(w)]
    assert "'<b>zz</b>' is not one of en, zh" in plain(warning)
    assert "<b" not in warning.replace("\\<b", "")  # escaped: Markdown shows it, never renders bold
    ok(at.run())
    assert any("'lang'" in plain(w) for w in warnings(at))  # still there on the next run


def test_the_language_warning_goes_once_the_language_is_chosen():
    at = open_page("views/playground.py", {"lang": "xx"})
    assert any("'lang'" in plain(w) for w in warnings(at))
    ok(at.segmented_control(key="lang_switch").set_value("zh").run())
    assert not any("lang" in plain(w) for w in warnings(at))


# ---------------------------------------------------------------- a gain table names each grade once


def test_a_link_whose_gain_table_names_a_grade_twice_is_named():
    at = open_page("views/playground.py", {"rel": "1,0", "gain": "0:0,1:1,1:5"})
    assert any("'gain'" in plain(w) and "grade 1 twice" in plain(w) for w in warnings(at)), warnings(at)
    assert at.session_state["pg_spec"].variant.gain == "linear"  # neither 1:1 nor 1:5 picked


def test_a_typed_gain_table_that_names_a_grade_twice_is_named():
    at = open_page("views/playground.py", {"rel": "1,0"})
    at.session_state["gain"] = "custom"
    at.session_state["gain_table"] = "0:0, 1:1, 1:5"
    ok(at.run())
    assert any("grade 1 twice ('1:1' and '1:5')" in plain(e.value) for e in at.error), at.error
    assert at.session_state["pg_spec"].variant.gain == "linear"


# ---------------------------------------------------------------- a TREC run's nan, an id's NUL


def upload(at: AppTest, kind: str, name: str, content: bytes) -> AppTest:
    version = at.session_state["ds_upload_version"] if "ds_upload_version" in at.session_state else 0  # noqa: SIM401 (AppTest state has no get)
    given = (name, content, "text/plain")
    at.file_uploader(key=f"ds_{kind}_file_{version}").set_value([given] if kind == "run" else given)
    return ok(at.run())


def test_a_run_whose_first_score_is_nan_is_told_its_line_and_field():
    at = open_page("views/datasets.py", {})
    upload(at, "run", "nan.run", b"q1 Q0 d1 1 nan tag\nq1 Q0 d2 2 0.5 tag\n")
    [error] = [plain(e.value) for e in at.error]
    assert "nan.run" in error and "score on line 1 is 'nan'" in error
    assert "needs columns" not in error


def test_a_nul_in_a_document_id_is_refused_naming_its_line():
    at = open_page("views/datasets.py", {})
    upload(at, "qrels", "nul.qrels", b"q1 0 d1 1\nq1 0 d\x002 0\n")
    [error] = [plain(e.value) for e in at.error]
    assert "line 2" in error and "document id" in error and "U+0000" in error
    assert "\x00" not in error


# ---------------------------------------------------------------- Class mode's names


@pytest.fixture
def class_room(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("NDCG_DATABASE_URL", raising=False)
    monkeypatch.delenv("NDCG_ROOM_HOURS", raising=False)
    st.cache_resource.clear()  # the page's one store per process: a new one on this test's file
    at = class_page()
    ok(at.button(key="cl_create").click().run())
    yield at.query_params["room"], tmp_path
    st.cache_resource.clear()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("\u200b\u200b\u200b", "only invisible characters"),
        ("\ufeff\u00ad\u2060", "only invisible characters"),
        ("Ana\u202egnp.exe", "turns the text's direction around"),
        ("\u2066Bo\u2069", "turns the text's direction around"),
    ],
    ids=["zero-width-spaces", "bom-soft-hyphen-word-joiner", "rtl-override", "isolate"],
)
def test_a_name_that_shows_nothing_or_turns_the_text_around_is_refused(class_room, name, message):
    code, data_dir = class_room
    at = class_page({"room": code})
    at.text_input(key="cl_name").input(name)
    ok(at.button(key="FormSubmitter:cl_join_form-Join").click().run())
    assert any(message in e.value for e in at.error), [e.value for e in at.error]
    assert [t.label for t in at.text_input] == ["Your name"]  # still asked
    import sqlite3

    with sqlite3.connect(data_dir / "classroom.sqlite3") as conn:
        assert conn.execute("SELECT count(*) FROM class_students").fetchone()[0] == 0


# ---------------------------------------------------------------- the paste box


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("A:1:2", "entry 1 ('A:1:2') has more than one ':'"),
        ("1,,2", "entry 2 is empty"),
        ("A:1:2\nB:2", "line 1 ('A:1:2') is not understood"),
        ("1\n\n2\nx", "line 3 ('x') is not understood"),  # the blank line is skipped, not numbered
    ],
)
def test_the_paste_box_names_what_it_cannot_read_and_keeps_the_list(text, named):
    at = open_page("views/playground.py", {})
    before = at.session_state["pg_items"]
    ok(at.text_area(key="quick_entry").input(text).run())
    assert any(named in plain(e.value) for e in at.error), [plain(e.value) for e in at.error]
    assert at.session_state["pg_items"] == before

"""Issue 30 through AppTest: an answer claiming absurd decimals gets a short message on every page.

``1e-999999999`` made Practice format the exact value with 999,999,999 decimals (gigabytes, then a
``MessageSizeError``). Assertions are on the length of what the page shows, never on timing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit as st
from apptest_support import ok, shown
from streamlit.testing.v1 import AppTest

from ndcg_core.classroom import Store
from ndcg_core.teaching.practice import make_exercise
from views.ui import keys

APP = str(Path(__file__).resolve().parents[2] / "app.py")
BAD = ["1e-999999999", "1e-99999999", "1e-999999"]
#: Longer than any text the pages show (a message, a column's notes), far shorter than the shortest
#: bad number formatted in full (1e-999999: a million digits).
SHORT = 2_000


def messages(at: AppTest) -> list[str]:
    return shown(at, ("error", "warning", "success", "info", "markdown", "caption"))


def longest(at: AppTest) -> int:
    return max(map(len, messages(at)), default=0)


@pytest.mark.parametrize("text", BAD)
def test_practice_refuses_it_briefly(text):
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("views/practice.py")
    at.query_params.update({"seed": "7", "ex": "1", "kind": "metric"})
    ok(at.run())
    e = make_exercise(7, 1, kind="metric", level=1)
    at.text_input(key=f"pr_answer_{e.key}").input(text)
    ok(at.button(key=f"FormSubmitter:pr_form_{e.key}-Check").click().run())
    assert any("too many decimals" in m for m in messages(at)), messages(at)
    assert longest(at) < SHORT


@pytest.mark.parametrize("text", BAD)
def test_learn_refuses_it_briefly(text):
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["step"] = "4"
    at.switch_page("views/learn.py")
    ok(at.run())
    ok(at.text_input(key="learn_guess_4").input(text).run())
    ok(at.button(key="learn_check").click().run())
    assert any("too many decimals" in m for m in messages(at)), messages(at)
    assert longest(at) < SHORT


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("NDCG_DATABASE_URL", raising=False)
    monkeypatch.delenv("NDCG_ROOM_HOURS", raising=False)
    st.cache_resource.clear()
    yield tmp_path
    st.cache_resource.clear()


def test_class_mode_refuses_it_briefly_and_stores_nothing(data_dir):
    lecturer = AppTest.from_file(APP, default_timeout=60).run()
    lecturer.switch_page("views/classroom.py")
    ok(lecturer.run())
    lecturer.button(key="cl_create").click().run()
    code = lecturer.query_params["room"]
    key = lecturer.session_state[keys.CL_KEYS][code]  # the key stays off the link (issue 30)
    lecturer.button(key="cl_ask_button").click().run()  # the default: a Practice exercise
    ok(lecturer.button(key="cl_open").click().run())
    phone = AppTest.from_file(APP, default_timeout=60).run()
    phone.switch_page("views/classroom.py")
    phone.query_params["room"] = code
    ok(phone.run())
    phone.text_input(key="cl_name").input("Ana")
    ok(phone.button(key="FormSubmitter:cl_join_form-Join").click().run())
    phone.text_input(key="cl_answer_1").input("1e-999999999")
    ok(phone.button(key="FormSubmitter:cl_form_1-Send answer").click().run())
    assert any("too many decimals" in m for m in messages(phone)), messages(phone)
    assert longest(phone) < SHORT
    store = Store(f"sqlite:///{data_dir / 'classroom.sqlite3'}")
    assert store.summary(code, key, 1)[1].answered == 0
    ok(lecturer.button(key="cl_reveal").click().run())
    ok(phone.run())
    assert longest(phone) < SHORT


def test_a_link_that_unpacks_to_a_million_items_is_refused_on_the_page():
    from ndcg_core.teaching.playground import encode_compact

    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["state"] = encode_compact({"rel": ",".join(["1"] * 1_000_000)})
    ok(at.run())
    assert any("'state'" in w.value and "1,000,000 bytes" in w.value for w in at.warning), [
        w.value for w in at.warning
    ]
    assert longest(at) < 2_000  # the example's six items, not a million

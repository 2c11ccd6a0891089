"""The coded errors the pages raise themselves, shown in Chinese (the library's own codes are
checked in tests/engine/test_errors.py and tests/teaching/test_error_codes.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit as st
from apptest_support import ok
from streamlit.testing.v1 import AppTest

from ndcg_core import Spec, Variant
from ndcg_core.i18n import set_language

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture(autouse=True)
def zh():
    """The test's thread too: AppTest formats the widgets' options there (as test_app_i18n does)."""
    set_language("zh")
    yield
    set_language("en")


def chinese_app(page: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = "zh"
    at.run()
    if page is not None:
        at.switch_page(page)
        at.run()
    return ok(at)


def test_a_gain_table_without_a_grade_of_the_list_is_named_in_chinese():
    at = chinese_app()
    at.radio(key="gain").set_value("custom").run()
    at.text_input(key="gain_table").input("0:0, 1:1").run()
    assert not at.exception
    assert any("等级 2 在表中没有增益；请添加一项，例如 2" in e.value for e in at.error), [
        e.value for e in at.error
    ]


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("NDCG_DATABASE_URL", raising=False)
    st.cache_resource.clear()  # the page's one store per process: a new one on this test's file
    yield tmp_path
    st.cache_resource.clear()


def test_a_formula_class_questions_cannot_state_is_named_in_chinese(data_dir):
    at = chinese_app("views/classroom.py")
    at.session_state["pg_spec"] = Spec(Variant(gain={0: 0, 1: 1, 2: 3, 3: 7}))
    at.button(key="cl_create").click().run()
    at.segmented_control(key="cl_source").set_value("playground").run()
    at.button(key="cl_ask_button").click().run()
    ok(at)
    shown = " ".join(e.value for e in at.error)
    assert "演练场的公式使用了课堂问题无法表述的增益表或折损" in shown, shown


def test_a_model_score_explore_cannot_read_is_named_in_chinese():
    at = chinese_app("views/explore.py")
    at.text_input(key="lib_scores").input("0.9, x, 0.5").run()
    ok(at)
    shown = " ".join(e.value for e in at.error)
    assert "分数：第 2 项（'x'）不是有限数" in shown, shown

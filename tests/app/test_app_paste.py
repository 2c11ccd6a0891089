"""Issue 30, item 7, through AppTest: the Playground's paste box keeps line breaks and names bad lines."""

from __future__ import annotations

import math
from pathlib import Path

from apptest_support import ok
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def paste(text: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    return ok(at.text_area(key="quick_entry").input(text).run())


def items(at: AppTest) -> list[tuple[str, float]]:
    return [(i.label, i.grade) for i in at.session_state["pg_items"]]


def test_rows_from_a_spreadsheet_become_items():
    at = paste("A\t3\nB\t2\nC\t1")
    assert items(at) == [("A", 3), ("B", 2), ("C", 1)]
    assert not at.error


def test_a_pasted_column_of_grades_is_one_item_a_line():
    at = paste("3\n2\n1")
    assert items(at) == [("D1", 3), ("D2", 2), ("D3", 1)]
    # 3, 2, 1 is the ideal order: NDCG 1 (the playground's default discount is Järvelin's).
    ndcg = next(m.value for m in at.metric if m.label.startswith("NDCG"))
    assert math.isclose(float(ndcg), 1.0)


def test_bad_lines_are_named_and_the_list_is_unchanged():
    at = paste("A\t3\nB\tx\nC\t1\nD:1:2")
    assert items(at) == [("D1", 3), ("D2", 2), ("D3", 3), ("D4", 0), ("D5", 1), ("D6", 2)]  # the example
    assert any("lines 2, 4 are not understood" in e.value for e in at.error), [e.value for e in at.error]

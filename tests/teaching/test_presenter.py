"""Presenter mode never shows the answer to the question it asks the room (issue 26, part 1).

Wikipedia's D1..D6 (grades 3, 2, 3, 0, 1, 2) under 2^grade − 1 and max(1, log2 i): every asked
number comes from its closed form, and before the reveal it is nowhere on the screen's table,
formulas or answer line; after the reveal it is in its cell.
"""

from __future__ import annotations

import math
import re

import pytest

from ndcg_core import explain
from ndcg_core.i18n import set_language
from ndcg_core.teaching.export import table_html
from ndcg_core.teaching.formula import trimmed
from ndcg_core.teaching.lesson import IDEAL_COLUMNS, lesson_step
from ndcg_core.teaching.presenter import HIDDEN, asks, k_after, projected_text, screen, screen_table

WIKI = [3, 2, 3, 0, 1, 2]
L2 = math.log2
GAINS = [2**g - 1 for g in WIKI]  # 7, 3, 7, 0, 1, 3
DIV = [max(1.0, L2(i)) for i in range(1, 7)]
DCG = sum(g / d for g, d in zip(GAINS, DIV, strict=True))
IDCG = sum(g / d for g, d in zip(sorted(GAINS, reverse=True), DIV, strict=True))

#: step: (the asked number, the column it is in, the row (from 0), the headline number it introduces)
ASKED = {
    2: (7.0, "Gain", 0, None),
    3: (L2(3), "Divisor", 2, None),
    4: (7 / L2(3), "Discounted gain", 2, "DCG"),
    6: (DCG / IDCG, None, None, "NDCG"),
}


@pytest.fixture(scope="module")
def ex():
    return explain(WIKI, gain="exponential", discount="jarvelin")


def shown_strings(ex, view) -> list[str]:
    frame, _beyond = screen_table(ex, view)
    cells = [str(v) for column in frame.columns for v in frame[column].tolist()]
    return cells + list(view.formulas) + [view.answer]


def numbers_in(ex, view) -> list[float]:
    frame, _beyond = screen_table(ex, view)
    return [float(v) for c in frame.columns for v in frame[c].tolist() if isinstance(v, int | float)]


@pytest.mark.parametrize("n", sorted(ASKED))
def test_before_the_reveal_the_asked_number_is_nowhere_on_the_screen(ex, n):
    value, column, _row, metric = ASKED[n]
    step = lesson_step(n, ex)
    assert asks(step) and step.question.exact == pytest.approx(value)
    view = screen(step, revealed=False)
    frame, _beyond = screen_table(ex, view)
    if column is not None:
        assert frame[column].tolist() == [HIDDEN] * 6  # the asked cell, and its column, read "?"
    assert view.hidden_metric == metric
    assert view.formulas == () and view.answer == ""
    text = " ".join(shown_strings(ex, view))
    assert f"{value:.3f}" not in text and trimmed(value) not in text
    assert all(v != pytest.approx(value) for v in numbers_in(ex, view))


@pytest.mark.parametrize("n", sorted(ASKED))
def test_after_the_reveal_the_number_is_in_its_cell_and_the_answer_is_said(ex, n):
    value, column, row, _metric = ASKED[n]
    view = screen(lesson_step(n, ex), revealed=True)
    frame, _beyond = screen_table(ex, view)
    if column is not None:
        assert frame[column].iloc[row] == pytest.approx(value)
    assert view.hidden_columns == () and view.hidden_metric is None
    assert view.formulas and trimmed(value) in view.answer


def test_step_4_the_issues_case_discounted_gain_at_position_3():
    ex = explain(WIKI, discount="jarvelin")  # linear gain: 3 / log2 3 = 1.893, as the issue saw
    step = lesson_step(4, ex)
    before, _ = screen_table(ex, screen(step, revealed=False))
    after, _ = screen_table(ex, screen(step, revealed=True))
    assert before["Discounted gain"].iloc[2] == "?" and before["Cumulative DCG"].iloc[2] == "?"
    assert after["Discounted gain"].iloc[2] == pytest.approx(3 / L2(3))
    assert f"{3 / L2(3):.3f}" == "1.893"


def test_step_5_shows_the_ranking_until_the_reveal_then_the_ideal_ordering(ex):
    step = lesson_step(5, ex)
    before = screen(step, revealed=False)
    assert not before.ideal and before.hidden_metric == "IDCG" and before.formulas == ()
    after = screen(step, revealed=True)
    assert after.ideal and after.columns == IDEAL_COLUMNS
    frame, _ = screen_table(ex, after)
    assert frame["Grade"].iloc[0] == 3 and "3" in after.answer


def test_step_7_hides_beyond_k_and_its_grey_rows_until_the_reveal():
    ex = explain(WIKI, 3)
    step = lesson_step(7, ex)
    frame, beyond = screen_table(ex, screen(step, revealed=False))
    assert frame["Beyond k"].tolist() == [HIDDEN] * 6 and beyond == [False] * 6
    frame, beyond = screen_table(ex, screen(step, revealed=True))
    assert beyond == [False, False, False, True, True, True]
    assert "No, nothing at all" in screen(step, revealed=True).answer


def test_step_1_asks_nothing_and_shows_everything(ex):
    step = lesson_step(1, ex)
    assert not asks(step)
    assert screen(step, revealed=False) == screen(step, revealed=True)


@pytest.mark.parametrize(
    ("k", "n", "delta", "after"),
    [(None, 6, -1, 5), (None, 6, 1, 6), (3, 6, 1, 4), (1, 6, -1, 1), (10, 6, -1, 6), (6, 6, 1, 6)],
)
def test_k_buttons_stay_within_one_and_the_list(k, n, delta, after):
    assert k_after(k, n, delta) == after


def test_the_projected_text_names_the_k_buttons_on_step_7_and_drops_the_sidebar_hints(ex):
    linear = explain(WIKI)  # its step 2 points at the sidebar's Gain
    assert any("sidebar" in h for h in lesson_step(2, linear).hints)
    for n in range(1, 8):
        for e in (ex, linear):
            text = " ".join(projected_text(lesson_step(n, e)))
            assert "sidebar" not in text and "Playground" not in text
    assert "k − 1" in projected_text(lesson_step(7, ex))[-1]


@pytest.mark.parametrize("n", range(1, 8))
def test_the_chart_stands_beside_the_table_only_from_step_4_and_only_once_nothing_is_hidden(ex, n):
    """A cumulative-DCG or NDCG@k chart would show the asked number (issue 26, part 5): it waits for
    the reveal; steps 1-3's gains chart repeats their table and is left off the projector."""
    step = lesson_step(n, ex)
    assert screen(step, revealed=True).chart is (n >= 4)
    assert screen(step, revealed=False).chart is (n >= 4 and not asks(step))


def test_step_7s_beyond_k_cells_are_in_the_pages_language():
    """The projected table said "no" on a Chinese page: its yes/no cells are words like any other."""
    step = lesson_step(7, explain(WIKI, k=4))
    frame, beyond = screen_table(step_ex := explain(WIKI, k=4), screen(step, revealed=True))
    assert step_ex.k == 4 and "Beyond k" in frame
    set_language("zh")
    try:
        cells = re.findall(r"<td[^>]*>([^<]*)</td>", table_html(frame, beyond=beyond))
    finally:
        set_language("en")
    assert cells.count("是") == 2 and cells.count("否") == 4  # rows 5-6 beyond k = 4, rows 1-4 not
    assert "yes" not in cells and "no" not in cells

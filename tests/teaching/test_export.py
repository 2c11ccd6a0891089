"""Slide exports: each format parsed back by a real parser, labels never turning into markup."""

from __future__ import annotations

import csv
import io
import re
import struct
import xml.etree.ElementTree as ET

import pandas as pd
import pytest

from ndcg_core import explain
from ndcg_core.teaching.export import (
    SLIDE_HEIGHT,
    SLIDE_WIDTH,
    figure_image,
    formulas_latex,
    table_csv,
    table_latex,
    table_markdown,
)
from ndcg_core.teaching.figures import gains_figure
from ndcg_core.teaching.formula import dcg_latex
from ndcg_core.teaching.history import LIMIT, History
from ndcg_core.teaching.lesson import lesson_step, step_frame

COLUMNS = ("Position", "Item", "Grade", "Gain", "Divisor", "Discounted gain", "Cumulative DCG", "Beyond k")


@pytest.fixture(scope="module")
def frame():
    ex = explain([3, 2, 3], 2, labels=["a & b", "50% | off", "x_1 {y}"])
    return step_frame(ex, COLUMNS)


def test_csv_has_a_header_and_one_row_per_item_with_numbers_as_shown(frame):
    rows = list(csv.reader(io.StringIO(table_csv(frame))))
    assert rows[0] == list(COLUMNS)
    assert [r[1] for r in rows[1:]] == ["a & b", "50% | off", "x_1 {y}"]
    assert rows[2][4] == "1.585"  # log2(3), 3 decimals
    assert rows[3][-1] == "yes" and rows[1][-1] == "no"  # position 3 is beyond k = 2


def test_markdown_pipe_table_escapes_pipes(frame):
    lines = table_markdown(frame).splitlines()
    assert len(lines) == 2 + 3
    assert lines[1].startswith("| ---: | :--- |")
    assert "50% \\| off" in lines[3]
    assert all(len(re.split(r"(?<!\\)\|", line)) == len(COLUMNS) + 2 for line in lines)


def test_latex_is_a_booktabs_tabular_with_escaped_labels(frame):
    tex = table_latex(frame)
    assert "\\begin{tabular}{rlrrrrrl}" in tex
    for rule in ("\\toprule", "\\midrule", "\\bottomrule", "\\end{tabular}"):
        assert rule in tex
    assert "a \\& b" in tex and "50\\% | off" in tex and "x\\_1 \\{y\\}" in tex
    body = tex.split("\\midrule")[1].split("\\bottomrule")[0].strip().splitlines()
    assert len(body) == 3 and all(line.endswith("\\\\") for line in body)


def test_formula_source_is_display_math_per_formula():
    ex = explain([3, 2])
    text = formulas_latex([dcg_latex(ex), "x = 1"])
    assert text.count("\\[") == 2 and text.count("\\]") == 2
    assert dcg_latex(ex) in text


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_chart_images_are_slide_sized_png_and_parseable_svg():
    fig = gains_figure(explain([3, 2, 3, 0, 1, 2]))
    assert _png_size(figure_image(fig, "png")) == (SLIDE_WIDTH, SLIDE_HEIGHT)
    root = ET.fromstring(figure_image(fig, "svg"))
    assert root.tag.endswith("svg")
    assert float(root.get("width")) == SLIDE_WIDTH and float(root.get("height")) == SLIDE_HEIGHT
    with pytest.raises(ValueError, match="png' or 'svg"):
        figure_image(fig, "gif")


def test_every_lesson_step_exports_its_visible_columns():
    ex = explain([3, 2, 3, 0, 1, 2])
    for n in range(1, 8):
        step = lesson_step(n, ex)
        rows = list(csv.reader(io.StringIO(table_csv(step_frame(ex, step.columns)))))
        assert rows[0] == list(step.columns) and len(rows) == 7


def test_undo_redo_walks_both_ways_and_a_new_change_clears_redo():
    h = History.start((1,))
    assert not h.can_undo and h.record((1,)) is h  # no change, nothing recorded
    h = h.record((1, 2)).record((2, 1))
    h, state = h.undo()
    assert state == (1, 2) and h.can_redo
    h, state = h.undo()
    assert state == (1,) and not h.can_undo
    h, state = h.undo()  # nothing left: stays
    assert state == (1,)
    h, state = h.redo()
    assert state == (1, 2)
    h = h.record((9,))
    assert not h.can_redo and h.past[-1] == (1, 2)


def test_undo_keeps_a_bounded_past():
    h = History.start(0)
    for n in range(1, LIMIT + 20):
        h = h.record(n)
    assert len(h.past) == LIMIT and h.past[0] == 19


def test_table_helpers_take_any_frame():
    frame = pd.DataFrame({"Item": ["<b>x</b>"], "Score": [float("nan")]})
    assert table_csv(frame).splitlines()[1] == "<b>x</b>,"

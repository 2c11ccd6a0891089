"""Every chart's text alternative (issue 28, part 4): a sentence and the chart's numbers as a table.

The expected numbers are closed forms of Wikipedia's D1..D6 (grades 3, 2, 3, 0, 1, 2), not values
read back from the code that draws the chart."""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go
import pytest

from ndcg_core import explain
from ndcg_core.i18n import set_language
from ndcg_core.teaching.chart_text import chart_summary, chart_table, chart_texts
from ndcg_core.teaching.figures import cumulative_figure, gains_figure, ndcg_histogram

D = [3, 2, 3, 0, 1, 2]
IDEAL = sorted(D, reverse=True)


def test_the_gains_chart_table_holds_each_positions_discounted_gain():
    table = chart_table(gains_figure(explain(D)))
    assert list(table.iloc[:, 0]) == [1, 2, 3, 4, 5, 6]
    discounted = [g / math.log2(i + 1) for i, g in enumerate(D, start=1)]
    ideal = [g / math.log2(i + 1) for i, g in enumerate(IDEAL, start=1)]
    by_values = {c: list(table[c]) for c in table.columns[1:]}
    assert any(v == pytest.approx(discounted, abs=5e-4) for v in by_values.values())
    assert any(v == pytest.approx(ideal, abs=5e-4) for v in by_values.values())
    assert list(table["gain"]) == D  # whole numbers stay whole: no ".0"


def test_the_cumulative_chart_table_ends_at_dcg_and_idcg():
    table = chart_table(cumulative_figure(explain(D)))
    dcg = sum(g / math.log2(i + 1) for i, g in enumerate(D, start=1))
    idcg = sum(g / math.log2(i + 1) for i, g in enumerate(IDEAL, start=1))
    last = sorted(table.iloc[-1, 1:].astype(float))
    assert last == pytest.approx(sorted([dcg, idcg]), abs=5e-4)  # 6.861 and 7.141
    assert round(dcg, 3) == 6.861 and round(idcg, 3) == 7.141


def test_a_histograms_table_counts_every_query_once():
    per_query = pd.DataFrame({"ndcg": [0.1, 0.5, 0.52, 1.0, float("nan")]})
    table = chart_table(ndcg_histogram(per_query, "@10"))
    assert int(table.iloc[:, 1].sum()) == 4  # the NaN query is no bar


def test_a_histogram_trace_is_binned_as_plotly_bins_it():
    fig = go.Figure(go.Histogram(x=[0.93, 0.955, 0.955, 1.0], xbins={"start": 0.9, "end": 1.0, "size": 0.02}))
    fig.update_layout(xaxis_title="Answer", yaxis_title="Students")
    table = chart_table(fig)
    assert list(table["Answer"]) == ["0.920 – 0.940", "0.940 – 0.960", "1.000 – 1.020"]
    assert list(table["Students"]) == [1, 2, 1]


def test_the_summary_names_the_title_the_axes_and_every_series():
    text = chart_summary(cumulative_figure(explain(D)))
    assert text.startswith("Chart: ") and "position" in text
    for name in ("IDCG", "DCG"):
        assert name in text


def test_the_summary_is_translated():
    set_language("zh")
    try:
        text = chart_summary(gains_figure(explain(D)))
    finally:
        set_language("en")
    assert not text.startswith("Chart") and "图表" in text


def test_a_figure_drawn_again_reuses_its_text_in_each_language():
    figure = gains_figure(explain(D))
    english, table = chart_texts(figure)
    assert chart_texts(figure)[1] is table  # made once
    set_language("zh")
    try:
        chinese, _table = chart_texts(figure)  # the same figure, another language: made again
    finally:
        set_language("en")
    assert english.startswith("Chart: ") and "图表" in chinese
    other = gains_figure(explain([1, 0, 2]))  # another figure, even an equal one, is read anew
    assert chart_texts(other)[1] is not table and chart_texts(other)[1]["gain"].tolist() == [1, 0, 2]

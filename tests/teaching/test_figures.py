"""The playground's charts reach the browser as plotly itself would send them.

Streamlit draws a figure from ``figure.to_dict()``; ours hand out the spec they were built from
(plotly's own ``to_dict`` deep-copies and re-encodes every array on each draw). The JSON sent
must still describe the same chart: decoded, it equals what plotly's ``to_dict`` gives.
"""

from __future__ import annotations

import base64
import json
import math
import threading
from dataclasses import replace

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from ndcg_core.teaching import rendering
from ndcg_core.teaching.export import slide_figure
from ndcg_core.teaching.figures import SpecFigure
from ndcg_core.teaching.playground import DEFAULT_STATE, make_items


def _decoded(value):
    """JSON with plotly's typed arrays ({"dtype", "bdata"}) turned back into plain lists."""
    if isinstance(value, dict):
        if set(value) == {"dtype", "bdata"}:
            return np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"]).tolist()
        return {k: _decoded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decoded(v) for v in value]
    return value


def _sent(spec: dict) -> dict:
    return _decoded(json.loads(pio.to_json(spec, validate=False)))


STATES = {
    "wikipedia": DEFAULT_STATE,
    "html labels, k < n": replace(
        DEFAULT_STATE, items=make_items([("<b>x</b>", 3.0), ("a & b", 0.0), ("c", 2.0)], start=1)
    ),
    "1,000 items": replace(
        DEFAULT_STATE, items=make_items([(f"D{i}", float(i % 4)) for i in range(1000)], start=1)
    ),
}


@pytest.mark.parametrize("state", STATES.values(), ids=STATES.keys())
@pytest.mark.parametrize("kind", rendering.CHART_KINDS)
def test_a_chart_sends_the_figure_plotly_would_send(state, kind):
    rendering.clear()
    fig = rendering.state_figure(state, kind)
    assert isinstance(fig, SpecFigure)
    ours, plotlys = _sent(fig.to_dict()), _sent(go.Figure.to_dict(fig))
    assert ours == plotlys
    assert ours["data"] and ours["layout"]["title"]["text"]


def test_the_spec_handed_out_is_a_fresh_outer_dict_and_copies_are_real_figures():
    fig = rendering.state_figure(DEFAULT_STATE, "gains")
    first = fig.to_dict()
    first["layout"]["height"] = 1
    first["data"].clear()
    again = fig.to_dict()
    assert again["layout"]["height"] == 300 and len(again["data"]) == 3
    slide = slide_figure(fig)  # a real copy, changed for slides; the shared figure is not
    assert slide.layout.font.size == 26 and fig.to_dict()["layout"]["font"]["size"] == 14


def test_plotly_objects_are_built_only_when_asked_for():
    rendering.clear()
    fig = rendering.state_figure(DEFAULT_STATE, "cumulative")
    pio.to_json(fig.to_dict(), validate=False)  # what Streamlit does to draw it
    assert "_data_objs" not in fig.__dict__  # plotly's per-trace objects: not made for a draw
    # asked for, they are there, with the spec's values: Wikipedia's D1..D6 (3,2,3,0,1,2) under
    # rel_1 + sum rel_i / log2(i), the default formula, end at DCG@6 = 8.097
    assert [t.name for t in fig.data] == ["IDCG (ideal order)", "DCG (your order)"]
    assert fig.data[1].y[-1] == pytest.approx(3 + 2 + 3 / np.log2(3) + 1 / np.log2(5) + 2 / np.log2(6))
    assert fig.layout.height == 300


def test_sessions_asking_for_plotly_objects_at_once_each_get_the_whole_figure():
    """Sessions share a state's figure: the first to ask builds plotly's objects, the others wait."""
    rendering.clear()
    fig = rendering.state_figure(DEFAULT_STATE, "gains")
    start, copies, errors = threading.Barrier(8), [], []

    def copy():
        start.wait()
        try:
            copies.append(go.Figure(fig))  # reads fig.data, fig.layout and fig.frames
        except Exception as err:
            errors.append(err)

    threads = [threading.Thread(target=copy) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(copies) == 8
    assert all(len(c.data) == 3 and c.layout.height == 300 for c in copies)


def test_step_4_draws_the_dcg_alone_the_ideal_comes_at_step_5():
    """Issue 38: step 4's chart showed the ideal ordering's curve a step before the lesson teaches it."""
    from ndcg_core.teaching.lesson import STEP_CHARTS
    from ndcg_core.teaching.playground import LESSON_STATE

    step4 = rendering.state_figure(LESSON_STATE, STEP_CHARTS[4])
    step5 = rendering.state_figure(LESSON_STATE, STEP_CHARTS[5])
    assert [t.name for t in step4.data] == ["DCG (your order)"]
    assert [t.name for t in step5.data] == ["IDCG (ideal order)", "DCG (your order)"]
    dcg = [3, 3 + 2 / math.log2(3), 3 + 2 / math.log2(3) + 3 / 2]  # D1..D6 under log2(i + 1)
    assert list(step4.data[0].y[:3]) == pytest.approx(dcg)

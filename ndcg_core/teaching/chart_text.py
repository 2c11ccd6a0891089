"""A chart in words and numbers: the text alternative every chart of the app carries.

A screen reader cannot read a plotly chart, and a student who cannot see colour cannot tell its
lines apart by colour alone. So each chart comes with a one-sentence summary (its title, its axes
and its series) and its numbers as a table, one row per point on the horizontal axis and one
column per series, as the legend names them.

>>> from ndcg_core import explain
>>> from ndcg_core.teaching.figures import gains_figure
>>> table = chart_table(gains_figure(explain([3, 2, 3, 0, 1, 2])))
>>> list(table.columns), len(table)
(['position', 'gain', 'discounted gain', 'ideal, discounted'], 6)
"""

from __future__ import annotations

import base64
import html
import itertools
import re
import threading
from collections import OrderedDict

import numpy as np
import pandas as pd

from ..i18n import _, language, separator

_TAG = re.compile(r"<[^>]+>")


def _text(value) -> str:
    """A plotly title (a string or ``{"text": ...}``) as plain text: no tags, no entities."""
    if isinstance(value, dict):
        value = value.get("text")
    return " ".join(html.unescape(_TAG.sub(" ", str(value or ""))).split())


def _array(value) -> np.ndarray:
    """A trace's coordinates: a list or array, or plotly's typed-array form (``bdata``)."""
    if isinstance(value, dict) and "bdata" in value:
        data = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        return data.reshape(value["shape"]) if "shape" in value else data
    return np.asarray(value)


def _layout(figure) -> dict:
    return figure.to_dict()["layout"]


def _series(figure) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Each drawn trace with both coordinates: its name, x and y."""
    out = []
    y_title = _text(_layout(figure).get("yaxis", {}).get("title"))
    for trace in figure.to_dict()["data"]:
        name = _text(trace.get("name")) or y_title or "y"
        if trace.get("type") == "histogram" and trace.get("x") is not None and trace.get("y") is None:
            out.append((name, *_binned(_array(trace["x"]).astype(float), trace.get("xbins") or {})))
            continue
        if trace.get("x") is None or trace.get("y") is None or trace.get("showlegend") is False:
            continue  # no coordinates, or a mark the legend does not name (the current point)
        out.append((name, _array(trace["x"]), _array(trace["y"]).astype(float)))
    return out


def _binned(values: np.ndarray, bins: dict) -> tuple[np.ndarray, np.ndarray]:
    """A histogram trace's bars, as plotly draws them from its ``xbins``: each non-empty bin as
    "from – to" and its count."""
    values = values[~np.isnan(values)]
    if not values.size:
        return np.array([], dtype=object), np.array([], dtype=float)
    size = float(bins.get("size") or (np.ptp(values) / 10 or 1.0))
    start = float(bins.get("start", values.min()))
    end = max(float(bins.get("end", values.max())), float(values.max()))
    edges = start + size * np.arange(int(np.ceil((end - start) / size)) + 2)
    counts, _edges = np.histogram(values, bins=edges)
    keep = counts > 0
    labels = np.array([f"{a:.3f} – {b:.3f}" for a, b in itertools.pairwise(edges)], dtype=object)
    return labels[keep], counts[keep].astype(float)


def chart_table(figure) -> pd.DataFrame:
    """The chart's numbers: the horizontal axis's values, then one column per series.

    Points a series does not have are empty; a series' values are rounded to 3 decimals, as the
    app shows every computed value.
    """
    layout = _layout(figure)
    x_title = _text(layout.get("xaxis", {}).get("title")) or "x"
    columns: dict[str, pd.Series] = {}
    for name, x, y in _series(figure):
        column = name if name not in columns and name != x_title else f"{name} ({len(columns) + 1})"
        x = np.round(x, 3) if x.dtype.kind == "f" else x  # as the hover shows them
        whole = bool(np.all(np.mod(y[np.isfinite(y)], 1) == 0))  # counts, grades: no ".0"
        series = pd.Series(np.round(y, 3), index=pd.Index(x))
        columns[column] = series.astype("Int64") if whole else series
    if not columns:
        return pd.DataFrame({x_title: []})
    table = pd.concat(columns, axis=1).sort_index()
    table.index.name = x_title
    return table.reset_index()


def chart_summary(figure) -> str:
    """One sentence: what the chart shows, along which axes, in which series.

    >>> from ndcg_core import explain
    >>> from ndcg_core.teaching.figures import gains_figure
    >>> chart_summary(gains_figure(explain([3, 2, 0]))).startswith("Chart: ")
    True
    """
    layout = _layout(figure)
    names = [name for name, _x, _y in _series(figure)]
    text = _("Chart: {title}. Across: {x}; up: {y}. Series: {series}. Its numbers are in the table below.")
    return text.format(
        title=_text(layout.get("title")) or "–",
        x=_text(layout.get("xaxis", {}).get("title")) or "x",
        y=_text(layout.get("yaxis", {}).get("title")) or "y",
        series=separator(", ").join(names) or "–",
    )


#: The text alternatives last made, by figure (the same object, in the same language): a page run
#: that draws a chart it drew before (the playground's figures are cached per state) does not read
#: the figure again. The figures are kept with them, so an id is never another figure's.
_MADE: OrderedDict[tuple[int, str], tuple[object, str, pd.DataFrame]] = OrderedDict()
_MADE_LOCK = threading.Lock()
MADE_KEPT = 64


def chart_texts(figure) -> tuple[str, pd.DataFrame]:
    """:func:`chart_summary` and :func:`chart_table` of ``figure``, made once per figure object and
    language. The table is shared: read it, never change it in place.

    >>> from ndcg_core import explain
    >>> from ndcg_core.teaching.figures import gains_figure
    >>> fig = gains_figure(explain([3, 2, 0]))
    >>> chart_texts(fig)[1] is chart_texts(fig)[1]
    True
    """
    key = (id(figure), language())
    with _MADE_LOCK:
        made = _MADE.get(key)
        if made is not None and made[0] is figure:
            _MADE.move_to_end(key)
            return made[1], made[2]
    summary, table = chart_summary(figure), chart_table(figure)
    with _MADE_LOCK:
        _MADE[key] = (figure, summary, table)
        while len(_MADE) > MADE_KEPT:
            _MADE.popitem(last=False)
    return summary, table

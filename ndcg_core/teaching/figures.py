"""Plotly figures of one NDCG computation, sized to read on a projector.

Item labels only ever reach a figure HTML-escaped (plotly renders a subset
of HTML in text), so a label such as ``<b>x</b>`` shows literally.
"""

from __future__ import annotations

import html
import threading
from functools import lru_cache

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from ..explanation import Explanation
from ..i18n import _, ngettext
from ..metrics import ndcg
from ..rules import DISCOUNT_RULES

__all__ = ["cumulative_figure", "gains_figure", "ndcg_at_k_figure"]

RANKING = "#1f77b4"
IDEAL = "#ff7f0e"
MUTED = "#9aa5b1"
HEIGHT = 300
#: Legends go under the chart, left-aligned: above it they ran into the title on a phone.
LEGEND = {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "xanchor": "left", "x": 0}
#: The layout every chart shares, built by plotly (:func:`_layout`) or as a plain spec (:func:`_built`).
_FRAME = {
    "height": HEIGHT,
    "margin": {"l": 50, "r": 10, "t": 40, "b": 40},
    "font": {"size": 14},
    "legend": LEGEND,
    "hovermode": "x unified",
    "plot_bgcolor": "white",
}
_Y_GRID = {"gridcolor": "#e5e7eb", "zerolinecolor": "#9ca3af"}


def _layout(fig: go.Figure, title: str, x_title: str, y_title: str) -> go.Figure:
    fig.update_layout(
        title={"text": title, "font": {"size": 16}}, xaxis_title=x_title, yaxis_title=y_title, **_FRAME
    )
    few = bool(fig.data) and fig.data[0].x is not None and len(fig.data[0].x) <= 30
    fig.update_xaxes(showgrid=False, dtick=1 if few else None)
    fig.update_yaxes(**_Y_GRID)
    return fig


def _hover(steps: pd.DataFrame) -> list[str]:
    """Item names for hover text, HTML-escaped; a list of str, which orjson writes without
    plotly's slow cleaning pass (an object array would need it)."""
    return [html.escape(str(x)) for x in steps["Item"]]


def _cutoff_line(k: int, n: int) -> dict:
    """A dotted vertical line after position k, labelled (nothing when k covers the list)."""
    if k >= n:
        return {}
    x = k + 0.5
    return {
        "shapes": [
            {
                "type": "line",
                "x0": x,
                "x1": x,
                "xref": "x",
                "y0": 0,
                "y1": 1,
                "yref": "y domain",
                "line": {"dash": "dot", "color": "#6b7280"},
            }
        ],
        "annotations": [
            {
                "x": x,
                "xref": "x",
                "y": 1,
                "yref": "y domain",
                "text": f"k = {k}",
                "showarrow": False,
                "xanchor": "left",
                "yanchor": "top",
            }
        ],
    }


@lru_cache(maxsize=4)
def _template(name: str | None) -> dict:
    """The plain dict of a plotly template (``{}`` for none), once per name: read it only."""
    return pio.templates[name].to_plotly_json() if name else {}


_BUILD_LOCK = threading.Lock()


class SpecFigure(go.Figure):
    """A figure kept as the plain spec it is made of (``{"data": [...], "layout": {...}}``).

    Streamlit draws a figure from ``to_dict()``, which here hands out the spec as it is; plotly's
    own builds an object per trace and property, then deep-copies it all and re-encodes every
    array: most of a chart's cost after a drag. plotly's objects are built only when something
    else is asked of the figure (``fig.data``, ``fig.layout``, ``go.Figure(fig)``, an image).
    These figures are never changed after they are made (:mod:`ndcg_core.teaching.rendering` shares them
    between reruns): copy one with ``go.Figure(fig)`` to change it, as
    :func:`ndcg_core.teaching.export.slide_figure` does.
    """

    def __init__(self, spec: dict):  # plotly's __init__ runs later, in __getattr__
        # plotly's to_dict carries the default template the figure was made with: so does ours
        layout = {"template": _template(pio.templates.default), **spec["layout"]}
        self._spec = {"data": spec["data"], "layout": layout}

    def __getattr__(self, name: str):
        """Called when plotly's state is missing (an attribute or property of it is asked for
        first): build it, once, then answer. Sessions share these figures, so the build is locked;
        inside it, plotly's own lookups of what it has not set yet fail as usual."""
        state = self.__dict__
        if name.startswith("__") or "_spec" not in state or state.get("_built"):
            raise AttributeError(name)
        if state.get("_builder") == threading.get_ident():
            raise AttributeError(name)
        with _BUILD_LOCK:
            if not state.get("_built"):
                state["_builder"] = threading.get_ident()
                try:
                    super().__init__(self._spec, _validate=False)
                    state["_built"] = True
                finally:
                    state["_builder"] = None
        return getattr(self, name)

    def to_dict(self) -> dict:
        """The spec the figure was made from: new outer dicts, shared values (read them only)."""
        return {"data": [dict(t) for t in self._spec["data"]], "layout": dict(self._spec["layout"])}


def _built(traces: list[dict], title: str, x_title: str, y_title: str, y_range=None, **layout) -> SpecFigure:
    """A figure from plain dicts, laid out as :func:`_layout` does, without plotly's per-property
    validation (the slow part of building a figure; these specs are fixed and tested)."""
    few = bool(traces) and len(traces[0]["x"]) <= 30
    spec = {
        "data": traces,
        "layout": {
            "title": {"text": title, "font": {"size": 16}},
            **_FRAME,
            "xaxis": {"title": {"text": x_title}, "showgrid": False, **({"dtick": 1} if few else {})},
            "yaxis": {
                "title": {"text": y_title},
                **_Y_GRID,
                **({"range": y_range} if y_range is not None else {}),
            },
            **layout,
        },
    }
    return SpecFigure(spec)


def _line(x, y, name: str, color: str, hovertemplate: str, customdata=None) -> dict:
    trace = {
        "type": "scatter",
        "x": np.asarray(x),
        "y": np.asarray(y),
        "name": name,
        "mode": "lines+markers",
        "line": {"color": color, "width": 3},
        "hovertemplate": hovertemplate,
    }
    if customdata is not None:
        trace["customdata"] = customdata
    return trace


def gains_figure(ex: Explanation) -> go.Figure:
    """Gain and discounted gain at each position, ranking against the ideal ordering."""
    s, i = ex.steps, ex.ideal_steps
    hover = _hover(s)
    traces = [
        {
            "type": "bar",
            "x": s["Position"].to_numpy(),
            "y": s["Gain"].to_numpy(),
            "name": _("gain"),
            "marker": {"color": MUTED},
            "opacity": 0.55,
            "customdata": hover,
            "hovertemplate": _("%{customdata}: gain %{y:.3f}") + "<extra></extra>",
        },
        {
            "type": "bar",
            "x": s["Position"].to_numpy(),
            "y": s["Discounted gain"].to_numpy(),
            "name": _("discounted gain"),
            "marker": {"color": RANKING},
            "customdata": hover,
            "hovertemplate": _("%{customdata}: discounted %{y:.3f}") + "<extra></extra>",
        },
        _line(
            i["Position"],
            i["Discounted gain"],
            _("ideal, discounted"),
            IDEAL,
            _("ideal %{customdata}: %{y:.3f}") + "<extra></extra>",
            _hover(i),
        ),
    ]
    return _built(
        traces,
        _("What each position contributes"),
        _("position"),
        _("gain"),
        barmode="overlay",
        bargap=0.25,
        **_cutoff_line(ex.k, max(len(s), len(i))),
    )


def cumulative_figure(ex: Explanation, *, ideal: bool = True) -> go.Figure:
    """Cumulative DCG against cumulative IDCG, position by position (``ideal=False``: the DCG alone,
    for a page that has not yet taught the ideal ordering)."""
    s, i = ex.steps, ex.ideal_steps
    traces = (
        [
            _line(
                i["Position"],
                i["Cumulative DCG"],
                _("IDCG (ideal order)"),
                IDEAL,
                _("ideal %{customdata}: %{y:.3f}") + "<extra></extra>",
                _hover(i),
            )
        ]
        if ideal
        else []
    )
    traces += [
        _line(
            s["Position"],
            s["Cumulative DCG"],
            _("DCG (your order)"),
            RANKING,
            "%{customdata}: %{y:.3f}<extra></extra>",
            _hover(s),
        ),
    ]
    return _built(
        traces,
        _("Cumulative DCG against the ideal") if ideal else _("Cumulative DCG, position by position"),
        _("position"),
        _("cumulative DCG"),
        **_cutoff_line(ex.k, max(len(s), len(i))),
    )


def ndcg_at_k_figure(curve: pd.DataFrame, k: int) -> go.Figure:
    """NDCG@k for every k, with the current k marked."""
    template = "NDCG@%{x} = %{y:.3f}<extra></extra>"
    traces = [_line(curve["k"], curve["ndcg"], "NDCG@k", RANKING, template)]
    here = curve[curve["k"] == k]
    if not here.empty:
        traces.append(
            {
                "type": "scatter",
                "x": here["k"].to_numpy(),
                "y": here["ndcg"].to_numpy(),
                "name": f"k = {k}",
                "mode": "markers",
                "marker": {"size": 16, "color": IDEAL, "symbol": "diamond"},
                "hovertemplate": template,
            }
        )
    low = min(0.0, float(curve["ndcg"].min()) - 0.05)
    return _built(traces, _("NDCG at every cutoff k"), "k", "NDCG@k", y_range=[low, 1.05])


def base_sensitivity_figure(
    grades, base: float, *, name: str = "ranking", ideal=None, k: int | None = None
) -> go.Figure:
    """NDCG against the log base, for both discounts: flat for log(i+1), moving for Järvelin–Kekäläinen."""
    bases = np.exp(np.linspace(np.log(1.2), np.log(12.0), 60))
    fig = go.Figure()
    lines = ("solid", "dash", "dot", "dashdot")  # each discount its own line, not only its colour
    for n, (discount, rule) in enumerate(DISCOUNT_RULES.items()):
        label, color = rule.text.format(log="log_b", i="i"), (RANKING, IDEAL, MUTED)[n % 3]
        values = [ndcg(grades, k, discount=discount, log_base=float(b), ideal=ideal) for b in bases]
        fig.add_scatter(
            x=bases,
            y=values,
            name=label,
            mode="lines",
            line={"color": color, "width": 3, "dash": lines[n % len(lines)]},
            hovertemplate="b = %{x:.2f}: NDCG %{y:.3f}<extra></extra>",
        )
        here = ndcg(grades, k, discount=discount, log_base=base, ideal=ideal)
        fig.add_scatter(
            x=[base],
            y=[here],
            mode="markers",
            showlegend=False,
            marker={"size": 14, "color": color, "symbol": "diamond"},
            hovertemplate="b = %{x:.2f}: NDCG %{y:.3f}<extra></extra>",
        )
    fig.update_xaxes(type="log")
    title = _("NDCG of {name} as the log base changes").format(name=html.escape(str(name)))
    return _layout(fig, title, _("log base b"), "NDCG")


def ndcg_histogram(per_query: pd.DataFrame, k_text: str = "") -> go.Figure:
    """How per-query NDCG is spread over a data set: every scored query is counted.

    The bars cover [0, 1] in steps of 0.05, widened to take in any NDCG below 0 or above 1
    (negative grades); queries without a score (NaN) are named in the title.
    """
    import numpy as np

    all_values = per_query["ndcg"].to_numpy(dtype=float)
    values = all_values[~np.isnan(all_values)]
    # Count in numpy and draw bars: a histogram trace would ship every query's value.
    low = min(0.0, float(np.floor(values.min() * 20) / 20)) if values.size else 0.0
    high = max(1.0, float(np.ceil(values.max() * 20) / 20)) if values.size else 1.0
    n_bins = min(round((high - low) / 0.05), 80)  # 0.05 wide, unless the range is very wide
    edges = np.linspace(low, high, n_bins + 1)
    counts, _edges = np.histogram(values, bins=edges)  # the last bin includes its right edge
    centers = (edges[:-1] + edges[1:]) / 2
    fig = go.Figure()
    fig.add_bar(
        x=centers,
        y=counts,
        width=float(edges[1] - edges[0]),
        marker_color=RANKING,
        customdata=np.stack([edges[:-1], edges[1:]], axis=1),
        hovertemplate=_("NDCG %{customdata[0]:.2f}-%{customdata[1]:.2f}: %{y} queries") + "<extra></extra>",
    )
    mean = float(values.mean()) if len(values) else 0.0
    fig.add_vline(
        x=mean,
        line_dash="dot",
        line_color=IDEAL,
        annotation_text=_("mean {value}").format(value=f"{mean:.3f}"),
    )
    fig.update_layout(bargap=0.05, showlegend=False)
    title = _("Per-query NDCG{k}").format(k=k_text)
    if (missing := all_values.size - values.size) > 0:
        title += " " + ngettext(
            "({n} query without a score not shown)", "({n} queries without a score not shown)", missing
        ).format(n=f"{missing:,}")
    return _layout(fig, title, f"NDCG{k_text}", _("queries"))

"""Plotly figures of one NDCG computation, sized to read on a projector.

Item labels only ever reach a figure HTML-escaped (plotly renders a subset
of HTML in text), so a label such as ``<b>x</b>`` shows literally.
"""

from __future__ import annotations

import html

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .i18n import _, ngettext
from .metrics import Explanation, ndcg

__all__ = ["cumulative_figure", "gains_figure", "ndcg_at_k_figure"]

RANKING = "#1f77b4"
IDEAL = "#ff7f0e"
MUTED = "#9aa5b1"
HEIGHT = 300


def _layout(fig: go.Figure, title: str, x_title: str, y_title: str) -> go.Figure:
    fig.update_layout(
        title={"text": title, "font": {"size": 16}},
        height=HEIGHT,
        margin={"l": 50, "r": 10, "t": 40, "b": 40},
        font={"size": 14},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "right", "x": 1},
        xaxis_title=x_title,
        yaxis_title=y_title,
        hovermode="x unified",
        plot_bgcolor="white",
    )
    few = bool(fig.data) and fig.data[0].x is not None and len(fig.data[0].x) <= 30
    fig.update_xaxes(showgrid=False, dtick=1 if few else None)
    fig.update_yaxes(gridcolor="#e5e7eb", zerolinecolor="#9ca3af")
    return fig


def _hover(steps: pd.DataFrame) -> list[str]:
    return [html.escape(str(x)) for x in steps["Item"]]


def _cutoff_line(fig: go.Figure, k: int, n: int) -> None:
    if k < n:
        fig.add_vline(x=k + 0.5, line_dash="dot", line_color="#6b7280", annotation_text=f"k = {k}")


def gains_figure(ex: Explanation) -> go.Figure:
    """Gain and discounted gain at each position, ranking against the ideal ordering."""
    s, i = ex.steps, ex.ideal_steps
    fig = go.Figure()
    fig.add_bar(
        x=s["Position"],
        y=s["Gain"],
        name=_("gain"),
        marker_color=MUTED,
        customdata=_hover(s),
        hovertemplate=_("%{customdata}: gain %{y:.3f}") + "<extra></extra>",
    )
    fig.add_bar(
        x=s["Position"],
        y=s["Discounted gain"],
        name=_("discounted gain"),
        marker_color=RANKING,
        customdata=_hover(s),
        hovertemplate=_("%{customdata}: discounted %{y:.3f}") + "<extra></extra>",
    )
    fig.add_scatter(
        x=i["Position"],
        y=i["Discounted gain"],
        name=_("ideal, discounted"),
        mode="lines+markers",
        line={"color": IDEAL, "width": 3},
        customdata=_hover(i),
        hovertemplate=_("ideal %{customdata}: %{y:.3f}") + "<extra></extra>",
    )
    fig.update_layout(barmode="overlay", bargap=0.25)
    fig.data[0].update(opacity=0.55)
    _cutoff_line(fig, ex.k, max(len(s), len(i)))
    return _layout(fig, _("What each position contributes"), _("position"), _("gain"))


def cumulative_figure(ex: Explanation) -> go.Figure:
    """Cumulative DCG against cumulative IDCG, position by position."""
    s, i = ex.steps, ex.ideal_steps
    fig = go.Figure()
    fig.add_scatter(
        x=i["Position"],
        y=i["Cumulative DCG"],
        name=_("IDCG (ideal order)"),
        mode="lines+markers",
        line={"color": IDEAL, "width": 3},
        customdata=_hover(i),
        hovertemplate=_("ideal %{customdata}: %{y:.3f}") + "<extra></extra>",
    )
    fig.add_scatter(
        x=s["Position"],
        y=s["Cumulative DCG"],
        name=_("DCG (your order)"),
        mode="lines+markers",
        line={"color": RANKING, "width": 3},
        customdata=_hover(s),
        hovertemplate="%{customdata}: %{y:.3f}<extra></extra>",
    )
    _cutoff_line(fig, ex.k, max(len(s), len(i)))
    return _layout(fig, _("Cumulative DCG against the ideal"), _("position"), _("cumulative DCG"))


def ndcg_at_k_figure(curve: pd.DataFrame, k: int) -> go.Figure:
    """NDCG@k for every k, with the current k marked."""
    fig = go.Figure()
    fig.add_scatter(
        x=curve["k"],
        y=curve["ndcg"],
        name="NDCG@k",
        mode="lines+markers",
        line={"color": RANKING, "width": 3},
        hovertemplate="NDCG@%{x} = %{y:.3f}<extra></extra>",
    )
    here = curve[curve["k"] == k]
    if not here.empty:
        fig.add_scatter(
            x=here["k"],
            y=here["ndcg"],
            name=f"k = {k}",
            mode="markers",
            marker={"size": 16, "color": IDEAL, "symbol": "diamond"},
            hovertemplate="NDCG@%{x} = %{y:.3f}<extra></extra>",
        )
    fig.update_yaxes(range=[min(0.0, float(curve["ndcg"].min()) - 0.05), 1.05])
    return _layout(fig, _("NDCG at every cutoff k"), "k", "NDCG@k")


def base_sensitivity_figure(
    grades, base: float, *, name: str = "ranking", ideal=None, k: int | None = None
) -> go.Figure:
    """NDCG against the log base, for both discounts: flat for log(i+1), moving for Järvelin–Kekäläinen."""
    bases = np.exp(np.linspace(np.log(1.2), np.log(12.0), 60))
    fig = go.Figure()
    for discount, label, color in (
        ("log", "log_b(i + 1)", RANKING),
        ("jarvelin", "max(1, log_b i)", IDEAL),
    ):
        values = [ndcg(grades, k, discount=discount, log_base=float(b), ideal=ideal) for b in bases]
        fig.add_scatter(
            x=bases,
            y=values,
            name=label,
            mode="lines",
            line={"color": color, "width": 3},
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
        hovertemplate="NDCG %{customdata[0]:.2f}-%{customdata[1]:.2f}: %{y} queries<extra></extra>",
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

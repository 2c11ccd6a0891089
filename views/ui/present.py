"""Presenter mode's look: the projector's stylesheet and the step's chart at projector size (Learn).

The stage is sized in the screen's width (``vw``), so one layout serves 1280×720 and 1920×1080;
only the chart is sized in px, as Streamlit draws charts.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from ndcg_core.teaching.chart_text import chart_summary, chart_table
from ndcg_core.teaching.export import table_html

#: The chart's type on the projector, in px: read from the back of a hall (the page's is 14 px).
PROJECTED_FONT = 15
#: The chart's height on the projector, in px: beside a 10-row table on a 1280×720 screen, under the
#: step's formula (Streamlit sizes a chart in px, not in the screen's width as the rest of the stage).
PROJECTED_CHART_PX = 225


def projected_chart(figure) -> None:
    """The step's chart beside the projector's table, its text larger. Its text alternative, the
    chart's summary and its numbers as a table, is for screen readers only: the projector has no
    room for the expander the other pages put under a chart."""
    big = go.Figure(figure).update_layout(
        font={"size": PROJECTED_FONT, "color": "#0b1220"},
        title_font_size=PROJECTED_FONT + 3,
        height=PROJECTED_CHART_PX,
        margin={"t": 34, "b": 62},
        plot_bgcolor="#ffffff",
        paper_bgcolor="#ffffff",
    )
    big.update_xaxes(automargin=True, title_standoff=4)  # its title under the ticks, not on them
    st.plotly_chart(
        big,
        key="learn_present_plot",
        height=PROJECTED_CHART_PX,
        alt=chart_summary(figure),
        config={"displayModeBar": False},
        theme=None,  # the figure's own type sizes, not Streamlit's
    )
    screen_reader_numbers(figure)


def screen_reader_numbers(figure) -> None:
    """A projected chart's numbers as a table only screen readers see, its summary as the caption."""
    numbers = table_html(chart_table(figure), caption=chart_summary(figure))
    st.html(f'<div class="ndcg-sr-only">{numbers}</div>')

"""Presenter mode's look: the projector's stylesheet and the step's chart at projector size (Learn).

The stage is sized in the screen's width (``vw``), so one layout serves 1280×720 and 1920×1080;
only the chart is sized in px, as Streamlit draws charts.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from ndcg_core.teaching.chart_text import chart_summary, chart_table
from ndcg_core.teaching.export import table_html

PRESENT_CSS = """
<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stExpandSidebarButton"],
header[data-testid="stHeader"], [data-testid="stToolbar"], [data-testid="stDecoration"] {
  display: none !important;
}
[data-testid="stMainBlockContainer"], .block-container {
  padding: 1.4vw 2.6vw 0.6vw 2.6vw !important; max-width: 100% !important;
}
[data-testid="stMain"] { background: #ffffff; }
.st-key-learn_stage { color: #0b1220; gap: 0.7vw; }
.learn-head { display: flex; align-items: baseline; gap: 1.6vw; margin: 0; }
.learn-badge { font-size: 1.6vw; font-weight: 700; color: #ffffff; background: #1d4ed8;
  border-radius: 0.5vw; padding: 0.1vw 0.8vw; white-space: nowrap; }
.learn-title { font-size: 3.5vw; font-weight: 800; line-height: 1.1; margin: 0; color: #0b1220; }
.learn-text p { font-size: 1.4vw; line-height: 1.28; margin: 0 0 0.3vw 0; color: #0b1220; }
.learn-text p.ask { font-weight: 700; color: #1d4ed8; }
.learn-text .answer { font-weight: 700; color: #047857; }
table.learn-table { border-collapse: collapse; font-size: 1.35vw; color: #0b1220; }
table.learn-table th, table.learn-table td { padding: 0.22vw 1.1vw; border-bottom: 2px solid #cbd5e1;
  font-size: 1.35vw; line-height: 1.2; }
table.learn-table th { text-align: left; border-bottom: 3px solid #0b1220; font-weight: 700; }
table.learn-table td.num, table.learn-table th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.learn-table tr.beyond td { color: #6b7280; font-style: italic; }
table.learn-table tr:not(.beyond) + tr.beyond td { border-top: 3px dashed #475569; }
.st-key-learn_stage [data-testid="stMetricValue"] { font-size: 3.5vw; line-height: 1.1; }
.st-key-learn_stage [data-testid="stMetricLabel"] p { font-size: 1.5vw; }
.st-key-learn_stage [data-testid="stMetric"] { padding: 0.3vw 1vw; }
.st-key-learn_stage .katex { font-size: 1.55vw; color: #0b1220; }
.st-key-learn_nav button p { font-size: 1.1vw; }
.st-key-learn_nav { margin-top: 0.4vw; }
.st-key-learn_hidden_keys { display: none !important; }
/* The room menu and the whole lesson's downloads: out of the flow, top right, so the slide keeps its room. */
.st-key-learn_corner { position: fixed !important; top: 1.2vw; right: 2.6vw; left: auto !important;
  width: auto !important; z-index: 5; }
.learn-room-line { font-size: 1.6vw !important; line-height: 1.1; margin: 0; color: #0b1220; }
.learn-room-line b { font-size: 2.6vw; font-weight: 800; }
/* A room the lesson drives: its join panel on step 1, its answers beside the table. */
.st-key-learn_room_join p { font-size: 1.3vw; margin: 0; }
.st-key-learn_room_join img { width: min(15vw, 32vh); height: auto; display: block; }
.learn-room-code { font-size: 3.4vw !important; font-weight: 800; letter-spacing: 0.14em; line-height: 1.1;
  margin: 0; color: #0b1220; white-space: nowrap; }
.st-key-learn_room_join code { font-size: 1.1vw; white-space: pre-wrap !important; word-break: break-all; }
.learn-room-mistake { font-size: 1.1vw; line-height: 1.25; margin: 0; color: #0b1220; }
.st-key-learn_present_side .katex { font-size: 1.15vw; }
.st-key-learn_present_side .katex-display { margin: 0.1vw 0; }
.st-key-learn_present_side [data-testid="stMetricLabel"] p { font-size: 1.2vw; }
</style>
"""


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

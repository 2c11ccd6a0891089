"""Plotly charts that never hold back a session's first screen."""

from __future__ import annotations

import streamlit as st

from ndcg_core.i18n import _
from ndcg_core.teaching.chart_text import chart_texts
from ndcg_core.teaching.figures import HEIGHT as FIGURE_HEIGHT

from . import keys
from .markup import md_escape

#: A component with no markup: once the browser has painted the page it arrived with, it asks the
#: server for a rerun (a trigger value), which draws the chart its placeholder stands for.
_PAINTED = st.components.v2.component(
    "ndcg_painted",
    js="""
export default function ({ setTriggerValue }) {
  requestAnimationFrame(() => setTimeout(() => setTriggerValue("painted", true), 0));
}
""",
)


def chart(figure, *, key: str) -> None:
    """``st.plotly_chart(figure)``, but never on a session's first screen.

    The browser loads plotly (about 4.7 MB of script) the first time a page shows a chart, and
    the elements that arrived with that chart were mostly drawn only once plotly was ready: on the
    playground the metric and the drag list appeared about a second later than without the chart,
    which sits two screens below them. So the first chart of a session is a placeholder of the
    chart's height; once the browser has painted the page it asks for a rerun (of the fragment the
    chart is in, or of the page), which draws the chart. Without that request (no script), the
    chart comes with the next rerun, whatever causes it.
    """
    ss = st.session_state
    if ss.get(keys.CHART_SENT):
        st.plotly_chart(figure, key=key)
    else:
        ss[keys.CHART_SENT] = True  # the next run draws the chart, whatever asks for it
        # Every figure is FIGURE_HEIGHT tall. The key's prefix is what views/ui/styles.py styles.
        with st.container(height=FIGURE_HEIGHT, border=False, key=f"pending_chart_{key}"):
            st.caption(_("Drawing the chart…"))
            _PAINTED(key=f"{key}_painted", on_painted_change=lambda: None)
    chart_text(figure, key=key)


def chart_text(figure, *, key: str) -> None:
    """The chart's text alternative, under it: a sentence saying what it shows, and its numbers as
    a table a keyboard reaches (in an expander, so it takes one line until opened)."""
    summary, table = chart_texts(figure)
    with st.container(key=f"chart_text_{key}"):
        st.caption(md_escape(summary))
        with st.expander(_("The chart's numbers")):
            st.dataframe(table, hide_index=True)

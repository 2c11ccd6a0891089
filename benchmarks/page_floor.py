"""The Playground's elements with nothing computed: Streamlit's own cost of drawing that page.

The same kinds of element, as many, nested the same way as a run of the Playground at 6 items
(the sidebar's formula controls and worked examples, the metric row, the three tabs with the drag
list and two table editors, the two step tables, the formulas, the chart and its table, the links),
with fixed labels and data made once per process. What a Playground run costs beyond this page is
the app's own code; what this page costs beyond ``peer_minimal_app.py`` is the elements themselves.
``benchmarks/page_profile.py`` runs all three the same way.
"""

import gc

import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from streamlit_sortables import sort_items

from ndcg_core.teaching.figures import HEIGHT
from views.ui.drag import SORTABLE_STYLE


@st.cache_resource
def _made() -> tuple:
    """The run's data, made once: what the app's caches hold for an unchanged state. The process's
    modules are then frozen out of the garbage collector's passes, as the Playground's are
    (``views.ui.session.warm_process``; see ``peer_minimal_app.py``)."""
    steps = pd.DataFrame({"Item": [f"D{i}" for i in range(1, 7)], "Grade": ["3", "2", "3", "0", "1", "2"]})
    figure = go.Figure(go.Bar(x=list(range(1, 7)), y=[3, 1.26, 1.5, 0, 0.39, 0.71]))
    figure.update_layout(height=HEIGHT)
    table = '<div class="step-table-wrap" tabindex="0"><table>' + "<tr><td>1</td></tr>" * 6 + "</table></div>"
    gc.collect()
    gc.freeze()
    return steps, figure, table


steps, figure, table = _made()
words = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore"

with st.sidebar:  # the language switch, the formula controls, start over, state, worked examples
    st.segmented_control("Language", ["English", "中文"], key="lang", default="English")
    st.subheader("Formula")
    st.caption(words)
    st.selectbox("Score as", ["the formula below", "trec_eval", "sklearn"], key="preset", help=words)
    st.toggle("Whole list (k = n)", key="k_all", value=True, help=words)
    st.number_input("Cutoff k", min_value=1, value=6, key="k", disabled=True, help=words)
    st.radio("Gain", ["linear", "exponential", "custom"], key="gain", horizontal=True, help=words)
    st.caption(words)
    st.radio("Discount", ["log", "rank", "none"], key="discount", horizontal=True, help=words)
    st.caption(words)
    st.radio("Log base", ["2", "e", "10", "custom"], key="base", horizontal=True, help=words)
    st.selectbox("When IDCG = 0", ["0", "1", "nan"], key="zero", help=words)
    st.caption(words)
    st.selectbox("Tied scores", ["optimistic", "pessimistic", "average"], key="ties", help=words)
    st.caption(words)
    st.html('<div class="quiet"></div>')
    st.button("Start over (Wikipedia D1..D6)", width="stretch")
    with st.expander("Save or load this state"):
        st.download_button("Download this state", "{}", file_name="state.json")
        st.file_uploader("Load a saved state", type=["json"])
    st.subheader("Worked examples")
    st.caption(words)
    for n in range(5):
        st.expander(f"Worked example {n}")

st.html('<div class="quiet"></div>')
st.markdown("# NDCG, step by step")
st.caption(words)
st.caption(words, help=words)


@st.fragment
def body() -> None:
    # A drop is read before the metric row is drawn, as the Playground reads it; the first metric
    # shows the top item, as the bare page's does (what app_speed.py's drag watches).
    lines = [f"D{i}  ·  {g}" for i, g in enumerate(steps["Grade"], 1)]
    order = (st.session_state.get("sort") or [{"items": lines}])[0]["items"]
    with st.container(horizontal=True):
        pass
    with st.container(horizontal=True, gap="small", key="metric_row"):
        st.metric("first", order[0].split()[0], border=True)
        for name in ("DCG@6", "IDCG@6", "CG@6"):
            st.metric(name, "0.932", border=True)
    st.html('<div class="quiet say" data-key="ndcg"></div>')
    with st.container(horizontal=True):
        left, right = st.columns([0.34, 0.66], gap="medium")
    with right:
        for title in ("**Your ranking**", "**Ideal ordering**"):
            with st.container(key=f"box_{title[2:6]}"):
                st.markdown(title)
                st.html(table)
                with st.expander("What the columns mean"):
                    st.markdown(words)
    with left:
        order_tab, edit_tab, pool_tab = st.tabs(["Order", "Edit items", "Not retrieved"])
        with edit_tab:
            st.text_area("Type or paste a list", key="quick")
            st.caption(words)
            st.data_editor(steps, key="items", num_rows="dynamic", hide_index=True)
        with pool_tab:
            st.caption(words)
            st.data_editor(steps.iloc[:0], key="pool", num_rows="dynamic", hide_index=True)
        with order_tab:
            st.caption("Drag an item to a new position.")
            with st.container(key="drag_rows"):
                sort_items(lines, direction="vertical", custom_style=SORTABLE_STYLE, key="sort")
            with st.container(horizontal=True, gap="small"):
                for how in ("Ideal", "Worst", "Reverse", "Shuffle", "Reset"):
                    st.button(how, key=f"order_{how}", width="stretch", help=words)
            st.selectbox("Move an item (keyboard friendly)", steps["Item"].tolist(), key="move")
            with st.container(horizontal=True, gap="small"):
                for how in ("Move up", "Move down", "Undo", "Redo"):
                    st.button(how, key=how, width="stretch")
    st.markdown("## The formula with your numbers")
    for n in range(4):
        st.latex(r"\mathrm{DCG@6} = \frac{3}{\log_2 2} + \frac{2}{\log_2 3} + \frac{3}{\log_2 4} + " + str(n))
    st.caption(words)
    st.segmented_control(
        "Chart", ["Gain per position", "Cumulative DCG"], key="chart", default="Cumulative DCG"
    )
    st.plotly_chart(figure, key="chart_figure")
    with st.container(key="chart_text"):
        st.caption(words)
        with st.expander("The chart's numbers"):
            st.dataframe(steps, hide_index=True)
    st.expander("Export for slides", key="export", on_change="rerun")


body()
with st.container():  # where next: the app's page links, here buttons (a bare script has no pages)
    st.markdown("**Where next**")
    for name in ("Learn", "Practice", "Explore", "Data sets", "Class"):
        st.button(name, key=f"next_{name}")

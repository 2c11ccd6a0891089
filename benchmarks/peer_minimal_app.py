"""The floor to compare against: a bare Streamlit page with the same drag component and one metric.

Opened once with ``?gc=freeze``, its server process takes the imported modules out of the
garbage collector's passes, as the playground does (``views.ui.session.warm_process``): without it,
the full pass Streamlit runs after every script run (about 0.1 s here) holds the interpreter
before the run's messages are sent, and a drag waits for it.
"""

import gc

import streamlit as st
from streamlit_sortables import sort_items


@st.cache_resource
def _freeze() -> bool:
    gc.collect()
    gc.freeze()
    return True


if st.query_params.get("gc") == "freeze":
    _freeze()
n = int(st.query_params.get("n", "6"))
items = [f"D{i}" for i in range(1, n + 1)]
order = sort_items(items, direction="vertical", key="sort")
st.metric("first", order[0])

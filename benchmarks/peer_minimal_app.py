"""The floor to compare against: a bare Streamlit page with the same drag component and one metric."""

import streamlit as st
from streamlit_sortables import sort_items

n = int(st.query_params.get("n", "6"))
items = [f"D{i}" for i in range(1, n + 1)]
order = sort_items(items, direction="vertical", key="sort")
st.metric("first", order[0])

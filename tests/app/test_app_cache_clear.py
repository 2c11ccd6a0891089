"""Issue 30, part 2: nothing a visitor sends clears other users' data sets.

One anonymous websocket message, ``BackMsg(clear_cache=True)``, makes Streamlit's server run
``st.cache_data.clear()`` and ``st.cache_resource.clear()`` (``AppSession._handle_clear_cache_request``)
for every user; the uploaded tables lived in ``st.cache_resource``, so every user's next click said
the data set was no longer in memory. The test does what the server does on that message.
"""

from __future__ import annotations

import io
import pathlib

import streamlit as st
from apptest_support import ok
from streamlit.testing.v1 import AppTest

import ndcg_core
from ndcg_core.teaching.uploads import DataSetFiles
from views import datastore
from views.ui import keys

ROOT = pathlib.Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
QRELS = b"q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\n"
RUN = b"q1 Q0 d1 1 0.9 t\nq1 Q0 d2 2 0.8 t\nq1 Q0 d3 3 0.5 t\n"
# NDCG@10 of d1, d2, d3 graded 2, 0, 1 (linear gain, log2(i + 1)): (2 + 1/2) / (2 + 1/log2(3)).
NDCG = (2 + 1 / 2) / (2 + 1 / 1.584962500721156)


def clear_cache_message() -> None:
    """What Streamlit's server runs on a client's clear_cache message (for every user)."""
    st.cache_data.clear()
    st.cache_resource.clear()


def test_a_stored_data_set_survives_a_client_cache_clear():
    datastore.reset_stores()
    try:
        qrels, run = datastore.load("qrels", QRELS, "q.txt"), datastore.load("run", RUN, "r.txt")
        clear_cache_message()
        assert datastore.get_table(run)["doc"].tolist() == ["d1", "d2", "d3"]
        assert datastore.get_table(qrels)["relevance"].tolist() == [2, 0, 1]
    finally:
        datastore.reset_stores()


def test_another_users_page_still_shows_the_data_set_after_a_client_cache_clear():
    datastore.reset_stores()
    try:
        at = AppTest.from_file(APP, default_timeout=60).run()
        at.session_state[keys.DS_DATA] = DataSetFiles(  # as the page stores a loaded pair
            datastore.load("qrels", QRELS, "q.txt"),
            "q.txt",
            (("r.txt", datastore.load("run", RUN, "r.txt")),),
        )
        at.switch_page("views/datasets.py").run()
        assert not at.exception
        clear_cache_message()  # sent by some other visitor
        at.run()
        ok(at)
        means = {m.label: m.value for m in at.metric}
        assert means["Mean NDCG@10"] == f"{NDCG:.3f}", means
        assert not any("no longer" in e.value for e in [*at.error, *at.warning, *at.info])
    finally:
        datastore.reset_stores()


def test_ndcg_by_hand_matches_the_engine():
    """The expected value above is a closed form; the engine agrees (a guard on the fixture)."""
    table = ndcg_core.evaluate(
        ndcg_core.read_qrels(io.BytesIO(QRELS)), ndcg_core.read_run(io.BytesIO(RUN)), 10, preset="trec_eval"
    )
    assert abs(float(table["ndcg"].iloc[0]) - NDCG) < 1e-9

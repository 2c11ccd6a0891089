"""The data-set page through AppTest: both averages, presets, search, and the drill-down."""

from __future__ import annotations

import pathlib

import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core

ROOT = pathlib.Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
QRELS = ndcg_core.read_qrels(ROOT / "assets" / "sample_qrels.tsv")
RUN = ndcg_core.read_run(ROOT / "assets" / "sample_run.tsv")


def datasets(params: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in (params or {}).items():
        at.query_params[key] = value
    return at.run().switch_page("views/datasets.py").run()


def ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def shown(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_sample_loads_by_default_with_both_averages():
    at = datasets({"rel": "1,0", "k": "10"})  # plain formula: log2 discount, k = 10
    ok(at)
    expected = ndcg_core.aggregate(ndcg_core.evaluate(QRELS, RUN, 10))
    got = shown(at)
    assert got["Mean NDCG@10"] == ndcg_core.formula.number(expected.mean_ndcg)
    assert got["ΣDCG@10 / ΣIDCG@10"] == ndcg_core.formula.number(expected.ratio_of_sums)
    assert got["Queries"] == "250"
    assert got["Queries with IDCG = 0"] == str(expected.n_idcg_zero)
    assert any("scored them 0" in c.value for c in at.caption)


def test_zero_idcg_policy_changes_the_mean():
    at = datasets({"rel": "1,0", "k": "10", "zero": "skip"})
    ok(at)
    expected = ndcg_core.aggregate(ndcg_core.evaluate(QRELS, RUN, 10, zero_idcg="skip"))
    assert shown(at)["Mean NDCG@10"] == ndcg_core.formula.number(expected.mean_ndcg)


@pytest.mark.parametrize("preset", ["trec_eval", "sklearn"])
def test_presets(preset):
    at = datasets({"rel": "1,0", "k": "10"})
    at.selectbox(key="ds_preset").set_value(preset).run()
    ok(at)
    expected = ndcg_core.aggregate(ndcg_core.evaluate(QRELS, RUN, 10, preset=preset))
    assert shown(at)["Mean NDCG@10"] == ndcg_core.formula.number(expected.mean_ndcg)


def test_search_filters_the_table():
    at = datasets()
    at.text_input(key="ds_search").input("q01").run()
    ok(at)
    table = next(d.value for d in at.dataframe if "n_retrieved" in d.value.columns)
    assert len(table) > 0 and all("q01" in q for q in table["query"])
    at.text_input(key="ds_search").input("nothing-like-this").run()
    assert any("No query matches" in i.value for i in at.info)


def test_open_a_query_in_the_playground():
    at = datasets({"rel": "1,0", "k": "10"})
    at.selectbox(key="ds_query").set_value("q007").run()
    at.button(key="ds_open").click().run()
    ok(at)
    expected = ndcg_core.evaluate(QRELS, RUN, 10).set_index("query").loc["q007", "ndcg"]
    assert {m.label: m.value for m in at.metric}["NDCG@10"] == ndcg_core.formula.number(expected)
    retrieved = RUN[RUN["query"] == "q007"]
    assert len(at.session_state["pg_items"]) == len(retrieved)


def test_histogram_counts_every_scored_query():
    import json

    at = datasets({"rel": "1,0", "k": "10"})
    import base64

    import numpy as np

    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    counts = figure["data"][0]["y"]  # plotly ships numeric arrays base64-encoded
    if isinstance(counts, dict):
        counts = np.frombuffer(base64.b64decode(counts["bdata"]), dtype=counts["dtype"])
    total = int(np.sum(counts))
    expected = ndcg_core.evaluate(QRELS, RUN, 10)["ndcg"].notna().sum()
    assert total == expected


def test_histogram_keeps_negative_scores():
    import pandas as pd

    from ndcg_core.figures import ndcg_histogram

    fig = ndcg_histogram(pd.DataFrame({"ndcg": [-0.3, 0.5, 1.0]}))
    assert sum(fig.data[0].y) == 3
    assert min(fig.data[0].x) < 0

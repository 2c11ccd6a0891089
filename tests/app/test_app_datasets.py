"""The data-set page through AppTest: both averages, presets, search, and the drill-down."""

from __future__ import annotations

import pathlib

import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core

ROOT = pathlib.Path(__file__).resolve().parents[2]
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


def pytrec_eval_mean(measure: str = "ndcg_cut.10", qrels=QRELS, run=RUN) -> float:
    import pytrec_eval

    judged, ranked = {}, {}
    for q, d, g in qrels[["query", "doc", "relevance"]].itertuples(index=False):
        judged.setdefault(str(q), {})[str(d)] = int(g)
    for q, d, s in run[["query", "doc", "score"]].itertuples(index=False):
        ranked.setdefault(str(q), {})[str(d)] = float(s)
    result = pytrec_eval.RelevanceEvaluator(judged, {measure}).evaluate(ranked)
    key = measure.replace(".", "_")
    return sum(r[key] for r in result.values()) / len(result)


def test_defect_6_data_sets_default_to_trec_evals_ndcg_at_10_whatever_the_playground_shows():
    """Issue 8, defect 6: the sample showed the playground's Järvelin–Kekäläinen formula, not trec_eval's."""
    at = datasets()  # the playground opens on Wikipedia's example (original discount, k = 6)
    ok(at)
    assert f"{pytrec_eval_mean():.3f}" == shown(at)["Mean NDCG@10"]
    assert any("nDCG(ties='docid_desc')@10" in c.value for c in at.caption)
    # a k beyond the playground list's length is accepted
    at.toggle(key="ds_k_all").set_value(False).run()
    at.number_input(key="ds_k").set_value(20).run()
    ok(at)
    assert f"{pytrec_eval_mean('ndcg_cut.20'):.3f}" == shown(at)["Mean NDCG@20"]


def test_sample_loads_by_default_with_both_averages():
    at = datasets()
    ok(at)
    expected = ndcg_core.aggregate(ndcg_core.evaluate(QRELS, RUN, 10))
    got = shown(at)
    assert got["Mean NDCG@10"] == f"{expected.mean_ndcg:.3f}"
    assert got["ΣDCG@10 / ΣIDCG@10"] == f"{expected.ratio_of_sums:.3f}"
    assert got["Queries"] == "250"
    assert got["Queries with IDCG = 0"] == str(expected.n_idcg_zero)
    assert any("scored them 0" in c.value for c in at.caption)


def test_zero_idcg_policy_changes_the_mean():
    at = datasets()
    at.selectbox(key="ds_zero_idcg").set_value("skip").run()
    ok(at)
    expected = ndcg_core.aggregate(ndcg_core.evaluate(QRELS, RUN, 10, zero_idcg="skip"))
    assert shown(at)["Mean NDCG@10"] == f"{expected.mean_ndcg:.3f}"


@pytest.mark.parametrize("preset", ["trec_eval", "sklearn"])
def test_presets(preset):
    at = datasets()
    at.selectbox(key="ds_preset").set_value(preset).run()
    ok(at)
    expected = ndcg_core.aggregate(ndcg_core.evaluate(QRELS, RUN, 10, preset=preset))
    assert shown(at)["Mean NDCG@10"] == f"{expected.mean_ndcg:.3f}"


def test_search_filters_the_table():
    at = datasets()
    at.text_input(key="ds_search").input("q01").run()
    ok(at)
    table = next(d.value for d in at.dataframe if "n_retrieved" in d.value.columns)
    assert len(table) > 0 and all("q01" in q for q in table["query"])
    at.text_input(key="ds_search").input("nothing-like-this").run()
    assert any("No query matches" in i.value for i in at.info)


def test_open_a_query_in_the_playground():
    at = datasets()
    at.selectbox(key="ds_query").set_value("q007").run()
    at.button(key="ds_open").click().run()
    ok(at)
    expected = ndcg_core.evaluate(QRELS, RUN, 10).set_index("query").loc["q007", "ndcg"]
    assert {m.label: m.value for m in at.metric}["NDCG@10"] == f"{expected:.3f}"
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

    from ndcg_core.teaching.figures import ndcg_histogram

    fig = ndcg_histogram(pd.DataFrame({"ndcg": [-0.3, 0.5, 1.0]}))
    assert sum(fig.data[0].y) == 3
    assert min(fig.data[0].x) < 0


def test_defect_7_open_in_the_playground_keeps_the_chosen_library():
    """Issue 8, defect 7: "Score as" sklearn showed 0.567 in the table and 0.667 in the playground."""
    from sklearn.metrics import ndcg_score

    at = datasets()
    at.selectbox(key="ds_preset").set_value("sklearn").run()
    for query in ("q007", "q011", "q042"):
        at.selectbox(key="ds_query").set_value(query).run()
        at.button(key="ds_open").click().run()
        ok(at)
        retrieved = RUN[RUN["query"] == query]
        grade = QRELS[QRELS["query"] == query].set_index("doc")["relevance"]
        y_true = [float(grade.get(d, 0.0)) for d in retrieved["doc"]]
        expected = ndcg_score([y_true], [retrieved["score"].tolist()], k=10)
        assert {m.label: m.value for m in at.metric}["NDCG@10"] == f"{expected:.3f}", query
        assert at.session_state["pg_spec"].preset == "sklearn"
        at.switch_page("views/datasets.py").run()


def test_defect_9_headline_numbers_have_a_fixed_precision():
    """Issue 8, defect 9: values were trimmed (mean NDCG "0.48" instead of "0.480", "1" for 1.000)."""
    at = datasets()
    at.selectbox(key="ds_zero_idcg").set_value("one").run()
    ok(at)
    for label in ("Mean NDCG@10", "ΣDCG@10 / ΣIDCG@10"):
        value = shown(at)[label]
        assert len(value.partition(".")[2]) == 3, (label, value)
    at.switch_page("views/playground.py").run()
    at.button(key="order_ideal").click().run()
    ok(at)
    assert shown(at)["NDCG@6"] == "1.000"  # the ideal order: exactly 1, shown as 1.000
    assert all(len(v.partition(".")[2]) == 3 for v in shown(at).values()), shown(at)

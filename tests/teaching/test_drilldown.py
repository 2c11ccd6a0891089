"""A query opened from a data set shows the very NDCG of the per-query table."""

import pathlib

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ndcg_core
from ndcg_core.teaching.drilldown import query_state

ROOT = pathlib.Path(__file__).resolve().parents[2]
QRELS = ndcg_core.read_qrels(ROOT / "assets" / "sample_qrels.tsv")
RUN = ndcg_core.read_run(ROOT / "assets" / "sample_run.tsv")


@pytest.mark.parametrize("ties", ["docid_desc", "stable", "average"])
@pytest.mark.parametrize("k", [None, 5])
def test_every_sample_query_matches_evaluate(ties, k):
    table = ndcg_core.evaluate(QRELS, RUN, k, ties=ties)
    spec = table.attrs["spec"]
    table = table.set_index("query")
    for query in table.index:
        state = query_state(QRELS, RUN, query, spec=spec)
        assert state.explain().ndcg == pytest.approx(table.loc[query, "ndcg"], abs=1e-12), query


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 9), st.sampled_from([0.1, 0.5, 0.5, 0.9])), min_size=1, max_size=12),
    st.lists(st.tuples(st.integers(0, 12), st.integers(0, 3)), max_size=12),
    st.sampled_from(["docid_desc", "stable", "average"]),
)
def test_random_queries_match_evaluate(retrieved, judged, ties):
    run = pd.DataFrame(
        {"query": "q", "doc": [f"d{d}" for d, _ in retrieved], "score": [s for _, s in retrieved]}
    ).drop_duplicates("doc")
    qrels = pd.DataFrame(
        {"query": "q", "doc": [f"d{d}" for d, _ in judged], "relevance": [g for _, g in judged]}
    ).drop_duplicates("doc")
    if qrels.empty:
        qrels = pd.DataFrame({"query": ["q"], "doc": ["zz"], "relevance": [0]})
    table = ndcg_core.evaluate(qrels, run, 3, ties=ties)
    state = query_state(qrels, run, "q", spec=table.attrs["spec"])
    expected = table["ndcg"].iloc[0]
    assert state.explain().ndcg == pytest.approx(expected, abs=1e-12)


def test_unknown_query():
    with pytest.raises(ValueError, match="neither"):
        query_state(QRELS, RUN, "no-such-query", spec=ndcg_core.resolve())


DATASET_PRESETS = [p for p in ndcg_core.PRESETS if p not in {"sklearn-ignore-ties"}]


@pytest.mark.parametrize("preset", DATASET_PRESETS)
def test_defect_7_a_query_opened_under_a_library_keeps_its_rules(preset):
    """Issue 8, defect 7: "Score as" sklearn showed 0.567 in the table and 0.667 in the playground."""
    qrels = QRELS.assign(relevance=QRELS["relevance"].clip(lower=0))  # every preset accepts these grades
    try:
        table = ndcg_core.evaluate(qrels, RUN, 10, preset=preset)
    except ValueError as err:  # a library that refuses the sample (e.g. a one-document query)
        pytest.skip(str(err))
    spec = table.attrs["spec"]
    assert spec.preset == preset
    table = table.set_index("query")
    for query in list(table.index)[:80]:
        state = query_state(qrels, RUN, query, spec=spec)
        assert state.spec.preset == preset
        assert state.explain().ndcg == pytest.approx(table.loc[query, "ndcg"], abs=1e-12), query

"""Issue 40 part 4: unjudged is not zero. Judged@k against ir_measures; one query's ranking against
evaluate's DCG; an unjudged document is marked apart from a judged grade 0."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from data_support import TREC_EVAL

from ndcg_core import evaluate, read_qrels, read_run, resolve
from ndcg_core.dataset.judged import judged_at, query_ranking
from ndcg_core.dataset.scoring import DATASET_BASE


def test_judged_at_k_is_ir_measures():
    ir_measures = pytest.importorskip("ir_measures")
    qrels, run = read_qrels(TREC_EVAL / "qrels.test"), read_run(TREC_EVAL / "results.test")
    ours = judged_at(qrels, run, 10).set_index("query")["judged@10"]
    theirs = {
        m.query_id: m.value
        for m in ir_measures.iter_calc(
            [ir_measures.Judged @ 10],
            ir_measures.read_trec_qrels(str(TREC_EVAL / "qrels.test")),
            ir_measures.read_trec_run(str(TREC_EVAL / "results.test")),
        )
    }
    assert set(ours.index) == set(theirs)
    for q, value in theirs.items():
        assert ours[q] == pytest.approx(value), q


def test_an_unjudged_document_is_not_a_judged_zero():
    qrels = pd.DataFrame({"query": ["q"] * 3, "doc": ["a", "z", "n"], "relevance": [2, 1, 0]})
    run = pd.DataFrame({"query": ["q"] * 3, "doc": ["u", "n", "a"], "score": [3.0, 2.0, 1.0]})
    ranking = query_ranking(qrels, run, "q")
    assert ranking["judged"].tolist() == [False, True, True]
    assert np.isnan(ranking.loc[0, "grade"]) and ranking.loc[1, "grade"] == 0.0
    assert ranking["gain"].tolist() == [0.0, 0.0, 2.0]  # NDCG still counts the unjudged as 0
    assert judged_at(qrels, run, 2)["judged@2"].tolist() == [0.5]


@pytest.mark.parametrize("preset", [None, "trec_eval"])
def test_a_querys_discounted_gains_add_up_to_evaluates_dcg(preset):
    qrels, run = read_qrels(TREC_EVAL / "qrels.rel_level"), read_run(TREC_EVAL / "results.test")
    spec = resolve(preset, k=10) if preset else DATASET_BASE.with_k(10)
    table = evaluate(qrels, run, spec=spec).set_index("query")
    for query in ("301", "303"):
        ranking = query_ranking(qrels, run, query, spec=spec)
        assert ranking.loc[ranking["in_top_k"], "discounted"].sum() == pytest.approx(table.loc[query, "dcg"])

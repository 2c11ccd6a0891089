"""evaluate() against the real libraries, over whole random data sets."""

import numpy as np
import pandas as pd
import pytest

from ndcg_core import evaluate

pytrec_eval = pytest.importorskip("pytrec_eval")


def random_data(seed: int, n_queries: int = 40):
    """Ragged queries, coarse scores (ties), near-ties that only float32 merges, one-sided queries."""
    rng = np.random.default_rng(seed)
    run_rows, qrels_rows = [], []
    for q in range(n_queries):
        name = f"q{q}"
        docs = rng.choice(400, size=int(rng.integers(1, 60)), replace=False)
        side = rng.choice(["both"] * 8 + ["run", "qrels"])
        if side != "qrels":
            scores = np.round(rng.random(docs.size) * 5, 1)
            scores[: docs.size // 4] += 1e-9  # equal to another score in float32 only
            run_rows += [(name, f"d{d}", s) for d, s in zip(docs, scores, strict=True)]
        if side != "run":
            pool = np.union1d(docs[rng.random(docs.size) < 0.6], rng.choice(400, size=5, replace=False))
            qrels_rows += [(name, f"d{d}", int(rng.choice(4, p=[0.5, 0.25, 0.15, 0.1]))) for d in pool]
    run = pd.DataFrame(run_rows, columns=["query", "doc", "score"])
    qrels = pd.DataFrame(qrels_rows, columns=["query", "doc", "relevance"])
    return qrels, run.sample(frac=1.0, random_state=seed).reset_index(drop=True)


def trec(qrels, run, measure):
    qd, rd = {}, {}
    for q, d, r in qrels.itertuples(index=False):
        qd.setdefault(q, {})[d] = int(r)
    for q, d, s in run.itertuples(index=False):
        rd.setdefault(q, {})[d] = float(s)
    return {
        q: v[measure.replace(".", "_")]
        for q, v in pytrec_eval.RelevanceEvaluator(qd, {measure}).evaluate(rd).items()
    }


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k", [None, 1, 5, 10, 100])
def test_default_matches_pytrec_eval(seed, k):
    qrels, run = random_data(seed)
    want = trec(qrels, run, "ndcg" if k is None else f"ndcg_cut.{k}")
    got = evaluate(qrels, run, k).set_index("query")["ndcg"]
    assert len(want) > 20
    for q, value in want.items():
        assert got[q] == pytest.approx(value, abs=1e-12), q


@pytest.mark.parametrize("seed", range(3))
def test_trec_eval_preset_matches_queries_and_values(seed):
    qrels, run = random_data(seed)
    want = trec(qrels, run, "ndcg_cut.10")
    got = evaluate(qrels, run, 10, preset="trec_eval").set_index("query")["ndcg"]
    assert set(got.index) == set(want)  # trec_eval scores queries on both sides only
    assert max(abs(got[q] - v) for q, v in want.items()) < 1e-12


def test_sklearn_preset_matches_ndcg_score_per_query():
    from sklearn.metrics import ndcg_score

    qrels, run = random_data(7)
    merged = run.merge(qrels, on=["query", "doc"], how="left").fillna({"relevance": 0})
    for k in (None, 5):
        got = evaluate(qrels, run, k, preset="sklearn").set_index("query")["ndcg"]
        assert set(got.index) == set(run["query"])  # it only ever sees retrieved lists
        for q, rows in merged.groupby("query"):
            if len(rows) < 2:
                continue
            want = ndcg_score([rows["relevance"]], [rows["score"]], k=k)
            assert got[q] == pytest.approx(want, abs=1e-12), (q, k)


def test_sklearn_refuses_a_query_with_one_document():
    qrels = pd.DataFrame({"query": ["q"], "doc": ["a"], "relevance": [1]})
    run = pd.DataFrame({"query": ["q"], "doc": ["a"], "score": [1.0]})
    with pytest.raises(ValueError, match="scikit-learn refuses query 'q'"):
        evaluate(qrels, run, preset="sklearn")


def test_preset_rules_and_conflicts():
    qrels = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "relevance": [1.5, 0]})
    run = pd.DataFrame({"query": ["q", "q"], "doc": ["a", "b"], "score": [1.0, 2.0]})
    with pytest.raises(ValueError, match=r"trec_eval refuses these qrels: .*grade 1.5 on row 0"):
        evaluate(qrels, run, preset="trec_eval")
    with pytest.raises(ValueError, match="preset 'trec_eval' fixes gain='linear'"):
        evaluate(qrels.assign(relevance=[1, 0]), run, preset="trec_eval", gain="exponential")
    with pytest.raises(ValueError, match="cannot be reproduced over a data set"):
        evaluate(qrels, run, preset="sklearn-ignore-ties")
    with pytest.raises(ValueError, match="unknown preset 'nope'"):
        evaluate(qrels, run, preset="nope")
    # A data-set keyword (queries, duplicates) set explicitly wins over the preset's choice.
    assert evaluate(qrels.assign(relevance=[1, 0]), run, preset="trec_eval").attrs["spec"].queries == "both"
    chosen = evaluate(qrels.assign(relevance=[1, 0]), run, preset="trec_eval", queries="run")
    assert chosen.attrs["spec"].queries == "run"


def test_exponential_presets_use_exponential_gain():
    qrels = pd.DataFrame({"query": ["q"] * 3, "doc": ["a", "b", "c"], "relevance": [3, 0, 1]})
    run = pd.DataFrame({"query": ["q"] * 3, "doc": ["a", "b", "c"], "score": [1.0, 3.0, 2.0]})
    linear = evaluate(qrels, run)["ndcg"].iloc[0]
    expo = evaluate(qrels, run, preset="lightgbm")["ndcg"].iloc[0]
    assert expo == pytest.approx(evaluate(qrels, run, gain="exponential", ideal="retrieved")["ndcg"].iloc[0])
    assert expo != pytest.approx(linear)

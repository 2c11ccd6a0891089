"""Data sets: ``evaluate(..., preset=...)`` per query against the libraries' own batch APIs.

Each library sees only the retrieved documents (an unjudged one as grade 0);
judged documents that were not retrieved must not change its numbers, and a
query only in the qrels gets no row. torchmetrics is asked through
``RetrievalNormalizedDCG`` with ``indexes`` (its data-set API) and through
the functional per query; TF-Ranking through one padded batch (label -1 marks
padding, as TF-Ranking's own data pipelines do).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import torch
from torchmetrics.functional.retrieval import retrieval_normalized_dcg
from torchmetrics.retrieval import RetrievalNormalizedDCG

import ndcg_core

REL, ABS = 1e-5, 2e-6


def random_dataset(seed: int, grades: tuple[int, int], tie_free: bool):
    """``(qrels, run, lists)``; ``lists[q]`` is what a library sees: (grades, scores) of the run."""
    rng = np.random.default_rng(seed)
    qrels_rows, run_rows, lists = [], [], {}
    for q in range(25):
        n = int(rng.integers(1, 11))
        docs = [f"d{i}" for i in rng.permutation(30)[: n + 3]]
        retrieved, extra = docs[:n], docs[n:]
        g = rng.integers(grades[0], grades[1] + 1, n).astype(float)
        if q % 6 == 0:
            g[:] = 0
        judged = rng.random(n) < 0.8  # an unjudged retrieved document has grade 0
        g[~judged] = 0
        if (g < 0).all():  # only padding: see test_known_disagreements.py
            g[0] = 0
        if tie_free:  # ties only inside one grade: the order within a tie cannot matter
            table = rng.permutation(20).astype(float)
            s = np.array([table[int(x) + 5] for x in g]) + rng.integers(0, 2, n) * 0.25
            if len({(x, y) for x, y in zip(s, g, strict=True)}) != len(set(s)):
                s = rng.permutation(n).astype(float)
        else:
            s = rng.integers(0, 3, n).astype(float)
        for d, x, y, j in zip(retrieved, g, s, judged, strict=True):
            run_rows.append((f"q{q}", d, y))
            if j:
                qrels_rows.append((f"q{q}", d, x))
        for d in extra:  # judged, not retrieved: the library never sees these
            qrels_rows.append((f"q{q}", d, float(rng.integers(0, 4))))
        lists[f"q{q}"] = (g.tolist(), s.tolist())
    qrels_rows.append(("only_in_qrels", "d1", 3.0))
    qrels = pd.DataFrame(qrels_rows, columns=["query", "doc", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query", "doc", "score"])
    return qrels, run, lists


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("k", [None, 3, 20])
def test_torchmetrics_per_query_and_mean(seed, k):
    qrels, run, lists = random_dataset(seed, (-2, 3), tie_free=False)
    got = ndcg_core.evaluate(qrels, run, k, preset="torchmetrics").set_index("query")["ndcg"]
    assert sorted(got.index) == sorted(lists)  # the qrels-only query gets no row
    for q, (g, s) in lists.items():
        target = torch.tensor([int(x) for x in g])
        expected = float(retrieval_normalized_dcg(torch.tensor(s), target, top_k=k))
        assert math.isclose(got[q], expected, rel_tol=REL, abs_tol=ABS), (q, g, s, expected, got[q])
    # The data-set API: one call over every query. Its default empty_target_action="neg" scores a
    # query whose targets SUM to 0 as 0 without computing it, so compare on the other queries.
    keep = [q for q, (g, _) in lists.items() if sum(g) != 0]
    metric = RetrievalNormalizedDCG(top_k=k)
    indexes = torch.tensor([i for i, q in enumerate(keep) for _ in lists[q][0]])
    preds = torch.tensor([x for q in keep for x in lists[q][1]])
    target = torch.tensor([int(x) for q in keep for x in lists[q][0]])
    expected_mean = float(metric(preds, target, indexes=indexes))
    assert math.isclose(got[keep].mean(), expected_mean, rel_tol=REL, abs_tol=ABS)


def test_torchmetrics_class_scores_zero_sum_targets_as_zero():
    """Evidence for the report: RetrievalNormalizedDCG (empty_target_action="neg") gives 0 for a
    query whose targets sum to 0, where the functional (which the preset follows) divides."""
    preds, target = torch.tensor([0.9, 0.1]), torch.tensor([1, -1])
    functional = float(retrieval_normalized_dcg(preds, target))
    by_class = float(RetrievalNormalizedDCG()(preds, target, indexes=torch.tensor([0, 0])))
    assert math.isclose(functional, 1.0, rel_tol=REL) and by_class == 0.0
    assert math.isclose(
        ndcg_core.ndcg([1, -1], scores=[0.9, 0.1], preset="torchmetrics"), functional, rel_tol=REL
    )


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("k", [None, 3, 20])
def test_tf_ranking_per_query_and_mean(tf_ranking, seed, k):
    tf = tf_ranking.tf
    qrels, run, lists = random_dataset(100 + seed, (-1, 3), tie_free=True)
    got = ndcg_core.evaluate(qrels, run, k, preset="tf_ranking").set_index("query")["ndcg"]
    assert sorted(got.index) == sorted(lists)
    names = list(lists)
    width = max(len(g) for g, _ in lists.values())
    labels = np.full((len(names), width), -1.0)  # -1: padding
    preds = np.zeros((len(names), width))
    for i, q in enumerate(names):
        g, s = lists[q]
        labels[i, : len(g)], preds[i, : len(s)] = g, s
    per_list, _ = tf_ranking.impl.NDCGMetric("ndcg", topn=k).compute(
        tf.constant(labels, tf.float32), tf.constant(preds, tf.float32)
    )
    for i, q in enumerate(names):
        expected = float(per_list.numpy()[i, 0])
        assert math.isclose(got[q], expected, rel_tol=REL, abs_tol=ABS), (q, lists[q], expected, got[q])
    if tf_ranking.keras is not None:  # the Keras metric's batch mean weighs every list 1 here
        metric = tf_ranking.keras.NDCGMetric(topn=k)
        batch_mean = float(metric(tf.constant(labels, tf.float32), tf.constant(preds, tf.float32)))
        assert math.isclose(got.mean(), batch_mean, rel_tol=REL, abs_tol=ABS)

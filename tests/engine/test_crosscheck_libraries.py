"""Every checked preset against its real library on seeded random lists with ties.

ranx sorts with numba's unstable quicksort, whose order of tied scores is only
input order on short lists, so lists with tied scores stay at most 12 items
for ranx and ir_measures; longer lists there use distinct scores.
"""

import warnings

import numpy as np
import pandas as pd
import pytest

from ndcg_core import ndcg

SEEDS = range(40)


def _case(seed, max_n=25, max_grade=4, ties=True, pool=False):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, max_n + 1))
    grades = rng.integers(0, max_grade + 1, n)
    if seed % 7 == 0:
        grades[:] = 0  # nothing relevant: IDCG = 0
    if ties:
        scores = rng.integers(0, 4, n).astype(float) / 4  # many ties
    else:
        scores = rng.permutation(n).astype(float) + rng.random(n) / 10
    labels = [f"d{int(i)}" for i in rng.permutation(1000)[:n]]
    extra = rng.integers(0, max_grade + 1, int(rng.integers(0, 5))) if pool else np.array([], int)
    k = None if seed % 3 == 0 else int(rng.integers(1, n + 4))
    return grades, scores, labels, extra, k


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ignore_ties", [False, True])
def test_sklearn(seed, ignore_ties):
    from sklearn.metrics import ndcg_score

    grades, scores, _, _, k = _case(seed)
    theirs = ndcg_score([grades], [scores], k=k, ignore_ties=ignore_ties)
    preset = "sklearn-ignore-ties" if ignore_ties else "sklearn"
    assert ndcg(grades, k, scores=scores, preset=preset) == pytest.approx(theirs, abs=1e-12)


def test_sklearn_refusals_match():
    from sklearn.metrics import ndcg_score

    with pytest.raises(ValueError, match="negative"):
        ndcg_score([[-1, 2]], [[1.0, 2.0]])
    with pytest.raises(ValueError, match="should not be used on negative y_true values"):
        ndcg([-1, 2], preset="sklearn")
    with pytest.raises(ValueError, match="more than 1 document"):
        ndcg([1], preset="sklearn")


def _pytrec(grades, scores, labels, extra, k):
    import pytrec_eval

    qrels = {lab: int(g) for lab, g in zip(labels, grades, strict=True)}
    qrels.update({f"x{i}": int(g) for i, g in enumerate(extra)})
    run = {lab: float(s) for lab, s in zip(labels, scores, strict=True)}
    measure = "ndcg" if k is None else f"ndcg_cut.{k}"
    key = "ndcg" if k is None else f"ndcg_cut_{k}"
    return pytrec_eval.RelevanceEvaluator({"q": qrels}, {measure}).evaluate({"q": run})["q"][key]


@pytest.mark.parametrize("seed", SEEDS)
def test_trec_eval(seed):
    grades, scores, labels, extra, k = _case(seed, pool=True)
    if seed % 5 == 1:
        # a negative judgment counts as 0. (Only some: pytrec_eval 0.5.11 never returns when
        # every judgment of a query is negative.)
        grades[0] = -1
    theirs = _pytrec(grades, scores, labels, extra, k)
    ideal = np.concatenate([grades, extra])
    ours = ndcg(grades, k, scores=scores, labels=labels, ideal=ideal, preset="trec_eval")
    assert ours == pytest.approx(theirs, abs=1e-12)


def test_trec_eval_float32_ties_and_docid_order():
    # 1 + 1e-9 equals 1 in float32: trec_eval sees a tie and puts "b" (greater id) first.
    theirs = _pytrec([1, 0], [1.0 + 1e-9, 1.0], ["a", "b"], [], None)
    assert theirs < 1
    ours = ndcg([1, 0], scores=[1.0 + 1e-9, 1.0], labels=["a", "b"], preset="trec_eval")
    assert ours == pytest.approx(theirs, abs=1e-12)
    assert ndcg([1, 0], scores=[1.0 + 1e-9, 1.0], labels=["a", "b"]) == 1.0


def _ranx(grades, scores, labels, extra, k, metric):
    import ranx

    qrels = {lab: int(g) for lab, g in zip(labels, grades, strict=True)}
    qrels.update({f"x{i}": int(g) for i, g in enumerate(extra)})
    run = {lab: float(s) for lab, s in zip(labels, scores, strict=True)}
    name = metric if k is None else f"{metric}@{k}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(
            ranx.evaluate(ranx.Qrels({"q": qrels}), ranx.Run({"q": run}), name, make_comparable=True)
        )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("preset", "metric"), [("ranx", "ndcg"), ("ranx-burges", "ndcg_burges")])
def test_ranx(seed, preset, metric):
    ties = seed % 2 == 0
    grades, scores, labels, extra, k = _case(seed, max_n=12 if ties else 40, ties=ties, pool=True)
    theirs = _ranx(grades, scores, labels, extra, k, metric)
    ideal = np.concatenate([grades, extra])
    ours = ndcg(grades, k, scores=scores, labels=labels, ideal=ideal, preset=preset)
    assert ours == pytest.approx(theirs, abs=1e-12)


def test_ranx_ignores_grades_below_one_and_truncates():
    grades = [0.5, 1.7, 2, -1]
    scores = [4.0, 3.0, 2.0, 1.0]
    import ranx

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = ranx.evaluate(
            ranx.Qrels({"q": {"a": 0.5, "b": 1.7, "c": 2, "d": -1}}),
            ranx.Run({"q": dict(zip("abcd", scores, strict=True))}),
            "ndcg",
            make_comparable=True,
        )
    ours = ndcg(grades, scores=scores, labels=list("abcd"), preset="ranx")
    assert ours == pytest.approx(float(theirs), abs=1e-12)
    assert ours != pytest.approx(ndcg(grades, scores=scores))


@pytest.mark.parametrize("seed", range(0, 40, 2))
def test_ir_measures_exp_through_ranx(seed):
    import ir_measures
    from ir_measures import nDCG

    grades, scores, labels, extra, k = _case(seed, max_n=12, pool=True)
    qrels = dict(zip(labels, (int(g) for g in grades), strict=True))
    qrels.update({f"x{i}": int(g) for i, g in enumerate(extra)})
    qdf = pd.DataFrame(
        {
            "query_id": pd.Series(["q"] * len(qrels), dtype=object),
            "doc_id": pd.Series(list(qrels), dtype=object),
            "relevance": list(qrels.values()),
        }
    )
    rdf = pd.DataFrame(
        {
            "query_id": pd.Series(["q"] * len(labels), dtype=object),
            "doc_id": pd.Series(labels, dtype=object),
            "score": [float(s) for s in scores],
        }
    )
    measure = nDCG(dcg="exp-log2") if k is None else nDCG(dcg="exp-log2") @ k
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = ir_measures.ranx.calc_aggregate([measure], qdf, rdf)[measure]
    ideal = np.concatenate([grades, extra])
    ours = ndcg(grades, k, scores=scores, labels=labels, ideal=ideal, preset="ir_measures-exp")
    assert ours == pytest.approx(float(theirs), abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("preset", ["xgboost", "xgboost-minus"])
def test_xgboost(seed, preset):
    xgb = pytest.importorskip("xgboost")
    grades, scores, _, _, k = _case(seed)
    y = np.asarray(grades, dtype=float)
    d = xgb.DMatrix(np.zeros((len(y), 1)), label=y, base_margin=np.asarray(scores, dtype=float))
    d.set_group([len(y)])
    name = "ndcg" + ("" if k is None else f"@{k}") + ("-" if preset == "xgboost-minus" else "")
    booster = xgb.train({"objective": "rank:ndcg", "eval_metric": name}, d, num_boost_round=0)
    theirs = float(booster.eval(d).rsplit(":", 1)[1])
    assert ndcg(grades, k, scores=scores, preset=preset) == pytest.approx(theirs, abs=1e-12)


def test_xgboost_refusal_rule_matches():
    xgb = pytest.importorskip("xgboost")
    d = xgb.DMatrix(np.zeros((2, 1)), label=np.array([0.5, 1.0]), base_margin=np.array([1.0, 2.0]))
    d.set_group([2])
    with pytest.raises(xgb.core.XGBoostError, match="label must be either 0 or positive integer"):
        xgb.train({"objective": "rank:ndcg", "eval_metric": "ndcg"}, d, num_boost_round=0).eval(d)
    with pytest.raises(ValueError, match="label must be either 0 or a positive integer"):
        ndcg([0.5, 1.0], preset="xgboost")
    with pytest.raises(ValueError, match="at most 31"):
        ndcg([32, 1], preset="xgboost")


@pytest.mark.parametrize("seed", SEEDS)
def test_lightgbm(seed):
    lgb = pytest.importorskip("lightgbm")
    grades, scores, _, _, k = _case(seed)
    y = np.asarray(grades, dtype=float)
    data = lgb.Dataset(
        np.zeros((len(y), 1)),
        label=y,
        group=[len(y)],
        init_score=np.asarray(scores, dtype=float),
        params={"verbose": -1},
    )
    params = {"objective": "lambdarank", "metric": "ndcg", "eval_at": [k or len(y)], "verbose": -1}
    theirs = lgb.Booster(params=params, train_set=data).eval_train()[0][2]
    assert ndcg(grades, k, scores=scores, preset="lightgbm") == pytest.approx(theirs, abs=1e-12)


def test_lightgbm_refuses_fractional_labels():
    with pytest.raises(ValueError, match="labels must be non-negative integers"):
        ndcg([0.5, 1], preset="lightgbm")
    with pytest.raises(ValueError, match="31 by default"):
        ndcg([31, 1], preset="lightgbm")


def test_snippets_reproduce_the_number():
    from ndcg_core import snippet_for

    grades, scores, labels, k = [3, 0, 2, 1], [0.5, 0.9, 0.5, 0.1], ["a", "b", "c", "d"], 3
    for name in ("sklearn", "sklearn-ignore-ties", "trec_eval", "ranx"):
        code = snippet_for(name, grades, scores, labels, k)
        printed = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(code, {"print": printed.append})
        value = printed[0]
        value = float(next(iter(value.values()))) if isinstance(value, dict) else float(value)
        ours = ndcg(grades, k, scores=scores, labels=labels, preset=name)
        assert value == pytest.approx(ours, abs=1e-12), name

"""ndcg_core.compare: several runs against one qrels, checked against ranx's compare() and scipy.

The data: the bundled sample's qrels and run, and three runs derived from the run with seeded
noise on the scores (every score distinct, so ranx's unstable sort and ours rank alike). ranx
scores with ``preset="ranx"``'s rules, so the per-query values are equal and every difference
in the tests comes from the tests themselves.

Tolerances:
- t-test p-values: scipy's ttest_rel on equal inputs in both, so equal to 1e-12 (relative).
- randomization p-values: ranx draws its own n_r = 10,000 sign patterns and we draw n_o = 20,000
  from another generator, so two independent estimates of one p: their difference has standard
  error sqrt(p(1 - p)(1/n_r + 1/n_o)) (p the exact value, estimated by the t-test's p, which is
  within a few thousandths here), plus our (1 + hits)/(1 + n) convention (at most 1/n_o).
  Allowed: 4 standard errors + 1/n_o (about 0.02 at p = 0.2; a false alarm once in 15,000).
"""

from __future__ import annotations

import math
import pathlib

import numpy as np
import pandas as pd
import pytest

import ndcg_core
from ndcg_core.compare_runs import adjust, sign_flip_test

ROOT = pathlib.Path(__file__).resolve().parents[2]
QRELS = ndcg_core.read_qrels(ROOT / "assets" / "sample_qrels.tsv")
BASE = ndcg_core.read_run(ROOT / "assets" / "sample_run.tsv")
RANX_PERMUTATIONS, OUR_PERMUTATIONS = 10_000, 20_000


def derived_runs() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(7)
    distinct = np.arange(len(BASE)) * 1e-9  # no two scores equal

    def noisy(sd: float) -> pd.DataFrame:
        return BASE.assign(score=BASE["score"] + rng.normal(0, sd, len(BASE)) + distinct)

    return {
        "base": BASE.assign(score=BASE["score"] + distinct),
        "a": noisy(0.05),
        "b": noisy(0.06),
        "c": noisy(0.08),
    }


RUNS = derived_runs()


def _ranx_qrels():
    from ranx import Qrels

    frame = QRELS.reset_index(drop=True).astype({"query": object, "doc": object})  # pandas 3's str dtype
    return Qrels.from_df(
        frame.astype({"relevance": int}), q_id_col="query", doc_id_col="doc", score_col="relevance"
    )


def _ranx_run(name: str, run: pd.DataFrame):
    from ranx import Run

    frame = run.reset_index(drop=True).astype({"query": object, "doc": object})
    return Run.from_df(frame, q_id_col="query", doc_id_col="doc", score_col="score", name=name)


@pytest.fixture(scope="module")
def ranx_reports():
    """ranx's compare() on the four runs, both tests (its numba kernels compile once, here)."""
    ranx = pytest.importorskip("ranx")
    qrels = _ranx_qrels()
    runs = [_ranx_run(name, run) for name, run in RUNS.items()]
    common = {"metrics": ["ndcg@10"], "make_comparable": True, "max_p": 0.05}
    student = ranx.compare(qrels, runs, stat_test="student", **common)
    fisher = ranx.compare(
        qrels, runs, stat_test="fisher", n_permutations=RANX_PERMUTATIONS, random_seed=42, **common
    )
    per_query = {
        name: ranx.evaluate(qrels, run, "ndcg@10", return_mean=False, make_comparable=True)
        for name, run in zip(RUNS, runs, strict=True)
    }
    return student, fisher, per_query


@pytest.fixture(scope="module")
def ours():
    return ndcg_core.compare(
        QRELS, RUNS, k=10, preset="ranx", correction="none", permutations=OUR_PERMUTATIONS, seed=1, alpha=0.05
    )


def test_per_query_values_are_ranx(ranx_reports, ours):
    _, _, per_query = ranx_reports
    queries = sorted(_ranx_qrels().keys())
    assert sorted(ours.per_query.index) == queries and ours.left_out == ()
    for name in RUNS:
        expected = pd.Series(per_query[name], index=queries)
        np.testing.assert_allclose(ours.per_query.loc[queries, name], expected, rtol=0, atol=1e-12)


def test_t_test_p_values_and_win_tie_loss_are_ranx(ranx_reports, ours):
    student, _, _ = ranx_reports
    assert len(ours.pairs) == 6
    for _, row in ours.pairs.iterrows():
        ranx_p = student.comparisons[row["run"], row["other"]]["ndcg@10"]["p_value"]
        assert row["p_t"] == pytest.approx(ranx_p, rel=1e-12, abs=1e-300)
        wtl = student.win_tie_loss[row["run"], row["other"]]["ndcg@10"]
        assert (row["wins"], row["ties"], row["losses"]) == (wtl["W"], wtl["T"], wtl["L"])
        assert student.results[row["run"]]["ndcg@10"] == pytest.approx(row["mean_run"], abs=1e-12)


def test_randomization_p_values_agree_with_ranx_within_the_randomization_error(ranx_reports, ours):
    _, fisher, _ = ranx_reports
    checked = 0
    for _, row in ours.pairs.iterrows():
        ranx_p = fisher.comparisons[row["run"], row["other"]]["ndcg@10"]["p_value"]
        p = row["p_t"]  # the exact p's stand-in for the standard error
        se = math.sqrt(max(p * (1 - p), 1e-4) * (1 / RANX_PERMUTATIONS + 1 / OUR_PERMUTATIONS))
        assert abs(row["p_randomization"] - ranx_p) <= 4 * se + 1 / OUR_PERMUTATIONS, (
            row["run"],
            row["other"],
        )
        checked += 0.01 < ranx_p < 0.5  # the data has p-values where the randomization matters
    assert checked >= 3


def test_the_marks_are_ranx_s(ranx_reports):
    """ranx marks a mean with the letters of the runs it is significantly better than (p <= max_p)."""
    student, fisher, _ = ranx_reports
    for report, test in ((student, "t"), (fisher, "randomization")):
        ours = ndcg_core.compare(
            QRELS,
            RUNS,
            k=10,
            preset="ranx",
            test=test,
            correction="none",
            alpha=0.05,
            permutations=OUR_PERMUTATIONS,
        )
        expected = {name: report.get_superscript_for_table(name, "ndcg@10") for name in RUNS}
        got = {r["run"]: r["marked"][len(f"{r['mean']:.3f}") :] for _, r in ours.table.iterrows()}
        assert got == expected, test
        assert any(expected.values())  # the data has significant pairs
        assert str(ours).splitlines()[2].split()[:2] == ["a", "base"]


# ------------------------------------------------------------------ the randomization test itself


def test_exact_sign_flip_p_values_are_scipy_s_exact_permutation_test():
    from scipy.stats import permutation_test

    rng = np.random.default_rng(3)
    for n in (3, 6, 10):
        a, b = rng.random(n), rng.random(n)
        exact = permutation_test(
            (a, b), lambda x, y: np.mean(x - y), permutation_type="samples", n_resamples=np.inf
        ).pvalue
        assert sign_flip_test(a - b, permutations=2**n) == pytest.approx(exact, abs=1e-12)


def test_sign_flip_closed_forms():
    # every difference +1: only the two all-same-sign patterns reach |sum| = n
    for n in (1, 4, 10):
        assert sign_flip_test(np.ones(n), permutations=2**n) == pytest.approx(2 / 2**n)
    assert sign_flip_test(np.zeros(5)) == 1.0
    assert sign_flip_test(np.array([1.0, -1.0]), permutations=4) == 1.0  # every pattern as extreme


def test_drawn_p_values_are_near_the_exact_one_and_follow_the_seed():
    rng = np.random.default_rng(5)
    d = rng.normal(0.3, 1, 18)  # 2^18 patterns: enumerated exactly for the reference
    exact = sign_flip_test(d, permutations=2**18)
    drawn = sign_flip_test(d, permutations=20_000, seed=11)
    se = math.sqrt(exact * (1 - exact) / 20_000)
    assert abs(drawn - exact) <= 4 * se + 1 / 20_001
    assert sign_flip_test(d, permutations=20_000, seed=11) == drawn
    assert sign_flip_test(d, permutations=20_000, seed=12) != drawn


def test_large_runs_are_drawn_in_blocks():
    d = np.r_[np.full(300_000, 0.001), -1.0]  # many queries: several blocks of sign patterns
    assert 0 < sign_flip_test(d, permutations=50, seed=0) <= 1


# ------------------------------------------------------------------ corrections: closed forms


def test_corrections_closed_forms():
    p = np.array([0.01, 0.04, 0.03, np.nan])
    assert np.allclose(adjust(p, "none")[:3], [0.01, 0.04, 0.03]) and np.isnan(adjust(p, "none")[3])
    assert np.allclose(adjust(p, "bonferroni")[:3], [0.03, 0.12, 0.09])
    # Holm: sorted 0.01, 0.03, 0.04 times 3, 2, 1 = 0.03, 0.06, 0.04, then running maximum
    assert np.allclose(adjust(p, "holm")[:3], [0.03, 0.06, 0.06])
    # Benjamini-Hochberg: p_(i) m / i = 0.03, 0.045, 0.04, then running minimum from the top
    assert np.allclose(adjust(p, "bh")[:3], [0.03, 0.04, 0.04])
    assert np.allclose(adjust(np.array([0.5, 0.9]), "bonferroni"), [1.0, 1.0])


def test_the_correction_decides_significance():
    loose = ndcg_core.compare(QRELS, RUNS, k=10, correction="none", alpha=0.05)
    strict = ndcg_core.compare(QRELS, RUNS, k=10, correction="bonferroni", alpha=0.05)
    assert np.allclose(strict.pairs["p_t_adjusted"], np.minimum(1, loose.pairs["p_t"] * 6))
    raw = loose.pairs.set_index(["run", "other"])["p_t"]
    between = raw[(raw > 0.05 / 6) & (raw <= 0.05)].index  # significant only without the correction
    assert len(between) >= 1
    for pair in between:
        assert loose.pairs.set_index(["run", "other"]).loc[pair, "significant"]
        assert not strict.pairs.set_index(["run", "other"]).loc[pair, "significant"]


# ------------------------------------------------------------------ deltas, baselines, queries left out


def hand_built():
    """Three queries, two relevant documents each; run 'up' puts them first, 'down' last."""
    qrels = pd.DataFrame(
        {"query": ["1"] * 3 + ["2"] * 3 + ["3"] * 3, "doc": list("abc") * 3, "relevance": [1, 1, 0] * 3}
    )
    up = pd.DataFrame({"query": qrels["query"], "doc": qrels["doc"], "score": [3.0, 2.0, 1.0] * 3})
    down = up.assign(score=[1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 3.0, 2.0, 1.0])
    return qrels, {"up": up, "down": down}


def test_deltas_and_win_tie_loss_against_the_baseline():
    qrels, runs = hand_built()
    result = ndcg_core.compare(qrels, runs, k=3)
    # 'down' on queries 1, 2: ranks 2 and 3 -> DCG 1/log2(3) + 1/2, IDCG 1 + 1/log2(3)
    worse = (1 / math.log2(3) + 0.5) / (1 + 1 / math.log2(3))
    assert result.deltas["down"].to_dict() == pytest.approx({"1": worse - 1, "2": worse - 1, "3": 0.0})
    row = result.table.set_index("run").loc["down"]
    assert (row["wins"], row["ties"], row["losses"]) == (0, 1, 2)
    assert row["delta"] == pytest.approx((2 * worse + 1) / 3 - 1)
    other_way = ndcg_core.compare(qrels, runs, k=3, baseline="down")
    assert other_way.deltas["up"].to_dict() == pytest.approx({"1": 1 - worse, "2": 1 - worse, "3": 0.0})
    flipped = other_way.table.set_index("run").loc["up"]
    assert (flipped["wins"], flipped["ties"], flipped["losses"]) == (2, 1, 0)
    assert math.isnan(result.table.set_index("run").loc["up", "p"])


def test_queries_one_run_does_not_score_are_left_out():
    qrels, runs = hand_built()
    runs["down"] = runs["down"][runs["down"]["query"] != "3"]
    result = ndcg_core.compare(qrels, runs, k=3, queries="both")  # trec_eval's rule: only retrieved queries
    assert result.left_out == ("3",) and list(result.per_query.index) == ["1", "2"]
    union = ndcg_core.compare(qrels, runs, k=3)  # a judged query not retrieved scores 0
    assert union.left_out == () and union.per_query.loc["3", "down"] == 0.0


def test_errors_say_what_is_wrong():
    qrels, runs = hand_built()
    cases = [
        (lambda: ndcg_core.compare(qrels, {"up": runs["up"]}), "runs_count"),
        (lambda: ndcg_core.compare(qrels, runs, baseline="x"), "unknown_baseline"),
        (lambda: ndcg_core.compare(qrels, runs, test="wilcoxon"), "not_one_of"),
        (lambda: ndcg_core.compare(qrels, runs, correction="sidak"), "not_one_of"),
        (lambda: ndcg_core.compare(qrels, runs, alpha=1.5), "alpha_range"),
        (lambda: ndcg_core.compare(qrels, runs, permutations=0), "permutations_count"),
        (
            lambda: ndcg_core.compare(qrels, {**runs, "bad": runs["up"].rename(columns={"score": "x"})}),
            "in_run",
        ),
        (lambda: ndcg_core.compare(qrels.assign(relevance=0), runs, zero_idcg="skip"), "no_common_queries"),
    ]
    for call, code in cases:
        with pytest.raises(ndcg_core.NDCGError) as err:
            call()
        assert err.value.code == code
    with pytest.raises(ndcg_core.NDCGError) as err:
        ndcg_core.compare(qrels, {**runs, "bad": runs["up"].rename(columns={"score": "x"})})
    assert "run 'bad'" in str(err.value) and "missing score" in str(err.value)


def test_the_spec_is_every_run_s():
    qrels, runs = hand_built()
    result = ndcg_core.compare(qrels, runs, k=2, gain="exponential", ideal="retrieved")
    assert result.spec.variant.gain == "exponential" and result.spec.ideal_source == "retrieved"
    for name, run in runs.items():
        expected = ndcg_core.evaluate(qrels, run, k=2, gain="exponential", ideal="retrieved")
        assert result.per_query[name].tolist() == pytest.approx(expected["ndcg"].tolist())

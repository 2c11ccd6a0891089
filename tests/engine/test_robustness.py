"""Issue 40 part 5: does the runs' order depend on the formula? Checked against closed forms.

One query; judged: x (grade 3), a, b, c, d (grade 1). NDCG@4. Run A ranks x first, then three
unjudged documents; run B ranks a, b, c, d. With D(i) the divisor at position i, A's DCG is g(3)
and B's is g(1) * (1/D1 + 1/D2 + 1/D3 + 1/D4); IDCG = g(3)/D1 + g(1) * (1/D2 + 1/D3 + 1/D4).
log2(i + 1): D = 1, 1.585, 2, 2.322; Järvelin-Kekäläinen, base 2: D = 1, 1, 1.585, 2.
- linear (g = grade) and log: A 3/4.562 = 0.658, B 2.562/4.562 = 0.562: A wins;
- linear and Järvelin: A 3/5.131 = 0.585, B 3.131/5.131 = 0.610: B wins;
- binary (g = 1 above 0): B = 1, A < 1: B wins under every discount;
- exponential (g = 2^grade - 1: 7 and 1): A wins under every discount and base.
Run C ranks x, then a: it beats both under linear and log.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import math

import pandas as pd
import pytest

from ndcg_core.cli import main
from ndcg_core.dataset.robustness import LOG_BASES, kendall_tau, robustness
from ndcg_core.errors import NDCGError

QRELS = pd.DataFrame({"query": "q", "doc": list("xabcd"), "relevance": [3, 1, 1, 1, 1]})
A = pd.DataFrame({"query": "q", "doc": ["x", "n1", "n2", "n3"], "score": [4.0, 3.0, 2.0, 1.0]})
B = pd.DataFrame({"query": "q", "doc": list("abcd"), "score": [4.0, 3.0, 2.0, 1.0]})
C = pd.DataFrame({"query": "q", "doc": ["x", "a", "n1", "n2"], "score": [4.0, 3.0, 2.0, 1.0]})

GAIN = {"linear": lambda g: g, "exponential": lambda g: 2.0**g - 1, "binary": lambda g: float(g > 0)}


def divisor(discount: str, base: float, i: int) -> float:
    if discount == "log":
        return math.log(i + 1) / math.log(base)
    return max(1.0, math.log(i) / math.log(base))


def closed_form(ranked_grades: list[int], gain: str, discount: str, base: float) -> float:
    g = GAIN[gain]
    dcg = sum(g(r) / divisor(discount, base, i) for i, r in enumerate(ranked_grades, start=1))
    ideal = [3, 1, 1, 1]
    idcg = sum(g(r) / divisor(discount, base, i) for i, r in enumerate(ideal, start=1))
    return dcg / idcg


RANKED = {"A": [3, 0, 0, 0], "B": [1, 1, 1, 1], "C": [3, 1, 0, 0]}


def _variant_row(result, gain: str, discount: str, base: float):
    rows = result.variants[result.variants["kind"].isin(["reference", "formula"])]
    match = rows[(rows["gain"] == gain) & (rows["discount"] == discount) & (rows["log_base"] == float(base))]
    assert len(match) == 1, (gain, discount, base)
    return match.iloc[0]


def test_every_formula_variants_means_and_winner_are_the_closed_forms():
    result = robustness(QRELS, {"A": A, "B": B}, cutoffs=[4], presets=())
    assert len(result.variants) == 3 * 2 * len(LOG_BASES)
    flipped = set()
    for gain, discount, base in itertools.product(GAIN, ("log", "jarvelin"), LOG_BASES):
        row = _variant_row(result, gain, discount, base)
        a, b = (closed_form(RANKED[r], gain, discount, base) for r in ("A", "B"))
        assert row["A"] == pytest.approx(a, abs=1e-12) and row["B"] == pytest.approx(b, abs=1e-12)
        assert row["order"] == ("A > B" if a > b else "B > A")
        if b > a:
            flipped.add(row["variant"])
    # the stated cases
    assert _variant_row(result, "linear", "log", 2.0)["order"] == "A > B"
    assert _variant_row(result, "linear", "jarvelin", 2.0)["order"] == "B > A"
    assert _variant_row(result, "binary", "log", 2.0)["order"] == "B > A"
    assert _variant_row(result, "exponential", "jarvelin", 10.0)["order"] == "A > B"
    # every flip is listed once, A (the reference's winner) against B, and nothing else
    assert set(result.flips["variant"]) == flipped and len(result.flips) == len(flipped) == 9
    assert set(result.flips["run_a"]) == {"A"} and set(result.flips["winner"]) == {"B"}
    assert (result.variants.set_index("variant").loc[sorted(flipped), "tau"] == -1.0).all()


def test_the_log_discounts_base_changes_nothing():
    result = robustness(QRELS, {"A": A, "B": B, "C": C}, cutoffs=[4], presets=())
    for gain in GAIN:
        means = {
            base: _variant_row(result, gain, "log", base)[["A", "B", "C"]].tolist() for base in LOG_BASES
        }
        assert all(m == pytest.approx(means[2.0], abs=1e-12) for m in means.values())


def test_kendall_tau_is_scipys_tau_b():
    stats = pytest.importorskip("scipy.stats")
    cases = [([1, 2, 3, 4], [4, 3, 2, 1]), ([0.3, 0.1, 0.2, 0.9, 0.5], [0.2, 0.1, 0.3, 0.8, 0.9]),
             ([1, 1, 2, 3], [1, 2, 2, 3]), ([0.5, 0.4, 0.6], [0.5, 0.6, 0.4])]  # fmt: skip
    for x, y in cases:
        assert kendall_tau(x, y) == pytest.approx(stats.kendalltau(x, y).statistic, abs=1e-12)
    result = robustness(QRELS, {"A": A, "B": B, "C": C}, cutoffs=[4, 2], presets=())
    names = ["A", "B", "C"]
    ref = result.variants.iloc[0][names].to_numpy(float)
    for _, row in result.variants.iterrows():
        want = stats.kendalltau(ref, row[names].to_numpy(float)).statistic
        assert row["tau"] == pytest.approx(want, abs=1e-12) or (math.isnan(row["tau"]) and math.isnan(want))


def test_the_cause_of_a_flip_is_the_query_whose_difference_changes_sign():
    other_q = pd.DataFrame({"query": "r", "doc": ["y"], "relevance": [1]})
    qrels = pd.concat([QRELS, other_q], ignore_index=True)
    a = pd.concat([A, pd.DataFrame({"query": "r", "doc": ["y"], "score": [1.0]})], ignore_index=True)
    b = pd.concat([B, pd.DataFrame({"query": "r", "doc": ["y"], "score": [1.0]})], ignore_index=True)
    result = robustness(qrels, {"A": a, "B": b}, cutoffs=[4], presets=())
    variant = _variant_row(result, "binary", "log", 2.0)["variant"]
    causes = result.causes("A", "B", variant)
    assert causes["query"].tolist() == ["q"]  # query r is the same in both runs: no cause
    want_ref = closed_form(RANKED["A"], "linear", "log", 2) - closed_form(RANKED["B"], "linear", "log", 2)
    want = closed_form(RANKED["A"], "binary", "log", 2) - closed_form(RANKED["B"], "binary", "log", 2)
    assert causes.loc[0, "diff_ref"] == pytest.approx(want_ref) and causes.loc[0, "diff"] == pytest.approx(
        want
    )
    assert bool(causes.loc[0, "sign_flips"])
    with pytest.raises(NDCGError) as info:
        result.causes("A", "Z", variant)
    assert info.value.code == "unknown_run"


def test_presets_are_scored_or_say_why_not():
    result = robustness(QRELS, {"A": A, "B": B}, cutoffs=[4])
    presets = result.variants[result.variants["kind"] == "preset"]
    refused = presets[presets["refused"] != ""]
    assert refused["preset"].tolist() == ["sklearn-ignore-ties"]  # reverse_argsort: not over a data set
    # scikit-learn sees the retrieved documents only: A's list is then perfect, as is B's
    sklearn = presets[presets["preset"] == "sklearn"].iloc[0]
    assert (sklearn["A"], sklearn["B"], sklearn["order"]) == (1.0, 1.0, "A = B")


def test_fewer_than_two_runs_is_refused():
    with pytest.raises(NDCGError) as info:
        robustness(QRELS, {"A": A})
    assert info.value.code == "runs_count"


def test_the_command_line_reports_orders_flips_and_causes(tmp_path):
    (tmp_path / "qrels").write_text("q 0 x 3\nq 0 a 1\nq 0 b 1\nq 0 c 1\nq 0 d 1\n")
    (tmp_path / "A").write_text("q Q0 x 1 4 A\nq Q0 n1 2 3 A\nq Q0 n2 3 2 A\nq Q0 n3 4 1 A\n")
    (tmp_path / "B").write_text("q Q0 a 1 4 B\nq Q0 b 2 3 B\nq Q0 c 3 2 B\nq Q0 d 4 1 B\n")
    files = [str(tmp_path / n) for n in ("qrels", "A", "B")]
    out = io.StringIO()
    with contextlib.redirect_stderr(io.StringIO()):
        assert main(["--robustness", "--format", "json", "-m", "ndcg_cut.4", *files], stdout=out) == 0
    document = json.loads(out.getvalue())["robustness"]
    assert document["reference"] == "nDCG(ties='docid_desc')@4 as trec_eval"
    flips = {f["variant"]: f for f in document["flips"]}
    jarvelin = "nDCG(discount='jarvelin', ties='docid_desc')@4"
    assert flips[jarvelin]["winner"] == "B" and flips[jarvelin]["causes"][0]["query"] == "q"
    assert flips[jarvelin]["mean_b"] == pytest.approx(closed_form(RANKED["B"], "linear", "jarvelin", 2))
    text = io.StringIO()
    with contextlib.redirect_stderr(io.StringIO()):
        assert main(["--robustness", "-m", "ndcg_cut.4", *files], stdout=text) == 0
    assert "A beats B under the reference (0.6577 vs 0.5616); not under" in text.getvalue()
    assert f"  {jarvelin}: B wins (0.5847 vs 0.6102); queries that move it most (A - B): q" in text.getvalue()

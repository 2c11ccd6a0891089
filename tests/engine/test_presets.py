"""Scores, tie rules and library presets: the engine's own behaviour."""

import math

import numpy as np
import pandas as pd
import pytest

from ndcg_core import (
    PRESETS,
    STEP_COLUMNS,
    Preset,
    Variant,
    explain,
    library_table,
    ndcg,
    snippet_for,
)
from ndcg_core.metrics import rank_by_scores
from ndcg_core.presets import get_preset

EXPECTED = {
    "sklearn",
    "sklearn-ignore-ties",
    "trec_eval",
    "ir_measures-exp",
    "ranx",
    "ranx-burges",
    "torchmetrics",
    "xgboost",
    "xgboost-minus",
    "lightgbm",
    "tf_ranking",
    "elasticsearch",
}


def test_scores_rank_the_items():
    # grades in input order; scores put item 2 (grade 3) first
    assert ndcg([0, 3, 1], scores=[0.1, 0.9, 0.5]) == 1.0
    # ranked 0, 1, 3 against the ideal 3, 1, 0
    expected = (1 / math.log2(3) + 3 / 2) / (3 + 1 / math.log2(3))
    assert ndcg([0, 3, 1], scores=[0.9, 0.1, 0.5]) == pytest.approx(expected, abs=1e-12)


def test_tie_rules():
    grades, scores = [0, 1], [0.5, 0.5]
    assert ndcg(grades, scores=scores) == pytest.approx(1 / math.log2(3))  # stable: input order
    assert ndcg(grades, scores=scores, ties="average") == pytest.approx(0.5 + 0.5 / math.log2(3))
    assert ndcg(grades, scores=scores, labels=["a", "b"], ties="docid_desc") == 1.0  # "b" first
    assert ndcg(grades, scores=scores, ties="reverse_argsort") == 1.0  # reverse input order
    # "average" does not depend on input order
    assert ndcg([1, 0], scores=scores, ties="average") == ndcg(grades, scores=scores, ties="average")


def test_docid_desc_casts_scores_to_float32():
    order, groups = rank_by_scores([1.0 + 1e-9, 1.0], labels=["a", "b"], ties="docid_desc")
    assert order.tolist() == [1, 0] and groups.tolist() == [1, 1]
    order, groups = rank_by_scores([1.0 + 1e-9, 1.0], ties="stable")
    assert order.tolist() == [0, 1] and groups.tolist() == [1, 2]


def test_bad_scores_and_ties():
    with pytest.raises(ValueError, match="scores has 1 entries but there are 2 grades"):
        ndcg([1, 0], scores=[1.0])
    with pytest.raises(ValueError, match="scores: position 2"):
        ndcg([1, 0], scores=[1.0, math.nan])
    with pytest.raises(ValueError, match="ties must be one of"):
        ndcg([1, 0], scores=[1, 2], ties="random")
    with pytest.raises(ValueError, match="ties must be one of"):
        Variant(ties="random")


def test_ties_in_variant_name_round_trip():
    v = Variant(ties="average", k=5)
    assert v.name == "nDCG(ties='average')@5"
    assert Variant.parse(v.name) == v


def test_explain_shows_scores_and_tie_groups():
    ex = explain([0, 2, 1, 3], scores=[0.5, 0.5, 0.9, 0.1], labels=list("abcd"), ties="average")
    assert list(ex.steps.columns) == list(STEP_COLUMNS)
    assert list(ex.steps["Item"]) == ["c", "a", "b", "d"]
    assert list(ex.steps["Tie group"]) == [1, 2, 2, 3]
    assert list(ex.steps["Gain"]) == [1.0, 1.0, 1.0, 3.0]  # a and b share their mean gain
    assert ex.ndcg == pytest.approx(ndcg([0, 2, 1, 3], scores=[0.5, 0.5, 0.9, 0.1], ties="average"))
    assert ex.variant.ties == "average"
    plain = explain([1, 0])
    assert plain.steps["Score"].isna().all() and list(plain.steps["Tie group"]) == [1, 2]


def test_registry_has_every_preset_with_reasons_and_snippets():
    assert set(PRESETS) == EXPECTED
    for name, p in PRESETS.items():
        assert isinstance(p, Preset) and p.name == name
        assert p.library and p.version and p.differences
        assert all(len(line) > 15 for line in p.differences), name
        assert p.variant.k is None
        code = snippet_for(p, [2, 0, 1], scores=[0.3, 0.2, 0.1], k=2)
        assert "$" not in code.replace("$ ", ""), name


def test_xgboost_preset_is_exponential_gain_and_one_for_nothing_relevant():
    # Ranked by score: grades 1, 2, 3, 0 -> gains 1, 3, 7, 0; ideal gains 7, 3, 1, 0.
    grades, scores = [3, 1, 0, 2], [0.2, 0.9, 0.1, 0.4]
    closed_form = (1 + 3 / math.log2(3) + 7 / 2) / (7 + 3 / math.log2(3) + 1 / 2)
    assert ndcg(grades, scores=scores, preset="xgboost") == pytest.approx(closed_form, abs=1e-12)
    assert ndcg([0, 0], preset="xgboost") == 1.0
    assert ndcg([0, 0], preset="xgboost-minus") == 0.0
    assert ndcg([0, 0], preset="lightgbm") == 1.0


def test_preset_conflicting_keyword_is_refused():
    with pytest.raises(ValueError, match="preset 'sklearn' fixes gain='linear'"):
        ndcg([1, 0], preset="sklearn", gain="exponential")
    # restating the preset's own value is fine
    assert ndcg([1, 0], preset="xgboost", gain="exponential") == 1.0


def test_unknown_preset():
    with pytest.raises(ValueError, match="unknown preset 'sk-learn'"):
        ndcg([1], preset="sk-learn")
    assert get_preset(PRESETS["ranx"]) is PRESETS["ranx"]


@pytest.mark.parametrize(
    ("preset", "grades", "message"),
    [
        ("sklearn", [2, -1], "should not be used on negative y_true"),
        ("sklearn-ignore-ties", [3], "more than 1 document"),
        ("lightgbm", [1.5, 0], "non-negative integers"),
        ("lightgbm", [-1, 0], "non-negative integers"),
        ("xgboost", [2.5, 1], "label must be either 0 or a positive integer"),
        ("trec_eval", [1.5, 0], "relevance to be an integer"),
        ("elasticsearch", [-2, 1], "ratings are integers"),
    ],
)
def test_refusals_state_the_library_rule(preset, grades, message):
    with pytest.raises(ValueError, match=message) as info:
        ndcg(grades, preset=preset)
    assert "refuses this list" in str(info.value)


def test_pool_presets_use_ideal_and_list_presets_ignore_it():
    grades, pool = [1, 0], [1, 1, 1]
    assert ndcg(grades, ideal=pool, preset="sklearn") == 1.0
    # trec_eval: 1 found of 3 judged relevant: 1 / (1 + 1/log2 3 + 1/2)
    assert ndcg(grades, ideal=pool, preset="trec_eval") == pytest.approx(1 / (1 + 1 / math.log2(3) + 0.5))
    with pytest.raises(ValueError, match="lacks the list's grade 2"):
        ndcg([2, 0], ideal=[1, 1], preset="ranx")


def test_trec_eval_without_cutoff_sums_the_whole_pool():
    # two retrieved, four relevant judged: IDCG covers all four
    value = ndcg([1, 1], ideal=[1, 1, 1, 1], preset="trec_eval")
    found = 1 + 1 / math.log2(3)
    assert value == pytest.approx(found / (found + 1 / 2 + 1 / math.log2(5)), abs=1e-12)


def test_elasticsearch_ideal_stops_at_the_hits():
    # 2 hits, 4 relevant rated documents: IDCG over 2 positions only
    assert ndcg([1, 1], k=10, ideal=[1, 1, 1, 1], preset="elasticsearch") == 1.0


def test_tf_ranking_drops_negative_labels_as_padding():
    assert ndcg([-1, 2, 0], preset="tf_ranking") == 1.0
    ex = explain([-1, 2, 0], labels=["pad", "x", "y"], preset="tf_ranking")
    assert list(ex.steps["Item"]) == ["x", "y"]


def test_library_table():
    table = library_table([3, 2, 0, 1], scores=[0.1, 0.4, 0.4, 0.3], k=3)
    assert isinstance(table, pd.DataFrame)
    assert list(table["preset"]) == list(PRESETS)
    for col in ("library", "version", "value", "differences", "refusal", "snippet", "checked"):
        assert col in table.columns
    from sklearn.metrics import ndcg_score

    row = table.set_index("preset").loc["sklearn"]
    assert row["value"] == pytest.approx(ndcg_score([[3, 2, 0, 1]], [[0.1, 0.4, 0.4, 0.3]], k=3), abs=1e-12)
    refused = library_table([1.5, 0])
    lgb = refused.set_index("preset").loc["lightgbm"]
    assert np.isnan(lgb["value"]) and "non-negative integers" in lgb["refusal"]
    assert refused.set_index("preset").loc["sklearn", "refusal"] == ""


def test_checked_records_name_a_version_and_the_checks_that_exist():
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2]
    for name, p in PRESETS.items():
        if not p.checked:
            continue
        assert re.search(r"\d+\.\d+", p.checked), name  # the version checked
        where = re.findall(r"(tests/\S+\.py|checks_heavy/)", p.checked)
        assert where and all((root / w.rstrip(")")).exists() for w in where), (name, p.checked)

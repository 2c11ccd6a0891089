"""The Explore page through AppTest: comparisons, formula matrix, library table, teaching cards."""

from __future__ import annotations

import math

import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core
from ndcg_core.teaching import CARDS

APP = str(__import__("pathlib").Path(__file__).resolve().parents[1] / "app.py")


def explore() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    return at.switch_page("views/explore.py").run()


def ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def values(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_opens_on_seed_001_comparison():
    at = explore()
    ok(at)
    # the global formula is the playground's (Wikipedia's original discount at start)
    a = ndcg_core.ndcg([0.5, 0.9, 0.3, 0.6, 0.1], discount="jarvelin")
    b = ndcg_core.ndcg([0.6, 0.5, 0.1, 0.3, 0.9], discount="jarvelin")
    assert values(at) == {"NDCG@5 of ABCDE": f"{a:.3f}", "NDCG@5 of DAECB": f"{b:.3f}"}
    assert any("ABCDE" in s.value for s in at.success)


@pytest.mark.parametrize(
    ("preset", "expected", "winner"),
    [
        ("items", {"NDCG@5 of ABCDE": "0.893", "NDCG@5 of DAECB": "0.851"}, "ABCDE"),
        ("shop-binary", {"NDCG@3 of A": "0.531", "NDCG@3 of B": "0.765"}, "B"),
        ("shop-graded", {"NDCG@3 of A": "0.9", "NDCG@3 of B": "0.765"}, "A"),
    ],
)
def test_document_comparisons_one_click(preset, expected, winner):
    at = explore()
    at.button(key=f"cmp_preset_{preset}").click().run()
    ok(at)
    assert values(at) == expected
    assert at.success[0].value.startswith(f"**{winner}**")


def test_typed_ranking_and_bad_label():
    at = explore()
    at.button(key="cmp_preset_items").click().run()
    at.text_input(key="cmp_rank_1").input("B, D, A, C, E").run()
    ok(at)
    assert values(at)["NDCG@5 of DAECB"] == "1"
    at.text_input(key="cmp_rank_1").input("B, Z").run()
    ok(at)
    assert any("names 'Z'" in e.value for e in at.error)
    assert values(at)["NDCG@5 of DAECB"] == "1"  # the last valid comparison stays
    assert any("last valid comparison" in c.value for c in at.caption)


def test_add_and_remove_rankings():
    at = explore()
    at.button(key="cmp_add").click().run()
    ok(at)
    assert len(at.metric) == 3
    at.button(key="cmp_remove").click().run()
    assert len(at.metric) == 2


def test_from_the_playground():
    at = explore()
    at.button(key="cmp_from_playground").click().run()
    ok(at)
    got = values(at)
    assert got["NDCG@6 of Playground"] == "0.932" and got["NDCG@6 of Ideal"] == "1"


def test_variant_matrix_marks_flips():
    at = explore()
    at.button(key="cmp_preset_shop-binary").click().run()
    ok(at)
    matrix = next(d.value for d in at.dataframe if "flips" in d.value.columns)
    assert len(matrix) == 2 * 2 * 3 * 2 * 4  # pool rows: the lists leave an item out
    assert set(matrix["ideal"]) == {"list", "pool"}
    row = matrix[(matrix.gain == "linear") & (matrix.discount == "log") & (matrix.log_base == "2")]
    row = row[(row.ideal == "pool") & (row.k == "3")]
    assert round(float(row["A"].iloc[0]), 3) == 0.531


def test_base_demo_changes_only_the_jarvelin_line():
    import json

    at = explore()
    at.select_slider(key="cmp_base_demo").set_value(10.0).run()
    ok(at)
    fig = json.loads(at.get("plotly_chart")[0].proto.spec)
    log_marker, jk_marker = fig["data"][1], fig["data"][3]
    assert log_marker["x"] == [10.0]
    assert log_marker["y"][0] == pytest.approx(ndcg_core.ndcg([0.5, 0.9, 0.3, 0.6, 0.1]))
    assert jk_marker["y"][0] == pytest.approx(
        ndcg_core.ndcg([0.5, 0.9, 0.3, 0.6, 0.1], discount="jarvelin", log_base=10)
    )


def library_view(at: AppTest):
    return next(d.value for d in at.dataframe if "Checked here" in d.value.columns)


def test_library_table_for_the_playground_list():
    at = explore()
    ok(at)
    table = library_view(at).set_index("Preset")
    assert set(table.index) == set(ndcg_core.PRESETS)
    expected = ndcg_core.ndcg([3, 2, 3, 0, 1, 2], preset="sklearn")
    assert table.loc["sklearn", "NDCG"] == f"{expected:.4f}".rstrip("0")
    assert table.loc["sklearn", "Checked here"] == "yes"


def test_library_scores_with_ties_and_bad_scores():
    at = explore()
    at.text_input(key="lib_scores").input("1, 1, 1, 0, 0, 0").run()
    ok(at)
    table = library_view(at).set_index("Preset")
    rel, scores = [3, 2, 3, 0, 1, 2], [1, 1, 1, 0, 0, 0]
    sk = ndcg_core.ndcg(rel, scores=scores, preset="sklearn")
    assert table.loc["sklearn", "NDCG"] == ndcg_core.formula.number(sk, 4)
    at.text_input(key="lib_scores").input("1, 2").run()
    assert any("2 scores for 6 items" in e.value for e in at.error)


def test_library_refusal_is_shown_instead_of_a_number():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["rel"] = "1,-1,0"
    at.run().switch_page("views/explore.py").run()
    ok(at)
    table = library_view(at).set_index("Preset")
    assert table.loc["sklearn", "NDCG"] == "refused"
    assert "negative" in table.loc["sklearn", "Why it differs"]
    at.selectbox(key="lib_snippet").set_value("sklearn").run()
    assert any("refuses this list" in e.value for e in at.error)


@pytest.mark.parametrize("card", CARDS, ids=[c.key for c in CARDS])
def test_teaching_cards_open_in_the_playground(card):
    at = explore()
    key = card.examples[-1]
    at.button(key=f"card_{card.key}_{key}").click().run()
    ok(at)
    ex = ndcg_core.get_example(key).explain()
    assert at.session_state["pg_example"] == key
    label = f"NDCG@{ex.k}"
    shown = {m.label: m.value for m in at.metric}
    assert label in shown
    expected = ex.ndcg
    assert math.isclose(float(shown[label]), round(expected, 3))

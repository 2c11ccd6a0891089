"""The Explore page through AppTest: comparisons, formula matrix, library table, teaching cards."""

from __future__ import annotations

import math
import re

import pytest
from apptest_support import ok
from streamlit.testing.v1 import AppTest

import ndcg_core
import ndcg_core.teaching
from ndcg_core.rules import DISCOUNT_RULES, GAIN_RULES
from ndcg_core.teaching.cards import CARDS

APP = str(__import__("pathlib").Path(__file__).resolve().parents[2] / "app.py")


def explore() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    return at.switch_page("views/explore.py").run()


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
        ("shop-graded", {"NDCG@3 of A": "0.900", "NDCG@3 of B": "0.765"}, "A"),
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
    assert values(at)["NDCG@5 of DAECB"] == "1.000"
    at.text_input(key="cmp_rank_1").input("B, Z").run()
    ok(at)
    assert any("names 'Z'" in e.value for e in at.error)
    assert values(at)["NDCG@5 of DAECB"] == "1.000"  # the last valid comparison stays
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
    assert got["NDCG@6 of Playground"] == "0.932" and got["NDCG@6 of Ideal"] == "1.000"


def test_variant_matrix_marks_flips():
    at = explore()
    at.button(key="cmp_preset_shop-binary").click().run()
    ok(at)
    matrix = next(d.value for d in at.dataframe if "flips" in d.value.columns)
    # every gain and discount rule x 3 bases x 2 ideal sources (the lists leave an item out) x 4 cutoffs
    assert len(matrix) == len(GAIN_RULES) * len(DISCOUNT_RULES) * 3 * 2 * 4
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
    return next(t.value for t in at.table if "Checked here" in t.value.columns).reset_index()


def test_library_table_for_the_playground_list():
    at = explore()
    ok(at)
    table = library_view(at).set_index("Preset")
    assert set(table.index) == set(ndcg_core.PRESETS)
    from sklearn.metrics import ndcg_score

    expected = ndcg_score([[3, 2, 3, 0, 1, 2]], [[6, 5, 4, 3, 2, 1]])  # the list as ranked
    assert table.loc["sklearn", "NDCG"] == f"{expected:.4f}"
    assert table.loc["sklearn", "Checked here"].startswith("yes: scikit-learn ")


#: The presets compared with the real library: by tests/engine/test_crosscheck_libraries.py (make test)
#: and, for torchmetrics and TF-Ranking, by checks_heavy/ (make check-heavy-peers).
CROSSCHECKED = {
    "torchmetrics",
    "tf_ranking",
    "sklearn",
    "sklearn-ignore-ties",
    "trec_eval",
    "ir_measures-exp",
    "ranx",
    "ranx-burges",
    "xgboost",
    "xgboost-minus",
    "lightgbm",
}


def test_defect_8_checked_here_says_what_the_suite_verified_not_what_is_installed(monkeypatch):
    """Issue 8, defect 8: in a `make run` install (no test libraries) every row said "no"."""
    import importlib.util

    real = importlib.util.find_spec
    absent = {p.module for p in ndcg_core.PRESETS.values() if p.module}
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a, **kw: None if name in absent else real(name, *a, **kw)
    )
    table = library_view(explore()).set_index("Preset")
    said_yes = {name for name in table.index if table.loc[name, "Checked here"].startswith("yes: ")}
    assert said_yes == CROSSCHECKED
    for name in ndcg_core.PRESETS:
        # the reasons are shown whole, in a table that wraps its text
        assert table.loc[name, "Why it differs"] == "; ".join(ndcg_core.PRESETS[name].differences)


def test_library_scores_with_ties_and_bad_scores():
    at = explore()
    at.text_input(key="lib_scores").input("1, 1, 1, 0, 0, 0").run()
    ok(at)
    table = library_view(at).set_index("Preset")
    rel, scores = [3, 2, 3, 0, 1, 2], [1, 1, 1, 0, 0, 0]
    from sklearn.metrics import ndcg_score

    assert table.loc["sklearn", "NDCG"] == f"{ndcg_score([rel], [scores]):.4f}"
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
    ex = ndcg_core.teaching.get_example(key).explain()
    assert at.session_state["pg_example"] == key
    label = f"NDCG@{ex.k}"
    shown = {m.label: m.value for m in at.metric}
    assert label in shown
    expected = ex.ndcg
    assert math.isclose(float(shown[label]), round(expected, 3))


def test_defect_3_rankings_survive_a_visit_to_another_page():
    """Issue 8, defect 3: Explore, leave, come back: blank rankings and "NDCG@0 of A = 0"."""
    at = explore()
    at.button(key="cmp_preset_shop-binary").click().run()
    at.text_input(key="cmp_rank_1").input("Apple Watch, Nike sneakers, Adidas shorts").run()
    before = values(at)
    at.switch_page("views/playground.py").run()
    at.switch_page("views/datasets.py").run()
    at.switch_page("views/explore.py").run()
    ok(at)
    assert values(at) == before
    assert at.text_input(key="cmp_rank_1").value == "Apple Watch, Nike sneakers, Adidas shorts"


def test_defect_4_an_undefined_ndcg_is_plain_text_in_the_metric():
    """Issue 8, defect 4: zero=skip with all-zero grades showed raw \\text{undefined} in a metric."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["rel"] = "0,0,0"
    at.query_params["zero"] = "skip"
    at.run().switch_page("views/explore.py").run()
    at.button(key="cmp_from_playground").click().run()
    ok(at)
    shown = values(at)
    assert shown and all(v == "undefined" for v in shown.values()), shown


def test_a_judged_item_added_in_the_table_gets_an_id_of_its_own():
    """New ids must lie above the judged items' own, even when the playground's list is shorter."""
    at = explore()
    at.session_state["pg_items"] = ()
    at.session_state["pg_pool"] = ()
    at.run()
    before = at.session_state["cmp_judged"]
    (table,) = [d for d in at.dataframe if "-cmp_" in d.proto.id]  # the judged items' table
    key = table.proto.id.rsplit("-", 1)[1]  # a widget's id ends in its key
    at.session_state[key] = {"edited_rows": {}, "added_rows": [{"Item": "Z", "Grade": "1"}]}
    at.run()
    ok(at)
    judged = at.session_state["cmp_judged"]
    assert [i.label for i in judged] == [i.label for i in before] + ["Z"]
    assert len({i.id for i in judged}) == len(judged)


def test_compared_rankings_show_the_playgrounds_step_tables():
    """Each ranking's steps are the playground's step table (HTML: headers that explain themselves
    and wrap on a phone, rows beyond k in grey), not a grid of fixed-width columns that scrolled
    sideways on a phone. Values: seed 001's lists, cut at k = 3 in the sidebar."""
    at = explore()
    at.button(key="cmp_preset_items").click().run()
    at.toggle(key="k_all").set_value(False).run()
    at.number_input(key="k").set_value(3).run()
    ok(at)
    tables = [e.proto.body for e in at.get("html") if 'class="step-table"' in e.proto.body]
    assert len(tables) == 2  # ABCDE and DAECB
    for body, grades in zip(tables, ([0.5, 0.9, 0.3, 0.6, 0.1], [0.6, 0.5, 0.1, 0.3, 0.9]), strict=True):
        assert body.count('<tr class="beyond">') == 2  # positions 4 and 5
        dcg3 = sum(g / math.log2(i + 1) for i, g in enumerate(grades[:3], start=1))  # seed 001: log2(i + 1)
        cumulative = [float(x) for x in re.findall(r'<td class="num">([\d.]+)</td></tr>', body)]
        assert cumulative[2] == pytest.approx(dcg3, abs=5e-4)


def test_the_position_by_position_table_greys_the_rows_beyond_k_and_shows_names_as_text():
    """Side by side, each ranking's item and discounted gain at each position, and the second's
    gain minus the first's: the step tables' HTML (headers that wrap on a phone, rows beyond k in
    grey), not a grid of fixed-width columns that scrolled sideways on a phone and did not show k.
    Values: seed 001's lists, k = 3, log2(i + 1); a ranking's name is user text, escaped."""
    at = explore()
    at.button(key="cmp_preset_items").click().run()
    at.toggle(key="k_all").set_value(False).run()
    at.number_input(key="k").set_value(3).run()
    at.text_input(key="cmp_rank_0_name").set_value("<b>A</b>").run()
    ok(at)
    (body,) = [e.proto.body for e in at.get("html") if "positions-table" in e.proto.body]
    assert "<b>A" not in body and "&lt;b&gt;A&lt;/b&gt;: item" in body
    rows = re.findall(r"<tr(?: class=\"(\w+)\")?>(.*?)</tr>", body)[1:]  # after the header
    assert [kind for kind, _ in rows] == ["", "", "", "beyond", "beyond"]
    first, second = ([0.5, 0.9, 0.3, 0.6, 0.1], "ABCDE"), ([0.6, 0.5, 0.1, 0.3, 0.9], "DAECB")
    for i, (_, row) in enumerate(rows, start=1):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        a = first[0][i - 1] / math.log2(i + 1)
        b = second[0][i - 1] / math.log2(i + 1)
        assert cells[0] == str(i) and cells[1] == first[1][i - 1] and cells[3] == second[1][i - 1]
        assert [float(cells[2]), float(cells[4]), float(cells[5])] == pytest.approx([a, b, b - a], abs=5e-4)


def test_under_a_library_that_ranks_only_what_it_retrieved_each_ranking_has_its_own_ideal():
    """scikit-learn builds each ranking's ideal from the items it lists, so the caption 'All
    rankings share one ideal' was false under its rules. Seed 001's grades, the second ranking cut
    to D, A; closed forms with log2(i + 1)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["preset"] = "sklearn"
    at.run()
    at.switch_page("views/explore.py").run()
    at.text_input(key="cmp_rank_1").input("D, A").run()
    ok(at)
    first = 0.9 + 0.6 / math.log2(3) + 0.5 / 2 + 0.3 / math.log2(5) + 0.1 / math.log2(6)
    second = 0.6 + 0.5 / math.log2(3)
    (caption,) = [c.value for c in at.caption if "ideal" in c.value]
    assert "each ranking has its own ideal" in caption and "share one ideal" not in caption
    assert f"ABCDE {first:.3f}".replace(".", "\\.") in caption
    assert f"DAECB {second:.3f}".replace(".", "\\.") in caption
    assert values(at)["NDCG@5 of DAECB"] == "1.000"  # D, A is its own ideal order

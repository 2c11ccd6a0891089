"""The Learn page through Streamlit's AppTest: steps, predictions, one shared list, undo, URL."""

from __future__ import annotations

import html
import json
import math
import re

import pytest
from apptest_support import ok
from streamlit.testing.v1 import AppTest

import ndcg_core
from ndcg_core.teaching.lesson import COLUMN_HELP
from views.ui import keys
from views.ui.formula import PLAYGROUND

APP = str(__import__("pathlib").Path(__file__).resolve().parents[2] / "app.py")
WIKI = [3, 2, 3, 0, 1, 2]
L2 = math.log2


def learn(params: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in (params or {}).items():
        at.query_params[key] = value
    at.switch_page("views/learn.py")
    return ok(at.run())


def step_table(at: AppTest):
    """The ranking's step table (the last grid whose columns start with Position)."""
    tables = [d for d in at.dataframe if list(d.value.columns[:1]) == ["Position"]]
    return tables[0]


def columns(at: AppTest) -> list[str]:
    return list(step_table(at).value.columns)


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_share_link_opens_its_step_and_list():
    at = learn({"rel": "3,2,1", "step": "4"})
    assert at.session_state.learn_step == 4
    assert columns(at) == ["Position", "Item", "Grade", "Gain", "Divisor"]  # step 4's columns wait
    assert at.query_params["step"] == ["4"] or at.query_params["step"] == "4"


@pytest.mark.parametrize(("given", "step"), [("0", 1), ("12", 7), ("two", 1)])
def test_a_bad_step_in_the_link_opens_the_nearest_step(given, step):
    assert learn({"step": given}).session_state.learn_step == step


def test_next_and_previous_walk_the_steps_and_write_the_url():
    at = learn()
    assert at.button(key="learn_prev").disabled
    for n in range(2, 8):
        ok(at.button(key="learn_next").click().run())
        assert at.session_state.learn_step == n
        assert at.query_params["step"] in ([str(n)], str(n))
    assert at.button(key="learn_next").disabled
    ok(at.button(key="learn_prev").click().run())
    assert at.session_state.learn_step == 6


def test_every_visible_column_explains_itself_on_hover():
    at = learn({"step": "4"})
    ok(at.button(key="learn_skip").click().run())
    config = json.loads(step_table(at).proto.columns)
    assert columns(at)[-2:] == ["Discounted gain", "Cumulative DCG"]
    for name in columns(at):
        assert config[name]["help"] == COLUMN_HELP[name]


def test_a_right_prediction_reveals_the_column_with_praise():
    at = learn({"rel": ",".join(map(str, WIKI)), "step": "4"})  # log2(i + 1): 3 / 2 at position 3
    assert metric(at, "DCG@6") == "?"
    ok(at.text_input(key="learn_guess_4").input("1.50").run())
    ok(at.button(key="learn_check").click().run())
    assert columns(at)[-2:] == ["Discounted gain", "Cumulative DCG"]
    (success,) = at.success
    assert success.value.endswith("3 ÷ 2 = 1\\.5\\.")
    dcg = 3 + 2 / L2(3) + 3 / 2 + 1 / L2(6) + 2 / L2(7)
    assert metric(at, "DCG@6") == f"{dcg:.3f}"


def guess(at: AppTest, step: int, text: str) -> AppTest:
    ok(at.text_input(key=f"learn_guess_{step}").input(text).run())
    return ok(at.button(key="learn_check").click().run())


def test_a_wrong_prediction_gets_a_second_try_then_the_column_and_why():
    """Issue 27: a wrong prediction showed the answer at once. Now the first wrong try gets its
    diagnosis and the column stays hidden; the second shows the column and the working."""
    at = learn({"rel": ",".join(map(str, WIKI)), "step": "4"})  # 3 / log2(4) = 1.5 at position 3
    guess(at, 4, "0.9")  # no common mistake gives 0.9
    assert "Discounted gain" not in columns(at)
    (error,) = at.error
    assert "Not quite" in error.value and "1\\.5" not in error.value
    guess(at, 4, "0.9")  # the same answer again (Check twice): not a second try
    assert "Discounted gain" not in columns(at)
    guess(at, 4, "0.8")
    assert "Discounted gain" in columns(at)
    (error,) = at.error
    assert "you said 0\\.8" in error.value and "3 ÷ 2 = 1\\.5" in error.value


def test_an_unreadable_prediction_gets_a_message_and_keeps_what_was_typed():
    at = learn({"step": "3"})
    ok(at.text_input(key="learn_guess_3").input("two point five").run())
    ok(at.button(key="learn_check").click().run())
    assert "Divisor" not in columns(at)
    (warning,) = at.warning
    assert "could not be read" in warning.value
    assert at.text_input(key="learn_guess_3").value == "two point five"
    # Leaving for the playground and coming back keeps the typed text.
    ok(at.switch_page("views/playground.py").run())
    ok(at.switch_page("views/learn.py").run())
    assert at.text_input(key="learn_guess_3").value == "two point five"


def test_skip_shows_the_answer():
    at = learn({"step": "2"})
    ok(at.button(key="learn_skip").click().run())
    assert "Gain" in columns(at)
    assert "Answer:" in at.info[0].value


def test_choice_prediction_on_the_cutoff_step():
    at = learn({"step": "7", "k": "3"})
    ok(at.radio(key="learn_choice_7").set_value("No, nothing at all").run())
    ok(at.button(key="learn_check").click().run())
    assert columns(at)[-1] == "Beyond k"
    assert step_table(at).value["Beyond k"].tolist() == [False] * 3 + [True] * 3


def test_from_step_6_the_headline_is_ndcg_at_k():
    at = learn({"rel": ",".join(map(str, WIKI)), "k": "4", "step": "6"})
    assert metric(at, "NDCG@4") == "?"
    ok(at.button(key="learn_skip").click().run())
    assert metric(at, "NDCG@4") == f"{ndcg_core.ndcg(WIKI, 4):.3f}"
    ok(at.button(key="learn_next").click().run())
    assert metric(at, "NDCG@4") == f"{ndcg_core.ndcg(WIKI, 4):.3f}"


def test_one_state_with_the_playground():
    at = learn({"rel": "3,2,1"})
    ok(at.switch_page("views/playground.py").run())
    ok(at.button(key="order_reverse").click().run())
    ok(at.switch_page("views/learn.py").run())
    assert step_table(at).value["Grade"].tolist() == [1, 2, 3]
    # A drag on the Learn page shows on the playground.
    key = f"sort_{at.session_state.pg_sort_version}"
    at.session_state[key] = [{"header": None, "items": ["D2  ·  2", "D3  ·  1", "D1  ·  3"]}]
    ok(at.run())
    ok(at.switch_page("views/playground.py").run())
    assert [i.label for i in at.session_state.pg_items] == ["D2", "D3", "D1"]
    assert at.query_params["rel"] in (["2,1,3"], "2,1,3")


def test_undo_and_redo_a_list_change():
    at = learn({"rel": "3,2,1"})
    assert at.button(key="learn_undo").disabled
    ok(at.switch_page("views/playground.py").run())
    ok(at.button(key="order_reverse").click().run())
    ok(at.switch_page("views/learn.py").run())
    ok(at.button(key="learn_undo").click().run())
    assert step_table(at).value["Grade"].tolist() == [3, 2, 1]
    ok(at.button(key="learn_redo").click().run())
    assert step_table(at).value["Grade"].tolist() == [1, 2, 3]


def test_a_bad_grade_names_the_row_and_keeps_the_list():
    at = learn({"rel": "3,2,1"})
    version = at.session_state.pg_editor_version
    at.session_state[f"editor_{version}"] = {
        "edited_rows": {1: {"Grade": "high"}},
        "added_rows": [],
        "deleted_rows": [],
    }
    ok(at.run())
    assert any("Row 2" in e.value and "high" in e.value for e in at.error)
    assert step_table(at).value["Grade"].tolist() == [3, 2, 1]


def test_presenter_mode_from_the_link_and_the_toggle():
    at = learn({"step": "4", "present": "1"})
    assert at.session_state.learn_present
    assert at.button(key="learn_exit")  # Esc's button
    assert not at.dataframe or all(list(d.value.columns[:1]) != ["Position"] for d in at.dataframe)
    ok(at.button(key="learn_exit").click().run())
    assert not at.session_state.learn_present
    assert "present" not in at.query_params
    ok(at.toggle(key="learn_present_toggle").set_value(True).run())
    assert at.query_params["present"] in (["1"], "1")


def test_back_button_url_is_followed_not_rewritten():
    """Back restores an older share link: the app must adopt it, not write the newer state back."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["rel"] = "3,2,1"
    ok(at.run())
    ok(at.button(key="order_reverse").click().run())
    assert at.query_params["rel"] in (["1,2,3"], "1,2,3")
    at.query_params["rel"] = "3,2,1"  # what the browser's Back does to the address bar
    ok(at.run())
    assert [i.grade for i in at.session_state.pg_items] == [3, 2, 1]
    assert at.query_params["rel"] in (["3,2,1"], "3,2,1")


def test_a_page_switch_without_parameters_keeps_the_list():
    at = learn({"rel": "3,2,1"})
    ok(at.switch_page("views/playground.py").run())
    ok(at.button(key="order_reverse").click().run())
    at.query_params.clear()
    ok(at.switch_page("views/learn.py").run())
    assert [i.grade for i in at.session_state.pg_items] == [1, 2, 3]


HEADER = re.compile(r'<th[^>]*title="([^"]*)">([^<]*)</th>')  # a step table's header: hover text, label


def test_playground_step_tables_take_their_tooltips_from_the_same_table():
    at = AppTest.from_file(APP, default_timeout=60)
    ok(at.run())
    tables = [e.proto.body for e in at.get("html") if 'class="step-table"' in e.proto.body]
    assert len(tables) == 2  # the ranking and the ideal ordering
    for body in tables:
        helps = {html.unescape(label): html.unescape(title) for title, label in re.findall(HEADER, body)}
        for name in ("Grade", "Gain", "Divisor", "Discounted gain", "Cumulative DCG"):
            assert helps[name] == COLUMN_HELP[name]
        assert helps["Pos."] == COLUMN_HELP["Position"]


def test_back_to_an_earlier_step_in_the_url_is_followed():
    at = learn({"step": "3"})
    ok(at.button(key="learn_next").click().run())
    assert at.session_state.learn_step == 4
    at.query_params["step"] = "3"  # the browser's Back
    ok(at.run())
    assert at.session_state.learn_step == 3
    assert at.query_params["step"] in (["3"], "3")


def grey_rows(table) -> set[int]:
    """Rows (from 0) that Learn's grid greys (beyond k), read from the CSS it sends."""
    rules = re.findall(r"([^{}]*)\{\s*color: #64748b\s*\}", table.proto.arrow_data.styler.styles)
    return {int(r) for selectors in rules for r in re.findall(r"_row(\d+)_col", selectors)}


def test_the_ideal_table_greys_only_the_rows_idcg_leaves_out():
    """trec_eval's ndcg with no cutoff sums IDCG over every judged item (5 here) while DCG stops
    at the list's 3: the ideal table greyed rows 4 and 5 although they count. With k = 2 both
    sides stop at 2. IDCG closed form: 1 + 1/log2 3 + 1/log2 4 + 1/log2 5."""
    at = learn({"rel": "1,0,1", "pool": "1,1", "preset": "trec_eval", "step": "5"})
    ok(at.button(key="learn_skip").click().run())
    assert metric(at, "IDCG@5") == f"{1 + 1 / L2(3) + 1 / L2(4) + 1 / L2(5):.3f}"
    ideal = next(d for d in at.dataframe if len(d.value) == 5)
    assert grey_rows(ideal) == set()
    assert any(m.value.startswith("**Ideal ordering of all judged items") for m in at.markdown)
    cut = learn({"rel": "1,0,1", "pool": "1,1", "preset": "trec_eval", "k": "2", "step": "5"})
    ok(cut.button(key="learn_skip").click().run())
    ideal = next(d for d in cut.dataframe if len(d.value) == 5)
    assert grey_rows(ideal) == {2, 3, 4}  # positions 3 to 5


def test_the_presenters_ideal_table_greys_only_the_rows_idcg_leaves_out():
    """The presenter's table had the same rule as the lesson's grid (rows past k grey), so under
    trec_eval's whole-pool IDCG it greyed positions 4 and 5, which IDCG@5 counts. With k = 2, rows
    3 to 5 are grey on both sides."""
    for k, grey in ((None, 0), ("2", 3)):
        params = {"rel": "1,0,1", "pool": "1,1", "preset": "trec_eval", "step": "5", "present": "1"}
        at = learn(params | ({"k": k} if k else {}))
        ok(at.button(key="learn_reveal").click().run())  # the ideal ordering holds step 5's answer
        (body,) = [e.proto.body for e in at.get("html") if 'class="learn-table"' in e.proto.body]
        assert body.count("<tr") == 6  # the header and the five judged items
        assert body.count('<tr class="beyond">') == grey


def page_text(at: AppTest) -> str:
    """What the page shows: Markdown, alerts, captions, LaTeX, metrics and the tables' cells."""
    parts = [m.value for m in [*at.markdown, *at.caption, *at.latex, *at.error, *at.info, *at.success]]
    parts += [f"{m.label} {m.value}" for m in at.metric]
    parts += [d.value.to_string() for d in at.dataframe]
    return "\n".join(parts).replace("\\", "").replace("\u2060", "")  # md_escape's escapes


def test_step_3_asks_for_the_divisor_without_printing_it():
    """Issue 27: "Your first divisors: 1, 1, 1.585, 2" stood above "What is the divisor at
    position 3?" (max(1, log2 3) = 1.585). The page shows no 1.585 until the question is answered;
    a wrong 2 (log2(3 + 1)) is named, still without the answer."""
    at = learn({"rel": ",".join(map(str, WIKI)), "discount": "jarvelin", "step": "3"})
    assert f"{L2(3):.3f}" == "1.585"
    shown = page_text(at)
    assert "What is the divisor at position 3?" in shown
    assert "1.585" not in shown and "1.58" not in shown and "Your first divisors" not in shown
    guess(at, 3, "2.00")
    shown = page_text(at)
    assert "divided by log2(i + 1)" in shown and "1.585" not in shown and "Divisor" not in columns(at)
    ok(at.button(key="learn_skip").click().run())
    shown = page_text(at)
    assert "Your first divisors: 1, 1, 1.585, 2." in shown and "Divisor" in columns(at)
    assert "max(1, log2 i) instead and gets 0.932" in shown  # the original form's story, once answered


@pytest.mark.parametrize(("step", "answer"), [(4, f"{3 / L2(3):.3f}"), (6, "0.932")])
def test_later_steps_hide_their_answer_until_answered(step, answer):
    at = learn({"rel": ",".join(map(str, WIKI)), "discount": "jarvelin", "step": str(step)})
    assert answer not in page_text(at)
    ok(at.button(key="learn_skip").click().run())
    assert answer in page_text(at)


def test_step_7_does_not_say_what_k_does_before_asking():
    at = learn({"rel": ",".join(map(str, WIKI)), "k": "3", "step": "7"})
    assert "add nothing" not in page_text(at)
    ok(at.radio(key="learn_choice_7").set_value("Yes, with a smaller weight").run())
    ok(at.button(key="learn_check").click().run())  # a wrong choice between two: the answer at once
    assert "rows 4 to 6 add nothing to DCG@3" in page_text(at)


def test_an_ndcg_prediction_with_dcg_and_idcg_swapped_is_named():
    """Issue 27: 1.074 (IDCG / DCG = 8.693 / 8.097) got "8.097 ÷ 8.693 = 0.932" and no mistake."""
    at = learn({"rel": ",".join(map(str, WIKI)), "discount": "jarvelin", "step": "6"})
    guess(at, 6, "1.074")
    shown = page_text(at)
    assert "you divided IDCG by DCG" in shown and "0.932" not in shown
    assert metric(at, "NDCG@6") == "?"
    guess(at, 6, "0.93")
    assert at.success and metric(at, "NDCG@6") == "0.932"


def test_step_2_with_exponential_gain_does_not_print_the_gain_it_asks_for():
    """The gain of D1 (grade 3) under 2^grade − 1 is 7: the lesson printed "grades 0, 1, 2, 3 are
    worth 0, 1, 3, 7" and the sidebar "1, 3, 7, 15" beside the question."""
    at = learn({"rel": ",".join(map(str, WIKI)), "gain": "exponential", "step": "2"})
    shown = page_text(at)
    assert "What is the gain of D1 at position 1 (grade 3)?" in shown
    assert not re.search(r"worth 7|3, 7|7, 15", shown), shown
    ok(at.button(key="learn_skip").click().run())
    assert "2^3 − 1 = 7" in page_text(at)


def projector_text(at: AppTest) -> str:
    """Everything presenter mode draws: its HTML (title, text, table), metrics and formulas."""
    bodies = [html.unescape(e.proto.body) for e in at.get("html")]
    return "\n".join([*bodies, page_text(at)])


def test_presenter_hides_the_asked_number_until_the_lecturer_reveals_it():
    """Issue 26: step 4 asked the room for the discounted gain at position 3 while the table on the
    same screen showed it (3 / log2 3 = 1.893 under max(1, log2 i)). Until "Reveal the answer" (key A)
    the cell reads "?" and 1.893 is nowhere: table, formula, headline; then it is in the table."""
    asked = f"{3 / L2(3):.3f}"
    at = learn({"rel": ",".join(map(str, WIKI)), "discount": "jarvelin", "step": "4", "present": "1"})
    (table,) = [e.proto.body for e in at.get("html") if 'class="learn-table"' in e.proto.body]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table)
    assert re.findall(r"<td[^>]*>([^<]*)</td>", rows[3])[5] == "?"  # position 3's discounted gain
    assert asked not in projector_text(at)
    assert metric(at, "DCG@6") == "?" and not at.latex
    reveal = at.button(key="learn_reveal")
    assert reveal.label == "Reveal the answer" and reveal.proto.shortcut.lower() == "a"
    ok(reveal.click().run())
    (table,) = [e.proto.body for e in at.get("html") if 'class="learn-table"' in e.proto.body]
    assert re.findall(r"<td[^>]*>([^<]*)</td>", re.findall(r"<tr[^>]*>(.*?)</tr>", table)[3])[5] == asked
    assert at.latex and metric(at, "DCG@6") != "?"
    assert at.button(key="learn_reveal").label == "Hide the answer"
    ok(at.button(key="learn_next").click().run())  # step 5 asks again: its answer is hidden anew
    assert metric(at, "IDCG@6") == "?" and at.button(key="learn_reveal").label == "Reveal the answer"


def test_presenter_changes_k_with_its_own_buttons_and_step_7_names_them():
    """Issue 26: step 7 said "set k to 3 in the sidebar", which presenter mode hides. Its k − 1 and
    k + 1 buttons (keys ↓ and ↑) set k; the text names them and never the sidebar. D1..D6 under
    max(1, log2 i), k = 3: DCG@3 = 3 + 2 + 3/log2 3, IDCG@3 = 3 + 3 + 2/log2 3."""
    at = learn({"rel": ",".join(map(str, WIKI)), "discount": "jarvelin", "step": "7", "present": "1"})
    text = projector_text(at)
    assert "k − 1" in text and "k + 1" in text and "sidebar" not in text
    assert at.button(key="learn_k_up").disabled  # k = 6 is the whole list
    assert at.button(key="learn_k_down").proto.shortcut.lower() in {"down", "arrowdown"}
    for _ in range(3):
        ok(at.button(key="learn_k_down").click().run())
    assert at.session_state.pg_spec.k == 3
    assert metric(at, "NDCG@3") == f"{(5 + 3 / L2(3)) / (6 + 2 / L2(3)):.3f}"
    assert "**k = 3**" in [m.value for m in at.markdown]
    ok(at.button(key="learn_k_up").click().run())
    assert at.session_state.pg_spec.k == 4


def test_presenter_k_buttons_step_from_the_k_the_session_holds():
    """A second press of k − 1 can reach the server before the first press's run drew the buttons
    again (a clicker pressed twice): it carried the k drawn before and k went 6 -> 5 -> 5. Here k
    is moved to 5 behind the drawn buttons, as the first press leaves it."""
    at = learn({"rel": ",".join(map(str, WIKI)), "discount": "jarvelin", "step": "7", "present": "1"})
    at.session_state[PLAYGROUND.key("k_all")] = False
    at.session_state[PLAYGROUND.key("k")] = 5  # the first press's callback ran; the page shows k = 6
    ok(at.button(key="learn_k_down").click().run())
    assert at.session_state[keys.PG_SPEC].k == 4 and "**k = 4**" in [m.value for m in at.markdown]
    at.session_state[PLAYGROUND.key("k")] = 5
    ok(at.button(key="learn_k_up").click().run())
    assert at.session_state[keys.PG_SPEC].k == 6


def test_presenter_text_never_points_at_controls_it_hides():
    """The sidebar and the Playground's 'Not retrieved' are out of reach in presenter mode."""
    for n in range(1, 8):
        at = learn({"rel": ",".join(map(str, WIKI)), "step": str(n), "present": "1"})
        if n > 1:
            ok(at.button(key="learn_reveal").click().run())
        text = projector_text(at)
        assert "sidebar" not in text and "in the Playground" not in text, n
    # The lesson page itself, whose sidebar is there, keeps the hints.
    assert "Try another rule under Gain in the sidebar" in page_text(learn({"rel": "3,2,1", "step": "2"}))
    shown = page_text(learn({"rel": "3,2,1", "step": "5"}))
    assert "To see it, add one under 'Not retrieved' in the Playground." in shown


LESSON_FILES = {"Whole lesson (PDF)", "Whole lesson (PowerPoint)"}


def lesson_downloads(at: AppTest) -> dict[str, object]:
    """The page's whole-lesson download buttons, by label."""
    return {b.proto.label: b.proto for b in at.get("download_button") if b.proto.label.startswith("Whole")}


@pytest.mark.parametrize("present", ["0", "1"])
def test_both_modes_offer_the_whole_lesson_built_only_when_clicked(present):
    """Issue 26, part 6: a PDF and a PowerPoint of the seven steps, in normal and presenter mode.
    The page hands Streamlit a function, not a file: nothing is built until a button is clicked
    (the browser test downloads and opens both)."""
    at = learn({"rel": ",".join(map(str, WIKI)), "step": "2", "present": present})
    buttons = lesson_downloads(at)
    assert set(buttons) == LESSON_FILES
    assert all(p.HasField("deferred_file_id") for p in buttons.values())
    assert {p.id.rsplit("-", 1)[-1] for p in buttons.values()} == (
        {"learn_presenter_lesson_pdf", "learn_presenter_lesson_pptx"}
        if present == "1"
        else {"learn_lesson_pdf", "learn_lesson_pptx"}
    )


def test_the_whole_lesson_buttons_speak_the_pages_language():
    at = learn({"rel": ",".join(map(str, WIKI)), "lang": "zh"})
    labels = {b.proto.label for b in at.get("download_button")}
    assert {"整堂课（PDF）", "整堂课（PowerPoint）"} <= labels


# ------------------------------------------------------------------ issue 38: the lesson, common form


def ndcg_closed_form(grades: list[int], divisor) -> float:
    dcg = sum(g / divisor(i) for i, g in enumerate(grades, start=1))
    return dcg / sum(g / divisor(i) for i, g in enumerate(sorted(grades, reverse=True), start=1))


def test_the_lesson_opens_on_d1_d6_under_log2_i_plus_1_and_the_playground_stays_on_0_932():
    """Issue 38: "Learn it, step by step" opened on discount=jarvelin; step 3 called log2(i + 1) the
    common form, then asked for max(1, log2 i). The lesson now opens on the same list under
    log2(i + 1) (NDCG 0.961); the Playground's own opening stays Wikipedia's 0.932."""
    common = ndcg_closed_form(WIKI, lambda i: L2(i + 1))
    original = ndcg_closed_form(WIKI, lambda i: max(1.0, L2(i)))
    assert (f"{common:.3f}", f"{original:.3f}") == ("0.961", "0.932")
    at = ok(AppTest.from_file(APP, default_timeout=60).run())  # the Playground, then the lesson
    assert metric(at, "NDCG@6") == f"{original:.3f}"
    at.switch_page("views/learn.py")
    ok(at.run())
    assert at.query_params.get("discount") is None  # the link names no formula: log2(i + 1)
    assert at.session_state[keys.PG_SPEC].variant.discount == "log"
    for _ in range(5):
        ok(at.button(key="learn_next").click().run())
    assert at.session_state[keys.LEARN_STEP] == 6
    guess(at, 6, f"{common:.3f}")
    assert at.session_state[keys.LEARN_PREDICTIONS].answers[6] == f"{common:.3f}"
    assert any("right" in s.value.lower() for s in at.success), [s.value for s in at.success]


def test_a_link_that_names_the_original_form_keeps_it_in_the_lesson():
    at = learn({"rel": ",".join(map(str, WIKI)), "discount": "jarvelin", "step": "6"})
    assert at.session_state[keys.PG_SPEC].variant.discount == "jarvelin"
    guess(at, 6, f"{ndcg_closed_form(WIKI, lambda i: max(1.0, L2(i))):.3f}")
    assert any("right" in s.value.lower() for s in at.success), [s.value for s in at.success]


def test_step_7_opens_with_rows_below_k_and_keeps_a_k_the_student_set():
    """Issue 38, part 5: step 7 with the default k = n had no row beyond k, so its question ("do rows
    below position k add anything?") was about rows that did not exist."""
    at = learn({"step": "6"})
    ok(at.button(key="learn_next").click().run())
    assert at.session_state[keys.LEARN_STEP] == 7
    assert at.session_state[keys.PG_SPEC].variant.k == 4  # six items: two rows below the cutoff
    beyond = ["beyond k" in str(p) for p in step_table(at).value["Position"]]
    assert beyond == [False] * 4 + [True] * 2, step_table(at).value["Position"].tolist()
    shown = "\n".join(m.value for m in at.markdown).replace("\\", "")
    assert "Here k = 4, and your list has 6 items." in shown
    mine = learn({"rel": ",".join(map(str, WIKI)), "k": "5", "step": "6"})
    ok(mine.button(key="learn_next").click().run())
    assert mine.session_state[keys.PG_SPEC].variant.k == 5

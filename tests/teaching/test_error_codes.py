"""The teaching layer's and Class mode's coded errors and messages, by their real code paths.

The table itself (every code in both languages) and the scans of the source are in
tests/engine/test_errors.py.
"""

from __future__ import annotations

import copy
import pickle
from dataclasses import replace

import pandas as pd
import plotly.graph_objects as go
import pytest
from error_codes import PAGES, TEACHING, codes_in, codes_used

from ndcg_core import explain
from ndcg_core.classroom import BadAnswer, BadQuestion
from ndcg_core.classroom.forms import AskForm, answer_refusal, too_fast
from ndcg_core.classroom.lesson_questions import lesson_definition
from ndcg_core.classroom.limits import trusted_proxies
from ndcg_core.classroom.own import list_definition
from ndcg_core.classroom.progress import progress_days
from ndcg_core.classroom.questions import (
    choice_definition,
    exercise,
    grade,
    playground_definition,
    practice_definition,
)
from ndcg_core.classroom.store import NotJoined, QuestionNotOpen, Store, room_hours
from ndcg_core.errors import MESSAGES, Message, NDCGError, error_text
from ndcg_core.i18n import set_language
from ndcg_core.spec import Spec
from ndcg_core.teaching.answers import judge, parse_answer, precision_problem
from ndcg_core.teaching.compare import Comparison, RankingsForm, comparison_from_group, parse_ranking
from ndcg_core.teaching.drilldown import query_state
from ndcg_core.teaching.examples import Figure, get_example
from ndcg_core.teaching.explore import variant_matrix
from ndcg_core.teaching.export import figure_image
from ndcg_core.teaching.lesson import lesson_step
from ndcg_core.teaching.pages import ClassState, LanguageState, LearnState, PracticeState
from ndcg_core.teaching.playground import (
    DEFAULT_STATE,
    encode_compact,
    from_query_params,
    parse_entries,
    reorder,
    state_from_file,
)
from ndcg_core.teaching.practice import check, diagnose, make_exercise
from ndcg_core.teaching.rendering import state_figure
from ndcg_core.variants import Variant


@pytest.fixture
def zh():
    set_language("zh")
    yield
    set_language("en")


def raised(call) -> NDCGError:
    with pytest.raises(NDCGError) as info:
        call()
    return info.value


def warnings_of(params: dict) -> list[Message]:
    return from_query_params(params)[1]


def problem_of(e, response) -> Message:
    fb = check(e, response)
    assert not fb.counts and isinstance(fb.problem, Message)
    return fb.problem


_NUMBER = make_exercise(7, 1, kind="metric", level=1)
_ORDER = make_exercise(7, 1, kind="drag", level=1)
_CHOICE = make_exercise(7, 1, kind="winner", level=1)
_FORMULA = Variant(k=None, gain="linear", discount="log", log_base=2.0)
_DEFINITION = playground_definition(["A", "B", "C"], [3, 0, 1], _FORMULA, "ndcg")


def _own(grades: str, labels: str = "", ask: str = "ndcg", position=None):
    return list_definition(grades, labels, _FORMULA, ask, position)


def _countdown(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'class.sqlite3'}", hours=24)
    try:
        return store.ask(*store.create_room(), _DEFINITION, seconds=45)
    finally:
        store.engine.dispose()


def _status(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'class.sqlite3'}", hours=24)
    code, key = store.create_room()
    question = store.ask(code, key, _DEFINITION)
    try:
        return store.set_status(code, key, question.number, "finished")
    finally:
        store.engine.dispose()


#: (a code, a call that gives a coded error or message holding it). Raised errors and the
#: messages that are not raised (share-link warnings, Practice's verdicts) alike.
TEACHING_PATHS = [
    # typed or pasted lists, share links, state files
    ("entry_not_number", lambda: raised(lambda: parse_entries("3, two, 1"))),
    ("entry_empty", lambda: raised(lambda: parse_entries("1,,2"))),
    ("entry_two_separators", lambda: raised(lambda: parse_entries("A:1:2"))),
    ("bad_line", lambda: raised(lambda: parse_entries("A\t3\nB\tx"))),
    ("bad_lines", lambda: raised(lambda: parse_entries("A\t1\nB\tx\nC\tx"))),
    ("unknown_order", lambda: raised(lambda: reorder(DEFAULT_STATE.items, "sideways"))),
    ("share_link_param", lambda: warnings_of({"rel": "3,x,1"})[0]),
    ("entry_not_finite", lambda: warnings_of({"rel": "3,x,1"})[0]),
    ("default_example", lambda: warnings_of({"rel": "3,x,1"})[0]),
    ("link_not_decodable", lambda: warnings_of({"state": "!!"})[0]),
    ("link_without_params", lambda: warnings_of({"state": encode_compact({"state": "x"})})[0]),
    ("link_too_large", lambda: warnings_of({"state": encode_compact({"rel": "1," * 600_000})})[0]),
    ("link_too_many_items", lambda: warnings_of({"rel": "1," * 5_001})[0]),
    ("labels_for_grades", lambda: warnings_of({"rel": "3,2,1", "labels": "A,B"})[0]),
    ("scores_for_grades", lambda: warnings_of({"rel": "3,2,1", "scores": "0.5"})[0]),
    ("order_as_given", lambda: warnings_of({"rel": "3,2,1", "scores": "0.5"})[0]),
    ("no_extra_judged_items", lambda: warnings_of({"rel": "3,2,1", "pool": "x"})[0]),
    ("labels_for_pool_grades", lambda: warnings_of({"rel": "3,2,1", "pool": "2,1", "pool_labels": "J"})[0]),
    ("no_gain_for_grade", lambda: warnings_of({"rel": "3,2,1", "gain": "0:0,1:1,2:3"})[0]),
    ("linear_gain", lambda: warnings_of({"rel": "3,2,1", "gain": "0:0,1:1,2:3"})[0]),
    ("whole_list", lambda: warnings_of({"rel": "3,2,1", "k": "0"})[0]),
    ("no_such_preset", lambda: warnings_of({"rel": "3,2,1", "preset": "sk-learn"})[0]),
    ("formula_above", lambda: warnings_of({"rel": "3,2,1", "preset": "sk-learn"})[0]),
    ("step_n", lambda: LearnState.from_params({"step": "0"})[1][0]),
    ("not_whole_in_range", lambda: LearnState.from_params({"step": "0"})[1][0]),
    ("present_not_flag", lambda: LearnState.from_params({"step": "1", "present": "yes"})[1][0]),
    ("lesson_not_presenting", lambda: LearnState.from_params({"step": "1", "present": "yes"})[1][0]),
    ("room_not_presenting", lambda: ClassState.from_params({"room": "ABC234", "present": "yes"})[1][0]),
    ("link_param_ignored", lambda: PracticeState.from_params({"seed": "x"})[1][0]),
    ("the_current_language", lambda: LanguageState.from_params({"lang": "xx"})[1][0]),
    ("not_a_choice", lambda: LanguageState.from_params({"lang": "xx"})[1][0]),
    ("state_not_json", lambda: raised(lambda: state_from_file(b"\xff not json"))),
    ("state_not_ours", lambda: raised(lambda: state_from_file(b'{"format": "other"}'))),
    # examples, comparisons, pages' helpers
    ("label_repeats", lambda: raised(lambda: Comparison((("A", 1), ("A", 2)), (("r", ("A",)),)))),
    ("rankings_count", lambda: raised(lambda: Comparison((("A", 1),), ()))),
    ("ranking_unknown_item", lambda: raised(lambda: Comparison((("A", 1),), (("r", ("B",)),)))),
    ("ranking_repeats_item", lambda: raised(lambda: Comparison((("A", 1),), (("r", ("A", "A")),)))),
    ("position_unknown_item", lambda: raised(lambda: parse_ranking("D, X", ["A", "D"]))),
    (
        "ranking_names_repeat",
        lambda: RankingsForm((("A", 1),), (("r", "A"), ("r", "A"))).comparison(Spec())[1][0][1],
    ),
    ("no_example_group", lambda: raised(lambda: comparison_from_group("no such group"))),
    ("unknown_example", lambda: raised(lambda: get_example("no such example"))),
    (
        "unknown_figure_quantity",
        lambda: raised(lambda: Figure("x", "colour@1", "0.5").exact(explain([3, 2, 1]))),
    ),
    ("lesson_step_range", lambda: raised(lambda: lesson_step(8, explain([3, 2, 1])))),
    ("lesson_needs_items", lambda: raised(lambda: lesson_step(1, explain([])))),
    ("chart_kind", lambda: raised(lambda: state_figure(DEFAULT_STATE, "pie"))),
    ("image_format", lambda: raised(lambda: figure_image(go.Figure(), "gif"))),
    (
        "query_not_found",
        lambda: raised(
            lambda: query_state(
                pd.DataFrame({"query": ["q1"], "doc": ["a"], "relevance": [1]}),
                pd.DataFrame({"query": ["q1"], "doc": ["a"], "score": [1.0]}),
                "q9",
                spec=DEFAULT_STATE.spec,
            )
        ),
    ),
    ("no_rankings", lambda: raised(lambda: variant_matrix({}))),
    ("ranking_name_clash", lambda: raised(lambda: variant_matrix({"gain": [3, 2, 1]}))),
    ("unknown_exercise_kind", lambda: raised(lambda: make_exercise(7, 1, kind="essay", level=1))),
    ("exercise_level", lambda: raised(lambda: make_exercise(7, 1, kind="metric", level=4))),
    ("diagnose_quantity", lambda: raised(lambda: diagnose("0.5", [1, 0], quantity="mrr"))),
    # typed answers
    ("only_numbers", lambda: raised(lambda: parse_answer("'1'"))),
    ("type_a_number", lambda: raised(lambda: parse_answer("'1'"))),
    ("divides_by_zero", lambda: raised(lambda: parse_answer("1/0"))),
    ("exponent_too_large", lambda: raised(lambda: parse_answer("2^40"))),
    ("negative_fractional_power", lambda: raised(lambda: parse_answer("(-2)^0.5"))),
    ("no_functions", lambda: raised(lambda: parse_answer("log2(3)"))),
    ("no_dotted_names", lambda: raised(lambda: parse_answer("math.pi"))),
    ("a_name", lambda: raised(lambda: parse_answer("x"))),
    ("only_arithmetic", lambda: raised(lambda: parse_answer("1 < 2"))),
    ("answer_not_text", lambda: raised(lambda: parse_answer(0.5))),
    ("answer_empty", lambda: raised(lambda: parse_answer("  "))),
    ("answer_too_long", lambda: raised(lambda: parse_answer("1" * 81))),
    ("not_arithmetic", lambda: raised(lambda: parse_answer("1 +"))),
    ("number_too_large", lambda: raised(lambda: parse_answer("(10^32)^32"))),
    ("too_many_decimals", lambda: raised(lambda: parse_answer("1e-999999999"))),
    ("more_decimals", lambda: precision_problem("1", 0.9766)),
    ("more_decimals_one", lambda: precision_problem("1.0", 0.9766)),
    ("a_fraction", lambda: judge("93", 0.9315, fraction=True).problem),
    ("read_as_fraction", lambda: judge("93%", 0.9315).note),
    # Practice's verdicts that judge nothing
    ("answer_unreadable", lambda: problem_of(_NUMBER, "log2(3)")),
    ("bad_order", lambda: problem_of(_ORDER, ["nobody"])),
    ("no_choice", lambda: problem_of(_CHOICE, 99)),
    # Class mode
    ("class_answer_closed", lambda: answer_refusal(QuestionNotOpen())),
    ("class_join_first", lambda: answer_refusal(NotJoined())),
    ("class_answer_too_fast", lambda: too_fast(0.2)),
    ("class_formula", lambda: AskForm(source="playground").question(seed=1).message),
    ("class_exercise", lambda: raised(lambda: practice_definition(1, 1, "essay", 1))),
    ("class_ask", lambda: raised(lambda: playground_definition(["A", "B"], [1, 0], _FORMULA, "mrr"))),
    ("class_items", lambda: raised(lambda: playground_definition(["A"], [1], _FORMULA, "ndcg"))),
    (
        "class_labels_differ",
        lambda: raised(lambda: playground_definition(["A", "A"], [1, 0], _FORMULA, "ndcg")),
    ),
    (
        "class_needs_relevant",
        lambda: raised(lambda: playground_definition(["A", "B"], [0, 0], _FORMULA, "ndcg")),
    ),
    ("class_question_source", lambda: raised(lambda: exercise({"source": "quiz"}))),
    ("class_type_a_number", lambda: raised(lambda: grade(exercise(_DEFINITION), 0.5))),
    (
        "class_give_every_item",
        lambda: raised(lambda: grade(exercise({**_DEFINITION, "ask": "highest"}), "A")),
    ),
    ("class_answer_too_long", lambda: raised(lambda: grade(exercise(_DEFINITION), "1" * 5000))),
    # a lesson step sent to a room
    ("class_lesson_step", lambda: raised(lambda: lesson_definition(0, DEFAULT_STATE))),
    ("class_lesson_no_question", lambda: raised(lambda: lesson_definition(1, DEFAULT_STATE))),
    (
        "class_lesson_items",
        lambda: raised(lambda: lesson_definition(2, replace(DEFAULT_STATE, items=DEFAULT_STATE.items * 6))),
    ),
    (
        "class_lesson_formula",
        lambda: raised(
            lambda: lesson_definition(2, replace(DEFAULT_STATE, spec=Spec(Variant(gain={0: 0, 1: 5}))))
        ),
    ),
    (
        "class_position",
        lambda: raised(lambda: playground_definition(["A", "B"], [1, 0], _FORMULA, "gain", 3)),
    ),
    # the lecturer's own questions (issue 26, part 4): each refusal names the form's field
    ("class_field", lambda: raised(lambda: _own("3, x"))),
    ("field_grades", lambda: raised(lambda: _own("3, x"))),
    ("grade_not_number", lambda: raised(lambda: _own("3, x"))),
    ("grades_empty", lambda: raised(lambda: _own(" , "))),
    ("grade_range", lambda: raised(lambda: _own("3, 11"))),
    ("field_labels", lambda: raised(lambda: _own("3, 1", "A, B, C"))),
    ("own_labels_count", lambda: raised(lambda: _own("3, 1", "A, B, C"))),
    ("field_position", lambda: raised(lambda: _own("3, 1", ask="gain", position=5))),
    ("field_prompt", lambda: raised(lambda: choice_definition("", ["a", "b"], 0))),
    ("text_empty", lambda: raised(lambda: choice_definition("", ["a", "b"], 0))),
    ("text_too_long", lambda: raised(lambda: choice_definition("q" * 301, ["a", "b"], 0))),
    ("text_control", lambda: raised(lambda: choice_definition("q\x07", ["a", "b"], 0))),
    ("field_option", lambda: raised(lambda: choice_definition("q", ["a", "b\u202e"], 0))),
    ("text_bidi", lambda: raised(lambda: choice_definition("q", ["a", "b\u202e"], 0))),
    ("text_invisible", lambda: raised(lambda: choice_definition("\u200b", ["a", "b"], 0))),
    ("field_options", lambda: raised(lambda: choice_definition("q", ["a"], 0))),
    ("options_count", lambda: raised(lambda: choice_definition("q", ["a"], 0))),
    ("options_same", lambda: raised(lambda: choice_definition("q", ["a", "a"], 0))),
    ("field_right", lambda: raised(lambda: choice_definition("q", ["a", "b"], None))),
    ("right_missing", lambda: raised(lambda: choice_definition("q", ["a", "b"], None))),
    ("right_empty", lambda: raised(lambda: choice_definition("q", ["a", "b", ""], 2))),
]


@pytest.mark.parametrize(
    ("code", "call"), TEACHING_PATHS, ids=[f"{c}-{i}" for i, (c, _f) in enumerate(TEACHING_PATHS)]
)
def test_the_teaching_layer_gives_each_code_by_its_real_path(code, call, zh):
    set_language("en")
    coded = call()
    assert code in codes_in(coded), (code, coded)
    message = coded.message if isinstance(coded, NDCGError) else coded
    assert str(coded) == MESSAGES[message.code].format(**message.values)
    set_language("zh")
    assert error_text(coded) != str(coded)


def test_class_mode_settings_raise_their_codes(monkeypatch, tmp_path):
    monkeypatch.setenv("NDCG_ROOM_HOURS", "-1")
    assert raised(room_hours).code == "room_hours"
    assert raised(lambda: _status(tmp_path)).code == "question_status"
    assert raised(lambda: _countdown(tmp_path)).code == "class_countdown"
    for bad in ("0", "abc", "inf"):
        monkeypatch.setenv("NDCG_PROGRESS_DAYS", bad)
        err = raised(progress_days)
        assert (err.code, err.values["name"]) == ("bad_setting", "NDCG_PROGRESS_DAYS")
    monkeypatch.setenv("NDCG_ROOM_HOURS", "abc")
    assert raised(room_hours).code == "room_hours"
    monkeypatch.setenv("NDCG_ROOM_HOURS", "1e12")
    assert raised(room_hours).code == "room_hours_too_long"
    monkeypatch.setenv("NDCG_ROOM_HOURS", "24")
    for bad in ("abc", "-1", "1.5", "11"):
        monkeypatch.setenv("NDCG_TRUSTED_PROXIES", bad)
        assert raised(trusted_proxies).code == "trusted_proxies"
    (tmp_path / "file").write_text("x")
    assert raised(lambda: Store(f"sqlite:///{tmp_path / 'file' / 'c.sqlite3'}")).code == "data_dir_not_folder"
    assert raised(lambda: Store("nosuchdb://u:p@h/x")).code == "database_url_unusable"


def test_an_unwritable_data_folder_raises_its_code(monkeypatch, tmp_path):
    import os

    monkeypatch.setattr(os, "access", lambda path, mode: False)  # as a read-only disk says
    assert raised(lambda: Store(f"sqlite:///{tmp_path / 'c.sqlite3'}")).code == "data_dir_not_writable"


#: Raised by the pages (views/): a custom gain table without a grade of the list and a model score
#: Explore cannot read (tests/app/test_app_errors.py shows each in Chinese); a lesson step the
#: presenter could not send to its room (tests/app/test_app_learn_room.py).
PAGE_CODES = {"grade_without_gain", "entry_not_finite", "class_lesson_not_sent"}
#: What the Data sets page's settings accept (tests/app/test_app_hardening.py sets each wrong).
PAGE_CODES |= {"accepts_megabytes", "accepts_kilobytes", "accepts_idle_seconds"}


def test_every_code_the_teaching_layer_uses_has_a_real_path():
    covered = {code for code, _call in TEACHING_PATHS} | {
        "room_hours",
        "room_hours_too_long",
        "data_dir_not_folder",
        "data_dir_not_writable",
        "database_url_unusable",
        "question_status",
        "class_countdown",
        "bad_setting",
        "accepts_days",
        "accepts_public_url",  # NDCG_PUBLIC_URL: tests/app/test_app_hardening.py
        "trusted_proxies",
    }
    covered |= {"progress_section", "progress_too_big"}  # tests/teaching/test_progress_store.py
    assert sorted(set(codes_used(TEACHING)) - covered) == []
    assert set(codes_used(PAGES)) == PAGE_CODES


def test_a_students_unreadable_answer_is_a_coded_bad_answer(zh):
    err = raised(lambda: grade(exercise(_DEFINITION), "log2(3)"))
    assert isinstance(err, BadAnswer) and err.code == "answer_unreadable"
    set_language("en")
    assert str(err).startswith("Could not read your answer: functions such as log2(...) cannot be used")
    set_language("zh")
    assert error_text(err).startswith("无法读取你的答案")
    assert "不能使用 log2(...) 这样的函数" in error_text(err)
    # Class mode's pages keep str(err) in the session: it still has the code
    assert error_text(str(err)) == error_text(err)
    for again in (pickle.loads(pickle.dumps(err)), copy.deepcopy(err)):
        assert type(again) is BadAnswer and error_text(again) == error_text(err)


def test_bad_questions_are_translated(zh):
    err = raised(lambda: playground_definition(["A", "B"], [0, 0], _FORMULA, "ndcg"))
    assert isinstance(err, BadQuestion)
    assert error_text(err) == "至少要有一个相关条目（等级大于 0）"


def test_share_link_warnings_stay_english_text_and_keep_their_codes():
    warnings = warnings_of({"rel": "3,2,1", "labels": "A,B", "preset": "sk-learn"})
    assert warnings == [
        "Share link parameter 'labels': 2 labels for 3 grades; using D1, D2, ... instead.",
        "Share link parameter 'preset': unknown preset 'sk-learn'; using the formula above instead.",
    ]
    assert [w.code for w in warnings] == ["share_link_param", "share_link_param"]

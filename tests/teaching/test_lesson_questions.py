"""Issue 26, part 1: a lesson step's question sent to a room, judged by Practice's rules.

Expected values are closed forms (math.log2) on the lists' grades: Wikipedia's D1..D6
(3, 2, 3, 0, 1, 2) under rel1 + Σ rel_i / log2 i gives NDCG 0.932.
"""

from __future__ import annotations

import json
import math

import pytest

from ndcg_core.classroom import BadQuestion, Store, exercise, grade, summarise
from ndcg_core.classroom.lesson_questions import MAX_LESSON_ITEMS, lesson_definition, lesson_table
from ndcg_core.i18n import set_language
from ndcg_core.spec import Spec
from ndcg_core.teaching.playground import Item, PlaygroundState
from ndcg_core.variants import Variant

pytestmark = pytest.mark.teaching

WIKI = (3, 2, 3, 0, 1, 2)
JARVELIN = Spec(Variant(discount="jarvelin"))


def state(grades=WIKI, spec=JARVELIN, pool=(), scores=None) -> PlaygroundState:
    items = tuple(
        Item(i, f"D{i}", g, None if scores is None else scores[i - 1]) for i, g in enumerate(grades, start=1)
    )
    judged = tuple(Item(100 + i, f"J{i}", g) for i, g in enumerate(pool, start=1))
    return PlaygroundState(items, judged, spec)


def wiki_dcg(grades) -> float:
    return sum(g / max(1.0, math.log2(i)) for i, g in enumerate(grades, start=1))


def test_each_asking_step_becomes_a_question_with_the_lessons_number():
    s = state()
    answers = {
        2: 3.0,  # the gain of D1 (grade 3) at position 1, linear gain
        3: math.log2(3),  # max(1, log2 3)
        4: 3 / math.log2(3),  # D3's discounted gain
        6: wiki_dcg(WIKI) / wiki_dcg(sorted(WIKI, reverse=True)),
    }
    for step, exact in answers.items():
        e = exercise(lesson_definition(step, s))
        assert e.answer_type == "number"
        assert e.exact == pytest.approx(exact, abs=1e-12)
        assert grade(e, f"{exact:.3f}").correct
        assert not grade(e, f"{exact + 0.2:.3f}").correct
    assert round(answers[6], 3) == 0.932


def test_the_ideal_orderings_first_grade_is_a_choice_of_the_lists_grades():
    e = exercise(lesson_definition(5, state()))
    assert e.answer_type == "choice"
    assert e.choices == ("3", "2", "1", "0")
    assert e.choices[e.answer_choice] == "3"
    assert grade(e, 0).correct and not grade(e, 1).correct


def test_picking_the_lists_own_first_grade_names_the_unsorted_ideal():
    e = exercise(lesson_definition(5, state((1, 3, 2), Spec())))
    picked = grade(e, e.choices.index("1"))
    assert not picked.correct and picked.mistakes == ("ideal_unsorted",)


def test_an_unretrieved_judged_item_leads_the_ideal_and_leaving_it_out_is_named():
    e = exercise(lesson_definition(5, state((1, 0), Spec(), pool=(3,))))
    assert e.choices == ("3", "1", "0") and e.answer_choice == 0
    assert set(grade(e, 1).mistakes) == {"ideal_unsorted", "ideal_retrieved_only"}


def test_the_cutoff_question_is_yes_or_no_and_stored_by_its_index_in_any_language():
    d = lesson_definition(7, state())
    e = exercise(d)
    assert e.choices == ("Yes, with a smaller weight", "No, nothing at all")
    assert grade(e, 1).correct and not grade(e, 0).correct
    set_language("zh")
    try:
        zh = exercise(d)
    finally:
        set_language("en")
    assert zh.answer_choice == 1 and zh.choices[1] != e.choices[1]
    assert grade(zh, 1).correct


def test_a_wrong_divisor_is_diagnosed_as_practice_does():
    e = exercise(lesson_definition(3, state()))
    assert "log2_i_plus_1" in grade(e, f"{math.log2(4):.3f}").mistakes  # log2(i + 1) where max(1, log2 i)


def test_phones_get_the_table_so_far_without_the_asked_column():
    cols = {n: list(lesson_table(lesson_definition(n, state())).columns) for n in (2, 3, 4, 6, 7)}
    assert cols[2] == ["Position", "Item", "Grade"]
    assert cols[3] == ["Position", "Item", "Grade", "Gain"]
    assert cols[4] == ["Position", "Item", "Grade", "Gain", "Divisor"]
    assert "Beyond k" not in cols[7]
    table = lesson_table(lesson_definition(4, state()))
    assert table["Divisor"].tolist() == pytest.approx([max(1.0, math.log2(i)) for i in range(1, 7)])


def test_scores_rank_the_list_the_question_follows():
    # Scores put D2 (grade 3) first: the gain question asks about position 1, grade 3.
    e = exercise(lesson_definition(2, state((1, 3), Spec(), scores=(0.2, 0.9))))
    assert "position 1" in e.prompt and e.exact == 3.0


@pytest.mark.parametrize(
    ("s", "step", "code"),
    [
        (state(), 1, "class_lesson_no_question"),  # the list's own step asks nothing
        (state(), 8, "class_lesson_step"),
        (state(spec=Spec(Variant(gain={0: 0, 1: 5, 2: 6, 3: 9}))), 2, "class_lesson_formula"),  # a gain table
        (state(tuple([1] * (MAX_LESSON_ITEMS + 1))), 2, "class_lesson_items"),
        # Rules Practice does not state (the judged pool ignored): other numbers than the lesson shows.
        (state((1, 0), Spec(ideal_source="retrieved"), pool=(3,)), 6, "class_lesson_formula"),
    ],
)
def test_lists_the_room_cannot_be_asked_about_are_refused_with_a_reason(s, step, code):
    with pytest.raises(BadQuestion) as err:
        lesson_definition(step, s)
    assert err.value.code == code


def test_a_room_stores_judges_and_sums_up_a_lesson_question(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'c.sqlite3'}")
    code, key = store.create_room()
    number = store.ask(code, key, lesson_definition(4, state())).number
    store.set_status(code, key, number, "open")
    right = 3 / math.log2(3)
    for name, typed in (("Ada", f"{right:.3f}"), ("Bo", "1.500"), ("Cy", f"{right:.2f}")):
        store.submit(code, store.join(code, name).token, number, typed)
    info, summary = store.summary(code, key, number)
    assert json.loads(json.dumps(info.definition))["source"] == "lesson"
    assert (summary.answered, summary.correct) == (3, 2)
    assert summary.mistakes == {"log2_i_plus_1": 1}  # 3 / log2(3 + 1) = 1.5
    assert summarise(exercise(info.definition), []).answered == 0
    store.dispose()

"""Issue 30, part 1: no input is worth more than it is (library level).

A 12-character answer such as ``1e-999999999`` claims 999,999,999 decimals; the checker showed the
exact value to that precision (gigabytes of text). It is refused at the parse boundary with a short
coded message, in Practice, Learn and Class alike, and a stored one never re-renders at that size.
The assertions are on output length, never on timing.
"""

from __future__ import annotations

import pytest

from ndcg_core import explain
from ndcg_core.classroom.questions import (
    BadAnswer,
    encode_response,
    exercise,
    feedback,
    grade,
    practice_definition,
)
from ndcg_core.errors import NDCGError, error_text
from ndcg_core.teaching.answers import MAX_DECIMALS, parse_answer
from ndcg_core.teaching.lesson import check_answer, lesson_step
from ndcg_core.teaching.practice import check, make_exercise

HUGE = ["1e-999999999", "1e-99999999", "1e-999999", "-1e-999999999", "0.5e-999999", "1E-999999999"]
#: Longer than any message the checker writes about a refused answer, far shorter than the bad ones.
SHORT = 300


@pytest.mark.parametrize("text", HUGE)
def test_an_answer_claiming_absurd_decimals_is_refused_with_a_code(text):
    with pytest.raises(NDCGError) as info:
        parse_answer(text)
    assert info.value.code == "too_many_decimals"
    assert len(str(info.value)) < SHORT


@pytest.mark.parametrize("text", ["1e-20", "0." + "1" * MAX_DECIMALS, "0.82", "3 + 2/1.585"])
def test_answers_up_to_the_limit_still_read(text):
    assert parse_answer(text).decimals <= MAX_DECIMALS


def test_one_decimal_past_the_limit_is_refused():
    with pytest.raises(NDCGError):
        parse_answer("0." + "1" * (MAX_DECIMALS + 1))


@pytest.mark.parametrize("text", HUGE)
def test_practice_says_so_briefly(text):
    fb = check(make_exercise(7, 1, kind="metric", level=1), text)
    assert fb.correct is False and fb.problem is not None and fb.problem.code == "answer_unreadable"
    assert len(fb.message) < SHORT and len(fb.diagnosis) < SHORT


@pytest.mark.parametrize("text", HUGE)
def test_learn_says_so_briefly(text):
    step = lesson_step(4, explain([3, 2, 3, 0, 1, 2]))
    fb = check_answer(step.question, text)
    assert fb.correct is None and len(fb.message) < SHORT


def test_class_mode_refuses_it_and_a_stored_one_never_re_renders_at_size():
    e = exercise(practice_definition(7, 1, "metric", 1))
    with pytest.raises(BadAnswer) as info:
        grade(e, "1e-999999999")
    assert info.value.code == "answer_unreadable"  # Practice's coded reason, as for any unreadable answer
    assert "too many decimals" in str(info.value) and len(error_text(info.value)) < SHORT
    # A row stored before the fix is re-judged after the reveal: a short "could not read".
    fb = feedback(e, encode_response("1e-999999999"))
    assert len(fb.message) < SHORT

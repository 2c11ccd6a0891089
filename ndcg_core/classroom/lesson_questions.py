"""The lesson's questions for a room: presenter mode sends a step's question to the students' phones.

A lesson question is stored as a definition like the others (:mod:`.questions`)::

    {"source": "lesson", "step": 4, "labels": [...], "grades": [...], "scores": None,
     "pool_labels": [], "pool_grades": [], "formula": {"k": None, "gain": "linear", ...}}

It is rebuilt in the reader's language into the lesson's step (:func:`~ndcg_core.teaching.lesson.lesson_step`,
for the prompt and the table so far) and into a Practice :class:`~ndcg_core.teaching.practice.Exercise`,
so answers are judged and diagnosed by Practice's rules, as every Class question is:

* steps 2, 3 and 4 ask one cell of the step table (the gain, the divisor, the discounted gain);
* step 6 asks NDCG;
* step 5 (which grade the ideal ordering puts first) is a choice among the list's grades, and step 7
  (do rows below k count) a choice between the lesson's two answers; a wrong choice names the
  mistake that leads to it where the lesson knows one.

Step 1 asks nothing. Practice states linear or exponential gains and the log(i + 1) or
Järvelin–Kekäläinen discounts; a list under another formula cannot be sent (:class:`BadQuestion`).

>>> from ndcg_core.teaching.playground import PlaygroundState, Item
>>> from ndcg_core.spec import Spec
>>> from ndcg_core.variants import Variant
>>> items = tuple(Item(i, f"D{i}", g) for i, g in enumerate([3, 2, 3, 0, 1, 2], start=1))
>>> state = PlaygroundState(items, spec=Spec(Variant(discount="jarvelin")))
>>> e = lesson_exercise(lesson_definition(6, state))
>>> e.answer_type, round(e.exact, 3)      # Wikipedia's D1..D6
('number', 0.932)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from ..explanation import Explanation, explain
from ..i18n import _
from ..spec import Spec
from ..teaching.lesson import N_STEPS, LessonStep, lesson_step, step_frame
from ..teaching.playground import PlaygroundState
from ..teaching.practice import Exercise
from ..teaching.practice import Question as PracticeQuestion
from .formulas import BadQuestion, formula_data, formula_from_data, formula_of_spec

__all__ = ["MAX_LESSON_ITEMS", "lesson_definition", "lesson_exercise", "lesson_step_of", "lesson_table"]

#: Most items (ranked plus judged but not retrieved) a lesson question sends to the phones: a
#: first screen of ten results and its judged pool fit, and a phone can still read the table.
MAX_LESSON_ITEMS = 30

#: The step-table columns whose numbers must agree between the lesson's formula and the one
#: Practice states, for a question judged by Practice to be the lesson's question.
_CHECKED = ("Gain", "Divisor", "Discounted gain", "Cumulative DCG")


def _same_numbers(a: Explanation, b: Explanation) -> bool:
    """Whether two explanations of one list show the same table and totals (NaN equal to NaN)."""
    for frame in ("steps", "ideal_steps"):
        x, y = getattr(a, frame), getattr(b, frame)
        if len(x) != len(y) or not all(np.allclose(x[c], y[c], equal_nan=True) for c in _CHECKED):
            return False
    return all(
        math.isclose(p, q, abs_tol=1e-12) or (math.isnan(p) and math.isnan(q))
        for p, q in ((a.dcg, b.dcg), (a.idcg, b.idcg), (a.ndcg, b.ndcg))
    )


def lesson_definition(step: int, state: PlaygroundState) -> dict[str, Any]:
    """The definition of lesson step ``step``'s question on the list and formula of ``state``.

    Raises :class:`BadQuestion` when the step asks nothing, the list is too long for the phones,
    or Practice cannot state the formula (its numbers would differ from the lesson's).
    """
    if not 1 <= int(step) <= N_STEPS:
        raise BadQuestion("class_lesson_step", step=repr(step), n=N_STEPS)
    if len(state.items) + len(state.pool) > MAX_LESSON_ITEMS:
        raise BadQuestion("class_lesson_items", n=MAX_LESSON_ITEMS)
    formula = formula_of_spec(state.spec)
    if formula is None:
        raise BadQuestion("class_lesson_formula")
    ties = state.spec.variant.ties  # it counts only when the items carry scores
    definition = {
        "source": "lesson",
        "step": int(step),
        "labels": [i.label for i in state.items],
        "grades": [float(i.grade) for i in state.items],
        "scores": state.scores,
        "pool_labels": [i.label for i in state.pool],
        "pool_grades": [float(i.grade) for i in state.pool],
        "formula": formula_data(replace(formula, ties=ties)),
    }
    ex, lesson = _lesson(definition)
    if lesson.question is None:
        raise BadQuestion("class_lesson_no_question", step=int(step))
    if not _same_numbers(ex, state.explain()):
        raise BadQuestion("class_lesson_formula")
    return definition


def _explanation(d: Mapping[str, Any]) -> Explanation:
    pool = list(d["pool_grades"])
    return explain(
        list(d["grades"]),
        labels=list(d["labels"]),
        scores=d["scores"],
        ideal=[*d["grades"], *pool] if pool else None,
        ideal_labels=[*d["labels"], *d["pool_labels"]] if pool else None,
        spec=Spec(formula_from_data(d["formula"])),
    )


def _lesson(d: Mapping[str, Any]) -> tuple[Explanation, LessonStep]:
    ex = _explanation(d)
    return ex, lesson_step(int(d["step"]), ex)


def lesson_step_of(definition: Mapping[str, Any]) -> LessonStep:
    """The lesson step a definition asks from, in the current language."""
    return _lesson(definition)[1]


def lesson_table(definition: Mapping[str, Any]) -> pd.DataFrame:
    """The step table as far as the question's step shows it before the answer: what a phone needs
    to work the answer out (the asked column is not in it)."""
    ex, step = _lesson(definition)
    return step_frame(ex, step.before_reveal)


def lesson_exercise(definition: Mapping[str, Any]) -> Exercise:
    """The Practice exercise that judges a lesson question (prompt and choices in the current language)."""
    ex, step = _lesson(definition)
    q = step.question
    if q is None:
        raise BadQuestion("class_lesson_no_question", step=step.number)
    grades = tuple(float(g) for g in definition["grades"])
    pool = tuple(float(g) for g in definition["pool_grades"])
    scores = None if definition["scores"] is None else tuple(float(s) for s in definition["scores"])
    ideal = (*grades, *pool) if pool else None
    formula = formula_from_data(definition["formula"])
    base = {
        "seed": 0,
        "number": step.number,
        "level": 1,
        "prompt": q.prompt,
        "grades": grades,
        "labels": tuple(definition["labels"]),
        "formula": formula,
        "ideal": ideal,
        "ideal_labels": (*definition["labels"], *definition["pool_labels"]) if pool else None,
        "scores": scores,
        "why": q.why,
    }
    if q.choices:  # step 7: the lesson's two answers
        assert q.answer is not None
        return Exercise(
            **base,
            kind="lesson",
            choices=tuple(_(c) for c in q.choices),
            answer_choice=q.choices.index(q.answer),
            choice_names=tuple(q.choices),  # the English of each: the same in every language
        )
    if q.quantity == "grade":  # step 5: which grade the ideal ordering puts first
        options = sorted({float(g) for g in ex.ideal_steps["Grade"]}, reverse=True)
        wrong: dict[float, tuple[str, ...]] = {}
        for name, values in q.mistakes:
            for value in values:
                wrong[value] = (*wrong.get(value, ()), name)
        return Exercise(
            **base,
            kind="lesson",
            choices=tuple(f"{g:g}" for g in options),
            answer_choice=options.index(float(q.exact)),
            choice_names=tuple(f"{g:g}" for g in options),
            choice_mistakes=tuple(() if g == q.exact else wrong.get(g, ("unknown",)) for g in options),
        )
    kind = "metric" if q.quantity in ("dcg", "idcg", "ndcg") else "cell"
    question = PracticeQuestion(grades, formula, q.quantity, ideal=ideal, position=q.position, scores=scores)
    return Exercise(**base, kind=kind, question=question)

"""Judging a response (typed text, a choice, or a dragged order): :func:`check` returns :class:`Feedback`.

>>> from ndcg_core.teaching.practice import make_exercise
>>> ex = make_exercise(7, 1, kind="metric", level=1)
>>> check(ex, f"{ex.exact:.3f}").correct
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from ...errors import Message, error_text
from ...i18n import _
from ...rules import rule_mistakes
from ..answers import MAX_DECIMALS, MISTAKE, RIGHT, noted, parse_answer, problem_text
from ..formula import dcg_latex, ndcg_latex, number, trimmed
from .generators import _order_reaches
from .mistakes import MISTAKES, exact_value, judge_question, mistake_short, mistake_text, wrong_formula
from .model import QUANTITIES, Exercise, Feedback, Question, ndcg_under


def check(exercise: Exercise, response: Any) -> Feedback:
    """Judge a response: typed text (numeric), a choice's name (or index), or a list of labels (order)."""
    if exercise.answer_type == "number":
        return _check_number(exercise, response)
    if exercise.answer_type == "order":
        return _check_order(exercise, response)
    return _check_choice(exercise, response)


def solution(exercise: Exercise) -> Feedback:
    """The worked solution on its own ("Show me" before any judged answer) of a numeric or choice
    exercise (a drag exercise has none: each order checked gets its NDCG): the answer, and for a
    number the step-table row it comes from (:func:`focus_rows`) and the formula with the numbers
    (:func:`feedback_latex`)."""
    q = exercise.question
    if q is not None:
        quantity, shown = _(QUANTITIES[q.quantity]), f"{q.value():.3f}"
        message = _("The answer: {quantity} is {shown}.").format(quantity=quantity, shown=shown)
        focus = ("steps", q.position) if q.position is not None else None
        return Feedback(False, message, focus=focus, diagnosis=message)
    message = _("The answer is: {right}.").format(right=exercise.choices[exercise.answer_choice])
    return Feedback(False, message, diagnosis=message)


def _unreadable(problem: Message) -> Feedback:
    """The verdict on a response that cannot be judged: the problem, in the reader's language."""
    message = error_text(problem)
    return Feedback(False, message, problem=problem, diagnosis=message)


def _check_number(exercise: Exercise, text: str) -> Feedback:
    q = exercise.question
    try:
        a = parse_answer(text, avoid=(exact_value(q),))
    except ValueError as err:
        return _unreadable(Message("answer_unreadable", problem=str(err)))
    exact = exact_value(q)
    verdict = judge_question(a, q)
    quantity = _(QUANTITIES[q.quantity])
    shown = f"{exact:.{min(max(3, a.decimals), MAX_DECIMALS)}f}"  # bounded, whatever was typed
    if verdict.kind == RIGHT:
        message = _("Right: {quantity} is {shown}.").format(quantity=quantity, shown=shown)
        message = noted(verdict, message)  # a percentage, read as the fraction it is
        return Feedback(True, message, value=a.value, diagnosis=message)
    if verdict.problem is not None:
        # Not judged (not an attempt): too rough to tell the right value from a mistake's, or a
        # fraction typed as a percentage.
        message = problem_text(verdict)
        return Feedback(False, message, value=a.value, problem=verdict.problem, diagnosis=message)
    found = list(verdict.mistakes) if verdict.kind == MISTAKE else ["unknown"]
    if verdict.kind == MISTAKE:
        reasons = _("; or you ").join(_(mistake_text(m, q.quantity)) for m in found)
        diagnosis = _("Not quite: it looks like you {reasons}.").format(reasons=reasons)
        message = _("Not quite: it looks like you {reasons}. The right value is {shown}.").format(
            reasons=reasons, shown=shown
        )
    else:
        diagnosis = _("Not quite: your answer {answer} is not {quantity}, and no common mistake gives it.")
        if q.position is not None:
            message = _(
                "Not quite: your answer {answer} is not {quantity} ({shown}), and no common mistake "
                "gives it. Compare with the step-table row below."
            )
        else:
            message = _(
                "Not quite: your answer {answer} is not {quantity} ({shown}), and no common mistake "
                "gives it. Compare with the worked formula below."
            )
        diagnosis = diagnosis.format(answer=a.text, quantity=quantity)
        message = message.format(answer=a.text, quantity=quantity, shown=shown)
    focus = _focus(q, found[0]) if q.position is not None or found != ["unknown"] else None
    return Feedback(False, message, mistakes=tuple(found), value=a.value, focus=focus, diagnosis=diagnosis)


def _focus(q: Question, mistake: str) -> tuple[str, int]:
    """The step-table row that shows the mistake best."""
    if q.position is not None:
        return ("steps", q.position)
    ex = q.explanation()
    ideal_side = mistake in {"ideal_retrieved_only", "ideal_unsorted", "k_not_on_ideal"} or (
        q.quantity == "idcg"
    )
    table = ex.ideal_steps if ideal_side else ex.steps
    rows = table[~table["Beyond k"]]
    if mistake == "k_not_on_ideal":
        beyond = table[table["Beyond k"]]
        return ("ideal_steps", int(beyond["Position"].iloc[0]) if len(beyond) else 1)
    field = rule_mistakes().get(mistake, ("", ""))[0]
    if field == "gain":  # gain rules differ most on the higher grades
        pick = rows[rows["Grade"] >= 2]
    elif field == "discount":  # discount rules agree at the top
        pick = rows[(rows["Position"] >= 2) & (rows["Gain"] != 0)]
    else:
        pick = rows[rows["Gain"] != 0]
    if pick.empty:
        pick = rows if not rows.empty else table
    return ("ideal_steps" if ideal_side else "steps", int(pick["Position"].iloc[0]))


#: Step-table columns shown next to a feedback.
ROW_COLUMNS = ("Position", "Item", "Grade", "Gain", "Divisor", "Discounted gain", "Cumulative DCG")


def _your_way(mistake: str, q: Question) -> str:
    """The heading's words for the way a mistake computed: its rule, said by the rule's record
    (:func:`~.mistakes.mistake_short`)."""
    short = mistake_short(mistake, q)
    if rule_mistakes().get(mistake, ("", ""))[0] == "discount":
        return _("divisor = {rule}").format(rule=short)
    return short


def focus_rows(exercise: Exercise, feedback: Feedback) -> pd.DataFrame:
    """The step-table row a feedback points at, worked out, one step per line (narrow, for phones).

    Columns: ``Step`` (the step-table column names), ``Asked`` (the row under
    the formula asked) and, when the mistake is a different formula choice,
    ``Your way: ...`` (the same row computed that way). Empty for a right
    answer or a non-numeric exercise.
    """
    q = exercise.question
    if q is None or feedback.focus is None:
        return pd.DataFrame(columns=[_("Step"), _("Asked")])
    table, position = feedback.focus
    columns = {_("Asked"): q.explanation()}
    mistake = feedback.mistakes[0] if feedback.mistakes else ""
    wrong = wrong_formula(q, mistake)
    if wrong is not None:
        columns[_("Your way: {how}").format(how=_your_way(mistake, q))] = q.explanation(wrong)
    elif mistake == "ideal_retrieved_only" and table == "ideal_steps":
        columns[_("Your way: {how}").format(how=_your_way(mistake, q))] = q.explanation(ideal=None)
    out = pd.DataFrame({_("Step"): list(ROW_COLUMNS)})
    for name, ex in columns.items():
        steps = getattr(ex, table)
        row = steps[steps["Position"] == position]
        out[name] = pd.Series([row[c].iloc[0] if len(row) else None for c in ROW_COLUMNS], dtype=object)
    return out


#: The rows of :func:`focus_rows` that are given, not computed: shown as typed (a position 2, a
#: grade 1.5), not at the computed values' fixed precision.
_GIVEN_ROWS = ("Position", "Item", "Grade")


def focus_text(rows: pd.DataFrame) -> pd.DataFrame:
    """:func:`focus_rows` as the page shows it: every cell text (``2``, ``1.585``, never ``2.000``
    or ``1.5849625007211563``), the steps' names translated."""
    if rows.empty:
        return rows
    step = rows.columns[0]

    def cell(name: str, value: Any) -> str:
        if value is None or isinstance(value, str):
            return "" if value is None else value
        return trimmed(value) if name in _GIVEN_ROWS else number(float(value))

    out = pd.DataFrame({step: [_(name) for name in rows[step]]})
    for column in rows.columns[1:]:
        out[column] = [cell(name, v) for name, v in zip(rows[step], rows[column], strict=True)]
    return out


def feedback_latex(exercise: Exercise, feedback: Feedback) -> tuple[str, ...]:
    """The formula with the numbers for a wrong numeric answer: the focus row's term, then the total asked."""
    q = exercise.question
    if q is None or feedback.correct or not feedback.counts:
        return ()
    ex = q.explanation()
    totals = {
        "dcg": (dcg_latex(ex),),
        "idcg": (dcg_latex(ex, ideal=True),),
        "ndcg": (dcg_latex(ex), dcg_latex(ex, ideal=True), ndcg_latex(ex)),
    }.get(q.quantity, ())
    if feedback.focus is None:
        return totals
    table, position = feedback.focus
    row = getattr(ex, table).set_index("Position").loc[position]
    name = (_("ideal row {n}:") if table == "ideal_steps" else _("row {n}:")).format(n=position)
    term = (
        f"\\text{{{name} }}\\dfrac{{{trimmed(row['Gain'])}}}{{{trimmed(row['Divisor'])}}}"
        f" = {trimmed(row['Discounted gain'])}"
    )
    return (term, *totals)


def _check_order(exercise: Exercise, order: Sequence[str]) -> Feedback:
    by_label = dict(zip(exercise.labels, exercise.grades, strict=True))
    if sorted(order) != sorted(exercise.labels):
        return _unreadable(Message("bad_order"))
    grades = [by_label[label] for label in order]
    value = ndcg_under(exercise.formula, grades)
    best, worst = dict(exercise.values)["best"], dict(exercise.values)["worst"]
    ok = _order_reaches(value, exercise.goal, exercise.target, best, worst)
    if ok:
        message = _("Right: this order scores NDCG = {value}.").format(value=f"{value:.3f}")
        return Feedback(True, message, value=value, diagnosis=message)
    if exercise.goal == "target":
        if value > exercise.target:
            message = _("Not yet: this order scores {value}, too high for {target} ± 0.01.")
        else:
            message = _("Not yet: this order scores {value}, too low for {target} ± 0.01.")
        message = message.format(value=f"{value:.3f}", target=f"{exercise.target:.2f}")
    elif exercise.goal == "highest":
        message = _("Not yet: this order scores {value}; the highest possible is {aim}.").format(
            value=f"{value:.3f}", aim=f"{best:.3f}"
        )
    else:
        message = _("Not yet: this order scores {value}; the lowest possible is {aim}.").format(
            value=f"{value:.3f}", aim=f"{worst:.3f}"
        )
    # Dragging is trying: the score of each order is the help, never the order itself.
    return Feedback(False, message, value=value, diagnosis=message)


def _check_choice(exercise: Exercise, response: Any) -> Feedback:
    choice = exercise.choice_index(response)
    if choice is None:
        return _unreadable(Message("no_choice"))
    right = exercise.choices[exercise.answer_choice]
    if choice == exercise.answer_choice:
        message = _("Right: {why}.").format(why=exercise.why or right)
        return Feedback(True, message, diagnosis=message)
    picked = exercise.choices[choice]
    if exercise.why:  # a choice that states its working (a lesson's question, sent to a room)
        found = exercise.choice_mistakes[choice] if exercise.choice_mistakes else ()
        named = [m for m in found if m in MISTAKES]
        diagnosis = _("Not this one: you picked '{picked}'.").format(picked=picked)
        if named:
            reasons = _("; or you ").join(_(mistake_text(m, None)) for m in named)
            diagnosis = _("Not this one: it looks like you {reasons}.").format(reasons=reasons)
        message = _("{diagnosis} The answer is: {right} ({why}).").format(
            diagnosis=diagnosis, right=right, why=exercise.why
        )
        return Feedback(False, message, mistakes=tuple(found), diagnosis=diagnosis)
    if not exercise.values:  # nothing computed behind the choices: a lecturer's own question
        message = _("Not this one. The answer is: {right}.").format(right=right)
        return Feedback(False, message, diagnosis=_("Not this one."))
    if exercise.traits.compares_formulas:
        values = dict(exercise.values)
        detail = _(
            "Under the first formula A scores {a1} and B {b1}; under the second, A {a2} and B {b2}."
        ).format(
            a1=f"{values['A, first formula']:.3f}",
            b1=f"{values['B, first formula']:.3f}",
            a2=f"{values['A, second formula']:.3f}",
            b2=f"{values['B, second formula']:.3f}",
        )
        diagnosis = _("Not this one: work out NDCG for A and B under each formula.")
    else:
        wrong_value = exercise.values[choice][1]
        detail = _("'{picked}' gives {value}, not {target}.").format(
            picked=picked, value=f"{wrong_value:.3f}", target=f"{exercise.target:.3f}"
        )
        diagnosis = _("Not this one: {detail}").format(detail=detail)
    return Feedback(
        False,
        _("Not this one: {detail} The answer is: {right}.").format(detail=detail, right=right),
        diagnosis=diagnosis,
    )

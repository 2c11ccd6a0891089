"""What presenter mode projects for a lesson step, before and after the lecturer reveals its answer.

A step that asks the room (its :class:`~ndcg_core.teaching.lesson.Question`) must not show that
number on the projector until the lecturer reveals it: not in the table, a formula, a headline
number. Before the reveal the step's new columns read "?"
(every cell of them: another row of the same column, equal grades or a running total's difference
would give the asked cell away), the number it introduces reads "?", its formulas wait, and step 5
shows the ranking instead of the ideal ordering (whose first row is the answer). The reveal adds
the answer's one line; the lesson's longer after-the-answer paragraphs stay off the projector (a
1280×720 screen has no room for them beside the table). A step without a question shows
everything at once. The step's chart (the lesson's :data:`~.lesson.STEP_CHARTS`) stands beside
the table once nothing is hidden: a cumulative-DCG or NDCG@k curve would show the asked number.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ndcg_core.explanation import Explanation
from ndcg_core.i18n import _

from .lesson import IDEAL_COLUMNS, N_STEPS, STEP_CHARTS, LessonStep, step_frame

#: What a hidden cell or number reads on the projector.
HIDDEN = "?"

#: The first step whose numbers depend on the cutoff k (DCG@k): presenter mode offers k − 1 and
#: k + 1 from there on, since it hides the sidebar where k is set otherwise.
K_FROM = 4


@dataclass(frozen=True)
class Screen:
    """One step on the projector: the table (the ideal ordering's when ``ideal``), its columns that
    read "?", the headline number that reads "?", the formulas, the answer's line (empty until
    revealed) and whether the step's chart is shown (never while something reads "?")."""

    columns: tuple[str, ...]
    ideal: bool
    hidden_columns: tuple[str, ...]
    hidden_metric: str | None
    formulas: tuple[str, ...]
    answer: str
    chart: bool = False  # the step's chart stands beside the table


def asks(step: LessonStep) -> bool:
    """Whether the step asks the room a question (and so has something to reveal)."""
    return step.question is not None


def screen(step: LessonStep, revealed: bool) -> Screen:
    """What the projector shows for ``step``; ``revealed``: the lecturer has revealed its answer."""
    if not asks(step) or revealed:
        answer = ""
        if step.question is not None:
            q = step.question
            answer = (
                _("The answer: {answer} ({why}).").format(answer=_(q.answer), why=q.why)
                if q.choices and q.answer is not None
                else _("The answer: {why}.").format(why=q.why)
            )
        columns = IDEAL_COLUMNS if step.ideal else step.columns
        return Screen(columns, step.ideal, (), None, step.formulas, answer, step.number in STEP_CHARTS)
    return Screen(step.columns, False, step.new_columns, step.new_metric, (), "", chart=False)


def screen_table(ex: Explanation, view: Screen) -> tuple[pd.DataFrame, list[bool]]:
    """The projector's table for ``view``, the hidden columns' every cell reading :data:`HIDDEN`,
    and which of its rows count for nothing (beyond k; the ideal table's own flags; none while
    the "Beyond k" column is hidden, since greyed rows would answer its question)."""
    frame = step_frame(ex, view.columns, ideal=view.ideal)
    if view.hidden_columns:
        frame = frame.assign(**{c: [HIDDEN] * len(frame) for c in view.hidden_columns})
    steps = ex.ideal_steps if view.ideal else ex.steps
    if "Beyond k" in view.hidden_columns:  # grey rows below k would answer step 7's question
        return frame, [False] * len(frame)
    return frame, steps["Beyond k"].tolist()


def projected_text(step: LessonStep) -> tuple[str, ...]:
    """The step's paragraphs on the projector: the lesson's, less its hints about controls presenter
    mode hides (the sidebar, the Playground), and on the last step the k controls it does have."""
    if step.number == N_STEPS:
        return (
            *step.text,
            _("Try another k with the buttons k − 1 and k + 1 below (keys ↓ and ↑) and watch the table."),
        )
    return step.text


def k_after(k: int | None, n: int, delta: int) -> int:
    """The cutoff after k − 1 (``delta`` −1) or k + 1 (+1) on a list of ``n`` items: within 1..n;
    no cutoff (``None``) counts as k = n."""
    current = n if k is None else k
    return min(max(current + delta, 1), max(n, 1))

"""A Class question's number answers grouped by what they mean, for bars a hall can read.

Slices of the range of the numbers given put a right answer and a mistake's one bar apart and
said neither (issue 42). The stored verdicts say what each answer means, so the groups are:

* the **right** value: every answer the judge counted right (:func:`~.questions.grade`, through
  Practice's :func:`~ndcg_core.teaching.answers.judge`: ``0.96`` and ``0.961`` for 0.9608 alike);
* one group per **diagnosed mistake** (or set of mistakes one value gives), standing for the
  mistake's own value (:func:`~ndcg_core.teaching.practice.mistakes.mistake_values`);
* **the rest**, by value: each value its own group while there are at most :data:`MAX_OTHER` of
  them, else :data:`MAX_OTHER` runs of neighbouring values, cut where the gaps between them are
  widest.

Groups come in the order of their values, before and after the reveal alike (a bar never moves
when the answer is revealed). Their labels (:func:`group_label`) say only what was typed until the
reveal, then what each group means: ``max(1, log2 i) · 0.932``.

>>> from ndcg_core.classroom import exercise, grade, playground_definition
>>> from ndcg_core.variants import Variant
>>> e = exercise(playground_definition(list("ABCDEF"), [3, 2, 3, 0, 1, 2], Variant(), "ndcg"))
>>> rows = [(g.response, g.correct, g.value, ",".join(g.mistakes))
...         for g in (grade(e, t) for t in ["0.961", "0.96", "0.932", "0.99"])]
>>> [(g.kind, g.count, group_label(g, e, revealed=True)) for g in group_answers(e, rows)]
[('mistake', 1, 'max(1, log2 i) · 0.932'), ('right', 2, '0.961'), ('other', 1, '0.99')]
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..i18n import _
from ..teaching.answers import parse_answer
from ..teaching.practice import Exercise
from ..teaching.practice.mistakes import mistake_short, mistake_values

__all__ = ["MAX_OTHER", "AnswerGroup", "group_answers", "group_label"]

#: Most groups the answers that mean nothing known are counted in.
MAX_OTHER = 3
#: The kinds of group.
RIGHT, MISTAKE, OTHER = "right", "mistake", "other"
#: Most decimals a typed number is shown with (the judge reads up to 6; a bar needs no more than 4).
MAX_SHOWN = 4


@dataclass(frozen=True)
class AnswerGroup:
    """Answers that mean one thing: ``kind`` is ``"right"``, ``"mistake"`` (``mistakes``: the ids
    that give it) or ``"other"``. ``value`` is what the group stands for (the exact value, the
    mistake's value, the middle of the rest's run); ``low`` and ``high`` the numbers given in it,
    ``low_text`` and ``high_text`` as typed; ``typed`` the number typed most often in it."""

    kind: str
    count: int
    value: float
    low: float
    high: float
    typed: str
    low_text: str
    high_text: str
    mistakes: tuple[str, ...] = ()


def _shown(e: Exercise, response: str, value: float) -> str:
    """A stored number as the student typed it: ``0.96`` stays ``0.96``, ``93%`` is ``0.93``; a sum
    typed (``3/2 + 1``) and an order's NDCG show 3 decimals."""
    if e.answer_type != "number":
        return f"{value:.3f}"
    try:
        text = json.loads(response)
        a = parse_answer(text)
    except (ValueError, TypeError):
        return f"{value:.3f}"
    decimals = 3 if a.is_expression else min(a.decimals, MAX_SHOWN)
    return f"{value:.{decimals}f}"


def _most_typed(shown: Sequence[str]) -> str:
    """The text typed most often; between as many, the finest, then the first in order."""
    counts = Counter(shown)
    return min(counts, key=lambda s: (-counts[s], -len(s), s))


def _group(kind: str, items: Sequence[tuple[float, str]], value: float, mistakes=()) -> AnswerGroup:
    low, high = min(items), max(items)
    return AnswerGroup(
        kind,
        len(items),
        value,
        low[0],
        high[0],
        _most_typed([s for _v, s in items]),
        low[1],
        high[1],
        tuple(mistakes),
    )


def _runs(items: list[tuple[float, str]]) -> list[list[tuple[float, str]]]:
    """The rest's numbers in at most :data:`MAX_OTHER` runs of neighbours, cut at the widest gaps
    between distinct values (between gaps as wide, the first)."""
    items.sort()
    distinct = sorted({v for v, _s in items})
    if len(distinct) <= MAX_OTHER:
        return [[it for it in items if it[0] == v] for v in distinct]
    gaps = sorted(range(1, len(distinct)), key=lambda i: (-(distinct[i] - distinct[i - 1]), i))
    starts = [distinct[0], *sorted(distinct[i] for i in gaps[: MAX_OTHER - 1])]
    runs: list[list[tuple[float, str]]] = [[] for _ in starts]
    for it in items:
        runs[max(j for j, start in enumerate(starts) if it[0] >= start)].append(it)
    return runs


def group_answers(
    e: Exercise, rows: Iterable[tuple[str, bool, float | None, str]]
) -> tuple[AnswerGroup, ...]:
    """The stored answers ``(response, correct, value, mistakes "a,b")`` to a number or order
    question, grouped by what they mean, in the order of their values; () for a choice question."""
    if e.answer_type == "choice":
        return ()
    right: list[tuple[float, str]] = []
    wrong: dict[tuple[str, ...], list[tuple[float, str]]] = {}
    rest: list[tuple[float, str]] = []
    for response, correct, value, found in rows:
        if value is None:
            continue
        item = (float(value), _shown(e, response, float(value)))
        named = tuple(m for m in found.split(",") if m and m != "unknown")
        if correct:
            right.append(item)
        elif named:
            wrong.setdefault(named, []).append(item)
        else:
            rest.append(item)
    groups = []
    if right:
        exact = e.exact if e.answer_type == "number" else statistics.median(v for v, _s in right)
        groups.append(_group(RIGHT, right, exact))
    known = mistake_values(e.question) if e.question is not None else {}
    for named, items in wrong.items():
        middle = statistics.median(v for v, _s in items)
        candidates = [v for m in named for v in known.get(m, ())] or [middle]
        groups.append(_group(MISTAKE, items, min(candidates, key=lambda v: abs(v - middle)), named))
    for run in _runs(rest):
        groups.append(_group(OTHER, run, (run[0][0] + run[-1][0]) / 2))
    return tuple(sorted(groups, key=lambda g: (g.value, g.kind)))


def group_label(g: AnswerGroup, e: Exercise, revealed: bool) -> str:
    """A group's bar label: until the reveal, the number typed most often in it (a run of the rest,
    its ends: ``0.2–0.5``); once revealed, the right value to 3 decimals, and a mistake's short name
    with its value (``max(1, log2 i) · 0.932``), in the reader's language."""
    if g.kind == OTHER or not revealed:
        return g.typed if g.low == g.high or g.kind != OTHER else f"{g.low_text}–{g.high_text}"
    if g.kind == RIGHT:
        return f"{g.value:.3f}"
    names = " / ".join(mistake_short(m, e.question) for m in g.mistakes)
    return _("{mistake} · {value}").format(mistake=names, value=f"{g.value:.3f}")

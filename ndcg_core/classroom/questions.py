"""Class-mode questions: what a room is asked, how an answer is judged, how a class answered.

A question is stored as a small JSON-able *definition* (a dict), rebuilt into a Practice
:class:`~ndcg_core.teaching.practice.Exercise` whenever it is needed, so the rules (checking,
:func:`~ndcg_core.teaching.practice.diagnose`) live only in :mod:`ndcg_core.teaching.practice`:

* ``{"source": "practice", "seed": 7, "number": 1, "kind": "metric", "level": 1}``: one of
  Practice's generated exercises (:func:`~ndcg_core.teaching.practice.make_exercise`).
* ``{"source": "lesson", "step": 4, ...}``: presenter mode's lesson question on its list
  (:mod:`.lesson_questions`).
* ``{"source": "playground", "labels": [...], "grades": [...], "formula": {...}, "ask": "ndcg"}``:
  a list with a question: the playground's, or one the lecturer typed (:mod:`.own`). ``ask``:
  ``"dcg"``, ``"idcg"``, ``"ndcg"``, ``"highest"`` (put the items in the order with the highest
  NDCG), or a step-table cell (:data:`CELL_ASKS`) with its ``"position"``.
* ``{"source": "choice", "prompt": "...", "options": [...], "right": 0}``: the lecturer's own
  multiple-choice question, its text as typed (:func:`choice_definition` checks it).

>>> d = playground_definition(["A", "B", "C"], [0, 1, 1], Variant(), "ndcg")
>>> e = exercise(d)
>>> e.answer_type, grade(e, "0.69").correct   # DCG 0.5 + 0.631 over IDCG 1.631: 0.693
('number', True)
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import Message, NDCGError
from ..i18n import N_, _
from ..teaching.practice import (
    KINDS,
    LEVELS,
    MISTAKES,
    QUANTITIES,
    Exercise,
    Feedback,
    Question,
    check,
    make_exercise,
    ndcg_under,
)
from ..variants import Variant
from .formulas import BadQuestion, formula_from_data, formula_of_spec
from .grouping import AnswerGroup, group_answers
from .lesson_questions import lesson_exercise
from .names import name_problem

__all__ = [
    "ASKS",
    "CELL_ASKS",
    "MAX_OPTION",
    "MAX_OPTIONS",
    "MAX_PROMPT",
    "Graded",
    "Summary",
    "answer_text",
    "choice_definition",
    "correct_answer",
    "decode_response",
    "encode_response",
    "exercise",
    "formula_of_spec",
    "grade",
    "playground_definition",
    "practice_definition",
    "summarise",
]

#: What a playground question can ask (marked for translation: shown with ``_()``).
ASKS: dict[str, str] = {
    "ndcg": N_("NDCG of this list"),
    "dcg": N_("DCG of this list"),
    "idcg": N_("IDCG of this list"),
    "highest": N_("the order of these items with the highest NDCG"),
}
#: The step-table cells a question on a list can ask for, at a position (Practice's quantities).
CELL_ASKS = ("gain", "divisor", "discounted_gain", "cumulative_dcg")
#: A multiple-choice question: the longest prompt and option (characters), and 2 to 6 options.
MAX_PROMPT = 300
MAX_OPTION = 120
MIN_OPTIONS, MAX_OPTIONS = 2, 6
#: Longest stored response text (a typed number is at most 80 characters; an order of 50 labels fits).
MAX_RESPONSE = 4000
#: Most items a playground question may have (students order them on a phone).
MAX_ITEMS = 12


class BadAnswer(NDCGError):
    """A response that cannot be judged; :func:`~ndcg_core.errors.error_text` of it is the message for
    the student."""


def practice_definition(seed: int, number: int, kind: str, level: int) -> dict[str, Any]:
    """The definition of one of Practice's exercises."""
    if kind not in KINDS or level not in LEVELS:
        raise BadQuestion("class_exercise", kind=repr(kind), level=repr(level))
    return {"source": "practice", "seed": int(seed), "number": int(number), "kind": kind, "level": int(level)}


def playground_definition(
    labels: Sequence[str],
    grades: Sequence[float],
    formula: Variant,
    ask: str,
    position: int | None = None,
) -> dict[str, Any]:
    """The definition of a question on a list (the playground's, or one the lecturer typed), under a
    formula; a step-table cell (``ask`` in :data:`CELL_ASKS`) at ``position``, 1 to the cutoff."""
    if ask not in ASKS and ask not in CELL_ASKS:
        raise BadQuestion("class_ask", asks=", ".join([*ASKS, *CELL_ASKS]), ask=repr(ask))
    if not 2 <= len(grades) <= MAX_ITEMS or len(labels) != len(grades):
        raise BadQuestion("class_items", n=MAX_ITEMS)
    if len(set(labels)) != len(labels):
        raise BadQuestion("class_labels_differ")
    if not any(float(g) > 0 for g in grades):
        raise BadQuestion("class_needs_relevant")
    cut = len(grades) if formula.k is None else min(formula.k, len(grades))
    if ask in CELL_ASKS and (type(position) is not int or not 1 <= position <= cut):
        raise BadQuestion("class_position", n=cut, position=repr(position)[:20])
    cell = {"position": position} if ask in CELL_ASKS else {}
    return {
        "source": "playground",
        "labels": [str(x) for x in labels],
        "grades": [float(g) for g in grades],
        "formula": {
            "k": formula.k,
            "gain": formula.gain,
            "discount": formula.discount,
            "log_base": formula.log_base,
        },
        "ask": ask,
        **cell,
    }


def choice_definition(prompt: str, options: Sequence[str], right: int | None) -> dict[str, Any]:
    """The definition of the lecturer's own multiple-choice question, checked as typed.

    Spaces are tidied (runs of white space, line breaks included, become one space); empty options
    are left out, and ``right`` (the index among ``options`` as given) follows the one it marks.
    Refused with a :class:`BadQuestion` that names the field (``class_field``): an empty or too
    long prompt or option, text with a character that cannot be shown (a control character, a
    text-direction override, or nothing visible), fewer than 2 or more than 6 options, two the
    same, or a right answer that is not a filled-in option.
    """
    text = text_field(prompt, MAX_PROMPT, Message("field_prompt"))
    kept: list[str] = []
    where: dict[int, int] = {}  # index as given -> index among the filled-in options
    for i, option in enumerate(options):
        if not isinstance(option, str) or not option.strip():
            continue
        tidy = text_field(option, MAX_OPTION, Message("field_option", n=i + 1))
        if tidy in kept:
            first = next(j for j, o in where.items() if kept[o] == tidy)
            raise field_error(Message("field_options"), Message("options_same", a=first + 1, b=i + 1))
        where[i] = len(kept)
        kept.append(tidy)
    if not MIN_OPTIONS <= len(kept) <= MAX_OPTIONS:
        problem = Message("options_count", low=MIN_OPTIONS, high=MAX_OPTIONS, n=len(kept))
        raise field_error(Message("field_options"), problem)
    if type(right) is not int or not 0 <= right < len(options):
        raise field_error(Message("field_right"), Message("right_missing"))
    if right not in where:
        raise field_error(Message("field_right"), Message("right_empty", n=right + 1))
    return {"source": "choice", "prompt": text, "options": kept, "right": where[right]}


def field_error(field: Message, problem: Message | NDCGError) -> BadQuestion:
    """A refused question that names the form's field: ``Options: ...``."""
    return BadQuestion("class_field", field=field, problem=problem)


def text_field(text: Any, longest: int, field: Message) -> str:
    """Typed text, its white space tidied; refused (naming ``field``) when it is empty, longer than
    ``longest`` characters, or holds a character that cannot be shown."""
    tidy = " ".join(text.split()) if isinstance(text, str) else ""
    if not tidy:
        raise field_error(field, Message("text_empty"))
    if len(tidy) > longest:
        raise field_error(field, Message("text_too_long", n=len(tidy), max=longest))
    problem = name_problem(tidy)
    if problem == "control":
        raise field_error(field, Message("text_control"))
    if problem == "bidi":
        raise field_error(field, Message("text_bidi"))
    if problem is not None:
        raise field_error(field, Message("text_invisible"))
    return tidy


def exercise(definition: Mapping[str, Any]) -> Exercise:
    """The Practice exercise a definition describes."""
    source = definition.get("source")
    if source == "practice":
        return make_exercise(
            definition["seed"], definition["number"], definition["kind"], definition["level"]
        )
    if source == "lesson":
        return lesson_exercise(definition)
    if source == "choice":
        return _choice_exercise(definition)
    if source != "playground":
        raise BadQuestion("class_question_source", source=repr(source))
    formula = formula_from_data(definition["formula"])
    grades = tuple(float(g) for g in definition["grades"])
    labels = tuple(definition["labels"])
    ask = definition["ask"]
    base = {"seed": 0, "number": 0, "level": 1, "grades": grades, "labels": labels, "formula": formula}
    cut = "" if formula.k is None else f"@{formula.k}"
    if ask == "highest":
        best = ndcg_under(formula, sorted(grades, reverse=True))
        worst = ndcg_under(formula, sorted(grades))
        prompt = _("Put the items in the order that gives the highest NDCG{cut}.").format(cut=cut)
        return Exercise(
            **base, kind="drag", prompt=prompt, goal="highest", values=(("best", best), ("worst", worst))
        )
    if ask in CELL_ASKS:
        position = definition["position"]
        playground_definition(labels, grades, formula, ask, position)  # a position in range
        prompt = _("What is {quantity} at position {position} ({label})?").format(
            quantity=_(QUANTITIES[ask]), position=position, label=labels[position - 1]
        )
        question = Question(grades, formula, ask, position=position)
        return Exercise(**base, kind="cell", prompt=prompt, question=question)
    name = {"dcg": "DCG", "idcg": "IDCG", "ndcg": "NDCG"}[ask]
    question = Question(grades, formula, ask)
    prompt = _("What is {name}{cut} of this list?").format(name=name, cut=cut)
    return Exercise(**base, kind="metric", prompt=prompt, question=question)


def _choice_exercise(definition: Mapping[str, Any]) -> Exercise:
    """The lecturer's multiple-choice question (checked again: the store takes only what it asks)."""
    d = choice_definition(definition.get("prompt"), definition.get("options") or [], definition.get("right"))
    return Exercise(
        seed=0,
        number=0,
        kind="choice",
        level=1,
        prompt=d["prompt"],
        grades=(),
        labels=(),
        formula=Variant(),
        choices=tuple(d["options"]),
        answer_choice=d["right"],
    )


def encode_response(response: Any) -> str:
    """A response as stored text: JSON (a typed string, a choice index, or a list of labels)."""
    return json.dumps(response, ensure_ascii=False)


def decode_response(text: str) -> Any:
    return json.loads(text)


@dataclass(frozen=True)
class Graded:
    """A judged response: what to store for it."""

    response: str  # encode_response(...)
    correct: bool
    value: float | None  # the typed number, or the order's NDCG
    mistakes: tuple[str, ...] = ()


def grade(e: Exercise, response: Any) -> Graded:
    """Judge a response with Practice's :func:`~ndcg_core.teaching.practice.check`.

    Raises :class:`BadAnswer` (with Practice's message) when it cannot be judged:
    not a number, not an order of the items, no choice.
    """
    if e.answer_type == "number" and not isinstance(response, str):
        raise BadAnswer("class_type_a_number")
    if e.answer_type == "order" and not (
        isinstance(response, list) and all(isinstance(x, str) for x in response)
    ):
        raise BadAnswer("class_give_every_item")
    if e.answer_type == "choice":
        picked = e.choice_index(response)
        if picked is None:
            raise BadAnswer("no_choice")
        response = e.names[picked]  # stored by name: reordered choices keep their answers' meaning
    text = encode_response(response)
    if len(text) > MAX_RESPONSE:
        raise BadAnswer("class_answer_too_long")
    fb: Feedback = check(e, response)
    if fb.problem is not None:  # not judged: Practice's coded reason
        raise BadAnswer.of(fb.problem)
    value = fb.value if fb.value is not None and math.isfinite(fb.value) else None
    return Graded(text, fb.correct, value, tuple(fb.mistakes))


def answer_text(e: Exercise, stored_response: str) -> str:
    """A stored response in words: the number typed, the order, or the option picked (its text; a
    choice is stored by its name, or by its index before names)."""
    value = decode_response(stored_response)
    if e.answer_type == "choice" and (picked := e.choice_index(value)) is not None:
        return e.choices[picked]
    return ", ".join(value) if isinstance(value, list) else str(value)


def feedback(e: Exercise, stored_response: str) -> Feedback:
    """The feedback a student sees after the reveal, from their stored response."""
    return check(e, decode_response(stored_response))


def correct_answer(e: Exercise) -> str:
    """The right answer in words (plain text)."""
    if e.answer_type == "number":
        return f"{e.exact:.3f}"
    if e.answer_type == "choice":
        return e.choices[e.answer_choice]
    ideal = sorted(zip(e.labels, e.grades, strict=True), key=lambda p: -p[1])  # stable: ties keep order
    best = dict(e.values)["best"]
    order = ", ".join(label for label, _ in ideal)
    if e.goal == "highest":
        return f"{order} (best first by grade): NDCG = {best:.3f}"
    if e.goal == "lowest":
        return f"lowest NDCG = {dict(e.values)['worst']:.3f}: the items worst first"
    return f"any order with NDCG within ±0.01 of {e.target:.2f}"


@dataclass(frozen=True)
class Summary:
    """How a class answered one question.

    ``values``: the numbers typed (numeric questions) or the orders' NDCG (order questions);
    ``choices``: how many picked each choice (choice questions); ``mistakes``: how many answers
    each diagnosed mistake explains (:data:`~ndcg_core.teaching.practice.MISTAKES` ids, plus ``"unknown"``);
    ``groups``: the numbers grouped by what they mean (:func:`~.grouping.group_answers`).
    """

    answered: int
    correct: int
    values: tuple[float, ...] = ()
    choices: tuple[int, ...] = ()
    mistakes: dict[str, int] = field(default_factory=dict)
    groups: tuple[AnswerGroup, ...] = ()

    def share(self, count: int) -> float:
        return count / self.answered if self.answered else 0.0


def summarise(e: Exercise, rows: Iterable[tuple[str, bool, float | None, str]]) -> Summary:
    """The summary of stored answers ``(response, correct, value, mistakes "a,b")``."""
    rows = list(rows)
    mistakes: Counter[str] = Counter()
    for *_rest, found in rows:
        mistakes.update(m for m in found.split(",") if m)
    choices: tuple[int, ...] = ()
    if e.answer_type == "choice":
        picked = Counter(e.choice_index(decode_response(r)) for r, *_ in rows)
        choices = tuple(picked.get(i, 0) for i in range(len(e.choices)))
    ordered = {m: mistakes[m] for m in [*MISTAKES, "unknown"] if mistakes[m]}
    return Summary(
        answered=len(rows),
        correct=sum(1 for _, ok, _, _ in rows if ok),
        values=tuple(v for _, _, v, _ in rows if v is not None),
        choices=choices,
        mistakes=ordered,
        groups=group_answers(e, rows),
    )

"""Class mode's pages as values: the lecturer's "Ask a new question" form, and what a student's phone
shows (:class:`StudentScreen`).

Pure: no Streamlit, no store. The page (``views/room``) reads its widgets into an :class:`AskForm`,
asks it for the question (:meth:`AskForm.question`: a definition to store, or the coded refusal that
names the field), and keeps the refusal as an :class:`AskRefusal` until the form changes. A student's
phone draws the :class:`StudentScreen` that :func:`student_screen` describes from what the store said.
A sent answer is read by :func:`response_of` and a refusal said by :func:`answer_refusal`.

>>> form = AskForm(source="list", grades="3, 2, three", ask="ndcg")
>>> outcome = form.question(seed=7)
>>> isinstance(outcome, AskRefusal), outcome.source
(True, 'list')
>>> str(outcome.message)
"Grades: entry 3 ('three') is not a number; type grades such as 3, 2, 0"
>>> form = AskForm(source="list", grades="3, 2, 3, 0, 1, 2", ask="cell", cell="gain", position=2)
>>> q = form.question(seed=7)
>>> q.definition["ask"], q.definition["position"], q.definition["grades"][:2], q.seconds
('gain', 2, [3.0, 2.0], None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from ..errors import Message, NDCGError
from ..i18n import N_
from ..teaching.practice import Exercise
from ..variants import Variant
from .formulas import BadQuestion, formula_of_spec
from .limits import wait_seconds
from .own import list_definition
from .questions import (
    MAX_OPTIONS,
    BadAnswer,
    choice_definition,
    playground_definition,
    practice_definition,
)
from .store import NotJoined, QuestionInfo, QuestionNotOpen, UnknownQuestion

__all__ = [
    "LIST_ASKS",
    "SOURCES",
    "AskForm",
    "AskRefusal",
    "Question",
    "StudentScreen",
    "answer_refusal",
    "response_of",
    "student_screen",
    "too_fast",
]

#: Where a question comes from, as the form names it (marked for translation: shown with ``_()``).
SOURCES: dict[str, str] = {
    "practice": N_("A Practice exercise"),
    "playground": N_("The playground's list"),
    "list": N_("Your own list"),
    "choice": N_("Multiple choice"),
}
#: What a question on a list asks (``cell``: the cell and position the form names).
LIST_ASKS = ("ndcg", "dcg", "idcg", "cell", "highest")


@dataclass(frozen=True)
class PlaygroundList:
    """The playground's list as a question is asked on it: its labels, grades and formula (a Spec)."""

    labels: tuple[str, ...]
    grades: tuple[float, ...]
    spec: Any


@dataclass(frozen=True)
class AskRefusal:
    """Why the form's question from ``source`` could not be asked: a coded message naming the field.
    It is shown while the form still asks from ``source`` and nothing in it changed."""

    source: str
    message: Message | NDCGError


@dataclass(frozen=True)
class Question:
    """A question the form asks: the definition the store keeps, and its countdown (seconds or None)."""

    definition: dict[str, Any]
    seconds: int | None


@dataclass(frozen=True)
class AskForm:
    """Everything the lecturer's "Ask a new question" form holds, as typed.

    ``source`` picks the fields that count: ``kind`` and ``level`` (a Practice exercise); ``ask``,
    ``cell`` and ``position`` (what a question on a list asks); ``grades``, ``labels``, ``gain``,
    ``discount`` and ``k`` (the lecturer's own list, ``k`` 0 for the whole list); ``prompt``,
    ``options`` and ``right`` (a multiple-choice question, ``right`` the index of the right option);
    ``countdown`` (seconds, 0 for none) counts for all. An unknown ``source`` is a ``KeyError``.
    """

    source: str = "practice"
    kind: str = "metric"
    level: int = 1
    ask: str = "ndcg"
    cell: str = "discounted_gain"
    position: int = 1
    grades: str = ""
    labels: str = ""
    gain: str = Variant().gain
    discount: str = Variant().discount
    k: int = 0
    prompt: str = ""
    options: tuple[str, ...] = field(default=("",) * MAX_OPTIONS)
    right: int | None = None
    countdown: int = 0

    @classmethod
    def read(cls, value: Callable[[str], Any]) -> AskForm:
        """The form from its fields' values, ``value(name)`` each (None or empty: the default).
        ``options`` is read as ``value("option_0")`` ... ``value("option_5")``."""
        given: dict[str, Any] = {}
        for f in fields(cls):
            if f.name == "options":
                given["options"] = tuple(value(f"option_{i}") or "" for i in range(MAX_OPTIONS))
                continue
            v = value(f.name)
            if v is not None and v != "":
                given[f.name] = v
        return cls(**given)

    @property
    def asked(self) -> tuple[str, int | None]:
        """What a question on a list asks: ``("ndcg", None)``, or a cell and its position."""
        return (self.ask, None) if self.ask != "cell" else (self.cell, self.position)

    @property
    def formula(self) -> Variant:
        """The lecturer's own list's formula."""
        return Variant(k=self.k or None, gain=self.gain, discount=self.discount)

    def question(self, seed: int, playground: PlaygroundList | None = None) -> Question | AskRefusal:
        """The question this form asks (a Practice exercise drawn with ``seed``; a question on
        ``playground``'s list), or why it cannot be asked."""
        try:
            return Question(self._definition(seed, playground), self.countdown or None)
        except BadQuestion as err:
            return AskRefusal(self.source, err)

    def _definition(self, seed: int, playground: PlaygroundList | None) -> dict[str, Any]:
        if self.source == "practice":
            return practice_definition(seed, 1, self.kind, self.level)
        if self.source == "playground":
            formula = None if playground is None else formula_of_spec(playground.spec)
            if playground is None or formula is None:
                raise BadQuestion("class_formula")
            return playground_definition(playground.labels, playground.grades, formula, *self.asked)
        if self.source == "list":
            return list_definition(self.grades, self.labels, self.formula, *self.asked)
        if self.source == "choice":
            return choice_definition(self.prompt, self.options, self.right)
        raise KeyError(self.source)


# ---------------------------------------------------------------------------------- a student's phone


@dataclass(frozen=True)
class StudentScreen:
    """What a student's phone shows in a room.

    ``show``: ``"name"`` (the name box: not in the room yet), ``"wait"`` (no question yet), ``"open"``
    (the question and its answer box), ``"closed"`` (the question, the student's answer or that there
    is none, and that feedback comes when the lecturer reveals it) or ``"revealed"`` (the same with
    the feedback and the answer). ``saved``: the student's stored answer to the question shown, or
    None. ``problem``: the refusal of the student's last answer to the question shown (coded), which
    is shown instead of "Saved".
    """

    show: Literal["name", "wait", "open", "closed", "revealed"]
    question: QuestionInfo | None = None
    saved: str | None = None
    problem: Message | NDCGError | None = None


def student_screen(
    name: str | None,
    current: QuestionInfo | None,
    saved: Callable[[int], str | None],
    refusal: tuple[int, Message | NDCGError] | None,
) -> StudentScreen:
    """What the phone shows: ``name``, the student's name in the room (None: not joined, or an id
    the room does not know); ``current``, the room's question; ``saved(number)``, this student's
    stored response to question ``number`` (asked only for a question the phone shows);
    ``refusal``, the last refused answer ``(question number, message)``."""
    if name is None:
        return StudentScreen("name")
    if current is None or current.status == "draft":
        return StudentScreen("wait")
    problem = refusal[1] if refusal is not None and refusal[0] == current.number else None
    show = {"open": "open", "closed": "closed", "revealed": "revealed"}[current.status]
    return StudentScreen(show, current, saved(current.number), problem)  # type: ignore[arg-type]


def response_of(e: Exercise, typed: str | None, picked: str | None, order: Sequence[str] | None) -> Any:
    """The response a student sends to ``e``: the text ``typed`` (a number's box), the name of the
    choice ``picked`` (None when nothing, or something not offered, is picked), or the ``order`` of
    the items."""
    if e.answer_type == "number":
        return typed or ""
    if e.answer_type == "choice":
        return e.names[e.choices.index(picked)] if picked in e.choices else None
    return list(order or [])


#: A refused answer's message, by what the store raised (BadAnswer says its own).
_REFUSED: Mapping[type[Exception], Message] = {
    QuestionNotOpen: Message("class_answer_closed"),
    UnknownQuestion: Message("class_answer_closed"),
    NotJoined: Message("class_join_first"),
}


def answer_refusal(err: Exception) -> Message | NDCGError:
    """What the student reads when the store refused an answer with ``err`` (coded, so it is said in
    the page's language of the moment). An error the store does not raise for an answer is a
    ``KeyError``."""
    if isinstance(err, BadAnswer):
        return err
    return _REFUSED[type(err)]


def too_fast(seconds: float) -> Message:
    """The refusal of an answer sent too soon after others: wait ``seconds`` (said whole, at least 1)."""
    return Message("class_answer_too_fast", seconds=wait_seconds(seconds))

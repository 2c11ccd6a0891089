"""Practice's data: kinds, levels, quantities, and the plain records an exercise is made of.

A :class:`Formula` is the formula an exercise states; a :class:`Question` is one quantity of one
list under it; an :class:`Exercise` is everything to show and check one exercise; :class:`Feedback`
and :class:`Hint` are what checking and hinting return.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ...errors import Message
from ...explanation import Explanation, explain
from ...i18n import N_, _, separator
from ...metrics import ndcg
from ...spec import Spec
from ...variants import Variant

#: Exercise kinds, in the order the issue lists them.
KINDS: dict[str, str] = {
    "cell": N_("One cell of the step table"),
    "metric": N_("DCG, IDCG or NDCG of a list"),
    "drag": N_("Drag the list to a goal"),
    "winner": N_("Which ranking wins, and does it flip?"),
    "formula": N_("Which formula printed this number?"),
    "library": N_("Which library reports this number?"),
}


#: Levels: what the lists look like.
LEVELS: dict[int, str] = {
    1: N_("Level 1: binary grades, 3–5 items"),
    2: N_("Level 2: graded, 5–8 items"),
    3: N_("Level 3: variants, pools and ties"),
}


#: What a numeric question asks for.
QUANTITIES: dict[str, str] = {
    "gain": N_("the gain"),
    "divisor": N_("the divisor"),
    "discounted_gain": N_("the discounted gain"),
    "cumulative_dcg": N_("the cumulative DCG"),
    "dcg": N_("DCG"),
    "idcg": N_("IDCG"),
    "ndcg": N_("NDCG"),
}


_TOTALS = ("dcg", "idcg", "ndcg")


_CELLS = ("gain", "divisor", "discounted_gain", "cumulative_dcg")


_CELL_COLUMN = {
    "gain": "Gain",
    "divisor": "Divisor",
    "discounted_gain": "Discounted gain",
    "cumulative_dcg": "Cumulative DCG",
}


_DG = "Discounted gain"


_CLEAR_GAP = 0.005  # two NDCG values closer than this are not a clear "winner"


@dataclass(frozen=True)
class Formula:
    """The formula choices an exercise uses, said the way a student reads them.

    ``gain`` is ``"linear"``, ``"exponential"`` or ``"binary"`` (any grade
    above 0 counts 1: a gain table, as in the documents' Shaped example).
    ``ties`` is the rule for equal scores (``"stable"``: the listed order;
    ``"average"``: the tie group's mean gain), or None when no scores are involved.
    """

    k: int | None = None
    gain: str = "linear"
    discount: str = "log"
    log_base: float = 2.0
    ties: str | None = None

    @property
    def gain_arg(self) -> str | dict[float, float]:
        """The ``gain=`` argument for the engine."""
        if self.gain == "binary":
            return {0.0: 0.0, 1.0: 1.0, 2.0: 1.0, 3.0: 1.0, 4.0: 1.0}
        return self.gain

    @property
    def spec(self) -> Spec:
        """These choices as the engine's one :class:`~ndcg_core.spec.Spec`."""
        variant = Variant(
            k=self.k,
            gain=self.gain_arg,
            discount=self.discount,
            log_base=self.log_base,
            ties=self.ties or "stable",
        )
        return Spec(variant)

    def explain(
        self,
        grades: Sequence[float],
        ideal: Sequence[float] | None = None,
        scores: Sequence[float] | None = None,
    ) -> Explanation:
        return explain(
            list(grades),
            ideal=None if ideal is None else list(ideal),
            scores=None if scores is None else list(scores),
            spec=self.spec,
        )

    def ndcg(self, grades: Sequence[float], ideal: Sequence[float] | None = None) -> float:
        return ndcg(list(grades), ideal=None if ideal is None else list(ideal), spec=self.spec)

    def changes_from(self, other: Formula) -> str:
        """The parts of :meth:`describe` that differ from ``other``'s: ``k = 3``."""
        theirs = set(other.parts())
        return separator("; ").join(part for part in self.parts() if part not in theirs)

    def describe(self) -> str:
        """In words: ``gain = grade; divisor = log2(i + 1); k = 3`` (the separator translated too)."""
        return separator("; ").join(self.parts())

    def parts(self) -> list[str]:
        """The choices :meth:`describe` names, each in words."""
        gain = {
            "linear": _("gain = grade"),
            "exponential": _("gain = 2^grade − 1"),
            "binary": _("binary: any grade above 0 counts 1"),
        }[self.gain]
        log = _log_name(self.log_base)
        if self.discount == "log":
            divisor = _("divisor = {log}(i + 1)").format(log=log)
        else:
            divisor = _("divisor = max(1, {log}(i))").format(log=log)
        cut = _("whole list (no k)") if self.k is None else f"k = {self.k}"
        parts = [gain, divisor, cut]
        if self.ties is not None:
            parts.append(_(_TIES_TEXT[self.ties]))
        return parts


_TIES_TEXT = {
    "stable": N_("tied scores keep the listed order"),
    "average": N_("tied scores share their group's average gain"),
}


def _log_name(base: float) -> str:
    if base == math.e:
        return "ln"
    return f"log{base:g}"


@dataclass(frozen=True)
class Question:
    """A numeric question: one quantity of one list under one formula.

    ``position`` (1-based) is the row for the step-table quantities.
    ``ideal`` is the judged pool as in :func:`ndcg_core.ndcg` (None: the list).
    With ``scores``, ``grades`` are in listed order and the scores rank them.
    """

    grades: tuple[float, ...]
    formula: Formula
    quantity: str = "ndcg"
    ideal: tuple[float, ...] | None = None
    position: int | None = None
    scores: tuple[float, ...] | None = None

    def explanation(self, formula: Formula | None = None, ideal: Any = "same") -> Explanation:
        pool = self.ideal if ideal == "same" else ideal
        return (formula or self.formula).explain(self.grades, pool, self.scores)

    def value(self, formula: Formula | None = None, ideal: Any = "same") -> float:
        """The quantity, under this question's formula or another one."""
        return _pick(self.explanation(formula, ideal), self.quantity, self.position)


def _pick(ex: Explanation, quantity: str, position: int | None) -> float:
    if quantity in _CELLS:
        return float(ex.steps[_CELL_COLUMN[quantity]].iloc[position - 1])
    return float({"dcg": ex.dcg, "idcg": ex.idcg, "ndcg": ex.ndcg}[quantity])


def _rounded_total(steps: pd.DataFrame, decimals: int, upto: int | None = None) -> float:
    rows = steps[~steps["Beyond k"]]
    if upto is not None:
        rows = rows[rows["Position"] <= upto]
    return float(sum(round(float(t), decimals) for t in rows["Discounted gain"]))


@dataclass(frozen=True)
class Exercise:
    """One generated exercise: everything to show it and to check an answer.

    ``answer_type`` is ``"number"`` (``question``, ``exact``), ``"choice"``
    (``choices``, ``answer_choice``) or ``"order"`` (``goal``, ``target``).
    Texts are plain text, to be shown as text.
    """

    seed: int
    number: int
    kind: str
    level: int
    prompt: str
    grades: tuple[float, ...]
    labels: tuple[str, ...]
    formula: Formula
    ideal: tuple[float, ...] | None = None
    ideal_labels: tuple[str, ...] | None = None
    scores: tuple[float, ...] | None = None
    question: Question | None = None
    choices: tuple[str, ...] = ()
    answer_choice: int | None = None
    goal: str | None = None  # "highest", "lowest", "target"
    target: float | None = None
    other: tuple[float, ...] | None = None  # list B (kind "winner")
    other_labels: tuple[str, ...] | None = None
    alt_formula: Formula | None = None  # the second formula (kind "winner")
    values: tuple[tuple[str, float], ...] = ()  # what each choice computes to, for hints
    candidates: tuple[Candidate, ...] = ()  # kind "formula": the formulas behind the choices
    why: str = ""  # the answer's one-line working, when the exercise states it (a lesson's question)
    choice_mistakes: tuple[tuple[str, ...], ...] = ()  # per choice: the MISTAKES ids that lead to it

    @property
    def answer_type(self) -> str:
        if self.question is not None:
            return "number"
        if self.goal is not None:
            return "order"
        return "choice"

    @property
    def exact(self) -> float:
        """The exact answer of a numeric exercise."""
        if self.question is None:
            raise AttributeError("only numeric exercises have an exact value")
        return self.question.value()

    @property
    def key(self) -> str:
        return f"{self.seed}-{self.number}-{self.kind}-{self.level}"


@dataclass(frozen=True)
class Candidate:
    """One answer of a "which formula" exercise: its text, formula, ideal source and NDCG."""

    text: str
    formula: Formula
    from_pool: bool = True
    value: float = math.nan


@dataclass(frozen=True)
class Feedback:
    """The verdict on one response, in plain text.

    ``message`` is the whole verdict, the right answer included; ``diagnosis`` is the verdict
    without the right answer (what a student who may still try again reads: the mistake named,
    if one gives the answer). ``mistakes`` holds :data:`MISTAKES` ids (or ``"unknown"``);
    ``problem`` is set when the response could not be read or is too rough to judge (nothing
    was judged, so it is not an attempt): a coded text (:class:`ndcg_core.errors.Message`).
    ``focus`` names the step-table row that explains the mistake: ``("steps" | "ideal_steps", position)``.
    """

    correct: bool
    message: str
    mistakes: tuple[str, ...] = ()
    value: float | None = None
    problem: Message | None = None
    focus: tuple[str, int] | None = None
    diagnosis: str = ""

    @property
    def counts(self) -> bool:
        """Whether this response was judged (an unreadable answer is not an attempt)."""
        return self.problem is None


@dataclass(frozen=True)
class Hint:
    """One level of help: text, optional formulas (LaTeX) and whether to show the step tables."""

    level: int
    text: str
    latex: tuple[str, ...] = ()
    tables: bool = False

"""Practice's data: kinds, levels, quantities, and the plain records an exercise is made of.

An exercise states its formula as the engine's :class:`~ndcg_core.variants.Variant`, said in words
from its gain's and discount's records (:func:`describe`); a :class:`Question` is one quantity of one
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
from ..formula import divisor_text, gain_text

#: Exercise kinds, in the order the issue lists them.
KINDS: dict[str, str] = {
    "cell": N_("One cell of the step table"),
    "metric": N_("DCG, IDCG or NDCG of a list"),
    "drag": N_("Drag the list to a goal"),
    "winner": N_("Which ranking wins, and does it flip?"),
    "formula": N_("Which formula printed this number?"),
    "library": N_("Which library reports this number?"),
}


@dataclass(frozen=True)
class KindTraits:
    """What an exercise of a kind shows, decided here once for every page (Practice, a phone, the
    lecturer's page, the projector): whether it states one formula above its data; whether it
    compares two rankings under two formulas (both said, the second's changes named); whether its
    data is a list to drag rather than a table; whether it has a list at all (a lecturer's own
    question has its options only, listed numbered); and how the bars of its answers name the
    choices (``"letters"``: A, B, ...; ``"texts"``: the choices themselves, short; ``"numbers"``)."""

    states_formula: bool = False
    compares_formulas: bool = False
    drags: bool = False
    has_list: bool = True
    choice_labels: str = "numbers"


#: Every kind an exercise may have: Practice's (:data:`KINDS`) and Class mode's own ("lesson": a step
#: of a lesson a room follows; "choice": a lecturer's multiple-choice question). A kind not here is a
#: ``KeyError``.
KIND_TRAITS: dict[str, KindTraits] = {
    "cell": KindTraits(states_formula=True),
    "metric": KindTraits(states_formula=True),
    "drag": KindTraits(states_formula=True, drags=True),
    "winner": KindTraits(compares_formulas=True, choice_labels="letters"),
    "formula": KindTraits(),
    "library": KindTraits(),
    "lesson": KindTraits(states_formula=True, choice_labels="texts"),
    "choice": KindTraits(has_list=False),
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


def explain_under(
    formula: Variant,
    grades: Sequence[float],
    ideal: Sequence[float] | None = None,
    scores: Sequence[float] | None = None,
) -> Explanation:
    """The step tables of ``grades`` under an exercise's ``formula`` (the engine's
    :class:`~ndcg_core.variants.Variant`: Practice and Class state formulas as the engine does)."""
    return explain(
        list(grades),
        ideal=None if ideal is None else list(ideal),
        scores=None if scores is None else list(scores),
        spec=Spec(formula),
    )


def ndcg_under(formula: Variant, grades: Sequence[float], ideal: Sequence[float] | None = None) -> float:
    """NDCG of ``grades`` under ``formula``."""
    return ndcg(list(grades), ideal=None if ideal is None else list(ideal), spec=Spec(formula))


def formula_parts(formula: Variant, scored: bool = False) -> list[str]:
    """The choices an exercise's formula states, each in words from its rule's record: ``gain =
    grade``, ``divisor = log2(i + 1)``, ``k = 3``, and with ``scored`` (the items carry scores) the
    tie rule."""
    gain = _("gain = {rule}").format(rule=gain_text(formula))
    divisor = _("divisor = {rule}").format(rule=divisor_text(formula))
    cut = _("whole list (no k)") if formula.k is None else f"k = {formula.k}"
    parts = [gain, divisor, cut]
    if scored:
        parts.append(_(_TIES_TEXT[formula.ties]))
    return parts


def describe(formula: Variant, scored: bool = False) -> str:
    """In words: ``gain = grade; divisor = log2(i + 1); k = 3`` (the separator translated too).

    >>> describe(Variant(k=3, discount="jarvelin"))
    'gain = grade; divisor = max(1, log2 i); k = 3'
    """
    return separator("; ").join(formula_parts(formula, scored))


def changes_from(formula: Variant, other: Variant, scored: bool = False) -> str:
    """The parts of :func:`describe` that differ from ``other``'s: ``k = 3``."""
    theirs = set(formula_parts(other, scored))
    return separator("; ").join(part for part in formula_parts(formula, scored) if part not in theirs)


_TIES_TEXT = {
    "stable": N_("tied scores keep the listed order"),
    "average": N_("tied scores share their group's average gain"),
}


@dataclass(frozen=True)
class Question:
    """A numeric question: one quantity of one list under one formula.

    ``position`` (1-based) is the row for the step-table quantities.
    ``ideal`` is the judged pool as in :func:`ndcg_core.ndcg` (None: the list).
    With ``scores``, ``grades`` are in listed order and the scores rank them.
    """

    grades: tuple[float, ...]
    formula: Variant
    quantity: str = "ndcg"
    ideal: tuple[float, ...] | None = None
    position: int | None = None
    scores: tuple[float, ...] | None = None

    def explanation(self, formula: Variant | None = None, ideal: Any = "same") -> Explanation:
        pool = self.ideal if ideal == "same" else ideal
        return explain_under(formula or self.formula, self.grades, pool, self.scores)

    def value(self, formula: Variant | None = None, ideal: Any = "same") -> float:
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
    formula: Variant
    ideal: tuple[float, ...] | None = None
    ideal_labels: tuple[str, ...] | None = None
    scores: tuple[float, ...] | None = None
    question: Question | None = None
    choices: tuple[str, ...] = ()
    answer_choice: int | None = None
    choice_names: tuple[str, ...] = ()  # a stable name per choice: what a stored answer says
    goal: str | None = None  # "highest", "lowest", "target"
    target: float | None = None
    other: tuple[float, ...] | None = None  # list B (kind "winner")
    other_labels: tuple[str, ...] | None = None
    alt_formula: Variant | None = None  # the second formula (kind "winner")
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

    @property
    def traits(self) -> KindTraits:
        """What the exercise's kind shows (:data:`KIND_TRAITS`)."""
        return KIND_TRAITS[self.kind]

    @property
    def names(self) -> tuple[str, ...]:
        """Each choice's name: how an answer is stored, so reordering or translating the choices never
        changes what a stored answer means (the position from 1 where a kind gives none)."""
        return self.choice_names or tuple(str(i) for i in range(1, len(self.choices) + 1))

    def choice_index(self, response: Any) -> int | None:
        """The choice a response picks: a choice's name, or (as answers were stored before names) its
        index; None for anything else."""
        if isinstance(response, str) and response in self.names:
            return self.names.index(response)
        if isinstance(response, int) and not isinstance(response, bool) and 0 <= response < len(self.choices):
            return response
        return None

    @property
    def formula_text(self) -> str:
        """The formula the exercise states, in words (the tie rule too when the items carry scores)."""
        return describe(self.formula, scored=self.scores is not None)

    @property
    def alt_formula_text(self) -> str:
        """The second formula of a "winner" exercise, in words."""
        return describe(self.alt_formula, scored=self.scores is not None)

    @property
    def alt_changes(self) -> str:
        """What the second formula changes from the first, in words."""
        return changes_from(self.alt_formula, self.formula, scored=self.scores is not None)


@dataclass(frozen=True)
class Candidate:
    """One answer of a "which formula" exercise: its text, formula, ideal source and NDCG."""

    text: str
    formula: Variant
    from_pool: bool = True
    value: float = math.nan

    @property
    def name(self) -> str:
        """The candidate's name: its formula's canonical name and where its ideal comes from."""
        return f"{self.formula.name} {'pool' if self.from_pool else 'list'}"


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

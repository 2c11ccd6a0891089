"""Practice exercises: generated from a seed, checked, and diagnosed.

Everything the Practice page needs, as plain data and pure functions:

* :func:`make_exercise` builds exercise number ``n`` of a seed, for a kind
  (:data:`KINDS`) and a level (:data:`LEVELS`): the same arguments always give
  the same exercise, so a share link (``seed=``, ``ex=``) hands out a set.
* :func:`check` judges a response (typed text, a choice, or a dragged order)
  and returns :class:`Feedback` naming the mistake, if one explains the answer.
* :func:`diagnose` says which common wrong formula (:data:`MISTAKES`) reproduces
  a typed number. The wrong answers are computed by the engine itself
  (:func:`ndcg_core.explain`, :func:`ndcg_core.dcg`) given the wrong choices, so
  there is exactly one NDCG formula in the code.
* :func:`hints` gives three levels of help, and :class:`Progress` keeps score
  per kind, with :func:`next_kind` favouring the kinds answered wrongly.

>>> ex = make_exercise(7, 1, kind="metric", level=1)
>>> ex.kind, ex.level, ex.answer_type
('metric', 1, 'number')
>>> check(ex, f"{ex.exact:.3f}").correct
True
>>> diagnose("1.50", [0, 1, 0, 1], quantity="dcg")  # 0 + 1/1 + 0 + 1/2: divided by log2(i)
['log2_i']
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from .answers import Answer, is_correct, parse_answer, precision_problem, same_at_precision
from .errors import error_text
from .formula import dcg_latex, ndcg_latex, number, trimmed
from .i18n import N_, _, ngettext
from .metrics import Explanation, dcg, explain, ndcg
from .presets import PRESETS
from .spec import Spec
from .variants import Variant

__all__ = [
    "KINDS",
    "LEVELS",
    "MISTAKES",
    "QUANTITIES",
    "Candidate",
    "Exercise",
    "Feedback",
    "Formula",
    "Hint",
    "Progress",
    "check",
    "diagnose",
    "diagnose_question",
    "feedback_latex",
    "focus_rows",
    "hints",
    "make_exercise",
    "next_kind",
    "wrong_formula",
]

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

#: The common wrong formulas :func:`diagnose` recognises: {id: one-line description}.
MISTAKES: dict[str, str] = {
    "log2_i": N_(
        "divided by max(1, log2(i)), leaving position 2 undiscounted too, where log2(i+1) was asked"
    ),
    "log2_i_plus_1": N_(
        "divided by log2(i+1) where the Järvelin–Kekäläinen discount max(1, log2(i)) was asked"
    ),
    "natural_log": N_("used the natural log (ln) where the formula asks for log base 2"),
    "linear_gain": N_("used the grade as the gain where 2^grade − 1 was asked"),
    "exponential_gain": N_("used 2^grade − 1 as the gain where the grade itself was asked"),
    "ideal_retrieved_only": N_(
        "built the ideal ordering from the retrieved items only, leaving out judged items the ranking missed"
    ),
    "ideal_unsorted": N_("used the list in its given order as the ideal, without sorting it best first"),
    "k_not_on_ideal": N_("summed IDCG over the whole list while DCG stops at k"),
    "swapped": N_("swapped DCG and IDCG"),
    "dcg_for_ndcg": N_("gave DCG where NDCG was asked: it still has to be divided by IDCG"),
    "cumulative_for_row": N_(
        "gave the cumulative DCG (the running total) where one row's discounted gain was asked"
    ),
    "row_for_cumulative": N_(
        "gave one row's discounted gain where the cumulative DCG (the running total) was asked"
    ),
    "rounded_terms": N_("rounded each term before adding them up, so the rounding errors added up too"),
    "ties_not_averaged": N_(
        "kept tied items in the listed order where each should get its tie group's average gain"
    ),
    "ties_averaged": N_("averaged the gains of tied items where they keep the listed order"),
    "too_few_decimals": N_("typed fewer than 2 decimals: give at least 2 so the answer can be checked"),
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


# ------------------------------------------------------------------ formula choices


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
        theirs = set(other.describe().split("; "))
        return "; ".join(part for part in self.describe().split("; ") if part not in theirs)

    def describe(self) -> str:
        """In words: ``gain = grade; divisor = log2(i + 1); k = 3``."""
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
        return "; ".join(parts)


_TIES_TEXT = {
    "stable": N_("tied scores keep the listed order"),
    "average": N_("tied scores share their group's average gain"),
}


def _log_name(base: float) -> str:
    if base == math.e:
        return "ln"
    return f"log{base:g}"


# ------------------------------------------------------------------ numeric questions and mistakes


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


def wrong_formula(q: Question, mistake: str) -> Formula | None:
    """The formula a student used when making ``mistake`` on ``q``, for the formula-choice mistakes.

    None when the mistake is not a different formula choice, or does not apply
    (no gain mistake on a divisor; no discount mistake on a gain).

    >>> wrong_formula(Question((1.0, 0.0), Formula()), "log2_i").discount
    'jarvelin'
    """
    f = q.formula
    if mistake in _DISCOUNT_MISTAKES and q.quantity == "gain":
        return None
    if mistake in _GAIN_MISTAKES and q.quantity == "divisor":
        return None
    if mistake == "log2_i" and f.discount == "log":
        return replace(f, discount="jarvelin")
    if mistake == "log2_i_plus_1" and f.discount == "jarvelin":
        return replace(f, discount="log")
    if mistake == "natural_log" and f.log_base != math.e:
        return replace(f, log_base=math.e)
    if mistake == "linear_gain" and f.gain == "exponential":
        return replace(f, gain="linear")
    if mistake == "exponential_gain" and f.gain == "linear":
        return replace(f, gain="exponential")
    if q.scores is not None:
        if mistake == "ties_not_averaged" and f.ties == "average":
            return replace(f, ties="stable")
        if mistake == "ties_averaged" and f.ties == "stable":
            return replace(f, ties="average")
    return None


_DISCOUNT_MISTAKES = ("log2_i", "log2_i_plus_1", "natural_log")
_GAIN_MISTAKES = ("linear_gain", "exponential_gain", "ties_not_averaged", "ties_averaged")


def _wrong_values(q: Question) -> dict[str, list[float]]:
    """The answer under every common mistake that applies to the question, by mistake id."""
    out: dict[str, list[float]] = {}
    pos = q.position
    for mistake in _DISCOUNT_MISTAKES + _GAIN_MISTAKES:
        wrong = wrong_formula(q, mistake)
        if wrong is not None:
            out[mistake] = [q.value(wrong)]
    ex = q.explanation()
    if q.quantity == "discounted_gain":
        out["cumulative_for_row"] = [float(ex.steps["Cumulative DCG"].iloc[pos - 1])]
    if q.quantity == "cumulative_dcg":
        out["row_for_cumulative"] = [float(ex.steps["Discounted gain"].iloc[pos - 1])]
        out["rounded_terms"] = [_rounded_total(ex.steps, d, pos) for d in (1, 2)]
    if q.quantity in _TOTALS:
        _wrong_totals(q, ex, out)
    return out


def _ratio(top: float, bottom: float) -> list[float]:
    return [top / bottom] if bottom > 0 else []


def _wrong_totals(q: Question, ex: Explanation, out: dict[str, list[float]]) -> None:
    f = q.formula
    dcg_ok, idcg_ok = ex.dcg, ex.idcg
    # Without a pool, the "given order" is the list as the student sees it ranked (by score when scored).
    pool = list(q.ideal) if q.ideal is not None else [float(g) for g in ex.steps["Grade"]]
    kw = {"gain": f.gain_arg, "discount": f.discount, "log_base": f.log_base}
    # IDCG under the wrong ideals, each computed by the engine.
    wrong_idcg = {
        "ideal_unsorted": [dcg(pool, ex.ideal_k, **kw)],  # the pool as given, not sorted
        "k_not_on_ideal": [explain(pool, None, **kw).idcg] if f.k is not None and f.k < len(pool) else [],
        "ideal_retrieved_only": [q.explanation(ideal=None).idcg] if q.ideal is not None else [],
    }
    rounded = {d: (_rounded_total(ex.steps, d), _rounded_total(ex.ideal_steps, d)) for d in (1, 2)}
    if q.quantity == "dcg":
        out["swapped"] = [idcg_ok]
        out["rounded_terms"] = [r[0] for r in rounded.values()]
    elif q.quantity == "idcg":
        out["swapped"] = [dcg_ok]
        out["rounded_terms"] = [r[1] for r in rounded.values()]
        out.update({name: values for name, values in wrong_idcg.items() if values})
    else:
        out["swapped"] = _ratio(idcg_ok, dcg_ok)
        out["dcg_for_ndcg"] = [dcg_ok]
        out["rounded_terms"] = [v for top, bottom in rounded.values() for v in _ratio(top, bottom)]
        for name, values in wrong_idcg.items():
            wrong = [v for idcg_value in values for v in _ratio(dcg_ok, idcg_value)]
            if wrong:
                out[name] = wrong


def diagnose_question(answer: str | Answer, q: Question) -> list[str]:
    """:func:`diagnose` for any numeric question, step-table cells included."""
    a = answer if isinstance(answer, Answer) else parse_answer(answer)
    exact = q.value()
    if is_correct(a, exact):
        return []
    if precision_problem(a, exact) is not None and same_at_precision(a, exact):
        return ["too_few_decimals"]
    found = [
        name
        for name, values in _wrong_values(q).items()
        if any(same_at_precision(a, v) and not same_at_precision(a, exact) for v in values)
    ]
    found.sort(key=list(MISTAKES).index)
    return found or ["unknown"]


def diagnose(
    answer: str,
    relevances: Sequence[float],
    k: int | None = None,
    *,
    quantity: str = "ndcg",
    ideal: Sequence[float] | None = None,
    gain: str = "linear",
    discount: str = "log",
    log_base: float = 2.0,
) -> list[str]:
    """Which common mistakes reproduce a typed answer.

    Parameters
    ----------
    answer : str
        What the student typed (a number or arithmetic); its precision matters.
    relevances, k, ideal, gain, discount, log_base
        The list and formula, as in :func:`ndcg_core.ndcg`.
    quantity : {"dcg", "idcg", "ndcg"}
        What the question asked for.

    Returns
    -------
    list of str
        ``[]`` when the answer is right at the precision typed; otherwise the
        ids (keys of :data:`MISTAKES`) of every mistake that reproduces the
        typed number at that precision; otherwise ``["unknown"]``.

    Raises
    ------
    ValueError
        An answer that cannot be read (the message is for the student), or an
        unknown quantity.

    >>> diagnose("0.53", [0, 1, 1], k=3, ideal=[1, 1, 1])
    []
    >>> diagnose("0.693", [0, 1, 1], k=3, ideal=[1, 1, 1])
    ['ideal_retrieved_only']
    >>> diagnose("0.9", [0, 1, 1], k=3, ideal=[1, 1, 1])
    ['unknown']
    """
    if quantity not in _TOTALS:
        raise ValueError(f"quantity must be one of 'dcg', 'idcg', 'ndcg'; got {quantity!r}")
    question = Question(
        grades=tuple(float(g) for g in relevances),
        formula=Formula(k=k, gain=gain, discount=discount, log_base=log_base),
        quantity=quantity,
        ideal=None if ideal is None else tuple(float(g) for g in ideal),
    )
    return diagnose_question(answer, question)


# ------------------------------------------------------------------ exercises


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


def _rng(seed: int, number: int, kind: str, level: int) -> random.Random:
    return random.Random(f"ndcg-practice:{seed}:{number}:{kind}:{level}")


def kind_for(seed: int, number: int) -> str:
    """The kind of exercise ``number`` in a mixed set: fixed by the seed."""
    return random.Random(f"ndcg-practice-kind:{seed}:{number}").choice(list(KINDS))


def _grades(rng: random.Random, level: int, n: int | None = None) -> list[float]:
    """A list with at least one relevant item and not all items alike."""
    if n is None:
        n = rng.randint(3, 5) if level == 1 else rng.randint(5, 8)
    top = 1 if level == 1 else 3
    while True:
        grades = [float(rng.randint(0, top)) for _n in range(n)]
        if any(grades) and len(set(grades)) > 1:
            return grades


def _formula(rng: random.Random, level: int, n: int) -> Formula:
    if level == 1:
        return Formula()
    k = rng.choice([None, rng.randint(3, n - 1)])
    gain = rng.choice(["linear", "exponential"])
    if level == 2:
        return Formula(k=k, gain=gain)
    return Formula(k=k, gain=gain, discount=rng.choice(["log", "jarvelin"]))


def _pool(rng: random.Random, level: int, grades: list[float]) -> list[float] | None:
    """Level 3 sometimes adds judged items the ranking did not retrieve."""
    if level < 3 or rng.random() < 0.4:
        return None
    return grades + [float(rng.randint(1, 3)) for _n in range(rng.randint(1, 2))]


def _labels(n: int, prefix: str = "D") -> tuple[str, ...]:
    return tuple(f"{prefix}{i}" for i in range(1, n + 1))


def _list_text(labels: Sequence[str], grades: Sequence[float]) -> str:
    return ", ".join(f"{lab} ({g:g})" for lab, g in zip(labels, grades, strict=True))


def _pool_parts(grades: list[float], pool: list[float] | None) -> tuple[tuple[str, ...], str]:
    """Labels for the judged pool, and a sentence about the unretrieved items."""
    if pool is None:
        return _labels(len(grades)), ""
    extra = pool[len(grades) :]
    names = tuple(f"J{i}" for i in range(1, len(extra) + 1))
    text = " " + ngettext(
        "The ranking missed {n} judged item, {items}: it counts in the ideal ordering.",
        "The ranking missed {n} judged items, {items}: they count in the ideal ordering.",
        len(extra),
    ).format(n=len(extra), items=_list_text(names, extra))
    return _labels(len(grades)) + names, text


def _exercise_cell(rng: random.Random, base: dict, level: int) -> Exercise:
    grades = _grades(rng, level)
    f = _formula(rng, level, len(grades))
    cut = f.k or len(grades)
    quantity = rng.choice(_CELLS)
    positions = [p for p in range(2, cut + 1) if grades[p - 1] > 0] or list(range(2, cut + 1))
    if quantity == "gain":
        positions = [p for p in range(1, len(grades) + 1) if grades[p - 1] > 0]
    position = rng.choice(positions)
    q = Question(tuple(grades), f, quantity, position=position)
    labels = _labels(len(grades))
    prompt = _("What is {quantity} at position {position} ({label})?").format(
        quantity=_(QUANTITIES[quantity]), position=position, label=labels[position - 1]
    )
    return Exercise(**base, prompt=prompt, grades=tuple(grades), labels=labels, formula=f, question=q)


def _exercise_metric(rng: random.Random, base: dict, level: int) -> Exercise:
    grades = _grades(rng, level)
    f = _formula(rng, level, len(grades))
    if level == 3 and rng.random() < 0.4:
        quantity = rng.choice(["dcg", "ndcg"])  # IDCG does not depend on the scores
        return _exercise_metric_scored(
            rng, base, grades, replace(f, ties=rng.choice(list(_TIES_TEXT))), quantity
        )
    pool = _pool(rng, level, grades)
    quantity = rng.choice(["dcg", "ndcg"] if level == 1 else list(_TOTALS))
    q = Question(tuple(grades), f, quantity, ideal=None if pool is None else tuple(pool))
    labels = _labels(len(grades))
    pool_labels, pool_text = _pool_parts(grades, pool)
    cut = "" if f.k is None else f"@{f.k}"
    prompt = _("What is {quantity}{cut} of this ranking?").format(quantity=_(QUANTITIES[quantity]), cut=cut)
    prompt += pool_text
    return Exercise(
        **base,
        prompt=prompt,
        grades=tuple(grades),
        labels=labels,
        formula=f,
        ideal=q.ideal,
        ideal_labels=pool_labels if pool is not None else None,
        question=q,
    )


def _exercise_metric_scored(
    rng: random.Random, base: dict, grades: list[float], f: Formula, quantity: str
) -> Exercise:
    """Level 3: the items carry model scores, some tied; the tie rule matters to the answer."""
    other = replace(f, ties="stable" if f.ties == "average" else "average")
    for _n in range(500):  # almost always a few tries
        scores = [rng.choice([0.9, 0.7, 0.7, 0.4, 0.4, 0.1]) for _n in grades]
        q = Question(tuple(grades), f, quantity, scores=tuple(scores))
        if round(q.value(), 3) != round(q.value(other), 3):
            break
        rng.shuffle(grades)
    cut = "" if f.k is None else f"@{f.k}"
    prompt = _("A model scored these items; some scores are tied. What is {quantity}{cut}?").format(
        quantity=_(QUANTITIES[quantity]), cut=cut
    )
    return Exercise(
        **base,
        prompt=prompt,
        grades=tuple(grades),
        labels=_labels(len(grades)),
        formula=f,
        scores=q.scores,
        question=q,
    )


def _exercise_drag(rng: random.Random, base: dict, level: int) -> Exercise:
    while True:
        grades = _grades(rng, level)
        f = _formula(rng, level, len(grades))
        best = f.ndcg(sorted(grades, reverse=True))
        worst = f.ndcg(sorted(grades))
        if best - worst > 0.05:
            break
    goal = {1: "highest", 2: rng.choice(["highest", "lowest"]), 3: "target"}[level]
    target = None
    if goal == "target":
        for _n in range(50):
            trial = grades[:]
            rng.shuffle(trial)
            target = round(f.ndcg(trial), 2)
            if worst + 0.02 < target < best - 0.02:
                break
    order = list(range(len(grades)))
    labels = _labels(len(grades))
    for _n in range(50):
        rng.shuffle(order)
        start = [grades[i] for i in order]
        if not _order_reaches(f.ndcg(start), goal, target, best, worst):
            break
    if goal == "target":
        prompt = _(
            "Drag the items into an order that gives an NDCG within ±0.01 of {target}. "
            "Each item shows its grade."
        ).format(target=f"{target:.2f}")
    elif goal == "highest":
        prompt = _(
            "Drag the items into an order that gives the highest NDCG possible. Each item shows its grade."
        )
    else:
        prompt = _(
            "Drag the items into an order that gives the lowest NDCG possible. Each item shows its grade."
        )
    return Exercise(
        **base,
        prompt=prompt,
        grades=tuple(grades[i] for i in order),
        labels=tuple(labels[i] for i in order),
        formula=f,
        goal=goal,
        target=target,
        values=(("best", best), ("worst", worst)),
    )


def _order_reaches(value: float, goal: str, target: float | None, best: float, worst: float) -> bool:
    if goal == "highest":
        return value >= best - 1e-9
    if goal == "lowest":
        return value <= worst + 1e-9
    return abs(value - target) <= 0.01 + 1e-9


WINNER_CHOICES = (
    N_("A wins under both formulas"),
    N_("B wins under both formulas"),
    N_("A wins under the first formula, B under the second: the winner flips"),
    N_("B wins under the first formula, A under the second: the winner flips"),
)


def _winner_formulas(rng: random.Random, level: int, n: int) -> tuple[Formula, Formula]:
    if level == 1:
        return Formula(), Formula(k=rng.randint(2, n - 1))
    if level == 2:
        first = Formula(gain="linear")
        return first, replace(first, gain=rng.choice(["binary", "exponential"]))
    first = _formula(rng, 3, n)
    changes = [
        {"discount": "log" if first.discount == "jarvelin" else "jarvelin"},
        {"gain": "linear" if first.gain == "exponential" else "exponential"},
        {"k": rng.randint(2, n - 1) if first.k is None else None},
    ]
    return first, replace(first, **rng.choice(changes))


def _exercise_winner(rng: random.Random, base: dict, level: int) -> Exercise:
    want_flip = rng.random() < 0.5
    fallback = None
    for _n in range(200):
        grades = _grades(rng, level)
        names = _labels(len(grades))
        order_a, order_b = (
            rng.sample(range(len(grades)), len(grades)),
            rng.sample(range(len(grades)), len(grades)),
        )
        a, b = [grades[i] for i in order_a], [grades[i] for i in order_b]
        first, second = _winner_formulas(rng, level, len(grades))
        v = [(first.ndcg(a), first.ndcg(b)), (second.ndcg(a), second.ndcg(b))]
        if any(abs(x - y) < _CLEAR_GAP for x, y in v):
            continue
        a_first, a_second = v[0][0] > v[0][1], v[1][0] > v[1][1]
        answer = {(True, True): 0, (False, False): 1, (True, False): 2, (False, True): 3}[(a_first, a_second)]
        fallback = (a, b, [names[i] for i in order_a], [names[i] for i in order_b], first, second, answer, v)
        if (answer >= 2) == want_flip:
            break
    a, b, labels, other_labels, first, second, answer, v = fallback
    prompt = _(
        "Two rankings of the same items. Which one has the higher NDCG under the first formula, "
        "and under the second?"
    )
    return Exercise(
        **base,
        prompt=prompt,
        grades=tuple(a),
        labels=tuple(labels),
        formula=first,
        other=tuple(b),
        other_labels=tuple(other_labels),
        alt_formula=second,
        choices=tuple(map(_, WINNER_CHOICES)),
        answer_choice=answer,
        values=(
            ("A, first formula", v[0][0]),
            ("B, first formula", v[0][1]),
            ("A, second formula", v[1][0]),
            ("B, second formula", v[1][1]),
        ),
    )


@dataclass(frozen=True)
class Candidate:
    """One answer of a "which formula" exercise: its text, formula, ideal source and NDCG."""

    text: str
    formula: Formula
    from_pool: bool = True
    value: float = math.nan


def _formula_candidates(level: int, n: int, rng: random.Random, has_pool: bool) -> list[Candidate]:
    k = rng.randint(2, n - 1)
    discounts = [("log", "log2(i + 1)"), ("jarvelin", "Järvelin–Kekäläinen max(1, log2(i))")]
    cuts = [(None, _("whole list")), (k, f"k = {k}")]
    gains = [("linear", _("gain = grade"))]
    if level >= 2:
        gains.append(("exponential", _("gain = 2^grade − 1")))
    pools = [True, False] if has_pool else [True]
    out = []
    for gain, gain_text in gains:
        for discount, discount_text in discounts:
            for cut, cut_text in cuts:
                for from_pool in pools:
                    parts = [gain_text, _("divisor {rule}").format(rule=discount_text), cut_text]
                    if has_pool:
                        parts.append(
                            _("ideal from all judged items") if from_pool else _("ideal from the list only")
                        )
                    out.append(
                        Candidate("; ".join(parts), Formula(k=cut, gain=gain, discount=discount), from_pool)
                    )
    return out


def _exercise_formula(rng: random.Random, base: dict, level: int) -> Exercise:
    while True:
        grades = _grades(rng, level)
        pool = _pool(rng, level, grades) if level == 3 else None
        candidates = _formula_candidates(level, len(grades), rng, pool is not None)
        rng.shuffle(candidates)
        shown, seen = [], set()
        for c in candidates:
            value = round(c.formula.ndcg(grades, pool if c.from_pool else None), 3)
            if value not in seen:
                seen.add(value)
                shown.append((c, value))
            if len(shown) == 4:
                break
        if len(shown) >= 3:
            break
    answer = rng.randrange(len(shown))
    printed = shown[answer][1]
    labels = _labels(len(grades))
    pool_labels, pool_text = _pool_parts(grades, pool)
    prompt = _("A report prints NDCG = {printed} for this ranking. Which formula produced it?").format(
        printed=f"{printed:.3f}"
    )
    prompt += pool_text
    return Exercise(
        **base,
        prompt=prompt,
        grades=tuple(grades),
        labels=labels,
        formula=shown[answer][0].formula,
        ideal=None if pool is None else tuple(pool),
        ideal_labels=pool_labels if pool is not None else None,
        choices=tuple(c.text for c, _v in shown),
        answer_choice=answer,
        target=printed,
        values=tuple((c.text, v) for c, v in shown),
        candidates=tuple(replace(c, value=v) for c, v in shown),
    )


#: Presets offered in "which library" exercises: four different tie rules.
LIBRARY_CHOICES = ("sklearn", "sklearn-ignore-ties", "trec_eval", "xgboost")


def _exercise_library(rng: random.Random, base: dict, level: int) -> Exercise:
    while True:
        grades = _grades(rng, level)
        n = len(grades)
        # Ids in a shuffled order, so "by id, descending" differs from the input order.
        ids = rng.sample(range(1, 10 * n), n)
        labels = tuple(f"d{i}" for i in ids)
        levels = [0.9, 0.5, 0.5, 0.2] if level == 1 else [0.9, 0.7, 0.7, 0.4, 0.4, 0.1]
        scores = [rng.choice(levels) for _n in range(n)]
        if len(set(scores)) == n:
            continue
        k = rng.randint(2, n - 1) if level == 3 and rng.random() < 0.5 else None
        values = []
        for name in LIBRARY_CHOICES:
            try:
                values.append(
                    (name, round(ndcg(grades, k, scores=scores, labels=list(labels), preset=name), 3))
                )
            except ValueError:
                continue
        distinct = {v for _p, v in values}
        if len(distinct) == len(values) >= 3:
            break
    answer = rng.randrange(len(values))
    name, printed = values[answer]
    cut = "" if k is None else f"@{k}"
    prompt = _(
        "A model scored these items; some scores are tied. "
        "Which library reports NDCG{cut} = {printed} for them?"
    ).format(cut=cut, printed=f"{printed:.3f}")
    return Exercise(
        **base,
        prompt=prompt,
        grades=tuple(grades),
        labels=labels,
        formula=Formula(k=k),
        scores=tuple(scores),
        choices=tuple(PRESETS[p].library for p, _v in values),
        answer_choice=answer,
        target=printed,
        values=tuple(values),
    )


_MAKERS = {
    "cell": _exercise_cell,
    "metric": _exercise_metric,
    "drag": _exercise_drag,
    "winner": _exercise_winner,
    "formula": _exercise_formula,
    "library": _exercise_library,
}


def make_exercise(seed: int, number: int, kind: str | None = None, level: int = 1) -> Exercise:
    """Exercise ``number`` (from 1) of a seed: the same arguments give the same exercise.

    ``kind=None`` takes the kind the seed gives that number (:func:`kind_for`).

    >>> make_exercise(3, 2, "cell", 2) == make_exercise(3, 2, "cell", 2)
    True
    """
    if kind is None:
        kind = kind_for(seed, number)
    if kind not in KINDS:
        raise ValueError(f"unknown exercise kind {kind!r}; expected one of {', '.join(KINDS)}")
    if level not in LEVELS:
        raise ValueError(f"level must be 1, 2 or 3; got {level!r}")
    base = {"seed": int(seed), "number": int(number), "kind": kind, "level": int(level)}
    return _MAKERS[kind](_rng(seed, number, kind, level), base, level)


# ------------------------------------------------------------------ checking


@dataclass(frozen=True)
class Feedback:
    """The verdict on one response, in plain text.

    ``mistakes`` holds :data:`MISTAKES` ids (or ``"unknown"``); ``problem`` is
    set when the response could not be read (nothing was judged, so it is
    not an attempt). ``focus`` names the step-table row that explains the
    mistake: ``("steps" | "ideal_steps", position)``.
    """

    correct: bool
    message: str
    mistakes: tuple[str, ...] = ()
    value: float | None = None
    problem: str | None = None
    focus: tuple[str, int] | None = None

    @property
    def counts(self) -> bool:
        """Whether this response was judged (an unreadable answer is not an attempt)."""
        return self.problem is None


def check(exercise: Exercise, response: Any) -> Feedback:
    """Judge a response: typed text (numeric), a choice index, or a list of labels (order)."""
    if exercise.answer_type == "number":
        return _check_number(exercise, response)
    if exercise.answer_type == "order":
        return _check_order(exercise, response)
    return _check_choice(exercise, response)


def _check_number(exercise: Exercise, text: str) -> Feedback:
    q = exercise.question
    try:
        a = parse_answer(text)
    except ValueError as err:
        return Feedback(
            False,
            _("Could not read your answer: {problem}.").format(problem=error_text(err)),
            problem=str(err),
        )
    exact = q.value()
    found = diagnose_question(a, q)
    shown = f"{exact:.{max(3, a.decimals)}f}"
    if not found:
        message = _("Right: {quantity} is {shown}.").format(quantity=_(QUANTITIES[q.quantity]), shown=shown)
        return Feedback(True, message, value=a.value)
    if found == ["too_few_decimals"]:
        too_few = MISTAKES["too_few_decimals"]
        return Feedback(
            False,
            _("Close, but {problem}.").format(problem=_(too_few)),
            mistakes=tuple(found),
            value=a.value,
            focus=_focus(q, "unknown"),
        )
    if found == ["unknown"]:
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
        message = message.format(answer=a.text, quantity=_(QUANTITIES[q.quantity]), shown=shown)
    else:
        reasons = _("; or you ").join(_(MISTAKES[m]) for m in found)
        message = _("Not quite: it looks like you {reasons}. The right value is {shown}.").format(
            reasons=reasons, shown=shown
        )
    focus = _focus(q, found[0]) if q.position is not None or found != ["unknown"] else None
    return Feedback(False, message, mistakes=tuple(found), value=a.value, focus=focus)


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
    if mistake in {"linear_gain", "exponential_gain"}:
        pick = rows[rows["Grade"] >= 2]
    elif mistake in {"log2_i", "log2_i_plus_1"}:
        pick = rows[(rows["Position"] >= 2) & (rows["Gain"] != 0)]
    else:
        pick = rows[rows["Gain"] != 0]
    if pick.empty:
        pick = rows if not rows.empty else table
    return ("ideal_steps" if ideal_side else "steps", int(pick["Position"].iloc[0]))


#: Step-table columns shown next to a feedback.
ROW_COLUMNS = ("Position", "Item", "Grade", "Gain", "Divisor", "Discounted gain", "Cumulative DCG")


_SHORT = {
    "log2_i": "log2(i)",
    "log2_i_plus_1": "log2(i + 1)",
    "natural_log": "ln",
    "linear_gain": N_("gain = grade"),
    "exponential_gain": N_("gain = 2^grade − 1"),
    "ideal_retrieved_only": N_("retrieved items only"),
    "ties_not_averaged": N_("listed order"),
    "ties_averaged": N_("average gain"),
}


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
        columns[_("Your way: {how}").format(how=_(_SHORT[mistake]))] = q.explanation(wrong)
    elif mistake == "ideal_retrieved_only" and table == "ideal_steps":
        columns[_("Your way: {how}").format(how=_(_SHORT[mistake]))] = q.explanation(ideal=None)
    out = pd.DataFrame({_("Step"): list(ROW_COLUMNS)})
    for name, ex in columns.items():
        steps = getattr(ex, table)
        row = steps[steps["Position"] == position]
        out[name] = pd.Series([row[c].iloc[0] if len(row) else None for c in ROW_COLUMNS], dtype=object)
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
        return Feedback(False, _("The order must hold each item once."), problem="bad order")
    grades = [by_label[label] for label in order]
    value = exercise.formula.ndcg(grades)
    best, worst = dict(exercise.values)["best"], dict(exercise.values)["worst"]
    ok = _order_reaches(value, exercise.goal, exercise.target, best, worst)
    if ok:
        return Feedback(
            True, _("Right: this order scores NDCG = {value}.").format(value=f"{value:.3f}"), value=value
        )
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
    return Feedback(False, message, value=value)


def _check_choice(exercise: Exercise, choice: Any) -> Feedback:
    if not isinstance(choice, int) or not 0 <= choice < len(exercise.choices):
        return Feedback(False, _("Pick one of the answers."), problem="no choice")
    right = exercise.choices[exercise.answer_choice]
    if choice == exercise.answer_choice:
        return Feedback(True, _("Right: {why}.").format(why=right))
    picked = exercise.choices[choice]
    if exercise.kind == "winner":
        values = dict(exercise.values)
        detail = _(
            "Under the first formula A scores {a1} and B {b1}; under the second, A {a2} and B {b2}."
        ).format(
            a1=f"{values['A, first formula']:.3f}",
            b1=f"{values['B, first formula']:.3f}",
            a2=f"{values['A, second formula']:.3f}",
            b2=f"{values['B, second formula']:.3f}",
        )
    else:
        wrong_value = exercise.values[choice][1]
        detail = _("'{picked}' gives {value}, not {target}.").format(
            picked=picked, value=f"{wrong_value:.3f}", target=f"{exercise.target:.3f}"
        )
    return Feedback(
        False, _("Not this one: {detail} The answer is: {right}.").format(detail=detail, right=right)
    )


# ------------------------------------------------------------------ hints


@dataclass(frozen=True)
class Hint:
    """One level of help: text, optional formulas (LaTeX) and whether to show the step tables."""

    level: int
    text: str
    latex: tuple[str, ...] = ()
    tables: bool = False


def hints(exercise: Exercise) -> tuple[Hint, Hint, Hint]:
    """Three levels: which step to look at; the formula with numbers; the worked solution."""
    return _HINTERS[exercise.kind](exercise)


def _hints_number(e: Exercise) -> tuple[Hint, Hint, Hint]:
    q = e.question
    ex = q.explanation()
    quantity = q.quantity
    if quantity in _CELLS:
        row = ex.steps.iloc[q.position - 1]
        where = _("Look at row {n} of the step table, column '{column}'.").format(
            n=q.position, column=_(_CELL_COLUMN[quantity])
        )
        first = {
            "gain": _("The gain turns the grade into points."),
            "divisor": _("The divisor depends only on the position i."),
            "discounted_gain": _("The discounted gain is the gain divided by the divisor."),
            "cumulative_dcg": _("The cumulative DCG adds the discounted gains of rows 1 to i."),
        }[quantity]
        g, d, i = trimmed(row["Gain"]), trimmed(row["Divisor"]), q.position
        log = _log_name(e.formula.log_base)
        divisor_rule = f"{log}({i} + 1) = {d}" if e.formula.discount == "log" else f"max(1, {log}({i})) = {d}"
        filled = {
            "gain": _("Grade {grade} gives gain {g} ({rule}).").format(
                grade=trimmed(row["Grade"]), g=g, rule=e.formula.describe().split(";")[0]
            ),
            "divisor": _("Divisor at position {i}: {rule}.").format(i=i, rule=divisor_rule),
            "discounted_gain": _("Gain {g}, divisor {rule}: {g} / {d} = {dg}.").format(
                g=g, rule=divisor_rule, d=d, dg=trimmed(row[_DG])
            ),
            "cumulative_dcg": _("Add the discounted gains: {sum} = {total}.").format(
                sum=" + ".join(trimmed(x) for x in ex.steps["Discounted gain"].iloc[:i]),
                total=trimmed(row["Cumulative DCG"]),
            ),
        }[quantity]
        return (
            Hint(1, f"{first} {where}"),
            Hint(2, filled),
            Hint(
                3,
                _("The step table, worked out. The answer is {value}.").format(value=number(q.value(), 4)),
                tables=True,
            ),
        )
    scored = (
        " " + _("First rank the items by score, highest first; the tie rule says how tied items count.")
        if q.scores is not None
        else ""
    )
    first = {
        "dcg": _("DCG@k adds gain / divisor over the top k rows of the ranking."),
        "idcg": _("IDCG@k is the DCG of the ideal ordering: all judged items sorted best first, cut at k."),
        "ndcg": _("NDCG@k is DCG@k divided by IDCG@k: first the ranking, then the ideal ordering."),
    }[quantity]
    latex = {
        "dcg": (dcg_latex(ex),),
        "idcg": (dcg_latex(ex, ideal=True),),
        "ndcg": (dcg_latex(ex), dcg_latex(ex, ideal=True), ndcg_latex(ex)),
    }[quantity]
    return (
        Hint(1, first + scored),
        Hint(2, _("The formula with this list's numbers (each term is gain / divisor):"), latex=latex),
        Hint(
            3,
            _("Both step tables, worked out. The answer is {value}.").format(value=number(q.value(), 4)),
            tables=True,
        ),
    )


def _hints_drag(e: Exercise) -> tuple[Hint, Hint, Hint]:
    values = dict(e.values)
    first = {
        "highest": _("The top positions have the smallest divisors: put the biggest gains there."),
        "lowest": _("The top positions count the most: put the smallest gains there."),
        "target": _("Start from the best order and move good items down until NDCG drops to the target."),
    }[e.goal]
    order = sorted(zip(e.labels, e.grades, strict=True), key=lambda p: -p[1])
    if e.goal == "lowest":
        order = order[::-1]
    text = ", ".join(f"{lab} ({g:g})" for lab, g in order)
    return (
        Hint(1, first),
        Hint(
            2,
            _("The best order scores {best} and the worst {worst}.").format(
                best=f"{values['best']:.3f}", worst=f"{values['worst']:.3f}"
            ),
        ),
        Hint(
            3,
            (
                _("Sorted best first: {items}.") if e.goal != "lowest" else _("Sorted worst first: {items}.")
            ).format(items=text),
        ),
    )


def _hints_winner(e: Exercise) -> tuple[Hint, Hint, Hint]:
    v = dict(e.values)
    return (
        Hint(1, _("Compute NDCG for A and for B under the first formula, then again under the second.")),
        Hint(
            2,
            _("First formula: A scores {a1}, B scores {b1}.").format(
                a1=f"{v['A, first formula']:.3f}", b1=f"{v['B, first formula']:.3f}"
            ),
        ),
        Hint(
            3,
            _("First formula: A {a1}, B {b1}. Second formula: A {a2}, B {b2}.").format(
                a1=f"{v['A, first formula']:.3f}",
                b1=f"{v['B, first formula']:.3f}",
                a2=f"{v['A, second formula']:.3f}",
                b2=f"{v['B, second formula']:.3f}",
            ),
        ),
    )


def _hints_formula(e: Exercise) -> tuple[Hint, Hint, Hint]:
    lines = [f"{text}: {value:.3f}" for text, value in e.values]
    return (
        Hint(1, _("Compute NDCG under one candidate; then ask what each change does to it.")),
        Hint(
            2,
            _(
                "A smaller k, or Järvelin–Kekäläinen's divisor of 1 at positions 1 and 2, changes which "
                "positions count and how much; an ideal from all judged items can only lower NDCG."
            ),
        ),
        Hint(3, _("Each candidate's NDCG: {values}.").format(values="; ".join(lines))),
    )


def _hints_library(e: Exercise) -> tuple[Hint, Hint, Hint]:
    rules = {
        "sklearn": _("scikit-learn averages the gains of tied items"),
        "sklearn-ignore-ties": _("scikit-learn with ignore_ties puts tied items in reverse input order"),
        "trec_eval": _("trec_eval orders tied items by document id, descending"),
        "xgboost": _("XGBoost keeps tied items in input order and uses gain 2^grade − 1"),
    }
    lines = [f"{PRESETS[p].library}: {v:.3f}" for p, v in e.values]
    return (
        Hint(1, _("The libraries differ in how they order items with equal scores.")),
        Hint(2, "; ".join(rules[p] for p, _v in e.values) + "."),
        Hint(3, _("What each reports: {values}.").format(values="; ".join(lines))),
    )


_HINTERS = {
    "cell": _hints_number,
    "metric": _hints_number,
    "drag": _hints_drag,
    "winner": _hints_winner,
    "formula": _hints_formula,
    "library": _hints_library,
}


# ------------------------------------------------------------------ progress


@dataclass(frozen=True)
class Progress:
    """Practice progress as plain data: per kind, attempts and correct answers; a streak.

    ``solved`` holds the keys of exercises already answered right, so checking
    one again does not count twice. Update with :meth:`record`, which returns
    a new value.
    """

    attempts: Mapping[str, int] = field(default_factory=dict)
    correct: Mapping[str, int] = field(default_factory=dict)
    streak: int = 0
    best_streak: int = 0
    solved: frozenset[str] = frozenset()

    def record(self, exercise: Exercise, feedback: Feedback) -> Progress:
        if not feedback.counts or exercise.key in self.solved:
            return self
        kind = exercise.kind
        attempts = {**self.attempts, kind: self.attempts.get(kind, 0) + 1}
        if feedback.correct:
            streak = self.streak + 1
            return Progress(
                attempts,
                {**self.correct, kind: self.correct.get(kind, 0) + 1},
                streak,
                max(self.best_streak, streak),
                self.solved | {exercise.key},
            )
        return Progress(attempts, dict(self.correct), 0, self.best_streak, self.solved)

    def missed(self, kind: str) -> int:
        """Wrong answers for a kind."""
        return self.attempts.get(kind, 0) - self.correct.get(kind, 0)

    def table(self) -> pd.DataFrame:
        """One row per kind: attempts, correct, missed."""
        return pd.DataFrame(
            [
                {
                    _("Exercise"): _(title),
                    _("Attempts"): self.attempts.get(kind, 0),
                    _("Correct"): self.correct.get(kind, 0),
                    _("Missed"): self.missed(kind),
                }
                for kind, title in KINDS.items()
            ]
        )


def next_kind(progress: Progress, seed: int, number: int) -> str:
    """The kind for the next exercise when practising what was missed.

    Each kind is weighted 1 + 3 × (times missed), so kinds answered wrongly come
    back more often while the others still appear; the draw is fixed by
    ``seed`` and ``number``.

    >>> p = Progress(attempts={"cell": 4}, correct={})
    >>> sum(next_kind(p, 1, n) == "cell" for n in range(300)) > 150
    True
    """
    kinds = list(KINDS)
    weights = [1 + 3 * progress.missed(k) for k in kinds]
    return random.Random(f"ndcg-practice-missed:{seed}:{number}").choices(kinds, weights)[0]

"""The common wrong formulas (:data:`MISTAKES`) and :func:`diagnose`, which names the one a number reproduces.

Each wrong answer is computed by the engine itself (:func:`ndcg_core.explain`, :func:`ndcg_core.dcg`)
given the wrong choices, so there is exactly one NDCG formula in the code.

>>> diagnose("1.50", [0, 1, 0, 1], quantity="dcg")  # 0 + 1/1 + 0 + 1/2: divided by log2(i)
['log2_i']
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from ...errors import NDCGError
from ...explanation import Explanation, explain
from ...i18n import N_, _
from ...metrics import dcg
from ...rules import DISCOUNT_RULES, GAIN_RULES, rule_mistakes
from ...variants import Variant
from ..answers import MISTAKE, RIGHT, Answer, Verdict, is_correct, judge, parse_answer
from ..formula import divisor_text, gain_text
from .model import _TOTALS, Question, _rounded_total

#: The common wrong formulas that are not a formula choice's own rule: {id: one-line description}.
_OTHER_MISTAKES: dict[str, str] = {
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
_NATURAL_LOG = N_("used the natural log (ln) where the formula asks for log base 2")


class _Mistakes(Mapping):
    """The common wrong formulas :func:`diagnose` recognises, ``{id: one-line description}``: the
    mistake of each gain's and discount's record (:mod:`ndcg_core.rules`, read each time, so a new
    rule brings its mistake), the natural log, then the others, in that order."""

    def _table(self) -> dict[str, str]:
        made = rule_mistakes()
        words = {"discount": {}, "gain": {}}
        for mistake, (field, name) in made.items():
            words[field][mistake] = (DISCOUNT_RULES if field == "discount" else GAIN_RULES)[
                name
            ].mistake_words
        return {**words["discount"], "natural_log": _NATURAL_LOG, **words["gain"], **_OTHER_MISTAKES}

    def __getitem__(self, mistake: str) -> str:
        return self._table()[mistake]

    def __iter__(self):
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


#: The common wrong formulas :func:`diagnose` recognises: {id: one-line description}.
MISTAKES: Mapping[str, str] = _Mistakes()

#: How a mistake reads for one quantity, where its general description would be vague.
_FOR_QUANTITY: dict[tuple[str, str], str] = {
    ("swapped", "ndcg"): N_("divided IDCG by DCG: NDCG is DCG ÷ IDCG"),
    ("swapped", "dcg"): N_("gave IDCG, the ideal ordering's DCG, where the ranking's DCG was asked"),
    ("swapped", "idcg"): N_("gave the ranking's DCG where IDCG, the ideal ordering's DCG, was asked"),
}


def mistake_text(mistake: str, quantity: str | None = None) -> str:
    """The English of a mistake for a question about ``quantity`` (translate with ``_`` where shown).

    >>> mistake_text("swapped", "ndcg")
    'divided IDCG by DCG: NDCG is DCG ÷ IDCG'
    >>> mistake_text("swapped")
    'swapped DCG and IDCG'
    """
    return _FOR_QUANTITY.get((mistake, quantity or ""), MISTAKES[mistake])


#: Each mistake in a few words (a bar's label, a report's cell), where the mistake is not a formula
#: choice's rule: those are said by their rule's record (:func:`mistake_short`).
_SHORT: dict[str, str] = {
    "ideal_retrieved_only": N_("retrieved items only"),
    "ideal_unsorted": N_("unsorted ideal"),
    "k_not_on_ideal": N_("IDCG past k"),
    "swapped": N_("DCG and IDCG swapped"),
    "dcg_for_ndcg": N_("DCG, not NDCG"),
    "cumulative_for_row": N_("running total"),
    "row_for_cumulative": N_("one row only"),
    "rounded_terms": N_("terms rounded"),
    "ties_not_averaged": N_("listed order"),
    "ties_averaged": N_("average gain"),
    "too_few_decimals": N_("too few decimals"),
}


def mistake_short(mistake: str, q: Question | None = None) -> str:
    """A mistake in a few words, in the reader's language: the divisor or gain a formula-choice
    mistake used, as its rule's record writes it (under ``q``'s formula when given), else its short
    name.

    >>> mistake_short("log2_i"), mistake_short("natural_log"), mistake_short("swapped")
    ('max(1, log2 i)', 'ln(i + 1)', 'DCG and IDCG swapped')
    """
    wrong = wrong_formula(q, mistake) if q is not None else None
    made = rule_mistakes()
    if wrong is None and mistake in made:  # no question: the rule under the default formula
        field, name = made[mistake]
        wrong = replace(Variant(), **{field: name})
    if wrong is None and mistake == "natural_log":
        wrong = replace(Variant(), log_base=math.e)
    field = made.get(mistake, ("discount" if mistake == "natural_log" else "", ""))[0]
    if wrong is not None and field == "discount":
        return divisor_text(wrong)
    if wrong is not None and field == "gain":
        return _("gain = {rule}").format(rule=gain_text(wrong))
    return _(_SHORT[mistake])


def wrong_formula(q: Question, mistake: str) -> Variant | None:
    """The formula a student used when making ``mistake`` on ``q``, for the formula-choice mistakes.

    None when the mistake is not a different formula choice, or does not apply
    (no gain mistake on a divisor; no discount mistake on a gain; no mistake of using the rule
    that was asked).

    >>> wrong_formula(Question((1.0, 0.0), Variant()), "log2_i").discount
    'jarvelin'
    """
    f = q.formula
    if mistake in _discount_mistakes() and q.quantity == "gain":
        return None
    if mistake in _gain_mistakes() and q.quantity == "divisor":
        return None
    if mistake in (made := rule_mistakes()):
        field, name = made[mistake]
        return None if getattr(f, field) == name else replace(f, **{field: name})
    if mistake == "natural_log" and f.log_base != math.e:
        return replace(f, log_base=math.e)
    if q.scores is not None:
        if mistake == "ties_not_averaged" and f.ties == "average":
            return replace(f, ties="stable")
        if mistake == "ties_averaged" and f.ties == "stable":
            return replace(f, ties="average")
    return None


def _discount_mistakes() -> tuple[str, ...]:
    return (*(m for m, (field, _) in rule_mistakes().items() if field == "discount"), "natural_log")


def _gain_mistakes() -> tuple[str, ...]:
    made = (m for m, (field, _) in rule_mistakes().items() if field == "gain")
    return (*made, "ties_not_averaged", "ties_averaged")


def _wrong_values(q: Question, decimals: int = 99) -> dict[str, list[float]]:
    """The answer under every common mistake that applies to the question, by mistake id.

    Terms rounded before adding (to 1 or 2 decimals) count for an answer typed more finely than
    they were rounded, or as finely when that is fine enough to judge (2 decimals): ``2.6`` may be
    2.631 merely rounded, but ``1.63`` for 0.8614 + 0.7737 (1.64) is 0.86 + 0.77."""
    roundings = tuple(r for r in (1, 2) if r < decimals or r == decimals == 2)
    out: dict[str, list[float]] = {}
    pos = q.position
    for mistake in _discount_mistakes() + _gain_mistakes():
        wrong = wrong_formula(q, mistake)
        if wrong is not None:
            out[mistake] = [q.value(wrong)]
    ex = q.explanation()
    if q.quantity == "discounted_gain":
        out["cumulative_for_row"] = [float(ex.steps["Cumulative DCG"].iloc[pos - 1])]
    if q.quantity == "cumulative_dcg":
        out["row_for_cumulative"] = [float(ex.steps["Discounted gain"].iloc[pos - 1])]
        out["rounded_terms"] = [_rounded_total(ex.steps, d, pos) for d in roundings]
    if q.quantity in _TOTALS:
        _wrong_totals(q, ex, out, roundings)
    return out


def _ratio(top: float, bottom: float) -> list[float]:
    return [top / bottom] if bottom > 0 else []


def _wrong_totals(
    q: Question, ex: Explanation, out: dict[str, list[float]], roundings: tuple[int, ...]
) -> None:
    f = q.formula
    dcg_ok, idcg_ok = ex.dcg, ex.idcg
    # Without a pool, the "given order" is the list as the student sees it ranked (by score when scored).
    pool = list(q.ideal) if q.ideal is not None else [float(g) for g in ex.steps["Grade"]]
    kw = {"gain": f.gain_spec, "discount": f.discount, "log_base": f.log_base}
    # IDCG under the wrong ideals, each computed by the engine.
    wrong_idcg = {
        "ideal_unsorted": [dcg(pool, ex.ideal_k, **kw)],  # the pool as given, not sorted
        "k_not_on_ideal": [explain(pool, None, **kw).idcg] if f.k is not None and f.k < len(pool) else [],
        "ideal_retrieved_only": [q.explanation(ideal=None).idcg] if q.ideal is not None else [],
    }
    rounded = {d: (_rounded_total(ex.steps, d), _rounded_total(ex.ideal_steps, d)) for d in roundings}
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


def judge_question(answer: str | Answer, q: Question) -> Verdict:
    """The shared checker's verdict (:func:`ndcg_core.teaching.answers.judge`) on a numeric question,
    against the values every common mistake that applies to it gives."""
    exact = exact_value(q)
    a = answer if isinstance(answer, Answer) else parse_answer(answer, avoid=(exact,))
    fraction = q.quantity == "ndcg"  # 72 for 0.72 is a percentage without its sign
    if is_correct(a, exact):
        return judge(a, exact, fraction=fraction)
    wrong = _wrong(q, min(a.decimals, _FINEST))
    return judge(
        a, exact, {name: list(wrong[name]) for name in MISTAKES if wrong.get(name)}, fraction=fraction
    )


#: Decimals past which :func:`_wrong_values` gives the same values (it rounds to 1 or 2 at most):
#: the memo below keeps one entry for every finer answer.
_FINEST = 3


@functools.lru_cache(maxsize=256)
def exact_value(q: Question) -> float:
    """``q.value()``, computed once per question: a room's answers are judged against one question
    (a hall's worth of submits each built the step tables again)."""
    return q.value()


@functools.lru_cache(maxsize=512)
def _wrong(q: Question, decimals: int) -> Mapping[str, tuple[float, ...]]:
    """:func:`_wrong_values`, computed once per question and precision, read-only."""
    return MappingProxyType({name: tuple(values) for name, values in _wrong_values(q, decimals).items()})


def mistake_values(q: Question) -> Mapping[str, tuple[float, ...]]:
    """The value(s) each common mistake that applies to ``q`` gives, by mistake id (what
    :func:`judge_question` compares a typed number with)."""
    return _wrong(q, _FINEST)


def diagnose_question(answer: str | Answer, q: Question) -> list[str]:
    """:func:`diagnose` for any numeric question, step-table cells included."""
    verdict = judge_question(answer, q)
    if verdict.kind == RIGHT:
        return []
    if verdict.problem is not None:  # too rough, or a fraction typed as a percentage
        return ["too_few_decimals"]
    return list(verdict.mistakes) if verdict.kind == MISTAKE else ["unknown"]


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
        ids (keys of :data:`MISTAKES`) of the mistakes that give the typed number
        (the rules of :mod:`ndcg_core.teaching.answers`: to 2 decimals first);
        ``["too_few_decimals"]`` when it is too rough to tell the right value from
        a mistake's; otherwise ``["unknown"]``.

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
        raise NDCGError("diagnose_quantity", quantity=repr(quantity))
    question = Question(
        grades=tuple(float(g) for g in relevances),
        formula=Variant(k=k, gain=gain, discount=discount, log_base=log_base),
        quantity=quantity,
        ideal=None if ideal is None else tuple(float(g) for g in ideal),
    )
    return diagnose_question(answer, question)

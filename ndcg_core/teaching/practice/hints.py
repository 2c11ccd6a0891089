"""Three levels of help for an exercise: :func:`hints`."""

from __future__ import annotations

from collections.abc import Iterable

from ...i18n import _, separator
from ...presets import PRESETS
from ...variants import TIES, Variant, choice_label
from ..formula import dcg_latex, divisor_text, gain_text, ndcg_latex, number, trimmed
from .model import _CELL_COLUMN, _CELLS, _DG, Exercise, Hint, formula_parts


def hints(exercise: Exercise) -> tuple[Hint, Hint, Hint]:
    """Three levels: which step to look at; the formula with numbers; the worked solution."""
    return _HINTERS[exercise.kind](exercise)


def _hints_number(e: Exercise) -> tuple[Hint, Hint, Hint]:
    q = e.question
    ex = q.explanation()
    quantity = q.quantity
    if quantity in _CELLS:
        row = ex.steps.iloc[q.position - 1]
        where = _("Work it out for position {n} of the list above: its {column}.").format(
            n=q.position, column=_(_CELL_COLUMN[quantity]).lower()
        )
        first = {
            "gain": _("The gain turns the grade into points."),
            "divisor": _("The divisor depends only on the position i."),
            "discounted_gain": _("The discounted gain is the gain divided by the divisor."),
            "cumulative_dcg": _("The cumulative DCG adds the discounted gains of rows 1 to i."),
        }[quantity]
        g, d, i = trimmed(row["Gain"]), trimmed(row["Divisor"]), q.position
        divisor_rule = f"{divisor_text(e.formula, i)} = {d}"
        filled = {
            "gain": _("Grade {grade} gives gain {g} ({rule}).").format(
                grade=trimmed(row["Grade"]), g=g, rule=formula_parts(e.formula)[0]
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
        Hint(3, _("Each candidate's NDCG: {values}.").format(values=separator("; ").join(lines))),
    )


def library_rules(presets: Iterable[str], asked: Variant, *, full: bool = False) -> str:
    """How each preset's library ranks tied scores (and its gain where it is not the ``asked``
    formula's), from the formula schema's own words: the short labels, or (``full``) the whole
    descriptions."""

    def rule(name: str) -> str:
        v = PRESETS[name].spec.variant
        ties = _(TIES[v.ties]) if full else _(choice_label("ties", v.ties))
        if v.gain != asked.gain and v.gain_table is None:
            ties = _("{ties}; gain {gain}").format(ties=ties, gain=gain_text(v))
        return _("{library}: {rule}").format(library=_(PRESETS[name].library), rule=ties)

    return separator("; ").join(rule(p) for p in presets)


def _hints_library(e: Exercise) -> tuple[Hint, Hint, Hint]:
    lines = [f"{_(PRESETS[p].library)}: {v:.3f}" for p, v in e.values]
    names = [p for p, _v in e.values]
    return (
        Hint(1, _("Rank the items by score under each library's tie rule, then compute NDCG for each.")),
        Hint(
            2,
            _("The rules in full: {rules}.").format(rules=library_rules(names, e.formula, full=True)),
        ),
        Hint(3, _("What each reports: {values}.").format(values=separator("; ").join(lines))),
    )


_HINTERS = {
    "cell": _hints_number,
    "metric": _hints_number,
    "drag": _hints_drag,
    "winner": _hints_winner,
    "formula": _hints_formula,
    "library": _hints_library,
}

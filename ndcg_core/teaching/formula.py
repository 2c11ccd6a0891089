r"""The formulas, written out with the user's own numbers, as LaTeX strings.

Each term carries its position underneath, so it can be traced to its row of
the step table.

>>> from ndcg_core import explain
>>> latex = dcg_latex(explain([3, 2]))
>>> latex.startswith("\\mathrm{DCG@2} = "), latex.count("\\dfrac"), latex.endswith("= 4.262")
(True, 2, True)
"""

from __future__ import annotations

import math

import pandas as pd

from ..explanation import Explanation
from ..i18n import _, separator
from ..rules import DISCOUNT_RULES, GAIN_RULES, log_symbol
from ..spec import Spec
from ..variants import SCHEMA, Variant, choice_label

__all__ = [
    "dcg_latex",
    "definition_latex",
    "divisor_latex",
    "divisor_text",
    "gain_latex",
    "gain_text",
    "latex_number",
    "ndcg_latex",
    "number",
    "spec_words",
    "trimmed",
]

MAX_TERMS = 8


def spec_words(spec: Spec) -> str:
    """A formula in words, in the reader's language, beside its canonical name at the top of a page.

    >>> from ndcg_core import resolve
    >>> spec_words(resolve(discount="jarvelin", k=6))
    'linear gain; divisor max(1, log2 i); k = 6'
    >>> spec_words(resolve("trec_eval")).split("; ")[-1]
    "trec_eval's rules"
    """
    v = spec.variant
    parts = [
        _("a gain table") if v.gain_table is not None else _(GAIN_RULES[v.gain].words),
        _("divisor {rule}").format(rule=divisor_text(v)),
        _("whole list (no k)") if v.k is None else f"k = {v.k}",
    ]
    for option in SCHEMA:
        if option.name in {"zero_idcg", "ties"} and getattr(v, option.name) != option.default:
            parts.append(
                _("{option}: {choice}").format(
                    option=_(option.label), choice=_(choice_label(option.name, getattr(v, option.name)))
                )
            )
    if spec.preset:
        parts.append(_("{library}'s rules").format(library=_(spec.library or spec.preset)))
    return separator("; ").join(parts)


def number(x: float, digits: int = 3) -> str:
    """A computed value (NDCG, DCG, IDCG, a step-table cell) as plain text, at a fixed precision.

    Every such value is shown with the same number of decimals, so ``1.000``
    and ``0.480`` line up; NaN (an undefined NDCG) is the word ``undefined``.

    >>> number(1.0), number(0.48), number(2 / 3), number(-0.0001), number(float("nan"))
    ('1.000', '0.480', '0.667', '0.000', 'undefined')
    """
    x = float(x)
    if math.isnan(x):
        return "undefined"
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def trimmed(x: float, digits: int = 3) -> str:
    """A term inside a written-out formula: at most ``digits`` decimals, no trailing zeros.

    >>> trimmed(3.0), trimmed(1.5849625), trimmed(0.5)
    ('3', '1.585', '0.5')
    """
    text = f"{float(x):.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in {"-0", ""} else text


def latex_number(x: float, digits: int = 3) -> str:
    """:func:`number` for use inside LaTeX (an undefined value as ``\\text{undefined}``, translated)."""
    text = number(x, digits)
    if text == "undefined":
        return "\\text{" + _("undefined") + "}"
    return {"∞": "\\infty", "-∞": "-\\infty"}.get(text, text)


def _terms(steps: pd.DataFrame, k: int) -> str:
    # Plain lists, not pandas selections: this runs on every drag, and the frame is small.
    beyond = steps["Beyond k"].tolist()
    rows = [i for i, b in enumerate(beyond) if not b][:k]
    if not rows:
        return "0"
    # Only the terms written out are formatted: the first few, then the last (a long list elides).
    long = len(rows) > MAX_TERMS
    shown = [*rows[: MAX_TERMS - 2], rows[-1]] if long else rows
    position, gain, divisor = (steps[c].tolist() for c in ("Position", "Gain", "Divisor"))
    parts = [
        f"\\underset{{\\color{{gray}}{{\\text{{\\#}}{position[i]}}}}}"
        f"{{\\dfrac{{{trimmed(gain[i])}}}{{{trimmed(divisor[i])}}}}}"
        for i in shown
    ]
    if long:
        parts = [*parts[:-1], "\\cdots", parts[-1]]
    return " + ".join(parts)


def dcg_latex(ex: Explanation, ideal: bool = False) -> str:
    """``DCG@k = g1/d1 + g2/d2 + ... = value`` (or IDCG for the ideal ordering)."""
    steps = ex.ideal_steps if ideal else ex.steps
    name = "IDCG" if ideal else "DCG"
    value = ex.idcg if ideal else ex.dcg
    depth = ex.idcg_depth if ideal else ex.k  # IDCG may sum the whole pool
    return f"\\mathrm{{{ex.named(name)}}} = {_terms(steps, depth)} = {latex_number(value)}"


def ndcg_latex(ex: Explanation) -> str:
    """``NDCG@k = DCG@k / IDCG@k = a / b = value``, saying what happens when IDCG is 0."""
    dcg, idcg = (f"\\mathrm{{{ex.named(m)}}}" for m in ("DCG", "IDCG"))
    head = f"\\mathrm{{{ex.named('NDCG')}}} = \\frac{{{dcg}}}{{{idcg}}}"
    if not ex.spec.undefined(ex.idcg):
        return (
            f"{head} = \\frac{{{latex_number(ex.dcg)}}}{{{latex_number(ex.idcg)}}} = {latex_number(ex.ndcg)}"
        )
    policy = _(choice_label("zero_idcg", ex.variant.zero_idcg))
    rule = "\\text{" + _("so by the '{rule}' rule").format(rule=policy) + "}"
    return f"{head}:\\ \\mathrm{{IDCG}} = {latex_number(ex.idcg)},\\ {rule}\\ {latex_number(ex.ndcg)}"


def divisor_text(variant: Variant, i: object = "i") -> str:
    """The variant's divisor at position ``i`` as plain text: ``log2(i + 1)``, ``max(1, ln 3)``."""
    return DISCOUNT_RULES[variant.discount].text.format(log=log_symbol(variant.log_base), i=i)


def divisor_latex(variant: Variant, i: object = "i") -> str:
    """The variant's divisor at position ``i`` in LaTeX: ``\\log_{2}(i+1)``."""
    return DISCOUNT_RULES[variant.discount].latex.format(log=log_symbol(variant.log_base, latex=True), i=i)


def gain_text(variant: Variant, rel: object = None) -> str:
    """The variant's gain of a grade as plain text, in the reader's language: ``2^grade − 1``, or
    with a number for ``rel``: ``2^3 − 1``. A custom table: ``table(grade)``."""
    rel = _("grade") if rel is None else rel
    if variant.gain_table is not None:
        return _("table({rel})").format(rel=rel)
    return _(GAIN_RULES[variant.gain].text).format(rel=rel)


def gain_latex(variant: Variant, rel: str = "\\mathrm{rel}_i") -> str:
    """The variant's gain in LaTeX, ``rel`` standing for the grade: ``2^{\\mathrm{rel}_i} - 1``."""
    if variant.gain_table is not None:
        return "\\text{" + _("table") + "}(" + rel + ")"
    return GAIN_RULES[variant.gain].latex.format(rel=rel)


def definition_latex(variant: Variant) -> str:
    """The general formula of a variant, in symbols (from its gain's and discount's records)."""
    return (
        f"\\mathrm{{DCG@k}} = \\sum_{{i=1}}^{{k}} \\frac{{{gain_latex(variant)}}}{{{divisor_latex(variant)}}}"
    )

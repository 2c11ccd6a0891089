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

from .metrics import Explanation
from .variants import Variant, format_base

__all__ = ["dcg_latex", "definition_latex", "ndcg_latex", "number"]

MAX_TERMS = 8


def number(x: float, digits: int = 3) -> str:
    """A number as people write it: at most ``digits`` decimals, no trailing zeros."""
    if isinstance(x, float) and math.isnan(x):
        return "\\text{undefined}"
    text = f"{x:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in {"-0", ""} else text


def _terms(steps: pd.DataFrame, k: int) -> str:
    rows = steps[~steps["Beyond k"]]
    rows = rows.iloc[:k]
    if rows.empty:
        return "0"
    shown = list(rows.itertuples(index=False))
    parts = [
        f"\\underset{{\\color{{gray}}{{\\text{{\\#}}{r.Position}}}}}{{\\dfrac{{{number(r.Gain)}}}{{{number(r.Divisor)}}}}}"
        for r in shown
    ]
    if len(parts) > MAX_TERMS:
        parts = [*parts[: MAX_TERMS - 2], "\\cdots", *parts[-1:]]
    return " + ".join(parts)


def dcg_latex(ex: Explanation, ideal: bool = False) -> str:
    """``DCG@k = g1/d1 + g2/d2 + ... = value`` (or IDCG for the ideal ordering)."""
    steps = ex.ideal_steps if ideal else ex.steps
    name = "IDCG" if ideal else "DCG"
    value = ex.idcg if ideal else ex.dcg
    return f"\\mathrm{{{name}@{ex.k}}} = {_terms(steps, ex.k)} = {number(value)}"


def ndcg_latex(ex: Explanation) -> str:
    """``NDCG@k = DCG@k / IDCG@k = a / b = value``, saying what happens when IDCG is 0."""
    head = f"\\mathrm{{NDCG@{ex.k}}} = \\frac{{\\mathrm{{DCG@{ex.k}}}}}{{\\mathrm{{IDCG@{ex.k}}}}}"
    if ex.idcg > 0:
        return f"{head} = \\frac{{{number(ex.dcg)}}}{{{number(ex.idcg)}}} = {number(ex.ndcg)}"
    policy = ex.variant.zero_idcg
    rule = f"\\text{{so by the '{policy}' rule}}"
    return f"{head}:\\ \\mathrm{{IDCG}} = {number(ex.idcg)},\\ {rule}\\ {number(ex.ndcg)}"


def definition_latex(variant: Variant) -> str:
    """The general formula of a variant, in symbols."""
    if variant.gain_table is not None:
        gain = "\\mathrm{table}(\\mathrm{rel}_i)"
    elif variant.gain == "exponential":
        gain = "2^{\\mathrm{rel}_i} - 1"
    else:
        gain = "\\mathrm{rel}_i"
    b = format_base(variant.log_base)
    log = "\\ln" if b == "e" else f"\\log_{{{b}}}"
    divisor = f"{log}(i+1)" if variant.discount == "log" else f"\\max(1, {log} i)"
    return f"\\mathrm{{DCG@k}} = \\sum_{{i=1}}^{{k}} \\frac{{{gain}}}{{{divisor}}}"

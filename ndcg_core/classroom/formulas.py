"""What every Class question's definition shares: the error for a definition that describes no
question, and a formula as Practice states it, as data a definition stores.

>>> f = PracticeFormula(k=3, discount="jarvelin")
>>> formula_from_data(formula_data(f)) == f
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import NDCGError
from ..spec import Spec
from ..teaching.practice import Formula as PracticeFormula

__all__ = ["BadQuestion", "PracticeFormula", "formula_data", "formula_from_data", "formula_of_spec"]


class BadQuestion(NDCGError):
    """A definition that does not describe a question."""


def formula_of_spec(spec: Spec) -> PracticeFormula | None:
    """The playground's formula as a Practice formula, or None when Practice cannot state it.

    Practice's questions know linear or exponential gains and the log2(i + 1) or
    Järvelin–Kekäläinen discounts, with any log base and cutoff.
    """
    v = spec.variant
    if v.gain not in ("linear", "exponential") or v.discount not in ("log", "jarvelin"):
        return None
    return PracticeFormula(k=v.k, gain=v.gain, discount=v.discount, log_base=v.log_base)


def formula_data(f: PracticeFormula) -> dict[str, Any]:
    """A formula as a definition stores it (JSON-able)."""
    return {"k": f.k, "gain": f.gain, "discount": f.discount, "log_base": f.log_base, "ties": f.ties}


def formula_from_data(d: Mapping[str, Any]) -> PracticeFormula:
    """The formula a definition stores (``ties`` may be missing: older definitions have none)."""
    return PracticeFormula(
        k=d["k"], gain=d["gain"], discount=d["discount"], log_base=d["log_base"], ties=d.get("ties")
    )

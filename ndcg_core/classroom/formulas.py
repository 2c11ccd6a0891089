"""What every Class question's definition shares: the error for a definition that describes no
question, and a formula (the engine's :class:`~ndcg_core.variants.Variant`, as Practice states it)
as data a definition stores.

>>> f = Variant(k=3, discount="jarvelin")
>>> formula_from_data(formula_data(f)) == f
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import NDCGError
from ..spec import Spec
from ..variants import Variant

__all__ = ["BadQuestion", "formula_data", "formula_from_data", "formula_of_spec"]


class BadQuestion(NDCGError):
    """A definition that does not describe a question."""


def formula_of_spec(spec: Spec) -> Variant | None:
    """The playground's formula as a question states it, or None when a question cannot state it.

    A question states a named gain rule and discount rule (any of :mod:`ndcg_core.rules`), with
    any log base and cutoff; not a custom gain table. The IDCG = 0 rule and the tie rule are the
    schema's defaults (a question with scores sets its tie rule).
    """
    v = spec.variant
    if v.gain_table is not None:
        return None
    return Variant(k=v.k, gain=v.gain, discount=v.discount, log_base=v.log_base)


def formula_data(f: Variant) -> dict[str, Any]:
    """A formula as a definition stores it (JSON-able): its choices by name."""
    return {"k": f.k, "gain": f.gain, "discount": f.discount, "log_base": f.log_base, "ties": f.ties}


def formula_from_data(d: Mapping[str, Any]) -> Variant:
    """The formula a definition stores (``ties`` may be missing or None: older definitions have none,
    and mean the listed order)."""
    return Variant(
        k=d["k"],
        gain=d["gain"],
        discount=d["discount"],
        log_base=d["log_base"],
        ties=d.get("ties") or "stable",
    )

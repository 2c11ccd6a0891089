"""Compare rankings under every formula variant and see where the winner flips.

Examples
--------
One excellent item, or four fair ones? Against a pool of one grade-3 and
four grade-1 items, the usual formula prefers A; the original
Järvelin–Kekäläinen discount, which spares the first positions, prefers B,
and so does binary gain, for which a grade-1 item is worth a grade-3 one:

>>> table = variant_matrix({"A": [3, 0, 0, 0], "B": [1, 1, 1, 1]}, ideal=[3, 1, 1, 1, 1], ks=(None, 3))
>>> len(table)  # 3 gains x 2 discounts x 3 bases x 2 ideal sources x 2 cutoffs
72
>>> flipped = table[table["flips"] & (table["gain"] == "linear")]
>>> print(flipped[["discount", "log_base", "k", "winner"]].to_string(index=False))
discount log_base    k     winner
jarvelin        2 None          B
jarvelin        e None          B
jarvelin       10 None          B
jarvelin       10    3 tie: A = B
>>> set(table.loc[(table["gain"] == "binary") & (table["ideal"] == "pool"), "winner"])
{'B'}

"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from ..errors import NDCGError
from ..metrics import ndcg, to_grades
from ..rules import DISCOUNT_RULES, GAIN_RULES
from ..variants import Variant, format_base

__all__ = ["variant_matrix"]

_BASES = (2.0, math.e, 10.0)


def _winner(values: Mapping[str, float], tol: float = 1e-12) -> str:
    finite = {name: v for name, v in values.items() if not math.isnan(v)}
    if not finite:
        return "none"
    best = max(finite.values())
    leaders = [name for name, v in finite.items() if v >= best - tol]
    return leaders[0] if len(leaders) == 1 else "tie: " + " = ".join(leaders)


def variant_matrix(
    rankings: Mapping[str, Any],
    ideal: Any = None,
    ks: Sequence[int | None] = (None, 3, 5, 10),
) -> pd.DataFrame:
    """NDCG of several rankings under every combination of formula choices.

    The combinations are every gain rule (:data:`ndcg_core.rules.GAIN_RULES`: linear,
    exponential, binary) x every discount rule (log, Järvelin–Kekäläinen) x log base (2, e,
    10) x ideal source (the list itself, or the judged pool ``ideal``; only the list when no pool is
    given) x each cutoff in ``ks``.

    Parameters
    ----------
    rankings : mapping of str to array-like of float
        Name of each ranking to its grades in ranked order.
    ideal : array-like of float, optional
        Grades of every judged item, retrieved or not, shared by all
        rankings. Adds the "pool" rows.
    ks : sequence of int or None
        Cutoffs; None means the whole list.

    Returns
    -------
    pandas.DataFrame
        One row per combination: ``gain``, ``discount``, ``log_base``
        (printed as ``2``, ``e``, ``10``), ``ideal`` (``"list"`` or
        ``"pool"``), ``k`` (None for the whole list), one column per ranking
        with its NDCG, ``winner`` (the best ranking's name, or ``"tie: A = B"``)
        and ``flips`` (True where the winner differs from the winner under
        the default formula, linear gain, log2 discount, at the same ``k``
        and ideal source). ``default`` marks the default-formula rows.

    Raises
    ------
    ValueError
        No ranking given, a reserved column name used as a ranking name, or
        grades that are not finite numbers.
    """
    if not rankings:
        raise NDCGError("no_rankings", example="{'A': [3, 2, 0], 'B': [0, 2, 3]}")
    reserved = {"gain", "discount", "log_base", "ideal", "k", "winner", "flips", "default"}
    clash = sorted(set(map(str, rankings)) & reserved)
    if clash:
        raise NDCGError("ranking_name_clash", names=", ".join(clash))
    lists = {str(name): to_grades(grades, f"ranking {name!r}") for name, grades in rankings.items()}
    pool = None if ideal is None else to_grades(ideal, "ideal")
    sources = ("list",) if pool is None else ("list", "pool")
    rows = []
    for gain, discount, base, source, k in itertools.product(GAIN_RULES, DISCOUNT_RULES, _BASES, sources, ks):
        values = {
            name: ndcg(
                grades,
                k,
                gain=gain,
                discount=discount,
                log_base=base,
                ideal=pool if source == "pool" else None,
            )
            for name, grades in lists.items()
        }
        rows.append(
            {
                "gain": gain,
                "discount": discount,
                "log_base": format_base(base),
                "ideal": source,
                "k": k,
                **values,
                "winner": _winner(values),
                "default": Variant(gain=gain, discount=discount, log_base=base) == Variant(),
            }
        )
    default_winner = {(row["ideal"], row["k"]): row["winner"] for row in rows if row["default"]}
    for row in rows:
        row["flips"] = default_winner[(row["ideal"], row["k"])] != row["winner"]
    table = pd.DataFrame(rows)
    table["k"] = pd.Series([row["k"] for row in rows], dtype=object)
    return table

"""What each library would report for one list, and the code that reproduces it.

:func:`library_table` runs every preset of :data:`ndcg_core.PRESETS` through
the one engine; :func:`snippet_for` fills in a preset's snippet so a person
can reproduce the number in the library itself.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from string import Template
from typing import Any

import pandas as pd

from .metrics import ndcg, to_grades
from .presets import PRESETS, Preset, get_preset
from .spec import pool_extras

__all__ = ["library_table", "snippet_for"]


def snippet_for(
    preset: str | Preset,
    relevances: Any,
    scores: Any = None,
    labels: Sequence[Any] | None = None,
    k: int | None = None,
    ideal: Any = None,
) -> str:
    """The library code that reproduces a preset's number for a list.

    Examples
    --------
    >>> print(snippet_for("sklearn", [2, 0, 1], k=2))
    from sklearn.metrics import ndcg_score
    print(ndcg_score([[2, 0, 1]], [[3, 2, 1]], k=2))
    """
    p = get_preset(preset)
    return Template(p.snippet).substitute(_snippet_values(relevances, scores, labels, k, ideal))


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _snippet_values(
    relevances: Any, scores: Any, labels: Sequence[Any] | None, k: int | None, ideal: Any
) -> dict[str, str]:
    grades = to_grades(relevances)
    n = grades.size
    s = list(range(n, 0, -1)) if scores is None else [float(x) for x in to_grades(scores, "scores")]
    ids = [f"D{i}" for i in range(1, n + 1)] if labels is None else [str(x) for x in labels]
    qrels = {name: int(g) if float(g).is_integer() else float(g) for name, g in zip(ids, grades, strict=True)}
    if ideal is not None:
        try:
            extras = pool_extras(grades, to_grades(ideal, "ideal"))
        except ValueError:
            extras = []
        for i, g in enumerate(extras, start=1):
            qrels[f"J{i}"] = int(g) if float(g).is_integer() else float(g)
    run = {name: score for name, score in zip(ids, s, strict=True)}
    grade_list = "[" + ", ".join(_num(g) for g in grades) + "]"
    score_list = "[" + ", ".join(_num(x) for x in s) + "]"
    cut = n if k is None else int(k)
    return {
        "grades": grade_list,
        "scores": score_list,
        "n": str(n),
        "k": str(k),
        "cut": str(cut),
        "k_arg": "" if k is None else f", k={k}",
        "at_k": "" if k is None else f"@{k}",
        "qrels": repr(qrels),
        "run": repr(run),
        "trec_measure": "ndcg" if k is None else f"ndcg_cut_{k}",
        "trec_measure_arg": "ndcg" if k is None else f"ndcg_cut.{k}",
        "ranx_k": "" if k is None else f"@{k}",
        "irm_cutoff": "" if k is None else f"@{k}",
        "topn": "None" if k is None else str(k),
        "ratings": json.dumps(
            [{"_index": "my-index", "_id": name, "rating": g} for name, g in qrels.items()]
        ),
        "hits": json.dumps(ids),
    }


def library_table(
    relevances: Any,
    scores: Any = None,
    labels: Sequence[Any] | None = None,
    k: int | None = None,
    ideal: Any = None,
) -> pd.DataFrame:
    """What each library would report for one list, one row per preset.

    Parameters
    ----------
    relevances, scores, labels, k, ideal
        As for :func:`ndcg_core.ndcg`.

    Returns
    -------
    pandas.DataFrame
        Columns ``preset``, ``library``, ``version``, ``value`` (NaN when the
        library refuses the list), ``differences`` (one line per difference
        from the default formula, joined by newlines), ``refusal`` (the
        library's rule, or empty), ``snippet``, ``installed`` and
        ``checked`` (what this repository's tests compared with the real
        library, and its version; empty when the preset comes from the
        library's source or documentation only).

    Examples
    --------
    >>> table = library_table([3, 2, 0, 1], k=3)
    >>> table.set_index("preset").loc[["sklearn", "xgboost"], "value"].round(4).tolist()
    [0.895, 0.9468]
    """
    rows = []
    for p in PRESETS.values():
        try:
            value = ndcg(relevances, k, scores=scores, labels=labels, preset=p, ideal=ideal)
            refusal = ""
        except ValueError as exc:
            value, refusal = math.nan, str(exc)
        try:
            snippet = snippet_for(p, relevances, scores, labels, k, ideal)
        except ValueError:
            snippet = ""
        rows.append(
            {
                "preset": p.name,
                "library": p.library,
                "version": p.version,
                "value": value,
                "differences": "\n".join(p.differences),
                "refusal": refusal,
                "snippet": snippet,
                "checked": p.checked,
            }
        )
    return pd.DataFrame(rows)

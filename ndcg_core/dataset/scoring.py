"""The data-set API: :func:`evaluate` (every query of a run, one Spec) and :func:`aggregate`."""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from ..errors import Message, NDCGError
from ..presets import Preset, as_spec
from ..spec import Spec
from ..variants import TIES, Variant, check_k
from .kernels import score_queries
from .keys import _query_codes
from .overlap import NDCGWarning, check_queries
from .tables import (
    _QRELS_COLUMNS,
    _RUN_COLUMNS,
    _check_ids,
    _normalize_columns,
    _numeric,
    _row_name,
    source_name,
)
from .threads import resolve_threads

#: Tie rules :func:`evaluate` can apply over a data set (descriptions from the schema).
#: ``reverse_argsort`` depends on numpy's sort internals for each list and is left out.
TIE_RULES: dict[str, str] = {t: TIES[t] for t in ("docid_desc", "stable", "average")}


#: Where :func:`evaluate` starts when no preset is given: the schema's formula (linear gain,
#: log2(i + 1), IDCG = 0 scores 0) over the judged pool, with trec_eval's tie order so that equal
#: scores give one reproducible ranking, and the data taken as given (every grade as written, every
#: query on either side). It is *not* trec_eval's measure: ``preset="trec_eval"`` is (see
#: :func:`evaluate`).
DATASET_BASE = Spec(Variant(ties="docid_desc"))


def evaluate(
    qrels: pd.DataFrame,
    run: pd.DataFrame,
    k: int | Sequence[int | None] | None = None,
    *,
    spec: Spec | None = None,
    preset: str | Preset | None = None,
    gain: str | Mapping[float, float] | None = None,
    discount: str | None = None,
    log_base: float | None = None,
    zero_idcg: str | None = None,
    ties: str | None = None,
    ideal: str | None = None,
    queries: str | None = None,
    duplicates: str | None = None,
    score_dtype: str | None = None,
    threads: int | None = None,
) -> pd.DataFrame:
    """NDCG@k of every query of a run, in one vectorised pass (at one cutoff or several).

    With no ``preset`` and no keyword, the plain default (:data:`DATASET_BASE`) is the schema's
    formula, as :func:`ndcg_core.ndcg` has it: linear gain, a log2(i + 1) discount, IDCG over
    every judged document, IDCG = 0 scored 0; equal scores ordered as trec_eval orders them
    (float32, then document id descending); and the data taken as given: a negative grade
    subtracts (NDCG can fall below 0), a fractional grade counts, every query of either table
    gets a row. That is not trec_eval's measure, and is not named after it. trec_eval (and
    pytrec_eval, ir_measures) count negative grades as 0, accept only whole grades and score only
    queries both tables have: for their numbers (``ndcg``, ``ndcg_cut.k``) pass
    ``preset="trec_eval"``, as the app's Data sets page does by default. The two agree when every
    grade is a whole number of at least 0 and both tables have the same queries.

    Parameters
    ----------
    qrels : pandas.DataFrame
        Relevance judgements, columns ``query``, ``doc``, ``relevance`` (aliases
        such as ``qid``, ``docno``, ``label`` are accepted, in any case). The
        judged pool may include documents the run did not retrieve. A
        (query, doc) pair listed twice is an error.
    run : pandas.DataFrame
        Retrieved documents, columns ``query``, ``doc``, ``score``; a higher
        score ranks first. A retrieved document missing from the qrels is
        unjudged and has grade 0.
    k : int, list of int, optional
        Cutoff. ``None`` means no cutoff on either side: DCG over every
        retrieved document and IDCG over the whole ideal pool, as trec_eval's
        ``ndcg``. (Note: :func:`ndcg_core.ndcg` with ``k=None`` cuts the ideal
        at the list's length instead; pass ``k`` explicitly to compare.)
        A list (or tuple) of cutoffs, such as ``[5, 10, 20]``, scores them
        all from one ranking of each query: the table then has a column
        per cutoff, ``ndcg@5``, ``ndcg@10``, ... (and ``dcg@k``, ``idcg@k``,
        ``idcg_zero@k``); ``None`` in the list gives the uncut ``ndcg``,
        ``dcg``, ``idcg``, ``idcg_zero``. Each value is exactly what a call
        with that single cutoff gives. A cutoff listed twice counts once.
    spec : Spec, optional
        Every choice at once (see :func:`ndcg_core.resolve`); then give no
        preset or keyword below (``k`` may still replace its cutoff).
    preset : str, optional
        A library's conventions from :data:`ndcg_core.PRESETS`: its formula,
        input rules and the queries it scores. ``queries`` and ``duplicates``
        may still be chosen; a formula keyword that contradicts it is refused.
    gain, discount, log_base, zero_idcg
        The formula variant, exactly as in :func:`ndcg_core.ndcg` (``None``:
        the schema's default).
        ``zero_idcg`` decides the NDCG of a query whose IDCG is not positive:
        ``"zero"``, ``"one"``, ``"skip"`` (NaN) or ``"error"``.
    ties : {"docid_desc", "stable", "average"}, optional, default "docid_desc"
        How equal scores are ordered; see :data:`TIE_RULES`. The default is
        trec_eval's rule; trec_eval's numbers need its input rules as well
        (``preset="trec_eval"``).
    ideal : {"pool", "retrieved"}, optional, default "pool"
        Where the ideal ordering comes from; see :data:`IDEAL_SOURCES`.
    queries : {"union", "run", "qrels", "both"}, optional, default "union"
        Which queries get a row when the two sides disagree; see
        :data:`QUERY_RULES`.
    duplicates : {"error", "max"}, optional, default "error"
        A document listed twice for one query in the run (or judged twice
        in the qrels); ``"max"`` keeps the higher score (grade). See
        :data:`DUPLICATE_RULES`.
    score_dtype : {"float64", "float32"}, optional, default "float64"
        Compare scores at this precision (``"docid_desc"`` always uses float32).
    threads : int, optional
        How many threads score blocks of queries at once (numpy releases the
        GIL in its sorts). Default: the ``NDCG_THREADS`` environment
        variable, else up to 2 (:data:`ndcg_core.dataset.threads.DEFAULT_THREADS`).
        The result does not depend on it.

    Returns
    -------
    pandas.DataFrame
        One row per query: ``query``, ``dcg``, ``idcg``, ``ndcg``,
        ``n_retrieved``, ``n_judged``, ``n_relevant`` (judged with a positive
        grade), ``idcg_zero``, ``in_run``, ``in_qrels``. Queries come in the
        order they first appear in the run, then qrels-only ones. The spec
        used is kept in ``.attrs["spec"]`` for :func:`aggregate`. With a list
        of cutoffs, the columns ``ndcg@k``, ``dcg@k``, ``idcg@k`` and
        ``idcg_zero@k`` (each a group, cutoffs in the order given) replace
        ``dcg``, ``idcg``, ``ndcg`` and ``idcg_zero``; ``.attrs["cutoffs"]``
        lists the cutoffs and ``.attrs["specs"]`` maps each to its spec.

    Raises
    ------
    ValueError
        Missing columns, non-numeric grades or scores (naming the row), a
        duplicate pair, an unknown option, a grade missing from a custom gain
        table, or IDCG = 0 with ``zero_idcg="error"`` (naming the queries).

    Examples
    --------
    Document ``c`` is judged relevant but was not retrieved: it still counts
    in the ideal ordering. ``b`` was retrieved but never judged: grade 0.

    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"query": ["q1"] * 3, "doc": ["a", "c", "d"], "relevance": [1, 1, 0]})
    >>> run = pd.DataFrame({"query": ["q1"] * 2, "doc": ["a", "b"], "score": [2.0, 1.0]})
    >>> evaluate(qrels, run, k=2)[["query", "dcg", "idcg", "ndcg", "n_retrieved", "n_judged"]].round(3)
      query  dcg   idcg   ndcg  n_retrieved  n_judged
    0    q1  1.0  1.631  0.613            2         3

    Several cutoffs at once, from one ranking:

    >>> evaluate(qrels, run, k=[1, 3, None])[["query", "ndcg@1", "ndcg@3", "ndcg"]].round(3)
      query  ndcg@1  ndcg@3   ndcg
    0    q1     1.0   0.613  0.613
    """
    cutoffs = _cutoffs(k)
    spec = as_spec(
        spec,
        preset,
        base=DATASET_BASE,
        k=None if cutoffs is not None else k,
        gain=gain,
        discount=discount,
        log_base=log_base,
        zero_idcg=zero_idcg,
        ties=ties,
        ideal_source=ideal,
        queries=queries,
        duplicates=duplicates,
        score_dtype=score_dtype,
    )
    if cutoffs is not None:
        spec = spec.with_k(None if None in cutoffs else max(cutoffs))  # the ranking reads this deep
    threads = resolve_threads(threads)
    if spec.variant.ties not in TIE_RULES:
        rule = {"ties": repr(spec.variant.ties), "allowed": ", ".join(repr(t) for t in TIE_RULES)}
        if spec.preset:
            raise NDCGError("ties_over_data_set_preset", **rule)
        raise NDCGError("ties_over_data_set", **rule)
    qrels_name, run_name = source_name(qrels, "qrels"), source_name(run, "run")
    qrels = _normalize_columns(qrels, _QRELS_COLUMNS, qrels_name)
    run = _normalize_columns(run, _RUN_COLUMNS, run_name)
    for table, frame in ((qrels_name, qrels), (run_name, run)):
        _check_ids(frame, table)
    grades = _numeric(qrels["relevance"], "relevance", qrels_name)
    if spec.duplicates == "max":  # a pair judged twice keeps its higher grade (the first such row)
        twice = qrels.duplicated(["query", "doc"], keep=False).to_numpy()
        if twice.any():
            order = np.lexsort((np.arange(grades.size), -grades))  # highest grade first, then row order
            first = ~qrels.iloc[order].duplicated(["query", "doc"]).to_numpy()
            keep = np.sort(order[first])
            qrels, grades = qrels.iloc[keep], grades[keep]
    spec.check_grades(
        grades,
        lambda i: Message("on_row", row=_row_name(qrels.index, i)),
        qrels_name if qrels_name != "qrels" else Message("these_qrels"),
        Message("fix_grades_preset") if spec.preset else None,
    )
    grades = spec.rewrite_grades(grades)
    scores = _numeric(run["score"], "score", run_name)
    run_codes, qrels_codes, labels = _query_codes(run["query"], qrels["query"])
    nq = labels.size
    problem = check_queries(
        labels[run_codes.counts(nq) > 0],
        labels[qrels_codes.counts(nq) > 0],
        run_name=run_name,
        qrels_name=qrels_name,
    )
    if problem is not None:
        warnings.warn(NDCGWarning(problem), stacklevel=2)
    qrels.attrs["source"], run.attrs["source"] = qrels_name, run_name  # the kernels' messages name them
    dcg_values, idcg_values, n_ret = score_queries(
        run, qrels, run_codes, qrels_codes, nq, scores, grades, spec, cutoffs or (spec.k,), threads
    )
    overflow = ~(np.isfinite(dcg_values) & np.isfinite(idcg_values)).all(axis=0)
    if overflow.any():
        raise NDCGError("in_query", query=repr(labels[overflow][0]), problem=Message("too_large"))
    if spec.min_items and (short := (n_ret > 0) & (n_ret < spec.min_items)).any():
        raise spec.refusal(
            Message("too_few_retrieved", rule=spec.min_items_error, n=n_ret[short][0]),
            Message("query_named", query=repr(labels[short][0])),
        )
    n_judged = qrels_codes.counts(nq)
    n_relevant = qrels_codes.counts(nq, where=grades > 0)
    in_run, in_qrels = n_ret > 0, n_judged > 0
    keep_q = {
        "union": np.ones(nq, dtype=bool),
        "run": in_run,
        "qrels": in_qrels,
        "both": in_run & in_qrels,
    }[spec.queries]
    zero = spec.undefined(idcg_values)  # a row per cutoff
    if spec.variant.zero_idcg == "error" and (zero & keep_q).any():
        bad = labels[(zero & keep_q).any(axis=0)]
        shown = ", ".join(repr(x) for x in bad[:5]) + (", ..." if bad.size > 5 else "")
        if bad.size == 1:
            raise NDCGError("idcg_zero_query", n=bad.size, shown=shown)
        raise NDCGError("idcg_zero_queries", n=bad.size, shown=shown)
    ndcg_values = spec.normalize(dcg_values, idcg_values)
    counts = {
        "n_retrieved": n_ret,
        "n_judged": n_judged,
        "n_relevant": n_relevant,
    }
    sides = {"in_run": in_run, "in_qrels": in_qrels}
    if cutoffs is None:
        columns = {"dcg": dcg_values[0], "idcg": idcg_values[0], "ndcg": ndcg_values[0]}
        out = pd.DataFrame({"query": labels, **columns, **counts, "idcg_zero": zero[0], **sides})
    else:
        named = [_column_suffix(c) for c in cutoffs]
        out = pd.DataFrame(
            {
                "query": labels,
                **{f"ndcg{at}": ndcg_values[i] for i, at in enumerate(named)},
                **{f"dcg{at}": dcg_values[i] for i, at in enumerate(named)},
                **{f"idcg{at}": idcg_values[i] for i, at in enumerate(named)},
                **{f"idcg_zero{at}": zero[i] for i, at in enumerate(named)},
                **counts,
                **sides,
            }
        )
    out = out[keep_q].reset_index(drop=True)
    if cutoffs is None:
        out.attrs["spec"] = spec
    else:
        out.attrs["spec"] = spec.with_k(None)
        out.attrs["cutoffs"] = list(cutoffs)
        out.attrs["specs"] = {c: spec.with_k(c) for c in cutoffs}
    return out


def _column_suffix(k: int | None) -> str:
    """The suffix of a cutoff's columns in a table of several: ``@10``, or none for no cutoff."""
    return "" if k is None else f"@{k}"


def _cutoffs(k: Any) -> tuple[int | None, ...] | None:
    """Several cutoffs, checked, each once in the order given; None when ``k`` is one cutoff."""
    if k is None or isinstance(k, (str, bytes)) or not isinstance(k, Iterable):
        return None
    cutoffs = tuple(dict.fromkeys(check_k(c) for c in k))
    if not cutoffs:
        raise NDCGError("no_cutoffs")
    return cutoffs


@dataclass(frozen=True)
class Aggregate:
    """A data set's NDCG, averaged both ways.

    Attributes
    ----------
    n_queries : int
        Rows of the per-query table.
    mean_ndcg : float
        Mean of per-query NDCG: every query one vote (NaN scores left out).
    ratio_of_sums : float
        ΣDCG / ΣIDCG over the queries whose IDCG is positive: queries with a
        large IDCG weigh more. A query with IDCG ≤ 0 (nothing relevant, or
        only negative grades) is left out of both sums whatever ``zero_idcg``
        says (``"error"`` raises): its DCG has nothing to be measured against.
        NaN when no query has IDCG > 0.
    sum_dcg, sum_idcg : float
        The two sums of ``ratio_of_sums``.
    n_idcg_zero : int
        Queries whose IDCG is not positive (0, or negative with negative grades).
    zero_idcg : str
        The policy applied to them.
    n_in_mean : int
        Queries counted in ``mean_ndcg``.
    policy_effect : str
        One sentence saying what the policy did to the mean.
    """

    n_queries: int
    mean_ndcg: float
    ratio_of_sums: float
    n_idcg_zero: int
    zero_idcg: str
    n_in_mean: int
    policy_effect: str
    sum_dcg: float = math.nan
    sum_idcg: float = math.nan

    def as_dict(self) -> dict[str, Any]:
        """The fields as a plain dict (for a table or JSON)."""
        return dict(self.__dict__)


#: ``aggregate``'s ``k`` when not given (None is a cutoff: no cutoff).
_ONE_TABLE: Any = object()


def aggregate(per_query: pd.DataFrame, zero_idcg: str | None = None, *, k: Any = _ONE_TABLE) -> Aggregate:
    """Average a per-query table from :func:`evaluate` both ways.

    Parameters
    ----------
    per_query : pandas.DataFrame
        Needs columns ``dcg`` and ``idcg`` (``ndcg`` is recomputed from them),
        or, from ``evaluate`` with several cutoffs, ``dcg@k`` and ``idcg@k``.
    zero_idcg : {"zero", "one", "skip", "error"}, optional
        Policy for IDCG = 0 queries; default: the one :func:`evaluate` used
        (``"zero"`` if unknown). Passing another shows its effect.
    k : int or None, optional
        Which cutoff of a table with several (``None``: its uncut columns);
        required there. A table of one cutoff takes its own or none.

    Returns
    -------
    Aggregate

    Examples
    --------
    Seed 003 ("Intro to NDCG") averages three queries both ways:

    >>> import pandas as pd
    >>> table = pd.DataFrame({"dcg": [2.0, 0.5, 0.0], "idcg": [4.0, 0.5, 0.0]})
    >>> a = aggregate(table)
    >>> a.mean_ndcg, a.ratio_of_sums, a.n_idcg_zero
    (0.5, 0.5555555555555556, 1)
    >>> aggregate(table, zero_idcg="skip").mean_ndcg
    0.75
    >>> a.policy_effect.split("; ")  # doctest: +NORMALIZE_WHITESPACE
    ['1 of 3 queries have IDCG = 0 (or below)',
     "zero_idcg='zero' scored them 0 and kept them in the mean",
     'ΣDCG/ΣIDCG leaves them out.']
    """
    dcg_column, idcg_column, spec = _one_cutoff(per_query, k)
    if zero_idcg is not None:
        spec = replace(spec, variant=spec.variant.with_(zero_idcg=zero_idcg))
    policy = spec.variant.zero_idcg
    dcg_value = per_query[dcg_column].to_numpy(dtype=float)
    idcg_value = per_query[idcg_column].to_numpy(dtype=float)
    zero = spec.undefined(idcg_value)
    n, nz = dcg_value.size, int(zero.sum())
    if policy == "error" and nz:
        raise NDCGError("idcg_zero_count", n=nz, total=n)
    scores = spec.normalize(dcg_value, idcg_value)
    counted = np.isfinite(scores)
    with np.errstate(over="ignore", invalid="ignore"):
        mean = float(scores[counted].mean()) if counted.any() else math.nan
        total_idcg = float(idcg_value[~zero].sum())
        total_dcg = float(dcg_value[~zero].sum())
    if not all(map(math.isfinite, (total_dcg, total_idcg))) or (counted.any() and not math.isfinite(mean)):
        raise NDCGError("cannot_average", problem=Message("too_large"))
    ratio = total_dcg / total_idcg if total_idcg > 0 else math.nan
    if nz == 0:
        effect = f"No query has IDCG = 0; zero_idcg={policy!r} changed nothing."
    else:
        what = {
            "zero": "scored them 0 and kept them in the mean",
            "one": "scored them 1 and kept them in the mean",
            "skip": "left them out of the mean",
            "error": "",
        }[policy]
        effect = (
            f"{nz} of {n} queries have IDCG = 0 (or below); zero_idcg={policy!r} {what}; "
            "ΣDCG/ΣIDCG leaves them out."
        )
    return Aggregate(n, mean, ratio, nz, policy, int(counted.sum()), effect, total_dcg, total_idcg)


def _one_cutoff(per_query: Any, k: Any) -> tuple[str, str, Spec]:
    """The DCG and IDCG columns of one cutoff of an :func:`evaluate` table, and its spec."""
    names = list(per_query.columns) if isinstance(per_query, pd.DataFrame) else []
    several = [c for c in names if isinstance(c, str) and c.startswith("dcg@") and f"i{c}" in names]
    plain = {"dcg", "idcg"} <= set(names)
    if not several and not plain:
        found = names if isinstance(per_query, pd.DataFrame) else type(per_query).__name__
        raise NDCGError("not_evaluate_table", found=found)
    attrs = per_query.attrs
    if not several:
        spec = attrs.get("spec", Spec())
        if k is not _ONE_TABLE and "spec" in attrs and k != spec.k:
            raise NDCGError("no_such_cutoff", k=repr(k), cutoffs=repr(spec.k))
        return "dcg", "idcg", spec
    cutoffs = attrs.get("cutoffs") or [*([None] if plain else []), *(int(c[4:]) for c in several)]
    shown = ", ".join(map(repr, cutoffs))
    if k is _ONE_TABLE:
        raise NDCGError("which_cutoff", cutoffs=shown, first=repr(cutoffs[0]))
    suffix = _column_suffix(k)
    if (k is None and not plain) or (k is not None and f"dcg{suffix}" not in several):
        raise NDCGError("no_such_cutoff", k=repr(k), cutoffs=shown)
    spec = attrs.get("specs", {}).get(k) or attrs.get("spec", Spec()).with_k(k)
    return f"dcg{suffix}", f"idcg{suffix}", spec

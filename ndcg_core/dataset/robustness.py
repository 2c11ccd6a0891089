"""Does my conclusion depend on the formula? Several runs ranked under every NDCG variant.

A paper says "run B beats run A on NDCG@10". Under which NDCG? :func:`robustness` scores every run
against one qrels under every formula variant (each gain rule x each discount rule x each log base
of :data:`ndcg_core.SCHEMA`, at each cutoff asked) and under every library preset that scores data
sets, and reports:

- each variant's order of the runs by mean NDCG, and Kendall's tau between that order and the
  reference's (the spec given, at the first cutoff) and between every two variants;
- each pair of runs whose winner under some variant is not the reference's winner (a *flip*);
- for a flip, the queries that cause it (:meth:`Robustness.causes`): those whose per-query difference
  between the two runs moved most towards the new winner, most of them changing sign.

With the log discount, the base only scales every divisor, so NDCG (a ratio of two sums with the same
divisors) does not change with it: those variants give the same order, as they must. Kendall's tau
is tau-b (ties counted as neither concordant nor discordant), computed here; it equals
``scipy.stats.kendalltau`` (checked in ``tests/engine/test_robustness.py``), and scipy is not needed.

A closed-form case (one query; run A ranks one grade-3 document first, run B four grade-1 documents;
NDCG@4): linear gain with log2(i + 1) gives A 3/4.56 = 0.658 and B 2.56/4.56 = 0.562; binary gain
gives B 1.0. A wins under the first, B under the second:

>>> import pandas as pd
>>> qrels = pd.DataFrame({"query": "q", "doc": list("xabcd"), "relevance": [3, 1, 1, 1, 1]})
>>> a = pd.DataFrame({"query": "q", "doc": ["x", "n1", "n2", "n3"], "score": [4.0, 3, 2, 1]})
>>> b = pd.DataFrame({"query": "q", "doc": list("abcd"), "score": [4.0, 3, 2, 1]})
>>> r = robustness(qrels, {"A": a, "B": b}, cutoffs=[4], presets=())
>>> row = r.variants.iloc[0]  # the reference: evaluate's default formula, at k = 4
>>> row["variant"], round(float(row["A"]), 4), round(float(row["B"]), 4), row["order"]
("nDCG(ties='docid_desc')@4", 0.6577, 0.5616, 'A > B')
>>> flipped = r.flips[r.flips["variant"] == "nDCG(gain='binary', ties='docid_desc')@4"]
>>> flipped[["run_a", "run_b", "winner"]].values.tolist(), float(flipped["mean_b"].iloc[0])
([['A', 'B', 'B']], 1.0)
>>> r.causes("A", "B", "nDCG(gain='binary', ties='docid_desc')@4")[["query", "sign_flips"]].values.tolist()
[['q', True]]
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ..errors import NDCGError
from ..presets import PRESETS, as_spec
from ..rules import DISCOUNT_RULES, GAIN_RULES
from ..spec import Spec
from ..variants import SCHEMA
from .overlap import NDCGWarning
from .scoring import DATASET_BASE, evaluate

__all__ = ["LOG_BASES", "Robustness", "kendall_tau", "robustness"]

#: The log bases the schema offers (2, e, 10): every variant is tried with each.
LOG_BASES: tuple[float, ...] = tuple(next(o for o in SCHEMA if o.name == "log_base").choices)

#: Two means closer than this are a tie (a difference of float rounding, not of the runs).
TIE = 1e-12


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b between two scorings of the same items (NaN when either has no two distinct
    values): concordant minus discordant pairs, over the geometric mean of the pairs untied in
    each. Equals ``scipy.stats.kendalltau(x, y).statistic``.

    >>> kendall_tau([1, 2, 3, 4], [1, 2, 3, 4]), kendall_tau([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    >>> round(kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]), 4)
    0.6667
    """
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    i, j = np.triu_indices(a.size, k=1)
    da, db = np.sign(a[i] - a[j]), np.sign(b[i] - b[j])
    untied_a, untied_b = np.count_nonzero(da), np.count_nonzero(db)
    if untied_a == 0 or untied_b == 0:
        return math.nan
    return float(np.sum(da * db) / math.sqrt(untied_a * untied_b))


def _order_text(means: Mapping[str, float]) -> str:
    """The runs best first, ``A > B = C`` (equal means share a place; a run without a mean last)."""
    scored = sorted(((m, n) for n, m in means.items() if not math.isnan(m)), key=lambda x: -x[0])
    parts: list[str] = []
    for i, (m, name) in enumerate(scored):
        if i and abs(scored[i - 1][0] - m) <= TIE:
            parts[-1] += f" = {name}"
        else:
            parts.append(name)
    text = " > ".join(parts)
    missing = [n for n, m in means.items() if math.isnan(m)]
    return text + (f" (no mean: {', '.join(missing)})" if missing else "")


@dataclass(frozen=True)
class Robustness:
    """The runs' order under every variant, and where it changes.

    Attributes
    ----------
    runs : tuple of str
        The runs' names, as given.
    reference : str
        The variant the others are compared with (the spec given, at the first cutoff).
    variants : pandas.DataFrame
        One row per variant: ``variant`` (its name), ``kind`` (``"formula"`` or ``"preset"``),
        ``gain``, ``discount``, ``log_base``, ``k`` (a preset's own formula for presets),
        ``preset``, one column per run (its mean NDCG over the queries it scored), ``order`` (the
        runs best first), ``tau`` (Kendall's tau with the reference's order), ``flips`` (pairs of
        runs whose winner differs from the reference's) and ``refused`` (why a preset scores
        nothing here, else empty: such a row has no means).
    tau : pandas.DataFrame
        Kendall's tau between every two variants' orders (variants with means only).
    flips : pandas.DataFrame
        One row per pair of runs and variant where the winner is not the reference's winner:
        ``run_a``, ``run_b`` (``run_a`` wins under the reference), ``variant``, ``mean_a_ref``,
        ``mean_b_ref``, ``mean_a``, ``mean_b``, ``winner`` (the variant's; "tie" when equal).
    per_query : dict
        Each variant's per-query NDCG: a table with a row per query and a column per run.
    specs : dict
        Each scored variant's :class:`~ndcg_core.spec.Spec` (to open a query under it).
    """

    runs: tuple[str, ...]
    reference: str
    variants: pd.DataFrame
    tau: pd.DataFrame
    flips: pd.DataFrame
    per_query: dict[str, pd.DataFrame] = field(repr=False)
    specs: dict[str, Spec] = field(repr=False, default_factory=dict)

    def causes(self, run_a: str, run_b: str, variant: str, n: int = 5) -> pd.DataFrame:
        """The queries behind a flip: those whose difference ``run_a - run_b`` moved most towards the
        winner under ``variant`` (from the reference), largest move first.

        Columns: ``query``, ``diff_ref`` and ``diff`` (``run_a`` minus ``run_b`` per query under the
        reference and under ``variant``), ``change`` (their difference) and ``sign_flips`` (the
        query's winner changed). Only queries both runs scored under both.
        """
        for name in (run_a, run_b):
            if name not in self.runs:
                raise NDCGError("unknown_run", name=repr(name), names=", ".join(map(repr, self.runs)))
        if variant not in self.per_query:
            raise NDCGError("unknown_variant", name=repr(variant))
        ref, var = self.per_query[self.reference], self.per_query[variant]
        both = ref[[run_a, run_b]].dropna().index.intersection(var[[run_a, run_b]].dropna().index)
        diff_ref = ref.loc[both, run_a] - ref.loc[both, run_b]
        diff = var.loc[both, run_a] - var.loc[both, run_b]
        change = diff - diff_ref
        mean_ref = float(diff_ref.mean()) if both.size else 0.0
        toward = -np.sign(mean_ref) if mean_ref != 0 else -np.sign(float(change.sum()) or 1.0)
        out = pd.DataFrame(
            {
                "query": both.astype(str),
                "diff_ref": diff_ref.to_numpy(),
                "diff": diff.to_numpy(),
                "change": change.to_numpy(),
                "sign_flips": (np.sign(diff_ref.to_numpy()) != np.sign(diff.to_numpy())),
            }
        )
        out = out.assign(_push=out["change"] * toward).sort_values("_push", ascending=False, kind="stable")
        return out[out["_push"] > 0].drop(columns="_push").head(n).reset_index(drop=True)


def _formula_specs(base: Spec, cutoffs: Sequence[int | None]) -> list[tuple[str, Spec]]:
    """Every gain x discount x log base at each cutoff, on the base spec's input rules (its preset's
    name dropped: these are not that library's formula any more)."""
    out = []
    plain = replace(base, preset=None)
    for k, gain, discount, base_value in itertools.product(cutoffs, GAIN_RULES, DISCOUNT_RULES, LOG_BASES):
        variant = plain.variant.with_(k=k, gain=gain, discount=discount, log_base=float(base_value))
        spec = replace(plain, variant=variant)
        out.append((spec.name, spec))
    return out


def robustness(
    qrels: pd.DataFrame,
    runs: Mapping[str, pd.DataFrame],
    *,
    cutoffs: Sequence[int | None] = (10,),
    spec: Spec | None = None,
    preset: str | None = None,
    presets: Sequence[str] | None = None,
    threads: int | None = None,
) -> Robustness:
    """Score several runs under every formula variant and library preset; find where their order changes.

    Parameters
    ----------
    qrels : pandas.DataFrame
        Relevance judgements, as for :func:`ndcg_core.evaluate`.
    runs : mapping of str to pandas.DataFrame
        Two runs or more, by name.
    cutoffs : sequence of int or None, default (10,)
        The cutoffs every formula variant is tried at (None: no cutoff). The first is the
        reference's; the presets are scored at it.
    spec, preset : optional
        The reference: a spec, or a preset's name (default: :func:`ndcg_core.evaluate`'s plain
        default, :data:`~ndcg_core.dataset.scoring.DATASET_BASE`). Its input rules (which queries
        count, ties, the ideal) are kept for every formula variant.
    presets : sequence of str, optional
        The library presets to score (default: every one of :data:`ndcg_core.PRESETS`; ``()`` for
        none). A preset that refuses these data (say, fractional grades) gets a row saying why.
    threads : int, optional
        As for :func:`ndcg_core.evaluate`.

    Returns
    -------
    Robustness

    Raises
    ------
    NDCGError
        Fewer than two runs (``runs_count``), no cutoff, or what :func:`ndcg_core.evaluate` refuses
        under the reference.

    Examples
    --------
    See the module's docstring: a closed-form case where run A wins under linear gain and the
    log2(i + 1) discount, and B under binary gain or the Järvelin–Kekäläinen discount.
    """
    names = list(runs)
    if len(names) < 2:
        raise NDCGError("runs_count", n=len(names))
    cutoffs = list(dict.fromkeys(cutoffs))
    if not cutoffs:
        raise NDCGError("no_cutoffs")
    reference_spec = as_spec(spec, preset, base=DATASET_BASE).with_k(cutoffs[0])
    presets = list(PRESETS) if presets is None else list(presets)

    per_query: dict[str, pd.DataFrame] = {}
    specs: dict[str, Spec] = {}
    rows: list[dict] = []

    def scored(spec: Spec) -> pd.DataFrame:
        with warnings.catch_warnings():  # the caller checks the queries once, not once per variant
            warnings.simplefilter("ignore", NDCGWarning)
            columns = {
                name: evaluate(qrels, run, spec=spec, threads=threads).set_index("query")["ndcg"]
                for name, run in runs.items()
            }
        table = pd.DataFrame(columns)
        table.index = table.index.astype(str)
        return table

    reference = f"{reference_spec.name}"
    specs[reference] = reference_spec
    per_query[reference] = scored(reference_spec)
    rows.append(_row(reference, "reference", reference_spec, per_query[reference], names))
    for name, variant_spec in _formula_specs(reference_spec, cutoffs):
        if name in per_query:
            continue
        per_query[name], specs[name] = scored(variant_spec), variant_spec
        rows.append(_row(name, "formula", variant_spec, per_query[name], names))
    for preset_name in presets:
        try:
            preset_spec = as_spec(None, preset_name).with_k(cutoffs[0])
            name = preset_spec.name
            if name in per_query:
                continue
            table = scored(preset_spec)
        except NDCGError as err:
            rows.append(_row(f"{preset_name} (refused)", "preset", None, None, names, refused=str(err)))
            rows[-1]["preset"] = preset_name
            continue
        per_query[name], specs[name] = table, preset_spec
        rows.append(_row(name, "preset", preset_spec, table, names))

    variants = pd.DataFrame(rows)
    ref_means = variants.iloc[0][names].to_numpy(dtype=float)
    scored_rows = variants["refused"] == ""
    variants["tau"] = [
        kendall_tau(ref_means, r[names].to_numpy(dtype=float)) if ok else math.nan
        for (_, r), ok in zip(variants.iterrows(), scored_rows, strict=True)
    ]
    flips = _flips(variants[scored_rows], names)
    counts = flips.groupby("variant").size() if len(flips) else pd.Series(dtype=int)
    variants["flips"] = [int(counts.get(v, 0)) for v in variants["variant"]]
    means = variants.loc[scored_rows, ["variant", *names]].set_index("variant")
    tau = pd.DataFrame(
        [[kendall_tau(means.loc[a].to_numpy(float), means.loc[b].to_numpy(float)) for b in means.index]
         for a in means.index],
        index=means.index,
        columns=means.index,
    )  # fmt: skip
    return Robustness(tuple(names), reference, variants, tau, flips, per_query, specs)


def _row(name: str, kind: str, spec: Spec | None, table, names, refused: str = "") -> dict:
    v = spec.variant if spec is not None else None
    means = {n: (float(np.nanmean(table[n])) if table is not None and table[n].notna().any() else math.nan)
             for n in names}  # fmt: skip
    gain = None if v is None else v.gain if isinstance(v.gain, str) else "table"
    return {
        "variant": name,
        "kind": kind,
        "gain": gain,
        "discount": None if v is None else v.discount,
        "log_base": None if v is None else v.log_base,
        "k": None if v is None else v.k,
        "preset": None if spec is None else spec.preset,
        **means,
        "order": _order_text(means) if spec is not None else "",
        "refused": refused,
    }


def _flips(variants: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """Every pair of runs and variant whose winner is not the reference's (the first row)."""
    ref = variants.iloc[0]
    out = []
    for a, b in itertools.combinations(names, 2):
        ra, rb = float(ref[a]), float(ref[b])
        if math.isnan(ra) or math.isnan(rb) or abs(ra - rb) <= TIE:
            continue  # no winner under the reference: nothing to flip
        first, second = (a, b) if ra > rb else (b, a)
        for _, row in variants.iloc[1:].iterrows():
            fa, fb = float(row[first]), float(row[second])
            if math.isnan(fa) or math.isnan(fb):
                continue
            if fa - fb > TIE:
                continue
            out.append(
                {
                    "run_a": first,
                    "run_b": second,
                    "variant": row["variant"],
                    "mean_a_ref": float(ref[first]),
                    "mean_b_ref": float(ref[second]),
                    "mean_a": fa,
                    "mean_b": fb,
                    "winner": "tie" if abs(fa - fb) <= TIE else second,
                }
            )
    columns = ["run_a", "run_b", "variant", "mean_a_ref", "mean_b_ref", "mean_a", "mean_b", "winner"]
    return pd.DataFrame(out, columns=columns)

"""Several runs against one set of judgements: per-query deltas, win/tie/loss and paired tests.

:func:`compare` scores every run with :func:`ndcg_core.evaluate` under one spec, pairs the runs
query by query, and for every pair of runs computes

- the per-query NDCG of each and their difference, and how many queries each wins, ties or loses;
- a paired t-test (two-sided, :func:`scipy.stats.ttest_rel`);
- Fisher's paired randomization test (two-sided): the differences' signs flipped at random
  ``permutations`` times from ``seed`` (every one of the 2^n sign patterns when that is no
  more), p = (1 + #{|mean of flipped| >= |observed mean|}) / (1 + permutations);
- a correction of both tests' p-values for the number of pairs tested (Holm by default;
  Bonferroni; Benjamini-Hochberg's false discovery rate; or none).

The result's :attr:`RunComparison.table` marks each run's mean, as ranx's ``compare()`` does,
with the letters of the runs it is significantly better than. scipy is needed (``pip install
scipy``; the app's extra brings it): it is imported when :func:`compare` runs, never by
``import ndcg_core``.

>>> import pandas as pd
>>> qrels = pd.DataFrame({"query": ["1", "1", "2", "2", "3"], "doc": ["a", "b", "a", "b", "a"],
...                       "relevance": [1, 0, 1, 0, 1]})
>>> good = pd.DataFrame({"query": ["1", "1", "2", "2", "3"], "doc": ["a", "b", "a", "b", "a"],
...                      "score": [2.0, 1.0, 2.0, 1.0, 1.0]})
>>> bad = good.assign(score=[1.0, 2.0, 1.0, 2.0, 1.0])
>>> result = compare(qrels, {"good": good, "bad": bad}, k=10, permutations=1000)
>>> result.table[["run", "mean", "wins", "ties", "losses"]].round(3)
    run   mean  wins  ties  losses
0  good  1.000     0     3       0
1   bad  0.754     0     1       2
>>> result.deltas.round(3).to_dict()
{'bad': {'1': -0.369, '2': -0.369, '3': 0.0}}
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .dataset.scoring import DATASET_BASE, evaluate
from .errors import NDCGError
from .presets import Preset, as_spec
from .spec import Spec

__all__ = [
    "CORRECTIONS",
    "MAX_EXACT_QUERIES",
    "TESTS",
    "RunComparison",
    "adjust",
    "compare",
    "compare_tables",
    "sign_flip_test",
]

#: The paired tests: which one decides the significance marks.
TESTS: dict[str, str] = {
    "t": "two-sided paired t-test (scipy.stats.ttest_rel)",
    "randomization": "two-sided paired randomization test (Fisher; the signs of the differences flipped)",
}

#: Corrections for testing several pairs of runs at once.
CORRECTIONS: dict[str, str] = {
    "holm": "Holm's step-down: the family-wise error rate, uniformly more powerful than Bonferroni",
    "bonferroni": "Bonferroni: each p-value times the number of pairs (family-wise error rate)",
    "bh": "Benjamini-Hochberg: the false discovery rate (scipy.stats.false_discovery_control)",
    "none": "no correction: each pair as if it were the only one tested",
}

#: With no more queries than this and 2^n <= permutations, every sign pattern is enumerated.
MAX_EXACT_QUERIES = 20

#: ranx's superscript letters (its Report), so the marks read the same.
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_SUPERSCRIPTS = "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖ۹ʳˢᵗᵘᵛʷˣʸᶻ"

#: Sign matrices are drawn in blocks of about this many entries (memory stays bounded).
_BLOCK = 1 << 22


@dataclass(frozen=True)
class RunComparison:
    """What :func:`compare` found.

    Attributes
    ----------
    names : tuple of str
        The runs, in the order given; ``letters`` holds each one's letter (a, b, c, ...).
    baseline : str
        The run the deltas and the table's win/tie/loss are measured against.
    per_query : pandas.DataFrame
        One row per compared query (index ``query``), one column of NDCG per run.
    deltas : pandas.DataFrame
        Each other run's NDCG minus the baseline's, per query (same index).
    pairs : pandas.DataFrame
        One row per pair of runs (``run`` before ``other`` in the given order): ``mean_run``,
        ``mean_other``, ``delta`` (mean of run - other), ``wins``, ``ties``, ``losses`` (queries
        where run is above, equal to, below other), ``t``, ``p_t``, ``p_randomization`` (raw),
        ``p_t_adjusted``, ``p_randomization_adjusted`` (after the correction), ``p`` (the
        chosen test's adjusted p) and ``significant`` (``p <= alpha``).
    table : pandas.DataFrame
        One row per run: ``letter``, ``run``, ``mean``, ``delta`` (against the baseline),
        ``wins``, ``ties``, ``losses`` (against the baseline), ``p`` (adjusted, against the
        baseline; NaN for the baseline), ``better_than`` (letters of the runs it is
        significantly better than) and ``marked`` (the mean with those letters as superscripts,
        as ranx prints it).
    left_out : tuple of str
        Queries some run has no score for (a query that run does not cover under the spec's
        ``queries`` rule, or NaN under ``zero_idcg="skip"``): not compared.
    spec : Spec
        The spec every run was scored with.
    test, correction, alpha, permutations, seed
        The settings used.
    """

    names: tuple[str, ...]
    baseline: str
    per_query: pd.DataFrame
    deltas: pd.DataFrame
    pairs: pd.DataFrame
    table: pd.DataFrame
    left_out: tuple[str, ...]
    spec: Spec
    test: str
    correction: str
    alpha: float
    permutations: int
    seed: int

    @property
    def letters(self) -> dict[str, str]:
        return {name: _LETTERS[i] for i, name in enumerate(self.names)}

    @property
    def n_queries(self) -> int:
        return len(self.per_query)

    def pair(self, run: str, other: str) -> pd.Series:
        """The row of :attr:`pairs` for two runs, in either order, seen from ``run``.

        Seen from the other side, means, deltas and wins/losses swap; p-values stay.
        """
        rows = self.pairs
        hit = rows[(rows["run"] == run) & (rows["other"] == other)]
        if len(hit):
            return hit.iloc[0]
        row = rows[(rows["run"] == other) & (rows["other"] == run)].iloc[0].copy()
        row["run"], row["other"] = run, other
        row["mean_run"], row["mean_other"] = row["mean_other"], row["mean_run"]
        row["delta"], row["t"] = -row["delta"], -row["t"]
        row["wins"], row["losses"] = row["losses"], row["wins"]
        return row

    def to_text(self, digits: int = 3) -> str:
        """The table as ranx prints it: letter, run, mean with superscript marks."""
        label = f"NDCG@{self.spec.k}" if self.spec.k else "NDCG"
        rows = [("#", "Run", label)]
        for _, r in self.table.iterrows():
            rows.append((r["letter"], r["run"], f"{r['mean']:.{digits}f}{_superscript(r['better_than'])}"))
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        lines = [
            "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows
        ]
        lines.insert(1, "  ".join("-" * w for w in widths))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()


def _superscript(letters: str) -> str:
    return "".join(_SUPERSCRIPTS[_LETTERS.index(c)] for c in letters)


def sign_flip_test(differences: np.ndarray, permutations: int = 10_000, seed: int = 0) -> float:
    """Fisher's paired randomization test, two-sided, on per-query differences.

    Under the null hypothesis the two runs are exchangeable on every query, so each difference's
    sign is as likely flipped. The p-value is the share of sign patterns whose mean difference is
    at least as far from 0 as the observed one: with n queries and ``2**n <= permutations``
    (and n up to :data:`MAX_EXACT_QUERIES`) every pattern is counted and the p-value is exact;
    otherwise ``permutations`` patterns are drawn from ``numpy.random.default_rng(seed)`` and
    p = (1 + hits) / (1 + permutations), never 0.

    >>> sign_flip_test(np.array([1.0, 1.0, 1.0]))  # 2 of the 8 patterns are as extreme
    0.25
    """
    d = np.asarray(differences, dtype=float)
    n = d.size
    if n == 0:
        return math.nan
    observed = abs(d.sum())
    if observed == 0.0:
        return 1.0
    slack = observed * 1e-12  # equal sums that differ only in rounding count as "as extreme"
    if n <= MAX_EXACT_QUERIES and 2**n <= permutations:
        patterns = (np.arange(2**n)[:, None] >> np.arange(n)) & 1
        sums = np.abs((1 - 2 * patterns) @ d)
        return float(np.count_nonzero(sums >= observed - slack) / 2**n)
    rng = np.random.default_rng(seed)
    rows = max(1, _BLOCK // n)
    hits, done = 0, 0
    while done < permutations:
        m = min(rows, permutations - done)
        signs = rng.integers(0, 2, size=(m, n), dtype=np.int8) * 2 - 1
        hits += int(np.count_nonzero(np.abs(signs @ d) >= observed - slack))
        done += m
    return (hits + 1) / (permutations + 1)


def _t_test(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Two-sided paired t-test: (t, p). Equal runs give (0, 1); fewer than 2 queries, NaN."""
    from scipy.stats import ttest_rel

    d = a - b
    if d.size < 2:
        return math.nan, math.nan
    if not d.any():
        return 0.0, 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # constant differences: t is infinite
        result = ttest_rel(a, b)
    return float(result.statistic), float(result.pvalue)


def adjust(p_values: np.ndarray, correction: str) -> np.ndarray:
    """p-values corrected for testing them together (NaN stays NaN and is not counted).

    >>> adjust(np.array([0.01, 0.04, 0.03]), "holm").round(3).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    out = np.full_like(p, np.nan)
    ok = ~np.isnan(p)
    q, m = p[ok], int(ok.sum())
    if m == 0:
        return out
    if correction == "none":
        adjusted = q
    elif correction == "bonferroni":
        adjusted = np.minimum(1.0, q * m)
    elif correction == "holm":
        order = np.argsort(q, kind="stable")
        stepped = np.maximum.accumulate(q[order] * (m - np.arange(m)))
        adjusted = np.empty(m)
        adjusted[order] = np.minimum(1.0, stepped)
    elif correction == "bh":
        from scipy.stats import false_discovery_control

        adjusted = false_discovery_control(q, method="bh")
    else:
        raise NDCGError(
            "not_one_of", name="correction", allowed=", ".join(CORRECTIONS), value=repr(correction)
        )
    out[ok] = adjusted
    return out


def compare(
    qrels: pd.DataFrame,
    runs: Mapping[str, pd.DataFrame],
    k: int | None = None,
    *,
    baseline: str | None = None,
    spec: Spec | None = None,
    preset: str | Preset | None = None,
    test: str = "t",
    correction: str = "holm",
    alpha: float = 0.05,
    permutations: int = 10_000,
    seed: int = 0,
    **choices: Any,
) -> RunComparison:
    """Compare runs query by query against one set of judgements.

    Parameters
    ----------
    qrels : pandas.DataFrame
        As for :func:`ndcg_core.evaluate`.
    runs : mapping of name to pandas.DataFrame
        Two or more runs (as for :func:`ndcg_core.evaluate`), by name, in the order to show.
    k, spec, preset, **choices
        The NDCG to compare, exactly as :func:`ndcg_core.evaluate` takes it (``gain=``,
        ``zero_idcg=``, ``queries=``, ``duplicates=``, ...). Every run is scored with the same
        spec.
    baseline : str, optional
        The run the deltas are measured against (default: the first).
    test : {"t", "randomization"}
        Which test's (corrected) p-value decides significance; both are always computed.
    correction : {"holm", "bonferroni", "bh", "none"}
        How the p-values of the n(n-1)/2 pairs are corrected for being tested together.
    alpha : float
        A pair is significant when its corrected p-value is at most ``alpha``.
    permutations : int
        Sign patterns drawn for the randomization test (10,000 by default: a p-value near 0.05
        is then within about ±0.004 of the exact one, one standard error 0.0022).
    seed : int
        Seed of the randomization test's generator: the same seed gives the same p-values.

    Returns
    -------
    RunComparison

    Raises
    ------
    ValueError
        Fewer than two runs, an unknown baseline, test or correction, ``alpha`` outside (0, 1),
        fewer than one permutation, no query scored by every run, or anything
        :func:`ndcg_core.evaluate` refuses (naming the run).
    """
    spec = as_spec(spec, preset, base=DATASET_BASE, k=k, **_choice_names(choices))
    _check_settings(runs, baseline, test, correction, alpha, permutations)
    tables = {}
    for name, run in runs.items():
        try:
            tables[str(name)] = evaluate(qrels, run, spec=spec)
        except NDCGError as err:
            raise NDCGError("in_run", name=repr(str(name)), problem=err) from None
    return compare_tables(
        tables,
        baseline=baseline,
        test=test,
        correction=correction,
        alpha=alpha,
        permutations=permutations,
        seed=seed,
    )


def _check_settings(runs: Mapping, baseline, test, correction, alpha, permutations) -> None:
    try:
        import scipy.stats  # noqa: F401  (the tests need it: say so before scoring anything)
    except ImportError:
        raise ImportError("ndcg_core.compare needs scipy: pip install scipy") from None
    names = [str(name) for name in runs]
    if len(names) < 2:
        raise NDCGError("runs_count", n=len(names))
    if baseline is not None and str(baseline) not in names:
        raise NDCGError("unknown_baseline", name=repr(str(baseline)), names=", ".join(map(repr, names)))
    if test not in TESTS:
        raise NDCGError("not_one_of", name="test", allowed=", ".join(TESTS), value=repr(test))
    if correction not in CORRECTIONS:
        raise NDCGError(
            "not_one_of", name="correction", allowed=", ".join(CORRECTIONS), value=repr(correction)
        )
    if isinstance(alpha, bool) or not (isinstance(alpha, (int, float)) and 0 < alpha < 1):
        raise NDCGError("alpha_range", value=repr(alpha))
    if isinstance(permutations, bool) or not isinstance(permutations, (int, np.integer)) or permutations < 1:
        raise NDCGError("permutations_count", value=repr(permutations))


def compare_tables(
    per_query: Mapping[str, pd.DataFrame],
    *,
    baseline: str | None = None,
    test: str = "t",
    correction: str = "holm",
    alpha: float = 0.05,
    permutations: int = 10_000,
    seed: int = 0,
) -> RunComparison:
    """:func:`compare` on per-query tables already made by :func:`ndcg_core.evaluate`, one per run.

    For a caller that keeps each run's table (the app scores each run once for its own page).
    The tables should come from one spec; the first one's (``.attrs["spec"]``) is reported.
    """
    _check_settings(per_query, baseline, test, correction, alpha, permutations)
    names = [str(name) for name in per_query]
    baseline = names[0] if baseline is None else str(baseline)
    columns = {
        name: pd.Series(table["ndcg"].to_numpy(dtype=float), index=table["query"].astype(str))
        for name, table in zip(names, per_query.values(), strict=True)
    }
    spec = next(iter(per_query.values())).attrs.get("spec", DATASET_BASE)
    values = pd.DataFrame(columns)  # the union of the runs' queries, NaN where a run has no score
    complete = values.notna().all(axis=1)
    left_out = tuple(values.index[~complete])
    values = values[complete]
    values.index.name = "query"
    if values.empty:
        raise NDCGError("no_common_queries", runs=", ".join(map(repr, names)))
    pairs = _pairs(values, names, permutations, seed, correction, test, alpha)
    deltas = values[[n for n in names if n != baseline]].sub(values[baseline], axis=0)
    result = RunComparison(
        names=tuple(names),
        baseline=baseline,
        per_query=values,
        deltas=deltas,
        pairs=pairs,
        table=pd.DataFrame(),
        left_out=left_out,
        spec=spec,
        test=test,
        correction=correction,
        alpha=float(alpha),
        permutations=int(permutations),
        seed=int(seed),
    )
    object.__setattr__(result, "table", _table(result))
    return result


def _choice_names(choices: dict[str, Any]) -> dict[str, Any]:
    """evaluate's keyword ``ideal`` is the spec's ``ideal_source``."""
    out = dict(choices)
    if "ideal" in out:
        out["ideal_source"] = out.pop("ideal")
    return out


def _pairs(
    values: pd.DataFrame,
    names: list[str],
    permutations: int,
    seed: int,
    correction: str,
    test: str,
    alpha: float,
) -> pd.DataFrame:
    rows = []
    for run, other in itertools.combinations(names, 2):
        a, b = values[run].to_numpy(), values[other].to_numpy()
        t, p_t = _t_test(a, b)
        rows.append(
            {
                "run": run,
                "other": other,
                "mean_run": float(a.mean()),
                "mean_other": float(b.mean()),
                "delta": float(a.mean() - b.mean()),
                "wins": int((a > b).sum()),
                "ties": int((a == b).sum()),
                "losses": int((a < b).sum()),
                "t": t,
                "p_t": p_t,
                "p_randomization": sign_flip_test(a - b, permutations, seed),
            }
        )
    pairs = pd.DataFrame(rows)
    pairs["p_t_adjusted"] = adjust(pairs["p_t"].to_numpy(), correction)
    pairs["p_randomization_adjusted"] = adjust(pairs["p_randomization"].to_numpy(), correction)
    pairs["p"] = pairs["p_t_adjusted" if test == "t" else "p_randomization_adjusted"]
    pairs["significant"] = pairs["p"] <= alpha
    return pairs


def _table(result: RunComparison) -> pd.DataFrame:
    letters = result.letters
    rows = []
    for name in result.names:
        better = ""
        for other in result.names:
            if other == name:
                continue
            row = result.pair(name, other)
            if row["significant"] and row["delta"] > 0:
                better += letters[other]
        mean = float(result.per_query[name].mean())
        if name == result.baseline:
            versus = {"delta": 0.0, "wins": 0, "ties": result.n_queries, "losses": 0, "p": math.nan}
        else:
            row = result.pair(name, result.baseline)
            versus = {key: row[key] for key in ("delta", "wins", "ties", "losses", "p")}
        rows.append(
            {
                "letter": letters[name],
                "run": name,
                "mean": mean,
                **versus,
                "better_than": better,
                "marked": f"{mean:.3f}{_superscript(better)}",
            }
        )
    table = pd.DataFrame(rows)
    return table.astype({"wins": int, "ties": int, "losses": int})

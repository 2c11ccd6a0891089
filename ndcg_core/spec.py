"""One resolved Spec: every choice that decides an NDCG number, as one value.

A :class:`Spec` is a :class:`~ndcg_core.variants.Variant` (the formula: k,
gain, discount, log base, IDCG = 0 policy, tie rule) plus the input rules a
library adds around it: where the ideal ordering comes from and how deep it
goes, which grades it accepts or rewrites, the precision it stores scores in,
when IDCG counts as zero, and (for data sets) which queries get a score and
what a duplicated document does. It is frozen and hashable, so it can key a
cache, and it is the only thing that carries formula choices between the
engine (:func:`ndcg_core.ndcg`, :func:`ndcg_core.explain`,
:func:`ndcg_core.evaluate`), the playground state, the comparison view and
the pages.

Build one with :func:`ndcg_core.resolve` (a preset name and/or choices);
each rule is applied here, once, for a single list and for a whole data set.

Examples
--------
>>> from ndcg_core import resolve
>>> spec = resolve("sklearn", k=5)
>>> spec.name
"nDCG(ties='average')@5 as sklearn"
>>> spec.ideal_source, spec.allowed_grades
('retrieved', 'non_negative')
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace

import numpy as np

from .errors import Message, NDCGError
from .variants import Variant

__all__ = [
    "DUPLICATE_RULES",
    "GRADE_RULES",
    "IDEAL_DEPTHS",
    "IDEAL_SOURCES",
    "QUERY_RULES",
    "SCORE_DTYPES",
    "ZERO_TESTS",
    "Spec",
    "pool_extras",
]

#: Where the ideal ordering comes from.
IDEAL_SOURCES: dict[str, str] = {
    "pool": "every judged item of the query, retrieved or not (trec_eval, ranx; the default)",
    "retrieved": "only the retrieved items, unjudged ones as grade 0 (scikit-learn, which sees one row)",
}
#: How many ideal positions IDCG sums.
IDEAL_DEPTHS: dict[str, str] = {
    "k": "k positions (the list's length when there is no cutoff)",
    "pool": "k positions; without a cutoff, the whole judged pool (trec_eval's ndcg, ranx)",
    "retrieved": "never more positions than items retrieved in the top k (Elasticsearch)",
}
#: Grades a library accepts.
GRADE_RULES: dict[str, str] = {
    "any": "any finite number",
    "non_negative": "numbers of at least 0",
    "integer": "whole numbers",
    "non_negative_integer": "whole numbers of at least 0",
}
#: The precision scores are compared at.
SCORE_DTYPES: dict[str, str] = {
    "float64": "scores compared as given (double precision)",
    "float32": "scores rounded to float32 first, so scores equal at that precision tie",
}
#: When IDCG counts as zero, so that the IDCG = 0 policy decides NDCG.
ZERO_TESTS: dict[str, str] = {
    "nonpositive": "IDCG of 0 or below: no item with a positive gain to find (the default)",
    "exact": "IDCG exactly 0 only; a negative IDCG is divided by like any other (torchmetrics)",
}
#: Which queries a data set scores when the run and the qrels disagree.
QUERY_RULES: dict[str, str] = {
    "union": "every query on either side (the default): a query only in the qrels scores as a run "
    "that returned nothing (DCG 0); a query only in the run has IDCG 0 and follows zero_idcg",
    "run": "the queries of the run (qrels-only queries are left out; run-only ones follow zero_idcg)",
    "qrels": "the queries of the qrels (trec_eval -c): run-only queries are left out",
    "both": "only queries present on both sides (trec_eval and pytrec_eval without -c)",
}
#: What a data set does when the run lists a document twice for a query, or the qrels judge it twice.
DUPLICATE_RULES: dict[str, str] = {
    "error": "raise a ValueError naming the query, the document and both rows (the default)",
    "max": "keep the row with the highest score (in the run) or grade (in the qrels)",
}

_CHOICES: dict[str, dict[str, str]] = {
    "ideal_source": IDEAL_SOURCES,
    "ideal_depth": IDEAL_DEPTHS,
    "allowed_grades": GRADE_RULES,
    "score_dtype": SCORE_DTYPES,
    "zero_test": ZERO_TESTS,
    "queries": QUERY_RULES,
    "duplicates": DUPLICATE_RULES,
}


#: Grades checked at a time by :meth:`Spec.check_grades` (a slice of a data set's millions).
_CHECK_SLICE = 1 << 18


@dataclass(frozen=True)
class Spec:
    """Everything that decides an NDCG number: the formula and a library's input rules.

    Parameters
    ----------
    variant : Variant
        The formula: k, gain, discount, log base, IDCG = 0 policy, tie rule.
    preset : str, optional
        The library preset this spec reproduces (a key of
        :data:`ndcg_core.PRESETS`), or None.
    library : str
        The library's short name, used in its refusals ("scikit-learn
        refuses this list: ...").
    ideal_source : {"pool", "retrieved"}
        See :data:`IDEAL_SOURCES`. With ``"retrieved"``, an ``ideal=`` pool
        given to :func:`ndcg_core.ndcg` is ignored, as the library never sees it.
    ideal_depth : {"k", "pool", "retrieved"}
        See :data:`IDEAL_DEPTHS`.
    allowed_grades : {"any", "non_negative", "integer", "non_negative_integer"}
        Grades the library accepts; others raise ``ValueError`` with ``grade_error``.
    max_grade : float, optional
        The largest grade the library accepts.
    grade_error : str
        The library's own rule, shown when it refuses a grade.
    truncate_grades : bool
        The library stores grades as integers, dropping any fraction.
    relevant_from : float, optional
        Grades below this count as not relevant (grade 0).
    drop_negative : bool
        Items with a negative grade are padding: removed before ranking.
    min_items : int
        The fewest items the library scores, with ``min_items_error``.
    unique_labels : bool
        The library keys items by id, so ids must be distinct.
    score_dtype : {"float64", "float32"}
        See :data:`SCORE_DTYPES`.
    zero_test : {"nonpositive", "exact"}
        See :data:`ZERO_TESTS`.
    queries : {"union", "run", "qrels", "both"}
        Data sets only; see :data:`QUERY_RULES`.
    duplicates : {"error", "max"}
        Data sets only; see :data:`DUPLICATE_RULES`.
    """

    variant: Variant = field(default_factory=Variant)
    preset: str | None = None
    library: str = ""
    ideal_source: str = "pool"
    ideal_depth: str = "k"
    allowed_grades: str = "any"
    max_grade: float | None = None
    grade_error: str = ""
    truncate_grades: bool = False
    relevant_from: float | None = None
    drop_negative: bool = False
    min_items: int = 0
    min_items_error: str = ""
    unique_labels: bool = False
    score_dtype: str = "float64"
    zero_test: str = "nonpositive"
    queries: str = "union"
    duplicates: str = "error"

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            raise NDCGError("not_a_variant", value=repr(self.variant))
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                allowed = ", ".join(repr(c) for c in choices)
                raise NDCGError("not_one_of", name=name, allowed=allowed, value=repr(value))

    # ------------------------------------------------------------------ naming

    @property
    def name(self) -> str:
        """The variant's canonical name, plus the preset it reproduces, if any."""
        return self.variant.name + (f" as {self.preset}" if self.preset else "")

    def __str__(self) -> str:
        return self.name

    @property
    def k(self) -> int | None:
        return self.variant.k

    def with_k(self, k: int | None) -> Spec:
        """The same spec with another cutoff."""
        return replace(self, variant=self.variant.with_(k=k))

    # ------------------------------------------------------------------ grades

    def refusal(
        self, why: Message, what: Message | str | None = None, fix: Message | None = None
    ) -> NDCGError:
        """The error a library raises when it refuses its input (default: "this list"), stating its rule
        and, when given, what the caller can do about it."""
        values = {
            "library": self.library or Message("this_preset"),
            "what": Message("this_list") if what is None else what,
            "why": why,
        }
        if fix is not None:
            return NDCGError("library_refuses_fix", **values, fix=fix)
        return NDCGError("library_refuses", **values)

    def check_grades(
        self,
        grades: np.ndarray,
        where: Callable[[int], Message],
        what: Message | str | None = None,
        fix: Message | None = None,
    ) -> None:
        """Refuse grades the library does not accept; ``where(i)`` says where element ``i`` is."""
        rule = self.allowed_grades
        if rule == "any" and self.max_grade is None:
            return
        # In slices: a data set's millions of grades are checked without a temporary their size.
        for start in range(0, grades.size, _CHECK_SLICE):
            part = grades[start : start + _CHECK_SLICE]
            bad = np.zeros(part.size, dtype=bool)
            if rule in {"non_negative", "non_negative_integer"}:
                bad |= part < 0
            if rule in {"integer", "non_negative_integer"}:
                bad |= part != np.floor(part)
            if self.max_grade is not None:
                bad |= part > self.max_grade
            if self.drop_negative:
                bad &= part >= 0  # negative grades are padding, not refused
            if bad.any():
                i = start + int(np.flatnonzero(bad)[0])
                why = Message("grade_refused", rule=self.grade_error, g=f"{grades[i]:g}", where=where(i))
                raise self.refusal(why, what, fix)

    def rewrite_grades(self, grades: np.ndarray) -> np.ndarray:
        """Grades as the library stores them (truncated, below ``relevant_from`` as 0).

        ``grades`` itself when that changes none of them (never written to: a copy otherwise).
        """
        if self.truncate_grades:
            out = np.trunc(grades)
        elif self.relevant_from is None or grades.size == 0 or grades.min() >= self.relevant_from:
            return grades
        else:
            out = grades.copy()
        if self.relevant_from is not None:
            out[out < self.relevant_from] = 0.0
        return out

    def prepare(
        self,
        grades: np.ndarray,
        ideal: np.ndarray | None,
        scores: np.ndarray | None,
        labels: list[str] | None,
    ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None, list[str] | None]:
        """Apply the input rules to one checked list, as the library would see it.

        Returns ``(grades, ideal, scores, labels)``; ``ideal`` is None when the
        ideal ordering comes from the list itself.

        Raises
        ------
        ValueError
            When the library refuses the input; the message states its rule.
        """
        if self.drop_negative:
            keep = grades >= 0
            if labels is None:
                labels = [f"D{i}" for i in range(1, grades.size + 1)]
            labels = [name for name, kept in zip(labels, keep, strict=True) if kept]
            grades = grades[keep]
            scores = None if scores is None else scores[keep]
            ideal = None if ideal is None else ideal[ideal >= 0]
        if grades.size < self.min_items:
            raise self.refusal(Message("too_few_items", rule=self.min_items_error, n=grades.size))
        self.check_grades(grades, lambda i: Message("at_position", n=i + 1))
        if self.unique_labels and labels is not None:
            dupes = sorted(name for name, count in Counter(labels).items() if count > 1)
            if dupes:
                raise self.refusal(Message("ids_repeat", ids=", ".join(dupes[:3])))
        grades = self.rewrite_grades(grades)
        if self.score_dtype == "float32" and scores is not None:
            scores = scores.astype(np.float32).astype(float)
        if self.ideal_source == "retrieved" or ideal is None:
            return grades, None, scores, labels
        self.check_grades(ideal, lambda i: Message("at_position_of_ideal", n=i + 1))
        ideal = self.rewrite_grades(ideal)
        pool_extras(grades, ideal)  # raises if the pool misses a retrieved relevant grade
        return grades, ideal, scores, labels

    # ------------------------------------------------------------------ IDCG = 0

    def undefined(self, idcg: np.ndarray) -> np.ndarray:
        """Where IDCG counts as zero, so that the ``zero_idcg`` policy decides NDCG."""
        idcg = np.asarray(idcg, dtype=float)
        return idcg == 0 if self.zero_test == "exact" else ~(idcg > 0)

    def normalize(self, dcg: np.ndarray, idcg: np.ndarray) -> np.ndarray:
        """NDCG = DCG / IDCG where IDCG counts, the ``zero_idcg`` policy elsewhere.

        Under ``zero_idcg="error"`` the undefined entries come back as NaN: the
        caller raises, naming the list or the queries.
        """
        dcg = np.asarray(dcg, dtype=float)
        idcg = np.asarray(idcg, dtype=float)
        undefined = self.undefined(idcg)
        out = np.divide(dcg, idcg, out=np.zeros_like(dcg), where=~undefined)
        out[undefined] = ZERO_IDCG_VALUES[self.variant.zero_idcg]
        return out


#: The NDCG each IDCG = 0 policy gives (``"error"`` raises; NaN stands in until it does).
ZERO_IDCG_VALUES: dict[str, float] = {"zero": 0.0, "one": 1.0, "skip": math.nan, "error": math.nan}

#: The fields of :class:`Spec` other than the variant and the preset's name: the input rules.
RULE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Spec) if f.name not in {"variant", "preset"})


def pool_extras(grades: np.ndarray, ideal: np.ndarray) -> list[float]:
    """Grades of judged items that were not retrieved: the pool minus the list, best first.

    Raises ``ValueError`` when the pool lacks a relevant grade of the list:
    a pool is every judged item, retrieved ones included.

    >>> pool_extras(np.array([1.0, 0.0]), np.array([1.0, 1.0, 2.0]))
    [2.0, 1.0]
    """
    pool = Counter(float(x) for x in ideal)
    for g in grades:
        if pool[float(g)] > 0:
            pool[float(g)] -= 1
        elif g != 0:
            raise NDCGError("ideal_lacks_grade", g=f"{g:g}")
    return sorted(pool.elements(), reverse=True)

"""Several rankings of the same judged items, side by side.

A :class:`Comparison` holds the judged items once (label and grade; labels
must be unique so a ranking can name them) and each ranking as an order of
labels. A ranking may leave judged items out: they still count in the ideal
ordering, which always sorts every judged item.

>>> c = Comparison(
...     judged=(("A", 0.5), ("B", 0.9), ("C", 0.3), ("D", 0.6), ("E", 0.1)),
...     rankings=(("ABCDE", tuple("ABCDE")), ("DAECB", tuple("DAECB"))),
... )
>>> result = compare(c)
>>> result.winner, [round(v, 3) for v in result.values.values()]
('ABCDE', [0.893, 0.851])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import pandas as pd

from ..errors import NDCGError
from ..explanation import Explanation, explain
from ..i18n import N_
from ..lists import read_list
from ..spec import Spec
from ..variants import Variant
from .examples import EXAMPLES, WorkedExample

__all__ = [
    "COMPARISON_PRESETS",
    "Comparison",
    "ComparisonResult",
    "RankingsForm",
    "compare",
    "comparison_from_group",
    "parse_ranking",
    "playground_comparison",
]

MAX_RANKINGS = 4


@dataclass(frozen=True)
class Comparison:
    """Judged items (label, grade), named rankings (orders of labels) and one spec."""

    judged: tuple[tuple[str, float], ...]
    rankings: tuple[tuple[str, tuple[str, ...]], ...]
    spec: Spec = field(default_factory=Spec)

    @property
    def variant(self) -> Variant:
        return self.spec.variant

    def __post_init__(self) -> None:
        labels = [label for label, _ in self.judged]
        seen: set[str] = set()
        for n, label in enumerate(labels, start=1):
            if label in seen:
                raise NDCGError("label_repeats", n=n, label=repr(label))
            seen.add(label)
        if not 1 <= len(self.rankings) <= MAX_RANKINGS:
            raise NDCGError("rankings_count", max=MAX_RANKINGS, n=len(self.rankings))
        for name, order in self.rankings:
            unknown = [x for x in order if x not in seen]
            if unknown:
                raise NDCGError("ranking_unknown_item", name=repr(name), item=repr(unknown[0]))
            repeated = sorted({x for x in order if order.count(x) > 1})
            if repeated:
                raise NDCGError("ranking_repeats_item", name=repr(name), item=repr(repeated[0]))


@dataclass(frozen=True)
class ComparisonResult:
    """Each ranking's explanation, its NDCG, the winner and a per-position table."""

    explanations: dict[str, Explanation]
    values: dict[str, float]
    winner: str
    positions: pd.DataFrame


def parse_ranking(text: str, judged: Mapping[str, float] | list[str]) -> tuple[str, ...]:
    """Read a ranking typed as labels separated by commas (or spaces, or nothing for 1-letter labels).

    >>> parse_ranking("D, A, E", ["A", "D", "E"])
    ('D', 'A', 'E')
    >>> parse_ranking("DAE", ["A", "D", "E"])
    ('D', 'A', 'E')
    >>> parse_ranking("D, X", ["A", "D"])
    Traceback (most recent call last):
    ...
    ndcg_core.errors.NDCGError: position 2 names 'X', which is not a judged item (judged: A, D)
    """
    known = list(judged)
    text = text.strip()
    if not text:
        return ()
    if "," in text or ";" in text or "\n" in text:
        parts = [entry.text for entry in read_list(text, ",;\n", skip_empty=True)]
    elif text in known:
        parts = [text]
    elif " " in text:
        parts = text.split()
    elif all(ch in known for ch in text):
        parts = list(text)
    else:
        parts = [text]
    for n, part in enumerate(parts, start=1):
        if part not in known:
            shown = ", ".join(known[:12]) + (", ..." if len(known) > 12 else "")
            raise NDCGError("position_unknown_item", n=n, item=repr(part), judged=shown)
    return tuple(parts)


def _winner(values: Mapping[str, float]) -> str:
    finite = {k: v for k, v in values.items() if v == v}
    if not finite:
        return ""
    best = max(finite.values())
    leaders = [k for k, v in finite.items() if abs(v - best) <= 1e-12]
    return leaders[0] if len(leaders) == 1 else " = ".join(leaders)


def compare(c: Comparison) -> ComparisonResult:
    """Explain every ranking against the ideal ordering of all judged items."""
    grade = dict(c.judged)
    pool = [g for _, g in c.judged]
    pool_labels = [label for label, _ in c.judged]
    explanations = {
        name: explain(
            [grade[x] for x in order],
            labels=list(order),
            ideal=pool,
            ideal_labels=pool_labels,
            spec=c.spec,
        )
        for name, order in c.rankings
    }
    values = {name: e.ndcg for name, e in explanations.items()}
    depth = max((len(e.steps) for e in explanations.values()), default=0)
    table = pd.DataFrame({"Position": range(1, depth + 1)})
    for name, e in explanations.items():
        s = e.steps.set_index("Position")
        table[f"{name}: item"] = table["Position"].map(s["Item"]).fillna("")
        table[f"{name}: discounted gain"] = table["Position"].map(s["Discounted gain"]).fillna(0.0)
    names = list(explanations)
    if len(names) >= 2:
        table[f"{names[1]} - {names[0]}"] = (
            table[f"{names[1]}: discounted gain"] - table[f"{names[0]}: discounted gain"]
        )
    k = next(iter(explanations.values())).k if explanations else 0
    table["Beyond k"] = table["Position"] > k
    return ComparisonResult(explanations, values, _winner(values), table)


#: Explore shows two rankings at least; each is called by its letter until the reader names it.
MIN_RANKINGS = 2
RANKING_NAMES = ("A", "B", "C", "D")


@dataclass(frozen=True)
class RankingsForm:
    """Explore's form as the reader left it: the judged items (label, grade), and each ranking's name
    and order as typed ("" for a name left empty: the ranking's letter is its name).

    Pure: the page's widgets show a form, a click makes a new one (:meth:`add_ranking`,
    :meth:`remove_ranking`), and :meth:`comparison` says what the form compares, or what stops it.

    >>> form = RankingsForm.of(comparison_from_group("items"))
    >>> form.names, form.add_ranking().rankings[-1]
    (('ABCDE', 'DAECB'), ('C', 'A, B, C, D, E'))
    >>> form.remove_ranking() == form  # two at least
    True
    >>> typed = RankingsForm(form.judged, (form.rankings[0], ("", "B, Z")))  # B's name cleared
    >>> c, problems = typed.comparison(Spec())
    >>> c, [(name, err.code) for name, err in problems]
    (None, [('B', 'position_unknown_item')])
    """

    judged: tuple[tuple[str, float], ...]
    rankings: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, c: Comparison) -> RankingsForm:
        """The form that shows comparison ``c``."""
        return cls(c.judged, tuple((name, ", ".join(order)) for name, order in c.rankings))

    @property
    def names(self) -> tuple[str, ...]:
        """Each ranking's name: as typed, or its letter."""
        return tuple(name or RANKING_NAMES[n] for n, (name, _) in enumerate(self.rankings))

    def add_ranking(self) -> RankingsForm:
        """One ranking more (up to :data:`MAX_RANKINGS`), named by its letter, listing every judged
        item in the judged order, for the reader to reorder."""
        if len(self.rankings) >= MAX_RANKINGS:
            return self
        order = ", ".join(label for label, _ in self.judged)
        return replace(self, rankings=(*self.rankings, (RANKING_NAMES[len(self.rankings)], order)))

    def remove_ranking(self) -> RankingsForm:
        """The last ranking taken away (down to :data:`MIN_RANKINGS`)."""
        return self if len(self.rankings) <= MIN_RANKINGS else replace(self, rankings=self.rankings[:-1])

    def comparison(self, spec: Spec) -> tuple[Comparison | None, list[tuple[str, NDCGError]]]:
        """What the form compares under ``spec``, or None and every problem that stops it: (the
        ranking's name, or "" for the whole form; the coded error)."""
        labels = [label for label, _ in self.judged]
        rankings, problems = [], []
        for name, (_, text) in zip(self.names, self.rankings, strict=True):
            try:
                rankings.append((name, parse_ranking(text, labels)))
            except NDCGError as err:
                problems.append((name, err))
        repeated = sorted({name for name in self.names if self.names.count(name) > 1})
        if repeated:
            problems.append(("", NDCGError("ranking_names_repeat", name=repr(repeated[0]))))
        if problems:
            return None, problems
        try:
            return Comparison(self.judged, tuple(rankings), spec), []
        except NDCGError as err:
            return None, [("", err)]


def playground_comparison(
    items: Sequence[tuple[str, float]], pool: Sequence[tuple[str, float]], names: tuple[str, str]
) -> Comparison:
    """A playground list (label, grade) against its own ideal order, judged with its pool of items
    not retrieved; ``names``: the two rankings'. Raises ``NDCGError("label_repeats")`` when a label
    repeats (a ranking could not name its items)."""
    ideal = sorted(items, key=lambda item: -item[1])
    return Comparison(
        judged=tuple((label, float(grade)) for label, grade in (*items, *pool)),
        rankings=(
            (names[0], tuple(label for label, _ in items)),
            (names[1], tuple(label for label, _ in ideal)),
        ),
    )


def _labels(ex: WorkedExample) -> tuple[str, ...]:
    return tuple(ex.labels) if ex.labels else tuple(f"D{i}" for i in range(1, len(ex.grades) + 1))


def comparison_from_group(group: str) -> Comparison:
    """The worked examples of one group (e.g. seed 002's two lists) as a comparison."""
    members = [e for e in EXAMPLES if e.group == group]
    if not members:
        raise NDCGError("no_example_group", group=repr(group))
    first = members[0]
    if first.pool is not None:
        judged = tuple(zip(first.pool_labels or (), map(float, first.pool), strict=True))
    else:
        judged = tuple(zip(_labels(first), map(float, first.grades), strict=True))
    rankings = tuple((_short(e), _labels(e)) for e in members)
    return Comparison(judged=judged, rankings=rankings, spec=Spec(first.variant))


def _short(ex: WorkedExample) -> str:
    return ex.key.rsplit("-", 1)[-1].upper()


COMPARISON_PRESETS: dict[str, tuple[str, str]] = {
    "items": (N_("NDCG note: A,B,C,D,E against D,A,E,C,B"), "items"),
    "shop-binary": (N_("Shop article: lists A and B, bought or not"), "shop-binary"),
    "shop-graded": (N_("Shop article: lists A and B, graded by quantity (the winner flips)"), "shop-graded"),
}

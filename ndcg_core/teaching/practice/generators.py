"""The exercise generators: :func:`make_exercise` builds exercise number ``n`` of a seed.

The same arguments always give the same exercise, so a share link (``seed=``, ``ex=``) hands out a set.

>>> ex = make_exercise(7, 1, kind="metric", level=1)
>>> ex.kind, ex.level, ex.answer_type
('metric', 1, 'number')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from ...errors import NDCGError
from ...i18n import N_, _, ngettext, separator
from ...metrics import ndcg
from ...presets import PRESETS
from ...rules import DISCOUNT_RULES, GAIN_RULES
from ...variants import Variant
from .hints import library_rules
from .model import (
    _CELLS,
    _CLEAR_GAP,
    _TIES_TEXT,
    _TOTALS,
    KINDS,
    LEVELS,
    QUANTITIES,
    Candidate,
    Exercise,
    Question,
    formula_parts,
    ndcg_under,
)


def _rng(seed: int, number: int, kind: str, level: int) -> random.Random:
    return random.Random(f"ndcg-practice:{seed}:{number}:{kind}:{level}")


def kind_for(seed: int, number: int) -> str:
    """The kind of exercise ``number`` in a mixed set: fixed by the seed."""
    return random.Random(f"ndcg-practice-kind:{seed}:{number}").choice(list(KINDS))


def _grades(rng: random.Random, level: int, n: int | None = None) -> list[float]:
    """A list with at least one relevant item and not all items alike."""
    if n is None:
        n = rng.randint(3, 5) if level == 1 else rng.randint(5, 8)
    top = 1 if level == 1 else 3
    while True:
        grades = [float(rng.randint(0, top)) for _n in range(n)]
        if any(grades) and len(set(grades)) > 1:
            return grades


def _formula(rng: random.Random, level: int, n: int) -> Variant:
    """Level 1: the default formula; level 2: any gain rule and a cutoff; level 3: any discount too."""
    if level == 1:
        return Variant()
    k = rng.choice([None, rng.randint(3, n - 1)])
    gain = rng.choice([name for name, rule in GAIN_RULES.items() if rule.drawn])
    if level == 2:
        return Variant(k=k, gain=gain)
    return Variant(k=k, gain=gain, discount=rng.choice(list(DISCOUNT_RULES)))


def _pool(rng: random.Random, level: int, grades: list[float]) -> list[float] | None:
    """Level 3 sometimes adds judged items the ranking did not retrieve."""
    if level < 3 or rng.random() < 0.4:
        return None
    return grades + [float(rng.randint(1, 3)) for _n in range(rng.randint(1, 2))]


def _labels(n: int, prefix: str = "D") -> tuple[str, ...]:
    return tuple(f"{prefix}{i}" for i in range(1, n + 1))


def _list_text(labels: Sequence[str], grades: Sequence[float]) -> str:
    return ", ".join(f"{lab} ({g:g})" for lab, g in zip(labels, grades, strict=True))


def _pool_parts(grades: list[float], pool: list[float] | None) -> tuple[tuple[str, ...], str]:
    """Labels for the judged pool, and a sentence about the unretrieved items."""
    if pool is None:
        return _labels(len(grades)), ""
    extra = pool[len(grades) :]
    names = tuple(f"J{i}" for i in range(1, len(extra) + 1))
    text = " " + ngettext(
        "The ranking missed {n} judged item, {items}: it counts in the ideal ordering.",
        "The ranking missed {n} judged items, {items}: they count in the ideal ordering.",
        len(extra),
    ).format(n=len(extra), items=_list_text(names, extra))
    return _labels(len(grades)) + names, text


def _exercise_cell(rng: random.Random, base: dict, level: int) -> Exercise:
    grades = _grades(rng, level)
    f = _formula(rng, level, len(grades))
    cut = f.k or len(grades)
    quantity = rng.choice(_CELLS)
    positions = [p for p in range(2, cut + 1) if grades[p - 1] > 0] or list(range(2, cut + 1))
    if quantity == "gain":
        positions = [p for p in range(1, len(grades) + 1) if grades[p - 1] > 0]
    position = rng.choice(positions)
    q = Question(tuple(grades), f, quantity, position=position)
    labels = _labels(len(grades))
    prompt = _("What is {quantity} at position {position} ({label})?").format(
        quantity=_(QUANTITIES[quantity]), position=position, label=labels[position - 1]
    )
    return Exercise(**base, prompt=prompt, grades=tuple(grades), labels=labels, formula=f, question=q)


def _exercise_metric(rng: random.Random, base: dict, level: int) -> Exercise:
    grades = _grades(rng, level)
    f = _formula(rng, level, len(grades))
    if level == 3 and rng.random() < 0.4:
        quantity = rng.choice(["dcg", "ndcg"])  # IDCG does not depend on the scores
        return _exercise_metric_scored(
            rng, base, grades, replace(f, ties=rng.choice(list(_TIES_TEXT))), quantity
        )
    pool = _pool(rng, level, grades)
    quantity = rng.choice(["dcg", "ndcg"] if level == 1 else list(_TOTALS))
    q = Question(tuple(grades), f, quantity, ideal=None if pool is None else tuple(pool))
    labels = _labels(len(grades))
    pool_labels, pool_text = _pool_parts(grades, pool)
    cut = "" if f.k is None else f"@{f.k}"
    prompt = _("What is {quantity}{cut} of this ranking?").format(quantity=_(QUANTITIES[quantity]), cut=cut)
    prompt += pool_text
    return Exercise(
        **base,
        prompt=prompt,
        grades=tuple(grades),
        labels=labels,
        formula=f,
        ideal=q.ideal,
        ideal_labels=pool_labels if pool is not None else None,
        question=q,
    )


def _exercise_metric_scored(
    rng: random.Random, base: dict, grades: list[float], f: Variant, quantity: str
) -> Exercise:
    """Level 3: the items carry model scores, some tied; the tie rule matters to the answer."""
    other = replace(f, ties="stable" if f.ties == "average" else "average")
    for _n in range(500):  # almost always a few tries
        scores = [rng.choice([0.9, 0.7, 0.7, 0.4, 0.4, 0.1]) for _n in grades]
        q = Question(tuple(grades), f, quantity, scores=tuple(scores))
        if round(q.value(), 3) != round(q.value(other), 3):
            break
        rng.shuffle(grades)
    cut = "" if f.k is None else f"@{f.k}"
    prompt = _("A model scored these items; some scores are tied. What is {quantity}{cut}?").format(
        quantity=_(QUANTITIES[quantity]), cut=cut
    )
    return Exercise(
        **base,
        prompt=prompt,
        grades=tuple(grades),
        labels=_labels(len(grades)),
        formula=f,
        scores=q.scores,
        question=q,
    )


def _exercise_drag(rng: random.Random, base: dict, level: int) -> Exercise:
    while True:
        grades = _grades(rng, level)
        f = _formula(rng, level, len(grades))
        best = ndcg_under(f, sorted(grades, reverse=True))
        worst = ndcg_under(f, sorted(grades))
        if best - worst > 0.05:
            break
    goal = {1: "highest", 2: rng.choice(["highest", "lowest"]), 3: "target"}[level]
    target = None
    if goal == "target":
        for _n in range(50):
            trial = grades[:]
            rng.shuffle(trial)
            target = round(ndcg_under(f, trial), 2)
            if worst + 0.02 < target < best - 0.02:
                break
    order = list(range(len(grades)))
    labels = _labels(len(grades))
    for _n in range(50):
        rng.shuffle(order)
        start = [grades[i] for i in order]
        if not _order_reaches(ndcg_under(f, start), goal, target, best, worst):
            break
    if goal == "target":
        prompt = _(
            "Drag the items into an order that gives an NDCG within ±0.01 of {target}. "
            "Each item shows its grade."
        ).format(target=f"{target:.2f}")
    elif goal == "highest":
        prompt = _(
            "Drag the items into an order that gives the highest NDCG possible. Each item shows its grade."
        )
    else:
        prompt = _(
            "Drag the items into an order that gives the lowest NDCG possible. Each item shows its grade."
        )
    return Exercise(
        **base,
        prompt=prompt,
        grades=tuple(grades[i] for i in order),
        labels=tuple(labels[i] for i in order),
        formula=f,
        goal=goal,
        target=target,
        values=(("best", best), ("worst", worst)),
    )


def _order_reaches(value: float, goal: str, target: float | None, best: float, worst: float) -> bool:
    if goal == "highest":
        return value >= best - 1e-9
    if goal == "lowest":
        return value <= worst + 1e-9
    return abs(value - target) <= 0.01 + 1e-9


#: The answers of "which ranking wins", by name (the name is what a stored answer says).
WINNER_CHOICES: dict[str, str] = {
    "a_both": N_("A wins under both formulas"),
    "b_both": N_("B wins under both formulas"),
    "a_then_b": N_("A wins under the first formula, B under the second: the winner flips"),
    "b_then_a": N_("B wins under the first formula, A under the second: the winner flips"),
}


def _others(rules, chosen: str) -> list[str]:
    return [name for name in rules if name != chosen]


def _winner_formulas(rng: random.Random, level: int, n: int) -> tuple[Variant, Variant]:
    """Two formulas that differ in one choice: the cutoff (level 1), the gain rule (level 2), or
    the discount, the gain or the cutoff (level 3)."""
    if level == 1:
        return Variant(), Variant(k=rng.randint(2, n - 1))
    if level == 2:
        first = Variant()
        return first, first.with_(gain=rng.choice(_others(GAIN_RULES, first.gain)))
    first = _formula(rng, 3, n)
    changes = [
        {"discount": rng.choice(_others(DISCOUNT_RULES, first.discount))},
        {"gain": rng.choice(_others(GAIN_RULES, first.gain))},
        {"k": rng.randint(2, n - 1) if first.k is None else None},
    ]
    return first, first.with_(**rng.choice(changes))


def _exercise_winner(rng: random.Random, base: dict, level: int) -> Exercise:
    want_flip = rng.random() < 0.5
    fallback = None
    for _n in range(200):
        grades = _grades(rng, level)
        names = _labels(len(grades))
        order_a, order_b = (
            rng.sample(range(len(grades)), len(grades)),
            rng.sample(range(len(grades)), len(grades)),
        )
        a, b = [grades[i] for i in order_a], [grades[i] for i in order_b]
        first, second = _winner_formulas(rng, level, len(grades))
        v = [(ndcg_under(first, a), ndcg_under(first, b)), (ndcg_under(second, a), ndcg_under(second, b))]
        if any(abs(x - y) < _CLEAR_GAP for x, y in v):
            continue
        a_first, a_second = v[0][0] > v[0][1], v[1][0] > v[1][1]
        answer = {(True, True): "a_both", (False, False): "b_both", (True, False): "a_then_b"}.get(
            (a_first, a_second), "b_then_a"
        )
        fallback = (a, b, [names[i] for i in order_a], [names[i] for i in order_b], first, second, answer, v)
        if (a_first != a_second) == want_flip:
            break
    a, b, labels, other_labels, first, second, answer, v = fallback
    prompt = _(
        "Two rankings of the same items. Which one has the higher NDCG under the first formula, "
        "and under the second?"
    )
    return Exercise(
        **base,
        prompt=prompt,
        grades=tuple(a),
        labels=tuple(labels),
        formula=first,
        other=tuple(b),
        other_labels=tuple(other_labels),
        alt_formula=second,
        choices=tuple(_(text) for text in WINNER_CHOICES.values()),
        answer_choice=list(WINNER_CHOICES).index(answer),
        choice_names=tuple(WINNER_CHOICES),
        values=(
            ("A, first formula", v[0][0]),
            ("B, first formula", v[0][1]),
            ("A, second formula", v[1][0]),
            ("B, second formula", v[1][1]),
        ),
    )


def _formula_candidates(level: int, n: int, rng: random.Random, has_pool: bool) -> list[Candidate]:
    """The formulas a "which formula" exercise offers: every discount rule, with and without a
    cutoff, under the default gain (level 1) or every gain rule (levels 2 and 3), with and without
    the judged pool as the ideal when there is one."""
    k = rng.randint(2, n - 1)
    gains = [name for name, rule in GAIN_RULES.items() if rule.drawn] if level >= 2 else [Variant().gain]
    pools = [True, False] if has_pool else [True]
    out = []
    for gain in gains:
        for discount in DISCOUNT_RULES:
            for cut in (None, k):
                for from_pool in pools:
                    formula = Variant(k=cut, gain=gain, discount=discount)
                    parts = formula_parts(formula)
                    if has_pool:
                        parts.append(
                            _("ideal from all judged items") if from_pool else _("ideal from the list only")
                        )
                    out.append(Candidate(separator("; ").join(parts), formula, from_pool))
    return out


def _exercise_formula(rng: random.Random, base: dict, level: int) -> Exercise:
    while True:
        grades = _grades(rng, level)
        pool = _pool(rng, level, grades) if level == 3 else None
        candidates = _formula_candidates(level, len(grades), rng, pool is not None)
        rng.shuffle(candidates)
        shown, seen = [], set()
        for c in candidates:
            value = round(ndcg_under(c.formula, grades, pool if c.from_pool else None), 3)
            if value not in seen:
                seen.add(value)
                shown.append((c, value))
            if len(shown) == 4:
                break
        if len(shown) >= 3:
            break
    answer = rng.randrange(len(shown))
    printed = shown[answer][1]
    labels = _labels(len(grades))
    pool_labels, pool_text = _pool_parts(grades, pool)
    prompt = _("A report prints NDCG = {printed} for this ranking. Which formula produced it?").format(
        printed=f"{printed:.3f}"
    )
    prompt += pool_text
    return Exercise(
        **base,
        prompt=prompt,
        grades=tuple(grades),
        labels=labels,
        formula=shown[answer][0].formula,
        ideal=None if pool is None else tuple(pool),
        ideal_labels=pool_labels if pool is not None else None,
        choices=tuple(c.text for c, _v in shown),
        answer_choice=answer,
        choice_names=tuple(c.name for c, _v in shown),
        target=printed,
        values=tuple((c.text, v) for c, v in shown),
        candidates=tuple(replace(c, value=v) for c, v in shown),
    )


#: Presets offered in "which library" exercises: four different tie rules.
LIBRARY_CHOICES = ("sklearn", "sklearn-ignore-ties", "trec_eval", "xgboost")


def _exercise_library(rng: random.Random, base: dict, level: int) -> Exercise:
    while True:
        grades = _grades(rng, level)
        n = len(grades)
        # Ids in a shuffled order, so "by id, descending" differs from the input order.
        ids = rng.sample(range(1, 10 * n), n)
        labels = tuple(f"d{i}" for i in ids)
        levels = [0.9, 0.5, 0.5, 0.2] if level == 1 else [0.9, 0.7, 0.7, 0.4, 0.4, 0.1]
        scores = [rng.choice(levels) for _n in range(n)]
        if len(set(scores)) == n:
            continue
        k = rng.randint(2, n - 1) if level == 3 and rng.random() < 0.5 else None
        values = []
        for name in LIBRARY_CHOICES:
            try:
                values.append(
                    (name, round(ndcg(grades, k, scores=scores, labels=list(labels), preset=name), 3))
                )
            except ValueError:
                continue
        distinct = {v for _p, v in values}
        if len(distinct) == len(values) >= 3:
            break
    answer = rng.randrange(len(values))
    name, printed = values[answer]
    cut = "" if k is None else f"@{k}"
    prompt = _(
        "A model scored these items; some scores are tied, and each library ranks tied items its own "
        "way ({rules}). Which library reports NDCG{cut} = {printed} for them?"
    ).format(cut=cut, printed=f"{printed:.3f}", rules=library_rules((p for p, _v in values), Variant(k=k)))
    return Exercise(
        **base,
        prompt=prompt,
        grades=tuple(grades),
        labels=labels,
        formula=Variant(k=k),
        scores=tuple(scores),
        choices=tuple(_(PRESETS[p].library) for p, _v in values),
        answer_choice=answer,
        choice_names=tuple(p for p, _v in values),
        target=printed,
        values=tuple(values),
    )


_MAKERS = {
    "cell": _exercise_cell,
    "metric": _exercise_metric,
    "drag": _exercise_drag,
    "winner": _exercise_winner,
    "formula": _exercise_formula,
    "library": _exercise_library,
}


def make_exercise(seed: int, number: int, kind: str | None = None, level: int = 1) -> Exercise:
    """Exercise ``number`` (from 1) of a seed: the same arguments give the same exercise.

    ``kind=None`` takes the kind the seed gives that number (:func:`kind_for`).

    >>> make_exercise(3, 2, "cell", 2) == make_exercise(3, 2, "cell", 2)
    True
    """
    if kind is None:
        kind = kind_for(seed, number)
    if kind not in KINDS:
        raise NDCGError("unknown_exercise_kind", kind=repr(kind), kinds=", ".join(KINDS))
    if level not in LEVELS:
        raise NDCGError("exercise_level", level=repr(level))
    base = {"seed": int(seed), "number": int(number), "kind": kind, "level": int(level)}
    return _MAKERS[kind](_rng(seed, number, kind, level), base, level)

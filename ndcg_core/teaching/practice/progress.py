"""Score per kind with a streak (:class:`Progress`), and :func:`next_kind`, which favours missed kinds."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import pandas as pd

from ...i18n import _
from .model import KINDS, Exercise, Feedback


@dataclass(frozen=True)
class Progress:
    """Practice progress as plain data: per kind, attempts and correct answers; a streak.

    ``solved`` holds the keys of exercises already answered right, so checking
    one again does not count twice. Update with :meth:`record`, which returns
    a new value.
    """

    attempts: Mapping[str, int] = field(default_factory=dict)
    correct: Mapping[str, int] = field(default_factory=dict)
    streak: int = 0
    best_streak: int = 0
    solved: frozenset[str] = frozenset()

    def record(self, exercise: Exercise, feedback: Feedback) -> Progress:
        if not feedback.counts or exercise.key in self.solved:
            return self
        kind = exercise.kind
        attempts = {**self.attempts, kind: self.attempts.get(kind, 0) + 1}
        if feedback.correct:
            streak = self.streak + 1
            return Progress(
                attempts,
                {**self.correct, kind: self.correct.get(kind, 0) + 1},
                streak,
                max(self.best_streak, streak),
                self.solved | {exercise.key},
            )
        return Progress(attempts, dict(self.correct), 0, self.best_streak, self.solved)

    def to_data(self) -> dict[str, Any]:
        """Every field as JSON-ready data (sets as sorted lists), for the learner's saved progress."""
        data: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            data[f.name] = (
                sorted(value)
                if isinstance(value, frozenset)
                else (dict(value) if isinstance(value, Mapping) else value)
            )
        return data

    @classmethod
    def from_data(cls, data: Any) -> Progress:
        """Back from :meth:`to_data`. Saved data is not trusted: a field that is missing or malformed
        keeps its fresh value, counts are whole numbers from 0, and only known kinds count."""
        if not isinstance(data, Mapping):
            return cls()
        fresh, given = cls(), {}
        for f in fields(cls):
            value, default = data.get(f.name), getattr(fresh, f.name)
            if isinstance(default, frozenset) and isinstance(value, list):
                given[f.name] = frozenset(v for v in value if isinstance(v, str) and len(v) <= 200)
            elif isinstance(default, Mapping) and isinstance(value, Mapping):
                given[f.name] = {k: v for k, v in value.items() if k in KINDS and _count(v)}
            elif isinstance(default, int) and _count(value):
                given[f.name] = value
        return cls(**given)

    def missed(self, kind: str) -> int:
        """Wrong answers for a kind."""
        return self.attempts.get(kind, 0) - self.correct.get(kind, 0)

    def table(self) -> pd.DataFrame:
        """One row per kind: attempts, correct, missed."""
        return pd.DataFrame(
            [
                {
                    _("Exercise"): _(title),
                    _("Attempts"): self.attempts.get(kind, 0),
                    _("Correct"): self.correct.get(kind, 0),
                    _("Missed"): self.missed(kind),
                }
                for kind, title in KINDS.items()
            ]
        )


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**9


def next_kind(progress: Progress, seed: int, number: int) -> str:
    """The kind for the next exercise when practising what was missed.

    Each kind is weighted 1 + 3 × (times missed), so kinds answered wrongly come
    back more often while the others still appear; the draw is fixed by
    ``seed`` and ``number``.

    >>> p = Progress(attempts={"cell": 4}, correct={})
    >>> sum(next_kind(p, 1, n) == "cell" for n in range(300)) > 150
    True
    """
    kinds = list(KINDS)
    weights = [1 + 3 * progress.missed(k) for k in kinds]
    return random.Random(f"ndcg-practice-missed:{seed}:{number}").choices(kinds, weights)[0]

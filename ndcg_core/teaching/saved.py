"""What a learner's saved progress holds, as plain data: Practice's score and place, Learn's answers.

The app keeps one JSON document per page under the learner's token
(:class:`ndcg_core.classroom.progress.ProgressStore`). These functions make those documents and
read them back; what is read back is not trusted (it came through a database a link points
at): anything malformed is left out, never raised.

>>> data = learn_data(step=4, revealed={1, 2}, answers={2: "2"})
>>> data
{'step': 4, 'revealed': [1, 2], 'answers': {'2': '2'}}
>>> learn_from_data(data)
SavedLearn(step=4, revealed=frozenset({1, 2}), answers={2: '2'})
>>> learn_from_data({"step": 99, "revealed": ["x", 3], "answers": {"1": 5}})
SavedLearn(step=None, revealed=frozenset({3}), answers={})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .lesson import N_STEPS
from .pages import PracticeState
from .practice import Progress

__all__ = [
    "SavedLearn",
    "SavedPractice",
    "learn_data",
    "learn_from_data",
    "practice_data",
    "practice_from_data",
]

#: The longest typed answer kept (the answer checker reads at most 80 characters).
MAX_TYPED = 200


@dataclass(frozen=True)
class SavedLearn:
    """Learn's saved state: the step reached (None: not saved), steps revealed, answers per step."""

    step: int | None = None
    revealed: frozenset[int] = frozenset()
    answers: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SavedPractice:
    """Practice's saved state: the score, where the student was, and "practise what you missed"."""

    progress: Progress = field(default_factory=Progress)
    place: PracticeState | None = None
    missed_mode: bool = False


def _step(value: Any) -> int | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= N_STEPS
    return value if ok else None


def learn_data(step: int, revealed: Iterable[int], answers: Mapping[int, str]) -> dict[str, Any]:
    """Learn's document: the step, the revealed steps, and each checked answer (keys as text: JSON)."""
    return {
        "step": step,
        "revealed": sorted(revealed),
        "answers": {str(n): text for n, text in sorted(answers.items())},
    }


def learn_from_data(data: Any) -> SavedLearn:
    """Learn's document read back; steps outside 1..7 and answers that are not short text are left out."""
    if not isinstance(data, Mapping):
        return SavedLearn()
    revealed = data.get("revealed")
    answers = data.get("answers")
    steps = frozenset(s for s in map(_step, revealed if isinstance(revealed, list) else []) if s)
    kept: dict[int, str] = {}
    for key, text in (answers if isinstance(answers, Mapping) else {}).items():
        n = _step(int(key)) if isinstance(key, str) and key.isdigit() else None
        if n is not None and isinstance(text, str) and len(text) <= MAX_TYPED:
            kept[n] = text
    return SavedLearn(_step(data.get("step")), steps, kept)


def practice_data(progress: Progress, place: PracticeState, missed_mode: bool) -> dict[str, Any]:
    """Practice's document: the score (:meth:`Progress.to_data`), the place as its link parameters."""
    return {"progress": progress.to_data(), "place": place.to_params(), "missed_mode": missed_mode}


def practice_from_data(data: Any) -> SavedPractice:
    """Practice's document read back; a bad place is dropped (the page then starts a new set)."""
    if not isinstance(data, Mapping):
        return SavedPractice()
    place = data.get("place")
    state = None
    if isinstance(place, Mapping) and all(isinstance(v, str) for v in place.values()):
        state, warnings = PracticeState.from_params(place)
        if warnings or state.seed is None:
            state = None
    return SavedPractice(Progress.from_data(data.get("progress")), state, data.get("missed_mode") is True)

"""What the class store hands out: a question, a room, a student who joined, an answer, as read.

Frozen values, made by :class:`~ndcg_core.classroom.store.Store` (which also exports them).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = ["Joined", "QuestionInfo", "RoomInfo", "StoredAnswer"]


@dataclass(frozen=True)
class QuestionInfo:
    """A question as read: ``status`` is ``"closed"`` once an open question's countdown is up.

    ``seconds``: its countdown (None: none); ``closes_at``: when the countdown of its last opening
    ends (naive UTC, the store's clock; None before it first opened)."""

    number: int
    definition: dict[str, Any]
    prompt: str
    status: str
    answered: int = 0
    seconds: int | None = None
    closes_at: datetime | None = None


@dataclass(frozen=True)
class RoomInfo:
    code: str
    created_at: datetime
    expires_at: datetime
    current: QuestionInfo | None


@dataclass(frozen=True)
class Joined:
    """A student of a room: the id the store issued (the only copy: keep it secret) and the name."""

    token: str
    name: str


@dataclass(frozen=True)
class StoredAnswer:
    name: str
    response: str
    correct: bool
    value: float | None
    mistakes: tuple[str, ...]

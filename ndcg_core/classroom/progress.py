"""A learner's saved progress (Practice's score and place, Learn's answers), with no account.

A learner is a random token the server hands out (:meth:`ProgressStore.issue`) the first time a
student has something worth keeping; the app keeps it in a browser cookie, never in a link (issue
37, part 3: a link is shared, copied and projected). The token is the only key: whoever holds it
sees that progress, and nobody else does.

Continuing on another device is an explicit step: :meth:`ProgressStore.transfer` makes a one-time
code (:mod:`.onetime`: 8 characters of the room codes' alphabet, shown ``ABCD-EFGH``) that lives
30 minutes; :meth:`ProgressStore.redeem` on the other device gives the
token back once and deletes the code. The table ``learner_transfers`` keeps the code's SHA-256 and
the token sealed under the code (XOR with another hash of it), never either in the clear; a
learner has at most one live code (a new one replaces it), and a learner deleted takes its code
along. Guessing codes is rate-limited by the page (:mod:`.limits`).

Rules the store enforces, not only the page:

- Only tokens the store issued are known. A token that is malformed, or well formed but never
  issued (or forgotten), loads nothing: :meth:`ProgressStore.load` returns None and
  :meth:`ProgressStore.save` refuses it. A student cannot choose their token.
- Only the SHA-256 of a token is stored, so the database alone does not hand out anyone's link.
- Each learner has one JSON document per section (:data:`SECTIONS`), at most :data:`MAX_BYTES`
  long; a save replaces that section.
- Learners not seen for ``NDCG_PROGRESS_DAYS`` days (default 180) are deleted when a new
  learner is issued.

The table lives in the class store's database (:func:`~ndcg_core.classroom.store.database_url`:
SQLite under ``NDCG_DATA_DIR`` or PostgreSQL through ``NDCG_DATABASE_URL``) and its
:data:`~ndcg_core.classroom.store.metadata`.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Column, DateTime, ForeignKey, Integer, String, Table, Text, delete, select, update
from sqlalchemy.exc import IntegrityError

from ..errors import Message, NDCGError
from ..settings import Setting, positive_number
from ..teaching.pages import LEARNER_TOKEN
from .database import StoreUnusable, _utcnow, connect, database_url, insert_one_time, metadata
from .onetime import MINUTES, clean, digest, seal, unseal

__all__ = [
    "MAX_BYTES",
    "PROGRESS_DAYS",
    "SECTIONS",
    "ProgressStore",
    "Saved",
    "new_token",
    "progress_days",
    "valid_token",
]

#: What a learner keeps: Practice's score and place, and Learn's answers.
SECTIONS = ("practice", "learn")
#: The longest JSON document one section may hold.
MAX_BYTES = 64_000

learners = Table(
    "learner_progress",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created_at", DateTime, nullable=False),
    Column("seen_at", DateTime, nullable=False),
    Column("practice", Text, nullable=False),
    Column("learn", Text, nullable=False),
)


transfers = Table(
    "learner_transfers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("code_hash", String(64), nullable=False, unique=True),  # the SHA-256 of the code
    Column("learner_id", ForeignKey("learner_progress.id", ondelete="CASCADE"), nullable=False),
    Column("sealed", String(64), nullable=False),  # the token XOR another hash of the code (hex)
    Column("expires_at", DateTime, nullable=False),
)


def new_token() -> str:
    """A fresh learner token: 18 random bytes as 24 URL-safe characters (144 bits)."""
    return secrets.token_urlsafe(18)


def valid_token(text: str | None) -> bool:
    """Whether ``text`` has the form of a token this app issues (not whether it was issued)."""
    return isinstance(text, str) and LEARNER_TOKEN.match(text) is not None


#: How long an unused learner is kept, in days.
PROGRESS_DAYS = Setting("NDCG_PROGRESS_DAYS", "180", Message("accepts_days"), positive_number, StoreUnusable)


def progress_days() -> float:
    """How long an unused learner is kept, in days: ``NDCG_PROGRESS_DAYS`` (default 180); a value
    that is not a number above 0 is a :class:`~.database.StoreUnusable` naming the variable (code
    ``bad_setting``), which the pages say in words."""
    return PROGRESS_DAYS.read()


@dataclass(frozen=True)
class Saved:
    """One learner's sections as stored (each a JSON object; empty when nothing was saved)."""

    practice: dict[str, Any] = field(default_factory=dict)
    learn: dict[str, Any] = field(default_factory=dict)


def _document(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


class ProgressStore:
    """The learners' table. Make one per process and share it (it holds the engine's pool).

    ``url``: a SQLAlchemy URL (default :func:`~ndcg_core.classroom.store.database_url`);
    ``days``: how long an unused learner is kept (default :func:`progress_days`); ``clock``: a
    function returning naive UTC now (tests).
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        days: float | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.url = url or database_url()
        self.keep = timedelta(days=progress_days() if days is None else days)
        self.clock = clock or _utcnow
        self.engine, _ = connect(self.url)
        self._writer = self.engine.execution_options(write=True)
        metadata.create_all(self.engine)

    def dispose(self) -> None:
        self.engine.dispose()

    def issue(self) -> str:
        """A new learner with nothing saved; returns its token. Stale learners are deleted first."""
        self.purge_stale()
        now = self.clock()
        for _ in range(5):
            token = new_token()
            try:
                with self._writer.begin() as conn:
                    conn.execute(
                        learners.insert().values(
                            token_hash=digest(token), created_at=now, seen_at=now, practice="{}", learn="{}"
                        )
                    )
                return token
            except IntegrityError:  # pragma: no cover - 2**144 tokens
                continue
        raise RuntimeError("could not issue a learner token")  # pragma: no cover

    def known(self, token: str | None) -> bool:
        """Whether ``token`` was issued by this store and is still kept."""
        if not valid_token(token):
            return False
        with self.engine.connect() as conn:
            row = conn.execute(select(learners.c.id).where(learners.c.token_hash == digest(token))).first()
        return row is not None

    def load(self, token: str | None) -> Saved | None:
        """The learner's saved sections, or None for a token this store does not know.

        Loading counts as a visit: the learner is kept another ``days`` from now.
        """
        if not valid_token(token):
            return None
        with self._writer.begin() as conn:
            row = conn.execute(select(learners).where(learners.c.token_hash == digest(token))).first()
            if row is None:
                return None
            conn.execute(update(learners).where(learners.c.id == row.id).values(seen_at=self.clock()))
        return Saved(_document(row.practice), _document(row.learn))

    def save(self, token: str | None, section: str, data: Mapping[str, Any]) -> bool:
        """Replace one section of the learner's progress; False (nothing stored) for an unknown token.

        Raises :class:`~ndcg_core.errors.NDCGError` (a ValueError) for a section not in
        :data:`SECTIONS` or a document over :data:`MAX_BYTES`.
        """
        if section not in SECTIONS:
            raise NDCGError("progress_section", section=repr(section), sections=", ".join(SECTIONS))
        text = json.dumps(dict(data), separators=(",", ":"), sort_keys=True)
        if len(text.encode()) > MAX_BYTES:
            raise NDCGError("progress_too_big", section=section, limit=MAX_BYTES)
        if not valid_token(token):
            return False
        with self._writer.begin() as conn:
            done = conn.execute(
                update(learners)
                .where(learners.c.token_hash == digest(token))
                .values({section: text, "seen_at": self.clock()})
            )
        return done.rowcount == 1

    def forget(self, token: str | None) -> bool:
        """Delete the learner (the student's "start afresh"); True when there was one."""
        if not valid_token(token):
            return False
        with self._writer.begin() as conn:
            return conn.execute(delete(learners).where(learners.c.token_hash == digest(token))).rowcount == 1

    def transfer(self, token: str | None) -> tuple[str, datetime] | None:
        """A one-time code that continues ``token``'s progress on another device, and when it
        expires (naive UTC); None for a token this store does not know. A code made before for the
        same learner stops working, as do expired ones."""
        if not valid_token(token):
            return None
        now = self.clock()
        with self._writer.begin() as conn:
            conn.execute(delete(transfers).where(transfers.c.expires_at <= now))
            row = conn.execute(select(learners.c.id).where(learners.c.token_hash == digest(token))).first()
            if row is None:
                return None
            conn.execute(delete(transfers).where(transfers.c.learner_id == row.id))
        expires = now + timedelta(minutes=MINUTES)

        def columns(code: str) -> dict[str, Any]:  # the token travels sealed under its code
            return {"learner_id": row.id, "sealed": seal(token, code), "expires_at": expires}

        return insert_one_time(self._writer, transfers, columns), expires

    def redeem(self, code: str | None) -> str | None:
        """The token a live continue code was made for, once: the code is deleted. None for a code
        that is malformed, unknown, used already or expired (all alike)."""
        cleaned = clean(code)
        if cleaned is None:
            return None
        with self._writer.begin() as conn:
            row = conn.execute(
                select(transfers).where(transfers.c.code_hash == digest(cleaned)).with_for_update()
            ).first()
            if row is None:
                return None
            if conn.execute(delete(transfers).where(transfers.c.id == row.id)).rowcount != 1:
                return None  # pragma: no cover - used at the same moment elsewhere
        if row.expires_at <= self.clock():
            return None
        token = unseal(row.sealed, cleaned)
        return token if valid_token(token) else None

    def purge_stale(self) -> int:
        """Delete the learners not seen for ``days``; how many went."""
        cutoff = self.clock() - self.keep
        with self._writer.begin() as conn:
            return conn.execute(delete(learners).where(learners.c.seen_at <= cutoff)).rowcount

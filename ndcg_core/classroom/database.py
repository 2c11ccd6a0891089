"""The class database: its settings, its tables, and the connection to it (SQLAlchemy 2).

SQLite by default: ``classroom.sqlite3`` under :func:`data_dir` (``NDCG_DATA_DIR``, default
``./data``, created on first use), in WAL mode so the lecturer's live view reads while students
write. PostgreSQL when ``NDCG_DATABASE_URL`` is set (``postgresql+psycopg://user:pw@host/db``),
for a course served by several app replicas. The schema (:data:`metadata`) is created with
``create_all`` by whoever connects (:class:`~.store.Store`, :class:`~.progress.ProgressStore`):
it only adds missing tables, never columns, so what a new version needs goes in a new table
(a question's countdown: :data:`timers`) and databases made by older versions keep working.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, IntegrityError, NoSuchModuleError

from ..errors import NDCGError
from .onetime import digest, new_code

__all__ = [
    "CODE_LENGTH",
    "MAX_NAME",
    "MAX_ROOM_HOURS",
    "StoreUnusable",
    "answers",
    "connect",
    "data_dir",
    "database_url",
    "metadata",
    "questions",
    "room_hours",
    "rooms",
    "students",
    "timers",
]

CODE_LENGTH = 6
MAX_NAME = 40


class StoreUnusable(NDCGError):
    """The environment does not describe a database the store can use (``NDCG_ROOM_HOURS``,
    ``NDCG_DATA_DIR``, ``NDCG_DATABASE_URL``): a coded message for whoever runs the app, which
    names the variable and never the URL's host, port or password."""


# ------------------------------------------------------------------ settings

#: Longest room lifetime accepted (ten years): a room's end must stay a date a database can hold.
MAX_ROOM_HOURS = 24 * 366 * 10


def data_dir() -> Path:
    """Where the SQLite file lives: ``NDCG_DATA_DIR``, default ``./data``."""
    return Path(os.environ.get("NDCG_DATA_DIR") or "data")


def database_url() -> str:
    """``NDCG_DATABASE_URL`` when set, else the SQLite file under :func:`data_dir`."""
    url = os.environ.get("NDCG_DATABASE_URL")
    if url:
        return url
    return f"sqlite:///{(data_dir() / 'classroom.sqlite3').resolve()}"


def room_hours() -> float:
    """How long a room lives, in hours: ``NDCG_ROOM_HOURS`` (default 24)."""
    text = os.environ.get("NDCG_ROOM_HOURS") or "24"
    try:
        hours = float(text)
    except ValueError:  # "abc": said like "0", not a traceback
        hours = math.nan
    if not hours > 0:  # also NaN
        raise StoreUnusable("room_hours", text=repr(text[:40]))
    if hours > MAX_ROOM_HOURS:  # also inf: created_at + lifetime would overflow a datetime
        raise StoreUnusable("room_hours_too_long", text=repr(text[:40]), max=f"{MAX_ROOM_HOURS:,}")
    return hours


# ------------------------------------------------------------------ schema

metadata = MetaData()

rooms = Table(
    "class_rooms",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("code", String(CODE_LENGTH), nullable=False, unique=True),
    Column("secret", String(64), nullable=False),
    Column("created_at", DateTime, nullable=False),
    Column("current_question", Integer),  # the number of the question students see
)
students = Table(
    "class_students",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("room_id", ForeignKey("class_rooms.id", ondelete="CASCADE"), nullable=False),
    Column("token", String(64), nullable=False),  # the SHA-256 (hex) of the id the store issued
    Column("name", String(MAX_NAME), nullable=False),
    Column("joined_at", DateTime, nullable=False),
    UniqueConstraint("room_id", "token"),
)
questions = Table(
    "class_questions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("room_id", ForeignKey("class_rooms.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("definition", Text, nullable=False),
    Column("prompt", Text, nullable=False),
    Column("status", String(10), nullable=False),
    Column("created_at", DateTime, nullable=False),
    UniqueConstraint("room_id", "number"),
)
answers = Table(
    "class_answers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("question_id", ForeignKey("class_questions.id", ondelete="CASCADE"), nullable=False),
    Column("student_id", ForeignKey("class_students.id", ondelete="CASCADE"), nullable=False),
    Column("response", Text, nullable=False),
    Column("correct", Boolean, nullable=False),
    Column("value", Float),
    Column("mistakes", String(400), nullable=False),
    Column("answered_at", DateTime, nullable=False),
    UniqueConstraint("question_id", "student_id"),
)
timers = Table(
    "class_question_timers",  # a table of its own: create_all adds it to a database made before it
    metadata,
    Column("question_id", ForeignKey("class_questions.id", ondelete="CASCADE"), primary_key=True),
    Column("seconds", Integer, nullable=False),  # the countdown, set when the question is asked
    Column("closes_at", DateTime),  # set each time the question opens; None before it first does
)
handoffs = Table(
    "class_lecturer_handoffs",  # one-time codes that let another device run a room (.onetime): only
    # the code's hash; what it gives is the room's own key, read from the room's row
    metadata,
    Column("id", Integer, primary_key=True),
    Column("code_hash", String(64), nullable=False, unique=True),  # the SHA-256 of the code
    Column("room_id", ForeignKey("class_rooms.id", ondelete="CASCADE"), nullable=False),
    Column("expires_at", DateTime, nullable=False),
)


def insert_one_time(writer: Engine, table: Table, columns: Callable[[str], dict[str, Any]]) -> str:
    """Insert ``table``'s row for a fresh one-time code (:mod:`.onetime`): its hash in ``code_hash``
    and the rest ``columns(code)`` gives. A code whose hash a live row already holds is drawn
    again. Returns the code (the learners' continue codes and the lecturers' handoffs)."""
    for _ in range(5):
        code = new_code()
        try:
            with writer.begin() as conn:
                conn.execute(table.insert().values(code_hash=digest(code), **columns(code)))
            return code
        except IntegrityError:  # pragma: no cover - a live code drawn twice
            continue
    raise RuntimeError("could not make a one-time code")  # pragma: no cover


def _utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def connect(dbapi_connection, _record):  # pragma: no cover - exercised by every SQLite test
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
        cur = dbapi_connection.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    @event.listens_for(engine, "begin")
    def begin(conn):  # pragma: no cover - exercised by every SQLite test
        # A writing transaction takes the write lock at once: a deferred one that read first
        # could not wait for it (SQLITE_BUSY) when another writer got in between.
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("write") else "BEGIN")


def connect(url: str) -> tuple[Engine, Callable[..., Any]]:
    """An engine for ``url`` (SQLite: its folder made, WAL and the pragmas above; PostgreSQL: a pool
    for several sessions at once) and the dialect's ``insert``, which has ``on_conflict_do_update``.

    Every table of the app's database (:data:`metadata`) is made with ``create_all`` by whoever
    connects: the class store and the learners' progress (:mod:`.progress`) share the database.
    """
    try:
        if url.startswith("sqlite"):
            path = url.split("///", 1)[-1]
            if path and path != ":memory:":
                _make_folder(Path(path).parent)
            engine = create_engine(url, connect_args={"timeout": 30})
            _sqlite_pragmas(engine)
            return engine, sqlite.insert
        return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True), postgresql.insert
    except (ArgumentError, NoSuchModuleError, ImportError, ValueError) as err:
        if isinstance(err, StoreUnusable):
            raise
        # Not the URL itself in the message: it may hold a host, a port and a password.
        raise StoreUnusable("database_url_unusable") from None


def _make_folder(folder: Path) -> None:
    """The SQLite file's folder, made if missing; :class:`StoreUnusable` when it cannot be used."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):  # a file in its place (or in a parent's)
        raise StoreUnusable("data_dir_not_folder") from None
    except OSError:  # a read-only file system, no permission
        raise StoreUnusable("data_dir_not_writable") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StoreUnusable("data_dir_not_writable")

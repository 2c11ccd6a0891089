"""Rooms, questions and answers in the class database (:mod:`.database`: its settings, tables and
connection; SQLite or PostgreSQL).

Who may do what is checked here, not only in the page: every lecturer operation takes the room's
secret ``key`` and raises :class:`NotLecturer` without it; students answer only an open question,
once (a later answer replaces theirs: an upsert on the unique ``(question, student)`` pair, safe
under concurrent submits on both databases). A question asked with a countdown closes by itself
when its time is up: from then on it reads as closed, and the store refuses answers to it, as it
does for a question the lecturer closed.

Room codes are 6 characters drawn with :mod:`secrets` from 31 letters and digits that cannot be
mistaken for one another (no 0/O, 1/I/L): 887 million codes, so counting finds nothing (the page
also rate-limits wrong codes: :mod:`.limits`). Students get a random id from :meth:`Store.join`,
stored as its SHA-256; an id not issued for the room is nobody (no name, no answer, no feedback).
Rooms expire ``NDCG_ROOM_HOURS`` hours (default 24) after they were created; expired rooms
are deleted when a new room is created.
"""

from __future__ import annotations

import csv
import io
import json
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError, OperationalError

from ..csvcells import csv_row
from ..errors import NDCGError
from ..teaching.practice import Exercise
from .database import (
    CODE_LENGTH,
    MAX_NAME,
    StoreUnusable,
    _utcnow,
    answers,
    connect,
    data_dir,
    database_url,
    handoffs,
    insert_one_time,
    metadata,
    questions,
    room_hours,
    rooms,
    students,
    timers,
)
from .names import name_problem
from .onetime import CODE_ALPHABET, MINUTES, clean, digest
from .questions import BadQuestion, Graded, Summary, answer_text, exercise, grade, summarise
from .values import Joined, QuestionInfo, RoomInfo, StoredAnswer

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "COUNTDOWNS",
    "MAX_NAME",
    "STATUSES",
    "BadName",
    "ClassroomError",
    "Joined",
    "NotJoined",
    "NotLecturer",
    "QuestionInfo",
    "QuestionNotOpen",
    "RoomExpired",
    "RoomInfo",
    "RoomNotFound",
    "Store",
    "StoreUnusable",
    "StoredAnswer",
    "UnknownQuestion",
    "clean_code",
    "clean_name",
    "data_dir",
    "database_url",
    "room_hours",
]

#: A question's life: asked (draft), open for answers, closed, revealed (closed, answer shown).
STATUSES = ("draft", "open", "closed", "revealed")
#: The countdowns a question may have, in seconds (or none): it closes by itself when one is up.
COUNTDOWNS = (30, 60, 90)
#: How long a polled room state is shared by the sessions of one process (:meth:`Store.poll`), in
#: seconds: well under the pages' poll interval (2 s for a phone), so a change still shows within one.
POLL_FRESH = 0.5
#: Rooms whose polled state one process keeps at most (then it starts again).
MAX_POLLED = 1000
#: How many (room, student) pairs :meth:`Store.is_student` keeps before it starts again.
MAX_KNOWN = 100_000


class ClassroomError(ValueError):
    """Base of the errors a page turns into a message."""


class RoomNotFound(ClassroomError):
    pass


class RoomExpired(ClassroomError):
    pass


class NotLecturer(ClassroomError):
    """The key given is not the room's secret."""


class UnknownQuestion(ClassroomError):
    pass


class QuestionNotOpen(ClassroomError):
    pass


class NotJoined(ClassroomError):
    pass


class BadName(ClassroomError):
    """``reason``: ``"empty"``, ``"too_long"``, ``"control"``, ``"bidi"`` or ``"invisible"``."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"bad name: {reason}")
        self.reason = reason


def clean_code(text: str | None) -> str | None:
    """A typed room code, upper-cased; None when it cannot be a code."""
    code = (text or "").strip().upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def clean_name(text: str | None) -> str:
    """A display name: stripped, 1 to :data:`MAX_NAME` characters, something visible in it, no
    control character and no bidirectional override (:func:`~.names.name_problem`).

    It is stored as typed (``<b>`` stays ``<b>``); pages show it as text. A refused name raises
    :class:`BadName` with the reason's code.
    """
    name = " ".join((text or "").split())
    if not name:
        raise BadName("empty")
    if len(name) > MAX_NAME:
        raise BadName("too_long")
    if (problem := name_problem(name)) is not None:
        raise BadName(problem)
    return name


def _token_hash(token: Any) -> str | None:
    """What the store keeps of a student id: its SHA-256; None for what cannot be one (the store
    issues 22 characters; past 64 nothing is hashed)."""
    if not isinstance(token, str) or not token or len(token) > 64:
        return None
    return digest(token)


class Store:
    """The class-mode database. Make one per process and share it (it holds the engine's pool).

    ``url``: a SQLAlchemy URL (default :func:`database_url`); ``hours``: how long rooms live
    (default :func:`room_hours`); ``clock``: a function returning naive UTC now (tests).
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        hours: float | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.url = url or database_url()
        self.lifetime = timedelta(hours=room_hours() if hours is None else hours)
        self.clock = clock or _utcnow
        self.engine, self._insert = connect(self.url)
        self._writer = self.engine.execution_options(write=True)
        metadata.create_all(self.engine)
        self._polled: dict[str, tuple[float, Any]] = {}  # code -> (monotonic time read, row): see poll()
        self._polled_lock = threading.Lock()
        self._known: set[tuple[str, str]] = set()  # (code, token hash) this store issued: is_student()

    def dispose(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with self._writer.begin() as conn:
            yield conn

    # -------------------------------------------------------------- rooms

    def create_room(self) -> tuple[str, str]:
        """A new room: ``(code, key)``. Expired rooms are deleted first."""
        self.purge_expired()
        key = secrets.token_urlsafe(24)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with self._write() as conn:
                    conn.execute(rooms.insert().values(code=code, secret=key, created_at=self.clock()))
                return code, key
            except IntegrityError:  # the code is taken: draw again
                continue
        raise RuntimeError("could not find a free room code")  # pragma: no cover - 887M codes

    def purge_expired(self) -> int:
        """Delete rooms older than the lifetime (with their questions and answers)."""
        cutoff = self.clock() - self.lifetime
        with self._write() as conn:
            old = select(rooms.c.id).where(rooms.c.created_at <= cutoff)
            qids = select(questions.c.id).where(questions.c.room_id.in_(old))
            conn.execute(delete(answers).where(answers.c.question_id.in_(qids)))
            conn.execute(delete(timers).where(timers.c.question_id.in_(qids)))
            conn.execute(delete(questions).where(questions.c.room_id.in_(old)))
            conn.execute(delete(students).where(students.c.room_id.in_(old)))
            conn.execute(delete(handoffs).where(handoffs.c.room_id.in_(old)))
            return conn.execute(delete(rooms).where(rooms.c.created_at <= cutoff)).rowcount

    def _room(self, conn: Connection, code: str | None) -> Any:
        cleaned = clean_code(code)
        row = None if cleaned is None else conn.execute(select(rooms).where(rooms.c.code == cleaned)).first()
        return self._live(row, code)

    def _live(self, row: Any, code: str | None) -> Any:
        """``row`` (a room's, with its ``created_at``) when the room exists and has not expired."""
        if row is None:
            raise RoomNotFound(f"no room {code!r}")
        if row.created_at + self.lifetime <= self.clock():
            raise RoomExpired(f"room {clean_code(code)} has expired")
        return row

    def _lecturer_room(self, conn: Connection, code: str | None, key: str | None) -> Any:
        row = self._room(conn, code)
        if not secrets.compare_digest(row.secret.encode(), (key or "").encode()):
            raise NotLecturer("this is not the room's lecturer key")
        return row

    def handoff(self, code: str | None, key: str | None) -> tuple[str, datetime]:
        """A one-time code (:mod:`.onetime`) that lets another device run room ``code``, and when it
        expires (naive UTC: in 30 minutes, or with the room if sooner). Raises
        :class:`NotLecturer` without the room's key. A code made before for the room stops
        working, as do expired ones: a room has at most one live code."""
        now = self.clock()
        with self._write() as conn:
            row = self._lecturer_room(conn, code, key)
            conn.execute(
                delete(handoffs).where((handoffs.c.expires_at <= now) | (handoffs.c.room_id == row.id))
            )
        expires = min(now + timedelta(minutes=MINUTES), row.created_at + self.lifetime)
        one = insert_one_time(
            self._writer, handoffs, lambda _code: {"room_id": row.id, "expires_at": expires}
        )
        return one, expires

    def handoff_waiting(self, code: str | None, key: str | None, one_time: str) -> bool:
        """Whether the one-time code :meth:`handoff` made for room ``code`` still waits to be used:
        False once it was used, replaced or has expired. Raises :class:`NotLecturer` without the key."""
        with self.engine.connect() as conn:
            room = self._lecturer_room(conn, code, key)
            row = conn.execute(
                select(handoffs.c.expires_at).where(
                    handoffs.c.code_hash == digest(one_time), handoffs.c.room_id == room.id
                )
            ).first()
        return row is not None and row.expires_at > self.clock()

    def take_handoff(self, code: str | None, given: str | None) -> str | None:
        """Room ``code``'s lecturer key for a live one-time code made for it (:meth:`handoff`), once:
        the code is deleted. None for a code that is malformed, unknown, used already, expired or
        made for another room (all alike); a room that is gone raises as :meth:`room` does."""
        cleaned = clean(given)
        with self._write() as conn:
            room = self._room(conn, code)
            if cleaned is None:
                return None
            row = conn.execute(
                select(handoffs)
                .where(handoffs.c.code_hash == digest(cleaned), handoffs.c.room_id == room.id)
                .with_for_update()
            ).first()
            if row is None or conn.execute(delete(handoffs).where(handoffs.c.id == row.id)).rowcount != 1:
                return None
        return room.secret if row.expires_at > self.clock() else None

    def room(self, code: str | None) -> RoomInfo:
        """The room and its current question (raises :class:`RoomNotFound`, :class:`RoomExpired`)."""
        with self.engine.connect() as conn:
            row = self._room(conn, code)
            current = None
            if row.current_question is not None:
                current = self._question(conn, row.id, row.current_question)
        return RoomInfo(row.code, row.created_at, row.created_at + self.lifetime, current)

    def poll(self, code: str | None, *, fresh: float = POLL_FRESH) -> tuple[int, str] | None:
        """What a waiting page polls: the current question's number and status (None: none asked).

        One query, without the question's definition or its answer count, and shared: a row read
        less than ``fresh`` seconds ago (by any session of this process) is used again, so a hall
        of phones polling one room costs the database one query per ``fresh`` seconds, not one per
        phone. The room's expiry and a countdown's end are judged on each call, against the
        store's clock. Raises :class:`RoomNotFound`, :class:`RoomExpired`.
        """
        cleaned = clean_code(code)
        if cleaned is None:
            raise RoomNotFound(f"no room {code!r}")
        now = time.monotonic()
        with self._polled_lock:
            kept = self._polled.get(cleaned)
        if kept is not None and now - kept[0] < fresh:
            row = kept[1]
        else:
            with self.engine.connect() as conn:
                row = conn.execute(
                    select(rooms.c.created_at, questions.c.number, questions.c.status, timers.c.closes_at)
                    .select_from(rooms)
                    .outerjoin(
                        questions,
                        (questions.c.room_id == rooms.c.id)
                        & (questions.c.number == rooms.c.current_question),
                    )
                    .outerjoin(timers, timers.c.question_id == questions.c.id)
                    .where(rooms.c.code == cleaned)
                ).first()
            if row is not None:
                with self._polled_lock:
                    if len(self._polled) > MAX_POLLED:  # rooms come and go: forget them all at once
                        self._polled.clear()
                    self._polled[cleaned] = (now, row)
        self._live(row, code)
        if row.number is None:
            return None
        return row.number, self._status(row.status, row.closes_at)

    def is_lecturer(self, code: str | None, key: str | None) -> bool:
        try:
            with self.engine.connect() as conn:
                self._lecturer_room(conn, code, key)
        except NotLecturer:
            return False
        return True

    # -------------------------------------------------------------- questions (lecturer)

    def _question_row(self, conn: Connection, room_id: int, number: int) -> Any:
        """Question ``number``'s row with its countdown (``seconds``, ``closes_at``: None without one)."""
        row = conn.execute(
            select(questions, timers.c.seconds, timers.c.closes_at)
            .outerjoin(timers, timers.c.question_id == questions.c.id)
            .where(questions.c.room_id == room_id, questions.c.number == number)
        ).first()
        if row is None:
            raise UnknownQuestion(f"no question {number}")
        return row

    def _status(self, status: str, closes_at: datetime | None) -> str:
        """The status a question reads as: an open one whose countdown is up is closed."""
        if status == "open" and closes_at is not None and closes_at <= self.clock():
            return "closed"
        return status

    def _question(self, conn: Connection, room_id: int, number: int) -> QuestionInfo:
        row = self._question_row(conn, room_id, number)
        count = conn.execute(
            select(func.count()).select_from(answers).where(answers.c.question_id == row.id)
        ).scalar_one()
        status = self._status(row.status, row.closes_at)
        return QuestionInfo(
            row.number, json.loads(row.definition), row.prompt, status, count, row.seconds, row.closes_at
        )

    def seconds_left(self, info: QuestionInfo) -> float | None:
        """How long an open question with a countdown stays open, in seconds (0 when it is up);
        None for a question that is not open or has no countdown."""
        if info.closes_at is None or info.status != "open":
            return None
        return max(0.0, (info.closes_at - self.clock()).total_seconds())

    def ask(
        self, code: str, key: str, definition: dict[str, Any], *, seconds: int | None = None
    ) -> QuestionInfo:
        """Add a question (status ``draft``) and make it the one students see. ``seconds``: a
        countdown (one of :data:`COUNTDOWNS`) that starts each time the question opens and closes
        it when it is up."""
        if seconds is not None and (type(seconds) is not int or seconds not in COUNTDOWNS):
            raise BadQuestion(
                "class_countdown", allowed=", ".join(map(str, COUNTDOWNS)), seconds=repr(seconds)[:20]
            )
        prompt = exercise(definition).prompt  # raises on a bad definition before anything is stored
        for _ in range(5):
            try:
                with self._write() as conn:
                    room = self._lecturer_room(conn, code, key)
                    last = conn.execute(
                        select(func.max(questions.c.number)).where(questions.c.room_id == room.id)
                    ).scalar_one()
                    number = (last or 0) + 1
                    made = conn.execute(
                        questions.insert().values(
                            room_id=room.id,
                            number=number,
                            definition=json.dumps(definition),
                            prompt=prompt,
                            status="draft",
                            created_at=self.clock(),
                        )
                    )
                    if seconds is not None:
                        qid = made.inserted_primary_key[0]
                        conn.execute(timers.insert().values(question_id=qid, seconds=seconds))
                    conn.execute(update(rooms).where(rooms.c.id == room.id).values(current_question=number))
                    info = self._question(conn, room.id, number)
                self._forget_poll(room.code)
                return info
            except IntegrityError:  # two lecturer tabs asked at once: take the next number
                continue
        raise RuntimeError("could not number the question")  # pragma: no cover

    def set_status(self, code: str, key: str, number: int, status: str) -> QuestionInfo:
        """Open, close or reveal question ``number``; opening it makes it the one students see."""
        if status not in STATUSES:
            raise NDCGError("question_status", allowed=", ".join(STATUSES), status=repr(status))
        with self._write() as conn:
            room = self._lecturer_room(conn, code, key)
            row = self._question_row(conn, room.id, number)
            conn.execute(update(questions).where(questions.c.id == row.id).values(status=status))
            if status == "open":
                conn.execute(update(rooms).where(rooms.c.id == room.id).values(current_question=number))
                if row.seconds is not None:  # each opening starts the countdown afresh
                    closes_at = self.clock() + timedelta(seconds=row.seconds)
                    conn.execute(
                        update(timers).where(timers.c.question_id == row.id).values(closes_at=closes_at)
                    )
            info = self._question(conn, room.id, number)
        self._forget_poll(room.code)
        return info

    def show(self, code: str, key: str, number: int) -> QuestionInfo:
        """Make question ``number`` the one students see (going back in the history)."""
        with self._write() as conn:
            room = self._lecturer_room(conn, code, key)
            info = self._question(conn, room.id, number)
            conn.execute(update(rooms).where(rooms.c.id == room.id).values(current_question=number))
        self._forget_poll(room.code)
        return info

    def _forget_poll(self, code: str) -> None:
        """After a change to what students see: this process's next poll reads the database (other
        processes see it within :data:`POLL_FRESH`)."""
        with self._polled_lock:
            self._polled.pop(code, None)

    def questions(self, code: str, key: str) -> list[QuestionInfo]:
        """Every question of the room, first first (the history)."""
        with self.engine.connect() as conn:
            room = self._lecturer_room(conn, code, key)
            numbers = conn.execute(
                select(questions.c.number).where(questions.c.room_id == room.id).order_by(questions.c.number)
            ).scalars()
            return [self._question(conn, room.id, n) for n in numbers]

    def answers(self, code: str, key: str, number: int) -> list[StoredAnswer]:
        """The answers to one question, with the students' names (lecturer only)."""
        with self.engine.connect() as conn:
            room = self._lecturer_room(conn, code, key)
            rows = conn.execute(_answers_of(room.id, number).order_by(answers.c.id)).all()
        return [_stored(r) for r in rows]

    def summary(self, code: str, key: str, number: int) -> tuple[QuestionInfo, Summary]:
        """Question ``number`` and how the class answered it: what the lecturer's live view draws."""
        with self.engine.connect() as conn:
            room = self._lecturer_room(conn, code, key)
            info = self._question(conn, room.id, number)
            rows = conn.execute(
                select(answers.c.response, answers.c.correct, answers.c.value, answers.c.mistakes)
                .join(questions, questions.c.id == answers.c.question_id)
                .where(questions.c.room_id == room.id, questions.c.number == number)
            ).all()
        return info, summarise(exercise(info.definition), [tuple(r) for r in rows])

    def export_csv(self, code: str, key: str) -> str:
        """Every answer of the room as CSV: question, prompt, student, answer, correct, value, mistakes."""
        with self.engine.connect() as conn:
            room = self._lecturer_room(conn, code, key)
            rows = conn.execute(
                select(
                    questions.c.number,
                    questions.c.prompt,
                    questions.c.definition,
                    students.c.name,
                    answers.c.response,
                    answers.c.correct,
                    answers.c.value,
                    answers.c.mistakes,
                    answers.c.answered_at,
                )
                .join(questions, questions.c.id == answers.c.question_id)
                .join(students, students.c.id == answers.c.student_id)
                .where(questions.c.room_id == room.id)
                .order_by(questions.c.number, answers.c.id)
            ).all()
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(
            ["question", "prompt", "student", "answer", "correct", "value", "mistakes", "answered_at"]
        )
        asked: dict[int, Exercise] = {}  # each question's exercise, by its number
        for r in rows:
            if r.number not in asked:
                asked[r.number] = exercise(json.loads(r.definition))
            writer.writerow(
                csv_row(  # every text column: names, answers and prompts are typed by people
                    [
                        r.number,
                        r.prompt,
                        r.name,
                        answer_text(asked[r.number], r.response),
                        r.correct,
                        "" if r.value is None else r.value,
                        r.mistakes,
                        r.answered_at.isoformat(timespec="seconds"),
                    ]
                )
            )
        return out.getvalue()

    # -------------------------------------------------------------- students

    def join(self, code: str, name: str, *, token: str | None = None) -> Joined:
        """A student joins room ``code`` as ``name``: a new id, issued here, and the cleaned name.
        With ``token`` (an id issued for this room) that student is renamed; with one the store did
        not issue, :class:`NotJoined` (nobody chooses their id)."""
        cleaned = clean_name(name)
        with self._write() as conn:
            room = self._room(conn, code)
            if token is not None:
                renamed = conn.execute(
                    update(students)
                    .where(students.c.room_id == room.id, students.c.token == _token_hash(token))
                    .values(name=cleaned)
                ).rowcount
                if not renamed:
                    raise NotJoined("this student id was not issued for this room")
                return Joined(token, cleaned)
            issued = secrets.token_urlsafe(16)  # 128 bits; unique with overwhelming odds
            conn.execute(
                students.insert().values(
                    room_id=room.id, token=_token_hash(issued), name=cleaned, joined_at=self.clock()
                )
            )
        return Joined(issued, cleaned)

    def submit(self, code: str, token: str, number: int, response: Any) -> Graded:
        """Judge and store a student's answer to question ``number`` (a later one replaces it).

        Raises :class:`QuestionNotOpen` unless the question is open, :class:`NotJoined` for an
        id the store did not issue for this room, and
        :class:`~ndcg_core.classroom.questions.BadAnswer` for a response that cannot be judged
        (nothing is stored then).
        """
        for attempt in range(5):
            try:
                return self._submit(code, token, number, response)
            except OperationalError:  # SQLite busy past its timeout: try again
                if attempt == 4:
                    raise
                time.sleep(0.05 * (attempt + 1))
        raise AssertionError("unreachable")  # pragma: no cover

    def _submit(self, code: str, token: str, number: int, response: Any) -> Graded:
        # Judge outside the write transaction: SQLite has one writer at a time, and judging
        # (Practice's diagnosis) is the slow part. The status is checked again under the lock.
        with self.engine.connect() as conn:
            room = self._room(conn, code)
            q = self._question_row(conn, room.id, number)
            if (status := self._status(q.status, q.closes_at)) != "open":
                raise QuestionNotOpen(f"question {number} is {status}")
            student = conn.execute(
                select(students.c.id).where(
                    students.c.room_id == room.id, students.c.token == _token_hash(token)
                )
            ).scalar_one_or_none()
            if student is None:
                raise NotJoined("join the room with a name first")
        graded = grade(exercise(json.loads(q.definition)), response)
        values = {
            "response": graded.response,
            "correct": graded.correct,
            "value": graded.value,
            "mistakes": ",".join(graded.mistakes),
            "answered_at": self.clock(),
        }
        with self._write() as conn:
            now = conn.execute(
                select(questions.c.status, timers.c.closes_at)
                .outerjoin(timers, timers.c.question_id == questions.c.id)
                .where(questions.c.id == q.id)
            ).one()
            if (status := self._status(now.status, now.closes_at)) != "open":  # the time may be up now
                raise QuestionNotOpen(f"question {number} is {status}")
            stmt = self._insert(answers).values(question_id=q.id, student_id=student, **values)
            conn.execute(
                stmt.on_conflict_do_update(index_elements=["question_id", "student_id"], set_=values)
            )
        return graded

    def my_answer(self, code: str, token: str, number: int) -> StoredAnswer | None:
        """This student's stored answer to question ``number`` (only their own)."""
        with self.engine.connect() as conn:
            room = self._room(conn, code)
            row = conn.execute(
                _answers_of(room.id, number).where(students.c.token == _token_hash(token))
            ).first()
        return None if row is None else _stored(row)

    def is_student(self, code: str | None, token: str | None) -> bool:
        """Whether this store issued ``token`` to a student of room ``code`` (an expired room's
        included). A yes is kept for the process's life (an id is never withdrawn), so a hall of
        phones asking every 2 s costs one query per phone; a no is asked again each time."""
        cleaned, hashed = clean_code(code), _token_hash(token)
        if cleaned is None or hashed is None:
            return False
        pair = (cleaned, hashed)
        with self._polled_lock:
            if pair in self._known:
                return True
        with self.engine.connect() as conn:
            found = conn.execute(
                select(students.c.id)
                .join(rooms, rooms.c.id == students.c.room_id)
                .where(rooms.c.code == cleaned, students.c.token == hashed)
            ).first()
        if found is None:
            return False
        with self._polled_lock:
            if len(self._known) > MAX_KNOWN:  # a process that has seen this many students forgets them
                self._known.clear()
            self._known.add(pair)
        return True

    def student_name(self, code: str, token: str | None) -> str | None:
        """The name of the student this store issued ``token`` to in room ``code``; None for an id
        it did not issue there (self-chosen, another room's, mistyped)."""
        with self.engine.connect() as conn:
            room = self._room(conn, code)
            return conn.execute(
                select(students.c.name).where(
                    students.c.room_id == room.id, students.c.token == _token_hash(token)
                )
            ).scalar_one_or_none()


def _answers_of(room_id: int, number: int):
    """The stored answers to question ``number`` of a room, with their students' names."""
    return (
        select(students.c.name, answers.c.response, answers.c.correct, answers.c.value, answers.c.mistakes)
        .join(students, students.c.id == answers.c.student_id)
        .join(questions, questions.c.id == answers.c.question_id)
        .where(questions.c.room_id == room_id, questions.c.number == number)
    )


def _stored(row) -> StoredAnswer:
    """A row of :func:`_answers_of` as a :class:`StoredAnswer`."""
    return StoredAnswer(row.name, row.response, row.correct, row.value, _split(row.mistakes))


def _split(mistakes: str) -> tuple[str, ...]:
    return tuple(m for m in mistakes.split(",") if m)

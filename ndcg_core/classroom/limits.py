"""Rate limits: a token bucket per client (issue 30, part 4), in the process or in the database.

Class mode limits two things a script could repeat cheaply:

- **wrong room codes**, per client: :data:`CODE_TRIES` per :data:`CODE_TRIES_SECONDS` (a bucket of
  10, one try back every 6 s). At that pace one client needs about 170 years to try the 887 million
  codes; about 48 guesses a second from one client used to go through.
- **answers**, per student (the server-issued student id): :data:`ANSWERS` per
  :data:`ANSWERS_SECONDS`. Per student, not per network address: a lecture hall behind one NAT, or
  every phone behind a proxy the app is not told to trust, is one address.

A client is the connection's address (``st.context.ip_address``), or, behind reverse proxies you
trust (``NDCG_TRUSTED_PROXIES``, see :func:`trusted_proxies`), the
address the outermost of them saw (:func:`client_of`).

Where the buckets live. :class:`RateLimit` keeps them in the process: each replica would count its
own clients, and a client that spread its guesses over N replicas would get N times the rate.
:class:`SharedRateLimit` keeps them in the database every replica already shares (the table
``class_rate_limits``, one row per client seen within a bucket's refill time), so wrong room codes
count once across replicas; the page uses it for room codes. Answers stay per process: a student's
phone stays on one replica (session affinity), and a second write per answer would cost every
submit under load.

Deterministic: the clock is injected, so the tests never sleep (a shared limit's default clock is
the wall clock, ``time.time``, which every replica on every machine reads alike; a monotonic clock
is per process).

>>> now = [0.0]
>>> codes = RateLimit(10, 60, clock=lambda: now[0])
>>> [codes.take("10.0.0.7") for _ in range(11)][-2:]  # the 11th wrong code must wait 6 s
[0.0, 6.0]
>>> now[0] = 6.0
>>> codes.take("10.0.0.7"), codes.take("10.0.0.8")  # one try back after 6 s; others unaffected
(0.0, 0.0)
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING

from sqlalchemy import Column, Float, String, Table, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite

from .database import StoreUnusable, metadata

if TYPE_CHECKING:
    from .store import Store

__all__ = [
    "ANSWERS",
    "ANSWERS_SECONDS",
    "CODE_TRIES",
    "CODE_TRIES_SECONDS",
    "MAX_KEYS",
    "MAX_TRUSTED_PROXIES",
    "RateLimit",
    "SharedRateLimit",
    "client_of",
    "trusted_proxies",
]

#: Wrong room codes one client may try ...
CODE_TRIES = 10
#: ... in this many seconds (then one more every CODE_TRIES_SECONDS / CODE_TRIES seconds).
CODE_TRIES_SECONDS = 60.0
#: Answers one student may send ...
ANSWERS = 30
#: ... in this many seconds.
ANSWERS_SECONDS = 60.0
#: The most reverse proxies NDCG_TRUSTED_PROXIES may name.
MAX_TRUSTED_PROXIES = 10
#: Buckets one limit keeps at most; the least recently used go first (a full bucket is the same
#: as none, so only a flood of new clients within a minute ever loses a partly used one).
MAX_KEYS = 20_000


class RateLimit:
    """A token bucket per key: ``capacity`` actions at once (at least 1), refilled at
    ``capacity / seconds`` a second (``seconds`` above 0).

    :meth:`take` spends one action, or says how long to wait; :meth:`wait` only looks. Thread-safe
    (every Streamlit session runs on its own thread).
    """

    def __init__(
        self,
        capacity: int,
        seconds: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = MAX_KEYS,
    ) -> None:
        self.capacity = float(capacity)
        self.rate = capacity / seconds  # actions given back per second
        self.clock = clock
        self.max_keys = max_keys
        self._buckets: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()  # key -> (left, at)
        self._lock = threading.Lock()

    def _left(self, key: Hashable, now: float) -> float:
        left, at = self._buckets.get(key, (self.capacity, now))
        return min(self.capacity, left + max(0.0, now - at) * self.rate)

    def _wait(self, left: float) -> float:
        return 0.0 if left >= 1 else (1 - left) / self.rate

    def wait(self, key: Hashable) -> float:
        """Seconds until ``key`` may act again (0.0: now). Spends nothing."""
        with self._lock:
            return self._wait(self._left(key, self.clock()))

    def take(self, key: Hashable) -> float:
        """Spend one action of ``key``: 0.0 when it was allowed, else the seconds to wait (and nothing
        is spent: a refused action does not push the wait further)."""
        with self._lock:
            now = self.clock()
            left = self._left(key, now)
            if left < 1:
                return self._wait(left)
            self._buckets[key] = (left - 1, now)
            self._buckets.move_to_end(key)
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
            return 0.0

    def clear(self) -> None:
        """Forget every bucket (tests)."""
        with self._lock:
            self._buckets.clear()

    def __len__(self) -> int:
        return len(self._buckets)


#: The shared buckets: one row per (limit, client); a row whose bucket has refilled is deleted.
buckets = Table(
    "class_rate_limits",
    metadata,
    Column("name", String(20), primary_key=True),  # which limit: "room_code"
    Column("client", String(64), primary_key=True),  # the SHA-256 (hex) of the client's key
    Column("tokens", Float, nullable=False),  # actions left at ``at``
    Column("at", Float, nullable=False),  # the clock's seconds at the last action
)


class SharedRateLimit:
    """:class:`RateLimit`'s token buckets in the database the replicas share (:data:`buckets`).

    ``store``: the :class:`~ndcg_core.classroom.store.Store` whose database holds the buckets, or a
    function returning it (the page's one store per process, looked up at each use). ``name`` tells
    this limit's rows from another's. The same :meth:`take`, :meth:`wait` and :meth:`clear`; a
    database failure raises SQLAlchemy's error, which the page says in words.

    One :meth:`take` is one write transaction: the row is made if missing, then read locked (SQLite:
    the transaction holds the database's write lock from its start; PostgreSQL: ``SELECT ... FOR
    UPDATE``), so two replicas taking at the same moment never both spend the last action. Keys are
    kept as their SHA-256: whatever a client sends, a row stays 64 characters.
    """

    def __init__(
        self,
        store: Store | Callable[[], Store],
        name: str,
        capacity: int,
        seconds: float,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self.name = name
        self.capacity = float(capacity)
        self.seconds = float(seconds)
        self.rate = capacity / seconds
        self.clock = clock

    def _engine(self):
        store = self._store if hasattr(self._store, "engine") else self._store()
        return store.engine

    @staticmethod
    def _client(key: Hashable) -> str:
        return hashlib.sha256(repr(key).encode()).hexdigest()

    def _left(self, row, now: float) -> float:
        if row is None:
            return self.capacity
        return min(self.capacity, row.tokens + max(0.0, now - row.at) * self.rate)

    def _wait(self, left: float) -> float:
        return 0.0 if left >= 1 else (1 - left) / self.rate

    def _where(self, key: Hashable):
        return (buckets.c.name == self.name) & (buckets.c.client == self._client(key))

    def wait(self, key: Hashable) -> float:
        """Seconds until ``key`` may act again (0.0: now). Spends nothing, writes nothing."""
        with self._engine().connect() as conn:
            row = conn.execute(select(buckets.c.tokens, buckets.c.at).where(self._where(key))).first()
        return self._wait(self._left(row, self.clock()))

    def take(self, key: Hashable) -> float:
        """Spend one action of ``key``: 0.0 when it was allowed, else the seconds to wait (and nothing
        is spent)."""
        engine = self._engine()
        insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert
        now = self.clock()
        with engine.execution_options(write=True).begin() as conn:
            # Full buckets are the same as none: forget them, so the table holds only recent clients.
            conn.execute(
                delete(buckets).where((buckets.c.name == self.name) & (buckets.c.at < now - self.seconds))
            )
            new = {"name": self.name, "client": self._client(key), "tokens": self.capacity, "at": now}
            conn.execute(insert(buckets).values(**new).on_conflict_do_nothing())
            row = conn.execute(
                select(buckets.c.tokens, buckets.c.at).where(self._where(key)).with_for_update()
            ).one()
            left = self._left(row, now)
            if left < 1:
                return self._wait(left)
            conn.execute(update(buckets).where(self._where(key)).values(tokens=left - 1, at=now))
        return 0.0

    def clear(self) -> None:
        """Forget every bucket of this limit (tests)."""
        with self._engine().execution_options(write=True).begin() as conn:
            conn.execute(delete(buckets).where(buckets.c.name == self.name))

    def __len__(self) -> int:
        with self._engine().connect() as conn:
            return len(conn.execute(select(buckets.c.client).where(buckets.c.name == self.name)).all())


def client_of(remote_ip: str | None, forwarded_for: Iterable[str], trusted_proxies: int) -> str:
    """Who a request comes from, for the rate limits.

    With no trusted proxy (the default) it is the connection's address; ``None`` (Streamlit's
    answer for a browser on localhost) is ``"local"``. Behind ``trusted_proxies`` reverse proxies,
    each appending the address it saw to ``X-Forwarded-For``, the client is the entry the outermost
    of them wrote: the ``trusted_proxies``-th from the right. Entries left of it came from the client
    itself, who can write anything there, so they never name the client. A header with fewer
    entries than proxies (a proxy that replaces the header instead) gives its first entry; no
    header, the connection's address.

    >>> client_of("10.0.0.2", [], 0)
    '10.0.0.2'
    >>> client_of("10.0.0.2", ["1.2.3.4, 203.0.113.9"], 0)  # not trusted: the header is ignored
    '10.0.0.2'
    >>> client_of("10.0.0.2", ["1.2.3.4, 203.0.113.9"], 1)  # 1.2.3.4 is what the client typed
    '203.0.113.9'
    >>> client_of(None, ["198.51.100.4"], 2), client_of(None, [], 1)
    ('198.51.100.4', 'local')
    """
    if trusted_proxies > 0:
        hops = [hop.strip() for value in forwarded_for for hop in value.split(",") if hop.strip()]
        if hops:
            return hops[-trusted_proxies] if len(hops) >= trusted_proxies else hops[0]
    return remote_ip or "local"


def trusted_proxies() -> int:
    """How many reverse proxies in front of the app to trust for the client's address:
    ``NDCG_TRUSTED_PROXIES`` (default 0: the connection's own address; see :func:`client_of`).
    A value that is not a whole number from 0 to :data:`MAX_TRUSTED_PROXIES` raises
    :class:`~ndcg_core.classroom.store.StoreUnusable`, which the page says in words."""
    text = (os.environ.get("NDCG_TRUSTED_PROXIES") or "0").strip()
    if not text.isdigit() or int(text) > MAX_TRUSTED_PROXIES:  # "abc", "-1", "1.5", "99"
        raise StoreUnusable("trusted_proxies", text=repr(text[:40]), max=MAX_TRUSTED_PROXIES)
    return int(text)

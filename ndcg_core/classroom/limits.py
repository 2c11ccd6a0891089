"""Rate limits: token buckets (issue 30, part 4; issue 37, part 4), in the process or in the database.

Class mode limits what a script could repeat cheaply:

- **wrong room codes**, three ways at once (:class:`Guesses`): :data:`CODE_TRIES` per browser session,
  :data:`CODE_TRIES_ADDRESS` per address and :data:`CODE_TRIES_ALL` for everyone together, each per
  :data:`CODE_TRIES_SECONDS`. One session gets 10 tries, then one every 6 s; every session behind one
  address together 100, then one every 0.6 s; the whole deployment 300, then 5 a second. At the
  deployment's pace, trying the 887 million codes takes about 5.6 years (a client alone, at 10 a
  minute, 170 years); with 100 rooms open at once, a day of the full pace finds one with odds of
  about 1 in 20. The address's ceiling is ten times what one client had before issue 37: a hall
  behind one NAT mistyping codes stays far below it, and one session that guesses a code a second
  is held up by its own bucket (10 a minute), not its neighbours' (before, 13 of 21 honest joins
  from its address were refused).
- **a room's own link is never refused**: the join link and QR code carry a join tag
  (:mod:`.tags`) beside the code, which a guesser cannot make; a link with the room's tag skips the
  buckets, a bare typed code spends from them. So nobody's wrong codes hold up a phone that opens
  the link the lecturer shows, and refusals still say nothing about which codes exist.
- **wrong continue codes** (a learner's one-time code to continue on another device:
  :mod:`.progress`): :data:`TRANSFER_TRIES` per session, :data:`TRANSFER_TRIES_ADDRESS` per address,
  :data:`TRANSFER_TRIES_ALL` for everyone, per :data:`TRANSFER_TRIES_SECONDS` (5, 30 and 120 a
  minute). A code is 8 characters of 31 (852 billion) and lives 30 minutes: at 120 a minute, with
  100 codes alive at once, a day of guessing finds one with odds of about 1 in 50,000.
- **answers**, per student (the server-issued student id): :data:`ANSWERS` per
  :data:`ANSWERS_SECONDS`. Per student, not per network address: a lecture hall behind one NAT, or
  every phone behind a proxy the app is not told to trust, is one address.

A guess spends a try from each of its buckets *before* the code is looked up, and a right code gets
them back (:meth:`Guesses.give_back`): guesses sent at the same moment cannot slip through between a
look and a spend, and honest joins never use up their address's bucket. Every refusal of a wrong
room code is counted in the database (:class:`Refusals`, the table ``class_refusals``, per 10 s), so
the lecturer's page can say a flood is being refused, with no address named.

A client is the connection's address (``st.context.ip_address``), or, behind reverse proxies you
trust (``NDCG_TRUSTED_PROXIES``, see :func:`trusted_proxies`), the
address the outermost of them saw (:func:`client_of`).

Where the buckets live. :class:`RateLimit` keeps them in the process: each replica would count its
own clients, and a client that spread its guesses over N replicas would get N times the rate.
:class:`SharedRateLimit` keeps them in the database every replica already shares (the table
``class_rate_limits``, one row per client seen within a bucket's refill time), so the address and
everyone buckets count once across replicas. A session's bucket and answers stay per process: a
browser session lives on one replica (session affinity), and a second write per answer would cost
every submit under load.

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
import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING

from sqlalchemy import Column, Float, Integer, String, Table, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite

from .database import StoreUnusable, metadata

if TYPE_CHECKING:
    from .store import Store

__all__ = [
    "ANSWERS",
    "ANSWERS_SECONDS",
    "CODE_TRIES",
    "CODE_TRIES_ADDRESS",
    "CODE_TRIES_ALL",
    "CODE_TRIES_SECONDS",
    "MAX_KEYS",
    "MAX_TRUSTED_PROXIES",
    "TRANSFER_TRIES",
    "TRANSFER_TRIES_ADDRESS",
    "TRANSFER_TRIES_ALL",
    "TRANSFER_TRIES_SECONDS",
    "Guesses",
    "RateLimit",
    "Refusals",
    "SharedRateLimit",
    "client_of",
    "trusted_proxies",
]

#: Wrong room codes one browser session may try ...
CODE_TRIES = 10
#: ... every session of one address together ...
CODE_TRIES_ADDRESS = 100
#: ... and everyone together (every replica) ...
CODE_TRIES_ALL = 300
#: ... in this many seconds (then one more every CODE_TRIES_SECONDS / CODE_TRIES seconds, and so on).
CODE_TRIES_SECONDS = 60.0
#: Wrong continue codes (a learner's transfer code) per session, per address and for everyone ...
TRANSFER_TRIES, TRANSFER_TRIES_ADDRESS, TRANSFER_TRIES_ALL = 5, 30, 120
#: ... in this many seconds.
TRANSFER_TRIES_SECONDS = 60.0
#: Answers one student may send ...
ANSWERS = 30
#: ... in this many seconds.
ANSWERS_SECONDS = 60.0
#: The most reverse proxies NDCG_TRUSTED_PROXIES may name.
MAX_TRUSTED_PROXIES = 10
#: Buckets one limit keeps at most; the least recently used go first (a full bucket is the same
#: as none, so only a flood of new clients within a minute ever loses a partly used one).
MAX_KEYS = 20_000


def wait_seconds(seconds: float) -> int:
    """Seconds to wait, as a refusal says them: whole, at least 1.

    >>> wait_seconds(0.2), wait_seconds(4.01)
    (1, 5)
    """
    return max(1, math.ceil(seconds))


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

    def give_back(self, key: Hashable) -> None:
        """Return one action :meth:`take` spent (a right code: it was not a guess)."""
        with self._lock:
            if key in self._buckets:
                now = self.clock()
                self._buckets[key] = (min(self.capacity, self._left(key, now) + 1), now)

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
    Column("name", String(20), primary_key=True),  # which limit: "room_code_all", "transfer_address", ...
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
        return engine_of(self._store)

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

    def give_back(self, key: Hashable) -> None:
        """Return one action :meth:`take` spent (a right code: it was not a guess)."""
        now = self.clock()
        with self._engine().execution_options(write=True).begin() as conn:
            row = conn.execute(
                select(buckets.c.tokens, buckets.c.at).where(self._where(key)).with_for_update()
            ).first()
            if row is not None:
                left = min(self.capacity, self._left(row, now) + 1)
                conn.execute(update(buckets).where(self._where(key)).values(tokens=left, at=now))

    def clear(self) -> None:
        """Forget every bucket of this limit (tests)."""
        with self._engine().execution_options(write=True).begin() as conn:
            conn.execute(delete(buckets).where(buckets.c.name == self.name))

    def __len__(self) -> int:
        with self._engine().connect() as conn:
            return len(conn.execute(select(buckets.c.client).where(buckets.c.name == self.name)).all())


def engine_of(store: Store | Callable[[], Store]):
    """The engine of ``store``, or of the store a function returns (the page's one per process,
    looked up at each use)."""
    return (store if hasattr(store, "engine") else store()).engine


Limit = RateLimit | SharedRateLimit


class Guesses:
    """Guesses at a secret code, limited three ways at once: per browser session (``session``), per
    address (``address``) and for everyone together (``everyone``, one bucket).

    :meth:`take` spends a try from each before the code is looked up: 0.0 when the guess may go
    ahead, else the seconds to wait (and nothing is spent). A right code gets its tries back
    (:meth:`give_back`): only wrong codes count. ``refused`` (optional) counts every refusal.

    >>> now = [0.0]
    >>> limit = lambda n: RateLimit(n, 60, clock=lambda: now[0])
    >>> guesses = Guesses(limit(2), limit(3), limit(100))
    >>> [guesses.take("tab 1", "10.0.0.7") for _ in range(3)]  # a session's own two, then 30 s
    [0.0, 0.0, 30.0]
    >>> guesses.take("tab 2", "10.0.0.7"), guesses.take("tab 3", "10.0.0.7")  # the address's third
    (0.0, 20.0)
    >>> guesses.give_back("tab 2", "10.0.0.7")  # tab 2's code was right: not a guess
    >>> guesses.take("tab 3", "10.0.0.7")
    0.0
    """

    #: The one key of the everyone bucket.
    EVERYONE = "*"

    def __init__(self, session: Limit, address: Limit, everyone: Limit, refused: Refusals | None = None):
        self.session, self.address, self.everyone, self.refused = session, address, everyone, refused

    def _buckets(self, session: Hashable, address: Hashable) -> list[tuple[Limit, Hashable]]:
        return [(self.session, session), (self.address, address), (self.everyone, self.EVERYONE)]

    def take(self, session: Hashable, address: Hashable) -> float:
        """Spend one try of the session's, the address's and everyone's bucket: 0.0 when allowed,
        else the seconds to wait (the first full bucket's), and nothing is spent."""
        spent: list[tuple[Limit, Hashable]] = []
        for limit, key in self._buckets(session, address):
            wait = limit.take(key)
            if wait:
                for back, back_key in spent:
                    back.give_back(back_key)
                if self.refused is not None:
                    self.refused.note()
                return wait
            spent.append((limit, key))
        return 0.0

    def give_back(self, session: Hashable, address: Hashable) -> None:
        """The code :meth:`take` let through was right: its tries go back."""
        for limit, key in self._buckets(session, address):
            limit.give_back(key)

    def clear(self) -> None:
        """Forget every bucket (tests)."""
        for limit in (self.session, self.address, self.everyone):
            limit.clear()


#: Refusals counted per limit and per :data:`REFUSAL_SLOT` seconds of the wall clock.
refusals = Table(
    "class_refusals",
    metadata,
    Column("name", String(20), primary_key=True),  # which limit: "room_code"
    Column("slot", Integer, primary_key=True),  # the clock's seconds // REFUSAL_SLOT
    Column("refused", Integer, nullable=False),
)
#: Seconds one row of :data:`refusals` counts.
REFUSAL_SLOT = 10


class Refusals:
    """How many guesses a limit refused lately, counted in the database every replica shares (the
    table :data:`refusals`), so any lecturer's page can say a flood is being refused. Counts only:
    no address, no code.

    ``store`` as for :class:`SharedRateLimit`; ``clock``: the wall clock's seconds (tests inject one).
    """

    def __init__(
        self, store: Store | Callable[[], Store], name: str, *, clock: Callable[[], float] = time.time
    ):
        self._store, self.name, self.clock = store, name, clock

    def _slot(self) -> int:
        return int(self.clock() // REFUSAL_SLOT)

    def note(self) -> None:
        """Count one refusal now (and forget the counts older than two minutes)."""
        engine = engine_of(self._store)
        insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert
        slot = self._slot()
        new = insert(refusals).values(name=self.name, slot=slot, refused=1)
        with engine.execution_options(write=True).begin() as conn:
            conn.execute(
                delete(refusals).where(
                    (refusals.c.name == self.name) & (refusals.c.slot < slot - 120 // REFUSAL_SLOT)
                )
            )
            conn.execute(
                new.on_conflict_do_update(
                    index_elements=[refusals.c.name, refusals.c.slot],
                    set_={"refused": refusals.c.refused + 1},
                )
            )

    def recent(self, seconds: int = 60) -> int:
        """Refusals in about the last ``seconds`` (whole slots of :data:`REFUSAL_SLOT` seconds, this
        one included)."""
        since = self._slot() - seconds // REFUSAL_SLOT + 1
        with engine_of(self._store).connect() as conn:
            total = conn.execute(
                select(func.sum(refusals.c.refused)).where(
                    (refusals.c.name == self.name) & (refusals.c.slot >= since)
                )
            ).scalar()
        return int(total or 0)


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

"""Rate limits kept in the server process: a token bucket per client (issue 30, part 4).

Class mode limits two things a script could repeat cheaply:

- **wrong room codes**, per client: :data:`CODE_TRIES` per :data:`CODE_TRIES_SECONDS` (a bucket of
  10, one try back every 6 s). At that pace one client needs about 170 years to try the 887 million
  codes; about 48 guesses a second from one client used to go through.
- **answers**, per student (the server-issued student id): :data:`ANSWERS` per
  :data:`ANSWERS_SECONDS`. Per student, not per network address: a lecture hall behind one NAT, or
  every phone behind a proxy the app is not told to trust, is one address.

A client is the connection's address (``st.context.ip_address``), or, behind reverse proxies you
trust (``NDCG_TRUSTED_PROXIES``, see :func:`trusted_proxies`), the
address the outermost of them saw (:func:`client_of`). The buckets live in this process: each
replica counts its own clients (a client that spreads its guesses over N replicas gets N times the
rate; with session affinity a client stays on one).

Deterministic: the clock is injected, so the tests never sleep.

>>> now = [0.0]
>>> codes = RateLimit(10, 60, clock=lambda: now[0])
>>> [codes.take("10.0.0.7") for _ in range(11)][-2:]  # the 11th wrong code must wait 6 s
[0.0, 6.0]
>>> now[0] = 6.0
>>> codes.take("10.0.0.7"), codes.take("10.0.0.8")  # one try back after 6 s; others unaffected
(0.0, 0.0)
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable

from .database import StoreUnusable

__all__ = [
    "ANSWERS",
    "ANSWERS_SECONDS",
    "CODE_TRIES",
    "CODE_TRIES_SECONDS",
    "MAX_KEYS",
    "MAX_TRUSTED_PROXIES",
    "RateLimit",
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

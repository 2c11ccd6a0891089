"""Issue 30, part 4: the token buckets behind Class mode's rate limits, on an injected clock (no sleeps),
and who a client is behind trusted proxies; part 5: the room-code buckets shared by replicas through
the class database (a SQLite file, and a throwaway PostgreSQL 15: tests/postgres_support.py)."""

from __future__ import annotations

import threading

import pytest
from postgres_support import postgres_server

from ndcg_core.classroom import RateLimit, SharedRateLimit, Store, client_of, trusted_proxies
from ndcg_core.classroom.limits import ANSWERS, ANSWERS_SECONDS, CODE_TRIES, CODE_TRIES_SECONDS
from ndcg_core.classroom.store import metadata


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_limits_are_ten_wrong_codes_and_thirty_answers_a_minute():
    assert (CODE_TRIES, CODE_TRIES_SECONDS) == (10, 60.0)
    assert (ANSWERS, ANSWERS_SECONDS) == (30, 60.0)


def test_a_client_gets_ten_tries_then_waits_and_gets_one_back_every_six_seconds():
    clock = Clock()
    limit = RateLimit(CODE_TRIES, CODE_TRIES_SECONDS, clock=clock)
    assert [limit.take("a") for _ in range(10)] == [0.0] * 10
    assert limit.wait("a") == pytest.approx(6.0)
    assert limit.take("a") == pytest.approx(6.0)  # refused, and the refusal costs nothing more
    assert limit.take("a") == pytest.approx(6.0)
    clock.now += 2.5
    assert limit.wait("a") == pytest.approx(3.5)
    clock.now += 3.5
    assert limit.wait("a") == 0.0
    assert limit.take("a") == 0.0
    assert limit.take("a") == pytest.approx(6.0)
    clock.now += 60
    assert [limit.take("a") for _ in range(10)] == [0.0] * 10  # the bucket refills to ten, no more
    assert limit.take("a") > 0


def test_a_minute_of_steady_guessing_gets_about_ten_codes_through():
    """About 48 guesses a second used to go through; now 10 at once, then one every 6 s."""
    clock = Clock()
    limit = RateLimit(CODE_TRIES, CODE_TRIES_SECONDS, clock=clock)
    allowed = 0
    for _ in range(48 * 60):
        allowed += limit.take("attacker") == 0.0
        clock.now += 1 / 48
    assert allowed == 10 + 9  # the first ten, then one per 6 s for the remaining 54 s (rounded down)


def test_clients_and_students_have_buckets_of_their_own():
    clock = Clock()
    limit = RateLimit(ANSWERS, ANSWERS_SECONDS, clock=clock)
    for _ in range(30):
        limit.take(("ABC234", "ana"))
    assert limit.take(("ABC234", "ana")) == pytest.approx(2.0)  # 30 a minute: one back every 2 s
    assert limit.take(("ABC234", "bo")) == 0.0
    assert limit.take(("XYZ789", "ana")) == 0.0


def test_wait_only_looks():
    clock = Clock()
    limit = RateLimit(1, 10, clock=clock)
    assert [limit.wait("a") for _ in range(5)] == [0.0] * 5
    assert limit.take("a") == 0.0 and limit.wait("a") == pytest.approx(10.0)


def test_the_buckets_kept_are_bounded_least_recently_used_first():
    clock = Clock()
    limit = RateLimit(2, 60, clock=clock, max_keys=100)
    limit.take("first")
    limit.take("first")
    for i in range(150):
        limit.take(f"client-{i}")
    assert len(limit) == 100
    assert limit.take("first") == 0.0  # forgotten: a fresh bucket (as after a minute anyway)
    limit.clear()
    assert len(limit) == 0


def test_concurrent_takes_never_give_more_than_the_capacity():
    limit = RateLimit(50, 3600)  # the real clock: nothing refills in the test's time
    granted = []
    barrier = threading.Barrier(8)

    def hammer() -> None:
        barrier.wait()
        granted.extend(limit.take("one") == 0.0 for _ in range(20))

    threads = [threading.Thread(target=hammer) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(granted) == 50


@pytest.mark.parametrize(
    ("remote", "forwarded", "trusted", "client"),
    [
        ("203.0.113.5", [], 0, "203.0.113.5"),
        (None, [], 0, "local"),  # Streamlit says None for a browser on localhost
        ("10.0.0.2", ["198.51.100.7"], 0, "10.0.0.2"),  # by default the header is not believed
        ("10.0.0.2", ["198.51.100.7"], 1, "198.51.100.7"),
        ("10.0.0.2", ["6.6.6.6, 198.51.100.7"], 1, "198.51.100.7"),  # the client wrote 6.6.6.6
        ("10.0.0.2", ["6.6.6.6", "198.51.100.7"], 1, "198.51.100.7"),  # the header sent twice
        ("10.0.0.2", ["6.6.6.6, 198.51.100.7, 10.0.0.9"], 2, "198.51.100.7"),  # a CDN, then nginx
        ("10.0.0.2", ["198.51.100.7"], 2, "198.51.100.7"),  # fewer entries than proxies
        ("10.0.0.2", [" , "], 1, "10.0.0.2"),  # nothing in it
    ],
)
def test_the_client_behind_trusted_proxies(remote, forwarded, trusted, client):
    assert client_of(remote, forwarded, trusted) == client


def test_a_spoofed_forwarded_header_does_not_escape_the_limit():
    """Behind one trusted proxy, a client that writes a new X-Forwarded-For each time is still one
    client: the proxy appends the address it saw, and that last entry is the one counted."""
    clock = Clock()
    limit = RateLimit(CODE_TRIES, CODE_TRIES_SECONDS, clock=clock)
    waits = [limit.take(client_of("10.0.0.2", [f"7.7.7.{i}, 198.51.100.7"], 1)) for i in range(11)]
    assert waits[-1] == pytest.approx(6.0)


@pytest.mark.parametrize(("text", "value"), [(None, 0), ("", 0), ("0", 0), ("1", 1), (" 2 ", 2), ("10", 10)])
def test_trusted_proxies_setting(monkeypatch, text, value):
    if text is None:
        monkeypatch.delenv("NDCG_TRUSTED_PROXIES", raising=False)
    else:
        monkeypatch.setenv("NDCG_TRUSTED_PROXIES", text)
    assert trusted_proxies() == value


# ------------------------------------------------------------------ shared by replicas (issue 30, part 5)


@pytest.fixture(scope="module")
def postgres_url():
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def two_replicas(request, tmp_path):
    """Two stores on one database, as two app processes (replicas) have: SQLite file or PostgreSQL."""
    url = f"sqlite:///{tmp_path / 'class.sqlite3'}"
    if request.param == "postgresql":
        url = request.getfixturevalue("postgres_url")
    a, b = Store(url, hours=24), Store(url, hours=24)
    yield a, b
    metadata.drop_all(a.engine)
    a.dispose()
    b.dispose()


def test_two_replicas_share_one_count_of_wrong_codes(two_replicas):
    clock = Clock()
    a, b = (
        SharedRateLimit(s, "room_code", CODE_TRIES, CODE_TRIES_SECONDS, clock=clock) for s in two_replicas
    )
    assert [a.take("203.0.113.9") for _ in range(5)] == [0.0] * 5
    assert [b.take("203.0.113.9") for _ in range(5)] == [0.0] * 5
    # Ten in all: both replicas now refuse the eleventh, 6 s to wait (the process-local buckets let
    # this client have twenty).
    assert a.take("203.0.113.9") == pytest.approx(6.0)
    assert b.wait("203.0.113.9") == pytest.approx(6.0)
    assert b.take("198.51.100.4") == 0.0  # another client is not held up
    clock.now += 6.0
    assert b.take("203.0.113.9") == 0.0  # one try back after 6 s, on either replica ...
    assert a.take("203.0.113.9") == pytest.approx(6.0)  # ... and only one
    clock.now += 60
    assert [a.take("203.0.113.9") for _ in range(10)] == [0.0] * 10  # refilled to ten, no more
    assert b.take("203.0.113.9") > 0


def test_two_replicas_taking_at_once_never_pass_more_than_the_bucket(two_replicas):
    """Eight threads on each replica guess at the same moment: the row lock lets exactly ten through."""
    clock = Clock()
    limits = [
        SharedRateLimit(s, "room_code", CODE_TRIES, CODE_TRIES_SECONDS, clock=clock) for s in two_replicas
    ]
    results: list[float] = []
    lock = threading.Lock()
    go = threading.Barrier(16)

    def guess(limit):
        go.wait()
        for _ in range(4):
            got = limit.take("attacker")
            with lock:
                results.append(got)

    threads = [threading.Thread(target=guess, args=(limits[i % 2],)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 64
    assert results.count(0.0) == CODE_TRIES


def test_a_shared_limit_keeps_only_clients_seen_within_a_refill(two_replicas):
    clock = Clock()
    a, b = (SharedRateLimit(s, "room_code", 2, 60, clock=clock) for s in two_replicas)
    for i in range(5):
        a.take(f"client-{i}")
    answers = SharedRateLimit(two_replicas[0], "answers", 2, 60, clock=clock)
    answers.take("client-0")
    assert len(b) == 5 and len(answers) == 1  # each limit its own rows
    clock.now += 61  # every bucket has refilled: the same as none
    b.take("client-new")
    assert len(a) == 1 and len(answers) == 1
    a.clear()
    assert len(b) == 0 and len(answers) == 1
    # Whatever a client sends as its address, a row keeps 64 characters.
    a.take("x" * 10_000)
    assert a.wait("x" * 10_000) == 0.0 and len(a) == 1

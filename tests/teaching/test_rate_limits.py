"""Issue 30, part 4: the token buckets behind Class mode's rate limits, on an injected clock (no sleeps),
and who a client is behind trusted proxies."""

from __future__ import annotations

import threading

import pytest

from ndcg_core.classroom import RateLimit, client_of, trusted_proxies
from ndcg_core.classroom.limits import ANSWERS, ANSWERS_SECONDS, CODE_TRIES, CODE_TRIES_SECONDS


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

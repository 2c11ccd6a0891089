"""Issue 30, part 4: the token buckets behind Class mode's rate limits, on an injected clock (no sleeps),
and who a client is behind trusted proxies; part 5: the room-code buckets shared by replicas through
the class database (a SQLite file, and a throwaway PostgreSQL 15: tests/postgres_support.py).
Issue 37, part 4: guesses limited per session, per address and for everyone, right codes given
back, refusals counted for the lecturer, and join tags every replica agrees on."""

from __future__ import annotations

import threading

import pytest

from ndcg_core.classroom import RateLimit, SharedRateLimit, Store, client_of, trusted_proxies
from ndcg_core.classroom.limits import (
    ANSWERS,
    ANSWERS_SECONDS,
    CODE_TRIES,
    CODE_TRIES_ADDRESS,
    CODE_TRIES_ALL,
    CODE_TRIES_SECONDS,
    TRANSFER_TRIES,
    TRANSFER_TRIES_ADDRESS,
    TRANSFER_TRIES_ALL,
    TRANSFER_TRIES_SECONDS,
    Guesses,
    Refusals,
    refusals,
)
from ndcg_core.classroom.store import metadata
from ndcg_core.classroom.tags import JoinTags


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_limits_are_the_documented_ones():
    """Wrong room codes: 10 a minute per session, 100 per address, 300 for everyone (limits.py's
    docstring and docs/deployment.md); continue codes 5, 30 and 120; answers 30 a minute."""
    assert (CODE_TRIES, CODE_TRIES_ADDRESS, CODE_TRIES_ALL, CODE_TRIES_SECONDS) == (10, 100, 300, 60.0)
    assert (TRANSFER_TRIES, TRANSFER_TRIES_ADDRESS, TRANSFER_TRIES_ALL) == (5, 30, 120)
    assert TRANSFER_TRIES_SECONDS == 60.0
    assert (ANSWERS, ANSWERS_SECONDS) == (30, 60.0)


def test_a_right_code_gets_its_try_back_but_never_more_than_the_bucket():
    clock = Clock()
    limit = RateLimit(2, 60, clock=clock)
    assert limit.take("a") == 0.0 and limit.take("a") == 0.0
    limit.give_back("a")
    assert limit.take("a") == 0.0 and limit.take("a") == pytest.approx(30.0)
    limit.give_back("b")  # never taken: nothing to give back, no bucket made
    limit.give_back("a")
    limit.give_back("a")  # past full: still two
    assert [limit.take("a") for _ in range(3)][-1] == pytest.approx(30.0) and len(limit) == 1


def test_guesses_are_limited_per_session_per_address_and_for_everyone():
    """Issue 37, part 4: a session's own guesses stop it (10 a minute) long before its address's
    (100) fill, so one guessing tab no longer holds up the rest of a hall behind one NAT; the
    address's ceiling stops many tabs, and everyone's stops many addresses."""
    clock = Clock()
    guesses = Guesses(*(RateLimit(n, 60, clock=clock) for n in (10, 100, 300)))
    assert [guesses.take("tab", "hall") for _ in range(10)] == [0.0] * 10
    assert guesses.take("tab", "hall") == pytest.approx(6.0)  # one every 6 s for this tab
    assert guesses.take("another tab", "hall") == 0.0  # the rest of the hall is not held up
    # 89 more from nine more tabs (ten each, the last nine): the address has had 100 ...
    assert [guesses.take(n // 10, "hall") for n in range(89)] == [0.0] * 89
    assert guesses.take("a new tab", "hall") == pytest.approx(0.6)  # ... then one every 0.6 s
    for address in range(2):  # two more addresses of 100: everyone has had 300 ...
        assert [guesses.take((address, tab), address) for tab in range(100)][-1] == 0.0
    assert guesses.take("fresh", "fresh address") == pytest.approx(0.2)  # ... then 5 a second
    clock.now += 0.2
    assert guesses.take("fresh", "fresh address") == 0.0


def test_a_refused_guess_spends_nothing_and_a_right_code_gives_every_bucket_its_try_back():
    clock = Clock()
    session, address, everyone = (RateLimit(n, 60, clock=clock) for n in (5, 2, 9))
    guesses = Guesses(session, address, everyone)
    assert guesses.take("a", "hall") == 0.0 and guesses.take("b", "hall") == 0.0
    assert guesses.take("c", "hall") == pytest.approx(30.0)  # the hall's two are spent ...
    assert session.wait("c") == 0.0 and session.take("c") == 0.0  # ... and c's own try was not
    guesses.give_back("b", "hall")  # b's code was right
    assert guesses.take("c", "hall") == 0.0
    assert [everyone.take(Guesses.EVERYONE) for _ in range(7)][-1] == 0.0  # 2 guesses + 7 = 9
    assert everyone.take(Guesses.EVERYONE) > 0


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


# ------------------------------------------------------------------ issue 37, part 4, shared by replicas


def test_two_replicas_share_the_address_and_everyone_buckets_and_count_refusals(two_replicas):
    clock = Clock()

    def replica(store):
        return Guesses(
            RateLimit(10, 60, clock=clock),  # a session's, in its own process
            SharedRateLimit(store, "room_code", 3, 60, clock=clock),
            SharedRateLimit(store, "room_code_all", 5, 60, clock=clock),
            Refusals(store, "room_code", clock=clock),
        )

    a, b = (replica(s) for s in two_replicas)
    assert a.take("tab 1", "hall") == 0.0 and b.take("tab 2", "hall") == 0.0
    assert b.take("tab 3", "hall") == 0.0
    assert a.take("tab 4", "hall") == pytest.approx(20.0)  # the hall's three, across both replicas
    b.give_back("tab 3", "hall")  # tab 3's code was right
    assert a.take("tab 4", "hall") == 0.0
    assert b.take("tab 5", "elsewhere") == 0.0 and a.take("tab 6", "elsewhere") == 0.0  # five in all
    assert b.take("tab 7", "third") == pytest.approx(12.0)  # everyone's bucket: one every 12 s
    assert a.refused.recent() == b.refused.recent() == 2  # counted once, seen by both
    clock.now += 50
    assert a.refused.recent() == 2
    clock.now += 20  # a minute and more: gone
    assert b.refused.recent() == 0


def test_refusals_count_in_slots_of_ten_seconds_and_forget_old_ones(two_replicas):
    clock = Clock()  # 1000 s: the slot of 1000 to 1010
    a, b = (Refusals(s, "room_code", clock=clock) for s in two_replicas)
    other = Refusals(two_replicas[0], "elsewhere", clock=clock)
    for _ in range(3):
        a.note()
    b.note()
    clock.now += 30
    b.note()
    assert (a.recent(), a.recent(30), other.recent()) == (5, 1, 0)
    clock.now += 300
    a.note()  # also drops the counts over two minutes old
    with two_replicas[0].engine.connect() as conn:
        rows = conn.execute(refusals.select()).all()
    assert [(r.name, r.refused) for r in rows] == [("room_code", 1)]


def test_join_tags_are_the_same_on_every_replica_and_differ_per_room_and_per_database(two_replicas, tmp_path):
    a, b = (JoinTags(s) for s in two_replicas)
    tag = a.tag("ABC234")
    assert len(tag) == 6 and b.tag("abc234") == tag
    assert b.valid("ABC234", tag) and a.valid("abc234", tag.lower())
    assert not a.valid("ABC235", tag) and not a.valid("ABC234", None) and not a.valid("ABC234", tag[:5])
    assert not a.valid("nonsense", tag)
    others = {a.tag(code) for code in ("ABC235", "ABC236", "ZZZ999", "222222")}
    assert tag not in others and len(others) == 4
    elsewhere = Store(f"sqlite:///{tmp_path / 'other.sqlite3'}", hours=24)  # another deployment
    try:
        assert JoinTags(elsewhere).tag("ABC234") != tag  # its own secret: a tag cannot be worked out
    finally:
        elsewhere.dispose()

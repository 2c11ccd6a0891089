"""A learner's saved progress (issue 27, part 4): the store on a real SQLite file and a real
PostgreSQL server, the token's rules, and the documents Learn and Practice keep; the one-time
continue codes that replace a token in a link (issue 37, part 3).

The PostgreSQL server is a throwaway cluster (tests/postgres_support.py), as for Class mode's store.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import select

from ndcg_core.classroom.onetime import clean, shown
from ndcg_core.classroom.progress import (
    MAX_BYTES,
    ProgressStore,
    Saved,
    learners,
    new_token,
    transfers,
    valid_token,
)
from ndcg_core.classroom.store import metadata
from ndcg_core.errors import NDCGError
from ndcg_core.teaching.pages import LearnerState, PracticeState
from ndcg_core.teaching.practice import Progress, check, make_exercise
from ndcg_core.teaching.saved import learn_data, learn_from_data, practice_data, practice_from_data


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 22, 9, 0, 0)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture(params=["sqlite", "postgresql"])
def make_store(request, tmp_path):
    """A factory of stores on one fresh database (SQLite file, or the PostgreSQL test server)."""
    url = f"sqlite:///{tmp_path / 'data' / 'class.sqlite3'}"
    if request.param == "postgresql":
        url = request.getfixturevalue("postgres_url")
    made = []

    def make(**kwargs) -> ProgressStore:
        store = ProgressStore(url, days=kwargs.pop("days", 30), **kwargs)
        made.append(store)
        return store

    yield make
    metadata.drop_all(made[0].engine) if made else None
    for store in made:
        store.dispose()


@pytest.fixture
def store(make_store):
    return make_store()


PRACTICE = {"progress": {"attempts": {"cell": 2}, "correct": {"cell": 1}}, "place": {"seed": "7", "ex": "3"}}


def test_an_issued_token_is_random_well_formed_and_starts_empty(store):
    tokens = {store.issue() for _ in range(20)}
    assert len(tokens) == 20
    assert all(valid_token(t) and len(t) == 24 for t in tokens)
    assert all(store.load(t) == Saved() for t in tokens)


def test_a_section_saved_is_loaded_back_and_the_other_is_untouched(store):
    token = store.issue()
    assert store.save(token, "practice", PRACTICE)
    assert store.load(token) == Saved(practice=PRACTICE, learn={})
    assert store.save(token, "learn", {"step": 3})
    assert store.save(token, "practice", {"progress": {}})  # a save replaces its section
    assert store.load(token) == Saved(practice={"progress": {}}, learn={"step": 3})


def test_two_learners_never_see_each_others_progress(store):
    ana, ben = store.issue(), store.issue()
    store.save(ana, "practice", PRACTICE)
    store.save(ben, "learn", {"step": 2})
    assert store.load(ana) == Saved(practice=PRACTICE)
    assert store.load(ben) == Saved(learn={"step": 2})


@pytest.mark.parametrize(
    "token",
    [
        None,
        "",
        "x",
        "A" * 23,
        "A" * 25,
        "' OR 1=1 --aaaaaaaaaaaaaa",  # 24 characters, not a token's
        "abcdefghijklmnopqrstuvw!",
    ],
)
def test_a_token_that_is_not_well_formed_loads_nothing_and_saves_nothing(store, token):
    store.issue()
    assert not valid_token(token)
    assert store.load(token) is None
    assert store.save(token, "learn", {"step": 2}) is False
    assert not store.known(token)


def test_a_self_chosen_token_is_unknown_however_well_formed(store):
    """The server issues tokens: one a student made up (or an old one) is never adopted."""
    chosen = "my-own-token-0123456789a"
    assert valid_token(chosen)
    assert store.load(chosen) is None
    assert store.save(chosen, "practice", PRACTICE) is False
    assert not store.known(chosen)
    with store.engine.connect() as conn:
        assert conn.execute(select(learners)).all() == []  # nothing stored under it


def test_only_a_hash_of_the_token_is_stored(store):
    token = store.issue()
    store.save(token, "practice", PRACTICE)
    with store.engine.connect() as conn:
        (row,) = conn.execute(select(learners)).all()
    assert token not in " ".join(str(v) for v in row)
    assert len(row.token_hash) == 64


def test_a_new_store_on_the_same_database_knows_the_learner(make_store):
    """Progress outlives the server process: a restarted app opens the same database."""
    first = make_store()
    token = first.issue()
    first.save(token, "learn", {"step": 5})
    first.dispose()
    assert make_store().load(token) == Saved(learn={"step": 5})


def test_sections_are_named_and_bounded(store):
    token = store.issue()
    with pytest.raises(NDCGError, match="unknown progress section") as bad_section:
        store.save(token, "class", {})
    with pytest.raises(NDCGError, match="over") as too_big:
        store.save(token, "learn", {"answers": "9" * MAX_BYTES})
    assert (bad_section.value.code, too_big.value.code) == ("progress_section", "progress_too_big")
    assert store.load(token) == Saved()


def test_learners_unseen_for_the_keeping_time_go_and_a_visit_keeps_one(make_store):
    clock = Clock()
    store = make_store(days=30, clock=clock)
    idle, active = store.issue(), store.issue()
    clock.now += timedelta(days=20)
    assert store.load(active) is not None  # a visit: kept another 30 days from now
    clock.now += timedelta(days=15)
    store.issue()  # issuing purges
    assert store.load(idle) is None
    assert store.load(active) == Saved()


def test_forget_deletes_the_learner(store):
    token = store.issue()
    assert store.forget(token)
    assert store.load(token) is None
    assert not store.forget(token)


def test_a_stored_document_that_is_not_an_object_loads_as_empty(store):
    token = store.issue()
    with store.engine.begin() as conn:
        conn.execute(learners.update().values(practice="[1, 2]", learn="not json"))
    assert store.load(token) == Saved()


# ------------------------------------------------------------------ the link's token


def test_a_link_never_carries_the_token():
    """Issue 37, part 3: ``learner=`` is read only to be taken off the address bar; nothing is written."""
    token = new_token()
    assert LearnerState.from_params({"learner": token}) == (LearnerState(stale=True), [])
    assert LearnerState.from_params({"continue": "abcd-efgh"}) == (LearnerState(code="abcd-efgh"), [])
    assert LearnerState(code="ABCDEFGH", stale=True).to_params() == {}
    assert LearnerState.from_params({"continue": "x" * 5000})[0].code == "x" * 16
    assert LearnerState.carried_by({"learner": "x"}) and LearnerState.carried_by({"continue": ""})
    assert not LearnerState.carried_by({"seed": "1"})


# ------------------------------------------------------------------ continue codes (issue 37, part 3)


def test_a_continue_code_gives_the_token_once(make_store):
    store = make_store(clock=Clock())
    token = store.issue()
    store.save(token, "practice", PRACTICE)
    code, expires = store.transfer(token)
    assert len(code) == 8 and set(code) <= set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    assert expires == datetime(2026, 11, 22, 9, 30, 0)  # the clock's 9:00, and 30 minutes
    assert store.redeem(shown(code).lower()) == token  # as typed: dash, lower case
    assert store.redeem(code) is None  # used
    assert store.load(token).practice == PRACTICE  # the progress itself is untouched
    assert store.transfer("A" * 24) is None and store.transfer(None) is None  # a token never issued


def test_a_continue_code_is_stored_neither_in_the_clear_nor_beside_the_token(store):
    token = store.issue()
    code, _expires = store.transfer(token)
    with store.engine.connect() as conn:
        stored = " ".join(str(v) for row in conn.execute(transfers.select()).all() for v in row)
    assert code not in stored and token not in stored
    assert len(stored.split()[1]) == 64  # the code's SHA-256, hex


def test_a_continue_code_expires_after_thirty_minutes(make_store):
    clock = Clock()
    store = make_store(clock=clock)
    token = store.issue()
    code, _expires = store.transfer(token)
    clock.now += timedelta(minutes=30)
    assert store.redeem(code) is None
    later, _expires = store.transfer(token)
    clock.now += timedelta(minutes=29, seconds=59)
    assert store.redeem(later) == token


def test_a_new_code_replaces_the_last_and_unknown_codes_give_nothing(store):
    ana, ben = store.issue(), store.issue()
    first, _ = store.transfer(ana)
    second, _ = store.transfer(ana)
    bens, _ = store.transfer(ben)
    assert store.redeem(first) is None  # replaced by the second
    assert (store.redeem(second), store.redeem(bens)) == (ana, ben)
    for typed in (None, "", "ABCD-EFG", "ABCD-EFGH-J", "ABCD-EFG0", "<script>", "A" * 5000):
        assert store.redeem(typed) is None


def test_a_learner_forgotten_or_purged_takes_its_code_along(make_store):
    clock = Clock()
    store = make_store(clock=clock, days=30)
    gone, stale = store.issue(), store.issue()
    gone_code, _ = store.transfer(gone)
    store.forget(gone)
    assert store.redeem(gone_code) is None
    clock.now += timedelta(days=31)
    store.transfer(stale)  # a code does not keep a learner: the learner's last visit does
    fresh = store.issue()  # purges the stale learner, and its code with it
    with store.engine.connect() as conn:
        assert conn.execute(select(transfers.c.id)).all() == []
    assert store.load(fresh) == Saved()


def test_a_typed_code_is_read_as_people_type_it():
    assert clean(" abcd efgh ") == "ABCDEFGH"
    assert clean("AbCd-EfGh") == "ABCDEFGH"
    assert clean("ABCD-EFGI") is None  # I is not in the alphabet (nor 0, O, 1, L)
    assert clean(None) is None
    assert shown("ABCDEFGH") == "ABCD-EFGH"


# ------------------------------------------------------------------ the documents


def test_practice_progress_survives_the_round_trip():
    e, wrong = make_exercise(7, 1, "cell", 1), make_exercise(7, 2, "metric", 1)
    progress = Progress().record(e, check(e, f"{e.exact:.6f}")).record(wrong, check(wrong, "1234"))
    assert progress.attempts == {"cell": 1, "metric": 1} and progress.correct == {"cell": 1}
    back = practice_from_data(practice_data(progress, PracticeState(seed=7, ex=2, level=2), True))
    assert back.progress == progress
    assert back.progress.solved == frozenset({e.key})
    assert back.place == PracticeState(seed=7, ex=2, level=2)
    assert back.missed_mode is True


def test_saved_practice_that_is_malformed_keeps_only_what_is_sound():
    back = practice_from_data(
        {
            "progress": {
                "attempts": {"cell": 3, "nonsense": 4, "metric": -1, "drag": True},
                "correct": "lots",
                "streak": 2,
                "best_streak": "9",
                "solved": ["a", 5],
            },
            "place": {"seed": "-4", "ex": "2"},
        }
    )
    assert back.progress == Progress(attempts={"cell": 3}, streak=2, solved=frozenset({"a"}))
    assert back.place is None  # a bad seed: the page draws a new set
    assert practice_from_data("junk").progress == Progress()


def test_learn_answers_survive_the_round_trip():
    saved = learn_from_data(learn_data(6, {1, 2, 3}, {3: "1.5", 2: "3 + 2"}))
    assert (saved.step, saved.revealed, dict(saved.answers)) == (
        6,
        frozenset({1, 2, 3}),
        {2: "3 + 2", 3: "1.5"},
    )
    assert learn_from_data(None).step is None
    assert learn_from_data({"answers": {"2": "9" * 500}}).answers == {}

"""Class mode's storage (issue 12): the same suite on a real SQLite file and a real PostgreSQL server.

The PostgreSQL server is a throwaway cluster started by the test session (tests/postgres_support.py);
missing binaries fail the tests with a message, they are never skipped. Expected values are closed
forms (math.log2), not the code under test.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import string
import threading
from datetime import datetime, timedelta

import pytest
from sqlalchemy import event, func, select

from ndcg_core.classroom import (
    CODE_ALPHABET,
    BadAnswer,
    BadName,
    BadQuestion,
    Joined,
    NotJoined,
    NotLecturer,
    QuestionNotOpen,
    RoomExpired,
    RoomNotFound,
    Store,
    UnknownQuestion,
    choice_definition,
    playground_definition,
    practice_definition,
)
from ndcg_core.classroom.store import answers, metadata, students, timers
from ndcg_core.teaching.practice import make_exercise
from ndcg_core.variants import Variant


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

    def make(**kwargs) -> Store:
        store = Store(url, hours=kwargs.pop("hours", 24), **kwargs)
        made.append(store)
        return store

    yield make
    metadata.drop_all(made[0].engine) if made else None
    for store in made:
        store.dispose()


@pytest.fixture
def store(make_store):
    return make_store()


# Three items graded 0, 1, 1; ideal 1, 1, 0. Closed forms with log2(i + 1):
DCG = 1 / math.log2(3) + 1 / math.log2(4)
IDCG = 1 / math.log2(2) + 1 / math.log2(3)
NDCG = DCG / IDCG
# The log2(i) mistake (first position undivided): DCG 0 + 1/1 + 1/log2(3), IDCG 1/1 + 1/1.
NDCG_LOG2_I = (1 + 1 / math.log2(3)) / 2
QUESTION = playground_definition(["A", "B", "C"], [0, 1, 1], Variant(), "ndcg")
ORDER = playground_definition(["A", "B", "C"], [0, 1, 1], Variant(), "highest")


def room_with(store: Store, definition=QUESTION, status="open"):
    code, key = store.create_room()
    q = store.ask(code, key, definition)
    store.set_status(code, key, q.number, status)
    return code, key, q.number


def test_sqlite_file_is_created_under_the_data_dir_in_wal_mode(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_DATA_DIR", str(tmp_path / "new" / "dir"))
    monkeypatch.delenv("NDCG_DATABASE_URL", raising=False)
    store = Store()
    try:
        assert (tmp_path / "new" / "dir" / "classroom.sqlite3").exists()
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        store.dispose()


def test_database_url_comes_from_the_environment(monkeypatch):
    from ndcg_core.classroom import database_url, room_hours

    monkeypatch.setenv("NDCG_DATABASE_URL", "postgresql+psycopg://u@h/db")
    monkeypatch.setenv("NDCG_ROOM_HOURS", "3")
    assert database_url() == "postgresql+psycopg://u@h/db"
    assert room_hours() == 3.0


def test_room_codes_are_random_short_unambiguous_and_keys_long(store):
    made = [store.create_room() for _ in range(30)]
    codes = [c for c, _ in made]
    assert len(set(codes)) == 30
    assert all(len(c) == 6 and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert not set("0O1IL") & set(CODE_ALPHABET)
    assert all(len(k) >= 32 and set(k) <= set(string.ascii_letters + string.digits + "-_") for _, k in made)
    # Not a counter: consecutive codes share few characters in place.
    same = sum(a == b for x, y in itertools.pairwise(codes) for a, b in zip(x, y, strict=True))
    assert same < 29 * 6 / 3
    code, key = made[0]
    assert store.room(code.lower()).code == code
    assert store.is_lecturer(code, key) and not store.is_lecturer(code, made[1][1])


@pytest.mark.parametrize("code", ["NOPE99", "", "A" * 10_000, "<b>x</b>", "ABCDE0"])
def test_unknown_codes_are_refused(store, code):
    with pytest.raises(RoomNotFound):
        store.room(code)


def test_rooms_expire_and_old_rooms_are_deleted(make_store):
    clock = Clock()
    store = make_store(hours=2, clock=clock)
    code, _key = store.create_room()
    clock.now += timedelta(hours=1, minutes=59)
    assert store.room(code).code == code
    clock.now += timedelta(minutes=1)
    with pytest.raises(RoomExpired):
        store.room(code)
    with pytest.raises(RoomExpired):
        store.join(code, "Ana")
    store.create_room()  # creating a room deletes the expired ones
    with pytest.raises(RoomNotFound):
        store.room(code)


def test_without_the_key_no_lecturer_operation_runs(store):
    code, key, number = room_with(store, status="draft")
    for wrong in (None, "", "x", key[:-1], key + "x"):
        with pytest.raises(NotLecturer):
            store.set_status(code, wrong, number, "open")
        with pytest.raises(NotLecturer):
            store.set_status(code, wrong, number, "revealed")
        with pytest.raises(NotLecturer):
            store.ask(code, wrong, QUESTION)
        for read in (store.questions, store.export_csv):
            with pytest.raises(NotLecturer):
                read(code, wrong)
        for read in (store.summary, store.answers, store.show):
            with pytest.raises(NotLecturer):
                read(code, wrong, number)
    assert store.room(code).current.status == "draft"
    assert len(store.questions(code, key)) == 1
    # Another room's key does not open this one.
    _, other_key = store.create_room()
    with pytest.raises(NotLecturer):
        store.set_status(code, other_key, number, "revealed")


@pytest.mark.parametrize(
    ("name", "reason"), [("", "empty"), ("   ", "empty"), ("x" * 10_000, "too_long"), ("a\x00b", "control")]
)
def test_bad_names_are_refused_and_nothing_is_stored(store, name, reason):
    code, _key = store.create_room()
    with pytest.raises(BadName) as err:
        store.join(code, name)
    assert err.value.reason == reason
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(students)).scalar_one() == 0


def test_names_are_stored_as_typed_html_included(store):
    code, _key = store.create_room()
    html = "<img src=x onerror=alert(1)> **Bo**"
    bo = store.join(code, "  " + html + " ")
    assert bo.name == html
    assert store.student_name(code, bo.token) == html
    longest = store.join(code, "x" * 40, token=bo.token)  # the longest name; a rename keeps one student
    assert longest == Joined(bo.token, "x" * 40)
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(students)).scalar_one() == 1


def test_the_store_issues_each_students_id_and_keeps_only_its_hash(store):
    """Issue 30, part 4: a student's identity is a secret the server issues, not one they choose."""
    code, _key = store.create_room()
    ana, bo = store.join(code, "Ana"), store.join(code, "Bo")
    assert ana.name == "Ana" and ana.token != bo.token
    assert len(ana.token) >= 22 and set(ana.token) <= set(string.ascii_letters + string.digits + "-_")
    assert (store.student_name(code, ana.token), store.student_name(code, bo.token)) == ("Ana", "Bo")
    with store.engine.connect() as conn:
        kept = conn.execute(select(students.c.token)).scalars().all()
    assert ana.token not in kept and bo.token not in kept  # the database alone gives nobody's id
    assert len(set(kept)) == 2 and all(len(k) == 64 for k in kept)


@pytest.mark.parametrize(
    "chosen",
    ["aaaaaaaaaaaaaaaa", "tok", "", "x" * 65, "x" * 10_000],
    ids=["16-a", "short", "empty", "65", "long"],
)
def test_an_id_the_store_did_not_issue_is_nobody(store, chosen):
    """A self-chosen ``me=aaaaaaaaaaaaaaaa`` was taken as a new student: now it is refused everywhere."""
    code, key, number = room_with(store)
    ana = store.join(code, "Ana")
    store.submit(code, ana.token, number, f"{NDCG:.3f}")
    assert store.student_name(code, chosen) is None
    assert store.my_answer(code, chosen, number) is None
    with pytest.raises(NotJoined):
        store.submit(code, chosen, number, "0.5")
    with pytest.raises(NotJoined):
        store.join(code, "Eve", token=chosen)  # renaming needs an issued id
    assert [(a.name, a.response) for a in store.answers(code, key, number)] == [("Ana", f'"{NDCG:.3f}"')]


def test_an_id_is_the_students_in_its_own_room_only(store):
    code, _key = store.create_room()
    other, _other_key = store.create_room()
    ana = store.join(code, "Ana")
    assert store.student_name(other, ana.token) is None
    with pytest.raises(NotJoined):
        store.join(other, "Ana", token=ana.token)


def test_answers_are_judged_with_practice_rules_and_a_later_answer_replaces(store):
    code, key, number = room_with(store)
    s1 = store.join(code, "Ana").token
    s2 = store.join(code, "Bo").token
    wrong = store.submit(code, s1, number, f"{NDCG_LOG2_I:.3f}")
    assert not wrong.correct and "log2_i" in wrong.mistakes
    right = store.submit(code, s2, number, f"{NDCG:.3f}")
    assert right.correct and right.mistakes == ()
    info, summary = store.summary(code, key, number)
    assert (info.answered, summary.answered, summary.correct) == (2, 2, 1)
    assert sorted(summary.values) == pytest.approx(sorted([round(NDCG_LOG2_I, 3), round(NDCG, 3)]))
    assert summary.mistakes == {"log2_i": 1}
    store.submit(code, s1, number, f"{NDCG:.4f}")  # Ana corrects herself: replaced, not added
    _, summary = store.summary(code, key, number)
    assert (summary.answered, summary.correct, summary.mistakes) == (2, 2, {})
    assert store.my_answer(code, s1, number).response == f'"{NDCG:.4f}"'


@pytest.mark.parametrize(
    "text",
    [
        "abc",
        "",
        "0.5 + ",
        "__import__('os')",
        "0.5; DROP TABLE class_answers",
        "1e999999",
        "x" * 10_000,
        "log(2)",
    ],
)
def test_answers_that_are_not_numbers_are_refused_and_not_stored(store, text):
    code, key, number = room_with(store)
    s1 = store.join(code, "Ana").token
    with pytest.raises(BadAnswer):
        store.submit(code, s1, number, text)
    assert store.my_answer(code, s1, number) is None
    assert store.summary(code, key, number)[1].answered == 0


def test_only_an_open_question_takes_answers_from_joined_students(store):
    code, key, number = room_with(store, status="draft")
    s1 = store.join(code, "Ana").token
    with pytest.raises(QuestionNotOpen):
        store.submit(code, s1, number, "0.5")
    store.set_status(code, key, number, "open")
    with pytest.raises(NotJoined):
        store.submit(code, "stranger", number, "0.5")
    with pytest.raises(UnknownQuestion):
        store.submit(code, s1, number + 1, "0.5")
    store.submit(code, s1, number, "0.5")
    store.set_status(code, key, number, "closed")
    with pytest.raises(QuestionNotOpen):
        store.submit(code, s1, number, f"{NDCG:.3f}")
    store.set_status(code, key, number, "revealed")
    with pytest.raises(QuestionNotOpen):
        store.submit(code, s1, number, f"{NDCG:.3f}")
    assert store.my_answer(code, s1, number).response == '"0.5"'


def test_orderings_are_scored_by_their_ndcg(store):
    code, key, number = room_with(store, ORDER)
    s1 = store.join(code, "Ana").token
    s2 = store.join(code, "Bo").token
    assert store.submit(code, s1, number, ["B", "C", "A"]).value == pytest.approx(1.0)
    worst = store.submit(code, s2, number, ["A", "B", "C"])
    assert not worst.correct and worst.value == pytest.approx(NDCG)
    with pytest.raises(BadAnswer):
        store.submit(code, s2, number, ["A", "B"])  # an item missing
    assert sorted(store.summary(code, key, number)[1].values) == pytest.approx([NDCG, 1.0])


def test_a_practice_choice_question_counts_each_choice(store):
    definition = practice_definition(7, 1, "winner", 1)
    e = make_exercise(7, 1, "winner", 1)
    code, key, number = room_with(store, definition)
    s0, s1, s2 = (store.join(code, f"S{i}").token for i in range(3))
    store.submit(code, s0, number, e.answer_choice)
    store.submit(code, s1, number, e.answer_choice)
    store.submit(code, s2, number, (e.answer_choice + 1) % len(e.choices))
    _, summary = store.summary(code, key, number)
    assert summary.correct == 2 and sum(summary.choices) == 3 and summary.choices[e.answer_choice] == 2


def test_a_choice_is_stored_by_its_name_so_reordered_choices_keep_its_meaning(store, monkeypatch):
    """Issue 41: "which ranking wins" answers were stored as the choice's place in a tuple, so
    reordering the tuple changed what every stored answer said."""
    import ndcg_core.teaching.practice.generators as generators

    definition = practice_definition(7, 1, "winner", 1)
    e = make_exercise(7, 1, "winner", 1)
    right = e.names[e.answer_choice]
    code, key, number = room_with(store, definition)
    student = store.join(code, "Ana").token
    stored = store.submit(code, student, number, right)
    assert stored.correct and json.loads(stored.response) == right
    reordered = dict(reversed(list(generators.WINNER_CHOICES.items())))
    monkeypatch.setattr(generators, "WINNER_CHOICES", reordered)  # the choices shown in another order
    again = make_exercise(7, 1, "winner", 1)
    assert again.choices != e.choices and again.names[again.answer_choice] == right
    _, summary = store.summary(code, key, number)
    assert summary.correct == 1 and summary.choices[again.names.index(right)] == 1
    assert store.my_answer(code, student, number).correct
    assert f"{e.choices[e.answer_choice]}" in store.export_csv(code, key)


def test_history_goes_back_and_students_read_only_their_own_answer(store):
    code, key, first = room_with(store)
    s1 = store.join(code, "Ana").token
    s2 = store.join(code, "Bo").token
    store.submit(code, s1, first, "0.5")
    second = store.ask(code, key, ORDER).number
    assert store.room(code).current.number == second == first + 1
    assert [q.number for q in store.questions(code, key)] == [first, second]
    store.show(code, key, first)
    assert store.room(code).current.number == first
    assert store.my_answer(code, s2, first) is None  # Bo sees nothing of Ana's
    assert store.my_answer(code, s1, first).name == "Ana"


def test_export_csv_holds_every_answer_and_defuses_formulas(store):
    code, key, number = room_with(store)
    s1 = store.join(code, '=HYPERLINK("http://x")').token
    s2 = store.join(code, "<b>Bo</b>").token
    store.submit(code, s1, number, "0.5")
    store.submit(code, s2, number, f"{NDCG:.3f}")
    rows = list(csv.DictReader(io.StringIO(store.export_csv(code, key))))
    assert [r["student"] for r in rows] == ['\'=HYPERLINK("http://x")', "<b>Bo</b>"]
    assert [r["answer"] for r in rows] == ["0.5", f"{NDCG:.3f}"]
    assert [r["correct"] for r in rows] == ["False", "True"]
    assert rows[0]["prompt"] == "What is NDCG of this list?"


def test_60_concurrent_submits_lose_none(store):
    code, key, number = room_with(store)
    tokens = [store.join(code, f"student-{i}").token for i in range(60)]
    errors: list[BaseException] = []
    barrier = threading.Barrier(60)

    def submit(i: int) -> None:
        try:
            barrier.wait()
            for repeat in range(3):  # each student answers three times: the last one stays
                store.submit(code, tokens[i], number, f"{(i + repeat) / 100:.2f}")
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(60)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    _, summary = store.summary(code, key, number)
    assert summary.answered == 60
    assert sorted(summary.values) == pytest.approx([(i + 2) / 100 for i in range(60)])
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(answers)).scalar_one() == 60


# ------------------------------------------------------------------ countdowns (issue 26, part 4)

CHOICE = choice_definition("Which divisor leaves position 2 undivided?", ["log2(i + 1)", "max(1, log2 i)"], 1)


def test_a_countdown_closes_the_question_by_itself_on_the_stores_clock(make_store):
    clock = Clock()
    store = make_store(clock=clock)
    code, key = store.create_room()
    number = store.ask(code, key, CHOICE, seconds=30).number
    draft = store.room(code).current
    assert (draft.status, draft.seconds, draft.closes_at) == ("draft", 30, None)
    assert store.seconds_left(draft) is None  # the countdown starts when the question opens
    ana, bo = store.join(code, "Ana").token, store.join(code, "Bo").token
    clock.now += timedelta(minutes=5)  # a draft waits: its countdown has not started
    opened = store.set_status(code, key, number, "open")
    assert opened.closes_at == clock.now + timedelta(seconds=30)
    clock.now += timedelta(seconds=29)
    assert store.seconds_left(store.room(code).current) == pytest.approx(1.0)
    assert store.submit(code, ana, number, 1).correct  # 29 s in: taken
    clock.now += timedelta(seconds=1)  # 30 s: the time is up
    for info in (
        store.room(code).current,
        store.questions(code, key)[0],
        store.summary(code, key, number)[0],
    ):
        assert info.status == "closed"  # for phones, the lecturer's history and the live view alike
    with pytest.raises(QuestionNotOpen):
        store.submit(code, bo, number, 1)
    with pytest.raises(QuestionNotOpen):  # nor may Ana change hers
        store.submit(code, ana, number, 0)
    assert [(a.name, a.correct) for a in store.answers(code, key, number)] == [("Ana", True)]
    # Opening it again starts the countdown again; revealing ends it.
    store.set_status(code, key, number, "open")
    assert store.room(code).current.status == "open"
    store.submit(code, bo, number, 0)
    store.set_status(code, key, number, "revealed")
    clock.now += timedelta(hours=1)
    assert store.room(code).current.status == "revealed"
    assert store.summary(code, key, number)[1].choices == (1, 1)


def test_an_answer_judged_before_the_deadline_but_stored_after_it_is_refused(make_store, monkeypatch):
    """The deadline is checked again under the write lock: judging takes time, and the time may be
    up when the answer would be written."""
    clock = Clock()
    store = make_store(clock=clock)
    code, key = store.create_room()
    number = store.ask(code, key, QUESTION, seconds=30).number
    store.set_status(code, key, number, "open")
    ana = store.join(code, "Ana").token
    from ndcg_core.classroom import store as module

    judge = module.grade

    def slow_grade(e, response):
        graded = judge(e, response)
        clock.now += timedelta(seconds=31)  # the countdown ends while the answer is judged
        return graded

    monkeypatch.setattr(module, "grade", slow_grade)
    with pytest.raises(QuestionNotOpen):
        store.submit(code, ana, number, f"{NDCG:.3f}")
    assert store.my_answer(code, ana, number) is None


def test_questions_without_a_countdown_stay_open_and_bad_countdowns_are_refused(make_store):
    clock = Clock()
    store = make_store(clock=clock)
    code, key, _number = room_with(store)
    clock.now += timedelta(hours=3)
    info = store.room(code).current
    assert (info.status, info.seconds, info.closes_at, store.seconds_left(info)) == ("open", None, None, None)
    for bad in (0, 45, -30, 30.0, True, "30", 10**9):
        with pytest.raises(BadQuestion) as err:
            store.ask(code, key, QUESTION, seconds=bad)
        assert err.value.code == "class_countdown"
    assert len(store.questions(code, key)) == 1  # nothing was asked


def test_a_database_made_before_countdowns_gets_their_table_and_keeps_its_questions(make_store):
    """create_all adds tables, never columns: the countdowns live in a table of their own, so a
    database made by the version before them opens, and its questions read as they did."""
    store = make_store()
    code, key, number = room_with(store)
    store.submit(code, store.join(code, "Ana").token, number, f"{NDCG:.3f}")
    timers.drop(store.engine)  # as the version before countdowns left it
    again = make_store()  # the next start of the app
    assert again.room(code).current.status == "open" and again.room(code).current.seconds is None
    assert again.summary(code, key, number)[1].correct == 1
    timed = again.ask(code, key, CHOICE, seconds=60).number
    assert again.set_status(code, key, timed, "open").seconds == 60


def test_old_rooms_are_deleted_with_their_countdowns(make_store):
    clock = Clock()
    store = make_store(hours=2, clock=clock)
    code, key = store.create_room()
    store.set_status(code, key, store.ask(code, key, CHOICE, seconds=90).number, "open")
    clock.now += timedelta(hours=3)
    store.create_room()
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(timers)).scalar_one() == 0


def test_the_csv_export_names_the_option_picked_and_defuses_the_lecturers_text(store):
    definition = choice_definition('=HYPERLINK("http://x") <b>which?</b>', ["@SUM(1)", "<i>two</i>"], 0)
    code, key, number = room_with(store, definition)
    store.submit(code, store.join(code, "Ana").token, number, 0)
    store.submit(code, store.join(code, "Bo").token, number, 1)
    rows = list(csv.DictReader(io.StringIO(store.export_csv(code, key))))
    assert [r["prompt"] for r in rows] == ['\'=HYPERLINK("http://x") <b>which?</b>'] * 2
    assert [r["answer"] for r in rows] == ["'@SUM(1)", "<i>two</i>"]
    assert [r["correct"] for r in rows] == ["True", "False"]


# ------------------------------------------------------------------ the phones' poll (issue 30, part 6)


def test_poll_says_which_question_is_current_and_its_status(make_store):
    clock = Clock()
    store = make_store(hours=2, clock=clock)
    code, key = store.create_room()
    assert store.poll(code) is None  # nothing asked yet
    number = store.ask(code, key, CHOICE, seconds=30).number
    assert store.poll(code) == (number, "draft")  # this process's own change shows at once
    store.set_status(code, key, number, "open")
    assert store.poll(code.lower()) == (number, "open")  # a typed code, as the room's page reads it
    clock.now += timedelta(seconds=30)  # the countdown is up: judged on the store's clock, not re-read
    assert store.poll(code) == (number, "closed")
    second = store.ask(code, key, QUESTION).number
    assert store.poll(code) == (second, "draft")
    store.show(code, key, number)  # back in the history
    assert store.poll(code) == (number, "closed")
    clock.now += timedelta(hours=2)
    with pytest.raises(RoomExpired):
        store.poll(code)
    with pytest.raises(RoomNotFound):
        store.poll("ABCDEF")
    with pytest.raises(RoomNotFound):
        store.poll("not a code")


def test_a_polled_state_is_shared_for_half_a_second_then_read_again(make_store):
    """Another process's change (a second store on the same database: another replica) shows in a
    poll once the shared row is older than ``fresh``; until then the phones of this process share one
    read."""
    lecturer, replica = make_store(), make_store()
    code, key = lecturer.create_room()
    number = lecturer.ask(code, key, QUESTION).number
    assert replica.poll(code) == (number, "draft")
    lecturer.set_status(code, key, number, "open")
    # Read less than ``fresh`` seconds ago: shared (a minute here, so a slow machine cannot age it).
    assert replica.poll(code, fresh=60) == (number, "draft")
    assert replica.poll(code, fresh=0) == (number, "open")  # older than fresh: read again
    statements = []
    event.listen(replica.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    for _ in range(50):  # fifty phones polling within the shared row's life: no query between them
        assert replica.poll(code, fresh=60) == (number, "open")
    assert statements == []
    assert replica.poll(code, fresh=0) == (number, "open")
    assert [q.split()[0] for q in statements if not q.startswith("BEGIN")] == ["SELECT"]  # one read


def test_is_student_knows_the_ids_a_room_issued_and_asks_the_database_once_for_each(make_store):
    """What the room's state route checks before it answers a phone (views/room/poll.py): an id
    issued for this room, and no other. A yes is kept by the process (an id is never withdrawn), so
    a phone asking every 2 s costs one query, not one every 2 s; a no is asked again each time."""
    store = make_store()
    code, _ = store.create_room()
    other, _ = store.create_room()
    ann = store.join(code, "Ann").token
    bob = store.join(other, "Bob").token
    assert store.is_student(code, ann)
    assert store.is_student(code.lower(), ann)  # a code as typed
    assert not store.is_student(code, bob)  # another room's student
    assert not store.is_student(other, ann)
    assert not store.is_student(code, "a" * 22)  # an id nobody issued
    assert not store.is_student(code, None)
    assert not store.is_student(code, "x" * 65)  # longer than any id: not even looked up
    assert not store.is_student("ABCDEF", ann)  # no such room
    assert not store.is_student("not a code", ann)
    statements = []
    event.listen(store.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    for _ in range(50):
        assert store.is_student(code, ann)
    assert statements == []  # known: no query
    assert not store.is_student(code, "b" * 22)
    assert [q.split()[0] for q in statements if not q.startswith("BEGIN")] == ["SELECT"]  # a no is asked
    # Another replica's store learns the same from the database.
    assert make_store().is_student(code, ann)


# ------------------------------------------------------------------ running a room from another device


def test_a_one_time_code_hands_the_lecturer_key_to_another_device_once(make_store):
    """A room is run from a second device with a code that works once, for 30 minutes, for its own
    room only; the database keeps neither the code nor the key it carries in the clear."""
    from ndcg_core.classroom.database import handoffs
    from ndcg_core.classroom.onetime import CODE_ALPHABET, digest, shown

    clock = Clock()
    store = make_store(hours=2, clock=clock)
    code, key = store.create_room()
    other, _other_key = store.create_room()
    with pytest.raises(NotLecturer):
        store.handoff(code, "not the key")
    one, expires = store.handoff(code, key)
    assert len(one) == 8 and set(one) <= set(CODE_ALPHABET)
    assert expires == clock.now + timedelta(minutes=30)
    with store.engine.connect() as conn:
        row = conn.execute(select(handoffs)).one()
    assert row.code_hash == digest(one)
    assert not [v for v in row if isinstance(v, str) and (one in v or key in v)]  # neither in the clear
    assert store.take_handoff(other, one) is None  # another room's link: refused, and not used up
    assert store.handoff_waiting(code, key, one)
    assert store.take_handoff(code, shown(one).lower()) == key  # as typed: dash, lower case
    assert store.take_handoff(code, one) is None  # once
    assert not store.handoff_waiting(code, key, one)  # the lecturer's page says it was used
    assert store.take_handoff(code, None) is None and store.take_handoff(code, "ABCD-EFG0") is None

    first, _ = store.handoff(code, key)
    second, _ = store.handoff(code, key)
    assert store.take_handoff(code, first) is None  # a new code replaces the room's last one
    assert store.handoff_waiting(code, key, second) and not store.handoff_waiting(code, key, first)
    clock.now += timedelta(minutes=30)
    assert not store.handoff_waiting(code, key, second)
    assert store.take_handoff(code, second) is None  # expired

    clock.now += timedelta(minutes=80)  # ten minutes before the room expires
    _, expires = store.handoff(code, key)
    assert expires == datetime(2026, 11, 22, 11, 0, 0)  # the room's end, not 30 minutes on
    clock.now += timedelta(minutes=10)
    with pytest.raises(RoomExpired):
        store.take_handoff(code, one)
    store.purge_expired()
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(handoffs)).scalar() == 0

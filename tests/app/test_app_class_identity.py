"""Issue 30, part 4 through AppTest: who a browser is in a room, and the rate limits; issue 37,
part 4: guessing is limited without collateral.

Found by trying: ``/class?room=CODE&me=<token>`` of another student showed "you are Alice" and let
the holder overwrite her answer and read her feedback; a self-chosen ``me=aaaaaaaaaaaaaaaa`` was
accepted; the lecturer key sat in the projected page's address bar; about 48 room codes a second
could be tried from one client. Now a student's id is issued by the store and kept in the phone's
cookie (never the link), the lecturer's key moves from a link into the session and a cookie, and
wrong room codes and answers are rate-limited. Then (issue 37) one client sending a wrong code a
second made 13 of 21 honest joins from its address see "Too many tries": now the room's link
carries a join tag and is never held up, and typed codes are limited per session, per address and
for everyone.

Each AppTest is one browser session; a new one is a reload, given the cookies the first one asked
the browser to keep (``views.ui.learner.browser_cookies`` patched: AppTest sends no cookies).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from apptest_support import ok, texts
from room_support import cookies, data_dir, db, open_page, params, wanted_cookies  # noqa: F401 (fixtures)
from streamlit.testing.v1 import AppTest

from ndcg_core.classroom import CODE_ALPHABET, RateLimit, SharedRateLimit
from ndcg_core.classroom.limits import Guesses, Refusals
from ndcg_core.classroom.tags import JoinTags
from views.room import common
from views.room.common import lecturer_cookie, student_cookie
from views.ui import keys
from views.ui.markup import md_plain

PAGE = "views/classroom.py"
NOT_TAKEN = "was not used: type your name to join"
NOT_KNOWN = "is not known to the room: type your name to join again"


def page(params: dict[str, str] | None = None) -> AppTest:
    return open_page(PAGE, params)


def asks_for_a_name(at: AppTest) -> bool:
    return [t.label for t in at.text_input] == ["Your name"]


def open_question(data_dir: Path) -> tuple[str, str]:
    """A room with an open question (a Practice metric exercise), made through the store."""
    from ndcg_core.classroom import practice_definition

    store = db(data_dir)
    code, key = store.create_room()
    store.ask(code, key, practice_definition(7, 1, "metric", 1))
    store.set_status(code, key, 1, "open")
    return code, key


def submit(at: AppTest, form: str) -> AppTest:
    """Press the submit button of ``form`` (its key holds its label, in the page's language)."""
    (button,) = [b for b in at.button if b.key.startswith(f"FormSubmitter:{form}-")]
    return ok(button.click().run())


def join(code: str, name: str, at: AppTest | None = None) -> AppTest:
    at = at or page({"room": code})
    at.text_input(key="cl_name").input(name)
    return submit(at, "cl_join_form")


def send(at: AppTest, text: str) -> AppTest:
    at.text_input(key="cl_answer_1").input(text)
    return submit(at, "cl_form_1")


# ---------------------------------------------------------------- a student's id


def tag(data_dir: Path, code: str) -> str:
    """Room ``code``'s join tag, as another replica (a store of its own on the same database) makes it."""
    return JoinTags(db(data_dir)).tag(code)


def test_joining_issues_an_id_kept_in_a_cookie_never_in_the_link(data_dir, cookies):
    code, key = open_question(data_dir)
    alice = join(code, "Alice")
    assert params(alice) == {"room": code, "tag": tag(data_dir, code)}
    token = alice.session_state[keys.CL_TOKEN][code]
    assert wanted_cookies(alice)[student_cookie(code)] == token
    assert db(data_dir).student_name(code, token) == "Alice"  # the store issued it
    assert token not in texts(alice)  # nor is it anywhere on her screen
    send(alice, "0.5")
    cookies.update(wanted_cookies(alice))  # her phone reloads the tab
    again = page({"room": code})
    assert "you are Alice" in texts(again) and not asks_for_a_name(again)
    send(again, "0.75")
    assert [(a.name, a.response) for a in db(data_dir).answers(code, key, 1)] == [("Alice", '"0.75"')]


def test_another_students_id_in_a_link_is_not_taken(data_dir):
    """The defect: ``me=<Alice's id>`` showed "you are Alice", overwrote her answer, read her feedback."""
    code, key = open_question(data_dir)
    alice = join(code, "Alice")
    send(alice, "0.5")
    token = alice.session_state[keys.CL_TOKEN][code]
    mallory = page({"room": code, "me": token})
    assert asks_for_a_name(mallory)
    assert "Alice" not in texts(mallory)
    assert NOT_TAKEN in texts(mallory)
    assert "me" not in params(mallory)  # the id is taken off the address bar too
    assert "cl_answer_1" not in {t.key for t in mallory.text_input}  # nothing to send as her
    assert [(a.name, a.response) for a in db(data_dir).answers(code, key, 1)] == [("Alice", '"0.5"')]


def test_a_self_chosen_id_is_refused_and_joining_issues_another(data_dir, cookies):
    code, _key = open_question(data_dir)
    chosen = "aaaaaaaaaaaaaaaa"
    at = page({"room": code, "me": chosen})
    assert asks_for_a_name(at) and NOT_TAKEN in texts(at)
    cookies[student_cookie(code)] = chosen  # the same id put in the cookie by hand
    at = page({"room": code})
    assert asks_for_a_name(at) and NOT_KNOWN in texts(at)
    join(code, "Eve", at)
    issued = at.session_state[keys.CL_TOKEN][code]
    assert issued != chosen and "you are Eve" in texts(at)
    assert NOT_KNOWN not in texts(at)
    assert db(data_dir).student_name(code, chosen) is None


def test_an_id_from_another_room_is_refused(data_dir, cookies):
    code, _key = open_question(data_dir)
    other, _other_key = open_question(data_dir)
    alice = join(code, "Alice")
    cookies[student_cookie(other)] = alice.session_state[keys.CL_TOKEN][code]
    at = page({"room": other})
    assert asks_for_a_name(at) and "Alice" not in texts(at)


# ---------------------------------------------------------------- the lecturer's key


def test_a_lecturer_link_is_checked_then_written_back_without_the_key(data_dir, cookies):
    code, key = open_question(data_dir)
    lecturer = page({"room": code, "key": key})
    assert "cl_close" in {b.key for b in lecturer.button}  # the lecturer's view
    joining = {"room": code, "tag": tag(data_dir, code)}
    assert params(lecturer) == joining
    assert wanted_cookies(lecturer)[lecturer_cookie(code)] == key
    cookies.update(wanted_cookies(lecturer))  # a reload: the cookie, not the link, says who runs it
    again = page(joining)
    assert "cl_close" in {b.key for b in again.button} and params(again) == joining


def test_another_device_runs_the_room_through_a_one_time_link_never_the_key(data_dir, cookies):
    """The page showed a link holding the lecturer key ("Run this room from another device"): a
    link is shared, projected and kept in histories. Now it makes, on request, a link whose code
    works once, for 30 minutes."""
    code, key = open_question(data_dir)
    cookies[lecturer_cookie(code)] = key
    lecturer = page({"room": code})
    assert not [c.value for c in lecturer.code if key in c.value]  # no link the page shows holds it
    lecturer.button(key="cl_make_one_time").click().run()
    (link,) = [c.value for c in lecturer.code if "lecturer=" in c.value]
    assert key not in link
    given = dict(parse_qsl(urlsplit(link).query))
    assert given["room"] == code and len(given["lecturer"]) == 8

    cookies.clear()  # the other device
    other = page(given)
    assert "cl_close" in {b.key for b in other.button}  # it runs the room
    assert params(other) == {"room": code, "tag": given["tag"]}  # the code is off the address bar
    assert wanted_cookies(other)[lecturer_cookie(code)] == key  # and its cookie keeps the key

    lecturer.run()  # the first device's page: the link is spent, and says so
    assert not [c.value for c in lecturer.code if "lecturer=" in c.value]
    assert "The last one-time link was used" in texts(lecturer)

    third = page(given)  # the same link again, in a third browser: it worked once
    assert asks_for_a_name(third) and "cl_close" not in {b.key for b in third.button}
    assert "one-time lecturer code cannot be used" in texts(third)
    assert params(third) == {"room": code, "tag": given["tag"]}


def test_guessing_one_time_lecturer_codes_is_slow_and_a_refused_try_uses_nothing(data_dir, monkeypatch):
    """The one-time codes' limits (the learners' continue codes' own) hold for lecturer codes too:
    here two wrong codes from one address, then the right one is refused without being used up."""
    from views.ui import transfer

    still = {"clock": lambda: 0.0}
    per_address = Guesses(RateLimit(100, 60, **still), RateLimit(2, 60, **still), RateLimit(100, 60, **still))
    monkeypatch.setattr(transfer, "_made", [per_address])
    store = db(data_dir)
    code, key = store.create_room()
    one, _expires = store.handoff(code, key)
    for wrong in ("ABCD-EFGJ", "ABCD-EFGK"):
        at = page({"room": code, "lecturer": wrong})
        assert asks_for_a_name(at) and "one-time lecturer code cannot be used" in texts(at)
    at = page({"room": code, "lecturer": one})
    assert asks_for_a_name(at) and lecturer_cookie(code) not in wanted_cookies(at)
    assert [e.value for e in at.error] == ["Too many tries: wait 30 s, then open the lecturer link again."]
    assert store.take_handoff(code, one) == key  # not used up by the refused try


def test_the_projector_link_loses_its_key_and_a_reload_stays_the_projector(data_dir, cookies):
    code, key = open_question(data_dir)
    screen = page({"room": code, "key": key, "present": "1"})
    assert [m.label for m in screen.metric] == ["Answered", "Right"]
    assert params(screen) == {"room": code, "tag": tag(data_dir, code), "present": "1"}
    assert key not in texts(screen) and not any(key in h.proto.body for h in screen.get("html"))
    cookies.update(wanted_cookies(screen))
    reloaded = page({"room": code, "present": "1"})
    assert [m.label for m in reloaded.metric] == ["Answered", "Right"]
    assert params(reloaded) == {"room": code, "tag": tag(data_dir, code), "present": "1"}
    cookies.clear()  # the same address in a browser that does not run the room
    stranger = page({"room": code, "present": "1"})
    assert asks_for_a_name(stranger) and not stranger.metric


def test_a_wrong_key_in_a_link_or_a_cookie_runs_nothing(data_dir, cookies):
    code, key = open_question(data_dir)
    forged = page({"room": code, "key": key[:-1] + ("A" if key[-1] != "A" else "B")})
    assert asks_for_a_name(forged) and "lecturer key is not the room's" in texts(forged)
    assert params(forged) == {"room": code, "tag": tag(data_dir, code)}
    assert lecturer_cookie(code) not in wanted_cookies(forged)
    cookies[lecturer_cookie(code)] = "x" * 32
    at = page({"room": code})
    assert asks_for_a_name(at) and "cl_close" not in {b.key for b in at.button}


# ---------------------------------------------------------------- rate limits


def unknown_codes(n: int, skip: set[str]) -> list[str]:
    codes = ("".join(c) for c in itertools.product(CODE_ALPHABET, repeat=6))
    return list(itertools.islice((c for c in codes if c not in skip), n))


def type_code(at: AppTest, code: str) -> AppTest:
    at.text_input(key="cl_code_input").input(code)
    return submit(at, "cl_join_code")


def limits(session: int, address: int, everyone: int) -> Guesses:
    """The page's limits on typed room codes, with these buckets a minute, on a clock that stands
    still (a slow machine's AppTest runs refill nothing)."""
    still = {"clock": lambda: 0.0}
    return Guesses(
        RateLimit(session, 60, **still),
        SharedRateLimit(common.get_store, "room_code", address, 60, **still),
        SharedRateLimit(common.get_store, "room_code_all", everyone, 60, **still),
        Refusals(common.get_store, "room_code"),
    )


@pytest.fixture
def frozen(monkeypatch):
    """The page's code limits, at their real sizes, on a clock that stands still."""
    monkeypatch.setattr(common, "ROOM_GUESSES", limits(10, 100, 300))


def join_link_params(data_dir: Path, code: str, key: str) -> dict[str, str]:
    """The students' join link as the lecturer's page shows it (and its QR code holds)."""
    lecturer = page({"room": code, "key": key})
    (shown,) = [c.value for c in lecturer.code if "/class?" in c.value and "key=" not in c.value]
    return dict(parse_qsl(urlsplit(shown).query))


def test_ten_wrong_room_codes_then_too_many_tries_for_this_tab(data_dir, frozen):
    real, _key = open_question(data_dir)
    guesser = page()
    for code in unknown_codes(10, {real}):
        assert "There is no room with the code" in texts(type_code(guesser, code))
    type_code(guesser, real)  # even the right code waits now, when typed: a refusal tells nothing
    (message,) = [e.value for e in guesser.error]
    assert message == "Too many tries: wait 6 s, then try the room code again.", message
    assert not asks_for_a_name(guesser)
    assert "cl_code_input" in {t.key for t in guesser.text_input}  # the box stays, to try later


def test_a_guesser_behind_the_same_address_never_holds_up_the_join_link(data_dir):
    """Issue 37, part 4: one client sending a wrong code a second made 13 of 21 honest joins from its
    address see "Too many tries": the join link, and typed right codes from other tabs, were refused
    for someone else's guesses. (AppTest sessions all come from one address, as a hall's NAT.)"""
    real, key = open_question(data_dir)
    link = join_link_params(data_dir, real, key)
    guesser = page()
    for code in unknown_codes(12, {real}):  # faster than the tab's bucket refills
        type_code(guesser, code)
    assert "Too many tries" in texts(guesser)
    for name in ("Ana", "Bo", "Chen"):  # phones opening the join link (or its QR code)
        phone = page(link)
        assert asks_for_a_name(phone) and "Too many tries" not in texts(phone)
        assert "you are " + name in texts(join(real, name, phone))
    typed = type_code(page(), real)  # a student typing the right code in a tab of their own
    assert asks_for_a_name(typed) and "Too many tries" not in texts(typed)


def test_typed_codes_are_limited_per_address_and_for_everyone_but_the_link_never(data_dir, monkeypatch):
    real, key = open_question(data_dir)
    link = join_link_params(data_dir, real, key)
    monkeypatch.setattr(common, "ROOM_GUESSES", limits(3, 5, 7))
    wrong = iter(unknown_codes(20, {real}))
    first, second = page(), page()
    for _ in range(3):
        type_code(first, next(wrong))
    assert "Too many tries" in texts(type_code(first, next(wrong)))  # this tab's three
    for _ in range(2):
        type_code(second, next(wrong))
    assert "Too many tries" in texts(type_code(second, next(wrong)))  # the address's five
    assert "Too many tries" in texts(type_code(page(), real))  # a typed code is a guess
    monkeypatch.setattr(common, "client", lambda: "198.51.100.4")  # another address: two more
    third = page()
    for _ in range(2):
        assert "There is no room" in texts(type_code(third, next(wrong)))
    monkeypatch.setattr(common, "client", lambda: "203.0.113.9")
    assert "Too many tries" in texts(type_code(page(), next(wrong)))  # everyone's seven
    assert asks_for_a_name(page(link))  # the room's own link goes through all the same
    # The lecturer's page (its own link carries the tag too) says so, in one sentence, naming no address.
    lecturer = page({**link, "key": key})
    (said,) = [c.value for c in lecturer.caption if "Wrong room codes" in c.value]
    refused = re.fullmatch(r"Wrong room codes are being refused: (\d+) in the last minute\. .*", said)
    assert refused and int(refused.group(1)) == 4, said  # the four refusals above
    assert "198.51.100.4" not in texts(lecturer) and "local" not in said


def test_wrong_codes_typed_on_one_replica_count_on_another(data_dir, monkeypatch):
    """The page keeps the address's and everyone's buckets in the class database: another replica's
    (a second Store on the same database, as a second app process has) sees this address's codes."""
    real, _key = open_question(data_dir)
    monkeypatch.setattr(common, "ROOM_GUESSES", limits(10, 3, 300))
    for code in unknown_codes(3, {real}):
        type_code(page(), code)
    address = SharedRateLimit(db(data_dir), "room_code", 3, 60, clock=lambda: 0.0)
    assert address.wait("local") == pytest.approx(20.0)  # AppTest: no address; three of three spent
    assert address.wait("10.0.0.9") == 0.0


def test_the_same_wrong_code_again_is_one_try_and_a_room_already_open_is_never_held_up(data_dir, frozen):
    real, _key = open_question(data_dir)
    student = join(real, "Ana")  # this session found its room before the guessing started
    guesser = page()
    for _ in range(15):  # a rerun of one mistyped code (Enter pressed again) counts once
        type_code(guesser, "NNNNNN")
    assert "There is no room" in texts(guesser)
    for code in unknown_codes(9, {real}):
        type_code(guesser, code)
    assert "Too many tries" in texts(type_code(guesser, real))
    ok(student.run())
    assert "you are Ana" in texts(student) and "Too many tries" not in texts(student)


def test_answers_are_limited_per_student(data_dir, monkeypatch):
    monkeypatch.setattr(common, "ANSWER_LIMIT", RateLimit(3, 60))
    code, key = open_question(data_dir)
    ana, bo = join(code, "Ana"), join(code, "Bo")
    for text in ("0.1", "0.2", "0.3"):
        send(ana, text)
    send(ana, "0.4")
    (message,) = [md_plain(e.value) for e in ana.error]
    seconds = re.fullmatch(r"Too many answers in a short time: wait (\d+) s, then send again\.", message)
    assert seconds and 1 <= int(seconds.group(1)) <= 20, message  # one answer back every 20 s
    send(bo, "0.5")  # another student is not held up
    stored = {a.name: a.response for a in db(data_dir).answers(code, key, 1)}
    assert stored == {"Ana": '"0.3"', "Bo": '"0.5"'}


def test_the_page_limits_answers_and_typed_codes_at_the_documented_rates():
    assert (common.ANSWER_LIMIT.capacity, common.ANSWER_LIMIT.rate * 60) == (30, pytest.approx(30))
    guesses = common.ROOM_GUESSES
    buckets = [(b.capacity, b.rate * 60) for b in (guesses.session, guesses.address, guesses.everyone)]
    assert buckets == [(10, pytest.approx(10)), (100, pytest.approx(100)), (300, pytest.approx(300))]
    assert isinstance(guesses.address, SharedRateLimit) and isinstance(guesses.everyone, SharedRateLimit)


def test_the_limit_messages_are_translated(data_dir, monkeypatch):
    monkeypatch.setattr(common, "ROOM_GUESSES", limits(1, 10, 10))
    monkeypatch.setattr(common, "ANSWER_LIMIT", RateLimit(1, 60))
    code, _key = open_question(data_dir)
    phone = join(code, "安娜", page({"room": code, "lang": "zh"}))
    send(phone, "0.5")
    send(phone, "0.6")
    assert re.search(r"提交的答案过多：请等待 \d+ 秒", md_plain(phone.error[0].value)), phone.error[0].value
    guesser = page({"lang": "zh"})
    for wrong in unknown_codes(2, {code}):
        type_code(guesser, wrong)
    assert re.search(r"尝试次数过多：请等待 \d+ 秒", guesser.error[0].value), guesser.error[0].value


@pytest.mark.parametrize("setting", ["abc", "-1", "99"])
def test_a_bad_trusted_proxies_setting_is_a_message_not_a_traceback(data_dir, monkeypatch, setting):
    code, _key = open_question(data_dir)
    monkeypatch.setenv("NDCG_TRUSTED_PROXIES", setting)
    at = page({"room": code})
    assert any("NDCG\\_TRUSTED\\_PROXIES" in e.value for e in at.error), [e.value for e in at.error]

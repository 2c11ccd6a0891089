"""Issue 30, part 3: no traceback, host, port or path on the Class page, whatever fails.

Misconfigured NDCG_ROOM_HOURS / NDCG_DATA_DIR / NDCG_DATABASE_URL on "Create a room", an action
racing a room's expiry, and a database outage during the polling parts (``st.fragment(run_every=...)``,
whose reruns are not inside the page's own ``try``) each get a short message.
"""

from __future__ import annotations

import errno
import pathlib
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import streamlit as st
from apptest_support import SHOWN, ok, texts
from room_support import open_page
from sqlalchemy.exc import OperationalError
from streamlit.testing.v1 import AppTest

from ndcg_core.classroom import Store
from views.ui import keys
from views.ui.markup import md_escape

PAGE = "views/classroom.py"
#: What a leaked driver message or traceback would show (SQLAlchemy's text names host, port, files).
LEAKS = ("Traceback", "sqlalchemy", "OperationalError", "127.0.0.1", ":5432", ".py", 'File "')


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("NDCG_DATABASE_URL", raising=False)
    monkeypatch.delenv("NDCG_ROOM_HOURS", raising=False)
    st.cache_resource.clear()  # the page's one store per process: a new one with this environment
    yield tmp_path / "data"
    st.cache_resource.clear()


def page(params: dict[str, str] | None = None) -> AppTest:
    return open_page(PAGE, params)


def everything(at: AppTest) -> str:
    return texts(at, (*SHOWN, "exception"))


def no_traceback(at: AppTest) -> None:
    text = everything(ok(at))
    for leak in LEAKS:
        assert leak not in text, (leak, text)


def create(at: AppTest) -> AppTest:
    return at.button(key="cl_create").click().run()


@pytest.mark.parametrize(
    ("hours", "says"),
    [
        ("abc", "NDCG_ROOM_HOURS must be a positive number"),
        ("0", "NDCG_ROOM_HOURS must be a positive number"),
        ("-3", "NDCG_ROOM_HOURS must be a positive number"),
        ("nan", "NDCG_ROOM_HOURS must be a positive number"),
        ("inf", "NDCG_ROOM_HOURS must be at most"),
        ("1e12", "NDCG_ROOM_HOURS must be at most"),
    ],
)
def test_a_bad_room_lifetime_is_a_message_on_create(monkeypatch, hours, says):
    monkeypatch.setenv("NDCG_ROOM_HOURS", hours)
    at = create(page())
    no_traceback(at)
    assert any(md_escape(says) in e.value for e in at.error), [e.value for e in at.error]
    assert "room" not in at.query_params


def test_a_file_in_place_of_the_data_folder_is_a_message(data_dir):
    data_dir.write_text("not a folder")
    at = create(page())
    no_traceback(at)
    assert any("NDCG\\_DATA\\_DIR" in e.value and "file, not a folder" in e.value for e in at.error), [
        e.value for e in at.error
    ]


def test_a_data_folder_inside_a_file_is_a_message(data_dir, monkeypatch):
    data_dir.write_text("a file")
    monkeypatch.setenv("NDCG_DATA_DIR", str(data_dir / "inside"))
    at = create(page())
    no_traceback(at)
    assert any("file, not a folder" in e.value for e in at.error)


def test_a_missing_data_folder_on_a_read_only_disk_is_a_message(monkeypatch):
    """A read-only file system refuses mkdir with EROFS (simulated: the tests may run as root)."""

    def read_only(self, *args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", str(self))

    monkeypatch.setattr(pathlib.Path, "mkdir", read_only)
    at = create(page())
    no_traceback(at)
    assert any("cannot be created or written" in e.value for e in at.error), [e.value for e in at.error]


@pytest.mark.parametrize(
    "url",
    [
        "not a url",
        "nosuchdb://user:secret@db.internal:5432/x",
        "mysql://user:secret@db.internal:5432/x",
        "postgresql+psycopg://user:secret@db.internal:notaport/x",
    ],
    ids=["words", "unknown-dialect", "driver-not-installed", "bad-port"],
)
def test_a_bad_database_url_is_a_message_that_does_not_repeat_it(monkeypatch, url):
    monkeypatch.setenv("NDCG_DATABASE_URL", url)
    at = create(page())
    no_traceback(at)
    assert any("NDCG\\_DATABASE\\_URL" in e.value for e in at.error), [e.value for e in at.error]
    text = everything(at)
    assert "secret" not in text and "db.internal" not in text


# ---------------------------------------------------------------- racing a room's expiry


def expire(data_dir: Path, code: str) -> None:
    """The room's lifetime runs out between drawing the page and the click."""
    with sqlite3.connect(data_dir / "classroom.sqlite3") as conn:
        old = (datetime.now(UTC).replace(tzinfo=None) - timedelta(hours=25)).isoformat(sep=" ")
        conn.execute("UPDATE class_rooms SET created_at = ? WHERE code = ?", (old, code))


def lecturer_with_open_question() -> tuple[AppTest, str, str]:
    at = create(page())
    code = at.query_params["room"]
    key = at.session_state[keys.CL_KEYS][code]  # the key stays off the link
    at.button(key="cl_ask_button").click().run()
    at.button(key="cl_open").click().run()
    no_traceback(at)
    return at, code, key


def test_a_lecturer_action_just_after_the_room_expired_is_a_message(data_dir):
    at, code, _key = lecturer_with_open_question()
    expire(data_dir, code)
    at.button(key="cl_close").click().run()
    no_traceback(at)
    assert any(f"Room {code} has expired" in e.value for e in at.error), [e.value for e in at.error]


def test_a_submit_just_after_the_room_expired_is_a_message(data_dir):
    _lecturer, code, key = lecturer_with_open_question()
    phone = page({"room": code})
    phone.text_input(key="cl_name").input("Ana")
    phone.button(key="FormSubmitter:cl_join_form-Join").click().run()
    no_traceback(phone)
    expire(data_dir, code)
    phone.text_input(key="cl_answer_1").input("0.5")
    phone.button(key="FormSubmitter:cl_form_1-Send answer").click().run()
    no_traceback(phone)
    assert any(f"Room {code} has expired" in e.value for e in phone.error), [e.value for e in phone.error]
    assert Store(f"sqlite:///{data_dir / 'classroom.sqlite3'}", hours=100).answers(code, key, 1) == []


# ---------------------------------------------------------------- outage during the polling parts


def outage(*args, **kwargs):
    raise OperationalError(
        "SELECT 1", {}, Exception('connection to server at "127.0.0.1", port 5432 failed: File "x.py"')
    )


def test_the_lecturers_live_view_says_the_database_cannot_be_reached(monkeypatch):
    at, _code, _key = lecturer_with_open_question()
    monkeypatch.setattr(Store, "summary", outage)  # only the live view (a fragment) asks for it
    at.run()
    no_traceback(at)
    assert any("this part updates by itself" in w.value for w in at.warning), [w.value for w in at.warning]
    assert "cl_close" in {b.key for b in at.button}  # the rest of the page stands


def test_a_students_waiting_screen_says_the_database_cannot_be_reached(monkeypatch):
    _lecturer, code, _key = lecturer_with_open_question()
    phone = page({"room": code})
    phone.text_input(key="cl_name").input("Ana")
    phone.button(key="FormSubmitter:cl_join_form-Join").click().run()
    monkeypatch.setattr(Store, "poll", outage)  # only the polling fragment asks for it
    phone.run()
    no_traceback(phone)
    assert any("this part updates by itself" in w.value for w in phone.warning), [
        w.value for w in phone.warning
    ]


def test_the_projector_screen_says_the_database_cannot_be_reached(monkeypatch):
    """Issue 37: while PostgreSQL was down, the projector screen showed OperationalError's traceback
    (host, port, 15 frames of paths) beside the QR code."""
    at, _code, _key = lecturer_with_open_question()
    at.query_params["present"] = "1"
    at.run()
    no_traceback(at)
    monkeypatch.setattr(Store, "summary", outage)  # the screen's live part asks for it
    at.run()
    no_traceback(at)
    assert any("this part updates by itself" in w.value for w in at.warning), [w.value for w in at.warning]


def test_any_other_failure_of_a_live_part_is_one_sentence(monkeypatch):
    at, _code, _key = lecturer_with_open_question()

    def broken(*args, **kwargs):
        raise RuntimeError('File "/srv/app/x.py", line 1: something unforeseen at 10.0.0.5:5432')

    monkeypatch.setattr(Store, "summary", broken)
    at.run()
    no_traceback(at)
    assert "10.0.0.5" not in everything(at)
    assert any("could not be drawn just now" in w.value for w in at.warning), [w.value for w in at.warning]
    assert "cl_close" in {b.key for b in at.button}  # the rest of the page stands


def test_every_live_part_of_class_mode_goes_through_the_one_guard():
    """No fragment is made with st.fragment directly in Class mode's views: each is a live_part,
    whose guard turns any failure into a sentence (views/room/common.py)."""
    import ast

    room = Path(__file__).resolve().parents[2] / "views" / "room"
    direct = []
    for path in sorted(room.glob("*.py")):
        tree = ast.parse(path.read_text())
        functions = [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)]
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "fragment":
                around = [f for f in functions if f.lineno <= node.lineno <= f.end_lineno]
                innermost = max(around, key=lambda f: f.lineno).name if around else None
                if (path.name, innermost) != ("common.py", "wrap"):
                    direct.append(f"{path.name}:{node.lineno}")
    assert direct == []

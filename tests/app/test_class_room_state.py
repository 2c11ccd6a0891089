"""A waiting phone's cheap poll (views/room/poll.py) and the answers' bars (views/room/bars.py).

The route's replies are what the phone's watcher compares with the state its page drew; the bars
are what the lecturer's page and the projector redraw every second. Expected values are the
protocol's own words ("1:open") and closed forms (math.log2), not the code under test; the
grouping itself is tested in tests/teaching/test_class_results.py. The route is also asked over
HTTP, on a real server, in tests/browser/test_browser_class.py.
"""

from __future__ import annotations

import html
import math
import re
from datetime import datetime, timedelta

from room_support import data_dir, db  # noqa: F401 (fixtures)
from sqlalchemy.exc import OperationalError

from ndcg_core.classroom import (
    Store,
    Summary,
    choice_definition,
    exercise,
    grade,
    playground_definition,
    summarise,
)
from ndcg_core.variants import Variant
from views.room import poll
from views.room.bars import AnswerBars, Bar, answer_bars, answers_figure, bars_html

QUESTION = playground_definition(["A", "B", "C"], [0, 1, 1], Variant(), "ndcg")


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 25, 9, 0, 0)

    def __call__(self) -> datetime:
        return self.now


def test_the_route_tells_a_student_of_the_room_its_state_and_anyone_else_nothing(data_dir):
    clock = Clock()
    store = db(data_dir, clock=clock, hours=2)
    code, key = store.create_room()
    ann = store.join(code, "Ann").token
    assert poll.reply(store, code, ann) == (200, "none")  # nothing asked yet
    number = store.ask(code, key, QUESTION).number
    assert poll.reply(store, code, ann) == (200, f"{number}:draft")
    store.set_status(code, key, number, "open")
    assert poll.reply(store, code, ann) == (200, f"{number}:open")
    store.set_status(code, key, number, "revealed")
    assert poll.reply(store, code, ann) == (200, f"{number}:revealed")
    # Nobody else learns anything, not even whether the room exists: the same reply as no room at all.
    other, _ = store.create_room()
    bob = store.join(other, "Bob").token
    nothing = (404, None)
    assert poll.reply(store, code, None) == nothing
    assert poll.reply(store, code, "a" * 22) == nothing
    assert poll.reply(store, code, bob) == nothing
    assert poll.reply(store, "ABCDEF", ann) == nothing
    assert poll.reply(store, "", ann) == nothing
    clock.now += timedelta(hours=2)  # the room expires: its students' pages rerun and say so
    assert poll.reply(store, code, ann) == (200, poll.GONE)
    store.dispose()


def test_the_route_says_503_when_the_database_cannot_be_reached(data_dir, monkeypatch):
    store = db(data_dir)
    code, _ = store.create_room()
    ann = store.join(code, "Ann").token

    def down(*args, **kwargs):
        raise OperationalError("SELECT", {}, Exception("connection refused"))

    monkeypatch.setattr(Store, "poll", down)
    assert poll.reply(store, code, ann) == (503, None)
    store.dispose()


def test_the_state_the_page_draws_and_the_route_reports_are_one_text():
    assert poll.state_text(None) == "none"
    assert poll.state_text((3, "open")) == "3:open"


def test_numbers_get_a_bar_per_meaning_the_right_one_marked_once_revealed():
    e = exercise(QUESTION)  # NDCG of 0, 1, 1 under log2(i + 1): (1/log2 3 + 1/2) / (1 + 1/log2 3)
    exact = (1 / math.log2(3) + 1 / 2) / (1 + 1 / math.log2(3))  # 0.693
    typed = [f"{exact:.3f}", f"{exact:.2f}", "0.10"]
    rows = []
    for text in typed:
        g = grade(e, text)
        rows.append((g.response, g.correct, g.value, ",".join(g.mistakes)))
    summary = summarise(e, rows)
    shown = answer_bars(e, summary, revealed=True)
    bars = [(b.label, b.count, b.right) for b in shown.bars]
    assert bars == [("0.10", 1, False), (f"{exact:.3f}", 2, True)]
    assert shown.title == "3 answers" and shown.axis == "Answer"
    # Before the reveal no bar is marked: the projector must not give the answer away.
    assert not any(b.right for b in answer_bars(e, summary, revealed=False).bars)


def test_a_choice_question_gets_a_bar_per_option_named_as_the_phones_number_them():
    e = exercise(choice_definition("Best first?", ["<b>x</b>", "y", "z"], 1))
    summary = Summary(answered=3, correct=2, values=(), choices=(1, 2, 0), mistakes={})
    shown = answer_bars(e, summary, revealed=True)
    assert [(b.label, b.count, b.right) for b in shown.bars] == [
        ("1", 1, False),
        ("2", 2, True),
        ("3", 0, False),
    ]
    figure = answers_figure(e, summary, revealed=True)  # the lesson presenter's chart: the same bars
    assert list(figure.data[0].x) == ["1", "2 ✓", "3"] and list(figure.data[0].y) == [1, 2, 0]


def test_the_bars_are_text_the_right_one_marked_by_more_than_its_colour():
    e = exercise(choice_definition("Best first?", ["x", "y", "z"], 1))
    summary = Summary(answered=3, correct=2, values=(), choices=(1, 2, 0), mistakes={})
    markup = bars_html(answer_bars(e, summary, revealed=True))
    items = re.findall(r"<li[^>]*>.*?</li>", markup)
    assert len(items) == 3
    assert "ndcg-bar-right" in items[1] and "2 ✓" in items[1] and "2 students" in items[1]
    assert "1 student<" in items[0] and "✓" not in items[0]
    assert 'aria-hidden="true"' in items[2]  # no answers: kept in place, said to nobody
    assert 'aria-label="3 answers, by choice"' in markup
    # The longest bar has the whole width; the others their share of it.
    assert "width:100.00%" in items[1] and "width:50.00%" in items[0] and "width:0.00%" in items[2]


def test_labels_are_shown_as_text():
    tricky = AnswerBars("1 answer", "<i>axis</i>", (Bar("<b>x</b>", 1, right=True),))
    markup = bars_html(tricky)
    assert "<b>x</b>" not in markup and "<i>" not in markup
    assert html.escape("<b>x</b> ✓") in markup and html.escape("<i>axis</i>") in markup


def test_no_answers_yet_draw_empty_bars():
    empty = Summary(answered=0, correct=0, values=(), choices=(0, 0), mistakes={})
    choice = answer_bars(exercise(choice_definition("Which?", ["x", "y"], 0)), empty, False)
    assert [b.count for b in choice.bars] == [0, 0]
    assert answer_bars(exercise(QUESTION), empty, False).bars == ()  # no number given: no bar

"""Class results by meaning and the lesson's report (issue 42), without Streamlit.

The room's list is Wikipedia's D1..D6 graded 3, 2, 3, 0, 1, 2 under NDCG with log2(i + 1). Every
expected value is a closed form (math.log2 over the grades) or a number typed by hand, never the
code under test: the right value 0.9608, the log2(i) mistake's 0.9315 (max(1, log2 i)), the
exponential gain mistake's, and noise no common mistake gives.
"""

from __future__ import annotations

import csv
import io
import math

import pytest
from pypdf import PdfReader

from ndcg_core.classroom import (
    Store,
    choice_definition,
    exercise,
    grade,
    playground_definition,
    summarise,
)
from ndcg_core.classroom.grouping import MAX_OTHER, group_answers, group_label
from ndcg_core.classroom.report import (
    in_language,
    lesson_report,
    mistakes_text,
    overview,
    report_csv,
    report_title,
    room_report,
)
from ndcg_core.classroom.report_pdf import report_pdf
from ndcg_core.variants import Variant

GRADES = [3, 2, 3, 0, 1, 2]
LABELS = [f"D{i}" for i in range(1, 7)]


def ndcg(gain, divisor) -> float:
    def dcg(grades):
        return sum(gain(g) / divisor(i) for i, g in enumerate(grades, start=1))

    return dcg(GRADES) / dcg(sorted(GRADES, reverse=True))


RIGHT = ndcg(lambda g: g, lambda i: math.log2(i + 1))  # 0.9608
LOG2_I = ndcg(lambda g: g, lambda i: max(1.0, math.log2(i)))  # 0.9315: the original form's divisor
EXP_GAIN = ndcg(lambda g: 2**g - 1, lambda i: math.log2(i + 1))  # 0.9488: 2^grade - 1 as the gain
QUESTION = playground_definition(LABELS, GRADES, Variant(), "ndcg")


def rows_of(e, typed):
    """The stored rows of these typed answers, as the store keeps them (judged by grade)."""
    out = []
    for text in typed:
        g = grade(e, text)
        out.append((g.response, g.correct, g.value, ",".join(g.mistakes)))
    return out


def test_the_closed_forms_are_the_issues_numbers():
    assert (round(RIGHT, 3), round(LOG2_I, 3), round(EXP_GAIN, 3)) == (0.961, 0.932, 0.949)


def test_every_rounding_of_the_right_value_is_one_bar_and_each_mistake_its_own():
    e = exercise(QUESTION)
    right = [f"{RIGHT:.3f}", f"{RIGHT:.2f}", f"{RIGHT:.4f}", f"{RIGHT * 100:.1f}%"]  # 0.961 0.96 0.9608 96.1%
    wrong = [f"{LOG2_I:.3f}", f"{LOG2_I:.2f}", f"{EXP_GAIN:.3f}"]
    groups = group_answers(e, rows_of(e, right + wrong))
    assert [(g.kind, g.count) for g in groups] == [("mistake", 2), ("mistake", 1), ("right", 4)]
    log2_i, exp_gain, ok = groups  # in the order of their values: 0.9315, 0.9488, 0.9608
    assert ok.value == pytest.approx(RIGHT) and (ok.low, ok.high) == (0.96, 0.961)
    assert log2_i.mistakes == ("log2_i",) and log2_i.value == pytest.approx(LOG2_I)
    assert exp_gain.mistakes == ("exponential_gain",) and exp_gain.value == pytest.approx(EXP_GAIN)
    # Once revealed, each bar says what it means: the right value, each mistake's rule and its value.
    assert [group_label(g, e, revealed=True) for g in groups] == [
        "max(1, log2 i) · 0.932",
        "gain = 2^grade − 1 · 0.949",
        "0.961",
    ]
    # Before, only what the room typed most often (0.961 and 96.1% alike; between as many, the
    # finest): no name, nothing the room did not type.
    assert [group_label(g, e, revealed=False) for g in groups] == ["0.932", "0.949", "0.961"]
    tie = group_answers(e, rows_of(e, ["0.96", f"{RIGHT:.4f}"]))
    assert [group_label(g, e, revealed=False) for g in tie] == ["0.9608"]


def test_the_rest_is_a_few_bars_by_value_cut_at_the_widest_gaps():
    e = exercise(QUESTION)
    noise = ["0.10", "0.20", "0.20", "0.50", "0.55", "0.99"]
    stored = rows_of(e, noise)
    assert all(not ok and found == "unknown" for _r, ok, _v, found in stored)  # the judge names none
    groups = group_answers(e, stored)
    assert len(groups) == MAX_OTHER == 3
    # Distinct values 0.1, 0.2, 0.5, 0.55, 0.99: the widest gaps are 0.44 (0.55 to 0.99) and 0.3.
    assert [(g.kind, g.count, g.low, g.high) for g in groups] == [
        ("other", 3, 0.1, 0.2),
        ("other", 2, 0.5, 0.55),
        ("other", 1, 0.99, 0.99),
    ]
    assert [group_label(g, e, revealed=True) for g in groups] == ["0.10–0.20", "0.50–0.55", "0.99"]
    # Three values or fewer: a bar each.
    few = group_answers(e, rows_of(e, ["0.99", "0.99", "0.10"]))
    assert [(g.count, group_label(g, e, True)) for g in few] == [(1, "0.10"), (2, "0.99")]


def test_the_issues_room_right_mistake_and_noise():
    e = exercise(QUESTION)
    summary = summarise(e, rows_of(e, ["0.961", "0.96", "0.932", "0.99"]))
    assert (summary.answered, summary.correct) == (4, 2)
    assert [(g.kind, g.count, group_label(g, e, True)) for g in summary.groups] == [
        ("mistake", 1, "max(1, log2 i) · 0.932"),
        ("right", 2, "0.961"),
        ("other", 1, "0.99"),
    ]
    assert sum(g.count for g in summary.groups) == summary.answered


def test_an_orders_answers_are_grouped_by_their_ndcg_and_a_choice_is_left_to_its_options():
    e = exercise(playground_definition(["A", "B", "C"], [0, 1, 2], Variant(), "highest"))
    best, worst = ["C", "B", "A"], ["A", "B", "C"]
    groups = group_answers(e, rows_of(e, [best, best, worst]))
    # NDCG of 0, 1, 2 ranked as given: (1/log2 3 + 2/2) / (2/1 + 1/log2 3).
    low = (1 / math.log2(3) + 2 / 2) / (2 + 1 / math.log2(3))
    assert [(g.kind, g.count, group_label(g, e, True)) for g in groups] == [
        ("other", 1, f"{low:.3f}"),
        ("right", 2, "1.000"),
    ]
    choice = exercise(choice_definition("Which?", ["x", "y"], 0))
    assert group_answers(choice, rows_of(choice, [0, 1])) == ()


def test_the_report_gives_each_question_its_share_answers_and_most_common_mistakes():
    number = exercise(QUESTION)
    typed = ["0.961", "0.96", "0.932", "0.93", "0.9315", f"{EXP_GAIN:.3f}", "0.99"]
    choice = exercise(choice_definition("=HYPERLINK(1) best?", ["x", "y"], 1))
    unanswered = exercise(playground_definition(LABELS, GRADES, Variant(), "dcg"))
    report = lesson_report(
        [
            (1, number, summarise(number, rows_of(number, typed))),
            (2, choice, summarise(choice, rows_of(choice, [1, 1, 0]))),
            (3, unanswered, summarise(unanswered, [])),
        ]
    )
    one, two, three = report.rows
    assert (one.answered, one.right, one.share) == (7, 2, pytest.approx(2 / 7))
    assert one.mistakes == (("log2_i", "max(1, log2 i)", 3), ("exponential_gain", "gain = 2^grade − 1", 1))
    assert mistakes_text(one) == "max(1, log2 i) (3); gain = 2^grade − 1 (1)"
    assert (two.answered, two.right, two.share, two.mistakes) == (3, 2, pytest.approx(2 / 3), ())
    assert (three.answered, three.share) == (0, None)
    assert report.hardest is one and report.answers == 10
    assert overview(report) == "3 questions, 10 answers. Hardest: question 1, 29% right."

    rows = list(csv.reader(io.StringIO(report_csv(report))))
    assert rows[0] == [
        "Question",
        "Prompt",
        "Answer",
        "Answered",
        "Right",
        "Share right",
        "Most common mistakes",
    ]
    assert rows[1] == ["1", number.prompt, "0.961", "7", "2", "0.2857", mistakes_text(one)]
    assert rows[2][1] == "'=HYPERLINK(1) best?"  # a spreadsheet shows it as text, never runs it
    assert rows[3][3:6] == ["0", "0", ""]


def test_the_report_follows_the_page_language():
    e = exercise(QUESTION)
    report = lesson_report([(1, e, summarise(e, rows_of(e, ["0.96", "0.932"])))])
    header = in_language("zh", lambda: report_csv(report)).splitlines()[0]
    assert header.startswith("问题,") and "最常见的错误" in header
    assert report.hardest is None  # one question is no harder than another
    assert in_language("zh", lambda: overview(report)) == "1 道题，2 个答案。"
    asked = [(1, e, summarise(e, rows_of(e, ["0.96", "0.932"]))), (2, e, summarise(e, []))]
    assert lesson_report(asked).hardest is None  # the other was not answered
    asked[1] = (2, e, summarise(e, rows_of(e, ["0.96"])))
    harder = lesson_report(asked)
    assert harder.hardest is harder.rows[0]
    assert in_language("zh", lambda: overview(harder)) == "2 道题，3 个答案。最难：第 1 题，50% 答对。"
    assert report_csv(report).startswith("Question,")  # the caller's language is left as it was


def test_the_report_is_one_pdf_page_in_either_language_even_for_a_long_lesson():
    e = exercise(QUESTION)
    summary = summarise(e, rows_of(e, ["0.961", "0.932", "0.99"]))
    for lang, n in (("en", 7), ("zh", 7), ("en", 60), ("en", 120)):
        report = lesson_report([(i, e, summary) for i in range(1, n + 1)])
        pdf = in_language(lang, lambda r=report, t=lang: report_pdf(r, title=report_title("ABC234"), lang=t))
        reader = PdfReader(io.BytesIO(pdf))
        assert len(reader.pages) == 1, (lang, n)
        text = reader.pages[0].extract_text()
        assert "ABC234" in text and "max(1, log2 i)" in text
        if lang == "zh":
            assert "最常见的错误" in text
        if n == 120:  # past the smallest type, the page says what it left out
            assert "did not fit this page" in text
        else:
            assert f"{n}. " in text


def test_a_room_s_report_reads_every_question_from_the_store(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'class.sqlite3'}")
    code, key = store.create_room()
    for definition, typed in ((QUESTION, ["0.961", "0.932"]), (choice_definition("Q?", ["a", "b"], 0), [0])):
        number = store.ask(code, key, definition).number
        store.set_status(code, key, number, "open")
        for i, text in enumerate(typed):
            store.submit(code, store.join(code, f"S{number}{i}").token, number, text)
    report = room_report(store, code, key)
    assert [(r.number, r.answered, r.right) for r in report.rows] == [(1, 2, 1), (2, 1, 1)]
    assert report.rows[0].mistakes == (("log2_i", "max(1, log2 i)", 1),)
    store.dispose()

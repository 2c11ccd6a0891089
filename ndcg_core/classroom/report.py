"""The lesson's report: what a room answered, question by question, after a lesson or any run of
questions (issue 42, part 3).

One row per question asked: its share right, how many answered and its most common diagnosed
mistakes, in the reader's language; the hardest question is the one with the lowest share right.
:func:`report_csv` writes it for a spreadsheet (every cell through :mod:`ndcg_core.csvcells`),
:func:`~.report_pdf.report_pdf` as one page for the course page.

>>> from ndcg_core.classroom import exercise, grade, playground_definition, summarise
>>> from ndcg_core.variants import Variant
>>> e = exercise(playground_definition(list("ABCDEF"), [3, 2, 3, 0, 1, 2], Variant(), "ndcg"))
>>> rows = [(g.response, g.correct, g.value, ",".join(g.mistakes))
...         for g in (grade(e, t) for t in ["0.961", "0.96", "0.932", "0.99"])]
>>> row = lesson_report([(1, e, summarise(e, rows))]).rows[0]
>>> row.answered, row.right, row.share, row.mistakes
(4, 2, 0.5, (('log2_i', 'max(1, log2 i)', 1),))
"""

from __future__ import annotations

import contextvars
import csv
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from ..csvcells import csv_row
from ..i18n import _, ngettext, separator, set_language
from ..teaching.practice import MISTAKES, Exercise
from ..teaching.practice.mistakes import mistake_short
from .questions import Summary, correct_answer, exercise

if TYPE_CHECKING:
    from .store import Store

T = TypeVar("T")

__all__ = [
    "MOST_MISTAKES",
    "Report",
    "ReportRow",
    "in_language",
    "lesson_report",
    "mistakes_text",
    "overview",
    "report_csv",
    "report_title",
    "room_report",
    "share_text",
]

#: The most common mistakes a question's row names.
MOST_MISTAKES = 3


@dataclass(frozen=True)
class ReportRow:
    """One question of the report. ``mistakes``: ``(id, short words, answers)`` of its most common
    diagnosed mistakes, most answers first (between as many, in :data:`MISTAKES`' order)."""

    number: int
    prompt: str
    answer: str  # the right answer in words
    answered: int
    right: int
    mistakes: tuple[tuple[str, str, int], ...]

    @property
    def share(self) -> float | None:
        """The share of the answers that were right; None when nobody answered."""
        return self.right / self.answered if self.answered else None


@dataclass(frozen=True)
class Report:
    rows: tuple[ReportRow, ...]

    @property
    def answers(self) -> int:
        return sum(r.answered for r in self.rows)

    @property
    def hardest(self) -> ReportRow | None:
        """The answered question with the lowest share right (the first of as low), or None when no
        question was found harder than another (none answered, one, or all as right)."""
        answered = [r for r in self.rows if r.answered]
        if len({r.share for r in answered}) < 2:
            return None
        return min(answered, key=lambda r: r.share)


def lesson_report(asked: Iterable[tuple[int, Exercise, Summary]]) -> Report:
    """The report of the questions ``(number, exercise, summary)`` a room was asked, in that order."""
    rows = []
    for number, e, summary in asked:
        order = list(MISTAKES)
        known = sorted(
            ((m, n) for m, n in summary.mistakes.items() if m in MISTAKES),
            key=lambda p: (-p[1], order.index(p[0])),
        )[:MOST_MISTAKES]
        named = tuple((m, mistake_short(m, e.question), n) for m, n in known)
        rows.append(ReportRow(number, e.prompt, correct_answer(e), summary.answered, summary.correct, named))
    return Report(tuple(rows))


def room_report(store: Store, code: str, key: str) -> Report:
    """The report of every question room ``code`` was asked (the lecturer's ``key`` checked by the
    store), in the order they were asked."""
    asked = []
    for info in store.questions(code, key):
        _info, summary = store.summary(code, key, info.number)
        asked.append((info.number, exercise(info.definition), summary))
    return lesson_report(asked)


def report_title(code: str) -> str:
    """The report's title: which room it is of."""
    return _("Room {code}: what the room answered").format(code=code)


def in_language(lang: str, build: Callable[[], T]) -> T:
    """``build()`` with :func:`_` in ``lang``: a download is made outside the page's run, where the
    session's language is not known (in a copy of the context: the caller's language stays)."""

    def run() -> T:
        set_language(lang)
        return build()

    return contextvars.copy_context().run(run)


def overview(report: Report) -> str:
    """One line on the whole run: how many questions and answers, and which was hardest."""
    questions = ngettext("{n} question", "{n} questions", len(report.rows)).format(n=len(report.rows))
    answers = ngettext("{n} answer", "{n} answers", report.answers).format(n=report.answers)
    hardest = report.hardest
    if hardest is None:
        return _("{questions}, {answers}.").format(questions=questions, answers=answers)
    return _("{questions}, {answers}. Hardest: question {n}, {share} right.").format(
        questions=questions, answers=answers, n=hardest.number, share=share_text(hardest)
    )


def share_text(row: ReportRow) -> str:
    """The share right as a percentage, or "–" when nobody answered."""
    return "–" if row.share is None else f"{row.share:.0%}"


def mistakes_text(row: ReportRow) -> str:
    """The row's most common mistakes in a few words each, with their answers: ``ln(i + 1) (3)``."""
    return separator("; ").join(
        _("{mistake} ({n})").format(mistake=words, n=n) for _id, words, n in row.mistakes
    )


def report_csv(report: Report) -> str:
    """The report as CSV, its headers in the reader's language; prompts and answers (typed by the
    lecturer, some of them) escaped for a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            _("Question"),
            _("Prompt"),
            _("Answer"),
            _("Answered"),
            _("Right"),
            _("Share right"),
            _("Most common mistakes"),
        ]
    )
    for r in report.rows:
        share = "" if r.share is None else round(r.share, 4)
        writer.writerow(csv_row([r.number, r.prompt, r.answer, r.answered, r.right, share, mistakes_text(r)]))
    return out.getvalue()

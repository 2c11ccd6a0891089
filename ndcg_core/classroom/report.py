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

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass

from ..csvcells import csv_row
from ..i18n import _, separator
from ..teaching.practice import MISTAKES, Exercise
from ..teaching.practice.mistakes import mistake_short
from .questions import Summary, correct_answer

__all__ = ["MOST_MISTAKES", "Report", "ReportRow", "lesson_report", "mistakes_text", "report_csv", "share_text"]

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
        """The answered question with the lowest share right (the first of as low), or None."""
        answered = [r for r in self.rows if r.answered]
        return min(answered, key=lambda r: r.share) if answered else None


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
        rows.append(
            ReportRow(number, e.prompt, correct_answer(e), summary.answered, summary.correct, named)
        )
    return Report(tuple(rows))


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
        writer.writerow(
            csv_row([r.number, r.prompt, r.answer, r.answered, r.right, share, mistakes_text(r)])
        )
    return out.getvalue()

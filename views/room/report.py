"""The lesson's report on the lecturer's page: every question the room was asked, its share right,
its answers and its most common mistakes, with the hardest one marked; a CSV and a one-page PDF of
it to hand out (issue 42, part 3). What it says is computed in :mod:`ndcg_core.classroom.report`;
this module draws it. The files are made when their buttons are clicked, in the page's language.
"""

from __future__ import annotations

import functools
import html

import streamlit as st

from ndcg_core.classroom.report import (
    Report,
    in_language,
    mistakes_text,
    overview,
    report_csv,
    report_title,
    room_report,
    share_text,
)
from ndcg_core.i18n import _, language
from views.ui.markup import md_escape

from .common import get_store, live_part

#: The PDF's language tag for each of the app's languages.
LANGUAGE_TAGS = {"en": "en", "zh": "zh-CN"}
HARDEST = ' class="ndcg-report-hardest"'
NUM = ' class="num"'
#: Seconds between redraws of the report (the live view's numbers are redrawn every second).
REPORT_EVERY = 10.0


def report_table(report: Report) -> str:
    """The report as an HTML table (its texts escaped); the hardest question's row marked, in words
    too."""
    hardest = report.hardest
    heads = (_("Question"), _("Answer"), _("Answered"), _("Right"), _("Most common mistakes"))
    rows = []
    for r in report.rows:
        marked = hardest is not None and r.number == hardest.number
        question = _("{n}. {prompt}").format(n=r.number, prompt=r.prompt)
        if marked:
            question += " · " + _("the hardest")
        cells = (
            f'<td>{html.escape(question)}</td><td class="ndcg-report-answer">{html.escape(r.answer)}</td>'
            f'<td class="num">{r.answered}</td><td class="num">{html.escape(share_text(r))}</td>'
            f"<td>{html.escape(mistakes_text(r) or '–')}</td>"
        )
        rows.append(f"<tr{HARDEST if marked else ''}>{cells}</tr>")
    classes = {1: ' class="ndcg-report-answer"', 2: NUM, 3: NUM}
    header = "".join(f"<th{classes.get(i, '')}>{html.escape(h)}</th>" for i, h in enumerate(heads))
    body = "".join(rows)
    return f'<table class="ndcg-report"><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>'


def _file(kind: str, code: str, key: str, lang: str) -> bytes:
    """The report as CSV or PDF, built on its button's click (fpdf2 loads then)."""

    def build() -> bytes:
        report = room_report(get_store(), code, key)
        if kind == "csv":
            return report_csv(report).encode("utf-8-sig")  # a spreadsheet reads the hanzi as UTF-8
        from ndcg_core.classroom.report_pdf import report_pdf

        return report_pdf(report, title=report_title(code), lang=LANGUAGE_TAGS.get(lang, lang))

    return in_language(lang, build)


def report_panel(code: str, key: str) -> None:
    """The report, folded under the live view: open it after the lesson."""
    with st.expander(_("The lesson's report: every question asked"), icon=":material/summarize:"):
        _report(code, key)


@live_part(run_every=REPORT_EVERY)
def _report(code: str, key: str) -> None:
    """The report's numbers and its files' buttons: kept up to date while answers come in, behind
    the guard of every live part (a database that cannot be reached is one sentence)."""
    with st.container(key="cl_report"):
        report = room_report(get_store(), code, key)
        st.markdown(md_escape(overview(report)))
        st.html(report_table(report))
        lang = language()  # the files are made outside the page's run
        c1, c2 = st.columns(2)
        for column, kind, label, mime in (
            (c1, "csv", _("Download the report (CSV)"), "text/csv"),
            (c2, "pdf", _("Download the report (PDF, one page)"), "application/pdf"),
        ):
            column.download_button(
                label,
                data=functools.partial(_file, kind, code, key, lang),
                file_name=f"report-{code}.{kind}",
                mime=mime,
                key=f"cl_report_{kind}",
                on_click="ignore",
                width="stretch",
            )

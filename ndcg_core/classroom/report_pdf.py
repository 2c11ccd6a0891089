"""The lesson's report (:mod:`.report`) as a one-page PDF for the course page, drawn with fpdf2 in
the fonts the lesson's slides embed (:mod:`ndcg_core.teaching.slides.fonts`), so English and
Chinese look the same on every machine.

A4, portrait: a title, one line on the whole run (questions, answers, the hardest question), then
a table of the questions. A long run is set smaller until it fits the one page (down to
:data:`SMALLEST` points; past that, the last questions are left out and the page says how many).
"""

from __future__ import annotations

from ..i18n import _, ngettext
from ..teaching.slides.fonts import BOLD, REGULAR, covers, system_fonts
from .report import Report, mistakes_text, overview, share_text

__all__ = ["LARGEST", "SMALLEST", "report_pdf"]

FAMILY = "report"
#: The table's type sizes, in points: the largest first, then smaller while it overflows the page.
LARGEST, SMALLEST = 11.0, 6.5
#: Longest prompt the table quotes (characters): a typed question may be 300.
PROMPT_CHARS = 140
#: Longest right answer it quotes (an order's answer names every item).
ANSWER_CHARS = 60
INK = (11, 18, 32)
GREY = (71, 85, 105)
HEAD_FILL = (226, 232, 240)


def _texts(report: Report) -> str:
    return "".join(r.prompt + r.answer + mistakes_text(r) for r in report.rows)


def _draw(report: Report, title: str, lang: str, size: float, rows: int):
    from fpdf import FPDF  # the PDF writer loads only when a PDF is made
    from fpdf.fonts import FontFace

    pdf = FPDF(orientation="portrait", unit="mm", format="A4")
    pdf.set_margins(15, 15, 15)
    pdf.set_auto_page_break(True, margin=15)
    pdf.set_title(title)
    pdf.set_lang(lang)
    pdf.set_creator("NDCG, step by step")
    pdf.add_font(FAMILY, "", str(REGULAR))
    pdf.add_font(FAMILY, "B", str(BOLD))
    if not covers(title + _texts(report)):  # a character the subsets lack: the machine's full fonts
        names = []
        for n, (path, index) in enumerate(system_fonts()):
            pdf.add_font(f"fallback{n}", "", path, collection_font_number=index)
            names.append(f"fallback{n}")
        pdf.set_fallback_fonts(names, exact_match=False)
    pdf.add_page()
    pdf.set_text_color(*INK)
    pdf.set_font(FAMILY, "B", 16)
    pdf.multi_cell(0, 8, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(FAMILY, "", 10.5)
    pdf.set_text_color(*GREY)
    pdf.multi_cell(0, 5.5, overview(report), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    pdf.set_text_color(*INK)
    pdf.set_font(FAMILY, "", size)
    heads = (_("Question"), _("Answer"), _("Answered"), _("Right"), _("Most common mistakes"))
    with pdf.table(
        col_widths=(36, 14, 12, 9, 29),
        text_align=("LEFT", "LEFT", "RIGHT", "RIGHT", "LEFT"),
        line_height=size * 0.45,
        padding=(size * 0.06, 1.2),
        headings_style=FontFace(emphasis="BOLD", fill_color=HEAD_FILL),
        first_row_as_headings=True,
        repeat_headings=0,
    ) as table:
        table.row(heads)
        for r in report.rows[:rows]:
            prompt = r.prompt if len(r.prompt) <= PROMPT_CHARS else r.prompt[: PROMPT_CHARS - 1] + "…"
            question = _("{n}. {prompt}").format(n=r.number, prompt=prompt)
            answer = r.answer if len(r.answer) <= ANSWER_CHARS else r.answer[: ANSWER_CHARS - 1] + "…"
            table.row([question, answer, str(r.answered), share_text(r), mistakes_text(r) or "–"])
    left = len(report.rows) - rows
    if left:
        pdf.set_font(FAMILY, "", 9)
        pdf.multi_cell(
            0,
            5,
            ngettext(
                "{n} more question did not fit this page: the CSV has every one.",
                "{n} more questions did not fit this page: the CSV has every one.",
                left,
            ).format(n=left),
            new_x="LMARGIN",
            new_y="NEXT",
        )
    return pdf


def _largest(fits, low: int, high: int) -> int:
    """The largest ``n`` in ``low..high`` for which ``fits(n)``, given ``fits(low)`` and not
    ``fits(high)`` (halving: a long lesson's page is drawn a few times, not once per size)."""
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def report_pdf(report: Report, *, title: str, lang: str) -> bytes:
    """The report as one page of PDF, ``title`` at its top and in its metadata, ``lang`` (a BCP 47
    tag) its language: in the largest type (in steps of half a point) that fits the page."""
    n = len(report.rows)

    def draw(size: float, rows: int = n):
        return _draw(report, title, lang, size, rows)

    steps = int((LARGEST - SMALLEST) / 0.5)  # sizes SMALLEST + 0.5 * i, i in 0..steps
    if draw(LARGEST).page_no() == 1:
        return bytes(draw(LARGEST).output())
    if draw(SMALLEST).page_no() == 1:
        i = _largest(lambda i: draw(SMALLEST + 0.5 * i).page_no() == 1, 0, steps)
        return bytes(draw(SMALLEST + 0.5 * i).output())
    rows = _largest(lambda r: draw(SMALLEST, r).page_no() == 1, 0, n)  # too long: the rows that fit
    return bytes(draw(SMALLEST, rows).output())

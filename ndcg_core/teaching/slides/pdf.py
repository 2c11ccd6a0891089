"""The lesson as a PDF: one 16:9 page per step, drawn with fpdf2 where :mod:`.layout` put everything.

Text is text (the fonts are embedded, a subset of each, with their Unicode map), so the PDF can be
searched, copied and read back; the charts are PNG images.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from ..lesson import N_STEPS
from .fonts import BOLD, REGULAR, covers, system_fonts
from .layout import CELL_PAD_X, CELL_PAD_Y, PAGE_HEIGHT, PAGE_WIDTH, Page, TableLayout, TextBlock

__all__ = ["pdf_document"]

FAMILY = "slides"
INK = (11, 18, 32)
TEXT = (31, 41, 55)
BLUE = (29, 78, 216)
WHITE = (255, 255, 255)
HEAD_FILL = (226, 232, 240)
RULE = (203, 213, 225)
BEYOND = (100, 116, 139)
BOUNDARY = (71, 85, 105)


def _texts(pages: Sequence[Page]) -> str:
    """Every text the pages draw, to find characters the bundled fonts lack."""
    parts = []
    for page in pages:
        slide = page.slide
        parts += [slide.title, *slide.text, *slide.formulas, slide.table.caption, *slide.table.headers]
        parts += [cell for row in page.table.rows for cell in row]
    return "".join(parts)


def _fonts(pdf, pages: Sequence[Page]) -> None:
    pdf.add_font(FAMILY, "", str(REGULAR))
    pdf.add_font(FAMILY, "B", str(BOLD))
    if covers(_texts(pages)):
        return  # the full fonts are large to read: only when a character needs one
    fallbacks = []
    for n, (path, index) in enumerate(system_fonts()):
        pdf.add_font(f"fallback{n}", "", path, collection_font_number=index)
        fallbacks.append(f"fallback{n}")
    pdf.set_fallback_fonts(fallbacks, exact_match=False)


def _lines(pdf, block: TextBlock, color, align: str = "L") -> None:
    pdf.set_font(FAMILY, "B" if block.bold else "", block.size)
    pdf.set_text_color(*color)
    y = block.box.y
    for paragraph in block.paragraphs:
        for line in paragraph:
            pdf.set_xy(block.box.x, y)
            pdf.cell(w=block.box.w, h=block.line_height, text=line, align=align)
            y += block.line_height
        y += block.paragraph_gap


def _table(pdf, table: TableLayout) -> None:
    _lines(pdf, table.caption, INK)
    box = table.box
    pdf.set_fill_color(*HEAD_FILL)
    pdf.rect(box.x, box.y, box.w, table.header_height, style="F")
    line = table.size * 1.22 / 72
    lefts = [box.x + sum(table.widths[:c]) for c in range(len(table.widths))]
    pdf.set_font(FAMILY, "B", table.size)
    pdf.set_text_color(*INK)
    for c, lines in enumerate(table.header):
        for n, text in enumerate(lines):
            pdf.set_xy(lefts[c] + CELL_PAD_X, box.y + CELL_PAD_Y + n * line)
            pdf.cell(
                w=table.widths[c] - 2 * CELL_PAD_X, h=line, text=text, align="R" if table.numeric[c] else "L"
            )
    top = box.y + table.header_height
    pdf.set_draw_color(*INK)
    pdf.set_line_width(0.02)
    pdf.line(box.x, top, box.right, top)
    pdf.set_font(FAMILY, "", table.size)
    pdf.set_line_width(0.01)
    for r, row in enumerate(table.rows):
        y = top + r * table.row_height
        pdf.set_text_color(*(BEYOND if table.beyond[r] else TEXT))
        for c, cell in enumerate(row):
            pdf.set_xy(lefts[c] + CELL_PAD_X, y + (table.row_height - line) / 2)
            pdf.cell(
                w=table.widths[c] - 2 * CELL_PAD_X, h=line, text=cell, align="R" if table.numeric[c] else "L"
            )
        pdf.set_draw_color(*RULE)
        pdf.line(box.x, y + table.row_height, box.right, y + table.row_height)
        if table.beyond[r] and (r == 0 or not table.beyond[r - 1]):  # where k cuts the list
            pdf.set_draw_color(*BOUNDARY)
            with pdf.local_context(dash_pattern={"dash": 0.06, "gap": 0.04}, line_width=0.02):
                pdf.line(box.x, y, box.right, y)


def _page(pdf, page: Page, charts: dict[str, bytes]) -> None:
    pdf.add_page()
    badge = page.badge
    pdf.set_fill_color(*BLUE)
    pdf.rect(badge.x, badge.y, badge.w, badge.h, style="F", round_corners=True, corner_radius=0.06)
    pdf.set_font(FAMILY, "B", 20)
    pdf.set_text_color(*WHITE)
    pdf.set_xy(badge.x, badge.y)
    pdf.cell(w=badge.w, h=badge.h, text=f"{page.slide.number} / {N_STEPS}", align="C")
    _lines(pdf, page.title, INK)
    _lines(pdf, page.text, TEXT)
    _lines(pdf, page.formulas, BLUE)
    _table(pdf, page.table)
    if page.chart is not None and page.slide.chart is not None:
        chart = page.chart
        pdf.image(io.BytesIO(charts[page.slide.chart]), x=chart.x, y=chart.y, w=chart.w, h=chart.h)


def pdf_document(pages: Sequence[Page], charts: dict[str, bytes], *, title: str, lang: str) -> bytes:
    """The PDF of the laid-out ``pages``, ``charts`` by kind; ``title`` and ``lang`` (a BCP 47 tag)
    are the document's own, which a reader's screen reader and search use."""
    from fpdf import FPDF  # the PDF writer loads only when a PDF is made

    pdf = FPDF(orientation="landscape", unit="in", format=(PAGE_HEIGHT, PAGE_WIDTH))
    pdf.set_auto_page_break(False)
    pdf.set_margin(0)
    pdf.c_margin = 0
    pdf.set_title(title)
    pdf.set_lang(lang)
    pdf.set_creator("NDCG, step by step")
    _fonts(pdf, pages)
    for page in pages:
        _page(pdf, page, charts)
    return bytes(pdf.output())

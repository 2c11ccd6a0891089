"""The lesson as a PowerPoint deck (python-pptx): one 16:9 slide per step, boxes where :mod:`.layout`
put them.

Everything stays editable: the title is the slide's title placeholder, the text and formulas are
text boxes, the step table is a real table, the chart a picture. The question the step asks the
room and its answer are the slide's speaker notes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from ..lesson import N_STEPS
from .layout import CELL_PAD_X, CELL_PAD_Y, PAGE_HEIGHT, PAGE_WIDTH, Box, Page, TableLayout, TextBlock

__all__ = ["pptx_document"]

INK = "0B1220"
TEXT = "1F2937"
BLUE = "1D4ED8"
WHITE = "FFFFFF"
HEAD_FILL = "E2E8F0"
BEYOND = "64748B"
TITLE_ONLY = 5  # the default template's "Title Only" layout


def _place(shape, box: Box) -> None:
    from pptx.util import Inches

    shape.left, shape.top, shape.width, shape.height = (Inches(v) for v in (box.x, box.y, box.w, box.h))


def _frame(text_frame) -> None:
    from pptx.enum.text import MSO_ANCHOR, MSO_AUTO_SIZE

    text_frame.word_wrap = True
    text_frame.auto_size = MSO_AUTO_SIZE.NONE
    text_frame.vertical_anchor = MSO_ANCHOR.TOP
    text_frame.margin_left = text_frame.margin_right = 0
    text_frame.margin_top = text_frame.margin_bottom = 0


def _run(paragraph, text: str, size: float, color: str, *, bold=False, italic=False, lang=None) -> None:
    from pptx.dml.color import RGBColor
    from pptx.util import Pt

    run = paragraph.add_run()
    run.text = text
    run.font.size = Pt(size)
    run.font.bold = bold
    run.font.italic = italic
    run.font.color.rgb = RGBColor.from_string(color)
    if lang is not None:
        run.font.language_id = lang


def _write(text_frame, block: TextBlock, color: str, lang, align=None) -> None:
    from pptx.util import Pt

    _frame(text_frame)
    for n, text in enumerate(block.texts):
        paragraph = text_frame.paragraphs[0] if n == 0 else text_frame.add_paragraph()
        paragraph.line_spacing = 1.0
        paragraph.space_after = Pt(block.size * 0.45)
        if align is not None:
            paragraph.alignment = align
        _run(paragraph, text, block.size, color, bold=block.bold, lang=lang)


def _text_box(slide, block: TextBlock, color: str, lang) -> None:
    if block.texts:
        shape = slide.shapes.add_textbox(0, 0, 0, 0)
        _place(shape, block.box)
        _write(shape.text_frame, block, color, lang)


def _cell(
    cell, text: str, size: float, color: str, fill: str, *, bold=False, italic=False, right=False, lang=None
):
    from pptx.dml.color import RGBColor
    from pptx.enum.text import MSO_ANCHOR, PP_ALIGN
    from pptx.util import Inches

    cell.fill.solid()
    cell.fill.fore_color.rgb = RGBColor.from_string(fill)
    cell.margin_left = cell.margin_right = Inches(CELL_PAD_X)
    cell.margin_top = cell.margin_bottom = Inches(CELL_PAD_Y)
    cell.vertical_anchor = MSO_ANCHOR.MIDDLE
    paragraph = cell.text_frame.paragraphs[0]
    paragraph.alignment = PP_ALIGN.RIGHT if right else PP_ALIGN.LEFT
    _run(paragraph, text, size, color, bold=bold, italic=italic, lang=lang)


def _table(slide, layout: TableLayout, lang) -> None:
    from pptx.util import Inches

    _text_box(slide, layout.caption, INK, lang)
    box = layout.box
    frame = slide.shapes.add_table(len(layout.rows) + 1, len(layout.widths), 0, 0, 0, 0)
    _place(frame, box)
    table = frame.table
    table.first_row = True
    table.horz_banding = False
    for c, width in enumerate(layout.widths):
        table.columns[c].width = Inches(width)
    table.rows[0].height = Inches(layout.header_height)
    for c, header in enumerate(layout.headers):
        _cell(
            table.cell(0, c),
            header,
            layout.size,
            INK,
            HEAD_FILL,
            bold=True,
            right=layout.numeric[c],
            lang=lang,
        )
    for r, row in enumerate(layout.rows, start=1):
        table.rows[r].height = Inches(layout.row_height)
        beyond = layout.beyond[r - 1]
        for c, text in enumerate(row):
            color = BEYOND if beyond else TEXT
            _cell(
                table.cell(r, c),
                text,
                layout.size,
                color,
                WHITE,
                italic=beyond,
                right=layout.numeric[c],
                lang=lang,
            )


def _badge(slide, page: Page) -> None:
    from pptx.dml.color import RGBColor
    from pptx.enum.shapes import MSO_SHAPE
    from pptx.enum.text import MSO_ANCHOR, PP_ALIGN

    shape = slide.shapes.add_shape(MSO_SHAPE.ROUNDED_RECTANGLE, 0, 0, 0, 0)
    _place(shape, page.badge)
    shape.fill.solid()
    shape.fill.fore_color.rgb = RGBColor.from_string(BLUE)
    shape.line.fill.background()
    frame = shape.text_frame
    _frame(frame)
    frame.vertical_anchor = MSO_ANCHOR.MIDDLE
    paragraph = frame.paragraphs[0]
    paragraph.alignment = PP_ALIGN.CENTER
    _run(paragraph, f"{page.slide.number} / {N_STEPS}", 20, WHITE, bold=True)


def _slide(deck, page: Page, charts: dict[str, bytes], lang) -> None:
    from pptx.enum.text import PP_ALIGN
    from pptx.util import Inches

    slide = deck.slides.add_slide(deck.slide_layouts[TITLE_ONLY])
    title = slide.shapes.title
    _place(title, page.title.box)
    _write(title.text_frame, page.title, INK, lang, align=PP_ALIGN.LEFT)
    _badge(slide, page)
    _text_box(slide, page.text, TEXT, lang)
    _text_box(slide, page.formulas, BLUE, lang)
    _table(slide, page.table, lang)
    if page.chart is not None and page.slide.chart is not None:
        box = page.chart
        slide.shapes.add_picture(
            io.BytesIO(charts[page.slide.chart]), Inches(box.x), Inches(box.y), Inches(box.w), Inches(box.h)
        )
    if page.slide.notes:
        slide.notes_slide.notes_text_frame.text = "\n".join(page.slide.notes)


def pptx_document(pages: Sequence[Page], charts: dict[str, bytes], *, title: str, lang: str) -> bytes:
    """The deck of the laid-out ``pages``, ``charts`` by kind; ``title`` is the file's own, ``lang``
    the language its text is marked with (``"zh"`` or ``"en"``) for spelling and reading aloud."""
    from pptx import Presentation  # python-pptx loads only when a deck is made
    from pptx.enum.lang import MSO_LANGUAGE_ID
    from pptx.util import Inches

    deck = Presentation()
    deck.slide_width, deck.slide_height = Inches(PAGE_WIDTH), Inches(PAGE_HEIGHT)
    deck.core_properties.title = title
    language = MSO_LANGUAGE_ID.CHINESE_PRC if lang == "zh" else MSO_LANGUAGE_ID.ENGLISH_US
    for page in pages:
        _slide(deck, page, charts, language)
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()

"""Where everything goes on a 16:9 slide (13.333 × 7.5 inches), measured before anything is drawn.

One layout serves both files: the PDF draws its lines exactly where :func:`page_layout` put them,
the PowerPoint places its boxes there. From the top: the step's number and title, its text, its
formulas, then the table (with its name above it) and, where the step has one, the chart to the
table's right. Type is as large as fits: the text from 18 pt down to 11, the table from 16 pt down
to 8 pt; a table of more than :data:`MAX_ROWS` rows shows its first ones and a row of ``⋯``. Every
box lies inside the page's margins and none overlaps another (the tests check it on long lists,
long labels and Chinese).

>>> from ndcg_core.teaching.playground import DEFAULT_STATE
>>> from ndcg_core.teaching.slides.content import lesson_slides
>>> page = page_layout(lesson_slides(DEFAULT_STATE)[6])
>>> page.table.box.bottom <= PAGE_HEIGHT - MARGIN, page.chart.x > page.table.box.right
(True, True)
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from .content import Slide
from .fonts import POINTS_PER_INCH, text_width

__all__ = [
    "MARGIN",
    "MAX_ROWS",
    "PAGE_HEIGHT",
    "PAGE_WIDTH",
    "Box",
    "Page",
    "TableLayout",
    "TextBlock",
    "wrap",
]

PAGE_WIDTH, PAGE_HEIGHT = 13.333, 7.5  # inches: PowerPoint's 16:9
MARGIN = 0.45
GAP = 0.16
BADGE_WIDTH, BADGE_HEIGHT = 1.0, 0.52
LINE = 1.22  # line height, as a multiple of the type size
CELL_PAD_X, CELL_PAD_Y = 0.07, 0.035
MAX_ROWS = 15  # table rows on a slide; a longer list shows its first MAX_ROWS - 1 and a row of ⋯
CHART_MAX_WIDTH, CHART_MIN_HEIGHT = 5.8, 2.0
CHART_WIDTHS = (5.8, 5.2, 4.6)  # inches, largest first
TITLE_SIZES = (30, 26, 22)
TEXT_SIZES = (18, 17, 16, 15, 14, 13, 12, 11)
TABLE_SIZES = (18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8)
#: Characters a line never starts with (they close what came before: CJK punctuation, brackets).
NO_LINE_START = set("，。、：；！？）》」』】〉”’,.;:!?)]}%")
ELLIPSIS = "…"
FIT = 1e-6  # inches: what a width computed two ways may differ by (floating point), and still fit


@dataclass(frozen=True)
class Box:
    """A rectangle on the slide, in inches from its top left corner."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def overlaps(self, other: Box) -> bool:
        return (
            self.x < other.right and other.x < self.right and self.y < other.bottom and other.y < self.bottom
        )


@dataclass(frozen=True)
class TextBlock:
    """Paragraphs (``texts``) set at ``size`` points, each broken into the lines that fit ``box``'s
    width (``paragraphs``)."""

    box: Box
    size: float
    bold: bool
    texts: tuple[str, ...]
    paragraphs: tuple[tuple[str, ...], ...]

    @property
    def line_height(self) -> float:
        return self.size * LINE / POINTS_PER_INCH

    @property
    def paragraph_gap(self) -> float:
        return self.size * 0.45 / POINTS_PER_INCH


@dataclass(frozen=True)
class TableLayout:
    """A step table placed: its name above it, its columns' widths, each header's lines, and the rows
    shown (a long list's last shown row reads ``⋯``; a label too wide for its column ends in …)."""

    caption: TextBlock
    box: Box
    size: float
    widths: tuple[float, ...]
    headers: tuple[str, ...]
    header: tuple[tuple[str, ...], ...]
    header_height: float
    row_height: float
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...]
    beyond: tuple[bool, ...]


@dataclass(frozen=True)
class Page:
    slide: Slide
    badge: Box
    title: TextBlock
    text: TextBlock
    formulas: TextBlock
    table: TableLayout
    chart: Box | None

    def boxes(self) -> dict[str, Box]:
        """Every box drawn on the page, by name (the tests check none overlaps another)."""
        named = {
            "badge": self.badge,
            "title": self.title.box,
            "text": self.text.box,
            "formulas": self.formulas.box,
            "caption": self.table.caption.box,
            "table": self.table.box,
        }
        return named | ({"chart": self.chart} if self.chart is not None else {})


def _wide(c: str) -> bool:
    return unicodedata.east_asian_width(c) in "WF"


def _tokens(text: str) -> list[str]:
    """Pieces a line may break between: a word with the spaces after it, or one wide character;
    closing punctuation sticks to what comes before it."""
    tokens: list[str] = []
    for c in text:
        if tokens and (c in NO_LINE_START or c == " "):
            tokens[-1] += c
        elif _wide(c) or not tokens or _wide(tokens[-1][-1]) or tokens[-1].endswith(" "):
            tokens.append(c)
        else:
            tokens[-1] += c
    return tokens


def wrap(text: str, width: float, size: float, bold: bool = False) -> tuple[str, ...]:
    """``text`` broken into lines no wider than ``width`` inches at ``size`` points: between words,
    or between any two hanzi; a word wider than a line is broken between its characters.

    >>> wrap("Divide each gain by its divisor", 1.5, 12)
    ('Divide each gain by', 'its divisor')
    >>> wrap("把每个位置的价值加起来。", 1.0, 12)
    ('把每个位置的', '价值加起来。')
    """
    lines: list[str] = []
    line = ""
    for token in _tokens(text):
        if text_width((line + token).rstrip(), size, bold) <= width + FIT:
            line += token
            continue
        if line.strip():
            lines.append(line.rstrip())
        line = ""
        for c in token:  # a token wider than the line goes character by character
            if line and text_width((line + c).rstrip(), size, bold) > width + FIT:
                lines.append(line.rstrip())
                line = ""
            line += c
        line = line.lstrip()
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return tuple(lines)


def _clip(text: str, width: float, size: float) -> str:
    """``text`` cut to ``width`` inches, ending in … when cut."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + ELLIPSIS, size) > width:
        text = text[:-1]
    return text + ELLIPSIS


def _block(paragraphs, x: float, y: float, width: float, size: float, bold: bool = False) -> TextBlock:
    texts = tuple(p for p in paragraphs if p)
    broken = tuple(wrap(p, width, size, bold) for p in texts)
    probe = TextBlock(Box(x, y, width, 0), size, bold, texts, broken)
    lines = sum(len(p) for p in broken)
    height = lines * probe.line_height + max(len(broken) - 1, 0) * probe.paragraph_gap
    return TextBlock(Box(x, y, width, height), size, bold, texts, broken)


def _rows(slide: Slide, most: int) -> tuple[tuple[tuple[str, ...], ...], tuple[bool, ...]]:
    """The table's rows, at most ``most``: a longer table's first ``most - 1`` and a row of ⋯."""
    rows, beyond = slide.table.rows, slide.table.beyond
    if len(rows) <= most:
        return rows, beyond
    more = ("⋯",) * len(slide.table.headers)
    return (*rows[: most - 1], more), (*beyond[: most - 1], False)


def _header_width(header: str, size: float) -> float:
    """How wide a header's column must be: the whole header on one line when it is short (up to
    4.5 em: ``Beyond k``, ``折损增益``), else its two most even lines (``Discounted`` / ``gain``)."""
    whole = text_width(header, size, True)
    if whole <= 4.5 * size / POINTS_PER_INCH:
        return whole
    tokens = _tokens(header)
    splits = [
        max(text_width("".join(tokens[:n]).rstrip(), size, True), text_width("".join(tokens[n:]), size, True))
        for n in range(1, len(tokens))
    ]
    return min(splits, default=whole)


def _table(
    slide: Slide,
    x: float,
    y: float,
    width: float,
    height: float,
    size: float,
    most: int,
    stretch: float = 1.3,
) -> TableLayout | None:
    """The table at ``size`` points in ``width`` × ``height`` inches from (x, y), showing at most
    ``most`` rows, or None if it does not fit: every number on one line, each header in at most
    three lines."""
    rows, beyond = _rows(slide, most)
    headers, numeric = slide.table.headers, slide.table.numeric
    pad = 2 * CELL_PAD_X
    needed = [
        max(max((text_width(r[c], size) for r in rows), default=0), _header_width(headers[c], size)) + pad
        for c in range(len(headers))
    ]
    if sum(needed) > width:  # labels are cut to fit (a text column keeps at least 1.2 inches)
        text_columns = sorted((c for c in range(len(headers)) if not numeric[c]), key=lambda c: needed[c])
        spare = width - sum(needed[c] for c in range(len(headers)) if numeric[c])
        if not text_columns or spare < 1.2 * len(text_columns):
            return None
        for n, c in enumerate(text_columns):  # the narrow ones (yes/no) whole, the rest share what is left
            needed[c] = min(needed[c], spare / (len(text_columns) - n))
            spare -= needed[c]
    natural = sum(needed)
    target = min(width, natural * stretch)  # a little air between columns, where there is room
    widths = tuple(w * target / natural for w in needed)
    shown = tuple(
        tuple(cell if numeric[c] else _clip(cell, widths[c] - pad, size) for c, cell in enumerate(row))
        for row in rows
    )
    header = tuple(wrap(h, widths[c] - pad, size, bold=True) for c, h in enumerate(headers))
    if max(len(lines) for lines in header) > 3:
        return None
    line = size * LINE / POINTS_PER_INCH
    header_height = max(len(lines) for lines in header) * line + 2 * CELL_PAD_Y
    caption = _block([slide.table.caption], x, y, sum(widths), size, bold=True)
    top = caption.box.bottom + 0.06
    # Rows get more air where the slide has room for it, up to 1.6 lines each.
    spare = (y + height - top - header_height) / len(shown)
    row_height = max(line + 2 * CELL_PAD_Y, min(spare, 1.6 * line))
    box = Box(x, top, sum(widths), header_height + len(shown) * row_height)
    if box.bottom > y + height + 1e-9:
        return None
    return TableLayout(
        caption, box, size, widths, headers, header, header_height, row_height, shown, numeric, beyond
    )


def _title(slide: Slide) -> TextBlock:
    x = MARGIN + BADGE_WIDTH + 0.25
    width = PAGE_WIDTH - MARGIN - x
    for size in TITLE_SIZES:
        block = _block([slide.title], x, MARGIN, width, size, bold=True)
        if sum(len(p) for p in block.paragraphs) <= 2:
            return block
    return block


def page_layout(slide: Slide) -> Page:
    """The slide laid out: the largest type with which everything fits (see the module's text)."""
    for most in (MAX_ROWS, 10, 6):  # fewer rows only where the smallest type does not fit
        page = _page(slide, most)
        if page is not None:
            return page
    # Not a reader's error: six rows at the smallest type fit every list (tests/teaching/test_slides.py
    # lays out the hardest ones), so reaching this is a bug in this module, not bad input.
    raise RuntimeError(f"step {slide.number} does not fit on a slide")


def _table_sizes(text_size: float) -> list[float]:
    """The table's type sizes to try beside text of ``text_size``: no larger than the text, and at
    most 4 points smaller, except beside the smallest text (down to the smallest table type)."""
    floor = TABLE_SIZES[-1] if text_size == TEXT_SIZES[-1] else text_size - 4
    return [s for s in TABLE_SIZES if floor <= s <= text_size]


def _page(slide: Slide, most: int) -> Page | None:
    """The slide with at most ``most`` table rows: the table under the text (the chart beside it),
    or, on a slide without a chart, beside the text where that lets its type be larger."""
    title = _title(slide)
    badge = Box(MARGIN, MARGIN + max(title.line_height - BADGE_HEIGHT, 0) / 2, BADGE_WIDTH, BADGE_HEIGHT)
    top = max(title.box.bottom, badge.bottom) + GAP
    under = _under(slide, title, badge, top, most)
    if slide.chart is not None:
        return under
    beside = _beside(slide, title, badge, top, most)
    if under is None or (
        beside is not None and (beside.table.size, beside.text.size) > (under.table.size, under.text.size)
    ):
        return beside
    return under


def _under(slide: Slide, title: TextBlock, badge: Box, top: float, most: int) -> Page | None:
    """The text across the slide, the table under it, the chart to the table's right."""
    width = PAGE_WIDTH - 2 * MARGIN
    bottom = PAGE_HEIGHT - MARGIN
    for size in TEXT_SIZES:
        text = _block(slide.text, MARGIN, top, width, size)
        formulas = _block(slide.formulas, MARGIN, text.box.bottom + GAP, width, size + 1, bold=True)
        table_top = (formulas.box.bottom if slide.formulas else text.box.bottom) + GAP
        room = bottom - table_top
        charts = [None]
        if slide.chart is not None:  # the chart narrows before the table's type shrinks
            largest = min(CHART_MAX_WIDTH, room * 16 / 9)
            charts = [w for w in CHART_WIDTHS if w <= largest] or [largest]
            if charts[0] * 9 / 16 < CHART_MIN_HEIGHT:
                continue
        for table_size in _table_sizes(size):
            for chart_width in charts:
                chart = None
                table_width = width
                if chart_width is not None:
                    chart = Box(
                        PAGE_WIDTH - MARGIN - chart_width, table_top, chart_width, chart_width * 9 / 16
                    )
                    table_width = width - chart_width - 2 * GAP
                table = _table(slide, MARGIN, table_top, table_width, room, table_size, most)
                if table is not None:
                    return Page(slide, badge, title, text, formulas, table, chart)
    return None


def _beside(slide: Slide, title: TextBlock, badge: Box, top: float, most: int) -> Page | None:
    """The text and formulas on the left, the table on the right from the text's top to the bottom
    (a narrow table of a long list: steps 1 to 3)."""
    width = PAGE_WIDTH - 2 * MARGIN
    bottom = PAGE_HEIGHT - MARGIN
    for size in TEXT_SIZES:
        for table_size in _table_sizes(size):
            probe = _table(slide, MARGIN, top, width / 2, bottom - top, table_size, most, stretch=1.15)
            if probe is None:
                continue
            left = PAGE_WIDTH - MARGIN - probe.box.w
            column = left - 2 * GAP - MARGIN
            text = _block(slide.text, MARGIN, top, column, size)
            formulas = _block(slide.formulas, MARGIN, text.box.bottom + GAP, column, size + 1, bold=True)
            if formulas.box.bottom <= bottom:
                table = _table(slide, left, top, probe.box.w, bottom - top, table_size, most, stretch=1.15)
                if table is not None:
                    return Page(slide, badge, title, text, formulas, table, None)
    return None

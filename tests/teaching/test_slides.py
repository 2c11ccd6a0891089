"""The whole lesson for slides: the PDF and the PowerPoint deck opened and read back.

The list is the Learn page's opening one, Wikipedia's D1..D6 (grades 3, 2, 3, 0, 1, 2) under the
original discount max(1, log2 i), so DCG@6 = rel_1 + Σ_{i≥2} rel_i / log2 i: Wikipedia's worked
example, whose numbers (DCG 8.10, IDCG 8.69, NDCG 0.932) the slides must carry to 3 decimals.
"""

from __future__ import annotations

import io
import math
import re
import struct

import pytest
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE
from pptx.util import Emu
from pypdf import PdfReader

from ndcg_core.i18n import _, language, set_language
from ndcg_core.teaching.export import formula_text
from ndcg_core.teaching.lesson import N_STEPS, STEP_CHARTS, lesson_step
from ndcg_core.teaching.playground import DEFAULT_STATE, from_query_params
from ndcg_core.teaching.rendering import explained
from ndcg_core.teaching.slides import lesson_pdf, lesson_pptx
from ndcg_core.teaching.slides.content import lesson_slides
from ndcg_core.teaching.slides.fonts import covers, system_fonts, text_width
from ndcg_core.teaching.slides.layout import MARGIN, PAGE_HEIGHT, PAGE_WIDTH, page_layout

L2 = math.log2
# Wikipedia's D1..D6 in closed form (the original discount: positions 1 and 2 divide by 1).
DCG = 3 + 2 + 3 / L2(3) + 0 + 1 / L2(5) + 2 / L2(6)
IDCG = 3 + 3 + 2 / L2(3) + 2 / 2 + 1 / L2(5) + 0
NDCG = DCG / IDCG
TITLES_ZH = ["一个排序列表和它的等级", "DCG：把每个位置的价值加起来", "截断 k"]  # steps 1, 4, 7


def three(x: float) -> str:
    return f"{x:.3f}"


def test_the_seeds_numbers_in_closed_form():
    assert (round(DCG, 2), round(IDCG, 2), round(NDCG, 3)) == (8.10, 8.69, 0.932)  # Wikipedia's
    ex = explained(DEFAULT_STATE)
    assert ex.steps["Grade"].tolist() == [3, 2, 3, 0, 1, 2]
    assert (ex.dcg, ex.idcg, ex.ndcg) == pytest.approx((DCG, IDCG, NDCG))


@pytest.fixture(scope="module", params=["en", "zh"])
def lang(request):
    return request.param


@pytest.fixture(scope="module")
def titles(lang):
    """Each step's title in ``lang``, as the Learn page shows it."""
    set_language(lang)
    try:
        return [lesson_step(n, explained(DEFAULT_STATE)).title for n in range(1, N_STEPS + 1)]
    finally:
        set_language("en")


@pytest.fixture(scope="module")
def deck(lang):
    return Presentation(io.BytesIO(lesson_pptx(DEFAULT_STATE, lang=lang)))


@pytest.fixture(scope="module")
def pdf(lang):
    return PdfReader(io.BytesIO(lesson_pdf(DEFAULT_STATE, lang=lang)))


def table_of(slide) -> list[list[str]]:
    frames = [s for s in slide.shapes if s.has_table]
    assert len(frames) == 1
    return [[cell.text for cell in row.cells] for row in frames[0].table.rows]


def texts_of(slide) -> str:
    return "\n".join(s.text_frame.text for s in slide.shapes if s.has_text_frame)


def test_the_deck_has_seven_16_by_9_slides_titled_as_the_steps(deck, titles):
    assert len(deck.slides) == N_STEPS
    assert Emu(deck.slide_width).inches == pytest.approx(13.333, abs=0.01)
    assert Emu(deck.slide_height).inches == pytest.approx(7.5)
    assert [slide.shapes.title.text for slide in deck.slides] == titles


def test_the_deck_in_chinese_has_chinese_titles(deck, lang):
    if lang != "zh":
        pytest.skip("the Chinese deck only")
    shown = [deck.slides[n - 1].shapes.title.text for n in (1, 4, 7)]
    assert shown == TITLES_ZH


def test_the_deck_tables_carry_wikipedias_numbers(deck, lang):
    set_language(lang)
    try:
        headers = {c: _(c) for c in ("Position", "Item", "Grade", "Discounted gain", "Cumulative DCG")}
        ideal_total, beyond, yes_no = _("Cumulative IDCG"), _("Beyond k"), {_("yes"), _("no")}
    finally:
        set_language("en")
    first = table_of(deck.slides[0])
    assert first[0] == [headers["Position"], headers["Item"], headers["Grade"]]
    assert [row[2] for row in first[1:]] == ["3", "2", "3", "0", "1", "2"]
    dcg = table_of(deck.slides[3])  # step 4: discounted gains and their running total
    discounted = dcg[0].index(headers["Discounted gain"])
    total = dcg[0].index(headers["Cumulative DCG"])
    assert dcg[3][discounted] == three(3 / L2(3))  # D3: 3 / log2 3 = 1.893
    assert dcg[-1][total] == three(DCG)  # 8.097: Wikipedia's 8.10
    ideal = table_of(deck.slides[4])  # step 5: the ideal ordering
    assert [row[1] for row in ideal[1:]] == ["D1", "D3", "D2", "D6", "D5", "D4"]
    assert ideal[-1][ideal[0].index(ideal_total)] == three(IDCG)  # 8.693: Wikipedia's 8.69
    cutoff = table_of(deck.slides[6])
    assert {row[cutoff[0].index(beyond)] for row in cutoff[1:]} <= yes_no


def test_the_deck_formulas_use_the_lists_own_numbers(deck):
    step4, step6 = texts_of(deck.slides[3]), texts_of(deck.slides[5])
    assert "3/1 + 2/1 + 3/1.585 + 0/2 + 1/2.322 + 2/2.585 = 8.097" in step4
    assert f"= {three(DCG)}/{three(IDCG)} = {three(NDCG)}" in step6  # 0.932


def test_the_deck_has_a_chart_where_the_step_has_one_and_notes_with_the_answer(deck):
    for n, slide in enumerate(deck.slides, start=1):
        pictures = [s for s in slide.shapes if s.shape_type == MSO_SHAPE_TYPE.PICTURE]
        assert len(pictures) == (1 if n in STEP_CHARTS else 0), n
        for picture in pictures:
            assert picture.image.content_type == "image/png"
            assert picture.width / picture.height == pytest.approx(16 / 9, rel=0.01)
    notes = deck.slides[3].notes_slide.notes_text_frame.text  # step 4 asks the room for D3's value
    assert "1.893" in notes and "3 ÷ 1.585" in notes
    assert not deck.slides[0].has_notes_slide  # step 1 asks nothing


def test_the_pdf_has_seven_16_by_9_pages_whose_text_reads_back(pdf, titles):
    assert len(pdf.pages) == N_STEPS
    for page in pdf.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert (width, height) == pytest.approx((13.333 * 72, 7.5 * 72), abs=0.5)
    texts = [page.extract_text() for page in pdf.pages]
    for n, (text, title) in enumerate(zip(texts, titles, strict=True), start=1):
        assert title in text, n
        assert f"{n} / {N_STEPS}" in text
    assert "1.893" in texts[3] and three(DCG) in texts[3]
    assert three(IDCG) in texts[4] and three(NDCG) in texts[5]
    assert "grades, top first" in texts[0] or "等级，从上到下" in texts[0]


def test_the_pdf_embeds_its_fonts_and_the_charts(pdf):
    fonts = {}
    for page in pdf.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
            fonts[str(font["/BaseFont"])] = "/FontFile2" in descriptor  # an embedded TrueType font
    assert fonts and all("NotoSansCJKSC" in name for name in fonts), fonts  # the bundled ones only
    assert all(fonts.values()), fonts  # none left to the reader's machine
    images = [len(page.images) for page in pdf.pages]
    assert images == [1 if n in STEP_CHARTS else 0 for n in range(1, N_STEPS + 1)]


def test_the_language_argument_leaves_the_callers_language_alone():
    set_language("en")
    data = lesson_pptx(DEFAULT_STATE, lang="zh", charts=False)
    assert language() == "en"
    assert Presentation(io.BytesIO(data)).slides[0].shapes.title.text == TITLES_ZH[0]


# ------------------------------------------------------------------ the layout, on hard lists


def hard_states():
    """Lists that strain a slide: the usual 10 with k = 5, a long list, long and Chinese labels,
    exponential gain, judged items the system missed, and a library's whole-pool IDCG."""
    cases = {
        "ten": {"rel": "3,2,3,0,1,2,3,0,2,1", "k": "5"},
        "forty": {"rel": ",".join(str(i % 4) for i in range(40)), "k": "10"},
        "labels": {
            "rel": "3,2,1,0",
            "labels": "a very long document title that goes on,二,三个字的标签很长很长很长,x",
        },
        "exponential": {"rel": "3,2,3,0,1,2", "gain": "exponential", "k": "3"},
        "pool": {"rel": "1,0,2", "pool": "3,3,2"},
        "trec": {"rel": "3,2,3,0,1,2", "library": "trec_eval", "k": "3"},
        "negative": {"rel": "-1,2,0,-2,1", "k": "4"},
    }
    states = {}
    for name, params in cases.items():
        state, warnings = from_query_params(params)
        assert not warnings, (name, warnings)
        states[name] = state
    return states


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(hard_states()))
def test_every_box_lies_inside_the_page_and_none_overlaps_another(name, lang):
    set_language(lang)
    try:
        slides = lesson_slides(hard_states()[name])
    finally:
        set_language("en")
    for slide in slides:
        page = page_layout(slide)
        boxes = page.boxes()
        for label, box in boxes.items():
            assert box.x >= MARGIN - 1e-6 and box.y >= MARGIN - 1e-6, (slide.number, label)
            assert box.right <= PAGE_WIDTH - MARGIN + 1e-6, (slide.number, label, box)
            assert box.bottom <= PAGE_HEIGHT - MARGIN + 1e-6, (slide.number, label, box)
        labels = list(boxes)
        for i, a in enumerate(labels):
            for b in labels[i + 1 :]:
                assert not boxes[a].overlaps(boxes[b]), (name, slide.number, a, b)
        for block in (page.title, page.text, page.formulas, page.table.caption):
            for line in (line for paragraph in block.paragraphs for line in paragraph):
                assert text_width(line, block.size, block.bold) <= block.box.w + 1e-6, (slide.number, line)
        table = page.table
        assert sum(table.widths) == pytest.approx(table.box.w)
        for row in table.rows:  # every cell fits its column (labels are cut with …)
            for cell, width in zip(row, table.widths, strict=True):
                assert text_width(cell, table.size) <= width, (slide.number, cell)
        assert table.size >= 8 and page.text.size >= 11


def test_a_long_list_shows_its_first_rows_and_says_more_follow():
    slide = lesson_slides(hard_states()["forty"])[3]
    table = page_layout(slide).table
    assert len(slide.table.rows) == 40
    assert len(table.rows) <= 15 and table.rows[-1][0] == "⋯"
    assert table.rows[0] == slide.table.rows[0]


def test_every_lesson_formula_reads_as_plain_text():
    for state in [DEFAULT_STATE, *hard_states().values()]:
        ex = explained(state)
        for n in range(1, N_STEPS + 1):
            for latex in lesson_step(n, ex).formulas:
                text = formula_text(latex)
                assert not re.search(r"[\\{}]|\b(frac|mathrm|underset|color)\b", text), (latex, text)


# ------------------------------------------------------------------ the fonts


def test_the_bundled_fonts_draw_every_character_of_the_chinese_catalog():
    from babel.messages.pofile import read_po

    from ndcg_core.i18n import catalog_paths

    with catalog_paths("zh")[0].open("rb") as source:
        catalog = read_po(source, locale="zh")
    text = "".join(
        s for m in catalog if m.id for s in (m.string if isinstance(m.string, tuple) else (m.string,)) if s
    )
    missing = sorted({c for c in text if not covers(c)})
    assert missing == [], f"run `make slide-fonts` to add {''.join(missing)} to the bundled fonts"


def test_a_character_the_bundled_fonts_lack_comes_from_the_machines_full_font():
    if not any("CJK" in path for path, _index in system_fonts()):
        pytest.skip("no full CJK font on this machine (Debian: fonts-noto-cjk)")
    state, _warnings = from_query_params({"rel": "3,2", "labels": "龘,靐"})
    assert not covers("龘靐")
    reader = PdfReader(io.BytesIO(lesson_pdf(state, lang="zh", charts=False)))
    assert "龘" in reader.pages[0].extract_text()


def test_the_charts_are_drawn_larger_than_their_layout():
    from ndcg_core.teaching.slides.content import CHART_HEIGHT, CHART_SCALE, CHART_WIDTH, chart_images

    for image in chart_images(DEFAULT_STATE).values():
        assert image[:8] == b"\x89PNG\r\n\x1a\n"
        size = struct.unpack(">II", image[16:24])
        assert size == (round(CHART_WIDTH * CHART_SCALE), round(CHART_HEIGHT * CHART_SCALE))

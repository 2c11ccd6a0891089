"""Write the fonts the slide exports embed: subsets of Noto Sans CJK SC, Regular and Bold, in TrueType.

    python scripts/slide_fonts.py        # or: make slide-fonts (after make fonts)

A PDF carries its fonts, and the lesson's PDF must show Chinese on any machine, with or without
CJK fonts installed. So ``ndcg_core/teaching/slides/fonts/`` holds two small subsets of Noto Sans
CJK SC (SIL Open Font License 1.1, beside them as ``OFL.txt``), made from the full fonts of
Debian's ``fonts-noto-cjk`` by this script, their outlines turned from CFF into TrueType curves
(fontTools' cu2qu, within 1 unit of 1000 per em): a PDF then names its glyphs by the plain
Identity-H encoding, which every PDF reader (pypdf included) reads text back from. They hold
printable ASCII and Latin-1, the symbols the lesson writes (÷ − · ≥ ⋯ Σ ...), CJK punctuation
and full-width forms, GB 2312's 3,755 level-1 hanzi (the common ones) and every character of the
Chinese catalog. A character outside them (a rare hanzi in an item's label) is drawn from a full
CJK font where the machine has one (:mod:`ndcg_core.teaching.slides.fonts`). Run it again when a
translation brings a character the subsets lack: a test names any.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

from babel.messages.pofile import read_po
from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection, TTFont, newTable

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ndcg_core.teaching.slides.fonts import BOLD, EXTRA_CHARACTERS, REGULAR  # noqa: E402

CATALOG = ROOT / "ndcg_core" / "locale" / "zh" / "LC_MESSAGES" / "messages.po"
SOURCES = {
    REGULAR: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    BOLD: "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
}
SIMPLIFIED_CHINESE = 2  # the collection's Noto Sans CJK SC


def level_1_hanzi() -> set[str]:
    """GB 2312's level-1 characters: rows 16 to 55, the 3,755 most used hanzi."""
    found = set()
    for high in range(0xB0, 0xD8):
        for low in range(0xA1, 0xFF):
            try:
                found.add(bytes([high, low]).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return found


def catalog_characters() -> set[str]:
    with CATALOG.open("rb") as source:
        catalog = read_po(source, locale="zh")
    found = set()
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            found |= set(text or "")
    return found


def characters() -> str:
    latin = {chr(c) for c in range(0x20, 0x7F)} | {chr(c) for c in range(0xA0, 0x180)}
    cjk_forms = {chr(c) for c in range(0x3000, 0x3040)} | {chr(c) for c in range(0xFF01, 0xFF5F)}
    every = latin | cjk_forms | set(EXTRA_CHARACTERS) | level_1_hanzi() | catalog_characters()
    return "".join(sorted(every))


def truetype(font: TTFont) -> None:
    """Turn a CFF-flavoured OpenType font into a TrueType one, in place (fontTools' otf2ttf recipe)."""
    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder, glyf.glyphs = order, {}
    for name in order:
        pen = TTGlyphPen(glyphs)
        glyphs[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
        glyf[name] = pen.glyph()
    font["loca"], font["glyf"] = newTable("loca"), glyf
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    counts = ["TwilightPoints", "Storage", "FunctionDefs", "InstructionDefs", "StackElements"]
    counts += ["SizeOfInstructions", "ComponentElements", "Points", "Contours", "CompositePoints"]
    counts += ["CompositeContours", "ComponentDepth"]
    maxp.maxZones = 1
    for field in counts:  # no hinting: none of these is used (the font is recompiled on save)
        setattr(maxp, "max" + field, 0)
    post = font["post"]
    post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
    for table in ("CFF ", "VORG"):
        if table in font:
            del font[table]
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    text = characters()
    for target, source in SOURCES.items():
        font = TTCollection(source).fonts[SIMPLIFIED_CHINESE]
        options = subset.Options()
        options.layout_features = []  # the PDF writer places glyphs one by one: no shaping
        options.hinting = False
        options.name_IDs = ["*"]  # the copyright and licence records stay
        options.notdef_outline = True
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=text)
        subsetter.subset(font)
        truetype(font)
        font.recalcTimestamp = False  # the same fonts in, the same bytes out
        font.save(target)
        print(f"{target.relative_to(ROOT)}: {len(text)} characters, {target.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()

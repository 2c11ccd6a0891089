"""The fonts of the lesson's slides, and how wide a text set in them is.

The PDF embeds :data:`REGULAR` and :data:`BOLD`, subsets of Noto Sans CJK SC shipped with the
package (``fonts/OFL.txt``; ``scripts/slide_fonts.py`` makes them): Latin, the lesson's symbols and
the common hanzi, so English and Chinese slides look the same on every machine. A character they
lack (a rare hanzi or an emoji in an item's label) comes from a full font the machine has
(:data:`SYSTEM_FONTS`, Debian's ``fonts-noto-cjk`` first), when it has one.

Slides are laid out before they are drawn (:mod:`ndcg_core.teaching.slides.layout`): :func:`text_width`
measures a text in the bundled fonts, so the PDF's lines fit their boxes exactly and the
PowerPoint's boxes are as large as the PDF's.

>>> round(text_width("NDCG", 10), 3), text_width("步骤", 10) == 2 * text_width("步", 10)
(0.38, True)
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

__all__ = ["BOLD", "EXTRA_CHARACTERS", "REGULAR", "SYSTEM_FONTS", "covers", "system_fonts", "text_width"]

FOLDER = Path(__file__).parent / "fonts"
REGULAR = FOLDER / "NotoSansCJKsc-Regular-subset.ttf"
BOLD = FOLDER / "NotoSansCJKsc-Bold-subset.ttf"

#: Symbols the lesson and its formulas write, beyond Latin-1 (the subsets keep them).
EXTRA_CHARACTERS = "–—‘’“”…•−×÷±≤≥≠≈∞Σ∑√⋯→←↑↓✓·‰€"

#: Full fonts for characters the subsets lack, as (path, index in a collection), first found first.
SYSTEM_FONTS = (
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),  # Debian, Ubuntu: fonts-noto-cjk
    ("/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc", 2),  # Fedora
    ("/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc", 2),  # Arch
    ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0),  # Debian: fonts-dejavu-core (no hanzi)
)

POINTS_PER_INCH = 72


@lru_cache(maxsize=2)
def _metrics(bold: bool) -> tuple[dict[int, int], float]:
    """The bundled font's advance width per code point, and its units per em (read once)."""
    from fontTools.ttLib import TTFont  # fpdf2's font library, loaded when a slide is first measured

    font = TTFont(BOLD if bold else REGULAR, lazy=True)
    cmap = font.getBestCmap()
    hmtx = font["hmtx"]
    return {code: hmtx[name][0] for code, name in cmap.items()}, float(font["head"].unitsPerEm)


def covers(text: str) -> bool:
    """Whether the bundled fonts draw every character of ``text`` themselves."""
    widths, _em = _metrics(False)
    return all(ord(c) in widths or c in "\n\t" for c in text)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` is, in inches, set at ``size`` points in the bundled font. A character
    the font lacks counts as a full em if it is wide (a hanzi), else as 0.6 em."""
    widths, em = _metrics(bold)
    units = 0.0
    for c in text:
        advance = widths.get(ord(c))
        if advance is None:
            advance = em if unicodedata.east_asian_width(c) in "WF" else 0.6 * em
        units += advance
    return units / em * size / POINTS_PER_INCH


def system_fonts() -> tuple[tuple[str, int], ...]:
    """The :data:`SYSTEM_FONTS` this machine has."""
    return tuple((path, index) for path, index in SYSTEM_FONTS if Path(path).is_file())

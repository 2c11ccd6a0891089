"""Which characters a student's display name may hold (issue 30, part 7).

A name is shown to the lecturer, in the class's table and its CSV: it must show something, and it
must not change how the text around it reads. :func:`name_problem` says why a name is refused, as
a reason's code that :class:`~ndcg_core.classroom.store.BadName` carries and the page translates;
:func:`~ndcg_core.classroom.store.clean_name` (the one way in: :meth:`Store.join`) calls it.

>>> [name_problem(n) for n in ("Ana", "\\u200b\\u200b", "Ana\\u202egnp.exe", "a\\x00b")]
[None, 'invisible', 'bidi', 'control']
"""

from __future__ import annotations

import unicodedata

__all__ = ["BIDI_CONTROLS", "name_problem"]

#: Bidirectional embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069): each turns
#: the text after it around, in the name and past it ("Ana" + U+202E + "gnp.exe" reads
#: "Anaexe.png"; a name could reorder the lecturer's table). The marks U+200E and U+200F only
#: mark a direction and are kept.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

#: Characters that draw nothing though they are not format characters: the Hangul fillers, the
#: blank Braille pattern, the combining grapheme joiner and the variation selectors.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f") | frozenset(
    map(chr, [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])
)


def _invisible(c: str) -> bool:
    """Draws nothing: a space, a format character (Unicode's Cf: zero-width space, non-joiner and
    joiner U+200B..U+200D, word joiner U+2060, byte order mark U+FEFF, soft hyphen U+00AD, ...) or
    a blank character."""
    return c.isspace() or c in _BLANK or unicodedata.category(c) == "Cf"


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a display name, or None when it can.

    ``"control"``: it holds a control character (Cc: a NUL, a bell, an escape); ``"bidi"``: a
    bidirectional override or isolate (:data:`BIDI_CONTROLS`); ``"invisible"``: nothing in it
    draws (only spaces, format characters such as zero-width spaces, and blank characters).
    Invisible characters beside visible ones stay: a zero-width joiner inside an emoji or a word
    is part of it.
    """
    if any(unicodedata.category(c) == "Cc" for c in name):
        return "control"
    if any(c in BIDI_CONTROLS for c in name):
        return "bidi"
    if all(_invisible(c) for c in name):
        return "invisible"
    return None

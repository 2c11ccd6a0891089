"""The whole lesson for slides: one PDF and one PowerPoint deck of the seven steps.

Each step is one 16:9 page: its number and title, its text, the formula with the list's own
numbers, the step table (the ideal ordering's on step 5) and, from step 4 on, its chart; in the
language of the page that asks. The deck's speaker notes hold the question each step asks the room
and its answer.

* :mod:`.content`: what each slide says, taken from the lesson, presenter mode and the exports.
* :mod:`.layout`: where it goes, measured in the fonts the PDF embeds (:mod:`.fonts`).
* :mod:`.pdf` and :mod:`.powerpoint`: the two files (fpdf2 and python-pptx, loaded only when used).

>>> from ndcg_core.teaching.playground import DEFAULT_STATE
>>> lesson_pdf(DEFAULT_STATE, charts=False)[:5], lesson_pptx(DEFAULT_STATE, charts=False)[:2]
(b'%PDF-', b'PK')
"""

from __future__ import annotations

import contextvars
import dataclasses

from ...i18n import _, language, set_language
from ..playground import PlaygroundState
from .content import chart_images, lesson_slides
from .layout import page_layout
from .pdf import pdf_document
from .powerpoint import pptx_document

__all__ = ["lesson_pdf", "lesson_pptx"]

#: The documents' language tags (the app's language codes are already BCP 47 ones).
LANGUAGE_TAGS = {"en": "en", "zh": "zh-CN"}


def _build(state: PlaygroundState, lang: str | None, charts: bool, write) -> bytes:
    def build() -> bytes:
        if lang is not None:
            set_language(lang)  # in this copy of the context only
        slides = lesson_slides(state)
        if not charts:
            slides = tuple(dataclasses.replace(slide, chart=None) for slide in slides)
        pages = [page_layout(slide) for slide in slides]
        images = chart_images(state) if charts else {}
        title = _("NDCG, step by step")
        return write(pages, images, title=title, lang=LANGUAGE_TAGS.get(language(), language()))

    return contextvars.copy_context().run(build)


def lesson_pdf(state: PlaygroundState, *, lang: str | None = None, charts: bool = True) -> bytes:
    """The lesson for ``state``'s list, formula and k as a PDF, in ``lang`` (default: the current
    language). ``charts=False`` leaves the charts out (no Chromium needed)."""
    return _build(state, lang, charts, pdf_document)


def lesson_pptx(state: PlaygroundState, *, lang: str | None = None, charts: bool = True) -> bytes:
    """The lesson for ``state``'s list, formula and k as a PowerPoint deck (.pptx), in ``lang``
    (default: the current language). ``charts=False`` leaves the charts out."""
    return _build(state, lang, charts, pptx_document)

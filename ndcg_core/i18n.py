"""Translations of the app's text: GNU gettext catalogs, managed with Babel.

Every user-facing string goes through :func:`_` (or is marked with :func:`N_` where it is a
module-level constant, and translated with :func:`_` where it is shown). The catalogs live in
``ndcg_core/locale/<lang>/LC_MESSAGES/messages.po`` (compiled to ``.mo`` by ``make catalogs``).
The library's own ``ValueError`` messages stay English: they are API.

The language is per session: the app sets it at the top of each script run with
:func:`set_language`.
"""

from __future__ import annotations

import contextvars
import functools
import gettext
from pathlib import Path

#: The languages the app is translated into, with the name shown in the language switch.
LANGUAGES = {"en": "English", "zh": "中文"}
DEFAULT_LANGUAGE = "en"
DOMAIN = "messages"
LOCALE_DIR = Path(__file__).parent / "locale"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("ndcg_language", default=DEFAULT_LANGUAGE)


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English, the source language, needs none)."""
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def set_language(lang: str) -> None:
    """Use ``lang`` for :func:`_` in this thread/context (unknown codes fall back to English)."""
    _current.set(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)


def language() -> str:
    """The language :func:`_` translates into now."""
    return _current.get()


def _(message: str) -> str:
    """``message`` in the current language."""
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the current language."""
    return translations(_current.get()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for extraction only: translate it with :func:`_` where it is shown."""
    return message

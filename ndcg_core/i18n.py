"""Translations of the app's text: GNU gettext catalogs, managed with Babel.

Every user-facing string goes through :func:`_` (or is marked with :func:`N_` where it is a
module-level constant, and translated with :func:`_` where it is shown). The catalogs live in
``ndcg_core/locale/<lang>/LC_MESSAGES/messages.po``, compiled to ``.mo`` by ``make catalogs``
(``make run`` and ``make test`` compile them too). The library's own ``ValueError`` messages stay
English: they are API.

Which language :func:`_` uses: the app registers a *source* with :func:`use_language_source`
(a function that reads the session's choice), so every call, including those in a partial rerun
that skips the script's top, follows the session. Without a source (or when it answers None, as
outside a session) the language set with :func:`set_language` in this context is used.

>>> set_language("zh")
>>> _("Playground"), language()
('演练场', 'zh')
>>> set_language("en")
>>> _("Playground")
'Playground'

Numbers are formatted the same in both languages (``.`` as the decimal mark): nothing here
touches the locale of the process.
"""

from __future__ import annotations

import contextvars
import functools
import gettext
import io
from collections.abc import Callable
from pathlib import Path

#: The languages the app is translated into, with the name shown in the language switch.
LANGUAGES = {"en": "English", "zh": "中文"}
DEFAULT_LANGUAGE = "en"
DOMAIN = "messages"
LOCALE_DIR = Path(__file__).parent / "locale"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("ndcg_language", default=DEFAULT_LANGUAGE)
_source: list[Callable[[], str | None]] = []  # at most one: the app's session reader


def catalog_paths(lang: str) -> tuple[Path, Path]:
    """The ``.po`` catalog of ``lang`` and its compiled ``.mo``."""
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    return folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English, the source language, needs none).

    ``make catalogs`` (and ``make run`` / ``make test``) compile the ``.mo`` files. Where one is
    missing or older than its ``.po`` (a fresh clone run without make, an edited catalog), the
    ``.po`` is compiled in memory with Babel instead, so the app never shows a stale translation.
    """
    po, mo = catalog_paths(lang)
    if po.exists() and (not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime):
        # Babel comes with the app (its extra), not with the engine, which only marks its texts.
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        with po.open("rb") as source:
            catalog = read_po(source, locale=lang, domain=DOMAIN)
        compiled = io.BytesIO()
        write_mo(compiled, catalog)
        compiled.seek(0)
        return gettext.GNUTranslations(compiled)
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def language_of(code: str | None) -> str | None:
    """The app's language for a language or locale code (``zh-CN`` -> ``zh``), or None."""
    if not code:
        return None
    base = str(code).strip().replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None


def set_language(lang: str) -> None:
    """Use ``lang`` for :func:`_` in this thread/context (unknown codes fall back to English)."""
    _current.set(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)


def use_language_source(source: Callable[[], str | None] | None) -> Callable[[], str | None] | None:
    """Ask ``source()`` for the language at every call (None: only :func:`set_language`).

    Returns the source used until now, so a caller can put it back.
    """
    previous = _source[0] if _source else None
    _source.clear()
    if source is not None:
        _source.append(source)
    return previous


def language() -> str:
    """The language :func:`_` translates into now."""
    if _source:
        lang = _source[0]()
        if lang in LANGUAGES:
            return lang
    return _current.get()


def _(message: str) -> str:
    """``message`` in the current language (an empty text stays empty: gettext maps it to the header)."""
    return translations(language()).gettext(message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the current language."""
    return translations(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, in ``context``: one English text that two places
    translate differently (Practice's "Previous" exercise, Learn's "Previous" step)."""
    return translations(language()).pgettext(context, message) if message else message


def separator(sep: str = "; ") -> str:
    """A list separator (``"; "`` or ``", "``) in the current language: text built from translated
    pieces joins them with it, so a Chinese sentence gets Chinese punctuation (``；``, ``，``).

    >>> set_language("zh")
    >>> separator("; ").join(["增益 = 等级", "k = 3"])
    '增益 = 等级；k = 3'
    >>> set_language("en")
    """
    return {"; ": pgettext("separator", "; "), ", ": pgettext("separator", ", ")}[sep]


def N_(message: str) -> str:
    """Mark ``message`` for extraction only: translate it with :func:`_` where it is shown."""
    return message

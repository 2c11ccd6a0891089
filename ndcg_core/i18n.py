"""Translations of the app's text: GNU gettext catalogs, managed with Babel.

Every user-facing string goes through :func:`_` (or is marked with :func:`N_` where it is a
module-level constant, and translated with :func:`_` where it is shown). The catalogs live in
``ndcg_core/locale/<lang>/LC_MESSAGES/messages.po``, compiled to ``.mo`` by ``make catalogs``
(``make run`` and ``make test`` compile them too; a wheel ships both); without a current ``.mo``
the ``.po`` is compiled in memory here (:func:`compile_po`), so no run needs Babel. The library's
own ``ValueError`` messages stay English: they are API.

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
import struct
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

    ``make catalogs`` (and ``make run`` / ``make test``) compile the ``.mo`` files, and a wheel
    ships them. Where one is missing or older than its ``.po`` (a fresh clone run without make, an
    edited catalog, an install from a source tree), the ``.po`` is compiled in memory by
    :func:`compile_po`, so the app never shows a stale translation and nothing needs Babel at run
    time (Babel is the translators' tool: ``make catalogs``).
    """
    po, mo = catalog_paths(lang)
    if po.exists() and (not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime):
        return gettext.GNUTranslations(io.BytesIO(compile_po(po.read_text(encoding="utf-8"))))
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def _po_string(line: str) -> str:
    """The text of one quoted PO string (``"..."``), its C escapes undone."""
    body = line.strip()[1:-1]
    out, i = [], 0
    escapes = {
        "n": "\n",
        "t": "\t",
        "r": "\r",
        '"': '"',
        "\\": "\\",
        "a": "\a",
        "b": "\b",
        "f": "\f",
        "v": "\v",
    }
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            out.append(escapes.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def read_po(text: str) -> dict[str, str]:
    """A ``.po`` catalog's translations, keyed as a compiled catalog keys them.

    Each entry's key is its ``msgid`` (``context\x04msgid`` with a ``msgctxt``; ``msgid\x00plural``
    for plural forms, whose translations are joined by ``\x00``). The header (the empty msgid) is
    kept; fuzzy, obsolete (``#~``) and untranslated entries are left out, as ``pybabel compile``
    leaves them out.
    """
    entries: dict[str, str] = {}
    fields: dict[str, list[str]] = {}
    fuzzy = False
    current: str | None = None

    def flush() -> None:
        nonlocal fields, fuzzy, current
        if "msgid" in fields and not fuzzy:
            key = "".join(fields["msgid"])
            if "msgid_plural" in fields:
                key += "\x00" + "".join(fields["msgid_plural"])
                forms = sorted(k for k in fields if k.startswith("msgstr["))
                value = "\x00".join("".join(fields[k]) for k in forms)
            else:
                value = "".join(fields.get("msgstr", []))
            if "msgctxt" in fields:
                key = "".join(fields["msgctxt"]) + "\x04" + key
            if value.replace("\x00", "") or key == "":
                entries[key] = value
        fields, fuzzy, current = {}, False, None

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            flush()
        elif line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            if line.startswith("#~"):
                current = None
        elif line.startswith('"'):
            if current is not None:
                fields[current].append(_po_string(line))
        else:
            keyword, _, rest = line.partition(" ")
            if keyword in ("msgctxt", "msgid") and (
                "msgstr" in fields or any(k.startswith("msgstr[") for k in fields)
            ):
                flush()  # an entry with no blank line after it
            current = keyword
            fields[current] = [_po_string(rest)]
    flush()
    return entries


def compile_po(text: str) -> bytes:
    """A ``.po`` catalog compiled to GNU ``.mo`` bytes (what ``msgfmt`` and ``pybabel compile`` write,
    without a hash table), for :class:`gettext.GNUTranslations`."""
    entries = sorted((key.encode("utf-8"), value.encode("utf-8")) for key, value in read_po(text).items())
    n = len(entries)
    keys_at, values_at = 28, 28 + 8 * n
    data_at = 28 + 16 * n
    key_table, value_table, blob = [], [], b""
    for key, _ in entries:
        key_table.append((len(key), data_at + len(blob)))
        blob += key + b"\x00"
    for _, value in entries:
        value_table.append((len(value), data_at + len(blob)))
        blob += value + b"\x00"
    header = struct.pack("<7I", 0x950412DE, 0, n, keys_at, values_at, 0, data_at)
    tables = b"".join(struct.pack("<2I", *pair) for pair in (*key_table, *value_table))
    return header + tables + blob


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

"""User text shown as text: the escapes for Streamlit's Markdown."""

from __future__ import annotations

import re
from typing import Any

from ndcg_core.errors import MESSAGES, Message, NDCGError
from ndcg_core.i18n import _, language

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~:&])")  # characters that can start markup
_COLON_BEFORE_TEXT = re.compile(r":(?=\S)")  # where an emoji shortcode or a directive could start
_MD_WORDS = re.compile(
    r"([\\`*_\[\]()#+\-.!|<>$~&])"
)  # the same, less braces and colons (see message_markdown)


def md_escape(text: str) -> str:
    """User text for any Streamlit message, label or metric: shown literally, never as markup.

    The one helper for it. Streamlit renders labels and messages as Markdown with extras:
    links, images, HTML, ``$...$`` LaTeX, ``:emoji:`` shortcodes, ``:material/icon:`` and
    ``:color[...]`` directives. A backslash before each character that can start markup stops the
    Markdown, HTML and LaTeX; the emoji and directive plugins work on the parsed text (where the
    backslashes are gone), so an invisible word joiner (U+2060) after a colon that something
    follows (``:smile:``, ``:red[...]``) stops them too; a colon before a space or at the end
    starts none and gets none, so ordinary sentences copy clean.
    Messages that people copy (errors about their files) use :func:`code_span` and
    :func:`message_markdown` instead, which add no invisible character.
    """
    return _COLON_BEFORE_TEXT.sub(":\u2060", _MD_SPECIAL.sub(r"\\\1", str(text)))


def md_words(text: str) -> str:
    """The app's own words (no user input) as Markdown: markup characters escaped, and no invisible
    character, so copied text stays clean. Safe because every colon in them is followed by a space
    or ends the text, which no emoji shortcode or directive can start with.

    >>> print(md_words("Tied scores: by item id (k = 10)"))
    Tied scores: by item id \\(k = 10\\)
    """
    return _MD_WORDS.sub(r"\\\1", str(text))


def code_span(text: str) -> str:
    """Text as a Markdown code span: shown literally, in full, with no invisible character.

    Nothing inside a code span is Markdown, HTML, LaTeX, an emoji shortcode or a directive
    (Streamlit's plugins see only plain text nodes). The fence is one backtick more than the
    longest run of backticks in the text; a space pads text that starts or ends with one.

    >>> code_span("a:smile:b"), code_span("x`y")
    ('`a:smile:b`', '``x`y``')
    """
    text = " ".join(str(text).splitlines()) or " "
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _value(value: Any) -> str:
    if isinstance(value, (NDCGError, Message)):
        return message_markdown(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:,}" if isinstance(value, int) else f"{value:g}"
    return code_span(value)


def message_markdown(err: Exception | str) -> str:
    """A coded error or message as Markdown: the message's own words as text, each value as code.

    The words come from :data:`ndcg_core.errors.MESSAGES` (translated), with markup characters
    backslash-escaped; every value (a file name, an id, a quoted line) is a :func:`code_span`. So
    nothing a user wrote is rendered as markup, and no invisible character is added: a colon in
    the message's own words is followed by a space or ends it, which no emoji shortcode or
    directive can start with. An uncoded error is a code span whole.
    """
    message = err.message if isinstance(err, NDCGError) else err
    if not isinstance(message, Message):
        return code_span(str(err))
    template = md_words(_(MESSAGES[message.code]))
    return template.format(**{key: _value(v) for key, v in message.values.items()})


def sentence(markdown: str) -> str:
    """Markdown ending with one full stop (Chinese text with 。), so the next sentence starts clean."""
    text = markdown.rstrip()
    while text.endswith(("\\.", ".", "。")):
        text = text[:-2] if text.endswith("\\.") else text[:-1]
    return text + ("。" if language() == "zh" else ".")


def md_plain(markdown: str) -> str:
    """Text escaped by :func:`md_escape` back as plain text (for an HTML attribute, say).

    >>> md_plain(md_escape("Ideal (k: 3) *of* all"))
    'Ideal (k: 3) *of* all'
    """
    return re.sub(r"\\(.)", r"\1", markdown).replace(":\u2060", ":")

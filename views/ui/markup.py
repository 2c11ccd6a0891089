"""User text shown as text: the one escape for Streamlit's Markdown."""

from __future__ import annotations

import re

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~:&])")  # characters that can start markup


def md_escape(text: str) -> str:
    """User text for any Streamlit message, label or metric: shown literally, never as markup.

    The one helper for it. Streamlit renders labels and messages as Markdown with extras:
    links, images, HTML, ``$...$`` LaTeX, ``:emoji:`` shortcodes, ``:material/icon:`` and
    ``:color[...]`` directives. A backslash before each character that can start markup stops the
    Markdown, HTML and LaTeX; the emoji and directive plugins work on the parsed text (where the
    backslashes are gone), so an invisible word joiner (U+2060) after each colon stops them too.
    """
    return _MD_SPECIAL.sub(r"\\\1", str(text)).replace(":", ":\u2060")

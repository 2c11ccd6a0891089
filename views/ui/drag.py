"""The drag list: a ranking reordered by dragging, with its room kept before its script loads."""

from __future__ import annotations

import streamlit as st
from streamlit_sortables import sort_items

from ndcg_core.i18n import _
from ndcg_core.teaching.playground import (
    Item,
)

from . import keys

DRAG_LIMIT = 1000


#: The drag list's greatest height: a longer list scrolls inside it.
DRAG_LIST_MAX_PX = 330


SORTABLE_STYLE = f"""
.sortable-component {{
  background-color: transparent; padding: 0; max-height: {DRAG_LIST_MAX_PX}px; overflow-y: auto;
}}
.sortable-container {{ background-color: transparent; counter-reset: item; }}
.sortable-item, .sortable-item:hover {{
  background-color: #eef2ff; color: #1e293b; border: 1px solid #c7d2fe;
  font-size: 1rem; height: auto; min-height: 2rem; padding: 0.2rem 0.6rem; margin: 0.15rem 0;
  justify-content: flex-start;
}}
.sortable-item:focus-visible {{ outline: 3px solid #1d4ed8; outline-offset: 1px; box-shadow: none; }}
"""


def drag_list_px(n: int) -> int:
    """The drag list's height for ``n`` one-line items, in px, as streamlit-sortables draws
    SORTABLE_STYLE in Chromium (measured): 26 px of padding, 32.375 px per item and 2.4 px between
    and around the items; at least 68 px, at most :data:`DRAG_LIST_MAX_PX`."""
    return min(DRAG_LIST_MAX_PX, max(68, round(26 + 32.375 * n + 2.4 * (n + 1))))


#: Lists of this many items or more are drawn at the greatest height.
DRAG_ROWS = next(n for n in range(1, DRAG_LIMIT) if drag_list_px(n) == DRAG_LIST_MAX_PX)


#: The drag list's height, reserved before its script has loaded and told the page how tall it is:
#: until then its iframe is not displayed, on a page's first draw and after every one-click order
#: (which draws a new list). Without it the buttons under the list jumped by its height, and a
#: click aimed at one of them could land on whatever had just moved under the pointer. The
#: reservation is on the container around the list, keyed by its number of items (see
#: :func:`drag_list`); the iframe sits at the top of its line, so the container is exactly its height.
DRAG_LIST_CSS = '[class*="st-key-drag_rows_"] iframe { vertical-align: top; }\n' + "".join(
    f".st-key-drag_rows_{n} {{ min-height: {drag_list_px(n)}px; }}\n" for n in range(1, DRAG_ROWS + 1)
)


def _drag_texts(items: tuple[Item, ...]) -> dict[str, Item]:
    """The drag list's lines (label · grade), each with its item, in the order of ``items``.

    Items alike in label and grade are numbered in the order they were entered ("A · 3 (2)"),
    not by position, so a line names the same item before and after a drag.
    """
    seen: dict[str, int] = {}
    texts = {}
    for item in sorted(items, key=lambda i: i.id):
        text = f"{item.label}  ·  {item.grade:g}"
        seen[text] = seen.get(text, 0) + 1
        texts[item.id] = text if seen[text] == 1 else f"{text} ({seen[text]})"
    return {texts[item.id]: item for item in items}


def _sort_key() -> str:
    """The drag list's widget key (a new list, and key, whenever the items are set anew)."""
    return keys.drag_list(st.session_state.get(keys.PG_SORT_VERSION, 0))


def _new_order(shown: dict[str, Item], lines: list[str]) -> tuple[Item, ...] | None:
    """The items in the order of the drag list's ``lines``, or None if that is no new order of them."""
    if lines and lines != list(shown) and sorted(lines) == sorted(shown):
        return tuple(shown[t] for t in lines)
    return None


def dragged(items: tuple[Item, ...]) -> tuple[Item, ...] | None:
    """The order the drag list reported since it was drawn (before it is drawn again), or None."""
    value = st.session_state.get(_sort_key())
    try:  # the component's value: its containers, each {"header": ..., "items": [line, ...]}
        lines = list(value[0]["items"])
    except (TypeError, KeyError, IndexError):
        return None
    return _new_order(_drag_texts(items), lines)


def drag_list(items: tuple[Item, ...]) -> None:
    """The drag-to-reorder list of the shared items (Playground and Learn draw the same one).

    A drop is adopted here unless the caller adopted it first (see :func:`dragged`).
    """
    ss = st.session_state
    shown = _drag_texts(items)
    if len(items) > DRAG_LIMIT:
        st.info(
            _("Dragging is offered up to {limit} items; use move up/down or the one-click orders.").format(
                limit=DRAG_LIMIT
            )
        )
        return
    st.caption(_("Drag an item to a new position."))
    with st.container(key=f"drag_rows_{min(len(items), DRAG_ROWS)}"):  # its height (DRAG_LIST_CSS)
        lines = sort_items(list(shown), direction="vertical", custom_style=SORTABLE_STYLE, key=_sort_key())
    if (order := _new_order(shown, lines)) is not None:
        ss[keys.PG_ITEMS] = order  # the item table keeps its rows (entry order)

"""Every page of the app, once: what the navigation shows, where the start panel and "Where next"
lead, and which formula each page's sidebar shows.

``app.py`` builds its navigation from :data:`PAGES`; :mod:`views.ui.start` links to them; a page that
sends the reader to another (``st.switch_page``, ``st.page_link``) names it here, by its name, never
by a path written again or a place in a tuple.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from ndcg_core.i18n import N_, _
from ndcg_core.teaching.playground import LESSON_STATE, PlaygroundState

from .ui.formula import DATASETS, PLAYGROUND, FormulaScope


@dataclass(frozen=True)
class Page:
    """One page: its script, its title and what it offers (marked for translation), its icon, its
    address (``""``: the page at ``/``), the formula its sidebar shows (None: none), the pages it
    suggests next (the first is the next step) and the list it opens on when the session still holds
    the Playground's untouched opening list (None: that list)."""

    name: str
    script: str
    title: str
    offer: str
    icon: str
    url_path: str
    formula: FormulaScope | None
    next: tuple[str, ...]
    opening: PlaygroundState | None = None

    @property
    def path(self) -> str:
        """The page's address on the server: ``/learn``, ``/`` for the Playground."""
        return "/" + self.url_path


#: The pages in the navigation's order: Learn first; the Playground stays the page at ``/`` (every
#: share link ``/?rel=...`` opens it).
PAGES: dict[str, Page] = {
    p.name: p
    for p in (
        Page(
            "learn",
            "views/learn.py",
            N_("Learn"),
            N_("NDCG built in seven steps"),
            ":material/school:",
            "learn",
            PLAYGROUND,
            ("practice", "playground"),
            LESSON_STATE,  # the lesson teaches the common log2(i + 1), then Wikipedia's original
        ),
        Page(
            "playground",
            "views/playground.py",
            N_("Playground"),
            N_("drag a list, watch NDCG follow"),
            ":material/tune:",
            "",
            PLAYGROUND,
            ("learn", "practice"),
        ),
        Page(
            "explore",
            "views/explore.py",
            N_("Explore"),
            N_("rankings and formulas side by side"),
            ":material/compare_arrows:",
            "explore",
            PLAYGROUND,
            ("datasets", "practice"),
        ),
        Page(
            "datasets",
            "views/datasets.py",
            N_("Data sets"),
            N_("score a whole run of queries"),
            ":material/table_view:",
            "datasets",
            DATASETS,
            ("playground", "explore"),
        ),
        Page(
            "practice",
            "views/practice.py",
            N_("Practice"),
            N_("exercises that name your mistakes"),
            ":material/quiz:",
            "practice",
            None,
            ("learn", "playground"),
        ),
        Page(
            "class",
            "views/classroom.py",
            N_("Class"),
            N_("a live quiz for a lecture"),
            ":material/groups:",
            "class",
            None,
            ("practice", "learn"),
        ),
    )
}

#: The page a share link without a path opens.
DEFAULT_PAGE = next(p for p in PAGES.values() if p.url_path == "")


def navigation_page(page: Page) -> st.Page:
    """The page for ``st.navigation``, titled in the reader's language."""
    return st.Page(
        page.script,
        title=_(page.title),
        icon=page.icon,
        url_path=page.url_path or None,
        default=page is DEFAULT_PAGE,
    )


def page_at(url_path: str) -> Page:
    """The page whose address is ``url_path`` (as ``st.navigation``'s page reports it)."""
    return next(p for p in PAGES.values() if p.url_path == url_path)

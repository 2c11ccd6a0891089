"""Share links: every page's state read from and written to the URL; the playground's saved to a file.

One mechanism for every page: a :class:`Link` names a state's parameters and its pure share-link
functions (``ndcg_core.teaching``); :func:`adopt` takes the state from the address bar when the
page is first shown and after Back or Forward, and :func:`sync_url` writes it back at the end of
the page's run. The playground's list (:data:`SHARED`) is adopted by app.py on every page and
written by the Playground and Learn; Learn, Practice and Class add their own (:data:`LEARN`,
:data:`PRACTICE`, :data:`CLASS`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import streamlit as st

from ndcg_core.errors import error_text
from ndcg_core.i18n import _
from ndcg_core.teaching.pages import ClassState, LearnerState, LearnState, PracticeState
from ndcg_core.teaching.playground import (
    DEFAULT_STATE,
    UI_PARAMS,
    PlaygroundState,
    from_query_params,
    share_params,
    state_from_file,
    state_to_file,
)

from . import keys
from .formula import DATASET_DEFAULT, DATASETS, load_spec
from .language import ui_params
from .markup import md_escape
from .state import current_state, load_state

S = TypeVar("S")


@dataclass(frozen=True)
class Link(Generic[S]):
    """A state that travels in the address bar: the playground's list, or one page's own state.

    ``read`` and ``write`` are the state's pure share-link functions (``write`` gives None when
    the state is too long for a link); ``carried`` says whether a URL holds the state at all.
    """

    key: str  # session key: the state's parameters as last written to the address bar (or read)
    names: tuple[str, ...] | None  # its parameters; None: every one no page names (the playground's)
    carried: Callable[[Mapping[str, str]], bool]
    read: Callable[[Mapping[str, str]], tuple[S, list[str]]]
    write: Callable[[S], dict[str, str] | None]

    def params(self, query: Mapping[str, str]) -> dict[str, str]:
        """This state's parameters out of the whole query (the language and other pages' left out)."""
        if self.names is None:
            return {k: v for k, v in query.items() if k not in PAGE_PARAMS + UI_PARAMS}
        return {k: v for k, v in query.items() if k in self.names}


def _carries_a_list(params: Mapping[str, str]) -> bool:
    """The playground's link always writes its list (or the compact ``state`` holding it)."""
    return bool({"rel", "state"} & set(params))


def _page(state, key: str) -> Link:
    return Link(key, state.PARAMS, state.carried_by, state.from_params, state.to_params)


#: The playground's list and formula: every page shares it (app.py adopts it before any page).
SHARED: Link[PlaygroundState] = Link(keys.PG_URL, None, _carries_a_list, from_query_params, share_params)
LEARN: Link[LearnState] = _page(LearnState, keys.LEARN_URL)
PRACTICE: Link[PracticeState] = _page(PracticeState, keys.PR_URL)
CLASS: Link[ClassState] = _page(ClassState, keys.CL_URL)
#: Share-link parameters of one page, not of the shared state (and a continue code, read by every page).
PAGE_PARAMS = LearnState.PARAMS + PracticeState.PARAMS + ClassState.PARAMS + LearnerState.PARAMS


def adopt(link: Link[S], load: Callable[[S, list[str]], None]) -> bool:
    """Take the state from the address bar on a first visit, and when it changed from outside.

    ``link.key`` holds the parameters this session last wrote (or read). A URL that carries the
    state and differs from them was not written by the app: it is history navigation (the
    browser's Back and Forward) or a link opened in this tab, so the state follows the URL
    instead of rewriting it (which made Back fight the app). A URL without the state (a page
    switch drops the parameters) changes nothing. ``load`` puts the state read, and its
    warnings, in the session; True when it did.
    """
    ss = st.session_state
    params = link.params(st.query_params.to_dict())
    last = ss.get(link.key)
    if last is not None and (params == last or not link.carried(params)):
        return False
    state, warnings = link.read(params)
    load(state, warnings)
    ss[link.key] = params
    return True


def sync_url(*states: tuple[Link[Any], Any]) -> bool:
    """Write these states (each a link and its state, in that order) and the language into the
    address bar, only when they changed.

    Every write adds a browser history entry, so unchanged state is never rewritten. Every URL
    stays under ``MAX_URL`` characters: a long playground state goes into one compact ``state``
    parameter; when even that is too long, the address bar is cleared (a stale link would share
    another state) and this returns False: the page then offers the state as a file.
    """
    ss = st.session_state
    written = [(link, link.write(state)) for link, state in states]
    if any(params is None for _, params in written):
        if st.query_params.to_dict():
            st.query_params.clear()
        for link, params in written:
            ss[link.key] = params or {}
        return False
    full = {key: value for _, params in written for key, value in params.items()} | ui_params()
    if st.query_params.to_dict() != full:
        st.query_params.from_dict(full)
    for link, params in written:
        ss[link.key] = params
    return True


def _load_state_file() -> None:
    ss = st.session_state
    upload = ss.get(keys.PG_STATE_FILE)
    if upload is None:
        return
    try:
        params = state_from_file(upload.getvalue())
    except ValueError as err:
        ss[keys.PG_MESSAGES] = [
            _("State file: {problem}. Your list is unchanged.").format(problem=md_escape(error_text(err)))
        ]
        return
    _load_shared(*from_query_params(params))
    ss[keys.PG_MESSAGES] = []


def state_file_controls(key: str = "pg_state_download", with_loader: bool = True) -> None:
    """Download the playground's state as a file, and (``with_loader``) load such a file back."""
    st.download_button(
        _("Download this state"),
        data=lambda: state_to_file(current_state()),  # built only when clicked
        file_name="ndcg-playground-state.json",
        mime="application/json",
        key=key,
        on_click="ignore",
        width="stretch",
    )
    if with_loader:
        st.file_uploader(
            _("Load a saved state"), type=["json"], key=keys.PG_STATE_FILE, on_change=_load_state_file
        )


def _load_shared(state: PlaygroundState, warnings: list[str]) -> None:
    load_state(state)
    st.session_state[keys.PG_URL_WARNINGS] = warnings


def init_session() -> None:
    """Every run, before any page: the shared state from the share link on a session's first run
    (or the default), and from the address bar whenever it changed from outside (see :func:`adopt`)."""
    ss = st.session_state
    first = SHARED.key not in ss
    if first:  # whether the session's list came from its link (the lesson keeps such a list)
        ss[keys.PG_LINKED] = SHARED.carried(st.query_params.to_dict())
    adopt(SHARED, _load_shared)
    if first:
        load_spec(DATASETS, DATASET_DEFAULT)
        ss[keys.PG_MESSAGES] = []


def open_on(page: str, opening: PlaygroundState | None) -> None:
    """Page ``page``'s own opening list (:attr:`views.pages.Page.opening`), put in place the first
    time the session shows that page, before its sidebar is drawn, when the session still holds the
    Playground's untouched opening list: a list or formula the student chose, or the session's link
    gave, stays."""
    ss = st.session_state
    opened = ss.setdefault(keys.PG_OPENED, set())
    if opening is None or page in opened:
        return
    opened.add(page)
    if not ss.get(keys.PG_LINKED) and current_state() == DEFAULT_STATE:
        load_state(opening)

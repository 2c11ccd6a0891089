"""Share links: the playground's state read from and written to the URL, and saved to a file."""

from __future__ import annotations

import streamlit as st

from ndcg_core.errors import error_text
from ndcg_core.i18n import _
from ndcg_core.teaching.playground import (
    UI_PARAMS,
    PlaygroundState,
    from_query_params,
    share_params,
    state_from_file,
    state_to_file,
)

from .formula import DATASET_DEFAULT, DATASETS, load_spec
from .language import ui_params
from .markup import md_escape
from .state import current_state, load_state

PAGE_PARAMS = ("step", "present")  # share-link parameters of one page (Learn), not of the shared state


def state_params(params: dict[str, str]) -> dict[str, str]:
    """The shared state's share-link parameters (a page's own, such as ``step``, and ``lang`` left out)."""
    return {key: value for key, value in params.items() if key not in PAGE_PARAMS + UI_PARAMS}


def _adopt_url() -> None:
    """Follow the address bar when it changed from outside (the browser's Back and Forward).

    ``pg_url`` holds the state parameters this session last wrote (or read). A URL that carries
    a list (or a compact state) and differs from them was not written by the app: it is history
    navigation, so the state follows the URL instead of rewriting it (which made Back fight the
    app). A URL with no list (a page switch drops the parameters) changes nothing.
    """
    ss = st.session_state
    params = state_params(st.query_params.to_dict())
    if not ({"rel", "state"} & set(params)) or params == ss.get("pg_url"):
        return
    state, warnings = from_query_params(params)
    load_state(state)
    ss.pg_url_warnings = warnings
    ss.pg_url = params


def sync_url(state: PlaygroundState, page_params: dict[str, str] | None = None) -> bool:
    """Write the state (and a page's own parameters) into the address bar, only when it changed.

    Every write adds a browser history entry, so unchanged state is never rewritten. Every URL
    stays under ``MAX_URL`` characters: a long state goes into one compact ``state`` parameter;
    when even that is too long, the address bar is cleared (a stale link would share another
    state) and this returns False: the page then offers the state as a file.
    """
    ss = st.session_state
    params = share_params(state)
    if params is None:
        if st.query_params.to_dict():
            st.query_params.clear()
        ss.pg_url = {}
        return False
    full = {**params, **(page_params or {}), **ui_params()}
    if st.query_params.to_dict() != full:
        st.query_params.from_dict(full)
    ss.pg_url = params
    return True


def _load_state_file() -> None:
    ss = st.session_state
    upload = ss.get("pg_state_file")
    if upload is None:
        return
    try:
        params = state_from_file(upload.getvalue())
    except ValueError as err:
        ss.pg_messages = [
            _("State file: {problem}. Your list is unchanged.").format(problem=md_escape(error_text(err)))
        ]
        return
    state, warnings = from_query_params(params)
    load_state(state)
    ss.pg_url_warnings = warnings
    ss.pg_messages = []


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
            _("Load a saved state"), type=["json"], key="pg_state_file", on_change=_load_state_file
        )


def init_session() -> None:
    """On a session's first run, take the state from the share link (or the default)."""
    ss = st.session_state
    if ss.get("pg_ready"):
        _adopt_url()
        return
    params = state_params(st.query_params.to_dict())
    state, warnings = from_query_params(params)
    load_state(state)
    load_spec(DATASETS, DATASET_DEFAULT)
    ss.pg_url_warnings = warnings
    ss.pg_messages = []
    ss.pg_url = params
    ss.pg_ready = True

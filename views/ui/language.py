"""The page's language: chosen in the sidebar, kept per session, taken from the browser at first."""

from __future__ import annotations

import streamlit as st

from ndcg_core.errors import error_text
from ndcg_core.i18n import LANGUAGES, _, language, language_of, use_language_source
from ndcg_core.teaching.pages import LanguageState

from . import keys
from .formula import _CONTROLS, DATASETS, PLAYGROUND
from .internals import run_cache, run_cache_set
from .markup import md_escape


def _session_language() -> str | None:
    """The session's language, inside a script run (full or a fragment's); None outside one.

    Every _() asks (about a hundred times a run), so the answer is kept for the rest of the run
    (:func:`views.ui.internals.run_cache`). The language changes only through
    :func:`_set_session_language`, which updates the kept answer.
    """
    return run_cache("language", _stored_language)[1]


def _stored_language(state) -> str | None:
    """The language kept in the run's session state (a mapping without ``get``), or None."""
    try:
        return state[keys.UI_LANG]
    except KeyError:
        return None


def _set_session_language(lang: str) -> None:
    """Make ``lang`` the session's language, from this point of the run on."""
    st.session_state[keys.UI_LANG] = lang
    run_cache_set("language", lang)


def browser_language() -> str:
    """The browser's language when the app has it (zh-CN, zh-TW, ... -> zh), else English."""
    try:
        locale = st.context.locale
    except Exception:  # no browser context (AppTest, older Streamlit)
        locale = None
    return language_of(locale) or "en"


def init_language() -> None:
    """Settle the session's language: the link's ``lang`` when it has one, else kept, else the browser's.

    A ``lang`` that names no language of the app is kept with its warning
    (:class:`~ndcg_core.teaching.pages.LanguageState`), which :func:`language_warnings` shows.
    """
    ss = st.session_state
    params = LanguageState.PARAMS
    given = {k: v for k, v in st.query_params.to_dict().items() if k in params}
    state, warnings = LanguageState.from_params(given)
    if state.lang is not None:
        _set_session_language(state.lang)
    elif keys.UI_LANG not in ss:
        _set_session_language(browser_language())
    if LanguageState.carried_by(given):
        ss[keys.LANG_WARNINGS] = (language(), None, warnings) if warnings else None


def language_warnings(page: str) -> None:
    """What the link's ``lang`` got wrong, as text, on the page it was opened on (``page``: its URL
    path) until the language or the page changes."""
    ss = st.session_state
    kept = ss.get(keys.LANG_WARNINGS)
    if not kept:
        return
    lang, shown_on, warnings = kept
    if shown_on is None:  # the first run after the link: the page it opened
        shown_on = page
        ss[keys.LANG_WARNINGS] = (lang, page, warnings)
    if (lang, shown_on) != (language(), page):
        ss[keys.LANG_WARNINGS] = None
        return
    for message in warnings:
        st.warning(md_escape(error_text(message)))


def ui_params() -> dict[str, str]:
    """The language as a share-link parameter; left out only when the page and browser are English."""
    lang = language()
    return {"lang": lang} if lang != "en" or browser_language() != "en" else {}


def _translated_choices() -> list[str]:
    """Keys of the widgets whose option labels are translated (formula controls, chart, examples)."""
    ss = st.session_state
    widgets = [scope.key(name) for scope in (PLAYGROUND, DATASETS) for name in _CONTROLS]
    widgets += [keys.CHART, keys.LEARN_EXAMPLE, *(k for k in ss if str(k).startswith(keys.LEARN_CHOICE))]
    return [k for k in widgets if k in ss]


def _switch_language() -> None:
    ss = st.session_state
    # The browser sends a select box's choice back as its label: after a switch that label is in
    # the other language and no longer names an option. Pin each choice (read now, while the
    # labels still match) as a value the next run draws the widget with.
    kept = {key: ss[key] for key in _translated_choices()}
    _set_session_language(
        ss[keys.LANG_SWITCH] or ss[keys.UI_LANG]
    )  # clicking the chosen one again unselects it
    for key, value in kept.items():
        ss[key] = value
    given = st.query_params.to_dict()
    wanted = {k: v for k, v in given.items() if k != "lang"} | ui_params()
    if given != wanted:
        st.query_params.from_dict(wanted)


def language_switch() -> None:
    """The language switch (drawn in the sidebar of every page by app.py)."""
    ss = st.session_state
    ss[keys.LANG_SWITCH] = ss[keys.UI_LANG]
    st.segmented_control(
        _("Language"),
        list(LANGUAGES),
        key=keys.LANG_SWITCH,
        format_func=LANGUAGES.get,
        on_change=_switch_language,
        label_visibility="collapsed",
        help=_("Language of the whole app (also in the share link)"),
    )


# Every _() call asks the session, so a fragment's rerun (which skips app.py's top) is translated too.
use_language_source(_session_language)

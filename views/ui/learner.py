"""A student's progress that outlasts the session: a learner token in a cookie, never in a link.

The server issues the token (:class:`ndcg_core.classroom.progress.ProgressStore`) the first time
a student has something to keep (a checked Practice answer, a Learn prediction); from then on
Learn and Practice save their document (:mod:`ndcg_core.teaching.saved`) whenever it changes.
The token lives in the session and in the cookie :data:`COOKIE`, written by a small script
(:func:`cookie_writer`) and read by Streamlit (``st.context.cookies``) when a later session starts:
a reload, a new tab, or the browser opened again finds it.

A link never carries it (issue 37, part 3): links are shared, copied and projected, and whoever
opened one saw and added to its owner's record. An old link's ``learner=`` is taken off the address
bar and never looked up. Continuing on another device is an explicit step
(:mod:`views.ui.transfer`): "Continue on another device" makes a one-time code, typed on the other
device or opened there as a link ``?continue=CODE`` (taken off the address bar once read); a code
that would replace this browser's own progress asks first.

A token the store does not know (purged after months unused, or never issued) loads nothing: the
page says so and the student starts afresh, with a new token once there is something to keep. A
database that cannot be reached costs only the saving: the pages work on, and say progress is
kept in this session only.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode, urlsplit

import streamlit as st

from ndcg_core.i18n import _
from ndcg_core.teaching.pages import LearnerState

from ..pages import PAGES
from . import keys
from .language import ui_params

if TYPE_CHECKING:
    from ndcg_core.classroom.progress import ProgressStore

#: The cookie that keeps the learner token in this browser (a year; every path of the app).
COOKIE = "ndcg_learner"
#: The cookie that says this browser has seen the start panel (views.ui.start).
START_COOKIE = "ndcg_start"
COOKIE_DAYS = 365

#: Writes the cookies it is given into the page's document (Streamlit reads cookies, never writes):
#: ``{name: [value, seconds]}``, each kept that many seconds on every path of the app.
_COOKIE_SCRIPT = st.components.v2.component(
    "ndcg_cookie",
    js="""
export default function ({ data }) {
  const secure = location.protocol === "https:" ? "; Secure" : "";
  for (const [name, [value, seconds]] of Object.entries(data || {})) {
    const keep = `; Max-Age=${seconds}; Path=/; SameSite=Lax${secure}`;
    document.cookie = `${name}=${encodeURIComponent(value)}${keep}`;
  }
}
""",
)


@st.cache_resource(show_spinner=False)
def _store(url: str) -> ProgressStore:
    """One store per database per server process (a new NDCG_DATA_DIR gets its own)."""
    from ndcg_core.classroom.progress import ProgressStore

    return ProgressStore(url)


def failures() -> tuple[type[Exception], ...]:
    """What a database that cannot be reached raises. SQLAlchemy is imported only when a session
    has progress to load or save: a first visit to the Playground never loads it."""
    from sqlalchemy.exc import SQLAlchemyError

    from ndcg_core.classroom.store import StoreUnusable

    return (SQLAlchemyError, OSError, StoreUnusable)


def progress_store() -> ProgressStore:
    """The progress store of this process's database; raises what :func:`failures` names."""
    from ndcg_core.classroom.store import database_url

    return _store(database_url())


def database() -> ProgressStore | None:
    """The progress store, or None (and the session told so) when the database cannot be reached."""
    try:
        return progress_store()
    except failures():
        st.session_state[keys.LR_FAILED] = True
        return None


def browser_cookies() -> Mapping[str, str]:
    """The cookies the browser sent when this session started (none under AppTest): read once per
    session, as they cannot change during it (Streamlit keeps those of the session's first request)."""
    ss = st.session_state
    sent = ss.get(keys.LR_SENT)
    if sent is None:
        try:
            cookies = dict(st.context.cookies)  # AppTest's stand-in holds none
        except Exception:  # no browser behind the session
            cookies = {}
        sent = ss[keys.LR_SENT] = {name: value for name, value in cookies.items() if isinstance(value, str)}
    return sent


def token() -> str | None:
    return st.session_state.get(keys.LR_TOKEN)


def want_cookie(name: str, value: str, seconds: float = COOKIE_DAYS * 86400) -> None:
    """Ask the browser to keep ``name=value`` for ``seconds`` (a year unless told), written by
    :func:`cookie_writer` at the end of the run."""
    ss = st.session_state
    ss[keys.LR_COOKIES] = {**ss.get(keys.LR_COOKIES, {}), name: value}
    ss[keys.LR_COOKIE_SECONDS] = {**ss.get(keys.LR_COOKIE_SECONDS, {}), name: max(1, round(seconds))}


# ------------------------------------------------------------------ loading


def use(given: str | None, *, keep: bool = False) -> bool:
    """Load the progress saved under ``given`` into this session (``keep``: and into this browser's
    cookie); False when the store does not know it."""
    ss = st.session_state
    store = database()
    if store is None or given is None:
        return False
    try:
        saved = store.load(given)
    except failures():
        ss[keys.LR_FAILED] = True
        return False
    if saved is None:
        return False
    ss[keys.LR_TOKEN] = given
    ss[keys.LR_LOADED] = {"practice": saved.practice, "learn": saved.learn}
    ss[keys.LR_SAVED] = {"practice": saved.practice, "learn": saved.learn}
    if keep:
        want_cookie(COOKIE, given)
    return True


def init_learner() -> None:
    """Every run, before the page: on a session's first run, the progress this browser's cookie
    names; then a link's continue code, if any (:mod:`views.ui.transfer`). Both ``continue`` and an
    old link's ``learner`` are taken off the address bar; the latter is never looked up."""
    ss = st.session_state
    if keys.LR_READ not in ss:
        ss[keys.LR_READ] = True
        kept = browser_cookies().get(COOKIE)
        if kept and not use(kept) and not ss.get(keys.LR_FAILED):
            ss[keys.LR_MESSAGE] = _(
                "The progress saved in this browser was not found (it may have been deleted after months "
                "unused). You start afresh; your progress is saved again as soon as you answer."
            )
    params = st.query_params.to_dict()
    if not LearnerState.carried_by(params):
        return
    state, _warnings = LearnerState.from_params(params)
    for name in LearnerState.PARAMS:
        if name in st.query_params:
            del st.query_params[name]
    if state.code is not None:
        from . import transfer  # the rate limits and the store: only when a code comes

        transfer.continue_with(state.code)


def take_loaded(section: str) -> Any:
    """The document loaded for ``section`` that its page has yet to put in place (then forgotten)."""
    loaded = st.session_state.get(keys.LR_LOADED) or {}
    if section not in loaded:
        return None
    st.session_state[keys.LR_LOADED] = {k: v for k, v in loaded.items() if k != section}
    return loaded[section]


# ------------------------------------------------------------------ saving


def save(section: str, data: dict[str, Any], *, worth_keeping: bool) -> None:
    """Save ``section``'s document when it changed; the first document ``worth_keeping`` gets the
    student a token (a visit that answered nothing leaves nothing in the database)."""
    ss = st.session_state
    saved = ss.setdefault(keys.LR_SAVED, {})
    if saved.get(section) == data or ss.get(keys.LR_FAILED):
        return
    if token() is None and not worth_keeping:
        return
    store = database()
    if store is None:
        return
    try:
        if token() is None or not store.save(token(), section, data):
            # No token yet, or the store forgot it (purged while the tab was open): a new one.
            ss[keys.LR_TOKEN] = store.issue()
            ss.pop(keys.LR_MESSAGE, None)
            others = {k: v for k, v in saved.items() if k != section and v}
            for other, document in others.items():
                store.save(token(), other, document)
            store.save(token(), section, data)
            want_cookie(COOKIE, token())
    except (*failures(), ValueError):
        ss[keys.LR_FAILED] = True
        return
    ss[keys.LR_SAVED] = {**saved, section: data}


# ------------------------------------------------------------------ drawing


def learner_message() -> None:
    """Why this browser's saved progress was not found, and what became of a link's continue code
    (a choice, when it would replace this browser's own progress), where the page shows its
    warnings."""
    message = st.session_state.get(keys.LR_MESSAGE)
    if message:
        st.warning(message, icon=":material/history:")
    from . import transfer

    transfer.draw_outcome("link")


def page_url(page: str, params: Mapping[str, str]) -> str:
    """The full link to ``page`` (``learn`` or ``practice``) with ``params`` and the language."""
    # On localhost, the machine's network address: the link is for another device. (Imported here,
    # like the progress store: the classroom package brings SQLAlchemy, which the first page avoids.)
    from ndcg_core.classroom.address import interface_addresses, join_base, network_addresses

    base = join_base(
        st.context.url or "",
        os.environ.get("NDCG_PUBLIC_URL"),
        network_addresses(interface_addresses()),
        st.get_option("server.address"),
    ).url
    parts = urlsplit(base)
    path = parts.path.rstrip("/")
    for own in (PAGES["learn"].path, PAGES["practice"].path):
        path = path.removesuffix(own)
    root = f"{parts.scheme}://{parts.netloc}{path}" if parts.netloc else path
    return f"{root}/{page}?{urlencode({**params, **ui_params()}, quote_via=quote)}"


def progress_note(page: str) -> None:
    """Where the student's progress is kept; "Continue on another device" (a one-time code and link,
    made on request), and the box for a code made on another device."""
    from . import transfer  # imports nothing heavy: the store and the limits only when used

    ss = st.session_state
    if ss.get(keys.LR_FAILED):
        st.caption(_("Your progress cannot be saved just now: it is kept until you close this tab."))
        return
    with st.container(key=f"lr_devices_{page}"):
        if token() is None:
            st.caption(
                _(
                    "Your answers are saved on this device as soon as you give one, with no account: "
                    "come back later and carry on."
                )
            )
        else:
            st.caption(_("Your progress is saved in this browser, with no account."))
            st.button(  # pressed again: a new code, and the one before stops working
                _("Continue on another device"),
                key=f"lr_transfer_{page}",
                icon=":material/devices:",
                on_click=transfer.make_code,
                help=_("Makes a one-time code (and a link) that opens your progress on another device."),
            )
            transfer.draw_code(page)
        with st.form("lr_code_form", border=False, enter_to_submit=False):
            st.text_input(
                _("Code from your other device"),
                key=keys.LR_CODE_INPUT,
                max_chars=12,
                placeholder="ABCD-EFGH",
            )
            st.form_submit_button(_("Continue with this code"), on_click=transfer.typed_code)
        transfer.draw_outcome("form")


def cookie_writer() -> None:
    """Draw the script that writes the cookies this session asked for and the browser lacks."""
    wanted = st.session_state.get(keys.LR_COOKIES) or {}
    seconds = st.session_state.get(keys.LR_COOKIE_SECONDS) or {}
    sent = browser_cookies()
    missing = {
        name: [value, seconds.get(name, COOKIE_DAYS * 86400)]
        for name, value in wanted.items()
        if sent.get(name) != value
    }
    if missing:
        tag = abs(hash(tuple(sorted((name, tuple(kept)) for name, kept in missing.items())))) % 10**9
        _COOKIE_SCRIPT(data=missing, key=f"lr_cookie_{tag}")

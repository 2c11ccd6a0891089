"""What Class mode's views share: the store, the link, who this browser is in a room, the rate
limits, the join link, guarded callbacks, showing an exercise.

Every link to a room is ``room=CODE&tag=TAG`` (``&present=1`` for the projector screen): the join
tag (:mod:`ndcg_core.classroom.tags`) lets the link through while wrong codes are being refused; a
typed code has none and is a guess (:data:`ROOM_GUESSES`). Who this browser is there is kept out of
the address bar, in the session and in a cookie per room, so a reload (or a reconnect through
another replica) keeps it and the projected address bar never shows it:

- the lecturer's key (cookie :func:`lecturer_cookie`): from "Create a room", or from a lecturer's
  link ``room=CODE&key=SECRET``, which the page checks and then writes back without the key;
- a student's id (cookie :func:`student_cookie`): issued by the store when the student joins. A
  link's ``me=`` is never taken, and an id the store did not issue for the room is refused: the
  student is asked for their name again, with a word why.

Who may open, close and reveal is decided by the store (``ndcg_core.classroom``), which checks the
key on every lecturer operation; these views only draw what the key allows. Wrong room codes are
rate-limited per session, per address and for everyone, and answers per student
(:mod:`ndcg_core.classroom.limits`).
"""

from __future__ import annotations

import functools
import html
import logging
import math
import os
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from urllib.parse import quote, urlencode

import pandas as pd
import segno
import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ndcg_core.classroom import (
    JoinBase,
    RateLimit,
    RoomExpired,
    RoomNotFound,
    SharedRateLimit,
    Store,
    StoreUnusable,
    address,
    client_of,
    trusted_proxies,
)
from ndcg_core.classroom.limits import (
    ANSWERS,
    ANSWERS_SECONDS,
    CODE_TRIES,
    CODE_TRIES_ADDRESS,
    CODE_TRIES_ALL,
    CODE_TRIES_SECONDS,
    Guesses,
    Refusals,
)
from ndcg_core.classroom.tags import JoinTags
from ndcg_core.errors import error_text
from ndcg_core.i18n import N_, _, ngettext
from ndcg_core.teaching.export import table_html
from ndcg_core.teaching.formula import trimmed
from ndcg_core.teaching.lesson import COLUMN_HELP
from ndcg_core.teaching.pages import ClassState
from ndcg_core.teaching.practice import Exercise
from ndcg_core.variants import format_number
from views.pages import PAGES
from views.ui import keys, learner
from views.ui.a11y import move_focus
from views.ui.language import ui_params
from views.ui.markup import md_escape
from views.ui.tables import HEADERS, table_box

_LOG = logging.getLogger(__name__)

#: How often the screens the hall watches (the lecturer's live view, the projector's results, the
#: lesson's "Answered" count) ask the database, in seconds. Each run redraws the screen's chart:
#: at 0.5 s the lecturer's browser spent 2.5 times the CPU and, on one machine with 150 phones,
#: answers showed later, not sooner (benchmarks/class_replicas.py).
LIVE_EVERY = 1.0

#: How often each student's waiting phone asks whether the lecturer opened, closed or revealed a
#: question, in seconds: a plain HTTP route, not a script run (:mod:`views.room.poll`).
STUDENT_EVERY = 2.0
#: How often a phone's page also polls through Streamlit, in seconds: for what only its session
#: knows (an answer whose page run was cut short, a database that cannot be reached), and for a
#: page served without the route (``streamlit run app.py``).
STUDENT_CHECK_EVERY = 15.0


QR_WIDTH = 250  # CSS pixels: a phone reads it from the back of a lecture hall on a projector


STATUS_TEXT = {
    "draft": N_("Not open yet"),
    "open": N_("Open for answers"),
    "closed": N_("Closed"),
    "revealed": N_("Answer revealed"),
}


NAME_PROBLEMS = {
    "empty": N_("Type your name (the lecturer sees it next to your answers)."),
    "too_long": N_("Your name is too long: at most {n} characters."),
    "control": N_("Your name holds characters that cannot be shown: use letters, digits and spaces."),
    "bidi": N_(
        "Your name holds a character that turns the text's direction around (a bidirectional override): "
        "type it without one."
    ),
    "invisible": N_("Your name shows nothing: it holds only invisible characters. Type letters or digits."),
}


@st.cache_resource
def get_store() -> Store:
    """One store (one engine and connection pool) per server process."""
    return Store()


def link() -> ClassState:
    """The page's state: the room, and whether this is the projector screen (what its link carries)."""
    return st.session_state.get(keys.CL_LINK) or ClassState()


def set_link(state: ClassState, warnings: Sequence[str] = ()) -> None:
    """Put the page's state in place: a callback's new room or screen, which the page writes into
    the link at the end of its run."""
    st.session_state[keys.CL_LINK] = state


def adopt_link(state: ClassState, warnings: Sequence[str] = ()) -> None:
    """The state a link brought (see ``views.ui.share.adopt``), without what must not stay in the
    address bar: a one-time lecturer code waits for the page to redeem it
    (:data:`keys.CL_GIVEN_ONE_TIME`), an older link's lecturer key for the page to check it
    (:data:`keys.CL_GIVEN_KEY`), and a student id (``me``) is noted only to say it was not taken."""
    ss = st.session_state
    if state.lecturer is not None:
        ss[keys.CL_GIVEN_ONE_TIME] = (state.room, state.lecturer)
    if state.key is not None:
        ss[keys.CL_GIVEN_KEY] = (state.room, state.key)
    if state.me is not None and state.room:
        ss[keys.CL_ID_REFUSED] = (state.room, "link")
    ss[keys.CL_LINK_WARNINGS] = list(warnings)  # what the link got wrong, said until the next link
    set_link(replace(state, key=None, me=None, lecturer=None))


# ------------------------------------------------------------------ who this browser is in a room


def lecturer_cookie(code: str) -> str:
    """The cookie that keeps room ``code``'s lecturer key in the lecturer's browser."""
    return f"ndcg_lecturer_{code}"


def student_cookie(code: str) -> str:
    """The cookie that keeps this phone's student id in room ``code``."""
    return f"ndcg_student_{code}"


def _cookie_seconds() -> float:
    """How long a room's cookies live: as long as a room does (a room's own cookie dies with it)."""
    return get_store().lifetime.total_seconds()


def remember_key(code: str, key: str) -> None:
    """This browser runs room ``code``: its key in the session and in a cookie (never the link)."""
    st.session_state.setdefault(keys.CL_KEYS, {})[code] = key
    learner.want_cookie(lecturer_cookie(code), key, _cookie_seconds())


def lecturer_key(code: str) -> str | None:
    """Room ``code``'s lecturer key if this browser runs it: the session's, else the cookie's once the
    store has checked it (a cookie with another key is ignored)."""
    known = st.session_state.setdefault(keys.CL_KEYS, {})
    if code not in known:
        kept = learner.browser_cookies().get(lecturer_cookie(code))
        known[code] = kept if kept and get_store().is_lecturer(code, kept) else None
    return known[code]


def remember_student(code: str, token: str) -> None:
    """This phone is the student the store issued ``token`` to: in the session and in a cookie."""
    st.session_state.setdefault(keys.CL_TOKEN, {})[code] = token
    learner.want_cookie(student_cookie(code), token, _cookie_seconds())


def student_token(code: str) -> str | None:
    """This phone's student id in room ``code``: the session's, else the cookie's (the store says
    whether it issued it: :func:`forget_student` when it did not)."""
    known = st.session_state.setdefault(keys.CL_TOKEN, {})
    if code not in known:
        known[code] = learner.browser_cookies().get(student_cookie(code)) or None
    return known[code]


def forget_student(code: str) -> None:
    """The id this phone held for room ``code`` is not one the store issued there: drop it, and say
    so above the name box."""
    st.session_state.setdefault(keys.CL_TOKEN, {})[code] = None
    st.session_state[keys.CL_ID_REFUSED] = (code, "unknown")


#: Why a student is asked for their name again, above the name box.
ID_REFUSED = {
    "link": N_(
        "A link does not say who you are (that stays on your own phone), so this one's student id "
        "was not used: type your name to join."
    ),
    "unknown": N_(
        "This phone's place in room {code} is not known to the room: type your name to join again."
    ),
}


# ------------------------------------------------------------------ rate limits

#: Typed room codes (see ndcg_core.classroom.limits): per session in this process (a session stays on
#: one replica), per address and for everyone in the class database, which every replica shares, so
#: a client guessing through several replicas is counted once. Every refusal is counted there too,
#: for the lecturer's page (:func:`refusals_note`).
ROOM_GUESSES = Guesses(
    RateLimit(CODE_TRIES, CODE_TRIES_SECONDS),
    SharedRateLimit(get_store, "room_code", CODE_TRIES_ADDRESS, CODE_TRIES_SECONDS),
    SharedRateLimit(get_store, "room_code_all", CODE_TRIES_ALL, CODE_TRIES_SECONDS),
    Refusals(get_store, "room_code"),
)
#: The join tags of the class database (its secret read once per process).
JOIN_TAGS = JoinTags(get_store)
#: Answers, per student (room and id): kept in this process, outside Streamlit's caches, which any
#: client can clear (a phone stays on one replica: session affinity).
ANSWER_LIMIT = RateLimit(ANSWERS, ANSWERS_SECONDS)


def client() -> str:
    """Who this session is for the rate limits: its address, or behind trusted proxies
    (``NDCG_TRUSTED_PROXIES``) the one they saw (:func:`ndcg_core.classroom.limits.client_of`)."""
    ip = st.context.ip_address
    try:
        forwarded = [v for v in st.context.headers.get_all("X-Forwarded-For") if isinstance(v, str)]
    except Exception:  # no browser behind the session (AppTest)
        forwarded = []
    return client_of(ip if isinstance(ip, str) else None, forwarded, trusted_proxies())


def refusals_note() -> None:
    """On the lecturer's page, one sentence while wrong room codes are being refused (anyone's, on
    any replica, in the last minute): the count only, never an address. Polled every 5 s."""
    _refusals_note()


def _refusals_note() -> None:
    refused = ROOM_GUESSES.refused.recent(60)
    if refused:
        with st.container(key="cl_refused"):
            st.caption(
                _(
                    "Wrong room codes are being refused: {n} in the last minute. Phones opening "
                    "your link or QR code are not held up."
                ).format(n=refused)
            )


def shown(text: str, limit: int = 24) -> str:
    """User-typed text in a message: cut short and escaped."""
    text = str(text)
    return md_escape(text if len(text) <= limit else text[:limit] + "…")


def join_base() -> JoinBase:
    """Where students are sent: NDCG_PUBLIC_URL, or the lecturer's own address, with this machine's
    network address in place of localhost (see ``ndcg_core.classroom.address``)."""
    return address.join_base(
        st.context.url or "",
        os.environ.get("NDCG_PUBLIC_URL"),
        address.network_addresses(address.interface_addresses()),
        st.get_option("server.address"),
    )


#: The pages a lecturer runs a room from: their own address ends in one of these paths.
ROOM_PAGES = (PAGES["class"].path, PAGES["learn"].path)


def join_link(code: str, base: JoinBase | None = None, one_time: str | None = None) -> str:
    """The students' link to room ``code``, with its join tag, on :func:`join_base`; with
    ``one_time``, a one-time lecturer code (:meth:`~ndcg_core.classroom.Store.handoff`): the link
    that lets another device run the room, once."""
    base = (base or join_base()).url.rstrip("/")
    for page in ROOM_PAGES:  # the lecturer's own address ends in the page's path
        base = base.removesuffix(page)
    # Students see the room's language. ClassState never writes a one-time code: it is added here.
    params = {**ClassState(room=code, tag=JOIN_TAGS.tag(code)).to_params(), **ui_params()}
    if one_time is not None:
        params[ClassState.ONE_TIME] = one_time
    return f"{base}/class?{urlencode(params, quote_via=quote)}"


def qr_html(address: str, width: int | None = None) -> str:
    """The QR code of ``address`` as an ``<img>`` whose text alternative names the address (st.image
    draws none); ``width`` in CSS pixels, or None to leave the size to the page's CSS."""
    source = segno.make(address, error="m").svg_data_uri(scale=10, border=2, dark="#0f172a")
    alt = _("QR code of the join link {link}").format(link=address)
    size = "" if width is None else f' width="{width}" style="max-width: 100%; height: auto"'
    return f'<img src="{html.escape(source)}" alt="{html.escape(alt)}"{size}>'


#: What the store raises when the database cannot be reached (SQLAlchemy) or the environment does
#: not describe one (:class:`~ndcg_core.classroom.StoreUnusable`): a message, never a traceback.
STORE_FAILURES = (SQLAlchemyError, StoreUnusable)


def failure_message(err: Exception) -> str:
    """The page's words for a store failure: what to set for a configuration problem, else "cannot be
    reached". Never the driver's own text, which names the host, the port and files of the server."""
    if isinstance(err, StoreUnusable):
        return _("Class mode is not set up right: {problem}.").format(problem=md_escape(error_text(err)))
    return _(
        "The class database cannot be reached just now: try again in a moment. "
        "(Whoever runs the app: check NDCG_DATABASE_URL or NDCG_DATA_DIR.)"
    )


def polling_failed() -> None:
    """What a live part shows when the database fails (see :func:`live_part`)."""
    st.warning(_("The class database cannot be reached just now: this part updates by itself once it can."))


def live_part(run_every: float):
    """A part of a Class page that polls on its own (``st.fragment(run_every=...)``), behind the one
    guard every live part goes through.

    A fragment's reruns are not inside its page's ``try``: whatever it raised used to reach the
    browser as a traceback (the projector screen showed SQLAlchemy's ``OperationalError``, with the
    database's host and port, beside the QR code). Here a room that expired or vanished draws the
    whole page again (which says so), a database that cannot be reached is said in one sentence, and
    any other failure is logged on the server and said in one sentence too. No live part catches
    for itself; ``tests/app/test_app_class_faults.py`` checks that every fragment of Class mode is
    made here.
    """

    def wrap(draw):
        @functools.wraps(draw)
        def guarded_draw(*args, **kwargs):
            try:
                draw(*args, **kwargs)
            except (RoomExpired, RoomNotFound):
                st.rerun()  # the page then says the room has expired
            except STORE_FAILURES:
                polling_failed()
            except Exception:  # Streamlit's rerun and stop are not Exceptions: they pass through
                _LOG.exception("a live part of the Class page failed")
                st.warning(_("This part could not be drawn just now: it tries again by itself."))

        return st.fragment(run_every=run_every)(guarded_draw)

    return wrap


_refusals_note = live_part(run_every=5.0)(_refusals_note)


def guarded(callback):
    """A widget callback that turns a store failure into the page's message, not a traceback.

    A room that expired (or vanished) between drawing the page and the click changes nothing: the
    page drawn next says the room has expired.
    """

    @functools.wraps(callback)
    def run(*args):
        try:
            callback(*args)
        except StoreUnusable as err:
            st.session_state[keys.CL_DB_ERROR] = err
        except SQLAlchemyError:
            st.session_state[keys.CL_DB_ERROR] = True
        except (RoomExpired, RoomNotFound):
            pass

    return run


def focus_next(selector: str) -> None:
    """Ask for the keyboard focus to go to ``selector`` (CSS) once the page is drawn again (by
    :func:`draw_focus`). A press that removes or disables its own button (Join, Create a room, Ask,
    Open, Close, Reveal) took the focus with it: it fell to the page's start, a long Tab walk away
    from the next thing to do."""
    ss = st.session_state
    ss[keys.CL_FOCUS] = ((ss.get(keys.CL_FOCUS) or (0, ""))[0] + 1, selector)


def draw_focus() -> None:
    """The focus request of the last callback, if any (see :func:`focus_next`)."""
    ss = st.session_state
    n, selector = ss.get(keys.CL_FOCUS) or (0, "")
    if selector:
        ss[keys.CL_FOCUS] = (n, "")
        move_focus(selector, f"cl_focus_{n}")


def show_exercise(e: Exercise, steps: pd.DataFrame | None = None) -> None:
    """The question's data as Markdown tables of escaped text: drawn at once, readable on a phone.
    ``steps``: a lesson question's step table as far as its step shows it, in place of the list."""
    with st.container(key="cl_prompt"):
        st.markdown(md_escape(e.prompt))
    if not e.traits.has_list:  # the lecturer's own multiple choice: no list, no formula
        return
    if e.traits.states_formula:
        st.markdown(_("**Formula:** {formula}").format(formula=md_escape(e.formula_text)))
    with st.container(key="cl_data"):
        if e.traits.compares_formulas:
            st.markdown(_("**First formula:** {formula}").format(formula=md_escape(e.formula_text)))
            st.markdown(_("**Second formula:** {formula}").format(formula=md_escape(e.alt_formula_text)))
            a, b = st.columns(2)
            for column, title, labels, grades in (
                (a, "A", e.labels, e.grades),
                (b, "B", e.other_labels, e.other),
            ):
                column.markdown(
                    _("**Ranking {name}**").format(name=title) + "\n\n" + _list_table(labels, grades)
                )
            return
        if e.scores is not None:
            st.caption(_("The scores decide the order, highest first; equal scores are a tie."))
        if steps is not None:
            table = table_html(
                steps,
                # Trimmed (3, 1.585): a phone has no room for 3.000 in every column.
                formats={
                    c: format_number if c == "Grade" else trimmed
                    for c in steps.columns
                    if steps[c].dtype.kind == "f"
                },
                labels={c: _(HEADERS.get(c, c)) for c in steps.columns},
                titles={c: _(COLUMN_HELP[c]) for c in steps.columns if c in COLUMN_HELP},
            )
            table_box(table, _("The step table so far"))
        else:
            st.markdown(_list_table(e.labels, e.grades, e.scores))
        if e.ideal is not None and e.ideal_labels is not None:
            n = len(e.grades)
            st.markdown(
                _("**Judged but not retrieved**")
                + "\n\n"
                + _list_table(e.ideal_labels[n:], e.ideal[n:], numbered=False)
            )


@live_part(run_every=1.0)
def countdown(closes_at: datetime) -> None:
    """The seconds an open question with a countdown has left, on a phone: counted on the server's
    clock (the store's) every second, with no database query; at 0 the page is drawn again, and
    the store, which refuses answers from then on, says the question is closed."""
    left = (closes_at - get_store().clock()).total_seconds()
    if left <= 0:
        st.rerun()
    with st.container(key="cl_seconds"):
        st.markdown(
            ngettext("Closes in **{n} second**", "Closes in **{n} seconds**", math.ceil(left)).format(
                n=math.ceil(left)
            )
        )


def _list_table(labels, grades, scores=None, numbered: bool = True) -> str:
    """A Markdown table of a list; every cell escaped (labels may be user text)."""
    head = [_("Item"), _("Grade")] + ([_("Score")] if scores is not None else [])
    if numbered:
        head.insert(0, _("Position"))
    rows = []
    for i, (label, grade) in enumerate(zip(labels, grades, strict=True), start=1):
        cells = [md_escape(label), f"{grade:g}"] + ([f"{scores[i - 1]:g}"] if scores is not None else [])
        if numbered:
            cells.insert(0, str(i))
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head), *rows])

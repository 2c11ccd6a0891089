"""What Class mode's views share: the store, the link, the join link, guarded callbacks, showing an exercise.

The lecturer's URL carries ``room=CODE&key=SECRET``; the students' link only ``room=CODE``. Who may
open, close and reveal is decided by the store (``ndcg_core.classroom``), which checks the key on
every lecturer operation; these views only draw what the key allows.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from urllib.parse import quote, urlencode

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ndcg_core.classroom import (
    JoinBase,
    RoomExpired,
    RoomNotFound,
    Store,
    StoreUnusable,
    address,
)
from ndcg_core.errors import error_text
from ndcg_core.i18n import N_, _
from ndcg_core.teaching.pages import ClassState
from ndcg_core.teaching.practice import Exercise
from views.ui import keys
from views.ui.language import ui_params
from views.ui.markup import md_escape

#: How often the lecturer's live view and the students' waiting screen ask the database.
LIVE_EVERY = 1.0


STUDENT_EVERY = 2.0


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


CSS = """
<style>
.st-key-cl_student button, .st-key-cl_student input, .st-key-cl_landing button, .st-key-cl_landing input {
  min-height: 3rem; font-size: 1.15rem;
}
.st-key-cl_student [data-baseweb="select"] > div { min-height: 3rem; font-size: 1.15rem; }
.st-key-cl_student label p, .st-key-cl_student [data-testid="stMarkdownContainer"] p { font-size: 1.15rem; }
.st-key-cl_controls button { min-height: 3rem; font-size: 1.2rem; }
.st-key-cl_live [data-testid="stMetricValue"], .st-key-cl_live [data-testid="stMetricValue"] * {
  font-size: 4.5rem !important; line-height: 1.1 !important; font-weight: 700;
}
.st-key-cl_live [data-testid="stMetricLabel"] p { font-size: 1.4rem; }
.st-key-cl_live [data-testid="stMarkdownContainer"] p { font-size: 1.35rem; }
.st-key-cl_prompt [data-testid="stMarkdownContainer"] p { font-size: 1.6rem; font-weight: 600; }
/* The join link wraps anywhere: a box that scrolled sideways could not be reached by keyboard. */
.st-key-cl_join_link code { white-space: pre-wrap !important; word-break: break-all; }
.st-key-cl_code [data-testid="stMarkdownContainer"] p {
  font-size: clamp(2rem, 2.6vw, 3.2rem); font-weight: 700; letter-spacing: 0.12em; white-space: nowrap;
}
</style>
"""


@st.cache_resource
def get_store() -> Store:
    """One store (one engine and connection pool) per server process."""
    return Store()


def link() -> ClassState:
    """The page's state: the room, the lecturer's key, the student's id (what its link carries)."""
    return st.session_state.get(keys.CL_LINK) or ClassState()


def set_link(state: ClassState, warnings: Sequence[str] = ()) -> None:
    """Put the page's state in place: the link's when the page adopts it (see ``views.ui.share.adopt``;
    a link's bad student id is dropped without a warning), or a callback's new room or joined student,
    which the page writes into the link at the end of its run."""
    st.session_state[keys.CL_LINK] = state


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


def join_link(code: str, base: JoinBase | None = None) -> str:
    """The students' link to room ``code``, on :func:`join_base`."""
    base = (base or join_base()).url.rstrip("/")
    base = base.removesuffix("/class")  # the lecturer's own address ends in this page's path
    # Students see the room's language.
    return f"{base}/class?{urlencode({**ClassState(room=code).to_params(), **ui_params()}, quote_via=quote)}"


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
    """What a polling part (``st.fragment(run_every=...)``) shows when the database fails: its own
    reruns are not inside the page's ``try``, so without this they showed the driver's traceback."""
    st.warning(_("The class database cannot be reached just now: this part updates by itself once it can."))


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


def show_exercise(e: Exercise) -> None:
    """The question's data as Markdown tables of escaped text: drawn at once, readable on a phone."""
    with st.container(key="cl_prompt"):
        st.markdown(md_escape(e.prompt))
    if e.kind in {"cell", "metric", "drag"}:
        st.markdown(_("**Formula:** {formula}").format(formula=md_escape(e.formula.describe())))
    with st.container(key="cl_data"):
        if e.kind == "winner":
            st.markdown(_("**First formula:** {formula}").format(formula=md_escape(e.formula.describe())))
            st.markdown(
                _("**Second formula:** {formula}").format(formula=md_escape(e.alt_formula.describe()))
            )
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
        st.markdown(_list_table(e.labels, e.grades, e.scores))
        if e.ideal is not None and e.ideal_labels is not None:
            n = len(e.grades)
            st.markdown(
                _("**Judged but not retrieved**")
                + "\n\n"
                + _list_table(e.ideal_labels[n:], e.ideal[n:], numbered=False)
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

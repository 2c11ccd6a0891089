"""Continuing on another device (issue 37, part 3): a one-time code made on request, never a link
that is an identity.

"Continue on another device" (:func:`make_code`; on Learn and Practice once there is progress)
asks the store (:meth:`~ndcg_core.classroom.progress.ProgressStore.transfer`) for a code that lives
30 minutes and works once, shown as ``ABCD-EFGH`` and as a link that carries only it
(``/practice?continue=ABCDEFGH``), labelled private with its risk. On the other device the code is
typed under "Code from your other device", or comes in the link (read by
:func:`views.ui.learner.init_learner`, and taken off the address bar); :func:`continue_with`
redeems it:

- a browser with no progress of its own loads it at once, and keeps it in its cookie;
- a browser with progress of its own is asked first: "Use the progress from the link" (only then
  does its cookie change) or "Keep this device's progress";
- a code that is mistyped, unknown, used or expired says so in one sentence and changes nothing.

Guessing codes is slow: each code tried spends a try from this session's, its address's and
everyone's bucket (:data:`~ndcg_core.classroom.limits.TRANSFER_TRIES` and the two after it, in
:func:`guesses`), and a right code gets them back. SQLAlchemy and the limits load only when a code
is made or tried: drawing the button and the box costs nothing.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import streamlit as st

from ndcg_core.classroom.onetime import MINUTES, clean, shown
from ndcg_core.i18n import _

from . import keys, learner
from .session import session_id

if TYPE_CHECKING:
    from ndcg_core.classroom.limits import Guesses

_made: list[Guesses] = []
_lock = threading.Lock()


def guesses() -> Guesses:
    """The limits on continue codes, made once per process, outside Streamlit's caches (which any
    client can clear): the session's bucket in the process, the address's and everyone's in the
    database every replica shares."""
    from ndcg_core.classroom.limits import (
        TRANSFER_TRIES,
        TRANSFER_TRIES_ADDRESS,
        TRANSFER_TRIES_ALL,
        TRANSFER_TRIES_SECONDS,
        Guesses,
        RateLimit,
        SharedRateLimit,
    )

    with _lock:
        if not _made:
            seconds, store = TRANSFER_TRIES_SECONDS, learner.progress_store
            _made.append(
                Guesses(
                    RateLimit(TRANSFER_TRIES, seconds),
                    SharedRateLimit(store, "transfer_address", TRANSFER_TRIES_ADDRESS, seconds),
                    SharedRateLimit(store, "transfer_all", TRANSFER_TRIES_ALL, seconds),
                )
            )
        return _made[0]


def _client() -> str:
    from views.room.common import client  # Class mode's rule for who a client is

    return client()


def _note(where: str, kind: str, text: str) -> None:
    st.session_state[keys.LR_NOTE] = (where, kind, text)


def _unusable(where: str) -> None:
    _note(
        where,
        "warning",
        _(
            "This code cannot be used: it is mistyped, was used already or is older than {minutes} "
            "minutes. Nothing was changed."
        ).format(minutes=MINUTES),
    )


def continue_with(typed: str, where: str = "link") -> None:
    """Redeem a continue code that came in a link (``where="link"``) or was typed (``"form"``)."""
    from ndcg_core.classroom.limits import wait_seconds

    ss = st.session_state
    code = clean(typed)
    tried = ss.setdefault(keys.LR_CODES, set())
    if code is not None and code in tried and where == "link":
        return  # Back to a link already read: nothing to do or say again
    ss.pop(keys.LR_OFFER, None)
    if code is None or code in tried:
        _unusable(where)
        return
    store = learner.database()
    if store is None:
        return
    try:
        wait = guesses().take(session_id(), _client())
        if wait:
            _note(
                where,
                "error",
                _("Too many tries: wait {seconds} s, then type the code again.").format(
                    seconds=wait_seconds(wait)
                ),
            )
            return
        tried.add(code)
        given = store.redeem(code)
        if given is not None:
            guesses().give_back(session_id(), _client())
    except learner.failures():
        ss[keys.LR_FAILED] = True
        return
    if given is None:
        _unusable(where)
    elif given == learner.token():
        _note(where, "success", _("This browser already has that progress."))
    elif learner.token() is not None:
        ss[keys.LR_OFFER] = (where, given)  # asked first: this browser's own progress stays until then
    else:
        _take(where, given)


def _take(where: str, given: str) -> None:
    ss = st.session_state
    if learner.use(given, keep=True):
        ss.pop(keys.LR_MESSAGE, None)
        ss.pop(keys.LR_TRANSFER, None)  # a code made for the progress this browser had
        _note(where, "success", _("Your progress from the other device is here."))
    elif not ss.get(keys.LR_FAILED):
        _unusable(where)


def typed_code() -> None:
    """The box's "Continue with this code"."""
    continue_with(st.session_state.get(keys.LR_CODE_INPUT) or "", "form")


def _use_offer() -> None:
    offer = st.session_state.pop(keys.LR_OFFER, None)
    if offer is not None:
        _take(*offer)


def _keep_own() -> None:
    st.session_state.pop(keys.LR_OFFER, None)


def make_code() -> None:
    """ "Continue on another device": a new one-time code for this browser's progress."""
    ss = st.session_state
    store = learner.database()
    if store is None:
        return
    try:
        made = store.transfer(learner.token())
    except learner.failures():
        ss[keys.LR_FAILED] = True
        return
    if made is not None:  # None: the store forgot the token; the next answer gets a new one
        ss[keys.LR_TRANSFER] = made


def draw_code(page: str) -> None:
    """The code this session made and its link, while the code lives."""

    ss = st.session_state
    made = ss.get(keys.LR_TRANSFER)
    store = learner.database() if made is not None else None
    if made is None or store is None or store.clock() >= made[1]:
        ss.pop(keys.LR_TRANSFER, None)
        return
    code = made[0]
    with st.container(key=f"lr_code_{page}"):
        st.caption(
            _(
                "Type this code on your other device, or open this link there. Private: whoever uses "
                "it in the next {minutes} minutes continues your progress (it works once)."
            ).format(minutes=MINUTES)
        )
        st.code(shown(code), language=None)
        st.code(learner.page_url(page, {"continue": code}), language=None, wrap_lines=True)


def draw_outcome(where: str) -> None:
    """What became of a continue code that came ``where`` (``"link"``: at the page's top; ``"form"``:
    under the box), once; and the choice when it would replace this browser's own progress."""
    ss = st.session_state
    note = ss.get(keys.LR_NOTE)
    if note is not None and note[0] == where:
        ss.pop(keys.LR_NOTE)
        (st.success if note[1] == "success" else st.error if note[1] == "error" else st.warning)(note[2])
    offer = ss.get(keys.LR_OFFER)
    if offer is None or offer[0] != where:
        return
    with st.container(key=f"lr_offer_{where}", border=True):
        st.markdown(
            _(
                "This code brings progress saved on another device, and this browser has progress of "
                "its own. Which do you want to continue here?"
            )
        )
        use, keep = st.columns(2)
        use.button(
            _("Use the progress from the link") if where == "link" else _("Use the progress from the code"),
            key=f"lr_offer_use_{where}",
            on_click=_use_offer,
            width="stretch",
        )
        keep.button(
            _("Keep this device's progress"),
            key=f"lr_offer_keep_{where}",
            type="primary",
            on_click=_keep_own,
            width="stretch",
        )

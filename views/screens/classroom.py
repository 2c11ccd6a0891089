"""Class: the lecturer asks the room a question, students answer on their phones, answers show live.

This page only decides which view to draw (:mod:`views.room`): the landing page without a room
code, the lecturer's view (or the projector screen) when this browser holds the room's key, a
student's view otherwise. The link is the page's state (:class:`ndcg_core.teaching.pages.ClassState`),
adopted and written by ``views.ui.share``; who this browser is in the room (the lecturer's key, a
student's id) is kept in the session and a cookie, never in the link (``views.room.common``).

A room's link with its join tag is never held up; a typed code (or a wrong tag) is a guess, which
spends from the session's, the address's and everyone's bucket before the room is looked up, and
gets its tries back when the room exists (``views.room.common.ROOM_GUESSES``). Once found, the
page's link carries the room's tag, so a reload is never held up either.
"""

from __future__ import annotations

import html
from dataclasses import replace

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ndcg_core.classroom import RoomExpired, RoomNotFound
from ndcg_core.classroom.limits import wait_seconds
from ndcg_core.classroom.onetime import MINUTES
from ndcg_core.errors import error_text
from ndcg_core.i18n import _
from views.room import common
from views.room.common import (
    JOIN_TAGS,
    STORE_FAILURES,
    adopt_link,
    draw_focus,
    failure_message,
    get_store,
    lecturer_key,
    link,
    remember_key,
    set_link,
    shown,
)
from views.room.landing import landing
from views.room.lecturer import lecturer
from views.room.projector import projector
from views.room.student import student
from views.ui import keys, styles
from views.ui.markup import md_escape
from views.ui.session import session_id
from views.ui.share import CLASS, adopt, sync_url
from views.ui.start import where_next
from views.ui.transfer import guesses


def render() -> None:
    adopt(CLASS, adopt_link)
    st.html(styles.CLASS)
    for warning in st.session_state.get(keys.CL_LINK_WARNINGS, []):
        st.warning(md_escape(error_text(warning)))
    heading = st.empty()  # the page's title; on the projector screen, for screen readers only
    try:
        failed = st.session_state.pop(keys.CL_DB_ERROR, None)
        if isinstance(failed, Exception):  # a callback's StoreUnusable
            raise failed
        if failed:
            raise SQLAlchemyError("a callback could not reach the database")
        if view():  # the projector has no room for it on screen, but a page without an h1 has no title
            heading.html(f'<h1 class="ndcg-sr-only">{html.escape(_("Class"))}</h1>')
        else:
            heading.markdown("# " + _("Class"))
    except STORE_FAILURES as err:
        heading.markdown("# " + _("Class"))
        st.error(failure_message(err))
    draw_focus()  # after Join, Create, Open, Close or Reveal: on the next thing to do
    sync_url((CLASS, link()))  # a new room, a taken-off key: the link follows


def view() -> bool:
    """Draw the view the link and this browser call for; True when it is the projector screen."""
    ss = st.session_state
    code_param = link().room
    given = ss.pop(keys.CL_GIVEN_KEY, None)  # a key the link brought, now off the link
    one_time = ss.pop(keys.CL_GIVEN_ONE_TIME, None)  # a one-time lecturer code, the same
    if not code_param:
        landing()
        return False
    store = get_store()
    opened = ss.setdefault(keys.CL_OPENED, set())
    tried = ss.setdefault(keys.CL_TRIED, set())
    # Free: a room this session found, a code it already learnt is wrong (a rerun is not another
    # try), and a link with the room's join tag (the lecturer's link and QR code). Anything else is
    # a guess: it spends its tries before the room is looked up, so refusals say nothing of codes.
    tagged = JOIN_TAGS.valid(code_param, link().tag)
    guess = not (code_param in opened or code_param in tried or tagged)
    if guess:
        wait = common.ROOM_GUESSES.take(session_id(), common.client())
        if wait:
            st.error(
                _("Too many tries: wait {seconds} s, then try the room code again.").format(
                    seconds=wait_seconds(wait)
                )
            )
            landing()
            return False
    try:
        code = store.room(code_param).code
    except RoomNotFound:
        tried.add(code_param)
        st.error(
            _(
                "There is no room with the code '{code}'. Check the code, or ask your lecturer for the link."
            ).format(code=shown(code_param))
        )
        landing()
        return False
    except RoomExpired:
        if guess:
            common.ROOM_GUESSES.give_back(session_id(), common.client())
        st.error(
            _(
                "Room {code} has expired: rooms last {hours:g} hours. Ask your lecturer for a new room."
            ).format(code=shown(code_param), hours=store.lifetime.total_seconds() / 3600)
        )
        return False
    if guess:
        common.ROOM_GUESSES.give_back(session_id(), common.client())
    if not tagged:  # from now on the link carries the room's tag: a reload is never held up
        set_link(replace(link(), tag=JOIN_TAGS.tag(code)))
    opened.add(code_param)
    if given is not None and given[0] == code_param:
        if store.is_lecturer(code, given[1]):
            remember_key(code, given[1])
            ss.pop(keys.CL_KEY_REFUSED, None)
        else:
            ss[keys.CL_KEY_REFUSED] = code
    if one_time is not None and one_time[0] == code_param:
        _take_one_time(store, code, one_time[1])
    key = lecturer_key(code)
    if key is not None:
        (projector if link().present else lecturer)(code, key)
        return link().present
    if ss.get(keys.CL_KEY_REFUSED) == code:
        st.warning(_("This link's lecturer key is not the room's: you see the student page."))
    refused = ss.get(keys.CL_ONE_TIME_REFUSED)
    if refused is not None and refused[0] == code and refused[1] is None:
        st.warning(
            _(
                "This link's one-time lecturer code cannot be used: it was used already, is older than "
                "{minutes} minutes, or is mistyped. You see the student page; on the device that runs "
                'the room, make a new one-time link under "Run this room from another device".'
            ).format(minutes=MINUTES)
        )
    elif refused is not None and refused[0] == code:
        st.error(
            _("Too many tries: wait {seconds} s, then open the lecturer link again.").format(
                seconds=refused[1]
            )
        )
    student(code)
    return False


def _take_one_time(store, code: str, typed: str) -> None:
    """Redeem a one-time lecturer code a link brought for room ``code``: this browser runs the room
    from now on, or the page says why not (:data:`keys.CL_ONE_TIME_REFUSED`). Each try spends a try
    of the one-time codes' limits (the session's, its address's and everyone's, as for a learner's
    continue code: :func:`views.ui.transfer.guesses`); a code that works gives it back."""
    ss = st.session_state
    limits = guesses()
    wait = limits.take(session_id(), common.client())
    if wait:
        ss[keys.CL_ONE_TIME_REFUSED] = (code, wait_seconds(wait))
        return
    key = store.take_handoff(code, typed)
    if key is None:
        ss[keys.CL_ONE_TIME_REFUSED] = (code, None)
        return
    limits.give_back(session_id(), common.client())
    remember_key(code, key)
    ss.pop(keys.CL_ONE_TIME_REFUSED, None)


def page() -> None:
    """The page: what its script (``views/classroom.py``) runs on every run."""
    render()
    if not link().room:  # the landing page; a room is the lecture's own screen
        where_next("class")

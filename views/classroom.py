"""Class: the lecturer asks the room a question, students answer on their phones, answers show live.

This page only decides which view to draw (:mod:`views.room`): the landing page without a room
code, the lecturer's view with the room's key, a student's view otherwise. The link is the page's
state (:class:`ndcg_core.teaching.pages.ClassState`), adopted and written by ``views.ui.share``.
"""

from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from ndcg_core.classroom import RoomExpired, RoomNotFound
from ndcg_core.i18n import _
from views.room.common import CSS, STORE_FAILURES, failure_message, get_store, link, set_link, shown
from views.room.landing import landing
from views.room.lecturer import lecturer
from views.room.projector import projector
from views.room.student import student
from views.ui import keys
from views.ui.share import CLASS, adopt, sync_url
from views.ui.start import where_next


def render() -> None:
    adopt(CLASS, set_link)
    st.html(CSS)
    if not (link().present and link().key):  # the projector screen has no room for a page title
        st.markdown("# " + _("Class"))
    try:
        failed = st.session_state.pop(keys.CL_DB_ERROR, None)
        if isinstance(failed, Exception):  # a callback's StoreUnusable
            raise failed
        if failed:
            raise SQLAlchemyError("a callback could not reach the database")
        page()
    except STORE_FAILURES as err:
        st.error(failure_message(err))
    sync_url((CLASS, link()))  # what a callback changed (a new room, a joined student) goes in the link


def page() -> None:
    code_param, key = link().room, link().key
    if not code_param:
        landing()
        return
    store = get_store()
    try:
        code = store.room(code_param).code
    except RoomNotFound:
        st.error(
            _(
                "There is no room with the code '{code}'. Check the code, or ask your lecturer for the link."
            ).format(code=shown(code_param))
        )
        landing()
        return
    except RoomExpired:
        st.error(
            _(
                "Room {code} has expired: rooms last {hours:g} hours. Ask your lecturer for a new room."
            ).format(code=shown(code_param), hours=store.lifetime.total_seconds() / 3600)
        )
        return
    if key is not None:
        if store.is_lecturer(code, key):
            (projector if link().present else lecturer)(code, key)
            return
        st.warning(_("This link's lecturer key is not the room's: you see the student page."))
    student(code)


render()
if not link().room:  # the landing page; a room is the lecture's own screen
    where_next("class")

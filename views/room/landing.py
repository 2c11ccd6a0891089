"""Class mode's first page: create a room, or join one by its code."""

from __future__ import annotations

import streamlit as st

from ndcg_core.classroom import (
    clean_code,
)
from ndcg_core.i18n import _
from ndcg_core.teaching.pages import ClassState
from views.ui import keys

from .common import JOIN_TAGS, focus_next, get_store, guarded, remember_key, set_link, shown


@guarded
def _create_room() -> None:
    code, key = get_store().create_room()
    remember_key(code, key)  # in this browser's session and cookie: the link is the students' own
    set_link(ClassState(room=code, tag=JOIN_TAGS.tag(code)))  # the room's own link: never held up
    focus_next(".st-key-cl_ask_button button")  # the landing is gone: to the next thing, asking


def _join_code() -> None:
    typed = st.session_state.get(keys.CL_CODE_INPUT) or ""
    code = clean_code(typed)
    if code is None:
        st.session_state[keys.CL_LANDING_ERROR] = typed
        return
    st.session_state[keys.CL_LANDING_ERROR] = None
    set_link(ClassState(room=code))


def landing() -> None:
    with st.container(key="cl_landing"):
        st.markdown(
            _(
                "Ask the whole room a question: students answer on their phones and the answers show "
                "up live on your screen."
            )
        )
        join, teach = st.columns(2, gap="large")  # students are most of the visitors: Join first
        with teach:
            st.markdown("## " + _("Teach"))
            st.button(
                _("Create a room"), key="cl_create", type="primary", on_click=_create_room, width="stretch"
            )
            st.caption(
                _(
                    "This browser then remembers that the room is yours (until it expires); "
                    "its link is the students' join link, with no key in it."
                )
            )
        with join:
            st.markdown("## " + _("Join"))
            with st.form("cl_join_code", border=False):
                st.text_input(_("Room code"), key=keys.CL_CODE_INPUT, max_chars=12, placeholder="ABC234")
                st.form_submit_button(_("Join room"), on_click=_join_code, width="stretch")
            bad = st.session_state.get(keys.CL_LANDING_ERROR)
            if bad is not None:
                st.error(
                    _("'{code}' is not a room code: a code has 6 letters and digits.").format(code=shown(bad))
                )

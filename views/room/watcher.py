"""The phone's side of :mod:`views.room.poll`: a script in the student's page that asks the room's
state route every :data:`~views.room.common.STUDENT_EVERY` seconds and reruns the page when the
state differs from the one it drew."""

from __future__ import annotations

import streamlit as st

from .common import STUDENT_EVERY
from .poll import state_text
from .routes import PATH

#: The phone's side: every ``every`` ms it asks the route, and when the state differs from the one
#: the page drew it reruns the page (a trigger, so Streamlit sends the page's widgets as they are). A
#: failed ask is left to the page's slow poll. It does not ask again for the next two intervals after
#: a trigger, so a page whose run is slow is not asked to rerun on every tick.
_WATCH = st.components.v2.component(
    "ndcg_room_watch",
    js="""
export default function ({ data, setTriggerValue }) {
  const { path, drawn, every } = data || {};
  if (!path) return;
  const url = location.pathname.replace(/[^/]*$/, "") + path;
  let busy = false, quietUntil = 0;
  const ask = async () => {
    if (busy || Date.now() < quietUntil) return;
    busy = true;
    try {
      const reply = await fetch(url, { cache: "no-store", credentials: "same-origin" });
      if (reply.ok) {
        const { state } = await reply.json();
        if (state && state !== drawn) {
          quietUntil = Date.now() + 2 * every;
          setTriggerValue("changed", state);
        }
      }
    } catch (e) {
      // the page's own slow poll says what went wrong
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(ask, every);
  return () => clearInterval(timer);
}
""",
)


def watch_state(code: str, drawn: tuple[int, str] | None) -> None:
    """Put the phone's watcher on the page: it reruns the page when room ``code`` is no longer in
    the state ``drawn``. Keyed by that state, so a new state starts a watcher that knows it."""
    _WATCH(
        data={
            "path": PATH.format(code=code),
            "drawn": state_text(drawn),
            "every": round(STUDENT_EVERY * 1000),
        },
        key=f"cl_watch_{state_text(drawn)}",
        on_changed_change=_ignore,
    )


def _ignore() -> None:
    """The watcher's trigger needs a callback to be sent; the rerun it causes is what matters."""

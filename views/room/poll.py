"""How a waiting phone learns that the lecturer opened, closed or revealed a question, cheaply.

A hall of phones each asking every 2 s is the load of a lecture (300 phones: 150 asks a second).
Asked through Streamlit, each ask is a script run of the phone's session (a thread, the session's
state, the run's messages): about 5 ms of the server's CPU, most of it Streamlit's own. Here each
phone's page asks a plain HTTP route instead, ``GET /api/room/CODE/state``
(:data:`views.room.routes.ROUTES`, served beside the pages by ``server.py``), and the page reruns
only when the answer differs from the state it drew. The route reads :meth:`Store.poll` (one query
a room per half second per process) and :meth:`Store.is_student` (one query a phone per process),
so an ask costs well under a millisecond.

The route answers only a phone of the room: its student id comes in the room's cookie
(:func:`~views.room.common.student_cookie`), as the page's own session reads it. Without it, or with
an id the room did not issue, the reply is the one an unknown room gets, so the route tells nobody
which codes exist (joining by code is rate-limited; this route must not be a way around that).

The student page still runs a slow Streamlit poll (:data:`~views.room.common.STUDENT_CHECK_EVERY`)
for what only the session knows: an answer whose page run was cut short, and a database that cannot
be reached (the page's own message).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse

from ndcg_core.classroom import RoomExpired, RoomNotFound, Store, clean_code

from .common import STORE_FAILURES, get_store, student_cookie

#: What the route says of a room that is gone (expired, or deleted): the page reruns and says so.
GONE = "gone"


def state_text(state: tuple[int, str] | None) -> str:
    """A room's current question as the page draws it and the route reports it: ``"3:open"``, or
    ``"none"`` before the first question. The page reruns when the two differ."""
    return "none" if state is None else f"{state[0]}:{state[1]}"


def reply(store: Store, code: str, token: str | None) -> tuple[int, str | None]:
    """The route's answer for the phone holding ``token`` in room ``code``: (HTTP status, state).

    - a student of the room: 200 and :func:`state_text` (or :data:`GONE` once the room expired);
    - anyone else (no id, an id the room did not issue, a code no room has): 404 and None, alike;
    - the database cannot be reached: 503 and None (the page's slow poll says so in words).
    """
    try:
        if not store.is_student(code, token):
            return 404, None
        return 200, state_text(store.poll(code))
    except (RoomNotFound, RoomExpired):
        return 200, GONE
    except STORE_FAILURES:
        return 503, None


def room_state(request: Request) -> JSONResponse:
    """``GET /api/room/CODE/state``: see :func:`reply`. A plain function: Starlette runs it on its
    thread pool, so a query never holds up the server's event loop."""
    code = clean_code(request.path_params["code"]) or ""
    status, state = reply(get_store(), code, request.cookies.get(student_cookie(code)))
    return JSONResponse({"state": state}, status_code=status, headers={"Cache-Control": "no-store"})

"""The HTTP routes ``server.py`` serves beside the pages, declared without loading what they run.

The server imports this file before it starts; what a route runs (:mod:`views.room.poll`: the room
store, SQLAlchemy, the page helpers) is imported when the first phone asks, so the server answers
browsers without waiting for Class mode, which most sessions never open.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

#: A waiting phone's route, relative to the app's root (a proxy's base path included).
PATH = "api/room/{code}/state"


def room_state(request: Request) -> Response:
    """``GET /api/room/CODE/state``: :func:`views.room.poll.room_state`, imported at the first ask."""
    from .poll import room_state as answer

    return answer(request)


#: The routes ``server.py`` serves beside the pages.
ROUTES = [Route("/" + PATH, room_state, methods=["GET"])]

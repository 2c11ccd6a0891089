"""Every environment variable the app reads, checked at once: the launcher says what is wrong at start.

Each variable is read where it is used (a :class:`ndcg_core.settings.Setting`, or its owner's own
reader), and a bad value is said there in words, never as a traceback. :data:`CHECKS` names them
all, so ``scripts/serve.py`` can say every problem once, when the app starts, to whoever starts it
(a student should not be the first to find out). A test checks that every ``NDCG_`` variable the
code reads is in :data:`CHECKS` and in docs/deployment.md.
"""

from __future__ import annotations

from collections.abc import Callable

from ndcg_core.classroom.address import PUBLIC_URL
from ndcg_core.classroom.limits import trusted_proxies
from ndcg_core.classroom.progress import progress_days
from ndcg_core.classroom.store import connect, database_url, room_hours
from ndcg_core.dataset.threads import resolve_threads
from ndcg_core.errors import NDCGError
from views.datastore import DATA_CACHE_MB, DATA_IDLE_S, MAX_CONTENT_MB, MAX_LINE_KB, SOURCE_CACHE_MB


def _database() -> None:
    """The database the settings describe (only parsed, and a SQLite folder made: nothing is sent)."""
    connect(database_url())[0].dispose()


#: Each variable and the check that reads it (the check raises a coded error for a bad value).
CHECKS: dict[str, Callable[[], object]] = {
    "NDCG_THREADS": resolve_threads,
    "NDCG_DATA_DIR": _database,
    "NDCG_DATABASE_URL": _database,
    "NDCG_ROOM_HOURS": room_hours,
    "NDCG_PROGRESS_DAYS": progress_days,
    "NDCG_TRUSTED_PROXIES": trusted_proxies,
    "NDCG_PUBLIC_URL": PUBLIC_URL.read,
    "NDCG_DATA_CACHE_MB": DATA_CACHE_MB.read,
    "NDCG_SOURCE_CACHE_MB": SOURCE_CACHE_MB.read,
    "NDCG_DATA_IDLE_S": DATA_IDLE_S.read,
    "NDCG_MAX_CONTENT_MB": MAX_CONTENT_MB.read,
    "NDCG_MAX_LINE_KB": MAX_LINE_KB.read,
}


def problems() -> list[NDCGError]:
    """What is wrong with the environment: one coded error per bad setting (each check run once)."""
    found: list[NDCGError] = []
    for check in dict.fromkeys(CHECKS.values()):
        try:
            check()
        except NDCGError as err:
            found.append(err)
    return found

"""The one module that touches Streamlit's internals: everything else uses its public API.

Three needs have no public API in the Streamlit versions ``pyproject.toml`` pins (the ones the
test suite runs on); each is wrapped here, so a Streamlit upgrade is checked in one place
(``tests/app/test_code_health.py`` fails on an internal import anywhere else):

* a value kept for the rest of one script run (:func:`run_cache`): the page's language is asked
  about a hundred times a run, and ``st.session_state``'s proxy costs more than the run's own
  state;
* dropping a session's uploaded files once their content is parsed (:func:`release_uploads`):
  Streamlit keeps them until the session shuts down, which a closed tab's session never does;
* starting the server from Python and asking whether it accepts browsers (:func:`run_server`,
  :func:`server_is_up`), for ``scripts/serve.py``'s warm-up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from streamlit.runtime.scriptrunner import get_script_run_ctx

__all__ = ["release_uploads", "run_cache", "run_server", "server_is_up"]


def _context():
    # Imported once above: every _() asks for the language, about two hundred times a run.
    return get_script_run_ctx(suppress_warning=True)


def run_cache(name: str, compute: Callable[[Mapping[str, Any]], Any]) -> tuple[bool, Any]:
    """``compute(session_state)``, kept for the rest of this script run (a full run or a fragment's).

    Returns ``(False, None)`` outside a script run. The kept value is dropped when the next run
    starts (the run's ``cursors`` dict is new at every run's start); :func:`run_cache_set` replaces
    it within the run.
    """
    ctx = _context()
    if ctx is None:
        return False, None
    kept = getattr(ctx, f"_ndcg_{name}", None)
    if kept is not None and kept[0] is ctx.cursors:
        return True, kept[1]
    value = compute(ctx.session_state)
    setattr(ctx, f"_ndcg_{name}", (ctx.cursors, value))
    return True, value


def run_cache_set(name: str, value: Any) -> None:
    """Replace what :func:`run_cache` keeps under ``name`` for the rest of this run."""
    ctx = _context()
    if ctx is not None:
        setattr(ctx, f"_ndcg_{name}", (ctx.cursors, value))


def release_uploads(file_ids: list[str]) -> None:
    """Drop these files from Streamlit's upload manager (this session's; no-op outside a run).

    Streamlit keeps a session's uploaded bytes until the session shuts down, and a closed tab's
    session is only forgotten (never shut down) when its reconnect time runs out: without this,
    every file ever uploaded stays in the server's memory for as long as the process lives.
    """
    ctx = _context()
    if ctx is None:
        return
    for file_id in file_ids:
        ctx.uploaded_file_mgr.remove_file(ctx.session_id, file_id)


def server_is_up() -> bool:
    """Whether this process's Streamlit server is running and accepts browsers."""
    from streamlit.runtime import Runtime, RuntimeState

    return Runtime.exists() and Runtime.instance().state in {
        RuntimeState.NO_SESSIONS_CONNECTED,
        RuntimeState.ONE_OR_MORE_SESSIONS_CONNECTED,
    }


def run_server(args: list[str]) -> None:
    """``streamlit ARGS...`` in this process (what the ``streamlit`` command runs)."""
    import sys

    from streamlit.web import cli

    sys.argv = ["streamlit", *args]
    cli.main(prog_name="streamlit")

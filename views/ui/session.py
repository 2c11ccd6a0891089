"""Script runs and widget bookkeeping: which run this is, widgets kept across pages, keys bumped to redraw."""

from __future__ import annotations

import contextlib
import gc
import secrets
import threading
import time

import streamlit as st

from ndcg_core.teaching.playground import (
    PlaygroundState,
)
from ndcg_core.teaching.rendering import warm

from . import keys


@st.cache_resource(show_spinner=False)
def warm_process() -> bool:
    """Once per server process, at the end of its first page: what every session needs, ready.

    Builds the playground's default charts and formulas once (a no-op when ``scripts/serve.py``
    already did), then runs the garbage collector's full pass and freezes what survives (the
    imported modules: millions of objects). Without it, that first full pass (about 0.1 s) fell on some
    session's first drag.
    """
    warm()
    gc.collect()
    gc.freeze()
    return True


#: Seconds between the full garbage collections page runs make (:func:`collect_garbage`).
GC_EVERY = 10.0
_gc_lock = threading.Lock()
_last_gc = [0.0]  # monotonic time of this process's last full collection


def collect_garbage() -> None:
    """A full garbage collection at the end of a page run, at most every :data:`GC_EVERY` seconds.

    Streamlit's own full collection after every script run (``runner.postScriptGC``) is off in
    ``.streamlit/config.toml``: it ran for each fragment rerun too, and with a hall of phones polling
    every 2 s it was the server's largest cost (``benchmarks/class_replicas.py``: 24 ms of CPU per
    poll at 100 phones, 9 ms without it). Python's own collector still runs; this keeps the
    cycles a page leaves (a failed upload's traceback holds its bytes) from waiting for it.
    """
    now = time.monotonic()
    with _gc_lock:
        if now - _last_gc[0] < GC_EVERY:
            return
        _last_gc[0] = now
    gc.collect()


#: How long a run pauses after drawing what the reader is watching (:func:`send_now`).
SEND_NOW_SECONDS = 0.01


def send_now() -> None:
    """Let the server send what this run has drawn so far, before it draws the rest.

    Streamlit sends a run's messages from its event loop, which waits while the script thread
    computes; the browser then gets the whole fragment at once and redraws it in one long task
    (70-95 ms in half of a playground's drags), with the metric inside it. A pause of 10 ms of
    wall time (no CPU) after the metric lets it go out alone, so it is shown first (the figures:
    docs/performance.md, "Issue 39: where a run's time goes").
    """
    time.sleep(SEND_NOW_SECONDS)


def session_id() -> str:
    """A random name of this browser session, made at first use: the key of its own rate-limit
    buckets (wrong room codes, wrong continue codes)."""
    ss = st.session_state
    if keys.SESSION_ID not in ss:
        ss[keys.SESSION_ID] = secrets.token_hex(12)
    return ss[keys.SESSION_ID]


def count_run() -> None:
    """Number this script run (app.py calls it first): see :func:`drawn_last_run`."""
    st.session_state[keys.RUN] = st.session_state.get(keys.RUN, 0) + 1


def drawn_last_run(tag: str) -> bool:
    """Whether the widgets tagged ``tag`` were drawn in the previous run; marks them drawn now.

    When they were not (another page ran), Streamlit has dropped their widget state, or
    left a stale value behind: the caller redraws them from its non-widget copy.
    """
    ss = st.session_state
    last = ss.get(keys.drawn(tag))
    ss[keys.drawn(tag)] = ss.get(keys.RUN, 0)
    return last is not None and last == ss.get(keys.RUN, 0) - 1


@contextlib.contextmanager
def keep_widgets(tag: str, widgets: list[str]):
    """Keep these widgets' values across page changes (Streamlit drops a page's widget state).

    Each value is copied to non-widget state (:func:`views.ui.keys.kept`) after the page ran, and put
    back when the page is drawn again after another page, as Streamlit's multipage
    documentation advises.
    """
    ss = st.session_state
    if not drawn_last_run(tag):
        for key in widgets:
            if keys.kept(key) in ss:
                ss[key] = ss[keys.kept(key)]
    try:
        yield
    finally:
        for key in widgets:
            if key in ss:
                ss[keys.kept(key)] = ss[key]


def bump(name: str) -> None:
    """Change a component's key so it redraws from the state (sortables, editors)."""
    st.session_state[name] = st.session_state.get(name, 0) + 1


def next_id() -> int:
    """An item id not used by the playground's items or pool."""
    ss = st.session_state
    return PlaygroundState(items=ss[keys.PG_ITEMS], pool=ss[keys.PG_POOL]).next_id()

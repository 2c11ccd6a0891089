"""How many threads the data-set readers and :func:`ndcg_core.evaluate` use: ``threads=``, else the
``NDCG_THREADS`` environment variable, else :data:`DEFAULT_THREADS`.

>>> resolve_threads(1)
1
>>> resolve_threads(0)
Traceback (most recent call last):
...
ndcg_core.errors.NDCGError: threads must be a whole number of at least 1 (or None for the default), got 0
"""

from __future__ import annotations

import operator
import os
from typing import Any

from ..errors import NDCGError

#: The environment variable that sets the default number of threads.
THREADS_VARIABLE = "NDCG_THREADS"

#: Threads when neither ``threads=`` nor ``NDCG_THREADS`` says: up to two, as before the setting
#: existed (the machines the kernels were tuned on have two cores).
DEFAULT_THREADS = min(2, os.cpu_count() or 1)


def resolve_threads(threads: Any = None) -> int:
    """The number of threads to use: ``threads`` if given, else ``$NDCG_THREADS``, else the default.

    Raises
    ------
    NDCGError
        ``threads`` (code ``bad_threads``) or the variable (``bad_threads_variable``) is not a whole
        number of at least 1.
    """
    if threads is None:
        text = os.environ.get(THREADS_VARIABLE, "").strip()
        if not text:
            return DEFAULT_THREADS
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise NDCGError("bad_threads_variable", name=THREADS_VARIABLE, text=repr(text))
        return value
    if isinstance(threads, bool) or type(threads).__name__ == "bool_":
        raise NDCGError("bad_threads", value=repr(threads))
    try:
        value = operator.index(threads)
    except TypeError:
        raise NDCGError("bad_threads", value=repr(threads)) from None
    if value < 1:
        raise NDCGError("bad_threads", value=repr(threads))
    return int(value)

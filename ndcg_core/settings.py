"""Settings read from the environment: each variable a value with its default, what it accepts and its parser.

A deployment sets the app and the engine through ``NDCG_*`` environment variables. Each is one
:class:`Setting`, declared next to the code that uses it; :meth:`Setting.read` gives its value,
or a coded error naming the variable, what it was set to and what it accepts: never a Python
traceback, and never a bad value taken silently. The app checks every setting when it starts
(``views/environment.py``), so a typing mistake in a deployment is said once, at start, in words.

>>> days = Setting("NDCG_PROGRESS_DAYS", "180", Message("accepts_days"), positive_number)
>>> days.read({})
180.0
>>> days.read({"NDCG_PROGRESS_DAYS": "abc"})
Traceback (most recent call last):
  ...
ndcg_core.errors.NDCGError: NDCG_PROGRESS_DAYS is 'abc': expected a number of days above 0
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from .errors import Message, NDCGError

__all__ = ["Setting", "non_negative_number", "positive_number", "web_address", "whole_number"]


@dataclass(frozen=True)
class Setting:
    """One environment variable.

    Parameters
    ----------
    name : str
        The variable, ``NDCG_...``.
    default : str or None
        The text used when the variable is unset or empty; None: the value is None then.
    accepts : Message
        What it accepts, in words (a coded :class:`~ndcg_core.errors.Message`, so the error reads
        in the reader's language).
    parse : callable
        Text to value; raises ``ValueError`` for a value it does not accept.
    error : type
        The :class:`~ndcg_core.errors.NDCGError` class raised for a bad value (Class mode's settings
        raise its ``StoreUnusable``, which its pages say in words).
    """

    name: str
    default: str | None
    accepts: Message
    parse: Callable[[str], Any]
    error: type[NDCGError] = NDCGError

    def read(self, environ: Mapping[str, str] | None = None) -> Any:
        """The variable's value (from ``environ``, default ``os.environ``), or a coded error."""
        text = (os.environ if environ is None else environ).get(self.name, "").strip() or self.default
        if text is None:
            return None
        try:
            return self.parse(text)
        except (ValueError, TypeError, OverflowError):
            said = Message("bad_setting", name=self.name, text=repr(text[:40]), accepts=self.accepts)
            raise self.error.of(said) from None


def positive_number(text: str) -> float:
    """A finite number above 0 ("abc", "0", "-1", "inf" and "nan" are refused)."""
    value = float(text)
    if not (math.isfinite(value) and value > 0):
        raise ValueError
    return value


def non_negative_number(text: str) -> float:
    """A finite number of at least 0."""
    value = float(text)
    if not (math.isfinite(value) and value >= 0):
        raise ValueError
    return value


def web_address(text: str) -> str:
    """An http or https address with a host, such as ``http://192.168.1.20:8501``."""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError
    parts.port  # noqa: B018 - a port that is not a number raises ValueError itself
    return text


def whole_number(low: int = 0, high: int | None = None) -> Callable[[str], int]:
    """A parser of whole numbers from ``low`` to ``high`` (no bound when None)."""

    def parse(text: str) -> int:
        value = int(text)
        if value < low or (high is not None and value > high):
            raise ValueError
        return value

    return parse

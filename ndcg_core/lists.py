"""Lists typed, pasted or linked by a person: the one parser every reader of such a list calls.

A list of numbers reaches the app in several forms: grades typed or pasted on the Playground
(:func:`ndcg_core.teaching.playground.parse_entries`), a share link's ``rel``, ``scores`` and
``pool`` (:func:`ndcg_core.teaching.playground.from_query_params`), a gain table's grade:gain pairs
(:func:`ndcg_core.variants.parse_gain_table`) and the model scores typed on Explore. Each reads
its text with :func:`read_list`, which splits it into entries and reads each entry as a number,
and then says in its own words what it makes of an entry that is not one. Lists of labels (a
share link's ``labels``, a ranking typed on Explore) are split by the same function.

>>> [(e.text, e.value) for e in read_list(" 3, 2.5 ,x")]
[('3', 3.0), ('2.5', 2.5), ('x', None)]
>>> [e.text for e in read_list("3;;2,", ",;", skip_empty=True)]
['3', '2']
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

__all__ = ["LINE_BREAKS", "Entry", "finite_number", "read_list"]

#: Every line boundary of :meth:`str.splitlines`, as separators: one entry a line.
LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def finite_number(text: str) -> float | None:
    """``text`` as a finite number (surrounding spaces allowed), or None.

    >>> finite_number(" 0.5 "), finite_number("two"), finite_number("inf")
    (0.5, None, None)
    """
    value = _float(text.strip())
    return value if value is not None and math.isfinite(value) else None


@dataclass(frozen=True)
class Entry:
    """One entry of a list: its text, stripped, and the number it reads as."""

    text: str
    #: ``float(text)``: None when the text is not a number (``inf`` and ``nan`` are numbers here).
    value: float | None

    @property
    def number(self) -> float | None:
        """The entry as a finite number, or None."""
        return self.value if self.value is not None and math.isfinite(self.value) else None


def read_list(
    text: str, separators: str = ",", *, spaces: bool = False, skip_empty: bool = False
) -> list[Entry]:
    """The entries of ``text``, split at any of the characters in ``separators``.

    ``spaces`` makes every whitespace character a separator too. An empty (or blank) text is
    an empty list; otherwise an empty entry (``3,,2``) is kept as an entry with no number,
    unless ``skip_empty``.

    >>> [(e.text, e.value) for e in read_list("3,,2")]
    [('3', 3.0), ('', None), ('2', 2.0)]
    >>> [e.value for e in read_list("0:0 1:1\\t2:3", ",;", spaces=True)]
    [None, None, None]
    >>> read_list("   ")
    []
    """
    if not text.strip():
        return []
    pattern = "[" + re.escape(separators) + (r"\s" if spaces else "") + "]"
    parts = (part.strip() for part in re.split(pattern, text))
    return [Entry(part, _float(part)) for part in parts if part or not skip_empty]

"""Cells of a CSV file a spreadsheet will open: text that would run as a formula is escaped.

Spreadsheets run a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and some a tab or a carriage
return first) as a formula: ``=HYPERLINK("https://evil.example", "click")`` in an item label of a
share link would become a live link in the lecturer's spreadsheet. OWASP's rule
(https://owasp.org/www-community/attacks/CSV_Injection): prefix such a cell with ``'``, which the
spreadsheet shows as text. A plain number (``-2.5``, ``+3``, ``-1e-3``) is left as it is, so numeric
columns stay numeric; numbers that are not text (``int``, ``float``) are never touched.

Every CSV the app writes for people goes through :func:`csv_cell` (the Playground's and Explore's
"Table CSV", the Class page's answers).

>>> [csv_cell(x) for x in ["=HYPERLINK(1)", "+1+1", "-2+3", "@SUM(1+1)", "\\tx", "-2.5", "D1", -2.5]]
["'=HYPERLINK(1)", "'+1+1", "'-2+3", "'@SUM(1+1)", "'\\tx", '-2.5', 'D1', -2.5]
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

__all__ = ["FORMULA_STARTS", "csv_cell", "csv_row"]

#: What a spreadsheet reads as the start of a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def csv_cell(value: Any) -> Any:
    """``value`` as a safe CSV cell: formula-like text prefixed with ``'``, anything else as given."""
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    return value if _PLAIN_NUMBER.fullmatch(value) else "'" + value


def csv_row(values: Iterable[Any]) -> list[Any]:
    """Every cell of a row through :func:`csv_cell`."""
    return [csv_cell(v) for v in values]

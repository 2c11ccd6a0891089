"""What every AppTest of the pages shares: the check that a run raised nothing, and the text a page
shows. One copy each (issue 41: the same helpers were written separately in most test modules).

Import them by name: ``from apptest_support import ok, shown, texts``.
"""

from __future__ import annotations

from collections.abc import Iterable

from streamlit.testing.v1 import AppTest

#: The elements whose bodies a person reads: prose, alerts and code.
SHOWN = ("markdown", "caption", "error", "warning", "info", "success", "code")


def ok(at: AppTest) -> AppTest:
    """``at`` after a run that raised nothing (the exceptions' texts are the failure's message)."""
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown(at: AppTest, kinds: Iterable[str] = SHOWN) -> list[str]:
    """The bodies of the page's elements of these kinds (``at.get(kind)``), kind by kind."""
    return [str(x.value) for kind in kinds for x in at.get(kind)]


def texts(at: AppTest, kinds: Iterable[str] = SHOWN) -> str:
    """:func:`shown` as one text, a line each: for ``"..." in texts(at)``."""
    return "\n".join(shown(at, kinds))

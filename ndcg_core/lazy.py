"""A package's public names, each imported from its module the first time it is used (PEP 562).

``import ndcg_core`` then loads none of the engine's modules, ``ndcg_core.dataset.sources`` loads
without pandas, and ``ndcg_core.classroom.address`` (what the launcher prints before the server
starts) without SQLAlchemy and the teaching layer. One rule for every such package.

Examples
--------
In a package's ``__init__.py``::

    __getattr__, __dir__ = lazy_names(__name__, {"evaluate": ".scoring", "Spec": "..spec"})
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, where: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose names live in the modules ``where``
    gives (relative to the package, as ``from .scoring import evaluate`` would name it).

    A name is imported at its first use and then kept in the package, so later uses find it
    directly; a name ``where`` lacks is an ``AttributeError``, as for any module.
    """

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *where})

    return __getattr__, __dir__

"""Where the source constructs coded errors and messages (read with ``ast``), for the error-code tests.

A coded error or message is built by calling :class:`ndcg_core.errors.NDCGError`, a subclass of it
(``BadAnswer``, ``BadQuestion``) or :class:`ndcg_core.errors.Message`, with the code as the first
argument. The tests in ``tests/engine/test_errors.py`` and ``tests/teaching/test_error_codes.py``
use these helpers to compare the codes the source uses with :data:`ndcg_core.errors.MESSAGES`.
"""

from __future__ import annotations

import ast
import pathlib
from collections.abc import Iterable
from typing import Any

from ndcg_core.errors import Message, NDCGError

ROOT = pathlib.Path(__file__).resolve().parents[1]
CORE = ROOT / "ndcg_core"
#: errors.py builds messages from codes it is given (NDCGError.of, the constructors themselves).
ERRORS_MODULE = CORE / "errors.py"

ENGINE = sorted([*CORE.glob("*.py"), *(CORE / "dataset").rglob("*.py")])
TEACHING = sorted([*(CORE / "teaching").rglob("*.py"), *(CORE / "classroom").rglob("*.py")])
PAGES = sorted([ROOT / "app.py", *(ROOT / "views").rglob("*.py")])
SOURCE = [*ENGINE, *TEACHING, *PAGES]


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def constructor_names(paths: Iterable[pathlib.Path] = SOURCE) -> set[str]:
    """``NDCGError``, ``Message`` and every class the source derives from NDCGError (transitively)."""
    bases: dict[str, set[str]] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = {n for n in map(_name, node.bases) if n}
    names = {"NDCGError", "Message"}
    grew = True
    while grew:
        more = {cls for cls, parents in bases.items() if parents & names} - names
        names |= more
        grew = bool(more)
    return names


def constructions(paths: Iterable[pathlib.Path]) -> list[tuple[str, ast.expr | None, str]]:
    """Every call of a constructor in ``paths``: (constructor, first argument, "file:line")."""
    paths = list(paths)
    names = constructor_names()
    found = []
    for path in paths:
        if path == ERRORS_MODULE:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and _name(node.func) in names:
                first = node.args[0] if node.args else None
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                found.append((_name(node.func), first, where))
    return found


def codes_used(paths: Iterable[pathlib.Path]) -> dict[str, list[str]]:
    """The codes the source in ``paths`` constructs, each with where (literal first arguments only)."""
    used: dict[str, list[str]] = {}
    for _cls, first, where in constructions(paths):
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            used.setdefault(first.value, []).append(where)
    return used


def codes_in(value: Any) -> set[str]:
    """The code of a coded error or message and of every coded value inside it."""
    message = value.message if isinstance(value, NDCGError) else value
    if not isinstance(message, Message):
        return set()
    return {message.code}.union(*(codes_in(v) for v in message.values.values()))

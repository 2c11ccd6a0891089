"""Issue 8, defect 13: no hidden import cycles, no dead code, no docstring that says what is not so."""

from __future__ import annotations

import ast
import itertools
import pathlib

CORE = pathlib.Path(__file__).resolve().parents[2] / "ndcg_core"
SOURCES = sorted(CORE.rglob("*.py"))


def _functions(tree: ast.AST):
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def test_defect_13_no_lazy_imports_between_library_modules():
    """A module imported inside a function hides an import cycle (metrics <-> presets did)."""
    lazy = []
    for path in SOURCES:
        for fn in _functions(ast.parse(path.read_text())):
            for node in ast.walk(fn):
                if isinstance(node, ast.ImportFrom) and node.level > 0:
                    lazy.append(f"{path.relative_to(CORE)}:{node.lineno} {fn.name}")
    assert not lazy, lazy


def test_defect_13_no_code_after_a_return_or_raise():
    dead = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            for field in ("body", "orelse", "finalbody"):
                block = getattr(node, field, None)
                if not isinstance(block, list):
                    continue
                for stmt, after in itertools.pairwise(block):
                    if isinstance(stmt, (ast.Return, ast.Raise)):
                        dead.append(f"{path.relative_to(CORE)}:{after.lineno}")
    assert not dead, dead


def test_defect_13_docstrings_do_not_promise_what_is_not_there():
    stale = ("when available", "not available yet", "no per-library code path", "shared/seeds")
    found = [
        f"{path.relative_to(CORE)}: {phrase!r}"
        for path in SOURCES
        for phrase in stale
        if phrase in path.read_text()
    ]
    assert not found, found

"""The test suite's own rules (issue 41, parts 2 and 4): what several test modules need is written
once, in a shared place, and used from there.

- One PostgreSQL cluster per run (per pytest-xdist worker): the ``postgres_url`` fixture of
  tests/conftest.py. Three modules each started their own.
- One check that an AppTest run raised nothing (``ok``) and one reader of the text a page shows
  (``shown``, ``texts``): tests/app/apptest_support.py. Seventeen modules had their own copies.
"""

from __future__ import annotations

import ast
import pathlib

TESTS = pathlib.Path(__file__).resolve().parents[1]
SHARED = {TESTS / "conftest.py", TESTS / "app" / "apptest_support.py", TESTS / "postgres_support.py"}


def _modules() -> list[pathlib.Path]:
    return sorted(p for p in TESTS.rglob("*.py") if p not in SHARED)


def _helpers(tree: ast.AST):
    """The functions of a module that are not tests."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("test_"):
            yield node


def test_one_postgresql_cluster_for_the_whole_run():
    own = []
    for path in _modules():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            called = isinstance(node, ast.Call) and getattr(node.func, "id", "") == "postgres_server"
            defined = isinstance(node, ast.FunctionDef) and node.name == "postgres_url"
            if called or defined:
                own.append(f"{path.relative_to(TESTS)}:{node.lineno}")
    assert own == [], "use the postgres_url fixture of tests/conftest.py"
    conftest = ast.parse((TESTS / "conftest.py").read_text())
    functions = [n for n in ast.walk(conftest) if isinstance(n, ast.FunctionDef)]
    (fixture,) = [n for n in functions if n.name == "postgres_url"]
    scope = [k.value.value for d in fixture.decorator_list if isinstance(d, ast.Call) for k in d.keywords]
    assert scope == ["session"]


def _asserts_no_exception(fn: ast.FunctionDef) -> bool:
    """Whether a helper asserts that an AppTest raised nothing (``assert not at.exception``)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Assert) and isinstance(node.test, ast.UnaryOp):
            operand = node.test.operand
            if isinstance(operand, ast.Attribute) and operand.attr == "exception":
                return True
    return False


def _walks_elements(fn: ast.FunctionDef) -> bool:
    """Whether a helper reads element bodies kind by kind (``for kind in ... at.get(kind)``)."""
    loops = [n for n in ast.walk(fn) if isinstance(n, ast.comprehension)]
    gets = [
        n
        for n in ast.walk(fn)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get"
    ]
    kinds = {t.id for loop in loops for t in ast.walk(loop.target) if isinstance(t, ast.Name)}
    return any(isinstance(a, ast.Name) and a.id in kinds for g in gets for a in g.args)


def test_the_apptest_helpers_are_written_once():
    copies = [
        f"{path.relative_to(TESTS)}:{fn.lineno} {fn.name}"
        for path in _modules()
        if "AppTest" in path.read_text()
        for fn in _helpers(ast.parse(path.read_text()))
        if _asserts_no_exception(fn) or _walks_elements(fn)
    ]
    assert copies == [], "use ok, shown and texts from tests/app/apptest_support.py"


def test_no_module_hides_a_shared_helper_behind_one_of_its_own():
    """A module that imports ``shown`` and defines its own ``shown`` calls its own (ruff's F811 is off
    in tests/: fixtures are imported by name), as test_app_datasets.py once did."""
    hidden = []
    for path in _modules():
        tree = ast.parse(path.read_text())
        imported = {
            alias.asname or alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "apptest_support"
            for alias in node.names
        }
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assigned = [t for n in tree.body if isinstance(n, ast.Assign) for t in n.targets]
        defined |= {t.id for t in assigned if isinstance(t, ast.Name)}
        hidden += [f"{path.relative_to(TESTS)}: {name}" for name in sorted(imported & defined)]
    assert hidden == []

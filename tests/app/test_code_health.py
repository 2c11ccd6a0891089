"""Issue 8, defect 13: no hidden import cycles, no dead code, no docstring that says what is not so.

Issue 25: modules small enough to read, Streamlit's internals in one adapter, no tracked data.
"""

from __future__ import annotations

import ast
import itertools
import pathlib
import re
import subprocess

import streamlit

CORE = pathlib.Path(__file__).resolve().parents[2] / "ndcg_core"
SOURCES = sorted(CORE.rglob("*.py"))


def _functions(tree: ast.AST):
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _imports_the_library(path: pathlib.Path) -> bool:
    """Whether a module imports any module of ndcg_core (relatively or by name)."""
    for node in ast.walk(ast.parse(path.read_text())):
        named = (node.module or "") if isinstance(node, ast.ImportFrom) else ""
        if isinstance(node, ast.ImportFrom) and (node.level > 0 or named.startswith("ndcg_core")):
            return True
        if isinstance(node, ast.Import) and any(a.name.startswith("ndcg_core") for a in node.names):
            return True
    return False


def _targets(path: pathlib.Path, node: ast.ImportFrom) -> list[pathlib.Path]:
    """The module files a relative ``from ... import ...`` inside ``path`` names."""
    base = path.parent
    for _ in range(node.level - 1):
        base = base.parent
    if node.module:
        base = base.joinpath(*node.module.split("."))
        return [base / "__init__.py" if base.is_dir() else base.with_suffix(".py")]
    modules = [base / f"{a.name}.py" for a in node.names]
    return [m if m.exists() else base / "__init__.py" for m in modules]


def test_defect_13_no_lazy_imports_between_library_modules():
    """A module imported inside a function hides an import cycle (metrics <-> presets did).

    Two kinds are allowed: a leaf, a module that imports nothing of the library, so it cannot be in
    a cycle; and the command line (cli.py, cli_options.py, cli_output.py), which no library module
    imports, so none of its imports can close a cycle: it imports pandas, the presets and the full
    readers only where a file is not read the lean way (a new process's start-up, issue 40)."""
    lazy, leaves = [], []
    for path in SOURCES:
        for fn in _functions(ast.parse(path.read_text())):
            for node in ast.walk(fn):
                if isinstance(node, ast.ImportFrom) and node.level > 0 and not path.name.startswith("cli"):
                    where = f"{path.relative_to(CORE)}:{node.lineno} {fn.name}"
                    targets = _targets(path, node)
                    if all(t.exists() and not _imports_the_library(t) for t in targets):
                        leaves.append(f"{path.relative_to(CORE)} {fn.name}")
                    else:
                        lazy.append(where)
    assert not lazy, lazy
    assert leaves == []  # a new one is a decision, not an accident


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


ROOT = CORE.parent
#: The one module allowed to import Streamlit's internals (see its docstring).
ADAPTER = ROOT / "views" / "ui" / "internals.py"
#: Streamlit's public modules: ``streamlit`` itself, and the components API.
PUBLIC_STREAMLIT = ("streamlit", "streamlit.components", "streamlit.testing")


def _app_sources() -> list[pathlib.Path]:
    return [
        *CORE.rglob("*.py"),
        *(ROOT / "views").rglob("*.py"),
        ROOT / "app.py",
        *(ROOT / "scripts").glob("*.py"),
    ]


def test_no_module_of_the_library_or_the_pages_is_over_700_lines():
    sizes = {p.relative_to(ROOT).as_posix(): len(p.read_text().splitlines()) for p in _app_sources()}
    assert len(sizes) > 40
    assert not {p: n for p, n in sizes.items() if n > 700}


def test_only_the_adapter_imports_streamlits_internals():
    offenders = []
    for path in _app_sources():
        if path == ADAPTER:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            offenders += [
                f"{path.relative_to(ROOT)}: {name}"
                for name in names
                if name.split(".")[0] == "streamlit"
                and not any(name == p or name.startswith(p + ".") for p in PUBLIC_STREAMLIT[1:])
                and name != "streamlit"
            ]
    assert not offenders, offenders
    assert "streamlit.runtime" in ADAPTER.read_text()


def test_the_streamlit_versions_the_adapter_is_tested_on_are_pinned():
    text = (ROOT / "pyproject.toml").read_text()
    pin = re.search(r'"streamlit>=([\d.]+),<([\d.]+)"', text)
    assert pin, "streamlit needs a lower and an upper bound"
    installed = tuple(int(x) for x in streamlit.__version__.split(".")[:2])
    low, high = (tuple(int(x) for x in v.split(".")[:2]) for v in pin.groups())
    assert low <= installed < high


def test_data_holds_no_tracked_file():
    """data/ is where Class mode keeps its rooms (with their lecturer keys): never in a clone."""
    out = subprocess.run(["git", "ls-files", "data"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_no_layer_decides_by_a_gain_or_discount_name():
    """Issue 41: a gain or discount is one record (ndcg_core/rules.py) every layer reads; a module
    that compares a choice with a rule's name (``if discount == "log"``) writes the rule again."""
    names = {"linear", "exponential", "binary", "log", "jarvelin"}
    root = CORE.parent
    found = []
    for path in [*SOURCES, root / "app.py", *sorted((root / "views").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            said = {s.value for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)}
            said |= {
                e.value
                for s in sides
                if isinstance(s, (ast.Tuple, ast.List, ast.Set))
                for e in s.elts
                if isinstance(e, ast.Constant)
            }
            choice = any(
                (isinstance(s, ast.Attribute) and s.attr in {"gain", "discount"})
                or (isinstance(s, ast.Name) and s.id in {"gain", "discount"})
                for s in sides
            )
            if choice and said & names:
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    assert found == []


def test_streamlits_private_dom_names_are_named_in_one_stylesheet_module():
    """Issue 41: Streamlit's data-testid names and st* classes are not API; 57 selectors stood across
    CSS and views. Only views/ui/styles.py names them (a Streamlit upgrade is checked in one file)."""
    root = CORE.parent
    private = re.compile(r"data-testid|\.st[A-Z][A-Za-z]+\b|\bst[A-Z][a-zA-Z]+(Container|Control|Button)\b")
    found = []
    files = [
        root / "app.py",
        *sorted((root / "views").rglob("*.py")),
        *sorted((root / "assets").glob("*.css")),
    ]
    for path in files:
        if path == root / "views" / "ui" / "styles.py":
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if private.search(line):
                found.append(f"{path.relative_to(root)}:{n}")
    assert found == []
    assert "data-testid" in (root / "views" / "ui" / "styles.py").read_text()

"""ndcg_core is the pure library: it never imports Streamlit, and its engine never imports the layers above.

The engine is ``ndcg_core``'s top-level modules and ``ndcg_core.dataset``; the teaching layer
(``ndcg_core.teaching``) and Class mode (``ndcg_core.classroom``) sit on it.
"""

import ast
import json
import pathlib
import subprocess
import sys

CORE = pathlib.Path(__file__).resolve().parents[2] / "ndcg_core"


def test_no_streamlit_import_in_source():
    offenders = []
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "streamlit"]
    assert not offenders, offenders
    assert len(list(CORE.rglob("*.py"))) >= 3


def test_importing_ndcg_core_does_not_load_streamlit():
    code = "import sys, ndcg_core; print('streamlit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


ABOVE_THE_ENGINE = ("ndcg_core.teaching", "ndcg_core.classroom")
#: The app's dependencies (its extra): the engine never imports them at module level.
APP_PACKAGES = {
    *("streamlit", "plotly", "kaleido", "sqlalchemy", "psycopg", "segno", "babel", "views", "zstandard"),
}


def _module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(CORE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: pathlib.Path, *, top_level_only: bool) -> set[str]:
    """Absolute names of the modules ``path`` imports (relative imports resolved)."""
    tree = ast.parse(path.read_text(), str(path))
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    names = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            names.add(module)
            names |= {f"{module}.{a.name}" for a in node.names}  # a submodule imported by name
    return names


def _engine_sources() -> list[pathlib.Path]:
    return [p for p in CORE.rglob("*.py") if not _module_name(p).startswith(ABOVE_THE_ENGINE)]


def test_the_engine_never_imports_the_teaching_layer_class_mode_or_the_app():
    engine = _engine_sources()
    assert {_module_name(p) for p in engine} >= {"ndcg_core.metrics", "ndcg_core.dataset.scoring"}
    offenders = [
        f"{_module_name(p)} imports {name}"
        for p in engine
        for name in _imports(p, top_level_only=False)
        if name.startswith(ABOVE_THE_ENGINE)
    ]
    offenders += [
        f"{_module_name(p)} imports {name}"
        for p in engine
        for name in _imports(p, top_level_only=True)
        if name.split(".")[0] in APP_PACKAGES
    ]
    assert not offenders, offenders


def test_the_teaching_layer_never_imports_class_mode():
    teaching = [p for p in CORE.rglob("*.py") if _module_name(p).startswith("ndcg_core.teaching")]
    assert len(teaching) > 10
    offenders = [
        f"{_module_name(p)} imports {name}"
        for p in teaching
        for name in _imports(p, top_level_only=False)
        if name.startswith("ndcg_core.classroom") or name.split(".")[0] in {"streamlit", "views"}
    ]
    assert not offenders, offenders


def test_importing_the_engine_loads_neither_the_layers_above_nor_the_apps_packages():
    code = (
        "import json, sys, ndcg_core; ndcg_core.ndcg([3, 2, 1]); "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('ndcg_core') "
        f"or m.split('.')[0] in {sorted(APP_PACKAGES)!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout)
    assert "ndcg_core.metrics" in loaded
    assert not [m for m in loaded if m.startswith(ABOVE_THE_ENGINE) or not m.startswith("ndcg_core")], loaded


def test_only_the_browser_tests_import_playwright():
    """Unit, property, cross-library and AppTest files run without Playwright installed."""
    tests = pathlib.Path(__file__).resolve().parents[1]
    for path in tests.rglob("*.py"):
        if path.parent.name == "browser":
            continue
        tree = ast.parse(path.read_text())
        imported = {
            (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
            for node in ast.walk(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom))
            for alias in node.names
        }
        assert not any(name.split(".")[0] in {"playwright", "pytest_playwright"} for name in imported), (
            path.name
        )
    assert list((tests / "browser").glob("test_*.py")), "the browser tests live in tests/browser/"

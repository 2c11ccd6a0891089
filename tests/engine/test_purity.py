"""ndcg_core is the pure library: it must never import Streamlit."""

import ast
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

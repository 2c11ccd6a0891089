"""The engine installs and runs alone: numpy and pandas, none of the app's dependencies.

A clean virtual environment (no system packages) gets ``pip install`` of this repository without
extras, then runs ``ndcg``, ``explain`` and ``evaluate`` there. Expected values are closed forms.
"""

from __future__ import annotations

import json
import math
import pathlib
import re
import shutil
import subprocess
import textwrap
import venv

import pytest
from data_support import TREC_EVAL

ROOT = pathlib.Path(__file__).resolve().parents[2]
#: What the app brings (its extra) and the engine must run without.
APP_ONLY = {
    *("streamlit", "plotly", "kaleido", "sqlalchemy", "psycopg", "segno", "babel", "pyarrow", "scipy"),
    "zstandard",
}


@pytest.fixture(scope="module")
def engine_python(tmp_path_factory) -> pathlib.Path:
    # A copy of what the package is built from: setuptools builds inside the source folder.
    source = tmp_path_factory.mktemp("engine-source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "ndcg_core", source / "ndcg_core", ignore=shutil.ignore_patterns("__pycache__"))
    env = tmp_path_factory.mktemp("engine-venv")
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env)
    python = env / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(source)],
        check=True,
        capture_output=True,
        text=True,
        timeout=900,
    )
    return python


def test_the_engine_installs_with_numpy_and_pandas_only(engine_python):
    out = subprocess.run(
        [str(engine_python), "-m", "pip", "list", "--format", "json"], check=True, capture_output=True
    )
    installed = {p["name"].lower().replace("_", "-") for p in json.loads(out.stdout)}
    assert {"numpy", "pandas", "ndcg-teaching-app"} <= installed
    assert not installed & APP_ONLY, installed & APP_ONLY


def test_ndcg_explain_and_evaluate_run_in_the_engine_alone(engine_python, tmp_path):
    (tmp_path / "qrels").write_text("q1 0 a 3\nq1 0 b 2\nq1 0 c 0\nq2 0 x 1\n")
    (tmp_path / "run").write_text("q1 Q0 c 1 0.9 r\nq1 Q0 a 2 0.8 r\nq1 Q0 b 3 0.7 r\nq2 Q0 x 1 0.5 r\n")
    script = textwrap.dedent(
        """
        import json, sys
        import ndcg_core
        ex = ndcg_core.explain([3, 2, 3, 0, 1, 2], discount="jarvelin")
        qrels, run = ndcg_core.read_qrels(sys.argv[1]), ndcg_core.read_run(sys.argv[2])
        per_query = ndcg_core.evaluate(qrels, run, k=3)
        try:
            ndcg_core.compare(qrels, {"A": run, "B": run}, k=3)
            needs_scipy = ""
        except ImportError as err:
            needs_scipy = str(err)
        print(json.dumps({
            "compare": needs_scipy,
            "ndcg": ndcg_core.ndcg([3, 2, 3, 0, 1, 2], discount="jarvelin"),
            "explain": [ex.dcg, ex.idcg, ex.ndcg],
            "evaluate": dict(zip(per_query["query"].astype(str), per_query["ndcg"].astype(float))),
            "modules": sorted(m.split(".")[0] for m in sys.modules),
        }))
        """
    )
    out = subprocess.run(
        [str(engine_python), "-c", script, str(tmp_path / "qrels"), str(tmp_path / "run")],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,  # not the repository: the installed package, not the source tree
    )
    got = json.loads(out.stdout)
    # Wikipedia's D1..D6 under rel1 + sum rel_i / log2(i): DCG 8.097, IDCG 8.693, NDCG 0.932.
    dcg = 3 + 2 + 3 / math.log2(3) + 0 + 1 / math.log2(5) + 2 / math.log2(6)
    idcg = 3 + 3 + 2 / math.log2(3) + 2 / 2 + 1 / math.log2(5) + 0
    assert got["ndcg"] == pytest.approx(dcg / idcg)
    assert round(got["ndcg"], 3) == 0.932
    assert got["explain"] == pytest.approx([dcg, idcg, dcg / idcg])
    # q1 ranks c (0), a (3), b (2) under log2(i + 1); its ideal is a, b, c. q2 is perfect.
    q1 = (0 + 3 / math.log2(3) + 2 / 2) / (3 + 2 / math.log2(3) + 0)
    assert got["evaluate"] == pytest.approx({"q1": q1, "q2": 1.0})
    assert not set(got["modules"]) & APP_ONLY
    # comparing runs needs scipy (the app's extra): without it, a message that says what to install
    assert "pip install scipy" in got["compare"]


def test_the_ndcg_eval_command_is_installed_with_the_engine(engine_python, tmp_path):
    """[project.scripts]: the venv's own ndcg-eval prints trec_eval's lines for trec_eval's files."""
    command = engine_python.parent / "ndcg-eval"
    assert command.is_file()
    args = [
        str(command),
        "-q",
        "-m",
        "ndcg_cut.10",
        str(TREC_EVAL / "qrels.test"),
        str(TREC_EVAL / "results.test"),
    ]
    out = subprocess.run(args, check=True, capture_output=True, cwd=tmp_path)
    want = [
        ln
        for ln in (TREC_EVAL / "out.test.aq").read_bytes().splitlines(keepends=True)
        if ln.startswith(b"ndcg_cut_10 ")
    ]
    assert out.stdout == b"".join(want) and len(want) == 4


def _site_package(engine_python: pathlib.Path) -> pathlib.Path:
    out = subprocess.run(
        [
            str(engine_python),
            "-c",
            "import ndcg_core, pathlib; print(pathlib.Path(ndcg_core.__file__).parent)",
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd="/",
    )
    return pathlib.Path(out.stdout.strip())


def test_the_engine_install_holds_no_slide_fonts_and_its_translations(engine_python):
    """Issue 40: the wheel carried the teaching app's slide fonts (2.2 MB); it holds the catalogs."""
    package = _site_package(engine_python)
    assert "site-packages" in str(package)
    assert not list(package.rglob("*.ttf")) and not (package / "teaching" / "slides" / "fonts").exists()
    assert (package / "locale" / "zh" / "LC_MESSAGES" / "messages.po").is_file()
    # the app still finds them in its source tree, at the path fonts.py names
    assert (
        ROOT / "ndcg_core" / "teaching" / "slides" / "fonts" / "NotoSansCJKsc-Regular-subset.ttf"
    ).is_file()


def test_chinese_works_in_the_engine_alone(engine_python, tmp_path):
    """Issue 40: set_language("zh") failed without Babel where no compiled catalog existed."""
    script = (
        "import sys\nfrom ndcg_core.i18n import _, set_language\nset_language('zh')\n"
        "print(_('Playground'))\nprint('babel' in sys.modules)"
    )
    out = subprocess.run(
        [str(engine_python), "-c", script], check=True, capture_output=True, text=True, cwd=tmp_path
    )
    assert out.stdout.split() == ["演练场", "False"]


def test_each_extra_installs_what_its_use_needs_and_nothing_of_the_app():
    """Issue 40: the fast path, comparisons and .zst each have an engine extra; the app's extra
    brings those three and what only the app uses; numba is gone."""
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {key: {re.split(r"[<>=\[ ]", r)[0].lower() for r in value} for key, value in extras.items()}
    assert names["fast"] == {"pyarrow"}
    assert names["compare"] == {"scipy"}
    assert names["zstd"] == {"zstandard"}
    assert extras["engine"] == ["ndcg-teaching-app[fast,compare,zstd]"]
    assert "ndcg-teaching-app[fast,compare,zstd]" in extras["app"]
    assert not {"numba", "llvmlite"} & set().union(*(n for k, n in names.items() if k != "test"))
    app_only = {"streamlit", "plotly", "kaleido", "sqlalchemy", "psycopg", "segno", "psutil", "babel"}
    assert app_only <= names["app"] and not app_only & (names["fast"] | names["compare"] | names["zstd"])

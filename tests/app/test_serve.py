"""The launcher ``scripts/serve.py`` (``make run``): what its warm-up loads, and what it leaves alone.

Each check runs in a fresh interpreter, so what is imported is that process's own doing.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run(code: str) -> dict:
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys; sys.path[:0] = [{str(ROOT)!r}, {str(ROOT / 'scripts')!r}]\n{code}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_after_the_warm_up_the_first_page_has_nothing_heavy_left_to_import():
    new = run(
        "import json, serve\n"
        "serve.prepare()\n"
        "before = set(sys.modules)\n"
        "import pkgutil, importlib, views.ui\n"
        "for m in pkgutil.iter_modules(views.ui.__path__): importlib.import_module('views.ui.' + m.name)\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))"
    )
    ours = {m for m in new if m == "views" or m.startswith("views.")}
    assert len(ours) > 5, new  # the page helpers were imported here, not by the warm-up
    assert set(new) - ours <= {"streamlit_sortables"}, new


def test_the_warm_up_leaves_the_drag_component_to_the_script_run():
    # streamlit_sortables registers its component with the app only when imported inside a script
    # run: imported by the warm-up thread, the playground's drag list would never load.
    loaded = run("import json, serve\nserve.prepare()\nprint(json.dumps(sorted(sys.modules)))")
    assert "streamlit_sortables" not in loaded
    assert {"pandas", "plotly.graph_objects", "ndcg_core.teaching.rendering"} <= set(loaded)


def test_the_warm_up_waits_for_the_server():
    # No server in this process: it gives up at its deadline without loading anything.
    loaded = run(
        "import json, serve\nserve.warm_up(poll=0.01, timeout=0.2)\nprint(json.dumps(sorted(sys.modules)))"
    )
    assert "pandas" not in loaded and "ndcg_core" not in loaded


def test_the_server_starts_without_class_mode_or_the_teaching_layer():
    # What runs before the server answers: the launcher's addresses and server.py with its route.
    # The class store (SQLAlchemy) and the teaching layer took half of the start-up (0.45 of 1.1 s
    # to healthy); the route imports them at the first phone's ask. (Streamlit itself imports pandas
    # and plotly.)
    loaded = run(
        "import json, serve\n"
        "from ndcg_core.classroom.address import interface_addresses\n"
        "serve.addresses_text([], interface_addresses(), None)\n"
        "import server\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    ours = ("ndcg_core.teaching", "ndcg_core.classroom.store", "ndcg_core.classroom.questions", "views.room.")
    started = {"server", "views.room.routes"}
    assert not [
        m
        for m in loaded
        if (m.split(".")[0] in {"sqlalchemy", "psycopg", "segno"} or m.startswith(ours)) and m not in started
    ]
    assert started <= set(loaded)


def test_the_first_page_does_not_load_class_mode_storage():
    # The Playground (the page at "/") runs without SQLAlchemy; only the Class page needs it.
    loaded = run(
        "import json\n"
        "from streamlit.testing.v1 import AppTest\n"
        "at = AppTest.from_file('app.py', default_timeout=60).run()\n"
        "assert not at.exception, at.exception\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    assert "ndcg_core.teaching.rendering" in loaded  # the page did run
    assert not [m for m in loaded if m.split(".")[0] in {"sqlalchemy", "psycopg", "segno"}]


def settings_warning(env: dict[str, str]) -> str:
    """What the launcher says about these settings (in a fresh interpreter: they are read there)."""
    import os

    out = subprocess.run(
        [sys.executable, "-c", "import sys, serve; print(serve.settings_text())"],
        cwd=ROOT / "scripts",
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return out.stdout.strip()


def test_bad_database_settings_are_said_at_start_without_the_urls_secrets(tmp_path):
    """Issue 30, part 3: a bad NDCG_ROOM_HOURS, NDCG_DATA_DIR or NDCG_DATABASE_URL gave a message on
    the page only; whoever starts the app now reads it in the terminal, naming the variable."""
    assert settings_warning({"NDCG_DATA_DIR": str(tmp_path)}) == ""
    assert "NDCG_ROOM_HOURS" in settings_warning({"NDCG_DATA_DIR": str(tmp_path), "NDCG_ROOM_HOURS": "abc"})
    (tmp_path / "afile").write_text("")
    said = settings_warning({"NDCG_DATA_DIR": str(tmp_path / "afile")})
    assert said.startswith("Warning: ") and "NDCG_DATA_DIR" in said and "Class mode" in said
    said = settings_warning({"NDCG_DATABASE_URL": "postgresql+nosuchdriver://ana:s3cret@db.example:5433/x"})
    assert "NDCG_DATABASE_URL" in said
    assert "s3cret" not in said and "db.example" not in said and "5433" not in said

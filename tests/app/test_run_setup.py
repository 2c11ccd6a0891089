"""`make run` / `make test` set-up and the lecturer's Dockerfile (issue 9, "Run anywhere, two commands").

The Makefile is checked with `make -n` (what it would run), so nothing is installed; the Dockerfile is
read as text (no Docker engine here): its invariants are the ones the README and docs/deployment.md
promise.
"""

import fnmatch
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
#: A Python that is not a virtual environment's: the one this environment was made from.
BASE_PYTHON = str(Path(sys.base_prefix) / "bin" / "python3")


def dry_run(*args: str, env: dict[str, str] | None = None) -> str:
    """What `make` would run, as text (`make -n` executes nothing but the Makefile's $(shell ...))."""
    make = shutil.which("make")
    assert make, "make is needed by `make run` and `make test` themselves"
    full_env = {k: v for k, v in os.environ.items() if k not in {"PORT", "VENV", "PYTHON", "MAKEFLAGS"}}
    full_env.update(env or {})
    out = subprocess.run(
        [make, "-n", "-C", str(ROOT), *args], capture_output=True, text=True, env=full_env, check=True
    )
    return out.stdout


def test_base_python_is_not_a_venv():
    out = subprocess.run(
        [BASE_PYTHON, "-c", "import sys; print(sys.prefix == sys.base_prefix)"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "True"


def test_outside_a_venv_make_run_creates_and_uses_the_project_venv(tmp_path):
    venv = tmp_path / "venv"
    out = dry_run("run", f"PYTHON={BASE_PYTHON}", f"VENV={venv}")
    assert f"{BASE_PYTHON} -m venv {venv}" in out
    # the app (the engine and its extra), at the versions constraints.txt pins
    assert f'{venv}/bin/python -m pip install -q -c constraints.txt -e ".[app]"' in out
    assert f"{venv}/bin/python scripts/serve.py --server.port" in out
    # Never installs into the base interpreter (an externally managed one refuses: PEP 668).
    assert f"{BASE_PYTHON} -m pip" not in out


def test_inside_a_venv_the_makefile_uses_it_as_it_is(tmp_path):
    venv = tmp_path / "active"
    subprocess.run([BASE_PYTHON, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    out = dry_run("test", f"PYTHON={py}", f"VENV={tmp_path / 'unused'}")
    assert " -m venv " not in out
    assert "unused" not in out
    commands = [
        line.split(" -m ")[0].split()[-1]
        for line in out.splitlines()
        if re.search(r" -m (pip|pytest|ruff)\b", line)
    ]
    assert len(commands) >= 3, out
    # The venv's own interpreter (sys.executable keeps the venv path, not the base it links to).
    assert {Path(c) for c in commands} == {py}
    # Its stamp lives inside that environment, not in the project.
    assert f"touch {venv}/.installed-test" in out


@pytest.mark.parametrize("changed", ["pyproject.toml", "constraints.txt"])
def test_the_stamp_skips_pip_until_pyproject_or_the_constraints_change(tmp_path, changed):
    """In a copy of the Makefile and the two files it installs from, whose times the test sets."""
    project = tmp_path / "project"
    project.mkdir()
    for name in ("Makefile", "pyproject.toml", "constraints.txt"):
        shutil.copy(ROOT / name, project / name)
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").touch()
    stamp = venv / ".installed-app"
    stamp.touch()
    for name in ("pyproject.toml", "constraints.txt"):
        os.utime(project / name, (1_000_000, 1_000_000))
    os.utime(stamp, (1_000_100, 1_000_100))
    make = [shutil.which("make"), "-n", "-C", str(project), "run", f"PYTHON={BASE_PYTHON}", f"VENV={venv}"]
    env = {k: v for k, v in os.environ.items() if k not in {"PORT", "VENV", "PYTHON", "MAKEFLAGS"}}
    out = subprocess.run(make, capture_output=True, text=True, env=env, check=True).stdout
    assert "pip install" not in out
    assert " -m venv " not in out
    assert f"{venv}/bin/python scripts/serve.py --server.port" in out

    os.utime(project / changed, (1_000_200, 1_000_200))  # that file alone is newer than the stamp
    out = subprocess.run(make, capture_output=True, text=True, env=env, check=True).stdout
    assert 'pip install -q -c constraints.txt -e ".[app]"' in out


@pytest.mark.parametrize("how", ["argument", "environment"])
def test_make_run_honours_port_and_prints_the_url(tmp_path, how):
    args = ["run", f"PYTHON={BASE_PYTHON}", f"VENV={tmp_path / 'venv'}"]
    env = None
    if how == "argument":
        args.append("PORT=9123")
    else:
        env = {"PORT": "9123"}
    out = dry_run(*args, env=env)
    assert "--server.port 9123" in out
    assert "http://localhost:9123" in out


def test_make_run_defaults_to_port_8501(tmp_path):
    out = dry_run("run", f"PYTHON={BASE_PYTHON}", f"VENV={tmp_path / 'venv'}")
    assert "--server.port 8501" in out
    assert "http://localhost:8501" in out


def test_every_target_runs_through_the_chosen_interpreter(tmp_path):
    venv = tmp_path / "venv"
    for target in ["lint", "test", "bench", "bench-data", "bench-memory", "bench-capacity"]:
        out = dry_run(target, f"PYTHON={BASE_PYTHON}", f"VENV={venv}")
        runs = [line for line in out.splitlines() if re.search(r" -m (ruff|pytest)\b|benchmarks/", line)]
        assert runs, (target, out)
        assert all(f"{venv}/bin/python " in line for line in runs), (target, runs)


def test_streamlit_config_is_headless():
    # make run prints the address instead of opening a browser: the server is headless.
    text = (ROOT / ".streamlit" / "config.toml").read_text()
    server = text.split("[server]", 1)[1].split("\n[", 1)[0]
    assert re.search(r"^headless\s*=\s*true$", server, re.M)


def test_streamlit_reads_the_configs_options_as_meant():
    """Streamlit as the server reads the file (from the app's folder): a misspelled section or
    option would be dropped silently. postScriptGC off is what keeps a hall of phones' polls cheap
    (issue 30, part 6: views/ui/session.py collect_garbage)."""
    code = (
        "from streamlit import config; config.get_config_options(force_reparse=True); "
        "options = ('runner.postScriptGC', 'server.headless', 'server.maxUploadSize'); "
        "print([config.get_option(o) for o in options])"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[False, True, 200]"


# --- Dockerfile ------------------------------------------------------------------------------------


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    text = (ROOT / "Dockerfile").read_text()
    logical: list[str] = []
    pending = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        logical.append(pending + stripped)
        pending = ""
    assert not pending, "a continuation line runs off the end of the Dockerfile"
    return [(x.split(None, 1)[0].upper(), x.split(None, 1)[1] if " " in x else "") for x in logical]


def of(name: str) -> list[str]:
    return [args for ins, args in instructions() if ins == name]


def test_dockerfile_base_is_a_slim_python_matching_requires_python():
    (base,) = of("FROM")
    match = re.fullmatch(r"python:(3\.\d+)-slim(-\w+)?", base)
    assert match, base
    minimum = re.search(r'requires-python = ">=(3\.\d+)"', (ROOT / "pyproject.toml").read_text()).group(1)
    assert tuple(map(int, match.group(1).split("."))) >= tuple(map(int, minimum.split(".")))


def test_dockerfile_runs_as_a_non_root_user():
    users = of("USER")
    assert users, "no USER: the app would run as root"
    user = users[-1].split(":")[0]
    assert user not in {"root", "0"}
    # Nothing after the last USER switches back, and the app's files belong to that user.
    names = [ins for ins, _ in instructions()]
    assert "USER" not in names[names.index("USER") + 1 :]
    copies = of("COPY")
    assert copies and all(c.startswith(f"--chown={users[-1]}") for c in copies), copies


def test_dockerfile_commands_are_the_make_targets():
    runs_after_user = []
    seen_user = False
    for ins, args in instructions():
        seen_user = seen_user or ins == "USER"
        if ins == "RUN" and seen_user:
            runs_after_user.append(args)
    assert runs_after_user == ["make install"]
    (cmd,) = of("CMD")
    assert json.loads(cmd) == ["make", "run"]
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^install:", makefile, re.M) and re.search(r"^run:", makefile, re.M)


def test_dockerfile_has_the_browser_that_draws_chart_exports():
    # ndcg_core.teaching.export renders PNG/SVG through kaleido, which needs a Chromium on the machine.
    assert "kaleido" in (ROOT / "pyproject.toml").read_text()
    installs = [r for r in of("RUN") if "apt-get install" in r]
    assert installs and re.search(r"\bchromium\b", installs[0]), installs


def test_dockerfile_port_healthcheck_and_expose_agree():
    env = " ".join(of("ENV"))
    port = re.search(r"\bPORT=(\d+)", env).group(1)
    assert of("EXPOSE") == [port]
    make_default = re.search(r"^PORT \?= (\d+)$", (ROOT / "Makefile").read_text(), re.M).group(1)
    assert port == make_default
    (health,) = of("HEALTHCHECK")
    options, cmd = health.split("CMD", 1)
    assert "--start-period=" in options
    argv = json.loads(cmd)
    assert argv[:2] == ["python3", "-c"]
    code = argv[2]
    assert "/_stcore/health" in code
    assert "os.environ.get('PORT', '8501')" in code  # the port the server was told, not a fixed one
    compile(code, "<healthcheck>", "exec")


def test_dockerignore_keeps_the_host_venv_out_and_the_app_in():
    patterns = [
        p.strip()
        for p in (ROOT / ".dockerignore").read_text().splitlines()
        if p.strip() and not p.startswith("#")
    ]

    def ignored(path: str) -> bool:
        return any(fnmatch.fnmatch(path, p) or path.startswith(p.rstrip("/") + "/") for p in patterns)

    # A host .venv would carry the install stamp and links to the host's Python into the image.
    for path in [".venv", ".venv/bin/python", ".git", ".venv-heavy"]:
        assert ignored(path), path
    for path in ["app.py", "views/ui/drag.py", "ndcg_core/__init__.py", "assets/sample_run.tsv"]:
        assert (ROOT / path).exists() and not ignored(path), path
    for path in [".streamlit/config.toml", "pyproject.toml", "README.md", "Makefile", "constraints.txt"]:
        assert not ignored(path), path  # `make install` in the image installs the pinned versions


def test_dockerfile_gives_class_modes_data_folder_to_the_app_user_and_keeps_the_hosts_out():
    """Class mode's SQLite folder (/app/data) exists in the image, owned by the app user, so a
    volume mounted there is writable; a host's data/ (its rooms) never goes into the image."""
    runs = " ".join(args for ins, args in instructions() if ins == "RUN")
    assert re.search(r"install -d -o app -g app [^&]*/app/data", runs)
    patterns = [p.strip() for p in (ROOT / ".dockerignore").read_text().splitlines() if p.strip()]
    assert "data" in patterns or "data/" in patterns


# --- a clone in any folder ---------------------------------------------------------------------------

#: How a path climbs out of the checkout: the parent of the repository's root, or a ``../`` folder
#: beside it (trec_eval's files were read from ``../shared/external/``: a clone anywhere else failed).
OUTSIDE = re.compile(r"ROOT\.parent\b|parents\[[3-9]\]|\.\./shared|[\"']shared[\"']\s*/")


def test_tests_and_benchmarks_read_nothing_outside_the_repository():
    """Every test datum lives in the repository (tests/data/, through tests/data_support.py), so
    `make test` passes on a fresh clone in any folder."""
    sources = [*(ROOT / "tests").rglob("*.py"), *(ROOT / "benchmarks").glob("*.py")]
    sources += [*(ROOT / "scripts").glob("*.py"), *(ROOT / "checks_heavy").rglob("*.py")]
    this = Path(__file__).resolve()
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sources
        if path.resolve() != this
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if OUTSIDE.search(line)
    ]
    assert found == []
    data = ROOT / "tests" / "data"
    assert (data / "trec_eval" / "qrels.test").is_file()
    assert (data / "trec_eval" / "README.md").is_file()  # its provenance and licence
    support = (ROOT / "tests" / "data_support.py").read_text()
    assert 'TREC_EVAL = TEST_DATA / "trec_eval"' in support


# --- parallel by default ------------------------------------------------------------------------------


def _cpus_module():
    spec = importlib.util.spec_from_file_location("cpus", ROOT / "scripts" / "cpus.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_test_runs_a_worker_on_every_usable_cpu_and_the_browser_tests_together(tmp_path):
    venv = tmp_path / "venv"
    usable = _cpus_module().usable_cpus()

    def pytest_line(*args: str) -> str:
        (line,) = [x for x in dry_run("test", f"VENV={venv}", *args).splitlines() if " -m pytest" in x]
        return line

    assert pytest_line().endswith(f"-m pytest -n {usable} --dist loadgroup"), pytest_line()
    assert pytest_line("TEST_WORKERS=0").endswith("-m pytest -n 0 --dist loadgroup")


def _cgroup(tmp_path: Path, files: dict[str, str], own: str) -> tuple[Path, Path]:
    root = tmp_path / "cgroup"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    proc = tmp_path / "proc-cgroup"
    proc.write_text(own)
    return root, proc


@pytest.mark.parametrize(
    ("files", "own", "want"),
    [
        ({"cgroup.controllers": "cpu"}, "0::/\n", 8),  # v2, no quota: the affinity
        ({"cgroup.controllers": "cpu", "cpu.max": "max 100000\n"}, "0::/\n", 8),
        ({"cgroup.controllers": "cpu", "cpu.max": "200000 100000\n"}, "0::/\n", 2),  # docker --cpus=2
        ({"cgroup.controllers": "cpu", "cpu.max": "150000 100000\n"}, "0::/\n", 2),  # 1.5 CPUs: 2 workers
        ({"cgroup.controllers": "cpu", "cpu.max": "50000 100000\n"}, "0::/\n", 1),
        # the process's own cgroup, and a tighter parent above it
        (
            {"cgroup.controllers": "", "ci/cpu.max": "400000 100000", "ci/job/cpu.max": "max 100000"},
            "0::/ci/job",
            4,
        ),
        # v1 (hybrid hierarchy): the cpu controller's CFS quota
        ({"cpu/cpu.cfs_quota_us": "300000", "cpu/cpu.cfs_period_us": "100000"}, "1:cpu,cpuacct:/\n0::/\n", 3),
        ({"cpu/cpu.cfs_quota_us": "-1", "cpu/cpu.cfs_period_us": "100000"}, "1:cpu,cpuacct:/\n0::/\n", 8),
        ({}, "", 8),  # no cgroup file system at all
    ],
)
def test_usable_cpus_is_the_affinity_lowered_by_a_cgroup_quota(tmp_path, files, own, want):
    root, proc = _cgroup(tmp_path, files, own)
    assert _cpus_module().usable_cpus(8, root=root, proc_cgroup=proc) == want


def test_usable_cpus_is_at_least_one(tmp_path):
    root, proc = _cgroup(tmp_path, {"cgroup.controllers": "", "cpu.max": "1000 100000"}, "0::/")
    assert _cpus_module().usable_cpus(1, root=root, proc_cgroup=proc) == 1


# --- pinned versions: constraints.txt -----------------------------------------------------------------


def _requirements() -> list[str]:
    """Every requirement pyproject.toml names: the engine's and every extra's (not the project's own)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    every = [*project["dependencies"], *(r for extra in extras.values() for r in extra)]
    own = canonicalize_name(project["name"])  # an extra naming others of this project ("[fast,zstd]")
    return [r for r in dict.fromkeys(every) if canonicalize_name(Requirement(r).name) != own]


def _pins() -> dict[str, str]:
    lines = [x for x in (ROOT / "constraints.txt").read_text().splitlines() if x and not x.startswith("#")]
    pins = dict(line.split("==") for line in lines)
    assert len(pins) == len(lines), "one name==version a line"
    return {canonicalize_name(name): version for name, version in pins.items()}


def test_constraints_pin_every_requirement_within_what_pyproject_allows():
    """A requirement added to pyproject.toml without `make constraints` would be installed at its newest
    on every CI run: this fails instead. A pin outside pyproject's range would make pip refuse."""
    pins = _pins()
    for text in _requirements():
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not in constraints.txt: run make constraints"
        assert requirement.specifier.contains(pins[name], prereleases=True), (text, pins[name])
    assert "ndcg-teaching-app" not in pins  # the project itself is installed from the checkout


def test_make_constraints_writes_what_a_fresh_environment_froze(tmp_path):
    """`make constraints` with a stand-in Python (no network here): a throwaway venv, pip installs the
    project with both extras into it, and its freeze (after the header) becomes constraints.txt; a
    failed install leaves the old file alone."""
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(ROOT / "Makefile", project / "Makefile")
    (project / "constraints.txt").write_text("old==1\n")
    shim = tmp_path / "python"
    shim.write_text(
        "#!/bin/sh\n"
        'if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; exit 0; fi\n'
        'if [ "$1 $2 $3" = "-m pip install" ]; then echo "$@" >> "$INSTALLS"; exit "${PIP_FAILS:-0}"; fi\n'
        'if [ "$1 $2 $3 $4" = "-m pip freeze --exclude-editable" ]; then\n'
        '  printf "alpha==2.0\\nzeta==1.0\\n"; exit 0\n'
        "fi\n"
        f'exec {sys.executable} "$@"\n'
    )
    shim.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in {"VENV", "PYTHON", "MAKEFLAGS"}}
    env["INSTALLS"] = str(tmp_path / "installs")
    make = [shutil.which("make"), "-s", "-C", str(project), "constraints", f"PYTHON={shim}"]

    failed = subprocess.run(make, capture_output=True, text=True, env={**env, "PIP_FAILS": "1"})
    assert failed.returncode != 0 and (project / "constraints.txt").read_text() == "old==1\n"

    subprocess.run(make, capture_output=True, text=True, env=env, check=True)
    lines = (project / "constraints.txt").read_text().splitlines()
    assert [x for x in lines if not x.startswith("#")] == ["alpha==2.0", "zeta==1.0"]
    assert any("make constraints" in x for x in lines if x.startswith("#"))
    installs = (tmp_path / "installs").read_text().splitlines()
    assert installs[-1].endswith("-e .[app,test]") and "-c" not in installs[-1].split()  # the newest allowed

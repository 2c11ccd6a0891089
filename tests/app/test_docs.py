"""The README and docs/ keep their promises: a short README, links and paths that exist, names that import.

Their `>>>` examples run as doctests (pyproject.toml's testpaths); the formula table is checked in
tests/engine/test_variants.py and tests/teaching/test_schema_reach.py. This file checks the rest.
"""

from __future__ import annotations

import importlib
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
#: What the docs describe as it is now; the history quotes earlier runs as they were written.
CURRENT = [README, *(p for p in DOCS if p.name != "performance-history.md")]
TOP_FOLDERS = ("ndcg_core", "views", "tests", "scripts", "benchmarks", "assets", "checks_heavy", "docs")


def prose(path: pathlib.Path) -> str:
    """The text outside fenced code blocks."""
    return re.sub(r"```.*?```", "", path.read_text(), flags=re.S)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: pathlib.Path) -> set[str]:
    return {slug(m) for m in re.findall(r"^#+ (.+)$", prose(path), re.M)}


def test_the_readme_is_a_five_minute_read():
    assert len(README.read_text().splitlines()) <= 220


def test_the_readme_names_the_two_commands_and_ci_runs_the_second():
    text = README.read_text()
    assert "```bash\nmake run" in text
    assert "```bash\nmake test\n```" in text
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.strip().splitlines()[-1] == "make test"


def test_the_readme_shows_the_screenshot_and_it_is_small():
    assert "](assets/screenshot.png)" in README.read_text()
    png = ROOT / "assets" / "screenshot.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size < 250_000
    assert (ROOT / "scripts" / "screenshot.py").exists()


@pytest.mark.parametrize("path", [README, *DOCS], ids=lambda p: p.name)
def test_links_point_at_files_and_headings_that_exist(path):
    for target in re.findall(r"\]\(([^)\s]+)\)", prose(path)):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.exists(), f"{path.name}: {target}"
        if anchor:
            assert anchor in anchors(linked), f"{path.name}: {target}"


@pytest.mark.parametrize("path", CURRENT, ids=lambda p: p.name)
def test_paths_in_the_docs_exist(path):
    folders = "|".join(TOP_FOLDERS)
    for name in re.findall(rf"`((?:{folders})/[\w./-]*)`", prose(path)):
        assert (ROOT / name).exists(), f"{path.name}: {name}"


def resolve(dotted: str):
    """Import the longest module prefix of ``dotted``, then look the rest up as attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(dotted)


@pytest.mark.parametrize("path", CURRENT, ids=lambda p: p.name)
def test_names_in_the_docs_import_from_where_they_say(path):
    names = set(re.findall(r"`((?:ndcg_core|views)(?:\.\w+)+)", path.read_text()))
    for name in sorted(names):
        try:
            resolve(name)
        except (ImportError, AttributeError) as error:
            pytest.fail(f"{path.name}: {name} ({error})")


# ------------------------------------------------------------------ architecture.md names every module

ARCHITECTURE = ROOT / "docs" / "architecture.md"


def _code_sections() -> dict[str, str]:
    """architecture.md's sections by the code folder (or file) their heading names: ``ndcg_core/``,
    ``ndcg_core/teaching/``, ``views/``, ``app.py`` ... -> the section's text."""
    sections = {}
    for part in re.split(r"^## ", prose(ARCHITECTURE), flags=re.M)[1:]:
        heading = part.partition("\n")[0]
        for name in re.findall(r"`([\w./]+)`", heading):
            sections[name] = part
    return sections


def _modules() -> list[pathlib.Path]:
    code = [*ROOT.glob("ndcg_core/**/*.py"), *ROOT.glob("views/**/*.py")]
    return sorted([*code, ROOT / "app.py", ROOT / "server.py"])


def _owner(rel: str, sections: dict[str, str]) -> str:
    """The section that describes a module: its own folder's, else the closest folder above that has one
    (``views/`` for ``app.py`` and ``server.py``, beside it)."""
    if rel in sections:
        return rel
    parts = rel.split("/")[:-1]
    while parts:
        folder = "/".join(parts) + "/"
        if folder in sections:
            return folder
        parts.pop()
    return "views/"


def test_architecture_names_every_module_of_the_library_and_the_app():
    """Each module is named in the section of its folder: by its file name, or its path from that
    folder; a module in a subfolder (``practice/model.py``, ``views/ui/keys.py``) also needs the
    subfolder named there. A package's ``__init__.py`` is its folder."""
    sections = _code_sections()
    assert {"ndcg_core/", "ndcg_core/teaching/", "ndcg_core/classroom/", "views/"} <= set(sections)
    missing = []
    for path in _modules():
        rel = path.relative_to(ROOT).as_posix()
        owner = _owner(rel, sections)
        text = sections[owner]
        inside = rel.removeprefix(owner) if owner.endswith("/") else rel
        folder, _, name = inside.rpartition("/")
        subfolder = not folder or f"`{folder}/`" in text or f"`{owner}{folder}/`" in text
        if name == "__init__.py":  # a package: its folder named
            named = subfolder
        else:
            named = f"`{inside}`" in text or f"`{rel}`" in text or (f"`{name}`" in text and subfolder)
        if not named:
            missing.append(f"{rel} (in the section on {owner})")
    assert missing == [], "docs/architecture.md does not name these modules: add a line on each"


def test_architecture_names_no_module_that_is_gone():
    """A module named in a section exists under that section's folder (a rename leaves no stale name)."""
    stale = []
    for owner, text in _code_sections().items():
        base = ROOT / owner if owner.endswith("/") else ROOT
        for name in set(re.findall(r"`([\w./]+\.py)`", text)):
            if "/" in name:
                found = (base / name).exists() or (ROOT / name).exists()
            else:
                found = any(base.rglob(name)) or (ROOT / name).exists()
            if not found:
                stale.append(f"{owner}: {name}")
    assert stale == []

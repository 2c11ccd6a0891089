"""Session keys are named once: views/ui/keys.py names every key the pages keep in st.session_state.

Read from the source (AST) of app.py and views/: a key spelled as a literal in two modules drifts
apart the day one of them is renamed, and attribute access (``ss.pg_items``) spells it again.
"""

from __future__ import annotations

import ast
import collections
import pathlib

from views.ui import keys

ROOT = pathlib.Path(__file__).resolve().parents[2]
KEYS_MODULE = ROOT / "views" / "ui" / "keys.py"
SOURCES = sorted([ROOT / "app.py", *(ROOT / "views").rglob("*.py")])
#: Mapping methods of st.session_state: ``ss.get(...)`` is not a key.
METHODS = {"get", "pop", "setdefault", "keys", "items", "values", "update", "clear", "to_dict"}
#: Common words that name a key only as part of one (an item table's kind, a formula scope's prefix).
STEMS = {keys.ITEMS, keys.POOL, keys.CMP, keys.PG_FORMULA, keys.DS_FORMULA}
#: Every key views/ui/keys.py names, as the string Streamlit stores.
NAMED = {
    value: name
    for name, value in vars(keys).items()
    if name.isupper() and isinstance(value, str) and value not in STEMS
}


def _where(path: pathlib.Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{node.lineno}"


def _is_session_state(node: ast.AST) -> bool:
    """``st.session_state`` (or another object's ``session_state``), or the pages' ``ss`` for it."""
    return (isinstance(node, ast.Name) and node.id == "ss") or (
        isinstance(node, ast.Attribute) and node.attr == "session_state"
    )


def _spelled(node: ast.AST) -> bool:
    """A key written out in place: a string literal or an f-string."""
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


def _key_in_place(node: ast.AST) -> bool:
    """Whether ``node`` uses a literal (or an f-string, or an attribute name) as a session key."""
    if isinstance(node, ast.Subscript):
        return _is_session_state(node.value) and _spelled(node.slice)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        method = node.func
        in_place = bool(node.args) and _spelled(node.args[0])
        return _is_session_state(method.value) and method.attr in METHODS and in_place
    if isinstance(node, ast.Compare):
        return any(map(_is_session_state, node.comparators)) and _spelled(node.left)
    if isinstance(node, ast.Attribute):
        return _is_session_state(node.value) and node.attr not in METHODS | {"session_state"}
    return False


def _widget_keys(tree: ast.AST):
    """Literal widget keys: ``key="..."`` arguments, and a form's name (its key)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        given = [kw.value for kw in node.keywords if kw.arg == "key"]
        if isinstance(node.func, ast.Attribute) and node.func.attr == "form" and node.args:
            given.append(node.args[0])
        for value in given:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                yield value


def test_the_sources_are_found():
    assert KEYS_MODULE in SOURCES and len(SOURCES) > 20
    assert {keys.PG_ITEMS, keys.LEARN_STEP, keys.PR_SESSION, keys.CL_TOKEN, keys.DS_DATA} <= set(NAMED)


def test_every_key_is_named_once_in_views_ui_keys():
    values = [v for name, v in vars(keys).items() if name.isupper() and isinstance(v, str)]
    assert len(values) == len(set(values))


def test_no_session_key_is_written_in_place():
    """Not ``ss["pg_items"]``, ``ss.get("pg_items")``, ``"pg_items" in ss`` or ``ss.pg_items``:
    ``ss[keys.PG_ITEMS]``."""
    found = [
        f"{_where(path, node)} {ast.unparse(node)}"
        for path in SOURCES
        if path != KEYS_MODULE
        for node in ast.walk(ast.parse(path.read_text()))
        if _key_in_place(node)
    ]
    assert not found, found


def test_no_named_key_is_spelled_again():
    """A literal equal to a key views/ui/keys.py names is that key spelled a second time."""
    found = [
        f"{_where(path, node)} {node.value!r} (keys.{NAMED[node.value]})"
        for path in SOURCES
        if path != KEYS_MODULE
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in NAMED
    ]
    assert not found, found


def test_no_widget_key_is_spelled_in_two_modules():
    modules = collections.defaultdict(set)
    for path in SOURCES:
        for node in _widget_keys(ast.parse(path.read_text())):
            modules[node.value].add(str(path.relative_to(ROOT)))
    shared = {key: sorted(where) for key, where in modules.items() if len(where) > 1}
    assert not shared, shared

"""Every choice of the variant schema is reachable from a share link, the sidebar and the docs
(docs/library.md, "Formula choices").

Adding a choice to ndcg_core.SCHEMA (a tie rule, a gain) must be enough for all three:
this walks the schema itself, so a new entry is checked without editing this file.
"""

from __future__ import annotations

import pathlib

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core import SCHEMA
from ndcg_core.teaching.playground import from_query_params, to_query_params

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHOICES = [(o, c) for o in SCHEMA for c in o.choices]
IDS = [f"{o.name}={o.to_url(c)}" for o, c in CHOICES]


@pytest.mark.parametrize(("option", "choice"), CHOICES, ids=IDS)
def test_share_link_reaches_the_choice_and_writes_it_back(option, choice):
    params = {"rel": "3,2,1", "scores": "0.5,0.5,0.1", option.url_key: option.to_url(choice)}
    state, warnings = from_query_params(params)
    assert warnings == []
    assert getattr(state.variant, option.name) == choice
    written = to_query_params(state)
    if choice != option.default:
        assert written[option.url_key] == option.to_url(choice)
    assert from_query_params(written)[0].variant == state.variant


@pytest.mark.parametrize(("option", "choice"), CHOICES, ids=IDS)
def test_library_docs_table_names_the_choice(option, choice):
    library_docs = (ROOT / "docs" / "library.md").read_text()
    row = next(
        line for line in library_docs.splitlines() if line.startswith(f"| {option.label} (`{option.name}`)")
    )
    assert f"`{option.url_key}`" in row
    assert f"`{option.to_url(choice)}`: {option.choices[choice]}" in row


def test_sidebar_reaches_every_choice():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    widgets = {w.key: w for w in [*at.radio, *at.selectbox]}
    for option, choice in CHOICES:
        widget = widgets[option.name if option.name != "log_base" else "base"]
        value = option.to_url(choice) if option.name == "log_base" else choice
        assert value in widget.options or option.label_of(choice) in widget.options, (option.name, choice)
        widget.set_value(value).run()
        assert not at.exception, [e.value for e in at.exception]
        assert getattr(at.session_state["pg_spec"].variant, option.name) == choice
        widgets = {w.key: w for w in [*at.radio, *at.selectbox]}

"""Issue 14 (hardening) through AppTest: the app never crashes, never loses work, shows user text as text."""

from __future__ import annotations

import pathlib
import re

import pytest
from streamlit.testing.v1 import AppTest

ROOT = pathlib.Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")


def app(params: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in (params or {}).items():
        at.query_params[key] = value
    return at.run()


def ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def test_item6_huge_k_in_the_link_keeps_the_page_usable():
    at = app({"rel": "3,2,1", "k": "9007199254740992"})
    ok(at)
    assert any("'k'" in w.value for w in at.warning)
    assert at.metric[0].value == "1.000" or at.metric[0].value == "1"  # 3,2,1 is ideal


# ---------------------------------------------------------------- item 5: user text is text

# Markdown link and image, HTML, LaTeX, an emoji shortcode, a colour directive, bold, code.
EVIL = "[x](https://evil.example/p) ![i](https://evil.example/a.png) <b>B</b> $x^2$ :smile: :red[hot] **b**"
UNESCAPED = {
    "link or image": re.compile(r"(?<!\\)\]\("),
    "html": re.compile(r"(?<!\\)<b"),
    "latex": re.compile(r"(?<!\\)\$x"),
    "emoji shortcode": re.compile(r":smile:"),
    "colour directive": re.compile(r":red\["),
    "bold": re.compile(r"(?<!\\)\*\*b"),
}
MESSAGE_TYPES = ("warning", "error", "info", "success", "caption", "markdown", "toast")
LABELLED_TYPES = ("metric", "text_input", "selectbox", "number_input", "radio", "button", "toggle")


def texts(at: AppTest) -> list[tuple[str, str]]:
    """Every message body and every metric/widget label the page shows."""
    out = []
    for kind in MESSAGE_TYPES:
        out += [(kind, str(e.value)) for e in at.get(kind)]
    for kind in LABELLED_TYPES:
        out += [(f"{kind} label", str(e.label)) for e in at.get(kind)]
    return out


def assert_no_markup(at: AppTest, min_hits: int = 1) -> None:
    ok(at)
    hits = [(kind, text) for kind, text in texts(at) if "evil" in text]
    assert len(hits) >= min_hits, f"the user text was not shown at all: {texts(at)}"
    for kind, text in hits:
        for what, pattern in UNESCAPED.items():
            assert not pattern.search(text), f"{what} would render in a {kind}: {text!r}"


@pytest.mark.parametrize("param", ["rel", "gain", "base", "zero", "ties", "k", "discount", "scores", "pool"])
def test_item5_share_link_warnings_show_the_value_as_text(param):
    at = app({"rel": "3,2,1", param: EVIL})
    assert any(param in w.value for w in at.warning), [w.value for w in at.warning]
    # Some warnings name only the parameter and what it accepts; any that quotes the value quotes text.
    quoting = param not in {"zero", "ties", "discount"}
    assert_no_markup(at, min_hits=1 if quoting else 0)


def test_item5_share_link_gain_table_warning_is_text():
    assert_no_markup(app({"rel": "3,2,1", "gain": "custom", "gains": EVIL}))


def test_item5_sidebar_gain_table_error_is_text():
    at = app({"rel": "3,2,1"})
    at.session_state["gain"] = "custom"
    at.session_state["gain_table"] = EVIL
    assert_no_markup(at.run())


def test_item5_quick_entry_error_is_text():
    at = app({"rel": "3,2,1"})
    at.text_input(key="quick_entry").set_value(f"3, {EVIL}").run()
    assert_no_markup(at)


def test_item5_explore_ranking_names_are_text():
    at = app({"rel": "3,2,1"}).switch_page("views/explore.py").run()
    ok(at)
    at.text_input(key="cmp_rank_0_name").set_value(EVIL[:20]).run()
    assert_no_markup(at, min_hits=2)  # metric label, widget label, winner message
    name = "$x$ :smile: evil"
    at.text_input(key="cmp_rank_0_name").set_value(name).run()
    assert_no_markup(at, min_hits=2)


def test_item5_explore_ranking_error_is_text():
    at = app({"rel": "3,2,1"}).switch_page("views/explore.py").run()
    at.text_input(key="cmp_rank_0").set_value(EVIL).run()
    assert_no_markup(at)

"""Issue 28 through AppTest: what the pages send for assistive technology (the browser side, axe-core
and the script that applies these, is in tests/browser/test_accessibility.py).

Expected texts are written out here; numbers come from closed forms (math.log2).
"""

from __future__ import annotations

import html
import itertools
import math
import re
from pathlib import Path

import pytest
import streamlit as st
from apptest_support import ok
from streamlit.testing.v1 import AppTest

from ndcg_core.classroom import Store

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGES = {
    "views/playground.py": "NDCG, step by step",
    "views/learn.py": "Learn NDCG in seven steps",
    "views/explore.py": "Explore: rankings, formulas, libraries",
    "views/datasets.py": "Data sets: many queries at once",
    "views/practice.py": "Practice",
    "views/classroom.py": "Class",
}


def open_page(path: str, params: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if path == "views/classroom.py":  # as tests/app/test_app_class.py opens it
        at.run()
    for key, value in (params or {}).items():
        at.query_params[key] = value
    at.switch_page(path)
    return ok(at.run())


def bodies(at: AppTest) -> list[str]:
    return [e.proto.body for e in at.get("html")]


def said(at: AppTest) -> dict[str, tuple[str, bool]]:
    """What the page asks screen readers to say: key -> (text, quiet on first show)."""
    found = {}
    pattern = re.compile(r'class="ndcg-quiet ndcg-say" data-key="([^"]*)" data-say="([^"]*)"( data-first)?')
    for body in bodies(at):
        m = pattern.search(body)
        if m:
            found[html.unescape(m.group(1))] = (html.unescape(m.group(2)), bool(m.group(3)))
    return found


@pytest.mark.parametrize("path", list(PAGES))
def test_each_page_has_one_top_heading_and_sections_one_level_below(path):
    at = open_page(path)
    headings = [m.value for m in at.markdown if m.value.startswith("#")]
    assert [h for h in headings if h.startswith("# ")] == [f"# {PAGES[path]}"]
    levels = [len(re.match(r"#+", h).group()) for h in headings]
    assert all(b <= a + 1 for a, b in itertools.pairwise(levels)), headings  # no level skipped


def test_presenter_mode_has_the_steps_title_as_its_one_top_heading():
    at = open_page("views/learn.py", {"step": "2", "present": "1"})
    assert not [m.value for m in at.markdown if m.value.startswith("# ")]
    assert sum(b.count("<h1") for b in bodies(at)) == 1


def test_every_run_sets_the_page_language_for_the_browser():
    en = open_page("views/playground.py")
    zh = open_page("views/playground.py", {"lang": "zh"})
    scripts = {
        name: [e.proto for e in at.get("html") if "__ndcgA11y" in e.proto.body]
        for name, at in (("en", en), ("zh", zh))
    }
    assert all(len(s) == 1 and s[0].unsafe_allow_javascript for s in scripts.values())
    assert '"lang": "en"' in scripts["en"][0].body
    assert '"lang": "zh-Hans"' in scripts["zh"][0].body
    assert "你的排序：拖动条目" in scripts["zh"][0].body  # the drag list's name, translated


def test_rows_beyond_k_have_a_caption_and_the_table_box_can_take_focus():
    at = open_page("views/playground.py", {"rel": "3,2,3,0,1,2", "k": "3"})
    (steps,) = [b for b in bodies(at) if 'aria-label="Your ranking"' in b]
    assert '<div class="step-table-wrap" tabindex="0" role="region"' in steps
    assert "<caption>Positions 4 to 6 are beyond k: they add nothing.</caption>" in steps
    assert steps.count('<tr class="beyond">') == 3
    assert any("rows beyond k in grey italics, below a dashed line" in m.value for m in at.markdown)
    whole = open_page("views/playground.py", {"rel": "3,2,3,0,1,2"})
    assert not any("<caption>" in b for b in bodies(whole))  # no row beyond k: nothing to say
    last = open_page("views/playground.py", {"rel": "3,2,1", "k": "2"})
    assert any("<caption>Position 3 is beyond k: it adds nothing.</caption>" in b for b in bodies(last))


def test_learns_grid_marks_rows_beyond_k_in_words_as_well_as_grey():
    at = open_page("views/learn.py", {"rel": "3,2,3,0,1,2", "k": "3", "step": "2"})
    grid = next(d for d in at.dataframe if list(d.value.columns[:1]) == ["Position"])
    assert list(grid.value["Position"]) == ["1", "2", "3", "4 · beyond k", "5 · beyond k", "6 · beyond k"]
    zh = open_page("views/learn.py", {"rel": "3,2,1", "k": "2", "step": "2", "lang": "zh"})
    grid = next(d for d in zh.dataframe if list(d.value.columns[:1]) == ["Position"])
    assert list(grid.value["Position"]) == ["1", "2", "3 · k 之后"]


def test_the_playground_says_the_new_ndcg_after_a_move_and_nothing_on_arrival():
    """Grades 3, 2, 1, log2(i + 1); Move down takes D1 below D2."""
    at = open_page("views/playground.py", {"rel": "3,2,1"})
    ideal = 3 + 2 / math.log2(3) + 1 / 2
    assert said(at)["pg_ndcg"] == ("NDCG@3 = 1.000", True)  # quiet on first show
    at.button(key="move_down").click().run()
    assert said(at)["pg_ndcg"] == (f"NDCG@3 = {(2 + 3 / math.log2(3) + 1 / 2) / ideal:.3f}", True)


def test_a_practice_verdict_is_said_once_per_check():
    at = open_page("views/practice.py", {"seed": "7", "ex": "1", "kind": "metric"})
    assert not said(at)
    key = next(t.key for t in at.text_input if t.key.startswith("pr_answer_"))
    for n in (1, 2):
        at.text_input(key=key).input("0.12")
        form = key.replace("pr_answer_", "pr_form_")
        at.button(key=f"FormSubmitter:{form}-Check").click().run()
        ((name, (text, quiet)),) = said(at).items()
        assert name == f"pr_verdict_{n}" and not quiet  # a new key per check: said again
        assert text.replace("\u2060", "") in at.error[0].value.replace("\\", "").replace("\u2060", "")


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("NDCG_DATABASE_URL", raising=False)
    st.cache_resource.clear()  # the page's one store per process: a new one on this test's file
    yield tmp_path
    st.cache_resource.clear()


def test_the_qr_code_has_the_join_link_as_its_text_and_the_link_wraps(data_dir):
    code, key = Store(f"sqlite:///{data_dir / 'classroom.sqlite3'}").create_room()
    at = open_page("views/classroom.py", {"room": code, "key": key})
    # The join link (the link to run the room from another device is made only on request).
    (link,) = [c.value for c in at.code]
    tag = re.search(r"&tag=([A-Z2-9]{6})$", link).group(1)  # the room's join tag (issue 37)
    assert link.endswith(f"/class?room={code}&tag={tag}")
    (qr,) = [b for b in bodies(at) if "<img" in b]
    assert f'alt="QR code of the join link {html.escape(link)}"' in qr
    assert 'src="data:image/svg+xml' in qr
    assert all(c.proto.wrap_lines for c in at.code)


@pytest.mark.parametrize(
    ("path", "params", "title"),
    [
        ("views/playground.py", {}, None),
        ("views/datasets.py", {}, "Per-query NDCG@10"),
        ("views/explore.py", {}, "as the log base changes"),
    ],
)
def test_every_chart_has_a_sentence_and_its_numbers_as_a_table(path, params, title):
    """Issue 28, part 4: a chart says what it shows in words, and its numbers sit in a table a
    keyboard reaches (the chart itself is a canvas a screen reader cannot read)."""
    at = open_page(path, params)
    from views.ui.markup import md_plain  # the captions escape markup (a title may hold a name)

    summaries = [md_plain(c.value) for c in at.caption if md_plain(c.value).startswith("Chart: ")]
    assert summaries, [c.value for c in at.caption]
    if title is not None:
        assert any(title in s for s in summaries), summaries
    assert len([e for e in at.expander if e.label == "The chart's numbers"]) == len(summaries)


def test_the_playgrounds_chart_table_holds_d1_to_d6s_discounted_gains():
    at = open_page("views/playground.py")  # D1..D6 under max(1, log2 i): 3, 2, 3/log2 3, 0, 1/log2 5, ...
    want = [g / max(1.0, math.log2(i)) for i, g in enumerate([3, 2, 3, 0, 1, 2], start=1)]
    tables = [d.value for d in at.dataframe if "position" in d.value.columns]
    assert any(
        any(list(t[c].astype(float)) == pytest.approx(want, abs=5e-4) for c in t.columns[1:]) for t in tables
    ), tables


@pytest.mark.parametrize(
    ("path", "params"),
    [("views/playground.py", {}), ("views/learn.py", {"step": "4"}), ("views/explore.py", {})],
)
def test_step_table_columns_are_explained_in_text_not_only_on_hover(path, params):
    """Issue 28, part 4: a header's hover title reaches neither a keyboard nor a screen reader."""
    at = open_page(path, params)
    notes = [e for e in at.expander if e.label == "What the columns mean"]
    assert notes
    text = "\n".join(m.value for e in notes for m in e.markdown)
    assert "- **Grade**: How relevant a person judged the item" in text, text
    assert "\u2060" not in text

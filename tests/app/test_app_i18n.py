"""Issue 13 acceptance: every page, tab, lesson step and exercise kind, rendered in Chinese by
AppTest, shows no string of the English catalog; the switch and the share link's ``lang``.

The walk collects what a person reads: Markdown, captions, alerts, metric labels, widget
labels, help texts and options, buttons, tab labels, table column headers, LaTeX (its
``\\text{...}`` words) and chart titles. A catalog string counts as shown when its text (for one
with placeholders: its longest literal part) appears there as whole words.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from apptest_support import ok
from babel.messages.pofile import read_po
from streamlit.testing.v1 import AppTest

from ndcg_core.i18n import _, set_language
from ndcg_core.teaching.practice import KINDS, LEVELS, MISTAKES, check, make_exercise

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
PO = ROOT / "ndcg_core" / "locale" / "zh" / "LC_MESSAGES" / "messages.po"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@pytest.fixture(autouse=True)
def test_thread_in_chinese():
    """AppTest calls a widget's format_func again in the test's own thread, outside any script run
    (where the app's session source does not answer): that thread follows the page's language."""
    set_language("zh")
    yield
    set_language("en")


def open_page(page: str, params: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = "zh"
    at.run()
    if page != "views/playground.py":
        at.switch_page(page)
    for key, value in (params or {}).items():
        at.query_params[key] = value
    return ok(at.run())


def _widget_texts(w) -> list[str]:
    proto = getattr(w, "proto", None)
    out = []
    for name in ("label", "help", "placeholder"):
        value = getattr(proto, name, None)
        if isinstance(value, str):
            out.append(value)
    for name in ("options",):
        values = getattr(w, name, None)
        if values:
            out += [str(v) for v in values]
    if proto is not None and hasattr(proto, "options"):
        out += [o if isinstance(o, str) else getattr(o, "content", "") for o in proto.options]
    return out


def rendered_text(at: AppTest) -> str:
    """All the text a person reads on the page as AppTest rendered it."""
    parts: list[str] = []  # prose: Markdown, captions, alerts, LaTeX
    labels: list[str] = []  # names: widget labels and options, headers, metric and chart labels

    def walk(node):
        kind = getattr(node, "type", "")
        proto = getattr(node, "proto", None)
        if kind in {"markdown", "caption", "title", "header", "subheader", "text", "latex", "code"}:
            if kind != "code":  # library call snippets are code, read as code
                parts.append(str(node.value))
        elif kind == "html":
            if not str(node.value).lstrip().startswith("<style"):
                shown = re.sub(r"<script\b.*?</script>", " ", str(node.value), flags=re.S)  # run, not shown
                parts.append(re.sub(r"<[^>]+>", " ", html.unescape(shown)))
                parts.extend(html.unescape(t) for t in re.findall(r'title="([^"]*)"', str(node.value)))
        elif kind in {"success", "info", "warning", "error", "exception", "toast"}:
            parts.append(str(node.value))
        elif kind == "metric":
            labels.extend([node.label, str(node.value)])
            parts.append(getattr(proto, "help", ""))
        elif kind in {"tab", "expander"}:
            labels.append(getattr(node, "label", "") or getattr(proto, "label", ""))
        elif kind in {"arrow_data_frame", "dataframe", "table"}:
            configs = json.loads(getattr(proto, "columns", "") or "{}")
            for column in [*node.value.columns, node.value.index.name]:
                if column is None:
                    continue
                config = configs.get(str(column), {})
                labels.append(str(config.get("label", column)))
                parts.append(str(config.get("help", "")))
        elif kind == "plotly_chart":
            figure = json.loads(proto.spec)
            layout = figure.get("layout", {})
            for key in ("title", "xaxis", "yaxis"):
                value = layout.get(key, {})
                title = value.get("title", value) if isinstance(value, dict) else value
                labels.append(str(title.get("text", "")) if isinstance(title, dict) else str(title))
            labels.extend([str(trace.get("name", "")) for trace in figure.get("data", [])])
        elif proto is not None and hasattr(proto, "label"):
            labels.extend(_widget_texts(node))
        for child in getattr(node, "children", {}).values() if hasattr(node, "children") else ():
            walk(child)

    walk(at._tree)
    # Inline code (the formula's canonical name, nDCG(gain='exponential')) is notation, and a source
    # document's title in quotes (“Discounted cumulative gain”) is a name: neither is prose.
    text = "\n".join(p for p in parts if p) + LABELS + "\n".join(p for p in labels if p)
    return re.sub(r"`[^`]*`|“[^”]*”", " ", text)


def english_strings() -> list[tuple[str, re.Pattern[str]]]:
    """(msgid, pattern) for every catalog string whose Chinese differs from its English."""
    with PO.open("rb") as f:
        catalog = read_po(f, locale="zh")
    out = []
    for m in catalog:
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        target = m.string if isinstance(m.string, str) else m.string[0]
        for msgid in ids:
            if msgid == target:
                continue  # a formula or a name, the same in both languages (DCG, k, Qrels)
            pieces = [p.strip() for p in PLACEHOLDER.split(msgid)]
            literal = max(pieces, key=len)
            if len(re.findall(r"[A-Za-z]{2,}", literal)) < (1 if literal == msgid.strip() else 2):
                continue  # nothing but punctuation and a word around placeholders: not telling
            pattern = re.compile(r"(?<![A-Za-z_\-])" + re.escape(literal) + r"(?![A-Za-z_\-])")
            out.append((msgid, pattern))
    return out


ENGLISH = english_strings()
LABELS = "\n\u2063LABELS\n"  # between the prose and the names in rendered_text's result
WORD = re.compile(r"[a-z_]+")


def untranslated(text: str) -> list[str]:
    """Catalog strings shown in English. A single lowercase word (linear, gain) is an option's label
    and also the value a share link or library takes, which messages quote as values: such words
    count only where they label something (a widget option, a header)."""
    names = text.partition(LABELS)[2]
    return sorted(
        {msgid for msgid, pattern in ENGLISH if pattern.search(names if WORD.fullmatch(msgid) else text)}
    )


CJK = "[\u3400-\u9fff\uf900-\ufaff]"
#: ASCII punctuation inside a Chinese sentence: a ; or , between Chinese characters, or a colon with a
#: space beside it (a colon without one is notation the user types: 名称:等级).
ASCII_IN_CHINESE = re.compile(rf"{CJK}\s*[;,]\s*{CJK}|{CJK}(?:\s+:\s*|\s*:\s+){CJK}")


def assert_chinese(at: AppTest) -> str:
    text = rendered_text(at)
    assert re.search(r"[\u4e00-\u9fff]", text), "no Chinese on the page"
    found = untranslated(text)
    where = [line for line in text.splitlines() if any(msgid in line for msgid in found)]
    assert found == [], where
    plain = text.replace("\\", "").replace("\u2060", "")  # md_escape's escapes
    assert [line for line in plain.splitlines() if ASCII_IN_CHINESE.search(line)] == []
    return text


# ------------------------------------------------------------------ the walk


def test_the_english_catalog_is_found_when_the_page_is_english():
    """The check itself: the same walk in English finds many catalog strings (it would catch them)."""
    set_language("en")
    at = AppTest.from_file(APP, default_timeout=60).run()
    ok(at)
    found = untranslated(rendered_text(at))
    assert len(found) > 40 and "Edit items" in found and "Start over (Wikipedia D1..D6)" in found


def test_playground_in_chinese_with_scores_pool_and_every_chart():
    at = open_page(
        "views/playground.py",
        {"rel": "3,2,3,0,1,2", "scores": "0.9,0.8,0.8,0.5,0.4,0.1", "pool": "3", "ties": "average", "k": "4"},
    )
    text = assert_chinese(at)
    assert "练习场" not in text and "折损增益" in text
    for chart in ("Gain per position", "Cumulative DCG", "NDCG at every k"):
        at.segmented_control(key="chart").set_value(chart)
        assert_chinese(ok(at.run()))
    at.session_state["pg_export"] = True  # the export panel draws its buttons only when open
    assert "表格 CSV" in assert_chinese(ok(at.run()))
    ok(at.button(key="clear_scores").click().run())
    assert_chinese(at)


def test_playground_messages_in_chinese():
    at = open_page("views/playground.py", {"rel": "3,x,1", "gain": "custom", "base": "0.5"})
    text = assert_chinese(at)
    assert "分享链接参数 'rel'" in text
    at.text_area(key="quick_entry").input("3, two").run()
    assert "快速输入" in assert_chinese(ok(at))
    at.text_area(key="quick_entry").input("").run()
    assert_chinese(ok(at))


@pytest.mark.parametrize("step", range(1, 8))
def test_every_lesson_step_in_chinese_before_and_after_the_prediction(step):
    at = open_page("views/learn.py", {"step": str(step), "rel": "3,2,3,0,1,2", "pool": "2", "k": "4"})
    assert_chinese(at)
    skip = [b for b in at.button if b.key == "learn_skip"]
    if skip:
        ok(skip[0].click().run())
        assert_chinese(at)


def test_lesson_feedback_and_presenter_mode_in_chinese():
    at = open_page("views/learn.py", {"step": "3"})
    at.text_input(key="learn_guess_3").input("log2(4)")
    ok(at.button(key="learn_check").click().run())
    assert "不能使用" in assert_chinese(at)
    at.text_input(key="learn_guess_3").input("7")
    ok(at.button(key="learn_check").click().run())
    assert_chinese(at)
    at = open_page("views/learn.py", {"step": "7", "present": "1"})
    assert_chinese(at)


def test_explore_every_tab_in_chinese():
    at = open_page("views/explore.py")
    assert_chinese(at)  # AppTest renders every tab's content
    at.text_input(key="lib_scores").input("0.9, 0.8").run()
    assert_chinese(ok(at))
    for key in ("cmp_preset_items", "cmp_preset_shop-graded", "cmp_from_playground"):
        ok(at.button(key=key).click().run())
        assert_chinese(at)


def test_datasets_in_chinese():
    at = open_page("views/datasets.py")
    text = assert_chinese(at)
    assert "自带样例" in text


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("kind", list(KINDS))
def test_every_exercise_kind_and_level_in_chinese_with_feedback_and_hints(kind, level):
    at = open_page("views/practice.py", {"seed": "11", "ex": "2", "kind": kind, "level": str(level)})
    assert_chinese(at)
    ss = at.session_state
    key = f"11-2-{kind}-{level}"
    hint = f"pr_hint_{key}"
    for _n in range(3):
        ok(at.button(key=hint).click().run())
    assert_chinese(at)
    if kind in {"cell", "metric"}:
        for wrong in ("abc", "0.1", "1"):
            at.text_input(key=f"pr_answer_{key}").input(wrong)
            ok(at.button(key=f"FormSubmitter:pr_form_{key}-{_('Check')}").click().run())
            assert_chinese(at)
    elif kind == "drag":
        ok(at.button(key=f"pr_check_{key}").click().run())
        assert_chinese(at)
    else:
        ok(at.button(key=f"pr_check_{key}").click().run())  # no choice yet
        assert_chinese(at)
        at.radio(key=f"pr_choice_{key}").set_value(make_exercise(11, 2, kind, level).choices[0])
        ok(at.button(key=f"pr_check_{key}").click().run())
        assert_chinese(at)
    assert sum(ss["pr_session"].progress.attempts.values()) >= 1  # feedback was given (and shown above)
    assert "你的进度" in assert_chinese(at)  # the progress table too


def test_practice_share_link_warnings_in_chinese():
    at = open_page("views/practice.py", {"seed": "x", "kind": "nope"})
    assert "分享链接参数" in assert_chinese(at)


# ------------------------------------------------------------------ switch and link


def test_the_switch_is_on_every_page_and_writes_lang_into_the_link():
    set_language("en")
    at = AppTest.from_file(APP, default_timeout=60).run()
    for page in ("views/learn.py", "views/explore.py", "views/datasets.py", "views/practice.py"):
        ok(at.switch_page(page).run())
        assert at.segmented_control(key="lang_switch").value == "en"
    at.segmented_control(key="lang_switch").set_value("zh")
    ok(at.run())  # AppTest reads the widgets drawn in English back with the test thread's language
    set_language("zh")
    assert at.query_params["lang"] == "zh"
    assert "练习" in rendered_text(at)  # Practice, in Chinese, without reloading
    ok(at.switch_page("views/playground.py").run())  # the choice survives a page change
    assert at.session_state["ui_lang"] == "zh" and at.query_params["lang"] == "zh"
    at.segmented_control(key="lang_switch").set_value("en")
    ok(at.run())
    set_language("en")
    assert "lang" not in at.query_params  # English page, English (unknown) browser: no parameter
    assert untranslated(rendered_text(at))


def test_lang_in_the_link_wins_and_unknown_codes_are_english():
    at = open_page("views/playground.py")
    assert at.session_state["ui_lang"] == "zh"
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = "fr"
    ok(at.run())
    assert at.session_state["ui_lang"] == "en"


def test_the_link_keeps_lang_beside_the_state_and_the_state_ignores_it():
    at = open_page("views/playground.py", {"rel": "1,0,2"})
    assert at.query_params["lang"] == "zh" and at.query_params["rel"] == "1,0,2"
    assert [i.grade for i in at.session_state["pg_items"]] == [1.0, 0.0, 2.0]


# ------------------------------------------------------------------ Class mode


@pytest.fixture
def class_db(tmp_path, monkeypatch):
    import streamlit as st

    monkeypatch.setenv("NDCG_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("NDCG_DATABASE_URL", raising=False)
    st.cache_resource.clear()  # the page's one store per process: a new one on this test's file
    yield tmp_path
    st.cache_resource.clear()


def _zh(msgid: str) -> str:
    """The Chinese of a catalog string, read from the .po file itself."""
    with PO.open("rb") as f:
        return read_po(f, locale="zh")[msgid].string


def test_the_class_mistakes_panel_is_in_chinese(class_db, monkeypatch):
    """A diagnosed mistake in the lecturer's results is shown in the room's language (its text
    was shown in English: the panel looked the description up without translating it)."""
    lecturer = open_page("views/classroom.py")
    ok(lecturer.button(key="cl_create").click().run())
    code = lecturer.query_params["room"]
    kind, level = lecturer.session_state["cl_kind"], lecturer.session_state["cl_level"]
    seed, mistake = next(
        (seed, found[0])
        for seed in range(5_000)
        if (
            found := [
                m
                for m in check(make_exercise(seed, 1, kind, level), "0.5").mistakes
                if m in MISTAKES and m != "too_few_decimals"
            ]
        )
    )  # the question the lecturer asks next, chosen so that the answer 0.5 is a named mistake
    monkeypatch.setattr("secrets.randbelow", lambda n: seed)
    ok(lecturer.button(key="cl_ask_button").click().run())
    ok(lecturer.button(key="cl_open").click().run())
    student = open_page("views/classroom.py", {"room": code})
    student.text_input(key="cl_name").input("Ana")
    ok(student.button(key=f"FormSubmitter:cl_join_form-{_('Join')}").click().run())
    student.text_input(key="cl_answer_1").input("0.5")
    ok(student.button(key=f"FormSubmitter:cl_form_1-{_('Send answer')}").click().run())
    ok(lecturer.run())
    ok(lecturer.button(key="cl_reveal").click().run())
    assert _zh(MISTAKES[mistake]) in assert_chinese(lecturer).replace("\\", "")  # Markdown escapes


@pytest.mark.parametrize("source", ["playground", "practice"])
def test_class_lecturer_and_student_in_chinese(class_db, source):
    lecturer = open_page("views/classroom.py")
    assert "授课" in assert_chinese(lecturer)  # the landing page
    ok(lecturer.button(key="cl_create").click().run())
    code = lecturer.query_params["room"]
    assert lecturer.query_params["lang"] == "zh" and "key" not in lecturer.query_params  # issue 30
    ok(lecturer.segmented_control(key="cl_source").set_value(source).run())
    assert_chinese(lecturer)
    ok(lecturer.button(key="cl_ask_button").click().run())
    ok(lecturer.button(key="cl_open").click().run())
    assert_chinese(lecturer)

    student = open_page("views/classroom.py", {"room": code})
    assert_chinese(student)
    student.text_input(key="cl_name").input("Ana")
    ok(student.button(key=f"FormSubmitter:cl_join_form-{_('Join')}").click().run())
    assert_chinese(student)
    answers = [t for t in student.text_input if t.key == "cl_answer_1"]
    if answers:
        answers[0].input("abc")
        ok(student.button(key=f"FormSubmitter:cl_form_1-{_('Send answer')}").click().run())
        assert_chinese(student)
        (refusal,) = [e.value for e in student.error]  # said in Chinese, the page's language
        assert re.search("[\u4e00-\u9fff]", refusal), refusal
        assert re.findall("[A-Za-z]{4,}", refusal) == [], refusal
        answers = [t for t in student.text_input if t.key == "cl_answer_1"]
        answers[0].input("0.5")
        ok(student.button(key=f"FormSubmitter:cl_form_1-{_('Send answer')}").click().run())
        assert_chinese(student)
    ok(lecturer.run())
    assert_chinese(lecturer)
    ok(lecturer.button(key="cl_reveal").click().run())
    assert_chinese(lecturer)
    ok(student.run())
    assert_chinese(student)


# ------------------------------------------------------------------ issue 27: the strings it found


def test_practice_says_previous_exercise_beside_next_exercise():
    """Practice showed 上一步 (Learn's "previous step") beside 下一题 ("next exercise")."""
    at = open_page("views/practice.py", {"seed": "7", "ex": "2"})
    assert (at.button(key="pr_prev").label, at.button(key="pr_next").label) == ("上一题", "下一题")
    learn = open_page("views/learn.py", {"step": "2"})
    assert learn.button(key="learn_prev").label == "上一步"


def test_the_formula_at_the_top_is_described_in_chinese():
    """The caption was 公式：nDCG(discount='jarvelin'), English notation only; the notation stays
    (in code style) after a Chinese description."""
    at = open_page("views/learn.py", {"rel": "3,2,3,0,1,2,1", "discount": "jarvelin"})
    (caption,) = [c.value for c in at.caption if c.value.startswith("公式：")]
    assert caption.startswith("公式：线性增益；折损因子 max\\(1, log2 i\\)；整个列表") and "`nDCG(" in caption


def test_rules_and_library_names_are_shown_in_chinese():
    """规则“zero” and "trec_eval via pytrec_eval (ndcg / ndcg_cut_k)" were English inside Chinese."""
    at = open_page("views/learn.py", {"rel": "0,0", "step": "6"})
    assert_chinese(at)
    prose = "\n".join(m.value for m in [*at.markdown, *at.latex])  # with the quoted rule
    assert "（得 0）" in prose and "“得 0”" not in prose and "zero" not in prose
    set_language("zh")
    from ndcg_core import PRESETS

    assert _(PRESETS["trec_eval"].library) == "trec_eval（经由 pytrec_eval；指标 ndcg / ndcg_cut_k）"

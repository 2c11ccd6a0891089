"""Translations (issue 13): the catalogs, the language API and the translated library errors.

The AppTest walk over every page in Chinese is in test_app_i18n.py; the browser screenshots in
tests/browser/test_browser_i18n.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from ndcg_core import i18n
from ndcg_core.errors import MESSAGES, error_text
from ndcg_core.i18n import _, language, language_of, ngettext, set_language, use_language_source
from ndcg_core.teaching.answers import parse_answer, precision_problem
from ndcg_core.teaching.playground import from_query_params, parse_entries
from ndcg_core.variants import parse_gain_table

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "ndcg_core" / "locale" / "zh" / "LC_MESSAGES" / "messages.po"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def zh_catalog():
    with PO.open("rb") as f:
        return read_po(f, locale="zh")


def messages(catalog):
    return [m for m in catalog if m.id]


def text_of(value) -> str:
    return value if isinstance(value, str) else "".join(value or ())


@pytest.fixture
def zh():
    set_language("zh")
    yield
    set_language("en")


# ------------------------------------------------------------------ the catalog


def test_every_string_has_a_chinese_translation_that_is_not_fuzzy():
    catalog = zh_catalog()
    assert len(messages(catalog)) > 600  # the whole app, not a sample
    untranslated = [m.id for m in messages(catalog) if not text_of(m.string).strip()]
    fuzzy = [m.id for m in messages(catalog) if m.fuzzy]
    assert untranslated == [] and fuzzy == []


def test_translations_keep_every_placeholder():
    """A lost or renamed {placeholder} would raise KeyError (or drop a number) when formatted."""
    for m in messages(zh_catalog()):
        source = m.id if isinstance(m.id, str) else m.id[0]
        assert sorted(PLACEHOLDER.findall(source)) == sorted(PLACEHOLDER.findall(text_of(m.string))), m.id


def test_the_catalog_holds_every_string_the_code_marks(tmp_path):
    """A new _("...") in the code without a catalog entry fails here: run `make catalogs`."""
    pot = tmp_path / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "-F",
            "babel.cfg",
            "-o",
            str(pot),
            "app.py",
            "views",
            "ndcg_core",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    with pot.open("rb") as f:
        marked = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    in_catalog = {m.id if isinstance(m.id, str) else m.id[0] for m in messages(zh_catalog())}
    assert sorted(marked - in_catalog) == []


def test_catalogs_compile_without_warnings(tmp_path):
    locale = tmp_path / "locale" / "zh" / "LC_MESSAGES"
    locale.mkdir(parents=True)
    (locale / "messages.po").write_bytes(PO.read_bytes())
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "compile",
            "-d",
            str(tmp_path / "locale"),
            "-D",
            "messages",
            "--statistics",
        ],
        capture_output=True,
        text=True,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert not re.search(r"warning|error|fuzzy", output, re.IGNORECASE), output
    assert (locale / "messages.mo").stat().st_size > 10_000


GLOSSARY = {
    # English term in a msgid -> the one Chinese term its translation must use (the seed note's words,
    # reviewed as a Chinese IR course writes them: the catalog's header keeps the whole list)
    "ideal ordering": "理想排序",
    "discounted gain": "折损增益",
    "relevance": "相关性",
    "cumulative gain": "累计增益",
    "divisor": "折损因子",
    "playground": "演练场",
    "binary": "二值",
    "the winner flips": "胜负反转",
}


@pytest.mark.parametrize("term", GLOSSARY)
def test_terms_are_translated_the_same_way_everywhere(term):
    catalog = zh_catalog()
    word = re.compile(rf"\b{term}\b(?!/)")  # "relevance/label" is a file's column name, not the term
    # Quoted titles of the source documents stay in their language.
    using = [
        m
        for m in messages(catalog)
        if isinstance(m.id, str) and '"' not in m.id and word.search(m.id.lower())
    ]
    assert using, term
    assert [m.id for m in using if GLOSSARY[term] not in text_of(m.string)] == []


# ------------------------------------------------------------------ the API


def test_language_of_browser_locales():
    assert [language_of(x) for x in ("zh-CN", "zh_TW", "ZH", "en-US", "en", "fr-FR", "", None)] == [
        "zh",
        "zh",
        "zh",
        "en",
        "en",
        None,
        None,
        None,
    ]


def test_switching_language_changes_every_call(zh):
    assert _("Playground") == "演练场"
    assert ngettext("Your list has {n} item; the most relevant is {item} (grade {g}) at position {p}.",
                    "Your list has {n} items; the most relevant is {item} (grade {g}) at position {p}.",
                    2).startswith("你的列表有 {n} 个条目")  # fmt: skip
    set_language("en")
    assert _("Playground") == "Playground"
    set_language("xx")  # unknown: English
    assert language() == "en" and _("Playground") == "Playground"


def test_a_language_source_wins_over_the_context_and_none_falls_back():
    """The app's source (the session) answers inside a script run, also in a fragment's rerun."""
    answer = {"lang": "zh"}
    app_source = use_language_source(lambda: answer["lang"])
    try:
        assert _("Learn") == "学习"
        answer["lang"] = None  # outside a session: the context's language
        assert _("Learn") == "Learn"
    finally:
        use_language_source(app_source)  # the app's, when an AppTest module imported views.ui.language


def test_an_empty_text_stays_empty(zh):
    """gettext maps "" to the catalog's header; a blank user name must not turn into it."""
    assert _("") == ""


def test_a_stale_compiled_catalog_is_not_used(tmp_path, monkeypatch):
    """Without a fresh .mo (a clone run without make) the .po is compiled in memory."""
    folder = tmp_path / "zh" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "messages.po").write_bytes(PO.read_bytes())
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        assert i18n.translations("zh").gettext("Explore") == "探索"
    finally:
        monkeypatch.undo()
        i18n.translations.cache_clear()


# ------------------------------------------------------------------ library errors, translated


def error_of(call, *args) -> ValueError:
    with pytest.raises(ValueError) as info:
        call(*args)
    return info.value


def test_library_errors_stay_english_and_the_app_shows_them_translated(zh):
    err = error_of(parse_entries, "3, two, 1")
    assert str(err).startswith("entry 2 ('two') is not a number")  # the API keeps its English
    assert error_text(err) == "第 2 项（'two'）不是数字；请写一个等级，例如 2 或 0.5，或写成 名称:等级"
    assert error_text(error_of(parse_gain_table, "")).startswith("增益表是空的")
    assert error_text(error_of(parse_answer, "log2(3)")).startswith("不能使用 log2(...) 这样的函数")
    assert (
        error_text(error_of(parse_answer, "x"))
        == "'x' 是一个名字，不是数字：请输入一个数，例如 0.82，或算式，例如 1.2 + 0.5/2.5"
    )


def test_share_link_warnings_are_translated_with_their_problem_and_fallback(zh):
    _state, warnings = from_query_params({"rel": "3,x,1", "base": "1"})
    shown = [error_text(w) for w in warnings]
    assert shown == [
        "分享链接参数 'rel'：第 2 项（'x'）不是有限数；改用默认例子。",
        "分享链接参数 'base'：'1' 不是大于 1 的数（或 e）；改用2。",
    ]


def test_numbers_keep_the_decimal_point_in_chinese(zh):
    # the message precision_problem gives ("give at least 2 decimals (you gave 0 decimals)"), coded
    assert error_text(precision_problem("1", 0.9766)) == "请至少写 2 位小数（你写了 0 位）"
    assert error_text(precision_problem("1.0", 0.9766)) == "请至少写 2 位小数（你写了 1 位）"
    assert _("Right: this order scores NDCG = {value}.").format(value=f"{0.9316:.3f}").endswith("0.932。")


def test_an_unknown_error_is_shown_as_it_is(zh):
    assert error_text("a brand new problem") == "a brand new problem"


def test_every_known_error_pattern_has_a_translation(zh):
    for _code, message in MESSAGES.items():
        assert _(message) != message, message


def test_bold_text_closes_before_chinese_punctuation():
    """Markdown does not close ``**...**`` after punctuation that a letter follows (**公式：**增益
    shows its asterisks): a translation puts the punctuation outside the bold."""
    closing_after_punctuation = re.compile(r"[：。？！，；、）”]\*\*(?=[^\s*])")
    bad = [
        text_of(m.string)
        for m in messages(zh_catalog())
        if closing_after_punctuation.search(text_of(m.string))
    ]
    assert bad == []


def test_data_set_file_errors_are_translated_with_the_file_name(zh):
    import io

    from ndcg_core import read_run

    upload = io.BytesIO(b"q Q0 d x 1 t\n")
    upload.name = "my run.txt"
    err = error_of(read_run, upload)
    assert error_text(err).startswith("my run.txt：第 1 行：排名 'x' 不是数字")


def test_a_cached_chart_is_never_shown_in_the_other_language():
    """The playground's charts are cached per state: the language is part of the key."""
    from ndcg_core.teaching.playground import DEFAULT_STATE
    from ndcg_core.teaching.rendering import state_figure

    set_language("en")
    english = state_figure(DEFAULT_STATE, "gains").layout.title.text
    set_language("zh")
    try:
        chinese = state_figure(DEFAULT_STATE, "gains").layout.title.text
    finally:
        set_language("en")
    assert (english, chinese) == ("What each position contributes", "每个位置的贡献")


def test_words_inside_the_written_out_formulas_are_translated_and_cached_per_language():
    """An undefined NDCG (IDCG = 0), its rule and a gain table are words inside the LaTeX: in
    Chinese they are Chinese, also when the formulas of that state were cached in English first."""
    from ndcg_core.teaching.rendering import state_formulas

    no_relevant, warnings = from_query_params({"rel": "0,0,0", "zero": "skip"})
    table, more = from_query_params({"rel": "1,0", "gain": "0:0,1:1"})
    assert not warnings + more
    set_language("en")
    english = state_formulas(no_relevant)[3] + state_formulas(table)[0]
    set_language("zh")
    try:
        chinese = state_formulas(no_relevant)[3] + state_formulas(table)[0]
    finally:
        set_language("en")
    assert "undefined" in english and "rule" in english and "table" in english
    assert "未定义" in chinese and "规则" in chinese and "增益表" in chinese
    assert not re.search(r"undefined|rule|table", chinese)


# ------------------------------------------------------------------ issue 27: Chinese punctuation and terms

CJK = "[\u3400-\u9fff\uf900-\ufaff]"  # CJK ideographs
ASCII_BETWEEN_CJK = re.compile(rf"{CJK}\s*[;,:]\s*{CJK}")
NOTATION = re.compile(r"[A-Za-z]+:[A-Za-z]+")  # label:grade, grade:gain: what a user types


def test_no_ascii_semicolon_comma_or_colon_between_chinese_characters():
    """A Chinese sentence takes ，；： (issue 27 found "; " and "," inside them). The one exception is
    notation the user types with an ASCII colon, where the English has it too (名称:等级 for label:grade)."""
    bad = []
    for m in messages(zh_catalog()):
        source = m.id if isinstance(m.id, str) else m.id[0]
        text = text_of(m.string)
        allowed = len(NOTATION.findall(source))
        found = ASCII_BETWEEN_CJK.findall(text)
        notation = [f for f in found if re.fullmatch(rf"{CJK}:{CJK}", f)]
        if len(found) - min(len(notation), allowed):
            bad.append((source, text))
    assert bad == []


def test_the_check_catches_what_the_issue_found():
    for text in ("增益 = 等级; 除数 = log2(i + 1)", "中文,中文", "规则: 零"):
        assert ASCII_BETWEEN_CJK.search(text), text
    assert not ASCII_BETWEEN_CJK.search("增益 = 等级；k = 3") and not ASCII_BETWEEN_CJK.search("0.962, 0.847")


def test_the_reviewed_terms_replace_the_old_ones():
    """Issue 27's review: 代入 (not 带入), 折损因子 for the discount's divisor (not 除数), 二值 (not
    二元), 胜负反转 (not 胜者翻转), 演练场 (not 试验场), no space before 增益 inside a sentence."""
    texts = [text_of(m.string) for m in messages(zh_catalog())]
    for old in ("带入", "除数", "二元", "胜者翻转", "试验场"):
        assert [t for t in texts if old in t] == [], old
    assert [t for t in texts if re.search(rf"{CJK} 增益", t)] == []


def test_practice_and_learn_say_previous_each_their_own_way(zh):
    """Practice showed 上一步 (previous step, Learn's word) beside 下一题 (next exercise)."""
    from ndcg_core.i18n import pgettext

    assert pgettext("exercise", "Previous") == "上一题" and _("Next exercise") == "下一题"
    assert _("Previous") == "上一步"


def test_pieces_joined_into_a_chinese_sentence_take_chinese_separators(zh):
    from ndcg_core.teaching.practice import describe
    from ndcg_core.variants import Variant

    described = describe(Variant(k=3, discount="jarvelin"))
    assert described == "增益 = 等级；折损因子 = max(1, log2 i)；k = 3"
    assert not ASCII_BETWEEN_CJK.search(described)

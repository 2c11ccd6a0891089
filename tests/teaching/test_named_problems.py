"""Issue 30, item 7: what used to fall back without a word is named (pages' state, Class names).

Learn's ``step=0``, ``-1``, ``abc``, ``99`` and ``present=yes`` and any page's ``lang=<b>zz</b>``
fell back in silence; names of zero-width spaces or with a right-to-left override were accepted.
The pages' states now give coded warnings (the page shows them as text), and
:func:`ndcg_core.classroom.clean_name` refuses such names with a reason's code.
"""

from __future__ import annotations

import pytest

from ndcg_core.classroom import BadName, clean_name
from ndcg_core.errors import Message, error_text
from ndcg_core.i18n import set_language
from ndcg_core.teaching.pages import LanguageState, LearnState, PracticeState

# ---------------------------------------------------------------- Learn's step and presenter mode


@pytest.mark.parametrize(
    ("given", "step"), [("0", 1), ("-1", 1), ("abc", 1), ("99", 7), ("", 1), ("4.0", 1), ("9" * 5000, 1)]
)
def test_a_bad_step_falls_back_and_is_named(given, step):
    state, warnings = LearnState.from_params({"step": given})
    assert state == LearnState(step=step)
    [warning] = warnings
    assert isinstance(warning, Message) and warning.code == "share_link_param"
    assert warning.values["key"] == "step"
    problem = warning.values["problem"]
    assert (problem.code, problem.values["low"], problem.values["high"]) == ("not_whole_in_range", 1, 7)
    assert given[:40] in problem.values["text"]  # the value received, quoted (cut when long)
    assert len(str(warning)) < 200
    assert f"using step {step} instead" in str(warning)


@pytest.mark.parametrize("given", ["1", "4", "7", " 3 "])
def test_a_good_step_says_nothing(given):
    assert LearnState.from_params({"step": given}) == (LearnState(step=int(given)), [])


@pytest.mark.parametrize("given", ["yes", "true", "2", "", "<b>1</b>"])
def test_presenter_mode_is_only_1_and_anything_else_is_named(given):
    state, [warning] = LearnState.from_params({"step": "3", "present": given})
    assert state == LearnState(step=3, present=False)
    assert (warning.values["key"], warning.values["problem"].code) == ("present", "present_not_flag")
    assert repr(given) in str(warning)


def test_present_0_and_1_say_nothing():
    assert LearnState.from_params({"step": "2", "present": "0"}) == (LearnState(step=2), [])
    assert LearnState.from_params({"step": "2", "present": "1"}) == (LearnState(step=2, present=True), [])


# ---------------------------------------------------------------- every page's language


def test_a_bad_language_is_named_and_the_value_is_only_quoted():
    state, [warning] = LanguageState.from_params({"lang": "<b>zz</b>"})
    assert state == LanguageState(None)
    assert warning.code == "share_link_param" and warning.values["key"] == "lang"
    assert warning.values["problem"].code == "not_a_choice"
    assert "'<b>zz</b>' is not one of en, zh" in str(warning)  # the page escapes it (an app test checks)


@pytest.mark.parametrize(("given", "lang"), [("zh", "zh"), ("zh-CN", "zh"), ("EN", "en"), ("en_US", "en")])
def test_a_language_or_locale_says_nothing(given, lang):
    assert LanguageState.from_params({"lang": given}) == (LanguageState(lang), [])
    assert LanguageState(lang).to_params() == {"lang": lang}
    assert LanguageState.from_params({}) == (LanguageState(None), [])


def test_the_warnings_are_coded_so_they_read_in_chinese():
    _state, warnings = LearnState.from_params({"step": "abc", "present": "yes"})
    _state, lang = LanguageState.from_params({"lang": "xx"})
    set_language("zh")
    try:
        shown = [error_text(w) for w in warnings + lang]
    finally:
        set_language("en")
    assert all("Share link" not in text and "分享链接参数" in text for text in shown), shown
    assert "'abc'" in shown[0] and "'yes'" in shown[1] and "'xx'" in shown[2]


def test_practice_warnings_are_coded_too():
    _state, warnings = PracticeState.from_params({"seed": "x", "kind": "essay"})
    assert [(w.code, w.values["key"], w.values["problem"].code) for w in warnings] == [
        ("link_param_ignored", "seed", "not_whole_in_range"),
        ("link_param_ignored", "kind", "not_a_choice"),
    ]


# ---------------------------------------------------------------- Class mode's names


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("\u200b\u200b\u200b", "invisible"),  # zero-width spaces
        ("\u200c\u200d", "invisible"),  # zero-width non-joiner and joiner
        ("\u2060", "invisible"),  # word joiner
        ("\ufeff", "invisible"),  # byte order mark
        ("\u00ad\u00ad", "invisible"),  # soft hyphens
        (" \u200b \u2063 ", "invisible"),  # spaces around an invisible separator
        ("\u3164", "invisible"),  # Hangul filler: a letter that draws nothing
        ("\u2800", "invisible"),  # blank Braille pattern
        ("\ufe0f", "invisible"),  # a variation selector alone
        ("Ana\u202egnp.exe", "bidi"),  # right-to-left override: shows as "Anaexe.png"
        ("\u202dBo", "bidi"),  # left-to-right override
        ("\u202aBo\u202c", "bidi"),  # embedding and its end
        ("\u2066Bo\u2069", "bidi"),  # isolate
        ("\u2067Bo", "bidi"),
        ("\u2068Bo", "bidi"),
        ("a\x00b", "control"),
        ("", "empty"),
    ],
)
def test_names_that_show_nothing_or_turn_the_text_around_are_refused_with_a_reason(name, reason):
    with pytest.raises(BadName) as err:
        clean_name(name)
    assert err.value.reason == reason


@pytest.mark.parametrize(
    "name",
    [
        "Ana",
        "李雷",
        "عائشة",  # Arabic, right to left by itself: no override needed
        "Zoë\u200d",  # a joiner beside letters: visible
        "👩\u200d💻",  # an emoji sequence joined by U+200D
        "می\u200cخواهم",  # Persian's zero-width non-joiner inside a word
        "Ana\u200eLee",  # a left-to-right mark is not an override
    ],
)
def test_names_with_something_visible_and_no_override_are_kept_as_typed(name):
    assert clean_name(name) == name

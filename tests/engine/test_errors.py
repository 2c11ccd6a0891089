"""Errors with codes: every code the source uses is in the one table, reads as its English template and
is translated; the engine's codes are raised by their real code paths; nothing parses error text.

The teaching layer's and Class mode's real code paths are in tests/teaching/test_error_codes.py.
"""

from __future__ import annotations

import ast
import copy
import gzip
import io
import math
import os
import pickle
import string
import sys
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from error_codes import CORE, ENGINE, ERRORS_MODULE, ROOT, SOURCE, codes_in, codes_used, constructions

import ndcg_core
from ndcg_core import (
    PRESETS,
    SCHEMA,
    Spec,
    Variant,
    aggregate,
    cli,
    dcg,
    evaluate,
    gains,
    ndcg,
    resolve,
    to_grades,
)
from ndcg_core.cli import parse_measures
from ndcg_core.dataset.judged import query_ranking
from ndcg_core.dataset.overlap import check_queries
from ndcg_core.dataset.robustness import robustness
from ndcg_core.dataset.sources import ReadLimits, parse_size
from ndcg_core.errors import MESSAGES, Message, NDCGError, error_text
from ndcg_core.i18n import _, set_language
from ndcg_core.presets import get_preset
from ndcg_core.settings import Setting, positive_number
from ndcg_core.variants import MAX_URL_K, check_k, check_log_base, parse_gain_table


@pytest.fixture
def zh():
    set_language("zh")
    yield
    set_language("en")


def placeholders(template: str) -> list[str]:
    return [name for _text, name, _spec, _conv in string.Formatter().parse(template) if name]


def sample_values(code: str) -> dict[str, str]:
    """A distinct value per placeholder, one no translation contains by itself."""
    return {name: f"V{i}{name}Z" for i, name in enumerate(placeholders(MESSAGES[code]))}


# ------------------------------------------------------------------ the table, in both languages


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_code_reads_as_its_template_and_is_translated(code, zh):
    values = sample_values(code)
    english = MESSAGES[code].format(**values)
    set_language("en")
    err = NDCGError(code, **values)
    assert isinstance(err, ValueError)
    assert (str(err), err.code, err.values) == (english, code, values)
    assert Message(code, **values) == english
    assert error_text(err) == english
    set_language("zh")
    chinese = error_text(err)
    assert chinese != english
    assert _(MESSAGES[code]) != MESSAGES[code]  # the catalog has the template itself
    missing = [v for v in values.values() if v not in chinese]
    assert not missing, (code, chinese)
    assert error_text(Message(code, **values)) == chinese


def test_an_unknown_code_is_refused_when_the_error_is_made():
    with pytest.raises(KeyError):
        NDCGError("no_such_code")
    with pytest.raises(KeyError):  # a value the template needs is missing
        NDCGError("entry_not_finite", n=2)


def test_a_nested_message_is_translated_inside_its_parent(zh):
    problem = NDCGError("entry_not_finite", n=2, text="'x'")
    warning = Message("share_link_param", key="rel", problem=problem, fallback=Message("default_example"))
    set_language("en")
    assert warning == (
        "Share link parameter 'rel': entry 2 ('x') is not a finite number; using the default example instead."
    )
    set_language("zh")
    assert error_text(warning) == "分享链接参数 'rel'：第 2 项（'x'）不是有限数；改用默认例子。"
    # a plain value is shown as it is, in either language
    assert error_text(
        Message("share_link_param", key="labels", problem=problem, fallback="D1, D2, ...")
    ).endswith("改用D1, D2, ...。")


def test_an_error_without_a_code_is_shown_as_its_text(zh):
    assert (
        error_text(ValueError("could not convert string to float: 'x'"))
        == "could not convert string to float: 'x'"
    )
    assert error_text("some text") == "some text"
    with pytest.raises(ValueError) as info:
        np.array([1.0]).reshape(3)
    assert error_text(info.value) == str(info.value)


def test_str_of_an_error_keeps_its_code_and_copies_keep_everything():
    err = NDCGError("not_finite_at", what="relevances", n=2, value="'x'")
    text = str(err)
    assert isinstance(text, Message) and text.code == "not_finite_at"
    assert err.args == ("relevances: position 2 is 'x', expected a finite number",)
    for again in (pickle.loads(pickle.dumps(err)), copy.deepcopy(err), copy.copy(err)):
        assert type(again) is NDCGError and (again.code, again.values, str(again)) == (
            err.code,
            err.values,
            text,
        )
    for again in (pickle.loads(pickle.dumps(text)), copy.deepcopy(text)):
        assert type(again) is Message and (again.code, again.values, again) == (text.code, text.values, text)
    assert NDCGError.of(text).values == err.values


# ------------------------------------------------------------------ the source and the table agree


def test_every_coded_error_names_its_code_literally():
    """The scan below reads the codes as written; a computed code would escape it."""
    computed = [
        where
        for _cls, first, where in constructions(SOURCE)
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str))
    ]
    assert computed == []
    assert len(constructions(SOURCE)) > 100


def test_the_codes_the_source_uses_are_the_table():
    used = codes_used(SOURCE)
    assert sorted(set(used) - set(MESSAGES)) == []  # a code raised but missing from the table
    assert sorted(set(MESSAGES) - set(used)) == []  # a code in the table that nothing uses


def test_the_library_raises_no_uncoded_value_error():
    """Every ValueError with a message in ndcg_core is a coded one (a bare ``raise ValueError`` that
    the next line catches says nothing to anyone)."""
    found = []
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ValueError" and node.args:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def _str_of(node: ast.AST, name: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "str"
        and len(node.args) == 1
        and getattr(node.args[0], "id", None) == name
    )


def test_no_code_reads_an_errors_text():
    """errors.py has no regular expression, and no module matches, splits or searches the text of an
    error it caught (``re.match(..., str(err))``, ``str(err).split(";")``, ``"..." in str(err)``)."""
    tree = ast.parse(ERRORS_MODULE.read_text())
    imported = {
        a.name for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names
    }
    modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "re" not in imported | modules
    assert not any(isinstance(n, ast.Name) and n.id == "re" for n in ast.walk(tree))

    found = []
    for path in SOURCE:
        for handler in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(handler, ast.ExceptHandler) or handler.name is None:
                continue
            name = handler.name
            for node in ast.walk(ast.Module(body=handler.body, type_ignores=[])):
                read = False
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    if _str_of(node.func.value, name) or getattr(node.func.value, "id", None) == name:
                        read = node.func.attr not in {"with_traceback"}  # str(err).split(...), err.args...
                    if getattr(node.func.value, "id", None) == "re":
                        read = any(
                            _str_of(a, name) or getattr(a, "id", None) == name
                            for arg in node.args
                            for a in ast.walk(arg)
                        )
                elif isinstance(node, ast.Compare) and any(
                    isinstance(op, (ast.In, ast.NotIn)) for op in node.ops
                ):
                    read = any(
                        _str_of(a, name) for part in (node.left, *node.comparators) for a in ast.walk(part)
                    )
                elif isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == name:
                    read = node.attr == "args"
                if read:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


# ------------------------------------------------------------------ the engine's codes, by their real paths

_OPTIONS = {option.name: option for option in SCHEMA}
_QRELS = pd.DataFrame({"query": ["q1", "q1", "q2"], "doc": ["a", "b", "c"], "relevance": [2, 1, 0]})
_RUN = pd.DataFrame({"query": ["q1", "q1", "q2"], "doc": ["a", "b", "c"], "score": [0.9, 0.5, 0.3]})


def _read(kind, data: bytes, name: str | None = "my file.txt"):
    upload = io.BytesIO(data)
    if name is not None:
        upload.name = name
    return (ndcg_core.read_qrels if kind == "qrels" else ndcg_core.read_run)(upload)


def _zstd(data: bytes) -> bytes:
    import zstandard

    return zstandard.ZstdCompressor().compress(data)


def _read_zstd_without_a_module(text: bytes):
    """Read a .zst file where neither zstandard nor Python 3.14's compression.zstd can be imported."""
    from unittest import mock

    data = _zstd(text)
    with mock.patch.dict(sys.modules, {"zstandard": None, "compression": None}):
        return _read("qrels", data)


def _with_variable(name: str, value: str, call):
    from unittest import mock

    with mock.patch.dict(os.environ, {name: value}):
        return call()


def _with(frame: pd.DataFrame, **columns) -> pd.DataFrame:
    return frame.assign(**columns)


def _raise(message: Message):
    """A warning or note the engine returns instead of raising (it is shown, not raised): raised here
    so that the test below reads its code as it reads an error's."""
    raise NDCGError.of(message)


def _on_the_command_line(call):
    """The error ``call`` raises, as ndcg-eval words it (its fix spelled as the command's option)."""
    try:
        call()
    except NDCGError as err:
        raise cli._for_the_command_line(err) from None


def _options(*args: str) -> list[Message]:
    return cli._trec_eval_options(cli._parser().parse_args([*args, "qrels", "run"]))


_FLIP_QRELS = pd.DataFrame({"query": "q", "doc": list("xa"), "relevance": [3, 1]})
_FLIP_RUNS = {
    "A": pd.DataFrame({"query": "q", "doc": ["x", "a"], "score": [2.0, 1.0]}),
    "B": pd.DataFrame({"query": "q", "doc": ["a", "x"], "score": [2.0, 1.0]}),
}


#: (the code, a call of the engine that raises it, nested or not). One line per code the engine uses.
ENGINE_PATHS = [
    # formula choices
    ("not_whole_number", lambda: _OPTIONS["k"].from_url("ten")),
    ("cutoff_too_large", lambda: _OPTIONS["k"].from_url(str(MAX_URL_K + 1))),
    ("not_a_log_base", lambda: _OPTIONS["log_base"].from_url("1")),
    ("not_a_choice", lambda: _OPTIONS["discount"].from_url("cubic")),
    ("not_a_gain", lambda: _OPTIONS["gain"].from_url("cubic")),
    ("bad_log_base", lambda: Variant(log_base=1)),
    ("bad_log_base", lambda: check_log_base(math.inf)),
    ("k_not_whole", lambda: Variant(k=2.5)),
    ("k_not_whole", lambda: check_k(True)),
    ("k_below_one", lambda: Variant(k=0)),
    ("not_one_of", lambda: Variant(discount="cubic")),
    ("not_one_of", lambda: Spec(ideal_source="nowhere")),
    ("not_a_variant_name", lambda: Variant.parse("DCG@3")),
    ("unknown_variant_option", lambda: Variant.parse("nDCG(colour=2)")),
    ("gain_entry_form", lambda: parse_gain_table("0:0, 1-1")),
    ("gain_entry_finite", lambda: parse_gain_table("0:0, 1:inf")),
    ("gain_table_empty", lambda: parse_gain_table(" ")),
    ("gain_grade_twice", lambda: parse_gain_table("0:0, 1:1, 1:5")),
    ("gain_grade_twice", lambda: Variant(gain=((1, 1), (1, 5)))),
    # one list
    ("got_a_string", lambda: to_grades("3,2,1")),
    ("not_finite_at", lambda: ndcg([3, "x", 1])),
    ("not_finite_at", lambda: ndcg([3, math.nan])),
    ("gain_not_finite", lambda: gains([1], {1: math.inf})),
    ("grade_not_in_table", lambda: ndcg([2, 1], gain={0: 0, 1: 1})),
    ("grade_overflows", lambda: gains([2000], "exponential")),
    ("too_large", lambda: dcg([1e308, 1e308, 1e308])),
    ("idcg_zero", lambda: ndcg([0, 0], zero_idcg="error")),
    ("scores_count", lambda: ndcg([3, 2, 1], scores=[0.5])),
    ("labels_count", lambda: ndcg_core.explain([3, 2], labels=["A"])),
    # specs, presets and the rules libraries keep
    ("not_a_variant", lambda: Spec(variant="nDCG@3")),
    ("library_refuses", lambda: ndcg([-1, 2], preset="sklearn")),
    ("this_list", lambda: ndcg([-1, 2], preset="sklearn")),
    ("grade_refused", lambda: ndcg([-1, 2], preset="sklearn")),
    ("at_position", lambda: ndcg([-1, 2], preset="sklearn")),
    (
        "this_preset",
        lambda: ndcg([-1, 2], spec=Spec(allowed_grades="non_negative", grade_error="no negatives")),
    ),
    ("at_position_of_ideal", lambda: ndcg([1, 0], ideal=[1, 0, 0.5], preset="trec_eval")),
    ("too_few_items", lambda: ndcg([1], preset="sklearn")),
    ("ids_repeat", lambda: ndcg([1, 2], labels=["a", "a"], preset="trec_eval")),
    ("ideal_lacks_grade", lambda: ndcg([2, 1], ideal=[1, 1])),
    ("preset_sets_k", lambda: replace(PRESETS["sklearn"], spec=PRESETS["sklearn"].spec.with_k(3))),
    ("preset_unnamed", lambda: replace(PRESETS["sklearn"], spec=Spec())),
    ("unknown_preset", lambda: get_preset("sk-learn")),
    ("unknown_choice", lambda: resolve(colour="red")),
    ("preset_fixes", lambda: resolve("xgboost", zero_idcg="zero")),
    ("not_a_spec", lambda: ndcg([1, 0], spec="nDCG@3")),
    ("spec_and_choices", lambda: ndcg([1, 0], spec=Spec(), preset="sklearn")),
    # data sets: tables and files
    ("not_a_dataframe", lambda: evaluate([[1]], _RUN)),
    ("missing_columns", lambda: evaluate(_QRELS.rename(columns={"relevance": "x"}), _RUN)),
    ("no_columns", lambda: evaluate(pd.DataFrame(), _RUN)),
    ("not_finite_row", lambda: evaluate(_with(_QRELS, relevance=[2, "high", 0]), _RUN)),
    ("row_n", lambda: evaluate(_with(_QRELS, relevance=[2, "high", 0]), _RUN)),
    ("not_finite_rows", lambda: evaluate(_QRELS, _with(_RUN, score=[math.nan, math.nan, 1]))),
    ("missing_nan", lambda: evaluate(_QRELS, _with(_RUN, score=[math.nan, math.nan, 1]))),
    ("missing_id", lambda: evaluate(_with(_QRELS, doc=["a", None, "c"]), _RUN)),
    ("document_id", lambda: evaluate(_with(_QRELS, doc=["a", None, "c"]), _RUN)),
    ("query_id", lambda: evaluate(_QRELS, _with(_RUN, query=[None, "q1", "q2"]))),
    ("cannot_read", lambda: ndcg_core.read_qrels(str(ROOT / "no such file.txt"))),
    ("not_a_file", lambda: ndcg_core.read_qrels(42)),
    ("not_utf8", lambda: _read("qrels", b"q 0 d \xff\n")),
    ("the_uploaded_file", lambda: _read("qrels", b"q 0 d \xff\n", name=None)),
    ("empty_file", lambda: _read("run", b"\n\n")),
    ("the_given_bytes", lambda: ndcg_core.read_qrels(b"q 0 d \xff\n")),
    ("bad_compressed", lambda: _read("qrels", gzip.compress(b"q1 0 d1 1\n")[:-4])),
    ("cut_off", lambda: _read("qrels", _zstd(b"q1 0 d1 1\n" * 100)[:-4])),
    ("needs_zstandard", lambda: _read_zstd_without_a_module(b"q1 0 d1 1\n")),
    ("file_too_large", lambda: ndcg_core.read_qrels(b"q1 0 d1 1\n" * 20, limits=ReadLimits(max_bytes=100))),
    (
        "expands_too_much",
        lambda: ndcg_core.read_qrels(gzip.compress(b"q1 0 d1 1\n" * 20), limits=ReadLimits(max_bytes=100)),
    ),
    ("line_too_long", lambda: ndcg_core.read_qrels(b"q1 0 d1 1\n" * 2, limits=ReadLimits(max_line=5))),
    ("bad_read_limit", lambda: ReadLimits(max_line=0)),
    ("not_read_limits", lambda: ndcg_core.read_qrels(b"q1 0 d1 1\n", limits={"max_line": 5})),
    ("bad_size", lambda: parse_size("4 gigabytes")),
    ("bad_setting", lambda: Setting("NDCG_X", "0", Message("accepts_days"), positive_number).read({})),
    ("qrels_fields", lambda: _read("qrels", b"q1 0 my doc 1\n")),
    ("not_trec_qrels", lambda: _read("qrels", b"q1 0 d1 1\nq1 0 d 2 1\n")),
    ("too_few_fields", lambda: _read("run", b"q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.4\n")),
    ("rank_not_number", lambda: _read("run", b"q1 Q0 d1 first 0.5 t\n")),
    ("line_n", lambda: _read("qrels", b"q1 0 d1 1\nq1 0 d2 x\n")),
    ("bad_delimiter", lambda: _read("qrels", b'query,doc,relevance\n"q1,d1,1\n')),
    ("single_column", lambda: _read("qrels", b"query\nq1\n")),
    ("empty_id", lambda: _read("qrels", b"query,doc,relevance\nq1,,1\n")),
    ("control_in_id", lambda: _read("run", b"q1 Q0 d\x001 1 0.5 t\n")),
    ("no_data_rows", lambda: _read("qrels", b"query,doc,relevance\n")),
    # data sets: scoring
    ("looks_like_run", lambda: _read("qrels", b"q1 Q0 d1 1 0.5 r\n")),
    ("looks_like_qrels", lambda: _read("run", b"q1 0 d1 1\n")),
    ("fix_roles", lambda: _read("run", b"q1 0 d1 1\n")),
    ("cli_fix_roles", lambda: _on_the_command_line(lambda: _read("run", b"q1 0 d1 1\n"))),
    ("run_fields", lambda: _read("run", b"q1 Q0 d1 1 0.5\nq1 Q0 d2 2 0.25\n")),
    ("judged_twice", lambda: evaluate(_with(_QRELS, doc=["a", "a", "c"]), _RUN)),
    ("fix_duplicates_grade", lambda: evaluate(_with(_QRELS, doc=["a", "a", "c"]), _RUN)),
    (
        "cli_fix_duplicates_grade",
        lambda: _on_the_command_line(lambda: evaluate(_with(_QRELS, doc=["a", "a", "c"]), _RUN)),
    ),
    ("fix_duplicates_score", lambda: evaluate(_QRELS, _with(_RUN, doc=["a", "a", "c"]))),
    (
        "cli_fix_duplicates_score",
        lambda: _on_the_command_line(lambda: evaluate(_QRELS, _with(_RUN, doc=["a", "a", "c"]))),
    ),
    ("library_refuses_fix", lambda: evaluate(_with(_QRELS, relevance=[2, 1.5, 0]), _RUN, preset="trec_eval")),
    ("fix_grades_preset", lambda: evaluate(_with(_QRELS, relevance=[2, 1.5, 0]), _RUN, preset="trec_eval")),
    (
        "cli_fix_grades_preset",
        lambda: _on_the_command_line(
            lambda: evaluate(_with(_QRELS, relevance=[2, 1.5, 0]), _RUN, preset="trec_eval")
        ),
    ),
    (
        "no_query_in_common",
        lambda: cli._check_overlap(["q1", "q2"], ["1", "2"], cli._Source("run"), cli._Source("qrels")),
    ),
    ("few_queries_in_common", lambda: _raise(check_queries(["q1", "q2", "q3"], ["q1"]))),
    ("judged_twice_many", lambda: evaluate(pd.concat([_QRELS, _QRELS]), _RUN)),
    ("retrieved_twice", lambda: evaluate(_QRELS, _with(_RUN, doc=["a", "a", "c"]))),
    ("retrieved_twice_many", lambda: evaluate(_QRELS, pd.concat([_RUN, _RUN]))),
    (
        "unjudged_gain",
        lambda: evaluate(
            _with(_QRELS, relevance=[2, 1, 1]), _with(_RUN, doc=["a", "z", "c"]), gain={1: 1, 2: 3}
        ),
    ),
    ("ties_over_data_set", lambda: evaluate(_QRELS, _RUN, ties="reverse_argsort")),
    ("ties_over_data_set_preset", lambda: evaluate(_QRELS, _RUN, preset="sklearn-ignore-ties")),
    (
        "in_query",
        lambda: evaluate(
            _with(_QRELS, query=["q1"] * 3, relevance=[1e308] * 3), _with(_RUN, query=["q1"] * 3)
        ),
    ),
    ("on_row", lambda: evaluate(_with(_QRELS, relevance=[2, -1, 0]), _RUN, preset="sklearn")),
    ("these_qrels", lambda: evaluate(_with(_QRELS, relevance=[2, -1, 0]), _RUN, preset="sklearn")),
    ("too_few_retrieved", lambda: evaluate(_QRELS, _RUN, preset="sklearn")),
    ("query_named", lambda: evaluate(_QRELS, _RUN, preset="sklearn")),
    ("idcg_zero_query", lambda: evaluate(_QRELS, _RUN, zero_idcg="error")),
    ("idcg_zero_queries", lambda: evaluate(_with(_QRELS, relevance=[0, 0, 0]), _RUN, zero_idcg="error")),
    ("not_evaluate_table", lambda: aggregate(pd.DataFrame({"ndcg": [1.0]}))),
    ("idcg_zero_count", lambda: aggregate(evaluate(_QRELS, _RUN), zero_idcg="error")),
    ("no_cutoffs", lambda: evaluate(_QRELS, _RUN, k=[])),
    # the command line's measures
    ("unknown_measure", lambda: parse_measures(["P@10"])),
    ("bad_measure_cutoff", lambda: parse_measures(["ndcg_cut.5,ten"])),
    ("bad_measure_gain", lambda: parse_measures(["ndcg.1=3,2"])),
    ("no_measures", lambda: parse_measures([" "])),
    ("flag_ignored", lambda: _raise(_options("-l2")[0])),
    ("flag_level", lambda: _raise(_options("-l2")[0])),
    ("flag_debug", lambda: _raise(_options("-D", "1")[0])),
    ("flag_collection", lambda: _raise(_options("-N", "1000")[0])),
    ("flag_old_format", lambda: _raise(_options("-o")[0])),
    ("flag_format", lambda: _options("-R", "prefs")),
    ("flag_unsupported", lambda: _options("-Z", "zscores")),
    ("flag_zscore", lambda: _options("-Z", "zscores")),
    ("which_cutoff", lambda: aggregate(evaluate(_QRELS, _RUN, k=[1, 2]))),
    ("no_such_cutoff", lambda: aggregate(evaluate(_QRELS, _RUN, k=[1, 2]), k=3)),
    ("bad_threads", lambda: evaluate(_QRELS, _RUN, threads=0)),
    ("bad_threads", lambda: ndcg_core.read_run(io.BytesIO(b"q Q0 d 1 0.5 t\n"), threads="two")),
    ("bad_threads_variable", lambda: _with_variable("NDCG_THREADS", "many", lambda: evaluate(_QRELS, _RUN))),
    ("cannot_average", lambda: aggregate(pd.DataFrame({"dcg": [1e308, 1e308], "idcg": [1e308, 1e308]}))),
    # comparing runs
    ("runs_count", lambda: ndcg_core.compare(_QRELS, {"A": _RUN})),
    ("unknown_baseline", lambda: ndcg_core.compare(_QRELS, {"A": _RUN, "B": _RUN}, baseline="C")),
    ("alpha_range", lambda: ndcg_core.compare(_QRELS, {"A": _RUN, "B": _RUN}, alpha=0)),
    ("permutations_count", lambda: ndcg_core.compare(_QRELS, {"A": _RUN, "B": _RUN}, permutations=0.5)),
    ("in_run", lambda: ndcg_core.compare(_QRELS, {"A": _RUN, "B": _with(_RUN, doc=["a", "a", "c"])})),
    ("not_one_of", lambda: ndcg_core.compare(_QRELS, {"A": _RUN, "B": _RUN}, correction="sidak")),
    ("query_not_found", lambda: query_ranking(_QRELS, _RUN, "no such query")),
    ("unknown_run", lambda: robustness(_FLIP_QRELS, _FLIP_RUNS, presets=()).causes("A", "C", "x")),
    ("unknown_variant", lambda: robustness(_FLIP_QRELS, _FLIP_RUNS, presets=()).causes("A", "B", "x")),
    (
        "no_common_queries",
        lambda: ndcg_core.compare(_QRELS.assign(relevance=0.0), {"A": _RUN, "B": _RUN}, zero_idcg="skip"),
    ),
]


@pytest.mark.parametrize(
    ("code", "call"), ENGINE_PATHS, ids=[f"{c}-{i}" for i, (c, _f) in enumerate(ENGINE_PATHS)]
)
def test_the_engine_raises_each_code_by_its_real_path(code, call, zh):
    set_language("en")
    with pytest.raises(NDCGError) as info:
        call()
    err = info.value
    assert code in codes_in(err), (code, err.code, str(err))
    assert str(err) == MESSAGES[err.code].format(**err.values)
    set_language("zh")
    assert error_text(err) != str(err)


def test_every_code_the_engine_uses_has_a_real_path():
    assert sorted(set(codes_used(ENGINE)) - {code for code, _call in ENGINE_PATHS}) == []

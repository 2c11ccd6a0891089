"""The answer parser and checker shared by Practice and Learn."""

import math

import pytest

from ndcg_core.teaching.answers import (
    MAX_EXPONENT,
    MAX_LENGTH,
    Answer,
    is_correct,
    parse_answer,
    precision_problem,
)


@pytest.mark.parametrize(
    ("text", "value", "decimals"),
    [
        ("0.82", 0.82, 2),
        ("  0.8200 ", 0.82, 4),
        ("5", 5.0, 0),
        ("-1.5", -1.5, 1),
        ("0,82", 0.82, 2),
        ("1e-3", 0.001, 3),
        ("3 + 2/1.585", 3 + 2 / 1.585, 3),
        ("2^3 - 1", 7.0, 0),
        ("2**3 - 1", 7.0, 0),
        ("(3 + 1) * 0.5", 2.0, 1),
    ],
)
def test_reads_numbers_and_arithmetic(text, value, decimals):
    a = parse_answer(text)
    assert isinstance(a, Answer)
    assert a.value == pytest.approx(value)
    assert a.decimals == decimals


def test_answer_is_frozen():
    a = parse_answer("0.5")
    with pytest.raises(AttributeError):
        a.value = 1.0  # type: ignore[misc]


# One test per refused case, each checking the message names the problem.
def test_refuses_names():
    with pytest.raises(ValueError, match="'x' is a name"):
        parse_answer("x + 1")


def test_refuses_attributes():
    with pytest.raises(ValueError, match="dot"):
        parse_answer("math.pi")


def test_refuses_calls():
    with pytest.raises(ValueError, match="functions such as log2"):
        parse_answer("log2(3)")


def test_refuses_dunder_escape_attempts():
    with pytest.raises(ValueError):
        parse_answer("().__class__.__bases__[0]")


def test_refuses_huge_exponents():
    with pytest.raises(ValueError, match=r"exponent .* too large"):
        parse_answer("9**999999")
    with pytest.raises(ValueError, match=r"exponent .* too large"):
        parse_answer(f"2^{MAX_EXPONENT + 1}")


def test_refuses_nested_huge_exponents():
    with pytest.raises(ValueError, match="too large"):
        parse_answer("2**(2**(2**5))")


def test_refuses_very_long_input():
    with pytest.raises(ValueError, match=rf"too long .*at most {MAX_LENGTH}"):
        parse_answer("1+" * 200 + "1")


def test_refuses_empty_input():
    with pytest.raises(ValueError, match="empty"):
        parse_answer("   ")


def test_refuses_strings_and_other_syntax():
    with pytest.raises(ValueError, match="only numbers"):
        parse_answer("'0.5'")
    with pytest.raises(ValueError, match="not a number"):
        parse_answer("0.5 0.6")
    with pytest.raises(ValueError, match="only numbers"):
        parse_answer("[1, 2]")


def test_refuses_division_by_zero():
    with pytest.raises(ValueError, match="divides by zero"):
        parse_answer("1/0")


@pytest.mark.parametrize(
    ("typed", "exact", "ok"),
    [
        ("0.82", 0.8155, True),  # 0.8155 rounds to 0.82
        ("0.816", 0.8155, True),
        ("0.815", 0.8155 + 1e-6, False),
        ("0.8", 0.8155, False),  # one decimal is not enough
        ("1", 0.9766, False),
        ("1.00", 0.9766, False),
        ("0.98", 0.9766, True),
        ("5", 5.0, True),  # a whole number may be typed whole
        ("5.0", 5.0, True),
        ("5", 5.4, False),
        ("3 + 2/1.585", 3 + 2 / math.log2(3), True),
        ("3 + 2/1.6", 3 + 2 / math.log2(3), False),  # 4.25 vs 4.26 at 1 decimal: too rough
        ("1.5", 1.5, True),  # the exact value has no more decimals than typed
        ("3/2", 1.5, True),  # arithmetic on whole numbers is exact
        ("3/2", 3 / 2 + 0.01, False),
        ("3/2", math.log2(3), False),  # 1.5 exactly is not 1.585, at any precision
    ],
)
def test_is_correct(typed, exact, ok):
    assert is_correct(typed, exact) is ok


def test_precision_problem_message():
    """The issue: "(you typed 0)" read as if the student typed zero; it says how many decimals."""
    assert precision_problem("1", 0.9766) == "give at least 2 decimals (you gave 0 decimals)"
    assert precision_problem("1.0", 0.9766) == "give at least 2 decimals (you gave 1 decimal)"
    assert precision_problem("0.98", 0.9766) is None
    assert precision_problem("3/2", math.log2(3)) is None  # exact: nothing to add

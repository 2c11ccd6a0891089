"""Reading and checking a student's numeric answer.

Shared by the Practice page's exercises and the Learn page's
predict-then-reveal. A student types a number (``0.82``, ``0,82``) or simple
arithmetic (``3 + 2/1.585``, ``2^3 - 1``); :func:`parse_answer` reads it with a
whitelist over Python's ``ast`` (never ``eval``) and remembers how precisely it
was typed; :func:`is_correct` accepts it when it agrees with the exact value at
that precision.

The rules, in one place:

* **Precision typed.** ``0.82`` has 2 decimals, ``0.8200`` has 4, ``1e-3`` has 3.
  An expression is judged at the finest precision among its numbers
  (``3 + 2/1.585`` at 3 decimals), so a student who rounds a divisor must round
  it finely enough for the total.
* **Accepted** when the typed value is within half a unit of its last decimal
  of the exact value: for a plain number that is exactly "the exact value,
  rounded to the decimals typed, is the number typed".
* **At least 2 decimals**, unless the exact value is a whole number: ``5`` is a
  right answer for DCG = 5, but ``1`` is not accepted for 0.9766 (see
  :func:`precision_problem` for the message to show).
* **Refused input** raises ``ValueError`` with a message meant for the student:
  empty input, more than :data:`MAX_LENGTH` characters, names (``log``),
  attributes (``math.pi``), calls (``log2(3)``), powers whose exponent exceeds
  :data:`MAX_EXPONENT`, and anything that is not a number or ``+ - * / ^ **``
  and parentheses.

>>> a = parse_answer("3 + 2/1.585")
>>> round(a.value, 4), a.decimals
(4.2618, 3)
>>> is_correct(a, 3 + 2 / 1.5849625)
True
>>> is_correct("0.82", 0.8157), is_correct("0.815", 0.8157), is_correct("0.8", 0.8157)
(True, False, False)
>>> is_correct("5", 5.0)
True
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ..errors import Message, NDCGError

__all__ = [
    "MAX_EXPONENT",
    "MAX_LENGTH",
    "MIN_DECIMALS",
    "Answer",
    "is_correct",
    "parse_answer",
    "precision_problem",
    "same_at_precision",
]

#: Longest accepted input, in characters.
MAX_LENGTH = 80
#: Largest absolute exponent allowed in ``a ** b`` (2^5 - 1 needs 5).
MAX_EXPONENT = 32
#: Fewest decimals accepted for an exact value that is not a whole number.
MIN_DECIMALS = 2

#: What to type, said after most problems (translated where shown).
_EXAMPLE = Message("type_a_number")
_DECIMAL_COMMA = re.compile(r"^\s*[-+]?\d+,\d+\s*$")
_BINARY = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: a**b,
}
_UNARY = {ast.UAdd: lambda a: a, ast.USub: lambda a: -a}


@dataclass(frozen=True)
class Answer:
    """A parsed answer: its value and the precision it was typed to.

    ``decimals`` counts the digits after the decimal point of the most
    precise number typed (``0.820`` → 3, ``5`` → 0). ``text`` is the input as
    typed, stripped; ``is_expression`` says whether it held arithmetic.
    """

    value: float
    decimals: int
    text: str = ""
    is_expression: bool = False


def _literal_decimals(source: str) -> int:
    """Decimals written in one number literal: ``0.820`` → 3, ``1e-3`` → 3, ``12`` → 0."""
    try:
        exponent = Decimal(source.replace("_", "")).as_tuple().exponent
    except InvalidOperation:  # pragma: no cover - ast accepted it as a number
        return 0
    return max(0, -int(exponent)) if isinstance(exponent, int) else 0


class _Reader:
    """Evaluates a whitelisted expression tree, counting decimals as it goes."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.decimals = 0

    def value(self, node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return self.value(node.body)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                raise NDCGError("only_numbers", example=_EXAMPLE)
            source = ast.get_source_segment(self.text, node) or str(node.value)
            self.decimals = max(self.decimals, _literal_decimals(source))
            return float(node.value)
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](self.value(node.operand))
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left = self.value(node.left)
            right = self.value(node.right)
            if isinstance(node.op, ast.Div) and right == 0:
                raise NDCGError("divides_by_zero")
            if isinstance(node.op, ast.Pow):
                if abs(right) > MAX_EXPONENT:
                    raise NDCGError("exponent_too_large", e=f"{right:g}", max=MAX_EXPONENT)
                if left == 0 and right < 0:
                    raise NDCGError("divides_by_zero")
                if left < 0 and right != int(right):
                    raise NDCGError("negative_fractional_power")
            return float(_BINARY[type(node.op)](left, right))
        if isinstance(node, ast.Call):
            raise NDCGError("no_functions")
        if isinstance(node, ast.Attribute):
            raise NDCGError("no_dotted_names", example=_EXAMPLE)
        if isinstance(node, ast.Name):
            raise NDCGError("a_name", name=node.id, example=_EXAMPLE)
        raise NDCGError("only_arithmetic", example=_EXAMPLE)


def parse_answer(text: str) -> Answer:
    """Read what a student typed: a number or simple arithmetic.

    ``^`` means a power (``2^3 - 1`` is 7), as on a calculator; a single
    decimal comma is read as a point (``0,82``).

    Raises
    ------
    ValueError
        With a message meant to be shown to the student as it is.

    >>> parse_answer("0.8200")
    Answer(value=0.82, decimals=4, text='0.8200', is_expression=False)
    >>> parse_answer("2^3 - 1").value
    7.0
    >>> parse_answer("log2(3)")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ndcg_core.errors.NDCGError: functions such as log2(...) cannot be used: ...
    """
    if not isinstance(text, str):
        raise NDCGError("answer_not_text", type=type(text).__name__)
    stripped = text.strip()
    if not stripped:
        raise NDCGError("answer_empty", example=_EXAMPLE)
    if len(stripped) > MAX_LENGTH:
        raise NDCGError("answer_too_long", n=len(stripped), max=MAX_LENGTH)
    source = stripped.replace(",", ".") if _DECIMAL_COMMA.match(stripped) else stripped
    source = source.replace("^", "**").replace("×", "*").replace("÷", "/").replace("−", "-")
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        raise NDCGError("not_arithmetic", text=stripped, example=_EXAMPLE) from None
    reader = _Reader(source)
    try:
        value = reader.value(tree)
    except OverflowError:
        raise NDCGError("number_too_large") from None
    if not math.isfinite(value):
        raise NDCGError("number_too_large")
    is_expression = not isinstance(tree.body, ast.Constant) and not (
        isinstance(tree.body, ast.UnaryOp) and isinstance(tree.body.operand, ast.Constant)
    )
    return Answer(value=value, decimals=reader.decimals, text=stripped, is_expression=is_expression)


def _as_answer(answer: Answer | str) -> Answer:
    return answer if isinstance(answer, Answer) else parse_answer(answer)


def same_at_precision(answer: Answer | str, value: float) -> bool:
    """Does ``value`` agree with the answer at the precision it was typed?

    True when ``value`` is within half a unit of the answer's last decimal
    (for a plain number: ``value`` rounds to the number typed). This is the
    test both for "right" and for "reproduced by a mistaken formula".

    >>> same_at_precision("0.63", 0.6309), same_at_precision("0.631", 0.6309)
    (True, True)
    >>> same_at_precision("0.64", 0.6309), same_at_precision("0.6", 0.6309)
    (False, True)
    """
    a = _as_answer(answer)
    if not math.isfinite(value):
        return False
    half_unit = 0.5 * 10.0 ** (-a.decimals)
    return abs(a.value - value) <= half_unit * (1 + 1e-9) + 1e-12


def _is_whole(x: float) -> bool:
    return math.isfinite(x) and abs(x - round(x)) < 1e-9


def precision_problem(answer: Answer | str, exact: float) -> Message | None:
    """Why the answer is too imprecise to judge (a coded text), or None when it is precise enough.

    >>> precision_problem("1", 0.9766)
    'give at least 2 decimals (you typed 0)'
    >>> precision_problem("5", 5.0) is None, precision_problem("0.98", 0.9766) is None
    (True, True)
    """
    a = _as_answer(answer)
    if a.decimals >= MIN_DECIMALS or _is_whole(exact):
        return None
    return Message("more_decimals", n=MIN_DECIMALS, typed=a.decimals)


def is_correct(answer: Answer | str, exact: float) -> bool:
    """Is the answer right: precise enough, and equal to ``exact`` at the precision typed?

    Raises ``ValueError`` (from :func:`parse_answer`) when ``answer`` is text
    that cannot be read.

    >>> is_correct("0.98", 0.9766), is_correct("0.977", 0.9766), is_correct("0.976", 0.9766)
    (True, True, False)
    >>> is_correct("1", 0.9766), is_correct("1.00", 0.9766)
    (False, False)
    """
    a = _as_answer(answer)
    return precision_problem(a, exact) is None and same_at_precision(a, exact)

"""Reading and judging a student's numeric answer: the one checker of Practice, Learn and Class.

A student types a number (``0.82``, ``0,82``) or simple arithmetic (``3 + 2/1.585``, ``2^3 - 1``);
:func:`parse_answer` reads it with a whitelist over Python's ``ast`` (never ``eval``) and remembers
how precisely it was typed; :func:`judge` compares it with the exact value and with the values the
common mistakes give (the caller computes those: :mod:`ndcg_core.teaching.practice.mistakes` for an
exercise, :mod:`ndcg_core.teaching.lesson` for a prediction).

The rules, in one place:

* **Precision typed.** ``0.82`` has 2 decimals, ``0.8200`` has 4, ``1e-3`` has 3, ``2`` has 0.
  An expression is judged at the finest precision among its numbers (``3 + 2/1.585`` at 3
  decimals), so a student who rounds a divisor must round it finely enough for the total; an
  expression of whole numbers only (``3/2``, ``2^3 - 1``) is exact: its value is what is meant.
* A value **gives** the typed number when it rounds to it at the precision typed (is within half
  a unit of its last decimal); it gives it **to 2 decimals** when it also rounds to it at
  2 decimals (``2`` for 2.000, not for 1.585).

A typed number is then, in this order:

1. **right** when the exact value, or a value the page printed for that quantity (the exact value
   to 3 or 4 decimals: ``1.585`` for log2 3, so ``1.59`` as well as ``1.58``; and any the caller
   passes as ``shown``), gives it, and the answer is precise enough: 2 decimals or more, or the
   exact value has no more decimals than typed (``5`` for 5, ``1.5`` for 1.5), or it is an exact
   expression;
2. **a fraction typed as a percentage** (``93`` for an NDCG of 0.93, when the caller says the
   quantity is a fraction): said so, and not a try;
3. **too rough** ("give at least 2 decimals (you gave 0 decimals)") when the typed number is a
   rounding of the right value (or of a value printed): ``1.0`` for 0.9714, ``2`` for 1.585. A
   mistake is never named for a number the right value rounds to: the student may only have
   rounded too much;
4. **a mistake** when a mistake's value gives it to 2 decimals (``2.00`` where log2(i + 1) gives 2
   and 1.585 was asked), else when a mistake's value gives it at the precision typed;
5. **wrong**, with no common mistake that gives it.

A percentage (``93%``) is read as the fraction it is (0.93, typed to 2 decimals) and judged so; the
verdict's :attr:`Verdict.note` says how it was read.

* **Refused input** raises ``ValueError`` with a message meant for the student:
  empty input, more than :data:`MAX_LENGTH` characters, names (``log``),
  attributes (``math.pi``), calls (``log2(3)``), powers whose exponent exceeds
  :data:`MAX_EXPONENT`, a number with more than :data:`MAX_DECIMALS` decimals
  (``1e-999999999``: the value is shown to the precision typed), and anything
  that is not a number or ``+ - * / ^ **`` and parentheses.

>>> a = parse_answer("3 + 2/1.585")
>>> round(a.value, 4), a.decimals
(4.2618, 3)
>>> is_correct(a, 3 + 2 / 1.5849625)
True
>>> is_correct("0.82", 0.8157), is_correct("0.815", 0.8157), is_correct("0.8", 0.8157)
(True, False, False)
>>> is_correct("5", 5.0), is_correct("3/2", 1.5)
(True, True)
>>> judge("2.00", 1.5849625, {"log2_i_plus_1": [2.0]}).mistakes
('log2_i_plus_1',)
>>> judge("2", 1.5849625, {"log2_i_plus_1": [2.0]}).kind  # 1.585 rounds to 2 too
'too_rough'
>>> judge("1.59", 1.5849625).kind, judge("93%", 0.9315).kind  # printed 1.585; 93% is 0.93
('right', 'right')
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ..errors import Message, NDCGError, error_text
from ..i18n import _

__all__ = [
    "MAX_DECIMALS",
    "MAX_EXPONENT",
    "MAX_LENGTH",
    "MIN_DECIMALS",
    "PRINTED_DECIMALS",
    "Answer",
    "Examples",
    "Verdict",
    "examples",
    "is_correct",
    "judge",
    "noted",
    "parse_answer",
    "precision_problem",
    "printed",
    "problem_text",
    "same_at_precision",
]

#: Longest accepted input, in characters.
MAX_LENGTH = 80
#: Largest absolute exponent allowed in ``a ** b`` (2^5 - 1 needs 5).
MAX_EXPONENT = 32
#: Most decimals a number may be typed with (``1e-999999999`` claims 999,999,999 of them: showing
#: the exact value to that precision would take gigabytes, so such an answer is refused).
MAX_DECIMALS = 20
#: Fewest decimals accepted for an exact value that is not a whole number.
MIN_DECIMALS = 2
#: The decimals the pages print a computed value with (a step table, a formula with the numbers:
#: :func:`ndcg_core.teaching.formula.number` and ``trimmed``; a worked answer: 4). A number rounded
#: from what the page printed is right too.
PRINTED_DECIMALS = (3, 4)

#: Examples for the answer box's placeholder and help and for the messages about what to type, in
#: the order they are tried: the first whose numbers are none of the values to avoid (the question's
#: answer: an example must never be the answer beside its question).
_NUMBERS = ("0.82", "0.57", "0.64", "0.31")
_ARITHMETIC = ("1.2 + 0.5/2.5", "0.7 + 0.4/3.5", "2.2 + 1.5/4.5")
_FUNCTIONS = (("log2(3)", "1.585"), ("log2(7)", "2.807"), ("log2(12)", "3.585"))
_ROUNDINGS = (("0.93", "0.9315"), ("0.47", "0.4682"), ("0.26", "0.2619"))
_NUMBER_TOKEN = re.compile(r"(?<![\w.])\d+(?:\.\d+)?")  # not the 2 of log2


@dataclass(frozen=True)
class Examples:
    """Example numbers to show beside a question, none of them its answer: a ``number`` and some
    ``arithmetic`` to type, a ``function`` with its ``value``, and a ``rounded`` number that is right
    for an ``unrounded`` one."""

    number: str
    arithmetic: str
    function: str
    value: str
    rounded: str
    unrounded: str


def _clear(text: str, avoid: tuple[float, ...]) -> bool:
    """Whether no number in ``text`` shows a value in ``avoid``: a number with decimals that is the
    value rounded to them, or a whole number equal to a whole value; nor does ``text`` work one out
    (arithmetic whose result is one to 2 decimals)."""
    try:
        worked = parse_answer(text).value if any(op in text for op in "+-*/^") else None
    except ValueError:
        worked = None
    if worked is not None and any(abs(worked - v) <= 0.005 for v in avoid):
        return False
    for token in _NUMBER_TOKEN.findall(text):
        decimals = len(token.partition(".")[2])
        for v in avoid:
            if decimals == 0 and not float(v).is_integer():
                continue
            if abs(float(token) - v) <= 0.5 * 10.0**-decimals + 1e-12:
                return False
    return True


def examples(avoid: Iterable[float] = ()) -> Examples:
    """Examples none of whose numbers is a rounding of a value in ``avoid`` (the question's answer).

    >>> examples([0.82]).number, examples([0.82]).arithmetic
    ('0.57', '1.2 + 0.5/2.5')
    >>> examples([1.5849625]).function, examples([2.5]).arithmetic
    ('log2(7)', '0.7 + 0.4/3.5')
    """
    bad = tuple(float(v) for v in avoid if math.isfinite(float(v)))

    def first(options):
        return next(
            (o for o in options if _clear(" ".join(o) if isinstance(o, tuple) else o, bad)), options[-1]
        )

    function, value = first(_FUNCTIONS)
    rounded, unrounded = first(_ROUNDINGS)
    return Examples(first(_NUMBERS), first(_ARITHMETIC), function, value, rounded, unrounded)


def _what_to_type(avoid: tuple[float, ...]) -> Message:
    """What to type, said after most problems (translated where shown)."""
    e = examples(avoid)
    return Message("type_a_number", number=e.number, arithmetic=e.arithmetic)


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
    percent: bool = False  # typed as a percentage ("93%"): value is the fraction

    @property
    def exact(self) -> bool:
        """Arithmetic on whole numbers only (``3/2``, ``2^3 - 1``): its value is meant exactly."""
        return self.is_expression and self.decimals == 0


def _literal_decimals(source: str) -> int:
    """Decimals written in one number literal: ``0.820`` → 3, ``1e-3`` → 3, ``12`` → 0."""
    try:
        exponent = Decimal(source.replace("_", "")).as_tuple().exponent
    except InvalidOperation:  # pragma: no cover - ast accepted it as a number
        return 0
    return max(0, -int(exponent)) if isinstance(exponent, int) else 0


class _Reader:
    """Evaluates a whitelisted expression tree, counting decimals as it goes."""

    def __init__(self, text: str, avoid: tuple[float, ...]) -> None:
        self.text = text
        self.avoid = avoid
        self.decimals = 0

    @property
    def example(self) -> Message:
        """What to type (made only when a message needs it: the examples avoid the answer)."""
        return _what_to_type(self.avoid)

    def value(self, node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return self.value(node.body)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                raise NDCGError("only_numbers", example=self.example)
            source = ast.get_source_segment(self.text, node) or str(node.value)
            decimals = _literal_decimals(source)
            if decimals > MAX_DECIMALS:
                raise NDCGError("too_many_decimals", max=MAX_DECIMALS)
            self.decimals = max(self.decimals, decimals)
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
            e = examples(self.avoid)
            raise NDCGError("no_functions", example=e.function, value=e.value)
        if isinstance(node, ast.Attribute):
            raise NDCGError("no_dotted_names", example=self.example)
        if isinstance(node, ast.Name):
            raise NDCGError("a_name", name=node.id, example=self.example)
        raise NDCGError("only_arithmetic", example=self.example)


def parse_answer(text: str, avoid: Iterable[float] = ()) -> Answer:
    """Read what a student typed: a number or simple arithmetic.

    ``^`` means a power (``2^3 - 1`` is 7), as on a calculator; a single
    decimal comma is read as a point (``0,82``). ``avoid``: the question's answer (and any value
    that must not be an example): a message about what to type gives examples that are none of
    them (:func:`examples`).

    Raises
    ------
    ValueError
        With a message meant to be shown to the student as it is.

    >>> parse_answer("0.8200")
    Answer(value=0.82, decimals=4, text='0.8200', is_expression=False, percent=False)
    >>> a = parse_answer("93%")
    >>> a.value, a.decimals, a.percent
    (0.93, 2, True)
    >>> parse_answer("2^3 - 1").value
    7.0
    >>> parse_answer("log2(3)")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ndcg_core.errors.NDCGError: functions such as log2(...) cannot be used: ...
    """
    if not isinstance(text, str):
        raise NDCGError("answer_not_text", type=type(text).__name__)
    avoid = tuple(avoid)
    stripped = text.strip()
    if not stripped:
        raise NDCGError("answer_empty", example=_what_to_type(avoid))
    if len(stripped) > MAX_LENGTH:
        raise NDCGError("answer_too_long", n=len(stripped), max=MAX_LENGTH)
    percent = stripped.endswith("%")
    body = stripped[:-1].strip() if percent else stripped
    if percent and not body:
        raise NDCGError("answer_empty", example=_what_to_type(avoid))
    source = body.replace(",", ".") if _DECIMAL_COMMA.match(body) else body
    source = source.replace("^", "**").replace("×", "*").replace("÷", "/").replace("−", "-")
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        raise NDCGError("not_arithmetic", text=stripped, example=_what_to_type(avoid)) from None
    reader = _Reader(source, avoid)
    try:
        value = reader.value(tree)
    except OverflowError:
        raise NDCGError("number_too_large") from None
    if not math.isfinite(value):
        raise NDCGError("number_too_large")
    is_expression = not isinstance(tree.body, ast.Constant) and not (
        isinstance(tree.body, ast.UnaryOp) and isinstance(tree.body.operand, ast.Constant)
    )
    if percent:  # 93% is 0.93, typed to 2 decimals
        return Answer(value / 100, reader.decimals + 2, stripped, is_expression, percent=True)
    return Answer(value=value, decimals=reader.decimals, text=stripped, is_expression=is_expression)


def _as_answer(answer: Answer | str) -> Answer:
    return answer if isinstance(answer, Answer) else parse_answer(answer)


def _within(a: Answer, value: float, decimals: int) -> bool:
    """Does ``value`` round to the answer at ``decimals`` (at any precision, for an exact answer)?"""
    if not math.isfinite(value):
        return False
    if a.exact:
        return abs(a.value - value) <= 1e-9 * max(1.0, abs(value))
    half_unit = 0.5 * 10.0 ** (-decimals)
    return abs(a.value - value) <= half_unit * (1 + 1e-9) + 1e-12


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
    return _within(a, value, a.decimals)


def _to_two_decimals(a: Answer, value: float) -> bool:
    """Does ``value`` give the answer to at least :data:`MIN_DECIMALS` decimals (2 for 2.000)?"""
    return _within(a, value, max(a.decimals, MIN_DECIMALS))


def _has_no_more_decimals(x: float, decimals: int) -> bool:
    """Is ``x`` written exactly with ``decimals`` decimals (5 with 0, 1.5 with 1)?"""
    return math.isfinite(x) and abs(x - round(x, decimals)) < 1e-9 * max(1.0, abs(x))


def precision_problem(answer: Answer | str, exact: float) -> Message | None:
    """Why the answer is too imprecise to judge (a coded text), or None when it is precise enough.

    Precise enough: at least :data:`MIN_DECIMALS` decimals, or the exact value has no more
    decimals than typed, or an exact expression.

    >>> precision_problem("1", 0.9766)
    'give at least 2 decimals (you gave 0 decimals)'
    >>> precision_problem("0.9", 0.9766)
    'give at least 2 decimals (you gave 1 decimal)'
    >>> precision_problem("5", 5.0) is None, precision_problem("0.98", 0.9766) is None
    (True, True)
    """
    a = _as_answer(answer)
    if a.exact or a.decimals >= MIN_DECIMALS or _has_no_more_decimals(exact, a.decimals):
        return None
    if a.decimals == 1:
        return Message("more_decimals_one", n=MIN_DECIMALS)
    return Message("more_decimals", n=MIN_DECIMALS, typed=a.decimals)


def is_correct(answer: Answer | str, exact: float) -> bool:
    """Is the answer right: precise enough, and equal to ``exact`` at the precision typed?

    Raises ``ValueError`` (from :func:`parse_answer`) when ``answer`` is text
    that cannot be read.

    >>> is_correct("0.98", 0.9766), is_correct("0.977", 0.9766), is_correct("0.976", 0.9766)
    (True, True, False)
    >>> is_correct("1", 0.9766), is_correct("1.00", 0.9766), is_correct("1.5", 1.5)
    (False, False, True)
    """
    a = _as_answer(answer)
    return precision_problem(a, exact) is None and same_at_precision(a, exact)


#: The kinds of :class:`Verdict`, in the order :func:`judge` tries them.
RIGHT, FRACTION, TOO_ROUGH, MISTAKE, WRONG = "right", "fraction", "too_rough", "mistake", "wrong"


def printed(exact: float, shown: Iterable[float] = ()) -> tuple[float, ...]:
    """The values a page may have shown for ``exact``: itself, to each of :data:`PRINTED_DECIMALS`,
    and any value in ``shown``."""
    values = [exact, *(round(exact, d) for d in PRINTED_DECIMALS), *(float(v) for v in shown)]
    return tuple(dict.fromkeys(v for v in values if math.isfinite(v)))


@dataclass(frozen=True)
class Verdict:
    """What a typed number is: ``kind`` is ``"right"``, ``"fraction"`` (a fraction typed as a
    percentage: :attr:`problem` says so), ``"too_rough"`` (:attr:`problem` says what to type),
    ``"mistake"`` (with the ``mistakes`` that give it, in the order they were given) or
    ``"wrong"`` (no common mistake gives it). :attr:`problem` is set when the answer was not judged
    (not a try); :attr:`note` says how a percentage was read."""

    answer: Answer
    exact: float
    kind: str
    mistakes: tuple[str, ...] = ()

    @property
    def right(self) -> bool:
        return self.kind == RIGHT

    @property
    def problem(self) -> Message | None:
        """Why the answer was not judged: a coded text for the student, or None."""
        if self.kind == TOO_ROUGH:
            return precision_problem(self.answer, self.exact)
        if self.kind == FRACTION:
            a = self.answer
            return Message("a_fraction", typed=a.text, value=f"{a.value / 100:.{max(a.decimals, 2)}f}")
        return None

    @property
    def note(self) -> Message | None:
        """How a percentage was read ("93% is 0.93"), or None."""
        a = self.answer
        if not a.percent:
            return None
        return Message("read_as_fraction", typed=a.text, value=f"{a.value:.{a.decimals}f}")


def noted(verdict: Verdict, message: str) -> str:
    """``message`` after the note on how a percentage was read, when there is one (translated)."""
    if verdict.note is None:
        return message
    return _("{note}. {verdict}").format(note=error_text(verdict.note), verdict=message)


def problem_text(verdict: Verdict) -> str:
    """Why a typed number was not judged, for the student (translated), or "" when it was."""
    if verdict.problem is None:
        return ""
    if verdict.kind == TOO_ROUGH:
        template = _("Your answer {answer} is too rough to check: {problem}.")
    else:
        template = _("Your answer {answer}: {problem}.")
    return template.format(answer=verdict.answer.text, problem=error_text(verdict.problem))


def judge(
    answer: Answer | str,
    exact: float,
    mistakes: Mapping[str, Iterable[float]] | None = None,
    *,
    shown: Iterable[float] = (),
    fraction: bool = False,
) -> Verdict:
    """Judge a typed number against the exact value, the values the page printed for it and the
    values the common mistakes give.

    ``mistakes`` maps a mistake's id to the value(s) it gives for this question (several where a
    mistake has variants, such as rounding terms to 1 or to 2 decimals). ``shown``: values the page
    printed for this quantity besides the exact value's own prints (:func:`printed`). ``fraction``:
    the quantity is a fraction (NDCG), so ``93`` for 0.93 is read as a percentage typed without
    its sign. The rules are the module docstring's.

    Raises ``ValueError`` (from :func:`parse_answer`) for text that cannot be read.

    >>> judge("0.72", 0.7235).kind, judge("1.00", 0.7235, {"ideal_unsorted": [1.0]}).mistakes
    ('right', ('ideal_unsorted',))
    >>> judge("1", 0.7235, {"ideal_unsorted": [1.0]}).kind  # 0.7235 rounds to 1: too rough to tell
    'too_rough'
    >>> judge("1.0", 0.9714, {"ideal_unsorted": [1.0]}).kind
    'too_rough'
    >>> judge("3/2", 1.5849625, {"log2_i_plus_1": [2.0]}).kind  # 1.5 exactly: no mistake gives it
    'wrong'
    >>> judge("93", 0.9315, fraction=True).kind
    'fraction'
    """
    a = _as_answer(answer)
    rights = printed(exact, shown)
    if precision_problem(a, exact) is None and any(_within(a, v, a.decimals) for v in rights):
        return Verdict(a, exact, RIGHT)
    if fraction and not a.percent and a.value > 1:
        as_percent = Answer(a.value / 100, a.decimals + 2, a.text, a.is_expression, percent=True)
        if any(_within(as_percent, v, as_percent.decimals) for v in rights):
            return Verdict(a, exact, FRACTION)
    if any(_within(a, v, a.decimals) for v in rights):
        return Verdict(a, exact, TOO_ROUGH)
    values = {name: [float(v) for v in found] for name, found in (mistakes or {}).items()}
    tight = tuple(name for name, found in values.items() if any(_to_two_decimals(a, v) for v in found))
    if tight:
        return Verdict(a, exact, MISTAKE, tight)
    loose = tuple(name for name, found in values.items() if any(same_at_precision(a, v) for v in found))
    return Verdict(a, exact, MISTAKE, loose) if loose else Verdict(a, exact, WRONG)

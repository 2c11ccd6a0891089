"""The lecturer's own question on a list: the form's typed text, read and checked (issue 26, part 4).

The lecturer types the grades, top first (``3, 2, 3, 0, 1, 2``), and may type labels (``D1`` to
``Dn`` when left empty), then picks the formula and what to ask. :func:`list_definition` reads that
into the same definition as a question on the playground's list
(:func:`~.questions.playground_definition`, whose rules apply: 2 to 12 items, labels that differ,
a relevant item, a position within the cutoff), and every refusal names the form's field:
``Grades: entry 2 ('x') is not a number; type grades such as 3, 2, 0``. A multiple-choice question
is checked by :func:`~.questions.choice_definition`.

>>> d = list_definition("0, 1, 1", "", Variant(), "ndcg")
>>> d["labels"], d["grades"]
(['D1', 'D2', 'D3'], [0.0, 1.0, 1.0])
>>> try:
...     list_definition("3, two", "", Variant(), "ndcg")
... except BadQuestion as err:
...     print(err)
Grades: entry 2 ('two') is not a number; type grades such as 3, 2, 0
"""

from __future__ import annotations

import math
import re
from typing import Any

from ..errors import Message
from ..variants import Variant
from .questions import BadQuestion, field_error, playground_definition, text_field

__all__ = ["MAX_GRADE", "MAX_LABEL", "list_definition", "read_grades", "read_labels"]

#: The highest grade a typed list may hold (an exponential gain of 10 is already 1023).
MAX_GRADE = 10
#: The longest label, in characters (labels name items on a phone's screen).
MAX_LABEL = 20

#: The field of the form that a rule of playground_definition is about.
_FIELDS = {
    "class_items": Message("field_grades"),
    "class_needs_relevant": Message("field_grades"),
    "class_labels_differ": Message("field_labels"),
    "class_position": Message("field_position"),
}


def _entries(text: Any, separators: str) -> list[str]:
    if not isinstance(text, str):
        return []
    parts = [p.strip() for p in re.split(separators, text.strip())]
    while parts and not parts[-1]:  # "3, 2, 1,": a trailing separator
        parts.pop()
    return parts if any(parts) else []


def read_grades(text: Any) -> list[float]:
    """Grades typed top first, separated by commas, semicolons or spaces; each a number from 0 to
    :data:`MAX_GRADE`."""
    entries = _entries(text, r"[,;\s]+")
    if not entries:
        raise field_error(Message("field_grades"), Message("grades_empty"))
    grades = []
    for n, entry in enumerate(entries, start=1):
        try:
            grade = float(entry)
        except ValueError:
            grade = None
        if grade is None or math.isnan(grade):
            raise field_error(
                Message("field_grades"), Message("grade_not_number", n=n, text=repr(entry[:20]))
            )
        if not 0 <= grade <= MAX_GRADE:
            problem = Message("grade_range", n=n, text=repr(entry[:20]), max=MAX_GRADE)
            raise field_error(Message("field_grades"), problem)
        grades.append(grade)
    return grades


def read_labels(text: Any, n: int) -> list[str]:
    """Labels separated by commas or semicolons, one per grade; ``D1`` to ``Dn`` when none is typed.
    Each is checked like a question's text: something visible, at most :data:`MAX_LABEL` characters,
    no character that cannot be shown."""
    entries = _entries(text, r"[,;]")
    if not entries:
        return [f"D{i}" for i in range(1, n + 1)]
    if len(entries) != n:
        raise field_error(Message("field_labels"), Message("own_labels_count", labels=len(entries), grades=n))
    return [text_field(entry, MAX_LABEL, Message("field_labels")) for entry in entries]


def list_definition(
    grades_text: Any,
    labels_text: Any,
    formula: Variant,
    ask: str,
    position: int | None = None,
) -> dict[str, Any]:
    """The definition of a question on a list the lecturer typed (see the module's text)."""
    grades = read_grades(grades_text)
    labels = read_labels(labels_text, len(grades))
    try:
        return playground_definition(labels, grades, formula, ask, position)
    except BadQuestion as err:
        if err.code not in _FIELDS:
            raise
        raise field_error(_FIELDS[err.code], err) from None

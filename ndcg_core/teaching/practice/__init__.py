"""Practice exercises: generated from a seed, checked, and diagnosed.

Everything the Practice page needs, as plain data and pure functions, one concern a module:

* :mod:`.model`: the kinds (:data:`KINDS`), levels (:data:`LEVELS`) and the records an exercise is
  made of (:class:`Question`, :class:`Exercise`, :class:`Feedback`, :class:`Hint`), an exercise's
  formula being the engine's :class:`~ndcg_core.variants.Variant` (:func:`describe` says it in words);
* :mod:`.generators`: :func:`make_exercise` builds exercise number ``n`` of a seed, for a kind and a
  level: the same arguments always give the same exercise, so a share link (``seed=``, ``ex=``)
  hands out a set;
* :mod:`.mistakes`: :func:`diagnose` says which common wrong formula (:data:`MISTAKES`) reproduces a
  typed number;
* :mod:`.checking`: :func:`check` judges a response (typed text, a choice, or a dragged order) and
  returns :class:`Feedback` naming the mistake, if one explains the answer;
* :mod:`.hints`: three levels of help;
* :mod:`.progress`: :class:`Progress` keeps score per kind, and :func:`next_kind` favours the kinds
  answered wrongly.

>>> ex = make_exercise(7, 1, kind="metric", level=1)
>>> ex.kind, ex.level, ex.answer_type
('metric', 1, 'number')
>>> check(ex, f"{ex.exact:.3f}").correct
True
>>> diagnose("1.50", [0, 1, 0, 1], quantity="dcg")  # 0 + 1/1 + 0 + 1/2: divided by log2(i)
['log2_i']
"""

from .checking import ROW_COLUMNS, check, feedback_latex, focus_rows, focus_text, solution
from .generators import LIBRARY_CHOICES, WINNER_CHOICES, kind_for, make_exercise
from .hints import hints
from .mistakes import MISTAKES, diagnose, diagnose_question, judge_question, mistake_text, wrong_formula
from .model import (
    KIND_TRAITS,
    KINDS,
    LEVELS,
    QUANTITIES,
    Candidate,
    Exercise,
    Feedback,
    Hint,
    Question,
    describe,
    explain_under,
    ndcg_under,
)
from .progress import Progress, next_kind

__all__ = [
    "KINDS",
    "KIND_TRAITS",
    "LEVELS",
    "LIBRARY_CHOICES",
    "MISTAKES",
    "QUANTITIES",
    "ROW_COLUMNS",
    "WINNER_CHOICES",
    "Candidate",
    "Exercise",
    "Feedback",
    "Hint",
    "Progress",
    "Question",
    "check",
    "describe",
    "diagnose",
    "diagnose_question",
    "explain_under",
    "feedback_latex",
    "focus_rows",
    "focus_text",
    "hints",
    "judge_question",
    "kind_for",
    "make_exercise",
    "mistake_text",
    "ndcg_under",
    "next_kind",
    "solution",
    "wrong_formula",
]

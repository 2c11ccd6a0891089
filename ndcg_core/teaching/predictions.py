"""The lesson's predictions as one value: what a student typed at each step, what was judged, and
which steps show their answer.

Pure: typing, Check and "Skip: show me" each give a new :class:`Predictions` (Learn's page keeps one
in its session and draws from it). The verdicts come from the one judge
(:func:`ndcg_core.teaching.lesson.check_answer`); the tries from :class:`~ndcg_core.teaching.tries.Tries`.

>>> from ndcg_core.teaching.lesson import Question
>>> q = Question("The divisor at position 3?", "log2(3 + 1) = 2", exact=2.0)
>>> p, focus = Predictions().check(3, q, "two")  # unreadable: not a try, the box again
>>> focus, p.unreadable, p.tries
('problem', {3: 'two'}, {})
>>> p, focus = p.check(3, q, "1.5")  # a wrong try: its diagnosis, and another try
>>> focus, p.answers[3], 3 in p.revealed
('problem', '1.5', False)
>>> p, focus = p.check(3, q, "2.00")
>>> focus, 3 in p.revealed, p.tries[3].right
('answer', True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from .lesson import Question, check_answer
from .tries import Tries

__all__ = ["Predictions"]


@dataclass(frozen=True)
class Predictions:
    """Per lesson step that asks a prediction: ``typed``, what its box holds (kept when it cannot be
    read, and across pages); ``answers``, the last judged answer; ``unreadable``, the text of a last
    Check that could not be judged (its message is said from it, in the page's language of the
    moment, and stays while the box is edited until the next Check); ``tries``; ``revealed``, the
    steps that show their answer and new column. Mappings are never changed in place: every
    transition returns a new value."""

    typed: Mapping[int, str] = field(default_factory=dict)
    answers: Mapping[int, str] = field(default_factory=dict)
    unreadable: Mapping[int, str] = field(default_factory=dict)
    tries: Mapping[int, Tries] = field(default_factory=dict)
    revealed: frozenset[int] = frozenset()

    def type(self, step: int, text: str) -> Predictions:
        """What step ``step``'s box holds now."""
        return replace(self, typed={**self.typed, step: text})

    def check(self, step: int, question: Question, text: str) -> tuple[Predictions, str]:
        """Judge ``text`` for ``step``'s ``question``; the new value, and where the focus goes next:
        ``"problem"`` (the box again: unreadable, too rough, or a wrong try with tries left) or
        ``"answer"`` (the answer is shown). A wrong choice between two shows the answer at once."""
        typed = {**self.typed, step: text}
        feedback = check_answer(question, text)
        if feedback.correct is None:  # unreadable, or too rough to judge: not a try
            return replace(self, typed=typed, unreadable={**self.unreadable, step: text}), "problem"
        tries, _counts = self.tries.get(step, Tries()).submit(text.strip(), feedback.correct)
        shown = tries.solution_shown or bool(question.choices)
        new = replace(
            self,
            typed=typed,
            answers={**self.answers, step: text},
            unreadable=_without(self.unreadable, step),
            tries={**self.tries, step: tries},
            revealed=self.revealed | {step} if shown else self.revealed,
        )
        return new, "answer" if shown else "problem"

    def skip(self, step: int) -> Predictions:
        """ "Skip: show me": the answer shown, and no answer of the student's kept for the step."""
        return replace(
            self,
            answers=_without(self.answers, step),
            unreadable=_without(self.unreadable, step),
            tries={**self.tries, step: self.tries.get(step, Tries()).show()},
            revealed=self.revealed | {step},
        )

    def restored(self, revealed: Iterable[int], answers: Mapping[int, str]) -> Predictions:
        """The learner's saved progress put back (``ndcg_core.teaching.saved``): its revealed steps
        and answers, the answers in their boxes too."""
        return replace(
            self,
            revealed=frozenset(revealed),
            answers=dict(answers),
            typed={**self.typed, **answers},
        )


def _without(values: Mapping[int, str], step: int) -> dict[int, str]:
    return {n: text for n, text in values.items() if n != step}

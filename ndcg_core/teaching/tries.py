"""A student's tries at one question, before the worked solution: the rule Learn and Practice share.

A wrong answer gets its diagnosis (the mistake named, when one gives it) but not the solution, and
the student may try again; the worked solution comes after the second wrong try, or at once on
"Show me". A response is judged once: submitting the same response again (Enter, then the Check
button; or Check on an unchanged answer) is not another try and counts nothing. A response that
could not be judged (unreadable, or too rough) is not a try either: the caller does not record it.

>>> t = Tries()
>>> t, counts = t.submit("2", correct=False)
>>> counts, t.wrong, t.solution_shown
(True, 1, False)
>>> t, counts = t.submit("2", correct=False)  # the same answer again: not another try
>>> counts, t.wrong
(False, 1)
>>> t, counts = t.submit("1.585", correct=True)
>>> counts, t.right, t.solution_shown
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

__all__ = ["WRONG_TRIES", "Tries"]

#: Wrong tries after which the worked solution is shown.
WRONG_TRIES = 2


@dataclass(frozen=True)
class Tries:
    """The judged responses to one question, in order, and where the student stands.

    ``responses`` holds every response judged so far (text as typed and stripped, a choice, an
    order); ``wrong`` counts the wrong ones; ``right`` is set by a right one; ``shown`` by "Show me".
    """

    responses: tuple[Hashable, ...] = ()
    wrong: int = 0
    right: bool = False
    shown: bool = False

    @property
    def solution_shown(self) -> bool:
        """Whether the worked solution is shown: answered right, or two wrong tries, or "Show me"."""
        return self.right or self.shown or self.wrong >= WRONG_TRIES

    @property
    def last(self) -> Hashable | None:
        """The response judged last (None before the first)."""
        return self.responses[-1] if self.responses else None

    def seen(self, response: Hashable) -> bool:
        """Whether this response was judged already."""
        return response in self.responses

    def submit(self, response: Hashable, correct: bool) -> tuple[Tries, bool]:
        """The tries after judging ``response``, and whether it counts as a new attempt.

        A response judged before changes nothing but which response is the last; once the
        solution is shown nothing counts any more (the question is settled).
        """
        if self.seen(response):
            rest = tuple(r for r in self.responses if r != response)
            return Tries((*rest, response), self.wrong, self.right, self.shown), False
        if self.solution_shown:
            return Tries((*self.responses, response), self.wrong, self.right, self.shown), False
        return (
            Tries((*self.responses, response), self.wrong + (not correct), self.right or correct, self.shown),
            True,
        )

    def show(self) -> Tries:
        """The tries after "Show me"."""
        return Tries(self.responses, self.wrong, self.right, True)

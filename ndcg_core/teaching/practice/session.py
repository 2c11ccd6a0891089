"""The Practice page as one value: what it keeps, what each click or answer does, what it shows.

:class:`PracticeSession` is everything the page keeps between runs (the set, the exercise, the
level and kind, the progress, each exercise's tries, feedback, hints and dragged order). Every
click or answer is a method that returns the next session (pure: the same session and input give
the same result), and :meth:`PracticeSession.view` says what the page shows, in the reader's
language, with every formula said by its rule's record. The Streamlit page
(``views/practice.py``) only binds widgets to it, so the page's logic is tested here, without a
browser or Streamlit.

>>> s = PracticeSession(seed=7)
>>> e = s.exercise
>>> s = s.answer("not a number")
>>> s.view().verdict.tone, s.view().verdict.counts  # unreadable: said, and not a try
('warning', False)
>>> s.step(1).number, s.step(1).step(-1).step(-1).number
(2, 1)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import pandas as pd

from ...i18n import N_, _
from ..formula import number
from ..pages import PracticeState
from ..tries import Tries
from .checking import check, feedback_latex, focus_rows, focus_text, solution
from .generators import kind_for, make_exercise
from .hints import hints
from .model import KINDS, LEVELS, Exercise, Feedback, Hint
from .progress import Progress, next_kind

__all__ = ["MIXED", "HintView", "PracticeSession", "PracticeView", "Verdict"]

#: The kind setting that mixes every kind (the seed picks each exercise's).
MIXED = "mixed"

#: The step-table columns a hint's worked tables show, after the position and the item.
NUMBER_COLUMNS = ("Grade", "Gain", "Divisor", "Discounted gain", "Cumulative DCG")
#: A hint table's own column (the step table's names are in ndcg_core.teaching.lesson).
COUNTED = N_("Counted")


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Verdict:
    """What the feedback box shows: its ``tone`` (``"info"``: the solution on its own; ``"success"``,
    ``"warning"``: an answer that could not be judged, ``"error"``: a wrong one), its ``text``, a
    ``caption`` under it, the step-table row it points at (``focus``: a title and a table of text)
    and the formulas with the numbers (LaTeX); ``counts``: whether the answer was judged."""

    tone: str
    text: str
    caption: str = ""
    focus_title: str = ""
    focus: pd.DataFrame | None = None
    latex: tuple[str, ...] = ()
    counts: bool = True


@dataclass(frozen=True)
class HintView:
    """One hint as shown: its text, formulas, and (the worked solution) the step tables, titled."""

    hint: Hint
    tables: tuple[tuple[str, pd.DataFrame], ...] = ()


@dataclass(frozen=True)
class PracticeView:
    """What the Practice page shows for a session (plain text, to be shown as text)."""

    exercise: Exercise
    verdict: Verdict | None
    hints: tuple[HintView, ...]
    hint_button: str | None  # the label of the button that shows the next hint; None: all shown
    show_me: bool  # whether "Show me" is offered (the worked solution is not shown yet)
    previous: bool  # whether there is a previous exercise
    order: tuple[str, ...]  # the drag list's order now (a drag exercise)


@dataclass(frozen=True)
class PracticeSession:
    """Everything the Practice page keeps, as one value (see the module's docstring).

    ``kind`` is the kind chosen (or :data:`MIXED`); ``pick`` the kind "practise what you missed"
    picked for the exercise on screen (None: the chosen one, or the seed's in a mixed set). The
    mappings are keyed by :attr:`Exercise.key`. ``warnings`` are a share link's complaints (coded
    texts), retired by the first move; ``checks`` counts checks, so a same verdict is said again.
    """

    seed: int
    number: int = 1
    kind: str = MIXED
    level: int = 1
    pick: str | None = None
    missed_mode: bool = False
    progress: Progress = field(default_factory=Progress)
    feedback: Mapping[str, Feedback] = field(default_factory=dict)
    tries: Mapping[str, Tries] = field(default_factory=dict)
    hints: Mapping[str, int] = field(default_factory=dict)
    orders: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    warnings: tuple[Any, ...] = ()
    checks: int = 0

    def __post_init__(self) -> None:
        for name in ("feedback", "tries", "hints", "orders"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))

    # -------------------------------------------------------------- what it is now

    @property
    def exercise(self) -> Exercise:
        """The exercise on screen."""
        kind = self.pick or (self.kind if self.kind != MIXED else kind_for(self.seed, self.number))
        return make_exercise(self.seed, self.number, kind, self.level)

    def link(self) -> PracticeState:
        """The share link's state: the kind "practise what you missed" picked goes in the link too."""
        kind = self.pick or (self.kind if self.kind != MIXED else None)
        return PracticeState(seed=self.seed, ex=self.number, level=self.level, kind=kind)

    def place(self) -> PracticeState:
        """Where the learner is, as their saved progress keeps it (the kind chosen, not the pick)."""
        kind = None if self.kind == MIXED else self.kind
        return PracticeState(seed=self.seed, ex=self.number, level=self.level, kind=kind)

    def tries_of(self, e: Exercise) -> Tries:
        return self.tries.get(e.key, Tries())

    # -------------------------------------------------------------- what a link or a save does

    def at(self, state: PracticeState, warnings: Sequence[Any] = ()) -> PracticeSession:
        """The exercise a share link (or a saved place) names; without a seed the set stays."""
        return replace(
            self,
            seed=self.seed if state.seed is None else state.seed,
            number=state.ex,
            level=state.level,
            kind=state.kind or MIXED,
            pick=None,
            warnings=tuple(warnings),
        )

    def restored(
        self, progress: Progress, missed_mode: bool, place: PracticeState | None, place_in_link: bool
    ) -> PracticeSession:
        """The learner's saved progress put in place; their place too, unless the link names one."""
        restored = replace(self, progress=progress, missed_mode=missed_mode)
        return restored.at(place) if place is not None and not place_in_link else restored

    # -------------------------------------------------------------- what a click does

    def step(self, delta: int) -> PracticeSession:
        """Previous (-1) or Next (+1); in a mixed set with "practise what you missed" on, the next
        exercise's kind favours the kinds answered wrongly. A share link's complaints retire."""
        n = max(1, self.number + delta)
        pick = next_kind(self.progress, self.seed, n) if self.missed_mode and self.kind == MIXED else None
        return replace(self, number=n, pick=pick, warnings=())

    def with_level(self, level: int) -> PracticeSession:
        if level not in LEVELS:
            raise KeyError(level)
        return replace(self, level=level, pick=None, warnings=())

    def with_kind(self, kind: str) -> PracticeSession:
        if kind != MIXED and kind not in KINDS:
            raise KeyError(kind)
        return replace(self, kind=kind, pick=None, warnings=())

    def with_missed_mode(self, on: bool) -> PracticeSession:
        return replace(self, missed_mode=bool(on))

    def new_set(self, seed: int) -> PracticeSession:
        """A new set of exercises (``seed``: the caller's random number), from its first."""
        return replace(self, seed=seed, number=1, pick=None, warnings=())

    def reorder(self, order: Sequence[str]) -> PracticeSession:
        """The drag exercise's list, dragged into ``order`` (its labels)."""
        e = self.exercise
        if sorted(order) != sorted(e.labels):
            return self
        return replace(self, orders={**self.orders, e.key: tuple(order)})

    def answer(self, response: Any, same: Hashable | None = None) -> PracticeSession:
        """Judge a response to the exercise on screen: typed text, a choice's name, or an order.

        ``same`` is what makes two responses one (default: the stripped text, the choice, the
        order): a response judged before counts nothing. An answer that could not be judged is
        said and counts nothing either; a judged one counts once toward the progress.
        """
        e = self.exercise
        if same is None:
            same = _same(response)
        verdict = check(e, response)
        after = replace(self, checks=self.checks + 1, feedback={**self.feedback, e.key: verdict})
        if not verdict.counts:
            return after
        tries, counts = self.tries_of(e).submit(same, verdict.correct)
        after = replace(after, tries={**self.tries, e.key: tries})
        return replace(after, progress=self.progress.record(e, verdict)) if counts else after

    def check_order(self) -> PracticeSession:
        """Judge the drag exercise's list as it stands."""
        order = self.orders.get(self.exercise.key, self.exercise.labels)
        return self.answer(list(order), tuple(order))

    def show_solution(self) -> PracticeSession:
        """ "Show me": the worked solution now."""
        e = self.exercise
        return replace(self, tries={**self.tries, e.key: self.tries_of(e).show()})

    def more_hint(self) -> PracticeSession:
        """The next of the three hints."""
        key = self.exercise.key
        return replace(self, hints={**self.hints, key: min(3, self.hints.get(key, 0) + 1)})

    # -------------------------------------------------------------- what it shows

    def view(self) -> PracticeView:
        e = self.exercise
        shown_hints = self.hints.get(e.key, 0)
        levels = hints(e)
        button = None
        if shown_hints < 3:
            button = (
                _("Show a hint") if shown_hints == 0 else _("Show hint {n} of 3").format(n=shown_hints + 1)
            )
        return PracticeView(
            exercise=e,
            verdict=self._verdict(e),
            hints=tuple(_hint_view(e, h) for h in levels[:shown_hints]),
            hint_button=button,
            show_me=not self.tries_of(e).solution_shown and e.answer_type != "order",
            previous=e.number > 1,
            order=tuple(self.orders.get(e.key, e.labels)),
        )

    def _verdict(self, e: Exercise) -> Verdict | None:
        """The verdict on the last answer: before the solution is shown, a wrong answer gets its
        diagnosis only (the student tries again); then the whole verdict, its row and its formula."""
        fb = self.feedback.get(e.key)
        tries = self.tries_of(e)
        if fb is None and not tries.shown:
            return None
        if fb is None or (fb.problem and tries.shown):
            return Verdict("info", solution(e).message)  # "Show me" with no judged answer to explain
        if fb.problem:
            return Verdict("warning", fb.message, counts=False)
        if fb.correct:
            return Verdict("success", fb.message)
        if e.answer_type == "order" or tries.solution_shown:
            title, rows = _focus(e, fb, solved=True)
            return Verdict("error", fb.message, focus_title=title, focus=rows, latex=feedback_latex(e, fb))
        title, rows = _focus(e, fb, solved=False)
        caption = _("Try again. A hint can help; Show me gives the worked solution.")
        return Verdict("error", fb.diagnosis, caption=caption, focus_title=title, focus=rows)


def _same(response: Any) -> Hashable:
    """What makes two responses one: typed text stripped, an order as a tuple, a choice as it is."""
    if isinstance(response, str):
        return response.strip()
    return tuple(response) if isinstance(response, list) else response


def _focus(e: Exercise, fb: Feedback, solved: bool) -> tuple[str, pd.DataFrame | None]:
    """The step-table row the feedback points at, as text: the asked formula's beside the student's
    way; before the solution only the student's way (the asked row holds the answer)."""
    if fb.focus is None or e.answer_type != "number":
        return "", None
    rows = focus_rows(e, fb)
    if not solved:
        if len(rows.columns) < 3:  # no "Your way" column: nothing to show yet
            return "", None
        rows = rows.drop(columns=rows.columns[1])
    table, position = fb.focus
    if table == "ideal_steps":
        title = _("**Row {n} of the ideal ordering's step table**").format(n=position)
    else:
        title = _("**Row {n} of your ranking's step table**").format(n=position)
    return title, focus_text(rows)


def _hint_view(e: Exercise, hint: Hint) -> HintView:
    if not (hint.tables and e.question is not None):
        return HintView(hint)
    ex = e.question.explanation()
    cols = ["Position", "Item", *NUMBER_COLUMNS]
    tables = []
    for title, steps in ((_("Your ranking"), ex.steps), (_("Ideal ordering"), ex.ideal_steps)):
        shown = steps[cols].assign(**{c: steps[c].map(number) for c in cols[2:]}, Counted=~steps["Beyond k"])
        tables.append((title, shown.rename(columns=_)))
    return HintView(hint, tuple(tables))

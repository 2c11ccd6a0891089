"""Each page's own state as plain data, read from and written to its share link.

The Playground's list travels in the link as :class:`~ndcg_core.teaching.playground.PlaygroundState`
(:mod:`ndcg_core.teaching.playground`); the pages around it add their own parameters:

============  ==============================  ===========================================
page          parameters                      state
============  ==============================  ===========================================
Learn         ``step``, ``present``,          :class:`LearnState`
              ``room``, ``key``
Practice      ``seed``, ``ex``, ``level``,    :class:`PracticeState`
              ``kind``
Class         ``room``, ``tag``, ``key``,     :class:`ClassState`
              ``me``, ``present``
every page    ``continue``, ``learner``       :class:`LearnerState` (read, never written: a
                                              continue code; an old link's token, ignored)
every page    ``lang``                        :class:`LanguageState` (the app's language)
============  ==============================  ===========================================

Each state is a frozen dataclass with the same three pure functions: ``from_params(params)``
gives the state and a list of warnings (a bad value falls back to its default, and, where the
page says so, a warning names it: a coded :class:`~ndcg_core.errors.Message` naming the
parameter, the value received and what is expected, which the page translates with
:func:`~ndcg_core.errors.error_text` and shows as text); ``to_params()`` gives the parameters
back, defaults left out (except those that mark a link as the page's own, always written);
``carried_by(params)`` says whether a URL holds the state at all (a page switch drops every
parameter: then the session's own state stands). ``views.ui.share`` adopts and writes them for every page.

>>> LearnState.from_params({"step": "4", "present": "1"})
(LearnState(step=4, present=True, room=None, key=None), [])
>>> state, warnings = LearnState.from_params({"step": "99"})
>>> state, [(w.code, w.values["problem"].code) for w in warnings]
(LearnState(step=7, present=False, room=None, key=None), [('share_link_param', 'not_whole_in_range')])
>>> print(warnings[0])
Share link parameter 'step': '99' is not a whole number from 1 to 7; using step 7 instead.
>>> PracticeState(seed=7, ex=2, kind="cell").to_params()
{'seed': '7', 'ex': '2', 'kind': 'cell'}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from ..errors import Message
from ..i18n import LANGUAGES, language_of
from .lesson import N_STEPS
from .practice import KINDS, LEVELS

__all__ = ["LEARNER_TOKEN", "ClassState", "LanguageState", "LearnState", "LearnerState", "PracticeState"]


def _whole(text: str) -> int | None:
    """``text`` as a whole number (surrounding spaces allowed), or None."""
    try:
        return int(text.strip())
    except ValueError:
        return None


def _shown(text: str) -> str:
    """A parameter's value as a message quotes it: ``repr``, cut to 40 characters (shown as text)."""
    return repr(text[:40] + ("…" if len(text) > 40 else ""))


def _present(params: Mapping[str, str], fallback: Message) -> tuple[bool, list[str]]:
    """A link's ``present`` (the projector's view: Learn's presenter mode, Class's results screen):
    ``1`` is on, ``0`` or none off; any other value is off, and a warning names it, ``fallback``
    saying what opens instead."""
    text = params.get("present")
    if text in (None, "0", "1"):
        return text == "1", []
    problem = Message("present_not_flag", text=_shown(text))
    return False, [Message("share_link_param", key="present", problem=problem, fallback=fallback)]


@dataclass(frozen=True)
class LearnState:
    """The Learn page: which of the seven steps is shown, and whether in presenter mode.

    A step out of 1..7 (:data:`~ndcg_core.teaching.lesson.N_STEPS`) opens the nearest step, and
    one that is not a whole number the first; ``present=1`` is presenter mode, ``0`` (or none) the
    lesson page. Any other value falls back so, and a warning names the parameter, the value
    received and what is expected. ``room`` is the Class room the presenter's lesson drives (its
    questions go to the room's phones); a link may bring the room's lecturer ``key``, which the page
    checks and keeps off the address bar, as the Class page does (it is never written).

    >>> state, warnings = LearnState.from_params({"step": "2", "present": "1", "room": "ABC234", "key": "s3"})
    >>> state.key, state.to_params()
    ('s3', {'step': '2', 'present': '1', 'room': 'ABC234'})
    """

    step: int = 1
    present: bool = False
    room: str | None = None
    key: str | None = None

    PARAMS: ClassVar[tuple[str, ...]] = ("step", "present", "room", "key")

    @classmethod
    def carried_by(cls, params: Mapping[str, str]) -> bool:
        """Learn's link always writes its step."""
        return "step" in params

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> tuple[LearnState, list[str]]:
        warnings: list[str] = []
        step = 1
        if (text := params.get("step")) is not None:
            n = _whole(text)
            step = 1 if n is None else min(max(n, 1), N_STEPS)
            if n != step:
                problem = Message("not_whole_in_range", text=_shown(text), low=1, high=N_STEPS)
                warnings.append(
                    Message(
                        "share_link_param", key="step", problem=problem, fallback=Message("step_n", n=step)
                    )
                )
        present, said = _present(params, Message("lesson_not_presenting"))
        warnings += said
        room = params.get("room") or None
        key = (params.get("key") or None) if room else None
        return cls(step=step, present=present, room=room, key=key), warnings

    def to_params(self) -> dict[str, str]:
        """``step`` always (it marks the link as Learn's), ``present`` only in presenter mode, ``room``
        when the lesson drives one (never ``key``)."""
        return {
            "step": str(self.step),
            **({"present": "1"} if self.present else {}),
            **({"room": self.room} if self.room else {}),
        }


#: The share link's ranges of Practice's whole numbers (parameter: lowest, highest).
PRACTICE_RANGES = {"seed": (0, 10**9), "ex": (1, 10_000), "level": (min(LEVELS), max(LEVELS))}


@dataclass(frozen=True)
class PracticeState:
    """The Practice page: an exercise set (``seed``), an exercise in it, the level and the kind.

    ``seed`` None: none was given (the page draws one); ``kind`` None: the set mixes every kind.
    """

    seed: int | None = None
    ex: int = 1
    level: int = 1
    kind: str | None = None

    PARAMS: ClassVar[tuple[str, ...]] = ("seed", "ex", "level", "kind")

    @classmethod
    def carried_by(cls, params: Mapping[str, str]) -> bool:
        """Practice's link always writes its set and exercise."""
        return "seed" in params or "ex" in params

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> tuple[PracticeState, list[str]]:
        """The state of a share link; each bad value is named in a warning and falls back."""
        warnings: list[str] = []

        def ignored(key: str, problem: Message) -> None:
            warnings.append(Message("link_param_ignored", key=key, problem=problem))

        def whole(key: str) -> int | None:
            text = params.get(key)
            if text is None:
                return None
            low, high = PRACTICE_RANGES[key]
            value = _whole(text)
            if value is None or not low <= value <= high:
                ignored(key, Message("not_whole_in_range", text=_shown(text), low=low, high=high))
                return None
            return value

        seed, ex, level = whole("seed"), whole("ex"), whole("level")
        kind = params.get("kind")
        if kind is not None and kind not in KINDS:
            ignored("kind", Message("not_a_choice", text=_shown(kind), allowed=", ".join(KINDS)))
            kind = None
        return cls(seed=seed, ex=ex or 1, level=level or 1, kind=kind), warnings

    def to_params(self) -> dict[str, str]:
        """``seed`` (once there is one) and ``ex`` always, ``level`` and ``kind`` when not the defaults."""
        params = {} if self.seed is None else {"seed": str(self.seed)}
        params["ex"] = str(self.ex)
        if self.level != 1:
            params["level"] = str(self.level)
        if self.kind is not None:
            params["kind"] = self.kind
        return params


#: The longest student id a link's ``me`` is kept to (it is only ever refused, never looked up).
MAX_STUDENT_ID = 64
#: The longest join tag a link's ``tag`` is kept to (a tag has 6 characters; the page checks it).
MAX_TAG = 16
#: The longest one-time code a link's ``lecturer`` or ``continue`` is kept to (a code has 8
#: characters, 9 shown: :mod:`ndcg_core.classroom.onetime`).
MAX_ONE_TIME = 16


@dataclass(frozen=True)
class ClassState:
    """The Class page: the room (its code and join tag), a one-time lecturer code a link brought,
    the projector screen.

    The students' link is ``room=CODE&tag=TAG``: the join tag (:mod:`ndcg_core.classroom.tags`) is
    what lets a link through when wrong codes are being refused (a typed code has none); it is the
    same for every student of the room, not an identity. Without ``room`` the page is the landing
    page.
    ``present=1`` is the results screen for the projector (Learn's ``present`` means the same: the
    projector). A link made by "Run this room from another device" brings ``lecturer=CODE``, a
    one-time code (:mod:`ndcg_core.classroom.onetime`; at most :data:`MAX_ONE_TIME` characters of
    it are kept) that the page redeems once, keeping the key it gives in the session and a cookie;
    an older link's ``key=SECRET`` is checked and kept the same way. Neither is ever written back,
    so the address bar never shows them and no link the app makes carries the lecturer key. A
    student's id is never in a link: the server issues it and the phone keeps it in a cookie; an
    old link's ``me`` is read only so the page can say it is not taken (``me``, at most
    :data:`MAX_STUDENT_ID` characters of it), and never written.
    """

    room: str | None = None
    key: str | None = None
    me: str | None = None
    present: bool = False
    tag: str | None = None
    lecturer: str | None = None

    #: The parameter that brings a one-time lecturer code (only a link made on request has it).
    ONE_TIME: ClassVar[str] = "lecturer"
    PARAMS: ClassVar[tuple[str, ...]] = ("room", "tag", "key", "me", "present", ONE_TIME)

    @classmethod
    def carried_by(cls, params: Mapping[str, str]) -> bool:
        """Always: no room in the link means no room."""
        return True

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> tuple[ClassState, list[str]]:
        """A ``present`` other than ``1`` or ``0`` opens the lecturer's page, and a warning says so.

        >>> ClassState.from_params({"room": "ABC234", "present": "yes"})[1][0].values["fallback"].code
        'room_not_presenting'
        """
        me = (params.get("me") or "")[:MAX_STUDENT_ID] or None
        tag = (params.get("tag") or "")[:MAX_TAG] or None
        lecturer = (params.get(cls.ONE_TIME) or "")[:MAX_ONE_TIME] or None
        present, warnings = _present(params, Message("room_not_presenting"))
        return cls(params.get("room"), params.get("key"), me, present, tag, lecturer), warnings

    def to_params(self) -> dict[str, str]:
        """The parameters that are set, in the order room, tag, present (never ``key``, ``me`` or
        ``lecturer``).

        >>> ClassState("ABC234", key="secret", lecturer="ABCDEFGH", present=True).to_params()
        {'room': 'ABC234', 'present': '1'}
        """
        present = "1" if self.present else None
        given = {"room": self.room, "tag": self.tag, "present": present}
        return {name: value for name, value in given.items() if value is not None}


#: A learner token as the app issues them (``secrets.token_urlsafe(18)``: 24 characters).
LEARNER_TOKEN = re.compile(r"^[A-Za-z0-9_-]{24}$")


@dataclass(frozen=True)
class LearnerState:
    """What a link says about saved progress: never whose it is (issue 37, part 3).

    A learner token never travels in a link: the cookie keeps it. A link made by "Continue on
    another device" carries a one-time continue code, ``continue=`` (``code``: as it came, at most
    :data:`MAX_ONE_TIME` characters; the store says whether it is live). An old link's
    ``learner=<token>`` is read only so the page can take it off the address bar (``stale``): it
    is never looked up. Neither is ever written back: :meth:`to_params` is always empty.

    >>> LearnerState.from_params({"continue": "ABCD-EFGH", "learner": "abcdefghijklmnopqrstuvwx"})
    (LearnerState(code='ABCD-EFGH', stale=True), [])
    >>> LearnerState(code="ABCD-EFGH", stale=True).to_params()
    {}
    """

    code: str | None = None
    stale: bool = False

    PARAMS: ClassVar[tuple[str, ...]] = ("continue", "learner")

    @classmethod
    def carried_by(cls, params: Mapping[str, str]) -> bool:
        return any(name in params for name in cls.PARAMS)

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> tuple[LearnerState, list[str]]:
        code = (params.get("continue") or "")[:MAX_ONE_TIME] or None
        return cls(code=code, stale="learner" in params), []

    def to_params(self) -> dict[str, str]:
        """Nothing: a link never says whose progress it is."""
        return {}


@dataclass(frozen=True)
class LanguageState:
    """The app's language as a link gives it (``lang``, on every page): a language of
    :data:`~ndcg_core.i18n.LANGUAGES`, or None (the page keeps the language it has).

    A locale such as ``zh-CN`` names its language; any other value is named in a warning.

    >>> LanguageState.from_params({"lang": "zh-CN"})
    (LanguageState(lang='zh'), [])
    >>> state, warnings = LanguageState.from_params({"lang": "<b>zz</b>"})
    >>> state
    LanguageState(lang=None)
    >>> print(warnings[0])
    Share link parameter 'lang': '<b>zz</b>' is not one of en, zh; using the current language instead.
    """

    lang: str | None = None

    PARAMS: ClassVar[tuple[str, ...]] = ("lang",)

    @classmethod
    def carried_by(cls, params: Mapping[str, str]) -> bool:
        return "lang" in params

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> tuple[LanguageState, list[str]]:
        text = params.get("lang")
        if text is None:
            return cls(), []
        lang = language_of(text)
        if lang is not None:
            return cls(lang), []
        problem = Message("not_a_choice", text=_shown(text), allowed=", ".join(LANGUAGES))
        return cls(), [
            Message("share_link_param", key="lang", problem=problem, fallback=Message("the_current_language"))
        ]

    def to_params(self) -> dict[str, str]:
        return {} if self.lang is None else {"lang": self.lang}

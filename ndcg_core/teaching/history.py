"""Undo and redo for list changes, as an immutable value.

A :class:`History` holds the snapshots before the current one (``past``) and
those undone (``future``). :meth:`History.record` is called with the current
snapshot after every change, whatever made it (a drag, an edit, an example);
undoing and redoing move along the two stacks.

>>> h = History.start("a").record("b").record("c")
>>> h, state = h.undo()
>>> state, h.can_redo
('b', True)
>>> h, state = h.redo()
>>> state
'c'
>>> h.record("d").can_redo  # a new change forgets what was undone
False
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

__all__ = ["LIMIT", "History"]

LIMIT = 50  # snapshots kept for undo


@dataclass(frozen=True)
class History:
    current: Any
    past: tuple[Any, ...] = ()
    future: tuple[Any, ...] = ()

    @classmethod
    def start(cls, current: Any) -> History:
        return cls(current)

    @property
    def can_undo(self) -> bool:
        return bool(self.past)

    @property
    def can_redo(self) -> bool:
        return bool(self.future)

    def record(self, snapshot: Any) -> History:
        """Note the state after a run; a change pushes the previous one onto the undo stack."""
        if snapshot == self.current:
            return self
        past = (*self.past, self.current)[-LIMIT:]
        return History(snapshot, past, ())

    def undo(self) -> tuple[History, Any]:
        """Go back one change: the new history and the snapshot to restore."""
        if not self.past:
            return self, self.current
        snapshot = self.past[-1]
        undone = replace(self, current=snapshot, past=self.past[:-1], future=(self.current, *self.future))
        return undone, snapshot

    def redo(self) -> tuple[History, Any]:
        """Re-apply the last undone change."""
        if not self.future:
            return self, self.current
        snapshot = self.future[0]
        redone = replace(self, current=snapshot, past=(*self.past, self.current), future=self.future[1:])
        return redone, snapshot

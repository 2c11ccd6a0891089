"""Do a run and its judgements share their queries? The check behind a silent mistake.

A run scored against judgements for other queries, or with ids written another way (``q1`` in one
file, ``1`` in the other), gives no error anywhere else: every query is unjudged, NDCG is 0 or
undefined, and a mean of ``nan`` or 0 is all that shows. :func:`check_queries` finds a run that
shares no query with the qrels (``no_query_in_common``) or fewer than half of its queries
(``few_queries_in_common``); both messages name the two files and show a few ids of each, so
``q1`` against ``1`` shows at once. :func:`ndcg_core.evaluate` warns with either
(:class:`NDCGWarning`: the library computes what it was asked); ``ndcg-eval`` and the Data sets
page refuse a run with no query in common and warn about one with few.

Standard library only (the command line's lean path uses it without pandas).

>>> check_queries(["q1", "q2"], ["1", "2"], run_name="run.txt", qrels_name="qrels.txt")
"no query is in both qrels.txt and run.txt: qrels.txt has queries '1', '2', run.txt has 'q1', 'q2'; are \
the query ids written the same way in both (such as q1 and 1), and are these the judgements for this run?"
>>> check_queries(["1", "2", "3"], ["1", "2", "3", "4"]) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import Message

__all__ = ["SAMPLE", "SMALL_SHARE", "NDCGWarning", "check_queries"]

#: A run with fewer than this share of its queries in the qrels gets a warning.
SMALL_SHARE = 0.5

#: How many ids of each file a message shows.
SAMPLE = 3


class NDCGWarning(UserWarning):
    """A warning with a coded message (:attr:`message`): the English text, translatable and matchable
    by its ``code`` as :class:`~ndcg_core.errors.NDCGError` is."""

    def __init__(self, message: Message):
        super().__init__(str.__str__(message))
        self.message = message

    @property
    def code(self) -> str:
        return self.message.code


def _sample(ids: Sequence, other: set) -> str:
    """A few ids, those the other file lacks first (they show what differs), quoted."""
    ordered = [x for x in ids if x not in other] or list(ids)
    shown = ", ".join(repr(str(x)) for x in ordered[:SAMPLE])
    return shown + (", ..." if len(ordered) > SAMPLE else "")


def check_queries(
    run_queries: Sequence, qrels_queries: Sequence, *, run_name: str = "run", qrels_name: str = "qrels"
) -> Message | None:
    """What is wrong with the queries a run and its qrels share, if anything.

    Parameters
    ----------
    run_queries, qrels_queries : sequence
        Each file's distinct query ids, in the order the file lists them.
    run_name, qrels_name : str
        The files' names, for the messages.

    Returns
    -------
    Message or None
        ``no_query_in_common`` when no query of the run is in the qrels (an error for a caller
        that shows numbers: ``NDCGError.of(message)``); ``few_queries_in_common`` when under
        :data:`SMALL_SHARE` of the run's queries are (a warning); None otherwise, or when either
        side has no query.
    """
    if not len(run_queries) or not len(qrels_queries):
        return None
    judged, retrieved = set(qrels_queries), set(run_queries)
    common = len(retrieved & judged)
    values = {
        "run": run_name,
        "qrels": qrels_name,
        "runsample": _sample(run_queries, judged),
        "qrelsample": _sample(qrels_queries, retrieved),
    }
    if common == 0:
        return Message("no_query_in_common", **values)
    if common < SMALL_SHARE * len(retrieved):
        return Message(
            "few_queries_in_common", **values, common=common, nrun=len(retrieved), nqrels=len(judged)
        )
    return None

"""The editable tables of items (grades, labels, scores) and reading their edits back."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd
import streamlit as st

from ndcg_core.i18n import _
from ndcg_core.lists import finite_number
from ndcg_core.teaching.playground import (
    Item,
    all_scored,
)
from ndcg_core.variants import format_number

from . import keys
from .markup import md_escape
from .session import next_id


def _items_frame(items: Sequence[Item], with_scores: bool) -> pd.DataFrame:
    columns = {
        "Item": pd.Series([i.label for i in items], dtype=object),
        "Grade": pd.Series([format_number(i.grade) for i in items], dtype=object),
    }
    if with_scores:
        scores = ["" if i.score is None else format_number(i.score) for i in items]
        columns["Score"] = pd.Series(scores, dtype=object)
    return pd.DataFrame(columns)


def _cell(value) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else str(value).strip()


def _added_ids(kind: str, key: str, count: int, known: tuple[Item, ...]) -> list[int]:
    """Item ids of the ``count`` rows added so far in the table ``key`` (of ``kind``).

    Kept across runs: a row added once stays the same item (the same id) while the table lives,
    so the ranking keeps the place a drag or a one-click order gave it. New ids lie above every
    id in use (the playground's, ``known``'s, and those handed to added rows before).
    """
    ss = st.session_state
    store = keys.table_added_ids(kind)
    kept_key, ids = ss.get(store, (None, []))
    if kept_key != key:
        ids = []
    if len(ids) < count:  # never an id handed out before, even to a row still being fixed
        start = max([next_id(), ss.get(keys.PG_ADDED_ID_FLOOR, 0), *(i.id + 1 for i in known)])
        ids = ids + list(range(start, start + count - len(ids)))
        ss[keys.PG_ADDED_ID_FLOOR] = ids[-1] + 1
    ss[store] = (key, ids)
    return ids[:count]


def _table_rows(kind: str, key: str, delta: dict, known: tuple[Item, ...]):
    """(item id, cells) of each row of the edited table ``key`` (of ``kind``), top to bottom.

    ``delta`` is the editor's state as Streamlit documents it: ``edited_rows`` (row position in
    the table's starting rows -> changed cells), ``deleted_rows`` (positions there),
    ``added_rows`` (cells of each new row, appended).
    """
    ss = st.session_state
    base, base_ids = ss[keys.table_base(kind)], ss[keys.table_base_ids(kind)]
    edits = {int(pos): cells for pos, cells in (delta.get("edited_rows") or {}).items()}
    deleted = {int(pos) for pos in delta.get("deleted_rows") or ()}
    rows = [
        (item_id, {**cells, **edits.get(pos, {})})
        for pos, (item_id, cells) in enumerate(zip(base_ids, base.to_dict("records"), strict=True))
        if pos not in deleted
    ]
    added = list(delta.get("added_rows") or ())
    return rows + list(zip(_added_ids(kind, key, len(added), known), map(dict, added), strict=True))


def _read_editor(rows: list[tuple[int, dict]], prefix: str, has_scores: bool):
    """Items from an edited table's rows, or the problems that keep us on the last valid list."""
    items, problems = [], []
    for n, (item_id, row) in enumerate(rows, start=1):
        label = _cell(row.get("Item")) or f"{prefix}{n}"
        text = _cell(row.get("Grade"))
        grade = finite_number(text)
        if grade is None:
            shown = f"'{md_escape(text)}'" if text else _("empty")
            problems.append(
                _(
                    "Row {n} ({label}): the grade is {shown}; expected a finite number such as 2 or 0.5."
                ).format(n=n, label=md_escape(label), shown=shown)
            )
            continue
        score_text = _cell(row.get("Score")) if has_scores else ""
        score = finite_number(score_text) if score_text else None
        if score_text and score is None:
            problems.append(
                _(
                    "Row {n} ({label}): the score is '{score}'; expected a finite number, or leave it empty."
                ).format(n=n, label=md_escape(label), score=md_escape(score_text))
            )
            continue
        items.append(Item(int(item_id), label, grade, score))
    scored = [i.score is not None for i in items]
    if not problems and any(scored) and not all(scored):
        missing = ", ".join(str(n) for n, has in enumerate(scored, start=1) if not has)
        problems.append(
            _("Scores: row {rows} has no score; give every item a score, or clear them all.").format(
                rows=missing
            )
        )
    return tuple(items), problems


def _table_key(kind: str, items: tuple[Item, ...], with_scores: bool) -> str:
    """The widget key of the current item table of ``kind``; (re)builds its starting rows when due.

    The rows stay in the order the items were entered (by id), whatever the ranking: reordering
    the list leaves the table as it is, so a drag neither redraws it nor drops what is being
    typed. A new version (a list loaded or typed elsewhere) starts a new table.
    """
    ss = st.session_state
    version = ss.get(keys.table_version(kind), 0)
    key = keys.table(kind, version)
    # Rebuild the table's starting point when its version changed, or when Streamlit dropped the
    # editor's pending edits (it forgets widgets that were not drawn, e.g. on another page).
    if ss.get(keys.table_base_version(kind)) != version or key not in ss:
        entered = sorted(items, key=lambda i: i.id)
        ss[keys.table_base(kind)] = _items_frame(entered, with_scores)
        ss[keys.table_base_ids(kind)] = [i.id for i in entered]
        ss[keys.table_base_version(kind)] = version
    return key


def read_items_table(kind: str, items: tuple[Item, ...], prefix: str, *, with_scores: bool = False):
    """What the item table of ``kind`` holds now, as (items, problems); it may be drawn later in the run.

    The items come back in the order given, rows added in the table at the end. Bad rows leave
    the caller on its last valid list, while what was typed stays in the table.
    """
    ss = st.session_state
    key = _table_key(kind, items, with_scores)
    delta = ss.get(key) or {}
    if not any(delta.get(change) for change in ("edited_rows", "added_rows", "deleted_rows")):
        return items, []  # nothing typed since the table was drawn from the list
    rows = _table_rows(kind, key, delta, items)
    read, problems = _read_editor(rows, prefix, with_scores)
    rank = {item.id: n for n, item in enumerate(items)}
    return tuple(sorted(read, key=lambda i: rank.get(i.id, len(rank)))), problems  # stable: new rows last


def items_table(kind: str, items: tuple[Item, ...], *, with_scores: bool = False) -> None:
    """Draw the label/grade (and optional score) table editor of ``kind`` (read it with read_items_table).

    ``with_scores``: the table of a ranking, with a Score column and a note on its row order.
    """
    ss = st.session_state
    key = _table_key(kind, items, with_scores)
    if with_scores and all_scored(items):  # the table of a ranking: say why its rows do not follow it
        st.caption(_("Rows keep the order the items were entered in; the scores set the ranking."))
    elif with_scores:
        st.caption(
            _("Rows keep the order the items were entered in; dragging changes the ranking, not this table.")
        )
    config = {
        "Item": st.column_config.TextColumn(_("Item"), help=_("Any name; shown as plain text")),
        "Grade": st.column_config.TextColumn(_("Grade"), help=_("Relevance grade: any finite number")),
        "Score": st.column_config.TextColumn(
            _("Score"),
            help=_("Optional model score; when every item has one, the ranking follows the scores"),
        ),
    }
    st.data_editor(
        ss[keys.table_base(kind)], key=key, num_rows="dynamic", hide_index=True, column_config=config
    )


def items_editor(kind: str, items: tuple[Item, ...], prefix: str, *, with_scores: bool = False):
    """Draw the item table of ``kind`` and return what it holds (see items_table, read_items_table)."""
    items_table(kind, items, with_scores=with_scores)
    return read_items_table(kind, items, prefix, with_scores=with_scores)

"""Session plumbing shared by the pages: one state, read from and written to the URL.

The playground's state lives in ``st.session_state``: the ranking and the
judged pool under ``pg_items`` / ``pg_pool`` (tuples of ``Item``). Formula
choices live in two scopes (:data:`PLAYGROUND` and :data:`DATASETS`), each
settled once per run into one resolved ``Spec`` kept in non-widget state
(``pg_spec``, ``ds_spec``): the last valid one when a control holds a bad
entry, and the source the controls are redrawn from after Streamlit cleaned
up their widget state on another page. Everything else is computed from it
by ``ndcg_core``.

Which settings are shared: the Playground and Explore (and every page that
works on the playground's list) share the playground formula, drawn in their
sidebar; the Data sets page has its own (default: trec_eval's NDCG@10), so a
data set's numbers do not change with the worked example on the playground.
"""

from __future__ import annotations

import contextlib
import gc
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit_sortables import sort_items

from ndcg_core import PRESETS, SCHEMA, Spec, Variant, resolve
from ndcg_core.dataset import DATASET_BASE, TIE_RULES
from ndcg_core.errors import error_text
from ndcg_core.i18n import LANGUAGES, N_, _, language, language_of, use_language_source
from ndcg_core.teaching.export import (
    figure_image,
    formulas_latex,
    table_csv,
    table_html,
    table_latex,
    table_markdown,
)
from ndcg_core.teaching.figures import HEIGHT as FIGURE_HEIGHT
from ndcg_core.teaching.formula import number
from ndcg_core.teaching.history import History
from ndcg_core.teaching.lesson import COLUMN_HELP
from ndcg_core.teaching.playground import (
    UI_PARAMS,
    Item,
    PlaygroundState,
    all_scored,
    from_query_params,
    share_params,
    state_from_file,
    state_to_file,
)
from ndcg_core.teaching.rendering import warm
from ndcg_core.variants import LOG_BASES as SCHEMA_BASES
from ndcg_core.variants import format_base, format_number, parse_gain_table

DRAG_LIMIT = 1000
#: The drag list's greatest height: a longer list scrolls inside it.
DRAG_LIST_MAX_PX = 330
SORTABLE_STYLE = f"""
.sortable-component {{
  background-color: transparent; padding: 0; max-height: {DRAG_LIST_MAX_PX}px; overflow-y: auto;
}}
.sortable-container {{ background-color: transparent; counter-reset: item; }}
.sortable-item, .sortable-item:hover {{
  background-color: #eef2ff; color: #1e293b; border: 1px solid #c7d2fe;
  font-size: 1rem; height: auto; min-height: 2rem; padding: 0.2rem 0.6rem; margin: 0.15rem 0;
  justify-content: flex-start;
}}
"""


def drag_list_px(n: int) -> int:
    """The drag list's height for ``n`` one-line items, in px, as streamlit-sortables draws
    SORTABLE_STYLE in Chromium (measured): 26 px of padding, 32.375 px per item and 2.4 px between
    and around the items; at least 68 px, at most :data:`DRAG_LIST_MAX_PX`."""
    return min(DRAG_LIST_MAX_PX, max(68, round(26 + 32.375 * n + 2.4 * (n + 1))))


#: Lists of this many items or more are drawn at the greatest height.
DRAG_ROWS = next(n for n in range(1, DRAG_LIMIT) if drag_list_px(n) == DRAG_LIST_MAX_PX)
#: The drag list's height, reserved before its script has loaded and told the page how tall it is:
#: until then its iframe is not displayed, on a page's first draw and after every one-click order
#: (which draws a new list). Without it the buttons under the list jumped by its height, and a
#: click aimed at one of them could land on whatever had just moved under the pointer. The
#: reservation is on the container around the list, keyed by its number of items (see
#: :func:`drag_list`); the iframe sits at the top of its line, so the container is exactly its height.
DRAG_LIST_CSS = '[class*="st-key-drag_rows_"] iframe { vertical-align: top; }\n' + "".join(
    f".st-key-drag_rows_{n} {{ min-height: {drag_list_px(n)}px; }}\n" for n in range(1, DRAG_ROWS + 1)
)
NAMED_BASES = {format_base(b): b for b in SCHEMA_BASES}  # the schema's named bases, as shown
OPTIONS = {o.name: o for o in SCHEMA}

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~:&])")  # characters that can start markup


def md_escape(text: str) -> str:
    """User text for any Streamlit message, label or metric: shown literally, never as markup.

    The one helper for it. Streamlit renders labels and messages as Markdown with extras:
    links, images, HTML, ``$...$`` LaTeX, ``:emoji:`` shortcodes, ``:material/icon:`` and
    ``:color[...]`` directives. A backslash before each character that can start markup stops the
    Markdown, HTML and LaTeX; the emoji and directive plugins work on the parsed text (where the
    backslashes are gone), so an invisible word joiner (U+2060) after each colon stops them too.
    """
    return _MD_SPECIAL.sub(r"\\\1", str(text)).replace(":", ":\u2060")


@st.cache_resource(show_spinner=False)
def warm_process() -> bool:
    """Once per server process, at the end of its first page: what every session needs, ready.

    Builds the playground's default charts and formulas once (a no-op when ``scripts/serve.py``
    already did), then runs the garbage collector's full pass and freezes what survives (the
    imported modules: millions of objects). Without it, that first full pass (about 0.1 s) fell on some
    session's first drag.
    """
    warm()
    gc.collect()
    gc.freeze()
    return True


#: Non-widget state: a plotly chart was sent to this session's browser, so its plotly bundle is loaded.
CHART_SENT = "_chart_sent"
#: A component with no markup: once the browser has painted the page it arrived with, it asks the
#: server for a rerun (a trigger value), which draws the chart its placeholder stands for.
_PAINTED = st.components.v2.component(
    "ndcg_painted",
    js="""
export default function ({ setTriggerValue }) {
  requestAnimationFrame(() => setTimeout(() => setTriggerValue("painted", true), 0));
}
""",
)


def chart(figure, *, key: str) -> None:
    """``st.plotly_chart(figure)``, but never on a session's first screen.

    The browser loads plotly (about 4.7 MB of script) the first time a page shows a chart, and
    the elements that arrived with that chart were mostly drawn only once plotly was ready: on the
    playground the metric and the drag list appeared about a second later than without the chart,
    which sits two screens below them. So the first chart of a session is a placeholder of the
    chart's height; once the browser has painted the page it asks for a rerun (of the fragment the
    chart is in, or of the page), which draws the chart. Without that request (no script), the
    chart comes with the next rerun, whatever causes it.
    """
    ss = st.session_state
    if ss.get(CHART_SENT):
        st.plotly_chart(figure, key=key)
        return
    ss[CHART_SENT] = True  # the next run draws the chart, whatever asks for it
    # Every figure is FIGURE_HEIGHT tall. The key's prefix is what assets/style.css styles.
    with st.container(height=FIGURE_HEIGHT, border=False, key=f"pending_chart_{key}"):
        st.caption(_("Drawing the chart…"))
        _PAINTED(key=f"{key}_painted", on_painted_change=lambda: None)


def count_run() -> None:
    """Number this script run (app.py calls it first): see :func:`drawn_last_run`."""
    st.session_state["_run"] = st.session_state.get("_run", 0) + 1


def drawn_last_run(tag: str) -> bool:
    """Whether the widgets tagged ``tag`` were drawn in the previous run; marks them drawn now.

    When they were not (another page ran), Streamlit has dropped their widget state, or
    left a stale value behind: the caller redraws them from its non-widget copy.
    """
    ss = st.session_state
    last = ss.get(f"_drawn_{tag}")
    ss[f"_drawn_{tag}"] = ss.get("_run", 0)
    return last is not None and last == ss.get("_run", 0) - 1


@contextlib.contextmanager
def keep_widgets(tag: str, keys: list[str]):
    """Keep these widgets' values across page changes (Streamlit drops a page's widget state).

    Each value is copied to non-widget state (``_kept_<key>``) after the page ran, and put
    back when the page is drawn again after another page, as Streamlit's multipage
    documentation advises.
    """
    ss = st.session_state
    if not drawn_last_run(tag):
        for key in keys:
            if f"_kept_{key}" in ss:
                ss[key] = ss[f"_kept_{key}"]
    try:
        yield
    finally:
        for key in keys:
            if key in ss:
                ss[f"_kept_{key}"] = ss[key]


def bump(name: str) -> None:
    """Change a component's key so it redraws from the state (sortables, editors)."""
    st.session_state[name] = st.session_state.get(name, 0) + 1


def load_state(state: PlaygroundState, example: str | None = None) -> None:
    """Put a whole state in place: items, pool and the playground's formula."""
    ss = st.session_state
    ss.pg_items = state.items
    ss.pg_pool = state.pool
    ss.pg_example = example
    ss.pop("pg_move_id", None)
    load_spec(PLAYGROUND, state.spec)
    for name in ("pg_sort_version", "pg_editor_version", "pg_pool_version"):
        bump(name)


def next_id() -> int:
    """An item id not used by the playground's items or pool."""
    ss = st.session_state
    return PlaygroundState(items=ss.pg_items, pool=ss.pg_pool).next_id()


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


def _finite(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _added_ids(kind: str, key: str, count: int, known: tuple[Item, ...]) -> list[int]:
    """Item ids of the ``count`` rows added so far in the table ``key`` (of ``kind``).

    Kept across runs: a row added once stays the same item (the same id) while the table lives,
    so the ranking keeps the place a drag or a one-click order gave it. New ids lie above every
    id in use (the playground's, ``known``'s, and those handed to added rows before).
    """
    ss = st.session_state
    store = f"pg_{kind}_added_ids"
    kept_key, ids = ss.get(store, (None, []))
    if kept_key != key:
        ids = []
    if len(ids) < count:  # never an id handed out before, even to a row still being fixed
        start = max([next_id(), ss.get("_pg_added_id_floor", 0), *(i.id + 1 for i in known)])
        ids = ids + list(range(start, start + count - len(ids)))
        ss["_pg_added_id_floor"] = ids[-1] + 1
    ss[store] = (key, ids)
    return ids[:count]


def _table_rows(kind: str, key: str, delta: dict, known: tuple[Item, ...]):
    """(item id, cells) of each row of the edited table ``key`` (of ``kind``), top to bottom.

    ``delta`` is the editor's state as Streamlit documents it: ``edited_rows`` (row position in
    the table's starting rows -> changed cells), ``deleted_rows`` (positions there),
    ``added_rows`` (cells of each new row, appended).
    """
    ss = st.session_state
    base_key = _base_key(kind)
    base, base_ids = ss[base_key], ss[f"{base_key}_ids"]
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
        grade = _finite(text)
        if grade is None:
            shown = f"'{md_escape(text)}'" if text else _("empty")
            problems.append(
                _(
                    "Row {n} ({label}): the grade is {shown}; expected a finite number such as 2 or 0.5."
                ).format(n=n, label=md_escape(label), shown=shown)
            )
            continue
        score_text = _cell(row.get("Score")) if has_scores else ""
        score = _finite(score_text) if score_text else None
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


def _base_key(kind: str) -> str:
    """Where the item table of ``kind`` keeps its starting rows (non-widget state); their item ids
    are under the same key plus ``_ids``, the table version they were built for plus ``_version``."""
    return f"pg_{kind}_base"


def _table_key(kind: str, items: tuple[Item, ...], with_scores: bool) -> str:
    """The widget key of the current item table of ``kind``; (re)builds its starting rows when due.

    The rows stay in the order the items were entered (by id), whatever the ranking: reordering
    the list leaves the table as it is, so a drag neither redraws it nor drops what is being
    typed. A new version (a list loaded or typed elsewhere) starts a new table.
    """
    ss = st.session_state
    version = ss.get(f"pg_{kind}_version", 0)
    base_key = _base_key(kind)
    key = f"{kind}_{version}"
    # Rebuild the table's starting point when its version changed, or when Streamlit dropped the
    # editor's pending edits (it forgets widgets that were not drawn, e.g. on another page).
    if ss.get(f"{base_key}_version") != version or key not in ss:
        entered = sorted(items, key=lambda i: i.id)
        ss[base_key] = _items_frame(entered, with_scores)
        ss[f"{base_key}_ids"] = [i.id for i in entered]
        ss[f"{base_key}_version"] = version
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
    st.data_editor(ss[_base_key(kind)], key=key, num_rows="dynamic", hide_index=True, column_config=config)


def items_editor(kind: str, items: tuple[Item, ...], prefix: str, *, with_scores: bool = False):
    """Draw the item table of ``kind`` and return what it holds (see items_table, read_items_table)."""
    items_table(kind, items, with_scores=with_scores)
    return read_items_table(kind, items, prefix, with_scores=with_scores)


def _drag_texts(items: tuple[Item, ...]) -> dict[str, Item]:
    """The drag list's lines (label · grade), each with its item, in the order of ``items``.

    Items alike in label and grade are numbered in the order they were entered ("A · 3 (2)"),
    not by position, so a line names the same item before and after a drag.
    """
    seen: dict[str, int] = {}
    texts = {}
    for item in sorted(items, key=lambda i: i.id):
        text = f"{item.label}  ·  {item.grade:g}"
        seen[text] = seen.get(text, 0) + 1
        texts[item.id] = text if seen[text] == 1 else f"{text} ({seen[text]})"
    return {texts[item.id]: item for item in items}


def _sort_key() -> str:
    """The drag list's widget key (a new list, and key, whenever the items are set anew)."""
    return f"sort_{st.session_state.get('pg_sort_version', 0)}"


def _new_order(shown: dict[str, Item], lines: list[str]) -> tuple[Item, ...] | None:
    """The items in the order of the drag list's ``lines``, or None if that is no new order of them."""
    if lines and lines != list(shown) and sorted(lines) == sorted(shown):
        return tuple(shown[t] for t in lines)
    return None


def dragged(items: tuple[Item, ...]) -> tuple[Item, ...] | None:
    """The order the drag list reported since it was drawn (before it is drawn again), or None."""
    value = st.session_state.get(_sort_key())
    try:  # the component's value: its containers, each {"header": ..., "items": [line, ...]}
        lines = list(value[0]["items"])
    except (TypeError, KeyError, IndexError):
        return None
    return _new_order(_drag_texts(items), lines)


def drag_list(items: tuple[Item, ...]) -> None:
    """The drag-to-reorder list of the shared items (Playground and Learn draw the same one).

    A drop is adopted here unless the caller adopted it first (see :func:`dragged`).
    """
    ss = st.session_state
    shown = _drag_texts(items)
    if len(items) > DRAG_LIMIT:
        st.info(
            _("Dragging is offered up to {limit} items; use move up/down or the one-click orders.").format(
                limit=DRAG_LIMIT
            )
        )
        return
    st.caption(_("Drag an item to a new position."))
    with st.container(key=f"drag_rows_{min(len(items), DRAG_ROWS)}"):  # its height (DRAG_LIST_CSS)
        lines = sort_items(list(shown), direction="vertical", custom_style=SORTABLE_STYLE, key=_sort_key())
    if (order := _new_order(shown, lines)) is not None:
        ss.pg_items = order  # the item table keeps its rows (entry order)


# ------------------------------------------------------------------ formula scopes


@dataclass(frozen=True)
class FormulaScope:
    """One set of formula controls: its widget keys, where its Spec is kept, what it offers."""

    prefix: str  # prefix of the widget keys ("" for the playground's, kept short for share links)
    store: str  # the session key of the settled Spec (non-widget state: survives page changes)
    title: str
    note: str  # which pages share it
    ties: tuple[str, ...]  # tie rules offered
    presets: tuple[str, ...]  # library presets offered in "Score as"
    k_up_to_list: bool  # k is capped at the playground list's length

    def key(self, name: str) -> str:
        return f"{self.prefix}{name}"


PLAYGROUND = FormulaScope(
    prefix="",
    store="pg_spec",
    title=N_("Formula"),
    note=N_("Shared by the Playground and Explore."),
    ties=tuple(OPTIONS["ties"].choices),
    presets=tuple(PRESETS),
    k_up_to_list=True,
)
DATASETS = FormulaScope(
    prefix="ds_",
    store="ds_spec",
    title=N_("Data-set formula"),
    note=N_("This page only (default: trec_eval's NDCG@10)."),
    ties=tuple(TIE_RULES),
    presets=tuple(name for name, p in PRESETS.items() if p.variant.ties in TIE_RULES),
    k_up_to_list=False,
)
#: The data-set page's formula before anyone touches it: log2(i + 1), linear gain, trec_eval's ties, k = 10.
DATASET_DEFAULT = DATASET_BASE.with_k(10)
#: The "Score as" choice that means no library: the formula the controls describe. (Not None:
#: a select box shows None as an empty "Choose an option".)
FORMULA_BELOW = ""
_CONTROLS = (
    "k_all",
    "k",
    "gain",
    "gain_table",
    "discount",
    "base",
    "base_custom",
    "zero_idcg",
    "ties",
    "preset",
)


def load_spec(scope: FormulaScope, spec: Spec, n: int | None = None, *, with_preset: bool = True) -> None:
    """Keep ``spec`` as the scope's formula and set every control of the scope to it.

    ``with_preset=False`` leaves the "Score as" box alone (it is already drawn).
    """
    ss = st.session_state
    ss[scope.store] = spec
    v = spec.variant
    n = len(ss.get("pg_items", ())) if n is None else n
    if with_preset:
        ss[scope.key("preset")] = spec.preset or FORMULA_BELOW
    ss[scope.key("k_all")] = v.k is None
    ss[scope.key("k")] = v.k if v.k is not None else max(n, 1)
    if v.gain_table is not None:
        ss[scope.key("gain")] = "custom"
        ss[scope.key("gain_table")] = OPTIONS["gain"].to_url(v.gain).replace(",", ", ")
    else:
        ss[scope.key("gain")] = v.gain
    named = next((name for name, b in NAMED_BASES.items() if b == v.log_base), None)
    ss[scope.key("base")] = named or "custom"
    ss[scope.key("base_custom")] = v.log_base
    ss[scope.key("discount")] = v.discount
    ss[scope.key("zero_idcg")] = v.zero_idcg
    ss[scope.key("ties")] = v.ties


def _restore_controls(scope: FormulaScope) -> None:
    """Redraw the controls from the kept Spec when another page ran (their widget state is gone)."""
    ss = st.session_state
    if not drawn_last_run(scope.store) or any(scope.key(name) not in ss for name in _CONTROLS):
        table = ss.get(scope.key("gain_table"))
        load_spec(scope, ss[scope.store])
        if table is not None and ss[scope.key("gain")] != "custom":
            ss[scope.key("gain_table")] = table  # what was typed last stays, even when unused
    ss.setdefault(scope.key("gain_table"), "0:0, 1:1, 2:3, 3:7")


def init_session() -> None:
    """On a session's first run, take the state from the share link (or the default)."""
    ss = st.session_state
    if ss.get("pg_ready"):
        _adopt_url()
        return
    params = state_params(st.query_params.to_dict())
    state, warnings = from_query_params(params)
    load_state(state)
    load_spec(DATASETS, DATASET_DEFAULT)
    ss.pg_url_warnings = warnings
    ss.pg_messages = []
    ss.pg_url = params
    ss.pg_ready = True


def spec_from_controls(scope: FormulaScope) -> tuple[Spec, list[str]]:
    """The spec the scope's controls describe; a bad entry keeps the last good spec's value."""
    ss = st.session_state
    errors: list[str] = []
    last: Spec = ss[scope.store]
    k = None if ss[scope.key("k_all")] else int(ss[scope.key("k")])
    preset = ss[scope.key("preset")] or None
    if preset is not None:
        spec = resolve(preset, k=k)
        ss[scope.store] = spec
        return spec, errors
    gain = ss[scope.key("gain")]
    if gain == "custom":
        grades = {i.grade for i in ss.pg_items + ss.pg_pool} if scope is PLAYGROUND else set()
        try:
            gain = parse_gain_table(ss[scope.key("gain_table")])
            missing = sorted(grades - set(gain))
            if missing:
                raise ValueError(
                    f"grade {format_number(missing[0])} has no gain in the table; add an entry such as "
                    f"{format_number(missing[0])}:1"
                )
        except ValueError as err:
            gain = last.variant.gain_table or last.variant.gain
            if isinstance(gain, dict) and not grades <= set(gain):
                gain = "linear"  # the previous table does not cover the grades either
            problem = md_escape(error_text(err))
            errors.append(
                _("Gain table: {problem}. Using linear gain.").format(problem=problem)
                if gain == "linear"
                else _("Gain table: {problem}. Using the previous gain.").format(problem=problem)
            )
    base = NAMED_BASES.get(ss[scope.key("base")], ss[scope.key("base_custom")])

    def variant_with(log_base: float) -> Variant:
        return Variant(
            k=k,
            gain=gain,
            discount=ss[scope.key("discount")],
            log_base=log_base,
            zero_idcg=ss[scope.key("zero_idcg")],
            ties=ss[scope.key("ties")],
        )

    try:
        variant = variant_with(base)
    except ValueError as err:
        kept = format_base(last.variant.log_base)
        errors.append(
            _("Log base: {problem}. Still using base {base}.").format(
                problem=md_escape(error_text(err)), base=kept
            )
        )
        variant = variant_with(last.variant.log_base)
    spec = Spec(variant)
    ss[scope.store] = spec
    return spec, errors


def current_state() -> PlaygroundState:
    """The shared state: items and pool, and the spec the playground's controls settled on this run."""
    ss = st.session_state
    return PlaygroundState(items=ss.pg_items, pool=ss.pg_pool, spec=ss.pg_spec)


PAGE_PARAMS = ("step", "present")  # share-link parameters of one page (Learn), not of the shared state


def state_params(params: dict[str, str]) -> dict[str, str]:
    """The shared state's share-link parameters (a page's own, such as ``step``, and ``lang`` left out)."""
    return {key: value for key, value in params.items() if key not in PAGE_PARAMS + UI_PARAMS}


def _adopt_url() -> None:
    """Follow the address bar when it changed from outside (the browser's Back and Forward).

    ``pg_url`` holds the state parameters this session last wrote (or read). A URL that carries
    a list (or a compact state) and differs from them was not written by the app: it is history
    navigation, so the state follows the URL instead of rewriting it (which made Back fight the
    app). A URL with no list (a page switch drops the parameters) changes nothing.
    """
    ss = st.session_state
    params = state_params(st.query_params.to_dict())
    if not ({"rel", "state"} & set(params)) or params == ss.get("pg_url"):
        return
    state, warnings = from_query_params(params)
    load_state(state)
    ss.pg_url_warnings = warnings
    ss.pg_url = params


def sync_url(state: PlaygroundState, page_params: dict[str, str] | None = None) -> bool:
    """Write the state (and a page's own parameters) into the address bar, only when it changed.

    Every write adds a browser history entry, so unchanged state is never rewritten. Every URL
    stays under ``MAX_URL`` characters: a long state goes into one compact ``state`` parameter;
    when even that is too long, the address bar is cleared (a stale link would share another
    state) and this returns False: the page then offers the state as a file.
    """
    ss = st.session_state
    params = share_params(state)
    if params is None:
        if st.query_params.to_dict():
            st.query_params.clear()
        ss.pg_url = {}
        return False
    full = {**params, **(page_params or {}), **ui_params()}
    if st.query_params.to_dict() != full:
        st.query_params.from_dict(full)
    ss.pg_url = params
    return True


def _load_state_file() -> None:
    ss = st.session_state
    upload = ss.get("pg_state_file")
    if upload is None:
        return
    try:
        params = state_from_file(upload.getvalue())
    except ValueError as err:
        ss.pg_messages = [
            _("State file: {problem}. Your list is unchanged.").format(problem=md_escape(error_text(err)))
        ]
        return
    state, warnings = from_query_params(params)
    load_state(state)
    ss.pg_url_warnings = warnings
    ss.pg_messages = []


def state_file_controls(key: str = "pg_state_download", with_loader: bool = True) -> None:
    """Download the playground's state as a file, and (``with_loader``) load such a file back."""
    st.download_button(
        _("Download this state"),
        data=lambda: state_to_file(current_state()),  # built only when clicked
        file_name="ndcg-playground-state.json",
        mime="application/json",
        key=key,
        on_click="ignore",
        width="stretch",
    )
    if with_loader:
        st.file_uploader(
            _("Load a saved state"), type=["json"], key="pg_state_file", on_change=_load_state_file
        )


# ------------------------------------------------------------------ undo / redo


def _snapshot() -> tuple:
    ss = st.session_state
    return (ss.pg_items, ss.pg_pool)


def record_history() -> None:
    """Note the list after this run's changes (call once per run, after the list may have changed)."""
    ss = st.session_state
    history = ss.get("pg_history")
    ss.pg_history = History.start(_snapshot()) if history is None else history.record(_snapshot())


def _restore(which: str) -> None:
    ss = st.session_state
    history = ss.get("pg_history") or History.start(_snapshot())
    history, (items, pool) = history.undo() if which == "undo" else history.redo()
    ss.pg_history = history
    ss.pg_items, ss.pg_pool = items, pool
    ss.pg_messages = []
    for name in ("pg_sort_version", "pg_editor_version", "pg_pool_version"):
        bump(name)


def history_buttons(prefix: str, *, inline: bool = False) -> None:
    """Undo and Redo buttons for list changes (drags, edits, loaded examples).

    They share a row (a horizontal container, so they stay side by side on a phone); ``inline``
    draws them in the caller's horizontal container instead, after its own buttons.
    """
    record_history()  # a change made earlier in this run (a drag) enables Undo right away
    history = st.session_state.get("pg_history")
    buttons = (
        ("undo", _("Undo"), ":material/undo:", history is not None and history.can_undo,
         _("Undo the last change to the list")),
        ("redo", _("Redo"), ":material/redo:", history is not None and history.can_redo,
         _("Redo the change you undid")),
    )  # fmt: skip
    with contextlib.nullcontext() if inline else st.container(horizontal=True, gap="small"):
        for which, label, icon, possible, explained in buttons:
            st.button(
                label,
                key=f"{prefix}_{which}",
                icon=icon,
                on_click=_restore,
                args=(which,),
                disabled=not possible,
                help=explained,
                width="content" if inline else "stretch",
            )


# ------------------------------------------------------------------ step tables and exports


#: Step-table columns computed by the app: shown at a fixed precision.
NUMBER_COLUMNS = ["Gain", "Divisor", "Discounted gain", "Cumulative DCG"]
#: Typed by a person: shown exactly as entered.
EXACT_COLUMNS = ["Grade", "Score"]
#: Up to this many rows a step table is HTML with rows beyond k in grey; longer ones go to the grid.
STYLE_LIMIT = 150
HEADERS = {"Position": N_("Pos."), "Tie group": N_("Tie")}  # short headers (the rest: the column names)


def _exact(x: float) -> str:
    return "" if x != x else format_number(x)  # NaN: no score


CELL_FORMATS = {c: number for c in NUMBER_COLUMNS} | dict.fromkeys(EXACT_COLUMNS, _exact)


def table_box(table: str) -> None:
    """An HTML table (from :func:`ndcg_core.teaching.export.table_html`) in the box the page's CSS styles:
    it scrolls past 420 px, and on a phone its headers wrap."""
    st.html(f'<div class="step-table-wrap">{table}</div>')


def step_table(title: str, steps: pd.DataFrame, key: str, columns: list[str]) -> None:
    """A step table (``columns`` of ``steps``) under ``title`` (Markdown: escape user text), rows
    beyond k in grey, every header explaining itself on hover. The playground and Explore draw it.

    Up to STYLE_LIMIT rows it is a plain HTML table built in one pass (a styled grid costs
    tens of milliseconds per rerun on the server and more in the browser), whose headers wrap on
    a phone; longer tables go to Streamlit's grid, which scrolls them, with a ✓ on the top k rows
    instead of grey.
    """
    # A keyed container gives browser tests a stable handle (.st-key-<key>).
    with st.container(key=key):
        beyond = steps["Beyond k"].tolist()
        if len(steps) <= STYLE_LIMIT:
            st.markdown(_("**{title}** (rows beyond k in grey)").format(title=title))
            table = table_html(
                steps,
                columns=columns,
                beyond=beyond,
                formats=CELL_FORMATS,
                labels={c: _(HEADERS.get(c, c)) for c in columns},
                titles={c: _(COLUMN_HELP[c]) for c in columns if c in COLUMN_HELP},
            )
            table_box(table)
            return
        st.markdown(_("**{title}** (✓ marks the top k rows)").format(title=title))
        height = min(38 + 35 * max(len(steps), 1), 420)
        # Every column explains itself on hover, from the one table in ndcg_core.teaching.lesson.
        config = column_help_config(columns)
        config["Position"] = st.column_config.Column(
            _("Pos."), width="small", help=_(COLUMN_HELP["Position"])
        )
        config["Tie group"] = st.column_config.Column(_("Tie"), width=40, help=_(COLUMN_HELP["Tie group"]))
        config.update(
            {
                c: st.column_config.NumberColumn(_(c), format="%.3f", help=_(COLUMN_HELP[c]))
                for c in NUMBER_COLUMNS
            }
        )
        config["Grade"] = st.column_config.NumberColumn(_("Grade"), format="%g", help=_(COLUMN_HELP["Grade"]))
        marks = [f"{p}" if b else f"{p} ✓" for p, b in zip(steps["Position"], beyond, strict=True)]
        st.dataframe(
            steps[columns].assign(Position=marks), hide_index=True, height=height, column_config=config
        )


def column_help_config(columns) -> dict:
    """Column configs carrying the one-line explanation of each step-table column (hover)."""
    return {c: st.column_config.Column(_(c), help=_(COLUMN_HELP[c])) for c in columns if c in COLUMN_HELP}


def export_buttons(prefix: str, frame: pd.DataFrame, formulas, figure, name: str) -> None:
    """One-click downloads for slides: the table (CSV, Markdown, LaTeX), formulas, chart (PNG, SVG)."""
    files = [
        ("csv", _("Table CSV"), "csv", "text/csv", lambda: table_csv(frame)),
        ("md", _("Table Markdown"), "md", "text/markdown", lambda: table_markdown(frame)),
        ("tex", _("Table LaTeX"), "tex", "application/x-tex", lambda: table_latex(frame)),
        ("formula", _("Formula LaTeX"), "formula.tex", "application/x-tex", lambda: formulas_latex(formulas)),
        ("png", _("Chart PNG"), "png", "image/png", lambda: figure_image(figure, "png")),
        ("svg", _("Chart SVG"), "svg", "image/svg+xml", lambda: figure_image(figure, "svg")),
    ]
    cols = st.columns(3)
    for n, (key, label, ext, mime, build) in enumerate(files):
        cols[n % 3].download_button(
            label,
            data=build,
            file_name=f"{name}.{ext}",
            mime=mime,
            key=f"{prefix}_export_{key}",
            on_click="ignore",
            width="stretch",
        )


def formula_name(spec: Spec) -> None:
    """The active formula's canonical name, at the top of a page."""
    st.caption(
        _("Formula: `{name}`").format(name=spec.name),
        help=_("The formula in ndcg_core's notation (see the sidebar)."),
    )


def _choice(scope: FormulaScope, name: str, widget, choices, disabled: bool, **kwargs) -> None:
    option = OPTIONS[name]
    widget(
        _(option.label),
        list(choices),
        key=scope.key(name),
        help=_(option.help),
        format_func=lambda c: _(option.label_of(c)),
        disabled=disabled,
        **kwargs,
    )


def formula_controls(scope: FormulaScope = PLAYGROUND) -> Spec:
    """The scope's formula controls, generated from the variant schema; returns the settled Spec."""
    ss = st.session_state
    _restore_controls(scope)
    st.subheader(_(scope.title))
    st.caption(_(scope.note))
    st.selectbox(
        _("Score as"),
        [FORMULA_BELOW, *scope.presets],
        key=scope.key("preset"),
        format_func=lambda p: _("the formula below") if p == FORMULA_BELOW else f"{p}: {PRESETS[p].library}",
        help=_(
            "A library's NDCG: its formula and its rules on grades, ideal and ties. "
            "The controls below then show its choices."
        ),
    )
    preset = ss[scope.key("preset")] or None
    fixed = preset is not None
    if fixed:  # show the library's own choices
        k = None if ss[scope.key("k_all")] else int(ss[scope.key("k")])
        load_spec(scope, resolve(preset, k=k), with_preset=False)
    k_opt = OPTIONS["k"]
    whole = _("Whole list (k = n)") if scope.k_up_to_list else _("No cutoff (every document)")
    st.toggle(whole, key=scope.key("k_all"), help=_(k_opt.help))
    n_max = len(ss.pg_items) + len(ss.pg_pool) if scope.k_up_to_list else None
    st.number_input(
        _(k_opt.label),
        min_value=1,
        max_value=None if n_max is None else max(n_max, int(ss[scope.key("k")]), 1),
        step=1,
        key=scope.key("k"),
        disabled=ss[scope.key("k_all")],
        help=_(k_opt.help),
    )
    gain = OPTIONS["gain"]
    st.radio(
        _(gain.label),
        [*gain.choices, "custom"],
        key=scope.key("gain"),
        horizontal=True,
        help=_(gain.help),
        disabled=fixed,
        format_func=lambda c: _("custom table") if c == "custom" else _(gain.label_of(c)),
    )
    if ss[scope.key("gain")] == "custom":
        st.text_input(
            _("Gain table (grade:gain, ...)"),
            key=scope.key("gain_table"),
            help=_("e.g. 0:0, 1:1, 2:3, 3:7"),
            disabled=fixed,
        )
    else:
        st.caption(_(gain.choices[ss[scope.key("gain")]]))
    _choice(scope, "discount", st.radio, OPTIONS["discount"].choices, fixed, horizontal=True)
    st.caption(_(OPTIONS["discount"].choices[ss[scope.key("discount")]]))
    base = OPTIONS["log_base"]
    st.radio(
        _(base.label),
        [*NAMED_BASES, "custom"],
        key=scope.key("base"),
        horizontal=True,
        help=_(base.help),
        disabled=fixed,
        format_func=lambda b: _("custom") if b == "custom" else b,
    )
    if ss[scope.key("base")] == "custom":
        # No minimum above 1 (it would silently turn 1.00001 into it): a base of 1 or less is
        # refused with a message by spec_from_controls. %.12g shows the base as given.
        st.number_input(_("Custom base (> 1)"), min_value=1.0, key=scope.key("base_custom"), format="%.12g")
    _choice(scope, "zero_idcg", st.selectbox, OPTIONS["zero_idcg"].choices, fixed)
    st.caption(_(OPTIONS["zero_idcg"].choices[ss[scope.key("zero_idcg")]]))
    _choice(scope, "ties", st.selectbox, scope.ties, fixed)
    if scope is DATASETS or all_scored(ss.get("pg_items", ())):
        st.caption(_(OPTIONS["ties"].choices[ss[scope.key("ties")]]))
    else:
        st.caption(_("Only matters when the items carry scores (Edit items, Score column)."))
    spec, errors = spec_from_controls(scope)
    if fixed:
        st.caption(_("The library fixes these choices; pick 'the formula below' to change them."))
    for message in errors:
        st.error(message)
    return spec


# ------------------------------------------------------------------ language

LANG_KEY = "ui_lang"  # non-widget state: the session's language (a code of ndcg_core.i18n.LANGUAGES)


def _session_language() -> str | None:
    """The session's language, inside a script run (full or a fragment's); None outside one.

    Every _() asks (about a hundred times a run), so the answer is kept on the run's context for
    the rest of the run: its ``cursors`` dict is new at every run's start. The language changes
    only through :func:`_set_session_language`, which updates the kept answer.
    """
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:
        return None
    kept = getattr(ctx, "_ndcg_language", None)
    if kept is not None and kept[0] is ctx.cursors:
        return kept[1]
    try:  # the run's session state itself: st.session_state's proxy costs more
        lang = ctx.session_state[LANG_KEY]
    except KeyError:
        lang = None
    ctx._ndcg_language = (ctx.cursors, lang)
    return lang


def _set_session_language(lang: str) -> None:
    """Make ``lang`` the session's language, from this point of the run on."""
    st.session_state[LANG_KEY] = lang
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is not None:
        ctx._ndcg_language = (ctx.cursors, lang)


# Every _() call asks the session, so a fragment's rerun (which skips app.py's top) is translated too.
use_language_source(_session_language)


def browser_language() -> str:
    """The browser's language when the app has it (zh-CN, zh-TW, ... -> zh), else English."""
    try:
        locale = st.context.locale
    except Exception:  # no browser context (AppTest, older Streamlit)
        locale = None
    return language_of(locale) or "en"


def init_language() -> None:
    """Settle the session's language: the link's ``lang`` when it has one, else kept, else the browser's."""
    ss = st.session_state
    wanted = language_of(st.query_params.get("lang"))
    if wanted is not None:
        _set_session_language(wanted)
    elif LANG_KEY not in ss:
        _set_session_language(browser_language())


def ui_params() -> dict[str, str]:
    """The language as a share-link parameter; left out only when the page and browser are English."""
    lang = language()
    return {"lang": lang} if lang != "en" or browser_language() != "en" else {}


def _translated_choices() -> list[str]:
    """Keys of the widgets whose option labels are translated (formula controls, chart, examples)."""
    ss = st.session_state
    keys = [scope.key(name) for scope in (PLAYGROUND, DATASETS) for name in _CONTROLS]
    keys += ["chart", "learn_example", *(k for k in ss if str(k).startswith("learn_choice_"))]
    return [k for k in keys if k in ss]


def _switch_language() -> None:
    ss = st.session_state
    # The browser sends a select box's choice back as its label: after a switch that label is in
    # the other language and no longer names an option. Pin each choice (read now, while the
    # labels still match) as a value the next run draws the widget with.
    kept = {key: ss[key] for key in _translated_choices()}
    _set_session_language(ss["lang_switch"] or ss[LANG_KEY])  # clicking the chosen one again unselects it
    for key, value in kept.items():
        ss[key] = value
    given = st.query_params.to_dict()
    wanted = {k: v for k, v in given.items() if k != "lang"} | ui_params()
    if given != wanted:
        st.query_params.from_dict(wanted)


def language_switch() -> None:
    """The language switch (drawn in the sidebar of every page by app.py)."""
    ss = st.session_state
    ss["lang_switch"] = ss[LANG_KEY]
    st.segmented_control(
        _("Language"),
        list(LANGUAGES),
        key="lang_switch",
        format_func=LANGUAGES.get,
        on_change=_switch_language,
        label_visibility="collapsed",
        help=_("Language of the whole app (also in the share link)"),
    )

"""Session plumbing shared by the pages: one state, read from and written to the URL.

The playground's state lives in ``st.session_state``: the ranking and the
judged pool under ``pg_items`` / ``pg_pool`` (tuples of ``Item``), the
variant in the keyed controls (``k_all``, ``k``, ``gain``, ``gain_table``,
``discount``, ``base``, ``base_custom``, ``zero_idcg``, ``ties``), which the sidebar
settles into one ``Variant`` per run under ``pg_variant`` (the last valid one when a
control holds a bad entry). Everything else is computed from it by ``ndcg_core``.
"""

from __future__ import annotations

import math
import re

import pandas as pd
import streamlit as st

from ndcg_core import SCHEMA, Variant
from ndcg_core.playground import (
    Item,
    PlaygroundState,
    all_scored,
    from_query_params,
    share_params,
    state_from_file,
    state_to_file,
)
from ndcg_core.variants import format_base, parse_gain_table, shortest

NAMED_BASES = {"2": 2.0, "e": math.e, "10": 10.0}
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


def bump(name: str) -> None:
    """Change a component's key so it redraws from the state (sortables, editors)."""
    st.session_state[name] = st.session_state.get(name, 0) + 1


def load_state(state: PlaygroundState, example: str | None = None) -> None:
    """Put a whole state in place: items, pool and every variant control."""
    ss = st.session_state
    ss.pg_items = state.items
    ss.pg_pool = state.pool
    ss.pg_example = example
    load_variant(state.variant, len(state.items))
    for name in ("pg_sort_version", "pg_editor_version", "pg_pool_version"):
        bump(name)


def load_variant(v: Variant, n: int) -> None:
    """Set every formula control to a variant (n: the list length, for k = whole list)."""
    ss = st.session_state
    ss.k_all = v.k is None
    ss.k = v.k if v.k is not None else max(n, 1)
    if v.gain_table is not None:
        ss.gain = "custom"
        ss.gain_table = ", ".join(f"{shortest(g)}:{shortest(x)}" for g, x in v.gain)
    else:
        ss.gain = v.gain
    named = next((name for name, b in NAMED_BASES.items() if b == v.log_base), None)
    ss.base = named or "custom"
    ss.base_custom = v.log_base
    ss.discount = v.discount
    ss.zero_idcg = v.zero_idcg
    ss.ties = v.ties


def next_id() -> int:
    """An item id not used by the playground's items or pool."""
    ss = st.session_state
    return PlaygroundState(items=ss.pg_items, pool=ss.pg_pool).next_id()


def _items_frame(items: tuple[Item, ...], with_scores: bool) -> pd.DataFrame:
    columns = {
        "Item": pd.Series([i.label for i in items], dtype=object),
        "Grade": pd.Series([shortest(i.grade) for i in items], dtype=object),
    }
    if with_scores:
        scores = ["" if i.score is None else shortest(i.score) for i in items]
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


def _read_editor(key: str, base_ids: list[int], edited: pd.DataFrame, prefix: str):
    """Items from an edited table, or the problems that keep us on the last valid list."""
    delta = st.session_state.get(key) or {}
    deleted = set(delta.get("deleted_rows", []))
    ids = [i for pos, i in enumerate(base_ids) if pos not in deleted]
    start = next_id()
    ids += [start + j for j in range(len(edited) - len(ids))]
    has_scores = "Score" in edited.columns
    items, problems = [], []
    for n, (item_id, row) in enumerate(zip(ids, edited.to_dict("records"), strict=True), start=1):
        label = _cell(row["Item"]) or f"{prefix}{n}"
        text = _cell(row["Grade"])
        grade = _finite(text)
        if grade is None:
            shown = f"'{md_escape(text)}'" if text else "empty"
            problems.append(
                f"Row {n} ({md_escape(label)}): the grade is {shown}; "
                "expected a finite number such as 2 or 0.5."
            )
            continue
        score_text = _cell(row["Score"]) if has_scores else ""
        score = _finite(score_text) if score_text else None
        if score_text and score is None:
            problems.append(
                f"Row {n} ({md_escape(label)}): the score is '{md_escape(score_text)}'; "
                "expected a finite number, or leave it empty."
            )
            continue
        items.append(Item(int(item_id), label, grade, score))
    scored = [i.score is not None for i in items]
    if not problems and any(scored) and not all(scored):
        missing = ", ".join(str(n) for n, has in enumerate(scored, start=1) if not has)
        problems.append(f"Scores: row {missing} has no score; give every item a score, or clear them all.")
    return tuple(items), problems


def items_editor(kind: str, items: tuple[Item, ...], prefix: str, *, with_scores: bool = False):
    """A label/grade (and optional score) table editor; returns (items, problems).

    Bad rows leave the caller on its last valid list, while what was typed stays in the table.
    """
    ss = st.session_state
    version = ss.get(f"pg_{kind}_version", 0)
    base_key = f"pg_{kind}_base"
    # Rebuild the table's starting point when its version changed, or when Streamlit dropped the
    # editor's pending edits (it forgets widgets that were not drawn, e.g. on another page).
    if ss.get(f"{base_key}_version") != version or f"{kind}_{version}" not in ss:
        ss[base_key] = _items_frame(items, with_scores)
        ss[f"{base_key}_ids"] = [i.id for i in items]
        ss[f"{base_key}_version"] = version
    key = f"{kind}_{version}"
    config = {
        "Item": st.column_config.TextColumn("Item", help="Any name; shown as plain text"),
        "Grade": st.column_config.TextColumn("Grade", help="Relevance grade: any finite number"),
        "Score": st.column_config.TextColumn(
            "Score", help="Optional model score; when every item has one, the ranking follows the scores"
        ),
    }
    edited = st.data_editor(ss[base_key], key=key, num_rows="dynamic", hide_index=True, column_config=config)
    return _read_editor(key, ss[f"{base_key}_ids"], edited, prefix)


# ------------------------------------------------------------------ sidebar


def init_session() -> None:
    """On a session's first run, take the state from the share link (or the default)."""
    ss = st.session_state
    if ss.get("pg_ready"):
        return
    state, warnings = from_query_params(st.query_params.to_dict())
    ss.gain_table = "0:0, 1:1, 2:3, 3:7"
    load_state(state)
    ss.pg_url_warnings = warnings
    ss.pg_messages = []
    ss.pg_variant = state.variant
    ss.pg_ready = True


def variant_from_controls() -> tuple[Variant, list[str]]:
    """The variant the controls describe; a bad entry keeps the last good variant's value."""
    ss = st.session_state
    errors: list[str] = []
    last: Variant = ss.pg_variant
    k = None if ss.k_all else int(ss.k)
    gain = ss.gain
    if gain == "custom":
        try:
            gain = parse_gain_table(ss.gain_table)
            grades = {i.grade for i in ss.pg_items + ss.pg_pool}
            missing = sorted(grades - set(gain))
            if missing:
                raise ValueError(
                    f"grade {missing[0]:g} has no gain in the table; add an entry such as {missing[0]:g}:1"
                )
        except ValueError as err:
            gain = last.gain_table or last.gain
            if isinstance(gain, dict) and not grades <= set(gain):
                gain = "linear"  # the previous table does not cover the grades either
            errors.append(
                f"Gain table: {md_escape(str(err))}. "
                f"Using {'linear' if gain == 'linear' else 'the previous'} gain."
            )
    base = NAMED_BASES.get(ss.base, ss.base_custom)
    try:
        variant = Variant(
            k=k, gain=gain, discount=ss.discount, log_base=base, zero_idcg=ss.zero_idcg, ties=ss.ties
        )
    except ValueError as err:
        errors.append(f"Log base: {md_escape(str(err))}. Still using base {format_base(last.log_base)}.")
        variant = Variant(
            k=k, gain=gain, discount=ss.discount, log_base=last.log_base, zero_idcg=ss.zero_idcg, ties=ss.ties
        )
    ss.pg_variant = variant
    return variant, errors


def current_state() -> PlaygroundState:
    """The shared state: items and pool, and the variant the sidebar's controls settled on this run."""
    ss = st.session_state
    return PlaygroundState(items=ss.pg_items, pool=ss.pg_pool, variant=ss.pg_variant)


def sync_url(state: PlaygroundState) -> bool:
    """Write the state into the address bar, so copying it shares this exact view.

    Every URL stays under ``MAX_URL`` characters: a long state goes into one compact
    ``state`` parameter; when even that is too long, the address bar is cleared (a stale link
    would share another state) and this returns False: the page then offers the state as a file.
    """
    params = share_params(state)
    if params is None:
        if st.query_params.to_dict():
            st.query_params.clear()
        return False
    if st.query_params.to_dict() != params:
        st.query_params.from_dict(params)
    return True


def _load_state_file() -> None:
    ss = st.session_state
    upload = ss.get("pg_state_file")
    if upload is None:
        return
    try:
        params = state_from_file(upload.getvalue())
    except ValueError as err:
        ss.pg_messages = [f"State file: {md_escape(str(err))}. Your list is unchanged."]
        return
    state, warnings = from_query_params(params)
    load_state(state)
    ss.pg_url_warnings = warnings
    ss.pg_messages = []


def state_file_controls(key: str = "pg_state_download", with_loader: bool = True) -> None:
    """Download the playground's state as a file, and (``with_loader``) load such a file back."""
    st.download_button(
        "Download this state",
        data=lambda: state_to_file(current_state()),  # built only when clicked
        file_name="ndcg-playground-state.json",
        mime="application/json",
        key=key,
        on_click="ignore",
        width="stretch",
    )
    if with_loader:
        st.file_uploader("Load a saved state", type=["json"], key="pg_state_file", on_change=_load_state_file)


def formula_controls() -> None:
    """The formula controls, generated from the variant schema; drawn on every page."""
    ss = st.session_state
    n_max = len(ss.pg_items) + len(ss.pg_pool)
    st.subheader("Formula")
    k_opt = OPTIONS["k"]
    st.toggle("Whole list (k = n)", key="k_all", help=k_opt.help)
    st.number_input(
        k_opt.label,
        min_value=1,
        max_value=max(n_max, int(ss.k), 1),
        step=1,
        key="k",
        disabled=ss.k_all,
        help=k_opt.help,
    )
    gain = OPTIONS["gain"]
    gains = [*gain.choices, "custom"]
    st.radio(
        gain.label,
        gains,
        key="gain",
        horizontal=True,
        help=gain.help,
        format_func=lambda c: "custom table" if c == "custom" else c,
    )
    if ss.gain == "custom":
        st.text_input("Gain table (grade:gain, ...)", key="gain_table", help="e.g. 0:0, 1:1, 2:3, 3:7")
    else:
        st.caption(gain.choices[ss.gain])
    discount = OPTIONS["discount"]
    st.radio(
        discount.label,
        list(discount.choices),
        key="discount",
        horizontal=True,
        help=discount.help,
        format_func=lambda c: {"log": "log(i+1)", "jarvelin": "Järvelin–Kekäläinen"}.get(c, c),
    )
    st.caption(discount.choices[ss.discount])
    base = OPTIONS["log_base"]
    st.radio(base.label, [*NAMED_BASES, "custom"], key="base", horizontal=True, help=base.help)
    if ss.base == "custom":
        # No minimum above 1 (it would silently turn 1.00001 into it): a base of 1 or less is
        # refused with a message by variant_from_controls. %.12g shows the base as given.
        st.number_input("Custom base (> 1)", min_value=1.0, key="base_custom", format="%.12g")
    zero = OPTIONS["zero_idcg"]
    st.selectbox(
        zero.label,
        list(zero.choices),
        key="zero_idcg",
        help=zero.help,
        format_func=lambda c: {
            "zero": "score 0",
            "one": "score 1",
            "skip": "no score (NaN)",
            "error": "show an error",
        }[c],
    )
    st.caption(zero.choices[ss.zero_idcg])
    ties = OPTIONS["ties"]
    st.selectbox(
        ties.label,
        list(ties.choices),
        key="ties",
        help=ties.help,
        format_func=lambda c: {
            "stable": "keep the input order",
            "average": "average the tie group",
            "docid_desc": "by item id, descending",
            "reverse_argsort": "numpy argsort, reversed",
        }.get(c, c),
    )
    if all_scored(ss.get("pg_items", ())):
        st.caption(ties.choices[ss.ties])
    else:
        st.caption("Only matters when the items carry scores (Edit items, Score column).")
    _, errors = variant_from_controls()
    for message in errors:
        st.error(message)

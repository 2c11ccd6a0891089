"""Step tables (escaped HTML, rows beyond k marked) and their exports."""

from __future__ import annotations

import functools
import html

import pandas as pd
import streamlit as st

from ndcg_core.i18n import N_, _, language
from ndcg_core.teaching.export import (
    figure_image,
    formulas_latex,
    table_csv,
    table_html,
    table_latex,
    table_markdown,
)
from ndcg_core.teaching.formula import number
from ndcg_core.teaching.lesson import COLUMN_HELP
from ndcg_core.teaching.playground import PlaygroundState
from ndcg_core.variants import format_number

from .markup import md_plain, md_words

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


def table_box(table: str, label: str) -> None:
    """An HTML table (from :func:`ndcg_core.teaching.export.table_html`) in the box the page's CSS styles:
    it scrolls past 420 px, and on a phone its headers wrap.

    The box takes keyboard focus, so a keyboard can scroll it (WCAG 2.1.1), and is a region named
    ``label`` (plain text) for a screen reader."""
    st.html(
        f'<div class="step-table-wrap" tabindex="0" role="region" aria-label="{html.escape(label)}">'
        f"{table}</div>"
    )


def beyond_caption(beyond: list[bool]) -> str | None:
    """A step table's caption for a screen reader: which rows lie beyond k (the grey ones), or None."""
    first = next((i for i, b in enumerate(beyond, start=1) if b), None)
    if first is None:
        return None
    if first == len(beyond):
        return _("Position {first} is beyond k: it adds nothing.").format(first=first)
    return _("Positions {first} to {last} are beyond k: they add nothing.").format(
        first=first, last=len(beyond)
    )


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
            note = _("**{title}** (rows beyond k in grey italics, below a dashed line)")
            st.markdown(note.format(title=title))
            table = table_html(
                steps,
                columns=columns,
                beyond=beyond,
                formats=CELL_FORMATS,
                labels={c: _(HEADERS.get(c, c)) for c in columns},
                titles={c: _(COLUMN_HELP[c]) for c in columns if c in COLUMN_HELP},
                caption=beyond_caption(beyond),
            )
            table_box(table, md_plain(title))
            column_notes(columns)
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
        column_notes(columns)


def column_notes(columns) -> None:
    """What each column means, as text: a header's hover explanation reaches neither a keyboard nor
    a screen reader. Folded into one line until opened."""
    notes = _column_notes(tuple(columns), language())
    if notes:
        with st.expander(_("What the columns mean")):
            st.markdown(notes)


@functools.lru_cache(maxsize=64)
def _column_notes(columns: tuple[str, ...], lang: str) -> str:
    """The notes' Markdown, in ``lang`` (the key; it is the current language), made once."""
    return "\n".join(
        "- "
        + _("{column}: {meaning}").format(
            column=f"**{md_words(_(HEADERS.get(c, c)))}**", meaning=md_words(_(COLUMN_HELP[c]))
        )
        for c in columns
        if c in COLUMN_HELP
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


PPTX_MIME = "application/vnd.openxmlformats-officedocument.presentationml.presentation"


def _lesson_file(kind: str, state: PlaygroundState, lang: str) -> bytes:
    """One whole-lesson file, built on its button's click. The slides' modules (fpdf2, python-pptx)
    load then, not with the page: the first page's warm-up leaves nothing heavy to import."""
    from ndcg_core.teaching import slides

    return (slides.lesson_pdf if kind == "pdf" else slides.lesson_pptx)(state, lang=lang)


def lesson_buttons(prefix: str, state: PlaygroundState) -> None:
    """The whole lesson for ``state`` as one PDF and one PowerPoint deck (:mod:`ndcg_core.teaching.slides`),
    in the page's language. Each file is built only when its button is clicked (on a thread of its
    own, a few seconds: Chromium draws the charts), so drawing the buttons costs the page nothing."""
    lang = language()  # the build runs outside the script run, where the session's language is unknown
    files = [
        ("pdf", _("Whole lesson (PDF)"), "application/pdf", ":material/picture_as_pdf:"),
        ("pptx", _("Whole lesson (PowerPoint)"), PPTX_MIME, ":material/slideshow:"),
    ]
    for key, label, mime, icon in files:
        st.download_button(
            label,
            data=functools.partial(_lesson_file, key, state, lang),
            file_name=f"ndcg-lesson.{key}",
            mime=mime,
            key=f"{prefix}_lesson_{key}",
            on_click="ignore",
            icon=icon,
            width="stretch",
        )


#: The rows a table sends to the browser at once. Streamlit ships a table whole: the per-query table
#: of an accepted 10M-query upload was 551 MB, past the 200 MB a message may hold, and the page broke.
PAGE_ROWS = 1_000


def paged(frame: pd.DataFrame, key: str) -> pd.DataFrame:
    """The rows of ``frame`` to draw: all of them up to :data:`PAGE_ROWS`, else one page of them, with a
    page number (session key ``key``) and a line saying which rows show. A page past the end (the
    table got shorter, say after a search) becomes the first."""
    n = len(frame)
    if n <= PAGE_ROWS:
        return frame
    pages = -(-n // PAGE_ROWS)
    ss = st.session_state
    if not isinstance(ss.get(key), int) or not 1 <= ss[key] <= pages:
        ss[key] = 1
    with st.container(horizontal=True, vertical_alignment="bottom", key=f"{key}_pager"):
        page = st.number_input(
            _("Page (1 to {pages})").format(pages=f"{pages:,}"), min_value=1, max_value=pages, step=1, key=key
        )
        first = (page - 1) * PAGE_ROWS
        last = min(first + PAGE_ROWS, n)
        st.caption(
            _("Rows {first} to {last} of {n}, {size} at a time.").format(
                first=f"{first + 1:,}", last=f"{last:,}", n=f"{n:,}", size=f"{PAGE_ROWS:,}"
            )
        )
    return frame.iloc[first:last]


# ------------------------------------------------------------------ the lesson's tables


def lesson_html_table(frame, beyond) -> str:
    """The presenter's step table: the export's escaped HTML table, every header explaining itself."""
    return table_html(
        frame,
        beyond=beyond,
        labels={c: _(c) for c in frame.columns},
        titles={c: _(COLUMN_HELP[c]) for c in frame.columns if c in COLUMN_HELP},
        css_class="learn-table",
        caption=beyond_caption(beyond),
    )


#: The grey of a lesson grid's rows beyond k: 4.8:1 on white (WCAG 2.2 AA), still set apart from the text.
BEYOND_GREY = "#64748b"


def lesson_grid(frame, beyond, key: str) -> None:
    """A step table in the page's grid, every column with its hover explanation, rows flagged in
    ``beyond`` in grey and, since a grid cell takes no other style, marked in their Position cell
    (colour alone is no mark for a reader who cannot see it: WCAG 1.4.1)."""
    config = column_help_config(frame.columns)
    marked = "Position" in frame and any(beyond)
    if "Position" in frame:
        config["Position"] = st.column_config.Column(
            _("Position"), width=110 if marked else "small", help=_(COLUMN_HELP["Position"])
        )
    if marked:
        frame = frame.assign(
            Position=[
                _("{position} · beyond k").format(position=p) if b else str(p)
                for p, b in zip(frame["Position"], beyond, strict=True)
            ]
        )
    numeric = [c for c in frame.columns if frame[c].dtype.kind == "f"]
    # Computed values at a fixed precision (as on the Playground); grades exactly as typed.
    styled = frame.style.format({c: (format_number if c == "Grade" else number) for c in numeric})
    grey = f"color: {BEYOND_GREY}"
    styled = styled.apply(lambda row: [grey if beyond[row.name] else "" for _ in row], axis=1)
    with st.container(key=key):
        st.dataframe(styled, hide_index=True, column_config=config, height=min(38 + 35 * len(frame), 390))
        # On a phone the grid cannot fit seven columns in 390 px: the same table as HTML, whose
        # headers wrap, shows instead (views/ui/styles.py picks one by the screen's width).
        table = table_html(
            frame,
            beyond=beyond,
            formats={c: CELL_FORMATS[c] for c in frame.columns if c in CELL_FORMATS},
            labels={c: _(HEADERS.get(c, c)) for c in frame.columns},
            titles={c: _(COLUMN_HELP[c]) for c in frame.columns if c in COLUMN_HELP},
        )
        st.html(f'<div class="step-table-wrap learn-phone-table">{table}</div>')
        column_notes(frame.columns)

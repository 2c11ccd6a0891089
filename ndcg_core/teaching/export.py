r"""Exports for slides: a step table as CSV, Markdown or LaTeX, formulas as LaTeX, charts as images.

Numbers are written as on screen (at most 3 decimals); item labels are
escaped for each format, so a label never turns into markup.

>>> import pandas as pd
>>> frame = pd.DataFrame({"Position": [1, 2], "Item": ["a_1", "b|c"], "Gain": [3.0, 1 / 3]})
>>> print(table_markdown(frame))
| Position | Item | Gain |
| ---: | :--- | ---: |
| 1 | a_1 | 3 |
| 2 | b\|c | 0.333 |
>>> print(table_latex(frame))  # doctest: +NORMALIZE_WHITESPACE
% requires \usepackage{booktabs}
\begin{tabular}{rlr}
\toprule
Position & Item & Gain \\
\midrule
1 & a\_1 & 3 \\
2 & b|c & 0.333 \\
\bottomrule
\end{tabular}
"""

from __future__ import annotations

import csv
import html
import io
import math
from collections.abc import Callable, Iterable, Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from ..csvcells import csv_row
from ..errors import NDCGError
from ..i18n import _

__all__ = [
    "SLIDE_HEIGHT",
    "SLIDE_WIDTH",
    "figure_image",
    "formulas_latex",
    "shown_values",
    "slide_figure",
    "table_csv",
    "table_html",
    "table_latex",
    "table_markdown",
]

SLIDE_WIDTH, SLIDE_HEIGHT = 1600, 900  # 16:9, the default slide shape

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def _cell(value) -> str:
    if isinstance(value, (bool,)) or type(value).__name__ == "bool_":
        return _("yes") if value else _("no")  # step 7's "Beyond k", in the page's language
    if isinstance(value, (int,)) or type(value).__name__.startswith("int"):
        return str(int(value))
    if isinstance(value, float) or type(value).__name__.startswith("float"):
        x = float(value)
        if math.isnan(x):
            return ""
        text = f"{x:.3f}".rstrip("0").rstrip(".")
        return "0" if text in {"-0", ""} else text
    return str(value)


def shown_values(frame: pd.DataFrame) -> list[list[str]]:
    """The table's cells as on screen: at most 3 decimals, yes/no for flags, NaN as empty."""
    return [[_cell(v) for v in row] for row in frame.itertuples(index=False)]


def _numeric(frame: pd.DataFrame) -> list[bool]:
    return [
        pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])
        for c in frame.columns
    ]


NUM = ' class="num"'  # numeric cells and headers: right-aligned by the page's CSS


def table_html(
    frame: pd.DataFrame,
    *,
    beyond: Sequence[bool] | None = None,
    formats: Mapping[str, Callable[[object], str]] | None = None,
    labels: Mapping[str, str] | None = None,
    titles: Mapping[str, str] | None = None,
    css_class: str = "step-table",
    columns: Sequence[str] | None = None,
    caption: str | None = None,
) -> str:
    """An HTML table of the frame, every cell and header escaped (a label never becomes markup).

    Cells are written as :func:`shown_values` writes them, or by ``formats[column]``; rows whose
    ``beyond`` flag is set get the class ``beyond`` (greyed by the page's CSS); ``labels`` renames
    headers and ``titles`` gives each header a hover text. Numeric columns get the class ``num``.
    ``columns`` picks and orders the columns shown (default: all). ``caption`` (text) becomes the
    table's ``<caption>``: its name for a screen reader.

    >>> frame = pd.DataFrame({"Item": ["<b>x</b>", "y"], "Gain": [3.0, 0.5]})
    >>> table_html(frame, titles={"Gain": "what it adds"})[:96]
    '<table class="step-table"><thead><tr><th title="">Item</th><th class="num" title="what it adds">'
    >>> "<td>&lt;b&gt;x&lt;/b&gt;</td>" in table_html(frame)
    True
    >>> '<tr class="beyond"><td>y</td><td class="num">0.5</td></tr>' in table_html(frame, beyond=[0, 1])
    True
    >>> table_html(frame, caption="Row 2 is beyond k")[:62]
    '<table class="step-table"><caption>Row 2 is beyond k</caption>'
    """
    formats, labels, titles = formats or {}, labels or {}, titles or {}
    names = list(frame.columns) if columns is None else list(columns)
    numeric = [
        pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c]) for c in names
    ]
    head = "".join(
        f'<th{NUM if num else ""} title="{html.escape(titles.get(c, ""))}">'
        f"{html.escape(labels.get(c, c))}</th>"
        for c, num in zip(names, numeric, strict=True)
    )
    cells_by_column = [
        [html.escape(formats[c](v) if c in formats else _cell(v)) for v in frame[c].tolist()] for c in names
    ]
    opens = ['<td class="num">' if num else "<td>" for num in numeric]
    rows = []
    for r, cells in enumerate(zip(*cells_by_column, strict=True)):
        row_class = ' class="beyond"' if beyond is not None and beyond[r] else ""
        rows.append(
            f"<tr{row_class}>" + "".join(f"{o}{v}</td>" for o, v in zip(opens, cells, strict=True)) + "</tr>"
        )
    top = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    body = "".join(rows)
    return f'<table class="{css_class}">{top}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def table_csv(frame: pd.DataFrame) -> str:
    """CSV with a header row, numbers as on screen, formula-like text escaped (:mod:`ndcg_core.csvcells`).

    >>> print(table_csv(pd.DataFrame({"Item": ["=1+1", "-2+3"], "Gain": [-2.5, 1.0]})), end="")
    Item,Gain
    '=1+1,-2.5
    '-2+3,1
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(csv_row(str(c) for c in frame.columns))
    writer.writerows(csv_row(row) for row in shown_values(frame))
    return out.getvalue()


def _md(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def table_markdown(frame: pd.DataFrame) -> str:
    """A pipe table (GitHub/Pandoc Markdown), numbers right-aligned."""
    header = "| " + " | ".join(_md(str(c)) for c in frame.columns) + " |"
    rule = "| " + " | ".join("---:" if num else ":---" for num in _numeric(frame)) + " |"
    rows = ["| " + " | ".join(_md(x) for x in row) + " |" for row in shown_values(frame)]
    return "\n".join([header, rule, *rows])


def latex_escape(text: str) -> str:
    """Text made safe inside LaTeX: every special character printed literally."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def table_latex(frame: pd.DataFrame) -> str:
    """A ``booktabs`` tabular (``\\toprule``, ``\\midrule``, ``\\bottomrule``), numbers right-aligned."""
    spec = "".join("r" if num else "l" for num in _numeric(frame))
    lines = [
        "% requires \\usepackage{booktabs}",
        f"\\begin{{tabular}}{{{spec}}}",
        "\\toprule",
        " & ".join(latex_escape(str(c)) for c in frame.columns) + " \\\\",
        "\\midrule",
        *(" & ".join(latex_escape(x) for x in row) + " \\\\" for row in shown_values(frame)),
        "\\bottomrule",
        "\\end{tabular}",
    ]
    return "\n".join(lines)


def formulas_latex(formulas: Iterable[str]) -> str:
    """Display-math LaTeX source of the formulas, one block each."""
    blocks = [f"\\[\n{f}\n\\]" for f in formulas]
    return "% requires \\usepackage{amsmath,xcolor}\n" + "\n".join(blocks) + "\n"


def slide_figure(fig: go.Figure) -> go.Figure:
    """A copy of a figure laid out for a 16:9 slide: slide size and type large enough to read."""
    out = go.Figure(fig)
    out.update_layout(
        width=SLIDE_WIDTH,
        height=SLIDE_HEIGHT,
        font={"size": 26},
        title={"font": {"size": 36}},
        margin={"l": 110, "r": 40, "t": 100, "b": 90},
        paper_bgcolor="white",
    )
    for trace in out.data:
        if getattr(trace, "mode", None) and "markers" in trace.mode:
            trace.update(marker={"size": 14})
    return out


def figure_image(fig: go.Figure, fmt: str) -> bytes:
    """The figure as a ``png`` or ``svg`` image at slide size (rendered by kaleido with Chromium)."""
    if fmt not in {"png", "svg"}:
        raise NDCGError("image_format", fmt=repr(fmt))
    slide = slide_figure(fig)
    return slide.to_image(format=fmt, width=SLIDE_WIDTH, height=SLIDE_HEIGHT)

r"""Exports for slides: a step table as CSV, Markdown or LaTeX, formulas as LaTeX or plain text,
charts as images.

Numbers are written as on screen (at most 3 decimals); item labels are
escaped for each format, so a label never turns into markup. The whole lesson as one PDF or
PowerPoint file is :mod:`ndcg_core.teaching.slides`, built from these pieces.

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
import re
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from ..csvcells import csv_row
from ..errors import NDCGError
from ..i18n import N_, _

__all__ = [
    "SLIDE_HEIGHT",
    "SLIDE_WIDTH",
    "figure_image",
    "figure_images",
    "formula_text",
    "formulas_latex",
    "numeric_columns",
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


#: A flag cell (the "Beyond k" column), in the reader's language.
YES, NO = N_("yes"), N_("no")


def _cell(value) -> str:
    if isinstance(value, (bool,)) or type(value).__name__ == "bool_":
        return _(YES) if value else _(NO)
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
    """The table's cells as on screen: at most 3 decimals, yes/no for flags (translated), NaN as empty."""
    return [[_cell(v) for v in row] for row in frame.itertuples(index=False)]


def numeric_columns(frame: pd.DataFrame) -> list[bool]:
    """Which of the frame's columns hold numbers (right-aligned in every export; flags do not count)."""
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


def table_csv(frame: pd.DataFrame, *, exact: bool = False) -> str:
    """CSV with a header row, numbers as on screen (``exact``: at full precision), formula-like text
    escaped (:mod:`ndcg_core.csvcells`).

    >>> print(table_csv(pd.DataFrame({"Item": ["=1+1", "-2+3"], "Gain": [-2.5, 1 / 3]})), end="")
    Item,Gain
    '=1+1,-2.5
    '-2+3,0.333
    >>> print(table_csv(pd.DataFrame({"Item": ["@q"], "Gain": [1 / 3]}), exact=True), end="")
    Item,Gain
    '@q,0.3333333333333333
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(csv_row(str(c) for c in frame.columns))
    rows = frame.itertuples(index=False, name=None) if exact else shown_values(frame)
    writer.writerows(csv_row(row) for row in rows)
    return out.getvalue()


def _md(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def table_markdown(frame: pd.DataFrame) -> str:
    """A pipe table (GitHub/Pandoc Markdown), numbers right-aligned."""
    header = "| " + " | ".join(_md(str(c)) for c in frame.columns) + " |"
    rule = "| " + " | ".join("---:" if num else ":---" for num in numeric_columns(frame)) + " |"
    rows = ["| " + " | ".join(_md(x) for x in row) + " |" for row in shown_values(frame)]
    return "\n".join([header, rule, *rows])


def latex_escape(text: str) -> str:
    """Text made safe inside LaTeX: every special character printed literally."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def table_latex(frame: pd.DataFrame) -> str:
    """A ``booktabs`` tabular (``\\toprule``, ``\\midrule``, ``\\bottomrule``), numbers right-aligned."""
    spec = "".join("r" if num else "l" for num in numeric_columns(frame))
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


def slide_figure(fig: go.Figure, width: int = SLIDE_WIDTH, height: int = SLIDE_HEIGHT) -> go.Figure:
    """A copy of a figure laid out for a 16:9 slide: slide size and type large enough to read.

    ``width`` × ``height`` is the layout's size in pixels: a chart that fills half a slide is laid
    out at half the size (and drawn at twice the scale), so its type reads as large as a full one's.
    """
    out = go.Figure(fig)
    out.update_layout(
        width=width,
        height=height,
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
    return figure_images([fig], fmt)[0]


def figure_images(
    figs: Sequence[go.Figure],
    fmt: str,
    *,
    width: int = SLIDE_WIDTH,
    height: int = SLIDE_HEIGHT,
    scale: float = 1,
) -> list[bytes]:
    """Several figures as ``png`` or ``svg`` images laid out for slides (:func:`slide_figure` at
    ``width`` × ``height``; ``scale`` multiplies the pixels of a PNG), all drawn by one Chromium:
    starting it costs seconds, each figure after it a fraction of one."""
    if fmt not in {"png", "svg"}:
        raise NDCGError("image_format", fmt=repr(fmt))
    if not figs:
        return []
    slides = [slide_figure(fig, width, height) for fig in figs]
    with tempfile.TemporaryDirectory(prefix="ndcg-figures-") as folder:
        paths = [Path(folder) / f"{n}.{fmt}" for n in range(len(slides))]
        pio.write_images(slides, paths, format=fmt, width=width, height=height, scale=scale)
        return [path.read_bytes() for path in paths]


# ------------------------------------------------------------------ formulas as plain text

#: LaTeX commands written as a character or a word (the rest of a formula's commands are structure).
_SYMBOLS = {
    "cdots": "⋯",
    "ldots": "…",
    "dots": "…",
    "infty": "∞",
    "sum": "Σ",
    "cdot": "·",
    "times": "×",
    "div": "÷",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "ne": "≠",
    "approx": "≈",
    "quad": " ",
    "qquad": " ",
    ",": " ",
    ";": " ",
    ":": " ",
    " ": " ",
    "!": "",
    "\\": " ",
}
#: Commands whose one argument is shown as it is.
_TEXT_COMMANDS = {"mathrm", "text", "textrm", "mathit", "mathbf", "textbf", "operatorname", "boldsymbol"}
#: Commands that only size or colour what follows.
_SILENT = {"left", "right", "displaystyle", "big", "Big", "bigl", "bigr"}
_FRACTIONS = {"frac", "dfrac", "tfrac"}
_SIMPLE = re.compile(r"[\w.@#∞−-]+")
_NUMBER = re.compile(r"-?[\d.]+")


def formula_text(latex: str) -> str:
    r"""One of the app's LaTeX formulas as plain text a slide can carry (searchable, editable).

    Fractions become ``a/b``, a term's grey position mark under it is dropped (the table beside
    it has the positions), a subscript number joins its name (``log2``), and a binary minus is the
    minus sign.

    >>> formula_text(r"\mathrm{DCG@2} = \underset{\color{gray}{\text{\#}1}}{\dfrac{3}{1}} + "
    ...              r"\underset{\color{gray}{\text{\#}2}}{\dfrac{2}{1.585}} = 4.262")
    'DCG@2 = 3/1 + 2/1.585 = 4.262'
    >>> formula_text(r"\mathrm{NDCG@6} = \frac{\mathrm{DCG@6}}{\mathrm{IDCG@6}} = \frac{6.861}{7.141}")
    'NDCG@6 = DCG@6 / IDCG@6 = 6.861/7.141'
    >>> formula_text(r"d_{3} = \log_{2}(3 + 1) = 2"), formula_text(r"\text{gain} = 2^{\text{grade}} - 1")
    ('d3 = log2(3 + 1) = 2', 'gain = 2^grade − 1')
    """
    text, _end = _formula_run(latex, 0, None)
    return re.sub(r"\s+", " ", text.replace(" - ", " − ")).strip()


def _formula_run(s: str, i: int, stop: str | None) -> tuple[str, int]:
    """Plain text of ``s`` from ``i`` up to the closing ``stop`` (or the end); the index after it."""
    out = []
    while i < len(s):
        c = s[i]
        if c == stop:
            return "".join(out), i + 1
        if c == "{":
            inner, i = _formula_run(s, i + 1, "}")
            out.append(inner)
        elif c == "\\":
            piece, i = _formula_command(s, i + 1)
            out.append(piece)
        elif c in "^_":
            arg, i = _formula_argument(s, i + 1)
            out.append(arg if c == "_" and arg.isdigit() else c + _operand(arg))
        else:
            out.append(" " if c == "~" else c)
            i += 1
    return "".join(out), i


def _formula_argument(s: str, i: int) -> tuple[str, int]:
    """A command's argument at ``i``: a ``{...}`` group, a command, or one character."""
    while i < len(s) and s[i] == " ":
        i += 1
    if i >= len(s):
        return "", i
    if s[i] == "{":
        return _formula_run(s, i + 1, "}")
    if s[i] == "\\":
        return _formula_command(s, i + 1)
    return s[i], i + 1


def _formula_command(s: str, i: int) -> tuple[str, int]:
    """The command whose name starts at ``i`` (after its backslash), with its arguments."""
    j = i
    while j < len(s) and s[j].isalpha():
        j += 1
    name, i = (s[i:j], j) if j > i else (s[i : i + 1], i + 1)
    if name in _FRACTIONS:
        top, i = _formula_argument(s, i)
        bottom, i = _formula_argument(s, i)
        tight = _NUMBER.fullmatch(top.strip()) and _NUMBER.fullmatch(bottom.strip())
        return f"{_operand(top)}{'/' if tight else ' / '}{_operand(bottom)}", i
    if name in {"underset", "overset"}:  # the mark above or below goes; the term stays
        _mark, i = _formula_argument(s, i)
        return _formula_argument(s, i)
    if name == "color":
        _colour, i = _formula_argument(s, i)
        return "", i
    if name in _TEXT_COMMANDS:
        return _formula_argument(s, i)
    if name == "sqrt":
        arg, i = _formula_argument(s, i)
        return "√" + _operand(arg), i
    if name in _SILENT:
        return "", i
    return _SYMBOLS.get(name, name), i


def _operand(text: str) -> str:
    """``text`` as one side of ``/`` or ``^``: in brackets unless it is one word or number."""
    text = text.strip()
    return text if _SIMPLE.fullmatch(text) else f"({text})"

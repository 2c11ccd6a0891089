"""The answers to a Class question as bars: a bar per choice, or per slice of the numbers given.

The lecturer's live view and the projector's results screen redraw these every few seconds while
a hall answers. Drawn as plotly charts, each redraw cost the lecturer's browser about half a second
of CPU, enough to show the "Answered" count beside it seconds late
(``benchmarks/class_replicas.py``); as plain HTML they cost next to nothing. The bars are text:
each says its value and its count, the right one is marked "✓" as well as green, and a screen
reader reads them as a list. The lesson's presenter (:mod:`views.room.lesson_link`) draws the same
bars with plotly (:func:`answers_figure`), once, after the reveal.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

import plotly.graph_objects as go
import streamlit as st

from ndcg_core.classroom import Summary
from ndcg_core.i18n import _, ngettext
from ndcg_core.teaching.practice import Exercise

#: Slices of the range of the numbers given (and the exact value): fine enough that close answers
#: (0.93 and 0.95) stay apart.
SLICES = 25
#: The narrowest range sliced: answers all alike still get slices of a sensible width.
MIN_SPAN = 0.05


@dataclass(frozen=True)
class Bar:
    label: str  # the choice, or the middle of the slice
    count: int  # students
    right: bool = False  # the right answer's bar, once revealed


@dataclass(frozen=True)
class AnswerBars:
    title: str  # "5 answers"
    axis: str  # what the bars are of: "Choice", "Answer", "NDCG of the order"
    bars: tuple[Bar, ...]


def answer_bars(e: Exercise, summary: Summary, revealed: bool) -> AnswerBars:
    """The bars of the answers in ``summary`` to exercise ``e``; the right one marked once revealed.

    Choices get a bar each, named as the students' phones number them (letters for "which ranking
    wins", the option itself for a lesson's short choices). Numbers are counted in
    :data:`SLICES` equal slices of their range, each named by its ends ("0.93–0.95": from the
    first, up to the second), the exact value's range included so that its slice can be marked.
    """
    title = ngettext("{n} answer", "{n} answers", summary.answered).format(n=summary.answered)
    if e.answer_type == "choice":
        labels = {
            "texts": [str(c) for c in e.choices],  # short: a lesson's grade, yes or no
            "letters": [chr(ord("A") + i) for i in range(len(e.choices))],
            "numbers": [str(i + 1) for i in range(len(e.choices))],
        }[e.traits.choice_labels]
        bars = tuple(
            Bar(label, count, revealed and i == e.answer_choice)
            for i, (label, count) in enumerate(zip(labels, summary.choices, strict=False))
        )
        return AnswerBars(title, _("Choice"), bars)
    axis = _("NDCG of the order") if e.answer_type == "order" else _("Answer")
    values = list(summary.values)
    exact = e.exact if e.answer_type == "number" else None
    marks = values + ([exact] if exact is not None else [])
    if not marks:
        return AnswerBars(title, axis, ())
    low, high = min(marks), max(marks)
    size = max(high - low, MIN_SPAN) / SLICES
    start = low - size / 2  # each mark sits inside a slice, not on its edge

    def slice_of(x: float) -> int:
        return math.floor((x - start) / size)

    counts = [0] * (slice_of(high) + 1)
    for v in values:
        counts[slice_of(v)] += 1
    right = slice_of(exact) if revealed and exact is not None else None
    places = max(0, math.ceil(-math.log10(size)) + 1)  # a slice's ends, rounded well inside it
    bars = tuple(
        Bar(f"{start + i * size:.{places}f}–{start + (i + 1) * size:.{places}f}", n, i == right)
        for i, n in enumerate(counts)
    )
    return AnswerBars(title, axis, bars)


def bars_html(b: AnswerBars) -> str:
    """The bars as HTML; how tall is the page's style sheet's to say (``views/ui/styles.py``: the
    projector's are taller). A bar with no answer keeps its place (the slices stay evenly spaced)
    but says nothing, to the eye or to a screen reader."""
    top = max((bar.count for bar in b.bars), default=0) or 1
    items = []
    for bar in b.bars:
        mark = " ✓" if bar.right else ""
        share = bar.count / top  # of the room the tallest bar has (the list's height less the labels')
        students = ngettext("{n} student", "{n} students", bar.count).format(n=bar.count)
        classes = " ".join(
            ["ndcg-bar"]
            + (["ndcg-bar-right"] if bar.right else [])
            + ([] if bar.count else ["ndcg-bar-empty"])
        )
        hidden = "" if bar.count or bar.right else ' aria-hidden="true"'
        items.append(
            f'<li class="{classes}"{hidden}>'
            f'<span class="ndcg-bar-label">{html.escape(bar.label + mark)}</span>'
            '<span class="ndcg-bar-fill" style="height:calc((100% - var(--ndcg-bar-room)) * '
            f'{share:.4f})"></span>'
            f'<span class="ndcg-bar-n" aria-hidden="true">{bar.count or ""}</span>'
            f'<span class="ndcg-sr-only">: {html.escape(students)}</span></li>'
        )
    name = _("{title}, by {axis}").format(title=b.title, axis=b.axis.lower())
    return (
        f'<figure class="ndcg-bars" aria-label="{html.escape(name)}">'
        f"<figcaption><b>{html.escape(b.title)}</b> · {html.escape(b.axis)}</figcaption>"
        f'<ol class="ndcg-bars-list">{"".join(items)}</ol></figure>'
    )


def show_bars(e: Exercise, summary: Summary, revealed: bool) -> None:
    """The answers' bars on the page (:func:`bars_html`)."""
    st.html(bars_html(answer_bars(e, summary, revealed)))


def answers_figure(e: Exercise, summary: Summary, revealed: bool) -> go.Figure:
    """The same bars as a plotly chart (for the lesson's presenter, drawn once after the reveal)."""
    b = answer_bars(e, summary, revealed)
    labels = [bar.label + (" ✓" if bar.right else "") for bar in b.bars]
    colours = ["#15803d" if bar.right else "#4f46e5" for bar in b.bars]
    counts = [bar.count for bar in b.bars]
    fig = go.Figure(go.Bar(x=labels, y=counts, marker_color=colours, text=[n or "" for n in counts]))
    fig.update_layout(xaxis_title=b.axis, yaxis_title=_("Students"), bargap=0.08)
    fig.update_xaxes(type="category")  # "1", "2 ✓", "3" are names: as numbers, "2 ✓" was dropped
    fig.update_layout(
        title=b.title,
        font={"size": 22, "color": "#0f172a"},
        plot_bgcolor="#f8fafc",
        height=330,
        margin={"l": 60, "r": 20, "t": 60, "b": 60},
        yaxis={"dtick": 1},
    )
    return fig

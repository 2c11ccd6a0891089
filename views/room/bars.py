"""The answers to a Class question as bars: a bar per choice, or per group of numbers that mean one thing.

The lecturer's live view and the projector's results screen redraw these every few seconds while
a hall answers. Drawn as plotly charts, each redraw cost the lecturer's browser about half a second
of CPU, enough to show the "Answered" count beside it seconds late
(``benchmarks/class_replicas.py``); as plain HTML they cost next to nothing. The bars are text and
lie flat, one a line, so a label reads across, not down: each says its value and its count, the
right one is marked "✓" as well as green, and a screen reader reads them as a list. Numbers are
grouped by what they mean (:mod:`ndcg_core.classroom.grouping`: the right value, each diagnosed
mistake, a few runs of the rest), named by meaning once the answer is revealed. The lesson's
presenter (:mod:`views.room.lesson_link`) draws the same bars with plotly (:func:`answers_figure`),
once, after the reveal, upright in the little room beside its table.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import plotly.graph_objects as go
import streamlit as st

from ndcg_core.classroom import Summary
from ndcg_core.classroom.grouping import MISTAKE, RIGHT, group_label
from ndcg_core.i18n import _, ngettext
from ndcg_core.teaching.practice import Exercise


@dataclass(frozen=True)
class Bar:
    label: str  # the choice, or the group's value (its meaning once revealed)
    count: int  # students
    right: bool = False  # the right answer's bar, once revealed
    mistake: bool = False  # a diagnosed mistake's bar, once revealed


@dataclass(frozen=True)
class AnswerBars:
    title: str  # "5 answers"
    axis: str  # what the bars are of: "Choice", "Answer", "NDCG of the order"
    bars: tuple[Bar, ...]


def answer_bars(e: Exercise, summary: Summary, revealed: bool) -> AnswerBars:
    """The bars of the answers in ``summary`` to exercise ``e``; the right one marked once revealed.

    Choices get a bar each, named as the students' phones number them (letters for "which ranking
    wins", the option itself for a lesson's short choices). Numbers get a bar per group of
    :attr:`Summary.groups`, in the order of their values, labelled by
    :func:`~ndcg_core.classroom.grouping.group_label`: what was typed until the reveal, then the
    right value and each mistake's short name with its value.
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
    bars = tuple(
        Bar(group_label(g, e, revealed), g.count, *(revealed and g.kind == kind for kind in (RIGHT, MISTAKE)))
        for g in summary.groups
    )
    return AnswerBars(title, axis, bars)


def bars_html(b: AnswerBars) -> str:
    """The bars as HTML, one a line: the label, the bar, the count. How large is the page's style
    sheet's to say (``views/ui/styles.py``: the projector's are larger). A choice nobody picked
    keeps its line but says nothing to a screen reader."""
    top = max((bar.count for bar in b.bars), default=0) or 1
    items = []
    for bar in b.bars:
        mark = " ✓" if bar.right else ""
        share = bar.count / top  # of the longest bar
        students = ngettext("{n} student", "{n} students", bar.count).format(n=bar.count)
        classes = " ".join(
            ["ndcg-bar"]
            + (["ndcg-bar-right"] if bar.right else [])
            + (["ndcg-bar-mistake"] if bar.mistake else [])
            + ([] if bar.count else ["ndcg-bar-empty"])
        )
        hidden = "" if bar.count or bar.right else ' aria-hidden="true"'
        items.append(
            f'<li class="{classes}"{hidden}>'
            f'<span class="ndcg-bar-label">{html.escape(bar.label + mark)}</span>'
            '<span class="ndcg-bar-track" aria-hidden="true">'
            f'<span class="ndcg-bar-fill" style="width:{100 * share:.2f}%"></span></span>'
            f'<span class="ndcg-bar-n" aria-hidden="true">{bar.count}</span>'
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
    """The same bars as a plotly chart, for the lesson's presenter: drawn once, after the reveal, in
    the little room beside the step's table (upright, so its table of numbers reads as the chart)."""
    b = answer_bars(e, summary, revealed)
    labels = [bar.label + (" ✓" if bar.right else "") for bar in b.bars]
    colours = ["#15803d" if bar.right else "#b45309" if bar.mistake else "#4f46e5" for bar in b.bars]
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

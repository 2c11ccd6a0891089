"""What each slide of the whole lesson says: the lesson's seven steps as text, a table and a chart.

Every piece comes from where the Learn page takes it: the step
(:func:`~ndcg_core.teaching.lesson.lesson_step`), its table and answer as presenter mode shows them
once revealed (:mod:`ndcg_core.teaching.presenter`),
the cells as every export writes them (:func:`~ndcg_core.teaching.export.shown_values`), the formulas
as plain text (:func:`~ndcg_core.teaching.export.formula_text`) and the step's chart
(:data:`~ndcg_core.teaching.lesson.STEP_CHARTS`) drawn by :func:`~ndcg_core.teaching.export.figure_images`.
All of it in the current language.

>>> from ndcg_core.teaching.playground import DEFAULT_STATE
>>> slide = lesson_slides(DEFAULT_STATE)[3]
>>> slide.title, slide.formulas[0][:22], slide.table.rows[2][5], slide.chart
('DCG: add up what each position is worth', 'DCG@6 = 3/1 + 2/1 + 3/', '1.893', 'dcg')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...i18n import _, language
from ..export import figure_images, formula_text, numeric_columns, shown_values
from ..lesson import N_STEPS, STEP_CHARTS, ideal_title, lesson_step
from ..playground import PlaygroundState
from ..presenter import screen, screen_table
from ..rendering import explained, state_figure

__all__ = ["CHART_HEIGHT", "CHART_WIDTH", "Slide", "Table", "chart_images", "lesson_slides"]

#: A chart's layout size in pixels: it fills less than half a slide, so it is laid out smaller than a
#: slide (its type as large as a full-slide chart's) and drawn at a larger scale (1800 × 1012 pixels).
CHART_WIDTH, CHART_HEIGHT, CHART_SCALE = 720, 405, 2.5


@dataclass(frozen=True)
class Table:
    """A step table as a slide shows it: headers and cells as text, which columns are numbers
    (right-aligned), which rows lie beyond k (grey), and its name."""

    caption: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...]
    beyond: tuple[bool, ...]


@dataclass(frozen=True)
class Slide:
    """One step of the lesson on a slide. ``chart`` is the kind of its chart, or None; ``notes``
    is what the lecturer reads and the room does not see (the question and its answer)."""

    number: int
    title: str
    text: tuple[str, ...]
    formulas: tuple[str, ...]
    table: Table
    chart: str | None
    notes: tuple[str, ...]


def lesson_slides(state: PlaygroundState) -> tuple[Slide, ...]:
    """The seven slides of the lesson for ``state``'s list, formula and k (raises ValueError for a
    list NDCG cannot be computed on, as the Learn page's explanation does)."""
    ex = explained(state)
    slides = []
    for n in range(1, N_STEPS + 1):
        step = lesson_step(n, ex)
        view = screen(step, revealed=True)  # every column and number shown
        frame, beyond = screen_table(ex, view)
        table = Table(
            caption=ideal_title(ex) if view.ideal else _("Your ranking"),
            headers=tuple(_(c) for c in frame.columns),
            rows=tuple(tuple(row) for row in shown_values(frame)),
            numeric=tuple(numeric_columns(frame)),
            beyond=tuple(beyond),
        )
        notes = ()
        if step.question is not None:
            notes = (_("Ask the room: {prompt}").format(prompt=step.question.prompt), view.answer)
        slides.append(
            Slide(
                number=n,
                title=step.title,
                text=step.text,  # not the hints: they name the app's controls
                formulas=tuple(formula_text(f) for f in view.formulas),
                table=table,
                chart=STEP_CHARTS.get(n),
                notes=notes,
            )
        )
    return tuple(slides)


def chart_images(state: PlaygroundState) -> dict[str, bytes]:
    """The lesson's charts for ``state`` as PNG images, by kind, drawn by one Chromium in the current
    language; kept for the last few states, so the PDF and the PowerPoint of one lesson share them."""
    return _chart_images(state, language())


@lru_cache(maxsize=8)
def _chart_images(state: PlaygroundState, lang: str) -> dict[str, bytes]:
    kinds = sorted(set(STEP_CHARTS.values()))
    figures = [state_figure(state, kind) for kind in kinds]
    images = figure_images(figures, "png", width=CHART_WIDTH, height=CHART_HEIGHT, scale=CHART_SCALE)
    return dict(zip(kinds, images, strict=True))

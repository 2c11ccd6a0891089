r"""The guided lesson: seven steps that build NDCG one column at a time, as data.

Each step says what to read, which columns of the step table it shows, the
formula with the list's own numbers, and the prediction it asks before a new
column appears. Everything is computed from one :class:`~ndcg_core.Explanation`,
so the lesson follows whatever list and formula the student has.

:data:`COLUMN_HELP` is the one table of one-line column explanations: the
Learn page and the Playground's step tables both take their tooltips from it.

>>> from ndcg_core import explain
>>> ex = explain([3, 2, 3, 0, 1, 2])
>>> step = lesson_step(4, ex)
>>> step.title, step.new_columns
('DCG: add up what each position is worth', ('Discounted gain', 'Cumulative DCG'))
>>> step.question.prompt
'What is the discounted gain at position 3 (D3: gain 3, divisor 2)?'
>>> check_answer(step.question, "1.5").correct
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import NDCGError, error_text
from ..explanation import Explanation
from ..i18n import N_, _, ngettext, separator
from ..metrics import divisors, gains
from ..rules import DISCOUNT_RULES, GAIN_RULES
from ..variants import choice_label
from .answers import MISTAKE, RIGHT, judge, noted, parse_answer, problem_text
from .columns import BASE_COLUMNS, COLUMN_HELP, IDEAL_COLUMNS, step_frame
from .formula import dcg_latex, divisor_latex, divisor_text, gain_latex, gain_text, ndcg_latex, trimmed
from .practice.mistakes import MISTAKES, mistake_text

__all__ = [
    "COLUMN_HELP",
    "IDEAL_COLUMNS",
    "N_STEPS",
    "STEP_CHARTS",
    "Feedback",
    "LessonStep",
    "Question",
    "check_answer",
    "clamp_step",
    "cutoff_for",
    "ideal_title",
    "lesson_step",
    "step_frame",
]

N_STEPS = 7

#: The chart each step shows once answered (a kind of :data:`ndcg_core.teaching.rendering.CHART_KINDS`):
#: from step 4 on, when there is a DCG to draw. Steps 1 to 3 show none (their per-step export offers the
#: gains chart).
STEP_CHARTS = {4: "dcg", 5: "cumulative", 6: "ndcg_at_k", 7: "ndcg_at_k"}


def ideal_title(ex: Explanation) -> str:
    """The ideal ordering's title: of every judged item, or of the list alone where a library's
    rules leave the items it did not retrieve out (scikit-learn, say)."""
    if ex.spec.ideal_source == "retrieved":
        return _("Ideal ordering of your list ({library}'s rules leave unretrieved items out)").format(
            library=ex.spec.library
        )
    return _("Ideal ordering of all judged items")


@dataclass(frozen=True)
class Question:
    """A prediction asked before a step's new column appears.

    A number question has ``exact`` and, in ``mistakes``, the value each common mistake gives
    (``(id, values)`` pairs, ids of :data:`ndcg_core.teaching.practice.MISTAKES`, computed by
    the engine); ``quantity`` names what is asked (``"ndcg"``, ...) where a mistake reads
    differently for it, and ``position`` the row of a step-table cell it asks. A choice question
    has two ``choices`` and the right one in ``answer``. ``why`` is the one-line working shown
    with the answer.
    """

    prompt: str
    why: str
    exact: float | None = None
    choices: tuple[str, ...] = ()
    answer: str | None = None
    mistakes: tuple[tuple[str, tuple[float, ...]], ...] = ()
    quantity: str | None = None
    position: int | None = None  # the step-table row a cell question asks about


@dataclass(frozen=True)
class Feedback:
    """The verdict on a prediction: ``correct`` is None when the input could not be read, or is
    too rough to judge. ``message`` holds the answer's working; ``diagnosis`` is the verdict
    without it, for a student who may still try again (the mistake named, if one gives the
    answer). ``mistakes``: the ids of the mistakes named."""

    correct: bool | None
    message: str
    diagnosis: str = ""
    mistakes: tuple[str, ...] = ()


@dataclass(frozen=True)
class LessonStep:
    """Everything one step shows, computed for one list."""

    number: int
    title: str
    text: tuple[str, ...]  # short paragraphs (plain text with the list's numbers)
    columns: tuple[str, ...]  # ranking-table columns once the step is revealed
    new_columns: tuple[str, ...]  # columns that stay hidden until the prediction
    formulas: tuple[str, ...]  # LaTeX, with the list's numbers
    question: Question | None
    ideal: bool = False  # the ideal-ordering table is part of the step
    metrics: tuple[str, ...] = ()  # headline numbers: "NDCG", "DCG", "IDCG", "CG"
    new_metric: str | None = None  # the number this step introduces (hidden until the prediction)
    after: tuple[str, ...] = ()  # paragraphs shown once the prediction is answered (they hold its answer)
    hints: tuple[
        str, ...
    ] = ()  # "try this in the sidebar / Playground": not in presenter mode (hidden there)

    @property
    def before_reveal(self) -> tuple[str, ...]:
        return tuple(c for c in self.columns if c not in self.new_columns)


def clamp_step(value) -> int:
    """A step number from user input (a URL parameter), kept within 1..7; 1 when unreadable."""
    try:
        n = int(str(value).strip())
    except (TypeError, ValueError):
        return 1
    return min(max(n, 1), N_STEPS)


def _row(ex: Explanation, position: int):
    return ex.steps.iloc[position - 1]


def _probe(ex: Explanation) -> int:
    """The position a question asks about: 3 (the issue's example), or the last row of a short list."""
    return min(3, len(ex.steps))


def _group_gain(ex: Explanation, position: int, gain) -> float:
    """The gain row ``position`` counts under another ``gain`` rule: its grade's gain, or under the
    'average' tie rule its tie group's mean gain (as the engine's step table does)."""
    steps = ex.steps
    row = _row(ex, position)
    tied = ex.variant.ties == "average" and steps["Score"].notna().any()
    grades = steps.loc[steps["Tie group"] == row["Tie group"], "Grade"] if tied else [row["Grade"]]
    return float(gains(list(grades), gain).mean())


def _gain_mistakes(ex: Explanation, position: int) -> dict[str, float]:
    """The gain of row ``position`` under each other gain rule, by that rule's mistake (a custom
    gain table has none)."""
    v = ex.variant
    if v.gain_table is not None:
        return {}
    return {
        rule.mistake: _group_gain(ex, position, name)
        for name, rule in GAIN_RULES.items()
        if name != v.gain and rule.mistake is not None
    }


def _divisor_mistakes(ex: Explanation, position: int) -> dict[str, float]:
    """The divisor of ``position`` under each other discount rule, by that rule's mistake, and under
    the natural log where the base is not e."""
    v = ex.variant
    out = {
        rule.mistake: float(divisors(position, name, v.log_base)[-1])
        for name, rule in DISCOUNT_RULES.items()
        if name != v.discount and rule.mistake is not None
    }
    if v.log_base != math.e:
        out["natural_log"] = float(divisors(position, v.discount, math.e)[-1])
    return out


def _mistakes(found: dict[str, float | list[float]]) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """Mistake values as a :class:`Question` keeps them: in the order of the mistakes' table."""
    as_lists = {name: tuple(v if isinstance(v, list) else [v]) for name, v in found.items()}
    return tuple((name, as_lists[name]) for name in MISTAKES if name in as_lists)


def _examples(v, asked: float, gain: float) -> str:
    """One or two grades and their gains under ``v``'s rule, none of them the grade asked about and
    none worth the gain asked for (either would be the answer)."""
    picks = [x for x in (1.0, 2.0, 3.0, 0.0, 4.0) if x != asked]
    worth = dict(zip(picks, gains(picks, v.gain_spec).tolist(), strict=True))
    shown = [(x, w) for x, w in worth.items() if w != gain][:2]
    if not shown:
        return ""
    values = {
        f"{name}{n}": text
        for n, (x, w) in enumerate(shown)
        for name, text in (("g", f"{x:g}"), ("w", trimmed(w)))
    }
    if len(shown) == 1:
        return " " + _("For example, grade {g0} is worth {w0}.").format(**values)
    return " " + _("For example, grade {g0} is worth {w0} and grade {g1} is worth {w1}.").format(**values)


def _gain_step(ex: Explanation) -> LessonStep:
    v = ex.variant
    steps = ex.steps
    top = int(steps["Grade"].to_numpy().argmax()) + 1
    row = _row(ex, top)
    g, gain = float(row["Grade"]), float(row["Gain"])
    hints: tuple[str, ...] = ()
    gain_word, grade_word = _("gain"), _("grade")
    if v.gain_table is not None:
        rule = _("Here a custom table turns each grade into its gain: {pairs}").format(
            pairs=", ".join(f"{a:g} → {b:g}" for a, b in sorted(v.gain_table.items()))
        )
        formula = f"\\text{{{gain_word}}}({trimmed(g)}) = {trimmed(gain)}"
        why = _("the table gives grade {g} the gain {gain}").format(g=f"{g:g}", gain=f"{gain:g}")
    else:
        record = GAIN_RULES[v.gain]
        # The rule and what to know of it, with no number of this list (its gain is the answer).
        rule = _("Here gain = {rule} ({words}).").format(rule=gain_text(v), words=_(record.words))
        rule += " " + _(record.about) + _examples(v, g, gain)
        symbol = gain_latex(v, f"\\text{{{grade_word}}}")
        worked = gain_latex(v, trimmed(g))
        formula = f"\\text{{{gain_word}}} = {symbol} = " + (f"{worked} = " if worked != trimmed(g) else "")
        formula += trimmed(gain)
        worked_text = gain_text(v, f"{g:g}")
        why = (
            f"{worked_text} = {trimmed(gain)}"
            if worked_text != f"{g:g}"
            else _("with {words} the gain is the grade, {g}").format(words=_(record.words), g=f"{g:g}")
        )
        others = [_(r.label) for name, r in GAIN_RULES.items() if name != v.gain]
        hints = (
            _("Try another rule under Gain in the sidebar: {rules}.").format(
                rules=separator(", ").join(others)
            ),
        )
    text = (
        _("Each grade becomes a gain: the points the item is worth, before its position counts."),
        rule,
    )
    if v.ties == "average" and steps["Score"].notna().any():
        text += (_("Tied scores share their group's average gain (the 'average' tie rule)."),)
    question = Question(
        prompt=_("What is the gain of {item} at position {top} (grade {g})?").format(
            item=row["Item"], top=top, g=f"{g:g}"
        ),
        why=why,
        exact=gain,
        mistakes=_mistakes(_gain_mistakes(ex, top)),
        quantity="gain",
        position=top,
    )
    return LessonStep(
        2,
        _("Gain: what an item is worth"),
        text,
        (*BASE_COLUMNS, "Gain"),
        ("Gain",),
        (formula,),
        question,
        hints=hints,
    )


#: Wikipedia's D1..D6, the lesson's opening list, under both discount forms (a test checks every
#: number against its closed form).
_D1_D6 = N_(
    "Wikipedia's example D1..D6 (grades 3, 2, 3, 0, 1, 2) scores NDCG@6 = 0.961 with gain = grade and "
    "the divisor log2(i + 1) taught here. Wikipedia's worked example divides by max(1, log2 i) instead and "
    "gets 0.932 (the Playground opens on that form). The list's first slip is the 2 at position 2 "
    "above a 3 at position 3: max(1, log2 i) divides positions 2 and 3 by 1 and 1.585, log2(i + 1) by "
    "1.585 and 2, so that swap costs 1 − 1/1.585 = 0.369 of DCG under the original form and "
    "1/1.585 − 1/2 = 0.131 under the common one."
)


def _discount_step(ex: Explanation) -> LessonStep:
    v = ex.variant
    p = _probe(ex)
    d = float(_row(ex, p)["Divisor"])
    first = ", ".join(trimmed(x) for x in ex.steps["Divisor"].iloc[:4])
    record = DISCOUNT_RULES[v.discount]
    yours = _("Here the divisor at position i is {rule}, {form}.").format(
        rule=divisor_text(v), form=_(record.form)
    )
    seen = _("Your first divisors: {first}.").format(first=first)
    formula = f"d_{{{p}}} = {divisor_latex(v, p)} = {trimmed(d)}"
    why = f"{divisor_text(v, p)} = {trimmed(d)}"
    # Before the prediction: the idea and every form, with no divisor of this list (each one
    # printed here could be the answer).
    base2 = v.with_(log_base=2.0)
    forms = tuple(
        _("Dividing by {rule}, {form}: {about}").format(
            rule=divisor_text(base2.with_(discount=name)), form=_(rule.form), about=_(rule.about)
        )
        for name, rule in DISCOUNT_RULES.items()
    )
    text = (
        _(
            "People read from the top and stop early, so a good item lower down is worth less to them. "
            "Each gain is therefore divided by a divisor that never shrinks as the position goes down."
        ),
        *forms,
        yours,
    )
    question = Question(
        prompt=_("What is the divisor at position {p}?").format(p=p),
        why=why,
        exact=d,
        mistakes=_mistakes(_divisor_mistakes(ex, p)),
        quantity="divisor",
        position=p,
    )
    return LessonStep(
        3,
        _("The position discount"),
        text,
        (*BASE_COLUMNS, "Gain", "Divisor"),
        ("Divisor",),
        (formula,),
        question,
        after=(seen, _(_D1_D6)),
    )


def _dcg_step(ex: Explanation) -> LessonStep:
    p = _probe(ex)
    row = _row(ex, p)
    gain, d, dg = float(row["Gain"]), float(row["Divisor"]), float(row["Discounted gain"])
    k_note = (
        _("the whole list")
        if ex.k >= len(ex.steps)
        else _("the top {k} rows (step 7 explains k)").format(k=ex.k)
    )
    text = (
        _("Divide each gain by its divisor: the discounted gain is what that position adds."),
        _(
            "Add the discounted gains from the top down. The running total is the cumulative DCG; "
            "its value at row k is DCG@k. Here k = {k}: {k_note}."
        ).format(k=ex.k, k_note=k_note),
        _(
            "Without the divisors you get CG, the plain sum of gains (CG@{k} = {cg}). "
            "CG ignores the order; DCG rewards putting the good items first."
        ).format(k=ex.k, cg=trimmed(ex.cg)),
    )
    wrong: dict[str, float | list[float]] = {
        name: wrong_gain / d for name, wrong_gain in _gain_mistakes(ex, p).items()
    }
    wrong |= {name: gain / wrong_d for name, wrong_d in _divisor_mistakes(ex, p).items()}
    wrong["cumulative_for_row"] = float(row["Cumulative DCG"])
    question = Question(
        prompt=_("What is the discounted gain at position {p} ({item}: gain {gain}, divisor {d})?").format(
            p=p, item=row["Item"], gain=trimmed(gain), d=trimmed(d)
        ),
        why=f"{trimmed(gain)} ÷ {trimmed(d)} = {trimmed(dg)}",
        exact=dg,
        mistakes=_mistakes(wrong),
        quantity="discounted_gain",
        position=p,
    )
    return LessonStep(
        4,
        _("DCG: add up what each position is worth"),
        text,
        (*BASE_COLUMNS, "Gain", "Divisor", "Discounted gain", "Cumulative DCG"),
        ("Discounted gain", "Cumulative DCG"),
        (dcg_latex(ex),),
        question,
        metrics=("DCG", "CG"),
        new_metric="DCG",
    )


def _ideal_step(ex: Explanation) -> LessonStep:
    hints: tuple[str, ...] = ()
    retrieved = set(ex.steps["Item"])
    missing = [str(x) for x in ex.ideal_steps["Item"] if x not in retrieved]
    if len(ex.ideal_steps) > len(ex.steps) and missing:
        extra = len(ex.ideal_steps) - len(ex.steps)
        # With their grades: the question asks for the best grade of all judged items.
        unretrieved = ex.ideal_steps[~ex.ideal_steps["Item"].isin(retrieved)]
        comma = separator(", ")
        names = comma.join(
            _("{item} (grade {g})").format(item=r["Item"], g=f"{r['Grade']:g}")
            for _i, r in unretrieved.head(4).iterrows()
        ) + (comma + "..." if len(missing) > 4 else "")
        pool = ngettext(
            "{n} judged item was never retrieved ({names}). They still enter the ideal ordering: "
            "a good item the system missed raises IDCG and so lowers the score.",
            "{n} judged items were never retrieved ({names}). They still enter the ideal ordering: "
            "a good item the system missed raises IDCG and so lowers the score.",
            extra,
        ).format(n=extra, names=names)
    elif ex.spec.ideal_source == "retrieved":
        pool = _(
            "Under {library}'s rules the ideal ordering is your list sorted by gain: judged items the "
            "system did not retrieve are left out, so a good item it missed does not lower the score."
        ).format(library=ex.spec.library)
    else:
        pool = _(
            "Your list holds every judged item, so the ideal ordering is your list sorted by gain. "
            "A judged item the system never retrieved would join it too."
        )
        hints = (_("To see it, add one under 'Not retrieved' in the Playground."),)
    top = ex.ideal_steps.iloc[0]
    text = (
        _("Is DCG@{k} = {dcg} good? That depends on what there was to find.").format(
            k=ex.k, dcg=trimmed(ex.dcg)
        ),
        _(
            "Sort every judged item by gain, best first: that is the best order possible. Its DCG, cut at "
            "the same k, is the ideal DCG (IDCG)."
        ),
        pool,
    )
    if ex.idcg_depth > ex.k:
        text = (
            *text,
            _(
                "With no cutoff, {library}'s rules do not cut IDCG at k = {k}: it sums all {n} judged "
                "items, so {name} sits beside DCG@{k}."
            ).format(library=ex.spec.library, k=ex.k, n=ex.idcg_depth, name=ex.named("IDCG")),
        )
    wrong: dict[str, float] = {"ideal_unsorted": float(ex.steps["Grade"].iloc[0])}  # the list as given
    if len(ex.ideal_steps) > len(ex.steps) and missing:
        best_retrieved = ex.steps.iloc[int(ex.steps["Gain"].to_numpy().argmax())]
        wrong["ideal_retrieved_only"] = float(best_retrieved["Grade"])
    question = Question(
        prompt=_("Which grade does the ideal ordering put at position 1?"),
        why=_("the highest-gain judged item goes first: {item}, grade {g}").format(
            item=top["Item"], g=f"{top['Grade']:g}"
        ),
        exact=float(top["Grade"]),
        mistakes=_mistakes(wrong),
        quantity="grade",
    )
    return LessonStep(
        5,
        _("The ideal ordering and IDCG"),
        text,
        (*BASE_COLUMNS, "Gain", "Divisor", "Discounted gain", "Cumulative DCG"),
        (),
        (dcg_latex(ex, ideal=True),),
        question,
        ideal=True,
        metrics=("DCG", "IDCG"),
        new_metric="IDCG",
        hints=hints,
    )


def _ndcg_step(ex: Explanation) -> LessonStep:
    text = [
        _(
            "Divide your DCG by the ideal DCG. The result is the share of the best possible DCG that "
            "your order achieves: 1 means your order is as good as the ideal one."
        ),
        _(
            "Each query is measured against its own best, so an easy query and a hard one both top "
            "out at 1: that is what makes NDCG comparable across queries."
        ),
    ]
    question = None
    if not ex.spec.undefined(ex.idcg):
        question = Question(
            prompt=_("What is NDCG@{k} = {dcg} ÷ {idcg}? (2 decimals are enough)").format(
                k=ex.k, dcg=trimmed(ex.dcg), idcg=trimmed(ex.idcg)
            ),
            why=f"{trimmed(ex.dcg)} ÷ {trimmed(ex.idcg)} = {trimmed(ex.ndcg)}",
            exact=ex.ndcg,
            mistakes=_mistakes({"swapped": ex.idcg / ex.dcg} if ex.dcg else {}),
            quantity="ndcg",
        )
    else:
        text.append(
            _(
                "Here {name} = {idcg}, not above 0: there is nothing relevant to find, or negative "
                "gains outweigh the rest. Dividing by it means nothing, so the rule 'When IDCG = 0' "
                "({rule}) decides the score."
            ).format(
                name=ex.named("IDCG"),
                idcg=trimmed(ex.idcg),
                rule=_(choice_label("zero_idcg", ex.variant.zero_idcg)),
            )
        )
    return LessonStep(
        6,
        _("NDCG = DCG ÷ IDCG"),
        tuple(text),
        (*BASE_COLUMNS, "Gain", "Divisor", "Discounted gain", "Cumulative DCG"),
        (),
        (ndcg_latex(ex),),
        question,
        metrics=("NDCG", "DCG", "IDCG"),
        new_metric="NDCG",
    )


def cutoff_for(n: int) -> int | None:
    """The k step 7 opens with for a list of ``n`` items when its k covers the whole list: two rows
    below the cutoff, at most a first screen of ten (None for a list too short to cut).

    >>> cutoff_for(6), cutoff_for(30), cutoff_for(2), cutoff_for(1)
    (4, 10, 1, None)
    """
    return None if n < 2 else max(1, min(10, n - 2))


def _cutoff_step(ex: Explanation) -> LessonStep:
    n, k = len(ex.steps), ex.k
    if k < n:
        hidden = ex.steps[ex.steps["Beyond k"]]
        comma = separator(", ")
        names = comma.join(
            _("{item} (grade {g})").format(item=r["Item"], g=f"{r['Grade']:g}")
            for _i, r in hidden.head(4).iterrows()
        )
        more = comma + "..." if len(hidden) > 4 else ""
        seen = _(
            "Here k = {k}: rows {first} to {n} add nothing to DCG@{k}, whatever their grades: {names}. "
            "A list can score NDCG@{k} = 1 even if a bad item follows at position {first}."
        ).format(k=k, first=k + 1, n=n, names=names + more)
    else:
        seen = _(
            "Here k = {k} covers the whole list, so nothing is hidden. Set k to 3 in the sidebar "
            "and watch the rows below 3 stop counting."
        ).format(k=k)
    # Before the prediction: what k is, not what it does to the rows below it (the answer).
    text = (
        _(
            "People rarely look past the first screen, so NDCG is usually reported at a cutoff k, "
            "written NDCG@k: NDCG@10, say, for a first screen of ten results."
        ),
        ngettext(
            "Here k = {k}, and your list has {n} item.", "Here k = {k}, and your list has {n} items.", n
        ).format(k=k, n=n),
    )
    if ex.idcg_depth > k:
        counts = _("DCG@k counts only the top k positions.")
    else:
        counts = _("NDCG@k counts only the top k positions: DCG and the ideal ordering are both cut at k.")
    question = Question(
        prompt=_("Do rows below position k add anything to DCG@k?"),
        why=_("DCG@k stops at row k; the rows below it are not counted"),
        # The choices stay English keys (what an answer stores); the page shows _(choice).
        choices=(N_("Yes, with a smaller weight"), N_("No, nothing at all")),
        answer="No, nothing at all",
    )
    return LessonStep(
        7,
        _("The cutoff k"),
        text,
        (*BASE_COLUMNS, "Gain", "Divisor", "Discounted gain", "Cumulative DCG", "Beyond k"),
        ("Beyond k",),
        (ndcg_latex(ex),),
        question,
        metrics=("NDCG", "DCG", "IDCG"),
        after=(counts, seen),
    )


def _list_step(ex: Explanation) -> LessonStep:
    best = ex.steps.iloc[int(ex.steps["Grade"].to_numpy().argmax())]
    text = (
        _(
            "A search engine or recommender returns a ranked list, best guess first. A person then "
            "judged each item with a relevance grade: 0 means not relevant, higher means more useful."
        ),
        ngettext(
            "Your list has {n} item; the most relevant is {item} (grade {g}) at position {p}.",
            "Your list has {n} items; the most relevant is {item} (grade {g}) at position {p}.",
            len(ex.steps),
        ).format(n=len(ex.steps), item=best["Item"], g=f"{best['Grade']:g}", p=int(best["Position"])),
        _(
            "NDCG turns the order and the grades into one number. When no gain is negative and "
            "something is relevant, it lies between 0 and 1, and 1 means no better order of these "
            "items exists. Six steps build it."
        ),
    )
    grades = ", ".join(f"{g:g}" for g in ex.steps["Grade"].iloc[:10])
    top_first = _("grades, top first:")
    more = ", \\ldots" if len(ex.steps) > 10 else ""
    return LessonStep(
        1,
        _("A ranked list and its grades"),
        text,
        BASE_COLUMNS,
        (),
        (f"\\text{{{top_first} }} {grades}{more}",),
        None,
    )


_BUILDERS = (_list_step, _gain_step, _discount_step, _dcg_step, _ideal_step, _ndcg_step, _cutoff_step)


def lesson_step(n: int, ex: Explanation) -> LessonStep:
    """Step ``n`` (1..7) of the lesson for the list that ``ex`` explains (at least one item)."""
    if not 1 <= n <= N_STEPS:
        raise NDCGError("lesson_step_range", max=N_STEPS, n=n)
    if ex.steps.empty:
        raise NDCGError("lesson_needs_items")
    return _BUILDERS[n - 1](ex)


def check_answer(question: Question, text: str) -> Feedback:
    """Judge a prediction with the shared checker (:func:`ndcg_core.teaching.answers.judge`).

    A number is right when it agrees with the exact value at the precision typed; a wrong one
    names the mistake that gives it (the question's ``mistakes``). Unreadable input, and a number
    too rough to tell the right value from a mistake's, get ``correct=None`` and a message saying
    what is expected.
    """
    if question.choices:
        if text not in question.choices:
            return Feedback(
                None, _("Pick one of: {choices}.").format(choices=" / ".join(map(_, question.choices)))
            )
        ok = text == question.answer
        message = (_("Right: {why}.") if ok else _("Not quite: {why}.")).format(why=question.why)
        return Feedback(ok, message, diagnosis=message)
    assert question.exact is not None
    try:
        answer = parse_answer(text, avoid=(question.exact,))
    except ValueError as err:
        message = _("Your answer could not be read: {problem}.").format(problem=error_text(err))
        return Feedback(None, message, diagnosis=message)
    verdict = judge(answer, question.exact, dict(question.mistakes), fraction=question.quantity == "ndcg")
    if verdict.kind == RIGHT:
        message = _("Right: {why}.").format(why=question.why)
        message = noted(verdict, message)  # a percentage, read as the fraction it is
        return Feedback(True, message, diagnosis=message)
    if verdict.problem is not None:  # too rough, or a fraction typed as a percentage: not a try
        message = problem_text(verdict)
        return Feedback(None, message, diagnosis=message)
    if verdict.kind == MISTAKE:
        reasons = _("; or you ").join(_(mistake_text(m, question.quantity)) for m in verdict.mistakes)
        diagnosis = _("Not quite: it looks like you {reasons}.").format(reasons=reasons)
        message = _("Not quite: you said {answer}; it looks like you {reasons}. The answer: {why}.").format(
            answer=answer.text, reasons=reasons, why=question.why
        )
        return Feedback(False, message, diagnosis, verdict.mistakes)
    diagnosis = _("Not quite: {answer} is not it, and no common mistake gives it.").format(answer=answer.text)
    message = _("Not quite: you said {answer}; {why}.").format(answer=answer.text, why=question.why)
    return Feedback(False, message, diagnosis)

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

from dataclasses import dataclass

from .answers import is_correct, parse_answer, precision_problem, same_at_precision
from .formula import dcg_latex, ndcg_latex, trimmed
from .metrics import Explanation
from .variants import format_base

__all__ = [
    "COLUMN_HELP",
    "IDEAL_COLUMNS",
    "N_STEPS",
    "Feedback",
    "LessonStep",
    "Question",
    "check_answer",
    "clamp_step",
    "lesson_step",
    "step_frame",
]

N_STEPS = 7

#: One line per column a step table can show (the Playground's tables use it too).
COLUMN_HELP: dict[str, str] = {
    "Position": "Place in the ranked list, 1 = top. In long Playground tables ✓ marks rows counted in DCG@k.",
    "Item": "The item's name, as typed.",
    "Grade": "How relevant a person judged the item: 0 = not relevant, higher = more useful.",
    "Gain": "What the item is worth wherever it stands: the grade itself (linear) or 2^grade − 1.",
    "Divisor": "What this position divides the gain by; it grows with the position, like a logarithm.",
    "Discounted gain": "Gain ÷ divisor: what this position adds to DCG.",
    "Cumulative DCG": "Running total of the discounted gains from the top down to this row (stops at k).",
    "Cumulative IDCG": "The same running total for the ideal ordering; its value at k is IDCG@k.",
    "Beyond k": "yes: the row is below the cutoff k and adds nothing to DCG@k.",
    "Score": "The model's score; the ranking puts higher scores first.",
    "Tie group": "Items with equal scores share a group number; the tie rule orders them.",
    "CG": "Cumulative gain: the plain sum of the gains in the top k, ignoring their order.",
    "DCG": "Discounted cumulative gain: the sum of the discounted gains in the top k.",
    "IDCG": "Ideal DCG: the DCG of the best possible order of all judged items, cut at k.",
    "NDCG": "DCG ÷ IDCG: the share of the best possible DCG this order achieves.",
}

BASE_COLUMNS = ("Position", "Item", "Grade")
IDEAL_COLUMNS = ("Position", "Item", "Grade", "Gain", "Divisor", "Discounted gain", "Cumulative IDCG")


@dataclass(frozen=True)
class Question:
    """A prediction asked before a step's new column appears.

    A number question has ``exact``; a choice question has two ``choices``
    and the right one in ``answer``. ``why`` is the one-line working shown
    with the feedback.
    """

    prompt: str
    why: str
    exact: float | None = None
    choices: tuple[str, ...] = ()
    answer: str | None = None


@dataclass(frozen=True)
class Feedback:
    """The verdict on a prediction: ``correct`` is None when the input could not be read."""

    correct: bool | None
    message: str


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


def _log(base: float) -> str:
    b = format_base(base)
    return "\\ln" if b == "e" else f"\\log_{{{b}}}"


def _log_text(base: float) -> str:
    b = format_base(base)
    return "ln" if b == "e" else f"log{b}" if b in {"2", "10"} else f"log_{b}"


def _gain_step(ex: Explanation) -> LessonStep:
    v = ex.variant
    steps = ex.steps
    top = int(steps["Grade"].to_numpy().argmax()) + 1
    row = _row(ex, top)
    g, gain = float(row["Grade"]), float(row["Gain"])
    if v.gain_table is not None:
        rule = "Here a custom table turns each grade into its gain: " + ", ".join(
            f"{a:g} → {b:g}" for a, b in sorted(v.gain_table.items())
        )
        formula = f"\\mathrm{{gain}}({trimmed(g)}) = {trimmed(gain)}"
        why = f"the table gives grade {g:g} the gain {gain:g}"
    elif v.gain == "exponential":
        rule = (
            "Here the gain is 2^grade − 1: grades 0, 1, 2, 3 are worth 0, 1, 3, 7. Each step up "
            "the scale doubles the worth (plus one), so one excellent item outweighs two good ones."
        )
        formula = f"\\mathrm{{gain}} = 2^{{\\mathrm{{grade}}}} - 1 = 2^{{{trimmed(g)}}} - 1 = {trimmed(gain)}"
        why = f"2^{g:g} − 1 = {trimmed(gain)}"
    else:
        rule = (
            "Here the gain is the grade itself (linear gain). Many search teams use 2^grade − 1 "
            "instead: grades 0, 1, 2, 3 are then worth 0, 1, 3, 7, so one excellent item "
            "outweighs two good ones. Try 'exponential' under Gain in the sidebar."
        )
        formula = f"\\mathrm{{gain}} = \\mathrm{{grade}} = {trimmed(gain)}"
        why = f"with linear gain the gain is the grade, {g:g}"
    text = (
        "Each grade becomes a gain: the points the item is worth, before its position counts.",
        rule,
    )
    if v.ties == "average" and steps["Score"].notna().any():
        text += ("Tied scores share their group's average gain (the 'average' tie rule).",)
    question = Question(
        prompt=f"What is the gain of {row['Item']} at position {top} (grade {g:g})?",
        why=why,
        exact=gain,
    )
    return LessonStep(
        2,
        "Gain: what an item is worth",
        text,
        (*BASE_COLUMNS, "Gain"),
        ("Gain",),
        (formula,),
        question,
    )


def _discount_step(ex: Explanation) -> LessonStep:
    v = ex.variant
    p = _probe(ex)
    d = float(_row(ex, p)["Divisor"])
    first = ", ".join(trimmed(x) for x in ex.steps["Divisor"].iloc[:4])
    log, b = _log(v.log_base), format_base(v.log_base)
    if v.discount == "log":
        rule = (
            f"Here the divisor at position i is {_log_text(v.log_base)}(i + 1). Your first divisors: {first}."
        )
        formula = f"d_{{{p}}} = {log}({p} + 1) = {trimmed(d)}"
        why = f"{_log_text(v.log_base)}({p} + 1) = {trimmed(d)}"
    else:
        rule = (
            f"Here the divisor is max(1, {_log_text(v.log_base)} i), the original form: positions "
            f"up to {b} are not discounted at all (divisor 1). Your first divisors: {first}."
        )
        formula = f"d_{{{p}}} = \\max(1, {log} {p}) = {trimmed(d)}"
        why = f"max(1, {_log_text(v.log_base)} {p}) = {trimmed(d)}"
    text = (
        "People read from the top and stop early, so a good item lower down is worth less to them. "
        "Each gain is therefore divided by a divisor that grows with the position.",
        "The divisor grows like a logarithm: quickly over the first positions, then slowly, so "
        "positions 9 and 10 are discounted almost equally.",
        rule,
    )
    question = Question(prompt=f"What is the divisor at position {p}?", why=why, exact=d)
    return LessonStep(
        3,
        "The position discount",
        text,
        (*BASE_COLUMNS, "Gain", "Divisor"),
        ("Divisor",),
        (formula,),
        question,
    )


def _dcg_step(ex: Explanation) -> LessonStep:
    p = _probe(ex)
    row = _row(ex, p)
    gain, d, dg = float(row["Gain"]), float(row["Divisor"]), float(row["Discounted gain"])
    k_note = "the whole list" if ex.k >= len(ex.steps) else f"the top {ex.k} rows (step 7 explains k)"
    text = (
        "Divide each gain by its divisor: the discounted gain is what that position adds.",
        "Add the discounted gains from the top down. The running total is the cumulative DCG; "
        f"its value at row k is DCG@k. Here k = {ex.k}: {k_note}.",
        f"Without the divisors you get CG, the plain sum of gains (CG@{ex.k} = {trimmed(ex.cg)}). "
        "CG ignores the order; DCG rewards putting the good items first.",
    )
    question = Question(
        prompt=f"What is the discounted gain at position {p} ({row['Item']}: gain {trimmed(gain)}, "
        f"divisor {trimmed(d)})?",
        why=f"{trimmed(gain)} ÷ {trimmed(d)} = {trimmed(dg)}",
        exact=dg,
    )
    return LessonStep(
        4,
        "DCG: add up what each position is worth",
        text,
        (*BASE_COLUMNS, "Gain", "Divisor", "Discounted gain", "Cumulative DCG"),
        ("Discounted gain", "Cumulative DCG"),
        (dcg_latex(ex),),
        question,
        metrics=("DCG", "CG"),
        new_metric="DCG",
    )


def _ideal_step(ex: Explanation) -> LessonStep:
    retrieved = set(ex.steps["Item"])
    missing = [str(x) for x in ex.ideal_steps["Item"] if x not in retrieved]
    if len(ex.ideal_steps) > len(ex.steps) and missing:
        extra = len(ex.ideal_steps) - len(ex.steps)
        counted = "1 judged item was" if extra == 1 else f"{extra} judged items were"
        pool = (
            f"{counted} never retrieved ({', '.join(missing[:4])}{', ...' if len(missing) > 4 else ''}). "
            "They still enter the "
            "ideal ordering: a good item the system missed raises IDCG and so lowers the score."
        )
    else:
        pool = (
            "Your list holds every judged item, so the ideal ordering is your list sorted by gain. "
            "A judged item the system never retrieved would join it too: add one under "
            "'Not retrieved' in the Playground."
        )
    top = ex.ideal_steps.iloc[0]
    text = (
        f"Is DCG@{ex.k} = {trimmed(ex.dcg)} good? That depends on what there was to find.",
        "Sort every judged item by gain, best first: that is the best order possible. Its DCG, cut at "
        "the same k, is the ideal DCG (IDCG).",
        pool,
    )
    question = Question(
        prompt="Which grade does the ideal ordering put at position 1?",
        why=f"the highest-gain judged item goes first: {top['Item']}, grade {top['Grade']:g}",
        exact=float(top["Grade"]),
    )
    return LessonStep(
        5,
        "The ideal ordering and IDCG",
        text,
        (*BASE_COLUMNS, "Gain", "Divisor", "Discounted gain", "Cumulative DCG"),
        (),
        (dcg_latex(ex, ideal=True),),
        question,
        ideal=True,
        metrics=("DCG", "IDCG"),
        new_metric="IDCG",
    )


def _ndcg_step(ex: Explanation) -> LessonStep:
    text = [
        "Divide your DCG by the ideal DCG. The result is the share of the best possible DCG that "
        "your order achieves: 1 means your order is as good as the ideal one.",
        "Each query is measured against its own best, so an easy query and a hard one both top "
        "out at 1: that is what makes NDCG comparable across queries.",
    ]
    question = None
    if ex.idcg > 0:
        question = Question(
            prompt=f"What is NDCG@{ex.k} = {trimmed(ex.dcg)} ÷ {trimmed(ex.idcg)}? (2 decimals are enough)",
            why=f"{trimmed(ex.dcg)} ÷ {trimmed(ex.idcg)} = {trimmed(ex.ndcg)}",
            exact=ex.ndcg,
        )
    else:
        text.append(
            f"Here IDCG@{ex.k} = {trimmed(ex.idcg)}: no judged item has a positive gain, so the division "
            f"is undefined and the rule 'When IDCG = 0' ({ex.variant.zero_idcg}) decides the score."
        )
    return LessonStep(
        6,
        "NDCG = DCG ÷ IDCG",
        tuple(text),
        (*BASE_COLUMNS, "Gain", "Divisor", "Discounted gain", "Cumulative DCG"),
        (),
        (ndcg_latex(ex),),
        question,
        metrics=("NDCG", "DCG", "IDCG"),
        new_metric="NDCG",
    )


def _cutoff_step(ex: Explanation) -> LessonStep:
    n, k = len(ex.steps), ex.k
    if k < n:
        hidden = ex.steps[ex.steps["Beyond k"]]
        names = ", ".join(f"{r['Item']} (grade {r['Grade']:g})" for _, r in hidden.head(4).iterrows())
        more = ", ..." if len(hidden) > 4 else ""
        seen = (
            f"Here k = {k}: rows {k + 1} to {n} add nothing to DCG@{k}, whatever their grades: "
            f"{names}{more}. "
            f"A list can score NDCG@{k} = 1 even if a bad item follows at position {k + 1}."
        )
    else:
        seen = (
            f"Here k = {k} covers the whole list, so nothing is hidden. Set k to 3 in the sidebar "
            "and watch the rows below 3 stop counting."
        )
    text = (
        "People rarely look past the first screen, so NDCG is usually reported at a cutoff k: "
        "NDCG@10 counts only the top 10 positions, and the ideal ordering is cut at k too.",
        seen,
    )
    question = Question(
        prompt="Do rows below position k add anything to DCG@k?",
        why="DCG@k stops at row k; the rows below it are not counted at all",
        choices=("Yes, with a smaller weight", "No, nothing at all"),
        answer="No, nothing at all",
    )
    return LessonStep(
        7,
        "The cutoff k, and what it hides",
        text,
        (*BASE_COLUMNS, "Gain", "Divisor", "Discounted gain", "Cumulative DCG", "Beyond k"),
        ("Beyond k",),
        (ndcg_latex(ex),),
        question,
        metrics=("NDCG", "DCG", "IDCG"),
    )


def _list_step(ex: Explanation) -> LessonStep:
    best = ex.steps.iloc[int(ex.steps["Grade"].to_numpy().argmax())]
    text = (
        "A search engine or recommender returns a ranked list, best guess first. A person then "
        "judged each item with a relevance grade: 0 means not relevant, higher means more useful.",
        f"Your list has {len(ex.steps)} items; the most relevant is {best['Item']} (grade "
        f"{best['Grade']:g}) at position {int(best['Position'])}.",
        "NDCG turns the order and the grades into one number. With grades of 0 or more it lies "
        "between 0 and 1, and 1 means no better order of these items exists. Six steps build it.",
    )
    grades = ", ".join(f"{g:g}" for g in ex.steps["Grade"].iloc[:10])
    more = ", \\ldots" if len(ex.steps) > 10 else ""
    return LessonStep(
        1,
        "A ranked list and its grades",
        text,
        BASE_COLUMNS,
        (),
        (f"\\text{{grades, top first: }} {grades}{more}",),
        None,
    )


_BUILDERS = (_list_step, _gain_step, _discount_step, _dcg_step, _ideal_step, _ndcg_step, _cutoff_step)


def lesson_step(n: int, ex: Explanation) -> LessonStep:
    """Step ``n`` (1..7) of the lesson for the list that ``ex`` explains (at least one item)."""
    if not 1 <= n <= N_STEPS:
        raise ValueError(f"the lesson has steps 1 to {N_STEPS}, not {n}")
    if ex.steps.empty:
        raise ValueError("the lesson needs a list with at least one item")
    return _BUILDERS[n - 1](ex)


def check_answer(question: Question, text: str) -> Feedback:
    """Judge a prediction with the shared answer rules (:mod:`ndcg_core.answers`).

    A number is accepted when it agrees with the exact value at the precision
    typed; unreadable input gets ``correct=None`` and a message saying what is
    expected.
    """
    if question.choices:
        if text not in question.choices:
            return Feedback(None, f"Pick one of: {' / '.join(question.choices)}.")
        ok = text == question.answer
        return Feedback(ok, f"{'Right' if ok else 'Not quite'}: {question.why}.")
    assert question.exact is not None
    try:
        answer = parse_answer(text)
    except ValueError as err:
        return Feedback(None, f"Your answer could not be read: {err}.")
    exact = question.exact
    if answer.value == exact:
        # Typed exactly (1.5 for 1.5): right at any precision; the shared rule asks 2 decimals.
        return Feedback(True, f"Right: {question.why}.")
    too_rough = precision_problem(answer, exact)
    if too_rough and same_at_precision(answer, exact):
        return Feedback(None, f"Close, but {too_rough}.")
    if is_correct(answer, exact):
        return Feedback(True, f"Right: {question.why}.")
    return Feedback(False, f"Not quite: you said {answer.text}; {question.why}.")


def step_frame(ex: Explanation, columns: tuple[str, ...], *, ideal: bool = False):
    """The step table restricted to ``columns``, in that order (``Cumulative IDCG`` for the ideal)."""
    steps = ex.ideal_steps if ideal else ex.steps
    frame = steps.rename(columns={"Cumulative DCG": "Cumulative IDCG"}) if ideal else steps
    return frame[list(columns)].reset_index(drop=True)

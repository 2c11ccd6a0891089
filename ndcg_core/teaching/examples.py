"""Every worked example of the source documents, as data.

Each :class:`WorkedExample` holds a ranked list, its labels, the formula
variant the document uses, the judged pool when the ideal ordering needs
items the list did not retrieve, and the :class:`Figure` s the document
prints, at the document's own precision. Where a printed figure is not the
exact value rounded to that precision, the figure carries a one-line note
saying why (a term cut off instead of rounded, a sum of rounded terms, an
arithmetic slip). The tests check both directions: every exact value agrees
with its printed figure or is explained, and every explanation is needed.

The five source documents are keyed "000" to "004" (:data:`SOURCES`): 000 an NDCG explainer
article, 001 a short note with items A..E, 002 a recommender-system article
(Apple Watch / Adidas shorts / Nike sneakers), 003 "Intro to NDCG", 004 the
Wikipedia article "Discounted cumulative gain".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..errors import NDCGError
from ..explanation import Explanation, explain
from ..i18n import N_
from ..spec import Spec
from ..variants import Variant

__all__ = [
    "DATASET_EXAMPLES",
    "EXAMPLES",
    "SOURCES",
    "DatasetExample",
    "Figure",
    "WorkedExample",
    "get_example",
]

SOURCES: dict[str, str] = {
    "000": N_("NDCG explainer article (binary and graded examples, D1..D5)"),
    "001": N_("Short NDCG note with items A..E and decimal grades"),
    "002": N_("Recommender-system article: Apple Watch, Adidas shorts, Nike sneakers"),
    "003": N_('"Intro to NDCG": exponential gain, natural log, data-set averaging'),
    "004": N_('Wikipedia, "Discounted cumulative gain": D1..D6'),
}


@dataclass(frozen=True)
class Figure:
    """A number a document prints, and where it comes from in our computation.

    ``quantity`` is one of ``"cg"``, ``"dcg"``, ``"idcg"``, ``"ndcg"``,
    ``"divisor@i"``, ``"term@i"`` (discounted gain at position i of the
    ranking) or ``"ideal_term@i"`` (the same in the ideal ordering).
    ``printed`` is the figure exactly as printed; its number of decimals is
    the document's precision. ``note`` explains a printed figure that is not
    the exact value rounded to that precision.
    """

    label: str
    quantity: str
    printed: str
    note: str = ""

    @property
    def decimals(self) -> int:
        """How many decimals the document printed."""
        return len(self.printed.partition(".")[2])

    def exact(self, ex: Explanation) -> float:
        """The exact value of this figure in an explanation."""
        name, _, pos = self.quantity.partition("@")
        if not pos:
            return float(getattr(ex, name))
        row = int(pos) - 1
        if name == "divisor":
            return float(ex.steps["Divisor"].iloc[row])
        if name == "term":
            return float(ex.steps["Discounted gain"].iloc[row])
        if name == "ideal_term":
            return float(ex.ideal_steps["Discounted gain"].iloc[row])
        raise NDCGError("unknown_figure_quantity", quantity=repr(self.quantity))

    def matches(self, ex: Explanation) -> bool:
        """True when the exact value, rounded to the printed precision, is the printed figure."""
        exact = self.exact(ex)
        printed = float(self.printed)
        # Half a unit in the last printed place, plus float noise for 15+ digits.
        return abs(exact - printed) <= 0.5 * 10.0 ** (-self.decimals) + 1e-12


@dataclass(frozen=True)
class WorkedExample:
    """One worked example: a list, its variant and the figures printed for it."""

    key: str
    seed: str
    title: str
    lesson: str
    grades: tuple[float, ...]
    labels: tuple[str, ...] | None = None
    variant: Variant = field(default_factory=Variant)
    pool: tuple[float, ...] | None = None
    pool_labels: tuple[str, ...] | None = None
    figures: tuple[Figure, ...] = ()
    group: str = ""

    def explain(self) -> Explanation:
        """Run the example through :func:`ndcg_core.explain`."""
        return explain(
            list(self.grades),
            labels=list(self.labels) if self.labels else None,
            ideal=list(self.pool) if self.pool is not None else None,
            ideal_labels=list(self.pool_labels) if self.pool_labels else None,
            spec=Spec(self.variant),
        )


@dataclass(frozen=True)
class DatasetExample:
    """Several queries, to show the two ways of averaging over a data set."""

    key: str
    seed: str
    title: str
    lesson: str
    queries: tuple[tuple[float, ...], ...]
    variant: Variant = field(default_factory=Variant)

    def per_query(self) -> list[Explanation]:
        return [explain(list(q), spec=Spec(self.variant)) for q in self.queries]

    def mean_ndcg(self) -> float:
        """The mean of per-query NDCG (NaN scores, from zero_idcg='skip', left out)."""
        values = np.array([e.ndcg for e in self.per_query()])
        return float(np.nanmean(values)) if np.isfinite(values).any() else math.nan

    def ratio_of_sums(self) -> float:
        """Sum of DCG over sum of IDCG: long, easy queries weigh more."""
        parts = self.per_query()
        return sum(e.dcg for e in parts) / sum(e.idcg for e in parts)


_D5 = tuple(f"D{i}" for i in range(1, 6))
_D6 = tuple(f"D{i}" for i in range(1, 7))
_SHAPED_POOL = (0, 1, 1, 1)
_SHAPED_POOL_LABELS = ("Nike sneakers", "Adidas shorts", "Apple Watch", "Apple item (not retrieved)")
_BURGES_E = Variant(gain="exponential", log_base=math.e)
_JK = Variant(discount="jarvelin")

EXAMPLES: tuple[WorkedExample, ...] = (
    # ---- seed 000 --------------------------------------------------------
    WorkedExample(
        key="binary-dcg3-a",
        seed="000",
        title=N_("Binary clicks 1,0,1,1,0 at k = 3"),
        lesson=N_("Only the top 3 count; the miss at position 2 costs the whole second term."),
        grades=(1, 0, 1, 1, 0),
        variant=Variant(k=3),
        figures=(
            Figure("1/log2(4)", "term@3", "0.5"),
            Figure("DCG@3", "dcg", "1.5"),
        ),
        group="binary-dcg3",
    ),
    WorkedExample(
        key="binary-dcg3-b",
        seed="000",
        title=N_("Binary clicks 1,1,0,1,0 at k = 3"),
        lesson=N_("Moving a relevant item from position 3 up to 2 raises DCG@3 from 1.5 to 1.63."),
        grades=(1, 1, 0, 1, 0),
        variant=Variant(k=3),
        figures=(
            Figure("log2(3)", "divisor@2", "1.585"),
            Figure("DCG@3", "dcg", "1.63"),
        ),
        group="binary-dcg3",
    ),
    WorkedExample(
        key="graded-d1-d5",
        seed="000",
        title=N_("Five documents graded 3,2,0,0,1"),
        lesson=N_("Swapping the grade-1 document above the two zeros is all it takes to reach the ideal."),
        grades=(3, 2, 0, 0, 1),
        labels=_D5,
        figures=(
            Figure("CG", "cg", "6"),
            Figure("2/log2(3)", "term@2", "1.26"),
            Figure("log2(6)", "divisor@5", "2.585"),
            Figure(
                "1/log2(6)",
                "term@5",
                "0.3868",
                N_("1/2.585 = 0.38685 was cut to four decimals instead of rounded (0.3869)."),
            ),
            Figure(
                "DCG5",
                "dcg",
                "4.67",
                N_(
                    "Arithmetic slip: the article's own terms 3 + 1.26 + 0.3868 add up to 4.65, "
                    "and the exact DCG5 is 4.649."
                ),
            ),
            Figure("IDCG5", "idcg", "4.76"),
            Figure("nDCG", "ndcg", "0.98"),
        ),
    ),
    # ---- seed 001 --------------------------------------------------------
    WorkedExample(
        key="items-abcde",
        seed="001",
        title=N_("Items A..E in order A,B,C,D,E"),
        lesson=N_("Decimal grades work like any others; B (0.9) deserves the top spot."),
        grades=(0.5, 0.9, 0.3, 0.6, 0.1),
        labels=("A", "B", "C", "D", "E"),
        figures=(
            Figure("CG", "cg", "2.4"),
            Figure(
                "log2(3)",
                "divisor@2",
                "1.59",
                N_("Rounded twice: log2(3) = 1.58496 became 1.585, then 1.59; in one step it is 1.58."),
            ),
            Figure("log2(5)", "divisor@4", "2.32"),
            Figure(
                "log2(6)",
                "divisor@5",
                "2.59",
                N_("Rounded twice: log2(6) = 2.58496 became 2.585, then 2.59; in one step it is 2.58."),
            ),
            Figure("B: 0.9/log2(3)", "term@2", "0.57"),
            Figure("D: 0.6/log2(5)", "term@4", "0.26"),
            Figure("E: 0.1/log2(6)", "term@5", "0.04"),
            Figure(
                "DCG",
                "dcg",
                "1.52",
                N_(
                    "The note adds the rounded terms 0.5 + 0.57 + 0.15 + 0.26 + 0.04 = 1.52; "
                    "the exact sum is 1.5149, which rounds to 1.51."
                ),
            ),
            Figure(N_("ideal: D: 0.6/log2(3)"), "ideal_term@2", "0.38"),
            Figure(N_("IDCG (order B,D,A,C,E)"), "idcg", "1.7"),
        ),
        group="items",
    ),
    WorkedExample(
        key="items-daecb",
        seed="001",
        title=N_("Items A..E in order D,A,E,C,B"),
        lesson=N_("Same items, same CG 2.4, but B sinks to the bottom and DCG drops to 1.44."),
        grades=(0.6, 0.5, 0.1, 0.3, 0.9),
        labels=("D", "A", "E", "C", "B"),
        figures=(
            Figure("CG", "cg", "2.4"),
            Figure(
                "A: 0.5/log2(3)",
                "term@2",
                "0.31",
                N_(
                    "Computed with the rounded divisor 1.59 (0.5/1.59 = 0.314); exactly, "
                    "0.5/1.585 = 0.3155 rounds to 0.32."
                ),
            ),
            Figure("E: 0.1/log2(4)", "term@3", "0.05"),
            Figure("C: 0.3/log2(5)", "term@4", "0.13"),
            Figure("B: 0.9/log2(6)", "term@5", "0.35"),
            Figure("DCG", "dcg", "1.44"),
        ),
        group="items",
    ),
    # ---- seed 002 --------------------------------------------------------
    WorkedExample(
        key="shop-binary-a",
        seed="002",
        title=N_("Shop, bought or not: list A (sneakers, shorts, watch)"),
        lesson=N_("A third relevant item that neither list retrieved still raises IDCG@3 to 2.131."),
        grades=(0, 1, 1),
        labels=("Nike sneakers", "Adidas shorts", "Apple Watch"),
        variant=Variant(k=3),
        pool=_SHAPED_POOL,
        pool_labels=_SHAPED_POOL_LABELS,
        figures=(
            Figure("1/log2(3)", "term@2", "0.631"),
            Figure("DCG@3", "dcg", "1.131"),
            Figure("IDCG@3", "idcg", "2.131"),
            Figure("NDCG@3", "ndcg", "0.531"),
        ),
        group="shop-binary",
    ),
    WorkedExample(
        key="shop-binary-b",
        seed="002",
        title=N_("Shop, bought or not: list B (watch, shorts, sneakers)"),
        lesson=N_("Both purchases on top: list B wins when every purchase counts the same."),
        grades=(1, 1, 0),
        labels=("Apple Watch", "Adidas shorts", "Nike sneakers"),
        variant=Variant(k=3),
        pool=_SHAPED_POOL,
        pool_labels=_SHAPED_POOL_LABELS,
        figures=(
            Figure("DCG@3", "dcg", "1.631"),
            Figure("IDCG@3", "idcg", "2.131"),
            Figure("NDCG@3", "ndcg", "0.765"),
        ),
        group="shop-binary",
    ),
    WorkedExample(
        key="shop-graded-a",
        seed="002",
        title=N_("Shop, graded by quantity: list A (sneakers 3, shorts 5, watch 1)"),
        lesson=N_("Graded by how many were bought, list A now beats list B: the winner flips."),
        grades=(3, 5, 1),
        labels=("Nike sneakers", "Adidas shorts", "Apple Watch"),
        variant=Variant(k=3),
        figures=(
            Figure(
                "5/log2(3)",
                "term@2",
                "3.154",
                N_("5/1.585 = 3.1546 was cut to three decimals instead of rounded (3.155)."),
            ),
            Figure(
                "DCG@3",
                "dcg",
                "6.654",
                N_("Carries the cut-off term 3.154: 3 + 3.154 + 0.5; the exact 6.6546 rounds to 6.655."),
            ),
            Figure(N_("ideal: 3/log2(3)"), "ideal_term@2", "1.893"),
            Figure("IDCG@3", "idcg", "7.393"),
            Figure("NDCG@3", "ndcg", "0.90"),
        ),
        group="shop-graded",
    ),
    WorkedExample(
        key="shop-graded-b",
        seed="002",
        title=N_("Shop, graded by quantity: list B (watch 1, shorts 5, sneakers 3)"),
        lesson=N_("Putting the single watch first wastes the undiscounted top spot."),
        grades=(1, 5, 3),
        labels=("Apple Watch", "Adidas shorts", "Nike sneakers"),
        variant=Variant(k=3),
        figures=(
            Figure(
                "DCG@3",
                "dcg",
                "5.654",
                N_("Carries the cut-off term 3.154: 1 + 3.154 + 1.5; the exact 5.6546 rounds to 5.655."),
            ),
            Figure("IDCG@3", "idcg", "7.393"),
            Figure("NDCG@3", "ndcg", "0.76"),
        ),
        group="shop-graded",
    ),
    # ---- seed 003 --------------------------------------------------------
    WorkedExample(
        key="burges-as-ranked",
        seed="003",
        title=N_("Grades 3,1,2,0,2 with gain 2^g - 1 and natural log"),
        lesson=N_("Exponential gain makes the grade-3 item worth 7: getting it first matters most."),
        grades=(3, 1, 2, 0, 2),
        variant=_BURGES_E.with_(k=5),
        figures=(Figure("NDCG@5", "ndcg", "0.950849602851865"),),
        group="burges",
    ),
    WorkedExample(
        key="burges-worst",
        seed="003",
        title=N_("The same grades in the worst order 0,1,2,2,3"),
        lesson=N_("Even the worst order scores well above 0: NDCG rarely uses its whole range."),
        grades=(0, 1, 2, 2, 3),
        variant=_BURGES_E.with_(k=5),
        figures=(Figure(N_("Worst NDCG@5"), "ndcg", "0.5664478625498256"),),
        group="burges",
    ),
    WorkedExample(
        key="burges-best",
        seed="003",
        title=N_("The same grades in the best order 3,2,2,1,0"),
        lesson=N_("The ideal order always scores exactly 1."),
        grades=(3, 2, 2, 1, 0),
        variant=_BURGES_E.with_(k=5),
        figures=(Figure("Best NDCG@5", "ndcg", "1.0"),),
        group="burges",
    ),
    WorkedExample(
        key="burges-custom-gain",
        seed="003",
        title=N_("A custom gain table 0:0, 1:1, 2:3, 3:7, 4:15"),
        lesson=N_("A gain table can say anything; this one spells out 2^g - 1 and so agrees with it."),
        grades=(3, 1, 2, 0, 2),
        variant=Variant(k=5, gain={0: 0, 1: 1, 2: 3, 3: 7, 4: 15}, log_base=math.e),
        figures=(Figure("NDCG@5", "ndcg", "0.950849602851865"),),
        group="burges",
    ),
    # ---- seed 004 --------------------------------------------------------
    WorkedExample(
        key="wikipedia-d1-d6",
        seed="004",
        title=N_("Wikipedia's D1..D6 graded 3,2,3,0,1,2"),
        lesson=N_("Swapping D3 and D4 would put a 0 above a 3 and lower DCG; the ideal is 3,3,2,2,1,0."),
        grades=(3, 2, 3, 0, 1, 2),
        labels=_D6,
        variant=_JK,
        figures=(
            Figure("CG6", "cg", "11"),
            Figure("log2(2)", "divisor@2", "1"),
            Figure("log2(3)", "divisor@3", "1.585"),
            Figure("log2(4)", "divisor@4", "2.0"),
            Figure("log2(5)", "divisor@5", "2.322"),
            Figure(
                "log2(6)",
                "divisor@6",
                "2.584",
                N_("log2(6) = 2.58496 was cut to three decimals instead of rounded (2.585)."),
            ),
            Figure("rel2/log2(2)", "term@2", "2"),
            Figure(
                "rel3/log2(3)",
                "term@3",
                "1.892",
                N_("3/1.58496 = 1.89279 was cut to three decimals instead of rounded (1.893)."),
            ),
            Figure("rel5/log2(5)", "term@5", "0.431"),
            Figure("rel6/log2(6)", "term@6", "0.774"),
            Figure("DCG6", "dcg", "8.10"),
            Figure("IDCG6", "idcg", "8.69"),
            Figure("nDCG6", "ndcg", "0.932"),
        ),
    ),
    WorkedExample(
        key="two-forms-jarvelin",
        seed="004",
        title=N_("One relevant document at rank 2, original discount"),
        lesson=N_("With max(1, log2 i) the second position is not discounted: DCG = 1."),
        grades=(0, 1),
        variant=_JK,
        figures=(Figure("DCG", "dcg", "1"),),
        group="two-forms",
    ),
    WorkedExample(
        key="two-forms-log",
        seed="004",
        title=N_("One relevant document at rank 2, log2(i + 1) discount"),
        lesson=N_("The two DCG forms differ even for binary grades: here DCG = 0.631, not 1."),
        grades=(0, 1),
        figures=(Figure("DCG", "dcg", "0.631"),),
        group="two-forms",
    ),
    WorkedExample(
        key="limit-bad-result-3",
        seed="004",
        title=N_("Limitation: three good results, 1,1,1"),
        lesson=N_("A perfect list of three scores 1..."),
        grades=(1, 1, 1),
        group="limit-bad-result",
    ),
    WorkedExample(
        key="limit-bad-result-4",
        seed="004",
        title=N_("Limitation: the same plus a bad one, 1,1,1,0"),
        lesson=N_("...and adding a useless fourth result still scores 1: NDCG does not punish it."),
        grades=(1, 1, 1, 0),
        group="limit-bad-result",
    ),
    WorkedExample(
        key="limit-bad-result-first",
        seed="004",
        title=N_("The bad result on top instead: 0,1,1,1"),
        lesson=N_(
            "A grade-0 result costs points only when it pushes good ones down: here NDCG drops to 0.733."
        ),
        grades=(0, 1, 1, 1),
        group="limit-bad-result",
    ),
    WorkedExample(
        key="limit-negative-grades",
        seed="004",
        title=N_("Penalise bad results: Excellent, Bad, Fair as 1, -1, 0"),
        lesson=N_("With a negative grade for Bad (gain = grade), showing a bad result high costs points."),
        grades=(1, -1, 0),
        labels=("Excellent", "Bad", "Fair"),
        group="limit-negative",
    ),
    WorkedExample(
        key="limit-nonnegative-grades",
        seed="004",
        title=N_("The same results graded 2, 0, 1"),
        lesson=N_("On a 0-2 scale (gain = grade) the bad result is merely worthless, never harmful."),
        grades=(2, 0, 1),
        labels=("Excellent", "Bad", "Fair"),
        group="limit-negative",
    ),
    WorkedExample(
        key="limit-missing-3",
        seed="004",
        title=N_("Limitation: only 3 results returned, 1,1,1"),
        lesson=N_("Judged against itself, a short list of three good results scores 1."),
        grades=(1, 1, 1),
        group="limit-missing",
    ),
    WorkedExample(
        key="limit-missing-padded",
        seed="004",
        title=N_("The same 3 results padded to 5, against 5 known relevant ones"),
        lesson=N_("Padding to a fixed size only helps when IDCG@5 knows five relevant items exist."),
        grades=(1, 1, 1),
        variant=Variant(k=5),
        pool=(1, 1, 1, 1, 1),
        group="limit-missing",
    ),
    WorkedExample(
        key="limit-equally-good-1",
        seed="004",
        title=N_('Limitation: "restaurants", one good result in five, at k = 1'),
        lesson=N_("At k = 1 only the first result is seen..."),
        grades=(1, 0, 0, 0, 0),
        variant=Variant(k=1),
        group="limit-equally-good",
    ),
    WorkedExample(
        key="limit-equally-good-5",
        seed="004",
        title=N_('Limitation: "restaurants", five good results, at k = 1'),
        lesson=N_("...so five good restaurants score the same 1 as a single one."),
        grades=(1, 1, 1, 1, 1),
        variant=Variant(k=1),
        group="limit-equally-good",
    ),
)

DATASET_EXAMPLES: tuple[DatasetExample, ...] = (
    DatasetExample(
        key="average-two-ways",
        seed="003",
        title=N_("Three queries averaged two ways"),
        lesson=N_(
            "The mean of per-query NDCG gives every query one vote; the sum of DCG over "
            "the sum of IDCG lets queries with large IDCG (many highly relevant items) "
            "dominate. Our own lists, in seed 003's variant."
        ),
        queries=((3, 1, 2, 0, 2), (0, 1), (0, 0, 1, 0)),
        variant=_BURGES_E,
    ),
)

_BY_KEY = {e.key: e for e in EXAMPLES}


def get_example(key: str) -> WorkedExample:
    """Look an example up by its key, with a helpful error."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise NDCGError("unknown_example", key=repr(key), known=", ".join(_BY_KEY)) from None

"""Short teaching cards: the documents' points about NDCG, in our own words, as data.

Each card names the worked examples that demonstrate it (``ndcg_core.teaching.EXAMPLES``
keys); the app loads them into the playground, or side by side into the
comparison view, with one click.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import N_
from .examples import get_example

__all__ = ["CARDS", "Card"]


@dataclass(frozen=True)
class Card:
    key: str
    title: str
    body: str
    examples: tuple[str, ...]
    group: str = ""  # a comparison group, when the card compares lists

    def values(self) -> dict[str, float]:
        """NDCG (or DCG, for the two-forms card) of each example, by title."""
        out = {}
        for key in self.examples:
            ex = get_example(key)
            result = ex.explain()
            out[ex.title] = result.dcg if self.key == "two-forms" else result.ndcg
        return out


CARDS: tuple[Card, ...] = (
    Card(
        "two-forms",
        N_("The two DCG formulas are not the same, even for 0/1 grades"),
        N_(
            "A textbook (Croft, Metzler and Strohman, 2010) says the original DCG and the "
            "log2(i + 1) version agree when grades are only 0 or 1. They do not: the gains agree, "
            "the discounts differ. Put a single relevant document at rank 2. The original form "
            "divides by max(1, log2 2) = 1 and scores DCG = 1; the other divides by log2 3 and "
            "scores 0.631."
        ),
        ("two-forms-jarvelin", "two-forms-log"),
    ),
    Card(
        "bad-result",
        N_("An irrelevant result at the bottom costs nothing"),
        N_(
            "Three good results (grade 1) score NDCG = 1. Add a fourth, irrelevant one (grade 0) "
            "at the bottom and the score is still 1: a grade-0 item adds no gain, and the ideal "
            "ordering puts it last too. With grades of 0 and above, a bad result only costs "
            "points when it pushes good ones down: put it first (0, 1, 1, 1) and NDCG@4 drops to "
            "0.733. To make a bad result cost points wherever it is, see negative grades."
        ),
        ("limit-bad-result-3", "limit-bad-result-4", "limit-bad-result-first"),
    ),
    Card(
        "negative",
        N_("Negative grades make bad results cost points"),
        N_(
            "One remedy: grade a harmful result below zero, say Excellent = 1, Fair = 0, "
            "Bad = -1, instead of 2, 1, 0. With gain = grade, the Bad result then has a negative "
            "gain, so ranking it second (Excellent, Bad, Fair) pulls DCG down: NDCG = 0.738. "
            "On the 2, 1, 0 scale (Bad = 0) the same ranking still scores 0.950: Bad is merely worthless."
        ),
        ("limit-negative-grades", "limit-nonnegative-grades"),
    ),
    Card(
        "missing",
        N_("A short list is not punished, unless the ideal knows better"),
        N_(
            "A system that returns only three results, all good, scores 1 when the list is its "
            "own ideal. Fixing the size at 5 (NDCG@5) only helps if the ideal ordering knows that "
            "five relevant items exist: then the two empty slots cost it, and the score drops to "
            "0.723. Padding with zeros alone changes nothing."
        ),
        ("limit-missing-3", "limit-missing-padded"),
    ),
    Card(
        "equally-good",
        N_("At small k, many good answers look like one"),
        N_(
            "For a query such as 'restaurants' several results are equally right. NDCG@1 only "
            "looks at the first result: a good restaurant first, then four misses, scores 1, "
            "exactly like a list of five good ones."
        ),
        ("limit-equally-good-1", "limit-equally-good-5"),
    ),
    Card(
        "winner-flips",
        N_("Binary or graded relevance can crown different winners"),
        N_(
            "The article's shopper bought an Apple Watch and Adidas shorts, plus a third relevant "
            "item (another Apple product) that neither list shows. Count each relevant item as 1: "
            "the ideal ordering has all three, IDCG@3 = 2.131, and list B (watch, shorts, "
            "sneakers) beats list A (sneakers, shorts, watch), NDCG@3 0.765 to 0.531. The article "
            "then imagines other purchases, graded by quantity: 5 pairs of shorts, 3 pairs of "
            "sneakers, 1 watch. Now list A wins, 0.900 to 0.765 (printed as 0.90 and 0.76)."
        ),
        ("shop-binary-a", "shop-binary-b", "shop-graded-a", "shop-graded-b"),
        group="shop-graded",
    ),
)

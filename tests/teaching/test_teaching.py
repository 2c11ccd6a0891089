"""The teaching cards' numbers, against closed forms written out here."""

import math
import re

import pytest

from ndcg_core.teaching import get_example
from ndcg_core.teaching.cards import CARDS

L = math.log2
CLOSED_FORMS = {
    # three good results, then a grade-0 one at the bottom, then on top
    "limit-bad-result-3": 1.0,
    "limit-bad-result-4": 1.0,
    "limit-bad-result-first": (1 / L(3) + 1 / L(4) + 1 / L(5)) / (1 + 1 / L(3) + 1 / L(4)),
    # Excellent, Bad, Fair with gain = grade: 1, -1, 0 against the ideal 1, 0, -1;
    # then 2, 0, 1 against 2, 1, 0
    "limit-negative-grades": (1 - 1 / L(3)) / (1 - 1 / L(4)),
    "limit-nonnegative-grades": (2 + 1 / L(4)) / (2 + 1 / L(3)),
    # the shop: a third relevant item, never retrieved, is in the ideal ordering
    "shop-binary-a": (1 / L(3) + 1 / L(4)) / (1 + 1 / L(3) + 1 / L(4)),
    "shop-binary-b": (1 + 1 / L(3)) / (1 + 1 / L(3) + 1 / L(4)),
    "shop-graded-a": (3 + 5 / L(3) + 1 / L(4)) / (5 + 3 / L(3) + 1 / L(4)),
    "shop-graded-b": (1 + 5 / L(3) + 3 / L(4)) / (5 + 3 / L(3) + 1 / L(4)),
}


@pytest.mark.parametrize("key", sorted(CLOSED_FORMS))
def test_card_examples_give_their_closed_forms(key):
    assert get_example(key).explain().ndcg == pytest.approx(CLOSED_FORMS[key], abs=1e-12)


@pytest.mark.parametrize("card", [c for c in CARDS if any(k in CLOSED_FORMS for k in c.examples)])
def test_every_three_decimal_number_in_a_card_is_one_of_its_examples(card):
    """Issue 8, defect 10: the cards' stories and numbers must match their examples."""
    shown = set(re.findall(r"\d\.\d{3}", card.body))
    values = {f"{CLOSED_FORMS[k]:.3f}" for k in card.examples if k in CLOSED_FORMS}
    if card.key == "winner-flips":
        values.add(f"{1 + 1 / L(3) + 1 / L(4):.3f}")  # IDCG@3 of the three relevant items
    assert shown and shown <= values, (shown, values)


def test_defect_10_cards_name_their_gain_and_show_the_hidden_item():
    cards = {c.key: c for c in CARDS}
    assert "gain = grade" in cards["negative"].body
    assert all(get_example(k).variant.gain == "linear" for k in cards["negative"].examples)
    assert "neither list" in cards["winner-flips"].body
    assert "never punishes" not in cards["bad-result"].body

"""variant_matrix: every formula combination, and where the winner flips."""

import math

import pytest

from ndcg_core import ndcg
from ndcg_core.rules import DISCOUNT_RULES, GAIN_RULES
from ndcg_core.teaching import variant_matrix


def test_shape_and_values():
    table = variant_matrix({"A": [3, 0, 0, 0], "B": [1, 1, 1, 1]}, ideal=[3, 1, 1, 1, 1], ks=(None, 3))
    assert len(table) == len(GAIN_RULES) * len(DISCOUNT_RULES) * 3 * 2 * 2
    row = table[
        (table["gain"] == "exponential")
        & (table["discount"] == "jarvelin")
        & (table["log_base"] == "e")
        & (table["ideal"] == "pool")
        & (table["k"] == 3)
    ].iloc[0]
    assert row["A"] == pytest.approx(
        ndcg([3, 0, 0, 0], 3, gain="exponential", discount="jarvelin", log_base=math.e, ideal=[3, 1, 1, 1, 1])
    )


def test_flips_against_the_default_formula():
    table = variant_matrix({"A": [3, 0, 0, 0], "B": [1, 1, 1, 1]}, ideal=[3, 1, 1, 1, 1], ks=(None,))
    default = table[table["default"] & (table["ideal"] == "pool")].iloc[0]
    assert default["winner"] == "A" and not default["flips"]
    flipped = table[table["flips"]]
    assert len(flipped) > 0
    assert set(flipped["winner"]) <= {"B", "tie: A = B"}
    # B wins where the first positions are spared (Järvelin–Kekäläinen) or every grade above 0 is
    # worth the same (binary gain: A's one hit against B's four)
    assert ((flipped["discount"] == "jarvelin") | (flipped["gain"] == "binary")).all()
    assert (table.loc[(table["gain"] == "binary") & (table["ideal"] == "pool"), "winner"] == "B").all()


def test_without_pool_only_list_rows_and_ties_named():
    table = variant_matrix({"A": [1, 0], "B": [1, 0]}, ks=(None, 1))
    assert set(table["ideal"]) == {"list"}
    assert set(table["winner"]) == {"tie: A = B"}
    assert not table["flips"].any()


def test_errors():
    with pytest.raises(ValueError, match="at least one ranking"):
        variant_matrix({})
    with pytest.raises(ValueError, match="column names"):
        variant_matrix({"winner": [1, 0]})
    with pytest.raises(ValueError, match="position 2"):
        variant_matrix({"A": [1, "x"]})

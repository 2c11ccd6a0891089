"""Every worked example of the seeds, against the figures the documents print."""

import math

import pytest

from ndcg_core.teaching import DATASET_EXAMPLES, EXAMPLES, get_example

FIGURES = [(ex, fig) for ex in EXAMPLES for fig in ex.figures]


@pytest.mark.parametrize(("example", "figure"), FIGURES, ids=[f"{e.key}:{f.label}" for e, f in FIGURES])
def test_printed_figure_matches_or_is_explained(example, figure):
    ex = example.explain()
    if figure.note:
        # An explanation must be needed: the printed figure really is off ...
        assert not figure.matches(ex), f"{figure.label} matches; its note is not needed"
        # ... and by less than a slip would plausibly be (a few units in the last place).
        assert abs(figure.exact(ex) - float(figure.printed)) < 0.03
    else:
        assert figure.matches(ex), f"{figure.label}: exact {figure.exact(ex)!r} vs printed {figure.printed}"


def test_every_seed_is_covered():
    assert {e.seed for e in EXAMPLES} == {"000", "001", "002", "003", "004"}
    assert sum(1 for _, f in FIGURES if f.note) >= 8


# Exact values, one per headline, computed independently of the examples module.
EXACT = {
    "binary-dcg3-a": ("dcg", 1.5),
    "binary-dcg3-b": ("dcg", 1 + 1 / math.log2(3)),
    "graded-d1-d5": ("ndcg", (3 + 2 / math.log2(3) + 1 / math.log2(6)) / (3 + 2 / math.log2(3) + 0.5)),
    "items-abcde": ("dcg", 0.5 + 0.9 / math.log2(3) + 0.15 + 0.6 / math.log2(5) + 0.1 / math.log2(6)),
    "shop-binary-a": ("ndcg", (1 / math.log2(3) + 0.5) / (1.5 + 1 / math.log2(3))),
    "shop-graded-a": ("ndcg", (3 + 5 / math.log2(3) + 0.5) / (5 + 3 / math.log2(3) + 0.5)),
    "burges-as-ranked": ("ndcg", 0.950849602851865),
    "burges-worst": ("ndcg", 0.5664478625498256),
    "burges-best": ("ndcg", 1.0),
    "burges-custom-gain": ("ndcg", 0.950849602851865),
    "wikipedia-d1-d6": ("ndcg", 0.9315085232),
    "two-forms-jarvelin": ("dcg", 1.0),
    "two-forms-log": ("dcg", 1 / math.log2(3)),
    "limit-bad-result-3": ("ndcg", 1.0),
    "limit-bad-result-4": ("ndcg", 1.0),
    "limit-missing-padded": (
        "ndcg",
        (1 + 1 / math.log2(3) + 0.5) / sum(1 / math.log2(i + 1) for i in range(1, 6)),
    ),
    "limit-equally-good-1": ("ndcg", 1.0),
    "limit-equally-good-5": ("ndcg", 1.0),
}


@pytest.mark.parametrize("key", sorted(EXACT))
def test_exact_values(key):
    quantity, value = EXACT[key]
    assert getattr(get_example(key).explain(), quantity) == pytest.approx(value, abs=1e-9)


def test_negative_grade_lowers_the_score():
    assert (
        get_example("limit-negative-grades").explain().ndcg
        < get_example("limit-nonnegative-grades").explain().ndcg
    )


def test_winner_flips_between_binary_and_graded_shop_lists():
    binary = [get_example(f"shop-binary-{x}").explain().ndcg for x in "ab"]
    graded = [get_example(f"shop-graded-{x}").explain().ndcg for x in "ab"]
    assert binary[1] > binary[0] and graded[0] > graded[1]


def test_dataset_averages_differ_and_are_right():
    ds = DATASET_EXAMPLES[0]
    parts = ds.per_query()
    assert ds.mean_ndcg() == pytest.approx(sum(p.ndcg for p in parts) / len(parts))
    assert ds.ratio_of_sums() == pytest.approx(sum(p.dcg for p in parts) / sum(p.idcg for p in parts))
    assert abs(ds.mean_ndcg() - ds.ratio_of_sums()) > 0.1


def test_unknown_example_key():
    with pytest.raises(ValueError, match="no worked example"):
        get_example("nope")

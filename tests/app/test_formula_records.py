"""Issue 41, part 1: a formula choice is one record, and every layer reads it.

A fixture adds a discount (divide by the position itself, ``i``) and a gain (the grade squared) to
the records of :mod:`ndcg_core.rules`, and nothing else: the engine, the schema's controls and
links, the lesson, the step tables' exports, the slides, Explore, Practice and Class must then
compute with them and name them right. Adding the discount ``1/i`` used to take 12 to 14 files, and
8 of them showed a learner a wrong formula with no test failing.

Expected numbers come from closed forms (the sums written out here), never from the code under test.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import ndcg_core
from ndcg_core import rules
from ndcg_core.rules import DiscountRule, GainRule
from ndcg_core.spec import Spec
from ndcg_core.teaching.explore import variant_matrix
from ndcg_core.teaching.formula import definition_latex, spec_words
from ndcg_core.teaching.lesson import lesson_step
from ndcg_core.teaching.playground import from_query_params
from ndcg_core.teaching.practice import Question, check, describe, make_exercise
from ndcg_core.teaching.slides.content import lesson_slides
from ndcg_core.variants import Variant

APP = str(Path(__file__).resolve().parents[2] / "app.py")
WIKI = [3.0, 2.0, 3.0, 0.0, 1.0, 2.0]

POSITION = DiscountRule(
    name="position",
    label="i",
    help="divide the gain at position i by i itself",
    text="{i}",
    latex="{i}",
    form="the position form",
    about="the divisor is the position itself, so the tail counts very little.",
    compute=lambda i, ln_b: i,
    mistake="divided_by_position",
    mistake_words="divided by the position i",
)
SQUARE = GainRule(
    name="square",
    label="square",
    help="gain = grade squared",
    words="square gain",
    text="{rel}²",
    latex="{{{rel}}}^{{2}}",
    about="An item twice as relevant is worth four times as much.",
    compute=lambda g: g * g,
    mistake="squared_gain",
    mistake_words="squared the grade",
)


@pytest.fixture
def new_rules(monkeypatch):
    """The two records above, added where the rules live (and nowhere else)."""
    monkeypatch.setitem(rules._DISCOUNTS_BY_NAME, "position", POSITION)
    monkeypatch.setitem(rules._GAINS_BY_NAME, "square", SQUARE)


def closed_form(grades, gain, divisor) -> float:
    dcg = sum(gain(g) / divisor(i) for i, g in enumerate(grades, 1))
    idcg = sum(gain(g) / divisor(i) for i, g in enumerate(sorted(grades, reverse=True), 1))
    return dcg / idcg


def test_the_engine_computes_and_names_a_new_choice(new_rules):
    want = closed_form(WIKI, lambda g: g * g, lambda i: i)
    assert ndcg_core.ndcg(WIKI, gain="square", discount="position") == pytest.approx(want, abs=1e-12)
    v = Variant(gain="square", discount="position", k=3)
    assert v.name == "nDCG(gain='square', discount='position')@3" and Variant.parse(v.name) == v
    # a share link carries it, and data sets score with it
    state, warnings = from_query_params({"rel": "3,2,3,0,1,2", "discount": "position", "gain": "square"})
    assert not warnings and state.spec.variant.discount == "position"
    import pandas as pd

    qrels = pd.DataFrame({"query": ["q"] * 6, "doc": list("abcdef"), "relevance": WIKI})
    run = pd.DataFrame({"query": ["q"] * 6, "doc": list("abcdef"), "score": [6.0, 5, 4, 3, 2, 1]})
    table = ndcg_core.evaluate(qrels, run, gain="square", discount="position")
    assert table["ndcg"].iloc[0] == pytest.approx(want, abs=1e-12)
    with pytest.raises(ValueError):
        Variant(discount="cubic")  # an unknown choice is refused, not taken for another


def test_the_formula_in_words_and_latex_and_the_lesson_say_it(new_rules):
    v = Variant(gain="square", discount="position")
    assert spec_words(Spec(v)).startswith("square gain; divisor i;")
    assert definition_latex(v) == "\\mathrm{DCG@k} = \\sum_{i=1}^{k} \\frac{{\\mathrm{rel}_i}^{2}}{i}"
    ex = ndcg_core.explain(WIKI, spec=Spec(v))
    gain_step, discount_step = lesson_step(2, ex), lesson_step(3, ex)
    assert "Here gain = grade² (square gain)." in " ".join(gain_step.text)
    assert gain_step.question.exact == 9 and gain_step.question.why == "3² = 9"
    assert "Dividing by i, the position form" in " ".join(discount_step.text)
    assert discount_step.text[-1] == "Here the divisor at position i is i, the position form."
    assert discount_step.question.exact == 3 and discount_step.question.why == "3 = 3"
    assert discount_step.formulas == ("d_{3} = 3 = 3",)
    # the other rules' divisors are the mistakes a prediction can make (log2(4) = 2 where i = 3)
    assert dict(discount_step.question.mistakes)["log2_i_plus_1"] == (2.0,)


def test_slides_and_explore_carry_it(new_rules):
    state, _ = from_query_params({"rel": "3,2,3,0,1,2", "discount": "position"})
    slide = lesson_slides(state)[2]
    assert any("Here the divisor at position i is i" in line for line in slide.text)
    assert slide.table.rows[2][-1] == "3"  # the divisor column at position 3 is 3
    matrix = variant_matrix({"A": WIKI}, ks=(None,))
    rows = matrix[(matrix["discount"] == "position") & (matrix["gain"] == "square")]
    assert len(rows) == 3  # one per log base: the position form does not depend on it
    want = closed_form(WIKI, lambda g: g * g, lambda i: i)  # the list sorted is its ideal
    assert rows["A"].to_numpy() == pytest.approx([want] * 3, abs=1e-12)


def test_practice_and_class_state_and_diagnose_it(new_rules):
    v = Variant(gain="square", discount="position", k=3)
    assert describe(v) == "gain = grade²; divisor = i; k = 3"
    # a level-3 exercise draws the new discount, and describes it in words
    drawn = next(
        e
        for seed, n in itertools.product(range(40), range(1, 6))
        if (e := make_exercise(seed, n, "metric", 3)).formula.discount == "position"
    )
    assert "divisor = i" in drawn.formula_text
    # DCG of [0, 1, 0, 1] asked with log2(i + 1) and answered with 1/i: 1/2 + 1/4 = 0.75
    q = Question((0.0, 1.0, 0.0, 1.0), Variant(), "dcg")
    e = make_exercise(1, 1, "metric", 1)
    e = type(e)(**{**e.__dict__, "question": q})
    fb = check(e, "0.75")
    assert fb.mistakes == ("divided_by_position",)
    assert "divided by the position i" in fb.message


def test_the_pages_offer_and_name_it(new_rules):
    """The Playground's sidebar offers it and its caption names it; the Class page's own-list form
    states it as Practice does."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["rel"] = "3,2,3,0,1,2"
    at.query_params["discount"] = "position"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    discount = next(r for r in at.radio if r.key.endswith("discount"))
    assert POSITION.label in discount.options and discount.value == "position"
    shown = " ".join(str(c.value) for c in at.caption)
    assert "divide the gain at position i by i itself" in shown
    assert any("divisor i" in str(m.value) for m in [*at.markdown, *at.caption])
    want = closed_form(WIKI, lambda g: g, lambda i: i)
    assert any(m.value == f"{want:.3f}" for m in at.metric)
    room = AppTest.from_file(APP, default_timeout=60).run()
    room.switch_page("views/classroom.py").run()
    room.button(key="cl_create").click().run()
    room.segmented_control(key="cl_source").set_value("list").run()
    assert not room.exception, [e.value for e in room.exception]
    gain = next(r for r in room.radio if r.key == "cl_gain")
    assert "gain = grade²" in gain.options
    discounts = next(r for r in room.radio if r.key == "cl_discount")
    assert "divisor = i" in discounts.options


def test_every_rule_record_is_complete_and_its_computation_matches_its_words():
    """The records as shipped: each says its formula, and computes what it says (closed forms)."""
    positions = np.arange(1, 6, dtype=float)
    want = {
        "log": np.log2(positions + 1),
        "jarvelin": np.maximum(1.0, np.log2(positions)),
    }
    assert set(rules.DISCOUNT_RULES) == set(want)
    for name, rule in rules.DISCOUNT_RULES.items():
        assert rule.divisors(positions, math.log(2)) == pytest.approx(want[name])
        assert "{i}" in rule.text and "{log}" in rule.text and rule.form and rule.about
    grades = np.array([0.0, 1.0, 2.0, 3.0])
    gains = {"linear": grades, "exponential": 2**grades - 1, "binary": (grades > 0) * 1.0}
    assert set(rules.GAIN_RULES) == set(gains)
    for name, rule in rules.GAIN_RULES.items():
        assert rule.gains(grades) == pytest.approx(gains[name])
        assert "{rel}" in rule.text and "{rel}" in rule.latex and rule.words and rule.about

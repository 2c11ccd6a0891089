"""Practice exercises: generation, checking, mistakes, hints and progress.

Expected values come from closed forms written here (math.log2 and friends) or
from the engine's public functions called directly, never from the exercise code.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ndcg_core
from ndcg_core.teaching import MISTAKES, diagnose
from ndcg_core.teaching.practice import (
    KINDS,
    LEVELS,
    WINNER_CHOICES,
    Feedback,
    Progress,
    Question,
    check,
    diagnose_question,
    feedback_latex,
    focus_rows,
    focus_text,
    hints,
    kind_for,
    make_exercise,
    next_kind,
)
from ndcg_core.variants import Variant

SEEDS = range(200)


def log2_plus_1(grades, k=None):
    """DCG with gain = grade and divisor log2(i + 1), by hand."""
    top = grades if k is None else grades[:k]
    return sum(g / math.log2(i + 1) for i, g in enumerate(top, start=1))


def engine(e, grades=None, formula=None, ideal="same"):
    """The engine's own explanation for an exercise's list (called directly, keywords only)."""
    f = formula or e.formula
    return ndcg_core.explain(
        list(grades if grades is not None else e.grades),
        f.k,
        gain=f.gain_spec,
        discount=f.discount,
        log_base=f.log_base,
        ideal=list(e.ideal) if ideal == "same" and e.ideal is not None else None,
        scores=None if e.scores is None else list(e.scores),
        ties=f.ties or "stable",
    )


def check_level_shape(e):
    n = len(e.grades)
    if e.level == 1:
        assert 3 <= n <= 5
        assert set(e.grades) <= {0.0, 1.0}
    else:
        assert 5 <= n <= 8
        assert set(e.grades) <= {0.0, 1.0, 2.0, 3.0}
    assert any(e.grades)
    assert e.prompt and "{" not in e.prompt


# ------------------------------------------------------------------ generation: 200 seeds per kind and level


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_cell_exercises(level):
    columns = {"gain": "Gain", "divisor": "Divisor", "discounted_gain": "Discounted gain"}
    columns["cumulative_dcg"] = "Cumulative DCG"
    for seed in SEEDS:
        e = make_exercise(seed, 1, "cell", level)
        check_level_shape(e)
        q = e.question
        assert e.answer_type == "number" and q.quantity in columns
        assert 1 <= q.position <= len(e.grades)
        expected = engine(e).steps[columns[q.quantity]].iloc[q.position - 1]
        assert e.exact == pytest.approx(expected, abs=1e-12)
        assert check(e, f"{expected:.4f}").correct


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_metric_exercises(level):
    scored = 0
    for seed in SEEDS:
        e = make_exercise(seed, 1, "metric", level)
        check_level_shape(e)
        ex = engine(e)
        expected = {"dcg": ex.dcg, "idcg": ex.idcg, "ndcg": ex.ndcg}[e.question.quantity]
        assert e.exact == pytest.approx(expected, abs=1e-12)
        if e.question.quantity == "ndcg":
            f = e.formula
            direct = ndcg_core.ndcg(
                list(e.grades),
                f.k,
                gain=f.gain_spec,
                discount=f.discount,
                ideal=e.ideal and list(e.ideal),
                scores=e.scores and list(e.scores),
                ties=f.ties or "stable",
            )
            assert e.exact == pytest.approx(direct)
        if e.scores is not None:
            scored += 1
            assert level == 3 and len(set(e.scores)) < len(e.scores)
            assert e.formula.ties in ("stable", "average")
        assert check(e, f"{expected:.3f}").correct
        if e.ideal is not None:
            assert level == 3 and len(e.ideal) > len(e.grades)
    assert (scored > 40) == (level == 3)  # level 3 has tied scores


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_drag_exercises(level):
    for seed in SEEDS:
        e = make_exercise(seed, 1, "drag", level)
        check_level_shape(e)
        assert e.answer_type == "order"
        f = e.formula

        def score(grades, f=f):
            return ndcg_core.ndcg(list(grades), f.k, gain=f.gain_spec, discount=f.discount)

        best, worst = score(sorted(e.grades, reverse=True)), score(sorted(e.grades))
        start = check(e, list(e.labels))
        assert not start.correct and start.value == pytest.approx(score(e.grades))
        by_grade = sorted(zip(e.labels, e.grades, strict=True), key=lambda p: -p[1])
        if e.goal == "highest":
            assert check(e, [lab for lab, _ in by_grade]).correct
            assert check(e, [lab for lab, _ in by_grade]).value == pytest.approx(best)
        elif e.goal == "lowest":
            assert check(e, [lab for lab, _ in by_grade[::-1]]).correct
        else:
            assert level == 3 and worst <= e.target <= best


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_winner_exercises(level):
    flips = 0
    for seed in SEEDS:
        e = make_exercise(seed, 1, "winner", level)
        check_level_shape(e)
        assert sorted(e.grades) == sorted(e.other)  # the same items, in two orders
        grade_of = dict(zip(e.labels, e.grades, strict=True))
        assert dict(zip(e.other_labels, e.other, strict=True)) == grade_of
        a1, b1 = engine(e).ndcg, engine(e, grades=e.other).ndcg
        a2, b2 = engine(e, formula=e.alt_formula).ndcg, engine(e, grades=e.other, formula=e.alt_formula).ndcg
        assert abs(a1 - b1) >= 0.005 and abs(a2 - b2) >= 0.005
        outcomes = {(True, True): "a_both", (False, False): "b_both", (True, False): "a_then_b"}
        expected = outcomes.get((a1 > b1, a2 > b2), "b_then_a")
        assert e.names[e.answer_choice] == expected
        assert e.choices == tuple(WINNER_CHOICES.values()) and e.names == tuple(WINNER_CHOICES)
        assert e.alt_formula != e.formula
        flips += expected.endswith(("then_a", "then_b"))
        others = [name for name in WINNER_CHOICES if name != expected]
        assert check(e, expected).correct and not any(check(e, other).correct for other in others)
    assert 20 <= flips <= 180  # both outcomes occur


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_formula_exercises(level):
    for seed in SEEDS:
        e = make_exercise(seed, 1, "formula", level)
        check_level_shape(e)
        assert 3 <= len(e.choices) <= 4
        values = []
        for c in e.candidates:
            ideal = list(e.ideal) if (c.from_pool and e.ideal is not None) else None
            f = c.formula
            v = ndcg_core.ndcg(list(e.grades), f.k, gain=f.gain_spec, discount=f.discount, ideal=ideal)
            assert round(v, 3) == pytest.approx(c.value)
            values.append(round(v, 3))
        assert len(set(values)) == len(values)  # only one choice prints the number
        assert values[e.answer_choice] == pytest.approx(e.target)
        assert check(e, e.answer_choice).correct


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_library_exercises(level):
    for seed in SEEDS:
        e = make_exercise(seed, 1, "library", level)
        check_level_shape(e)
        assert len(set(e.scores)) < len(e.scores)  # tied scores
        values = {}
        for name, _ in e.values:
            preset = ndcg_core.PRESETS[name]
            v = ndcg_core.ndcg(
                list(e.grades), e.formula.k, scores=list(e.scores), labels=list(e.labels), preset=name
            )
            values[preset.library] = round(v, 3)
        assert list(values) == list(e.choices)
        assert len(set(values.values())) == len(values) >= 3
        assert values[e.choices[e.answer_choice]] == pytest.approx(e.target)


def test_same_seed_same_exercise_and_different_seeds_differ():
    for kind in KINDS:
        for level in LEVELS:
            assert make_exercise(7, 3, kind, level) == make_exercise(7, 3, kind, level)
            assert len({make_exercise(s, 1, kind, level).grades for s in range(20)}) > 5
    assert [kind_for(7, n) for n in range(1, 20)] == [kind_for(7, n) for n in range(1, 20)]
    assert set(kind_for(7, n) for n in range(1, 60)) == set(KINDS)


def test_unknown_kind_and_level_are_refused():
    with pytest.raises(ValueError, match="unknown exercise kind"):
        make_exercise(1, 1, "essay")
    with pytest.raises(ValueError, match="level must be"):
        make_exercise(1, 1, "cell", 4)


# ------------------------------------------------------------------ every mistake is detected

L = [3, 2, 3, 0, 1, 2]  # Wikipedia's D1..D6


def jk(grades, k=None):
    top = grades if k is None else grades[:k]
    return sum(g / max(1.0, math.log2(i)) for i, g in enumerate(top, start=1))


def exp_gain(grades):
    return [2**g - 1 for g in grades]


MISTAKE_CASES = {
    # id: (typed answer computed the wrong way, diagnose kwargs)
    "log2_i": (jk(L), dict(relevances=L, quantity="dcg")),
    "log2_i_plus_1": (log2_plus_1(L), dict(relevances=L, quantity="dcg", discount="jarvelin")),
    "natural_log": (
        sum(g / math.log(i + 1) for i, g in enumerate(L, start=1)),
        dict(relevances=L, quantity="dcg"),
    ),
    "linear_gain": (
        log2_plus_1(L) / log2_plus_1(sorted(L, reverse=True)),
        dict(relevances=L, gain="exponential"),
    ),
    "exponential_gain": (log2_plus_1(exp_gain(L)), dict(relevances=L, quantity="dcg")),
    "ideal_retrieved_only": (
        log2_plus_1([0, 1, 1]) / log2_plus_1([1, 1, 0]),
        dict(relevances=[0, 1, 1], k=3, ideal=[1, 1, 1]),
    ),
    "ideal_unsorted": (
        log2_plus_1([2, 3, 0, 1]) / log2_plus_1([1, 0, 3, 2]),  # the pool as given, cut at 4
        dict(relevances=[2, 3, 0, 1], ideal=[1, 0, 3, 2, 3]),
    ),
    "k_not_on_ideal": (
        log2_plus_1([0, 3, 2, 1], k=2) / log2_plus_1([3, 2, 1, 0]),
        dict(relevances=[0, 3, 2, 1], k=2),
    ),
    "swapped": (log2_plus_1(sorted(L, reverse=True)) / log2_plus_1(L), dict(relevances=L)),
    "dcg_for_ndcg": (log2_plus_1(L), dict(relevances=L)),
    # 1/log2 3 + 3/log2 5 + 2/log2 6 = 0.631 + 1.292 + 0.774 = 2.6967; each term to 2 decimals:
    # 0.63 + 1.29 + 0.77 = 2.69, further from 2.697 than any rounding of it (issue 38: 2.70 or 2.69
    # of the printed 2.697 would be right)
    "rounded_terms": (
        round(1 / math.log2(3), 2) + round(3 / math.log2(5), 2) + round(2 / math.log2(6), 2),
        dict(relevances=[0, 1, 0, 3, 2], quantity="dcg"),
    ),
}


@pytest.mark.parametrize("mistake", sorted(MISTAKE_CASES))
def test_every_total_mistake_is_detected(mistake):
    wrong, kwargs = MISTAKE_CASES[mistake]
    decimals = 2 if mistake == "rounded_terms" else 3
    typed = f"{wrong:.{decimals}f}"
    found = diagnose(typed, **kwargs)
    assert mistake in found, (typed, found)
    assert "unknown" not in found


def test_ideal_unsorted_for_ndcg_without_a_pool_is_one():
    assert "ideal_unsorted" in diagnose("1.00", [1, 3, 2])


def test_cumulative_for_row_and_row_for_cumulative():
    f = Variant()
    # Row 3 of 3, 2, 3: discounted gain 3/2 = 1.5; running total 3 + 2/log2(3) + 1.5.
    total = 3 + 2 / math.log2(3) + 1.5
    q_row = Question((3.0, 2.0, 3.0), f, "discounted_gain", position=3)
    assert diagnose_question(f"{total:.3f}", q_row) == ["cumulative_for_row"]
    q_total = Question((3.0, 2.0, 3.0), f, "cumulative_dcg", position=3)
    assert diagnose_question("1.50", q_total) == ["row_for_cumulative"]


def test_tie_mistakes():
    # Grades 0, 2 with tied scores: averaging gives each gain 1, so 1/1 + 1/log2(3);
    # the listed order gives 0/1 + 2/log2(3).
    averaged, listed = 1 + 1 / math.log2(3), 2 / math.log2(3)
    scores = (0.5, 0.5)
    q = Question((0.0, 2.0), Variant(ties="average"), "dcg", scores=scores)
    assert diagnose_question(f"{averaged:.3f}", q) == []
    assert diagnose_question(f"{listed:.3f}", q) == ["ties_not_averaged"]
    q = Question((0.0, 2.0), Variant(ties="stable"), "dcg", scores=scores)
    assert diagnose_question(f"{averaged:.3f}", q) == ["ties_averaged"]


def test_cell_mistakes():
    f = Variant(gain="exponential")
    divisor = Question((3.0, 2.0, 3.0), f, "divisor", position=3)
    assert diagnose_question(f"{math.log2(3):.3f}", divisor) == ["log2_i"]
    assert diagnose_question(f"{math.log(4):.3f}", divisor) == ["natural_log"]
    gain = Question((3.0, 2.0, 3.0), f, "gain", position=2)
    assert diagnose_question("2", gain) == ["linear_gain"]
    assert diagnose_question("3", gain) == []


def test_every_listed_mistake_has_a_detection_test():
    covered = set(MISTAKE_CASES) | {"cumulative_for_row", "row_for_cumulative", "too_few_decimals"}
    covered |= {"ties_not_averaged", "ties_averaged"}
    assert covered == set(MISTAKES)
    for required in (
        "log2_i",
        "log2_i_plus_1",
        "natural_log",
        "linear_gain",
        "exponential_gain",
        "ideal_retrieved_only",
        "ideal_unsorted",
        "k_not_on_ideal",
        "swapped",
    ):
        assert required in MISTAKES


def test_too_few_decimals_and_unknown():
    exact = log2_plus_1([3, 2, 0]) / log2_plus_1([3, 2, 0])  # 1.0, a whole number: "1" is right
    assert diagnose("1", [3, 2, 0]) == [] and exact == 1
    ratio = log2_plus_1([2, 3, 0]) / log2_plus_1([3, 2, 0])  # 0.913, typed as "0.9"
    assert round(ratio, 1) == 0.9
    assert diagnose("0.9", [2, 3, 0]) == ["too_few_decimals"]
    assert diagnose("0.123", [2, 3, 0]) == ["unknown"]


def test_a_whole_number_the_right_value_rounds_to_asks_for_decimals_not_a_mistake():
    """Issue 38: a mistake is named only when the typed number fits it better than any rounding of
    the right value. For 2, 3, 0 (NDCG 0.913) "1" is the right value rounded, though two mistakes
    give exactly 1: the list taken as its own ideal, and max(1, log2 i) (positions 1 and 2 both
    undivided: (2 + 3) / (3 + 2) = 1). "1.00" fits them and not 0.913."""
    right = (2 / math.log2(2) + 3 / math.log2(3)) / (3 / math.log2(2) + 2 / math.log2(3))
    jarvelin = (2 / 1 + 3 / 1) / (3 / 1 + 2 / 1)
    assert f"{right:.3f}" == "0.913" and jarvelin == 1
    assert diagnose("1", [2, 3, 0]) == ["too_few_decimals"]
    assert diagnose("1.00", [2, 3, 0]) == ["log2_i", "ideal_unsorted"]


def test_diagnose_refuses_bad_input():
    with pytest.raises(ValueError, match="name"):
        diagnose("x", [1, 0])
    with pytest.raises(ValueError, match="quantity"):
        diagnose("1", [1, 0], quantity="cg")


# ------------------------------------------------------------------ a correct answer is never a mistake

grades_st = st.lists(st.integers(0, 3).map(float), min_size=1, max_size=8)


@given(
    grades=grades_st,
    extra=st.lists(st.integers(0, 3).map(float), max_size=3),
    use_pool=st.booleans(),
    k=st.none() | st.integers(1, 9),
    quantity=st.sampled_from(["dcg", "idcg", "ndcg"]),
    gain=st.sampled_from(["linear", "exponential"]),
    discount=st.sampled_from(["log", "jarvelin"]),
    base=st.sampled_from([2.0, math.e, 10.0]),
    decimals=st.integers(2, 6),
)
def test_a_correct_answer_is_never_labelled_a_mistake(
    grades, extra, use_pool, k, quantity, gain, discount, base, decimals
):
    ideal = grades + extra if use_pool else None
    kw = dict(gain=gain, discount=discount, log_base=base)
    ex = ndcg_core.explain(grades, k, ideal=ideal, **kw)
    exact = {"dcg": ex.dcg, "idcg": ex.idcg, "ndcg": ex.ndcg}[quantity]
    typed = f"{exact:.{decimals}f}"
    assert diagnose(typed, grades, k, quantity=quantity, ideal=ideal, **kw) == []


@given(
    data=st.data(),
    grades=grades_st,
    k=st.none() | st.integers(1, 9),
    quantity=st.sampled_from(["dcg", "ndcg"]),
    ties=st.sampled_from(["stable", "average"]),
    decimals=st.integers(2, 6),
)
def test_a_correct_answer_with_tied_scores_is_never_a_mistake(data, grades, k, quantity, ties, decimals):
    scores = data.draw(st.lists(st.sampled_from([0.1, 0.5, 0.9]), min_size=len(grades), max_size=len(grades)))
    ex = ndcg_core.explain(grades, k, scores=scores, ties=ties)
    exact = ex.dcg if quantity == "dcg" else ex.ndcg
    q = Question(tuple(grades), Variant(k=k, ties=ties), quantity, scores=tuple(scores))
    assert diagnose_question(f"{exact:.{decimals}f}", q) == []


@given(
    grades=grades_st,
    position=st.integers(1, 8),
    quantity=st.sampled_from(["gain", "divisor", "discounted_gain", "cumulative_dcg"]),
    gain=st.sampled_from(["linear", "exponential", "binary"]),
    decimals=st.integers(2, 6),
)
def test_a_correct_cell_is_never_labelled_a_mistake(grades, position, quantity, gain, decimals):
    position = min(position, len(grades))
    f = Variant(gain=gain)
    column = {"gain": "Gain", "divisor": "Divisor", "discounted_gain": "Discounted gain"}.get(
        quantity, "Cumulative DCG"
    )
    exact = ndcg_core.explain(grades, gain=f.gain_spec).steps[column].iloc[position - 1]
    q = Question(tuple(grades), f, quantity, position=position)
    assert diagnose_question(f"{exact:.{decimals}f}", q) == []


# ------------------------------------------------------------------ feedback, hints, progress


def test_feedback_names_the_mistake_and_points_at_a_row():
    e = make_exercise(7, 1, "metric", 1)
    grades, q = list(e.grades), e.question
    wrong = jk(grades) if q.quantity == "dcg" else jk(grades) / jk(sorted(grades, reverse=True))
    fb = check(e, f"{wrong:.3f}")
    assert not fb.correct
    assert "log2_i" in fb.mistakes
    assert "divided by max(1, log2(i))" in fb.message
    assert fb.focus[0] in {"steps", "ideal_steps"} and fb.focus[1] >= 2  # position 1 is never the culprit


def test_unreadable_answer_is_not_an_attempt():
    e = make_exercise(7, 1, "metric", 1)
    fb = check(e, "log2(3)")
    assert fb.problem and not fb.counts and "functions" in fb.message
    assert Progress().record(e, fb) == Progress()


@pytest.mark.parametrize("kind", list(KINDS))
def test_three_hint_levels(kind):
    for level in LEVELS:
        e = make_exercise(11, 2, kind, level)
        h = hints(e)
        assert [x.level for x in h] == [1, 2, 3]
        assert all(x.text for x in h)
        if e.answer_type == "number":
            assert h[2].tables
            assert f"{e.exact:.4f}".rstrip("0").rstrip(".") in h[2].text


def test_metric_hint_two_fills_in_the_numbers():
    e = make_exercise(7, 1, "metric", 1)
    latex = " ".join(hints(e)[1].latex)
    assert "\\dfrac" in latex
    assert f"{e.exact:.3f}".rstrip("0").rstrip(".") in latex


def test_progress_counts_attempts_correct_and_streak():
    e1, e2 = make_exercise(1, 1, "winner", 1), make_exercise(1, 2, "winner", 1)
    right1, right2 = check(e1, e1.answer_choice), check(e2, e2.answer_choice)
    wrong = check(e2, (e2.answer_choice + 1) % 4)
    p = Progress().record(e1, right1)
    assert p.attempts == {"winner": 1} and p.correct == {"winner": 1} and p.streak == 1
    p = p.record(e1, right1)  # solved already: not counted twice
    assert p.attempts == {"winner": 1} and p.streak == 1
    p = p.record(e2, wrong)
    assert p.attempts == {"winner": 2} and p.streak == 0 and p.best_streak == 1 and p.missed("winner") == 1
    p = p.record(e2, right2)
    assert p.correct == {"winner": 2} and p.streak == 1
    table = p.table()
    assert list(table["Exercise"]) == list(KINDS.values())
    assert table.set_index("Exercise").loc[KINDS["winner"], "Missed"] == 1


def test_practise_what_you_missed_favours_missed_kinds():
    p = Progress(attempts={"library": 3, "cell": 3}, correct={"cell": 3})  # library: 3 missed
    draws = [next_kind(p, 5, n) for n in range(600)]
    share = draws.count("library") / len(draws)
    # weight 1 + 3*3 = 10 against 1 for each of the five others: 10/15
    assert 0.58 < share < 0.75
    assert set(draws) == set(KINDS)  # the others still come up
    assert [next_kind(p, 5, n) for n in range(20)] == draws[:20]


def test_feedback_is_plain_data():
    fb = Feedback(True, "Right")
    assert fb.counts and fb.mistakes == ()


def test_feedback_shows_the_row_under_both_formulas():
    # Wikipedia's list, DCG asked with log2(i+1), answered with log2(i): row 2 shows it.
    e = make_exercise(1, 1, "metric", 1)
    e = type(e)(**{**e.__dict__, "question": Question(tuple(map(float, L)), Variant(), "dcg")})
    fb = check(e, f"{jk(L):.3f}")
    assert fb.mistakes == ("log2_i",) and fb.focus == ("steps", 2)
    rows = focus_rows(e, fb).set_index("Step")
    # headed by the rule the mistake used, as the mistake names it (issue 38: "log2(i)" was not it)
    assert list(rows.columns) == ["Asked", "Your way: divisor = max(1, log2 i)"]
    assert list(rows.loc["Divisor"]) == pytest.approx([math.log2(3), 1.0])
    assert list(rows.loc["Discounted gain"]) == pytest.approx([2 / math.log2(3), 2.0])
    assert list(rows.loc["Item"]) == ["D2", "D2"]
    latex = feedback_latex(e, fb)
    assert latex[0].startswith("\\text{row 2: }") and "\\dfrac{2}{1.585} = 1.262" in latex[0]
    assert latex[1].startswith("\\mathrm{DCG@6}")


def test_unknown_total_points_at_the_formula_not_a_row():
    e = make_exercise(7, 1, "metric", 1)
    fb = check(e, "0.123")
    assert fb.mistakes == ("unknown",) and fb.focus is None
    assert "worked formula below" in fb.message
    latex = feedback_latex(e, fb)
    assert latex and all(x.startswith("\\mathrm{") for x in latex)
    assert focus_rows(e, fb).empty
    assert feedback_latex(e, check(e, f"{e.exact:.3f}")) == ()


def test_the_row_shown_beside_a_mistake_prints_given_values_as_given_and_computed_ones_to_3_decimals():
    """Issue 38: the "Your way" table printed positions and grades as 2.000, and Class feedback raw
    floats such as 1.5849625007211563."""
    e = make_exercise(1, 1, "metric", 1)
    e = type(e)(**{**e.__dict__, "question": Question((3.0, 2.0, 1.5, 0.0), Variant(), "dcg")})
    jarvelin = 3 + 2 + 1.5 / math.log2(3)  # divided by max(1, log2 i): the log2(i) mistake
    fb = check(e, f"{jarvelin:.3f}")
    assert fb.mistakes == ("log2_i",)
    rows = focus_text(focus_rows(e, fb)).set_index("Step")
    assert list(rows.loc["Position"]) == ["2", "2"] and list(rows.loc["Grade"]) == ["2", "2"]
    assert list(rows.loc["Divisor"]) == [f"{math.log2(3):.3f}", "1.000"]
    assert all(isinstance(v, str) and len(v.partition(".")[2]) <= 3 for v in rows.to_numpy().ravel())

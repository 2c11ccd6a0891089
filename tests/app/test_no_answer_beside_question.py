"""Issue 38, part 2: no page shows the answer to the question it asks, before it is answered.

Learn step 4 asked the discounted gain of D3 (gain 3, divisor 1.585) while the answer box's
placeholder read "arithmetic such as 3/1.585"; every Learn box's help said "0.93 is right for
0.9315", the answer of step 6; Practice's placeholder "3 + 2/1.585" answered every
divisor-at-position-2 question. Each Learn step and each numeric Practice kind is opened here, and
every text of the page (prose, tables, placeholders, help, labels) is searched for the asked value:
a number with 2 decimals or more that is the value rounded to them, or arithmetic that works it
out. A whole-number answer (a gain of 3, a
divisor of 2) cannot be told from the list's grades and positions, so for those only the answer
box's placeholder and help are searched.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest
from apptest_support import ok
from streamlit.testing.v1 import AppTest

from ndcg_core import explain
from ndcg_core.teaching.answers import parse_answer
from ndcg_core.teaching.lesson import N_STEPS, lesson_step
from ndcg_core.teaching.practice import make_exercise

APP = str(__import__("pathlib").Path(__file__).resolve().parents[2] / "app.py")
NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")
ARITHMETIC = re.compile(r"\d[\d.]*(?:\s*[-+*/^]\s*\d[\d.]*)+")


def _strings(message) -> list[str]:
    """Every string field of a protobuf message, nested ones included."""
    out = []
    for _field, value in message.ListFields():
        values = (
            value
            if isinstance(value, (list, tuple))
            or (
                hasattr(value, "__len__")
                and not isinstance(value, (str, bytes))
                and not hasattr(value, "ListFields")
            )
            else [value]
        )
        for v in values:
            if isinstance(v, str):
                out.append(v)
            elif hasattr(v, "ListFields"):
                out.extend(_strings(v))
    return out


def page_texts(at: AppTest) -> tuple[list[str], list[str]]:
    """(everything the page shows, the answer boxes' placeholders and help)."""
    shown, boxes = [], []

    def walk(node) -> None:
        for child in getattr(node, "children", {}).values():
            proto = getattr(child, "proto", None)
            if proto is not None and hasattr(proto, "ListFields"):
                shown.extend(_strings(proto))
                if type(child).__name__ == "TextInput":
                    boxes.extend([child.proto.placeholder, child.proto.help])
            value = getattr(child, "value", None) if type(child).__name__ == "Dataframe" else None
            if isinstance(value, pd.DataFrame):
                shown.extend(str(v) for v in value.to_numpy().ravel())
            walk(child)

    walk(at.main)
    walk(at.sidebar)
    return shown, boxes


def holding(texts: list[str], value: float) -> list[str]:
    """The texts holding ``value``: a number with 2 decimals or more that is the value rounded to them
    (one decimal tells little: a grade 1.0 beside an NDCG of 0.961 is not its answer)."""
    found = []
    for text in texts:
        for token in NUMBER.findall(text):
            decimals = len(token.partition(".")[2])
            if decimals >= 2 and abs(float(token) - value) <= 0.5 * 10.0**-decimals + 1e-12:
                found.append(text)
    return found


def worked_out(texts: list[str], value: float) -> list[str]:
    """The texts holding arithmetic that works the value out ("3/1.585" for 1.893)."""
    found = []
    for text in texts:
        for expression in ARITHMETIC.findall(text):
            try:
                result = parse_answer(expression)
            except ValueError:
                continue
            if abs(result.value - value) <= 0.5 * 10.0 ** -max(result.decimals, 2):
                found.append(text)
    return found


def assert_not_shown(at: AppTest, value: float, where: str) -> None:
    shown, boxes = page_texts(at)
    wrong = worked_out(boxes, value)
    wrong += holding(boxes if float(value).is_integer() else shown, value)
    assert wrong == [], f"{where}: the answer {value} stands beside its question: {wrong[:3]}"


LISTS = {
    "wikipedia, log2(i + 1)": {"rel": "3,2,3,0,1,2"},
    "wikipedia, max(1, log2 i)": {"rel": "3,2,3,0,1,2", "discount": "jarvelin"},
    "exponential, k = 3": {"rel": "2,3,0,1,3", "gain": "exponential", "k": "3"},
}


@pytest.mark.parametrize("name", LISTS)
def test_no_learn_step_shows_its_answer_before_it_is_answered(name):
    params = LISTS[name]
    at = AppTest.from_file(APP, default_timeout=60)  # a link to the lesson with this list
    for key, value in params.items():
        at.query_params[key] = value
    at.switch_page("views/learn.py")
    ok(at.run())
    ex = explain(
        [float(g) for g in params["rel"].split(",")],
        None if "k" not in params else int(params["k"]),
        gain=params.get("gain", "linear"),
        discount=params.get("discount", "log"),
    )
    for n in range(1, N_STEPS + 1):
        question = lesson_step(n, ex).question
        at.query_params["step"] = str(n)
        ok(at.run())
        if question is None or question.exact is None:
            continue
        assert_not_shown(at, question.exact, f"{name}, step {n}")


@pytest.mark.parametrize("kind", ["cell", "metric"])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_no_numeric_practice_exercise_shows_its_answer(kind, level):
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("views/practice.py")
    for seed in (7, 11, 23):
        e = make_exercise(seed, 1, kind, level)
        at.query_params.update({"seed": str(seed), "ex": "1", "kind": kind, "level": str(level)})
        ok(at.run())
        assert_not_shown(at, e.exact, f"Practice seed {seed} {kind} level {level}")

"""Issue 30, part 4: every CSV export escapes formula-like cells (OWASP CSV injection).

The Playground's "Export for slides -> Table CSV" wrote labels from a share link as they came
(``=HYPERLINK(...)``, ``+1+1``, ``-2+3``, ``@SUM(1+1)``); the Class CSV escaped names but not the
answer column. A plain number such as ``-2.5`` must stay a number.
"""

from __future__ import annotations

import csv
import io

import pytest

from ndcg_core import explain
from ndcg_core.classroom import Store, practice_definition
from ndcg_core.csvcells import csv_cell
from ndcg_core.teaching.export import table_csv
from ndcg_core.teaching.playground import from_query_params

EVIL = ['=HYPERLINK("https://evil.example","x")', "+1+1", "-2+3", "@SUM(1+1)", "\tTAB", "\rCR"]


@pytest.mark.parametrize("text", EVIL)
def test_formula_like_text_gets_a_quote(text):
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize("text", ["-2.5", "+3", "-1e-3", ".5", "0", "D1", "a=b", "", "'already"])
def test_plain_numbers_and_ordinary_text_stay(text):
    assert csv_cell(text) == text


@pytest.mark.parametrize("value", [-2.5, 3, None, True])
def test_values_that_are_not_text_stay(value):
    assert csv_cell(value) is value


def read(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_the_playgrounds_table_csv_escapes_labels_from_a_link_and_keeps_numbers():
    labels = ["=HYPERLINK(1)", "+1+1", "-2+3", "@SUM(1+1)"]
    state, warnings = from_query_params({"rel": "3,-2.5,1,0", "labels": ",".join(labels)})
    assert not warnings
    steps = explain([i.grade for i in state.items], labels=[i.label for i in state.items]).steps
    rows = read(table_csv(steps))
    header, body = rows[0], rows[1:]
    items = [row[header.index("Item")] for row in body]
    assert items == ["'" + label for label in labels]
    grades = [row[header.index("Grade")] for row in body]
    assert grades == ["3", "-2.5", "1", "0"]  # numbers stay numbers: no quote before -2.5


def test_the_class_csv_escapes_names_and_answers(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'c.sqlite3'}", hours=24)
    code, key = store.create_room()
    store.ask(code, key, practice_definition(7, 1, "metric", 1))
    store.set_status(code, key, 1, "open")
    answers = {"=HYPERLINK(1)": "-2+3", "@SUM(1+1)": "-0.5", "Ana": "+1+1"}
    for name, answer in answers.items():
        store.submit(code, store.join(code, name).token, 1, answer)
    rows = read(store.export_csv(code, key))
    header, body = rows[0], rows[1:]
    got = {row[header.index("student")]: row[header.index("answer")] for row in body}
    assert got == {"'=HYPERLINK(1)": "'-2+3", "'@SUM(1+1)": "-0.5", "Ana": "'+1+1"}
    values = sorted(float(row[header.index("value")]) for row in body)
    assert values == [-0.5, 1.0, 2.0]  # -2+3 and +1+1, computed; the column stays numeric

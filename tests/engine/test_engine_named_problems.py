"""Issue 30, item 7: what used to fall back without a word is named (the engine's part).

A gain table that names a grade twice was read with the last gain; a TREC run whose first score is
``nan`` (or any word) was read as a table and told it "needs columns query, doc, score"; a NUL or
another control character inside an id was accepted. Each is now refused with the grade, the line
and the field named.
"""

from __future__ import annotations

import io

import pytest

from ndcg_core import Variant, read_qrels, read_run
from ndcg_core.dataset.tables import FAST_READ_CHARS
from ndcg_core.errors import NDCGError
from ndcg_core.variants import parse_gain_table

# ---------------------------------------------------------------- a gain table names each grade once


@pytest.mark.parametrize("text", ["0:0, 1:1, 1:5", "1:5 0:0 1:1", "0:0, 1:1, 1.0:1"])
def test_a_gain_table_that_names_a_grade_twice_is_refused_naming_the_grade(text):
    with pytest.raises(NDCGError) as err:
        parse_gain_table(text)
    assert err.value.code == "gain_grade_twice"
    assert err.value.values["g"] == "1"
    assert "grade 1 twice" in str(err.value)


def test_a_variant_given_pairs_that_name_a_grade_twice_is_refused():
    with pytest.raises(NDCGError) as err:
        Variant(gain=((0, 0), (1, 1), (1, 5)))
    assert err.value.code == "gain_grade_twice"
    assert (err.value.values["first"], err.value.values["second"]) == ("'1:1'", "'1:5'")
    assert Variant(gain={0: 0, 1: 1}).gain_table == {0: 0, 1: 1}  # a mapping cannot repeat a grade


def test_the_share_link_and_the_variant_name_refuse_it_too():
    with pytest.raises(NDCGError, match="grade 2 twice"):
        Variant.parse("nDCG(gain='0:0,2:3,2:7')")


# ---------------------------------------------------------------- TREC files: a bad value named on its line


@pytest.mark.parametrize("score", ["nan", "NaN", "abc", "inf", "-"])
def test_a_run_whose_first_score_is_not_a_number_is_named_on_line_1(score):
    with pytest.raises(NDCGError) as err:
        read_run(f"q1 Q0 d1 1 {score} tag\nq1 Q0 d2 2 0.5 tag\n".encode())
    assert err.value.code == "not_finite_row", str(err.value)
    assert err.value.values["what"] == "score"
    assert str(err.value.values["row"]) == "line 1"
    assert "needs columns" not in str(err.value)


@pytest.mark.parametrize("grade", ["nan", "x", "high"])
def test_a_qrels_whose_first_grade_is_not_a_number_is_named_on_line_1(grade):
    with pytest.raises(NDCGError) as err:
        read_qrels(f"q1 0 d1 {grade}\nq1 0 d2 1\n".encode())
    assert err.value.code == "not_finite_row", str(err.value)
    assert err.value.values["what"] == "relevance"
    assert str(err.value.values["row"]) == "line 1"


def test_a_bad_score_in_a_large_file_is_named_on_its_line():
    lines = [f"q{i // 100} Q0 d{i} {i % 100 + 1} {1 / (i + 1):.6f} run\n" for i in range(5_000)]
    lines[0] = "q0 Q0 d0 1 nan run\n"
    text = "".join(lines).encode()
    assert len(text) > FAST_READ_CHARS  # the fast reader's size: it hands the file to the strict one
    with pytest.raises(NDCGError) as err:
        read_run(text)
    assert (err.value.code, str(err.value.values["row"])) == ("not_finite_row", "line 1")


@pytest.mark.parametrize(
    ("kind", "text", "columns"),
    [
        ("qrels", "qid 0 docno rel\nq1 0 d1 2\n", ["query", "doc", "relevance"]),  # a header, still
        ("run", "query Q0 doc rank score tag\nq1 Q0 d1 1 0.5 t\n", ["query", "doc", "score"]),
    ],
)
def test_a_header_with_the_trec_width_is_still_a_header(kind, text, columns):
    table = (read_qrels if kind == "qrels" else read_run)(io.StringIO(text))
    assert list(table.columns) == columns and len(table) == 1


# ---------------------------------------------------------------- ids hold no control character


@pytest.mark.parametrize(
    ("kind", "text", "line", "what", "char"),
    [
        ("run", "q1 Q0 d1 1 0.5 t\nq1 Q0 d\x002 2 0.4 t\n", 2, "document id", "U+0000"),
        ("qrels", "q1 0 d\x001 1\n", 1, "document id", "U+0000"),
        ("qrels", "q\x071 0 d1 1\n", 1, "query id", "U+0007"),
        ("run", "q1 Q0 d\x1b[31m 1 0.5 t\n", 1, "document id", "U+001B"),
        ("run", "q1 Q0 d\x7f 1 0.5 t\n", 1, "document id", "U+007F"),
        ("run", "q1 Q0 dé\x85 1 0.5 t\n", 1, "document id", "U+0085"),
        ("run", "qid,docno,score\nq1,d1,0.5\nq1,d\x002,0.4\n", 3, "document id", "U+0000"),
        ("qrels", 'query,doc,relevance\nq1,"d\n1",1\n', 2, "document id", "U+000A"),
    ],
    ids=["run-nul", "qrels-nul", "bell-in-query", "escape", "del", "c1-next-line", "csv-nul", "csv-newline"],
)
def test_a_control_character_in_an_id_is_refused_naming_the_line(kind, text, line, what, char):
    with pytest.raises(NDCGError) as err:
        (read_qrels if kind == "qrels" else read_run)(text.encode())
    assert err.value.code == "control_in_id", str(err.value)
    assert (err.value.values["line"], str(err.value.values["what"]), err.value.values["char"]) == (
        line,
        what,
        char,
    )


def test_a_control_character_deep_in_a_large_file_is_found_by_the_fast_reader():
    lines = [f"q{i // 100} Q0 doc-{i:06d} {i % 100 + 1} 0.{i:06d} run\n" for i in range(20_000)]
    lines[12_345] = "q123 Q0 doc\x00x 46 0.5 run\n"
    with pytest.raises(NDCGError) as err:
        read_run("".join(lines).encode())
    assert (err.value.code, err.value.values["line"]) == ("control_in_id", 12_346)


def test_a_control_character_outside_the_ids_is_left_alone():
    """Only the ids are kept: a run's tag is ignored, as trec_eval ignores it."""
    assert read_run(b"q1 Q0 d1 1 0.5 t\x00g\n")["doc"].tolist() == ["d1"]
    assert read_run("q1 Q0 dé 1 0.5 t\n".encode())["doc"].tolist() == ["dé"]  # not ASCII, printable

"""Issue 14 (hardening): no silently wrong number. Library-level regression tests, one per item."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from ndcg_core import evaluate, read_qrels, read_run

# ---------------------------------------------------------------- item 2: ids are text


def test_item2_empty_query_id_in_csv_qrels_names_the_line():
    text = "query,doc,relevance\nq1,d1,1\nq2,d4,1\n,d5,3\n"
    with pytest.raises(ValueError, match=r"line 4.*empty query id"):
        read_qrels(io.StringIO(text))


def test_item2_empty_doc_id_in_csv_run_names_the_line():
    text = "query,doc,score\nq1,d1,0.5\nq1,,0.4\n"
    with pytest.raises(ValueError, match=r"line 3.*empty document id"):
        read_run(io.StringIO(text))


@pytest.mark.parametrize("word", ["NA", "null", "nan", "None", "N/A", "NULL", "#N/A", "-nan"])
def test_item2_ids_that_look_missing_are_read_as_written(word):
    qrels = read_qrels(io.StringIO(f"query,doc,relevance\n{word},{word},1\n{word},d2,0\n"))
    assert qrels["query"].tolist() == [word, word]
    assert qrels["doc"].tolist() == [word, "d2"]
    run = read_run(io.StringIO(f"q1 Q0 {word} 1 2.0 tag\nq1 Q0 d2 2 1.0 tag\n"))
    assert run["doc"].tolist() == [word, "d2"]
    # Both judged once each: no false "judged twice", and the hand value holds.
    table = evaluate(read_qrels(io.StringIO(f"q1 0 {word} 1\nq1 0 None2 1\n")), run, k=2)
    assert table["ndcg"].tolist() == pytest.approx([1 / (1 + 1 / 1.5849625007211562)])


def test_item2_missing_id_in_a_dataframe_is_a_clear_error():
    qrels = pd.DataFrame({"query": ["q1", "q2"], "doc": ["d1", "d2"], "relevance": [1, 1]})
    run = pd.DataFrame({"query": ["q1", None], "doc": ["d1", "d2"], "score": [1.0, 2.0]})
    with pytest.raises(ValueError, match=r"run: row 1 has no query id"):
        evaluate(qrels, run)


def test_item2_empty_query_id_no_longer_scores_in_another_query():
    # Before: ",d5,3" was counted in q2, which then scored 0.5 instead of 1.
    with pytest.raises(ValueError, match="empty query id"):
        read_qrels(io.StringIO("query,doc,relevance\nq1,d1,1\nq2,d2,3\n,d5,3\n"))


def test_minor_trec_doc_id_with_a_space_is_named():
    with pytest.raises(ValueError, match=r"line 1 has 5 fields.*spaces"):
        read_qrels(io.StringIO("q1 0 my doc 2\nq1 0 d2 1\n"))
    with pytest.raises(ValueError, match=r"line 2.*rank 'doc'.*spaces"):
        read_run(io.StringIO("q1 Q0 d1 1 2.0 tag\nq1 Q0 my doc 2 1.0 tag\n"))

"""Issue 40 part 2: messages that prevent silent mistakes, on the command line and in the library.

Each defect the issue names: a run and qrels with no query in common printed ``nan`` and exited 0
(``q1`` against ``1``); the duplicate message advised ``duplicates='max'`` (a Python argument the
command lacked) and said "run" for the file; a run given as qrels, or a 5-column run, got pandas'
header text (``'1.1'``) without a line or a word about the file's role; a grade of 1.5 named
pytrec_eval under the trec_eval label and no file. Codes are checked, never English text alone.
"""

from __future__ import annotations

import io
import warnings

import pandas as pd
import pytest
from cli_support import run_main

from ndcg_core import evaluate, read_qrels, read_run
from ndcg_core.dataset import lean
from ndcg_core.errors import NDCGError


@pytest.fixture(params=["lean", "full"])
def both_paths(request, monkeypatch):
    """Each command-line test runs on the lean path and on the full readers."""
    if request.param == "full":
        monkeypatch.setattr(lean, "LEAN_BYTES", 0)
    return request.param


def _write(tmp_path, name: str, text: str) -> str:
    target = tmp_path / name
    target.write_text(text)
    return str(target)


# ------------------------------------------------------------------ queries in common


def test_no_query_in_common_is_an_error_naming_both_files_and_their_ids(tmp_path, both_paths):
    qrels = _write(tmp_path, "qrels.txt", "1 0 d1 1\n1 0 d2 0\n2 0 d3 2\n")
    run = _write(tmp_path, "run.txt", "q1 Q0 d1 1 0.9 r\nq1 Q0 d2 2 0.5 r\nq2 Q0 d3 1 0.4 r\n")
    status, out, err = run_main(qrels, run)
    assert (status, out) == (2, "")
    assert f"no query is in both {qrels} and {run}: {qrels} has queries '1', '2', {run} has 'q1', 'q2'" in err


def test_few_queries_in_common_is_a_warning_with_both_samples(tmp_path, both_paths):
    qrels = _write(tmp_path, "qrels.txt", "q1 0 d1 1\n")
    run = _write(tmp_path, "run.txt", "".join(f"q{i} Q0 d1 1 1 r\n" for i in range(1, 5)))
    status, out, err = run_main("-m", "ndcg", qrels, run)
    assert status == 0 and out == "ndcg                  \tall\t1.0000\n"
    assert err.startswith(f"ndcg-eval: warning: only 1 of the 4 queries of {run} are judged in {qrels}")
    assert "has 'q2', 'q3', 'q4', ..." not in err and "'q2', 'q3', 'q4'" in err


def test_evaluate_warns_with_a_code():
    qrels = pd.DataFrame({"query": ["1"], "doc": ["d"], "relevance": [1]})
    run = pd.DataFrame({"query": ["q1"], "doc": ["d"], "score": [1.0]})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluate(qrels, run)
    assert [w.message.code for w in caught] == ["no_query_in_common"]


# ------------------------------------------------------------------ duplicates


def test_duplicate_message_names_the_file_and_the_command_lines_fix(tmp_path, both_paths):
    qrels = _write(tmp_path, "judged.txt", "q1 0 d1 1\n")
    run = _write(tmp_path, "bm25.txt", "q1 Q0 d1 1 0.9 r\nq1 Q0 d1 2 0.5 r\n")
    status, _, err = run_main(qrels, run)
    assert status == 2
    assert err == (
        f"ndcg-eval: {run}: document 'd1' is retrieved twice for query 'q1' (line 1 and line 2); "
        "remove one, or run again with --duplicates max to keep the higher score\n"
    )
    status, out, _ = run_main("--duplicates", "max", "-m", "ndcg", qrels, run)
    assert (status, out) == (0, "ndcg                  \tall\t1.0000\n")
    twice = _write(tmp_path, "twice.txt", "q1 0 d1 1\nq1 0 d1 2\n")
    status, _, err = run_main(twice, run)
    assert status == 2 and err.startswith(f"ndcg-eval: {twice}: document 'd1' is judged twice")
    assert "--duplicates max to keep the higher grade" in err


def test_the_library_names_the_file_and_its_own_fix(tmp_path):
    run = read_run(_write(tmp_path, "bm25.txt", "q1 Q0 d1 1 0.9 r\nq1 Q0 d1 2 0.5 r\n"))
    with pytest.raises(NDCGError) as info:
        evaluate(read_qrels(io.BytesIO(b"q1 0 d1 1\n")), run)
    assert info.value.code == "retrieved_twice" and info.value.values["name"].endswith("bm25.txt")
    assert info.value.values["fix"].code == "fix_duplicates_score"
    assert "pass duplicates='max' to keep the higher score" in str(info.value)


# ------------------------------------------------------------------ a file in the other role


@pytest.mark.parametrize(
    ("qrels_text", "run_text", "code", "named"),
    [
        ("q1 Q0 d1 1 0.9 r\n", "q1 0 d1 1\n", "looks_like_run", "qrels"),  # swapped arguments
        ("q1 0 d1 1\n", "q1 0 d1 1\n", "looks_like_qrels", "run"),  # qrels given as the run
        ("1 Q0 d1 1 1.0\n1 Q0 d2 2 0.5\n", "1 Q0 d1 1 1.0 r\n", "looks_like_run", "qrels"),  # 5-column run
    ],
)
def test_a_file_in_the_other_role_is_said_so_with_its_line(
    tmp_path, both_paths, qrels_text, run_text, code, named
):
    qrels = _write(tmp_path, "qrels.txt", qrels_text)
    run = _write(tmp_path, "run.txt", run_text)
    status, _, err = run_main(qrels, run)
    name = qrels if named == "qrels" else run
    assert status == 2
    assert err.startswith(f"ndcg-eval: {name}, line 1: this looks like ")
    assert "give the qrels file first, then the runs: ndcg-eval QRELS RUN [RUN ...]" in err
    assert "'1.1'" not in err
    reader = read_qrels if named == "qrels" else read_run
    with pytest.raises(NDCGError) as info:
        reader(name)
    assert info.value.code == code and info.value.values["line"] == 1


def test_a_run_of_five_fields_is_named_with_its_line(tmp_path, both_paths):
    qrels = _write(tmp_path, "qrels.txt", "1 0 d1 1\n")
    run = _write(tmp_path, "run.txt", "1 Q0 d1 1 1.0\n1 Q0 d2 2 0.5\n")
    status, _, err = run_main(qrels, run)
    assert status == 2
    assert err.startswith(f"ndcg-eval: {run}, line 1 has 5 fields; a TREC run line has 6")
    with pytest.raises(NDCGError) as info:
        read_run(run)
    assert info.value.code == "run_fields"


# ------------------------------------------------------------------ a fractional grade


def test_a_fractional_grade_names_trec_eval_its_rule_the_file_and_the_fix(tmp_path, both_paths):
    qrels = _write(tmp_path, "graded.txt", "q1 0 d1 1.5\n")
    run = _write(tmp_path, "run.txt", "q1 Q0 d1 1 0.9 r\n")
    status, _, err = run_main(qrels, run)
    assert status == 2
    assert err.startswith(f"ndcg-eval: trec_eval refuses {qrels}: grades must be whole numbers")
    assert "(grade 1.5 on line 1); fix the grades, or run again with --preset none" in err
    assert "pytrec_eval expects relevance to be an integer'" in err  # pytrec_eval's words, quoted as its
    status, out, _ = run_main("--preset", "none", "-m", "ndcg", qrels, run)
    assert (status, out) == (0, "ndcg                  \tall\t1.0000\n")

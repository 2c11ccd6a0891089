"""The Data sets page's rules for arriving files as a pure function (issue 41, part 3), without a page.

Each case is the rule as the page states it to the reader: "Qrels with runs replace the data set;
runs alone join the loaded ones (five at most); a qrels file alone is scored with the loaded runs",
and on the bundled sample a file waits for its other half.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ndcg_core.teaching.uploads import (
    MAX_RUNS,
    Awaiting,
    DataSetFiles,
    TooManyRuns,
    after_upload,
)

SAMPLE = DataSetFiles("sq", "sample", (("sample run", "sr"),), sample=True)
OWN = DataSetFiles("q1", "q1.txt", (("a.txt", "ka"), ("b.txt", "kb")))


def test_on_the_sample_a_file_waits_for_its_other_half():
    assert after_upload(SAMPLE, [], []) is None
    assert after_upload(SAMPLE, [], [("r.txt", "kr")]) == Awaiting("qrels")
    assert after_upload(SAMPLE, [("q.txt", "kq")], []) == Awaiting("run")
    assert after_upload(SAMPLE, [("q.txt", "kq")], [("r.txt", "kr")]) == DataSetFiles(
        "kq", "q.txt", (("r.txt", "kr"),)
    )


def test_qrels_with_runs_replace_runs_alone_join_qrels_alone_rescores():
    assert after_upload(OWN, [("q2.txt", "kq2")], [("c.txt", "kc")]).runs == (("c.txt", "kc"),)
    assert after_upload(OWN, [], [("c.txt", "kc")]) == DataSetFiles(
        "q1", "q1.txt", (("a.txt", "ka"), ("b.txt", "kb"), ("c.txt", "kc"))
    )
    assert after_upload(OWN, [("q2.txt", "kq2")], []) == DataSetFiles("kq2", "q2.txt", OWN.runs)


def test_a_data_set_is_its_tables_whatever_their_names():
    assert OWN.tables == ("q1", "ka", "kb")
    assert DataSetFiles("q1", "other.txt", (("x", "ka"), ("y", "kb"))).tables == OWN.tables


def test_removing_a_run_removes_that_run_not_a_place():
    assert OWN.without(("a.txt", "ka")).runs == (("b.txt", "kb"),)
    assert OWN.without(("a.txt", "ka")).without(("a.txt", "ka")).runs == (("b.txt", "kb"),)  # twice


@given(st.lists(st.tuples(st.sampled_from(["r.txt", "s.txt"]), st.sampled_from("klmnopq")), max_size=9))
def test_runs_joining_are_counted_by_content_and_named_apart(runs):
    got = after_upload(OWN, [], runs)
    contents = list(dict.fromkeys(["ka", "kb", *(key for _, key in runs)]))  # one file twice: one run
    if not runs:
        assert got is None
    elif len(contents) > MAX_RUNS:
        assert got == TooManyRuns(len(contents))
    else:
        assert [key for _, key in got.runs] == contents
        names = [name for name, _ in got.runs]
        assert len(set(names)) == len(names)  # "r.txt", "r.txt (2)", ...

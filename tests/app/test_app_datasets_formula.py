"""Issue 40 on the Data sets page: unjudged is not zero (the drill-down marks unjudged documents
apart and shows Judged@k), a run with no query in common is refused naming both files, and does the
runs' order depend on the formula (every variant, Kendall's tau, the flips, one click to Explore).

Expected values are closed forms (tests/engine/test_robustness.py has the derivations)."""

from __future__ import annotations

import pathlib

from apptest_support import ok
from streamlit.testing.v1 import AppTest

from ndcg_core.teaching.uploads import DataSetFiles
from views.ui import keys

ROOT = pathlib.Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")

QRELS = b"q 0 x 3\nq 0 a 1\nq 0 b 1\nq 0 c 1\nq 0 d 1\n"
RUN_A = b"q Q0 x 1 4 A\nq Q0 n1 2 3 A\nq Q0 n2 3 2 A\nq Q0 n3 4 1 A\n"
RUN_B = b"q Q0 a 1 4 B\nq Q0 b 2 3 B\nq Q0 c 3 2 B\nq Q0 d 4 1 B\n"


def with_runs(qrels: bytes, *runs: tuple[str, bytes]) -> AppTest:
    from views.datastore import load

    at = AppTest.from_file(APP, default_timeout=90).run()
    at.session_state[keys.DS_DATA] = DataSetFiles(
        load("qrels", qrels, "judged.txt"),
        "judged.txt",
        tuple((name, load("run", content, name)) for name, content in runs),
    )
    return at.switch_page("views/datasets.py").run()


def test_the_drill_down_marks_unjudged_documents_apart_and_shows_judged_at_k():
    """The defect: unjudged documents showed as "Grade 0", like judged non-relevant ones, with no
    judged@k. Run A's first 10 hold x (grade 3) and three documents nobody judged."""
    at = with_runs(QRELS, ("A.txt", RUN_A))
    ok(at)
    ranking = next(df for df in at.dataframe if "grade" in df.value.columns and "rank" in df.value.columns)
    assert ranking.value["grade"].tolist() == ["3", "unjudged", "unjudged", "unjudged"]
    assert any("Judged@10: 1 of 4." in m.value for m in at.markdown)
    per_query = next(df for df in at.dataframe if "judged" in df.value.columns)
    assert per_query.value["judged"].tolist() == [0.25]


def test_a_run_with_no_query_in_common_is_refused_naming_both_files():
    at = AppTest.from_file(APP, default_timeout=90).run().switch_page("views/datasets.py").run()
    given = [("q1.run", b"q1 Q0 d1 1 0.9 r\n", "text/plain")]
    qrels_uploader = next(u for u in at.get("file_uploader") if u.key.startswith("ds_qrels_file_"))
    run_uploader = next(u for u in at.get("file_uploader") if u.key.startswith("ds_run_file_"))
    qrels_uploader.set_value(("ones.qrels", b"1 0 d1 1\n", "text/plain"))
    run_uploader.set_value(given)
    at.run()
    ok(at)
    assert any(
        "no query is in both" in e.value
        and "ones.qrels" in e.value
        and "q1.run" in e.value
        and "'q1'" in e.value
        for e in at.error
    ), [e.value for e in at.error]


def test_does_the_order_depend_on_the_formula():
    at = with_runs(QRELS, ("A.txt", RUN_A), ("B.txt", RUN_B))
    ok(at)
    at.button(key="ds_robust_go").click().run()
    ok(at)
    # trec_eval's NDCG@10: A 3/4.562, B 2.562/4.562; B wins under binary gain and Järvelin's discount
    assert any("the order is **A.txt > B.txt**" in m.value for m in at.markdown)
    table = next(df for df in at.dataframe if "tau" in df.value.columns)
    orders = dict(zip(table.value["variant"], table.value["order"], strict=True))
    assert orders["nDCG(gain='binary', ties='docid_desc')@10"] == "B.txt > A.txt"
    assert orders["nDCG(discount='jarvelin', ties='docid_desc')@10"] == "B.txt > A.txt"
    flip = at.selectbox(key=keys.DS_ROBUST_FLIP)
    assert flip.value[:2] == ("A.txt", "B.txt")
    causes = next(df for df in at.dataframe if "sign_flips" in df.value.columns)
    assert causes.value["query"].tolist() == ["q"] and causes.value["sign_flips"].tolist() == [True]
    assert flip.value[2] == "nDCG(discount='jarvelin', ties='docid_desc')@10"
    at.button(key="ds_robust_explore").click().run()  # one click: both rankings under that variant
    ok(at)
    # Järvelin-Kekäläinen, base 2, k = 10: IDCG = 3 + 1 + 1/log2(3) + 1/2 + 1/log2(5) = 5.5616;
    # A = 3 / 5.5616 = 0.539, B = (1 + 1 + 1/log2(3) + 1/2) / 5.5616 = 0.563
    values = sorted(m.value for m in at.metric if "NDCG@10 of" in m.label.replace("\\", ""))
    assert values == ["0.539", "0.563"], [(m.label, m.value) for m in at.metric]

"""read_qrels / read_run: TREC files and CSV/TSV tables, with clear errors."""

import io
import re

import pandas as pd
import pytest

from ndcg_core import evaluate, read_qrels, read_run

TREC_QRELS = "301 0 FBIS3-10082 1\n301 0 FBIS3-10169 0\n\n302 0 LA010189-0001 2\n"
TREC_RUN = (
    "301 Q0 FBIS3-10082 1 12.5 mysys\n301 Q0 FBIS3-99999 2 11.0 mysys\n302 Q0 LA010189-0001 1 3 mysys\n"
)


def test_trec_qrels_from_text_and_bytes_and_path(tmp_path):
    for source in (io.StringIO(TREC_QRELS), io.BytesIO(TREC_QRELS.encode())):
        df = read_qrels(source)
        assert list(df.columns) == ["query", "doc", "relevance"]
        assert df["query"].tolist() == ["301", "301", "302"]  # ids stay text
        assert df["relevance"].tolist() == [1.0, 0.0, 2.0]
        assert df.index.tolist() == [1, 2, 4]  # file lines, the blank line skipped
    path = tmp_path / "qrels.txt"
    path.write_text(TREC_QRELS)
    assert read_qrels(path).equals(read_qrels(str(path)))


def test_trec_run_ignores_rank_and_keeps_scores():
    df = read_run(io.StringIO(TREC_RUN))
    assert list(df.columns) == ["query", "doc", "score"]
    assert df["score"].tolist() == [12.5, 11.0, 3.0]
    assert df["doc"].iloc[1] == "FBIS3-99999"


def test_uploaded_file_is_read_from_the_start():
    buf = io.BytesIO(TREC_RUN.encode())
    buf.read(10)  # Streamlit may hand over a buffer that was already read
    assert len(read_run(buf)) == 3


@pytest.mark.parametrize(
    ("text", "sep"),
    [
        ("QID,DocNo,Label\nq1,d1,2\nq1,d2,0\n", ","),
        ("topic\tdoc_id\trel\nq1\td1\t2\nq1\td2\t0\n", "\t"),
        ("query;document;grade\nq1;d1;2\nq1;d2;0\n", ";"),
        ("query_id doc relevance\nq1 d1 2\nq1 d2 0\n", " "),
    ],
)
def test_tables_with_headers_and_aliases(text, sep):
    df = read_qrels(io.StringIO(text))
    assert df[["query", "doc"]].values.tolist() == [["q1", "d1"], ["q1", "d2"]], sep
    assert df["relevance"].tolist() == [2.0, 0.0]
    assert df.index.tolist() == [2, 3]


def test_run_csv_with_sim_alias_and_extra_columns():
    df = read_run(io.StringIO("qid,docno,rank,sim,tag\nq1,d1,1,0.9,x\nq1,d2,2,0.4,x\n"))
    assert df["score"].tolist() == [0.9, 0.4]


def test_read_then_evaluate_matches_a_hand_value():
    qrels = read_qrels(io.StringIO(TREC_QRELS))
    run = read_run(io.StringIO(TREC_RUN))
    got = evaluate(qrels, run).set_index("query")
    assert got.loc["301", "ndcg"] == 1.0 and got.loc["302", "ndcg"] == 1.0


def test_errors_name_lines_in_evaluate():
    qrels = read_qrels(io.StringIO("q 0 a 1\nq 0 b 0\nq 0 a 2\n"))
    run = read_run(io.StringIO("q Q0 a 1 1.0 t\n"))
    with pytest.raises(ValueError, match=r"judged twice for query 'q' \(line 1 and line 3\)"):
        evaluate(qrels, run)


def test_empty_file():
    with pytest.raises(ValueError, match="is empty: expected qrels lines such as 'query 0 doc grade'"):
        read_qrels(io.StringIO("\n  \n"))
    with pytest.raises(ValueError, match="is empty: expected run lines"):
        read_run(io.BytesIO(b""))


def test_header_without_rows():
    with pytest.raises(ValueError, match="has a header but no data rows"):
        read_qrels(io.StringIO("query,doc,relevance\n"))


def test_non_numeric_grade_names_the_line():
    with pytest.raises(ValueError, match=r"relevance on line 3 is 'high', expected a finite number"):
        read_qrels(io.StringIO("query,doc,relevance\nq,a,1\nq,b,high\n"))
    with pytest.raises(ValueError, match=r"score on line 2 is 'x'"):
        read_run(io.StringIO("q Q0 a 1 1.0 t\nq Q0 b 2 x t\n"))


def test_missing_columns_list_found_and_expected():
    with pytest.raises(ValueError) as err:
        read_run(io.StringIO("query,doc,points\nq,a,1\n"))
    message = str(err.value)
    assert "needs columns query, doc, score; missing score" in message
    assert "found 'query', 'doc', 'points'" in message
    assert "sim" in message  # the accepted aliases are listed


def test_wrong_delimiter_is_named():
    with pytest.raises(
        ValueError, match="single column 'query:doc:relevance': the delimiter was not recognised"
    ):
        read_qrels(io.StringIO("query:doc:relevance\nq:a:1\n"))


def test_trec_line_with_missing_fields():
    with pytest.raises(ValueError, match="line 2 has fewer than 4 fields"):
        read_qrels(io.StringIO("q 0 a 1\nq 0 b\n"))
    with pytest.raises(ValueError, match="not a TREC qrels file with 4 fields on every line"):
        read_qrels(io.StringIO("q 0 a 1\nq 0 b 1 extra\n"))


def test_not_text_and_not_a_file():
    with pytest.raises(ValueError, match="not UTF-8 text"):
        read_qrels(io.BytesIO(b"\xff\xfe\x00q 0 a 1"))
    with pytest.raises(ValueError, match="expected a file path or a file-like object"):
        read_run(42)
    with pytest.raises(ValueError, match="cannot read"):
        read_run("/nonexistent/run.txt")


def test_sample_files_load_and_evaluate():
    import pathlib

    assets = pathlib.Path(__file__).resolve().parents[2] / "assets"
    qrels = read_qrels(assets / "sample_qrels.tsv")
    run = read_run(assets / "sample_run.tsv")
    per_query = evaluate(qrels, run, 10)
    assert len(per_query) >= 200
    assert per_query["idcg_zero"].any() and not per_query["idcg_zero"].all()
    assert ((per_query["ndcg"] >= 0) & (per_query["ndcg"] <= 1)).all()
    assert isinstance(qrels, pd.DataFrame)


# ------------------------------------------------------------------ large files (Arrow's reader, issue 9)


def _large_run(
    n: int = 6000, sep: str = " ", newline: str = "\n"
) -> tuple[str, list[tuple[str, str, float]]]:
    rows = [(f"q{i // 100}", f"doc-{i}", (i % 97) / 8) for i in range(n)]
    text = newline.join(
        sep.join((q, "Q0", d, str(r + 1), repr(s), "tag")) for r, (q, d, s) in enumerate(rows)
    )
    return text + newline, rows


@pytest.mark.parametrize(("sep", "newline"), [(" ", "\n"), ("\t", "\n"), (" ", "\r\n")])
def test_a_large_run_reads_every_row_by_its_line(sep, newline):
    text, rows = _large_run(sep=sep, newline=newline)
    assert len(text) > 1 << 16  # large enough for the fast reader
    run = read_run(io.BytesIO(text.encode()))
    assert run.index.name == "line" and list(run.index[:3]) == [1, 2, 3] and run.index[-1] == len(rows)
    assert list(zip(run["query"], run["doc"], run["score"], strict=True)) == rows
    assert run["query"].map(type).eq(str).all()


def test_a_large_qrels_file_with_ids_like_numbers_and_na_keeps_them_as_text():
    lines = [f"{i // 50} 0 {'NA' if i == 7 else f'00{i}'} {i % 4}" for i in range(8000)]
    qrels = read_qrels(io.BytesIO(("\n".join(lines) + "\n").encode()))
    assert qrels.loc[8, "doc"] == "NA" and qrels.loc[1, "doc"] == "000" and qrels.loc[1, "query"] == "0"
    assert list(qrels["relevance"][:5]) == [0.0, 1.0, 2.0, 3.0, 0.0]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("q1 Q0 d1 x 0.5 tag", "line 4001: the rank 'x' is not a number"),
        ("q1 Q0 d1 1", "line 4001 has fewer than 6 fields"),
        ("q1 Q0 d1 1 inf tag", "score on line 4001 is inf, expected a finite number"),
    ],
)
def test_a_bad_line_in_a_large_run_is_named(bad, message):
    text, _ = _large_run()
    lines = text.splitlines()
    broken = "\n".join([*lines[:4000], bad, *lines[4000:]])
    with pytest.raises(ValueError, match=re.escape(message)):
        read_run(io.BytesIO(broken.encode()))


def test_a_large_run_with_text_after_the_tag_and_blank_lines_still_reads():
    text, rows = _large_run()
    lines = text.splitlines()
    lines[10] += " trailing words"
    lines.insert(20, "")
    run = read_run(io.BytesIO("\n".join(lines).encode()))
    assert len(run) == len(rows) and run.loc[22, "doc"] == rows[20][1]  # line numbers stay true


@pytest.mark.parametrize("shift", [0, 1])  # the pair of spaces at an even and at an odd byte offset
@pytest.mark.parametrize("sep", [" ", "\t"])
def test_a_doubled_delimiter_hiding_a_missing_field_is_named_in_a_large_run(shift, sep):
    """'q1  d1 1 0.5 tag' split on single spaces has six fields, one empty: it is still a short line."""
    text, _ = _large_run(sep=sep)
    lines = text.splitlines()
    lines[0] = lines[0].replace("doc-0", "doc-0" + "x" * shift)
    bad = sep.join(["q1", "", "d1", "1", "0.5", "tag"])
    broken = "\n".join([*lines[:4000], bad, *lines[4000:]])
    with pytest.raises(ValueError, match=re.escape("line 4001 has fewer than 6 fields")):
        read_run(io.BytesIO(broken.encode()))


@pytest.mark.parametrize("shift", [0, 1])
def test_a_comment_line_in_a_large_qrels_file_keeps_line_numbers(shift):
    lines = [f"q{i // 50} 0 d{i}{'x' * shift if i == 0 else ''} {i % 4}" for i in range(8000)]
    lines.insert(3000, "# judged later 2")  # four fields: it would read as a judgement
    qrels = read_qrels(io.BytesIO(("\n".join(lines) + "\n").encode()))
    assert len(qrels) == 8000 and qrels.loc[3002, "doc"] == "d3000"  # line 3001 is the comment


# A large file named by its path is mapped into memory, not copied (issue 29 part 7): the table,
# and every error, must be what the same bytes give when handed over as bytes.

LARGE_RUN = "".join(
    f"q{i // 100} Q0 D-{i:07d} {i % 100 + 1} {50 - (i % 100) * 0.5} tag\n" for i in range(4_000)
)


def _mapped(monkeypatch) -> list:
    """Record what the readers' file mapping returns, so a test knows the mapped path was taken."""
    from ndcg_core.dataset import tables

    seen = []
    real = tables._map_file

    def spy(fh):
        seen.append(real(fh))
        return seen[-1]

    monkeypatch.setattr(tables, "_map_file", spy)
    return seen


@pytest.mark.parametrize(
    "name, text",
    [
        ("plain", LARGE_RUN),
        ("tabs", LARGE_RUN.replace(" ", "\t")),
        ("a comment-free qrels", "".join(f"q{i // 90} 0 D-{i:07d} {i % 3}\n" for i in range(6_000))),
    ],
)
def test_a_large_plain_file_by_path_is_mapped_and_reads_as_its_bytes(name, text, tmp_path, monkeypatch):
    from ndcg_core.dataset import tables

    path = tmp_path / "file.txt"
    path.write_text(text)
    assert path.stat().st_size > tables.FAST_READ_CHARS
    reader = read_qrels if "qrels" in name else read_run
    seen = _mapped(monkeypatch)
    got = reader(path)
    assert seen and seen[0] is not None and len(seen[0]) == path.stat().st_size  # mapped, whole
    pd.testing.assert_frame_equal(got, reader(text.encode()))
    first = text.split("\n", 1)[0].split()
    assert (got["query"].iloc[0], got["doc"].iloc[0]) == (first[0], first[2])


@pytest.mark.parametrize(
    "name, data, mapped",
    [
        ("utf-8 ids", LARGE_RUN.replace("D-0000007", "Dé-0000007").encode(), False),
        ("a byte order mark", b"\xef\xbb\xbf" + LARGE_RUN.encode(), False),
        ("latin-1, not UTF-8", LARGE_RUN.replace("D-0000007", "D\xe9-0000007").encode("latin-1"), False),
        ("gzip", __import__("gzip").compress(LARGE_RUN.encode()), False),
        ("a bad score on line 3001", LARGE_RUN.replace("0003000 1 50.0", "0003000 1 high").encode(), True),
        ("a blank line 2", LARGE_RUN.replace("\n", "\n\n", 1).encode(), True),
    ],
)
def test_a_large_file_not_plain_reads_by_path_as_by_bytes(name, data, mapped, tmp_path, monkeypatch):
    path = tmp_path / "run.txt"
    path.write_bytes(data)
    seen = _mapped(monkeypatch)

    def outcome(source):
        try:
            return read_run(source)
        except ValueError as err:
            return str(err).replace(str(path), "<file>").replace("the given bytes", "<file>")

    got, want = outcome(path), outcome(data)
    assert len(seen) == 1 and (seen[0] is not None) == mapped  # only ASCII is mapped
    if isinstance(want, str):
        assert got == want
        said = {"latin-1, not UTF-8": "byte 196", "a bad score on line 3001": "line 3001"}[name]
        assert said in want
    else:
        pd.testing.assert_frame_equal(got, want)
        assert len(got) == 4_000

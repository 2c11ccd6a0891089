"""Issue 29 part 3: gzip, bzip2, xz and Zstandard files, known by their first bytes, read as the plain
text inside them (paths, bytes and file-like objects), with the same line-numbered errors.

Every compressed file is made here, with the standard library's compressors and zstandard's, from
trec_eval's own test files; the numbers read from them are checked against trec_eval's output.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import sys

import pytest
from data_support import TREC_EVAL

from ndcg_core import NDCGError, evaluate, read_qrels, read_run
from ndcg_core.dataset.tables import FAST_READ_CHARS, compression_of


def _zstd(data: bytes) -> bytes:
    zstandard = pytest.importorskip("zstandard")
    return zstandard.ZstdCompressor().compress(data)


COMPRESS = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress, "zst": _zstd}
FORMAT = {"gz": "gzip", "bz2": "bzip2", "xz": "xz", "zst": "zstd"}


def printed(name: str, measure: str) -> dict[str, float]:
    lines = (line.split() for line in (TREC_EVAL / name).read_text().splitlines())
    return {q: float(v) for m, q, v in lines if m == measure}


@pytest.mark.parametrize("ext", sorted(COMPRESS))
def test_a_compressed_pair_reads_as_its_text_from_a_path_bytes_and_a_file(ext, tmp_path):
    plain_qrels = (TREC_EVAL / "qrels.test").read_bytes()
    plain_run = (TREC_EVAL / "results.test").read_bytes()
    packed_qrels, packed_run = COMPRESS[ext](plain_qrels), COMPRESS[ext](plain_run)
    assert packed_run != plain_run and compression_of(packed_run) == FORMAT[ext]
    qrels, run = read_qrels(TREC_EVAL / "qrels.test"), read_run(TREC_EVAL / "results.test")
    named = tmp_path / f"run.{ext}"
    misnamed = tmp_path / "run.txt"  # by content, not by name
    named.write_bytes(packed_run)
    misnamed.write_bytes(packed_run)
    for source in (named, str(misnamed), packed_run, io.BytesIO(packed_run), bytearray(packed_run)):
        got = read_run(source)
        assert got.equals(run), (ext, type(source))
    assert read_qrels(io.BytesIO(packed_qrels)).equals(qrels)
    # and the numbers are trec_eval's (out.test.aq: trec_eval -m all_trec -q qrels.test results.test)
    table = evaluate(read_qrels(packed_qrels), read_run(named), 10, preset="trec_eval")
    want = printed("out.test.aq", "ndcg_cut_10")
    assert table["ndcg"].mean() == pytest.approx(want["all"], abs=5e-5)
    for query, value in zip(table["query"], table["ndcg"], strict=True):
        assert value == pytest.approx(want[query], abs=5e-5)


@pytest.mark.parametrize("ext", sorted(COMPRESS))
def test_an_uploaded_file_object_keeps_its_name_in_messages(ext):
    upload = io.BytesIO(COMPRESS[ext](b"q1 0 d1 1\nq1 0 d2 x\n"))
    upload.name = f"judgements.{ext}"
    with pytest.raises(NDCGError, match=rf"judgements\.{ext}: relevance on line 2 is 'x'"):
        read_qrels(upload)


@pytest.mark.parametrize("ext", sorted(COMPRESS))
@pytest.mark.parametrize("large", [False, True])
def test_errors_name_the_same_line_as_in_the_plain_file(ext, large, tmp_path):
    """Small files take the strict reader, large ones Arrow's first: both name the line at fault."""
    lines = [f"q{i // 50} Q0 d{i} {i % 50 + 1} {1000 - i % 50}.5 tag\n" for i in range(4000 if large else 20)]
    lines[11] = "q0 Q0 d11 12 0.5\n"  # line 12 has 5 fields
    text = "".join(lines).encode()
    assert (len(text) > FAST_READ_CHARS) == large
    plain, packed = tmp_path / "run", tmp_path / f"run.{ext}"
    plain.write_bytes(text)
    packed.write_bytes(COMPRESS[ext](text))
    with pytest.raises(NDCGError) as want:
        read_run(plain)
    with pytest.raises(NDCGError) as got:
        read_run(packed)
    assert (got.value.code, got.value.values["line"]) == (want.value.code, 12) == ("too_few_fields", 12)
    assert str(got.value) == str(want.value).replace(str(plain), str(packed))


@pytest.mark.parametrize("ext", sorted(COMPRESS))
def test_a_large_compressed_run_reads_every_row_by_its_line(ext):
    rows = [f"q{i // 100:04d} Q0 doc{i:07d} {i % 100 + 1} {100 - i % 100}.25 run\n" for i in range(20_000)]
    text = "".join(rows).encode()
    run = read_run(COMPRESS[ext](text))
    assert len(run) == 20_000 and run.index[-1] == 20_000
    assert run["doc"].iloc[12_345] == "doc0012345" and run["score"].iloc[12_345] == 55.25


def test_concatenated_members_and_frames_are_read_whole():
    first, second = b"q1 0 d1 1\n", b"q2 0 d2 2\n"
    for ext in ("gz", "bz2", "xz", "zst"):
        qrels = read_qrels(COMPRESS[ext](first) + COMPRESS[ext](second))
        assert qrels["query"].tolist() == ["q1", "q2"], ext


def test_a_damaged_file_is_named_with_its_format():
    packed = gzip.compress((TREC_EVAL / "qrels.test").read_bytes())
    upload = io.BytesIO(packed[: len(packed) // 2])
    upload.name = "qrels.gz"
    with pytest.raises(NDCGError) as info:
        read_qrels(upload)
    assert info.value.code == "bad_compressed"
    assert info.value.values["format"] == "gzip"
    assert str(info.value).startswith("qrels.gz: not a readable gzip")
    for ext in ("bz2", "xz", "zst"):
        with pytest.raises(NDCGError) as info:
            read_qrels(COMPRESS[ext](b"q1 0 d1 1\n" * 1000)[:-8])
        assert (info.value.code, info.value.values["format"]) == ("bad_compressed", FORMAT[ext])


def test_zstandard_missing_is_a_coded_error_that_names_the_package(monkeypatch):
    packed = _zstd(b"q1 0 d1 1\n")
    monkeypatch.setitem(sys.modules, "zstandard", None)  # import zstandard now raises ImportError
    monkeypatch.setitem(sys.modules, "compression", None)  # nor Python 3.14's compression.zstd
    upload = io.BytesIO(packed)
    upload.name = "qrels.zst"
    with pytest.raises(NDCGError) as info:
        read_qrels(upload)
    assert info.value.code == "needs_zstandard"
    assert "pip install zstandard" in str(info.value) and str(info.value).startswith("qrels.zst")


def test_text_that_starts_like_a_compressed_file_stays_text():
    # bzip2's opening "BZh" is plain text: only its block signature makes a bzip2 file
    qrels = read_qrels(b"BZh1 0 d1 1\nBZh1 0 d2 0\n")
    assert qrels["query"].tolist() == ["BZh1", "BZh1"] and compression_of(b"BZh1 0 d1 1\n") is None
    assert compression_of(bz2.compress(b"")) == "bzip2"  # an empty stream has its own signature

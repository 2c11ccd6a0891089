"""Issue 37 part 1: every reader is bounded by what it produces, not by what it receives.

A 2.4 MB gzip of one repeated line expands to 1 GB: the readers must stop at the limit on the
content (``max_bytes``) or on one line (``max_line``) at once, with a message naming the file, and
without allocating what lies beyond. The expected lengths come from the test's own content (closed
form), never from the readers.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import math
import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_core import NDCGError, read_qrels, read_run
from ndcg_core.cli import main
from ndcg_core.dataset.sources import ReadLimits, check_lines, decompress, parse_size, size_text

LINE = b"q1 Q0 d1 1 1.0 t\n"


def _zstd(data: bytes) -> bytes:
    zstandard = pytest.importorskip("zstandard")
    return zstandard.ZstdCompressor().compress(data)


COMPRESS = {"gzip": gzip.compress, "bzip2": bz2.compress, "xz": lzma.compress, "zstd": _zstd}


BLOCK = 65_536  # lines of one compressed stream (1.11 MB)


def _bomb(fmt: str, blocks: int) -> bytes:
    """A compressed file of ``blocks`` streams (gzip members, bzip2 and xz streams, Zstandard
    frames) of :data:`BLOCK` identical run lines each: all four formats read such a file whole."""
    return COMPRESS[fmt](LINE * BLOCK) * blocks


@pytest.mark.parametrize("fmt", sorted(COMPRESS))
def test_a_bomb_stops_at_the_limit_without_allocating_what_lies_beyond(fmt):
    blocks = 64  # 71 MB of content
    bomb = _bomb(fmt, blocks)
    limit = 1_000_000
    assert len(bomb) < limit < len(LINE) * BLOCK * blocks  # small on the wire, large inside
    tracemalloc.start()
    try:
        with pytest.raises(NDCGError) as caught:
            read_run(io.BytesIO(bomb), limits=ReadLimits(max_bytes=limit))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    err = caught.value
    assert err.code == "expands_too_much"
    assert err.values["limit"] == "1 MB" and err.values["size"] == size_text(len(bomb))
    # the reader held the compressed file, the limit's worth of content, a step's output and the
    # decompressor's own state (xz's dictionary: 8 MB): never the whole content (71 MB)
    assert peak < 2 * len(bomb) + 4 * limit + 12_000_000, peak


def test_the_estimate_of_a_bombs_content_is_close_to_its_true_size():
    content = b"".join(b"q%d Q0 d%d 1 1.0 t\n" % (i // 1000, i) for i in range(1_000_000))  # 29.8 MB
    with pytest.raises(NDCGError) as caught:
        decompress(gzip.compress(content), "bomb.gz", ReadLimits(max_bytes=2_000_000))
    value, unit = caught.value.values["estimate"].split()
    assert unit == "MB" and abs(float(value) * 1e6 - len(content)) < 0.15 * len(content)


@pytest.mark.parametrize("fmt", sorted(COMPRESS))
def test_one_endless_line_stops_at_the_line_limit_naming_its_line(fmt):
    content = LINE * 3 + b"x" * 300_000
    with pytest.raises(NDCGError) as caught:
        read_run(COMPRESS[fmt](content), limits=ReadLimits(max_line=100_000, max_line_setting="--max-line"))
    assert caught.value.code == "line_too_long"
    assert caught.value.values["line"] == 4 and caught.value.values["setting"] == "--max-line"
    assert "line 4" in str(caught.value) and "--max-line" in str(caught.value)


def test_plain_files_are_held_to_both_limits_by_path_bytes_and_file(tmp_path):
    big = LINE * 10_000  # 170 kB: a path this large is memory-mapped
    path = tmp_path / "run.txt"
    path.write_bytes(big)
    for source in (path, big, io.BytesIO(big), io.StringIO(big.decode())):
        with pytest.raises(NDCGError) as caught:
            read_run(source, limits=ReadLimits(max_bytes=100_000))
        assert caught.value.code == "file_too_large", type(source)
    long = LINE * 5_000 + b"q1 Q0 " + b"d" * 2_000 + b" 1 1.0 t\n" + LINE
    path.write_bytes(long)
    for source in (path, long, io.BytesIO(long), io.StringIO(long.decode())):
        with pytest.raises(NDCGError) as caught:
            read_run(source, limits=ReadLimits(max_line=1_000))
        assert (caught.value.code, caught.value.values["line"]) == ("line_too_long", 5_001), type(source)
    assert len(read_run(path)) == 5_002  # the defaults take it


def test_a_file_within_the_limits_reads_as_before():
    content = LINE * 1000
    limits = ReadLimits(max_bytes=len(content), max_line=len(LINE) - 1)  # exactly: the newline is not counted
    for fmt, compress in COMPRESS.items():
        assert len(read_run(compress(content), limits=limits)) == 1000, fmt
    two_members = gzip.compress(LINE * 10) + gzip.compress(LINE * 5)
    assert len(read_run(two_members)) == 15


def test_a_cut_off_file_is_named_as_incomplete():
    for fmt, compress in COMPRESS.items():
        packed = compress(LINE * 5000)
        with pytest.raises(NDCGError) as caught:
            read_qrels(packed[: len(packed) // 2])
        assert caught.value.code == "bad_compressed", fmt


@given(
    lines=st.lists(st.integers(0, 90), min_size=0, max_size=40),
    max_line=st.integers(1, 100),
    trailing=st.booleans(),
)
def test_the_line_limit_agrees_with_counting_every_line(lines, max_line, trailing):
    text = b"\n".join(b"a" * n for n in lines) + (b"\n" if trailing else b"")
    longest = max((i for i, n in enumerate(lines) if n > max_line), default=None)
    first = next((i for i, n in enumerate(lines) if n > max_line), None)
    limits = ReadLimits(max_line=max_line)
    for content in (text, text.decode()):
        if longest is None:
            check_lines(content, "f", limits)
        else:
            with pytest.raises(NDCGError) as caught:
                check_lines(content, "f", limits)
            assert caught.value.values["line"] == first + 1
    if text:
        if first is None:
            assert bytes(decompress(gzip.compress(text), "f", limits)) == text
        else:
            with pytest.raises(NDCGError) as caught:
                decompress(gzip.compress(text), "f", limits)
            assert caught.value.values["line"] == first + 1


def test_sizes_read_and_written_in_decimal_units():
    assert [parse_size(t) for t in ("4G", "50GB", "1.5M", "250k", "1000")] == [
        4 * 10**9,
        50 * 10**9,
        1_500_000,
        250_000,
        1000,
    ]
    for bad in ("", "G", "-1M", "abc", "0", "nanG"):
        with pytest.raises(NDCGError):
            parse_size(bad)
    assert [size_text(n) for n in (999, 1000, 4 * 10**9)] == ["999 B", "1 kB", "4 GB"]


def test_the_cli_refuses_a_bomb_and_an_endless_line_with_options_to_raise_them(tmp_path, capsys):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\n")
    bomb = tmp_path / "run.gz"
    lines = b"".join(b"q1 Q0 d%d %d %d t\n" % (i, i + 1, -i) for i in range(200_000))  # 5.2 MB
    bomb.write_bytes(gzip.compress(lines))
    assert main([str(qrels), str(bomb), "--max-size", "3M"], stdout=io.StringIO()) == 2
    said = capsys.readouterr().err
    assert "run.gz expands to more than 3 MB" in said and "(--max-size)" in said
    out = io.StringIO()
    assert main([str(qrels), str(bomb), "--max-size", "6M", "-m", "ndcg"], stdout=out) == 0
    # d1, the one relevant document, ranked second (after d0, score 0): 1 / log2(3)
    assert out.getvalue().split()[-1] == f"{1 / math.log2(3):.4f}"
    endless = tmp_path / "endless.gz"
    endless.write_bytes(gzip.compress(b"q1 Q0 d1 1 1.0 " + b"t" * 3_000_000))
    assert main([str(qrels), str(endless)], stdout=io.StringIO()) == 2
    said = capsys.readouterr().err
    assert "endless.gz, line 1: longer than 1 MB" in said and "(--max-line)" in said
    # standard input is read up to the limit, not whole
    stdin = io.BytesIO(LINE * 100_000)
    assert main([str(qrels), "-", "--max-size", "100k"], stdin=stdin, stdout=io.StringIO()) == 2
    assert stdin.tell() == 100_001
    assert "<stdin> is larger than 100 kB" in capsys.readouterr().err


def test_the_cli_says_what_a_size_option_expects(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["q", "r", "--max-size", "lots"])
    assert stop.value.code == 2
    assert "'lots' is not a size" in capsys.readouterr().err

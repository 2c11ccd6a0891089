"""Issue 29 part 7: the compiled scanner (ndcg_core.dataset.scan) reads plain TREC files as the
other readers read them, and hands every other file to them.

Expected tables come from the strict reader (pandas' ``read_csv``) or, for numbers, from Python's
``float`` (correctly rounded, as strtod and Arrow are). The scanner reads files of SCAN_BYTES and
more once loaded; the tests load it and lower that size so that any file takes it.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_core import NDCGError, read_qrels, read_run
from ndcg_core.cli import main
from ndcg_core.dataset import scan, tables

pytest.importorskip("numba")  # installed with the app (and ranx): the scanner's compiler

READERS = {"qrels": read_qrels, "run": read_run}


@pytest.fixture
def scanner_on(monkeypatch):
    assert scan.load() is not None  # loaded: files of SCAN_BYTES and more take it
    monkeypatch.setattr(scan, "SCAN_BYTES", 0)


def plain_lines(kind: str, n: int = 5_000) -> list[str]:
    """n lines of a clean file, above the fast readers' 64 KB (FAST_READ_CHARS)."""
    if kind == "qrels":
        return [f"q{i // 50} 0 D-{i:06d} {i % 4}\n" for i in range(n)]
    return [f"q{i // 50} Q0 D-{i:06d} {i % 50 + 1} {100 - (i % 50) * 1.25} tag\n" for i in range(n)]


def strict(kind: str, data: bytes, monkeypatch) -> pd.DataFrame | NDCGError:
    """What the strict reader (pandas' C parser, no Arrow, no scanner) makes of the bytes."""
    with monkeypatch.context() as m:
        m.setattr(tables, "FAST_READ_CHARS", 1 << 40)
        return outcome(kind, data)


def outcome(kind: str, data: bytes) -> pd.DataFrame | NDCGError:
    try:
        return READERS[kind](data)
    except NDCGError as err:
        return err


def assert_same(got, want) -> None:
    if isinstance(want, NDCGError):
        assert isinstance(got, NDCGError), f"read, where the strict reader said: {want}"
        assert (got.code, str(got)) == (want.code, str(want))
    else:
        assert not isinstance(got, NDCGError), str(got)
        pd.testing.assert_frame_equal(got, want, check_dtype=False)
        assert list(got["query"]) == list(want["query"]) and list(got["doc"]) == list(want["doc"])


@pytest.mark.parametrize("kind", ["qrels", "run"])
def test_a_plain_file_is_read_by_the_scanner_as_by_the_strict_reader(kind, scanner_on, monkeypatch):
    data = "".join(plain_lines(kind)).encode()
    end = len(data.rstrip(b"\n"))
    table = scan.read_plain(data, end, b" ", kind)
    assert table is not None  # the scanner read it: it is not only handing files on
    assert table.index[0] == 1 and table.index[-1] == 5_000 and table.index.name == "line"
    value = "relevance" if kind == "qrels" else "score"
    want = [i % 4 for i in range(5_000)] if kind == "qrels" else [100 - (i % 50) * 1.25 for i in range(5_000)]
    assert table[value].tolist() == want
    assert table["doc"].iloc[4_321] == "D-004321" and table["query"].iloc[4_321] == "q86"
    assert_same(outcome(kind, data), strict(kind, data, monkeypatch))
    tabbed = data.replace(b" ", b"\t")
    assert scan.read_plain(tabbed, end, b"\t", kind) is not None
    assert_same(outcome(kind, tabbed), strict(kind, tabbed, monkeypatch))


def _damage(kind: str, line: str) -> dict[str, str]:
    """One line of a file, damaged in each way the scanner must hand on (or read the same)."""
    f = line.rstrip("\n").split(" ")
    doubled = " ".join(f[:2]) + "  " + " ".join(f[2:])
    value_at = 3 if kind == "qrels" else 4
    with_value = lambda v: " ".join([*f[:value_at], v, *f[value_at + 1 :]])  # noqa: E731
    cases = {
        "blank line": "",
        "doubled space": doubled,
        "leading space": " " + " ".join(f),
        "trailing space": " ".join(f) + " ",
        "a tab too": "\t".join(f[:2]) + " " + " ".join(f[2:]),
        "short line": " ".join(f[:-1]),
        "long line": " ".join(f) + " extra",
        "nan value": with_value("nan"),
        "inf value": with_value("inf"),
        "huge value": with_value("1e400"),
        "word value": with_value("high"),
        "hex value": with_value("0x10"),
        "17 digits": with_value("0.12345678901234567"),
        "tiny": with_value("4.9e-324"),
        "signed": with_value("+2.5"),
        "point first": with_value(".5"),
        "point last": with_value("5."),
        "exponent": with_value("25E-1"),
        "long mantissa": with_value("123456789012345678901234567890"),
        "utf-8 id": " ".join(["qé", *f[1:]]),
        "control in id": " ".join([f[0], f[1], "d\x07x", *f[3:]]),
        "DEL in id": " ".join([f[0], f[1], "d\x7fx", *f[3:]]),
    }
    if kind == "qrels":
        cases["comment"] = "# judged again later"
        cases["hash id"] = "#q " + " ".join(f[1:])
    else:
        cases["rank word"] = " ".join([*f[:3], "first", *f[4:]])
        cases["rank exponent"] = " ".join([*f[:3], "1e30", *f[4:]])
        cases["rank float"] = " ".join([*f[:3], "1.5", *f[4:]])
    return cases


def _variants():
    for kind in ("qrels", "run"):
        line = plain_lines(kind)[2_500]
        for name, text in _damage(kind, line).items():
            yield pytest.param(kind, text, id=f"{kind}-{name}")
        yield pytest.param(kind, "CRLF", id=f"{kind}-crlf")
        yield pytest.param(kind, "BOM", id=f"{kind}-bom")


@pytest.mark.parametrize(("kind", "damage"), list(_variants()))
def test_a_damaged_file_reads_as_the_strict_reader_reads_it(kind, damage, scanner_on, monkeypatch):
    lines = plain_lines(kind)
    if damage == "CRLF":
        data = "".join(lines).replace("\n", "\r\n").encode()
    elif damage == "BOM":
        data = ("\ufeff" + "".join(lines)).encode()
    else:
        lines[2_500] = damage + "\n"
        data = "".join(lines).encode()
    assert_same(outcome(kind, data), strict(kind, data, monkeypatch))


@pytest.mark.parametrize("kind", ["qrels", "run"])
def test_the_scanner_hands_on_what_it_does_not_read(kind, scanner_on):
    """What the scanner reads itself, and what it leaves to Arrow and the strict reader."""
    read_itself = {"signed", "point first", "point last", "exponent", "17 digits", "tiny", "long mantissa",
                   "rank float"}  # fmt: skip
    lines = plain_lines(kind)
    for name, text in _damage(kind, lines[2_500]).items():
        damaged = [*lines[:2_500], text + "\n", *lines[2_501:]]
        data = "".join(damaged).encode()
        table = scan.read_plain(data, len(data.rstrip(b"\n")), b" ", kind)
        assert (table is not None) == (name in read_itself), name


finite = st.floats(allow_nan=False, allow_infinity=False)
numbers = st.one_of(
    finite.map(repr),
    st.tuples(st.floats(-1e6, 1e6), st.integers(0, 18)).map(lambda t: f"{t[0]:.{t[1]}f}"),
    st.tuples(finite, st.integers(0, 20)).map(lambda t: f"{t[0]:.{t[1]}e}"),
    st.integers(-(10**25), 10**25).map(str),
    st.tuples(st.integers(0, 10**12), st.integers(-40, 40)).map(lambda t: f"{t[0]}e{t[1]}"),
    st.integers(0, 25)
    .flatmap(lambda p: st.decimals(allow_nan=False, allow_infinity=False, places=p))
    .map(str),
)


@settings(max_examples=60, deadline=None)
@given(values=st.lists(numbers, min_size=1, max_size=40))
def test_every_score_equals_pythons_float(values):
    """Python's float rounds correctly, as strtod and Arrow do: the scanner's numbers equal it,
    the short ones it reads itself and the long ones it hands to Arrow."""
    scan.SCAN_BYTES, saved = 0, scan.SCAN_BYTES
    scan.load()
    try:
        data = "".join(f"q1 Q0 d{i} {i + 1} {v} t\n" for i, v in enumerate(values)).encode()
        table = scan.read_plain(data, len(data.rstrip(b"\n")), b" ", "run")
    finally:
        scan.SCAN_BYTES = saved
    want = [float(v) for v in values]
    if not all(np.isfinite(want)):  # 1e400: not a score; the reader names its line
        assert table is None
        return
    assert table is not None
    assert table["score"].tolist() == want
    assert [np.signbit(x) for x in table["score"]] == [np.signbit(x) for x in want]  # -0.0 stays -0.0


def test_without_numba_the_readers_read_as_before(scanner_on, monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba fails
    monkeypatch.delitem(sys.modules, "ndcg_core.dataset._trec_scan", raising=False)
    monkeypatch.delattr(sys.modules["ndcg_core.dataset"], "_trec_scan", raising=False)
    assert scan.load() is None
    data = "".join(plain_lines("run")).encode()
    assert scan.read_plain(data, len(data) - 1, b" ", "run") is None
    assert_same(outcome("run", data), strict("run", data, monkeypatch))


def test_a_large_file_takes_the_scanner_from_a_path(tmp_path, monkeypatch):
    """At SCAN_BYTES and above, from a path, on the readers' default threads, once loaded."""
    lines = plain_lines("run", 20_000)
    path = tmp_path / "big.run"
    path.write_text("".join(lines))
    size = path.stat().st_size - 1  # without the final line break
    monkeypatch.setattr(scan, "SCAN_BYTES", size)
    tables_read = []
    real = scan.read_plain
    monkeypatch.setattr(tables, "read_plain", lambda *a: tables_read.append(real(*a)) or tables_read[-1])
    assert scan.load() is not None
    table = read_run(path)
    assert tables_read[0] is not None and tables_read[0].equals(table)  # the scanner read it
    assert len(table) == 20_000 and table["doc"].iloc[-1] == "D-019999"
    assert table["score"].iloc[-1] == 100 - 49 * 1.25
    monkeypatch.setattr(scan, "SCAN_BYTES", size + 1)
    read_run(path)
    assert tables_read[1] is None  # a byte short of the size: Arrow's reader


def test_a_file_loads_the_scanner_only_when_large_enough_to_pay_for_it(monkeypatch):
    data = "".join(plain_lines("run")).encode()
    end = len(data) - 1
    monkeypatch.setattr(scan, "SCAN_BYTES", 0)
    monkeypatch.delitem(sys.modules, "ndcg_core.dataset._trec_scan", raising=False)
    monkeypatch.delattr(sys.modules["ndcg_core.dataset"], "_trec_scan", raising=False)
    monkeypatch.setattr(scan, "LOAD_BYTES", end + 1)
    assert scan.read_plain(data, end, b" ", "run") is None  # not loaded, and too small to load it
    assert "ndcg_core.dataset._trec_scan" not in sys.modules
    monkeypatch.setattr(scan, "LOAD_BYTES", end)
    assert scan.read_plain(data, end, b" ", "run") is not None
    assert "ndcg_core.dataset._trec_scan" in sys.modules


@pytest.mark.parametrize(("load_bytes", "loaded"), [(1 << 40, False), (400, True)])
def test_the_command_line_loads_the_scanner_when_its_files_pay(
    load_bytes, loaded, tmp_path, monkeypatch, capsys
):
    """ndcg-eval knows every file before it reads one: their sizes decide, once, whether to load
    it. (These files are too small for the readers to load it themselves.)"""
    qrels, run = tmp_path / "q.qrels", tmp_path / "r.run"
    qrels.write_text("".join(plain_lines("qrels", 10)))
    run.write_text("".join(plain_lines("run", 10)))
    assert 400 <= qrels.stat().st_size + run.stat().st_size < tables.FAST_READ_CHARS
    monkeypatch.delitem(sys.modules, "ndcg_core.dataset._trec_scan", raising=False)
    monkeypatch.delattr(sys.modules["ndcg_core.dataset"], "_trec_scan", raising=False)
    monkeypatch.setattr(scan, "LOAD_BYTES", load_bytes)
    assert main([str(qrels), str(run), "-m", "ndcg_cut.10"]) == 0
    assert "ndcg_cut_10" in capsys.readouterr().out
    assert ("ndcg_core.dataset._trec_scan" in sys.modules) == loaded


def test_the_scanner_reads_on_one_thread_whatever_the_setting(scanner_on, monkeypatch):
    """threads= goes to Arrow's reader; the scanner, once loaded, reads a plain file itself."""
    pacsv = pytest.importorskip("pyarrow.csv")
    asked = []
    real = pacsv.read_csv
    monkeypatch.setattr(pacsv, "read_csv", lambda *a, **kw: asked.append(kw) or real(*a, **kw))
    data = "".join(plain_lines("run")).encode()
    one, two = read_run(data, threads=1), read_run(data, threads=2)
    assert asked == []  # Arrow never asked: the scanner read both
    pd.testing.assert_frame_equal(one, two)

"""The two tables of a data set: column names, checks with row-naming messages, and the readers.

:func:`read_qrels` and :func:`read_run` read TREC files (as trec_eval does: ``#`` comment lines
in qrels, text after a run's tag ignored) and CSV/TSV tables with a header.
"""

from __future__ import annotations

import csv
import functools
import io
import math
import mmap
import os
import re
import stat
from typing import Any

import numpy as np
import pandas as pd

from ..errors import Message, NDCGError
from .sources import DEFAULT_LIMITS, ReadLimits, check_lines, check_size, compression_of, decompress
from .threads import resolve_threads

_ALIASES: dict[str, tuple[str, ...]] = {
    "query": ("query", "qid", "query_id", "queryid", "topic", "topic_id", "topicid", "q"),
    "doc": ("doc", "docid", "docno", "doc_id", "document", "document_id", "pid", "item", "item_id"),
    "relevance": ("relevance", "rel", "label", "grade", "judgment", "judgement", "qrel", "relevance_grade"),
    "score": ("score", "sim", "similarity", "prediction", "pred", "rank_score"),
}


_QRELS_COLUMNS = ("query", "doc", "relevance")


_RUN_COLUMNS = ("query", "doc", "score")


def _normalize_columns(df: Any, expected: tuple[str, ...], what: str) -> pd.DataFrame:
    """Rename known aliases (case-insensitively) to ``expected``; raise listing what was found."""
    if not isinstance(df, pd.DataFrame):
        raise NDCGError("not_a_dataframe", what=what, columns=", ".join(expected))
    found = {str(c).strip().lower(): c for c in df.columns}
    rename, missing = {}, []
    for name in expected:
        hit = next((found[a] for a in _ALIASES[name] if a in found), None)
        if hit is None:
            missing.append(name)
        else:
            rename[hit] = name
    if missing:
        shown = ", ".join(repr(str(c)) for c in df.columns) or Message("no_columns")
        hints = "; ".join(f"{m}: {', '.join(_ALIASES[m])}" for m in missing)
        raise NDCGError(
            "missing_columns",
            what=what,
            columns=", ".join(expected),
            missing=", ".join(missing),
            hints=hints,
            found=shown,
        )
    return df[list(rename)].rename(columns=rename)


def _row_name(index: pd.Index, i: int) -> Message:
    label = index[i]
    return Message("line_n", n=label) if index.name == "line" else Message("row_n", n=label)


def _show(value: Any) -> str:
    if hasattr(value, "item"):
        value = value.item()
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return Message("missing_nan")
    return repr(value)


def _numeric(values: pd.Series, what: str, table: str) -> np.ndarray:
    """A float array of finite numbers, or a ValueError naming the first bad row."""
    if isinstance(values.dtype, np.dtype) and values.dtype.kind in "fiub":  # numbers already
        arr = values.to_numpy(dtype=float)
        if values.dtype.kind in "iub":  # integers are always finite
            return arr
    else:
        arr = np.asarray(pd.to_numeric(values, errors="coerce"), dtype=float)
    finite = np.isfinite(arr)
    if not finite.all():
        bad = np.flatnonzero(~finite)
        i = int(bad[0])
        row, value = _row_name(values.index, i), _show(values.iloc[i])
        if bad.size > 1:
            raise NDCGError("not_finite_rows", table=table, what=what, row=row, value=value, n=bad.size)
        raise NDCGError("not_finite_row", table=table, what=what, row=row, value=value)
    return arr


def _check_ids(frame: pd.DataFrame, table: str) -> None:
    """Ids are text or numbers; a missing one (None, NaN) is an error naming its row."""
    for col, what in (("query", Message("query_id")), ("doc", Message("document_id"))):
        missing = frame[col].isna().to_numpy()
        if missing.any():
            raise NDCGError(
                "missing_id",
                table=table,
                row=_row_name(frame.index, int(np.flatnonzero(missing)[0])),
                what=what,
                n=int(missing.sum()),
            )


def _read_source(source: Any, limits: ReadLimits) -> tuple[str | bytes | bytearray | mmap.mmap, str]:
    """The whole content of a path, bytes or a file-like object, and a name for messages.

    Bytes come back decompressed and, when they are all ASCII (which is UTF-8 as it stands), as
    bytes: the fast reader parses them without a decoded copy. Any other bytes are decoded here,
    so a file that is not UTF-8 is an error naming its first bad byte whichever reader reads it.
    A large plain ASCII file named by its path comes back memory-mapped (see :func:`_map_file`):
    read like bytes, without a copy. Nothing larger than ``limits`` allows is read: a file is
    refused by its size before it is read, a compressed one as soon as its content passes the
    limit, and any with a line that is too long (:mod:`.sources`).
    """
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        try:
            with open(name, "rb") as fh:
                size = _file_size(fh)
                if size is not None:
                    check_size(size, name, limits)
                mapped = _map_file(fh)
                if mapped is not None:
                    try:
                        check_lines(mapped, name, limits)
                    except NDCGError:
                        mapped.close()
                        raise
                    return mapped, name
                raw = fh.read(limits.max_bytes + 1)
        except OSError as err:
            raise NDCGError("cannot_read", name=repr(name), reason=err.strerror or err) from None
    elif isinstance(source, (bytes, bytearray, memoryview)):
        name, raw = Message("the_given_bytes"), bytes(source)
    elif hasattr(source, "read"):
        name = getattr(source, "name", None) or Message("the_uploaded_file")
        if hasattr(source, "seek"):
            source.seek(0)
        raw = source.read(limits.max_bytes + 1)
    else:
        raise NDCGError("not_a_file", type=type(source).__name__)
    check_size(len(raw), name, limits)
    if isinstance(raw, (bytes, bytearray)):
        if compression_of(raw) is not None:
            raw = decompress(raw, name, limits)
        else:
            check_lines(raw, name, limits)
        if not raw.isascii():  # a BOM is not ASCII either: decoded (and dropped) here
            try:
                raw = raw.decode("utf-8-sig")
            except UnicodeDecodeError as err:
                raise NDCGError("not_utf8", name=name, byte=err.start) from None
    else:
        check_lines(raw, name, limits)
    return raw, (name if isinstance(name, str) else str(name))


def _file_size(fh: Any) -> int | None:
    """The size of a regular file, or None (a pipe, a device: read up to the limit instead)."""
    try:
        status = os.fstat(fh.fileno())
    except (OSError, AttributeError, io.UnsupportedOperation):
        return None
    return status.st_size if stat.S_ISREG(status.st_mode) else None


def _map_file(fh: Any) -> mmap.mmap | None:
    """A regular file of more than :data:`FAST_READ_CHARS` bytes, neither compressed nor holding
    a byte outside ASCII, mapped read-only into memory; None for any other (read as bytes then).

    Reading copies the file into fresh memory, whose pages cost: on this project's machine the
    benchmark's 390 MB run took 0.24 s to read (95k page faults) and 0.03 s to map; Arrow's reader
    then reads it in place. A file cut short by another program while it is read ends
    the process with SIGBUS, as in any program that maps its files (ripgrep does).
    """
    try:
        status = os.fstat(fh.fileno())
    except (OSError, AttributeError, io.UnsupportedOperation):
        return None
    size = status.st_size
    if not stat.S_ISREG(status.st_mode) or size <= FAST_READ_CHARS:
        return None
    if compression_of(fh.read(10)) is not None:
        fh.seek(0)
        return None
    fh.seek(0)
    try:
        mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # a file that cannot be mapped (a pipe, /proc) is read instead
        return None
    if len(mapped) != size or np.frombuffer(mapped, dtype=np.uint8).max() >= 0x80:
        mapped.close()  # not ASCII (UTF-8, a BOM, or not text): read, decoded and checked as before
        return None
    return mapped


#: Files longer than this (characters) try Arrow's CSV reader first (see _read_trec_fast); shorter
#: ones go straight to the strict reader, which is as fast on them.
FAST_READ_CHARS = 1 << 16
_COMMENT = re.compile(r"^#.*$", re.MULTILINE)


_AFTER_TAG = re.compile(r"^(\s*(?:\S+\s+){5}\S+)[^\n]*$", re.MULTILINE)


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


#: The line breaks of pandas' and Arrow's CSV readers (not str.splitlines', which also breaks at
#: U+0085, U+2028, \x1c..\x1e, ...): the lines looked at here are the lines they number.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _lines(text: str) -> list[str]:
    return _LINE_BREAK.split(text.removesuffix("\n").removesuffix("\r"))


def _looks_trec(fields: list[str], kind: str) -> bool:
    """Whether a file's first line is a TREC line (else it is a table's header).

    A TREC line has the TREC number of fields (a run line may carry more after its tag) and a
    number where the grade or score goes; or, when that value is not a finite number (``nan``,
    ``x``), a number in the field before it that a header does not have (a qrels line's iteration,
    a run line's rank), and no column name in its place: then the value is named on its line
    (:func:`_numeric`) instead of the file being read as a table without the columns it needs.
    """
    width = 4 if kind == "qrels" else 6
    if not (len(fields) == width or (kind == "run" and len(fields) > width)):
        return False
    value_at, number_at, value_col = (3, 1, "relevance") if kind == "qrels" else (4, 3, "score")
    if _is_number(fields[value_at]):
        return True
    return _is_number(fields[number_at]) and fields[value_at].strip().lower() not in _ALIASES[value_col]


#: Control characters (Unicode's Cc: C0, DEL and C1). No id holds one: trec_eval reads a file as
#: C text, which ends at a NUL, and a tab or a line break inside an id breaks every TREC file
#: written from it. Arrow's regular expression (RE2) and Python's, the same characters.
_CONTROL_RE2 = r"[\x00-\x1f\x7f-\x9f]"
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def _first_control(values: pd.Series) -> int | None:
    """The position of the first value holding a control character, or None.

    With pyarrow (the app's extra), Arrow-backed text is checked without a copy: one pass for
    printable ASCII, the few other values (none in most files) with a regular expression.
    """
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:  # the engine alone: the ids are Python strings
        hits = np.flatnonzero(values.astype(str).str.contains(_CONTROL).to_numpy(dtype=bool))
        return int(hits[0]) if hits.size else None
    text = pa.array(values, type=pa.large_string())
    printable = pc.ascii_is_printable(text)
    if pc.all(printable).as_py() is not False:  # every id printable ASCII: 8 ms for 1M ids
        return None
    others = pc.indices_nonzero(pc.invert(printable).fill_null(False))
    hits = pc.match_substring_regex(pc.take(text, others), _CONTROL_RE2)
    first = pc.index(hits, True).as_py()
    return None if first < 0 else others[first].as_py()


def _check_printable_ids(table: pd.DataFrame, name: str) -> None:
    """No query or document id holds a control character (a NUL, a bell, ...): named by its line."""
    for col, what in (("query", Message("query_id")), ("doc", Message("document_id"))):
        i = _first_control(table[col])
        if i is not None:
            value = str(table[col].iloc[i])
            char = next(c for c in value if _CONTROL.match(c))
            raise NDCGError(
                "control_in_id",
                name=name,
                line=table.index[i],
                what=what,
                text=repr(value[:40]),
                char=f"U+{ord(char):04X}",
            )


def _read_trec_fast(
    text: str | bytes | mmap.mmap, kind: str, name: str, threads: int = 1
) -> pd.DataFrame | None:
    """A clean TREC file read by Arrow's multithreaded CSV reader, or None to use the strict reader.

    Only for the plain case: one delimiter (a single space or a tab, never both), no blank or
    comment lines (line numbers stay true), every line with exactly the TREC fields, none of them
    empty, ids as text and finite numbers. Anything else (a short line, text after a run's tag, a
    grade that is not a number) returns None: the strict reader then reads the file, or names the
    line at fault. ``text`` is the file's text, or its bytes when they are ASCII. With ``threads``
    above 1, Arrow parses blocks of the file on its own thread pool.
    """
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
        from pyarrow import csv as pacsv
    except ImportError:  # the engine alone (pyarrow comes with the app): the strict reader reads it
        return None

    data = text.encode("utf-8") if isinstance(text, str) else text
    end = len(data)  # blank lines at the very end are harmless (no line after them to misnumber)
    while end and data[end - 1] in b"\r\n":
        end -= 1

    def has(part: bytes) -> bool:  # one byte: a memchr; longer parts only in the rare cases below
        return data.find(part, 0, end) != -1

    if not has(b"\t"):
        delimiter = b" "
    elif not has(b" "):
        delimiter = b"\t"
    else:
        return None
    if kind == "qrels":
        names, numbers = ["query", "iter", "doc", "relevance"], ["relevance"]
        if data[:1] == b"#":
            return None
    else:
        names, numbers = ["query", "q0", "doc", "rank", "score", "tag"], ["rank", "score"]
    if has(b"\r") and any(has(p) for p in (b"\r\r", b"\r\n\r", delimiter + b"\r")):
        return None
    # Every field is read, the ids as text, the fields nobody uses as bytes (no copy to text): a
    # doubled, leading or trailing delimiter leaves an empty field, and a blank line a row of them
    # (empty lines are not skipped, so line numbers stay true); both are found below, after one
    # pass of the parser, instead of searching the bytes for such pairs first (2-3x slower).
    types = {
        n: pa.float64() if n in numbers else pa.large_string() if n in ("query", "doc") else pa.binary()
        for n in names
    }
    try:
        table = pacsv.read_csv(
            pa.py_buffer(data).slice(0, end),
            read_options=pacsv.ReadOptions(column_names=names, use_threads=threads > 1),
            parse_options=pacsv.ParseOptions(
                delimiter=delimiter.decode(), quote_char=False, double_quote=False, ignore_empty_lines=False
            ),
            convert_options=pacsv.ConvertOptions(column_types=types),
        )
    except (pa.ArrowInvalid, pa.ArrowException):
        return None
    for n in names:
        column = table.column(n)
        if n in numbers:
            if column.null_count or not np.isfinite(column.to_numpy()).all():
                return None
        elif pc.min(pc.binary_length(column)).as_py() == 0:
            return None
    if kind == "qrels" and pc.any(pc.starts_with(table.column("query"), "#")).as_py():
        return None  # a comment line (trec_eval skips it): the strict reader blanks it
    value_col = numbers[-1]
    index = pd.RangeIndex(1, 1 + table.num_rows, name="line")
    # Arrow-backed text in one chunk: the parser's blocks (one a MB) as they come would be joined
    # again by every block of evaluate() that looks at the column (0.1 s per 1M-row run)
    columns = {n: table.column(n).combine_chunks().to_pandas().astype(str) for n in ("query", "doc")}
    out = pd.DataFrame({**columns, value_col: table.column(value_col).to_numpy()}, copy=False)
    out.index = index
    _check_printable_ids(out, name)
    return out


def _ascii(content: str | bytes | mmap.mmap) -> str:
    """The text of what :func:`_read_source` returned (ASCII when not already text)."""
    return content if isinstance(content, str) else bytes(content).decode("ascii")


def _run_like(fields: list[str]) -> bool:
    """A TREC run line, or one that lacks its tag: ``query Q0 doc rank score [tag]``, a word (not a
    number) where Q0 goes, numbers where the rank and the score go."""
    return (
        len(fields) in (5, 6)
        and not _is_number(fields[1])
        and _is_number(fields[3])
        and _is_number(fields[4])
    )


def _qrels_like(fields: list[str]) -> bool:
    """A TREC qrels line: ``query iteration doc grade``, numbers where the iteration and the grade go."""
    return len(fields) == 4 and _is_number(fields[1]) and _is_number(fields[3])


def _check_role(fields: list[str], kind: str, name: str, line: int) -> None:
    """Refuse a file given in the other role (a run where the qrels go, or the other way round), and a
    run whose lines lack a field, naming the first line: read as a table they would only give pandas'
    header text ('1.1') and the columns it lacks."""
    fix = Message("fix_roles")
    if kind == "qrels" and (_run_like(fields) or (len(fields) > 6 and _run_like(fields[:6]))):
        raise NDCGError("looks_like_run", name=name, line=line, fix=fix)
    if kind == "run" and _qrels_like(fields):
        raise NDCGError("looks_like_qrels", name=name, line=line, fix=fix)
    if kind == "run" and _run_like(fields) and len(fields) == 5:
        raise NDCGError("run_fields", name=name, line=line, n=len(fields))


def _keep_name(frame: pd.DataFrame, name: str) -> None:
    """Keep a file's name with its table, so that evaluate's messages name the file (not for bytes
    or an unnamed upload, whose name says nothing)."""
    if not isinstance(name, Message):
        frame.attrs["source"] = name


def source_name(frame: Any, default: str) -> str:
    """The name of the file a table was read from (``read_qrels`` and ``read_run`` keep it in
    ``frame.attrs["source"]``), for messages; ``default`` for a table made otherwise."""
    attrs = getattr(frame, "attrs", None) or {}
    name = attrs.get("source")
    return name if isinstance(name, str) and name else default


def _read_table(
    source: Any, kind: str, threads: int | None = None, limits: ReadLimits | None = None
) -> pd.DataFrame:
    expected = _QRELS_COLUMNS if kind == "qrels" else _RUN_COLUMNS
    value_col = expected[2]
    if limits is None:
        limits = DEFAULT_LIMITS
    elif not isinstance(limits, ReadLimits):
        raise NDCGError("not_read_limits", type=type(limits).__name__)
    content, name = _read_source(source, limits)
    # A large file of ASCII bytes stays bytes for the fast reader: decoded only if the strict
    # reader reads it (FAST_READ_CHARS: a small file goes to the strict reader anyway).
    text = content if isinstance(content, str) or len(content) > FAST_READ_CHARS else _ascii(content)
    head = text if isinstance(text, str) else content[: 1 << 16].decode("ascii")
    # The lines up to the first with content: from the first 64 KB when that holds it (a large
    # file is not split whole just to look at its first line).
    cut = head.rfind("\n", 0, 1 << 16) if len(content) > 1 << 16 else -1
    if cut <= 0:
        text = _ascii(text)
    lines = _lines(head[:cut] if cut > 0 else text)
    comment = "#" if kind == "qrels" else None  # trec_eval skips qrels lines starting with '#'
    first = next((i for i, ln in enumerate(lines) if ln.strip() and not ln.startswith(comment or "\n")), None)
    if first is None and cut > 0:  # 64 KB of blank or comment lines: look at the whole text
        text = _ascii(text)
        lines = _lines(text)
        first = next(
            (i for i, ln in enumerate(lines) if ln.strip() and not ln.startswith(comment or "\n")), None
        )
    if first is None:
        trec = "query 0 doc grade" if kind == "qrels" else "query Q0 doc rank score tag"
        raise NDCGError("empty_file", name=name, kind=kind, trec=trec, columns=", ".join(expected))
    fields = lines[first].split()
    trec_width = 4 if kind == "qrels" else 6
    # A run line may carry text after its tag (trec_eval ignores it); a qrels line has 4 fields.
    looks_trec = _looks_trec(fields, kind)
    _check_role(fields, kind, name, first + 1)
    if kind == "qrels" and len(fields) > 4 and _is_number(fields[-1]) and _is_number(fields[1]):
        raise NDCGError("qrels_fields", name=name, line=first + 1, n=len(fields))
    # Ids are text exactly as written: no NA guessing ("NA", "null", "None" are ids), and a
    # missing field reads as "" (then named as an error) instead of NaN.
    if looks_trec and len(text) > FAST_READ_CHARS:
        fast = _read_trec_fast(text, kind, name, resolve_threads(threads))
    else:
        resolve_threads(threads)  # a bad setting is an error whatever the file
        fast = None
    if fast is not None:
        _keep_name(fast, name)
        return fast
    text = _ascii(text)
    if looks_trec:
        names = ["query", "iter", "doc", "relevance"] if kind == "qrels" else [
            "query", "q0", "doc", "rank", "score", "tag"
        ]  # fmt: skip
        read = functools.partial(
            pd.read_csv,
            sep=r"\s+",
            header=None,
            names=names,
            dtype={n: str for n in names if n not in ("rank", value_col)},
            keep_default_na=False,
            skip_blank_lines=False,
            engine="c",
        )
        if comment and _COMMENT.search(text):
            text = _COMMENT.sub("", text)  # blanked, so line numbers stay true
        try:
            if len(fields) > trec_width:
                raise pd.errors.ParserError("text after the run tag")
            df = read(io.StringIO(text))
        except pd.errors.ParserError as err:
            if kind == "qrels":
                raise NDCGError("not_trec_qrels", name=name, reason=err) from None
            df = read(io.StringIO(_AFTER_TAG.sub(r"\1", text)))  # drop text after the run tag
        df.index = pd.RangeIndex(1, 1 + len(df), name="line")
        df = df[df["query"] != ""]  # blank (or comment) lines
        short = df[names[-1]] == ""
        if short.any():
            line = df.index[np.flatnonzero(short.to_numpy())[0]]
            raise NDCGError("too_few_fields", name=name, line=line, n=trec_width, kind=kind)
        if kind == "run" and not pd.api.types.is_numeric_dtype(df["rank"].dtype):
            bad = ~df["rank"].map(_is_number).to_numpy(dtype=bool)
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise NDCGError("rank_not_number", name=name, line=df.index[i], rank=repr(df["rank"].iloc[i]))
        df = df[["query", "doc", value_col]]
    else:
        header = lines[first]
        try:
            sep = csv.Sniffer().sniff(header, delimiters=",\t;|").delimiter
        except csv.Error:
            sep = r"\s+" if len(fields) > 1 else ","
        try:
            df = pd.read_csv(
                io.StringIO(text),
                sep=sep,
                dtype=str,
                keep_default_na=False,
                skip_blank_lines=False,
                skiprows=first,
                engine="c" if len(sep) == 1 or sep == r"\s+" else "python",
                skipinitialspace=True,
            )
        except pd.errors.ParserError as err:
            raise NDCGError("bad_delimiter", name=name, sep=repr(sep), reason=err) from None
        df.index = pd.RangeIndex(first + 2, first + 2 + len(df), name="line")
        df = df[(df.astype(str) != "").any(axis=1)]
        if df.shape[1] == 1:
            raise NDCGError(
                "single_column", name=name, column=repr(str(df.columns[0])), columns=", ".join(expected)
            )
        df = _normalize_columns(df, expected, name)
        for col in ("query", "doc"):
            df[col] = df[col].str.strip()
        for col, what in (("query", Message("query_id")), ("doc", Message("document_id"))):
            empty = (df[col] == "").to_numpy()
            if empty.any():
                line = df.index[int(np.flatnonzero(empty)[0])]
                raise NDCGError("empty_id", name=name, line=line, what=what)
    values = _numeric(df[value_col], value_col, name)
    out = pd.DataFrame(
        {"query": df["query"].astype(str), "doc": df["doc"].astype(str), value_col: values}, index=df.index
    )
    if out.empty:
        raise NDCGError("no_data_rows", name=name)
    _check_printable_ids(out, name)
    _keep_name(out, name)
    return out


def read_qrels(source: Any, *, threads: int | None = None, limits: ReadLimits | None = None) -> pd.DataFrame:
    """Read relevance judgements from a TREC qrels file or a CSV/TSV table.

    Parameters
    ----------
    source : str, path, bytes or file-like
        A path, the file's bytes, or an open text/binary file (Streamlit's
        ``UploadedFile``). A gzip, bzip2, xz or Zstandard file is
        decompressed first, known by its first bytes whatever its name
        (Zstandard needs the ``zstandard`` package); errors still name the
        line of the text inside. TREC format: ``query iteration doc grade`` separated by whitespace,
        no header. Otherwise a table with a header whose columns are matched
        case-insensitively with aliases (``qid``, ``topic``; ``docno``,
        ``doc_id``; ``rel``, ``label``, ``grade``) and whose delimiter (comma,
        tab, semicolon, bar or spaces) is sniffed from the header.
    threads : int, optional
        Threads for parsing a large TREC file: above 1, Arrow's multithreaded
        CSV reader parses it in blocks on Arrow's own thread pool (whose size
        is Arrow's setting, ``pyarrow.set_cpu_count``); 1 parses on the
        calling thread. Default: the ``NDCG_THREADS`` environment variable,
        else up to 2. Without pyarrow (the engine alone) files are read on one
        thread. The table read does not depend on it.
    limits : ReadLimits, optional
        The most the file may hold: its content (decompressed) and its longest line
        (:class:`~ndcg_core.dataset.sources.ReadLimits`; default 4 GB and 1 MB). Past either,
        reading stops at once with an error naming the file, the line or the size, and the
        limit: a small compressed file can expand to gigabytes.

    Returns
    -------
    pandas.DataFrame
        Columns ``query``, ``doc`` (text) and ``relevance`` (float), indexed
        by the file's line numbers (``index.name == "line"``), so errors in
        :func:`evaluate` name lines.

    Raises
    ------
    ValueError
        A file over ``limits``, an empty file, an unrecognised delimiter, missing columns (listing
        those found and those expected), or a grade that is not a number
        (naming its line).

    Examples
    --------
    >>> import io
    >>> read_qrels(io.StringIO("q1 0 d1 2\\nq1 0 d2 0\\n")).reset_index()
       line query doc  relevance
    0     1    q1  d1        2.0
    1     2    q1  d2        0.0
    """
    return _read_table(source, "qrels", threads, limits)


def read_run(source: Any, *, threads: int | None = None, limits: ReadLimits | None = None) -> pd.DataFrame:
    """Read a ranked run from a TREC run file or a CSV/TSV table.

    TREC format: ``query Q0 doc rank score tag`` separated by whitespace
    (the rank column is ignored: the score decides the order). Tables with a
    header are read as in :func:`read_qrels`, with ``score`` (aliases
    ``sim``, ``similarity``, ``prediction``) instead of a grade. Sources and
    compressed files (gzip, bzip2, xz, Zstandard), ``threads`` and ``limits`` as in
    :func:`read_qrels`.

    Returns
    -------
    pandas.DataFrame
        Columns ``query``, ``doc`` and ``score`` (float), indexed by line.

    Examples
    --------
    >>> import io
    >>> read_run(io.BytesIO(b"qid,docno,score\\nq1,d1,0.5\\nq1,d2,0.25\\n")).reset_index()
       line query doc  score
    0     2    q1  d1   0.50
    1     3    q1  d2   0.25
    """
    return _read_table(source, "run", threads, limits)

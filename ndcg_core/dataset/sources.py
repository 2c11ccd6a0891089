"""What a reader may take in: compressed input opened by its first bytes, and bounded by what it produces.

A 2.4 MB gzip file of one repeated line expands to 1 GB; 24 MB to 10 GB. The readers therefore
decompress as a stream and count what comes out: past :attr:`ReadLimits.max_bytes` of expanded
content, or a line longer than :attr:`ReadLimits.max_line`, they stop at once with a coded error
naming the file, how far it got and the limit, and nothing of the partial content is kept. A plain
file is held to the same two limits (its size, checked before it is read, and its lines).

The limits are a value, :class:`ReadLimits`, passed to :func:`~ndcg_core.dataset.read_qrels` and
:func:`~ndcg_core.dataset.read_run` (``limits=``); the command line sets them with ``--max-size``
and ``--max-line``, the app from its deployment's settings. Each limit carries the name of the
setting that raises it, so a message can say how.

>>> import gzip
>>> bomb = gzip.compress(b"q1 Q0 d1 1 1.0 t\\n" * 2_000_000)  # 34 MB of lines in 83 kB
>>> decompress(bomb, "bomb.gz", ReadLimits(max_bytes=3_000_000))
Traceback (most recent call last):
  ...
ndcg_core.errors.NDCGError: bomb.gz expands to more than 3 MB when decompressed, the limit on a file's \
content (max_bytes): reading stopped after 7.66 kB of its 82.5 kB, so in all it would expand to about 32.3 MB
"""

from __future__ import annotations

import bz2
import io
import lzma
import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import Message, NDCGError

__all__ = [
    "COMPRESSIONS",
    "DEFAULT_LIMITS",
    "LIMIT_CODES",
    "ReadLimits",
    "check_lines",
    "compression_of",
    "decompress",
    "open_decompressed",
    "parse_size",
    "size_text",
]


@dataclass(frozen=True)
class ReadLimits:
    """The most a reader may produce from one file.

    Parameters
    ----------
    max_bytes : int
        Expanded content, in bytes (a compressed file's decompressed size; a plain file's size).
        Default 4 GB: a 10M-line TREC run is about 0.4 GB.
    max_line : int
        The longest line, in bytes (in characters for text already decoded). Default 1 MB: a TREC
        or CSV line is tens of bytes; a file of one endless line is not a table.
    max_bytes_setting, max_line_setting : str
        How the caller raises each limit, named in the messages (``--max-size`` on the command
        line, an environment variable in the app).
    """

    max_bytes: int = 4_000_000_000
    max_line: int = 1_000_000
    max_bytes_setting: str = "max_bytes"
    max_line_setting: str = "max_line"

    def __post_init__(self) -> None:
        for name in ("max_bytes", "max_line"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise NDCGError("bad_read_limit", name=name, value=repr(value))


#: The limits a reader uses when given none.
DEFAULT_LIMITS = ReadLimits()

#: The codes of the errors that say a file is over its limits (reading it another way costs the same).
LIMIT_CODES = frozenset({"file_too_large", "expands_too_much", "line_too_long"})

#: The most output one step of decompression makes: the check after each step stops a bomb within
#: this much of its limit.
_STEP = 1 << 20


def size_text(n: float) -> str:
    """A size in bytes for a message, in decimal units with three significant digits.

    >>> size_text(512), size_text(1_500), size_text(2_000_000_000)
    ('512 B', '1.5 kB', '2 GB')
    """
    value, unit = float(n), "B"
    for bigger in ("kB", "MB", "GB", "TB"):
        if value < 1000:
            break
        value, unit = value / 1000, bigger
    return f"{value:.3g} {unit}"


_UNITS = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}


def parse_size(text: str) -> int:
    """A size such as ``4G``, ``500M``, ``1.5GB`` or ``1000000`` in bytes (decimal units, as
    :func:`size_text` writes them); a coded error for anything else.

    >>> parse_size("4G"), parse_size("1.5 MB"), parse_size("250k"), parse_size("2000")
    (4000000000, 1500000, 250000, 2000)
    """
    spelled = str(text).strip().upper().removesuffix("B").strip()
    unit = spelled[-1:] if spelled[-1:] in _UNITS and spelled[-1:] else ""
    try:
        value = float(spelled[: len(spelled) - len(unit)])
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value * _UNITS[unit] >= 1):
        raise NDCGError("bad_size", text=repr(text))
    return int(value * _UNITS[unit])


class _LongLine(Exception):
    """Internal: the line starting at ``start`` (an offset in the whole content) is too long."""

    def __init__(self, start: int) -> None:
        self.start = start


class _LineWatch:
    """Follows content piece by piece and raises :class:`_LongLine` as soon as a line is too long.

    Each piece is looked at in steps of at most ``max_line``: a line that fits inside one step is
    short enough, so only the first and last line break of a step are searched for (two ``find``
    calls a step, not one a line).
    """

    def __init__(self, max_line: int) -> None:
        self.max_line = max_line
        self.step = min(max_line, _STEP)
        self.offset = 0  # where the next piece starts in the whole content
        self.open = 0  # length of the line still open at the end of what was seen

    def feed(self, piece: Any, start: int = 0, end: int | None = None) -> None:
        end = len(piece) if end is None else end
        newline = "\n" if isinstance(piece, str) else b"\n"
        for at in range(start, end, self.step):
            stop = min(at + self.step, end)
            first = piece.find(newline, at, stop)
            if first == -1:
                self.open += stop - at
                if self.open > self.max_line:
                    raise _LongLine(self.offset + stop - self.open)
                continue
            if self.open + first - at > self.max_line:
                raise _LongLine(self.offset + at - self.open)
            self.open = stop - piece.rfind(newline, at, stop) - 1
        self.offset += end - start


def _long_line_error(content: Any, start: int, name: str, limits: ReadLimits) -> NDCGError:
    newline = "\n" if isinstance(content, str) else b"\n"
    counted = content if hasattr(content, "count") else content[:start]  # a memory map has no count()
    return NDCGError(
        "line_too_long",
        name=name,
        line=counted.count(newline, 0, start) + 1,
        limit=size_text(limits.max_line),
        setting=limits.max_line_setting,
    )


def check_lines(content: Any, name: str, limits: ReadLimits = DEFAULT_LIMITS, end: int | None = None) -> None:
    """Raise a coded error naming the first line of ``content`` (bytes, text or a memory map, up to
    ``end``) longer than ``limits.max_line``.

    >>> check_lines(b"q1 0 d1 1\\n" + b"x" * 50 + b"\\n", "q.txt", ReadLimits(max_line=20))
    Traceback (most recent call last):
      ...
    ndcg_core.errors.NDCGError: q.txt, line 2: longer than 20 B, the limit on one line (max_line); \
a qrels or run file has one short line per judgement or result
    """
    watch = _LineWatch(limits.max_line)
    try:
        watch.feed(content, 0, end)
    except _LongLine as long:
        raise _long_line_error(content, long.start, name, limits) from None


def check_size(size: int, name: str, limits: ReadLimits = DEFAULT_LIMITS) -> None:
    """Raise a coded error when plain content of ``size`` bytes is over ``limits.max_bytes``."""
    if size > limits.max_bytes:
        raise NDCGError(
            "file_too_large",
            name=name,
            size=size_text(size),
            limit=size_text(limits.max_bytes),
            setting=limits.max_bytes_setting,
        )


#: Compressed formats the readers open by their first bytes (never by the file's name).
COMPRESSIONS: dict[str, str] = {
    "gzip": ".gz: gzip (the standard library)",
    "bzip2": ".bz2: bzip2 (the standard library)",
    "xz": ".xz: xz / LZMA (the standard library)",
    "zstd": ".zst: Zstandard (the zstandard package, in the app's extra; or Python 3.14's compression.zstd)",
}


def compression_of(raw: bytes) -> str | None:
    """The compressed format whose magic bytes ``raw`` starts with (a key of :data:`COMPRESSIONS`), or None.

    None of these openings is UTF-8 text but bzip2's ``BZh``, so for bzip2 the block signature
    after the level digit is checked too: a text file starting with "BZh" stays text.

    >>> import gzip
    >>> compression_of(gzip.compress(b"q1 0 d1 1\\n")), compression_of(b"BZh1 0 d1 1\\n")
    ('gzip', None)
    """
    if raw[:2] == b"\x1f\x8b":
        return "gzip"
    if raw[:6] == b"\xfd7zXZ\x00":
        return "xz"
    if raw[:4] == b"\x28\xb5\x2f\xfd":
        return "zstd"
    if raw[:3] == b"BZh" and raw[3:4].isdigit() and raw[4:10] in (b"1AY&SY", b"\x17rE8P\x90"):
        return "bzip2"
    return None


class _Cut(Exception):
    """Internal: a compressed stream ended before its end (a cut-off file)."""


class _Decompressed:
    """The content of ``raw``'s consecutive compressed streams (gzip members, bzip2, xz or Zstandard
    streams one after another), iterated in pieces of at most :data:`_STEP` bytes.

    The compressed bytes go in :data:`_FEED` at a time, so :attr:`consumed` says how far into the
    file the content reached (for the estimate of a bomb's size). Anything after the last stream
    that does not start another one (padding, trailing bytes) is ignored, as Python's ``bz2`` and
    ``lzma`` modules ignore it.
    """

    def __init__(self, raw: bytes, fmt: str, name: str) -> None:
        self.raw, self.fmt, self.name = memoryview(raw), fmt, name
        self.consumed = 0
        self.new: Callable[[], Any] = {
            "gzip": lambda: zlib.decompressobj(16 + zlib.MAX_WBITS),
            "bzip2": bz2.BZ2Decompressor,
            "xz": lzma.LZMADecompressor,
        }.get(fmt) or self._zstd()

    def _zstd(self) -> Callable[[], Any]:
        zstd = _zstd_module(self.name)
        if zstd.__name__ == "compression.zstd":  # Python 3.14: max_length, as bz2 and lzma
            return zstd.ZstdDecompressor
        self.error = zstd.ZstdError
        return zstd.ZstdDecompressor().decompressobj

    def __iter__(self) -> Any:
        raw, start = self.raw, 0
        # The zstandard package's decompressor has no max_length: it takes 1 kB at a time (a byte
        # of input makes at most about 32 kB, an RLE block), the others 16 kB and max_length.
        bounded = not hasattr(self, "error")
        feed = _FEED if bounded else 1024
        while True:
            unzip, pos = self.new(), start
            while not unzip.eof:
                if pos >= len(raw):
                    raise _Cut
                piece = raw[pos : pos + feed]
                pos += len(piece)
                self.consumed = pos
                if bounded:
                    yield from self._drain(unzip, unzip.decompress(piece, _STEP), pos)
                    continue
                try:
                    chunk = unzip.decompress(piece.tobytes())
                except self.error as err:
                    raise NDCGError("bad_compressed", name=self.name, format=self.fmt, reason=err) from None
                if chunk:
                    yield chunk
            start = pos - len(unzip.unused_data)
            if compression_of(raw[start : start + 10].tobytes()) != self.fmt:
                return

    def _drain(self, unzip: Any, chunk: bytes, pos: int) -> Any:
        """The output of one piece of input, :data:`_STEP` bytes at a time."""
        while True:
            if chunk:
                # zlib says what it has yet to take; bz2 and lzma take a piece whole
                self.consumed = pos - len(getattr(unzip, "unconsumed_tail", b""))
                yield chunk
            if unzip.eof:
                return
            if hasattr(unzip, "unconsumed_tail"):  # zlib gives back what it did not take
                tail = unzip.unconsumed_tail
                if not tail and not chunk:
                    return
                chunk = unzip.decompress(tail, _STEP)
            elif unzip.needs_input:  # bz2, lzma: this piece is all used
                return
            else:
                chunk = unzip.decompress(b"", _STEP)


#: Compressed bytes given to a decompressor at a time.
_FEED = 1 << 14


def decompress(raw: bytes, name: str = "", limits: ReadLimits = DEFAULT_LIMITS) -> bytes | bytearray:
    """``raw`` decompressed if its first bytes say it is compressed (see :func:`compression_of`), else as is.

    Decompressed as a stream and checked as it comes: more than ``limits.max_bytes`` of content, or
    a line longer than ``limits.max_line``, stops it at once with a coded error (what was
    decompressed so far is let go). A damaged or cut-off file is a coded error naming it; Zstandard
    without a module to read it says which package to install. Plain ``raw`` is returned as it is
    (its size and lines are the caller's to check: see :func:`check_size`, :func:`check_lines`).
    """
    fmt = compression_of(raw)
    if fmt is None:
        return raw
    stream = _Decompressed(raw, fmt, name)
    out, watch = bytearray(), _LineWatch(limits.max_line)
    try:
        for chunk in stream:
            watch.feed(chunk)
            if len(out) + len(chunk) > limits.max_bytes:
                raise _over_limit(len(raw), name, limits, stream.consumed)
            out += chunk
    except _LongLine as long:
        out += chunk[: long.start - len(out)]
        error = _long_line_error(out, long.start, name, limits)
        del out
        raise error from None
    except _Cut:
        raise NDCGError("bad_compressed", name=name, format=fmt, reason=Message("cut_off")) from None
    except (OSError, EOFError, lzma.LZMAError, zlib.error) as err:  # the formats' own errors
        raise NDCGError("bad_compressed", name=name, format=fmt, reason=err) from None
    return out


def _over_limit(size: int, name: str, limits: ReadLimits, consumed: int) -> NDCGError:
    """The error of a file whose content passed ``limits.max_bytes`` after ``consumed`` of its
    ``size`` compressed bytes (the estimate of its whole content assumes it goes on alike)."""
    consumed = max(1, min(consumed, size))
    return NDCGError(
        "expands_too_much",
        name=name,
        limit=size_text(limits.max_bytes),
        setting=limits.max_bytes_setting,
        read=size_text(consumed),
        size=size_text(size),
        estimate=size_text(limits.max_bytes * size / consumed),
    )


def open_decompressed(fh: Any) -> Any:
    """A binary file reading ``fh`` (a seekable binary file) decompressed as it goes when its first
    bytes say it is compressed (see :func:`compression_of`), else ``fh`` itself; closing it closes
    ``fh``. For a file's first lines without decompressing all of it (read them with a size:
    ``readline(n)``, since one line may be endless).

    >>> import gzip, io
    >>> open_decompressed(io.BytesIO(gzip.compress(b"q1 Q0 d1 1 2.5 tag\\n"))).readline(1000)
    b'q1 Q0 d1 1 2.5 tag\\n'
    """
    import gzip

    fmt = compression_of(fh.read(10))
    fh.seek(0)
    if fmt == "gzip":
        return gzip.GzipFile(fileobj=fh)
    if fmt == "bzip2":
        return bz2.BZ2File(fh)
    if fmt == "xz":
        return lzma.LZMAFile(fh)
    if fmt == "zstd":
        zstd = _zstd_module(getattr(fh, "name", ""))
        if zstd.__name__ == "compression.zstd":
            return zstd.ZstdFile(fh)
        return io.BufferedReader(zstd.ZstdDecompressor().stream_reader(fh, closefd=True))
    return fh


def _zstd_module(name: str) -> Any:
    """Python 3.14's ``compression.zstd``, else the ``zstandard`` package; without either, a coded
    error naming the file and the package to install."""
    try:
        from compression import zstd  # Python 3.14 and later

        return zstd
    except ImportError:
        pass
    try:
        import zstandard
    except ImportError:
        raise NDCGError("needs_zstandard", name=name) from None
    return zstandard

"""A compiled scanner for plain TREC files (numba): one pass over the bytes, the ids copied out.

Imported only by :mod:`ndcg_core.dataset.scan`, and only when numba is installed; the engine
never needs it. It accepts a narrow form and refuses the rest, which the readers then take as
before: ASCII bytes 0x21..0x7E in fields, one delimiter byte between fields, ``\\n`` after each
line, the TREC fields (4 in qrels, 6 in a run) and no more, none empty, numbers as plain decimals.
"""

from __future__ import annotations

import numba
import numpy as np

#: The powers of ten a double holds exactly (10**0 .. 10**22).
POW10 = np.array([10.0**i for i in range(23)])

#: Numbers past these read as "hard": their digits go to Arrow, which rounds them correctly.
_SAFE = np.int64(1 << 53)
_MAX_DIGITS_VALUE = np.int64((2**63 - 1 - 9) // 10)

#: What scan() returns for a file that is not of the plain form.
REFUSED = -1


@numba.njit(cache=True, nogil=True, boundscheck=False, inline="always")
def _number(buf, start, end, delim, pow10):  # pragma: no cover - compiled (tested through scan)
    """(stop, value, status) of the field at ``start``, read in the same pass that finds its end
    (``stop``): status 0 read exactly, 1 not a number, 2 "hard".

    The grammar is Arrow's and strtod's plain decimal: ``[+-]? digits [. digits] [(e|E) [+-]?
    digits]``, with digits on at least one side of the point, then the delimiter, a line break
    or the end. A value with at most 2**53 in its digits and a power of ten up to 22 is one
    correctly rounded multiply or divide (Clinger's fast path), so it equals what Arrow and
    strtod read; any other is "hard".
    """
    i = start
    negative = False
    if i < end and (buf[i] == 45 or buf[i] == 43):  # '-' or '+'
        negative = buf[i] == 45
        i += 1
    mantissa = np.int64(0)
    exponent = 0
    digits = 0
    big = False
    while i < end and np.uint8(buf[i] - 48) < 10:
        if mantissa > _MAX_DIGITS_VALUE:  # read by Arrow: only the syntax matters here
            big = True
        else:
            mantissa = mantissa * 10 + (buf[i] - 48)
        digits += 1
        i += 1
    if i < end and buf[i] == 46:  # '.'
        i += 1
        while i < end and np.uint8(buf[i] - 48) < 10:
            if mantissa > _MAX_DIGITS_VALUE:
                big = True
            else:
                mantissa = mantissa * 10 + (buf[i] - 48)
                exponent -= 1
            digits += 1
            i += 1
    if digits == 0:
        return i, 0.0, 1
    if i < end and (buf[i] == 101 or buf[i] == 69):  # 'e' or 'E'
        i += 1
        sign = 1
        if i < end and (buf[i] == 45 or buf[i] == 43):
            sign = -1 if buf[i] == 45 else 1
            i += 1
        power = 0
        power_digits = 0
        while i < end and np.uint8(buf[i] - 48) < 10:
            if power < 100000:
                power = power * 10 + (buf[i] - 48)
            power_digits += 1
            i += 1
        if power_digits == 0:
            return i, 0.0, 1
        exponent += sign * power
    if i < end and buf[i] != delim and buf[i] != 10:
        return i, 0.0, 1
    if big or mantissa > _SAFE or exponent > 22 or exponent < -22:
        return i, 0.0, 2
    value = float(mantissa)
    value = value * pow10[exponent] if exponent >= 0 else value / pow10[-exponent]
    return i, (-value if negative else value), 0


@numba.njit(cache=True, nogil=True, boundscheck=False, inline="always")
def _field(buf, pos, end, delim, out, length, copy):  # pragma: no cover - compiled
    """The end of the field at ``pos`` (its bytes appended to ``out`` when ``copy``), or -1 when
    a byte is not printable ASCII and not the delimiter or a line break."""
    while pos < end:
        c = buf[pos]
        if np.uint8(c - 33) > 93:  # not 0x21..0x7E
            if c == delim or c == 10:
                return pos
            return -1  # a control byte, a space in a tab file, \r, non-ASCII
        if copy:
            out[length] = c
            length += 1
        pos += 1
    return pos


@numba.njit(cache=True, nogil=True, boundscheck=False, inline="always")
def _next(buf, pos, end, delim, start, last):  # pragma: no cover - compiled
    """The position after a field that ended at ``pos`` (began at ``start``), or -1: the field is
    empty or held a byte refused, or the line has fewer (or, after its ``last`` field, more)
    fields than the TREC line."""
    if pos <= start:  # a byte refused, or an empty field (a doubled, leading or trailing delimiter,
        return -1  # a blank line)
    if last:
        if pos < end and buf[pos] != 10:
            return -1
    elif pos >= end or buf[pos] != delim:
        return -1
    return pos + 1


@numba.njit(cache=True, nogil=True, boundscheck=False)
def scan(
    buf, end, delim, run, q_off, q_buf, d_off, d_buf, values, hard_rows, h_off, h_buf, pow10
):  # pragma: no cover - compiled
    """Read the lines of buf[:end] (a run's when ``run``, else a qrels file's).

    The ids go into (offsets, bytes) pairs, the grades or scores into ``values``. Returns (rows,
    hard): ``rows`` the lines read, or a negative number when the file is not of the plain form
    (the caller then reads it another way); ``hard`` the count of values whose text went to
    ``h_off``/``h_buf`` (their rows in ``hard_rows``) to be read by Arrow. A run's rank must be a
    number; a qrels line must not start with ``#`` (a comment, which trec_eval skips).
    """
    pos = 0
    row = 0
    q_len = 0
    d_len = 0
    hard = 0
    h_len = 0
    q_off[0] = 0
    d_off[0] = 0
    h_off[0] = 0
    while pos < end:
        # the query
        start = pos
        pos = _next(buf, _field(buf, pos, end, delim, q_buf, q_len, True), end, delim, start, False)
        if pos < 0 or (not run and buf[start] == 35):
            return REFUSED, 0
        q_len += pos - 1 - start
        q_off[row + 1] = q_len
        # Q0 or the iteration
        start = pos
        pos = _next(buf, _field(buf, pos, end, delim, h_buf, 0, False), end, delim, start, False)
        if pos < 0:
            return REFUSED, 0
        # the document
        start = pos
        pos = _next(buf, _field(buf, pos, end, delim, d_buf, d_len, True), end, delim, start, False)
        if pos < 0:
            return REFUSED, 0
        d_len += pos - 1 - start
        d_off[row + 1] = d_len
        if run:  # the rank: a number
            start = pos
            stop, value, status = _number(buf, pos, end, delim, pow10)
            pos = _next(buf, stop, end, delim, start, False)
            if pos < 0 or status != 0:
                return REFUSED, 0
        # the grade or the score
        start = pos
        stop, value, status = _number(buf, pos, end, delim, pow10)
        pos = _next(buf, stop, end, delim, start, not run)
        if pos < 0 or status == 1:
            return REFUSED, 0
        if status == 2:  # its text, for Arrow to read
            for j in range(start, stop):
                h_buf[h_len] = buf[j]
                h_len += 1
            hard_rows[hard] = row
            hard += 1
            h_off[hard] = h_len
        values[row] = value
        if run:  # the tag
            start = pos
            pos = _next(buf, _field(buf, pos, end, delim, h_buf, 0, False), end, delim, start, True)
            if pos < 0:
                return REFUSED, 0
        row += 1
    return row, hard


def _warm() -> None:
    """Compile scan() (or load it from numba's cache) now, on a two-line file of each kind."""
    for run, text in ((True, b"q Q0 d 1 2.5 t\nq Q0 e 2 1 t"), (False, b"q 0 d 1\nq 0 e 0")):
        buf = np.frombuffer(text, dtype=np.uint8)
        q_off, d_off, h_off, rows = (np.empty(8, dtype=np.int64) for _ in range(4))
        q_buf, d_buf, h_buf = (np.empty(64, dtype=np.uint8) for _ in range(3))
        values = np.empty(8, dtype=np.float64)
        scan(buf, len(text), 32, run, q_off, q_buf, d_off, d_buf, values, rows, h_off, h_buf, POW10)


_warm()

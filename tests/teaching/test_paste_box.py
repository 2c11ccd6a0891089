"""Issue 30, item 7: the paste box takes what people paste, and names each line it cannot read.

Before: the one-line box turned newlines into spaces, so ``A<TAB>3\\nB<TAB>2\\nC<TAB>1`` was refused
and a pasted column ``3\\n2\\n1`` became one item "3 2" of grade 1; ``A:1:2`` became A = 1 and
``1,,2`` was accepted without a word. (The box is now multi-line: tests/app/test_app_paste.py.)
"""

from __future__ import annotations

import pytest

from ndcg_core.errors import NDCGError
from ndcg_core.teaching.playground import parse_entries


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A\t3\nB\t2\nC\t1", [("A", 3), ("B", 2), ("C", 1)]),
        ("3\n2\n1", [(None, 3), (None, 2), (None, 1)]),
        ("3\r\n2\r\n1\r\n", [(None, 3), (None, 2), (None, 1)]),  # from Windows, with its last break
        ("A:1\nB:0.5", [("A", 1), ("B", 0.5)]),
        ("item\tgrade\nx\t2\n\ny\t0", [("x", 2), ("y", 0)]),  # a header and a blank line
        ("3,2,1,", [(None, 3), (None, 2), (None, 1)]),  # a trailing comma
    ],
)
def test_what_people_paste_is_read(text, expected):
    assert parse_entries(text) == expected


def problem(text: str) -> NDCGError:
    with pytest.raises(NDCGError) as info:
        parse_entries(text)
    return info.value


def test_a_second_separator_is_refused_not_cut():
    err = problem("A:1:2")
    assert err.code == "entry_two_separators" and "entry 1" in str(err) and "'A:1:2'" in str(err)


def test_an_empty_entry_is_named():
    err = problem("1,,2")
    assert err.code == "entry_empty" and str(err).startswith("entry 2 is empty")


def test_one_bad_line_is_named_with_its_text():
    err = problem("A\t3\nB\tx\nC\t1")
    assert err.code == "bad_line" and str(err).startswith("line 2 ('B\\tx')")


def test_every_bad_line_is_named():
    err = problem("A\t3\nB\tx\nC\t1\nD:1:2\nE\t")
    assert err.code == "bad_lines"
    assert str(err).startswith("lines 2, 4, 5 are not understood (line 2: 'B\\tx')")


def test_many_bad_lines_are_named_up_to_ten():
    err = problem("\n".join(["A\t1"] + [f"x{n}\ty" for n in range(2, 30)]))
    assert err.values["lines"] == "2, 3, 4, 5, 6, 7, 8, 9, 10, 11, …"

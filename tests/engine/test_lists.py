"""The one parser for a typed or linked list (ndcg_core.lists) and the readers built on it."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_core.lists import LINE_BREAKS, Entry, finite_number, read_list
from ndcg_core.variants import parse_gain_table


def test_entries_are_stripped_and_read_as_numbers():
    assert read_list(" 3 , 2.5,x ") == [Entry("3", 3.0), Entry("2.5", 2.5), Entry("x", None)]


def test_a_blank_text_is_an_empty_list_and_an_empty_entry_is_kept_unless_skipped():
    assert read_list("") == [] and read_list(" \t ") == []
    assert read_list("3,,2") == [Entry("3", 3.0), Entry("", None), Entry("2", 2.0)]
    assert read_list("3,,2, ", skip_empty=True) == [Entry("3", 3.0), Entry("2", 2.0)]


def test_any_of_the_separators_splits_and_spaces_split_only_when_asked():
    assert [e.text for e in read_list("1;2,3", ",;")] == ["1", "2", "3"]
    assert [e.text for e in read_list("1 2", ",")] == ["1 2"]
    assert [e.text for e in read_list("1 2\u30003\t4", ",", spaces=True)] == ["1", "2", "3", "4"]


def test_line_breaks_are_those_of_splitlines():
    text = "a\r\nb\rc\u2028d\x85e\n\nf"
    assert [e.text for e in read_list(text, LINE_BREAKS, skip_empty=True)] == ["a", "b", "c", "d", "e", "f"]


def test_inf_and_nan_are_numbers_but_not_finite_ones():
    inf, nan = read_list("inf,nan")
    assert inf.value == math.inf and inf.number is None
    assert math.isnan(nan.value) and nan.number is None
    assert finite_number(" 0.5 ") == 0.5
    assert finite_number("-inf") is None and finite_number("two") is None and finite_number("") is None


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=20))
def test_a_written_list_reads_back(values):
    text = ", ".join(repr(v) for v in values)
    assert [e.number for e in read_list(text)] == values


# Readers built on it keep their own rules and messages.


def test_the_gain_table_reads_pairs_and_names_the_bad_one():
    assert parse_gain_table("0:0, 1:1;2:3\t3:7") == {0: 0, 1: 1, 2: 3, 3: 7}
    for text, n in (("0:0, 1", 2), ("1:2:3", 1), ("0:0 :1", 2), ("x:1", 1)):
        with pytest.raises(ValueError, match=rf"gain table entry {n} .* is not of the form grade:gain"):
            parse_gain_table(text)
    with pytest.raises(ValueError, match=r"gain table entry 2 \('1:inf'\) must use finite numbers"):
        parse_gain_table("0:0,1:inf")
    with pytest.raises(ValueError, match="the gain table is empty"):
        parse_gain_table(" ;, ")

"""Issue 30, part 1: a short share link no longer expands to a million items.

A 2,640-character compact ``state=`` link (zlib of a million ``1,``) decompressed to 1,000,000
grades (6 s of CPU, +260 MB in the decoder alone). Now the decompressed size and the item count
are capped, and a link over either is refused with a named warning before any list is read.
"""

from __future__ import annotations

import zlib

import pytest

from ndcg_core.errors import NDCGError
from ndcg_core.teaching.playground import (
    DEFAULT_STATE,
    MAX_LINK_ITEMS,
    MAX_STATE_BYTES,
    decode_compact,
    encode_compact,
    from_query_params,
)


def bomb() -> str:
    """The issue's link: a million grades, about 2,600 characters."""
    return encode_compact({"rel": ",".join(["1"] * 1_000_000)})


def test_the_bomb_is_short_and_decodes_to_a_refusal_not_a_million_items():
    link = bomb()
    assert len(link) < 3_000
    with pytest.raises(NDCGError) as info:
        decode_compact(link)
    assert info.value.code == "link_too_large"


def test_decoding_stops_at_the_cap(monkeypatch):
    """Only MAX_STATE_BYTES + 1 bytes are ever asked of zlib, whatever the link unpacks to."""
    asked = []
    real = zlib.decompressobj

    class Spy:
        def __init__(self):
            self.inner = real()

        def decompress(self, data, max_length=0):
            asked.append(max_length)
            return self.inner.decompress(data, max_length)

    monkeypatch.setattr(zlib, "decompressobj", Spy)
    with pytest.raises(NDCGError):
        decode_compact(bomb())
    assert asked == [MAX_STATE_BYTES + 1]


def test_the_bomb_falls_back_to_the_example_with_a_warning():
    state, warnings = from_query_params({"state": bomb()})
    assert state.items == DEFAULT_STATE.items
    assert [w.code for w in warnings] == ["share_link_param"]
    assert "'state'" in str(warnings[0]) and "1,000,000 bytes" in str(warnings[0])


@pytest.mark.parametrize("key", ["rel", "pool", "scores", "labels", "pool_labels"])
@pytest.mark.parametrize("compact", [True, False], ids=["compact", "readable"])
def test_one_item_over_the_limit_is_refused_by_name(key, compact):
    params = {"rel": ",".join(["1"] * 3), key: ",".join(["2"] * (MAX_LINK_ITEMS + 1))}
    state, warnings = from_query_params({"state": encode_compact(params)} if compact else params)
    assert state.items == DEFAULT_STATE.items
    assert len(warnings) == 1
    assert f"'{key}'" in str(warnings[0])
    text = str(warnings[0])
    assert f"{MAX_LINK_ITEMS + 1:,} items" in text and f"at most {MAX_LINK_ITEMS:,}" in text


def test_no_link_is_written_for_more_items_than_a_link_may_hold():
    from ndcg_core.teaching.playground import Item, PlaygroundState, share_params

    over = PlaygroundState(items=tuple(Item(n, f"D{n + 1}", 1.0) for n in range(MAX_LINK_ITEMS + 1)))
    assert share_params(over) is None  # only a file; a link would be refused when opened


def test_a_link_costs_the_server_little_to_draw():
    """Issue 37: a 311-character link of 100,000 items cost 4.7 s of CPU, sent 21 MB of page and kept
    85 MB per closed tab; a link now holds what a page draws in about a second and a few MB."""
    assert 1_000 <= MAX_LINK_ITEMS <= 5_000


def test_a_link_at_the_limit_still_opens():
    state, warnings = from_query_params({"state": encode_compact({"rel": ",".join(["1"] * MAX_LINK_ITEMS)})})
    assert not warnings and len(state.items) == MAX_LINK_ITEMS

import math

import pytest

from ndcg_core import SCHEMA, Variant, schema_markdown
from ndcg_core.variants import parse_base, parse_gain_table


def test_schema_names_match_variant_fields_and_ndcg_keywords():
    import inspect

    from ndcg_core import ndcg, resolve

    params = inspect.signature(ndcg).parameters
    for option in SCHEMA:
        assert option.name in params, option.name
        # a keyword left out means "not given": the schema's default fills it in
        assert params[option.name].default is None
        assert getattr(resolve().variant, option.name) == option.default
        assert getattr(Variant(), option.name) == option.default
        assert option.help and option.url_key


def test_every_choice_has_a_description():
    for option in SCHEMA:
        for choice, text in option.choices.items():
            assert isinstance(text, str) and len(text) > 10, (option.name, choice)


@pytest.mark.parametrize(
    "variant",
    [
        Variant(),
        Variant(k=10),
        Variant(discount="jarvelin", k=6),
        Variant(gain="exponential", log_base=math.e, k=5),
        Variant(gain={0: 0, 1: 1, 2: 3}, zero_idcg="one"),
        Variant(log_base=1.5),
    ],
)
def test_name_round_trips(variant):
    assert Variant.parse(variant.name) == variant


def test_name_prints_only_non_defaults():
    assert Variant().name == "nDCG"
    assert Variant(k=10, gain="exponential").name == "nDCG(gain='exponential')@10"
    assert Variant(log_base=math.e).name == "nDCG(base=e)"


def test_variant_rejects_bad_values():
    with pytest.raises(ValueError):
        Variant(gain="cubic")
    with pytest.raises(ValueError):
        Variant(k=0)
    with pytest.raises(ValueError):
        Variant.parse("MAP@10")


def test_parse_helpers():
    assert parse_base("e") == math.e
    assert parse_base("10") == 10
    with pytest.raises(ValueError):
        parse_base("0.5")
    assert parse_gain_table("0:0, 1:1, 2:3") == {0: 0, 1: 1, 2: 3}
    with pytest.raises(ValueError, match="entry 2"):
        parse_gain_table("0:0, 1-1")


def test_schema_markdown_lists_every_option():
    text = schema_markdown()
    for option in SCHEMA:
        assert f"`{option.name}`" in text


def test_library_docs_carry_the_generated_schema_table():
    import pathlib

    library_docs = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "library.md").read_text()
    assert schema_markdown() in library_docs

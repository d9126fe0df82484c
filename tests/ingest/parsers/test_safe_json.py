"""Bounded JSON (``ingest.parsers.safe_json``): depth refused before decoding, values made
storable with a note of what changed."""

from __future__ import annotations

import math

import pytest

from ingest.parsers import safe_json


@pytest.mark.parametrize(
    ("text", "deep"),
    [
        ("[" * 33 + "]" * 33, True),
        ("[" * 32 + "]" * 32, False),
        ('{"a": "' + "[" * 100 + '"}', False),  # brackets inside a string do not count
        ("{'a': '" + "{" * 100 + "'}", False),
        ('["\\"' + "[" * 40 + '"]', False),  # an escaped quote does not end the string
        ("(" * 40 + ")" * 40, True),
        ("[1, 2, 3]" * 1000, False),
    ],
)
def test_depth_is_counted_outside_strings(text, deep):
    assert safe_json.too_deep(text) is deep


def test_deep_text_is_refused_not_a_recursion_error():
    with pytest.raises(safe_json.TooDeep, match="nested deeper than 32 levels"):
        safe_json.loads("[" * 100_000 + "]" * 100_000)
    assert safe_json.loads(b'{"a": [1]}') == {"a": [1]}


def test_storable_values_keep_no_nul_nan_or_huge_integer():
    value = {
        "s\x00": ["a\x00", math.nan, math.inf, 10**30, 2**63 - 1, (1, 2), {3}],
        "ok": 1.5,
    }
    clean, note = safe_json.storable(value)
    assert clean == {"s\ufffd": ["a\ufffd", None, None, None, 2**63 - 1, [1, 2], [3]], "ok": 1.5}
    assert note == (
        "NUL character replaced by U+FFFD; nan is not a finite number, kept as null; "
        "inf is not a finite number, kept as null; integer of 100 bits out of range, kept as null"
    )
    assert safe_json.storable({"fine": [1, "x"]}) == ({"fine": [1, "x"]}, "")


def test_storable_stops_at_the_depth_limit():
    deep: list = []
    for _ in range(40):
        deep = [deep]
    clean, note = safe_json.storable(deep)
    assert "nested deeper than 32 levels" in note


def test_long_text_is_cut_with_a_note():
    assert safe_json.cut("abc", 2) == ("ab", "value of 3 characters cut to 2")
    assert safe_json.cut("abc") == ("abc", "")

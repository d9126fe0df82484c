"""benchdb.claims.families: the same claim across sentences, pages and languages is
one family with its first publication and every repetition."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from benchdb.claims.families import claim_families, family_rows, same_value

VENDOR = Path(settings.VENDOR_DATA)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (46.0, 45.9, True),  # IBM's "46x" and the "45.9x" its numbers give
        (28.3, 28.33, True),
        (24.0, 41.0, False),
        (5.0, 5.5, False),  # "5%" and "5.5%": 5.5 rounds to 6 (half to even: 6)
        (12.0, 12.0, True),
        (None, None, True),
        (1.0, None, False),
    ],
)
def test_same_value_within_rounding(a: float | None, b: float | None, same: bool) -> None:
    assert same_value(a, b) is same


def _c(**kw: Any) -> dict[str, Any]:
    base = {
        "kind": "multiplier",
        "value": 46.0,
        "unit": "x",
        "system": "",
        "compared_system": "",
        "benchmark_key": "",
        "extracted": {"framework": "Snap ML"},
        "verdict": "not-mlperf",
        "sentence": "Snap ML is 46x faster.",
        "position": 0,
    }
    return base | kw


def test_repetitions_across_pages_and_languages_are_one_family_first_seen_on_the_earliest_page():
    """IBM's 46x, nine times on a Chinese repost and once in the English original (a
    week earlier), and once as 45.9x; "91.5 s" and "1.525 min" are one time."""
    zh = [
        _c(id=i, page_id=2, page="zh", published=date(2018, 3, 28), language="zh-Hans", position=i)
        for i in range(9)
    ]
    en = _c(id=100, page_id=1, page="en", published=date(2018, 3, 21), language="en", value=45.9)
    other = _c(id=200, page_id=1, page="en", published=date(2018, 3, 21), value=70.0)
    t1 = _c(id=300, kind="time", unit="s", value=91.5, page_id=1, page="en")
    t2 = _c(id=301, kind="time", unit="min", value=1.525, page_id=2, page="zh")
    fams = claim_families([*zh, en, other, t1, t2])
    rows = family_rows(fams)
    big = next(r for r in rows if r["claims"] == 10)
    assert big["first_seen"] == "2018-03-21" and big["first_page"] == "en"
    assert big["pages"] == ["en", "zh"] and big["value"] == "45.9x"
    assert big["claim_ids"][0] == 100 and sorted(big["claim_ids"][1:]) == list(range(9))
    assert any(r["claims"] == 1 and r["number"] == 70.0 for r in rows)
    times = [r for r in rows if r["kind"] == "time"]
    assert len(times) == 1 and times[0]["claims"] == 2 and times[0]["unit"] == "min"


def test_different_subjects_or_compared_values_are_different_families() -> None:
    a = _c(id=1, kind="head_to_head", unit="min", value=28.3, compared_value=29.1, system="A")
    b = _c(id=2, kind="head_to_head", unit="min", value=28.3, compared_value=31.0, system="A")
    c = _c(id=3, kind="head_to_head", unit="min", value=28.3, compared_value=29.1, system="B")
    assert len(claim_families([a, b, c])) == 3


@pytest.mark.django_db
def test_families_of_the_shared_pages(client: Client, ingested_shared: object) -> None:
    """Graphcore's v1.1 post (2021-12-01) and its Chinese repost (2021-12-02) make the
    same claims: 28.3 vs 29.1 min (once on each page), 24% and 41% ResNet-50 and 5% and
    12% BERT gains (once in English, twice in the repost), 5.67, 3.79 and 5.78 min
    (once each); each family is first seen on the English post."""
    from ingest.claims.pages import vendor_page_ingest

    for p in sorted(VENDOR.glob("*.txt")):
        vendor_page_ingest(data=None, path_or_url=str(p))
    doc = json.loads(client.get("/vendor/families/", {"format": "json"}).content)
    assert doc["schema"] == "benchdb.claim_families/1"
    en = "graphcore-mlperf-training-v1.1-performance-at-scale.en.txt"
    zh = "graphcore-mlperf-training-v1.1-results.zh.txt"
    both = {r["value"]: r for r in doc["rows"] if r["pages"] == [en, zh]}
    expect = {
        "28.3 min vs 29.1 min": 2,
        "24%": 3,
        "41%": 3,
        "5%": 3,
        "12%": 3,
        "5.67 min": 2,
        "3.79 min": 2,
        "5.78 min": 2,
    }
    assert {v: r["claims"] for v, r in both.items()} == expect
    assert {r["first_seen"] for r in both.values()} == {"2021-12-01"}
    assert {tuple(r["languages"]) for r in both.values()} == {("en", "zh-Hant")}
    pages = json.loads(client.get("/vendor/", {"format": "json"}).content)["rows"]
    counts = {r["page"]: (r["claims"], r["families"]) for r in pages}
    assert counts[zh] == (14, 10)  # 24%, 41%, 5% and 12% twice each
    repeated = json.loads(client.get("/vendor/families/?format=json&repeated=on").content)
    assert all(r["claims"] > 1 for r in repeated["rows"])
    assert client.get("/vendor/families/?bogus=1").status_code == 400


def test_a_claim_naming_no_system_joins_the_same_claim_of_its_page_that_names_one() -> None:
    """Intel's Gaudi 2 table: "Gaudi 2 ... GPT-3 ... 153.58 min" and a row naming only
    GPT-3 with the same time are one claim; on another page they stay apart, and with
    two systems to choose from the claim joins neither."""
    kw = {"kind": "time", "unit": "min", "value": 153.58, "extracted": {}, "page": "intel"}
    named = _c(id=1, page_id=7, system="Gaudi 2", benchmark_key="gpt3", **kw)
    bare = _c(id=2, page_id=7, benchmark_key="gpt3", **kw)
    elsewhere = _c(id=3, page_id=8, benchmark_key="gpt3", **kw)
    rows = family_rows(claim_families([named, bare, elsewhere]))
    assert sorted(r["claim_ids"] for r in rows) == [[1, 2], [3]]
    other = _c(id=4, page_id=7, system="Gaudi 3", benchmark_key="gpt3", **kw)
    rows = family_rows(claim_families([named, other, bare]))
    assert sorted(r["claim_ids"] for r in rows) == [[1], [2], [4]]

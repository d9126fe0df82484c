"""A page's numbers not treated as claims (a section of the vendor page, and CSV/JSON
as ``benchdb.page_numbers/1``) and the claims list by family (issue 14). Expected
values are written from reading the pages."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from benchdb.claims import numbers
from benchdb.models import VendorPage
from benchdb.tables import schemas
from ingest.claims.pages import vendor_page_ingest
from ingest.claims.parsers.coverage import REASONS
from tests.ingest.claims.parsers.written_pages import IBM_EN, IBM_ZH
from tests.pages import html_of

VENDOR = Path(settings.VENDOR_DATA)
GC_EN = "graphcore-mlperf-training-v1.1-performance-at-scale.en.txt"


def _ingest(name: str) -> VendorPage:
    report = vendor_page_ingest(data=None, path_or_url=str(VENDOR / name))
    return VendorPage.objects.get(pk=report.page_id)


def _json(client: Client, url: str, **params: str) -> dict:  # type: ignore[type-arg]
    return json.loads(client.get(url, {"format": "json", **params}).content)


# --- pure --------------------------------------------------------------------------


def test_every_reason_of_the_ingest_has_words() -> None:
    assert tuple(numbers.REASON_NOTES) == REASONS


def test_number_rows_give_line_and_the_words_around() -> None:
    text = "Title 2021\n" + "x" * 60 + " v1.1 " + "y" * 60 + "\nend"
    start = text.index("1.1")
    stored = [
        {"start": 6, "end": 10, "text": "2021", "status": "not-claim", "reason": "date"},
        {"start": start, "end": start + 3, "text": "1.1", "status": "not-claim"}
        | {"reason": "version"},
        {"start": 0, "end": 2, "text": "99", "status": "not-claim", "reason": "other"},
        {"start": 6, "end": 10, "text": "2021", "status": "claim", "reason": ""},
    ]
    rows = numbers.number_rows(7, text, stored)
    assert [(r["number"], r["line"], r["reason"]) for r in rows] == [
        ("99", None, "other"),  # its span does not hold it: no line, no context
        ("2021", 1, "date"),
        ("1.1", 2, "version"),
    ]
    assert rows[1]["context"] == "Title 2021" and rows[1]["why"] == "a date, year or time of day"
    v = rows[2]
    assert v["before"] == "…" + "x" * 48 + " v" and v["after"] == " " + "y" * 49 + "…"
    groups = numbers.reason_groups(rows)
    by_reason = [(g["reason"], g["count"]) for g in groups]
    assert by_reason == [("date", 1), ("version", 1), ("other", 1)]
    assert numbers.number_counts(stored) == {"numbers": 4, "claims": 1, "not_claims": 3}


# --- pages -------------------------------------------------------------------------


@pytest.mark.django_db
def test_graphcore_v1_1_page_lists_its_dates_and_names(client: Client) -> None:
    """Read by hand: the page writes 35 numbers; 10 are in its claims (28.3, 29.1, 24%,
    41%, 5.67, 3.79, 5.78, 5%, 12%, and the 16 of IPU-POD16 in "28.3 minutes on the
    IPU-POD16"); the other 25 are its dates ("November 2021", "Dec 01, 2021") and 22
    digits of names (IPU-POD16/64/128/256, IPUPOD16, A100, ResNet-50, ResNet50)."""
    page = _ingest(GC_EN)
    url = f"/vendor/pages/{page.pk}/numbers/"
    doc = _json(client, url)
    assert doc["schema"] == "benchdb.page_numbers/1"
    assert doc["columns"] == list(schemas.columns("benchdb.page_numbers/1"))
    rows = doc["rows"]
    dates = [(r["number"], r["line"], r["context"]) for r in rows if r["reason"] == "date"]
    assert dates == [
        ("2021", 1, "Graphcore MLPerf Performance November 2021"),
        ("01", 3, "Dec 01, 2021 \\ Machine Learning, IPU-POD, Benchmarks"),
        ("2021", 3, "Dec 01, 2021 \\ Machine Learning, IPU-POD, Benchmarks"),
    ]
    assert Counter(r["reason"] for r in rows) == {"name": 22, "date": 3}
    names = Counter(r["number"] for r in rows if r["reason"] == "name")
    # 50: ResNet-50 x5, ResNet50; 16: IPU-POD16 x3, IPUPOD16; 100: A100 x3;
    # 64: IPU-POD64 x3; 128: IPU-POD128 x4; 256: IPU-POD256 x2
    assert names == {"50": 6, "16": 4, "100": 3, "64": 3, "128": 4, "256": 2}
    for r in rows:  # every offset points at the number in the page's text
        assert page.text[r["start"] : r["end"]] == r["number"]
    exported = list(csv.DictReader(io.StringIO(client.get(url, {"format": "csv"}).text)))
    assert len(exported) == 25 and list(exported[0]) == doc["columns"]
    html = html_of(client, f"/vendor/pages/{page.pk}/")
    section = html[html.index('id="numbers"') :]
    assert '<span id="numbers-in-claims">10</span>' in section
    assert '<span id="numbers-not-claims">25</span>' in section
    counts = re.findall(
        r'<tr data-reason="([\w-]+)"><td>.*?</td><td class="num count">(\d+)</td>', section
    )
    assert counts == [("name", "22"), ("date", "3")]
    assert "November <mark>2021</mark>" in section
    assert html_of(client, url).count('<tr class="number">') == 25


@pytest.mark.django_db
def test_ibm_quality_figures_are_listed_as_quality(client: Client) -> None:
    """IBM's page as written in tests/ingest/claims/parsers/written_pages.py: by reading it,
    the numbers that are no claims are AC922's 922 and V100's 100 (names), 89 machines
    (a count) and the test losses 0.1292 and 0.1293 (quality); "16 NVIDIA Tesla V100
    GPUs" is a scale claim."""
    report = vendor_page_ingest(data=IBM_EN.encode(), path_or_url="ibm-snapml.en.txt")
    rows = _json(client, f"/vendor/pages/{report.page_id}/numbers/")["rows"]
    assert [(r["number"], r["reason"]) for r in rows] == [
        ("922", "name"),
        ("100", "name"),
        ("89", "count"),
        ("0.1292", "quality"),
        ("0.1293", "quality"),
    ]
    html = html_of(client, f"/vendor/pages/{report.page_id}/")
    quality = html[html.index('id="numbers-quality"') :]
    quality = quality[: quality.index("</details>")]
    assert "(2)" in quality and "test loss of <mark>0.1292</mark>" in quality


@pytest.mark.django_db
def test_numbers_and_their_lines_are_escaped(client: Client) -> None:
    text = "Released <script>alert('x')</script> in 2021 on <b>4 servers</b>\n"
    report = vendor_page_ingest(data=text.encode(), path_or_url="escape.txt")
    for url in (f"/vendor/pages/{report.page_id}/", f"/vendor/pages/{report.page_id}/numbers/"):
        html = html_of(client, url)
        section = html[html.index('id="numbers"') :]
        assert "<script>alert" not in section and "<b>4" not in section
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; in <mark>2021</mark>" in section


# --- claims by family --------------------------------------------------------------


@pytest.mark.django_db
def test_the_claims_list_shows_families_and_one_row_per_family(client: Client) -> None:
    """IBM's Chinese page (written_pages.py) makes five claims: 快 46 倍 twice, 4 台,
    91.5 秒, 70 分钟; the two 46x are one family (1 repetition)."""
    report = vendor_page_ingest(data=IBM_ZH.encode(), path_or_url="ibm-snapml.zh.txt")
    html = html_of(client, f"/vendor/claims/?vendor_page={report.page_id}")
    cells = re.findall(r'<td class="small family">(.*?)</td>\n</tr>', html, re.S)
    assert len(cells) == 5
    assert sum("1 repetition · 1 page" in c for c in cells) == 2
    assert sum("no repetition · 1 page" in c for c in cells) == 3
    assert sum("first published:" in c for c in cells) == 1
    numbers_46 = {re.search(r'data-family="(\d+)"', c).group(1) for c in cells if "1 rep" in c}
    assert len(numbers_46) == 1
    fams = html_of(client, "/vendor/families/")
    assert f'<tr id="family-{numbers_46.pop()}" data-claims="2">' in fams
    by_family = _json(client, "/vendor/claims/", vendor_page=str(report.page_id), families="on")
    assert sorted(r["value"] for r in by_family["rows"]) == [4.0, 46.0, 70.0, 91.5]
    html = html_of(client, f"/vendor/claims/?vendor_page={report.page_id}&families=on")
    assert "One row per claim family: 4 families from 5 claims" in html
    assert len(re.findall(r'<tr id="claim-', html)) == 4


@pytest.mark.django_db
def test_the_pages_list_families_are_the_rows_of_the_claims_list_by_family(
    client: Client,
) -> None:
    for p in sorted(VENDOR.glob("*.txt")):
        vendor_page_ingest(data=None, path_or_url=str(p))
    listed = _json(client, "/vendor/")["rows"]
    assert len(listed) == len(list(VENDOR.glob("*.txt")))
    for row in listed:
        params = {"vendor_page": str(row["id"]), "hardware": "on", "families": "on"}
        rows = _json(client, "/vendor/claims/", **params)["rows"]
        assert len(rows) == row["families"] <= row["claims"], row["page"]
    html = html_of(client, "/vendor/")
    assert html.count("&amp;hardware=on&amp;families=on") == len(listed)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "queries"),
    [
        ("/vendor/pages/{page}/numbers/", 1),  # the page with its text and numbers
        # count; a page of claims with pages; links; families (pages, claims with a
        # value); a count per facet (vendor, page, round, benchmark, verdict, kind);
        # hardware figures hidden
        ("/vendor/claims/", 12),
        # the same, and the ids of the matching claims (one per family kept)
        ("/vendor/claims/?families=on", 13),
        ("/vendor/claims/?families=on&format=csv", 5),  # families (2); ids; claims; links
    ],
)
def test_query_counts(client: Client, django_assert_num_queries, url: str, queries: int) -> None:  # type: ignore[no-untyped-def]
    page = _ingest(GC_EN)
    vendor_page_ingest(data=IBM_ZH.encode(), path_or_url="ibm-snapml.zh.txt")
    with django_assert_num_queries(queries):
        assert client.get(url.format(page=page.pk)).status_code == 200

"""Vendor pages are read in bounded time (issue 21, item 2): a real page with 6,000
junk pipe lines added (45 s before) is stored with its own claims in seconds; an
80,000-row HTML table (over 5 minutes before) is cut at the reading's budget with an
error naming the stage, and nothing is stored."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.conf import settings

from benchdb.models import Claim, VendorPage
from ingest.claims import pages as vendor_pages
from ingest.claims.pages import VendorIngestError, vendor_page_ingest

VENDOR = Path(settings.VENDOR_DATA)
EN = VENDOR / "graphcore-mlperf-training-v1.1-performance-at-scale.en.txt"
pytestmark = pytest.mark.django_db


def test_a_real_page_under_6000_pipe_lines_keeps_its_claims() -> None:
    data = EN.read_bytes() + b"\n\n" + b"| a | b |\n" * 6000
    t0 = time.perf_counter()
    report = vendor_page_ingest(data=data, path_or_url="graphcore-with-pipes.txt")
    assert time.perf_counter() - t0 < 15
    assert report.created and report.claims == 8
    values = sorted(Claim.objects.filter(page_id=report.page_id).values_list("value", flat=True))
    assert values == sorted([28.3, 24, 41, 5.67, 3.79, 5.78, 5, 12])


def test_an_80000_row_html_table_is_cut_at_the_budget_and_nothing_is_stored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(vendor_pages, "READ_SECONDS", 2.0)
    rows = b"<tr><td>BERT</td><td>5.2</td><td>8x H100</td></tr>" * 80_000
    page = b"<html><body><table><tr><th>Model</th><th>Time to train</th><th>GPU</th></tr>"
    data = page + rows + b"</table></body></html>"
    t0 = time.perf_counter()
    with pytest.raises(VendorIngestError) as err:
        vendor_page_ingest(data=data, path_or_url="table.html", content_type="text/html")
    assert time.perf_counter() - t0 < 4
    assert "not read within 2 s" in str(err.value) and "cut while" in str(err.value)
    assert not VendorPage.objects.exists()
    # within the same budget, a real page is read as before
    report = vendor_page_ingest(data=EN.read_bytes(), path_or_url=EN.name)
    assert report.created and report.claims == 8

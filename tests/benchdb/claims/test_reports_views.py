"""The guideline report and families pages: CSV and JSON with their schemas' columns,
the report as a section of the vendor page, and the queries each page costs."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from benchdb.models import VendorPage
from benchdb.tables import schemas
from ingest.claims.pages import vendor_page_ingest

VENDOR = Path(settings.VENDOR_DATA)
ZH = "graphcore-mlperf-training-v1.1-results.zh.txt"
pytestmark = pytest.mark.django_db


@pytest.fixture
def page(ingested_shared: object) -> VendorPage:
    for p in sorted(VENDOR.glob("graphcore-mlperf-training-v1.1-*.txt")):
        vendor_page_ingest(data=None, path_or_url=str(p))
    return VendorPage.objects.get(file_name=ZH)


def test_the_report_as_csv_json_and_a_section_of_the_page(client: Client, page: VendorPage) -> None:
    url = f"/vendor/pages/{page.pk}/guidelines/"
    doc = json.loads(client.get(url, {"format": "json"}).content)
    assert doc["schema"] == "benchdb.guidelines/1"
    assert doc["columns"] == list(schemas.columns("benchdb.guidelines/1"))
    rows = list(csv.DictReader(io.StringIO(client.get(url, {"format": "csv"}).content.decode())))
    assert len(rows) == len(doc["rows"]) and list(rows[0]) == doc["columns"]
    html = client.get(f"/vendor/pages/{page.pk}/").content.decode()
    breaks = sum(r["status"] == "breaks" for r in doc["rows"])
    assert html.count('data-status="breaks"') == breaks
    listed = json.loads(client.get("/vendor/", {"format": "json"}).content)["rows"]
    assert {r["id"]: r["guideline_breaks"] for r in listed}[page.pk] == breaks
    assert client.get(url, {"page": "2"}).status_code == 400


@pytest.mark.parametrize(
    ("url", "queries"),
    [
        ("/vendor/pages/{page}/guidelines/", 2),  # the page with its text; its claims
        ("/vendor/families/", 2),  # pages; their claims with a value
    ],
)
def test_query_counts(
    client: Client, page: VendorPage, django_assert_num_queries, url: str, queries: int
) -> None:  # type: ignore[no-untyped-def]
    with django_assert_num_queries(queries):
        assert client.get(url.format(page=page.pk)).status_code == 200

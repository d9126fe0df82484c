"""Big tables (issue 24): the HTML shows a page of rows (benchdb/tables/paging.py), the
CSV and JSON every row, streamed when big (benchdb/tables/stream.py) with the same
bytes, escaping and schema, cached and answering conditional GETs like the pages.

On real data: ../shared/mlperf-inference (the v5.1 resnet SingleStream board; its
official_results.csv says which results it holds) and ../shared/mlperf (every round's
systems at /rounds/). The page and stream sizes are made small so that these small
boards cross them."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from benchdb.tables import paging, schemas, stream, writers

BOARD = "/inference/v5.1/resnet/SingleStream/"
ROUNDS = "/rounds/"


def _official_board() -> set[str]:
    path = Path(settings.MLPERF_INFERENCE_DATA) / "official_results.csv"
    with path.open(newline="") as f:
        return {
            r["location"]
            for r in csv.DictReader(f)
            if (r["round"], r["mlperf_model"], r["scenario"]) == ("v5.1", "resnet", "SingleStream")
        }


def _chart(html: str) -> Any:
    return json.loads(re.search(r'id="inference-chart-data"[^>]*>(.*?)</script>', html, re.S)[1])


def _body(resp: Any) -> bytes:
    return b"".join(resp.streaming_content) if resp.streaming else resp.content


@pytest.fixture
def small_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paging, "PAGE_ROWS", 3)


@pytest.fixture
def stream_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every export of more than one row streamed, in chunks of two rows."""
    monkeypatch.setattr(stream, "STREAM_MIN_ROWS", 1)
    monkeypatch.setattr(writers, "CHUNK_ROWS", 2)


@pytest.mark.django_db
def test_a_board_shows_a_page_of_rows_and_its_exports_every_row(
    client: Client, ingested_inference: Any, small_pages: None
) -> None:
    official = _official_board()
    assert len(official) == 4  # 3 on page 1, 1 on page 2
    rows = json.loads(client.get(BOARD, {"format": "json"}).content)["rows"]
    assert {r["location"] for r in rows} == official
    shown: list[str] = []
    for number, expected in ((1, 3), (2, 1)):
        html = client.get(BOARD, {"page": number}).content.decode()
        ids = re.findall(r'<tr data-id="(\d+)">', html)
        assert len(ids) == expected
        assert f"of {len(official)} (page {number} of 2)" in html
        shown += ids
    # best first across pages, as the JSON; the chart is drawn from every row: the
    # same on each page
    assert shown == [str(r["id"]) for r in rows]
    first, last = (client.get(BOARD, {"page": n}).content.decode() for n in (1, 2))
    assert _chart(first) == _chart(last) and _chart(first)["data"]
    assert 'rel="next" href="?page=2"' in first
    # past the end: the last page; not a number: a 400 naming it
    past = client.get(BOARD, {"page": 99}).content.decode()
    assert re.findall(r'<tr data-id="(\d+)">', past) == shown[3:]
    bad = client.get(BOARD, {"page": "x"})
    assert bad.status_code == 400 and b"page" in bad.content


@pytest.mark.django_db
def test_every_rounds_table_is_paged_keeping_its_sort(
    client: Client, ingested_shared: Any, small_pages: None
) -> None:
    doc = client.get(ROUNDS, {"format": "json", "sort": "accelerators"})
    rows = json.loads(doc.content)["rows"]
    assert len(rows) > 6
    pages = -(-len(rows) // 3)
    details: list[str] = []
    for number in range(1, pages + 1):
        html = client.get(ROUNDS, {"sort": "accelerators", "page": number}).content.decode()
        assert f"{len(rows)} systems, 3 a page" in html
        details += re.findall(r'<td class="sys"><a href="([^"]+)"', html)
    assert details == [r["details"] for r in rows]
    # the sort links start again at page 1 and keep the filters
    html = client.get(ROUNDS, {"page": 2, "division": "closed"}).content.decode()
    assert 'href="?division=closed&amp;sort=system"' in html


@pytest.mark.django_db
def test_a_streamed_export_has_the_bytes_schema_and_escaping_of_a_whole_one(
    client: Client, ingested_inference: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = {f: client.get(BOARD, {"format": f}) for f in ("csv", "json")}
    assert not any(r.streaming for r in whole.values())
    monkeypatch.setattr(stream, "STREAM_MIN_ROWS", 1)
    monkeypatch.setattr(writers, "CHUNK_ROWS", 2)
    for fmt, before in whole.items():
        resp = client.get(BOARD, {"format": fmt})
        assert resp.streaming and resp["Content-Type"] == before["Content-Type"]
        assert resp["Content-Disposition"] == before["Content-Disposition"]
        assert _body(resp) == before.content
    body = _body(client.get(BOARD, {"format": "csv"})).decode()
    table = list(csv.reader(io.StringIO(body)))
    assert tuple(table[0]) == schemas.columns("benchdb.inference_results/1")
    assert {dict(zip(table[0], r, strict=True))["location"] for r in table[1:]} == _official_board()
    doc = json.loads(_body(client.get(BOARD, {"format": "json"})))
    assert doc["schema"] == "benchdb.inference_results/1" and len(doc["rows"]) == 4


def test_streamed_csv_chunks_escape_formulas_across_chunk_boundaries() -> None:
    rows = [{"a": "=1+1", "b": 1.0}, {"a": "ok", "b": None}, {"a": "@SUM(A1)", "b": -2.5}]
    chunks = list(writers.csv_chunks(rows, ["a", "b"], chunk_rows=2))
    assert chunks == ["a,b\n", "'=1+1,1.0\nok,\n", "'@SUM(A1),-2.5\n"]
    parts = list(writers.json_chunks(rows[:1], ["a"], "benchdb.x/1", chunk_rows=1))
    assert "".join(parts) == '{"schema": "benchdb.x/1", "columns": ["a"], "rows": [{"a": "=1+1"}]}'


def _rows(n: int) -> Iterator[dict[str, int]]:
    for i in range(n):
        yield {"a": i}


def test_chunks_read_their_rows_lazily() -> None:
    """At most one chunk of rows is read ahead of what has been written."""
    seen: list[int] = []

    def rows() -> Iterator[dict[str, int]]:
        for r in _rows(10):
            seen.append(r["a"])
            yield r

    chunks = writers.csv_chunks(rows(), ["a"], chunk_rows=4)
    assert next(chunks) == "a\n" and seen == []
    assert next(chunks) == "0\n1\n2\n3\n" and seen == [0, 1, 2, 3]


@pytest.mark.django_db
def test_a_paged_tables_export_streams_its_queryset_with_the_same_bytes(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/vendor/claims/ (a QuerySet of claims, benchdb.tables.pages.paged_table_page):
    read whole when small, read again in chunks and streamed when big."""
    from ingest.claims.pages import vendor_page_ingest

    name = "nvidia-training-performance-table-mlperf-v3.0.txt"
    data = (Path(settings.VENDOR_DATA) / name).read_bytes()
    vendor_page_ingest(data=data, path_or_url=name)
    whole = {f: client.get("/vendor/claims/", {"format": f}) for f in ("csv", "json")}
    assert not any(r.streaming for r in whole.values())
    assert len(json.loads(whole["json"].content)["rows"]) == 12  # the page's 12 claims
    monkeypatch.setattr(stream, "STREAM_MIN_ROWS", 5)
    monkeypatch.setattr(writers, "CHUNK_ROWS", 5)
    for fmt, before in whole.items():
        resp = client.get("/vendor/claims/", {"format": fmt})
        assert resp.streaming and _body(resp) == before.content

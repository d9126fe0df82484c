"""MLPerf Storage's pages (``benchdb/mlperf/storage``), mounted from the registry: every
link from ``/storage/`` answers 200 and every table parses as CSV and JSON with the
columns of its schema; the leaderboard ranks by MiB/s; the result page shows each run's
evidence lines and the published figure; the home page lists the suite."""

from __future__ import annotations

import csv
import json
import re

import pytest
from django.test import Client

from benchdb.models import StorageResult
from benchdb.tables.schemas import SCHEMAS
from ingest.storage.service import mlperf_storage_ingest
from tests.storage_data import HAMMERSPACE, ROOT, YANRONG_COPIED, report

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored() -> None:
    mlperf_storage_ingest(location=str(ROOT))


def _crawl(c: Client, start: str) -> dict[str, str]:
    """Every page under /storage/ reachable from ``start``: path -> HTML."""
    pages, todo = {}, [start]
    while todo:
        url = todo.pop()
        if url in pages:
            continue
        r = c.get(url)
        assert r.status_code == 200, url
        pages[url] = r.content.decode()
        todo += [h for h in re.findall(r'href="(/storage/[^"?#]*)"', pages[url]) if h not in pages]
    return pages


def test_every_storage_link_answers_and_every_table_parses(stored) -> None:  # type: ignore[no-untyped-def]
    c = Client()
    pages = _crawl(c, "/storage/")
    # rounds, round, 3 leaderboards (unet3d a100 / h100), 5 results
    assert len(pages) == 1 + 1 + 2 + 5
    for url in pages:
        as_json = json.loads(c.get(url, {"format": "json"}).content)
        columns = [col.name for col in SCHEMAS[as_json["schema"]]]
        assert as_json["columns"] == columns
        rows = list(csv.DictReader(c.get(url, {"format": "csv"}).content.decode().splitlines()))
        assert len(rows) == len(as_json["rows"])
        assert all(list(r) == columns for r in rows)


def test_the_leaderboard_ranks_valid_results_by_mib_per_second_with_a_chart(stored) -> None:  # type: ignore[no-untyped-def]
    c = Client()
    rows = c.get("/storage/v1.0/unet3d/h100/", {"format": "json"}).json()["rows"]
    assert [r["location"] for r in rows][0].startswith("Closed/YanRongTech")
    values = [r["mb_per_second"] for r in rows]
    assert values == sorted(values, reverse=True) and len(values) == 2
    assert all(r["status"] == "valid" for r in rows)
    html = c.get("/storage/v1.0/unet3d/h100/").content.decode()
    data = re.search(
        r'<script id="storage-chart-data" type="application/json">(.*?)</script>', html
    )
    assert data is not None
    traces = json.loads(data.group(1))["data"]
    assert sorted(y for t in traces for y in t["y"]) == sorted(values)
    assert sorted(x for t in traces for x in t["x"]) == sorted(r["accelerators"] for r in rows)


def test_the_result_page_shows_runs_evidence_and_the_published_figure(stored) -> None:  # type: ignore[no-untyped-def]
    pk = StorageResult.objects.get(source_path=HAMMERSPACE).pk
    c = Client()
    html = c.get(f"/storage/result/{pk}/").content.decode()
    published = report(HAMMERSPACE)["overall"]["train_throughput_mean_MB_per_second"]
    assert f"published {published}" in html
    runs = c.get(f"/storage/result/{pk}/", {"format": "json"}).json()["rows"]
    assert [r["run"] for r in runs] == ["run1", "run2", "run3", "run4", "run5"]
    assert runs[0]["evidence"].startswith("run1/summary.json: 3 num_accelerators=7, ")
    assert "train_throughput_mean_samples_per_second=74.90747067089328" in runs[0]["evidence"]
    assert (
        runs[0]["samples_per_second"]
        == report(HAMMERSPACE)["runs"]["run1"]["train_throughput_samples_per_second"]
    )
    copied = StorageResult.objects.get(source_path=YANRONG_COPIED).pk
    html = c.get(f"/storage/result/{copied}/").content.decode()
    assert "published 232.10801698947762, the runs&#x27; summaries give" in html


def test_the_round_page_reads_in_two_queries_and_the_home_page_lists_it(  # type: ignore[no-untyped-def]
    stored, django_assert_num_queries
) -> None:
    c = Client()
    # results with round and submitter joined; the boards grouped
    with django_assert_num_queries(2):
        c.get("/storage/v1.0/", {"format": "json"})
    home = c.get("/").content.decode()
    assert "MLPerf Storage" in home and 'href="/storage/v1.0/"' in home
    assert c.get("/storage/v1.0/", {"q": "x"}).status_code == 400
    assert c.get("/storage/result/999999/").status_code == 404

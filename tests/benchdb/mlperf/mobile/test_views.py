"""MLPerf Mobile's pages (``benchdb/mlperf/mobile``), mounted from the registry: every
link from /mobile/ answers 200, every CSV and JSON download parses with its schema's
columns, every leaderboard has its chart; a leaderboard ranks by throughput, higher
first; a result page lists the lines read; Inference's pages leave Mobile out."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.test import Client

from benchdb.mlperf.inference.selectors import inference_rounds
from benchdb.tables.schemas import SCHEMAS
from ingest.mobile.service import mlperf_mobile_ingest
from tests.mobile_data import SD8G3, V40, V50, app_results

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored() -> None:
    mlperf_mobile_ingest(location=str(V40))
    mlperf_mobile_ingest(location=str(V50))


def _links(html: str, here: str) -> set[str]:
    """The page's links under /mobile/; a query-only link (``?format=csv``) is this page's."""
    found = {h.replace("&amp;", "&") for h in re.findall(r'href="(/mobile/[^"#]*|\?[^"#]*)"', html)}
    return {here.split("?")[0] + h if h.startswith("?") else h for h in found}


def test_every_link_from_the_rounds_page_answers_and_every_download_parses(stored) -> None:  # type: ignore[no-untyped-def]
    c = Client()
    todo, seen = ["/mobile/"], set()
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        r = c.get(url)
        assert r.status_code == 200, url
        body = r.content.decode()
        if "format=json" in url:
            data = json.loads(body)
            assert data["columns"] == [col.name for col in SCHEMAS[data["schema"]]]
        elif "format=csv" in url:
            header = next(csv.reader(io.StringIO(body)))
            assert header == [col.name for col in SCHEMAS[_schema(url)]]
        else:
            if re.fullmatch(r"/mobile/v\d\.\d/\w+/", url):  # a leaderboard: its chart
                assert 'id="mobile-chart"' in body and "data-figure" in body, url
            todo += sorted(_links(body, url) - seen)
    pages = {u for u in seen if "format=" not in u}
    assert {
        "/mobile/",
        "/mobile/v4.0/",
        "/mobile/v5.0/",
        "/mobile/v4.0/image_classification_v2/",
        "/mobile/v4.0/image_classification_offline_v2/",
        "/mobile/v5.0/stable_diffusion/",
    } <= pages
    assert sum(u.startswith("/mobile/result/") for u in pages) == 23 + 7
    assert (
        sum("format=json" in u for u in seen) == sum("format=csv" in u for u in seen) == len(pages)
    )


def _schema(url: str) -> str:
    path = url.split("?")[0]
    if path == "/mobile/":
        return "benchdb.mobile_rounds/1"
    if path.startswith("/mobile/result/"):
        return "benchdb.mobile_evidence/1"
    return "benchdb.mobile_board/1" if path.count("/") == 4 else "benchdb.mobile_results/1"


def test_a_leaderboard_ranks_higher_first_and_says_so(stored) -> None:  # type: ignore[no-untyped-def]
    c = Client()
    data = json.loads(c.get("/mobile/v4.0/image_classification_v2/?format=json").content)
    values = [r["throughput"] for r in data["rows"]]
    assert values == sorted(values, reverse=True) and len(values) == 3
    assert [r["rank"] for r in data["rows"]] == [1, 2, 3]
    assert "higher is better" in c.get("/mobile/v4.0/image_classification_v2/").content.decode()


def test_a_result_page_lists_the_lines_its_figures_come_from(stored) -> None:  # type: ignore[no-untyped-def]
    c = Client()
    rows = json.loads(c.get("/mobile/v4.0/?format=json").content)["rows"]
    row = next(r for r in rows if r["location"] == f"{SD8G3}/image_classification_v2")
    published = app_results(V40, SD8G3)["image_classification_v2"]
    assert row["published_throughput"] == published["performance_run"]["throughput"]["value"]
    page = c.get(row["url"]).content.decode()
    assert "result_90.00_percentile_latency_ns = 866771" in page
    evidence = json.loads(c.get(row["url"] + "?format=json").content)["rows"]
    detail = f"{SD8G3}/mobilenetV4/SingleStream/log_performance/mlperf_log_detail.txt"
    lines = (V40 / detail).read_text().splitlines()
    read = next(e for e in evidence if e["rule"] == "read: 90th percentile latency")
    assert (
        read["path"] == detail and '"result_90.00_percentile_latency_ns"' in lines[read["line"] - 1]
    )


def test_inference_pages_do_not_count_mobile_results(stored) -> None:  # type: ignore[no-untyped-def]
    assert all(r["results"] == 0 for r in inference_rounds() if r["round"] in ("v4.0", "v5.0"))
    home = Client().get("/").content.decode()
    assert "MLPerf Mobile" in home and 'href="/mobile/v5.0/"' in home


def test_the_selectors_read_in_a_fixed_number_of_queries(stored, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    from benchdb.mlperf.mobile import selectors as sel

    with django_assert_num_queries(1):  # rounds with their counts
        assert [r["round"] for r in sel.mobile_rounds()] == ["v4.0", "v5.0"]
    with django_assert_num_queries(2):  # the round exists; its results with round and system
        assert len(sel.round_rows("v4.0")) == 23
    with django_assert_num_queries(1):  # the board's results with round and system
        assert len(sel.board_rows("v4.0", "image_classification_v2")) == 3
    pk = sel.round_rows("v5.0")[0]["id"]
    with django_assert_num_queries(3):  # the result; its findings; its files
        sel.result_get(pk)

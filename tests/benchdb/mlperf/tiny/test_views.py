"""MLPerf Tiny's pages (``benchdb/mlperf/tiny``), mounted from the registry: every link
from /tiny/ answers 200, every CSV and JSON download parses with its schema's columns;
the round page shows the published IDs and figures; a leaderboard ranks by its metric,
lower first; a result page lists the lines read; Inference's pages leave Tiny out."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.test import Client

from benchdb.mlperf.inference.selectors import inference_rounds
from benchdb.tables.schemas import SCHEMAS
from ingest.tiny.service import mlperf_tiny_ingest
from tests.tiny_data import FOLDERS_V12, V12, V13, summary

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored() -> None:
    mlperf_tiny_ingest(location=str(V12))
    mlperf_tiny_ingest(location=str(V13))


def _links(html: str, here: str) -> set[str]:
    """The page's links under /tiny/; a query-only link (``?format=csv``) is this page's."""
    found = {h.replace("&amp;", "&") for h in re.findall(r'href="(/tiny/[^"#]*|\?[^"#]*)"', html)}
    return {here.split("?")[0] + h if h.startswith("?") else h for h in found}


def test_every_link_from_the_rounds_page_answers_and_every_download_parses(stored) -> None:  # type: ignore[no-untyped-def]
    c = Client()
    todo, seen = ["/tiny/"], set()
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
            assert header and all(header)
        else:
            if re.fullmatch(r"/tiny/v1\.\d/\w+/\w+/", url):  # a leaderboard: its chart
                assert 'id="tiny-chart"' in body and "data-figure" in body, url
            todo += sorted(_links(body, url) - seen)
    pages = {u for u in seen if "format=" not in u}
    assert {
        "/tiny/",
        "/tiny/v1.2/",
        "/tiny/v1.3/",
        "/tiny/v1.2/kws/latency/",
        "/tiny/v1.2/kws/energy/",
    } <= pages
    assert sum(u.startswith("/tiny/result/") for u in pages) == 6
    assert (
        sum("format=json" in u for u in seen) == sum("format=csv" in u for u in seen) == len(pages)
    )


def test_the_round_page_shows_published_ids_and_throughputs(stored) -> None:  # type: ignore[no-untyped-def]
    page = Client().get("/tiny/v1.2/").content.decode()
    rows = summary()
    for folder in FOLDERS_V12:
        assert f'<td class="num">{rows[folder]["Result"]}</td>' in page
    assert ">1.2-0005</a>" in page  # STMicroelectronics NUCLEO-U575ZI-Q (the workbook's A8)


def test_a_leaderboard_ranks_lower_first_and_says_so(stored) -> None:  # type: ignore[no-untyped-def]
    c = Client()
    data = json.loads(c.get("/tiny/v1.3/kws/latency/?format=json").content)
    assert [r["rank"] for r in data["rows"]] == [1]
    assert "lower is better" in c.get("/tiny/v1.2/ad/latency/").content.decode()
    assert c.get("/tiny/v1.2/ad/speed/").status_code == 404


def test_a_result_page_lists_the_lines_its_figures_come_from(stored) -> None:  # type: ignore[no-untyped-def]
    c = Client()
    rows = json.loads(c.get("/tiny/v1.2/?format=json").content)["rows"]
    kws = next(r for r in rows if r["location"].endswith("NUCLEO_U575ZI_Q/kws"))
    page = c.get(kws["url"]).content.decode()
    assert "Median throughput is 34.416 inf./sec." in page
    evidence = json.loads(c.get(kws["url"] + "?format=json").content)
    assert ("read: median throughput", 27) in {(e["rule"], e["line"]) for e in evidence["rows"]}


def test_inference_pages_do_not_count_tiny_results(stored) -> None:  # type: ignore[no-untyped-def]
    assert all(r["round"] not in ("v1.2", "v1.3") or r["results"] == 0 for r in inference_rounds())
    home = Client().get("/").content.decode()
    assert "MLPerf Tiny" in home and 'href="/tiny/v1.3/"' in home


def test_the_selectors_read_in_a_fixed_number_of_queries(stored, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    from benchdb.mlperf.tiny import selectors as sel

    with django_assert_num_queries(1):  # rounds with their counts
        assert [r["round"] for r in sel.tiny_rounds()] == ["v1.2", "v1.3"]
    with django_assert_num_queries(2):  # the round exists; its results with round and system
        assert len(sel.round_rows("v1.2")) == 3
    with django_assert_num_queries(1):  # the board's results with round and system
        assert len(sel.board_rows("v1.2", "ad", "energy")) == 1
    pk = sel.round_rows("v1.3")[0]["id"]
    with django_assert_num_queries(3):  # the result; its findings; its files
        sel.result_get(pk)

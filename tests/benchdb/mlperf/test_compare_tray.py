"""The compare tray (issue 13): results picked on one page travel in the URL (``ids``),
every row of a leaderboard or search can join them, the first picked is the baseline, and
a difference within run-to-run variation is said to be one; on ../shared/mlperf."""

from __future__ import annotations

import json
import re
from urllib.parse import unquote

import pytest

from benchdb.models import Result

pytestmark = pytest.mark.django_db


def _result(system: str) -> Result:
    return Result.objects.get(
        round__version="v1.1", system__folder=system, benchmark_folder="resnet"
    )


def test_the_result_page_opens_the_leaderboard_with_itself_in_the_tray(client, ingested_shared):
    dgx = _result("dgxa100_ngc21.09_mxnet")
    html = client.get(dgx.get_absolute_url()).content.decode()
    assert f'href="/leaderboard/v1.1/resnet/?ids={dgx.pk}"' in html


def test_leaderboard_rows_join_the_tray(client, ingested_shared, django_assert_num_queries):
    dgx, pod16 = _result("dgxa100_ngc21.09_mxnet"), _result("ipu-pod16-TF1")
    # round, benchmark, filter choices, results; the tray's results (5)
    with django_assert_num_queries(5):
        html = client.get("/leaderboard/v1.1/resnet/", {"ids": str(dgx.pk)}).content.decode()
    row = re.search(rf'<tr data-id="{dgx.pk}">.*?</tr>', html, re.S).group(0)
    assert " checked>" in row and "a.add" not in row and 'class="add' not in row
    pod_row = re.search(rf'<tr data-id="{pod16.pk}">.*?</tr>', html, re.S).group(0)
    link = re.search(r'class="add small" href="([^"]+)"', pod_row).group(1)
    assert unquote(link.replace("&amp;", "&")) == f"/compare/?ids={dgx.pk},{pod16.pk}"
    tray = html.split('id="tray"', 1)[1].split("</div>", 1)[0]
    assert "dgxa100_ngc21.09_mxnet" in tray and "(baseline)" in tray


def test_the_first_picked_is_the_baseline_and_each_can_be_removed(client, ingested_shared):
    dgx, pod16 = _result("dgxa100_ngc21.09_mxnet"), _result("ipu-pod16-TF1")
    resp = client.get("/compare/", {"ids": f"{dgx.pk},{pod16.pk}", "format": "json"})
    rows = json.loads(resp.content)["rows"]
    assert [r["baseline"] for r in rows] == [True, False]
    assert f"{rows[1]['speedup']:.3f}" == "1.029"
    assert "within run-to-run variation" not in rows[1]["flags"]  # 2.9% > 2.5% (imaging)
    html = client.get("/compare/", {"ids": f"{dgx.pk},{pod16.pk}"}).content.decode()
    assert f"?ids={pod16.pk}" in html and f"?ids={dgx.pk}" in html  # each one's "remove"


def test_an_unknown_id_in_the_tray_is_left_out(client, ingested_shared):
    dgx = _result("dgxa100_ngc21.09_mxnet")
    html = client.get("/leaderboard/v1.1/resnet/", {"ids": f"{dgx.pk},999999"}).content.decode()
    assert html.count('class="chip"><a href') == 1
    assert client.get("/leaderboard/v1.1/resnet/", {"ids": "1;drop"}).status_code == 400


# --- one compare experience in every suite (issue 23) ----------------------------------


def _rows(html: str) -> dict[str, str]:
    return dict(re.findall(r'<tr data-id="(\d+)">(.*?)</tr>', html, re.S))


def test_inference_leaderboard_rows_have_tick_boxes_and_no_self_compare(client, ingested_inference):
    url = "/inference/v5.1/llama3.1-8b/Offline/"
    rows = json.loads(client.get(url, {"format": "json"}).content)["rows"]
    assert len(rows) == 4  # official_results.csv: v5.1 llama3.1-8b Offline
    html = client.get(url).content.decode()
    assert 'action="/inference/compare/"' in html and 'data-tray="inference"' in html
    boxes = re.findall(r'<input type="checkbox" name="ids" value="(\d+)" form="compare-form"', html)
    assert sorted(map(int, boxes)) == sorted(r["id"] for r in rows)
    base = str(rows[0]["id"])
    html = client.get(url, {"ids": base}).content.decode()
    tr = _rows(html)
    assert " checked>" in tr[base] and "/inference/compare/?ids=" not in tr[base]
    for other in (str(r["id"]) for r in rows[1:]):
        assert f'href="/inference/compare/?ids={base},{other}"' in tr[other]


def test_hpc_board_rows_have_tick_boxes_opening_the_compare_page(client, db):
    from pathlib import Path

    from ingest.hpc.service import mlperf_hpc_ingest

    mlperf_hpc_ingest(location=str(Path(__file__).resolve().parents[2] / "data" / "hpc"))
    url = "/hpc/v2.0/deepcam/weak/"
    rows = json.loads(client.get(url, {"format": "json"}).content)["rows"]
    html = client.get(url).content.decode()
    assert 'action="/compare/"' in html and 'data-tray="hpc"' in html
    boxes = re.findall(r'<input type="checkbox" name="ids" value="(\d+)" form="compare-form"', html)
    assert sorted(map(int, boxes)) == sorted(r["id"] for r in rows) and rows


def test_every_page_carries_the_tray_bar_and_its_script_without_inline_js(client, db):
    html = client.get("/").content.decode()
    bar = re.search(r'<div id="compare-tray"[^>]*>', html).group(0)
    assert 'data-compare-inference="/inference/compare/"' in bar
    assert 'data-compare-training="/compare/"' in bar and "hidden" in bar
    assert re.search(r'<script src="/static/compare_tray[.\w]*\.js" defer></script>', html)
    assert not re.search(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", html)


def test_inference_round_table_and_history_have_tick_boxes(client, ingested_inference):
    rows = json.loads(client.get("/inference/v5.1/", {"format": "json"}).content)["rows"]
    html = client.get("/inference/v5.1/").content.decode()
    assert 'action="/inference/compare/"' in html
    boxes = re.findall(r'<input type="checkbox" name="ids" value="(\d+)" form="compare-form"', html)
    # closed datacenter by default: one box per result the pivot shows
    shown = [r for r in rows if r["division"] == "closed" and "datacenter" in r["category"]]
    assert len(boxes) == len(shown) > 10 and set(map(int, boxes)) <= {r["id"] for r in rows}
    page = "/inference/history/"
    html = client.get(page, {"model": "resnet", "scenario": "Offline"}).content.decode()
    hist = json.loads(
        client.get(page, {"model": "resnet", "scenario": "Offline", "format": "json"}).content
    )["rows"]
    boxes = re.findall(r'<input type="checkbox" name="ids" value="(\d+)" form="compare-form"', html)
    assert sorted(map(int, boxes)) == sorted(r["id"] for r in hist) and hist

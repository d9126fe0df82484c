"""MLPerf HPC pages on the real subset tests/data/hpc: the rounds list, leaderboards per
round, benchmark and scaling type (HTML, CSV, JSON, queries), result permalinks.
Expected figures are the summarizer's (see tests/ingest/hpc/test_service.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchdb.models import Result
from ingest.hpc.service import mlperf_hpc_ingest

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[3] / "data" / "hpc"


@pytest.fixture
def hpc(db: None) -> None:
    mlperf_hpc_ingest(location=str(DATA))


def test_rounds_list_every_board(client, hpc, django_assert_num_queries) -> None:
    with django_assert_num_queries(1):  # one grouped count of results
        resp = client.get("/hpc/", {"format": "json"})
    rows = json.loads(resp.content)["rows"]
    boards = [(r["round"], r["benchmark"], r["scaling_type"], r["tag"]) for r in rows]
    assert boards == [
        ("v0.7", "cosmoflow", "strong", ""),
        ("v1.0", "cosmoflow", "weak", "hpc-1.0.0-rc2"),
        ("v1.0", "deepcam", "strong", "hpc-1.0.0-rc2"),
        ("v2.0", "deepcam", "weak", "2.1.0"),
        ("v2.0", "oc20", "weak", "2.1.0"),
        ("v3.0", "oc20", "strong", "hpc-3.0.0"),
        ("v3.0", "openfold", "strong", "hpc-3.0.0"),
    ]
    html = client.get("/hpc/").content.decode()
    assert 'href="/hpc/v2.0/oc20/weak/"' in html


def test_a_weak_board_carries_the_weak_figures(client, hpc, django_assert_num_queries) -> None:
    # round, benchmark, results (3)
    with django_assert_num_queries(3):
        resp = client.get("/hpc/v2.0/oc20/weak/", {"format": "json"})
    body = json.loads(resp.content)
    assert body["schema"] == "benchdb.hpc_board/1"
    (row,) = body["rows"]
    assert (row["models_count"], row["instance_scale"]) == (7, 512)
    assert row["time_to_train_all_minutes"] == pytest.approx(95.48501666666667, rel=1e-12)
    assert row["url"] == "/results/hpc/v2.0/HelmholtzAI/horeka_gpu_n64_pytorch1.13/weak/oc20/"
    csv_text = client.get("/hpc/v2.0/oc20/weak/", {"format": "csv"}).content.decode()
    assert csv_text.splitlines()[0].endswith(",throughput_models_per_minute,url")
    html = client.get("/hpc/v2.0/oc20/weak/").content.decode()
    assert "Time to train all (min)" in html and "95.49" in html


def test_a_strong_board_and_its_result_page(client, hpc) -> None:
    rows = json.loads(client.get("/hpc/v3.0/oc20/strong/", {"format": "json"}).content)["rows"]
    (row,) = rows
    assert row["score_minutes"] == pytest.approx(21.04266690051021, rel=1e-12)
    page = client.get(row["url"])
    assert page.status_code == 200
    html = page.content.decode()
    assert 'href="/hpc/v3.0/oc20/strong/"' in html
    assert '<span title="21.0427 min">21.04</span> min' in html
    assert (
        json.loads(client.get("/hpc/v3.0/oc20/strong/?division=open&format=json").content)["rows"]
        == []
    )


def test_weak_result_page_and_run_log(client, hpc) -> None:
    result = Result.objects.get(
        source_path="HelmholtzAI/results/horeka_gpu_n64_pytorch1.13/weak/oc20"
    )
    url = result.get_absolute_url()
    assert url == "/results/hpc/v2.0/HelmholtzAI/horeka_gpu_n64_pytorch1.13/weak/oc20/"
    html = client.get(url).content.decode()
    assert "7 models × 512 accelerators each" in html
    assert 'id="olympic"' not in html  # weak scaling has no olympic mean
    run = result.runs.get(file_name="result_7.txt")
    log = client.get(run.get_absolute_url())
    assert log.status_code == 200
    path = DATA / "hpc_results_v2.0" / result.source_path / "result_7.txt"
    assert b"".join(log.streaming_content) == path.read_bytes()
    assert client.get(f"/results/{result.pk}/").status_code == 301


@pytest.mark.parametrize(
    "url", ["/hpc/v9.9/oc20/strong/", "/hpc/v3.0/oc20/medium/", "/hpc/v3.0/resnet/strong/"]
)
def test_unknown_boards_are_404(client, hpc, url: str) -> None:
    assert client.get(url).status_code == 404


def test_hpc_results_stay_out_of_the_training_pages(client, hpc) -> None:
    rows = json.loads(client.get("/results/", {"format": "json"}).content)["rows"]
    assert not [r for r in rows if r["benchmark"] in ("cosmoflow", "deepcam", "oc20", "openfold")]
    board = client.get("/leaderboard/v1.0/deepcam/", {"format": "json"})
    assert board.status_code == 404 or json.loads(board.content)["rows"] == []

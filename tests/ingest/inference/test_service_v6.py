"""The MLPerf Inference v6.0 subset (tests/data/inference-v6/, real files) ingested into
PostgreSQL: values and verdicts as the round's checker gives them, a second ingest
writing nothing, and the pages, export and compare that show the new models."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from benchdb.models import InferenceComplianceTest, InferenceFinding, InferenceResult
from ingest.inference.service import mlperf_inference_ingest

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[2] / "data" / "inference-v6"
SUBSET = DATA / "inference_results_v6.0"
COMMIT = "ab33b2144a9f822f69d24f78569f993d195ee7e5"
BASE = "closed/NVIDIA/results/B300-SXM-270GBx8_TRT"
PAGE = "/inference/v6.0/results/closed/NVIDIA/B300-SXM-270GBx8_TRT"
B200 = "closed/NVIDIA/results/B200-SXM-180GBx8_TRT"
GB200 = "closed/NVIDIA/results/GB200-NVL72_GB200-186GB_aarch64x4_TRT"


@pytest.fixture
def ingested() -> None:
    mlperf_inference_ingest(location=str(SUBSET), round_version="v6.0", commit=COMMIT, workers=1)


def test_the_subset_is_stored_as_the_checker_judges_it(ingested: None) -> None:
    """Ten results; the values of mlcommons/inference's checker at 6d0cf9dc."""
    got = {
        r.source_path.removeprefix(BASE + "/"): (r.status, r.value, r.unit)
        for r in InferenceResult.objects.filter(round__version="v6.0")
    }
    assert got == {
        "gpt-oss-120b/Offline": ("valid", 103961.0, "Tokens/s"),
        "gpt-oss-120b/Server": ("valid", 100328.0, "Tokens/s"),
        "wan-2.2-t2v-a14b/Offline": ("valid", 0.0585234, "Samples/s"),
        "wan-2.2-t2v-a14b/SingleStream": ("valid", 23.778912625, "Latency (s)"),
        "deepseek-r1/Server": ("invalid", 42721.4, "Tokens/s"),
        "llama3.1-8b/Offline": ("valid", 165432.0, "Tokens/s"),
        "llama3.1-8b/Server": ("valid", 141565.0, "Tokens/s"),
        f"{B200}/whisper/Offline": ("valid", 47433.9, "Samples/s"),
        f"{GB200}/qwen3-vl-235b-a22b/Offline": ("valid", 43.7662, "Samples/s"),
        f"{GB200}/qwen3-vl-235b-a22b/Server": ("valid", 38.0313, "Queries/s"),
    }
    finding = InferenceFinding.objects.get(result__source_path=f"{BASE}/deepseek-r1/Server")
    assert finding.rule == "required_scenarios" and finding.invalidates
    tests = InferenceComplianceTest.objects.filter(
        result__source_path=f"{BASE}/gpt-oss-120b/Server"
    )
    assert sorted(t.test for t in tests) == ["TEST07", "TEST09"]


def test_a_second_ingest_writes_nothing(ingested: None) -> None:
    report = mlperf_inference_ingest(
        location=str(SUBSET), round_version="v6.0", commit=COMMIT, workers=1
    )
    assert (report.added, report.changed, report.unchanged) == (0, 0, 10)


def test_the_result_page_shows_the_rules_of_the_round(ingested: None, client: Client) -> None:
    """The rejected deepseek-r1 result names its rule; gpt-oss-120b shows TEST07/TEST09
    and its value's detail-log line (not the compliance run's)."""
    page = client.get(f"{PAGE}/deepseek-r1/Server/").content.decode()
    assert "required_scenarios" in page and "missing [&#x27;offline&#x27;]" in page
    page = client.get(f"{PAGE}/gpt-oss-120b/Server/").content.decode()
    assert "TEST07" in page and "TEST09" in page
    assert "/performance/run_1/mlperf_log_detail.txt:" in page
    wan = client.get(f"{PAGE}/wan-2.2-t2v-a14b/SingleStream/").content.decode()
    assert "Latency (s)" in wan and "/TEST04/performance/run_1/mlperf_log_detail.txt:" not in wan


def test_round_table_leaderboard_and_export_know_the_new_models(
    ingested: None, client: Client
) -> None:
    """The v6.0 round table has the new models' columns; the gpt-oss-120b Server
    leaderboard ranks the result; the CSV export holds the v6.0 rows."""
    table = client.get("/inference/v6.0/?format=csv").content.decode()
    assert "gpt-oss-120b" in table and "wan-2.2-t2v-a14b" in table
    board = client.get("/inference/v6.0/gpt-oss-120b/Server/?format=csv").content.decode()
    assert "100328" in board
    out = io.StringIO()
    call_command("export", "results", "--suite", "inference", "--round", "v6.0", stdout=out)
    rows = out.getvalue().splitlines()
    assert len(rows) == 11 and any("wan-2.2-t2v-a14b" in r and "Latency (s)" in r for r in rows)


def test_compare_takes_two_v6_results(ingested: None, client: Client) -> None:
    """Compare refuses to rank across scenarios (gpt-oss-120b Offline vs Server)."""
    ids = InferenceResult.objects.filter(benchmark="gpt-oss-120b").values_list("id", flat=True)
    page = client.get(f"/inference/compare/?ids={','.join(map(str, ids))}")
    assert page.status_code == 200
    assert "gpt-oss-120b" in page.content.decode()


def test_the_folder_of_rounds_ingests_v61_endpoints_results(client: Client) -> None:
    """tests/data/inference-v6 as ``make demo`` ingests it: the v6.1 endpoints results
    are unverifiable (manifests/v6.1.omitted.tsv names what the copy lacks) with the
    values of NVIDIA's v6.1 checker log; the page shows the summary line read and says
    the checker compares no accuracy target for them."""
    mlperf_inference_ingest(location=str(DATA), workers=1)
    got = {
        r.scenario: (r.status, r.value, r.unit, r.accuracy_valid)
        for r in InferenceResult.objects.filter(round__version="v6.1", benchmark="wan-2.2-t2v-a14b")
    }
    assert got == {
        "Offline": ("unverifiable", 0.062188662827408765, "Samples/s", None),
        "SingleStream": ("unverifiable", 17.97718330692361, "Latency (s)", None),
    }
    page = client.get(
        "/inference/v6.1/results/closed/NVIDIA/B300-SXM-270GBx8_TRT/wan-2.2-t2v-a14b/SingleStream/"
    ).content.decode()
    assert "/performance/result_summary.json:" in page and "accuracy_not_compared" in page
    assert "measurements.json" in page

"""Inference claims of the real pages of ../shared/vendor, checked against the real
MLPerf Inference results of ../shared/mlperf-inference (issue 11, claims; issue 14,
suites as data). The shared data holds rounds v0.5, v0.7, v1.1, v2.1, v3.0, v4.1 and
v5.1 (README.md "Not available here": no v4.0, v5.0), so the pages' claims are
unverifiable with the result they need named; claims written here about v5.1 get a
checked verdict on the real v5.1 results."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from benchdb.models import Claim, VendorPage
from ingest.claims import pages as vendor

VENDOR = Path(settings.VENDOR_DATA)
pytestmark = pytest.mark.django_db

AZURE = "azure-nd-gb200-mlperf-inference-v4.1-unverified.en.txt"
BLACKWELL = "nvidia-blackwell-mlperf-inference-v5.0-itonline.en.txt"
H200 = "nvidia-h200-mlperf-inference-v4.0-records.en.txt"


@pytest.fixture
def inference_pages(ingested_shared: object, ingested_inference: object) -> dict[str, VendorPage]:
    out = {}
    for name in (AZURE, BLACKWELL, H200):
        report = vendor.vendor_page_ingest(data=None, path_or_url=str(VENDOR / name))
        out[name] = VendorPage.objects.get(pk=report.page_id)
    return out


def table(page: VendorPage) -> list[tuple[str, float | None, str, str, str, str]]:
    return [
        (c.kind, c.value, c.verdict, c.round, c.extracted["benchmark_key"], c.system)
        for c in page.claims.order_by("position")
    ]


def test_azure_865000_tokens_is_unverifiable_naming_the_v41_result(
    inference_pages: dict[str, VendorPage],
) -> None:
    """The v4.1 subset holds no GB200 result (only H200, Orin, TPU v6, UntetherAI,
    CTuning: README.md "Contents"), and an unverified submission is never published."""
    claims = list(inference_pages[AZURE].claims.filter(kind="throughput").order_by("position"))
    assert [(c.value, c.unit, c.round, c.verdict) for c in claims] == [
        (865000.0, "token/s", "v4.1", "unverifiable"),
        (865000.0, "token/s", "v4.1", "unverifiable"),
    ]
    for c in claims:
        assert "unverified-result" in c.flags
        assert c.details["missing"]["round"] == "v4.1"
        assert c.details["missing"]["model"] == "llama2-70b"
        assert c.details["missing"]["system"] in ("GB200", "ND GB200 v6")
        assert not c.links.exists()
    # 19 results of v4.1 here: README.md's v4.1 line lists them (all valid).
    assert "benchdb holds 19 inference results of v4.1" in claims[0].details["reason"]
    others = inference_pages[AZURE].claims.exclude(kind__in=("throughput", "scale"))
    assert {c.verdict for c in others} == {"not-mlperf"}  # 2.5x theoretical, TFLOPS, TB/s...
    # "on the 18 ND GB200 v6 virtual machines of one NVL72 rack": machines name no result
    (vms,) = inference_pages[AZURE].claims.filter(kind="scale")
    assert (vms.value, vms.unit, vms.verdict) == (18.0, "node", "unverifiable")


def test_blackwell_claims(inference_pages: dict[str, VendorPage]) -> None:
    page = inference_pages[BLACKWELL]
    assert table(page) == [
        # "connecting 72 Nvidia Blackwell GPUs": a scale (a name between count and noun)
        ("scale", 72.0, "unverifiable", "v5.0", "llama3.1-405b", "GB200 NVL72"),
        ("multiplier", 30.0, "unverifiable", "v5.0", "llama3.1-405b", "GB200 NVL72"),
        ("multiplier", 3.0, "unverifiable", "v5.0", "llama3.1-405b", "GB200 NVL72"),
        # "... a 9x larger Nvidia NVLink interconnect domain" is its own sentence now (a
        # full stop ends it): its subject is the GB200 NVL72 named before it (72 GPUs
        # against the H200 NVL8's 8), not the H200 it is compared with.
        ("multiplier", 9.0, "not-mlperf", "v5.0", "llama3.1-405b", "GB200 NVL72"),
        ("multiplier", 5.0, "consistent", "v5.0", "llama2-70b", ""),
        ("multiplier", 4.4, "consistent", "v5.0", "llama2-70b", ""),
    ]
    _, x30, per_gpu, _, tpot, ttft = page.claims.order_by("position")
    assert x30.compared_system == "H200 NVL8" and x30.qualifier == "up to"
    assert x30.details["missing"] == {
        "round": "v5.0",
        "system": "GB200 NVL72",
        "model": "llama3.1-405b",
        "scenario": "any (not named)",
    }
    assert x30.details["missing_compared"]["system"] == "H200 NVL8"
    assert "per-accelerator-normalization" in per_gpu.flags
    # TPOT p99 bounds of llama2-70b: Server 200 ms, Interactive 40 ms -> 5x; TTFT
    # 2000 ms / 450 ms = 4.444x, which "4,4x" (decimal comma) rounds to.
    assert tpot.recomputed_value == pytest.approx(5.0)
    assert ttft.recomputed_value == pytest.approx(2000 / 450)


def test_h200_nearly_tripled_is_unverifiable_naming_v40(
    inference_pages: dict[str, VendorPage],
) -> None:
    # "adds two new workloads": a count of benchmarks (a round's count: unverifiable)
    workloads, gptj, heading = inference_pages[H200].claims.order_by("position")
    assert (workloads.kind, workloads.value, workloads.unit, workloads.verdict) == (
        "count",
        2.0,
        "benchmark",
        "unverifiable",
    )
    assert (gptj.value, gptj.qualifier, gptj.system, gptj.verdict) == (
        3.0,
        "nearly",
        "H100",
        "unverifiable",
    )
    assert gptj.details["missing"]["round"] == "v4.0"
    assert gptj.details["missing"]["model"] == "gptj"
    assert "benchdb holds no inference results of v4.0" in gptj.details["reason"]
    assert heading.verdict == "unverifiable" and heading.sentence.startswith("TensorRT-LLM")


# Values from ../shared/mlperf-inference/official_results.csv (v5.1 row of
# GB200-NVL72_GB200-186GB_aarch64x72_TRT, llama3.1-405b, Offline: 14774.3 Tokens/s, 72
# accelerators in its systems JSON): 14774.3 / 72 = 205.199 tokens/s per GPU.
PAGE = (
    "In MLPerf Inference v5.1, the NVIDIA GB200 NVL72 delivered 14,774 tokens/s on Llama"
    " 3.1 405B in the Offline scenario.\n"
    "In MLPerf Inference v5.1, the NVIDIA GB200 NVL72 delivered 15,500 tokens/s on Llama"
    " 3.1 405B in the Offline scenario.\n"
    "In MLPerf Inference v5.1, the NVIDIA GB200 NVL72 delivered 205 tokens/s per GPU on"
    " Llama 3.1 405B in the Offline scenario.\n"
)


def test_v51_claims_get_checked_verdicts_and_links(
    ingested_shared: object, ingested_inference: object
) -> None:
    report = vendor.vendor_page_ingest(data=PAGE.encode(), path_or_url="gb200.txt")
    claims = list(Claim.objects.filter(page_id=report.page_id).order_by("position"))
    assert [(c.value, c.verdict) for c in claims] == [
        (14774.0, "consistent"),
        (15500.0, "inconsistent"),
        (205.0, "consistent"),
    ]
    for c in claims:
        (lk,) = c.links.select_related("inference_result__system")
        assert lk.result_id is None and lk.role == "subject"
        r = lk.inference_result
        assert (r.system.folder, r.benchmark, r.scenario, r.value) == (
            "GB200-NVL72_GB200-186GB_aarch64x72_TRT",
            "llama3.1-405b",
            "Offline",
            14774.3,
        )
    assert claims[0].recomputed_value == pytest.approx(14774.3)
    assert claims[1].recomputed_value == pytest.approx(14774.3)
    assert claims[2].recomputed_value == pytest.approx(14774.3 / 72)
    assert "per-accelerator-normalization" in claims[2].flags
    assert "derived" in claims[2].details
    # printed digits: 205 -> +/- 0.5 / 205; 14,774 -> the 0.05% floor
    assert claims[2].details["tolerance"] == pytest.approx(0.5 / 205)
    assert claims[0].details["tolerance"] == pytest.approx(0.0005)
    again = vendor.claims_reverify(page_id=report.page_id)
    assert again == {"consistent": 2, "inconsistent": 1}


def test_an_inference_link_downloads_with_its_scenario_value_and_unit(
    client: Client, ingested_shared: object, ingested_inference: object
) -> None:
    report = vendor.vendor_page_ingest(data=PAGE.encode(), path_or_url="gb200.txt")
    claim = Claim.objects.filter(page_id=report.page_id).order_by("position")[0]
    text = client.get(f"/vendor/claims/{claim.pk}/", {"format": "csv"}).content.decode()
    (row,) = csv.DictReader(io.StringIO(text))
    assert (row["suite"], row["benchmark"], row["scenario"]) == (
        "inference",
        "llama3.1-405b",
        "Offline",
    )
    assert (float(row["value"]), row["unit"]) == (14774.3, "Tokens/s")
    assert row["score_minutes"] == "" and row["link"].startswith("/inference/v5.1/results/")

"""Claims about MLPerf Storage, Tiny and Mobile results resolved against the stored
results of the real subsets under tests/data (registry ``claim_checks``, facts from
``ingest.claims.suite_facts``, frames from ``benchdb.claims.other_suites``).

Each sentence is written in the phrasing of a real page other than the harness's
YanRong page (inference/13), cited at the test; its figures are the stored results' own
(``mlperf_storage_report.json``, Tiny's ``summary.csv``, Mobile's app results), so that
the verdict is decided by the data, never by the phrasing."""

from __future__ import annotations

from typing import Any

import pytest

from benchdb.claims import resolve
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import text as claim_text
from ingest.mobile.service import mlperf_mobile_ingest
from ingest.storage.service import mlperf_storage_ingest
from ingest.tiny.service import mlperf_tiny_ingest
from tests.mobile_data import V40
from tests.storage_data import ROOT
from tests.tiny_data import V12

pytestmark = pytest.mark.django_db


def _check(text: str, title: str = "", vendor: str = "") -> list[tuple[Any, Any, Any]]:
    page = resolve.PageContext(title=title, text=text, published=None, vendor=vendor, url="")
    return claim_facts.check_claims(claim_text.extract_claims(text), page)


@pytest.fixture
def storage() -> None:
    mlperf_storage_ingest(location=str(ROOT))


def test_storage_accelerators_supported_is_the_simulated_count_of_a_result(storage: None) -> None:
    """Phrasing of Nutanix's MLPerf Storage notes (n0derunner.com, "Running the ML-Perf
    Storage benchmark on Nutanix files": "enough storage bandwidth to drive 65
    datacenter class ML processors (called "accelerators" in MLPerf language)"). DDN's
    18-client AI400X2T ran 3D U-Net with 72 simulated A100s (its report)."""
    [(_, f, v)] = _check(
        "In MLPerf Storage v1.0, DDN supplied enough bandwidth to drive 72 simulated"
        " A100 GPUs on 3D U-Net."
    )
    assert (f.suite, f.round, f.benchmark_key, f.scenario, f.submitter) == (
        "storage",
        "v1.0",
        "unet3d",
        "A100",
        "DDN",
    )
    assert (f.kind, v.verdict, v.recomputed_value) == ("scale", "consistent", 72.0)
    [(_, _, other)] = _check(
        "In MLPerf Storage v1.0, DDN supplied enough bandwidth to drive 80 simulated"
        " A100 GPUs on 3D U-Net."
    )
    assert other.verdict == "unverifiable"  # a count not stored is never called wrong


def test_storage_gb_per_second_holds_only_when_both_byte_readings_agree(storage: None) -> None:
    """Phrasing of the same notes ("25GB/s delivered across 5 compute nodes"). DDN's
    3D U-Net A100 result: 99,711.8 MiB/s = 104.56 GB/s = 97.37 GiB/s. "GB/s" is read both
    ways: a figure only one reading supports is ambiguous, naming the unit."""
    text = "In MLPerf Storage v1.0, DDN delivered {} on 3D U-Net with simulated A100s."
    [(_, f, v)] = _check(text.format("more than 95 GB/s"))
    assert (f.kind, f.unit, v.verdict) == ("throughput", "GB/s", "consistent")
    [(_, _, v)] = _check(text.format("104.6 GB/s"))
    assert (v.verdict, v.details["open_slot"]) == ("ambiguous", "unit")
    [(_, _, v)] = _check(text.format("130 GB/s"))
    assert v.verdict == "inconsistent"


def test_storage_samples_per_second_and_the_hpc_name_cosmoflow(storage: None) -> None:
    """Phrasing of blocksandfiles.com (2024-09-26, "MLPerf AI benchmark tests how
    storage systems keep GPUs busy": workloads "3D Unet, Cosmoflow, and ResNet50").
    DDN's 3D U-Net A100 result: 713.2 samples/s; CosmoFlow on a Storage page is the
    Storage workload, not MLPerf HPC's benchmark."""
    [(_, f, v)] = _check(
        "In the MLPerf Storage benchmark, DDN's AI400X2T processed 713 samples per second"
        " on 3D U-Net with A100s.",
        title="MLPerf Storage v1.0 results",
    )
    assert (f.suite, f.unit, v.verdict) == ("storage", "sample/s", "consistent")
    [(_, f, v)] = _check(
        "In MLPerf Storage v1.0, DDN delivered 3,000 samples per second on Cosmoflow."
    )
    assert (f.suite, f.benchmark_key, v.verdict) == ("storage", "cosmoflow", "unverifiable")


@pytest.fixture
def tiny() -> None:
    mlperf_tiny_ingest(location=str(V12))


def test_tiny_latency_in_ms_per_model(tiny: None) -> None:
    """Phrasing of MLCommons' Tiny page (mlcommons.org "MLPerf Tiny": "Three key
    metrics – accuracy, latency and energy"; tasks "keyword spotting, visual wake
    words, image classification, and anomaly detection"). STMicroelectronics'
    NUCLEO-U575ZI-Q: keyword spotting 29.056 ms (summary.csv of v1.2)."""
    [(_, f, v)] = _check(
        "In MLPerf Tiny v1.2, STMicroelectronics ran keyword spotting with a latency of 29.1 ms."
    )
    assert (f.suite, f.round, f.benchmark_key, v.verdict) == ("tiny", "v1.2", "kws", "consistent")
    [(_, f, v)] = _check(
        "In MLPerf Tiny v1.2, STMicroelectronics ran keyword spotting with a latency of 25 ms."
    )
    assert v.verdict == "inconsistent"


@pytest.fixture
def mobile() -> None:
    mlperf_mobile_ingest(location=str(V40))


def test_mobile_throughput_per_task_every_variant_a_reading(mobile: None) -> None:
    """Phrasing of MLCommons' Mobile results page (tasks "Image Classification,
    Object Detection, ..."; throughput in queries per second). Qualcomm's
    Snapdragon 8 Gen 3 (SD8G3, v4.0 app results): super resolution 161.924 queries/s;
    image classification v2 1,153.707 queries/s SingleStream and 1,637.919 samples/s
    Offline: "image classification" names both modes (and Qualcomm two phones), so a
    figure of one reading is no verdict."""
    [(_, f, v)] = _check(
        "In MLPerf Mobile v4.0, Qualcomm reached 161.9 queries per second in super resolution."
    )
    assert (f.suite, f.round, f.benchmark_key, f.submitter) == (
        "mobile",
        "v4.0",
        "super_resolution",
        "Qualcomm_Innovation_Center",
    )
    assert v.verdict == "consistent"
    [(_, _, v)] = _check(
        "In MLPerf Mobile v4.0, Qualcomm reached 1,154 queries per second in image classification."
    )
    # Qualcomm has two systems in the subset (SD8G3, SDX_Elite): system and mode open
    assert v.verdict == "unverifiable"
    assert {"scenario", "system"} <= set(v.details["open_slots"])
    assert [r["holds"] for r in v.details["readings_list"]].count(True) == 1


def test_a_count_of_a_rounds_benchmarks_against_the_rules_list(storage: None) -> None:
    """blocksandfiles.com, 2024-09-26 ("MLPerf AI benchmark tests how storage systems
    keep GPUs busy"), its own sentence: the page's date gives Storage v1.0, whose
    rules list three workloads (unet3d, resnet50, cosmoflow). Four would be wrong."""
    from datetime import date

    sentence = (
        "The MLPerf Storage benchmark combines {} workloads and two types of GPU to present"
        " a six-way view of storage systems' ability to keep GPUs busy with machine"
        " learning work."
    )

    def check(text: str, published: date | None) -> Any:
        page = resolve.PageContext(title="", text=text, published=published, vendor="", url="")
        return claim_facts.check_claims(claim_text.extract_claims(text), page)

    [(_, f, v)] = check(sentence.format("three"), date(2024, 9, 26))
    assert (f.suite, f.round, f.kind, f.unit) == ("storage", "v1.0", "count", "benchmark")
    assert (v.verdict, v.recomputed_value) == ("consistent", 3.0)
    [(_, _, v)] = check(sentence.format("four"), date(2024, 9, 26))
    assert v.verdict == "inconsistent"


def test_a_gain_between_two_storage_submitters_named_around_its_figure(storage: None) -> None:
    """Phrasing quoted in issue 28 from vendors' Storage releases ("3x the bandwidth
    of…"). The subset's 3D U-Net A100 results: DDN 99,711.8 MiB/s, Hammerspace's one
    client 10,346.7 MiB/s: 9.64x (the same ratio in samples/s: each figure against its
    own unit only)."""
    text = "In MLPerf Storage v1.0, DDN delivered {} the bandwidth of Hammerspace on 3D U-Net"
    [(_, f, v)] = _check(text.format("9.6x") + " with simulated A100s.")
    assert (f.submitter, f.compared_system, f.scenario) == ("DDN", "Hammerspace", "A100")
    assert v.verdict == "consistent"
    assert {lk.role for lk in v.links} == {"subject", "compared"}
    [(_, _, v)] = _check(text.format("3x") + " with simulated A100s.")
    assert v.verdict == "inconsistent"
    # the accelerator not named: the H100 board holds no Hammerspace result here, but
    # the A100 one does: one reading, the same verdict
    [(_, f, _)] = _check(text.format("9.6x") + ".")
    assert f.scenario == ""


def test_tiny_energy_per_inference_in_microjoules(tiny: None) -> None:
    """MLCommons' Tiny page ("Three key metrics – accuracy, latency and energy"; "MLPerf
    Tiny also enables optional energy benchmarking"): energy per inference in µJ.
    STMicroelectronics' NUCLEO-U575ZI-Q, keyword spotting: 656.163 µJ/inference
    (summary.csv of v1.2)."""
    text = "In MLPerf Tiny v1.2, STMicroelectronics used {} per inference on keyword spotting."
    [(_, f, v)] = _check(text.format("656 µJ"))
    assert (f.suite, f.kind, f.unit, f.benchmark_key) == ("tiny", "energy", "uJ", "kws")
    assert (v.verdict, v.recomputed_value) == ("consistent", 656.163)
    [(_, _, v)] = _check(text.format("600 uJ"))
    assert v.verdict == "inconsistent"


def test_tiny_and_mobile_links_lead_to_their_suites_result_pages(
    tiny: None, mobile: None, client: Any
) -> None:
    """A Tiny or Mobile result is an ``InferenceResult`` row, but its page is its own
    suite's (``/tiny/result/<pk>/``), not an Inference permalink (which 404s for a Tiny
    round). The same sentences as above."""
    from ingest.claims import check

    for text, suite in (
        (
            "In MLPerf Tiny v1.2, STMicroelectronics ran keyword spotting with a latency of"
            " 29.1 ms.",
            "tiny",
        ),
        (
            "In MLPerf Mobile v4.0, Qualcomm reached 161.9 queries per second in super resolution.",
            "mobile",
        ),
    ):
        [claim] = check.claims_check(text=text)["claims"]
        [r] = claim["results"]
        assert (r["suite"], r["url"]) == (suite, f"/{suite}/result/{r['id']}/")
        assert client.get(r["url"]).status_code == 200

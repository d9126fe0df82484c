"""An "up to" over the scenarios a gain's text leaves open (benchdb.claims.verdicts_values,
issue 20): a gain naming neither benchmark nor scenario is read over every benchmark;
when its scenarios' best cases disagree, the best case over all of them decides a
``consistent`` verdict, and a scenario's own best that fits a figure the overall best
exceeds decides nothing (never ``inconsistent``).

Values are the official results, written here by hand (closed division; Samples/s for
Offline, the 90th-percentile latency in ms for SingleStream):

* NVIDIA Orin_TRT (Jetson AGX Orin, inference_results_v2.0) against AGX_Xavier_TRT
  (Jetson AGX Xavier, inference_results_v1.1): bert-99 Offline 476.344 / 96.7259 =
  4.925x, SingleStream 29.940592 / 7.639163 ms = 3.919x; resnet Offline 6138.84 /
  2039.11 = 3.011x, SingleStream 1.8341 / 0.694858 ms = 2.640x.
* NVIDIA DGX-H100_H100-SXM-80GBx1_TRT (inference_results_v3.0) against
  H100-SXM-80GBx1_TRT (v2.1), as ../shared/vendor-dev/inference/TRUTH.json cites them:
  retinanet Offline 1478.64 / 960.237 = +54.0%, Server 1437.71 / 847.95 = +69.6%;
  dlrm-99 Offline 745480 / 695298 = +7.2%, Server 735300.58 / 315069.06 = +133.4%.
"""

from __future__ import annotations

from benchdb.claims.compared_rounds import PREVIOUS_TAG
from benchdb.claims.facts import ClaimFacts, ResultFacts
from benchdb.claims.verdicts import verify_claim
from benchdb.vocabulary import CONSISTENT, INCONSISTENT, UNVERIFIABLE


def _r(
    pk: int, rnd: str, folder: str, accel: str, bench: str, scen: str, value: float
) -> ResultFacts:
    latency = scen == "SingleStream"
    return ResultFacts(
        pk=pk,
        round=rnd,
        submitter="NVIDIA",
        system_folder=folder,
        system_name="",
        division="closed",
        availability="available",
        accelerators=1,
        accelerator_model=accel,
        framework="TensorRT",
        benchmark=bench,
        score_minutes=None,
        suite="inference",
        metric="latency" if latency else "throughput",
        unit="Latency (ms)" if latency else ("Queries/s" if scen == "Server" else "Samples/s"),
        higher_is_better=not latency,
        value=value,
        model=bench.removesuffix("-99"),
        scenario=scen,
        category="edge",
    )


ORIN, XAVIER = "NVIDIA Jetson AGX Orin", "NVIDIA Jetson AGX Xavier"
JETSON = [
    _r(1, "v2.0", "Orin_TRT", ORIN, "bert-99", "Offline", 476.344),
    _r(2, "v1.1", "AGX_Xavier_TRT", XAVIER, "bert-99", "Offline", 96.7259),
    _r(3, "v2.0", "Orin_TRT", ORIN, "bert-99", "SingleStream", 7.639163),
    _r(4, "v1.1", "AGX_Xavier_TRT", XAVIER, "bert-99", "SingleStream", 29.940592),
    _r(5, "v2.0", "Orin_TRT", ORIN, "resnet", "Offline", 6138.84),
    _r(6, "v1.1", "AGX_Xavier_TRT", XAVIER, "resnet", "Offline", 2039.11),
    _r(7, "v2.0", "Orin_TRT", ORIN, "resnet", "SingleStream", 0.694858),
    _r(8, "v1.1", "AGX_Xavier_TRT", XAVIER, "resnet", "SingleStream", 1.8341),
]


def _orin(value: float) -> ClaimFacts:
    """databloom.com (NVIDIA's developer blog, MLPerf Inference v2.0): "Jetson AGX Orin
    delivers up to 5x more than Jetson AGX Xavier" (no benchmark, no scenario; Xavier
    read in the round before, where it has results)."""
    return ClaimFacts(
        kind="multiplier",
        value=value,
        unit="x",
        qualifier="up to",
        suite="inference",
        round="v2.0",
        system="Jetson AGX Orin",
        compared_system="Jetson AGX Xavier",
        submitter="NVIDIA",
        baseline="v1.1",
        division="closed",
        context=(PREVIOUS_TAG,),
    )


def test_up_to_is_the_best_case_over_every_open_scenario() -> None:
    v = verify_claim(_orin(5.0), JETSON)
    assert v.verdict == CONSISTENT, v.details.get("reason")
    assert abs((v.recomputed_value or 0) - 476.344 / 96.7259) < 1e-9
    assert {lk.result for lk in v.links} == {1, 2}
    assert "best case over every benchmark and scenario" in v.details["up_to"]
    # the scenarios' other best cases are shown, not hidden
    assert any("SingleStream" in o for o in v.details["other_readings"])


def test_a_figure_the_best_case_exceeds_is_no_verdict_either_way() -> None:
    """Orin's SingleStream best (3.92x) fits "up to 4x", but its Offline best is 4.92x:
    the scenario is not named, so "up to 4x" is not called inconsistent (one scenario
    fits) nor consistent (the best case exceeds it)."""
    v = verify_claim(_orin(4.0), JETSON)
    assert v.verdict == UNVERIFIABLE
    assert "Offline" in v.details["reason"] and "SingleStream" in v.details["reason"]


def test_a_figure_above_every_best_case_is_inconsistent() -> None:
    assert verify_claim(_orin(8.0), JETSON).verdict == INCONSISTENT


H100, H100_V21 = "DGX-H100_H100-SXM-80GBx1_TRT", "H100-SXM-80GBx1_TRT"
H100_RESULTS = [
    _r(11, "v3.0", H100, "NVIDIA H100-SXM-80GB", "retinanet", "Offline", 1478.64),
    _r(12, "v2.1", H100_V21, "NVIDIA H100-SXM-80GB", "retinanet", "Offline", 960.237),
    _r(13, "v3.0", H100, "NVIDIA H100-SXM-80GB", "retinanet", "Server", 1437.71),
    _r(14, "v2.1", H100_V21, "NVIDIA H100-SXM-80GB", "retinanet", "Server", 847.95),
    _r(15, "v3.0", H100, "NVIDIA H100-SXM-80GB", "dlrm-99", "Offline", 745480.0),
    _r(16, "v2.1", H100_V21, "NVIDIA H100-SXM-80GB", "dlrm-99", "Offline", 695298.0),
    _r(17, "v3.0", H100, "NVIDIA H100-SXM-80GB", "dlrm-99", "Server", 735300.58),
    _r(18, "v2.1", H100_V21, "NVIDIA H100-SXM-80GB", "dlrm-99", "Server", 315069.06),
]


def test_another_outlets_up_to_whose_scenario_the_best_case_exceeds_stays_open() -> None:
    """techpowerup.com/306921 (a press write-up, not NVIDIA's page): "NVIDIA has used
    software optimization to improve the already staggering performance of its latest
    H100 GPU by up to 54%": Offline's best is 54% (NVIDIA's chart), Server's 133%."""
    c = ClaimFacts(
        kind="percentage",
        value=54.0,
        unit="%",
        qualifier="up to",
        suite="inference",
        round="v3.0",
        system="H100",
        submitter="NVIDIA",
        baseline="previous-round",
    )
    v = verify_claim(c, H100_RESULTS)
    assert v.verdict == UNVERIFIABLE, v.details
    assert "up_to" not in v.details

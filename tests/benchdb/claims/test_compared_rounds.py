"""A gain over another product that ran nothing in the claim's round (issue 20;
``benchdb.claims.compared_rounds``, ``verdicts_values.compared_earlier``), and a
figure's own "Nx more than Y" as a comparison (``resolve.sides``). The class was shown
by NVIDIA's MLPerf Inference v2.0 post (../shared/vendor-dev/inference/05: "Jetson AGX
Orin delivers up to 5x more than Jetson AGX Xavier"; Xavier ran no v2.0 closed
benchmark). The results below are real: v2.0 closed edge NVIDIA Orin_TRT (1x NVIDIA
Orin) BERT-99 Offline 476.344 samples/s, SingleStream 7.63916 ms, 3D-UNet-99 Offline
0.460958 (KiTS19); v1.1 closed edge NVIDIA AGX_Xavier_TRT (1x NVIDIA AGX Xavier)
BERT-99 Offline 96.7259, SingleStream 29.9406 ms, 3D-UNet-99 Offline 2.67153 (BraTS);
open Krai odroid-armnn (its systems JSON says "NVIDIA Xavier") in v2.0."""

from __future__ import annotations

from benchdb.claims.compared_rounds import PREVIOUS_TAG, comparable, previous_round_of
from benchdb.claims.facts import ClaimFacts, ResultFacts
from benchdb.claims.resolve import sides
from benchdb.claims.subjects import family_matches
from benchdb.claims.verdicts_values import compared_earlier, verify


def _r(
    pk: int, rnd: str, folder: str, accel: str, bench: str, scen: str, value: float
) -> ResultFacts:
    lat = scen in ("SingleStream", "MultiStream")
    return ResultFacts(
        pk=pk,
        round=rnd,
        submitter="Krai" if "odroid" in folder else "NVIDIA",
        system_folder=folder,
        system_name=folder,
        division="open" if "odroid" in folder else "closed",
        availability="available",
        accelerators=1,
        accelerator_model=accel,
        framework="",
        benchmark=bench,
        score_minutes=None,
        suite="inference",
        metric=scen,
        unit="Latency (ms)" if lat else "Samples/s",
        higher_is_better=not lat,
        value=value,
        model=bench.rsplit("-", 1)[0] if bench[-2:] in ("99", ".9") else bench,
        scenario=scen,
        category="edge",
    )


_RESULTS = [
    _r(1, "v2.0", "Orin_TRT", "NVIDIA Orin", "bert-99", "Offline", 476.344),
    _r(2, "v2.0", "Orin_TRT", "NVIDIA Orin", "bert-99", "SingleStream", 7.63916),
    _r(3, "v2.0", "Orin_TRT", "NVIDIA Orin", "3d-unet-99", "Offline", 0.460958),
    _r(4, "v1.1", "AGX_Xavier_TRT", "NVIDIA AGX Xavier", "bert-99", "Offline", 96.7259),
    _r(5, "v1.1", "AGX_Xavier_TRT", "NVIDIA AGX Xavier", "bert-99", "SingleStream", 29.9406),
    _r(6, "v1.1", "AGX_Xavier_TRT", "NVIDIA AGX Xavier", "3d-unet-99", "Offline", 2.67153),
    _r(7, "v2.0", "odroid-armnn-v21.11-opencl", "NVIDIA Xavier", "resnet", "Offline", 40.1),
]


def _claim(**kw: object) -> ClaimFacts:
    base: dict[str, object] = {
        "kind": "multiplier",
        "value": 5.0,
        "unit": "x",
        "qualifier": "up to",
        "suite": "inference",
        "round": "v2.0",
        "system": "Jetson AGX Orin",
        "compared_system": "Jetson AGX Xavier",
        "mlperf_context": True,
    }
    base.update(kw)
    return ClaimFacts(**base)  # type: ignore[arg-type]


def test_a_figures_more_than_a_product_is_a_comparison() -> None:
    """Public text (GitHub markdown on inference hardware, found with find_string "x more
    than the A100"): "3.35 TB/s of memory bandwidth on 80GB of VRAM — 1.6x more than the
    A100." The figure's "more than" opens the compared side; "more than 3x" stays a
    bound, and the "than" after it compares."""
    s = "3.35 TB/s of memory bandwidth on 80GB of VRAM — 1.6x more than the A100."
    assert sides(s, 1.6, gain=True) == (
        "3.35 TB/s of memory bandwidth on 80GB of VRAM — 1.6x more ",
        " the A100.",
    )
    s = "989.5 teraFLOPs of fp16 tensor compute — more than 3x better than the A100."
    assert sides(s, 3.0, gain=True) == (
        "989.5 teraFLOPs of fp16 tensor compute — more than 3x better ",
        " the A100.",
    )


def test_a_product_absent_from_the_round_is_read_from_the_round_before() -> None:
    """Xavier's only v2.0 result is an open one (Krai): closed before open, so its
    results are v1.1's; each product's best per benchmark and scenario is a reading,
    "up to" the largest per scenario: Offline 4.92x holds, SingleStream 3.92x does not;
    the scenario is not named, so "up to" is the best case over both (Offline's:
    consistent, the other shown); 3D-UNet changed dataset in v2.0 and is not compared."""
    c = compared_earlier(_claim(), _RESULTS)
    assert (c.baseline, c.division, PREVIOUS_TAG in c.context) == ("v1.1", "closed", True)
    v = verify(_claim(), _RESULTS, None)
    assert v.verdict == "consistent"
    got = {
        (r["slots"]["scenario"], r["slots"]["benchmark"], round(r["value"], 2), r["holds"])
        for r in v.details["readings_list"]
    }
    assert got == {("Offline", "bert-99", 4.92, True)}
    assert [o.split(" best ")[0] for o in v.details["other_readings"]] == [
        "any submitter, SingleStream 3.92x:"
    ]
    # the scenario named: one reading, consistent, linked to both products' results
    v = verify(_claim(scenario="Offline"), _RESULTS, None)
    assert v.verdict == "consistent"
    assert sorted(lk.result for lk in v.links) == [1, 4]


def test_no_earlier_round_when_the_product_ran_in_the_claims_round() -> None:
    # in the open division, Krai's "NVIDIA Xavier" is in v2.0: the same-round reading
    c = _claim(division="open")
    assert compared_earlier(c, _RESULTS) == c
    # a round before which MLPerf has none, and a round benchdb knows nothing of
    assert previous_round_of("v0.5", _RESULTS, lambda r: True) == ""
    assert previous_round_of("v9.9", _RESULTS, lambda r: True) == ""
    xavier = [r for r in _RESULTS if family_matches("Jetson AGX Xavier", r, None)]
    assert {r.pk for r in xavier} == {4, 5, 6, 7}


def test_a_benchmark_whose_dataset_changed_is_not_compared_across_the_change() -> None:
    assert not comparable("3d-unet", "v2.0", "v1.1")
    assert comparable("3d-unet", "v2.1", "v2.0")
    assert comparable("3d-unet", "v1.1", "v0.7")
    assert comparable("bert", "v2.0", "v1.1")

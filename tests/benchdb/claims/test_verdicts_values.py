"""Inference gains (``benchdb.claims.verdicts_values``) against real MLPerf Inference v4.1
results, written here by hand from the round's repository (mlcommons/inference_results_v4.1,
closed, llama2-70b-99 Offline, Tokens/s as the checker reports them): Dell
XE9680_H200_SXM_141GBx8_TRT 32124.3, Dell XE9680_H100_SXM_80GBx8_TRT 24086.7.
32124.3 / 24086.7 = 1.3337: 33.4% more."""

from __future__ import annotations

import pytest

from benchdb.claims.facts import ClaimFacts, ResultFacts, gain_tolerance
from benchdb.claims.verdicts import verify_claim


def _r(pk: int, folder: str, acc: str, value: float) -> ResultFacts:
    return ResultFacts(
        pk=pk,
        round="v4.1",
        submitter="Dell",
        system_folder=folder,
        system_name="",
        division="closed",
        availability="available",
        accelerators=8,
        accelerator_model=acc,
        framework="TensorRT",
        benchmark="llama2-70b-99",
        score_minutes=None,
        suite="inference",
        metric="throughput",
        unit="Tokens/s",
        higher_is_better=True,
        value=value,
        model="llama2-70b",
        scenario="Offline",
        category="datacenter",
    )


RESULTS = [
    _r(1, "XE9680_H200_SXM_141GBx8_TRT", "NVIDIA H200-SXM-141GB", 32124.3),
    _r(2, "XE9680_H100_SXM_80GBx8_TRT", "NVIDIA H100-SXM-80GB", 24086.7),
]


def _claim(value: float, kind: str = "percentage") -> ClaimFacts:
    """ "Dell's XE9680 with eight H200s delivers N% more Llama 2 70B Offline throughput
    than with eight H100s" (a sentence in Dell's words; the class came from a
    third-party table of NVIDIA's results)."""
    return ClaimFacts(
        kind=kind,
        value=value,
        unit="%" if kind == "percentage" else "x",
        suite="inference",
        round="v4.1",
        benchmark_key="llama2-70b",
        scenario="Offline",
        system="H200",
        compared_system="H100",
        submitter="Dell",
        division="closed",
    )


def test_a_percentage_digits_bound_its_points_not_the_ratio() -> None:
    # "40%" is 35-45%: 5 points over the ratio 1.40; "33%" is 32.5-33.5%: 0.5 / 1.33
    assert gain_tolerance("percentage", 40.0) == pytest.approx(0.05 / 1.40)
    assert gain_tolerance("percentage", 33.0) == pytest.approx(0.005 / 1.33)
    # a multiplier's digits bound the ratio itself: "1.3x" is 1.25-1.35x
    assert gain_tolerance("multiplier", 1.3) == pytest.approx(0.05 / 1.3)
    # in training too, when wider than the run-to-run spread: "3x" is 2.5-3.5x, so
    # "nearly 3x" reads 10.94 / 3.92 = 2.79x (v3.0 best against v3.1's Eos, GPT-3)
    assert gain_tolerance("multiplier", 3.0, "gpt3", "training") == pytest.approx(0.5 / 3)
    assert gain_tolerance("multiplier", 2.8, "gpt3", "training") == 0.05
    # a bound is no rounded figure: "over 4x" is not 3.68x
    assert gain_tolerance("multiplier", 4.0, "gpt3", "training", "more than") == 0.05


def test_40_percent_is_not_the_33_percent_the_results_give() -> None:
    """33.4% lies outside 35-45%: before, 12.5% of the ratio 1.40 (1.225-1.575) was
    allowed and "40% more" was called consistent."""
    v = verify_claim(_claim(40.0), RESULTS)
    assert v.verdict == "inconsistent"


def test_33_percent_is_what_the_results_give() -> None:
    v = verify_claim(_claim(33.0), RESULTS)
    assert v.verdict == "consistent"
    assert v.recomputed_value == pytest.approx(33.37, abs=0.01)


def test_a_multiplier_keeps_its_printed_digits() -> None:
    # "1.3x" is 1.25-1.35x and 1.334 lies inside; "1.4x" (1.35-1.45x) does not hold
    assert verify_claim(_claim(1.3, "multiplier"), RESULTS).verdict == "consistent"
    assert verify_claim(_claim(1.4, "multiplier"), RESULTS).verdict == "inconsistent"

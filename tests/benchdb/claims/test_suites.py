"""Suites as data (issue 14): tolerances per suite, and the rounding of printed digits."""

from __future__ import annotations

import pytest

from benchdb.claims.facts import SUITES, printed_tolerance, tolerance


@pytest.mark.parametrize(
    ("claimed", "expected"),
    [(865000.0, 500 / 865000), (4.4, 0.05 / 4.4), (30.0, 5 / 30), (205.0, 0.5 / 205)],
)
def test_printed_tolerance_is_half_the_last_digit(claimed: float, expected: float) -> None:
    assert printed_tolerance(claimed) == pytest.approx(expected)


def test_training_tolerances_are_unchanged() -> None:
    """MLCommons' +/- 2.5% for imaging, 5% for the others."""
    assert (tolerance("resnet"), tolerance("bert"), tolerance("bert", "")) == (0.025, 0.05, 0.05)


def test_inference_tolerance_has_a_floor() -> None:
    assert tolerance("llama2-70b", "inference", 14774.0) == 0.0005
    assert set(SUITES) == {
        "training",
        "hpc",
        "inference",
        "automotive",
        "tiny",
        "storage",
        "mobile",
    }


def test_storage_tiny_and_mobile_figures_take_their_printed_digits() -> None:
    """A published Storage figure is the mean of its five runs, a Tiny or Mobile one
    the official tool's single figure: a claim may differ only by its rounding."""
    assert tolerance("unet3d", "storage", 104.6) == 0.0005  # the floor: 0.05 / 104.6 is less
    assert tolerance("kws", "tiny", 29.1) == pytest.approx(0.05 / 29.1)
    assert SUITES["mobile"].checks == "throughput"


def test_hpc_times_take_the_non_imaging_training_tolerance() -> None:
    """No HPC figure is published: MLCommons' 5% for non-imaging benchmarks."""
    assert (tolerance("cosmoflow", "hpc"), tolerance("deepcam", "hpc")) == (0.05, 0.05)

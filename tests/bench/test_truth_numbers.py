"""bench/claims_truth.py reads the numbers of a truth's printed value: a unit written
right after the number ("2.3X", "5x", "141GB") leaves the number as printed; a
suffix counts only as a whole word ("5 minutes" is no 5 million). Values as printed
in ../shared/vendor-dev/*/TRUTH.json."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from claims_truth import truth_numbers  # noqa: E402


@pytest.mark.parametrize(
    ("value", "numbers"),
    [
        ("2.3X", {2.3}),
        ("up to 5x", {5.0}),
        ("141GB / 4.8TB/s", {141.0, 4.8}),
        ("~420k", {420.0, 420000.0}),
        ("37 minutes 21 seconds", {37.0, 21.0, 37 + 21 / 60}),
        ("3 倍 / 2.8 倍 / 93%", {3.0, 2.8, 93.0}),
        ("两项", {2.0}),
    ],
)
def test_truth_numbers(value: str, numbers: set[float]) -> None:
    assert truth_numbers(value) == numbers


@pytest.mark.parametrize(
    ("folder", "official", "named"),
    [
        # training/13's official text abbreviates the folders to their first two parts
        ("abci_512xV100_tensorflow_closed", "best CosmoFlow Fujitsu abci_512xV100 34.339", True),
        ("dgxa100_n128_ngc21.09_mxnet", "NVIDIA dgxa100_n128 CosmoFlow 7.115 min", True),
        ("dgxa100_n128_ngc21.09_mxnet", "NVIDIA dgxa100_n1280 CosmoFlow", False),
        ("dgxa100_n12_ngc21.09_mxnet", "NVIDIA dgxa100_n128 CosmoFlow", False),
        ("carina_ngpu2496", "carina_ngpu2496 27.3347", True),
        ("tpu-v4-6912-TF", "Google tpu-v4-4096-TF", False),
        # inference/13's official text elides YanRong's Storage folders: "F8000X_..."
        (
            "F8000X_8x7000GiB_nvme_2xHDR200_Nclient3",
            "Closed/YanRongTech/results/F8000X_.../{unet3d-h100}, F9000X_...",
            True,
        ),
        ("F8000Y_8x7000GiB_nvme", "Closed/YanRongTech/results/F8000X_...", False),
    ],
)
def test_a_folder_is_named_whole_or_by_its_first_two_parts(
    folder: str, official: str, named: bool
) -> None:
    from claims_truth import evidence_named

    assert evidence_named([(folder, "", None)], official) is named

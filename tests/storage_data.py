"""The MLPerf Storage v1.0 subset of ``tests/data/storage-v1.0`` (README: origin) and
its published reports, read with ``json`` alone (the expected values)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent / "data" / "storage-v1.0" / "storage_results_v1.0"
HAMMERSPACE = "Closed/Hammerspace/results/Hammerspace_unet3d_1Client_A100"
DDN = "Closed/DDN/results/AI400X2T_24x14TiB_nvme_8xNDR200_18clients/unet3d-a100/runs"
MICRON = "Closed/Micron/results/Micron_6500_Gen4_High_Capacity_NVMe/unet3d/a100"
_YR = "Closed/YanRongTech/results/F8000X_8x7000GiB_nvme_2xHDR200"
#: Its published report is the 3-client 12-accelerator one (byte for byte).
YANRONG_COPIED = f"{_YR}_Nclient1/unet3d-h100/unet3d_1acc"
YANRONG_12 = f"{_YR}_Nclient3/unet3d-h100/unet3d_12acc"
#: Every result folder of the subset.
FOLDERS = (DDN, HAMMERSPACE, MICRON, YANRONG_COPIED, YANRONG_12)
#: Results whose report was written from their own summaries.
OWN_REPORT = (DDN, HAMMERSPACE, MICRON, YANRONG_12)


def report(folder: str) -> dict[str, Any]:
    """The published ``mlperf_storage_report.json`` of ``folder``."""
    return json.loads((ROOT / folder / "mlperf_storage_report.json").read_text())  # type: ignore[no-any-return]


def summaries(folder: str) -> dict[str, dict[str, Any]]:
    """Every ``summary.json`` below ``folder``, by path relative to it."""
    return {
        str(p.relative_to(ROOT / folder)): json.loads(p.read_text())
        for p in sorted((ROOT / folder).rglob("summary.json"))
    }

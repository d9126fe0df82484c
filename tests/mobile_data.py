"""The MLPerf Mobile subsets of ``tests/data/mobile-v4.0`` and ``mobile-v5.0`` (README:
origin) and the figures they publish, read with ``json`` and ``re`` alone (the expected
values)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
V40 = DATA / "mobile-v4.0" / "mobile_results_v4.0"
V50 = DATA / "mobile-v5.0" / "mobile_results_v5.0"
QC = "closed/Qualcomm_Innovation_Center"
SD8G3 = f"{QC}/results/SD8G3"
SDX = f"{QC}/results/SDX_Elite"
EXYNOS = "closed/Samsung/results/exynos2400"


def app_results(root: Path, system: str) -> dict[str, dict[str, Any]]:
    """``result.json``'s ``results`` by ``benchmark_id``."""
    doc = json.loads((root / system / "result.json").read_text())
    return {r["benchmark_id"]: r for r in doc["results"]}


def text_results(path: Path) -> dict[str, dict[str, str]]:
    """A ``*_results.txt``: task -> {key: value} under each ``#####<task>#####`` line."""
    out: dict[str, dict[str, str]] = {}
    task = ""
    for line in path.read_text().splitlines():
        if m := re.match(r"#+(\w+)#+", line.strip()):
            task = m.group(1)
            out[task] = {}
        elif m := re.search(r"Accuracy: (.+)$", line):
            out[task]["Accuracy"] = m.group(1).strip()
        elif ":" in line:
            k, v = line.split(":", 1)
            out[task][k.strip()] = v.strip()
    return out

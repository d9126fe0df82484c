"""The MLPerf Automotive v0.5 subset of ``tests/data/automotive-v0.5`` (README: origin)
and its published table, read with ``json`` alone (the expected values)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent / "data" / "automotive-v0.5" / "automotive_results_v0.5"
NV = "closed/NVIDIA/results/Thor-X_TRT/bevformer"
GO = "open/GATEOverflow/results/intel_spr_32c-reference-cpu-onnxruntime-default_config"
#: The result folders of the subset, one per model and scenario.
FOLDERS = (
    f"{NV}/ConstantStream",
    f"{NV}/SingleStream",
    f"{GO}/deeplabv3plus/singlestream",
    f"{GO}/ssd/singlestream",
)


def published() -> dict[str, dict[str, Any]]:
    """``summary_results.json`` rows by ``Location`` (all 9 of the round)."""
    rows = json.loads((ROOT / "summary_results.json").read_text())
    return {r["Location"]: r for r in rows}


def read_folders() -> dict[str, Any]:
    """Every result folder of the subset as ``ingest.automotive.parsers.read_folder``
    reads it, by path."""
    from ingest.automotive.parsers.tree import read_folder
    from ingest.inference.parsers.tree import Tree, find_results

    tree = Tree(ROOT)
    try:
        return {f.path: read_folder(tree, f) for f in find_results(tree)}
    finally:
        tree.close()

"""A results repository's listing read as its result folders (ingest.parsers.round_tree):
paths as ``git ls-tree -r --name-only`` prints them for mlcommons/training_results_v1.0
and hpc_results_v1.0 (HEAD of each)."""

from __future__ import annotations

from ingest.parsers.round_tree import read_listing, read_loadgen_listing


def test_training_and_hpc_layouts() -> None:
    got = read_listing(
        [
            "Google/results/tpu-v4-256-TF/dlrm/result_0.txt",
            "Google/results/tpu-v4-256-TF/dlrm/result_1.txt",
            "Google/systems/tpu-v4-256-TF.json",
            "Google/benchmarks/dlrm/implementations/README.md",
            "ANL/results/.DS_Store",
            "ANL/results/thetagpu_n128_pt1.7.1/strong/oc20/result_1.txt",
            ".github/results/x/y/result_0.txt",
            "README.md",
        ]
    )
    assert got.result_paths == (
        "ANL/results/thetagpu_n128_pt1.7.1/strong/oc20",
        "Google/results/tpu-v4-256-TF/dlrm",
    )
    assert got.submitters == ("ANL", "Google")


def test_loadgen_layout_lists_scenario_folders_of_every_division() -> None:
    """Paths as ``git ls-tree -r --name-only HEAD`` prints them for
    mlcommons/inference_results_v3.0 (1948f9b) and automotive_results_v0.5 (6117c36):
    a scenario folder is listed by any file below it; files above it, other top
    folders and a link (a file where a folder would be) are not result folders."""
    got = read_loadgen_listing(
        [
            "closed/Neuchips/results/RecAccel-N3000-32GB-PCIEx1/dlrm-99/Offline/accuracy/accuracy.txt",
            "closed/Neuchips/results/RecAccel-N3000-32GB-PCIEx1/dlrm-99/Offline/performance/run_1/mlperf_log_summary.txt",
            "closed/Neuchips/results/RecAccel-N3000-32GB-PCIEx1/dlrm-99/README.md",
            "closed/Neuchips/systems/RecAccel-N3000-32GB-PCIEx1.json",
            "open/Qualcomm/results/q4_std_edge-qaic-v1.8.3.7-aic100/bert-99/SingleStream/mlperf_log_summary.txt",
            "network/Qualcomm/results/x/bert-99/Server",
            "closed/NVIDIA/results/Thor-X_TRT/bevformer/ConstantStream/performance/run_1/mlperf_log_summary.txt",
            "tools/submission/results/a/b/c/d.txt",
            "README.md",
        ]
    )
    assert got.result_paths == (
        "closed/NVIDIA/results/Thor-X_TRT/bevformer/ConstantStream",
        "closed/Neuchips/results/RecAccel-N3000-32GB-PCIEx1/dlrm-99/Offline",
        "open/Qualcomm/results/q4_std_edge-qaic-v1.8.3.7-aic100/bert-99/SingleStream",
    )
    assert got.submitters == ("NVIDIA", "Neuchips", "Qualcomm")

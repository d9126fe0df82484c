"""A results repository's listing read as its result folders (ingest.parsers.round_tree):
paths as ``git ls-tree -r --name-only`` prints them for mlcommons/training_results_v1.0
and hpc_results_v1.0 (HEAD of each)."""

from __future__ import annotations

from ingest.parsers.round_tree import read_listing


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

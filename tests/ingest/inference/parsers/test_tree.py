"""Finding and reading MLPerf Inference result folders, safely."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ingest.inference.parsers.tree import Tree, find_results, load_result, read_omitted_manifest
from tests.inference_data import INFERENCE_DATA as DATA

ROUNDS = {"v0.5": 19, "v0.7": 32, "v1.1": 8, "v2.1": 18, "v3.0": 20, "v4.1": 23, "v5.1": 70}


def test_it_finds_every_result_folder_of_every_era() -> None:
    """The README's counts: 190 results, lower-case scenario folders included."""
    for version, count in ROUNDS.items():
        found = find_results(Tree(DATA / f"inference_results_{version}"))
        assert len(found) == count, version
    gate = find_results(Tree(DATA / "inference_results_v5.1"))
    assert any(f.scenario == "singlestream" and f.submitter == "GATEOverflow" for f in gate)


def test_it_loads_runs_power_compliance_and_measurements() -> None:
    tree = Tree(DATA / "inference_results_v1.1")
    (folder,) = [f for f in find_results(tree) if f.submitter == "Krai" and f.scenario == "offline"]
    result = load_result(tree, folder)
    assert [r.path.rsplit("/", 1)[-1] for r in result.runs] == ["run_1"]
    assert result.runs[0].spl is not None and len(result.runs[0].spl.samples) > 100
    assert result.power_dir and result.power_timezones == (-3600, -3600)
    assert result.compliance is not None
    assert {t.name for t in result.compliance} >= {"TEST01", "TEST05"}
    assert result.system_json["system_type"] == "edge"
    assert result.problems == ()


def test_v05_compliance_is_read_from_audit_and_server_has_five_runs() -> None:
    tree = Tree(DATA / "inference_results_v0.5")
    (folder,) = [f for f in find_results(tree) if f.path.endswith("T4x8/gnmt/Server")]
    result = load_result(tree, folder)
    assert len(result.runs) == 5
    assert result.compliance is not None and {t.name for t in result.compliance} >= {"TEST01"}
    assert result.runs[0].detail is None
    assert result.runs[0].missing == (f"{folder.path}/performance/run_1/mlperf_log_detail.txt",)


def test_the_accuracy_log_is_hashed_streaming(tmp_path: Path) -> None:
    data = os.urandom(3 * 2**20 + 5)
    (tmp_path / "big.json").write_bytes(data)
    digest = Tree(tmp_path).digest("big.json")
    assert digest is not None
    assert (digest.size, digest.sha256) == (len(data), hashlib.sha256(data).hexdigest())


def test_links_are_never_followed_and_big_files_not_read(tmp_path: Path) -> None:
    (tmp_path / "outside.txt").write_text("secret")
    root = tmp_path / "tree"
    root.mkdir()
    (root / "link.txt").symlink_to(tmp_path / "outside.txt")
    (root / "big.txt").write_bytes(b"x" * 100)
    tree = Tree(root)
    assert tree.read("link.txt") is None
    assert tree.digest("link.txt") is None
    assert tree.read("big.txt", limit=10) is None
    assert tree.listdir("") == ["big.txt"]
    assert [p.path for p in tree.problems] == ["link.txt", "big.txt", "link.txt"]


def test_it_reads_the_omitted_manifests() -> None:
    omitted = read_omitted_manifest((DATA / "manifests/v5.1.omitted.tsv").read_bytes())
    rgat = "closed/Intel/results/1-node-2S-GNR_128C/rgat/Offline/performance/run_1/"
    assert omitted[rgat + "mlperf_log_detail.txt"] == -1

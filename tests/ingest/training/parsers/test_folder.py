"""One MLPerf Training result folder read end to end (``ingest.training.parsers.folder``):
files refused by ``safe_tree`` (over the size limit, swapped for a link) become failed
runs with the reason, never a crash or a file outside the tree."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from benchdb import logcodec
from ingest.parsers import safe_tree
from ingest.parsers.types import ResultDir
from ingest.training.parsers import folder


def _mllog(key, value, t, **meta):
    return ":::MLLOG " + json.dumps({"key": key, "value": value, "time_ms": t, "metadata": meta})


def _result_dir(root: Path, runs: list[str], **kw) -> ResultDir:
    return ResultDir(
        repo_root=str(root),
        submitter_folder="Acme",
        system_folder="s",
        benchmark_folder="resnet",
        path="Acme/results/s/resnet",
        runs=tuple(f"Acme/results/s/resnet/{r}" for r in runs),
        system_file=None,
        scaling_file=kw.get("scaling_file"),
    )


def test_a_log_over_the_size_limit_is_a_failed_run_not_read(tmp_path, monkeypatch):
    bench = tmp_path / "Acme/results/s/resnet"
    bench.mkdir(parents=True)
    (bench / "result_0.txt").write_text(_mllog("run_start", None, 0) + "\n" + "x" * 5000)
    (bench / "result_1.txt").write_text(_mllog("run_start", None, 0) + "\n")
    monkeypatch.setattr(safe_tree, "LOG_BYTES", 1000)
    loaded = folder.load_result_dir(_result_dir(tmp_path, ["result_0.txt", "result_1.txt"]))
    big, small = loaded.runs
    assert big.log_format == "none" and big.size == 0
    assert logcodec.decompress(big.compressed_log) == b""
    assert "over the 1,000 read for this kind of file" in big.parse_errors[0].message
    assert small.run_start_line == 1


def test_a_log_swapped_for_a_link_after_the_listing_is_not_followed(tmp_path):
    bench = tmp_path / "Acme/results/s/resnet"
    bench.mkdir(parents=True)
    (bench / "result_0.txt").symlink_to("/etc/passwd")
    loaded = folder.load_result_dir(_result_dir(tmp_path, ["result_0.txt"]))
    [run] = loaded.runs
    assert run.parse_errors[0].message == "symbolic link, not followed"
    assert b"root" not in logcodec.decompress(run.compressed_log)


@pytest.mark.parametrize("keep_bytes", [folder.KEEP_BYTES, 0])
def test_each_run_carries_the_sha256_of_its_own_bytes(tmp_path, monkeypatch, keep_bytes):
    """Kept in memory (hashed once, the digest handed to the parser) or read again
    (over ``KEEP_BYTES``), each run's sha256 is that of its file, not another's."""
    bench = tmp_path / "Acme/results/s/resnet"
    bench.mkdir(parents=True)
    logs = [_mllog("run_start", None, i) + "\n" for i in (0, 7)]
    for i, text in enumerate(logs):
        (bench / f"result_{i}.txt").write_text(text)
    monkeypatch.setattr(folder, "KEEP_BYTES", keep_bytes)
    loaded = folder.load_result_dir(_result_dir(tmp_path, ["result_0.txt", "result_1.txt"]))
    expected = [hashlib.sha256(t.encode()).hexdigest() for t in logs]
    assert [r.sha256 for r in loaded.runs] == expected

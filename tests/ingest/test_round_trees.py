"""A round held whole (issue 20): the results repository's listing at one commit
recorded (``ingest.round_trees``), and counts over the round checked only where
benchdb stores every result folder the listing has. The repository here is a git
commit of ../shared/mlperf/training_results_v1.1 (a real subset: whole by
construction), then one with a folder benchdb does not store. The expected counts are
read from the folders with the standard library, not from the code under test.

The count sentence is Graphcore's words for the class training/01 showed (Google: "the
six MLPerf benchmarks Google entered"); the submitters class (training/11, HPCwire on
MLPerf HPC) is tested in ``tests/benchdb/claims/test_round_counts.py``."""

from __future__ import annotations

import subprocess
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from benchdb.claims.resolve import PageContext
from benchdb.models import RoundTree
from benchdb.vocabulary import INFERENCE_ROUND_PUBLISHED, ROUND_PUBLISHED
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import text as claim_text
from ingest.round_trees import RoundTreeError, round_holdings, round_tree_record

pytestmark = pytest.mark.django_db


def _git(*args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t"}
    env |= {"GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        ["git", *args], check=True, capture_output=True, text=True, env=env
    ).stdout


@pytest.fixture
def repo(tmp_path: Path, mlperf_data: Path) -> Path:
    """A bare repository whose one commit is ../shared's v1.1 folder."""
    git_dir = tmp_path / "training_results_v1.1.git"
    _git("init", "-q", "--bare", str(git_dir))
    base = ["--git-dir", str(git_dir), "--work-tree", str(mlperf_data / "training_results_v1.1")]
    _git(*base, "add", "-A")
    _git(*base, "commit", "-q", "-m", "subset")
    return git_dir


def _graphcore_benchmarks(mlperf_data: Path) -> set[str]:
    results = mlperf_data / "training_results_v1.1" / "Graphcore" / "results"
    return {b.name for s in results.iterdir() for b in s.iterdir() if any(b.glob("result_*.txt"))}


def _check(sentence: str) -> list[tuple[float | None, str, str]]:
    found = [c for c in claim_text.extract_claims(sentence) if c.kind == "count"]
    page = PageContext(title="", text=sentence, published=date(2021, 12, 1), vendor="Graphcore")
    dates = {"training": dict(ROUND_PUBLISHED), "inference": dict(INFERENCE_ROUND_PUBLISHED)}
    rows = claim_facts.check_claims(found, page, dates=dates)
    return [(c.value, v.verdict, str(v.details.get("reason", ""))) for c, _f, v in rows]


def test_a_tree_equal_to_what_is_stored_holds_the_round_whole(
    ingested_shared: Any, repo: Path, mlperf_data: Path
) -> None:
    tree = round_tree_record(suite="training", version="v1.1", git_dir=str(repo))
    shared = mlperf_data / "training_results_v1.1"
    assert set(tree.submitters) == {p.name for p in shared.iterdir() if (p / "results").is_dir()}
    held = round_holdings()["training", "v1.1"]
    assert held.whole()
    n = len(_graphcore_benchmarks(mlperf_data))
    assert n == 2  # bert, resnet
    got = _check(
        f"Graphcore's IPU-POD128 led in the {['', 'one', 'two'][n]} MLPerf benchmarks"
        " Graphcore entered."
    )
    assert got[-1][:2] == (float(n), "consistent")
    # "one of the two": the one is a part of the whole (wins), not what was entered
    got = _check(
        "Graphcore's IPU-POD128 led in one of the two MLPerf benchmarks Graphcore entered."
    )
    assert [(v, verdict) for v, verdict, _ in got] == [(1.0, "unverifiable"), (2.0, "consistent")]
    got = _check("Graphcore's IPU-POD128 led in the three MLPerf benchmarks Graphcore entered.")
    assert got[-1][:2] == (3.0, "inconsistent")
    assert "bert, resnet" in got[-1][2]


def test_a_listed_folder_not_stored_leaves_its_submitter_open(
    ingested_shared: Any, repo: Path
) -> None:
    # one more result folder in the next commit: a Graphcore result benchdb never read
    base = ["--git-dir", str(repo)]
    blob = subprocess.run(
        ["git", *base, "hash-object", "-w", "--stdin"],
        input="x",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    index = repo / "index2"
    env_args = ["git", *base]
    subprocess.run(
        [*env_args, "read-tree", "HEAD"],
        check=True,
        env={"GIT_INDEX_FILE": str(index), "PATH": "/usr/bin:/bin"},
    )
    path = "Graphcore/results/ipu-pod32-TF1/resnet/result_0.txt"
    subprocess.run(
        [*env_args, "update-index", "--add", "--cacheinfo", f"100644,{blob},{path}"],
        check=True,
        env={"GIT_INDEX_FILE": str(index), "PATH": "/usr/bin:/bin"},
    )
    tree = subprocess.run(
        [*env_args, "write-tree"],
        check=True,
        capture_output=True,
        text=True,
        env={"GIT_INDEX_FILE": str(index), "PATH": "/usr/bin:/bin"},
    ).stdout.strip()
    commit = _git(*base, "commit-tree", tree, "-p", "HEAD", "-m", "one more").strip()
    round_tree_record(suite="training", version="v1.1", git_dir=str(repo), ref=commit)
    held = round_holdings()["training", "v1.1"]
    assert held.incomplete == {"Graphcore"}
    assert held.whole("Dell") and not held.whole("Graphcore")
    got = _check("Graphcore's IPU-POD128 led in the two MLPerf benchmarks Graphcore entered.")
    assert got[-1][1] == "unverifiable"
    assert "does not store" in got[-1][2]


def test_a_round_without_a_tree_is_never_held_whole(ingested_shared: Any) -> None:
    """../shared's v1.1 is a part of the round: with no tree recorded, no count."""
    assert not RoundTree.objects.exists()
    got = _check("Graphcore's IPU-POD128 led in the two MLPerf benchmarks Graphcore entered.")
    assert got[-1][1] == "unverifiable"
    assert "no record of its results repository" in got[-1][2]


def test_refused_inputs(ingested_shared: Any, repo: Path, tmp_path: Path) -> None:
    with pytest.raises(RoundTreeError, match="ingest it first"):
        round_tree_record(suite="training", version="v4.0", git_dir=str(repo))
    with pytest.raises(RoundTreeError, match="no such git directory"):
        round_tree_record(suite="training", version="v1.1", git_dir=str(tmp_path / "none"))
    with pytest.raises(RoundTreeError, match="refused"):
        round_tree_record(
            suite="training", version="v1.1", git_dir=str(repo), ref="--upload-pack=x"
        )
    with pytest.raises(CommandError):
        call_command("round-tree", "training", "v9.9", str(repo))

"""An MLPerf Inference round held whole (issue 20): the results repository's listing at
one commit recorded for a LoadGen suite (``ingest.round_trees``, result folders
``<division>/<submitter>/results/<system>/<model>/<scenario>``), and a count of the
round's submitters checked only where benchdb stores every listed folder. The
repository here is a git commit of ../shared/mlperf-inference/inference_results_v3.0 (a
real subset: whole by construction), then one with a folder benchdb does not store. The
expected figures are read from the folders with the standard library, not from the code
under test. The sentence is Qualcomm's words for the class inference/12 showed (KiaDev
on MLPerf Inference v5.1: "This round included 27 submitters")."""

from __future__ import annotations

import subprocess
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from benchdb.claims.resolve import PageContext
from benchdb.vocabulary import INFERENCE_ROUND_PUBLISHED, ROUND_PUBLISHED
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import text as claim_text
from ingest.round_trees import round_holdings, round_tree_record

pytestmark = pytest.mark.django_db

ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t"}
ENV |= {"GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin"}


def _git(*args: str, env: dict[str, str] | None = None) -> str:
    return subprocess.run(
        ["git", *args], check=True, capture_output=True, text=True, env=env or ENV
    ).stdout


def _v30() -> Path:
    return Path(settings.MLPERF_INFERENCE_DATA) / "inference_results_v3.0"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A bare repository whose one commit is ../shared's inference v3.0 folder."""
    git_dir = tmp_path / "inference_results_v3.0.git"
    _git("init", "-q", "--bare", str(git_dir))
    base = ["--git-dir", str(git_dir), "--work-tree", str(_v30())]
    _git(*base, "add", "-A")
    _git(*base, "commit", "-q", "-m", "subset")
    return git_dir


def _scenario_folders() -> set[str]:
    root = _v30()
    return {
        str(p.relative_to(root))
        for p in root.glob("*/*/results/*/*/*")
        if p.is_dir() and p.parts[len(root.parts)] in ("closed", "open", "network")
    }


def _check(sentence: str) -> list[tuple[float | None, str, str]]:
    found = [c for c in claim_text.extract_claims(sentence) if c.kind == "count"]
    page = PageContext(title="", text=sentence, published=date(2023, 4, 6), vendor="Qualcomm")
    dates = {"training": dict(ROUND_PUBLISHED), "inference": dict(INFERENCE_ROUND_PUBLISHED)}
    rows = claim_facts.check_claims(found, page, dates=dates)
    return [(c.value, v.verdict, str(v.details.get("reason", ""))) for c, _f, v in rows]


def test_an_inference_tree_equal_to_what_is_stored_holds_the_round_whole(
    ingested_inference: Any, repo: Path
) -> None:
    tree = round_tree_record(suite="inference", version="v3.0", git_dir=str(repo))
    assert set(tree.result_paths) == _scenario_folders()
    subs = {p.parts[-1] for p in _v30().glob("*/*") if (p / "results").is_dir()}
    assert set(tree.submitters) == subs == {"NVIDIA", "Qualcomm"}
    held = round_holdings()["inference", "v3.0"]
    assert held.whole() and len(held.scores) == len(_scenario_folders())
    got = _check("MLPerf Inference v3.0 drew results from two submitters, Qualcomm said.")
    assert got[-1][:2] == (2.0, "consistent"), got
    got = _check("MLPerf Inference v3.0 drew results from three submitters, Qualcomm said.")
    assert got[-1][1] == "unverifiable"  # never called wrong: MLCommons counts by owner


def test_an_inference_folder_not_stored_leaves_the_count_open(
    ingested_inference: Any, repo: Path
) -> None:
    base = ["--git-dir", str(repo)]
    blob = subprocess.run(
        ["git", *base, "hash-object", "-w", "--stdin"],
        input="x",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    env = {"GIT_INDEX_FILE": str(repo / "index2"), "PATH": "/usr/bin:/bin"}
    _git(*base, "read-tree", "HEAD", env=env)
    path = "closed/Qualcomm/results/q1_pro_dc-qaic/bert-99/offline/mlperf_log_summary.txt"
    _git(*base, "update-index", "--add", "--cacheinfo", f"100644,{blob},{path}", env=env)
    tree = _git(*base, "write-tree", env=env).strip()
    commit = _git(*base, "commit-tree", tree, "-p", "HEAD", "-m", "one more").strip()
    round_tree_record(suite="inference", version="v3.0", git_dir=str(repo), ref=commit)
    held = round_holdings()["inference", "v3.0"]
    assert held.incomplete == {"Qualcomm"} and held.whole("NVIDIA")
    got = _check("MLPerf Inference v3.0 drew results from two submitters, Qualcomm said.")
    assert got[-1][1] == "unverifiable" and "does not store" in got[-1][2]

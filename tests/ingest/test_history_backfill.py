"""manage.py history backfill: a results repository's commits since publication as
back-filled versions, from a clone and from a bare mirror, recorded once. Real round
trees (../shared) made git repositories by the test, with the changes MLCommons'
repositories show (training v5.1 504c3b50: a submitter folder renamed and ``status``
fixed; 888b59ab: a CPU corrected; inference v5.1 f6a497e1: an ID shifted), plus a
result moved to open and one withdrawn."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

from benchdb.models import ResultVersion
from ingest.history_backfill import history_backfill
from tests.ingest.gitsource import GitRepo


def _training_repo(tmp_path: Path) -> tuple[GitRepo, list[str]]:
    repo = GitRepo(tmp_path / "training_results_v1.1")
    root = repo.add_round("v1.1", dest="")
    shas = [repo.commit("commit results")]
    (root / "Graphcore").rename(root / "GraphcoreX")
    system = root / "GraphcoreX/systems/ipu-pod16-TF1.json"
    data = json.loads(system.read_text())
    assert data["status"] == "onprem"
    data["status"], data["submitter"] = "Available cloud", "GraphcoreX"
    system.write_text(json.dumps(data, indent=4))
    shas.append(repo.commit("Rename Graphcore + fix availability"))
    system = root / "NVIDIA/systems/dgxa100_ngc21.09_mxnet.json"
    data = json.loads(system.read_text())
    old_cpu = data["host_processor_model_name"]
    data["host_processor_model_name"] = "Neoverse-V2"
    system.write_text(json.dumps(data, indent=4))
    shas.append(repo.commit("Update dgxa100_ngc21.09_mxnet.json"))
    (root / "README.md").write_text("not a result\n")
    shas.append(repo.commit("README only"))
    return repo, [*shas, old_cpu]


def test_the_backfill_finds_a_rename_an_availability_fix_and_a_cpu_fix(db, tmp_path):
    repo, (c1, c2, c3, _, old_cpu) = _training_repo(tmp_path)
    report = history_backfill(location=str(repo.path))
    assert (report.suite, report.round_version) == ("training", "v1.1")
    assert [c.sha for c in report.commits] == [c2, c3]
    pod16 = "GraphcoreX/results/ipu-pod16-TF1/resnet"
    old = ResultVersion.objects.get(path="Graphcore/results/ipu-pod16-TF1/resnet", commit=c2)
    assert old.changes == [
        {
            "field": "path",
            "old": "Graphcore/results/ipu-pod16-TF1/resnet",
            "new": pod16,
            "kind": "renamed",
        }
    ]
    new = ResultVersion.objects.get(path=pod16, commit=c2)
    words = new.change_words()
    assert "raw.status: onprem -> Available cloud" in words
    assert "raw.submitter: Graphcore -> GraphcoreX" in words
    assert set(new.kind_list) == {"renamed", "availability", "submitter"}
    assert (new.commit_before, new.origin) == (c1, "backfill")
    cpu = ResultVersion.objects.get(path="NVIDIA/results/dgxa100_ngc21.09_mxnet/resnet", commit=c3)
    assert cpu.change_words() == [f"raw.host_processor_model_name: {old_cpu} -> Neoverse-V2"]
    n = ResultVersion.objects.count()
    assert history_backfill(location=str(repo.path)).recorded == 0  # once only
    bare = tmp_path / "mirror" / "training_results_v1.1.git"
    subprocess.run(["git", "clone", "-q", "--bare", "--", str(repo.path), str(bare)], check=True)
    again = history_backfill(location=str(bare))
    assert [c.sha for c in again.commits] == [c2, c3] and again.recorded == 0
    assert ResultVersion.objects.count() == n


def test_the_backfill_finds_an_id_shift_a_move_to_open_and_a_withdrawal(db, tmp_path, capsys):
    src = Path(settings.MLPERF_INFERENCE_DATA) / "inference_results_v5.1"
    repo = GitRepo(tmp_path / "inference_results_v5.1")
    shutil.copytree(src / "closed/RedHat", repo.path / "closed/RedHat")
    shutil.copy(src / "summary_results.json", repo.path / "summary_results.json")
    repo.commit("Commit results")
    table = json.loads((repo.path / "summary_results.json").read_text())
    ibm = "closed/RedHat/results/IBM_Cloud_gx3-48x240x2l40s_vLLM/llama3.1-8b"
    for row in table:
        if row["Location"].startswith(ibm):
            row["ID"] = "5.1-0099"
    (repo.path / "summary_results.json").write_text(json.dumps(table))
    c2 = repo.commit("Updated summary_results.json")
    xe = "closed/RedHat/results/XE8640_4xH100_vLLM/llama3.1-8b"
    (repo.path / xe.replace("closed/", "open/")).parent.mkdir(parents=True)
    shutil.move(repo.path / xe / "Server", repo.path / xe.replace("closed/", "open/") / "Server")
    shutil.rmtree(repo.path / xe / "Offline")
    c3 = repo.commit("XE8640 Server moved to open, Offline withdrawn")

    call_command("history", "backfill", str(repo.path))
    out = capsys.readouterr().out
    assert out.startswith(
        "inference v5.1: 2 commits changed published results; 4 versions recorded"
    )
    assert f"{c2[:8]} " in out and "id 2" in out
    for scenario in ("Offline", "Server"):
        v = ResultVersion.objects.get(path=f"{ibm}/{scenario}", commit=c2)
        assert v.change_words() == ["ID: 5.1-0082 -> 5.1-0099"]
    moved = ResultVersion.objects.get(path=f"{xe}/Server", commit=c3)
    assert moved.changes == [
        {
            "field": "path",
            "old": f"{xe}/Server",
            "new": f"{xe}/Server".replace("closed/", "open/"),
            "kind": "moved-to-open",
        }
    ]
    gone = ResultVersion.objects.get(path=f"{xe}/Offline", commit=c3)
    assert gone.kind_list == ["withdrawn"] and gone.tombstone

"""``manage.py ingest-all``: every round folder of a folder loaded through a source and
a job each (in this process: tasks run eagerly), on ../shared/mlperf (three training
rounds, 46 results); a second run takes the same sources and writes nothing; a name
taken by another source, or a root that is not a folder, is a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from benchdb.models import Result
from ingest.jobs import run as sync
from ingest.models import IngestJob, Source


def test_every_round_is_loaded_once_and_a_second_run_writes_nothing(
    eager: None, mlperf_data: Path, official_scores: list[dict[str, str]], capsys
) -> None:
    call_command("ingest-all", str(mlperf_data), "--every", "0.1")
    out = capsys.readouterr().out
    assert {s.name: s.location for s in Source.objects.all()} == {
        f"training-v{v}": str(mlperf_data / f"training_results_v{v.replace('-', '.')}")
        for v in ("1-0", "1-1", "2-0")
    }
    assert Result.objects.count() == len(official_scores) == 46
    assert "jobs: 3 succeeded; results: 46 added, 0 changed, 0 unchanged" in out
    call_command("ingest-all", str(mlperf_data), "--every", "0.1")
    assert "jobs: 3 succeeded; results: 0 added, 0 changed, 46 unchanged" in capsys.readouterr().out
    assert Source.objects.count() == 3 and IngestJob.objects.count() == 6


def test_a_taken_name_or_a_missing_folder_is_refused(eager: None, mlperf_data: Path, tmp_path):
    with pytest.raises(CommandError, match="not a folder"):
        call_command("ingest-all", str(tmp_path / "missing"))
    sync.source_add(name="training-v1-1", kind="mlperf-training", location=str(tmp_path))
    with pytest.raises(CommandError, match="source training-v1-1 exists for mlperf-training"):
        call_command("ingest-all", str(mlperf_data))


def test_hpc_rounds_have_no_source_and_are_ingested_in_the_command(eager: None, capsys) -> None:
    """tests/data/hpc: a real subset of four HPC rounds (its README gives the sources)."""
    root = Path(__file__).resolve().parents[2] / "data" / "hpc"
    call_command("ingest-all", str(root), "--every", "0.1")
    out = capsys.readouterr().out
    assert not Source.objects.exists()
    stored = Result.objects.filter(round__suite="hpc")
    for v in ("v0.7", "v1.0", "v2.0", "v3.0"):
        n = stored.filter(round__version=v).count()
        assert n > 0 and f"hpc {v}: {n} results ({n} added, 0 changed, 0 unchanged" in out
    call_command("ingest-all", str(root), "--no-wait")
    again = capsys.readouterr().out
    assert again.count("(0 added, 0 changed") == 4


def test_every_suite_of_the_registry_is_loaded(eager: None, tmp_path: Path, capsys) -> None:
    """Issue 24: every public round of every suite. The real Tiny v1.3 and Storage v1.0
    subsets (tests/data, their READMEs give the sources) linked under their repository
    names, with one HPC round: each ingested here by its suite's service; again, nothing
    is written."""
    from benchdb.models import InferenceResult, StorageResult

    data = Path(__file__).resolve().parents[2] / "data"
    for sub in ("tiny-v1.3/tiny_results_v1.3", "storage-v1.0/storage_results_v1.0"):
        (tmp_path / Path(sub).name).symlink_to(data / sub)
    (tmp_path / "hpc_results_v1.0").symlink_to(data / "hpc" / "hpc_results_v1.0")
    call_command("ingest-all", str(tmp_path), "--every", "0.1")
    out = capsys.readouterr().out
    tiny = InferenceResult.objects.filter(round__suite="tiny", round__version="v1.3").count()
    storage = StorageResult.objects.filter(round__version="v1.0").count()
    assert tiny > 0 and f"tiny v1.3: {tiny} results ({tiny} added, 0 changed" in out
    assert storage > 0 and f"storage v1.0: {storage} results ({storage} added" in out
    assert "hpc v1.0:" in out and not Source.objects.exists()
    call_command("ingest-all", str(tmp_path), "--no-wait")
    assert capsys.readouterr().out.count("(0 added, 0 changed") == 3

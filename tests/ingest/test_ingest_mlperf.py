"""Ingesting MLPerf Training repositories into PostgreSQL: official scores, idempotency,
and bad input that is recorded without stopping the round."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from django.db import connection

from benchdb.models import IngestProblem, Result, Run, RunLog, Submitter, System
from ingest.training import IngestError, mlperf_training_ingest

pytestmark = pytest.mark.django_db


def test_every_score_equals_the_official_one(ingested_shared, official_scores):
    """v1.0 was printed to 0.01 minute: compare at that precision; others within 0.01%."""
    assert len(official_scores) == 46
    for row in official_scores:
        result = Result.objects.get(
            round__version=row["round"],
            system__submitter_folder=row["submitter"],
            system__folder=row["system"],
            benchmark_folder=row["benchmark"],
        )
        official = float(row["score_minutes"])
        assert result.division == row["division"]
        assert result.score_minutes is not None, result.reason
        if row["round"] == "v1.0":
            assert round(result.score_minutes, 2) == pytest.approx(official, abs=1e-9), row
        else:
            assert result.score_minutes == pytest.approx(official, rel=1e-4), row


def test_the_shared_data_is_stored_whole(ingested_shared, mlperf_data):
    """Every result_*.txt is a run with its whole log, and nothing else is."""
    files = sorted(p for p in mlperf_data.glob("training_results_v*/*/results/*/*/result_*.txt"))
    assert Run.objects.count() == len(files) == ingested_shared.runs_stored
    for some in files[:: len(files) // 7]:
        repo, rel = str(some.relative_to(mlperf_data)).split("/", 1)
        run = Run.objects.get(result__round__version=repo.rsplit("_", 1)[1], path=rel)
        assert run.sha256 == RunLog.objects.get(run=run).sha256
        assert RunLog.objects.get(run=run).text().encode("latin-1") == some.read_bytes()


def test_aborted_runs_fail_and_are_dropped_as_slowest(ingested_shared):
    run = Run.objects.get(
        result__round__version="v1.1",
        path="Graphcore/results/ipu-pod16-TF1/resnet/result_0.txt",
    )
    assert run.run_stop_status == "aborted"
    assert run.role == Run.Role.FAILED and "quality target" in run.failure_reason
    result = run.result
    assert result.runs_failed == 1 and result.runs_counted == 3


def test_submitter_spellings_are_kept_as_aliases(ingested_shared):
    graphcore = Submitter.objects.get(name="Graphcore")
    assert "Graphcore" in graphcore.aliases
    assert System.objects.filter(submitter=graphcore).count() > 10


def test_a_second_ingest_changes_no_row(ingested_shared, mlperf_data):
    tables = [
        "benchdb_result",
        "benchdb_run",
        "benchdb_runlog",
        "benchdb_system",
        "benchdb_submitter",
        "benchdb_benchmark",
        "benchdb_round",
        "ingest_ingestproblem",
    ]

    def writes() -> dict[str, tuple[int, int, int]]:
        with connection.cursor() as c:
            c.execute(
                "SELECT relname, n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_xact_user_tables "
                "WHERE relname = ANY(%s)",
                [tables],
            )
            return {r[0]: r[1:] for r in c.fetchall()}

    before = writes()
    report = mlperf_training_ingest(location=str(mlperf_data))
    assert writes() == before
    assert report.unchanged == report.results_seen == 46
    assert report.added == report.changed == 0


def test_the_division_comes_from_the_systems_file(ingested_shared):
    open_results = Result.objects.filter(division="open")
    assert open_results.exists()
    assert all(r.system.raw["division"] == "open" for r in open_results.select_related("system"))


# --- bad input: small repositories written here -------------------------------------


def _log(minutes: float, *, target: float = 0.76, cut: bool = False, broken: bool = False) -> str:
    def line(key, value, t, **meta):
        return ":::MLLOG " + json.dumps(
            {
                "namespace": "",
                "time_ms": t,
                "event_type": "POINT_IN_TIME",
                "key": key,
                "value": value,
                "metadata": meta,
            }
        )

    t0 = 1_600_000_000_000
    lines = [
        line("submission_division", "closed", t0),
        line("init_start", None, t0),
        line("init_stop", None, t0 + 1000),
        line("global_batch_size", 256, t0),
        line("run_start", None, t0 + 1000),
        line("eval_accuracy", target, t0 + 1000 + minutes * 60000 - 10, epoch_num=40),
    ]
    if broken:
        lines.append(':::MLLOG {"key": "eval_accuracy", "value": 0.7')
    if not cut:
        lines.append(line("run_stop", None, t0 + 1000 + minutes * 60000, status="success"))
    return "\n".join(["some framework output", *lines, "done"]) + "\n"


SYSTEM = {
    "submitter": "Acme",
    "division": "closed",
    "status": "available",
    "system_name": "Acme 8",
    "number_of_nodes": "1",
    "host_processors_per_node": "2",
    "host_processor_model_name": "CPU",
    "accelerators_per_node": "8",
    "accelerator_model_name": "Acme X1",
    "framework": "PyTorch",
}


def _repo(tmp_path: Path, name: str = "training_results_v1.1") -> Path:
    root = tmp_path / name
    for system in ("good", "bad-json", "dup-key", "no-systems-file"):
        res = root / "Acme/results" / system / "resnet"
        res.mkdir(parents=True)
        for i, m in enumerate([30.0, 31.0, 32.0, 33.0, 34.0]):
            (res / f"result_{i}.txt").write_text(_log(m))
    systems = root / "Acme/systems"
    systems.mkdir(parents=True)
    (systems / "good.json").write_text(json.dumps(SYSTEM, indent=2))
    (systems / "bad-json.json").write_text(
        '{\n  "submitter": "Acme",\n  "division": "closed"\n  "status": "available"\n}\n'
    )
    (systems / "dup-key.json").write_text(
        json.dumps(SYSTEM, indent=2)[:-2] + ',\n  "framework": "JAX"\n}\n'
    )
    return root


def _problems(path_part: str) -> list[IngestProblem]:
    return list(IngestProblem.objects.filter(path__contains=path_part))


def test_bad_systems_files_are_recorded_and_the_round_goes_on(tmp_path):
    report = mlperf_training_ingest(location=str(_repo(tmp_path)), workers=1)
    assert report.results_seen == 4 and report.failed == 0
    assert (
        Result.objects.filter(system__submitter_folder="Acme", score_minutes__isnull=False).count()
        == 4
    )
    [bad] = _problems("bad-json.json")
    assert bad.line == 4 and "not valid JSON" in bad.message
    [dup] = _problems("dup-key.json")
    assert dup.severity == "warning" and "framework" in dup.message and dup.line is not None
    assert System.objects.get(folder="dup-key").framework == "JAX"
    [missing] = _problems("no-systems-file")
    assert "no systems file" in missing.message
    # what the logs say about themselves stands in for the missing description
    assert Result.objects.get(system__folder="no-systems-file").division == "closed"


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("cut", "run_stop not recorded"),
        ("broken", "do not parse"),
        ("not-a-log", "not an MLPerf log"),
    ],
)
def test_a_bad_log_fails_its_run_with_file_and_line(tmp_path, kind, reason):
    root = _repo(tmp_path)
    bad = root / "Acme/results/good/resnet/result_2.txt"
    if kind == "not-a-log":
        bad.write_bytes(b"\x00\x01 binary junk")
    else:
        bad.write_text(_log(32.0, cut=kind == "cut", broken=kind == "broken"))
    mlperf_training_ingest(location=str(root), workers=1)
    run = Run.objects.get(path="Acme/results/good/resnet/result_2.txt")
    assert run.role == Run.Role.FAILED and reason in run.failure_reason
    result = run.result
    # the failed run is one of the slowest: drop the fastest (30) and average the rest
    assert result.score_minutes == pytest.approx((31.0 + 33.0 + 34.0) / 3)
    if kind == "broken":
        [problem] = _problems("good/resnet/result_2.txt")
        assert problem.line == 8  # the broken MLLOG line, counted in the file


def test_a_result_is_stored_all_or_nothing(tmp_path, monkeypatch):
    root = _repo(tmp_path)
    original = RunLog.objects.bulk_create

    def fail_for_dup_key(objs, *a, **kw):
        if any("dup-key" in o.run.path for o in objs):
            raise ValueError("simulated failure while writing logs")
        return original(objs, *a, **kw)

    monkeypatch.setattr(RunLog.objects, "bulk_create", fail_for_dup_key)
    report = mlperf_training_ingest(location=str(root), workers=1)
    assert report.failed == 1
    assert not Result.objects.filter(system__folder="dup-key").exists()
    assert not Run.objects.filter(path__contains="dup-key").exists()
    assert Result.objects.filter(system__folder="good").exists()
    assert "simulated failure" in _problems("dup-key/resnet")[0].message
    monkeypatch.undo()
    again = mlperf_training_ingest(location=str(root), workers=1)
    assert again.added == 1 and again.unchanged == 3


def test_a_changed_log_changes_exactly_that_result(tmp_path):
    root = _repo(tmp_path)
    mlperf_training_ingest(location=str(root), workers=1)
    acme = Result.objects.filter(system__submitter_folder="Acme").select_related("system")
    before = {r.system.folder: (r.pk, r.score_minutes) for r in acme}
    (root / "Acme/results/good/resnet/result_2.txt").write_text(_log(32.5))
    report = mlperf_training_ingest(location=str(root), workers=1)
    assert (report.changed, report.unchanged) == (1, 3)
    after = {r.system.folder: (r.pk, r.score_minutes) for r in acme.all()}
    assert after["good"][1] == pytest.approx((31.0 + 32.5 + 33.0) / 3) != before["good"][1]
    assert after["good"][0] == before["good"][0]
    assert {k: v for k, v in after.items() if k != "good"} == {
        k: v for k, v in before.items() if k != "good"
    }


def test_parallel_and_serial_parsing_store_the_same(tmp_path):
    root = _repo(tmp_path)
    mlperf_training_ingest(location=str(root), workers=2)
    acme = Run.objects.filter(path__startswith="Acme/")
    parallel = sorted(acme.values_list("path", "sha256", "time_to_train_minutes", "role"))
    assert len(parallel) == 20
    Result.objects.filter(system__submitter_folder="Acme").delete()
    mlperf_training_ingest(location=str(root), workers=1)
    assert sorted(acme.values_list("path", "sha256", "time_to_train_minutes", "role")) == parallel


def test_a_folder_without_results_is_an_error(tmp_path):
    with pytest.raises(IngestError):
        mlperf_training_ingest(location=str(tmp_path))


def test_the_round_must_be_named_when_nothing_tells_it(tmp_path):
    root = _repo(tmp_path, name="my-copy")
    with pytest.raises(IngestError, match="--round"):
        mlperf_training_ingest(location=str(root))
    assert mlperf_training_ingest(location=str(root), round_version="v1.1", workers=1).added == 4


def test_a_git_url_is_cloned_and_its_commit_recorded(tmp_path, settings):
    root = _repo(tmp_path)
    env = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for args in (["init", "-q"], ["add", "-A"], [*env, "commit", "-qm", "results"]):
        subprocess.run(["git", "-C", str(root), *args], check=True)
    head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    settings.BENCHDB_CACHE = tmp_path / "cache"
    report = mlperf_training_ingest(location=f"file://{root}", workers=1)
    assert report.rounds == ["v1.1"] and report.added == 4
    assert set(Result.objects.filter(system__submitter_folder="Acme").values_list("commit", flat=True)) == {head}  # fmt: skip

"""Ingesting MLPerf Training repositories into PostgreSQL (``ingest.training.service``): official
scores, idempotency, and bad input that is recorded without stopping the round."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from benchdb import logcodec
from benchdb.models import IngestProblem, Result, Round, Run, RunLog, Submitter, System
from ingest.parsers import safe_tree
from ingest.training.service import IngestError, mlperf_training_ingest
from tests.training_logs import compliant_resnet_lines

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
        log = RunLog.objects.get(run=run)
        stored = bytes(log.compressed)
        assert run.sha256 == log.sha256 and stored[:4] == logcodec.ZSTD_MAGIC
        assert logcodec.decompress(stored) == some.read_bytes()


def test_aborted_runs_fail_and_are_dropped_as_slowest(ingested_shared):
    run = Run.objects.get(
        result__round__version="v1.1",
        path="Graphcore/results/ipu-pod16-TF1/resnet/result_0.txt",
    )
    assert run.run_stop_status == "aborted"
    assert run.role == Run.Role.FAILED
    # closed_resnet.yaml of 1.1.0: ATLEAST_ONE_CHECK ``v['value'] >= 0.7590 and ...``
    assert run.failure_reason.startswith(
        "compliance: training_1.1.0/closed_resnet.yaml eval_accuracy: Failed checks for"
    )
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


def _line(key, value, t, **meta) -> str:
    record = {"namespace": "", "time_ms": t, "event_type": "POINT_IN_TIME", "key": key}
    return ":::MLLOG " + json.dumps({**record, "value": value, "metadata": meta})


T0 = 1_600_000_000_000


def _log(
    minutes: float,
    *,
    target: float = 0.76,
    cut: bool = False,
    broken: bool = False,
    extra: tuple[str, ...] = (),
    stop: float | None = None,
) -> str:
    """A closed resnet log of ``minutes`` that meets ``target``; ``extra`` lines go
    after the eval, ``stop`` replaces the run_stop time (ms)."""
    lines = [
        _line("submission_division", "closed", T0),
        _line("init_start", None, T0),
        _line("init_stop", None, T0 + 1000),
        _line("global_batch_size", 256, T0),
        _line("run_start", None, T0 + 1000),
        _line("eval_accuracy", target, T0 + 1000 + minutes * 60000 - 10, epoch_num=40),
        *extra,
    ]
    if broken:
        lines.append(':::MLLOG {"key": "eval_accuracy", "value": 0.7')
    if not cut:
        at = T0 + 1000 + minutes * 60000 if stop is None else stop
        lines.append(_line("run_stop", None, at, status="success"))
    lines += compliant_resnet_lines(_line, T0 + 2000)
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
        # the compliance checker's reasons (it runs first, as in _read_result_file)
        ("cut", "common.yaml run_stop: Required EXACTLY_ONE occurrence of 'run_stop' but found 0"),
        ("broken", "Log lines had parsing errors. (1 log line(s) do not parse)"),
        ("not-a-log", "common.yaml log: No log lines detected"),
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
    head = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    settings.BENCHDB_CACHE = tmp_path / "cache"
    report = mlperf_training_ingest(location=f"file://{root}", workers=1)
    assert report.rounds == ["v1.1"] and report.added == 4
    assert set(
        Result.objects.filter(system__submitter_folder="Acme").values_list("commit", flat=True)
    ) == {head}


# --- hardening (issue 9): one test per finding, beside a real result folder ----------


def _copy_real(mlperf_data: Path, root: Path, repo: str, sub: str, system: str) -> None:
    """One real result folder and its systems file, under the submitter folder
    ``<sub>Copy`` (so that it is not the row the session ingest stored)."""
    src, dst = mlperf_data / repo / sub, root / f"{sub}Copy"
    bench = next((src / "results" / system).iterdir())
    (dst / "results" / system / bench.name).mkdir(parents=True)
    for f in bench.iterdir():
        shutil.copyfile(f, dst / "results" / system / bench.name / f.name)
    (dst / "systems").mkdir()
    shutil.copyfile(src / "systems" / f"{system}.json", dst / "systems" / f"{system}.json")


REAL = {
    "v1.1": ("training_results_v1.1", "Dell", "DSS8440x8A100-PCIE-40GB"),
    "v2.0": ("training_results_v2.0", "Graphcore", "ipu-pod16-TF1-closed"),
}


@pytest.fixture
def real_tree(tmp_path, mlperf_data, official_scores):
    """(make(version) -> repository root holding one real result folder and Acme's
    systems file; check() asserting that folder's official score)."""
    made = {}

    def make(version: str) -> Path:
        repo, sub, system = REAL[version]
        root = tmp_path / repo
        _copy_real(mlperf_data, root, repo, sub, system)
        (root / "Acme/systems").mkdir(parents=True)
        made["version"] = version
        return root

    def check() -> None:
        _, sub, system = REAL[made["version"]]
        [row] = [
            r
            for r in official_scores
            if (r["round"], r["submitter"], r["system"]) == (made["version"], sub, system)
        ]
        result = Result.objects.get(
            round__version=made["version"], system__submitter_folder=f"{sub}Copy"
        )
        assert result.score_minutes == pytest.approx(float(row["score_minutes"]), rel=1e-4)
        _assert_no_nonfinite_numbers()

    return make, check


def _acme(root: Path, system: str, minutes=(30.0, 31.0, 32.0, 33.0, 34.0), **system_fields):
    """Acme's result folder ``system/resnet`` with one log per entry of ``minutes``
    (a float, or the log's text), and its systems file."""
    bench = root / "Acme/results" / system / "resnet"
    bench.mkdir(parents=True)
    for i, m in enumerate(minutes):
        (bench / f"result_{i}.txt").write_text(m if isinstance(m, str) else _log(m))
    (root / "Acme/systems").mkdir(exist_ok=True)
    (root / "Acme/systems" / f"{system}.json").write_text(json.dumps({**SYSTEM, **system_fields}))
    return bench


def _score(system: str) -> Result:
    return Result.objects.get(system__submitter_folder="Acme", system__folder=system)


def _problem(path: str) -> IngestProblem:
    [problem] = IngestProblem.objects.filter(path=path)
    return problem


def _assert_no_nonfinite_numbers() -> None:
    columns = {
        "benchdb_result": ("score_minutes", "mean_minutes", "scaling_factor"),
        "benchdb_run": ("run_start_ms", "run_stop_ms", "time_to_train_minutes", "converge_at"),
    }
    with connection.cursor() as c:
        for table, cols in columns.items():
            bad = " OR ".join(f"{col} IN ('NaN', 'Infinity', '-Infinity')" for col in cols)
            c.execute(f"SELECT count(*) FROM {table} WHERE {bad}")  # noqa: S608 - fixed names
            assert c.fetchone() == (0,), table


def test_links_in_the_tree_are_problems_and_never_followed(tmp_path, real_tree):
    """Issue 9 item 2: result_N.txt -> /etc/passwd, a systems file linked outside, a
    system folder linked to a folder outside: each a problem naming the path; nothing
    of them is read, and the other folders keep their scores."""
    make, check = real_tree
    root = make("v1.1")
    good = _acme(root, "good")
    (good / "result_5.txt").symlink_to("/etc/passwd")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.json").write_text(json.dumps({**SYSTEM, "framework": "SECRET"}))
    _acme(root, "leak")
    (root / "Acme/systems/leak.json").unlink()
    (root / "Acme/systems/leak.json").symlink_to(outside / "secret.json")
    _acme(outside, "elsewhere")
    (root / "Acme/results/linked").symlink_to(outside / "Acme/results/elsewhere")
    report = mlperf_training_ingest(location=str(root), workers=1)
    assert report.failed == 0
    run_link = _problem("Acme/results/good/resnet/result_5.txt")
    assert run_link.message == "symbolic link, not followed" and run_link.result == _score("good")
    assert _problem("Acme/systems/leak.json").message == "symbolic link, not followed"
    assert _problem("Acme/results/linked").message == (
        "system folder is a symbolic link, not followed"
    )
    assert not System.objects.filter(folder="linked").exists()
    assert "SECRET" not in json.dumps(System.objects.get(folder="leak").raw)
    logs = RunLog.objects.filter(run__result__system__submitter_folder="Acme")
    assert logs.count() == 10
    assert not any(b"root:" in logcodec.decompress(bytes(log.compressed)) for log in logs)
    # Issue 21 item 7: a refused run file fails the result (not scored from the others).
    assert _score("good").score_minutes is None
    assert _score("good").reason == (
        "run file(s) refused, not read: result_5.txt (the result would have fewer runs)"
    )
    assert _score("leak").score_minutes == pytest.approx(32.0)  # from the logs alone
    check()


def test_one_bad_file_never_stops_the_ingest(tmp_path, real_tree):
    """Issue 9 item 3: a 401-digit factor, scaling.json nested 30,000 deep or over its
    size limit, a folder name with \\xff, a path over 500 characters, a systems field
    and an eval value nested 950 deep with 2 parser processes: problems, and the
    command exits 0."""
    make, check = real_tree
    root = make("v2.0")
    (_acme(root, "big-int") / "scaling.json").write_text('{"scaling_factor": ' + "9" * 401 + "}")
    deep = "[" * 30_000 + "]" * 30_000
    (_acme(root, "deep") / "scaling.json").write_text('{"scaling_factor": ' + deep + "}")
    (_acme(root, "huge") / "scaling.json").write_text('{"scaling_factor": ' + deep * 2 + "}")
    os.makedirs(os.fsencode(root / "Acme/results") + b"/bad\xffname/resnet")
    long_bench = root / ("L" * 190) / "results" / ("s" * 250) / ("b" * 60)
    long_bench.mkdir(parents=True)
    (long_bench / "result_0.txt").write_text(_log(30.0))
    _acme(root, "deepsys", notes=json.loads("[" * 950 + "]" * 950))
    eval950 = ':::MLLOG {"key": "eval_accuracy", "value": ' + "[" * 950 + "]" * 950 + "}"
    _acme(root, "deepeval", minutes=(30.0, 31.0, 32.0, 33.0, _log(34.0, extra=(eval950,))))
    out = io.StringIO()
    call_command("ingest", "mlperf-training", str(root), "--workers", "2", stdout=out)
    assert "0 results" not in out.getvalue()
    for system in ("big-int", "deep", "huge"):
        assert _score(system).score_minutes is None
        assert _score(system).reason.startswith("scaling.json: scaling_factor must be in")
    assert "OverflowError" in _problem("Acme/results/big-int/resnet/scaling.json").message
    assert "nested deeper than 32" in _problem("Acme/results/deep/resnet/scaling.json").message
    assert "over the 65,536 read" in _problem("Acme/results/huge/resnet/scaling.json").message
    assert _problem("Acme/results/bad\\xffname").message == "name is not printable UTF-8: not read"
    [long] = IngestProblem.objects.filter(message__startswith="path of 510 characters")
    assert len(long.path) == 500 and long.path.startswith("L" * 190 + "/results/")
    assert "nested deeper than 32" in _problem("Acme/systems/deepsys.json").message
    assert _score("deepsys").score_minutes == pytest.approx(32.0)
    [bad_eval] = IngestProblem.objects.filter(path="Acme/results/deepeval/resnet/result_4.txt")
    assert bad_eval.line == 8 and "nested deeper than 32" in bad_eval.message
    assert _score("deepeval").score_minutes == pytest.approx(32.0)  # 34 failed: the slowest
    check()


def test_the_command_exits_non_zero_only_when_a_result_is_not_stored(real_tree, monkeypatch):
    make, check = real_tree
    root = make("v1.1")
    _acme(root, "good")
    original = RunLog.objects.bulk_create

    def fail_for_acme(objs, *a, **kw):
        if any(o.run.path.startswith("Acme/") for o in objs):
            raise ValueError("simulated failure while writing logs")
        return original(objs, *a, **kw)

    monkeypatch.setattr(RunLog.objects, "bulk_create", fail_for_acme)
    with pytest.raises(CommandError, match="1 result folder.s. read but not stored"):
        call_command("ingest", "mlperf-training", str(root), stdout=io.StringIO())
    check()


def test_no_impossible_score_is_stored(real_tree):
    """Issue 9 item 4: run_stop before run_start, a second run_stop at an earlier time,
    times at +-1.7e308, scaling factors NaN, negative, 1e-320 and 1e300."""
    make, check = real_tree
    root = make("v2.0")
    _acme(root, "backwards", minutes=[_log(m, stop=T0) for m in (30.0, 31.0, 32.0, 33.0, 34.0)])
    second = _line("run_stop", None, T0 + 60_000, status="success")
    _acme(root, "two-stops", minutes=(_log(30.0, extra=(second,)), 31.0, 32.0, 33.0, 34.0))
    lo, hi = _line("run_start", None, -1.7e308), _line("run_stop", None, 1.7e308, status="success")
    extreme = _log(30.0, extra=(lo,)).replace(
        _line("run_stop", None, T0 + 1000 + 30 * 60000, status="success"), hi
    )
    _acme(root, "extreme", minutes=(extreme, extreme, 32.0, 33.0, 34.0))
    for name, factor in (("nan", "NaN"), ("neg", "-1.5"), ("tiny", "1e-320"), ("vast", "1e300")):
        (_acme(root, name) / "scaling.json").write_text('{"scaling_factor": ' + factor + "}")
    report = mlperf_training_ingest(location=str(root), workers=1)
    assert report.failed == 0
    backwards = Run.objects.filter(result=_score("backwards"))
    assert {r.failure_reason for r in backwards} == {
        "run_stop is not after run_start (-0.01667 min; benchdb sanity bound)"
    }
    assert _score("backwards").score_minutes is None
    [first] = Run.objects.filter(result=_score("two-stops"), index=0)
    assert (
        first.failure_reason == "run_stop logged 2 times at different times (benchdb sanity bound)"
    )
    assert _score("two-stops").score_minutes == pytest.approx(33.0)  # 31 dropped; 32, 33, 34
    assert _score("extreme").score_minutes is None
    assert _score("extreme").reason == "too many failed runs: 2 (at most 1)"
    for name in ("nan", "neg", "tiny", "vast"):
        result = _score(name)
        assert result.score_minutes is None and result.scaling_factor == 1.0
        assert "scaling_factor must be in [0.01, 10]" in result.reason
        path = f"Acme/results/{name}/resnet/scaling.json"
        assert "scaling_factor must be in [0.01, 10]" in _problem(path).message
    check()


def test_an_unknown_key_keeps_a_few_kilobytes_and_an_oversized_log_is_not_read(
    real_tree, monkeypatch
):
    """Issue 9 item 6: a 4 MB value of an unknown key keeps 4,096 characters (a
    warning with its line); a log over the size limit is a failed run, not read."""
    make, check = real_tree
    root = make("v1.1")
    knob = _line("some_new_knob", "x" * 4_000_000, T0)
    _acme(root, "knob", minutes=(_log(30.0, extra=(knob,)), 31.0, 32.0, 33.0, 34.0))
    huge = _log(30.0, extra=("y" * 6_000_000,))
    _acme(root, "huge", minutes=(huge, 31.0, 32.0, 33.0, 34.0))
    monkeypatch.setattr(safe_tree, "LOG_BYTES", 5_000_000)
    mlperf_training_ingest(location=str(root), workers=1)
    run = Run.objects.get(path="Acme/results/knob/resnet/result_0.txt")
    assert run.hyperparameters["some_new_knob"] == "x" * 4096
    warning = _problem("Acme/results/knob/resnet/result_0.txt")
    assert warning.line == 8 and warning.severity == "warning"
    assert warning.message == "some_new_knob: value of 4,000,000 characters cut to 4,096"
    assert _score("knob").score_minutes == pytest.approx(32.0)
    refused = Run.objects.get(path="Acme/results/huge/resnet/result_0.txt")
    assert refused.role == Run.Role.FAILED and refused.size == 0
    assert "over the 5,000,000 read" in _problem(refused.path).message
    assert _score("huge").score_minutes == pytest.approx(33.0)  # 31 dropped; 32, 33, 34
    check()


def test_duplicates_by_case_and_benchmark_aliases_are_read_once(real_tree):
    """Issue 9 item 8: acme/ beside Acme/, ResNet/ and resnet50/ beside resnet/, and a
    file named "result_5.txt\\n": problems, each result read once."""
    make, check = real_tree
    root = make("v1.1")
    good = _acme(root, "good")
    (good / "result_5.txt\n").write_text(_log(1.0))
    for bench in ("ResNet", "resnet50"):
        shutil.copytree(good, good.parent / bench)
    shutil.copytree(root / "Acme", root / "acme")
    report = mlperf_training_ingest(location=str(root), workers=1)
    assert report.results_seen == 2  # the real folder and Acme/results/good/resnet
    assert list(Result.objects.filter(system__submitter_folder__iexact="acme")) == [_score("good")]
    assert Run.objects.filter(result=_score("good")).count() == 5
    assert "only 'Acme' is read" in _problem("acme").message
    for other in ("ResNet", "resnet50"):
        assert "only 'resnet' is read" in _problem(f"Acme/results/good/{other}").message
    newline = _problem("Acme/results/good/resnet/result_5.txt\\n")
    assert newline.message == "name is not printable UTF-8: not read"
    assert _score("good").score_minutes == pytest.approx(32.0)
    check()
    (root / "acme/results/good/resnet/result_0.txt").unlink()
    shutil.rmtree(root / "acme")
    mlperf_training_ingest(location=str(root), workers=1)
    assert not IngestProblem.objects.filter(path="acme").exists()  # gone from the tree


def test_one_bad_value_keeps_its_result(real_tree):
    """Issue 9 item 9: eval value 1e400, a NUL in a string, 3e9 nodes, a file name
    over 200 characters: a problem on that value or run, and the result is kept."""
    make, check = real_tree
    root = make("v1.1")
    meta = '"metadata": {"epoch_num": 41}'
    inf_eval = '{"key": "eval_accuracy", "value": 1e400, "time_ms": 1, ' + meta + "}"
    nul = '{"key": "acme_option", "value": "lamb\\u0000", "time_ms": 1, "metadata": {}}'
    logs = (30.0, _log(31.0, extra=(":::MLLOG " + inf_eval, ":::MLLOG " + nul)), 32.0, 33.0, 34.0)
    _acme(root, "values", minutes=logs, framework="Py\u0000Torch", number_of_nodes="3e9")
    long = _acme(root, "long", minutes=(30.0, 31.0, 32.0, 33.0))
    long_name = "result_" + "9" * 220 + ".txt"
    (long / long_name).write_text(_log(34.0))
    report = mlperf_training_ingest(location=str(root), workers=1)
    assert report.failed == 0
    run = Run.objects.get(path="Acme/results/values/resnet/result_1.txt")
    assert run.hyperparameters["acme_option"] == "lamb\ufffd" and run.role == Run.Role.COUNTED
    assert [p[1] for p in run.eval_curve] == [0.76, None]
    problems = {(p.line, p.message) for p in IngestProblem.objects.filter(path=run.path)}
    assert problems == {
        (8, "eval_accuracy: inf is not a finite number, kept as null"),
        (9, "acme_option: NUL character replaced by U+FFFD"),
    }
    system = System.objects.get(submitter_folder="Acme", folder="values")
    assert (
        system.framework == "Py\ufffdTorch" and system.nodes is None and system.accelerators is None
    )
    messages = {p.message for p in IngestProblem.objects.filter(path="Acme/systems/values.json")}
    assert messages == {
        "number_of_nodes is outside [0, 1e+06) (benchdb sanity bound): not kept: '3e9'",
        "values changed to be stored: NUL character replaced by U+FFFD",
    }
    assert _score("values").score_minutes == pytest.approx(32.0)
    stored = Run.objects.get(result=_score("long"), index=4)
    assert len(stored.file_name) == 200 and stored.file_name.startswith("result_999")
    assert (
        "file name of 231 characters, over 200"
        in _problem(f"Acme/results/long/resnet/{long_name}").message
    )
    assert _score("long").score_minutes == pytest.approx(32.0)
    check()


def test_a_folder_that_cannot_be_read_is_not_stored_and_the_round_goes_on(real_tree, monkeypatch):
    """An I/O error on one file: that folder is counted as failed (read again next
    time), the others are stored."""
    make, check = real_tree
    root = make("v1.1")
    _acme(root, "good")
    _acme(root, "io-error")
    original = safe_tree.read_file

    def failing(root_dir, rel, *a, **kw):
        if "io-error" in rel:
            raise OSError(5, "Input/output error")
        return original(root_dir, rel, *a, **kw)

    monkeypatch.setattr(safe_tree, "read_file", failing)
    report = mlperf_training_ingest(location=str(root), workers=1)
    assert report.failed == 1 and report.failed_paths == ["Acme/results/io-error/resnet"]
    assert not Result.objects.filter(system__folder="io-error").exists()
    message = _problem("Acme/results/io-error/resnet").message
    assert message == (
        "result not stored: result folder not read: OSError: [Errno 5] Input/output error"
    )
    assert _score("good").score_minutes == pytest.approx(32.0)
    check()


@pytest.mark.django_db
def test_a_round_stored_under_an_old_tag_label_is_relabelled_on_ingest(
    ingested_shared, mlperf_data, client
):
    """Rounds after 2.1 have no final tag in mlcommons/logging: a database that stored
    "1.1.0" (no such tag) shows the real one, 1.1.0-rc4, after the next ingest."""
    Round.objects.filter(suite="training", version="v1.1").update(ruleset_tag="1.1.0")
    mlperf_training_ingest(location=str(mlperf_data / "training_results_v1.1"))
    rnd = Round.objects.get(suite="training", version="v1.1")
    assert rnd.ruleset_tag == "1.1.0-rc4"
    page = client.get(rnd.results.first().get_absolute_url()).content.decode()
    assert "mlperf_logging 1.1.0-rc4 rules" in page

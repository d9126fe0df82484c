"""Ingesting MLPerf Inference repositories into PostgreSQL (``ingest.inference.service``): every
published result of ../shared/mlperf-inference reproduced row by row from the database,
idempotency, the stored files, the export, and bad input recorded without stopping the
round."""

from __future__ import annotations

import csv
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
from benchdb.models import (
    InferenceComplianceTest,
    InferenceFinding,
    InferenceLog,
    InferenceResult,
    IngestProblem,
    Round,
)
from ingest.inference.service import mlperf_inference_ingest
from ingest.store import NOT_STORED
from tests.inference_data import INFERENCE_DATA as DATA

pytestmark = pytest.mark.django_db

OFFICIAL = DATA / "official_results.csv"
with OFFICIAL.open(newline="") as _f:
    ROWS = list(csv.DictReader(_f))
#: What the round-era checker says of a result it cannot judge on the public tree.
UNJUDGED = ("absent from the snapshot", "rejected on the public tree", "gives no result")


def _result(row: dict[str, str]) -> InferenceResult:
    return InferenceResult.objects.select_related("system").get(
        round__version=row["round"], source_path=row["location"]
    )


def test_every_official_result_is_reproduced_from_the_database(ingested_inference):
    """Value (0.01%), unit, power and validity of each of the 190 published results as
    stored; what the public tree cannot prove is unverifiable with the file named."""
    assert len(ROWS) == InferenceResult.objects.count() == 190
    for row in ROWS:
        r = _result(row)
        want = float(row["value"]) if row["value"] else None
        assert r.benchmark == row["mlperf_model"], row["location"]
        assert r.unit == row["unit"] and r.inferred is (row["inferred"] == "1")
        if want is not None:
            assert r.value == pytest.approx(want, rel=1e-4), row["location"]
        if row["power_value"]:
            assert r.power == pytest.approx(float(row["power_value"]), rel=1e-4)
        else:
            assert r.power is None
        if any(s in row["checker_note"] for s in UNJUDGED):
            assert r.status == "unverifiable" and r.missing, row["location"]
        else:
            assert r.status == "valid", (row["location"], r.reason)
        assert r.division == row["division"] and r.result_id == row["result_id"]


def test_v51_results_carry_their_published_id_and_value(ingested_inference):
    """summary_results.json gives the official ID and value of each v5.1 result it holds."""
    table = json.loads((DATA / "inference_results_v5.1/summary_results.json").read_bytes())
    by_location = {t["Location"]: t for t in table}
    stored = InferenceResult.objects.filter(round__version="v5.1")
    assert stored.count() == 70
    for r in stored:
        t = by_location.get(r.source_path)
        if t is None:  # the pointpainting offline folder the table leaves out
            assert r.result_id == "" and r.published_value is None
            continue
        assert (r.result_id, r.published_unit) == (t["ID"], t["Performance_Units"])
        assert r.published_value == pytest.approx(t["Performance_Result"])
        if r.status == "valid":
            assert r.value == pytest.approx(t["Performance_Result"], rel=1e-4)


def test_a_second_ingest_writes_nothing(ingested_inference):
    before = _writes()
    report = mlperf_inference_ingest(location=str(DATA), extra_mapping=_mapping())
    assert report.unchanged == report.results_seen == 190
    assert (report.added, report.changed, report.failed) == (0, 0, 0)
    assert _writes() == before


def _writes() -> int:
    with connection.cursor() as c:
        c.execute("SELECT sum(n_tup_ins + n_tup_upd + n_tup_del) FROM pg_stat_xact_user_tables")
        return int(c.fetchone()[0] or 0)


def _mapping() -> dict[str, str]:
    return {r["model"]: r["mlperf_model"] for r in ROWS if r["model"] != r["mlperf_model"]}


def test_logs_are_stored_whole_and_accuracy_logs_by_hash(ingested_inference):
    """Summary, detail and accuracy files decompress to the bytes on disk;
    mlperf_log_accuracy.json is stored by size and hash only."""
    r = _result(next(x for x in ROWS if x["location"].endswith("llama2-70b-99/Server")))
    root = DATA / f"inference_results_{r.round.version}"
    kinds = {log.kind for log in r.logs.all()}
    assert {"detail", "summary", "accuracy", "accuracy_log", "json"} <= kinds
    for log in r.logs.all():
        on_disk = (root / log.path).read_bytes()
        assert log.size == len(on_disk)
        if log.kind == "accuracy_log":
            assert log.compressed is None
        else:
            assert logcodec.decompress(bytes(log.compressed)) == on_disk


def test_compliance_tests_are_recorded_per_result(ingested_inference):
    """v3.0 resnet50 requires TEST01, TEST04 and TEST05; each passed."""
    r = InferenceResult.objects.get(
        round__version="v3.0",
        source_path="closed/NVIDIA/results/DGX-H100_H100-SXM-80GBx8_TRT/resnet50/Offline",
    )
    tests = {t.test: t.passed for t in r.compliance_tests.all()}
    assert tests == {"TEST01": True, "TEST04": True, "TEST05": True}


def test_the_export_has_the_published_columns(ingested_inference):
    out = io.StringIO()
    call_command(
        "export", "results", suite="inference", round_version="v5.1",
        model="llama2-70b-99", scenario="server", format="csv", stdout=out,
    )  # fmt: skip
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert {r["location"] for r in rows} == {
        "closed/AMD/results/8xMI300X_2xEPYC_9575F/llama2-70b-99/Server",
        "closed/NVIDIA/results/GB200-NVL72_GB200-186GB_aarch64x4_TRT/llama2-70b-99/Server",
    }
    amd = next(r for r in rows if "AMD" in r["location"])
    assert (amd["result_id"], amd["unit"], amd["status"]) == ("5.1-0001", "Tokens/s", "valid")
    assert float(amd["value"]) == pytest.approx(24593.8)
    assert amd["accelerator"] == "AMD Instinct MI300X 192GB HBM3" and amd["accelerators"] == "8"
    out = io.StringIO()
    call_command("export", "results", suite="inference", format="json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["schema"] == "benchdb.inference_results/1" and len(data["rows"]) == 190


# --- bad input: a small real tree (v3.0 NVIDIA DGX-H100 resnet50 and bert-99) ----------

SYSTEM = "DGX-H100_H100-SXM-80GBx8_TRT"
BASE = f"closed/NVIDIA/results/{SYSTEM}"


@pytest.fixture
def small_round(tmp_path: Path) -> Path:
    """A copy of two models of one v3.0 system (results, compliance, measurements,
    systems JSON), named as the repository so the round is known. Inference rounds the
    session stored are deleted inside this test's transaction (rolled back after it)."""
    Round.objects.filter(suite=Round.Suite.INFERENCE).delete()
    src = DATA / "inference_results_v3.0/closed/NVIDIA"
    dst = tmp_path / "inference_results_v3.0/closed/NVIDIA"
    for part in ("results", "compliance", "measurements"):
        for model in ("resnet50", "bert-99"):
            shutil.copytree(src / part / SYSTEM / model, dst / part / SYSTEM / model)
    (dst / "systems").mkdir()
    shutil.copy(src / f"systems/{SYSTEM}.json", dst / "systems")
    return tmp_path / "inference_results_v3.0"


def _ingest(root: Path) -> dict[str, InferenceResult]:
    report = mlperf_inference_ingest(location=str(root), workers=1)
    assert report.results_seen == 4 and report.failed == 0
    return {r.source_path[len(BASE) + 1 :]: r for r in InferenceResult.objects.all()}


def test_the_small_round_is_valid_as_published(small_round):
    results = _ingest(small_round)
    assert {k: r.status for k, r in results.items()} == {
        "resnet50/Offline": "valid",
        "resnet50/Server": "valid",
        "bert-99/Offline": "valid",
        "bert-99/Server": "valid",
    }


def test_a_detail_log_cut_short_is_a_problem_at_its_line(small_round):
    log = small_round / BASE / "resnet50/Offline/performance/run_1/mlperf_log_detail.txt"
    data = log.read_bytes()
    lines = data.count(b"\n")
    log.write_bytes(data[: len(data) // 2])
    results = _ingest(small_round)
    cut = results["resnet50/Offline"]
    assert cut.status == "invalid"
    rel = f"{BASE}/resnet50/Offline/performance/run_1/mlperf_log_detail.txt"
    problem = IngestProblem.objects.get(inference_result=cut, path=rel)
    assert problem.line is not None and 1 < problem.line < lines
    assert "cut short" in problem.message
    assert {f.rule for f in cut.findings.all()} >= {"log_unreadable"}
    assert results["resnet50/Server"].status == "valid"


def test_a_missing_detail_log_makes_the_result_unverifiable_not_invalid(small_round):
    (small_round / BASE / "bert-99/Server/performance/run_1/mlperf_log_detail.txt").unlink()
    results = _ingest(small_round)
    r = results["bert-99/Server"]
    assert r.status == "unverifiable"
    assert r.missing == [f"{BASE}/bert-99/Server/performance/run_1/mlperf_log_detail.txt"]
    assert r.value == pytest.approx(59597.6, rel=1e-4)  # from the summary log
    assert results["bert-99/Offline"].status == "valid"


def test_a_summary_that_disagrees_with_its_detail_log_is_a_finding_at_its_line(small_round):
    summary = small_round / BASE / "resnet50/Offline/performance/run_1/mlperf_log_summary.txt"
    text = summary.read_text()
    line_no, old = next(
        (i, ln) for i, ln in enumerate(text.splitlines(), 1) if ln.startswith("Samples per second")
    )
    summary.write_text(text.replace(old, "Samples per second: 999999.5"))
    r = _ingest(small_round)["resnet50/Offline"]
    finding = r.findings.get(rule="summary_detail_disagree")
    assert (finding.path, finding.line) == (str(summary.relative_to(small_round)), line_no)
    assert r.value == pytest.approx(727437, rel=1e-4)  # the detail log counts


def test_an_accuracy_file_without_its_metric_rejects_the_result(small_round):
    acc = small_round / BASE / "bert-99/Offline/accuracy/accuracy.txt"
    acc.write_text("hash=0123\n")
    r = _ingest(small_round)["bert-99/Offline"]
    assert r.status == "invalid" and r.accuracy_valid is False
    finding = r.findings.get(rule="accuracy_metric")
    assert finding.path == f"{BASE}/bert-99/Offline/accuracy/accuracy.txt" and finding.line == 1
    assert "F1" in finding.message


def test_a_missing_compliance_folder_rejects_the_result(small_round):
    shutil.rmtree(small_round / f"closed/NVIDIA/compliance/{SYSTEM}/resnet50/Server")
    results = _ingest(small_round)
    r = results["resnet50/Server"]
    assert r.status == "invalid" and r.compliance_valid is False
    assert r.findings.filter(rule="compliance_missing").exists()
    assert {t.test: t.passed for t in r.compliance_tests.all()} == {
        "TEST01": False,
        "TEST04": False,
        "TEST05": False,
    }
    assert results["resnet50/Offline"].status == "valid"


def test_a_symlink_out_of_the_tree_is_not_followed(small_round, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("accuracy=99.0\nhash=0\n")
    acc = small_round / BASE / "resnet50/Server/accuracy/accuracy.txt"
    acc.unlink()
    os.symlink(secret, acc)
    results = _ingest(small_round)
    r = results["resnet50/Server"]
    assert r.status == "invalid"
    assert r.findings.filter(rule="accuracy_missing").exists()
    assert IngestProblem.objects.filter(
        inference_result=r, path=str(acc.relative_to(small_round))
    ).exists()
    assert not r.logs.filter(path__endswith="accuracy/accuracy.txt").exists()
    assert results["resnet50/Offline"].status == "valid"


def test_a_failed_write_keeps_nothing_of_the_result_and_the_next_ingest_completes_it(
    small_round, monkeypatch
):
    """All or nothing per result: a database error in the middle of one result's
    transaction leaves none of its rows; the others are stored, and the next ingest
    stores it."""
    real = InferenceFinding.objects.bulk_create

    def failing(objs, *args, **kwargs):  # type: ignore[no-untyped-def]
        objs = list(objs)
        if objs and "bert-99/Offline" in objs[0].result.source_path:
            from django.db import DataError

            raise DataError("simulated failure")
        return real(objs, *args, **kwargs)

    # A finding makes the write reach bulk_create for findings: a disagreeing summary.
    summary = small_round / BASE / "bert-99/Offline/performance/run_1/mlperf_log_summary.txt"
    text = summary.read_text()
    old = next(ln for ln in text.splitlines() if ln.startswith("Samples per second"))
    summary.write_text(text.replace(old, "Samples per second: 1.5"))
    monkeypatch.setattr(InferenceFinding.objects, "bulk_create", failing)
    report = mlperf_inference_ingest(location=str(small_round), workers=1)
    assert report.failed == 1 and report.added == 3
    path = f"{BASE}/bert-99/Offline"
    assert not InferenceResult.objects.filter(source_path=path).exists()
    assert not InferenceLog.objects.filter(path__startswith=path).exists()
    assert IngestProblem.objects.get(path=path).message.startswith(NOT_STORED)
    monkeypatch.setattr(InferenceFinding.objects, "bulk_create", real)
    report = mlperf_inference_ingest(location=str(small_round), workers=1)
    assert (report.added, report.unchanged, report.failed) == (1, 3, 0)
    assert not IngestProblem.objects.filter(path=path).exists()
    assert (
        InferenceComplianceTest.objects.filter(result__source_path=path).count() == 2
    )  # no TEST04 for bert


def test_a_compliance_file_missing_rejects_the_result(small_round):
    """``check_compliance_acc_dir()``: TEST01's accuracy folder must hold
    mlperf_log_accuracy.json (a file list mismatch rejects the result from v2.0)."""
    test01 = small_round / f"closed/NVIDIA/compliance/{SYSTEM}/resnet50/Offline/TEST01"
    (test01 / "accuracy/mlperf_log_accuracy.json").unlink()
    results = _ingest(small_round)
    r = results["resnet50/Offline"]
    assert r.status == "invalid" and r.compliance_valid is False
    finding = r.findings.get(rule="compliance_files")
    assert finding.path == str(
        (test01 / "accuracy/mlperf_log_accuracy.json").relative_to(small_round)
    )
    assert {t.test: t.passed for t in r.compliance_tests.all()}["TEST01"] is False
    assert results["resnet50/Server"].status == "valid"


def test_a_git_url_is_cloned_read_in_parallel_and_its_commit_recorded(small_round, settings):
    env = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    for args in (["init", "-q"], ["add", "-A"], [*env, "commit", "-qm", "results"]):
        subprocess.run(["git", "-C", str(small_round), *args], check=True)
    head = subprocess.run(
        ["git", "-C", str(small_round), "rev-parse", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    settings.BENCHDB_CACHE = small_round.parent / "cache"
    report = mlperf_inference_ingest(
        location=f"file://{small_round}", round_version="v3.0", workers=2
    )
    assert (report.results_seen, report.added, report.scored) == (4, 4, 4)
    assert set(InferenceResult.objects.values_list("commit", flat=True)) == {head}


def test_the_command_prints_the_report_and_refuses_an_unknown_round(small_round):
    out = io.StringIO()
    call_command(
        "ingest", "mlperf-inference", str(small_round), "--workers", "1", "--json", stdout=out
    )
    assert json.loads(out.getvalue())["added"] == 4
    with pytest.raises(CommandError, match="--round"):
        call_command("ingest", "mlperf-inference", str(small_round), "--round", "v9.9")


def test_a_file_the_omitted_manifest_names_re_judges_the_result(small_round):
    """A file absent from a snapshot is listed in ``manifests/<round>.omitted.tsv``
    beside the round: the result it belongs to is judged again when the manifest
    changes, though none of its own files did."""
    rel = f"closed/NVIDIA/compliance/{SYSTEM}/resnet50/Offline/TEST01"
    rel += "/accuracy/mlperf_log_accuracy.json"
    size = (small_round / rel).stat().st_size
    (small_round / rel).unlink()
    parent = small_round.parent  # holds inference_results_v3.0/ and manifests/
    mlperf_inference_ingest(location=str(parent), workers=1)
    assert _result_at("resnet50/Offline").status == "invalid"
    (parent / "manifests").mkdir()
    (parent / "manifests/v3.0.omitted.tsv").write_text(
        f"path\tbytes\tgit_blob_sha1\treason\n{rel}\t{size}\t0\tblob absent from the snapshot\n"
    )
    report = mlperf_inference_ingest(location=str(parent), workers=1)
    assert (report.changed, report.unchanged) == (1, 3)
    r = _result_at("resnet50/Offline")
    assert r.status != "invalid" and not r.findings.filter(rule="compliance_files").exists()


def _result_at(rel: str) -> InferenceResult:
    return InferenceResult.objects.get(source_path=f"{BASE}/{rel}")

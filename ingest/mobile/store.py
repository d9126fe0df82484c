"""Stores judged MLPerf Mobile records (``ingest.mobile.parsers.tree``) in Inference's
tables, round suite ``mobile``: one ``InferenceResult`` per task on a system
(``<division>/<submitter>/results/<system>/<task id>``), value the app's throughput
(queries/s for SingleStream, samples/s for Offline; higher is better) recomputed from
LoadGen's 90th percentile latency, ``accuracy`` as the app reported it; the lines read
and the rules applied as ``InferenceFinding`` rows (the evidence), the LoadGen logs and
the app's files as ``InferenceLog`` rows. One short transaction per result."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from benchdb import logcodec
from benchdb.mlperf.mobile import rules
from benchdb.models import (
    InferenceFinding,
    InferenceLog,
    InferenceResult,
    IngestProblem,
    Round,
    Submitter,
    System,
)
from ingest.mobile.parsers.tree import MobileRecord
from ingest.parsers import safe_json, safe_tree
from ingest.store import NOT_STORED, PATH_WIDTH, IngestReport, finite, problem_row, submitter_for


class Writer:
    """Stores the records of one round (``rnd``) read from ``repository`` at ``commit``."""

    def __init__(self, rnd: Round, repository: str, commit: str) -> None:
        self.round, self.repository, self.commit = rnd, repository, commit
        self.submitters: dict[str, Submitter] = {}
        self.results = dict(
            InferenceResult.objects.filter(round=rnd).values_list("source_path", "pk")
        )

    def store(self, rec: MobileRecord, sha256: str, report: IngestReport) -> None:
        """Store ``rec`` in one transaction, replacing what an earlier ingest stored for
        it. Raises DatabaseError / ValueError (rolled back: ``ingest.pipeline.store_each``
        records it)."""
        submitter = submitter_for(rec.submitter, "", self.submitters)
        system = self._system(rec, submitter)
        path = safe_tree.shorten(rec.path, PATH_WIDTH)
        pk = self.results.get(path)
        result = InferenceResult(
            pk=pk,
            round=self.round,
            system=system,
            model_folder=rec.benchmark_id[:128],
            scenario_folder=rec.judgement.scenario[:32],
            source_path=path,
            repository=self.repository,
            commit=self.commit,
            content_sha256=sha256,
            **_fields(self.round.version, rec),
        )
        with transaction.atomic():
            result.save(force_insert=pk is None, force_update=pk is not None)
            IngestProblem.objects.filter(
                round=self.round, path=rec.path, result=None, message__startswith=NOT_STORED
            ).delete()
            if pk is not None:
                result.findings.all().delete()
                result.logs.all().delete()
                IngestProblem.objects.filter(inference_result=result).delete()
            _children(result, rec)
            IngestProblem.objects.bulk_create(
                [problem_row(self.round, p, inference_result=result) for p in rec.problems],
                ignore_conflicts=True,
            )
        self.results[path] = result.pk
        report.added += pk is None
        report.changed += pk is not None
        report.runs_stored += len(rec.files)
        report.problems += len(rec.problems)

    def _system(self, rec: MobileRecord, submitter: Submitter) -> System:
        d = rec.system_info
        fields: dict[str, Any] = {"division": rec.division}
        if d is not None:
            fields |= {
                "raw": safe_json.storable(d.raw)[0],
                "name": (d.device or d.processor)[:255],
                "host_processor_model": d.processor[:255],
                "accelerator_model": d.accelerator[:255],
                "framework": d.sdk[:255],
                "source_path": safe_tree.shorten(d.path, PATH_WIDTH),
            }
        system, _ = System.objects.update_or_create(
            round=self.round,
            submitter_folder=f"{rec.division}/{rec.submitter}",
            folder=rec.system,
            defaults={"submitter": submitter, **fields},
        )
        return system


def _fields(version: str, rec: MobileRecord) -> dict[str, Any]:
    """The ``InferenceResult`` columns of a record (module docstring)."""
    j = rec.judgement
    task = rules.TASKS.get(version, {}).get(rec.benchmark_id)
    app = rec.app
    perf_txt = next((e.values for p, e in rec.text.items() if "performance" in p), {})
    unit = "samples/s" if j.scenario == "Offline" else "queries/s"
    return {
        "division": rec.division,
        "benchmark": rec.benchmark_id[:64],
        "scenario": j.scenario[:32],
        "metric": "throughput (mobile app)",
        "unit": unit,
        "higher_is_better": True,
        "value": finite(j.throughput),
        "status": InferenceResult.Status.VALID if j.valid else InferenceResult.Status.INVALID,
        "reason": safe_json.storable("; ".join(j.reasons))[0],
        "accuracy": {task.accuracy if task else "accuracy": j.accuracy}
        if j.accuracy is not None
        else {},
        # the app checks no quality target (only 0 <= accuracy <= max_accuracy)
        "accuracy_valid": None,
        "published_value": finite(app.throughput) if app else None,
        "published_unit": unit if app and app.throughput is not None else "",
        "settings": {
            "task": task.name if task else "",
            "model": task.model if task else "",
            "accuracy_metric": task.accuracy if task else "",
            "accuracy_text": j.accuracy_text,
            "basis": j.basis,
            "settings_differ": j.settings_differ,
            "latency90_s": j.latency90_s,
            "published_latency90_s": app.latency90_s if app else None,
            "published_valid": app.result_valid if app else None,
            "published_text": {k: v for k, (v, _line) in perf_txt.items()},
            "accelerator": app.accelerator if app else "",
            "framework": app.framework if app else "",
            "device": rec.system_info.device if rec.system_info else "",
        },
    }


def _children(result: InferenceResult, rec: MobileRecord) -> None:
    """The result's findings (evidence lines and rules) and files (compressed)."""
    InferenceFinding.objects.bulk_create(
        InferenceFinding(
            result=result,
            rule=x.rule[:64],
            path=safe_tree.shorten(safe_tree.printable(x.path), PATH_WIDTH),
            line=x.line,
            message=safe_json.storable(x.message)[0],
            invalidates=x.invalidates,
        )
        for x in rec.judgement.findings
    )
    InferenceLog.objects.bulk_create(
        InferenceLog(
            result=result,
            kind=f.kind[:16],
            path=safe_tree.shorten(safe_tree.printable(f.path), PATH_WIDTH),
            size=f.size,
            sha256=f.sha256,
            compressed=logcodec.compress(f.data),
        )
        for f in rec.files
    )

"""Stores judged MLPerf Automotive records (``ingest.automotive.records``) in
Inference's tables: a round of suite ``automotive``, one ``InferenceResult`` per result
folder with its findings and files (LoadGen logs, as Inference's, written by Inference's
writer: ``ingest.inference.store`` ``findings_create``, ``log_rows``, ``logs_create``).
One short transaction per result (Django's ORM); systems and submitters are shared rows
written first, as for every suite (``ingest.store``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from benchdb import logcodec
from benchdb.models import (
    InferenceResult,
    IngestProblem,
    Round,
    Submitter,
    System,
)
from ingest.automotive.records import AutomotiveRecord
from ingest.inference.store import findings_create, log_rows, logs_create
from ingest.parsers import safe_json, safe_tree
from ingest.store import (
    NOT_STORED,
    PATH_WIDTH,
    IngestReport,
    finite,
    problem_row,
    submitter_for,
    system_fields,
)


class Writer:
    """Stores the records of one round (``rnd``) read from ``repository`` at ``commit``."""

    def __init__(self, rnd: Round, repository: str, commit: str) -> None:
        self.round, self.repository, self.commit = rnd, repository, commit
        self.submitters: dict[str, Submitter] = {}
        self.results = dict(
            InferenceResult.objects.filter(round=rnd).values_list("source_path", "pk")
        )

    def store(self, rec: AutomotiveRecord, sha256: str, report: IngestReport) -> None:
        """Store ``rec`` (content hash ``sha256``) in one transaction, replacing what an
        earlier ingest stored for its folder. Raises DatabaseError / ValueError (the
        transaction is rolled back: ``ingest.pipeline.store_each`` records it)."""
        json_name = rec.system_description.submitter if rec.system_description else ""
        submitter = submitter_for(rec.submitter, json_name, self.submitters)
        system = self._system(rec, submitter)
        path = safe_tree.shorten(rec.path, PATH_WIDTH)
        pk = self.results.get(path)
        result = InferenceResult(
            pk=pk,
            round=self.round,
            system=system,
            model_folder=rec.model_folder,
            scenario_folder=rec.path.rsplit("/", 1)[-1],
            source_path=path,
            repository=self.repository,
            commit=self.commit,
            content_sha256=sha256,
            **_result_fields(rec),
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
            findings_create(result, rec.findings)
            logs_create(log_rows(result, rec.files, pack=logcodec.compress))
            IngestProblem.objects.bulk_create(
                [problem_row(self.round, p, inference_result=result) for p in rec.problems],
                ignore_conflicts=True,
            )
        self.results[path] = result.pk
        report.added += pk is None
        report.changed += pk is not None
        report.runs_stored += len(rec.files)
        report.problems += len(rec.problems)

    def _system(self, rec: AutomotiveRecord, submitter: Submitter) -> System:
        fields: dict[str, Any] = {"division": rec.division}
        if rec.system_description is not None:
            fields = system_fields(rec.system_description, rec.division)
        system, _ = System.objects.update_or_create(
            round=self.round,
            submitter_folder=f"{rec.division}/{rec.submitter}",
            folder=rec.system,
            defaults={"submitter": submitter, **fields},
        )
        return system


def _result_fields(rec: AutomotiveRecord) -> dict[str, Any]:
    """The ``InferenceResult`` columns of a record: the checker's value (ms, lower is
    better), its status (``valid`` / ``invalid``), reasons, accuracy and result ID."""
    category = ""
    if rec.system_description is not None:
        category = str(rec.system_description.raw.get("system_type", "")).strip()[:32]
    return {
        "division": rec.division,
        "category": category,
        "benchmark": rec.model[:64],
        "scenario": rec.scenario[:32],
        "metric": rec.metric[:100],
        "unit": rec.unit[:32],
        "higher_is_better": rec.direction != "lower",
        "value": finite(rec.value),
        "status": InferenceResult.Status.VALID if rec.valid else InferenceResult.Status.INVALID,
        "reason": safe_json.storable("; ".join(rec.reasons))[0],
        "accuracy": {k: x for k, v in rec.accuracy.items() if (x := _number(v)) is not None},
        "accuracy_valid": rec.accuracy_valid,
        "result_id": rec.result_id[:32],
        "published_value": finite(rec.published_value),
        "published_unit": rec.unit[:32] if rec.published_value is not None else "",
        "settings": {"result_id_origin": rec.result_id_origin, "metric_label": rec.metric_label},
    }


def _number(text: str) -> float | None:
    """An accuracy figure as the record writes it ("0.2683") as a finite float, or None."""
    try:
        return finite(float(text))
    except (TypeError, ValueError):
        return None

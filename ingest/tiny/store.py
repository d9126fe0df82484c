"""Stores judged MLPerf Tiny records (``ingest.tiny.parsers.tree``) in Inference's
tables, round suite ``tiny``: one ``InferenceResult`` per result folder
(``<division>/<submitter>/results/<system>/<model>``), value the latency in ms (lower is
better), ``power`` the energy per inference (uJ/inf.; the power in mW for streaming
wakeword), ``accuracy`` as the checker read it; the lines read and the rules applied as
``InferenceFinding`` rows (the evidence), the runner's files as ``InferenceLog`` rows.
One short transaction per result."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from benchdb import logcodec
from benchdb.models import (
    InferenceFinding,
    InferenceLog,
    InferenceResult,
    IngestProblem,
    Round,
    Submitter,
    System,
)
from ingest.parsers import safe_json, safe_tree
from ingest.store import NOT_STORED, PATH_WIDTH, IngestReport, finite, problem_row, submitter_for
from ingest.tiny.parsers.tree import TinyRecord


class Writer:
    """Stores the records of one round (``rnd``) read from ``repository`` at ``commit``;
    ``ids``: result folder -> result ID; ``published``: result folder -> the published
    table's row."""

    def __init__(
        self,
        rnd: Round,
        repository: str,
        commit: str,
        ids: dict[str, tuple[str, str]],
        published: dict[str, dict[str, str]],
    ) -> None:
        self.round, self.repository, self.commit = rnd, repository, commit
        self.ids, self.published = ids, published
        self.submitters: dict[str, Submitter] = {}
        self.results = dict(
            InferenceResult.objects.filter(round=rnd).values_list("source_path", "pk")
        )

    def store(self, rec: TinyRecord, sha256: str, report: IngestReport) -> None:
        """Store ``rec`` in one transaction, replacing what an earlier ingest stored for
        its folder. Raises DatabaseError / ValueError (rolled back:
        ``ingest.pipeline.store_each`` records it)."""
        desc = rec.system_description
        submitter = submitter_for(rec.submitter, "", self.submitters)
        system = self._system(rec, submitter)
        path = safe_tree.shorten(rec.path, PATH_WIDTH)
        pk = self.results.get(path)
        result = InferenceResult(
            pk=pk,
            round=self.round,
            system=system,
            model_folder=rec.model_folder,
            scenario_folder="",
            source_path=path,
            repository=self.repository,
            commit=self.commit,
            content_sha256=sha256,
            **self._fields(rec, desc.board_name if desc else ""),
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

    def _system(self, rec: TinyRecord, submitter: Submitter) -> System:
        d = rec.system_description
        fields: dict[str, Any] = {"division": rec.division}
        if d is not None:
            fields |= {
                "raw": safe_json.storable(d.raw)[0],
                "name": d.board_name,
                "availability": d.status if d.status in ("available", "preview") else "",
                "host_processor_model": d.processor,
                "accelerator_model": d.accelerator,
                "framework": d.framework,
                "source_path": safe_tree.shorten(d.path, PATH_WIDTH),
            }
        system, _ = System.objects.update_or_create(
            round=self.round,
            submitter_folder=f"{rec.division}/{rec.submitter}",
            folder=rec.system,
            defaults={"submitter": submitter, **fields},
        )
        return system

    def _fields(self, rec: TinyRecord, board: str) -> dict[str, Any]:
        """The ``InferenceResult`` columns of a record (module docstring)."""
        j = rec.judgement
        result_id, unique = self.ids.get(rec.path, ("", ""))
        row = self.published.get(rec.path, {})
        return {
            "division": rec.division,
            "benchmark": rec.model_folder[:64],
            "scenario": "streaming" if rec.model_folder == "sww" else "",
            "metric": "latency (1000 / median throughput)",
            "unit": "ms",
            "higher_is_better": False,
            "value": finite(j.latency_ms),
            "status": InferenceResult.Status.VALID if j.valid else InferenceResult.Status.INVALID,
            "reason": safe_json.storable("; ".join(j.reasons))[0],
            "accuracy": {k: v for k, v in j.accuracy.items() if finite(v) is not None},
            "accuracy_valid": j.accuracy_valid,
            "power": finite(j.energy.value) if j.energy else None,
            "power_unit": j.energy_unit if j.energy else "",
            "result_id": result_id,
            "published_value": finite(_number(row.get("Result"))),
            "published_unit": row.get("ResultUnit", "")[:32],
            "published_power": finite(_number(row.get("Power"))),
            "settings": {
                "throughput": j.throughput.value if j.throughput else None,
                "throughput_text": j.throughput.text if j.throughput else "",
                "accuracy_text": j.accuracy_text,
                "median_throughput_recomputed": j.median_throughput,
                "median_energy_recomputed": j.median_energy,
                "board_name": board,
                "unique_id": unique,
                "result_id_origin": ("summary.csv" if row else "derived") if result_id else "",
                "published_accuracy": row.get("Accuracy", ""),
            },
        }


def _number(text: str | None) -> float | None:
    try:
        return float(text) if text not in (None, "") else None
    except ValueError:
        return None


def _children(result: InferenceResult, rec: TinyRecord) -> None:
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

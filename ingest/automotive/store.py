"""Stores judged MLPerf Automotive records (``ingest.automotive.records``) in
Inference's tables: a round of suite ``automotive``, one ``InferenceResult`` per result
folder with its findings and files (LoadGen logs, as Inference's), written by the
writer of the suites stored in Inference's tables
(``ingest.inference.suite_store.SuiteWriter``: one short transaction per result;
systems and submitters are shared rows written first, as for every suite)."""

from __future__ import annotations

from typing import Any

from benchdb.models import InferenceResult, Submitter, System
from ingest.automotive.records import AutomotiveRecord
from ingest.inference.suite_store import SuiteWriter
from ingest.parsers import safe_json
from ingest.store import IngestReport, finite, submitter_for, system_fields


class Writer(SuiteWriter):
    """Stores the records of one round (``rnd``) read from ``repository`` at ``commit``."""

    def store(self, rec: AutomotiveRecord, sha256: str, report: IngestReport) -> None:
        """Store ``rec`` (content hash ``sha256``) in one transaction, replacing what an
        earlier ingest stored for its folder (``SuiteWriter.save``). Raises DatabaseError
        / ValueError (the transaction is rolled back: ``ingest.pipeline.store_each``
        records it)."""
        json_name = rec.system_description.submitter if rec.system_description else ""
        submitter = submitter_for(rec.submitter, json_name, self.submitters)
        system = self._system(rec, submitter)
        result = self.result_row(
            rec.path,
            system,
            sha256,
            model_folder=rec.model_folder,
            scenario_folder=rec.path.rsplit("/", 1)[-1],
            **_result_fields(rec),
        )
        self.save(result, rec.path, rec.findings, rec.files, rec.problems, report)

    def _system(self, rec: AutomotiveRecord, submitter: Submitter) -> System:
        fields: dict[str, Any] = {"division": rec.division}
        if rec.system_description is not None:
            fields = system_fields(rec.system_description, rec.division)
        return self.system_row(f"{rec.division}/{rec.submitter}", rec.system, submitter, fields)


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

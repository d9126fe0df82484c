"""Stores judged MLPerf Mobile records (``ingest.mobile.parsers.tree``) in Inference's
tables, round suite ``mobile``: one ``InferenceResult`` per task on a system
(``<division>/<submitter>/results/<system>/<task id>``), value the app's throughput
(queries/s for SingleStream, samples/s for Offline; higher is better) recomputed from
LoadGen's 90th percentile latency, ``accuracy`` as the app reported it; the lines read
and the rules applied as ``InferenceFinding`` rows (the evidence), the LoadGen logs and
the app's files as ``InferenceLog`` rows. One short transaction per result
(``ingest.inference.suite_store.SuiteWriter``)."""

from __future__ import annotations

from typing import Any

from benchdb.mlperf.mobile import rules
from benchdb.models import InferenceResult, Submitter, System
from ingest.inference.suite_store import SuiteWriter
from ingest.mobile.parsers.tree import MobileRecord
from ingest.parsers import safe_json, safe_tree
from ingest.store import PATH_WIDTH, IngestReport, finite, submitter_for


class Writer(SuiteWriter):
    """Stores the records of one round (``rnd``) read from ``repository`` at ``commit``."""

    def store(self, rec: MobileRecord, sha256: str, report: IngestReport) -> None:
        """Store ``rec`` in one transaction, replacing what an earlier ingest stored for
        it (``SuiteWriter.save``). Raises DatabaseError / ValueError (rolled back:
        ``ingest.pipeline.store_each`` records it)."""
        submitter = submitter_for(rec.submitter, "", self.submitters)
        system = self._system(rec, submitter)
        result = self.result_row(
            rec.path,
            system,
            sha256,
            model_folder=rec.benchmark_id[:128],
            scenario_folder=rec.judgement.scenario[:32],
            **_fields(self.round.version, rec),
        )
        self.save(result, rec.path, rec.judgement.findings, rec.files, rec.problems, report)

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
        return self.system_row(f"{rec.division}/{rec.submitter}", rec.system, submitter, fields)


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

"""Stores judged MLPerf Tiny records (``ingest.tiny.parsers.tree``) in Inference's
tables, round suite ``tiny``: one ``InferenceResult`` per result folder
(``<division>/<submitter>/results/<system>/<model>``), value the latency in ms (lower is
better), ``power`` the energy per inference (uJ/inf.; the power in mW for streaming
wakeword), ``accuracy`` as the checker read it; the lines read and the rules applied as
``InferenceFinding`` rows (the evidence), the runner's files as ``InferenceLog`` rows.
One short transaction per result (``ingest.inference.suite_store.SuiteWriter``)."""

from __future__ import annotations

from typing import Any

from benchdb.models import InferenceResult, Round, Submitter, System
from ingest.inference.suite_store import SuiteWriter
from ingest.parsers import safe_json, safe_tree
from ingest.store import PATH_WIDTH, IngestReport, finite, submitter_for
from ingest.tiny.parsers.tree import TinyRecord


class Writer(SuiteWriter):
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
        super().__init__(rnd, repository, commit)
        self.ids, self.published = ids, published

    def store(self, rec: TinyRecord, sha256: str, report: IngestReport) -> None:
        """Store ``rec`` in one transaction, replacing what an earlier ingest stored for
        its folder (``SuiteWriter.save``). Raises DatabaseError / ValueError (rolled back:
        ``ingest.pipeline.store_each`` records it)."""
        desc = rec.system_description
        submitter = submitter_for(rec.submitter, "", self.submitters)
        system = self._system(rec, submitter)
        result = self.result_row(
            rec.path,
            system,
            sha256,
            model_folder=rec.model_folder,
            scenario_folder="",
            **self._fields(rec, desc.board_name if desc else ""),
        )
        self.save(result, rec.path, rec.judgement.findings, rec.files, rec.problems, report)

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
        return self.system_row(f"{rec.division}/{rec.submitter}", rec.system, submitter, fields)

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

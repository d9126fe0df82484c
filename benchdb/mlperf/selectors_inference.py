"""Reads of MLPerf Inference results (the list selectors of ``selectors.py`` for the
inference tables): one query per table, rows over the schemas of ``benchdb.tables.schemas``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from benchdb import vocabulary
from benchdb.models import InferenceResult


def inference_result_rows(
    *,
    round_version: str | None = None,
    model: str | None = None,
    scenario: str | None = None,
    division: str | None = None,
    submitter: str | None = None,
) -> list[dict[str, Any]]:
    """Rows of ``benchdb.inference_results/1``, by round and location (one query).
    ``model`` is a benchmark with its variant (``llama2-70b-99``); ``scenario`` any
    spelling (``offline``); ``submitter`` the name or folder, case-insensitively."""
    qs = InferenceResult.objects.order_by("round__version", "source_path")
    if round_version:
        qs = qs.filter(round__version="v" + round_version.lstrip("v"))
    if model:
        qs = qs.filter(benchmark=model)
    if scenario:
        qs = qs.filter(scenario=vocabulary.inference_scenario_for(scenario) or scenario)
    if division:
        qs = qs.filter(division=division)
    if submitter:
        qs = qs.filter(
            Q(system__submitter__name__iexact=submitter)
            | Q(system__submitter_folder__iendswith="/" + submitter)
        )
    out = []
    for v in qs.values(*_INFERENCE_FIELDS.values()):
        row = {col: v[path] for col, path in _INFERENCE_FIELDS.items()}
        row["accuracy"] = "; ".join(f"{k}={x:g}" for k, x in (row["accuracy"] or {}).items())
        row["missing"] = "; ".join(row["missing"] or [])
        out.append(row)
    return out


_INFERENCE_FIELDS = {
    "id": "id",
    "result_id": "result_id",
    "round": "round__version",
    "division": "division",
    "category": "category",
    "submitter": "system__submitter__name",
    "system": "system__folder",
    "system_name": "system__name",
    "accelerator": "system__accelerator_model",
    "accelerators": "system__accelerators",
    "processor": "system__host_processor_model",
    "software": "system__framework",
    "availability": "system__availability",
    "model_folder": "model_folder",
    "model": "benchmark",
    "scenario": "scenario",
    "metric": "metric",
    "value": "value",
    "unit": "unit",
    "inferred": "inferred",
    "accuracy": "accuracy",
    "accuracy_valid": "accuracy_valid",
    "power": "power",
    "power_unit": "power_unit",
    "compliance_valid": "compliance_valid",
    "status": "status",
    "reason": "reason",
    "missing": "missing",
    "published_value": "published_value",
    "published_unit": "published_unit",
    "location": "source_path",
}

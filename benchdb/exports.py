"""Pure reshaping of selector output into CSV and JSON. No queries here.

JSON shape (stable; ``schema`` names it): ``{"schema": "benchdb.results/1",
"columns": [...], "rows": [{column: value, ...}, ...]}``; numbers are JSON numbers,
missing values ``null``. CSV has the same columns in the same order, missing values
empty.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from typing import Any

RESULT_COLUMNS = (
    "round",
    "submitter",
    "system",
    "system_name",
    "division",
    "availability",
    "benchmark",
    "accelerator_model",
    "accelerators",
    "nodes",
    "framework",
    "score_minutes",
    "runs_total",
    "runs_counted",
    "runs_failed",
    "scaling_factor",
    "status",
    "reason",
    "result_id",
    "source",
)


def result_row(r: Any) -> dict[str, Any]:
    """One ``benchdb.models.Result`` (with round, system, submitter, benchmark
    joined) -> a flat dict over :data:`RESULT_COLUMNS`. ``score_minutes`` in minutes."""
    s = r.system
    return {
        "round": r.round.version,
        "submitter": s.submitter.name,
        "system": s.folder,
        "system_name": s.name,
        "division": r.division,
        "availability": s.availability,
        "benchmark": r.benchmark.key,
        "accelerator_model": s.accelerator_model,
        "accelerators": s.accelerators,
        "nodes": s.nodes,
        "framework": s.framework,
        "score_minutes": r.score_minutes,
        "runs_total": r.runs_total,
        "runs_counted": r.runs_counted,
        "runs_failed": r.runs_failed,
        "scaling_factor": r.scaling_factor,
        "status": r.status,
        "reason": r.reason,
        "result_id": r.result_id,
        "source": source_url(r.repository, r.commit, r.source_path),
    }


def source_url(repository: str, commit: str, path: str) -> str:
    """Where a file or folder can be read: a GitHub tree URL for a GitHub
    repository (at ``commit`` if known, else ``HEAD``), else the local path."""
    if repository.startswith("https://github.com/"):
        return f"{repository}/tree/{commit or 'HEAD'}/{path}"
    return f"{repository.rstrip('/')}/{path}" if repository else path


def to_csv(rows: Iterable[dict[str, Any]], columns: Sequence[str]) -> str:
    """Rows -> CSV text with a header; None becomes an empty cell; floats keep full
    precision (``repr``)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for row in rows:
        w.writerow(["" if row.get(c) is None else row.get(c) for c in columns])
    return buf.getvalue()


def to_json(rows: Iterable[dict[str, Any]], columns: Sequence[str], schema: str) -> str:
    """Rows -> the JSON document described in the module docstring."""
    return json.dumps(
        {
            "schema": schema,
            "columns": list(columns),
            "rows": [{c: row.get(c) for c in columns} for row in rows],
        },
        ensure_ascii=False,
    )

"""Reads of one MLPerf Inference result by its natural key (the permalinks): the result with
every rule it was judged by, its compliance tests and files, the detail-log lines its value
and validity come from; and one of its stored files as numbered lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.http import Http404

from benchdb import logcodec
from benchdb.mlperf.inference.evidence import round_key
from benchdb.mlperf.inference.rounds import accuracy_targets
from benchdb.mlperf.training import derived
from benchdb.models import (
    InferenceComplianceTest,
    InferenceFinding,
    InferenceLog,
    InferenceResult,
    IngestProblem,
)

#: LoadGen keys shown with their detail-log line on a result page, besides the value's.
EVIDENCE_KEYS = (
    "result_validity",
    "early_stopping_met",
    "effective_scenario",
    "effective_target_qps",
    "effective_target_latency_ns",
    "effective_target_latency_percentile",
    "effective_min_duration_ms",
    "effective_min_query_count",
    "result_query_count",
    "result_min_duration_met",
    "result_min_queries_met",
    "power_begin",
    "power_end",
)
#: Stored files larger than this are not scanned or shown line by line (a download).
MAX_SHOWN_BYTES = 64 * 1024 * 1024
LINE_WINDOW = 1000


@dataclass(frozen=True)
class InferenceDetail:
    """A result and what its page shows. ``evidence``: (key, path, line, text) of the
    detail-log lines the value and validity come from."""

    result: InferenceResult
    findings: list[InferenceFinding]
    compliance: list[InferenceComplianceTest]
    logs: list[InferenceLog]
    problems: list[IngestProblem]
    evidence: list[tuple[str, str, int, str]]
    source: str
    accuracy: list[tuple[str, float | None, float | None, float | None]]


def _key_filters(key: Sequence[str]) -> dict[str, str]:
    version, division, submitter, system, model, scenario = key
    return {
        "round__suite": "inference",
        "round__version": version,
        "system__submitter_folder": f"{division}/{submitter}",
        "system__folder": system,
        "model_folder": model,
        "scenario_folder": scenario,
    }


def inference_result_get(key: Sequence[str]) -> InferenceDetail:
    """The result of natural key ``key`` (round, division, submitter, system, model
    folder, scenario folder). Raises Http404. Queries: the result with round, system and
    submitter; its findings; compliance tests; files (without their bytes); problems; the
    detail log of its run (6)."""
    result = (
        InferenceResult.objects.select_related("round", "system", "system__submitter")
        .defer("system__raw")
        .filter(**_key_filters(key))
        .first()
    )
    if result is None:
        raise Http404(f"no inference result {'/'.join(key)}")
    logs = list(result.logs.defer("compressed").order_by("path"))
    detail = _run_detail(logs)
    evidence = _evidence(result, detail) if detail else []
    return InferenceDetail(
        result=result,
        findings=list(result.findings.order_by("pk")),
        compliance=list(result.compliance_tests.order_by("test")),
        logs=logs,
        problems=list(result.problems.order_by("path", "line")),
        evidence=evidence,
        source=derived.source_url(result.repository, result.commit, result.source_path),
        accuracy=accuracy_rows(result),
    )


def accuracy_rows(
    result: InferenceResult,
) -> list[tuple[str, float | None, float | None, float | None]]:
    """(metric, value achieved, the round's target, its upper limit) for each metric the
    round sets for the result's benchmark and each value read (``accuracy_targets()``)."""
    lower, upper = accuracy_targets(round_key(result.round.version))
    targets = dict(lower.get(result.benchmark, ()))
    limits = dict(upper.get(result.benchmark, ()))
    names = [*targets, *(m for m in result.accuracy if m not in targets)]
    return [(m, result.accuracy.get(m), targets.get(m), limits.get(m)) for m in names]


def _run_detail(logs: list[InferenceLog]) -> InferenceLog | None:
    """The detail log of the run whose value counts (``performance/run_1``; v0.5/v0.7
    trees may hold ``run_1``..``run_5``: the first), not a compliance test's run (from
    v6.0 ``TEST04/performance/run_1`` sits in the result folder too)."""
    runs = [g for g in logs if g.kind == "detail" and _RUN_LOG.search(g.path)]
    own = [g for g in runs if not _TEST_RUN.search(g.path)]
    return (own or runs)[0] if runs else None


_TEST_RUN = re.compile(r"/TEST\d+[^/]*/performance/", re.I)
#: A run's detail log, or a v6.1 endpoints folder's ``performance/result_summary.json``.
_RUN_LOG = re.compile(r"/performance/(run_\d+/|result_summary\.json$)")
#: The endpoints summary field each value key is read from (``ENDPOINTS_MAPPINGS`` of
#: the v6.1 checker; Offline's samples/s is ``n_samples_issued`` / ``duration_ns``).
_ENDPOINTS_FIELD = {
    "result_mean_latency_ns": '"avg":',
    "result_completed_samples_per_sec": '"qps":',
    "result_samples_per_second": '"duration_ns":',
    "result_completed_tokens_per_second": '"tps":',
}


def _evidence(result: InferenceResult, log: InferenceLog) -> list[tuple[str, str, int, str]]:
    """(key, path, line, text) of the first line of each key in the detail log."""
    metric = result.metric.split(" ")[0]
    keys = [k for k in (metric, *EVIDENCE_KEYS) if k and not k.startswith("summary")]
    found: dict[str, tuple[int, str]] = {}
    field = _ENDPOINTS_FIELD.get(metric) if log.path.endswith(".json") else None
    for n, text in enumerate(_lines(log), 1):
        if field is not None and field in text and metric not in found:
            found[metric] = (n, text.strip())
        m = _KEY.search(text)
        if m and m.group(1) in keys and m.group(1) not in found:
            found[m.group(1)] = (n, text)
    return [(k, log.path, *found[k]) for k in keys if k in found]


_KEY = re.compile(r'"key": "([^"]+)"')


def _lines(log: InferenceLog) -> list[str]:
    """The stored file's lines (LF, CRLF or CR ends), decoded as UTF-8 with undecodable
    bytes replaced; [] for a file stored by hash only or too large to show."""
    if log.size > MAX_SHOWN_BYTES:
        return []
    data = InferenceLog.objects.filter(pk=log.pk).values_list("compressed", flat=True).first()
    if not data:
        return []
    text = logcodec.decompress(bytes(data)).decode("utf-8", errors="replace")
    lines = re.split(r"\r\n|\r|\n", text)
    return lines[:-1] if lines and lines[-1] == "" else lines


@dataclass(frozen=True)
class InferenceFilePage:
    """A window of one of a result's stored files: ``lines`` (number, text, mark) with
    mark ``finding`` (a rule failed there) or ``evidence`` (a line the value or validity
    is read from); ``total`` lines in the file."""

    result: InferenceResult
    log: InferenceLog
    lines: list[tuple[int, str, str]]
    start: int
    total: int


def inference_file_get(key: Sequence[str], path: str, start: int = 1) -> InferenceFilePage:
    """Lines ``start`` .. ``start + LINE_WINDOW - 1`` of the stored file ``path`` of a
    result, the lines its findings and evidence point at marked. Raises Http404 for an
    unknown result or file, or one stored by hash only. Queries: 4."""
    detail = inference_result_get(key)
    log = next((g for g in detail.logs if g.path == path), None)
    if log is None or log.kind == "accuracy_log":
        raise Http404(f"no stored file {path!r} for this result")
    marks = {e[2]: "evidence" for e in detail.evidence if e[1] == path}
    marks |= {f.line: "finding" for f in detail.findings if f.path == path and f.line}
    lines = _lines(log)
    window = [
        (n, t, marks.get(n, ""))
        for n, t in enumerate(lines[start - 1 : start - 1 + LINE_WINDOW], start)
    ]
    return InferenceFilePage(detail.result, log, window, start, len(lines))


def raw_file(key: Sequence[str], path: str) -> tuple[InferenceLog, bytes]:
    """A stored file's bytes, as ingested. Raises Http404. Queries: 2."""
    log = (
        InferenceLog.objects.filter(**{f"result__{k}": v for k, v in _key_filters(key).items()})
        .filter(path=path)
        .exclude(kind="accuracy_log")
        .first()
    )
    if log is None or log.compressed is None:
        raise Http404(f"no stored file {path!r} for this result")
    return log, logcodec.decompress(bytes(log.compressed))


def system_summary(result: InferenceResult) -> list[tuple[str, Any]]:
    """The system's fields a result page shows, as (label, value)."""
    s = result.system
    count = "?" if s.accelerators is None else s.accelerators
    hosts = f" × {s.host_processors_per_node}" if s.host_processors_per_node else ""
    return [
        ("System", s.name or s.folder),
        ("Submitter", s.submitter.name),
        ("Division", result.division),
        ("Category", result.category or "unknown"),
        ("Availability", s.availability or "unknown"),
        ("Accelerators", f"{count} × {s.accelerator_model}"),
        ("Host processor", f"{s.host_processor_model}{hosts}"),
        ("Nodes", s.nodes),
        ("Software", s.framework),
    ]

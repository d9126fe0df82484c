"""MLPerf Inference v6.1 "endpoints" (LoadGen++) results, read as LoadGen keys. Pure.

A scenario folder without LoadGen logs holds ``config.yaml``,
``performance/result_summary.json`` and ``accuracy/accuracy_results.json``; the v6.1
checker (mlcommons/inference ``tools/submission/submission_checker/parsers/
endpoints_parser.py`` ``EndpointsParser`` at 2af078ba) maps their fields to LoadGen
detail-log keys with ``ENDPOINTS_MAPPINGS``, ``ENDPOINTS_YAML_FIELD_MAP`` and
``ENDPOINTS_JSON_ALT_PATHS`` of ``constants.py`` (priority: the JSON file, then the
YAML file), and derives ``effective_accuracy_sample_count`` from the accuracy scores.
Only the keys the rules read are mapped here (:data:`MAPPINGS`).

Libraries: PyYAML (``yaml.safe_load``, as the checker) for ``config.yaml``; JSON through
``safe_json`` (depth-limited).
"""

from __future__ import annotations

from typing import Any

import yaml

from ingest.inference.parsers.types import LoadgenLog
from ingest.parsers import safe_json
from ingest.parsers.types import Problem

#: ``ENDPOINTS_MAPPINGS`` (endpoints field -> LoadGen key): the ones the rules read.
MAPPINGS = {
    "effective_scenario": "effective_scenario",
    "min_duration_ms": "effective_min_duration_ms",
    "min_sample_count": "effective_min_query_count",
    "effective_sample_index_rng_seed": "effective_sample_index_rng_seed",
    "effective_schedule_rng_seed": "effective_schedule_rng_seed",
    "n_samples_issued": "qsl_reported_total_count",
    "qps": "result_completed_samples_per_sec",
    "tps": "result_completed_tokens_per_second",
    "latency.avg": "result_mean_latency_ns",
    "latency.early_stopping_percentiles.99.0": "result_99.00_percentile_latency_ns",
    "ttft.early_stopping_percentiles.99.0": "result_first_token_99.00_percentile_latency_ns",
    "tpot.early_stopping_percentiles.99.0": "result_time_per_output_token_99.00_percentile_ns",
    "output_sequence_lengths.avg": "mean_output_tokens",
    "result.failed": "num_errors",
    "duration_ns": "generated_query_duration",
    "generated_query_count": "generated_query_count",
}
#: ``ENDPOINTS_YAML_FIELD_MAP``.
YAML_PATHS = {
    "effective_scenario": "type",
    "min_duration_ms": "settings.runtime.min_duration_ms",
    "effective_sample_index_rng_seed": "settings.runtime.dataloader_random_seed",
    "effective_schedule_rng_seed": "settings.runtime.scheduler_random_seed",
    "min_sample_count": "settings.runtime.n_samples_to_issue",
}
#: ``ENDPOINTS_JSON_ALT_PATHS`` (those of the keys above).
JSON_ALT_PATHS = {"result.failed": "n_samples_failed", "generated_query_count": "n_samples_issued"}


def nested(data: Any, dotted: str) -> Any:
    """``_get_nested()``: a dot path, the longest matching key first at each level
    (``99.0`` is one key), ``50.0`` also finding ``50``; None if absent or empty."""
    parts, current, i = dotted.split("."), data, 0
    while i < len(parts):
        if not isinstance(current, dict):
            return current if parts[i:] == ["0"] else None
        for j in range(len(parts), i, -1):
            if ".".join(parts[i:j]) in current:
                current, i = current[".".join(parts[i:j])], j
                break
        else:
            return None
    return None if isinstance(current, dict | list) and not current else current


def _load(data: bytes | None, path: str, problems: list[Problem], kind: str) -> dict[str, Any]:
    if data is None:
        return {}
    try:
        text = data.decode("utf-8", errors="replace")
        obj = yaml.safe_load(text) if kind == "yaml" else safe_json.loads(text)
    except (ValueError, yaml.YAMLError) as exc:
        problems.append(Problem(path, None, f"not {kind}: {exc}"))
        return {}
    return obj if isinstance(obj, dict) else {}


def parse_endpoints(
    summary: bytes | None,
    results: bytes | None,
    config: bytes | None,
    paths: tuple[str, str, str],
) -> LoadgenLog:
    """A performance log (``summary``: ``result_summary.json``) or an accuracy log
    (``results``: ``accuracy_results.json``) of an endpoints folder, with its
    ``config.yaml``, as a :class:`LoadgenLog` of ``log_format="endpoints"`` whose
    ``values`` hold LoadGen keys. ``paths``: (summary, results, config) relative paths;
    the log's path is the JSON file's. Bad JSON or YAML is a problem, never raised."""
    problems: list[Problem] = []
    summ = _load(summary, paths[0], problems, "json")
    res = _load(results, paths[1], problems, "json")
    conf = _load(config, paths[2], problems, "yaml")
    values: dict[str, Any] = {}
    for field, key in MAPPINGS.items():
        value = None
        for data in (summ, res):
            value = nested(data, field)
            if value is None and field in JSON_ALT_PATHS:
                value = nested(data, JSON_ALT_PATHS[field])
            if value is not None:
                break
        if value is None and field in YAML_PATHS:
            value = nested(conf, YAML_PATHS[field])
        if value is None:
            value = nested(conf, field)
        if value is not None:
            values[key] = value
    _infer_qps(values)
    scores = [s for s in res.get("accuracy_scores", []) if isinstance(s, dict)]
    counts = [_count(s) for s in scores if s.get("dataset_type") in (None, "accuracy")]
    if any(c is not None for c in counts):
        values["effective_accuracy_sample_count"] = sum(c for c in counts if c is not None)
        values.setdefault("qsl_reported_total_count", values["effective_accuracy_sample_count"])
    if any(s.get("score") is not None for s in scores):
        values["accuracy_score"] = next(s["score"] for s in scores if s.get("score") is not None)
    path = paths[1] if results is not None and summary is None else paths[0]
    size = len(summary or results or b"")
    return LoadgenLog(path, size, "endpoints", values, problems=tuple(problems))


def _infer_qps(values: dict[str, Any]) -> None:
    """The checker's QPS when the summary has none: queries / duration (Offline:
    ``result_samples_per_second``, else ``result_completed_samples_per_sec``)."""
    duration, count = values.get("generated_query_duration"), values.get("generated_query_count")
    scenario = str(values.get("effective_scenario") or "")
    if not (duration and count and scenario):
        return
    key = (
        "result_samples_per_second"
        if scenario.lower() == "offline"
        else ("result_completed_samples_per_sec")
    )
    if key not in values and isinstance(duration, int | float) and isinstance(count, int | float):
        values[key] = count / (duration / 1e9)


def _count(score: dict[str, Any]) -> int | None:
    """``_endpoint_accuracy_sample_count()``: ``total_samples`` or ``response_counts.issued``."""
    if score.get("total_samples") is not None:
        return int(score["total_samples"])
    issued = (score.get("response_counts") or {}).get("issued")
    return int(issued) if issued is not None else None

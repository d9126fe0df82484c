"""Pure parsers of the files of an MLPerf Storage result: DLIO's ``summary.json``, a
run's ``configs/overrides.yaml`` and ``configs/config.yaml``, the published
``mlperf_storage_report.json`` and a system description ``systems/<system>.json``.
Bytes in, frozen dataclasses out; a value that cannot be read raises
:class:`~ingest.parsers.types.ParseError` naming the file, the line (1-based) when
known, and the field. No Django.

Formats: DLIO ``dlio_benchmark/utils/statscounter.py`` ``StatsCounter.end_run`` (at
``benchdb.mlperf.storage.rules.DLIO_COMMIT``) writes ``summary.json``;
``mlcommons/storage`` ``report.py`` (tag v1.0) writes the report and reads
``overrides.yaml`` (``get_workload_details``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import yaml

from ingest.parsers import safe_json
from ingest.parsers.types import ParseError


@dataclass(frozen=True)
class Summary:
    """One DLIO ``summary.json``. Throughputs in samples/s, ``io_mean_mb_per_second``
    in MiB/s as DLIO writes it, AU in percent; ``lines``: field -> 1-based line of its
    key in the file (the evidence shown on the result page)."""

    path: str
    num_accelerators: int
    num_hosts: int | None
    au_percentages: tuple[float, ...]
    au_mean_percentage: float
    au_meet_expectation: str
    epoch_samples_per_second: tuple[float, ...]
    mean_samples_per_second: float
    io_mean_mb_per_second: float
    num_files_train: int
    num_samples_per_file: int
    start: str
    end: str
    lines: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class RunConfig:
    """A run's ``configs/config.yaml``: ``au`` (fraction, ``workload.metric.au``) and
    ``record_length`` (bytes per sample, ``workload.dataset.record_length``)."""

    au: float
    record_length: float


@dataclass(frozen=True)
class Report:
    """A published ``mlperf_storage_report.json``: ``overall`` (its numeric fields by
    name) and ``runs``: (run name, samples/s, MB/s) in the file's order."""

    overall: tuple[tuple[str, float], ...]
    runs: tuple[tuple[str, float, float], ...]
    model: str
    accelerator: str
    accelerators: int | None


def _json(data: bytes, path: str) -> Any:
    try:
        return safe_json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ParseError(f"not UTF-8 at byte {exc.start}", path=path) from None
    except json.JSONDecodeError as exc:
        raise ParseError(f"not JSON: {exc.msg}", path=path, line=exc.lineno) from None
    except ValueError as exc:
        raise ParseError(str(exc), path=path) from None


def _line_of(text: str, key: str) -> int | None:
    needle = f'"{key}"'
    for n, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return n
    return None


def _get(obj: Any, keys: tuple[str, ...], path: str, text: str) -> Any:
    cur = obj
    for k in keys:
        if not isinstance(cur, dict) or k not in cur:
            line = _line_of(text, keys[0]) if len(keys) > 1 else None
            raise ParseError("missing", path=path, line=line, field=".".join(keys))
        cur = cur[k]
    return cur


def _number(value: Any, field: str, path: str, text: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ParseError(f"not a number: {value!r:.60}", path=path, field=field)
    try:
        x = float(value)
    except ValueError:
        raise ParseError(
            f"not a number: {value!r:.60}", path=path, line=_line_of(text, field), field=field
        ) from None
    if not math.isfinite(x):
        raise ParseError(
            f"not finite: {value!r}", path=path, line=_line_of(text, field), field=field
        )
    return x


def _integer(value: Any, field: str, path: str, text: str) -> int:
    x = _number(value, field, path, text)
    if x != int(x):
        raise ParseError(f"not a whole number: {value!r}", path=path, field=field)
    return int(x)


def _numbers(value: Any, field: str, path: str, text: str) -> tuple[float, ...]:
    if not isinstance(value, list) or not value:
        raise ParseError("not a non-empty list", path=path, line=_line_of(text, field), field=field)
    return tuple(_number(v, field, path, text) for v in value)


_SUMMARY_LINES = (
    "num_accelerators",
    "train_au_mean_percentage",
    "train_au_meet_expectation",
    "train_throughput_mean_samples_per_second",
    "train_io_mean_MB_per_second",
    "num_files_train",
)


def parse_summary(data: bytes, path: str) -> Summary:
    """DLIO ``summary.json`` -> :class:`Summary`. Raises ParseError for text that is
    not JSON (with its line), a missing field, or a value of the wrong kind."""
    text = data.decode("utf-8", "replace")
    obj = _json(data, path)
    m = _get(obj, ("metric",), path, text)

    def metric(key: str) -> Any:
        return _get(m, (key,), path, text)

    hosts = obj.get("num_hosts") if isinstance(obj, dict) else None
    return Summary(
        path=path,
        num_accelerators=_integer(
            _get(obj, ("num_accelerators",), path, text), "num_accelerators", path, text
        ),
        num_hosts=_integer(hosts, "num_hosts", path, text) if hosts is not None else None,
        au_percentages=_numbers(metric("train_au_percentage"), "train_au_percentage", path, text),
        au_mean_percentage=_number(
            metric("train_au_mean_percentage"), "train_au_mean_percentage", path, text
        ),
        au_meet_expectation=str(metric("train_au_meet_expectation"))[:40],
        epoch_samples_per_second=_numbers(
            metric("train_throughput_samples_per_second"),
            "train_throughput_samples_per_second",
            path,
            text,
        ),
        mean_samples_per_second=_number(
            metric("train_throughput_mean_samples_per_second"),
            "train_throughput_mean_samples_per_second",
            path,
            text,
        ),
        io_mean_mb_per_second=_number(
            metric("train_io_mean_MB_per_second"), "train_io_mean_MB_per_second", path, text
        ),
        num_files_train=_integer(
            _get(obj, ("num_files_train",), path, text), "num_files_train", path, text
        ),
        num_samples_per_file=_integer(
            _get(obj, ("num_samples_per_file",), path, text), "num_samples_per_file", path, text
        ),
        start=str(obj.get("start", ""))[:40],
        end=str(obj.get("end", ""))[:40],
        lines=tuple((k, n) for k in _SUMMARY_LINES if (n := _line_of(text, k)) is not None),
    )


def parse_overrides(data: bytes, path: str) -> tuple[str, str, int]:
    """(model, accelerator, line) from ``configs/overrides.yaml``: the first line holding
    ``workload=``, its value split on ``_`` (``report.py`` ``get_workload_details``:
    ``unet3d_a100`` -> ``unet3d``, ``a100``). Raises ParseError when no line has it."""
    for n, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        if "workload=" in line:
            parts = line.split("workload=")[1].strip().split("_")
            if len(parts) < 2 or not parts[0] or not parts[1]:
                raise ParseError(
                    f"workload {line.strip()!r:.80} is not <model>_<accelerator>", path=path, line=n
                )
            return parts[0][:40], parts[1][:40], n
    raise ParseError("no workload= line", path=path, field="workload")


def parse_config(data: bytes, path: str) -> RunConfig:
    """``configs/config.yaml`` -> :class:`RunConfig`. Raises ParseError for YAML that
    cannot be read (with its line) or a missing ``workload.metric.au`` /
    ``workload.dataset.record_length``."""
    text = data.decode("utf-8", "replace")
    try:
        obj = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        raise ParseError(f"not YAML: {exc.problem}", path=path, line=line) from None
    except yaml.YAMLError as exc:
        raise ParseError(f"not YAML: {exc}", path=path) from None
    wl = obj.get("workload") if isinstance(obj, dict) else None
    if not isinstance(wl, dict):
        raise ParseError("missing", path=path, field="workload")
    metric, dataset = wl.get("metric") or {}, wl.get("dataset") or {}
    if not isinstance(metric, dict) or "au" not in metric:
        raise ParseError("missing", path=path, field="workload.metric.au")
    if not isinstance(dataset, dict) or "record_length" not in dataset:
        raise ParseError("missing", path=path, field="workload.dataset.record_length")
    return RunConfig(
        au=_number(metric["au"], "au", path, text),
        record_length=_number(dataset["record_length"], "record_length", path, text),
    )


_REPORT_OVERALL = (
    "train_throughput_mean_samples_per_second",
    "train_throughput_stdev_samples_per_second",
    "train_throughput_mean_MB_per_second",
    "train_throughput_stdev_MB_per_second",
)


def parse_report(data: bytes, path: str) -> Report:
    """``mlperf_storage_report.json`` -> :class:`Report`. Raises ParseError as
    :func:`parse_summary`."""
    text = data.decode("utf-8", "replace")
    obj = _json(data, path)
    ov = _get(obj, ("overall",), path, text)
    runs = _get(obj, ("runs",), path, text)
    if not isinstance(runs, dict):
        raise ParseError("not an object", path=path, field="runs")
    acc = ov.get("train_num_accelerators") if isinstance(ov, dict) else None
    return Report(
        overall=tuple(
            (k, _number(_get(ov, (k,), path, text), k, path, text)) for k in _REPORT_OVERALL
        ),
        runs=tuple(
            (
                str(name)[:200],
                _number(
                    _get(r, ("train_throughput_samples_per_second",), path, text),
                    "train_throughput_samples_per_second",
                    path,
                    text,
                ),
                _number(
                    _get(r, ("train_throughput_MB_per_second",), path, text),
                    "train_throughput_MB_per_second",
                    path,
                    text,
                ),
            )
            for name, r in runs.items()
        ),
        model=str(ov.get("model", ""))[:40],
        accelerator=str(ov.get("accelerator", ""))[:40],
        accelerators=_integer(acc, "train_num_accelerators", path, text)
        if acc is not None
        else None,
    )


def parse_system(data: bytes, path: str) -> dict[str, Any]:
    """A system description (``systems/<system>.json``, any layout) -> its JSON object,
    made storable (``safe_json.storable``). Raises ParseError as :func:`parse_summary`
    or when it is not an object."""
    obj = _json(data, path)
    if not isinstance(obj, dict):
        raise ParseError("not a JSON object", path=path)
    value, _notes = safe_json.storable(obj)
    return value  # type: ignore[no-any-return]

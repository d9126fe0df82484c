"""Writing judged MLPerf Inference results (``ingest.inference.service`` reads and judges them):
one short transaction per result with its findings, files and compliance tests; the
round's systems, result ids and "not stored" problems read once."""

from __future__ import annotations

import io
import struct
from collections.abc import Callable, Iterable
from typing import Any

from django.db import connection, transaction

from benchdb import vocabulary
from benchdb.mlperf.inference.value import value_error
from benchdb.mlperf.training.result_ids import RESULT_ID
from benchdb.models import (
    InferenceComplianceTest,
    InferenceFinding,
    InferenceLog,
    InferenceResult,
    IngestProblem,
    Round,
    Submitter,
    System,
)
from ingest import history
from ingest.inference.parsers.types import ResultFolder, StoredFile
from ingest.parsers import safe_json, safe_tree
from ingest.parsers.types import ParsedSystem
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
    """Stores judged results of one round. Reads once what it would otherwise ask per
    result: the round's systems, its results' ids and the folders with a "not stored"
    problem; systems are written (and cached) outside the results' transactions, so a
    result rolled back never leaves a cached row that does not exist."""

    def __init__(
        self, rnd: Round, repository: str, commit: str, published: dict[str, dict[str, Any]]
    ) -> None:
        self.round, self.repository, self.commit = rnd, repository, commit
        self.published = published
        self.submitters: dict[str, Submitter] = {}
        self.systems = {(s.submitter_folder, s.folder): s for s in System.objects.filter(round=rnd)}
        self.results = dict(
            InferenceResult.objects.filter(round=rnd).values_list("source_path", "pk")
        )
        self.not_stored = set(
            IngestProblem.objects.filter(
                round=rnd, result=None, message__startswith=NOT_STORED
            ).values_list("path", flat=True)
        )

    def store(self, item: Any, report: IngestReport) -> None:
        f, v = item.folder, item.verdict
        assert f is not None and v is not None
        json_name = item.system.submitter if item.system else ""
        submitter = submitter_for(f.submitter, json_name, self.submitters)
        system = self._system(f, submitter, item.system)
        fields = _result_fields(item, self.published.get(f.path, {}))
        pk = self.results.get(fields["source_path"])
        result = InferenceResult(
            pk=pk, system=system, model_folder=f.model, scenario_folder=f.scenario, **fields
        )
        result.round, result.repository, result.commit = self.round, self.repository, self.commit
        with transaction.atomic():
            before = pk and history.result_before(InferenceResult, pk=pk)
            result.save(force_insert=pk is None, force_update=pk is not None)
            if f.path in self.not_stored:
                IngestProblem.objects.filter(
                    round=self.round, path=f.path, result=None, message__startswith=NOT_STORED
                ).delete()
            if pk is not None:
                for related in (result.findings, result.logs, result.compliance_tests):
                    related.all().delete()
                IngestProblem.objects.filter(inference_result=result).delete()
            _store_children(result, item, f)
            history.result_changed(before=before or None, result=result, commit=self.commit)
            IngestProblem.objects.bulk_create(
                [problem_row(self.round, p, inference_result=result) for p in item.problems],
                ignore_conflicts=True,
            )
        self.results[fields["source_path"]] = result.pk
        self.not_stored.discard(f.path)
        report.added += pk is None
        report.changed += pk is not None
        report.runs_stored += len(item.files)
        report.problems += len(item.problems)

    def _system(self, f: ResultFolder, submitter: Submitter, s: ParsedSystem | None) -> System:
        """The result's system, created or brought up to date once per ingest."""
        key = (f"{f.division}/{f.submitter}", f.system)
        fields = _system_fields(f, s)
        system = self.systems.get(key)
        if system is None:
            system, _ = System.objects.get_or_create(
                round=self.round,
                submitter_folder=key[0],
                folder=key[1],
                defaults={"submitter": submitter, **fields},
            )
        changed = [k for k, v in fields.items() if getattr(system, k) != v]
        if changed:
            for k in changed:
                setattr(system, k, fields[k])
            system.save(update_fields=changed)
        self.systems[key] = system
        return system


def _system_fields(f: ResultFolder, s: ParsedSystem | None) -> dict[str, Any]:
    if s is None:
        return {"division": f.division}
    return system_fields(s, f.division)


def _result_fields(item: Any, published: dict[str, Any]) -> dict[str, Any]:
    """The columns of an :class:`InferenceResult` from its verdict and published row."""
    f, v = item.folder, item.verdict
    assert f is not None and v is not None
    unit = v.value.unit
    category = str((item.system.raw if item.system else {}).get("system_type", "")).strip()
    return {
        "division": f.division,
        "category": category[:32],
        "benchmark": v.benchmark if v.benchmark in vocabulary.INFERENCE_BENCHMARKS else "",
        "scenario": v.scenario[:32],
        "metric": v.value.metric[:100],
        "unit": unit,
        "higher_is_better": vocabulary.INFERENCE_UNITS.get(unit, True),
        "value": _possible(v.value.value, unit),
        "inferred": v.value.inferred,
        "status": v.status,
        "reason": safe_json.storable("; ".join(v.reasons))[0],
        "missing": list(v.missing),
        "accuracy": {k: x for k, x in v.accuracy.items() if finite(x) is not None},
        "accuracy_valid": v.accuracy_valid,
        "power": finite(v.power),
        "power_unit": v.power_unit,
        "compliance_valid": v.compliance_valid,
        "settings": safe_json.storable(v.settings)[0],
        "result_id": published_id(published.get("ID")),
        "published_value": finite(published.get("Performance_Result")),
        "published_unit": _text(published.get("Performance_Units"))[:32],
        "published_power": finite(published.get("Power_Result")),
        "source_path": safe_tree.shorten(f.path, PATH_WIDTH),
        "content_sha256": item.content_sha256,
    }


def _possible(value: float | None, unit: str) -> float | None:
    """The value as stored: None when no measurement can give it (``value_error``:
    not finite, not > 0, outside benchdb's bounds; its finding quotes it), so that it
    is neither shown nor sorted as a number."""
    if value is None or value_error(value, unit) is not None:
        return None
    return value


def published_id(value: Any) -> str:
    """A ``summary_results.json`` ``ID`` as stored: a string like ``5.1-0001``
    (``benchdb.mlperf.training.result_ids.RESULT_ID``), else "" (a list, a number, a NUL: not an
    ID; ``str()`` of it would store ``"['5.1-0001']"``)."""
    text = value.strip() if isinstance(value, str) else ""
    return text if RESULT_ID.fullmatch(text) else ""


def _text(value: Any) -> str:
    """A published text cell: a string without NUL, else ""."""
    return value.replace("\x00", "") if isinstance(value, str) else ""


def _store_children(result: InferenceResult, item: Any, f: ResultFolder) -> None:
    """The result's findings, files and compliance tests (inside its transaction)."""
    v = item.verdict
    assert v is not None
    findings_create(result, v.findings)
    logs_create(log_rows(result, item.files))
    if f.division != "open":
        InferenceComplianceTest.objects.bulk_create(_compliance_rows(result, item, f))


def findings_create(result: InferenceResult, findings: Iterable[Any]) -> None:
    """Insert a result's findings (``rule``, ``path``, ``line``, ``message``,
    ``invalidates`` of each: Inference's and Automotive's ``Finding``), cut to their
    columns, paths printable, messages storable. Inside the caller's transaction."""
    InferenceFinding.objects.bulk_create(
        InferenceFinding(
            result=result,
            rule=x.rule[:64],
            path=safe_tree.shorten(safe_tree.printable(x.path), PATH_WIDTH),
            line=x.line,
            message=safe_json.storable(x.message)[0],
            invalidates=x.invalidates,
        )
        for x in findings
    )


def log_rows(
    result: InferenceResult,
    files: Iterable[StoredFile],
    pack: Callable[[bytes], bytes] | None = None,
) -> list[InferenceLog]:
    """A result's file rows, one per stored path (the first of two files whose paths
    are one once shortened): ``data`` as it is (already compressed by the reader) or
    ``pack(data)``; an accuracy log is hashed only (no bytes)."""
    seen: set[str] = set()
    logs = []
    for s in files:
        path = safe_tree.shorten(safe_tree.printable(s.path), PATH_WIDTH)
        if path in seen:
            continue
        seen.add(path)
        data = None if s.kind == "accuracy_log" else pack(s.data) if pack else s.data
        logs.append(
            InferenceLog(
                result=result, kind=s.kind, path=path, size=s.size, sha256=s.sha256, compressed=data
            )
        )
    return logs


def logs_create(logs: list[InferenceLog]) -> None:
    """Insert a result's files: on PostgreSQL by ``COPY ... (FORMAT binary)``, which sends
    the compressed bytes as they are (an INSERT sends bytea as hex text, twice the bytes,
    and took 7 of the 13 s of a whole v5.1 round); elsewhere (the SQLite quick start) by
    ``bulk_create``. Inside the caller's transaction."""
    if connection.vendor != "postgresql":
        InferenceLog.objects.bulk_create(logs)
        return
    buf = io.BytesIO()
    buf.write(b"PGCOPY\n\xff\r\n\x00" + struct.pack("!ii", 0, 0))
    for g in logs:
        buf.write(struct.pack("!hiqi", 6, 8, g.result_id, len(kind := g.kind.encode())) + kind)
        path = g.path.encode()
        buf.write(struct.pack("!i", len(path)) + path + struct.pack("!iq", 8, g.size))
        buf.write(struct.pack("!i", len(g.sha256)) + g.sha256.encode())
        data = g.compressed
        buf.write(struct.pack("!i", -1) if data is None else struct.pack("!i", len(data)) + data)
    buf.write(struct.pack("!h", -1))
    buf.seek(0)
    table = InferenceLog._meta.db_table
    sql = (
        f"COPY {table} (result_id, kind, path, size, sha256, compressed) FROM STDIN "
        "WITH (FORMAT binary)"
    )
    with connection.cursor() as c:
        c.cursor.copy_expert(sql, buf)


def _compliance_rows(
    result: InferenceResult, item: Any, f: ResultFolder
) -> list[InferenceComplianceTest]:
    """One row per required test (``Verdict.compliance_required``: the judge's) and per
    test folder present, with its failed checks."""
    v = item.verdict
    assert v is not None
    base = f"{f.division}/{f.submitter}/compliance/{f.system}/{f.model}/{f.scenario}"
    present = sorted(
        {s.path[len(base) + 1 :].split("/")[0] for s in item.files if s.path.startswith(base + "/")}
    )
    required = v.compliance_required
    rows = []
    for test in sorted(set(required) | {t.upper() for t in present}):
        path = f"{base}/{test}"
        failures = [
            str(x)
            for x in v.findings
            if x.rule.startswith("compliance")
            and (x.path in (base, path) or x.path.startswith(path + "/"))
        ]
        checked = test in required
        passed = None if not checked else not failures
        rows.append(
            InferenceComplianceTest(
                result=result,
                test=test[:16],
                path=safe_tree.shorten(path, PATH_WIDTH),
                passed=passed,
                failures=failures,
            )
        )
    return rows

"""MLPerf Storage's ingest: a round's repository (``storage_results_v1.0``) -> judged
``StorageResult`` rows (round suite ``storage``), through the one pipeline
(``ingest.pipeline``): the result folders are found with the safe tree walk
(``ingest.storage.records.find_results``), each read and judged once
(``read_result``, in reader processes), then stored in its own transaction
(``ingest.storage.store``), skipped when its content hash is the stored one."""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections.abc import Callable
from functools import partial

from benchdb.mlperf.storage import rules as storage_rules
from benchdb.models import Round, StorageResult
from ingest import fetch, pipeline
from ingest.parsers.types import Problem
from ingest.storage import records as storage_records
from ingest.storage.parsers import files as storage_files
from ingest.storage.records import StorageRecord, find_results, read_result
from ingest.storage.store import Writer
from ingest.store import (
    GIT_URL,
    IngestError,
    IngestReport,
    git_checkout,
    reason_kind,
    record_problems,
    repository_url,
)

ROUND_DIR = re.compile(r"storage_results_(v\d+\.\d+)")


def mlperf_storage_ingest(
    *,
    location: str,
    round_version: str | None = None,
    commit: str = "",
    workers: int | None = None,
    progress: bool = False,
    on_result: Callable[[StorageRecord], None] | None = None,
) -> IngestReport:
    """Ingest an MLPerf Storage round from ``location``: its repository folder (the round
    from its name ``storage_results_v1.0`` or ``round_version``) or a git URL.
    Raises :class:`IngestError` when nothing can be read or the round has no rules
    here; problems in the input are stored and counted, never raised."""
    if GIT_URL.match(location) and not os.path.isdir(location):
        location, commit = git_checkout(location)
    if not os.path.isdir(location):
        raise IngestError(f"{location}: no such folder")
    m = ROUND_DIR.fullmatch(os.path.basename(os.path.abspath(location)))
    version = round_version or (m.group(1) if m else "")
    if version not in storage_rules.ROUNDS:
        rounds = ", ".join(storage_rules.ROUNDS)
        raise IngestError(f"{location}: cannot tell the round; pass --round (one of {rounds})")
    folders, tree_problems = find_results(location)
    if not folders:
        raise IngestError(f"{location}: no mlperf_storage_report.json found")
    report = IngestReport(rounds=[version])
    url = repository_url(location, version, "storage", ROUND_DIR)
    rnd, _ = Round.objects.update_or_create(
        suite="storage",
        version=version,
        defaults={
            "ruleset_tag": storage_rules.ROUNDS[version][:64],
            "repository": url,
            "published": storage_rules.PUBLISHED.get(version),
        },
    )
    record_problems(rnd, tree_problems)  # folders the walk could not list (none in v1.0)
    report.problems += len(tree_problems)
    known = dict(
        StorageResult.objects.filter(round=rnd).values_list("source_path", "content_sha256")
    )
    writer = Writer(rnd, url, commit or fetch.git_head(location))
    read = pipeline.read_all(
        read_result,
        folders,
        lambda rel: (location, rel),
        partial(_unread, location),
        workers if workers is not None else min(4, os.cpu_count() or 1),
    )
    for rel, rec in pipeline.shown(read, len(folders), f"MLPerf Storage {version}", progress):
        report.results_seen += 1
        sha = content_sha256(rec)
        if known.get(rec.path) == sha:
            report.unchanged += 1
        else:
            pipeline.store_each(partial(writer.store, rec, sha, report), rnd, rel, report)
        if on_result:
            on_result(rec)
    _count(rnd, folders, report)
    return report


def _count(rnd: Round, folders: list[str], report: IngestReport) -> None:
    """Valid and rejected results of ``folders`` as stored, rejections by reason."""
    rows = StorageResult.objects.filter(round=rnd, source_path__in=folders)
    for status, reason in rows.values_list("status", "reason"):
        if status == StorageResult.Status.VALID:
            report.scored += 1
        else:
            report.unscored += 1
            report.reasons[reason_kind(reason) if reason else status] += 1


def _unread(root: str, rel: str, exc: BaseException) -> StorageRecord:
    """A folder whose reader failed: an invalid record with the error as its problem."""
    why = f"not read: {type(exc).__name__}: {exc}"
    parts = (rel.split("/") + ["", "", "", ""])[:4]
    return StorageRecord(
        path=rel,
        division=parts[0].lower(),
        submitter=parts[1],
        system=parts[3],
        model="",
        accelerator="",
        accelerators=None,
        runs=(),
        overall=None,
        status="invalid",
        reason=why[:2000],
        published=None,
        system_path="",
        system_json=None,
        files=(),
        problems=(Problem(rel, None, why),),
    )


def content_sha256(rec: StorageRecord) -> str:
    """sha256 over the code version and every file read (path and sha256): a changed
    file or rule re-stores the result."""
    h = hashlib.sha256(CODE_VERSION.encode())
    for path, sha in sorted(rec.files):
        h.update(f"{path}\0{sha}\n".encode())
    return h.hexdigest()


def _code_version() -> str:
    modules = (
        storage_rules,
        storage_records,
        storage_files,
        sys.modules[__name__],
        sys.modules["ingest.storage.store"],
    )
    return pipeline.code_version(modules)


CODE_VERSION = _code_version()

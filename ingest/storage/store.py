"""Stores judged MLPerf Storage records (``ingest.storage.records``): one
``StorageResult`` per result folder with its runs, its system row and its problems, in
one short transaction per result (Django's ORM). Problems are kept by path (the
result's files, its system description), tied to no result row."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from benchdb.models import IngestProblem, Round, StorageResult, Submitter, System
from ingest.parsers import safe_json, safe_tree
from ingest.storage.records import StorageRecord
from ingest.store import NOT_STORED, PATH_WIDTH, IngestReport, finite, problem_row, submitter_for


class Writer:
    """Stores the records of one round (``rnd``) read from ``repository`` at ``commit``."""

    def __init__(self, rnd: Round, repository: str, commit: str) -> None:
        self.round, self.repository, self.commit = rnd, repository, commit
        self.submitters: dict[str, Submitter] = {}
        self.results = dict(
            StorageResult.objects.filter(round=rnd).values_list("source_path", "pk")
        )

    def store(self, rec: StorageRecord, sha256: str, report: IngestReport) -> None:
        """Store ``rec`` (content hash ``sha256``) in one transaction, replacing what an
        earlier ingest stored for its folder. Raises DatabaseError / ValueError (rolled
        back: ``ingest.pipeline.store_each`` records it)."""
        submitter = submitter_for(rec.submitter, "", self.submitters)
        path = safe_tree.shorten(rec.path, PATH_WIDTH)
        pk = self.results.get(path)
        o = rec.overall
        result = StorageResult(
            pk=pk,
            round=self.round,
            submitter=submitter,
            division=rec.division,
            system_folder=rec.system[:300],
            workload=rec.model,
            accelerator=rec.accelerator,
            accelerators=rec.accelerators,
            samples_per_second=finite(o.samples_per_second) if o else None,
            samples_per_second_stdev=finite(o.samples_per_second_stdev) if o else None,
            mb_per_second=finite(o.mb_per_second) if o else None,
            mb_per_second_stdev=finite(o.mb_per_second_stdev) if o else None,
            status=rec.status,
            reason=rec.reason,
            runs=runs_json(rec),
            published=published_json(rec),
            source_path=path,
            repository=self.repository,
            commit=self.commit,
            content_sha256=sha256,
        )
        with transaction.atomic():
            result.system = self._system(rec, submitter)
            result.save(force_insert=pk is None, force_update=pk is not None)
            stale = IngestProblem.objects.filter(
                round=self.round, result=None, inference_result=None
            )
            stale.filter(path=rec.path, message__startswith=NOT_STORED).delete()
            stale.filter(path__startswith=f"{rec.path}/").delete()
            IngestProblem.objects.bulk_create(
                [problem_row(self.round, p) for p in rec.problems], ignore_conflicts=True
            )
        self.results[path] = result.pk
        if pk is None:
            report.added += 1
        else:
            report.changed += 1
        report.runs_stored += len(rec.runs)
        report.problems += len(rec.problems)

    def _system(self, rec: StorageRecord, submitter: Submitter) -> System | None:
        if not rec.system:
            return None
        raw = rec.system_json or {}
        system, _ = System.objects.update_or_create(
            round=self.round,
            submitter_folder=rec.submitter,
            folder=rec.system[:300],
            defaults={
                "submitter": submitter,
                "source_path": rec.system_path[:500],
                "raw": raw,
                "name": rec.system,
                "division": rec.division,
            },
        )
        return system


def runs_json(rec: StorageRecord) -> list[dict[str, Any]]:
    """The runs of ``rec`` as stored in ``StorageResult.runs`` (see its docstring)."""
    out = []
    for run in rec.runs:
        f = run.figures
        out.append(
            {
                "name": run.name,
                "samples_per_second": finite(f.samples_per_second) if f else None,
                "mb_per_second": finite(f.mb_per_second) if f else None,
                "accelerators": f.accelerators if f else None,
                "au_mean_percentage": run.au_mean_percentage,
                "au_threshold": run.au_threshold,
                "summaries": [
                    {
                        "path": s.path,
                        "samples_per_second": s.mean_samples_per_second,
                        "mb_per_second": s.io_mean_mb_per_second,
                        "au_mean_percentage": s.au_mean_percentage,
                        "au_meet_expectation": s.au_meet_expectation,
                        "num_accelerators": s.num_accelerators,
                        "num_hosts": s.num_hosts,
                        "epochs": len(s.epoch_samples_per_second),
                        "start": s.start,
                        "end": s.end,
                        "lines": dict(s.lines),
                    }
                    for s in run.summaries
                ],
            }
        )
    return safe_json.storable(out)[0]  # type: ignore[no-any-return]


def published_json(rec: StorageRecord) -> dict[str, Any]:
    """The published report's figures: ``overall`` by name and ``runs`` (name,
    samples/s, MB/s) in the file's order; {} when it could not be read."""
    rep = rec.published
    if rep is None:
        return {}
    return {
        "path": f"{rec.path}/mlperf_storage_report.json",
        "overall": dict(rep.overall),
        "runs": [list(r) for r in rep.runs],
        "model": rep.model,
        "accelerator": rep.accelerator,
        "accelerators": rep.accelerators,
    }

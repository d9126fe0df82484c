"""The writer the suites stored in Inference's tables share (MLPerf Automotive, Tiny and
Mobile: ``ingest.<suite>.store``): a round's results read once by path, each result
written in one short transaction that replaces what an earlier ingest stored for its
folder (its findings, files and problems), its files written as Inference's
(``ingest.inference.store`` ``findings_create``, ``log_rows`` compressing the bytes,
``logs_create``), and the report counted. Systems and submitters are shared rows
written before the result's transaction, as for every suite (``ingest.store``). Each
suite's writer gives the columns of its own records."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction

from benchdb import logcodec
from benchdb.models import InferenceResult, IngestProblem, Round, Submitter, System
from ingest.inference.store import findings_create, log_rows, logs_create
from ingest.parsers import safe_tree
from ingest.parsers.types import Problem
from ingest.store import NOT_STORED, PATH_WIDTH, IngestReport, problem_row


class SuiteWriter:
    """Stores the records of one round (``rnd``) read from ``repository`` at
    ``commit`` (a suite's ``Writer`` subclasses it and calls :meth:`result_row`,
    :meth:`save` and :meth:`system_row`)."""

    def __init__(self, rnd: Round, repository: str, commit: str) -> None:
        self.round, self.repository, self.commit = rnd, repository, commit
        self.submitters: dict[str, Submitter] = {}
        self.results = dict(
            InferenceResult.objects.filter(round=rnd).values_list("source_path", "pk")
        )

    def result_row(
        self, rec_path: str, system: System, sha256: str, **fields: Any
    ) -> InferenceResult:
        """The unsaved ``InferenceResult`` of the record at ``rec_path`` (the pk an
        earlier ingest gave its folder, if any), with the suite's columns ``fields``."""
        path = safe_tree.shorten(rec_path, PATH_WIDTH)
        return InferenceResult(
            pk=self.results.get(path),
            round=self.round,
            system=system,
            source_path=path,
            repository=self.repository,
            commit=self.commit,
            content_sha256=sha256,
            **fields,
        )

    def save(
        self,
        result: InferenceResult,
        rec_path: str,
        findings: Iterable[Any],
        files: Iterable[Any],
        problems: Sequence[Problem],
        report: IngestReport,
    ) -> None:
        """Write ``result`` (from :meth:`result_row`) with its ``findings`` (``rule``,
        ``path``, ``line``, ``message``, ``invalidates``), ``files`` (bytes as read,
        compressed here) and ``problems`` in one transaction, replacing an earlier
        ingest's; the round's "not stored" problem of ``rec_path`` is cleared. Raises
        DatabaseError / ValueError (rolled back: ``ingest.pipeline.store_each`` records
        it)."""
        pk = result.pk
        files = list(files)
        with transaction.atomic():
            result.save(force_insert=pk is None, force_update=pk is not None)
            IngestProblem.objects.filter(
                round=self.round, path=rec_path, result=None, message__startswith=NOT_STORED
            ).delete()
            if pk is not None:
                result.findings.all().delete()
                result.logs.all().delete()
                IngestProblem.objects.filter(inference_result=result).delete()
            findings_create(result, findings)
            logs_create(log_rows(result, files, pack=logcodec.compress))
            IngestProblem.objects.bulk_create(
                [problem_row(self.round, p, inference_result=result) for p in problems],
                ignore_conflicts=True,
            )
        self.results[result.source_path] = result.pk
        report.added += pk is None
        report.changed += pk is not None
        report.runs_stored += len(files)
        report.problems += len(problems)

    def system_row(
        self, submitter_folder: str, folder: str, submitter: Submitter, fields: dict[str, Any]
    ) -> System:
        """The round's system ``folder`` of ``submitter_folder``
        (``<division>/<submitter>``), created or updated with ``fields``."""
        system, _ = System.objects.update_or_create(
            round=self.round,
            submitter_folder=submitter_folder,
            folder=folder,
            defaults={"submitter": submitter, **fields},
        )
        return system

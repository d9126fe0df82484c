"""What every sync job counts as it reads (:class:`JobProgress`, the ``on_result``
callback of the ingest services), how counts are written in words, and the claims check
after a sync that wrote results. The bottom of ``ingest.jobs``: it imports no other
module of the package (run -> parts -> training / inference -> progress; tasks on top).
"""

from __future__ import annotations

import posixpath
import time
from typing import Any

from django.utils import timezone

from benchdb.models import Claim, IngestProblem, VendorPage
from ingest.models import IngestJob, IngestJobError
from ingest.parsers.types import LoadedResult
from ingest.store import NOT_STORED, IngestReport
from ingest.training.service import CODE_VERSION


class JobProgress:
    """The ``on_result`` callback of a job's ingest: counts what was read and writes
    the counts to the job row at most every half second; keeps the problems of the
    results written, and the result folders that could not be stored, as job error
    rows (``failed`` counts those folders)."""

    def __init__(self, job: IngestJob, suite: str = "training") -> None:
        self.job = job
        self.suite = suite
        self.prefix = ""
        self.written: list[str] = []
        self.failed = 0
        self.pending: list[IngestJobError] = []
        self.last = 0.0

    def __call__(self, item: Any) -> None:
        """Count one result folder: a training ``LoadedResult`` or an
        ``ingest.inference.service.InferenceItem``."""
        job = self.job
        job.results_seen += 1
        if isinstance(item, LoadedResult):
            d = item.dir
            job.files_seen += len(d.runs) + bool(d.system_file) + bool(d.scaling_file)
            path = d.path
        else:
            job.files_seen += item.files_read
            path = item.path
        job.results_unchanged += item.unchanged
        if not item.unchanged:
            self.written.append(path)
        if time.monotonic() - self.last > 0.5:
            self.flush()

    def repository_done(self, report: IngestReport) -> None:
        """Count one repository's ingest, then add an error row per result folder it
        could not store (``report.failed_paths``, with the problem the service
        recorded) and copy the problems stored with the results written (parse
        errors, and the warnings of failed runs, with file and line)."""
        job = self.job
        job.results_added += report.added
        job.results_changed += report.changed
        self.failed += report.failed
        problems = IngestProblem.objects.filter(
            round__suite=self.suite, round__version__in=report.rounds
        )
        paths = report.failed_paths
        why = dict(
            problems.filter(result=None, path__in=paths, message__startswith=NOT_STORED)
            .order_by("pk")
            .values_list("path", "message")
        )
        for path in paths:
            self.error(
                posixpath.join(self.prefix, path),
                None,
                why.get(path, f"{NOT_STORED}: its transaction was rolled back"),
            )
        result = "result" if self.suite == "training" else "inference_result"
        written = problems.filter(**{f"{result}__source_path__in": self.written})
        for p in written.order_by("path", "line"):
            self.error(posixpath.join(self.prefix, p.path), p.line, p.message, p.severity)
        self.written = []

    def error(self, path: str, line: int | None, message: str, severity: str = "error") -> None:
        self.pending.append(
            IngestJobError(
                job=self.job, path=path[:500], line=line, message=message[:2000], severity=severity
            )
        )
        self.job.errors += severity == "error"

    @staticmethod
    def source_fields(commit: str) -> dict[str, Any]:
        """The source's sync state after a successful read of ``commit``."""
        return {"last_commit": commit, "synced_parser_version": CODE_VERSION[:32]}

    def flush(self) -> None:
        job = self.job
        IngestJobError.objects.bulk_create(self.pending)
        self.pending = []
        counts = {name: getattr(job, name) for name in IngestJob.COUNTS}
        IngestJob.objects.filter(pk=job.pk).update(heartbeat=timezone.now(), **counts)
        self.last = time.monotonic()


def claims_reverify_all() -> int:
    """Check the claims of every vendor page again against the results stored now
    (a page read before its MLPerf results were is ``unverifiable`` until then);
    one transaction per page, outside those of the results. Returns the pages."""
    # The claims wing (page fetch and parse: trafilatura, dateparser...) loads only when a
    # sync re-checks claims, not in every process that imports the jobs.
    from ingest.claims.pages import claims_reverify

    n = 0
    for page_id in Claim.objects.order_by("page_id").values_list("page_id", flat=True).distinct():
        try:
            claims_reverify(page_id=page_id)
        except VendorPage.DoesNotExist:  # deleted meanwhile
            continue
        n += 1
    return n


def plural(n: int, one: str, many: str = "") -> str:
    """``n`` and the noun: ``plural(1, "round")`` is "1 round", ``plural(2, "round")``
    "2 rounds"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"

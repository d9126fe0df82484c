"""python manage.py ingest-all ROOT [--full] [--no-wait] [--timeout S] [--every S] [--no-hpc]

Every round folder in ROOT (``training_results_v5.1``, ``inference_results_v4.1``,
``hpc_results_v2.0``, ``tiny_results_v1.3``, ... : every suite of ``benchdb.suites``)
loaded: the training and inference rounds through their source and job
(``ingest.jobs.all_rounds``), queued for the Celery workers (with ``INGEST_FANOUT=1``,
one task per submitter folder on any worker); the rounds of the other suites (HPC,
Automotive, Tiny, Storage, Mobile) ingested here meanwhile by their suite's service
(``Suite.ingest``; ``--no-hpc`` leaves them all out); then a progress line every
``--every`` seconds until every job has ended. Exit status 1 when a job did not succeed
or a round ingested here could not be stored.
Run it again after any interruption (even ``kill -9``): it takes its sources and jobs
up where they stand.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingest.jobs import all_rounds as sync_all
from ingest.models import IngestJob
from ingest.store import IngestError


class Command(BaseCommand):
    help = "Load every round folder of ROOT through sources, jobs and the Celery fan-out."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("root", help="a folder of <suite>_results_v* folders")
        parser.add_argument("--full", action="store_true", help="read every folder again")
        parser.add_argument("--no-wait", action="store_true", help="queue the jobs and exit")
        parser.add_argument(
            "--no-hpc",
            action="store_true",
            help="leave out the rounds ingested here (HPC, Automotive, Tiny, Storage, Mobile)",
        )
        parser.add_argument("--timeout", type=float, default=24 * 3600, help="seconds to wait")
        parser.add_argument("--every", type=float, default=10.0, help="seconds between lines")

    def handle(self, *args: Any, **opts: Any) -> None:
        t0 = time.monotonic()
        try:
            folders = sync_all.round_folders(Path(opts["root"]))
            sources = sync_all.sources_ensure(folders)
        except (NotADirectoryError, ValueError, ValidationError) as exc:
            raise CommandError(str(exc)) from exc
        jobs = sync_all.sources_sync(sources, full=opts["full"])
        for s, job in zip(sources, jobs, strict=True):
            job.refresh_from_db()  # without a broker it has already run
            self.stdout.write(f"{s.name}: {s.location} -> job {job.pk} {job.state}")
        failed_here = 0 if opts["no_hpc"] else self._here(folders)
        if opts["no_wait"]:
            return
        ids = [j.pk for j in jobs]
        progress = self._wait(ids, t0, opts["timeout"], opts["every"])
        self.stdout.write(f"done in {time.monotonic() - t0:.1f} s: {progress.line()}")
        bad = sum(n for state, n in progress.states.items() if state != IngestJob.State.SUCCEEDED)
        if bad or failed_here:
            raise CommandError(
                f"{bad} jobs did not succeed, {failed_here} rounds ingested here failed"
            )

    def _here(self, folders: list[sync_all.RoundFolder]) -> int:
        """Ingest the rounds of the suites with no source kind here, each by its
        suite's service (``Suite.ingest``); the number that could not be stored."""
        from benchdb import suites

        failed = 0
        for f in folders:
            if f.suite in sync_all.KINDS:
                continue
            t = time.monotonic()
            try:
                r = suites.load(suites.BY_NAME[f.suite].ingest)(location=str(f.path))
            except IngestError as exc:
                self.stderr.write(f"{f.suite} {f.version}: {exc}")
                failed += 1
                continue
            self.stdout.write(
                f"{f.suite} {f.version}: {r.results_seen} results ({r.added} added, {r.changed}"
                f" changed, {r.unchanged} unchanged, {r.failed} not stored) in"
                f" {time.monotonic() - t:.1f} s, in this process"
            )
            failed += int(r.failed > 0)
        return failed

    def _wait(self, ids: list[int], t0: float, timeout: float, every: float) -> sync_all.Progress:
        deadline = time.monotonic() + timeout
        while True:
            progress = sync_all.jobs_progress(ids)
            self.stdout.write(f"{time.monotonic() - t0:7.1f} s  {progress.line()}")
            if not progress.active:
                return progress
            if time.monotonic() > deadline:
                raise CommandError(f"{progress.active} jobs still active after {timeout:.0f} s")
            time.sleep(every)

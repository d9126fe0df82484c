"""python manage.py source add|sync|list|remove: register results sources and sync them.

    source add --name mlperf-v4-1 --kind mlperf-training \\
        --location https://github.com/mlcommons/training_results_v4.1 --schedule "0 3 * * *"
    source sync mlperf-v4-1 --wait      # exit status 1 unless the job succeeds
    source list --format json

A ref or location git must not be given (``--ref --upload-pack=...``, ``ext::...``,
ssh remotes) is refused with the rule it breaks (``Source.clean``).
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingest import selectors
from ingest.jobs import run as sync
from ingest.jobs import schedules
from ingest.models import IngestJob, Source


class Command(BaseCommand):
    help = "Manage results sources (MLPerf results repositories, vendor pages) and sync them."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        add = sub.add_parser("add", help="register a source")
        add.add_argument("--name", required=True, help="short name (letters, digits, - and _)")
        add.add_argument("--kind", required=True, choices=Source.Kind.values)
        add.add_argument(
            "--location", required=True, help="https git URL or path; page URL or file"
        )
        add.add_argument(
            "--ref",
            default="",
            help="branch, tag or full commit sha (default: the remote's default branch)",
        )
        add.add_argument(
            "--schedule", default="", help='crontab ("0 3 * * *") or "every 6h"; default: none'
        )
        add.add_argument(
            "--round",
            dest="round_version",
            default="",
            help='e.g. "v4.1" when the repository name does not say it',
        )
        add.add_argument("--disabled", action="store_true", help="register without scheduling")
        run = sub.add_parser("sync", help="queue a sync of a source")
        run.add_argument("name")
        run.add_argument(
            "--wait", action="store_true", help="wait for the job; fail unless it succeeds"
        )
        run.add_argument(
            "--timeout", type=float, default=6 * 3600, help="seconds --wait waits (default 6 h)"
        )
        run.add_argument(
            "--full", action="store_true", help="read every result folder, not only what changed"
        )
        lst = sub.add_parser("list", help="sources with their last job")
        lst.add_argument("--format", choices=["text", "json"], default="text")
        rm = sub.add_parser(
            "remove", help="delete a source, its schedule and its jobs (not its results)"
        )
        rm.add_argument("name")

    def handle(self, *args: Any, **opts: Any) -> None:
        getattr(self, "_" + opts["action"])(opts)

    def _add(self, opts: dict[str, Any]) -> None:
        try:
            source = sync.source_add(
                name=opts["name"],
                kind=opts["kind"],
                location=opts["location"],
                ref=opts["ref"],
                schedule=opts["schedule"],
                round_version=opts["round_version"],
                enabled=not opts["disabled"],
            )
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from exc
        schedule = schedules.schedule_text(source) or "none"
        self.stdout.write(f"source {source.name} added (id {source.pk}); schedule: {schedule}")

    def _sync(self, opts: dict[str, Any]) -> None:
        source = self._source(opts["name"])
        job = sync.source_sync_request(
            source_id=source.pk, trigger=IngestJob.Trigger.COMMAND, full=opts["full"]
        )
        assert job is not None  # only scheduled requests can be refused
        job.refresh_from_db()  # without a broker it has already run
        self.stdout.write(f"job {job.pk} {job.state}")
        if not opts["wait"]:
            return
        deadline = time.monotonic() + opts["timeout"]
        while True:
            job.refresh_from_db()
            if not job.active:
                break
            if time.monotonic() > deadline:
                raise CommandError(f"job {job.pk} still {job.state} after {opts['timeout']:.0f} s")
            time.sleep(1)
        self.stdout.write(json.dumps(selectors.job_row(job, private=True), indent=2))
        if job.state != IngestJob.State.SUCCEEDED:
            raise CommandError(f"job {job.pk} {job.state}: {job.message}")

    def _list(self, opts: dict[str, Any]) -> None:
        sources = selectors.source_list(private=True)
        rows = [selectors.source_as_dict(s, private=True) for s in sources]
        if opts["format"] == "json":
            self.stdout.write(json.dumps(rows, indent=2))
            return
        for r in rows:
            j = r["last_job"]
            last = "never synced"
            if j is not None:
                last = (
                    f"job {j['id']} {j['state']}: {j['files_seen']} files seen, "
                    f"{j['results_added']} added, {j['results_changed']} changed, "
                    f"{j['results_unchanged']} unchanged, {j['errors']} errors"
                )
            flags = " [disabled]" if not r["enabled"] else ""
            flags += " [FAILING]" if r["failing"] else ""
            self.stdout.write(
                f"{r['name']} ({r['kind']}) {r['location']}{flags}\n"
                f"  schedule: {r['schedule'] or 'none'}; last: {last}"
            )

    def _remove(self, opts: dict[str, Any]) -> None:
        sync.source_remove(source=self._source(opts["name"]))
        self.stdout.write(f"source {opts['name']} removed")

    @staticmethod
    def _source(name: str) -> Source:
        try:
            return Source.objects.get(name=name)
        except Source.DoesNotExist as exc:
            raise CommandError(f"no source named {name!r} (see: source list)") from exc

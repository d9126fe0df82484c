"""python manage.py history backfill <repository> [--suite S --round vX.Y] [--dry-run] [--json]

Walks a results repository's git history (a bare mirror or a clone) since publication
and records every change to a published result as a back-filled version
(``ingest.history_backfill``); prints a line per commit that changed something, with
its counts by kind of change and examples."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingest.fetch import SyncError
from ingest.history_backfill import BackfillReport, history_backfill


class Command(BaseCommand):
    help = "A published result's history: backfill <repository> (its git history)."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        back = sub.add_parser("backfill", help="record the changes of a repository's commits")
        back.add_argument("repository", help="a results repository (bare or a clone)")
        back.add_argument("--suite", default="", choices=["", "training", "hpc", "inference"])
        back.add_argument("--round", default="", help='e.g. "v5.1" (default: from the name)')
        back.add_argument("--dry-run", action="store_true", help="report, record nothing")
        back.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            report = history_backfill(
                location=opts["repository"],
                suite=opts["suite"],
                round_version=opts["round"],
                dry_run=opts["dry_run"],
            )
        except SyncError as exc:
            raise CommandError(str(exc)) from exc
        if opts["json"]:
            self.stdout.write(json.dumps(report.as_dict(), indent=2))
            return
        self.stdout.write(render(report))


def render(report: BackfillReport) -> str:
    """The report as text: a line per commit, its kinds, up to three examples."""
    lines = [
        f"{report.suite} {report.round_version}: {len(report.commits)} commits changed "
        f"published results; {report.recorded} versions recorded"
    ]
    for c in report.commits:
        counts = ", ".join(f"{k} {n}" for k, n in sorted(c.kinds.items()))
        added = f", {c.added} result folders added" if c.added else ""
        lines.append(f"{c.sha[:8]} {c.date[:10]} {c.subject[:60]!r}: {counts or 'none'}{added}")
        lines += [f"    {e[:300]}" for e in c.examples]
    return "\n".join(lines) + "\n"

"""python manage.py ingest mlperf-training <folder or git URL> [--round v1.1]"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingest import services


class Command(BaseCommand):
    help = "Ingest MLPerf Training results (a results repository, a folder of them, or a git URL)."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="kind", required=True)
        mlp = sub.add_parser("mlperf-training", help="MLPerf Training results repository")
        mlp.add_argument("location", help="folder or git URL")
        mlp.add_argument("--round", dest="round_version", help='e.g. "v1.1" (default: from the name)')
        mlp.add_argument("--commit", default="", help="commit the folder was taken from")
        mlp.add_argument("--workers", type=int, default=None, help="parser processes (default 2)")
        mlp.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["kind"] == "mlperf-training":
            try:
                report = services.mlperf_training_ingest(
                    location=opts["location"], round_version=opts["round_version"],
                    commit=opts["commit"], progress=True, workers=opts["workers"],
                )  # fmt: skip
            except services.IngestError as exc:
                raise CommandError(str(exc)) from exc
            if opts["json"]:
                self.stdout.write(json.dumps(report.as_dict(), indent=2))
                return
            r = report
            self.stdout.write(
                f"rounds {', '.join(r.rounds)}: {r.results_seen} results "
                f"({r.added} added, {r.changed} changed, {r.unchanged} unchanged); "
                f"{r.scored} scored, {r.unscored} without score; {r.runs_stored} runs stored; "
                f"{r.problems} problems recorded"
            )
            for reason, n in r.reasons.most_common():
                self.stdout.write(f"  no score ({n}): {reason}")

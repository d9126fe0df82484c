"""python manage.py import result-ids <table.csv> [--json]

Sets MLPerf Training result IDs from a table users hold from MLCommons (columns round, id,
submitter, system, and optionally benchmark, division: ``ingest.parsers.result_id_table``).
Imported IDs override derived and vendor-cited ones; each replaced ID is reported as a
conflict, each row that names no result as unmatched."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingest.parsers.result_id_table import IdTableError
from ingest.result_ids import result_ids_import

MAX_BYTES = 50 * 1024 * 1024


class Command(BaseCommand):
    requires_system_checks: list[str] = []
    help = "Import tables that name results: result-ids (MLPerf Training result IDs)."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="kind", required=True)
        ids = sub.add_parser("result-ids", help="a CSV of MLPerf Training result IDs")
        ids.add_argument("path", help="CSV file: round,id,submitter,system[,benchmark,division]")
        ids.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args: Any, **opts: Any) -> None:
        path = opts["path"]
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_BYTES + 1)
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror}") from exc
        if len(data) > MAX_BYTES:
            raise CommandError(f"{path}: larger than {MAX_BYTES:,} bytes")
        try:
            report = result_ids_import(data=data, path=path)
        except IdTableError as exc:
            raise CommandError(f"nothing imported:\n{exc}") from exc
        if opts["json"]:
            self.stdout.write(json.dumps(report.as_dict(), indent=2))
            return
        self.stdout.write(
            f"{report.imported} results given an ID, {report.unchanged} unchanged, "
            f"{len(report.conflicts)} conflicts, {len(report.unmatched)} rows unmatched"
        )
        for line in (*report.conflicts, *report.unmatched):
            self.stdout.write(f"  {line}")

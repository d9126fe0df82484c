"""python manage.py import result-ids <table.csv> [--json]
python manage.py import id-list <id_list.json> --round v6.0 [--json]

Sets MLPerf Training result IDs from a table users hold from MLCommons (columns round, id,
submitter, system, and optionally benchmark, division: ``ingest.parsers.result_id_table``).
Imported IDs override derived and vendor-cited ones; each replaced ID is reported as a
conflict, each row that names no result as unmatched. An ID list (v6.0 on: the frozen list
of system hashes the summarizer numbers systems from, ``ingest.result_ids_list``) gives
derived IDs to the systems it holds."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from benchdb.mlperf.training.result_ids_v6 import IdListError
from ingest.parsers.result_id_table import IdTableError
from ingest.result_ids import result_ids_import
from ingest.result_ids_list import result_ids_from_list

MAX_BYTES = 50 * 1024 * 1024


class Command(BaseCommand):
    requires_system_checks: list[str] = []
    help = "Import tables that name results: result-ids (MLPerf Training result IDs)."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="kind", required=True)
        ids = sub.add_parser("result-ids", help="a CSV of MLPerf Training result IDs")
        ids.add_argument("path", help="CSV file: round,id,submitter,system[,benchmark,division]")
        ids.add_argument("--json", action="store_true", help="print the report as JSON")
        lst = sub.add_parser("id-list", help="a round's frozen ID list (v6.0 on)")
        lst.add_argument("path", help="JSON list of sha256 system hashes (--id_json_path)")
        lst.add_argument("--round", required=True, help='e.g. "v6.0"')
        lst.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args: Any, **opts: Any) -> None:
        path = opts["path"]
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_BYTES + 1)
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror}") from exc
        if len(data) > MAX_BYTES:
            raise CommandError(f"{path}: larger than {MAX_BYTES:,} bytes")
        if opts["kind"] == "id-list":
            self._id_list(data, path, opts)
            return
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

    def _id_list(self, data: bytes, path: str, opts: dict[str, Any]) -> None:
        try:
            report = result_ids_from_list(round_version=opts["round"], data=data, path=path)
        except IdListError as exc:
            raise CommandError(f"nothing imported: {exc}") from exc
        if opts["json"]:
            self.stdout.write(json.dumps(report.as_dict(), indent=2))
            return
        self.stdout.write(
            f"{report.derived} results given an ID, {report.unchanged} unchanged, "
            f"{report.kept} imported or cited IDs kept, {len(report.not_listed)} systems "
            f"not in the list, {len(report.skipped)} skipped"
        )
        for name in report.not_listed:
            self.stdout.write(f"  not listed: {name}")

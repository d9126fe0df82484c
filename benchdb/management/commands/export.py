"""python manage.py export results --format csv|json [--round] [--submitter] [--benchmark]

python manage.py export results --suite hpc --format csv|json [--round] [--submitter] [--benchmark]

python manage.py export results --suite inference --format csv|json [--round] [--model]
    [--scenario] [--division] [--submitter]

The suites and their rows come from ``benchdb.suites`` (``export_rows``, ``export_schema``).

python manage.py export claims --format csv|json [--verdict] [--kind]   (vendor claims, issue 4)"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from benchdb import suites
from benchdb.tables import schemas, writers


class Command(BaseCommand):
    help = "Write a table to stdout as CSV or JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("table", choices=["results", "claims"])
        parser.add_argument("--suite", choices=suites.names(), default="training")
        parser.add_argument("--format", choices=["csv", "json"], default="csv")
        parser.add_argument("--round", dest="round_version")
        parser.add_argument("--submitter")
        parser.add_argument("--benchmark")
        parser.add_argument("--division", choices=["closed", "open", "network"])
        parser.add_argument("--model", help='inference: benchmark, e.g. "llama2-70b-99"')
        parser.add_argument("--scenario", help='inference: e.g. "Server"')
        parser.add_argument("--verdict", default="", help="claims: only this verdict")
        parser.add_argument("--kind", default="", help="claims: only this kind")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["table"] == "claims":
            self._claims(opts)
            return
        # The suite's rows (its ``export_rows`` in the registry, the pages' own reads)
        # in the columns of its published schema.
        suite = suites.suite(opts["suite"])
        filters = ("round_version", "submitter", "benchmark", "division", "model", "scenario")
        rows = suites.load(suite.export_rows)(**{k: opts[k] for k in filters})
        self._write(rows, suite.export_schema, opts["format"])

    def _write(self, rows: list[dict[str, Any]], schema: str, fmt: str) -> None:
        cols = schemas.columns(schema)
        if fmt == "csv":
            self.stdout.write(writers.to_csv(rows, cols), ending="")
        else:
            self.stdout.write(writers.to_json(rows, cols, schema))

    def _claims(self, opts: dict[str, Any]) -> None:
        """One row per vendor claim (schema ``benchdb.claims/1``, ``benchdb.claims.selectors``)."""
        from benchdb.claims import selectors as vendor_selectors

        rows = list(vendor_selectors.claim_export_rows(verdict=opts["verdict"], kind=opts["kind"]))
        self._write(rows, "benchdb.claims/1", opts["format"])

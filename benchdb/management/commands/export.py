"""python manage.py export results --format csv|json [--round] [--submitter] [--benchmark]

python manage.py export results --suite hpc --format csv|json [--round] [--submitter] [--benchmark]

python manage.py export results --suite inference --format csv|json [--round] [--model]
    [--scenario] [--division] [--submitter]

python manage.py export claims --format csv|json [--verdict] [--kind]   (vendor claims, issue 4)"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from benchdb.mlperf.inference import selectors as selectors_inference
from benchdb.mlperf.training import selectors
from benchdb.tables import schemas, writers


class Command(BaseCommand):
    help = "Write a table to stdout as CSV or JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("table", choices=["results", "claims"])
        parser.add_argument("--suite", choices=["training", "hpc", "inference"], default="training")
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
        if opts["suite"] == "inference":
            self._inference(opts)
            return
        qs = selectors.result_list(
            round_version=opts["round_version"],
            submitter=opts["submitter"],
            benchmark=opts["benchmark"],
            division=opts["division"],
            suite=opts["suite"],
        )
        # The rows of the pages' result tables (one values() query); the export
        # keeps the benchdb.results/1 columns (HPC: and its scaling columns).
        if opts["suite"] == "hpc":
            rows = selectors.result_table_rows(qs, *schemas.HPC_EXTRA_COLUMNS)
            self._write(rows, "benchdb.hpc_results/1", opts["format"])
            return
        rows = selectors.result_table_rows(qs)
        cols = schemas.RESULT_COLUMNS
        if opts["format"] == "csv":
            self.stdout.write(writers.to_csv(rows, cols), ending="")
        else:
            self.stdout.write(writers.to_json(rows, cols, "benchdb.results/1"))

    def _inference(self, opts: dict[str, Any]) -> None:
        """One row per MLPerf Inference result (``benchdb.inference_results/1``)."""
        rows = selectors_inference.inference_result_rows(
            round_version=opts["round_version"],
            model=opts["model"],
            scenario=opts["scenario"],
            division=opts["division"],
            submitter=opts["submitter"],
        )
        self._write(rows, "benchdb.inference_results/1", opts["format"])

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

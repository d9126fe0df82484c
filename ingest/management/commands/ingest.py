"""python manage.py ingest mlperf-training <folder or git URL> [--round v1.1]

python manage.py ingest mlperf-hpc <folder or git URL> [--round v1.0]

python manage.py ingest mlperf-inference <folder or git URL> [--round v5.1] [--model-map a:b;c:d]

python manage.py ingest vendor <file, folder or URL> [...] [--published 2021-12-01] [--url ...]"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from benchdb import suites
from ingest.store import IngestError


class Command(BaseCommand):
    # The URL checks import the pages' plotting stack (pandas): 0.4 s and 35 MB that an
    # ingest never uses. ``manage.py check`` and the test suite still run them.
    requires_system_checks: list[str] = []
    help = (
        "Ingest MLPerf results (a results repository, a folder of them, or a git URL; "
        "one subcommand per suite of benchdb.suites), or a vendor page."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="kind", required=True)
        for suite in suites.SUITES:
            add_suite_arguments(sub, suite)
        add_vendor_arguments(sub)

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["kind"] == "vendor":
            handle_vendor(self, opts)
            return
        handle_suite(self, suites.BY_SOURCE_KIND[opts["kind"]], opts)


def add_suite_arguments(sub: Any, suite: suites.Suite) -> None:
    """``ingest <source kind> <folder or git URL> [--round] [--commit] [--workers]
    [--json]``, and ``--model-map`` for a suite whose ingest takes it."""
    p = sub.add_parser(suite.source_kind, help=f"{suite.label} results repository")
    p.add_argument("location", help="folder or git URL")
    p.add_argument("--round", dest="round_version", help='e.g. "v1.1" (default: from the name)')
    p.add_argument("--commit", default="", help="commit the folder was taken from")
    p.add_argument("--workers", type=int, default=None, help="parser processes")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    if "model_map" in suite.ingest_options:
        p.add_argument(
            "--model-map",
            type=_model_map,
            default={},
            help='model folder -> benchmark, "folder:benchmark;..." (the checker\'s '
            "--extra-model-benchmark-map)",
        )


def _model_map(value: str) -> dict[str, str]:
    import argparse

    pairs = [p.split(":", 1) for p in value.split(";") if p.strip()]
    if any(len(p) != 2 or not p[0].strip() or not p[1].strip() for p in pairs):
        raise argparse.ArgumentTypeError(f"expected folder:benchmark;...: {value!r}")
    return {a.strip(): b.strip() for a, b in pairs}


def handle_suite(cmd: BaseCommand, suite: suites.Suite, opts: dict[str, Any]) -> None:
    """Ingest with the suite's service (``Suite.ingest``), print the report; exit non-zero
    (CommandError) when a result folder was read but could not be stored
    (``report.failed``): problems in the input and results without a score or not
    valid are recorded and do not fail the command."""
    extra = {"extra_mapping": opts["model_map"]} if "model_map" in suite.ingest_options else {}
    try:
        r = suites.load(suite.ingest)(
            location=opts["location"],
            round_version=opts["round_version"],
            commit=opts["commit"],
            progress=True,
            workers=opts["workers"],
            **extra,
        )
    except IngestError as exc:
        raise CommandError(str(exc)) from exc
    scored, unscored, stored, reason = suite.report_words
    if opts["json"]:
        cmd.stdout.write(json.dumps(r.as_dict(), indent=2))
    else:
        cmd.stdout.write(
            f"rounds {', '.join(r.rounds)}: {r.results_seen} results "
            f"({r.added} added, {r.changed} changed, {r.unchanged} unchanged); "
            f"{r.scored} {scored}, {r.unscored} {unscored}; {r.runs_stored} {stored} stored; "
            f"{r.problems} problems recorded"
        )
        for why, n in r.reasons.most_common():
            cmd.stdout.write(f"  {reason} ({n}): {why}")
    if r.failed:
        shown = ", ".join(r.failed_paths[:5]) + (" ..." if r.failed > 5 else "")
        raise CommandError(f"{r.failed} result folder(s) read but not stored: {shown}")


# --- vendor pages (issue 4) -------------------------------------------------------------


def add_vendor_arguments(sub: Any) -> None:
    """``ingest vendor <file, folder or URL> [...] [--published 2021-12-01] [--url ...]
    [--title ...] [--vendor ...] [--json]``: several locations in one process; a folder
    stands for its pages (``*.txt``, ``*.html``, ``*.htm``, by name)."""
    ven = sub.add_parser("vendor", help="vendor pages or reposts (files, folders, http(s) URLs)")
    ven.add_argument(
        "location", nargs="+", help="file, folder of pages or http(s) URL (fetched with a timeout)"
    )
    ven.add_argument(
        "--published", type=_iso_date, default=None, help="the page's date, YYYY-MM-DD"
    )
    ven.add_argument("--url", default="", help="the page's source URL, when LOCATION is a file")
    ven.add_argument("--title", default="", help="the page's title (else read from the page)")
    ven.add_argument(
        "--vendor", default="", help="whose results the page is about (else read from the page)"
    )
    ven.add_argument("--json", action="store_true", help="print the report as JSON")


def _iso_date(value: str) -> Any:
    import argparse
    from datetime import date

    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {value!r}") from exc


PAGE_SUFFIXES = (".txt", ".html", ".htm")


def vendor_locations(locations: list[str]) -> list[str]:
    """Each location as given, a folder replaced by its pages (:data:`PAGE_SUFFIXES`,
    sorted by name). Raises CommandError for a folder without a page."""
    from pathlib import Path

    out: list[str] = []
    for loc in locations:
        folder = Path(loc)
        if "://" in loc or not folder.is_dir():
            out.append(loc)
            continue
        pages = sorted(
            str(f) for f in folder.iterdir() if f.suffix in PAGE_SUFFIXES and f.is_file()
        )
        if not pages:
            raise CommandError(f"{loc}: a folder without a page ({', '.join(PAGE_SUFFIXES)})")
        out.extend(pages)
    return out


def handle_vendor(cmd: BaseCommand, opts: dict[str, Any]) -> None:
    """Ingest each page and print one line per page naming it; a page that fails is
    reported and the others still go in; CommandError at the end when any failed.
    ``--published/--url/--title/--vendor`` describe one page, so they need one."""
    from ingest.claims import pages as vendor

    locations = vendor_locations(opts["location"])
    one_page = ("published", "url", "title", "vendor")
    if len(locations) > 1 and any(opts[k] for k in one_page):
        raise CommandError("--published, --url, --title and --vendor describe one page")
    failed: list[str] = []
    reports = []
    last_error = ""
    for loc in locations:
        try:
            report = vendor.vendor_page_ingest(
                data=None,
                path_or_url=loc,
                published=opts["published"],
                url=opts["url"],
                title=opts["title"],
                vendor=opts["vendor"],
            )
        except vendor.VendorIngestError as exc:
            last_error = str(exc)
            cmd.stderr.write(f"{loc}: {exc}")
            failed.append(loc)
            continue
        reports.append({"location": loc, **report.as_dict()})
        if not opts["json"]:
            cmd.stdout.write(f"{loc}: {_vendor_line(report)}")
    if opts["json"] and reports:
        cmd.stdout.write(json.dumps(reports[0] if len(locations) == 1 else reports, indent=2))
    if len(locations) == 1 and failed:
        raise CommandError(last_error)
    if failed:
        raise CommandError(
            f"{len(failed)} of {len(locations)} pages not stored: {', '.join(failed)}"
        )


def _vendor_line(report: Any) -> str:
    if not report.created:
        return f"page {report.page_id}: already stored (same bytes); nothing written"
    verdicts = ", ".join(f"{n} {v}" for v, n in report.verdicts.most_common()) or "none"
    return (
        f"page {report.page_id}: {report.claims} claims ({verdicts}); "
        f"{report.vendor_results} vendor-table rows"
    )

"""python manage.py check-claims <file or URL> [--published 2021-12-01]

The claims of a text file (or the page at an http(s) URL, fetched with the site's
SSRF checks), their verdicts, flags and guideline findings, printed as the JSON of
``POST /api/claims/check`` (``ingest.claims.check``). Nothing is stored. ``-`` reads
standard input."""

from __future__ import annotations

import json
import sys
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingest.claims.check import MAX_CHECK_CHARS, CheckError, claims_check, too_large
from ingest.fetch import is_http_url


class Command(BaseCommand):
    requires_system_checks: list[str] = []
    help = "Check the claims of a text file or URL; print the check as JSON (nothing stored)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("source", help="a text or HTML file, an http(s) URL, or - (stdin)")
        parser.add_argument(
            "--published", type=date.fromisoformat, default=None, help="the text's date"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        source: str = opts["source"]
        text, url = "", ""
        if is_http_url(source):
            url = source
        else:
            text = _read_text(source)
        try:
            out = claims_check(text=text, url=url, published=opts["published"])
        except CheckError as exc:
            raise CommandError(f"{source}: {exc}") from exc
        self.stdout.write(json.dumps(out, ensure_ascii=False, indent=1))


def _read_text(path: str) -> str:
    """The file's text (UTF-8, undecodable bytes replaced), read to one character over
    the limit; CommandError when it cannot be read or is over the limit."""
    try:
        if path == "-":
            text = sys.stdin.read(MAX_CHECK_CHARS + 1)
        else:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read(MAX_CHECK_CHARS + 1)
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror or exc}") from exc
    if len(text) > MAX_CHECK_CHARS:
        raise CommandError(f"{path}: {too_large(len(text))}")
    return text

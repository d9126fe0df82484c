"""Dump what the claim readers make of every real vendor page, to compare two versions
of the parsers (issue 21: the check API made linear without changing outputs).

    python bench/claims_parity.py > before.json      # on the old code
    python bench/claims_parity.py > after.json       # on the new code
    cmp before.json after.json

With ``--check`` (needs ``DATABASE_URL``: a database with results), each page's
``ingest.claims.check.claims_check`` answer too (the verdict side: subjects,
resolve), less its ``seconds``.

Reads ../shared/vendor/*.txt and ../shared/vendor-dev/*/*.txt (``VENDOR_DATA``'s
parent). Per page: the cleaned text's sha256, its tables (``parse_vendor_tables``), its
claims (``claim_text.extract_claims``, as dicts) and the page reading
(``claim_page.read_page``: arithmetic, baselines, number accounting); the seconds each
took go to stderr. Pure parsers only: no database.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ingest.claims.parsers import page as claim_page
from ingest.claims.parsers import text as claim_text  # noqa: E402
from ingest.claims.parsers.page_html import parse_vendor_page  # noqa: E402
from ingest.claims.parsers.page_tables import parse_vendor_tables  # noqa: E402

SHARED = Path(__file__).resolve().parents[3] / "shared"


def pages(shared: Path) -> list[Path]:
    """The real pages, in a fixed order."""
    return sorted((shared / "vendor").glob("*.txt")) + sorted(
        (shared / "vendor-dev").glob("*/*.txt")
    )


def reading(path: Path) -> dict[str, object]:
    """Everything the parsers read from one page, JSON-ready."""
    doc = parse_vendor_page(path.read_bytes(), name=path.name)
    tables = parse_vendor_tables(doc.text)
    claims = claim_text.extract_claims(doc.text, tables=tables)
    page = claim_page.read_page(doc.text, claims, tables)
    return {
        "text_sha256": hashlib.sha256(doc.text.encode()).hexdigest(),
        "tables": [dataclasses.asdict(t) for t in tables],
        "claims": [c.as_dict() for c in claims],
        "page": dataclasses.asdict(page),
    }


def checked(path: Path) -> dict[str, object]:
    """The check API's answer for the page's bytes as text, without its timing."""
    from ingest.claims.check import claims_check

    out = claims_check(text=path.read_bytes().decode("utf-8", errors="replace"))
    return {k: v for k, v in out.items() if k not in ("seconds", "stages")}


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--check"]
    check = "--check" in sys.argv[1:]
    if check:
        import os

        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")
        django.setup()
    shared = Path(args[0]) if args else SHARED
    out = {}
    total = 0.0
    for p in pages(shared):
        t0 = time.perf_counter()
        out[str(p.relative_to(shared))] = reading(p) | ({"check": checked(p)} if check else {})
        total += time.perf_counter() - t0
    n_claims = sum(len(v["claims"]) for v in out.values())  # type: ignore[arg-type]
    print(f"{len(out)} pages, {n_claims} claims, {total:.2f} s", file=sys.stderr)
    json.dump(out, sys.stdout, indent=1, sort_keys=True, default=str)


if __name__ == "__main__":
    main()

"""Every number of the shared vendor pages accounted for, per page (issue 14).

Usage (from the repository root; no database is read)::

    python bench/number_accounting.py [--root CHECKOUT] [--other]

Each page of ``settings.VENDOR_DATA`` (``../shared/vendor``) is read as the ingest
service reads it (``vendor_html``, ``vendor_tables``, ``claim_text``) and its numbers
accounted for (``claim_coverage.account_numbers``), with the code of ``--root``
(default: this checkout; ``--root /work/main`` gives main's figures). Printed per page:
numbers, in a claim, not a claim, ``other`` (the catch-all reason) and the count per
reason; with ``--other``: each ``other`` number with the text around it. Nothing is
asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--other", action="store_true", help="print each number left as other")
    args = ap.parse_args()
    sys.path.insert(0, str(args.root))
    os.chdir(args.root)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")
    import django

    django.setup()
    from django.conf import settings

    from ingest.claims.parsers.coverage import account_numbers, coverage_counts
    from ingest.claims.parsers.page_html import parse_vendor_page
    from ingest.claims.parsers.page_tables import parse_vendor_tables
    from ingest.claims.parsers.text import extract_claims

    total: Counter[str] = Counter()
    print(f"{'page':62} {'numbers':>7} {'claim':>5} {'not':>4} {'other':>5}  reasons")
    for p in sorted(Path(settings.VENDOR_DATA).glob("*.txt")):
        doc = parse_vendor_page(p.read_bytes(), name=p.name)
        tables = parse_vendor_tables(doc.text)
        uses = account_numbers(doc.text, extract_claims(doc.text, tables=tables), tables)
        c = coverage_counts(uses)
        n, claim, other = c.pop("numbers"), c.pop("claim"), c.pop("other", 0)
        reasons = " ".join(f"{k}={v}" for k, v in c.items())
        print(f"{p.name[:62]:62} {n:7} {claim:5} {n - claim:4} {other:5}  {reasons}")
        total.update({"numbers": n, "claim": claim, "other": other, **c})
        for u in uses if args.other else ():
            if u.reason == "other":
                around = doc.text[max(0, u.start - 30) : u.end + 20].replace("\n", " | ")
                print(f"    other {u.text!r}: ...{around}...")
    n, claim = total.pop("numbers"), total.pop("claim")
    other = total.pop("other", 0)
    reasons = " ".join(f"{k}={v}" for k, v in sorted(total.items()))
    print(f"{'total':62} {n:7} {claim:5} {n - claim:4} {other:5}  {reasons}")


if __name__ == "__main__":
    main()

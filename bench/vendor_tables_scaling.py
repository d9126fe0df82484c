"""CPU time of each stage of reading a vendor page against the page's size (issue 21):
is any stage super-linear?

Usage (from the repository root)::

    python bench/vendor_tables_scaling.py [--rows 250,1000,4000] [--seeds 0,1,2,5,19]

Builds the pages the vendor-table fuzz target builds (``tests/fuzz/test_check_fuzz.py``
``table_page``: a header and 1-12 real table lines of ../shared/vendor and
../shared/vendor-dev repeated to ``rows`` rows, as text and as an HTML table; a seed picks
the lines) and times, in CPU seconds of this process (``time.process_time``: what other
jobs on a shared machine do not stretch), each stage the fuzz target and the check API
run: cleaning (``parse_vendor_page``), tables, claims, the page reading (arithmetic,
baselines, every number's accounting). Printed per page: characters, lines, the longest
line, each stage's seconds and the CPU microseconds per character; a linear reader keeps
that last figure flat as the rows grow, and a star marks a page over
``page_html.MAX_PAGE_CHARS`` (timed here with the bound lifted; the last column is what
refusing it costs the readers, ``PageTooLarge``).
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")


def table_lines() -> list[str]:
    vendor = ROOT.parent / "shared" / "vendor"
    files = [*sorted(vendor.glob("*.txt")), *sorted((vendor.parent / "vendor-dev").glob("*/*.txt"))]
    return [
        ln
        for p in files
        for ln in p.read_text(errors="replace").split("\n")
        if "|" in ln or "min" in ln
    ]


def page(lines: list[str], seed: int, rows: int, html: bool) -> tuple[bytes, str]:
    """The fuzz target's page for a seed: text, or the same rows as an HTML table."""
    r = random.Random(seed)
    header = r.choice(lines)
    body = [r.choice(lines) for _ in range(r.randint(1, 12))]
    out = [header, "|---|---|", *(body * (rows // len(body) + 1))[:rows]]
    if not html:
        return "\n".join(out).encode(), "x.txt"
    cells = "".join(
        "<tr>" + "".join(f"<td>{c}</td>" for c in ln.split("|")) + "</tr>" for ln in out
    )
    doc = f"<html><body><p>MLPerf v3.0</p><table>{cells}</table></body></html>"
    return doc.encode(), "x.html"


def stages(data: bytes, name: str) -> tuple[dict[str, float], str]:
    """CPU seconds of each stage; and the text read."""
    from ingest.claims.parsers.page import read_page
    from ingest.claims.parsers.page_html import parse_vendor_page
    from ingest.claims.parsers.page_tables import parse_vendor_tables
    from ingest.claims.parsers.text import extract_claims
    from ingest.parsers.types import ParseError

    clock = time.process_time
    out: dict[str, float] = {}
    t = clock()
    # the page-size bound (MAX_PAGE_CHARS) lifted: the stages are timed past it
    doc = parse_vendor_page(data, name=name, max_chars=1 << 40)
    out["clean"] = clock() - t
    t = clock()
    tables = parse_vendor_tables(doc.text)
    out["tables"] = clock() - t
    t = clock()
    try:
        claims = extract_claims(doc.text, tables=tables, max_claims=10_000)
    except ParseError:
        claims = []
    out["claims"] = clock() - t
    t = clock()
    read_page(doc.text, claims, tables)
    out["reading"] = clock() - t
    return out, doc.text


def refused_in(data: bytes, name: str) -> float | None:
    """CPU seconds the readers take to refuse the page (``PageTooLarge``: what a page
    over the bound costs them now); None when it is within the bound."""
    from ingest.claims.parsers.page_html import PageTooLarge, parse_vendor_page

    t = time.process_time()
    try:
        parse_vendor_page(data, name=name)
    except PageTooLarge:
        return time.process_time() - t
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default="250,1000,4000")
    ap.add_argument("--seeds", default="0,1,2,5,19")
    args = ap.parse_args()
    import django

    django.setup()
    from ingest.claims.parsers.page_html import MAX_PAGE_CHARS

    lines = table_lines()
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(
        "seed form rows chars lines longest | clean tables claims reading (CPU s) | us/char"
        " | refused in (CPU s)"
    )
    for seed in (int(s) for s in args.seeds.split(",")):
        for html in (False, True):
            for rows in (int(n) for n in args.rows.split(",")):
                data, name = page(lines, seed, rows, html)
                took, text = stages(data, name)
                refused = refused_in(data, name)
                split = text.split("\n")
                per = sum(took.values()) / max(len(text), 1) * 1e6
                figures = " ".join(f"{v:6.3f}" for v in took.values())
                star = "*" if len(text) > MAX_PAGE_CHARS else " "
                print(
                    f"{seed:4} {'html' if html else 'text'} {rows:5} {len(text):8,}{star}"
                    f" {len(split):5} {max(map(len, split)):5} | {figures} | {per:5.2f}"
                    f" | {'' if refused is None else f'{refused:.3f}'}",
                    flush=True,
                )
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

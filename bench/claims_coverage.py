"""The share of stored vendor claims that get a checked verdict, per page (issue 14).

Usage (from the repository root, with DATABASE_URL naming a database that holds the
MLPerf rounds and the vendor pages)::

    python bench/claims_coverage.py [--root CHECKOUT] [--claims] [--page ID ...]

Every stored claim of every page is checked again in memory, as
``ingest.claims.pages.claims_reverify`` would (links a person set are kept), with the
code of ``--root`` (default: this checkout; ``--root /work/main`` gives the "before"
figures of main's code on the same data); nothing is written. Printed per page: claims,
not-mlperf, checked (consistent, inconsistent or ambiguous: compared with a stored
result), the share of all claims and of MLPerf claims (all but not-mlperf) that are
checked, and unverifiable claims whose reason names the result looked for. With
``--claims``: each claim's verdict, what it was judged against or the reason.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

CHECKED = ("consistent", "inconsistent", "ambiguous")


def _setup(root: Path) -> None:
    sys.path.insert(0, str(root))
    os.chdir(root)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")
    import django

    django.setup()


def _recheck(page: Any, rows: list[Any], vp: Any, results: list[Any], dates: Any) -> list[Any]:
    """(claim row, facts, verification) with the code at hand; main's ``_facts`` took
    the page's date, this branch's takes its context (``page_context``)."""
    cf = _claim_facts(vp)
    ctx = cf.page_context(page) if hasattr(cf, "page_context") else page.published
    out = []
    for row in rows:
        facts = (getattr(cf, "claim_facts", None) or cf._facts)(row.extracted, ctx, dates)
        pinned = [vp._stored_link(lk) for lk in row.links.all()] if row.corrected else None
        out.append((row, facts, vp.verdicts.verify_claim(facts, results, pinned=pinned)))
    return out


def _claim_facts(vp: Any) -> Any:
    """Where the checkout at hand keeps the claim checks: ``ingest.claims.facts``, or
    ``ingest.claims.pages`` in checkouts before it was split off."""
    try:
        from ingest.claims import facts as claim_facts

        return claim_facts
    except ImportError:
        return vp


def _names_target(v: Any) -> bool:
    reason = str(v.details.get("reason", ""))
    return v.verdict == "unverifiable" and (
        "no stored result for" in reason or "no pair of results for" in reason
    )


def _claim_line(row: Any, f: Any, v: Any) -> str:
    what = f"{row.kind} {row.value:g}{row.unit}" if row.value is not None else row.kind
    head = f"  #{row.pk} {what} [{f.round or '-'} {f.benchmark_key or '-'}] -> {v.verdict}"
    chosen = [c for c in v.details.get("choices", []) if c.get("judged_against")]
    if chosen:
        labels = {t["pk"]: t["label"] for c in chosen for t in c["tried"]}
        parts = [f"{c['role']}: {labels.get(c['judged_against'], '?')}" for c in chosen]
        return head + " | " + "; ".join(parts)
    return head + " | " + str(v.details.get("reason", ""))[:140]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    ap.add_argument("--claims", action="store_true", help="print every claim")
    ap.add_argument("--page", type=int, nargs="*", help="only these page ids")
    args = ap.parse_args()
    _setup(args.root.resolve())
    from benchdb.models import Claim, VendorPage
    from ingest.claims import pages as vp

    cf = _claim_facts(vp)
    results = cf.all_result_facts()
    dates = (getattr(cf, "round_dates", None) or cf._round_dates)()
    pages = VendorPage.objects.defer("raw").order_by("pk")
    if args.page:
        pages = pages.filter(pk__in=args.page)
    print(f"code: {args.root.resolve()}")
    print(
        f"{'id':>3} {'page':58} {'claims':>6} {'not-ml':>6} {'checked':>7}"
        f" {'share':>6} {'of mlperf':>9} {'named':>5}"
    )
    total: Counter[str] = Counter()
    for page in pages:
        rows = list(Claim.objects.filter(page=page).order_by("position").prefetch_related("links"))
        checked = _recheck(page, rows, vp, results, dates)
        n = len(checked)
        verdicts = Counter(v.verdict for _, _, v in checked)
        ok = sum(verdicts[k] for k in CHECKED)
        mlperf = n - verdicts["not-mlperf"]
        named = sum(_names_target(v) for _, _, v in checked)
        total.update(claims=n, not_mlperf=verdicts["not-mlperf"], checked=ok, named=named)
        share = f"{ok / n:.0%}" if n else "-"
        of_ml = f"{ok / mlperf:.0%}" if mlperf else "-"
        name = (page.file_name or page.url or page.title)[:58]
        print(
            f"{page.pk:>3} {name:58} {n:>6} {verdicts['not-mlperf']:>6} {ok:>7}"
            f" {share:>6} {of_ml:>9} {named:>5}"
        )
        if args.claims:
            for row, f, v in checked:
                print(_claim_line(row, f, v))
    n, ok = total["claims"], total["checked"]
    ml = n - total["not_mlperf"]
    print(
        f"{'':>3} {'all pages':58} {n:>6} {total['not_mlperf']:>6} {ok:>7}"
        f" {ok / max(n, 1):>6.0%} {ok / max(ml, 1):>9.0%} {total['named']:>5}"
    )


if __name__ == "__main__":
    main()

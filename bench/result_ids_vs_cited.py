"""MLPerf Training result IDs: the summarizer's rows against the IDs vendors cite.

    python bench/result_ids_vs_cited.py SUMMARY_CSV TAG VENDOR_FILE...
    python bench/result_ids_vs_cited.py --db

``--db`` reads the database ``DATABASE_URL`` names, after whole rounds and the vendor
pages are ingested (``ingest.result_ids.result_ids_cite`` runs at each page's ingest)::

    python manage.py ingest mlperf-training /work/rounds/training/training_results_v3.0
    for f in ../shared/vendor/*.txt; do python manage.py ingest vendor -- "$f"; done

and prints, per result ID a stored claim cites (its sentence or its table row's MLPerf-ID
cell): the page and line; the result the page names, found among the stored results of
the ID's round by the page's own benchmark, GPU count and time to train (equal at the
page's 3 decimals), independently of the claim check; the result(s) of that benchmark
now holding the ID, and how many results its system row has; the citation's status
(``ResultIdCitation``); and whether the ID landed on the named result. Then the count of
results per round by ID origin.

``SUMMARY_CSV`` is what the round's summarizer writes for a whole round::

    git --git-dir=<mirror of mlcommons/logging> archive 3.0.0-rc2 | tar -x -C /tmp/logging
    cd /tmp/logging && python -m mlperf_logging.result_summarizer \
        "/work/rounds/training/training_results_v3.0/{*}" training 3.0.0 --csv v3.0.csv

Prints, for the strong-scaling table of the CSV:

1. whether ``benchdb.mlperf.training.result_ids.summary_order`` puts the rows in the CSV's order
   (the summarizer's ``sort_values(by=cols)``);
2. every result ID the vendor files cite for the round (their tables, read with
   ``ingest.claims.parsers.page_tables``), the summarizer row it names, found by benchmark,
   accelerator count and the cited time to train (equal to the row's score at the
   cited 3 decimals), and the ID that row gets (a) in the summarizer's workbook
   (``workbook_ids``: ``_summaries_to_xlsx`` at TAG) and (b) under the candidate
   published rule "cloud section first, then on-premise, then RDI, numbered from
   <major>000" (``published_ids`` with that rule); with the difference cited - derived.
"""

from __future__ import annotations

import csv
import io
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchdb.mlperf.training import result_ids as rid  # noqa: E402
from benchdb.vocabulary import canonical_benchmark  # noqa: E402
from ingest.claims.parsers.page_tables import parse_vendor_tables  # noqa: E402

FIXED = 10  # the columns before the scores (``_get_column_schema``)


def _float(s: str) -> float | None:
    try:
        v = float(s)
    except ValueError:
        return None
    return None if math.isnan(v) else v


def read_rows(path: str) -> tuple[list[str], list[rid.SummaryRow]]:
    """The strong-scaling table of a summary CSV: benchmark names, rows in file order."""
    with open(path, encoding="utf-8") as f:
        text = f.read().split("\ndivision,")[0]  # later tables start with a new header
    reader = csv.reader(io.StringIO(text))
    header = next(reader)
    benches = header[FIXED:-2]
    rows = []
    for cells in reader:
        rows.append(
            rid.SummaryRow(
                *cells[:5],  # type: ignore[arg-type]
                int(cells[5]),
                cells[6],
                int(cells[7]),
                cells[8],
                cells[9],
                tuple(_float(c) for c in cells[FIXED:-2]),
                cells[-2],
                cells[-1],
                key=(cells[2], cells[-2].rsplit("/", 1)[-1].removesuffix(".json")),
            )
        )
    return benches, rows


def cited(paths: list[str], round_version: str) -> list[dict[str, str]]:
    """Rows of the vendor tables that cite an ID of the round."""
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for table in parse_vendor_tables(text):
            for row in table.rows:
                v = dict(row.values)
                m = rid.RESULT_ID.fullmatch(v.get("result_id", ""))
                if m and f"v{m.group(1)}.{m.group(2)}" == round_version:
                    v["where"] = f"{os.path.basename(path)}:{row.line}"
                    out.append(v)
    return out


def named_row(
    v: dict[str, str], benches: list[str], rows: list[rid.SummaryRow], rnd: str
) -> rid.SummaryRow | None:
    bench = canonical_benchmark(v.get("model", ""), rnd)
    gpus = int("".join(ch for ch in v.get("accelerators", "").split("x")[0] if ch.isdigit()) or 0)
    want = float(v.get("time_to_train", "nan"))
    found = [
        r
        for r in rows
        for b, s in zip(benches, r.scores, strict=True)
        if canonical_benchmark(b, rnd) == bench
        and s is not None
        and r.accelerators_count == gpus
        and round(s, 3) == want
    ]
    return found[0] if len(found) == 1 else None


def main(summary: str, tag: str, vendor: list[str]) -> None:
    rnd = f"v{tag[:3]}"
    benches, rows = read_rows(summary)
    same = rid.summary_order(rows) == rows
    print(f"{rnd} ({tag}): {len(rows)} rows; summary_order equals the CSV order: {same}")
    workbook = rid.workbook_ids(rows, tag)
    rid.PUBLISHED_RULES[rnd] = rid.PublishedRule((rid.CLOUD, rid.ON_PREMISE, rid.RDI), 2000)
    candidate = rid.published_ids(rows, rnd, tag)
    del rid.PUBLISHED_RULES[rnd]
    order = {r.key: i for i, r in enumerate(rows)}
    n = ok_w = ok_c = 0
    for v in cited(vendor, rnd):
        row = named_row(v, benches, rows, rnd)
        n += 1
        if row is None:
            print(f"  {v['result_id']} {v['where']}: no single summarizer row matches")
            continue
        w, c = workbook.get(row.key, ""), candidate.get(row.key, "")
        ok_w += w == v["result_id"]
        ok_c += c == v["result_id"]
        dc = int(v["result_id"][-4:]) - int(c[-4:]) if c else None
        print(
            f"  {v['result_id']} {v['where']:52} row {order[row.key]:3} {'/'.join(row.key):55} "
            f"workbook {w or '-':9} candidate {c or '-':9} cited-candidate {dc}"
        )
    print(f"cited IDs: {n}; equal to the workbook's: {ok_w}; to the candidate rule's: {ok_c}")


def _label(r: object) -> str:
    return (
        f"{r.system.submitter_folder}/{r.system.folder}/{r.benchmark.key}"  # type: ignore[attr-defined]
        f" {r.system.accelerators}x {r.score_minutes:.3f}"  # type: ignore[attr-defined]
    )


def main_db() -> None:
    """The ``--db`` report (module docstring)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")
    import django

    django.setup()
    from collections import Counter

    from benchdb.models import Claim, Result, ResultIdCitation

    results = list(
        Result.objects.filter(status="scored").select_related("round", "system", "benchmark")
    )
    claims = Claim.objects.select_related("page", "vendor_result").order_by("page", "position")
    n = equal = 0
    for c in claims:
        ids = set(c.result_ids) | {c.vendor_result.result_id if c.vendor_result else ""}
        for rid_ in sorted(i for i in ids if rid.RESULT_ID.fullmatch(i)):
            rnd = "v" + rid_.split("-")[0]
            ex = c.extracted
            bench = canonical_benchmark(ex.get("benchmark_key") or "", rnd)
            named = [
                r
                for r in results
                if r.round.version == rnd
                and r.benchmark.key == bench
                and r.system.accelerators == ex.get("accelerators")
                and c.value is not None
                and abs(round(r.score_minutes, 3) - c.value) < 5e-7
            ]
            holding = [r for r in results if r.result_id == rid_ and r.benchmark.key == bench]
            row = sum(r.result_id == rid_ for r in results)
            cit = ResultIdCitation.objects.filter(claim=c, cited_id=rid_).first()
            ok = len(named) == 1 and holding == named
            n, equal = n + 1, equal + ok
            line = c.vendor_result.line if c.vendor_result else "text"
            print(
                f"{rid_} {c.page.file_name or c.page.url}:{line}\n"
                f"    named:    {', '.join(map(_label, named)) or 'none'}"
                f" ({bench} {ex.get('accelerators')}x {c.value})\n"
                f"    resolved: {', '.join(map(_label, holding)) or 'none'} (row of {row});"
                f" citation {cit.status if cit else 'none'}; equal: {ok}"
            )
    print(f"cited IDs: {n}; landed on the named result: {equal}")
    origins = Counter(Result.objects.values_list("round__version", "result_id_origin"))
    for (rnd, origin), k in sorted(origins.items()):
        print(f"  {rnd} {origin or 'none':13} {k}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--db"]:
        main_db()
    else:
        main(sys.argv[1], sys.argv[2], sys.argv[3:])

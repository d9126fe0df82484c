"""MLPerf Tiny: each whole round ingested into the database (``manage.py ingest
mlperf-tiny``'s service) and its stored results compared with the round's published
table, value for value.

Usage (from the repository root, ``DATABASE_URL`` set)::

    python bench/tiny_vs_summary.py TREE [TREE ...] [--checker DIR]

``TREE``: a round's results repository (``tiny_results_v1.2``, ``tiny_results_v1.3``;
the copy without ``code/`` folders will do). The published tables:

* ``summary.csv`` at the round's root (v1.2: written by ``submission_checker.py`` at
  the round's commit): per result Result (median throughput, inf./sec., as the checker
  writes ``float(...)``), Accuracy (as matched), HasPower and Power (uJ/inf.);
* ``final_report_*.xlsx`` (v1.2; read with the standard library: openpyxl is not a
  dependency): the result ID per Unique ID, latency (1000 / Result, ms, written by
  xlsxwriter as ``%.16G``) and Power per model;
* a round whose repository has no table (v1.3 has neither ``summary.csv`` nor a
  root ``results.json``): ``--checker DIR`` runs ``DIR/<version>/submission_checker.py``
  (mlcommons/tiny ``tools/submission/`` at ``benchdb.mlperf.tiny.rules.CHECKER``) on the
  tree in a child process and its CSV is the table.

Prints per round: results read, results in the table, rows compared, rows equal in every
value, and each difference with the values. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")

_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def _xlsx_rows(path: Path) -> list[dict[str, str]]:
    """The first sheet of a report workbook: one dict per result row (header rows 1-3:
    the value kind, the model, the index columns), keys ``ID``, ``Unique ID (e.g. for
    Audit)`` ... and ``Result/<model>``, ``Power/<model>``. pandas writes the row index
    with merged cells: a row without its ID has the ID and Unique ID of the row above."""
    z = zipfile.ZipFile(path)
    strings = [
        "".join(t.text or "" for t in si.iter(f"{_NS}t"))
        # The round's own workbook, read by a bench script; Python 3.11's expat (>= 2.4.1)
        # refuses entity-expansion bombs, and defusedxml is not a dependency.
        for si in ElementTree.fromstring(z.read("xl/sharedStrings.xml")).findall(f"{_NS}si")  # noqa: S314
    ]
    grid: list[dict[str, str]] = []
    sheet = ElementTree.fromstring(z.read("xl/worksheets/sheet1.xml"))  # noqa: S314 (above)
    for row in sheet.iter(f"{_NS}row"):
        cells = {}
        for c in row.findall(f"{_NS}c"):
            v = c.find(f"{_NS}v")
            if v is None or v.text is None:
                continue
            col = "".join(ch for ch in c.get("r", "") if ch.isalpha())
            cells[col] = strings[int(v.text)] if c.get("t") == "s" else v.text
        grid.append(cells)
    kinds, models, names = grid[0], grid[1], grid[2]
    kind = ""
    header = {}
    for col in sorted(set(names) | set(models), key=lambda s: (len(s), s)):
        kind = kinds.get(col, kind)
        header[col] = names.get(col) or f"{kind}/{models.get(col, '')}"
    out: list[dict[str, str]] = []
    merged = ("ID", "Unique ID (e.g. for Audit)")
    for r in grid[3:]:
        row = {header[c]: v for c, v in r.items() if c in header}
        if out and "SystemDesc" in row and "ID" not in row:  # a merged cell: the one above
            row |= {k: out[-1][k] for k in merged if k in out[-1]}
        out.append(row)
    return out


def _checker_table(tree: Path, version: str, checker: Path) -> str:
    out = Path(tempfile.mkdtemp()) / "summary.csv"
    script = checker / version / "submission_checker.py"
    subprocess.run(
        [
            sys.executable,
            str(script),
            "--input",
            str(tree),
            "--version",
            version,
            "--csv",
            str(out),
        ],
        check=False,
        capture_output=True,
        cwd=str(tree),
    )
    return out.read_text()


def _num(text: str) -> float:
    return float(text) if text not in ("", "None") else 0.0


def _diffs(row: dict[str, str], ours: dict[str, Any] | None) -> list[str]:
    """Why a published summary row differs from the stored result (empty: equal)."""
    if ours is None:
        return ["published, not stored"]
    if ours["status"] != "valid":
        return [f"published, stored as {ours['status']}: {ours['reason']}"]
    out = []
    if str(ours["throughput"]) != row["Result"]:
        out.append(f"Result {row['Result']} != {ours['throughput']}")
    if ours["accuracy"] is None or _num(row["Accuracy"]) != ours["accuracy"]:
        out.append(f"Accuracy {row['Accuracy']} != {ours['accuracy']}")
    energy = ours["energy"] or 0.0
    if _num(row["Power"]) != energy or (row["HasPower"] == "True") != (energy > 0):
        out.append(f"Power {row['HasPower']} {row['Power']} != {ours['energy']}")
    return out


def _xlsx_diffs(
    rows: list[dict[str, str]], ours: dict[str, dict[str, Any]]
) -> tuple[int, int, list[str]]:
    """(values compared, equal, differences) of the report workbook: ID, latency and
    power of each model, against the stored results of the same Unique ID."""
    by_system: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in ours.values():
        if r["status"] == "valid":
            by_system.setdefault((r["unique_id"], r["system"]), []).append(r)
    compared = equal = 0
    diffs = []
    for x in rows:
        if "ID" not in x:  # rows the sheet formats but leaves empty
            continue
        unique = x["Unique ID (e.g. for Audit)"]
        mine = {r["model"]: r for r in by_system.get((unique, x["SystemDesc"]), [])}
        ids = {r["result_id"] for r in mine.values()}
        checks = [("ID", x["ID"], ",".join(sorted(ids)))]
        for key, value in x.items():
            kind, _, model = key.partition("/")
            if kind in ("Result", "Power") and model:
                r = mine.get(model)
                got = None if r is None else r["latency_ms"] if kind == "Result" else r["energy"]
                checks.append((f"{kind}/{model}", value, "" if got is None else f"{got:.16G}"))
        for what, theirs, mine_text in checks:
            compared += 1
            if theirs == mine_text:
                equal += 1
            else:
                where = f"{unique} {x['SystemDesc']} {what}"
                diffs.append(f"{where}: published {theirs!r}, benchdb {mine_text!r}")
    return compared, equal, diffs


def _round(tree: Path, checker: Path | None) -> None:
    from benchdb.mlperf.tiny.selectors import export_rows
    from benchdb.models import InferenceFinding, InferenceResult
    from ingest.tiny.service import mlperf_tiny_ingest, round_roots

    ((_, version),) = round_roots(str(tree), None)
    report = mlperf_tiny_ingest(location=str(tree))
    rows = export_rows(round_version=version)
    extra = {
        r.source_path: r.settings.get("unique_id", "")
        for r in InferenceResult.objects.filter(round__suite="tiny", round__version=version)
    }
    ours = {r["location"]: {**r, "unique_id": extra.get(r["location"], "")} for r in rows}
    valid = sum(r["status"] == "valid" for r in rows)
    print(f"== MLPerf Tiny {version} ({tree})")
    print(
        f"ingest: {report.results_seen} results, {report.added} added, {report.changed} changed, "
        f"{report.unchanged} unchanged, {report.problems} problems; {valid} valid"
    )
    medians = InferenceFinding.objects.filter(
        result__round__suite="tiny", result__round__version=version, rule__startswith="recomputed"
    )
    agree = medians.filter(message__contains=" agrees ").count()
    print(
        f"medians recomputed from the windows: {medians.count()} ({agree} agree with the printed "
        f"median, {medians.count() - agree} differ)"
    )
    if (tree / "summary.csv").is_file():
        source, text = "summary.csv", (tree / "summary.csv").read_text()
    elif checker is not None:
        source, text = (
            f"submission_checker.py --version {version} (run here)",
            _checker_table(tree, version, checker),
        )
    else:
        print("no published table in the repository; pass --checker DIR")
        return
    table = list(csv.DictReader(io.StringIO(text)))
    seen = set()
    bad = []
    for row in table:
        loc = f"{row['Division']}/{row['Organization']}/results/{row['SystemDesc']}/{row['Model']}"
        seen.add(loc)
        bad += [f"{loc}: {d}" for d in _diffs(row, ours.get(loc))]
    bad += [
        f"{loc}: valid here, not in the table"
        for loc, r in ours.items()
        if r["status"] == "valid" and loc not in seen
    ]
    equal = len(table) - len({b.split(":")[0] for b in bad if b.split(":")[0] in seen})
    print(
        f"{source}: {len(table)} rows; {equal} equal value for value (Result, Accuracy, "
        f"HasPower, Power); {len(bad)} differences"
    )
    for b in bad:
        print("  ", b)
    for xlsx in sorted(tree.glob("final_report_*.xlsx")):
        compared, same, diffs = _xlsx_diffs(_xlsx_rows(xlsx), ours)
        print(
            f"{xlsx.name}: {compared} values (ID, latency ms and power per model); "
            f"{same} equal; {len(diffs)} differences"
        )
        for d in diffs:
            print("  ", d)
    for loc, r in sorted(ours.items()):
        if r["status"] != "valid":
            print(f"   not in the table: {loc}: {r['reason']}")


def main() -> None:
    import django

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--checker", type=Path, default=None)
    args = parser.parse_args()
    django.setup()
    for tree in args.trees:
        _round(tree.resolve(), args.checker)


if __name__ == "__main__":
    main()

"""MLPerf Automotive: benchdb's rules on a whole round against its published table
(``summary_results.json``) and, optionally, the round's own submission checker.

Usage (from the repository root)::

    python bench/automotive_vs_summary.py TREE [--version v0.5] [--repeat 5]
        [--checker DIR [--checker-tree FULL_TREE]]

``TREE`` is the round's results repository (``automotive_results_v0.5``; the copy without
``code/`` folders will do). benchdb reads and judges every result folder
(``ingest.automotive.records.read_round``: no database) ``--repeat`` times; each result is
matched to the table by ``Location`` and compared field by field: value
(``Performance_Result``, exact), unit, accuracy text, result ID (the published one read
back, and the one benchdb numbers without the table), model, scenario, system name, and
whether it is published at all. ``DIR`` holds ``submission_checker.py`` and
``log_parser.py`` of mlcommons/mlperf_automotive at the round's commit
(``benchdb.mlperf.automotive.rules.CHECKER_COMMIT``): it is run once as a child process on
``FULL_TREE`` (default ``TREE``; the checker wants every ``code/<model>`` folder) with
``--skip-extra-files-in-root-check`` (the published repository holds files at its root),
timed, and its CSV compared too. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchdb.mlperf.automotive.rules import IdKey, result_ids, round_for  # noqa: E402
from ingest.automotive.records import AutomotiveRecord, read_round  # noqa: E402


def _published(tree: Path) -> dict[str, dict[str, Any]]:
    rows = json.loads((tree / "summary_results.json").read_text())
    return {r["Location"]: r for r in rows}


def _derived(records: tuple[AutomotiveRecord, ...], version: str) -> dict[str, str]:
    """The IDs benchdb numbers with no table: unique ID -> ID."""
    keys = [
        IdKey(r.division, r.availability, r.submitter, "adas", r.system, r.model_folder)
        for r in records
        if r.valid
    ]
    return result_ids(round_for(version), keys)


def _compare(
    rec: AutomotiveRecord, row: dict[str, Any] | None, derived: dict[str, str]
) -> list[str]:
    """Why ``rec`` differs from its published row (empty: equal in every field)."""
    if row is None:
        return ["not in summary_results.json" + ("" if not rec.valid else " but valid here")]
    key = IdKey(rec.division, rec.availability, rec.submitter, "adas", rec.system, rec.model_folder)
    pairs = {
        "value": (rec.value, row["Performance_Result"]),
        "unit": (rec.unit, row["Performance_Units"]),
        "accuracy": (rec.accuracy_text, row["Accuracy"]),
        "ID": (rec.result_id, row["ID"]),
        "derived ID": (derived.get(key.unique_id), row["ID"]),
        "model": ((rec.model, rec.model_folder), (row["Model"], row["UsedModel"])),
        "scenario": (rec.scenario, row["Scenario"]),
        "system": (rec.system_name, row["System"]),
        "published": (rec.valid, True),
    }
    why = [f"{k}: {ours!r} != {theirs!r}" for k, (ours, theirs) in pairs.items() if ours != theirs]
    return why + [f"reason: {r}" for r in rec.reasons]


def _run_checker(checker: Path, tree: Path) -> tuple[float, dict[str, dict[str, str]]]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "checker.csv"
        cmd = [sys.executable, str(checker / "submission_checker.py"), "--input", str(tree)]
        cmd += ["--csv", str(out), "--skip-extra-files-in-root-check"]
        start = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=False)
        wall = time.perf_counter() - start
        with out.open(newline="") as f:
            return wall, {r["Location"]: r for r in csv.DictReader(f)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("tree", type=Path)
    p.add_argument("--version", default="v0.5")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--checker", type=Path)
    p.add_argument("--checker-tree", type=Path)
    a = p.parse_args()
    times = []
    for _ in range(max(1, a.repeat)):
        start = time.perf_counter()
        read = read_round(a.tree, a.version)
        times.append(time.perf_counter() - start)
    rows = _published(a.tree)
    derived = _derived(read.records, a.version)
    diffs = {r.path: _compare(r, rows.get(r.path), derived) for r in read.records}
    unread = sorted(set(rows) - set(diffs))
    print(f"MLPerf Automotive {a.version}: {a.tree}")
    print(f"summary_results.json: {len(rows)} rows, {len({r['ID'] for r in rows.values()})} IDs")
    print(
        f"benchdb: {len(read.records)} result folders, {sum(r.valid for r in read.records)} valid"
    )
    print()
    print("| ID | result | model | scenario | benchdb ms | published ms | equal |")
    print("|---|---|---|---|---|---|---|")
    for r in read.records:
        row = rows.get(r.path, {})
        where = "/".join(r.path.split("/")[i] for i in (0, 1, 3))
        equal = "yes" if not diffs[r.path] else "NO"
        print(
            f"| {r.result_id} | {where} | {r.model} | {r.scenario} | {r.value} | "
            f"{row.get('Performance_Result')} | {equal} |"
        )
    print()
    equal = sum(not d for d in diffs.values())
    print(
        f"results: {len(read.records)}, equal to summary_results.json in every field: {equal}, "
        f"different: {len(diffs) - equal}, published but not read: {len(unread)}"
    )
    for path, why in diffs.items():
        if why:
            print(f"  {path}: " + "; ".join(why))
    for path in unread:
        print(f"  {path}: published, no result folder read")
    print(f"round problems: {len(read.problems)}")
    print(
        f"time, read + judge the whole round ({len(times)} runs): min {min(times):.3f} s, "
        f"median {statistics.median(times):.3f} s"
    )
    if a.checker:
        _checker_part(a.checker, a.checker_tree or a.tree, read.records)
    return 0


def _checker_part(checker: Path, tree: Path, records: tuple[AutomotiveRecord, ...]) -> None:
    wall, rows = _run_checker(checker, tree)
    ours = {r.path for r in records if r.valid}
    same_set = ours == set(rows)
    values = sum(1 for r in records if r.path in rows and str(r.value) == rows[r.path]["Result"])
    accuracy = sum(
        1 for r in records if r.path in rows and r.accuracy_text == rows[r.path]["Accuracy"]
    )
    print(f"checker ({checker}): {len(rows)} rows in {wall:.3f} s wall (one run, child process)")
    print(f"  accepted set equal to benchdb's valid set: {same_set}")
    print(
        f"  value equal (as printed): {values}/{len(rows)}, accuracy equal: {accuracy}/{len(rows)}"
    )


if __name__ == "__main__":
    sys.exit(main())

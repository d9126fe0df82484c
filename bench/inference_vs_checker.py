"""benchdb's inference results against the round-era submission checker's output and, for
v5.1+, the round's published table (``summary_results.json``), row by row.

Usage (from the repository root; DATABASE_URL names a database holding the round)::

    python bench/inference_vs_checker.py v5.1 --checker-csv checker_v5.1.csv \\
        [--summary inference_results_v5.1/summary_results.json] [--list 20]

The checker CSV is what ``submission_checker.py --csv`` writes when run on the same tree
(one row per accepted result, plus a ``Watts`` row per power result). Rows are matched by
location (``<division>/<submitter>/results/<system>/<model>/<scenario>``). Printed: how
many results each side has, benchdb's verdicts, the values and power values equal (0.01 %
or to the checker's printed digits) or not, and every disagreement with benchdb's reason.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _close(ours: float | None, theirs: str) -> bool:
    if ours is None or theirs in ("", None):
        return False
    want = float(theirs)
    digits = len(theirs.split(".")[1]) if "." in theirs else 0
    return abs(ours - want) <= max(1e-4 * abs(want), 0.5 * 10**-digits)


def _ours(version: str) -> dict[str, dict[str, Any]]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")
    import django

    django.setup()
    from benchdb.mlperf.inference.selectors import inference_result_rows

    return {r["location"]: r for r in inference_result_rows(round_version=version)}


def _checker(path: str) -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    values: dict[str, dict[str, str]] = {}
    power: dict[str, str] = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            # v0.7's checker writes no Units column (and has no power rows)
            if row.get("Units") in ("Watts", "Joules", "Joules/Stream", "millijoules"):
                power[row["Location"]] = row["Result"]
            else:
                values[row["Location"]] = row
    return values, power


def compare(ours: dict[str, dict[str, Any]], theirs: dict[str, dict[str, str]],
            power: dict[str, str]) -> dict[str, Any]:  # fmt: skip
    """Counts and disagreements of ``ours`` against the checker's accepted rows."""
    both = set(ours) & set(theirs)
    out: dict[str, Any] = {
        "benchdb results": len(ours),
        "checker accepted": len(theirs),
        "benchdb verdicts": dict(collections.Counter(r["status"] for r in ours.values())),
        "in both": len(both),
        "value equal": 0,
        "power equal": 0,
        "power compared": 0,
        "differences": [],
    }
    for loc in sorted(both):
        o, t = ours[loc], theirs[loc]
        if _close(o["value"], t["Result"]) and o["unit"] == t.get("Units", o["unit"]):
            out["value equal"] += 1
        else:
            ours_text = f"ours {o['value']} {o['unit']}"
            theirs_text = f"checker {t['Result']} {t.get('Units', '')}"
            out["differences"].append((loc, ours_text, theirs_text, o["status"]))
        if loc in power:
            out["power compared"] += 1
            out["power equal"] += _close(o["power"], power[loc])
    for loc in sorted(set(theirs) - set(ours)):
        out["differences"].append((loc, "not in benchdb", "accepted by the checker", ""))
    for loc in sorted(set(ours) - set(theirs)):
        o = ours[loc]
        why = o["reason"] or o["missing"] or "valid by benchdb"
        out["differences"].append((loc, f"benchdb {o['status']}", "not accepted", why[:160]))
    return out


def compare_published(
    ours: dict[str, dict[str, Any]], table: list[dict[str, Any]]
) -> dict[str, Any]:
    """Counts of ``ours`` against the round's published table."""
    equal = power_equal = power_n = 0
    diffs = []
    for row in table:
        o = ours.get(row["Location"])
        value = str(row["Performance_Result"])
        if o is None:
            diffs.append((row["Location"], "not in benchdb"))
        elif _close(o["value"], value) and o["unit"] == row["Performance_Units"]:
            equal += 1
        else:
            diffs.append((row["Location"], f"ours {o['value']} ({o['status']}: {o['missing']})"))
        if o is not None and "Power_Result" in row:
            power_n += 1
            power_equal += _close(o["power"], str(row["Power_Result"]))
    return {"published rows": len(table), "value equal": equal, "power equal": power_equal,
            "power rows": power_n, "differences": diffs}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("round")
    ap.add_argument("--checker-csv", required=True)
    ap.add_argument("--summary", default="")
    ap.add_argument("--list", type=int, default=30, help="disagreements to print")
    args = ap.parse_args()
    ours = _ours(args.round)
    values, power = _checker(args.checker_csv)
    result = compare(ours, values, power)
    diffs = result.pop("differences")
    print(json.dumps(result, indent=1))
    kinds = collections.Counter(
        (d[1].split()[0] + " " + d[1].split()[1], d[2].split()[0]) for d in diffs
    )
    print("disagreements:", len(diffs), dict(kinds))
    for d in diffs[: args.list]:
        print("  ", " | ".join(map(str, d)))
    if args.summary:
        pub = compare_published(ours, json.loads(Path(args.summary).read_text()))
        pdiffs = pub.pop("differences")
        print(json.dumps(pub, indent=1))
        for d in pdiffs[: args.list]:
            print("  ", " | ".join(map(str, d)))


if __name__ == "__main__":
    main()

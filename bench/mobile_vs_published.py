"""MLPerf Mobile: each whole round ingested into the database (``manage.py ingest
mlperf-mobile``'s service) and its stored results compared with what the round
publishes, value for value.

Usage (from the repository root, ``DATABASE_URL`` set)::

    python bench/mobile_vs_published.py TREE [TREE ...]

``TREE``: a round's results repository (``mobile_results_v4.0``, ``_v4.1``, ``_v5.0``;
the copy without ``code/`` folders will do). The Mobile repositories hold no round
table (no CSV, xlsx or summary JSON; MLCommons' results page is not in them); what they
publish per system, read here with ``json`` and ``re`` alone (not benchdb's parsers):

* ``results/<system>/result.json``, the app's export: per task
  ``performance_run.throughput.value`` (the throughput the results table shows),
  ``performance_run.loadgen.latency90`` (s) and ``is_result_valid``,
  ``accuracy_run.accuracy.formatted``;
* for a system without it, the command line's ``performance_results.txt`` (``90th
  percentile latency (ns)``, ``Result is``, Offline ``Samples per second``) and
  ``accuracy_results.txt`` (``Accuracy``).

Prints per round: results stored, published values compared, equal, and each difference
with the values and its reason. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")


def _app_values(path: Path) -> dict[str, dict[str, Any]]:
    """Task -> published figures of an app export."""
    out = {}
    for r in json.loads(path.read_text())["results"]:
        perf, acc = r.get("performance_run") or {}, r.get("accuracy_run") or {}
        lg = perf.get("loadgen") or {}
        out[r["benchmark_id"]] = {
            "throughput": (perf.get("throughput") or {}).get("value"),
            "latency90_ns": round(lg["latency90"] * 1e9) if "latency90" in lg else None,
            "valid": lg.get("is_result_valid"),
            "accuracy_text": ((acc.get("accuracy") or {}).get("formatted")),
        }
    return out


def _text(path: Path) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    task = ""
    for line in path.read_text().splitlines() if path.is_file() else ():
        if m := re.match(r"#+(\w+)#+", line.strip()):
            task = m.group(1)
            out[task] = {}
        elif m := re.search(r"Accuracy: (.+)$", line):
            out[task]["Accuracy"] = m.group(1).strip()
        elif ":" in line and task:
            k, v = line.split(":", 1)
            out[task][k.strip()] = v.strip()
    return out


def _text_values(folder: Path) -> dict[str, dict[str, Any]]:
    """Task -> published figures of the command line's text files."""
    perf, acc = _text(folder / "performance_results.txt"), _text(folder / "accuracy_results.txt")
    out: dict[str, dict[str, Any]] = {}
    for task in set(perf) | set(acc):
        p = perf.get(task, {})
        row: dict[str, Any] = {"valid": p.get("Result is") == "VALID" if p else None}
        if "90th percentile latency (ns)" in p:
            row["latency90_ns"] = int(p["90th percentile latency (ns)"])
        if "Samples per second" in p:
            row["throughput"] = float(p["Samples per second"])
        if "Accuracy" in acc.get(task, {}):
            row["accuracy_text"] = acc[task]["Accuracy"]
        out[task] = row
    return out


def published(tree: Path) -> dict[str, tuple[str, dict[str, Any]]]:
    """``<division>/<submitter>/results/<system>/<task>`` -> (source file, figures)."""
    out = {}
    for folder in sorted(tree.glob("*/*/results/*")):
        if not folder.is_dir():
            continue
        rel = folder.relative_to(tree).as_posix()
        if (folder / "result.json").is_file():
            for task, v in _app_values(folder / "result.json").items():
                out[f"{rel}/{task}"] = ("result.json", v)
        else:
            for task, v in _text_values(folder).items():
                out[f"{rel}/{task}"] = ("*_results.txt", v)
    return out


def _reason(field: str, mine: dict[str, Any], theirs: dict[str, Any]) -> str:
    """Why a published value is not ours, from the figures themselves."""
    ours, value = mine.get(field), theirs[field]
    if field == "throughput" and isinstance(ours, float) and isinstance(value, float):
        rel = abs(ours - value) / abs(value)
        digits = len(repr(value).replace(".", "").lstrip("0"))
        if rel < 10 ** (1 - digits):
            return f"the same to the {digits} digits published: the value was shortened"
        return f"relative difference {rel:.2e}"
    if field == "latency90_ns" and theirs.get("throughput") and ours:
        of_theirs = 1e9 / value
        if abs(of_theirs - theirs["throughput"]) > 1e-6 * of_theirs:
            return (
                f"the published throughput is not 1 / the published latency ({of_theirs:.4f}):"
                " it is the logged run's, the latency is another run's"
            )
    return "differs"


def compare(tree: Path, rows: list[dict[str, Any]]) -> tuple[int, int, list[str]]:
    """(values compared, equal, differences) of a round's stored rows against what it
    publishes."""
    pub = published(tree)
    stored = {r["location"]: r for r in rows}
    compared = equal = 0
    diffs = [f"  published, not stored: {k}" for k in sorted(set(pub) - set(stored))]
    diffs += [f"  stored, not published: {k}" for k in sorted(set(stored) - set(pub))]
    for key in sorted(set(pub) & set(stored)):
        source, theirs = pub[key]
        ours = stored[key]
        latency = ours["latency90_ms"]
        mine = {
            **ours,
            "valid": ours["status"] == "valid",
            "latency90_ns": round(latency * 1e6) if latency is not None else None,
        }
        for field, value in theirs.items():
            if value is None:
                continue
            compared += 1
            if mine.get(field) == value:
                equal += 1
            else:
                why = _reason(field, mine, theirs)
                diffs.append(
                    f"  {key} {field}: ours {mine.get(field)!r}, {source} {value!r} ({why})"
                )
    return compared, equal, diffs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+", type=Path)
    args = parser.parse_args()
    import django

    django.setup()
    from benchdb.mlperf.mobile.selectors import export_rows
    from ingest.mobile.service import mlperf_mobile_ingest

    for tree in args.trees:
        t0 = time.perf_counter()
        report = mlperf_mobile_ingest(location=str(tree))
        took = time.perf_counter() - t0
        for version in report.rounds:
            rows = export_rows(round_version=version)
            compared, equal, diffs = compare(tree, rows)
            valid = sum(r["status"] == "valid" for r in rows)
            odd = [r["location"] for r in rows if r["settings_differ"]]
            print(
                f"{version}: {len(rows)} results stored ({valid} valid), "
                f"{report.problems} problems; published values compared {compared}, "
                f"equal {equal}, differences {len(diffs)}; ingest {took:.1f} s"
            )
            for d in diffs:
                print(d)
            print(f"  run settings not the app's (tasks.pbtxt): {len(odd)}")
            for loc in odd:
                print(f"    {loc}")


if __name__ == "__main__":
    main()

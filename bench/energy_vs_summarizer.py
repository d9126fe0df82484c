"""MLPerf Training energy to train: benchdb's stored energies against the summarizer's
``*_power.csv``, one round.

    python bench/energy_vs_summarizer.py v4.1 /tmp/out_power.csv [--ingest TREE]

The CSV is what ``python -m mlperf_logging.result_summarizer "<tree>/<Submitter>" training
4.1.0 --csv out.csv`` writes as ``out_power.csv`` (``"<tree>/{a,b}"`` for several
submitters), with mlcommons/logging at ``benchdb.mlperf.training.energy.SUMMARIZER``
[round] on ``PYTHONPATH``. ``--ingest TREE`` first ingests, from the round's extracted
repository, only the result folders that have ``power/``. Every (system, benchmark)
cell with a power value is matched to the benchdb result of the same system name
(systems JSON ``system_name``), node count and benchmark whose score equals the cell's
``perf`` (1e-9 relative); then its energy (J) is compared with ``power``. Prints one
line per cell and a summary line: cells, equal (1e-9 relative), the largest relative
difference, and every power result of benchdb that no cell names. Needs ``DATABASE_URL``.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")


def power_cells(path: str) -> list[dict[str, Any]]:
    """The CSV's (submitter, system, nodes, benchmark, perf, power) cells with a power
    value: three header rows (benchmark, perf|power, the spec columns), then one row a
    system, as ``result_summarizer._print_and_write(power=True)`` writes them."""
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    out: list[dict[str, Any]] = []
    header = None
    for i, row in enumerate(rows):
        if row and row[0] == "division":
            header = (rows[i - 2], rows[i - 1], row)
            continue
        if header is None or not row:
            continue
        benches, kinds, names = header
        spec = {n: row[j] for j, n in enumerate(names) if n}
        for j, bench in enumerate(benches):
            if kinds[j] == "power" and row[j]:
                perf_j = next(
                    k for k in range(len(benches)) if (benches[k], kinds[k]) == (bench, "perf")
                )
                out.append(
                    {
                        **spec,
                        "benchmark": bench,
                        "perf": float(row[perf_j]),
                        "power": float(row[j]),
                    }
                )
    return out


def _ingest_power_folders(tree: str, version: str) -> None:
    from ingest.training.parsers import tree as training_tree
    from ingest.training.service import mlperf_training_ingest

    found = training_tree.discover_tree(tree, version)
    only = {d.path for d in found.dirs if d.has_power}
    report = mlperf_training_ingest(location=tree, round_version=version, only_paths=only)
    print(
        f"ingested {len(only)} power folders: added {report.added}, changed {report.changed}, "
        f"unchanged {report.unchanged}, problems {report.problems}"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("version")
    ap.add_argument("power_csv")
    ap.add_argument("--ingest", metavar="TREE")
    args = ap.parse_args()
    import django

    django.setup()
    from benchdb import vocabulary
    from benchdb.models import Result

    if args.ingest:
        _ingest_power_folders(args.ingest, args.version)
    results = list(
        Result.objects.filter(round__suite="training", round__version=args.version)
        .exclude(energy_joules=None)
        .select_related("system", "benchmark")
    )
    matched: set[int] = set()
    equal, identical, worst = 0, 0, 0.0
    cells = power_cells(args.power_csv)
    for c in cells:
        key = vocabulary.canonical_benchmark(c["benchmark"], args.version)
        hits = [
            r
            for r in results
            if r.system.name == c["system"]
            and str(r.system.nodes) == c["number_of_nodes"]
            and r.benchmark.key == key
            and r.id not in matched
            and r.score_minutes is not None
            and math.isclose(r.score_minutes, c["perf"], rel_tol=1e-9)
        ]
        hit = min(hits, key=lambda r: abs(r.energy_joules - c["power"]), default=None)
        if hit is None:
            print(
                f"  summarizer only: {c['system']} x{c['number_of_nodes']} {key} {c['power']!r} J"
            )
            continue
        matched.add(hit.id)
        rel = abs(hit.energy_joules - c["power"]) / abs(c["power"])
        worst = max(worst, rel)
        same = math.isclose(hit.energy_joules, c["power"], rel_tol=1e-9)
        equal += same
        identical += hit.energy_joules == c["power"]
        print(
            f"  {'equal' if same else 'NOT EQUAL'}: {hit.source_path} ({hit.energy_scope}) "
            f"benchdb {hit.energy_joules!r} J, summarizer {c['power']!r} J, rel diff {rel:.2e}"
        )
    extra = [r.source_path for r in results if r.id not in matched]
    for p in extra:
        print("  benchdb only:", p)
    ok = equal == len(cells) and not extra
    print(
        f"{args.version}: summarizer power cells {len(cells)}, benchdb power results "
        f"{len(results)}, equal {equal} (bit-identical {identical}), "
        f"largest relative difference {worst:.2e}: "
        f"{'EQUAL' if ok else 'NOT EQUAL'}"
    )


if __name__ == "__main__":
    main()

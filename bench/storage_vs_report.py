"""MLPerf Storage: a whole round ingested into benchdb (``DATABASE_URL``) and compared
with its published reports, value for value.

Usage (from the repository root)::

    DATABASE_URL=postgres://... python bench/storage_vs_report.py TREE [--version v1.0]

``TREE`` is the round's results repository (``storage_results_v1.0``). The round is
ingested (``manage.py ingest mlperf-storage``'s service: the values come from the
runs' ``summary.json`` files, never from the reports), then every stored result is
compared with the ``mlperf_storage_report.json`` of its folder, read here with ``json``
alone (the oracle): the overall mean and standard deviation of samples/s and MB/s, the
five runs' values (as a set: some submitters renamed the run folders after running
``report.py``), the run count, workload, accelerator and accelerator count.

A mean is compared twice: as benchdb stores it (runs summed in run-name order) and
summed in the report's own run order (``report.py`` sums in ``os.walk`` order, which
the report's key order records): the same five floats summed in another order can
differ in the last bit. Prints the table and every difference with its reason; asserts
nothing.

``--tool DIR``: ``DIR/report.py`` is mlcommons/storage's at tag v1.0 (``git show
v1.0:report.py``); it is also run, as a child process, on each result's runs staged as it
wants them (``<run>/summary.json`` and ``<run>/configs/overrides.yaml``, copies of the
published files; several submitters moved them after running it), and its report is
compared with benchdb's the same way.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")

REPORT = "mlperf_storage_report.json"
ORDER_ONLY = "equal in the report's run order"
PAIRS = (  # (report overall key, StorageResult field, per-run report key, per-run stored key)
    (
        "train_throughput_mean_samples_per_second",
        "samples_per_second",
        "train_throughput_samples_per_second",
        "samples_per_second",
    ),
    (
        "train_throughput_mean_MB_per_second",
        "mb_per_second",
        "train_throughput_MB_per_second",
        "mb_per_second",
    ),
)
STDEV = {
    "train_throughput_stdev_samples_per_second": "samples_per_second_stdev",
    "train_throughput_stdev_MB_per_second": "mb_per_second_stdev",
}


def _ulps(a: float, b: float) -> float:
    return abs(a - b) / math.ulp(b) if b else abs(a - b)


def _in_report_order(ours: list[float], theirs: list[float]) -> list[float] | None:
    """Our per-run values reordered as the report lists its runs (matched by value);
    None when they are not the same values."""
    left = list(ours)
    out = []
    for t in theirs:
        if t not in left:
            return None
        left.remove(t)
        out.append(t)
    return out


def compare(row: Any, report: dict[str, Any]) -> tuple[str, list[str]]:
    """("equal" | "equal in the report's run order" | "different", reasons)."""
    o, runs = report["overall"], list(report["runs"].values())
    diffs, order_only = [], []
    if len(row.runs) != len(runs):
        diffs.append(f"runs: {len(row.runs)} summaries folders, report lists {len(runs)}")
    for key, value in (("model", row.workload), ("accelerator", row.accelerator)):
        if str(o.get(key)) != value:
            diffs.append(f"{key}: ours {value!r}, published {o.get(key)!r}")
    if str(o.get("train_num_accelerators")) != str(row.accelerators):
        diffs.append(
            f"accelerators: ours {row.accelerators}, published {o.get('train_num_accelerators')}"
        )
    for okey, field, rkey, skey in PAIRS:
        ours_runs = [r[skey] for r in row.runs]
        theirs_runs = [r[rkey] for r in runs]
        if sorted(ours_runs) != sorted(theirs_runs):
            diffs.append(
                f"{rkey}: the runs' summaries give {sorted(ours_runs)}, "
                f"the report lists {sorted(theirs_runs)}"
            )
            continue
        ours, theirs = getattr(row, field), o[okey]
        if ours != theirs:
            same = _in_report_order(ours_runs, theirs_runs)
            if same is not None and float(np.mean(same)) == theirs:
                order_only.append(f"{okey}: {ours!r} vs {theirs!r} ({_ulps(ours, theirs):.0f} ulp)")
            else:
                diffs.append(f"{okey}: ours {ours!r}, published {theirs!r}")
    for (okey, field), (_m, _f, rkey, skey) in zip(STDEV.items(), PAIRS, strict=True):
        ours, theirs = getattr(row, field), o[okey]
        same = _in_report_order([r[skey] for r in row.runs], [r[rkey] for r in runs])
        if ours == theirs:
            continue
        if same is not None and float(np.std(same)) == theirs:
            order_only.append(f"{okey}: {ours!r} vs {theirs!r} ({_ulps(ours, theirs):.0f} ulp)")
        else:
            diffs.append(f"{okey}: ours {ours!r}, published {theirs!r}")
    if diffs:
        return "different", diffs
    return ("equal in the report's run order", order_only) if order_only else ("equal", [])


def run_tool(tool: Path, tree: Path, row: Any, stage: Path) -> tuple[str, list[str]]:
    """The official ``report.py`` (``tool``) run as a child process on the result's runs
    staged as it wants them (``<run>/summary.json``, ``<run>/configs/overrides.yaml``:
    copies of the published files), its report compared like the published one."""
    if stage.exists():
        shutil.rmtree(stage)
    for run in row.runs:
        for summary in run["summaries"]:
            here = stage / run["name"]
            (here / "configs").mkdir(parents=True)
            source = (tree / summary["path"]).parent
            shutil.copy(source / "summary.json", here / "summary.json")
            shutil.copy(source / "configs" / "overrides.yaml", here / "configs" / "overrides.yaml")
    cwd = stage.parent / "out"
    cwd.mkdir(exist_ok=True)
    done = subprocess.run(
        [sys.executable, str(tool / "report.py"), "-rd", str(stage)],
        cwd=cwd, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return "refused", [f"report.py exit {done.returncode}: {last[:200]}"]
    return compare(row, json.loads((cwd / REPORT).read_text()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tree", type=Path)
    ap.add_argument("--version", default=None)
    ap.add_argument("--tool", type=Path, help="folder holding report.py of mlcommons/storage v1.0")
    args = ap.parse_args()
    import django

    django.setup()
    from benchdb.models import IngestProblem, StorageResult
    from ingest.storage.service import mlperf_storage_ingest

    t0 = time.perf_counter()
    rep = mlperf_storage_ingest(location=str(args.tree), round_version=args.version)
    took = time.perf_counter() - t0
    version = rep.rounds[0]
    files = sorted(p for p in args.tree.rglob("*" + REPORT) if "/code/" not in str(p))
    apple = [p for p in files if p.name.startswith("._")]
    rows = StorageResult.objects.filter(round__suite="storage", round__version=version)
    by_content: dict[str, list[str]] = {}
    for row in rows:
        text = json.dumps(json.loads((args.tree / row.source_path / REPORT).read_text()))
        by_content.setdefault(text, []).append(row.source_path)
    counts: Counter[str] = Counter()
    boards: dict[tuple[str, str], Counter[str]] = {}
    lines = []
    for row in rows.order_by("source_path"):
        report = json.loads((args.tree / row.source_path / REPORT).read_text())
        verdict, reasons = compare(row, report)
        twins = [p for p in by_content[json.dumps(report)] if p != row.source_path]
        if verdict == "different" and twins:
            reasons.insert(0, f"reason: this report is the same JSON as {', '.join(twins)}'s")
        counts[verdict] += 1
        boards.setdefault((row.workload, row.accelerator), Counter())[verdict] += 1
        if reasons:
            lines.append((verdict, row.source_path, reasons))
    print(f"MLPerf Storage {version}: {args.tree}")
    print(
        f"ingest: {took:.1f} s, {rep.results_seen} results ({rep.added} added, "
        f"{rep.changed} changed, {rep.unchanged} unchanged), {rep.scored} valid, "
        f"{rep.unscored} rejected"
    )
    print(
        f"report files in the tree: {len(files)} ({len(files) - len(apple)} reports, "
        f"{len(apple)} macOS '._' resource-fork files named like one)"
    )
    print()
    print(f"{'results compared':32} {rows.count():>5}")
    for verdict in ("equal", "equal in the report's run order", "different"):
        print(f"{verdict:32} {counts[verdict]:>5}")
    print()
    print(
        "| workload | accelerator | results | equal | equal in the report's run order | different |"
    )
    print("|---|---|---|---|---|---|")
    for (wl, acc), c in sorted(boards.items()):
        print(
            f"| {wl} | {acc} | {sum(c.values())} | {c['equal']} "
            f"| {c[ORDER_ONLY]} | {c['different']} |"
        )
    print()
    for verdict, path, reasons in lines:
        print(f"[{verdict}] {path}")
        for r in reasons:
            print(f"    {r}")
    if args.tool:
        _tool_table(args.tool, args.tree, rows)
    warned = IngestProblem.objects.filter(round__suite="storage", round__version=version)
    print()
    print(
        f"problems recorded: {warned.count()} ({warned.filter(severity='error').count()} "
        f"errors, {warned.filter(severity='warning').count()} warnings)"
    )
    kinds = Counter(p.message.split(":")[0][:60] for p in warned)
    for k, n in kinds.most_common(8):
        print(f"  {n:>4}  {k}")


def _tool_table(tool: Path, tree: Path, rows: Any) -> None:
    verdicts: Counter[str] = Counter()
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for row in rows.order_by("source_path"):
            verdict, reasons = run_tool(tool, tree, row, Path(tmp) / "result")
            verdicts[verdict] += 1
            if verdict not in ("equal", ORDER_ONLY):
                print(f"[report.py: {verdict}] {row.source_path}: {'; '.join(reasons)[:300]}")
    took = time.perf_counter() - t0
    print()
    print(f"the official report.py ({tool}) on each result's runs, {took:.1f} s:")
    for verdict in ("equal", ORDER_ONLY, "different", "refused"):
        print(f"{verdict:32} {verdicts[verdict]:>5}")


if __name__ == "__main__":
    main()

"""MLPerf HPC: benchdb's stored scores against the result summarizer's CSV, one round.

    python bench/hpc_vs_summarizer.py v1.0 /tmp/out_1.0.csv

The CSV is what ``python -m mlperf_logging.result_summarizer "<copy>/{*}" hpc 1.0.0
--csv out.csv`` writes from a ``git archive`` of the round's tag
(``benchdb.mlperf.hpc.rules.HPC_TAGS``): the strong-scaling table, then the
weak-scaling one (later tables, power, are ignored). Each cell is matched to the
benchdb result of the same submitter (systems JSON ``submitter``), division,
benchmark and scaling type whose value equals it (to 1e-9 relative); weak scaling
compares models, instance scale and time to train all. Prints one line per round:
results, scored, unscored (reasons), cells matched, and every cell or result that
has no partner. Needs ``DATABASE_URL`` of a database the round was ingested into.
"""

from __future__ import annotations

import csv
import io
import math
import os
import sys
from collections import Counter
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")


def _tables(path: str) -> list[list[dict[str, str]]]:
    """The CSV's tables: each starts at a line beginning ``division,``."""
    chunks: list[list[str]] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("division,"):
                chunks.append([])
            chunks[-1].append(line)
    return [list(csv.DictReader(io.StringIO("".join(c)))) for c in chunks]


def _cells(tables: list[list[dict[str, str]]]) -> list[tuple[Any, ...]]:
    """(submitter, division, benchmark, scaling, values) for every non-empty cell."""
    out: list[tuple[Any, ...]] = []
    for row in tables[0]:
        for col, value in row.items():
            if value and col.islower() and col.isalnum() and col not in ("division", "system"):
                if col in ("submitter", "availability", "framework", "notes"):
                    continue
                out.append((row["submitter"], row["division"], col, "strong", (float(value),)))
    for row in tables[1] if len(tables) > 1 else []:
        benches = {c.split(":")[0] for c in row if ":" in c}
        for b in sorted(benches):
            if row.get(f"{b}:time_to_train_all"):
                vals = tuple(
                    float(row[f"{b}:{m}"])
                    for m in ("number_of_models", "instance_scale", "time_to_train_all")
                )
                out.append((row["submitter"], row["division"], b, "weak", vals))
    return out


def _close(a: tuple[float, ...], b: tuple[Any, ...]) -> bool:
    return len(a) == len(b) and all(
        y is not None and math.isclose(x, float(y), rel_tol=1e-9) for x, y in zip(a, b, strict=True)
    )


def main(version: str, csv_path: str) -> None:
    import django

    django.setup()
    from benchdb.models import Result

    results = list(
        Result.objects.filter(round__suite="hpc", round__version=version).select_related(
            "system", "benchmark"
        )
    )
    cells = _cells(_tables(csv_path))
    unmatched_cells = []
    matched: set[int] = set()
    for submitter, division, bench, scaling, values in cells:
        hit = None
        for r in results:
            ours = (
                (r.score_minutes,)
                if scaling == "strong"
                else (r.models_count, r.instance_scale, r.time_to_train_all_minutes)
            )
            same = (
                r.system.raw.get("submitter") == submitter
                and r.division == division
                and r.benchmark.key == bench
                and r.scaling_type == scaling
            )
            if same and r.id not in matched and _close(values, ours):
                hit = r
                break
        if hit is None:
            unmatched_cells.append((submitter, division, bench, scaling, values))
        else:
            matched.add(hit.id)
    scored = [r for r in results if r.status == "scored"]
    reasons = Counter(r.reason for r in results if r.status != "scored")
    extra = [r.source_path for r in scored if r.id not in matched]
    equal = not unmatched_cells and not extra
    print(
        f"{version}: results {len(results)}, scored {len(scored)}, "
        f"unscored {len(results) - len(scored)} {dict(reasons) or ''}, "
        f"summarizer cells {len(cells)}, matched {len(matched)}: "
        f"{'EQUAL' if equal else 'NOT EQUAL'}"
    )
    for c in unmatched_cells:
        print("  summarizer only:", c)
    for p in extra:
        print("  benchdb only:", p)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

"""Availability of every systems JSON of whole MLPerf Training / HPC rounds.

    python bench/availability_rounds.py /work/rounds/training/training_results_v*

For each round folder (``<Submitter>/systems/*.json``, v0.6 on; v0.5's ``entry.json``
files are read the same way) prints, per raw ``status`` spelling, the category
``benchdb.vocabulary.availability_of`` gives it and how many systems and results
(``<Submitter>/results/<system>/<benchmark>`` folders) carry it; then the systems and
results whose availability is empty (an unknown spelling, or a file that is not JSON).
Run it from two checkouts to compare before/after a vocabulary change.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.environ.get("BENCHDB_CHECKOUT") or HERE)  # a checkout to measure

try:
    from benchdb.vocabulary import availability_of
except ImportError:  # a checkout before availability_of: its parser's own lookup
    from benchdb.vocabulary import AVAILABILITY

    def availability_of(status: object) -> str:
        return AVAILABILITY.get(str(status).strip().lower(), "")


def _results_of(root: str, submitter: str, system: str) -> int:
    folder = os.path.join(root, submitter, "results", system)
    if not os.path.isdir(folder):
        return 0
    return sum(os.path.isdir(os.path.join(folder, b)) for b in os.listdir(folder))


def _systems(root: str) -> list[tuple[str, str, object]]:
    """(submitter folder, system name, raw status or a marker for bad JSON)."""
    out: list[tuple[str, str, object]] = []
    for sub in sorted(os.listdir(root)):
        folder = os.path.join(root, sub, "systems")
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".json"):
                continue
            try:
                with open(os.path.join(folder, name), "rb") as f:
                    status = json.load(f).get("status")
            except (ValueError, AttributeError):
                status = "<not a JSON object>"
            out.append((sub, name[: -len(".json")], status))
    return out


def main(roots: list[str]) -> None:
    for root in roots:
        rows = [(s, _results_of(root, sub, name)) for sub, name, s in _systems(root)]
        by: Counter[tuple[str, str]] = Counter()
        results: Counter[tuple[str, str]] = Counter()
        for status, n in rows:
            key = (repr(status), availability_of(status) if isinstance(status, str) else "")
            by[key] += 1
            results[key] += n
        empty_sys = sum(v for (_s, cat), v in by.items() if not cat)
        empty_res = sum(v for (_s, cat), v in results.items() if not cat)
        print(
            f"{os.path.basename(root.rstrip('/'))}: {len(rows)} systems, "
            f"{sum(results.values())} results; empty availability: {empty_sys} systems, "
            f"{empty_res} results"
        )
        for (status, cat), n in sorted(by.items()):
            n_res = results[status, cat]
            print(f"  {status:45} -> {cat or '(empty)':10} {n:4} systems {n_res:4} results")


if __name__ == "__main__":
    main(sys.argv[1:])

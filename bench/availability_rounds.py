"""Availability of every systems JSON of whole MLPerf Training / HPC rounds.

    python bench/availability_rounds.py /work/rounds/training/training_results_v*

For each round folder (``<Submitter>/systems/*.json``, v0.6 on; v0.5's ``entry.json``)
prints, per raw ``status`` spelling, the category the ingest parser
(``ingest.training.parsers.systems``) gives it and how many systems and results
(``<Submitter>/results/<system>/<benchmark>`` folders) carry it; then the systems and
results whose availability is empty (an unknown spelling, or a file that is not JSON).
Run it from two checkouts to compare before/after a vocabulary change.
"""

from __future__ import annotations

import os
import sys
from collections import Counter

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.environ.get("BENCHDB_CHECKOUT") or HERE)  # a checkout to measure

from ingest.parsers.types import ParseError  # noqa: E402
from ingest.training.parsers.systems import (  # noqa: E402
    parse_entry_json,
    parse_systems_json,
)


def _results_of(root: str, rel: str) -> int:
    """Benchmark folders of a systems file's system."""
    parts = rel.split(os.sep)
    if os.path.isdir(os.path.join(root, rel)):
        folder = os.path.join(root, rel)
    elif parts[-1] == "entry.json":
        folder = os.path.join(root, *parts[:-1])
    else:
        folder = os.path.join(root, parts[0], "results", parts[-1][: -len(".json")])
    if not os.path.isdir(folder):
        return 0
    subs = [b for b in os.listdir(folder) if os.path.isdir(os.path.join(folder, b))]
    if subs and set(subs) <= {"strong", "weak"}:  # MLPerf HPC: <scaling>/<benchmark>
        return sum(_results_of(root, os.path.join(rel, b)) for b in subs)
    return len(subs)


def _systems(root: str) -> list[tuple[str, object, str]]:
    """(path, raw status or a marker for a file the parser rejects, the availability the
    parser gives) of every systems file: ``systems/*.json`` (v0.6 on) and v0.5's
    ``entry.json`` (its system is the folder holding it)."""
    out: list[tuple[str, object, str]] = []
    for dirpath, _dirs, files in os.walk(root):
        for name in sorted(files):
            entry = name == "entry.json"
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            top = rel.split(os.sep)  # <Submitter>/systems/<system>.json
            if not (entry or (name.endswith(".json") and len(top) == 3 and top[1] == "systems")):
                continue
            with open(os.path.join(dirpath, name), "rb") as f:
                data = f.read()
            try:
                system = (parse_entry_json if entry else parse_systems_json)(data, rel)
            except ParseError as exc:
                out.append((rel, f"<not read: {exc.reason[:40]}>", ""))
                continue
            out.append((rel, system.raw.get("status"), system.availability))
    return out


def main(roots: list[str]) -> None:
    for root in roots:
        rows = [(s, a, _results_of(root, rel)) for rel, s, a in _systems(root)]
        by: Counter[tuple[str, str]] = Counter()
        results: Counter[tuple[str, str]] = Counter()
        for status, availability, n in rows:
            key = (repr(status), availability)
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

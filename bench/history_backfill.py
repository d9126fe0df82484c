"""What ``manage.py history backfill`` finds in the public results repositories: for
each bare mirror given (default: every ``/work/.mirror/mlcommons+<suite>_results_v*/repo``
of MLPerf Training, HPC and Inference; automotive's layout is another), its commits
over results/, systems/ and summary_results.json since publication, and
per commit that changed a published result: the versions by kind of change, the result
folders added, and up to three examples. Nothing is written (``dry_run``)::

    python bench/history_backfill.py [MIRROR ...] [--json]

Prints a table per round (commits in the log, commits that changed published results,
versions by kind, seconds) and then each commit's line, as the command prints it.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")

import django  # noqa: E402

django.setup()

from ingest.fetch import git  # noqa: E402
from ingest.history_backfill import PATHSPECS, history_backfill  # noqa: E402
from ingest.management.commands.history import render  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("mirrors", nargs="*")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    mirrors = args.mirrors or sorted(
        m
        for suite in ("training", "hpc", "inference")
        for m in glob.glob(f"/work/.mirror/mlcommons+{suite}_results_v*/repo")
    )
    rows, texts, data = [], [], []
    for m in mirrors:
        t = time.monotonic()
        report = history_backfill(location=m, dry_run=True)
        seconds = time.monotonic() - t
        log = git(["-C", m, "log", "--format=%H", "--", *PATHSPECS]).split()
        kinds: Counter[str] = Counter()
        for c in report.commits:
            kinds.update(c.kinds)
        added = sum(c.added for c in report.commits)
        rows.append(
            (
                f"{report.suite} {report.round_version}",
                len(log),
                len(report.commits),
                ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "none",
                added,
                seconds,
            )
        )
        texts.append(render(report))
        data.append({**report.as_dict(), "log_commits": len(log), "seconds": round(seconds, 1)})
    if args.json:
        print(json.dumps(data, indent=2))
        return
    print("| round | commits in log | commits changing results | versions by kind | added | s |")
    print("|---|---|---|---|---|---|")
    for name, n, changed, kinds_text, added, seconds in rows:
        print(f"| {name} | {n} | {changed} | {kinds_text} | {added} | {seconds:.1f} |")
    print()
    print("\n".join(texts))


if __name__ == "__main__":
    main()

"""A whole MLPerf Inference round: benchdb's ingest against the round's own submission
checker, side by side on the same tree.

Usage (from the repository root)::

    python bench/inference_ingest_speed.py TREE --version v5.1 --checker DIR
        [--workers N] [--postgres postgres://postgres@127.0.0.1:5432/postgres]

``TREE`` is a round's results repository (``inference_results_v5.1``; a folder of rounds
with ``manifests/<round>.omitted.tsv`` beside them also works, with ``--version``);
``DIR`` holds the checker of the round's commit (``tools/submission/`` of
mlcommons/inference at the commit ``benchdb.vocabulary.INFERENCE_ROUNDS`` names, with its
``log_parser.py``). Each command runs as a child process, one after the other:

1. ``manage.py migrate`` then ``manage.py ingest mlperf-inference TREE`` into a fresh
   database ``benchdb_bench_inf_<pid>`` (created, dropped at the end);
2. the same ingest again, with the rows the database inserted, updated and deleted
   meanwhile (``pg_stat_database``; expected: none);
3. ``python submission_checker.py --input TREE --version VERSION --csv ...
   --skip-extra-files-in-root-check`` (published repositories hold files at their root).

Printed: wall seconds, CPU seconds of the process and its children, and the largest
resident set of any of them (``ru_maxrss`` of the children). Targets (issue 10): the first
ingest in at most half the checker's wall time, peak RSS under 1 GB, a second ingest that
writes nothing. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, float, int]:
    """(wall s, CPU s, max RSS MiB of the children so far, exit status) of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode:
        sys.stderr.write(done.stderr.decode(errors="replace")[-2000:])
    return wall, cpu, after.ru_maxrss / 1024, done.returncode


def _psql(url: str, sql: str) -> str:
    out = subprocess.run(["psql", "-d", url, "-Atc", sql], capture_output=True, text=True)
    return out.stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tree")
    ap.add_argument("--version", required=True)
    ap.add_argument("--checker", required=True, help="folder holding submission_checker.py")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/postgres")
    args = ap.parse_args()
    name = f"benchdb_bench_inf_{os.getpid()}"
    _psql(args.postgres, f"CREATE DATABASE {name}")
    url = args.postgres.rsplit("/", 1)[0] + "/" + name
    env = {**os.environ, "DATABASE_URL": url}
    ingest = [sys.executable, "manage.py", "ingest", "mlperf-inference", args.tree]
    ingest += ["--round", args.version] + (["--workers", str(args.workers)] if args.workers else [])
    rows = []
    try:
        _run([sys.executable, "manage.py", "migrate", "-v0"], env, ROOT)
        rows.append(("benchdb ingest, empty database", *_run(ingest, env, ROOT)))
        stat = "SELECT tup_inserted + tup_updated + tup_deleted FROM pg_stat_database"
        stat += f" WHERE datname = '{name}'"
        time.sleep(1)
        before = int(_psql(args.postgres, stat) or 0)
        rows.append(("benchdb ingest again", *_run(ingest, env, ROOT)))
        time.sleep(1)
        written = int(_psql(args.postgres, stat) or 0) - before
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(args.tree)
            if (tree / f"inference_results_{args.version}").is_dir():  # a folder of rounds
                tree = tree / f"inference_results_{args.version}"
            checker = [
                sys.executable,
                "submission_checker.py",
                "--input",
                str(tree.resolve()),
            ]
            checker += ["--version", args.version, "--csv", f"{tmp}/out.csv"]
            checker += ["--skip-extra-files-in-root-check"]
            rows.append(
                ("submission checker " + args.version, *_run(checker, env, Path(args.checker)))
            )
    finally:
        _psql(args.postgres, f"DROP DATABASE IF EXISTS {name}")
    print(f"{'what':38} {'wall s':>8} {'cpu s':>8} {'max RSS MiB':>12} {'exit':>5}")
    for label, wall, cpu, rss, code in rows:
        print(f"{label:38} {wall:8.2f} {cpu:8.2f} {rss:12.0f} {code:5d}")
    print(f"rows written by the second ingest: {written}")
    print(f"benchdb / checker wall time: {rows[0][1] / rows[2][1]:.2f} (target <= 0.5)")


if __name__ == "__main__":
    main()

"""A whole round synced through Celery with 1 and with 2 worker processes (issue 10).

Usage (from the repository root)::

    python bench/fanout_speed.py ROUND_DIR [--workers 1,2] [--redis redis://127.0.0.1:6379/6]
        [--postgres postgres://postgres@127.0.0.1:5432/postgres]

For each worker count: a fresh database ``benchdb_bench_fanout_<pid>_<n>`` (migrated,
dropped at the end), ``n`` separate ``celery worker --concurrency 1`` processes with
``INGEST_FANOUT=1`` on a Redis database of their own (flushed first), a source of
``ROUND_DIR`` (a plain folder: a full read), and ``manage.py source sync --wait`` timed
from queueing to the join ending the job. Printed: wall seconds, the job's parts, results
read and added. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _psql(url: str, sql: str) -> str:
    return subprocess.run(["psql", "-d", url, "-Atc", sql], capture_output=True, text=True).stdout


def _one(round_dir: str, n: int, args: argparse.Namespace) -> str:
    name = f"benchdb_bench_fanout_{os.getpid()}_{n}"
    _psql(args.postgres, f"CREATE DATABASE {name}")
    url = args.postgres.rsplit("/", 1)[0] + "/" + name
    env = {**os.environ, "DATABASE_URL": url, "CELERY_BROKER_URL": args.redis}
    env |= {"CELERY_RESULT_BACKEND": args.redis, "INGEST_FANOUT": "1"}
    subprocess.run(["redis-cli", "-u", args.redis, "flushdb"], capture_output=True)
    manage = [sys.executable, "manage.py"]
    workers = []
    try:
        subprocess.run([*manage, "migrate", "-v0"], env=env, cwd=ROOT, check=True)
        add = [*manage, "source", "add", "--name", "round", "--kind", "mlperf-training"]
        add += ["--location", os.path.abspath(round_dir)]
        subprocess.run(add, env=env, cwd=ROOT, check=True, capture_output=True)
        for i in range(n):
            cmd = [sys.executable, "-m", "celery", "-A", "benchdb", "worker", "-c", "1"]
            cmd += ["-n", f"bench{i}@%h", "--without-gossip", "--without-mingle", "-l", "WARNING"]
            workers.append(
                subprocess.Popen(
                    cmd,
                    env=env,
                    cwd=ROOT,
                    start_new_session=True,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )  # fmt: skip
            )
        time.sleep(4)  # the workers connect
        t0 = time.perf_counter()
        sync = [*manage, "source", "sync", "round", "--wait"]
        done = subprocess.run(sync, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - t0
        row = _psql(url, "SELECT parts_total, results_seen, results_added, state FROM "
                    "ingest_ingestjob ORDER BY id DESC LIMIT 1").strip()  # fmt: skip
        return f"{n:8d} {wall:8.1f}  {row}  (exit {done.returncode})"
    finally:
        for w in workers:
            os.killpg(w.pid, signal.SIGTERM)
            w.wait(30)
        _psql(args.postgres, f"DROP DATABASE IF EXISTS {name}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("round_dir")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/6")
    ap.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/postgres")
    args = ap.parse_args()
    print(" workers   wall s  parts|results read|added|state")
    for n in (int(x) for x in args.workers.split(",")):
        print(_one(args.round_dir, n, args), flush=True)


if __name__ == "__main__":
    main()

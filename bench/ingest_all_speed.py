"""Many whole rounds loaded by ``manage.py ingest-all`` with 1 and with 2 Celery workers
(issue 24), side by side in one run.

Usage (from the repository root)::

    python bench/ingest_all_speed.py ROUND_DIR [ROUND_DIR ...] [--workers 1,2]
        [--redis redis://127.0.0.1:6379/10] [--postgres postgres://postgres@127.0.0.1:5432/postgres]
        [--db-prefix benchdb_bench_ingest] [--timeout S]

The round folders (``training_results_v5.1``, ``inference_results_v4.1``,
``hpc_results_v2.0``...) are linked into one temporary folder. For each worker count: a
fresh database ``<db-prefix><n>`` (default ``benchdb_bench_all_<pid>_<n>``; migrated,
dropped at the end; it must not exist), ``n``
``celery worker --concurrency 1`` processes with ``INGEST_FANOUT=1`` on the Redis
database given (flushed first), and ``manage.py ingest-all`` on the folder, timed from
start to its last job's end (HPC rounds are ingested by the command itself meanwhile).
Printed per worker count: wall seconds, the command's last line (jobs and results),
results stored per suite, the database's size and the machine's load average (1, 5 and
15 minutes) before and after (the machine may be shared: the figures hold for that load).
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _psql(url: str, sql: str) -> str:
    return subprocess.run(["psql", "-d", url, "-Atc", sql], capture_output=True, text=True).stdout


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _workers(n: int, env: dict[str, str]) -> list[subprocess.Popen[bytes]]:
    out = []
    for i in range(n):
        cmd = [sys.executable, "-m", "celery", "-A", "benchdb", "worker", "-c", "1"]
        cmd += ["-n", f"all{i}@%h", "--without-gossip", "--without-mingle", "-l", "WARNING"]
        out.append(
            subprocess.Popen(
                cmd,
                env=env,
                cwd=ROOT,
                start_new_session=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    return out


def _one(folder: str, n: int, args: argparse.Namespace) -> str:
    name = f"{args.db_prefix or f'benchdb_bench_all_{os.getpid()}_'}{n}"
    if not re.fullmatch(r"[a-z0-9_]{1,63}", name):
        raise SystemExit(f"not a plain database name: {name!r}")
    exists = f"SELECT 1 FROM pg_database WHERE datname = '{name}'"  # noqa: S608 (checked above)
    if _psql(args.postgres, exists).strip():
        return f"{n} workers: database {name} exists already; not timed"
    _psql(args.postgres, f"CREATE DATABASE {name}")
    url = args.postgres.rsplit("/", 1)[0] + "/" + name
    env = {**os.environ, "DATABASE_URL": url, "CELERY_BROKER_URL": args.redis}
    env |= {"CELERY_RESULT_BACKEND": args.redis, "INGEST_FANOUT": "1"}
    subprocess.run(["redis-cli", "-u", args.redis, "flushdb"], capture_output=True)
    manage = [sys.executable, "manage.py"]
    workers: list[subprocess.Popen[bytes]] = []
    try:
        subprocess.run([*manage, "migrate", "-v0"], env=env, cwd=ROOT, check=True)
        workers = _workers(n, env)
        time.sleep(4)  # the workers connect
        load0 = _load()
        t0 = time.perf_counter()
        done = subprocess.run(
            [*manage, "ingest-all", folder, "--every", "5", "--timeout", str(args.timeout)],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        wall = time.perf_counter() - t0
        lines = done.stdout.strip().splitlines() or [done.stderr.strip()[-300:]]
        stored = _psql(
            url,
            "SELECT string_agg(suite || ' ' || n, ', ') FROM (SELECT r.suite, count(*) n"
            " FROM benchdb_round r JOIN (SELECT round_id FROM benchdb_result UNION ALL"
            " SELECT round_id FROM benchdb_inferenceresult) x ON x.round_id = r.id"
            " GROUP BY r.suite ORDER BY r.suite) s",
        ).strip()
        size = _psql(url, f"SELECT pg_size_pretty(pg_database_size('{name}'))").strip()
        return (
            f"{n} workers: {wall:.1f} s (exit {done.returncode}); {lines[-1]}\n"
            f"  stored: {stored}; database {size}; load average {load0} before, {_load()} after"
        )
    finally:
        for w in workers:
            os.killpg(w.pid, signal.SIGTERM)
            w.wait(60)
        _psql(args.postgres, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("round_dirs", nargs="+")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/10")
    ap.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/postgres")
    ap.add_argument("--timeout", type=float, default=24 * 3600, help="ingest-all's, seconds")
    ap.add_argument("--db-prefix", default="", help="database name before the worker count")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for d in args.round_dirs:
            src = Path(d).resolve()
            os.symlink(src, Path(folder) / src.name)
        print(f"rounds: {', '.join(sorted(os.listdir(folder)))}; load average {_load()}")
        for n in (int(x) for x in args.workers.split(",")):
            print(_one(folder, n, args), flush=True)


if __name__ == "__main__":
    main()

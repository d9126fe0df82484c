"""Wall time of source syncs: a full read of whole rounds vs incremental syncs.

Usage (from the repository root)::

    python bench/sync_speed.py [ROUND_DIR ...] \
        [--postgres postgres://postgres@127.0.0.1:5432/postgres]

``ROUND_DIR`` defaults to ``/work/rounds/training_results_v1.1`` and
``/work/rounds/training_results_v2.0`` (whole results repositories). The script builds
a git repository in a temporary folder holding the first round, registers it as a
source in a fresh PostgreSQL database (created, migrated, dropped at the end) and
times, with
``python manage.py source sync NAME --wait`` run as a user runs it (no broker: the
task runs in that process):

1. the first sync (a full read of the round);
2. a sync with no new commit;
3. a commit that changes one log (one run's ``run_stop`` moved by a minute);
4. a commit that adds the next round (if a second ROUND_DIR is given);
5. ``--full``: every result folder read again (all unchanged).

Figures: wall s (the command, Python start-up included), job s (the job's own
start-to-finish), and the job's counts.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@benchdb.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@benchdb.invalid",
}
#: Widths of the figures' columns: wall s, job s, results, files, added, changed, unchanged.
WIDTHS = (7, 7, 8, 7, 6, 7, 9)
DEFAULT_ROUNDS = ["/work/rounds/training_results_v1.1", "/work/rounds/training_results_v2.0"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rounds", nargs="*", default=DEFAULT_ROUNDS)
    ap.add_argument(
        "--postgres",
        default="postgres://postgres@127.0.0.1:5432/postgres",
        help="server to create the scratch database on",
    )
    args = ap.parse_args()
    server = args.postgres.rsplit("/", 1)[0]
    dbname = f"benchdb_syncbench_{uuid.uuid4().hex[:8]}"
    tmp = Path(tempfile.mkdtemp(prefix="benchdb-syncbench-"))
    env = {
        **os.environ,
        **GIT_ENV,
        "DATABASE_URL": f"{server}/{dbname}",
        "BENCHDB_CACHE": str(tmp / "cache"),
    }
    env.pop("CELERY_BROKER_URL", None)
    psql(args.postgres, f"CREATE DATABASE {dbname}")
    try:
        manage(env, "migrate", "-v0")
        run(env, tmp, [Path(r) for r in args.rounds])
    finally:
        psql(args.postgres, f"DROP DATABASE {dbname}")
        shutil.rmtree(tmp, ignore_errors=True)


def run(env: dict[str, str], tmp: Path, rounds: list[Path]) -> None:
    repo = tmp / "src"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    t = time.perf_counter()
    shutil.copytree(rounds[0], repo / rounds[0].name)
    commit(repo, rounds[0].name)
    built = time.perf_counter() - t
    print(
        f"git repository of {rounds[0].name} built in {built:.1f} s ({du(repo / rounds[0].name)})"
    )
    add = ["source", "add", "--name", "bench", "--kind", "mlperf-training"]
    manage(env, *add, "--location", str(repo), "--ref", "main")
    head = ("step", "wall s", "job s", "results", "files", "added", "changed", "unchanged")
    print(f"{head[0]:<40} " + " ".join(f"{h:>{w}}" for h, w in zip(head[1:], WIDTHS, strict=True)))
    step("1. first sync (full read)", env)
    step("2. no new commit", env)
    logs = sorted((repo / rounds[0].name).glob("*/results/*/*/result_*.txt"))
    log = next(p for p in logs if b'"key": "run_stop"' in p.read_bytes())
    shift_run_stop(log)
    commit(repo, "one log changed")
    step("3. commit changing one log", env)
    if len(rounds) > 1:
        shutil.copytree(rounds[1], repo / rounds[1].name)
        commit(repo, rounds[1].name)
        step(f"4. commit adding {rounds[1].name}", env)
    step("5. --full (every folder re-read)", env, "--full")


def step(name: str, env: dict[str, str], *extra: str) -> None:
    t = time.perf_counter()
    out = manage(env, "source", "sync", "bench", "--wait", *extra)
    wall = time.perf_counter() - t
    job = json.loads(out[out.index("{") :])
    started, finished = (datetime.fromisoformat(job[k]) for k in ("started", "finished"))
    assert job["state"] == "succeeded", job
    counts = ("results_seen", "files_seen", "results_added", "results_changed")
    cells = [f"{wall:7.1f}", f"{(finished - started).total_seconds():7.1f}"]
    cells += [
        f"{job[k]:{w}}" for k, w in zip((*counts, "results_unchanged"), WIDTHS[2:], strict=True)
    ]
    print(f"{name:<40} " + " ".join(cells))


def shift_run_stop(path: Path) -> None:
    lines = path.read_bytes().split(b"\n")
    for i, line in enumerate(lines):
        if b'"key": "run_stop"' in line:
            m = re.search(rb'"time_ms": (\d+)', line)
            if m:
                shifted = b'"time_ms": %d' % (int(m.group(1)) + 60_000)
                lines[i] = line.replace(m.group(0), shifted)
                break
    path.write_bytes(b"\n".join(lines))


def manage(env: dict[str, str], *args: str) -> str:
    out = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if out.returncode:
        sys.exit(f"manage.py {' '.join(args)} failed:\n{out.stdout}\n{out.stderr}")
    return out.stdout


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, env={**os.environ, **GIT_ENV})


def commit(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def du(path: Path) -> str:
    n = sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return f"{n / 2**20:.0f} MiB"


def psql(url: str, sql: str) -> None:
    subprocess.run(["psql", url, "-qc", sql], check=True)


if __name__ == "__main__":
    main()

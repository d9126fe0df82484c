"""Wall time and peak memory: benchdb ingesting a whole round vs mlperf_logging's summarizer.

Usage (from the repository root)::

    python bench/ingest_speed.py [ROUND_DIR] [--ruleset 1.1.0] [--workers N]
        [--keep-csv PATH] [--skip-summarizer] [--postgres postgres://postgres@127.0.0.1:5432/postgres]

``ROUND_DIR`` defaults to ``/work/rounds/training_results_v1.1`` (a whole results
repository: ``<Submitter>/results`` and ``<Submitter>/systems``). In one run it measures:

1. benchdb: ``python manage.py ingest mlperf-training ROUND_DIR --json`` into a fresh,
   empty PostgreSQL database (created here, migrated, dropped at the end), then the same
   command a second time (nothing changed: the script checks that no row was written).
2. mlperf_logging's result_summarizer (the pinned PyPI release, requirements-bench.txt):
   ``python -m mlperf_logging.result_summarizer "<copy>/{*}" training RULESET --csv out.csv``
   on a throw-away ``cp -r`` copy of ROUND_DIR (it rewrites ``scaling.json`` in the tree it
   reads), deleted afterwards.

Each command runs as a child process; its memory is sampled with psutil every
``--interval`` seconds (default 0.02 s). Figures printed, per command:

* wall s: elapsed seconds of the command (start to exit);
* cpu s: user + system CPU seconds of the command and every child it waited for
  (``getrusage(RUSAGE_CHILDREN)`` before and after), less sensitive than wall time to
  other work on the machine; load: the 1-minute load average when the command started;
* main MB: peak resident set size (RSS, MiB) of the command's own process: the
  kernel's high-water mark ``VmHWM`` in ``/proc/<pid>/status``, read at each sample
  until the process exits;
* tree MB: the largest sum of RSS over the process and all its descendants (the
  ingest's parser processes) seen at one sample. RSS counts pages shared between a
  forked parent and child in both, so this is an upper bound of the memory used.
  The PostgreSQL server's own memory is not included;
* tree PSS MB: the same sum with proportional set size (a shared page split between
  the processes sharing it), i.e. the memory the tree really holds at that sample;
* results scored: benchdb's report ``scored``; for the summarizer, the non-empty
  benchmark cells of its CSV (one row per system, one column per benchmark).

The summarizer's speed is the anchor of the target in issue 2: benchdb should take at
most 1/10 of its wall time, with a peak under 500 MB. Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psutil
import psycopg2

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ROUND = "/work/rounds/training_results_v1.1"
MIB = 1024 * 1024
TARGET_RATIO = 0.10
TARGET_PEAK_MB = 500.0


@dataclass
class Measure:
    """One command: wall seconds, peak RSS in MiB (main process, summed tree), output."""

    label: str
    wall_s: float = 0.0
    cpu_s: float = 0.0
    load_before: float = 0.0
    main_peak_mb: float = 0.0
    tree_peak_mb: float = 0.0
    tree_pss_peak_mb: float = 0.0
    max_procs: int = 0
    returncode: int = 0
    stdout: str = ""
    stderr: str = ""
    extra: dict[str, object] = field(default_factory=dict)


def _hwm_bytes(pid: int) -> int:
    """Peak RSS (VmHWM) of a live process, bytes; 0 if it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def measure(
    label: str, cmd: list[str], *, env: dict[str, str], cwd: str, interval: float
) -> Measure:
    """Run ``cmd`` to completion, sampling the memory of its process tree.

    Returns a :class:`Measure`; stdout and stderr are captured in temporary files (so
    a chatty command cannot block on a full pipe). Raises nothing on a non-zero exit:
    ``returncode`` says so.
    """
    m = Measure(label)
    m.load_before = os.getloadavg()[0]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err)
        root = psutil.Process(proc.pid)
        main_hwm = 0
        while True:
            done = proc.poll() is not None
            if not done:
                main_hwm = max(main_hwm, _hwm_bytes(proc.pid))
                try:
                    procs = [root, *root.children(recursive=True)]
                except psutil.NoSuchProcess:
                    procs = []
                total = pss = 0
                for p in procs:
                    with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                        full = p.memory_full_info()  # smaps_rollup: rss and pss
                        total += full.rss
                        pss += full.pss
                m.tree_peak_mb = max(m.tree_peak_mb, total / MIB)
                m.tree_pss_peak_mb = max(m.tree_pss_peak_mb, pss / MIB)
                m.max_procs = max(m.max_procs, len(procs))
            if done:
                break
            time.sleep(interval)
        m.wall_s = time.perf_counter() - t0
        ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)  # the command and the children it reaped
        m.cpu_s = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
        m.returncode = proc.returncode
        # The last samples may miss the final growth of the main process: the kernel's
        # high-water mark read just before exit is the floor of its true peak.
        m.main_peak_mb = main_hwm / MIB
        m.tree_peak_mb = max(m.tree_peak_mb, m.main_peak_mb)
        out.seek(0)
        err.seek(0)
        m.stdout, m.stderr = out.read(), err.read()
    return m


# --- PostgreSQL --------------------------------------------------------------------


def _with_db(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def _admin(url: str, sql: str) -> None:
    conn = psycopg2.connect(url)
    conn.autocommit = True
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
    finally:
        conn.close()


def db_fingerprint(url: str) -> dict[str, tuple[int, int, int]]:
    """Per benchdb/ingest table: (rows, sum of row hashes, highest xmin).

    Equal fingerprints before and after a command mean it inserted, updated and
    deleted nothing: an UPDATE gives the row a new xmin even if no value changed.
    """
    conn = psycopg2.connect(url)
    try:
        with conn.cursor() as cur:
            cur.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
                " AND (table_name LIKE 'benchdb\\_%%' OR table_name LIKE 'ingest\\_%%')"
                " ORDER BY table_name"
            )
            tables = [r[0] for r in cur.fetchall()]
            out = {}
            for t in tables:
                cur.execute(
                    f"SELECT count(*), coalesce(sum(hashtext(t::text)::bigint), 0),"  # noqa: S608
                    f' coalesce(max(t.xmin::text::bigint), 0) FROM "{t}" t'
                )
                out[t] = tuple(int(x) for x in cur.fetchone())
            return out
    finally:
        conn.close()


# --- the two tools -------------------------------------------------------------------


def bench_benchdb(
    round_dir: str, pg_url: str, workers: int | None, interval: float
) -> list[Measure]:
    """Fresh database -> migrate -> ingest (timed) -> ingest again (timed); drops the DB."""
    db = f"benchdb_bench_speed_{os.getpid()}"
    url = _with_db(pg_url, db)
    env = {**os.environ, "DATABASE_URL": url}
    _admin(pg_url, f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
    _admin(pg_url, f'CREATE DATABASE "{db}"')
    try:
        mig = measure(
            "migrate",
            [sys.executable, "manage.py", "migrate", "-v0"],
            env=env,
            cwd=str(ROOT),
            interval=interval,
        )
        _check(mig)
        cmd = [sys.executable, "manage.py", "ingest", "mlperf-training", round_dir, "--json"]
        if workers is not None:
            cmd += ["--workers", str(workers)]
        first = measure("benchdb ingest (empty DB)", cmd, env=env, cwd=str(ROOT), interval=interval)
        _check(first)
        first.extra = _json_report(first)
        before = db_fingerprint(url)
        second = measure(
            "benchdb ingest again (no change)", cmd, env=env, cwd=str(ROOT), interval=interval
        )
        _check(second)
        second.extra = _json_report(second)
        after = db_fingerprint(url)
        second.extra["tables_changed"] = sorted(t for t in after if before.get(t) != after[t])
        first.extra["rows"] = {t: v[0] for t, v in after.items()}
        return [mig, first, second]
    finally:
        _admin(pg_url, f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')


def _json_report(m: Measure) -> dict[str, object]:
    start = m.stdout.find("{")
    return json.loads(m.stdout[start:]) if start >= 0 else {}


def _check(m: Measure) -> None:
    if m.returncode != 0:
        sys.stderr.write(m.stderr[-4000:])
        raise SystemExit(f"{m.label}: exit status {m.returncode}")


def summarizer_ruleset(round_dir: str) -> str:
    """``.../training_results_v1.1`` -> ``"1.1.0"``. Raises SystemExit if the name has no round."""
    m = re.search(r"training_results_v(\d+)\.(\d+)", os.path.basename(os.path.abspath(round_dir)))
    if not m:
        raise SystemExit(f"{round_dir}: cannot tell the round from the name; pass --ruleset")
    return f"{m.group(1)}.{m.group(2)}.0"


def bench_summarizer(
    round_dir: str,
    ruleset: str,
    keep_csv: str | None,
    interval: float,
    summarizer_path: str | None = None,
    exclude: tuple[str, ...] = (),
) -> list[Measure]:
    """cp -r the tree into a temp dir, run the summarizer on it (timed), delete the copy.
    The PyPI release, or with ``summarizer_path`` the ``mlperf_logging`` of that
    directory (``PYTHONPATH``; a ``git archive`` of the round's tag). ``exclude``:
    submitter folders the summarizer is not given (``<copy>/{a,b,...}`` instead of
    ``<copy>/{*}``), for a tag that crashes on them."""
    from mlperf_logging.benchmark_meta import get_allowed_benchmarks

    tmp = tempfile.mkdtemp(prefix="bench_summarizer_")
    try:
        tree = os.path.join(tmp, "tree")
        copy = measure(
            "cp -r (not counted)",
            ["cp", "-r", round_dir, tree],
            env=dict(os.environ),
            cwd=tmp,
            interval=interval,
        )
        _check(copy)
        out_csv = os.path.join(tmp, "out.csv")
        cmd = [
            sys.executable,
            "-m",
            "mlperf_logging.result_summarizer",
            tree + "/{" + (_orgs(round_dir, exclude) if exclude else "*") + "}",
            "training",
            ruleset,
            "--csv",
            out_csv,
        ]
        env = dict(os.environ)
        label = "mlperf_logging result_summarizer"
        if summarizer_path:
            env["PYTHONPATH"] = os.path.abspath(summarizer_path)
            label += f" ({os.path.basename(os.path.abspath(summarizer_path))})"
        run = measure(label, cmd, env=env, cwd=tmp, interval=interval)
        benchmarks = set(get_allowed_benchmarks("training", ruleset))
        scored = systems = 0
        if os.path.isfile(out_csv):
            with open(out_csv, newline="") as f:
                for row in csv.DictReader(f):
                    if row.get("division") == "division":  # header of an appended table
                        continue
                    systems += 1
                    scored += sum(
                        1 for b in benchmarks if (row.get(b) or "").strip() not in ("", "nan")
                    )
            if keep_csv:
                shutil.copyfile(out_csv, keep_csv)
        run.extra = {
            "scored": scored,
            "systems_rows": systems,
            "tracebacks": run.stdout.count("Traceback") + run.stderr.count("Traceback"),
            "scaling_json_changed": _scaling_changes(round_dir, tree),
        }
        return [copy, run]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _orgs(round_dir: str, exclude: tuple[str, ...]) -> str:
    """The submitter folders of ``round_dir`` (those with ``results/``) but ``exclude``."""
    names = sorted(os.listdir(round_dir))
    keep = [n for n in names if os.path.isdir(os.path.join(round_dir, n, "results"))]
    return ",".join(n for n in keep if n not in exclude)


def _scaling_files(root: str) -> dict[str, bytes]:
    out = {}
    for dirpath, _, files in os.walk(root):
        if "scaling.json" in files:
            with open(os.path.join(dirpath, "scaling.json"), "rb") as f:
                out[os.path.relpath(dirpath, root)] = f.read()
    return out


def _scaling_changes(original: str, copy: str) -> str:
    """How the summarizer changed ``scaling.json`` files: "W written, D deleted"."""
    before, after = _scaling_files(original), _scaling_files(copy)
    written = sum(1 for k, v in after.items() if before.get(k) != v)
    deleted = sum(1 for k in before if k not in after)
    return f"{written} written, {deleted} deleted"


def _tree_size(root: str) -> tuple[int, int]:
    n = size = 0
    for dirpath, _, files in os.walk(root):
        for f in files:
            if re.match(r"result_.*\.txt$", f):
                n += 1
                size += os.path.getsize(os.path.join(dirpath, f))
    return n, size


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("round_dir", nargs="?", default=DEFAULT_ROUND)
    ap.add_argument(
        "--ruleset", help="summarizer ruleset (default: from the folder name, 1.1.0 for v1.1)"
    )
    ap.add_argument("--workers", type=int, help="passed to the ingest (default: its own)")
    ap.add_argument(
        "--postgres",
        default="postgres://postgres@127.0.0.1:5432/postgres",
        help="a database URL on the server where the throw-away database is created",
    )
    ap.add_argument("--interval", type=float, default=0.02, help="memory sampling period, s")
    ap.add_argument("--keep-csv", help="copy the summarizer's CSV here")
    ap.add_argument("--skip-summarizer", action="store_true")
    ap.add_argument(
        "--summarizer-path",
        help="run the mlperf_logging in this directory (the round's tag) instead of PyPI's",
    )
    ap.add_argument(
        "--summarizer-exclude",
        action="append",
        default=[],
        help="a submitter folder the summarizer is not run on (repeatable; it crashes there)",
    )
    args = ap.parse_args(argv)
    round_dir = os.path.abspath(args.round_dir)
    ruleset = args.ruleset or summarizer_ruleset(round_dir)
    n_logs, size = _tree_size(round_dir)
    print(f"round folder {round_dir}: {n_logs} result_*.txt files, {size / MIB:.0f} MiB of logs")
    ram = psutil.virtual_memory().total / 2**30
    print(f"machine: {os.cpu_count()} CPUs, {ram:.1f} GiB RAM; Python {sys.version.split()[0]}")

    rows = bench_benchdb(round_dir, args.postgres, args.workers, args.interval)
    if not args.skip_summarizer:
        rows += bench_summarizer(
            round_dir,
            ruleset,
            args.keep_csv,
            args.interval,
            args.summarizer_path,
            tuple(args.summarizer_exclude),
        )

    return _report(rows, args.skip_summarizer, ruleset)


def _verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def _report(rows: list[Measure], skip_summarizer: bool, ruleset: str) -> int:
    """Print the table and the ratios; 1 when the summarizer failed, else 0."""
    print()
    head = ("tool", "wall s", "cpu s", "load", "main MB", "tree MB", "tree PSS MB", "procs")
    print(f"{head[0]:<36} " + " ".join(f"{h:>8}" for h in head[1:]) + f" {'results scored':>15}")
    for m in rows:
        scored = m.extra.get("scored", "")
        nums = (m.wall_s, m.cpu_s, m.load_before, m.main_peak_mb, m.tree_peak_mb)
        print(
            f"{m.label:<36} "
            + " ".join(f"{v:8.1f}" for v in nums)
            + f" {m.tree_pss_peak_mb:8.0f} {m.max_procs:8d} {scored!s:>15}"
        )
    first, second = rows[1], rows[2]
    x1, x2 = first.extra, second.extra
    print()
    print(
        f"benchdb first ingest: {x1.get('results_seen')} results, {x1.get('runs_stored')} runs, "
        f"{x1.get('problems')} problems; rows: {x1.get('rows')}"
    )
    print(
        f"benchdb second ingest: added {x2.get('added')}, changed {x2.get('changed')}, "
        f"unchanged {x2.get('unchanged')}; "
        f"tables with any row written: {x2.get('tables_changed') or 'none'}"
    )
    peak = max(first.tree_peak_mb, second.tree_peak_mb)
    print(
        f"benchdb peak memory (summed RSS of the tree, either ingest): {peak:.0f} MB; "
        f"target < {TARGET_PEAK_MB:.0f}: {_verdict(peak < TARGET_PEAK_MB)}"
    )
    if skip_summarizer:
        return 0
    summ = rows[-1]
    print(
        f"summarizer (ruleset {ruleset}): exit {summ.returncode}, "
        f"{summ.extra['systems_rows']} system rows, {summ.extra['tracebacks']} tracebacks "
        f"printed, scaling.json in the copy: {summ.extra['scaling_json_changed']}"
    )
    if summ.returncode != 0:
        last = [ln for ln in summ.stderr.splitlines() if ln.strip()][-1:] or ["(no stderr)"]
        print(f"summarizer FAILED: {last[0]}; no ratio")
        return 1
    ratio = first.wall_s / summ.wall_s if summ.wall_s else float("nan")
    cpu_ratio = first.cpu_s / summ.cpu_s if summ.cpu_s else float("nan")
    print()
    print(
        f"ratio benchdb/summarizer, wall time: {ratio:.4f} (1/{1 / ratio:.1f}); "
        f"target <= {TARGET_RATIO}: {_verdict(ratio <= TARGET_RATIO)}"
    )
    print(
        f"ratio benchdb/summarizer, CPU time (user+sys, whole tree): {cpu_ratio:.4f} "
        f"(1/{1 / cpu_ratio:.1f})"
    )
    mem = first.tree_peak_mb / summ.tree_peak_mb
    print(f"ratio benchdb/summarizer, peak tree memory: {mem:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

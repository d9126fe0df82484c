"""Server time of every page and of every table's CSV and JSON, at 1 and 16 clients.

Usage (from the repository root; DATABASE_URL names a database with at least one
whole round ingested)::

    python manage.py ingest mlperf-training /work/rounds/training_results_v1.1
    python bench/pages_speed.py [--server threaded|gunicorn] [--workers N]
        [--requests N] [--concurrency 1,16] [--round v1.1] [--json bench/out/pages_speed.json]

The script starts a real server process on 127.0.0.1 and sends HTTP requests to it:

* ``threaded`` (default): Django's ``ThreadedWSGIServer``, the server behind
  ``manage.py runserver`` (one process, a thread per request, so a new database
  connection per request: ``CONN_MAX_AGE`` is set to 0 in that process);
* ``gunicorn``: ``gunicorn --workers N`` (sync workers, default 2 x CPUs, each
  keeping its database connection), if installed (``pip install gunicorn==27.0.1``).

The WSGI application is wrapped so that each response carries
``Server-Timing: app;dur=<ms>``: the time from the request entering Django to the
last byte of the body produced (queries, templates, figures, CSV). Printed per URL
and concurrency: p50 and p95 of that server time, and p50 and p95 of the latency a
client sees (connect to last byte read, queueing included). With 16 clients on a
2-CPU machine most of the latency is waiting for a CPU: compare the server column
with the 1-client figures.

Targets (issue 3): p95 < 100 ms for pages, < 1 s for the full-round CSV.
Nothing is asserted; figures are printed (and written as JSON with ``--json``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")

TIMING = re.compile(r"app;dur=([0-9.]+)")


# --- the server side ------------------------------------------------------------------


class Timed:
    """WSGI middleware: adds ``Server-Timing: app;dur=<ms>`` measured up to the end
    of the body (Django's responses are built before they are returned)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        t0 = time.perf_counter()
        seen: dict[str, Any] = {}

        def capture(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], None]:  # fmt: skip
            seen["args"] = (status, headers, exc_info)
            return lambda data: None

        body = self.app(environ, capture)
        try:
            chunks = list(body)
        finally:
            close = getattr(body, "close", None)
            if close:
                close()
        ms = (time.perf_counter() - t0) * 1000
        status, headers, exc_info = seen["args"]
        start_response(status, [*headers, ("Server-Timing", f"app;dur={ms:.3f}")], exc_info)
        return chunks


def __getattr__(name: str) -> Any:
    """``application`` for gunicorn (``pages_speed:application``), built on first use."""
    if name == "application":
        from django.core.wsgi import get_wsgi_application

        return Timed(get_wsgi_application())
    raise AttributeError(name)


def serve(port: int) -> None:
    """Django's threaded development server (as ``runserver``) with timing."""
    import django
    from django.conf import settings

    django.setup()
    # A thread per request: a kept-open connection per thread would pile up to
    # PostgreSQL's max_connections under 16 clients ("too many clients already").
    settings.DATABASES["default"]["CONN_MAX_AGE"] = 0
    from django.core.servers.basehttp import run
    from django.core.wsgi import get_wsgi_application

    run("127.0.0.1", port, Timed(get_wsgi_application()), threading=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(kind: str, workers: int) -> tuple[subprocess.Popen[bytes], int]:
    port = _free_port()
    if kind == "threaded":
        cmd = [sys.executable, __file__, "--serve", str(port)]
    else:
        cmd = [
            sys.executable, "-m", "gunicorn", "--workers", str(workers), "--bind", f"127.0.0.1:{port}",
            "--chdir", str(ROOT), "--pythonpath", str(ROOT / "bench"), "--log-level", "warning",
            "pages_speed:application",
        ]  # fmt: skip
    log = ROOT / "bench" / "out" / "pages_speed_server.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as out:  # the server's access log; the child keeps its own handle
        proc = subprocess.Popen(cmd, cwd=ROOT, env={"SECRET_KEY": "bench-only", **os.environ, "DEBUG": "0"}, stdout=out, stderr=subprocess.STDOUT)  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode}: {' '.join(cmd)}; see {log}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc, port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("server did not start within 60 s")


# --- what to request ------------------------------------------------------------------


@dataclass
class Target:
    label: str
    kind: str  # page | csv | json | log
    path: str


def targets(round_version: str) -> tuple[list[Target], dict[str, int]]:
    """Every page with its CSV and JSON, on the largest instances in the database."""
    import django

    django.setup()
    from django.db.models import Count

    from benchdb.models import Result, Run, System

    results = Result.objects.filter(round__version=round_version)
    if not results.exists():
        raise SystemExit(f"no results of round {round_version} in this database: ingest a whole round first")  # fmt: skip
    board = results.values("benchmark__key").annotate(n=Count("id")).order_by("-n").first()
    bench = board["benchmark__key"]
    biggest = results.annotate(n=Count("runs")).order_by("-n", "pk").first()
    typical = results.filter(benchmark__key=bench).annotate(n=Count("runs")).order_by("n", "pk").first()
    system = System.objects.filter(round__version=round_version).annotate(n=Count("results")).order_by("-n", "pk").first()  # fmt: skip
    pair = list(results.filter(benchmark__key=bench, score_minutes__isnull=False).order_by("score_minutes").values_list("pk", flat=True)[:4])  # fmt: skip
    scale = results.filter(division="closed", score_minutes__isnull=False).values(
        "system__submitter__name", "system__accelerator_model", "benchmark__key",
    ).annotate(sizes=Count("system__accelerators", distinct=True)).order_by("-sizes").first()  # fmt: skip
    accel = results.values("system__accelerator_model").annotate(n=Count("id")).order_by("-n").first()["system__accelerator_model"]  # fmt: skip
    run = Run.objects.filter(result=biggest).order_by("-size").first()
    scaling_q = urlencode({"submitter": scale["system__submitter__name"], "accelerator": scale["system__accelerator_model"], "benchmark": scale["benchmark__key"], "round": round_version})  # fmt: skip
    software_q = urlencode({"benchmark": bench, "accelerator": accel, "division": "any"})
    pages = [
        ("home", "/"),
        ("search submitter=NVIDIA", "/results/?submitter=NVIDIA"),
        (f"search round={round_version} (whole round)", f"/results/?round={round_version}"),
        (f"leaderboard {round_version} {bench} ({board['n']} results)", f"/leaderboard/{round_version}/{bench}/"),  # fmt: skip
        (f"result ({typical.runs.count()} runs, {bench})", f"/results/{typical.pk}/"),
        (f"result ({biggest.runs.count()} runs, {biggest.benchmark.key}: the most)", f"/results/{biggest.pk}/"),
        (f"system ({system.n} results)", f"/systems/{system.pk}/"),
        ("compare 2 results", f"/compare/?ids={pair[0]},{pair[1]}"),
        (f"compare {len(pair)} results", "/compare/?ids=" + quote(",".join(map(str, pair)))),
        ("divisions (all rounds)", "/divisions/"),
        (f"software {bench} {accel[:22]}", f"/software/?{software_q}"),
        ("scaling " + scale["system__submitter__name"], f"/scaling/?{scaling_q}"),
        ("api", "/api/"),
    ]
    out = []
    for label, path in pages:
        out.append(Target(label, "page", path))
        if label != "api":
            sep = "&" if "?" in path else "?"
            out.append(Target(label, "csv", f"{path}{sep}format=csv"))
            out.append(Target(label, "json", f"{path}{sep}format=json"))
    out.append(Target(f"run log ({run.size:,} bytes)", "log", f"/runs/{run.pk}/log.txt"))
    counts = {"results": Result.objects.count(), f"results {round_version}": results.count(), "runs": Run.objects.count()}  # fmt: skip
    return out, counts


# --- the client side ------------------------------------------------------------------


@dataclass
class Sample:
    server_ms: list[float] = field(default_factory=list)
    client_ms: list[float] = field(default_factory=list)
    size: int = 0
    errors: int = 0


def _one(port: int, path: str) -> tuple[float | None, float, int, int]:
    t0 = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers={"Host": "127.0.0.1"})
        resp = conn.getresponse()
        body = resp.read()
        timing = TIMING.search(resp.getheader("Server-Timing") or "")
        return (float(timing.group(1)) if timing else None), (time.perf_counter() - t0) * 1000, resp.status, len(body)  # fmt: skip
    finally:
        conn.close()


def measure(port: int, target: Target, clients: int, requests: int) -> Sample:
    for _ in range(3):  # warm: templates compiled, connections open in every thread
        _one(port, target.path)
    sample = Sample()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        for server, client, status, size in pool.map(lambda _: _one(port, target.path), range(requests)):  # fmt: skip
            if status != 200:
                sample.errors += 1
            if server is not None:
                sample.server_ms.append(server)
            sample.client_ms.append(client)
            sample.size = size
    return sample


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (0-100), linear interpolation between closest ranks."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--server", choices=["threaded", "gunicorn"], default="threaded")
    ap.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1))
    ap.add_argument("--requests", type=int, default=64, help="requests per URL and concurrency")
    ap.add_argument("--concurrency", default="1,16")
    ap.add_argument("--round", default="v1.1", help="the whole round to use (default v1.1)")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    if args.serve:
        serve(args.serve)
        return
    levels = [int(c) for c in args.concurrency.split(",")]
    plan, counts = targets(args.round)
    proc, port = start_server(args.server, args.workers)
    rows = []
    try:
        for t in plan:
            row: dict[str, Any] = {"label": t.label, "kind": t.kind, "path": t.path}
            for c in levels:
                s = measure(port, t, c, max(args.requests, 4 * c))
                row[c] = {
                    "server_p50": pct(s.server_ms, 50), "server_p95": pct(s.server_ms, 95),
                    "client_p50": pct(s.client_ms, 50), "client_p95": pct(s.client_ms, 95),
                    "errors": s.errors,
                }  # fmt: skip
                row["bytes"] = s.size
            rows.append(row)
            print_row(row, levels, first=len(rows) == 1, server=args.server, workers=args.workers, counts=counts)  # fmt: skip
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({"server": args.server, "counts": counts, "rows": rows}, indent=1))  # fmt: skip


def print_row(row: dict[str, Any], levels: list[int], *, first: bool, server: str, workers: int, counts: dict[str, int]) -> None:  # fmt: skip
    if first:
        print(f"server: {server}" + (f" ({workers} workers)" if server == "gunicorn" else " (Django ThreadedWSGIServer, as runserver)"))  # fmt: skip
        print("database: " + ", ".join(f"{v:,} {k}" for k, v in counts.items()))
        print("ms: server = Server-Timing app;dur (inside Django), client = request to last byte")
        head = f"{'what':44} {'fmt':4} {'bytes':>9}"
        for c in levels:
            head += f" | {c:>2} client{'s' if c > 1 else ' '}: srv p50  p95  cli p50  p95"
        print(head)
        print("-" * len(head))
    line = f"{row['label'][:44]:44} {row['kind']:4} {row['bytes']:>9,}"
    for c in levels:
        f = row[c]
        line += f" | {'':11}{f['server_p50']:7.1f} {f['server_p95']:6.1f} {f['client_p50']:7.1f} {f['client_p95']:6.1f}"  # fmt: skip
        if f["errors"]:
            line += f" ({f['errors']} errors)"
    print(line, flush=True)


if __name__ == "__main__":
    main()

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
* ``gunicorn``: ``gunicorn --workers N`` (sync workers, default one per CPU, each
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

Load (issue 9, ``--load``; use ``--server gunicorn`` and a database holding all of
../shared/mlperf)::

    python bench/pages_speed.py --server gunicorn --workers 2 --load [--load-clients 64]
        [--load-seconds 60] [--ingest-clients 16] [--ingest-seconds 60]
        [--ingest-round ../shared/mlperf/training_results_v2.0]

1. ``--load-clients`` clients, each sending one request after another for
   ``--load-seconds``, spread over every page, CSV, JSON and the run log above
   (each client starts at its own place in the list). Printed: requests, errors (any
   status but 200, or no answer within 60 s), server and client p50/p95.
2. ``--ingest-clients`` clients for ``--ingest-seconds`` while ``manage.py ingest
   mlperf-training`` reads ``--ingest-round`` again and again in a subprocess, into a
   scratch database made for it on the same PostgreSQL server (``<name>_load_scratch``,
   emptied after each ingest so that the next one stores every result again, dropped
   at the end; a re-ingest into the served database would find every result unchanged
   and do no work), at ``--ingest-nice`` (default 0: the same priority as the server).
   Printed as in 1, plus the ingests' count and exit statuses.

Use one gunicorn worker per core: the pages are CPU-bound, and with more workers than
cores a request's server time also counts the time its worker waits for a core. All
traffic goes to 127.0.0.1; every phase is bounded in time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
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

        def capture(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Callable[[bytes], None]:
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


def _keep_connections(kind: str) -> dict[str, str]:
    """gunicorn's sync workers keep their database connection (CONN_MAX_AGE, unless
    the environment sets it): a process per worker, as settings.py advises."""
    return {"CONN_MAX_AGE": "60"} if kind == "gunicorn" else {}


def start_server(kind: str, workers: int) -> tuple[subprocess.Popen[bytes], int]:
    port = _free_port()
    if kind == "threaded":
        cmd = [sys.executable, __file__, "--serve", str(port)]
    else:
        cmd = [
            sys.executable,
            "-m",
            "gunicorn",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--chdir",
            str(ROOT),
            "--pythonpath",
            str(ROOT / "bench"),
            "--log-level",
            "warning",
            "pages_speed:application",
        ]
    log = ROOT / "bench" / "out" / "pages_speed_server.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as out:  # the server's access log; the child keeps its own handle
        proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env={"SECRET_KEY": "bench-only", **_keep_connections(kind), **os.environ, "DEBUG": "0"},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
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
    from benchdb.models import Result, Run

    results = Result.objects.filter(round__version=round_version)
    if not results.exists():
        raise SystemExit(
            f"no results of round {round_version} in this database: ingest a whole round first"
        )
    out = []
    for label, path in _pages(results, round_version):
        out.append(Target(label, "page", path))
        if label != "api":
            sep = "&" if "?" in path else "?"
            out.append(Target(label, "csv", f"{path}{sep}format=csv"))
            out.append(Target(label, "json", f"{path}{sep}format=json"))
    for label, path in _inference_pages() + _history_pages() + _suite_pages():
        out.append(Target(label, "page", path))
        sep = "&" if "?" in path else "?"
        out.append(Target(label, "csv", f"{path}{sep}format=csv"))
        out.append(Target(label, "json", f"{path}{sep}format=json"))
    biggest = _most_runs(results)
    run = Run.objects.filter(result=biggest).order_by("-size").first()
    out.append(Target(f"run log ({run.size:,} bytes)", "log", run.get_absolute_url()))
    counts = {
        "results": Result.objects.count(),
        f"results {round_version}": results.count(),
        "runs": Run.objects.count(),
    }
    return out, counts


def _most_runs(results: Any) -> Any:
    from django.db.models import Count

    return results.annotate(n=Count("runs")).order_by("-n", "pk").first()


def _pages(results: Any, round_version: str) -> list[tuple[str, str]]:
    """(label, path) of each page, on the round's largest leaderboard, result and
    system, its fastest results, and its most common accelerator."""
    from django.db.models import Count
    from django.urls import reverse

    from benchdb.models import System

    board = results.values("benchmark__key").annotate(n=Count("id")).order_by("-n").first()
    bench = board["benchmark__key"]
    biggest = _most_runs(results)
    on_board = results.filter(benchmark__key=bench)
    typical = on_board.annotate(n=Count("runs")).order_by("n", "pk").first()
    systems = System.objects.filter(round__version=round_version)
    system = systems.annotate(n=Count("results")).order_by("-n", "pk").first()
    scored = on_board.filter(score_minutes__isnull=False).order_by("score_minutes")
    pair = list(scored.values_list("pk", flat=True)[:4])
    accel = (
        results.values("system__accelerator_model")
        .annotate(n=Count("id"))
        .order_by("-n")
        .first()["system__accelerator_model"]
    )
    software_q = urlencode({"benchmark": bench, "accelerator": accel, "division": "any"})
    scale = _scaling_choice(results)
    run = biggest.runs.order_by("-size").first()
    run_page = reverse("benchdb:run_log_page", args=(*biggest.natural_key(), run.file_name))
    return [
        ("home", "/"),
        (f"round table {round_version}", f"/rounds/{round_version}/"),
        ("round table, every round", "/rounds/"),
        ("search q=DGX A100 (free text)", "/results/?q=DGX+A100"),
        (f"log page ({run.size:,} bytes)", run_page),
        (
            f"leaderboard {round_version} {bench} with a compare tray",
            f"/leaderboard/{round_version}/{bench}/?ids={pair[0]}",
        ),
        ("search submitter=NVIDIA", "/results/?submitter=NVIDIA"),
        (f"search round={round_version} (whole round)", f"/results/?round={round_version}"),
        (
            f"leaderboard {round_version} {bench} ({board['n']} results)",
            f"/leaderboard/{round_version}/{bench}/",
        ),
        (f"result ({typical.runs.count()} runs, {bench})", typical.get_absolute_url()),
        (
            f"result ({biggest.runs.count()} runs, {biggest.benchmark.key}: the most)",
            biggest.get_absolute_url(),
        ),
        (f"system ({system.n} results)", system.get_absolute_url()),
        ("compare 2 results", f"/compare/?ids={pair[0]},{pair[1]}"),
        (f"compare {len(pair)} results", "/compare/?ids=" + quote(",".join(map(str, pair)))),
        ("divisions (all rounds)", "/divisions/"),
        (f"software {bench} {accel[:22]}", f"/software/?{software_q}"),
        ("scaling " + scale["submitter"], f"/scaling/?{urlencode(scale)}"),
        ("api", "/api/"),
    ]


def _inference_pages() -> list[tuple[str, str]]:
    """(label, path) of the inference pages (issue 11) on the newest inference round in
    the database, its largest leaderboard, its result with the largest detail log; [] when
    no inference round is stored."""
    from django.db.models import Count
    from django.urls import reverse

    from benchdb.mlperf.inference.selectors import inference_result_url
    from benchdb.models import InferenceLog, InferenceResult

    results = InferenceResult.objects.filter(round__suite="inference").select_related(
        "round", "system"
    )  # the LoadGen suites (Automotive, Tiny, Mobile) share the table: _suite_pages
    newest = results.order_by("-round__version").first()
    if newest is None:
        return []
    version = newest.round.version
    in_round = results.filter(round__version=version)
    board = (
        in_round.exclude(benchmark="")
        .values("benchmark", "scenario")
        .annotate(n=Count("id"))
        .order_by("-n")
        .first()
    )
    log = (
        InferenceLog.objects.filter(
            result__round__suite="inference", result__round__version=version, kind="detail"
        )
        .order_by("-size")
        .select_related("result__round", "result__system")
        .first()
    )
    r = log.result
    url = inference_result_url(version, r.system.submitter_folder, r.system.folder, r.source_path)
    pair = list(
        in_round.filter(benchmark=board["benchmark"], scenario=board["scenario"])
        .order_by("pk")
        .values_list("pk", flat=True)[:2]
    )
    return [
        ("inference rounds", reverse("benchdb:inference_rounds")),
        (f"inference round table {version} ({in_round.count()} results)", f"/inference/{version}/"),
        (
            f"inference {board['benchmark']} {board['scenario']} ({board['n']} results)",
            f"/inference/{version}/{board['benchmark']}/{board['scenario']}/",
        ),
        ("inference result", url),
        (
            f"inference detail log by line ({log.size:,} bytes)",
            f"{url}files/?path={quote(log.path)}",
        ),
        ("inference compare 2", f"/inference/compare/?ids={pair[0]},{pair[-1]}"),
    ]


def _suite_pages() -> list[tuple[str, str]]:
    """(label, path) of the suites added through the registry's recipe (Automotive,
    Tiny, Storage, Mobile: every suite of ``benchdb.suites`` but training, HPC and
    inference): its rounds page, its newest round's page, and the first two deeper
    links of that page (a leaderboard, a result), found by reading the pages as a
    client would; those the database has."""
    import re as _re

    from django.test import Client
    from django.urls import reverse

    from benchdb import suites

    client, out = Client(HTTP_HOST="127.0.0.1"), []
    for s in suites.SUITES:
        if s.name in ("training", "hpc", "inference") or not s.rounds_url:
            continue
        index = reverse(s.rounds_url)
        html = client.get(index).content.decode()
        deeper = [h for h in _re.findall(r'href="([^"?#]+)"', html) if h.startswith(index)]
        rounds = [h for h in dict.fromkeys(deeper) if h != index]
        if not rounds:
            continue
        out += [(f"{s.short} rounds", index), (f"{s.short} round", rounds[0])]
        html = client.get(rounds[0]).content.decode()
        links = [h for h in _re.findall(r'href="([^"?#]+)"', html) if h.startswith(f"/{s.name}/")]
        inner = [h for h in dict.fromkeys(links) if h not in (index, rounds[0])][:2]
        out += [(f"{s.short} page {i + 1}", h) for i, h in enumerate(inner)]
    return out


def _history_pages() -> list[tuple[str, str]]:
    """(label, path) of the pages over every round (issue 24): the round tables, the
    inference history, the largest inference and HPC boards of any round, the vendor
    pages and claims; those the database has."""
    from django.db.models import Count

    from benchdb.models import InferenceResult, Result, VendorPage

    out = [
        ("inference history (every round)", "/inference/history/"),
        ("divisions (every round)", "/divisions/"),
        ("HPC rounds", "/hpc/"),
        ("vendor pages", "/vendor/"),
        ("vendor claims (every page)", "/vendor/claims/"),
        ("claim families", "/vendor/families/"),
    ]
    board = (
        InferenceResult.objects.exclude(benchmark="")
        .values("round__version", "benchmark", "scenario")
        .annotate(n=Count("id"))
        .order_by("-n")
        .first()
    )
    if board:
        where = f"{board['round__version']}/{board['benchmark']}/{board['scenario']}"
        out.append((f"inference {where} (largest board, {board['n']})", f"/inference/{where}/"))
    hpc = (
        Result.objects.filter(round__suite="hpc")
        .values("round__version", "benchmark__key", "scaling_type")
        .annotate(n=Count("id"))
        .order_by("-n")
        .first()
    )
    if hpc:
        where = f"{hpc['round__version']}/{hpc['benchmark__key']}/{hpc['scaling_type']}"
        out.append((f"HPC board {where} ({hpc['n']})", f"/hpc/{where}/"))
    page = VendorPage.objects.annotate(n=Count("claims")).order_by("-n", "pk").first()
    if page:
        out.append((f"vendor page ({page.n} claims)", f"/vendor/pages/{page.pk}/"))
        out.append(("vendor page guidelines", f"/vendor/pages/{page.pk}/guidelines/"))
    return out


def _scaling_choice(results: Any) -> dict[str, str]:
    """The scaling page's parameters for the series with the most system sizes."""
    from django.db.models import Count

    scale = (
        results.filter(division="closed", score_minutes__isnull=False)
        .values("system__submitter__name", "system__accelerator_model", "benchmark__key")
        .annotate(sizes=Count("system__accelerators", distinct=True))
        .order_by("-sizes")
        .first()
    )
    return {
        "submitter": scale["system__submitter__name"],
        "accelerator": scale["system__accelerator_model"],
        "benchmark": scale["benchmark__key"],
        "round": results.first().round.version,
    }


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
        return (
            (float(timing.group(1)) if timing else None),
            (time.perf_counter() - t0) * 1000,
            resp.status,
            len(body),
        )
    finally:
        conn.close()


def measure(port: int, target: Target, clients: int, requests: int) -> Sample:
    for _ in range(3):  # warm: templates compiled, connections open in every thread
        _one(port, target.path)
    sample = Sample()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        for server, client, status, size in pool.map(
            lambda _: _one(port, target.path), range(requests)
        ):
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


# --- load (issue 9): many clients for a while, then clients during an ingest ----------


@dataclass
class Load:
    """What ``clients`` clients saw in ``seconds``: per request kind, the server and
    client times (ms); errors: statuses other than 200 and requests without an answer."""

    clients: int
    seconds: float = 0.0
    server_ms: dict[str, list[float]] = field(default_factory=dict)
    client_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def requests(self) -> int:
        return len(self.client_ms) + len(self.errors)


def load(port: int, plan: list[Target], clients: int, until: Callable[[], bool]) -> Load:
    """``clients`` threads, each requesting the plan's paths in turn (starting at its
    own index) until ``until()`` is true."""
    out = Load(clients)
    t0 = time.monotonic()

    def client(k: int) -> None:
        i = k
        while not until():
            target = plan[i % len(plan)]
            i += 1
            try:
                server, ms, status, _ = _one(port, target.path)
            except OSError as exc:  # no answer (refused, reset, 60 s timeout)
                out.errors.append(f"{target.path}: {exc!r}")
                continue
            if status != 200:
                out.errors.append(f"{target.path}: HTTP {status}")
                continue
            out.client_ms.append(ms)
            if server is not None:
                out.server_ms.setdefault(target.kind, []).append(server)

    with ThreadPoolExecutor(max_workers=clients) as pool:
        list(pool.map(client, range(clients)))
    out.seconds = time.monotonic() - t0
    return out


def print_load(title: str, res: Load) -> dict[str, Any]:
    """Print one phase's figures; return them for ``--json``."""
    every = [ms for values in res.server_ms.values() for ms in values]
    exports = res.server_ms.get("csv", []) + res.server_ms.get("json", [])
    figures = {
        "clients": res.clients,
        "seconds": round(res.seconds, 1),
        "requests": res.requests,
        "errors": len(res.errors),
        "server_p50": pct(every, 50),
        "server_p95": pct(every, 95),
        "server_p95_pages": pct(res.server_ms.get("page", [0.0]), 95),
        "server_p95_exports": pct(exports or [0.0], 95),
        "client_p50": pct(res.client_ms, 50),
        "client_p95": pct(res.client_ms, 95),
    }
    print(
        f"{title}: {res.clients} clients, {res.seconds:.1f} s, {res.requests:,} requests "
        f"({res.requests / res.seconds:.1f}/s), {len(res.errors)} errors"
    )
    print(
        f"  server ms: p50 {figures['server_p50']:.1f}, p95 {figures['server_p95']:.1f} "
        f"(pages {figures['server_p95_pages']:.1f}, CSV/JSON {figures['server_p95_exports']:.1f})"
        f"; client ms: p50 {figures['client_p50']:.1f}, p95 {figures['client_p95']:.1f}"
    )
    for error in res.errors[:5]:
        print(f"  error: {error}")
    return figures


def _scratch_database() -> str:
    """DATABASE_URL of an empty, migrated ``<name>_load_scratch`` on the same server."""
    from urllib.parse import urlsplit

    from django.db import connection

    url = urlsplit(os.environ["DATABASE_URL"])
    name = url.path.lstrip("/") + "_load_scratch"
    with connection.cursor() as cursor:  # autocommit: CREATE DATABASE needs it
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cursor.execute(f'CREATE DATABASE "{name}"')
    scratch = url._replace(path="/" + name).geturl()
    migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"]
    subprocess.run(migrate, cwd=ROOT, env={**os.environ, "DATABASE_URL": scratch}, check=True)
    return scratch


def _drop_scratch(scratch: str) -> None:
    from urllib.parse import urlsplit

    from django.db import connection

    with connection.cursor() as cursor:
        # FORCE: an ingest stopped a moment ago may still hold its connection.
        name = urlsplit(scratch).path.lstrip("/")
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def load_phases(port: int, plan: list[Target], args: argparse.Namespace) -> dict[str, Any]:
    """Phase 1: ``--load-clients`` for ``--load-seconds``. Phase 2: ``--ingest-clients``
    for ``--ingest-seconds`` while ingests run back to back (:class:`Ingests`)."""
    end = time.monotonic() + args.load_seconds
    first = print_load("load", load(port, plan, args.load_clients, lambda: time.monotonic() > end))
    if args.ingest_seconds <= 0:  # phase 2 skipped
        return {"load": first}
    ingests = Ingests(_scratch_database(), args.ingest_round, args.ingest_nice)
    try:
        stop = time.monotonic() + args.ingest_seconds
        ingests.start()
        during = load(port, plan, args.ingest_clients, lambda: time.monotonic() > stop)
    finally:
        ingests.stop()
    second = print_load("during ingests", during)
    _drop_scratch(ingests.database)
    second["ingests"] = ingests.runs
    busy = sum(r["seconds"] for r in ingests.runs)
    print(
        f"  {len(ingests.runs)} ingests of {args.ingest_round} (exit codes "
        f"{sorted({r['exit'] for r in ingests.runs})}; -15: stopped at the end), "
        f"running {busy:.1f} s of the {during.seconds:.1f} s"
    )
    return {"load": first, "during_ingest": second}


class Ingests(threading.Thread):
    """``manage.py ingest mlperf-training ROUND`` into ``database``, again and again
    until :meth:`stop`: after each one the results are emptied (TRUNCATE), so the next
    one stores every result again instead of finding them unchanged. ``runs``: each
    ingest's exit status and seconds."""

    def __init__(self, database: str, round_dir: str, nice: int = 0) -> None:
        super().__init__(daemon=True)
        self.database, self.round_dir, self.nice = database, round_dir, nice
        self.runs: list[dict[str, Any]] = []
        self.proc: subprocess.Popen[bytes] | None = None
        self.done = threading.Event()

    def run(self) -> None:
        import psycopg2

        cmd = [sys.executable, "manage.py", "ingest", "mlperf-training", "--", self.round_dir]
        env = {**os.environ, "DATABASE_URL": self.database}
        while not self.done.is_set():
            t0 = time.monotonic()
            self.proc = subprocess.Popen(
                cmd,
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                preexec_fn=(lambda: os.nice(self.nice)) if self.nice else None,
                start_new_session=True,  # its parser processes are stopped with it
            )
            code = self.proc.wait()
            self.runs.append({"exit": code, "seconds": round(time.monotonic() - t0, 2)})
            with psycopg2.connect(self.database) as conn, conn.cursor() as cursor:
                cursor.execute("TRUNCATE benchdb_result CASCADE")
            conn.close()

    def stop(self) -> None:
        self.done.set()
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)  # the group this ingest leads
        self.join(timeout=60)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--server", choices=["threaded", "gunicorn"], default="threaded")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--requests", type=int, default=64, help="requests per URL and concurrency")
    ap.add_argument("--concurrency", default="1,16")
    ap.add_argument("--round", default="v1.1", help="the whole round to use (default v1.1)")
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument(
        "--first",
        action="store_true",
        help="before each URL, move the data version and time its first request",
    )
    ap.add_argument("--load", action="store_true", help="the load phases instead (docstring)")
    ap.add_argument("--load-clients", type=int, default=64)
    ap.add_argument("--load-seconds", type=float, default=60.0)
    ap.add_argument("--ingest-clients", type=int, default=16)
    ap.add_argument("--ingest-seconds", type=float, default=60.0)
    default_round = ROOT.parent / "shared" / "mlperf" / "training_results_v2.0"
    ap.add_argument("--ingest-round", default=str(default_round))
    ap.add_argument(
        "--ingest-nice", type=int, default=0, help="run the ingests at this nice level (0-19)"
    )
    args = ap.parse_args()
    if args.serve:
        serve(args.serve)
        return
    plan, counts = targets(args.round)
    proc, port = start_server(args.server, args.workers)
    try:
        print(f"server: {_server_name(args.server, args.workers)}")
        print("database: " + ", ".join(f"{v:,} {k}" for k, v in counts.items()))
        if args.load:
            figures: dict[str, Any] = load_phases(port, plan, args)
        else:
            figures = {"rows": per_url(port, plan, args)}
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        doc = {"server": args.server, "counts": counts, **figures}
        Path(args.json).write_text(json.dumps(doc, indent=1))


def _server_name(server: str, workers: int) -> str:
    if server == "gunicorn":
        return f"gunicorn ({workers} sync workers)"
    return "threaded (Django ThreadedWSGIServer, as runserver)"


def per_url(port: int, plan: list[Target], args: argparse.Namespace) -> list[dict[str, Any]]:
    """Each URL at each of ``--concurrency`` levels, ``--requests`` times (at least
    4 per client)."""
    levels = [int(c) for c in args.concurrency.split(",")]
    rows = []
    for t in plan:
        row: dict[str, Any] = {"label": t.label, "kind": t.kind, "path": t.path}
        if args.first:
            bump_data_version()
            server, _, status, _ = _one(port, t.path)
            row["first_ms"] = server if status == 200 and server is not None else float("nan")
        for c in levels:
            s = measure(port, t, c, max(args.requests, 4 * c))
            row[c] = {
                "server_p50": pct(s.server_ms, 50),
                "server_p95": pct(s.server_ms, 95),
                "client_p50": pct(s.client_ms, 50),
                "client_p95": pct(s.client_ms, 95),
                "errors": s.errors,
            }
            row["bytes"] = s.size
        rows.append(row)
        print_row(row, levels, first=len(rows) == 1)
    return rows


def bump_data_version() -> None:
    """A committed write that changes nothing (an ingest's stand-in): the data version
    moves on, so every cached page is computed again on its next request."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE benchdb_round SET repository = repository"
            " WHERE id = (SELECT min(id) FROM benchdb_round)"
        )


def print_row(row: dict[str, Any], levels: list[int], *, first: bool) -> None:
    if first:
        print("ms: server = Server-Timing app;dur (inside Django), client = request to last byte")
        print("first: server ms of the first request after the data version moved (--first)")
        head = f"{'what':44} {'fmt':4} {'bytes':>9}"
        if "first_ms" in row:
            head += f" {'first':>7}"
        for c in levels:
            head += f" | {c:>2} client{'s' if c > 1 else ' '}: srv p50  p95  cli p50  p95"
        print(head)
        print("-" * len(head))
    line = f"{row['label'][:44]:44} {row['kind']:4} {row['bytes']:>9,}"
    if "first_ms" in row:
        line += f" {row['first_ms']:7.1f}"
    for c in levels:
        f = row[c]
        line += f" | {'':11}{f['server_p50']:7.1f} {f['server_p95']:6.1f}"
        line += f" {f['client_p50']:7.1f} {f['client_p95']:6.1f}"
        if f["errors"]:
            line += f" ({f['errors']} errors)"
    print(line, flush=True)


if __name__ == "__main__":
    main()

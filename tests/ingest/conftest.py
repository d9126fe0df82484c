"""Fixtures of the source and job tests (test_fetch, test_sync, test_sync_mlperf,
test_tasks, test_selectors, test_views, test_admin, commands/test_source).

Each fixture sets up all it needs: none relies on what another test left. ``empty``
runs in the test's transaction (rolled back); ``eager`` is the one transactional
fixture (rows are committed, so that on_commit queueing runs the task in this
process) and says so by asking for ``transactional_db``.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchdb.celery import app as celery_app
from ingest.jobs import run as sync
from ingest.models import IngestJob, IngestJobError, Source
from tests.ingest.gitsource import wipe_results


@pytest.fixture
def empty(db: None, settings: Any, tmp_path: Path) -> None:
    """No result rows (a session fixture may have committed some), a private cache."""
    settings.BENCHDB_CACHE = tmp_path / "cache"
    wipe_results()


@pytest.fixture
def eager(transactional_db: None, settings: Any, tmp_path: Path) -> Iterator[None]:
    """Committed rows, so that on_commit queueing runs the task in this process."""
    settings.BENCHDB_CACHE = tmp_path / "cache"
    wipe_results()
    old = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = old


@pytest.fixture
def jobs_data(empty: None, tmp_path: Path) -> tuple[Source, IngestJob]:
    """A source on a daily schedule with a running job (4 of 10 result folders read)
    and one error row whose message is HTML."""
    source = sync.source_add(
        name="pages", kind="mlperf-training", location=str(tmp_path), schedule="every 1d"
    )
    job = IngestJob.objects.create(
        source=source, trigger="schedule", state="running", results_total=10, results_seen=4
    )
    IngestJobError.objects.create(
        job=job, path="X/results/s/b/result_0.txt", line=7, message="<script>alert(1)</script>"
    )
    return source, job


@pytest.fixture
def three_sources(empty: None, tmp_path: Path) -> None:
    """Three sources (crontab, interval, no schedule), each with two jobs."""
    for name, schedule in (("a", "0 3 * * *"), ("b", "every 6h"), ("c", "")):
        source = sync.source_add(
            name=name, kind="mlperf-training", location=str(tmp_path), schedule=schedule
        )
        for state in ("failed", "succeeded"):
            IngestJob.objects.create(
                source=source,
                trigger="schedule",
                state=state,
                results_total=3,
                results_seen=3,
                results_added=3,
            )


class Server:
    """A local HTTP server answering from a script of (status, headers, body); it
    records the request headers it got."""

    def __init__(self, script: list[tuple[int, dict[str, str], bytes]]) -> None:
        self.script = list(script)
        self.seen: list[dict[str, str]] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                outer.seen.append(dict(self.headers))
                status, headers, body = outer.script.pop(0)
                self.send_response(status)
                for k, v in {**headers, "Content-Length": str(len(body))}.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}/page.html"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[Any]:
    """``server(script)`` starts a :class:`Server`; all are stopped after the test."""
    made: list[Server] = []

    def make(script: list[tuple[int, dict[str, str], bytes]]) -> Server:
        made.append(Server(script))
        return made[-1]

    yield make
    for s in made:
        s.close()


@pytest.fixture
def closed_port() -> int:
    """A local port nothing listens on: a connection to it is refused at once."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])

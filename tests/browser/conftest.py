"""Browser tests: a real server process on the test database, driven by Debian's
Chromium through Playwright (never a downloaded browser).

The server is ``manage.py runserver`` in a subprocess against pytest-django's test
database, not the ``live_server`` fixture: ``live_server`` forces
``transactional_db``, whose flush after each test would empty the tables that the
session fixture ``ingested_shared`` filled for every other test. The data is
(re-)ingested here first; ingesting is idempotent, so this costs little when
``ingested_shared`` already ran, and it survives a flush by an earlier
transactional test.
"""

from __future__ import annotations

import csv
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "tests" / "screenshots"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _database_url() -> str:
    db = settings.DATABASES["default"]
    if "postgresql" not in db["ENGINE"]:
        pytest.fail("browser tests need PostgreSQL (set DATABASE_URL)")
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture(scope="session")
def browser_db(django_db_setup, django_db_blocker) -> Iterator[None]:
    """The test database. pytest-django creates it only when some selected test is
    marked for the database; these tests are not (their checks go over HTTP), so
    when they run alone the test database is made here, never the real one used."""
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    if connection.settings_dict["NAME"].startswith("test_"):
        yield
        return
    with django_db_blocker.unblock():
        config = setup_databases(verbosity=0, interactive=False, aliases={"default"})
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            teardown_databases(config, verbosity=0)


@pytest.fixture(scope="session")
def server_url(browser_db, django_db_blocker, mlperf_data, tmp_path_factory) -> Iterator[str]:
    """Base URL of a ``runserver`` process serving ../shared/mlperf from the test DB, with
    static files as ``make serve`` has them (collected, fingerprinted, gzipped)."""
    from django.db import connection

    from ingest.inference.service import mlperf_inference_ingest
    from ingest.training.service import mlperf_training_ingest

    assert connection.settings_dict["NAME"].startswith("test_"), "not the test database"
    inference = Path(settings.MLPERF_INFERENCE_DATA)
    with open(inference / "official_results.csv", newline="") as f:
        mapping = {r["model"]: r["mlperf_model"] for r in csv.DictReader(f)}
    with django_db_blocker.unblock():
        mlperf_training_ingest(location=str(mlperf_data))
        mlperf_inference_ingest(location=str(inference), extra_mapping=mapping)
        connection.close()  # the test DB is dropped at the end: leave no idle connection
    port = _free_port()
    env = {
        "SECRET_KEY": "browser-tests-only",
        **os.environ,
        "DATABASE_URL": _database_url(),
        "DEBUG": "0",
        "PYTHONUNBUFFERED": "1",
        "STATIC_ROOT": str(tmp_path_factory.mktemp("static")),
    }
    collect = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
    subprocess.run(collect, cwd=ROOT, env=env, check=True)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with open(SCREENSHOTS / "server.log", "w") as log:
        proc = subprocess.Popen(
            [
                sys.executable,
                "manage.py",
                "runserver",
                "--noreload",
                "--insecure",
                f"127.0.0.1:{port}",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_for(proc, port)
            yield f"http://127.0.0.1:{port}"
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _wait_for(proc: subprocess.Popen[bytes], port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(
                f"runserver exited with {proc.returncode}; see tests/screenshots/server.log"
            )
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    pytest.fail("runserver did not start within 60 s")


@pytest.fixture(scope="module")
def chromium(server_url: str) -> Iterator[object]:
    """Chromium for one test module. It starts after the server (whose fixture uses
    the ORM: Django refuses ORM calls while Playwright's event loop runs) and
    closes with the module, so that tests after it can use the ORM again."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (make chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Page:
    """A Playwright page that records console errors, uncaught exceptions and
    failed requests; each test saves a screenshot of what it checked
    (``tests/screenshots/<name>.png``), or the fixture saves where it stopped."""

    def __init__(self, page, base: str) -> None:
        self.page, self.base, self.errors, self.saved = page, base, [], False
        page.on(
            "console",
            lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None,
        )
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("requestfailed", lambda r: self.errors.append(f"requestfailed: {r.url}"))
        page.on(
            "response",
            lambda r: self.errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None,
        )

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)
        self.page.wait_for_load_state("networkidle")

    def screenshot(self, name: str, widths: tuple[int, ...] = (1400, 800)) -> None:
        """Full-page screenshots at each width: ``<name>.png`` at 1400 px,
        ``<name>-<width>.png`` at the others (the viewport is restored after)."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        size = self.page.viewport_size or {"width": 1400, "height": 1000}
        for width in widths:
            suffix = "" if width == 1400 else f"-{width}"
            if width != size["width"]:
                self.page.set_viewport_size({"width": width, "height": size["height"]})
                self.page.wait_for_timeout(500)  # responsive charts redraw on resize
            self.page.screenshot(path=str(SCREENSHOTS / f"{name}{suffix}.png"), full_page=True)
        if widths != (size["width"],):
            self.page.set_viewport_size(size)
            self.page.wait_for_timeout(500)
        self.saved = True


@pytest.fixture
def page(server_url, chromium, request) -> Iterator[Page]:
    context = chromium.new_context(accept_downloads=True, viewport={"width": 1400, "height": 1000})
    p = Page(context.new_page(), server_url)
    try:
        yield p
    finally:
        if not p.saved:  # the test failed before its screenshot: keep where it stopped
            p.screenshot(request.node.name)
        context.close()

"""gunicorn's settings for benchdb, read by ``gunicorn benchdb.wsgi`` run from the
repository root (gunicorn's default config file); command-line options still win.

Each worker, once the application is loaded, starts the check API's facts keeper
(``ingest.claims.warm``): the stored results a check reads are built in a thread at
the worker's start and after each data change, not by the first check request.
"""

from __future__ import annotations

from typing import Any


def post_worker_init(worker: Any) -> None:
    """Start the check's facts keeper in this worker (``ingest.claims.warm``)."""
    from ingest.claims.warm import start_keeper

    start_keeper()

"""gunicorn's settings for benchdb, read by ``gunicorn benchdb.wsgi`` run from the
repository root (gunicorn's default config file); command-line options still win.

The application is loaded once in the master (``preload_app``), which builds the
stored results the check API reads before it forks each worker (``pre_fork``,
``ingest.claims.warm.warm_before_fork``): the workers start with them, shared, instead
of five builds at once at the server's start, during which requests waited 9-11 s
(issue 21). Each worker then starts the check API's facts keeper
(``ingest.claims.warm``), which builds them again in a thread after each data change,
not in the first check request.
"""

from __future__ import annotations

from typing import Any

preload_app = True


def pre_fork(server: Any, worker: Any) -> None:
    """Build the check's stored results in the master, once per data version, before
    a worker is forked (``ingest.claims.warm.warm_before_fork``)."""
    from ingest.claims.warm import warm_before_fork

    warm_before_fork()


def post_worker_init(worker: Any) -> None:
    """Start the check's facts keeper in this worker (``ingest.claims.warm``)."""
    from ingest.claims.warm import start_keeper

    start_keeper()

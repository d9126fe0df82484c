"""The check API's stored facts kept warm in each web process (issue 21; issue 24's
0.3 s): a check reads every result's facts, the rounds' holdings and the results' keys
(``ingest.claims.facts``, ``ingest.round_trees``, ``ingest.claims.pins``), built once per
data version in each process, and links results through the URL resolver, which
imports every view on first use. Built by a request, that cost (4-8 s at load 8 with
all MLPerf history, over 20 s at load 20) fell on whichever check came first after a
worker started or an ingest committed, before its time budget.

:func:`warm_check` builds them now; :func:`start_keeper` runs it in a daemon thread
at a worker's start and then every ``settings.CHECK_FACTS_REFRESH_SECONDS`` (default 10), so a
data change is picked up within that many seconds by the thread, not by a request.
``gunicorn.conf.py`` starts the keeper in every gunicorn worker (``post_worker_init``).
A request that comes while the thread builds waits for that build (one build per
process and version: ``facts._store_lock``) instead of making another, and waits at
most what is left of its budget (:func:`ready`, issue 21: a check over its budget is
a 422, not a worker held for the build's 4-20 s after a worker's start or an ingest).
"""

from __future__ import annotations

import gc
import logging
import threading
import time

from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)


def warm_check() -> dict[str, float]:
    """Build what a check reads besides its text, for the current data version, and
    return the seconds each part took (near 0 when nothing changed since the last
    call): ``imports`` (the check's modules), ``urls`` (the URL resolver, which imports
    every view: scipy among them; the check's answer links results), ``facts`` (the
    result facts and the rounds' dates), ``holdings`` (the rounds held whole), ``keys``
    (each result's key and search text, for the check's workbench), ``undated`` (the
    results by round and the rounds holding each product, for texts with no date:
    ``benchdb.claims.undated.warm``). Reads only; on a
    database without a data version (SQLite, or inside a transaction) nothing is kept,
    so a request reads them itself as before."""
    from django.urls import get_resolver

    out: dict[str, float] = {}
    t = time.perf_counter()

    def took(part: str) -> None:
        nonlocal t
        now = time.perf_counter()
        out[part], t = now - t, now

    from benchdb.claims import undated
    from ingest import round_trees
    from ingest.claims import check  # noqa: F401 - the imports a first request paid
    from ingest.claims import facts as claim_facts
    from ingest.claims import pins as claim_pins

    took("imports")
    get_resolver().reverse_dict  # noqa: B018 - populates the resolver: imports every view
    took("urls")
    claim_facts.round_dates()  # builds the store (facts and dates) when the version moved
    took("facts")
    round_trees.round_holdings()
    took("holdings")
    claim_pins.result_keys()
    took("keys")
    undated.warm(claim_facts.all_result_facts())  # results by round, rounds per product
    took("undated")
    return out


def warm_before_fork() -> dict[str, float]:
    """:func:`warm_check` in a server's master process before it forks its workers
    (``gunicorn.conf.py`` ``pre_fork``, with ``preload_app``): each worker starts with
    the stored results built (shared, copy-on-write), so its keeper's first round finds
    them current instead of building them, five workers at once, while the first
    requests wait (issue 21: 64 clients saw 9-11 s at a server's start at load 10).
    Then freezes the garbage collector's view of them (:func:`gc.freeze`: the objects
    built so far are left out of every later collection, so a worker's collections do not
    walk 26k results' facts, nor dirty their shared pages). Closes the master's database
    connections after, so that no worker inherits one.
    Returns :func:`warm_check`'s seconds (near 0 after the first call); {} when it
    failed (logged: the workers' keepers build them then, and the server still starts)."""
    from django.db import connections

    try:
        seconds = warm_check()
        gc.freeze()  # the built facts never move again: no collection scans them in a worker
        return seconds
    except Exception:
        log.exception("building the check's facts before forking failed")
        return {}
    finally:
        connections.close_all()


class Keeper:
    """A running keeper (:func:`start_keeper`): its thread, :meth:`stop`, and the data
    version it last built (``built``: its token, "" before the first build)."""

    def __init__(self, thread: threading.Thread, event: threading.Event) -> None:
        self.thread, self._event = thread, event
        self.built = ""
        self.changed = threading.Condition()  # notified after each build
        self.wake = threading.Event()  # set: build now, without waiting the interval

    def stop(self, timeout: float | None = None) -> None:
        """Ask the thread to end and wait for it (at most ``timeout`` seconds)."""
        self._event.set()
        self.wake.set()
        self.thread.join(timeout)

    def wait_built(self, token: str, timeout: float) -> bool:
        """Wait at most ``timeout`` seconds for a build of data version ``token`` (the
        keeper woken to start it now); True when it is built."""
        with self.changed:
            if self.built != token:
                self.wake.set()
                self.changed.wait_for(lambda: self.built == token, max(timeout, 0.0))
            return self.built == token


#: This process's keeper (:func:`start_keeper`), None where none runs.
_keeper: Keeper | None = None


def ready(timeout: float) -> bool:
    """Whether a check may read the stored results now without building them: True at
    once when this process's keeper has built the current data version, or where no
    keeper runs (the request builds them itself, as in tests and ``manage.py``) or no
    data version is kept; else it waits at most ``timeout`` seconds for the keeper's
    build (False: not built by then)."""
    keeper = _keeper
    if keeper is None or not keeper.thread.is_alive():
        return True
    from benchdb.models.data_version import data_version

    version = data_version()
    if version is None:
        return True
    return keeper.wait_built(version.token, timeout)


def start_keeper(interval: float | None = None) -> Keeper | None:
    """Start a daemon thread that calls :func:`warm_check` now and then every
    ``interval`` seconds (default ``settings.CHECK_FACTS_REFRESH_SECONDS``; 0: no
    keeper, None returned), closing its own database connection after each round.
    Returns the :class:`Keeper`. An error in a round is logged and the next round tries
    again: a request then builds the facts itself, as without the keeper."""
    global _keeper
    every = settings.CHECK_FACTS_REFRESH_SECONDS if interval is None else interval
    if every <= 0:
        return None
    stop = threading.Event()
    thread = threading.Thread(target=lambda: _keep(keeper, every), name="check-facts-keeper")
    thread.daemon = True
    keeper = _keeper = Keeper(thread, stop)
    thread.start()
    return keeper


def _keep(keeper: Keeper, every: float) -> None:
    """The keeper's loop: build (:func:`warm_check`), say which version was built, wait
    ``every`` seconds or until woken (:meth:`Keeper.wait_built`)."""
    from benchdb.models.data_version import data_version

    while not keeper._event.is_set():
        keeper.wake.clear()
        try:
            version = data_version()  # read first: what is built is at least this version
            took = warm_check()
            with keeper.changed:
                keeper.built = version.token if version is not None else ""
                keeper.changed.notify_all()
            if sum(took.values()) > 0.05:
                log.info("check facts built: %s", {k: round(v, 3) for k, v in took.items()})
        except Exception:  # the next round, or a request, builds them
            log.exception("building the check's facts failed")
        finally:
            connection.close()  # this thread's own connection
        keeper.wake.wait(every)

"""The check's facts kept warm (ingest.claims.warm): the keeper thread builds every
result's facts for the current data version before any request asks, and again after
a committed change, so the request that comes next reads the keeper's store (builds
nothing) and sees the changed value. On ../shared/mlperf, committed."""

from __future__ import annotations

import gc
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from benchdb.models import Result
from benchdb.models.data_version import data_version
from ingest.claims import facts as claim_facts
from ingest.claims import warm


def _built_for(token: str, within: float = 60.0) -> Any:
    """The store once the keeper has built it for data version ``token``."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        got = claim_facts._store
        if got is not None and got[0] == token:
            return got[1]
        time.sleep(0.02)
    pytest.fail(f"the keeper built no store for data version {token} in {within:g} s")


def test_the_keeper_builds_the_facts_before_the_request_and_after_a_change(
    transactional_db: None, mlperf_data: Path
) -> None:
    from ingest.training.service import mlperf_training_ingest

    mlperf_training_ingest(location=str(mlperf_data))  # committed: the version moves
    claim_facts._store = None  # as in a worker just started
    keeper = warm.start_keeper(interval=0.05)
    assert keeper is not None
    try:
        r = Result.objects.filter(status="scored", round__suite="training").order_by("pk")[0]
        version = data_version()
        assert version is not None
        store = _built_for(version.token)
        facts = claim_facts.result_facts(suite="training")
        assert claim_facts._store is not None and claim_facts._store[1] is store
        assert [f.score_minutes for f in facts if f.pk == r.pk] == [r.score_minutes]
        assert len(facts) == 46  # official_scores.csv's scored results
        # a committed change: the keeper builds the new version's store
        Result.objects.filter(pk=r.pk).update(score_minutes=r.score_minutes + 1)
        moved = data_version()
        assert moved is not None and moved.token != version.token
        store = _built_for(moved.token)
        facts = claim_facts.result_facts(suite="training")
        assert claim_facts._store[1] is store  # the request built nothing
        assert [f.score_minutes for f in facts if f.pk == r.pk] == [r.score_minutes + 1]
    finally:
        keeper.stop(timeout=30)
    assert not keeper.thread.is_alive()


def test_no_keeper_when_the_interval_is_0(settings: Any) -> None:
    settings.CHECK_FACTS_REFRESH_SECONDS = 0
    before = {t.name for t in threading.enumerate()}
    assert warm.start_keeper() is None
    assert "check-facts-keeper" not in {t.name for t in threading.enumerate()} - before


def test_the_master_builds_the_facts_before_forking_and_keeps_no_connection(
    transactional_db: None, mlperf_data: Path
) -> None:
    """gunicorn's ``pre_fork`` (``gunicorn.conf.py``, with ``preload_app``): the master
    builds the current version's store once, so the workers it forks start with it, and
    freezes the garbage collector's view of them, and closes its database connection,
    so that none of them inherits it; a second call
    (the next worker forked) builds nothing."""
    from django.db import connection

    from ingest.training.service import mlperf_training_ingest

    mlperf_training_ingest(location=str(mlperf_data))
    claim_facts._store = None
    gc.unfreeze()
    try:
        took = warm.warm_before_fork()
        # the built facts are out of every later collection (a worker's, and its checks')
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    assert connection.connection is None  # closed: no worker inherits it
    version = data_version()
    assert version is not None
    assert set(took) == {"imports", "urls", "facts", "holdings", "keys", "undated"}
    store = claim_facts._store
    assert store is not None and store[0] == version.token
    assert len(store[1].by_suite["training"]) == 46
    warm.warm_before_fork()
    assert claim_facts._store is store


def test_a_failed_build_before_forking_still_lets_the_server_start(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken() -> dict[str, float]:
        raise RuntimeError("database down")

    monkeypatch.setattr(warm, "warm_check", broken)
    assert warm.warm_before_fork() == {}
    assert "before forking failed" in caplog.text

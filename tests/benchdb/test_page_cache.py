"""The data version and the pages cached by it (benchdb.models.data_version,
benchdb.page_cache): every committed change of benchdb's tables moves the version once
per transaction, a rolled-back one does not; a read page is computed once per version
and never served older than the data; conditional GETs get a 304 until the data
changes; logged-in users, the ingest pages and POSTs are not cached.

These tests write committed rows (the triggers act on commit, which a test inside a
transaction never reaches): they run outside pytest-django's transaction with the
database unblocked, on ../shared/mlperf, and undo what they change."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client

from benchdb.models import Submitter
from benchdb.models.data_version import data_version, watched_tables

PAGE = "/rounds/v1.1/"


@pytest.fixture
def committed(django_db_setup: Any, django_db_blocker: Any, mlperf_data: Path) -> Iterator[None]:
    """The database in autocommit, outside any test transaction, holding
    ../shared/mlperf (ingested again: a transactional test may have emptied the
    database since the session's ingest; unchanged results are not written twice)."""
    from ingest.training.service import mlperf_training_ingest

    with django_db_blocker.unblock():
        mlperf_training_ingest(location=str(mlperf_data))
        yield


def _version() -> int:
    v = data_version()
    assert v is not None
    return v.version


def test_every_benchdb_table_has_the_triggers_that_move_the_data_version(committed: None) -> None:
    """Each table of the benchdb app (the results, runs, logs, systems, vendor pages,
    claims, problems...) has both triggers; the counter's own table has none."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
            " WHERE t.tgname IN ('benchdb_data_changed', 'benchdb_data_truncated')"
        )
        found = cursor.fetchall()
    tables = watched_tables()
    assert {"benchdb_result", "benchdb_inferenceresult", "benchdb_claim"} <= set(tables)
    assert "benchdb_dataversion" not in tables
    assert sorted(found) == sorted(
        (t, name) for t in tables for name in ("benchdb_data_changed", "benchdb_data_truncated")
    )


def test_the_version_moves_once_per_committed_transaction_never_on_rollback(
    committed: None,
) -> None:
    before = _version()
    with transaction.atomic():  # three writes, one transaction: one bump
        s = Submitter.objects.create(name="page-cache-test")
        s.aliases = ["x"]
        s.save(update_fields=["aliases"])
        Submitter.objects.filter(pk=s.pk).update(aliases=["y"])
        assert data_version() is None  # inside a transaction: not known yet
    assert _version() == before + 1
    with pytest.raises(RuntimeError), transaction.atomic():
        Submitter.objects.filter(pk=s.pk).update(aliases=["z"])
        raise RuntimeError("rolled back")
    assert _version() == before + 1
    Submitter.objects.filter(pk=s.pk).delete()
    assert _version() == before + 2
    Submitter.objects.filter(pk=s.pk).update(aliases=[])  # no row: nothing changed
    assert _version() == before + 2


def test_a_page_is_computed_once_per_version_and_never_older_than_the_data(
    committed: None,
) -> None:
    client = Client()
    first = client.get(PAGE)
    second = client.get(PAGE)
    assert (first.status_code, second.status_code) == (200, 200)
    assert first["X-Page-Cache"] in ("miss", "hit")  # another test may have stored it
    assert second["X-Page-Cache"] == "hit"
    assert second.content == first.content
    csv = client.get(PAGE + "?format=csv")
    assert csv["Content-Type"].startswith("text/csv")  # the format is part of the key
    assert client.get(PAGE + "?format=csv").content == csv.content
    graphcore = Submitter.objects.get(name="Graphcore")
    assert b"Graphcore" in first.content
    try:
        Submitter.objects.filter(pk=graphcore.pk).update(name="Graphcore-renamed")
        renamed = client.get(PAGE)
        assert renamed["X-Page-Cache"] == "miss"
        assert b"Graphcore-renamed" in renamed.content
        assert b"Graphcore-renamed" in client.get(PAGE + "?format=csv").content
    finally:
        Submitter.objects.filter(pk=graphcore.pk).update(name="Graphcore")
    assert b"Graphcore-renamed" not in client.get(PAGE).content


def test_conditional_get_answers_304_until_the_data_changes(committed: None) -> None:
    """If-None-Match with the page's ETag: 304 until a change commits."""
    client = Client()
    page = client.get(PAGE)
    etag, modified = page["ETag"], page["Last-Modified"]
    assert etag.startswith('W/"') and page["Cache-Control"] == "no-cache"
    assert client.get(PAGE, HTTP_IF_NONE_MATCH=etag).status_code == 304
    # whole seconds: two changes within one second would share it, so it alone is
    # never taken for "not modified"
    assert client.get(PAGE, HTTP_IF_MODIFIED_SINCE=modified).status_code == 200
    s = Submitter.objects.create(name="page-cache-test-2")
    try:
        again = client.get(PAGE, HTTP_IF_NONE_MATCH=etag)
        assert again.status_code == 200 and again["ETag"] != etag
    finally:
        s.delete()


def test_a_streamed_export_is_stored_once_sent_and_answers_conditional_gets(
    committed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big export (benchdb.tables.stream; made big here by lowering the size) is
    streamed on a miss with its ETag, stored once sent whole, then served from the
    cache with the same bytes; If-None-Match gets a 304; a change moves the ETag."""
    from benchdb.tables import stream

    monkeypatch.setattr(stream, "STREAM_MIN_ROWS", 1)
    Submitter.objects.filter(name="page-cache-test-3").delete()  # a new version: a miss
    client = Client()
    url = PAGE + "?format=csv"
    first = client.get(url)
    assert first.streaming and first["X-Page-Cache"] == "miss"
    etag = first["ETag"]
    body = b"".join(first.streaming_content)
    assert body.startswith(b"round,division,") and body.count(b"\n") > 2
    second = client.get(url)
    assert not second.streaming and second["X-Page-Cache"] == "hit"
    assert second.content == body and second["ETag"] == etag
    assert second["Content-Disposition"] == first["Content-Disposition"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    s = Submitter.objects.create(name="page-cache-test-3")
    try:
        again = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert again.status_code == 200 and again.streaming and again["ETag"] != etag
        b"".join(again.streaming_content)
    finally:
        s.delete()


def test_a_streamed_export_over_the_size_limit_is_sent_but_not_stored(
    committed: None, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    from benchdb.tables import stream

    monkeypatch.setattr(stream, "STREAM_MIN_ROWS", 1)
    settings.PAGE_CACHE_MAX_BYTES = 100
    client = Client()
    url = PAGE + "?format=json"
    first = client.get(url)
    body = b"".join(first.streaming_content)
    assert len(body) > 100 and json.loads(body)["schema"] == "benchdb.round_table/1"
    second = client.get(url)
    assert second.streaming and second["X-Page-Cache"] == "miss"
    assert b"".join(second.streaming_content) == body


def test_logged_in_users_ingest_pages_and_posts_are_not_cached(
    committed: None, django_user_model: Any
) -> None:
    anonymous = Client()
    jobs = anonymous.get("/ingest/jobs/")
    assert jobs.status_code == 200 and "X-Page-Cache" not in jobs and "ETag" not in jobs
    assert "X-Page-Cache" not in anonymous.post(PAGE)
    user = django_user_model.objects.create_user("page-cache-reader")
    try:
        client = Client()
        client.force_login(user)
        page = client.get(PAGE)
        assert page.status_code == 200 and "X-Page-Cache" not in page and "ETag" not in page
    finally:
        user.delete()


@pytest.mark.django_db
def test_inside_a_transaction_nothing_is_cached(client: Client, ingested_shared: Any) -> None:
    """A test's requests run inside its transaction, whose writes have not moved the
    version: pages are computed every time there."""
    page = client.get(PAGE)
    assert page.status_code == 200 and "X-Page-Cache" not in page


def test_an_ingest_that_changes_nothing_keeps_the_version_and_the_cached_pages(
    committed: None, mlperf_data: Path
) -> None:
    """A second ingest of ../shared/mlperf finds every result unchanged and writes no
    row of benchdb's tables: the version stays, and so do the cached pages."""
    from ingest.training.service import mlperf_training_ingest

    client = Client()
    client.get(PAGE)
    before = _version()
    report = mlperf_training_ingest(location=str(mlperf_data))
    assert (report.unchanged, report.added, report.changed) == (46, 0, 0)
    assert _version() == before
    assert client.get(PAGE)["X-Page-Cache"] == "hit"


def test_the_home_page_is_cached_and_its_check_form_needs_no_token(committed: None) -> None:
    """The home page embeds the check form; a CSRF token in it made every home page
    its own (never cached). The check stores nothing, so its form takes no token."""
    client = Client(enforce_csrf_checks=True)
    client.get("/")
    home = client.get("/")
    assert home.status_code == 200
    assert home["X-Page-Cache"] == "hit"
    assert b'id="home-check"' in home.content
    assert b"csrfmiddlewaretoken" not in home.content
    text = "In MLPerf Training v1.1, the IPU-POD16 trained ResNet-50 in 28.3 minutes."
    answer = client.post("/vendor/check/", {"text": text})
    assert answer.status_code == 200
    assert b"28.3" in answer.content

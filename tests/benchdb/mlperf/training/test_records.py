"""Reads of one record by its natural key (benchdb/mlperf/training/records.py): permalinks that
survive a delete and re-ingest, old id URLs that redirect, a stored log streamed in
bounded memory, and a huge logged value that the result page never loads whole.

The small round is written here: one real Graphcore v1.1 result (../shared/mlperf),
once as published and once under folder names with spaces, dots, '%' and non-ASCII
letters."""

from __future__ import annotations

import hashlib
import os
import shutil
import tracemalloc
import zlib
from pathlib import Path

import pytest
from django.urls import reverse

from benchdb import logcodec
from benchdb.mlperf.training import records, selectors
from benchdb.models import Result, Run, RunLog
from ingest.training.service import mlperf_training_ingest

pytestmark = pytest.mark.django_db

ODD = ("Odd Søft 1.0", "sys v1.0 ü%", "resnet")


@pytest.fixture
def small_round(tmp_path: Path, mlperf_data: Path) -> Path:
    """training_results_v1.1 with Graphcore's ipu-pod16-TF1 resnet result twice: under
    its own folders and under the odd ones of ``ODD``."""
    src = mlperf_data / "training_results_v1.1" / "Graphcore"
    root = tmp_path / "training_results_v1.1"
    for submitter, system, bench in (("Graphcore", "ipu-pod16-TF1", "resnet"), ODD):
        shutil.copytree(
            src / "results/ipu-pod16-TF1/resnet", root / submitter / "results" / system / bench
        )
        (root / submitter / "systems").mkdir(parents=True, exist_ok=True)
        shutil.copy(
            src / "systems/ipu-pod16-TF1.json", root / submitter / "systems" / f"{system}.json"
        )
    mlperf_training_ingest(location=str(root), workers=1)
    return root


def _odd() -> Result:
    return Result.objects.get(system__submitter_folder=ODD[0], system__folder=ODD[1])


def test_a_permalink_serves_the_same_result_after_a_delete_and_re_ingest(client, small_round):
    result = _odd()
    url, old_pk, score = result.get_absolute_url(), result.pk, result.score_minutes
    assert url == "/results/training/v1.1/Odd%20S%C3%B8ft%201.0/sys%20v1.0%20%C3%BC%25/resnet/"
    system_url = result.system.get_absolute_url()
    log_url = result.runs.get(file_name="result_1.txt").get_absolute_url()
    log = client.get(log_url)
    assert log.status_code == 200
    before = b"".join(log.streaming_content)

    Result.objects.all().delete()
    assert client.get(url).status_code == 404
    mlperf_training_ingest(location=str(small_round), workers=1)

    again = _odd()
    assert again.pk != old_pk and again.get_absolute_url() == url
    resp = client.get(url)
    assert resp.status_code == 200 and resp.context["d"].result.pk == again.pk
    assert resp.context["r"]["score_minutes"] == score
    assert resp.context["r"]["url"] == url
    assert client.get(system_url).status_code == 200
    assert b"".join(client.get(log_url).streaming_content) == before
    assert client.get(reverse("benchdb:result_by_id", args=[old_pk])).status_code == 404


def test_old_id_urls_redirect_permanently_to_the_permalinks(client, small_round):
    result = _odd()
    run = result.runs.get(file_name="result_0.txt")
    cases = [
        (reverse("benchdb:result_by_id", args=[result.pk]), result.get_absolute_url()),
        (
            reverse("benchdb:system_by_id", args=[result.system_id]),
            result.system.get_absolute_url(),
        ),
        (reverse("benchdb:run_log_by_id", args=[run.pk]), run.get_absolute_url()),
    ]
    for old, new in cases:
        resp = client.get(old)
        assert (resp.status_code, resp["Location"]) == (301, new)
    resp = client.get(cases[0][0], {"format": "csv"})
    assert resp["Location"] == f"{cases[0][1]}?format=csv"
    assert client.get(resp["Location"])["Content-Type"].startswith("text/csv")
    for name in ("result_by_id", "system_by_id", "run_log_by_id"):
        assert client.get(reverse(f"benchdb:{name}", args=[10**9])).status_code == 404


def test_every_link_on_the_pages_is_a_permalink(client, small_round):
    result = _odd()
    html = client.get(result.get_absolute_url()).content.decode()
    assert f'href="{result.system.get_absolute_url()}"' in html
    for run in result.runs.all():
        assert f'href="{run.get_absolute_url()}"' in html
    system_page = client.get(result.system.get_absolute_url())
    assert system_page.context["rows"][0]["url"] == result.get_absolute_url()
    search = client.get("/results/", {"system": "ü%", "format": "json"}).json()["rows"]
    assert [r["url"] for r in search] == [result.get_absolute_url()]
    assert "/results/1" not in html and "/systems/1" not in html


#: How logs were stored before ``benchdb.logcodec`` (zlib level 6) and how they are now.
CODECS = {"zlib": lambda data: zlib.compress(data, 6), "zstd": logcodec.compress}


@pytest.mark.parametrize("codec", CODECS)
def test_a_large_stored_log_streams_in_bounded_memory(client, small_round, codec):
    """A 48 MB log (24 MB compressed) is served byte for byte while the view holds at
    most a few MB: the compressed bytes are read and inflated a piece at a time."""
    run = Run.objects.get(result=_odd(), file_name="result_2.txt")
    text = os.urandom(24 << 20).hex().encode()
    RunLog.objects.filter(run=run).update(compressed=CODECS[codec](text))
    expected = hashlib.sha256(text).hexdigest()
    size = len(text)
    del text

    tracemalloc.start()
    try:
        resp = client.get(run.get_absolute_url())
        digest, received = hashlib.sha256(), 0
        for piece in resp.streaming_content:
            digest.update(piece)
            received += len(piece)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert resp.streaming and resp.status_code == 200
    assert (received, digest.hexdigest()) == (size, expected)
    assert peak < 8 << 20, f"peak {peak / 2**20:.1f} MB"


@pytest.mark.parametrize("codec", CODECS)
def test_run_log_chunks_never_yield_more_than_a_chunk(small_round, codec):
    run = Run.objects.get(result=_odd(), file_name="result_3.txt")
    text = b"x" * 3_000_000  # compresses to a few KB: one piece read, many inflated
    RunLog.objects.filter(run=run).update(compressed=CODECS[codec](text))
    pieces = list(records.run_log_chunks(run.pk, chunk=65536))
    assert b"".join(pieces) == text and max(map(len, pieces)) <= 65536


def test_a_log_stored_with_zlib_before_zstandard_still_displays_and_downloads(client, small_round):
    """Logs ingested before ``benchdb.logcodec`` are zlib streams (level 6) and stay so:
    the download is the file on disk byte for byte and the viewer numbers its lines as
    for a log stored now. Read in 4 KiB pieces, so that both codecs stream."""
    run = Run.objects.get(result=_odd(), file_name="result_1.txt")
    on_disk = (small_round / run.path).read_bytes()
    stored = bytes(RunLog.objects.get(run=run).compressed)
    assert stored[:4] == logcodec.ZSTD_MAGIC and logcodec.decompress(stored) == on_disk
    page = reverse("benchdb:run_log_page", args=(*run.result.natural_key(), run.file_name))
    now = client.get(page, {"format": "json"}).json()["rows"]

    RunLog.objects.filter(run=run).update(compressed=zlib.compress(on_disk, 6))
    assert logcodec.decompress(bytes(RunLog.objects.get(run=run).compressed)) == on_disk
    assert b"".join(records.run_log_chunks(run.pk, chunk=4096)) == on_disk
    resp = client.get(run.get_absolute_url())
    assert resp.status_code == 200 and b"".join(resp.streaming_content) == on_disk
    rows = client.get(page, {"format": "json"}).json()["rows"]
    lines = on_disk.decode().removesuffix("\n").split("\n")  # LF ends in this log
    assert rows == now and [r["text"] for r in rows] == lines[: records.LOG_WINDOW]
    assert len(rows) == min(len(lines), records.LOG_WINDOW) > 0


def test_a_huge_logged_value_is_shown_cut_and_never_loaded(client, small_round):
    """Issue 9, item 6: an unknown key's 20 MB value; the page shows its first
    characters and the other hyperparameters as they are, in bounded memory."""
    result = _odd()
    first = result.runs.filter(role=Run.Role.COUNTED).order_by("index").first()
    hyper = dict(first.hyperparameters)
    Run.objects.filter(pk=first.pk).update(hyperparameters={**hyper, "zz_huge": "y" * 20_000_000})

    tracemalloc.start()
    try:
        resp = client.get(result.get_absolute_url())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert resp.status_code == 200
    shown = dict(resp.context["d"].hyperparameters)
    cut = '"' + "y" * (selectors.HYPERPARAMETER_CHARS - 1)
    assert shown["zz_huge"] == f"{cut}… (20,000,002 characters)"
    assert {k: v for k, v in shown.items() if k != "zz_huge"} == hyper
    assert peak < 10 << 20, f"peak {peak / 2**20:.1f} MB"

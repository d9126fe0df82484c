"""ingest.history: a re-sync that changes a published result keeps the old version,
checks its claims again with their verdict history kept, and shows both in the result
page, /changes/ (CSV, JSON) and its Atom feed; a result whose folder leaves the
repository is tombstoned, never deleted, and its permalink answers 200 with its
history. On a real round tree (../shared/mlperf v1.1) made a git repository by the
test, with commits the test makes."""

from __future__ import annotations

import csv
import io
import json
import shutil
from datetime import date
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from benchdb.models import Claim, ClaimVerdictVersion, Result, ResultVersion
from ingest.claims import pages as vendor
from ingest.jobs import run as sync
from tests.ingest.gitsource import GitRepo, run_sync

POD128 = "training_results_v1.1/Graphcore/results/ipu-pod128-TF1/resnet"
PAGE = "graphcore-mlperf-training-v1.1-performance-at-scale.en.txt"


@pytest.fixture
def synced(empty, tmp_path):  # type: ignore[no-untyped-def]
    """v1.1 committed and synced, Graphcore's v1.1 page read: its IPU-POD128 ResNet-50
    claim (5.67 minutes) consistent with the stored result."""
    page = vendor.vendor_page_ingest(
        data=None, path_or_url=str(Path(settings.VENDOR_DATA) / PAGE), published=date(2021, 12, 1)
    )
    repo = GitRepo(tmp_path / "src")
    repo.add_round("v1.1")
    c1 = repo.commit("v1.1 published")
    source = sync.source_add(name="v11", kind="mlperf-training", location=str(repo.path))
    assert run_sync(source).state == "succeeded"
    claim = Claim.objects.get(page_id=page.page_id, kind="time", value=5.67)
    assert claim.verdict == "consistent"
    return repo, source, claim, c1


def test_a_resync_that_changes_a_result_keeps_the_old_version_and_rechecks_its_claims(
    synced, client: Client
):
    repo, source, claim, c1 = synced
    result = Result.objects.get(round__version="v1.1", source_path=POD128.split("/", 1)[1])
    old_score = result.score_minutes
    assert old_score == pytest.approx(5.67, abs=0.01)
    for n in range(5):  # every run stops a minute later: the score moves by 1 minute
        repo.shift_run_stop(f"{POD128}/result_{n}.txt", 60_000)
    c2 = repo.commit("Graphcore: logs corrected")
    job = run_sync(source)
    assert job.state == "succeeded" and job.results_changed == 1, job.message

    (v,) = ResultVersion.objects.filter(result=result)
    result.refresh_from_db()
    assert result.score_minutes == pytest.approx(old_score + 1.0)
    assert (v.commit, v.commit_before, v.origin) == (c2, c1, "ingest")
    assert "value" in v.kind_list and "files" in v.kind_list
    score = next(c for c in v.changes if c["field"] == "score_minutes")
    assert (score["old"], score["new"]) == (pytest.approx(old_score), pytest.approx(old_score + 1))
    assert v.before["score_minutes"] == pytest.approx(old_score)
    files = next(c for c in v.changes if c["field"] == "files")
    assert files["new"] == [f"result_{n}.txt" for n in range(5)]

    claim.refresh_from_db()
    assert claim.verdict == "inconsistent"
    (h,) = ClaimVerdictVersion.objects.filter(claim=claim)
    assert (h.verdict_before, h.verdict, h.cause_id) == ("consistent", "inconsistent", v.pk)

    page = client.get(result.get_absolute_url()).content.decode()
    assert 'id="history"' in page and c2[:12] in page and c1[:12] in page
    assert f"score_minutes: {old_score} -&gt; " in page
    assert f"claim {claim.pk}</a>: consistent -&gt; inconsistent" in page
    claim_page = client.get(f"/vendor/claims/{claim.pk}/").content.decode()
    assert f"consistent until {h.checked.date().isoformat()}, when score_minutes:" in claim_page
    assert "inconsistent since" in claim_page

    rows = list(csv.DictReader(io.StringIO(client.get("/changes/?format=csv").content.decode())))
    row = next(r for r in rows if r["path"] == result.source_path)
    assert (row["commit"], row["round"], row["url"]) == (c2, "v1.1", result.get_absolute_url())
    assert row["claims"] == f"claim {claim.pk}: consistent -> inconsistent"
    data = json.loads(client.get("/changes/?kind=value&format=json").content)
    assert data["schema"] == "benchdb.changes/1"
    assert [r["path"] for r in data["rows"]] == [result.source_path]
    assert not json.loads(client.get("/changes/?kind=withdrawn&format=json").content)["rows"]
    feed = client.get("/changes/feed/?round=v1.1")
    assert feed["Content-Type"].startswith("application/atom+xml")
    body = feed.content.decode()
    assert result.source_path in body and "consistent -&gt; inconsistent" in body
    table = client.get("/rounds/v1.1/").content.decode()
    assert f'{result.get_absolute_url()}#history" title="changed since publication: value' in table


def test_a_result_whose_folder_is_removed_is_tombstoned_and_its_permalink_answers_200(
    synced, client: Client
):
    """The claim it backed is checked again: a withdrawn result backs no claim."""
    repo, source, claim, c1 = synced
    gone = POD128.split("/", 1)[1]
    shutil.rmtree(repo.path / POD128)
    c2 = repo.commit("Graphcore IPU-POD128 resnet withdrawn")
    assert run_sync(source).state == "succeeded"
    result = Result.objects.get(round__version="v1.1", source_path=gone)  # never deleted
    (v,) = ResultVersion.objects.filter(result=result)
    assert (v.kind_list, v.commit, v.tombstone) == (["withdrawn"], c2, True)
    assert v.changes == [{"field": "path", "old": gone, "new": None, "kind": "withdrawn"}]
    resp = client.get(result.get_absolute_url())
    assert resp.status_code == 200
    assert f"Withdrawn at commit <code>{c2[:12]}</code>" in resp.content.decode()
    claim.refresh_from_db()
    (h,) = ClaimVerdictVersion.objects.filter(claim=claim)
    assert (h.verdict_before, h.verdict, h.cause_id) == ("consistent", claim.verdict, v.pk)
    assert claim.verdict != "consistent" and not claim.links.filter(result=result).exists()
    text = client.get(f"/vendor/claims/{claim.pk}/").content.decode()
    when = h.checked.date().isoformat()
    assert f"consistent until {when}, when the result was withdrawn; {claim.verdict} since" in text
    # A second sync does not tombstone it again.
    assert run_sync(source, full=True).state == "succeeded"
    assert ResultVersion.objects.filter(result=result).count() == 1


def test_a_system_moved_to_open_is_a_division_change_named_in_the_verdict_history(
    synced, client: Client
):
    """A training result's division lives in its systems file: moving it to open is
    a change of every result of that system, and the claim's history says so."""
    repo, source, claim, c1 = synced
    path = repo.path / "training_results_v1.1/Graphcore/systems/ipu-pod128-TF1.json"
    text = path.read_text()
    assert '"division": "closed"' in text
    path.write_text(text.replace('"division": "closed"', '"division": "open"'))
    repo.commit("Graphcore IPU-POD128 moved to open after review")
    assert run_sync(source).state == "succeeded"
    versions = ResultVersion.objects.filter(path__startswith="Graphcore/results/ipu-pod128-TF1/")
    assert versions.count() == Result.objects.filter(system__folder="ipu-pod128-TF1").count() >= 1
    for v in versions:
        assert {"division"} <= set(v.kind_list)
        assert {
            "field": "division",
            "old": "closed",
            "new": "open",
            "kind": "division",
        } in v.changes
    (h,) = ClaimVerdictVersion.objects.filter(claim=claim)
    text = client.get(f"/vendor/claims/{claim.pk}/").content.decode()
    when = h.checked.date().isoformat()
    assert f"{h.verdict_before} until {when}, when the result was moved to open" in text

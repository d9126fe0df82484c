"""The history pages on real data (../shared/mlperf-inference, v5.1 with its
summary_results.json): an ID shifted in the published table, as inference_results_v5.1
f6a497e1 did, is seen by the ingest (ingest.history_published), kept as a version and
shown on /changes/ (HTML, CSV, JSON), /ids/ (the new ID from summary_results.json at the
commit, the old one as former), the result page's History and the round table's mark."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from benchdb.mlperf.inference.selectors import inference_result_url
from benchdb.models import InferenceResult, ResultVersion, Round
from ingest.history_published import published_follow

COMMIT = "f6a497e1" + "0" * 32


@pytest.fixture
def shifted(db, ingested_inference):  # type: ignore[no-untyped-def]
    table = json.loads(
        (
            Path(settings.MLPERF_INFERENCE_DATA) / "inference_results_v5.1/summary_results.json"
        ).read_text()
    )
    rnd = Round.objects.get(suite="inference", version="v5.1")
    result = InferenceResult.objects.filter(round=rnd).exclude(result_id="").first()
    assert result is not None
    old = result.result_id
    published = {r["Location"]: r for r in table}
    published[result.source_path] = {**published[result.source_path], "ID": "5.1-0999"}
    assert published_follow(rnd=rnd, published=published, commit=COMMIT) == 1
    assert published_follow(rnd=rnd, published=published, commit=COMMIT) == 0
    result.refresh_from_db()
    return result, old


def test_an_id_shift_in_the_published_table_is_a_version(shifted):
    result, old = shifted
    assert result.result_id == "5.1-0999"
    (v,) = ResultVersion.objects.filter(inference_result=result)
    assert v.changes == [{"field": "result_id", "old": old, "new": "5.1-0999", "kind": "id"}]
    assert (v.commit, v.kind_list, v.before["result_id"]) == (COMMIT, ["id"], old)


def test_changes_page_csv_json_and_query_count(shifted, client: Client, django_assert_num_queries):
    result, old = shifted
    with django_assert_num_queries(3):  # the count (pages); versions with their results; claims
        html = client.get("/changes/", {"suite": "inference", "kind": "id"}).content.decode()
    assert f"result_id: {old} -&gt; 5.1-0999" in html and COMMIT[:12] in html
    rows = json.loads(client.get("/changes/?format=json&round=v5.1").content)["rows"]
    assert [(r["path"], r["changes"], r["kinds"]) for r in rows] == [
        (result.source_path, f"result_id: {old} -> 5.1-0999", "id")
    ]
    csv_text = client.get("/changes/?format=csv&submitter=nomatch").content.decode()
    assert csv_text.splitlines()[1:] == []
    assert client.get("/changes/?kind=nonsense").status_code == 400


def test_ids_page_gives_each_id_its_source(shifted, client: Client, django_assert_num_queries):
    result, old = shifted
    with django_assert_num_queries(5):  # training IDs, citations, inference IDs, claims, versions
        resp = client.get("/ids/", {"round": "v5.1", "format": "json"})
    rows = json.loads(resp.content)["rows"]
    assert {
        "result_id": "5.1-0999",
        "suite": "inference",
        "round": "v5.1",
        "origin": "summary_results.json",
        "source": f"summary_results.json at {result.commit[:12]}"
        if result.commit
        else "summary_results.json in a plain folder (no commit)",
        "result": result.source_path,
        "url": inference_result_url(
            "v5.1", result.system.submitter_folder, result.system.folder, result.source_path
        ),
    } in rows
    former = [r for r in rows if r["origin"] == "former"]
    assert [(r["result_id"], r["result"]) for r in former] == [(old, result.source_path)]
    assert former[0]["source"] == f"replaced by 5.1-0999 at commit {COMMIT[:12]} (ingest)"
    assert "5.1-0999" in client.get("/ids/?q=0999").content.decode()


def test_result_page_and_round_table_show_the_change(shifted, client: Client):
    result, old = shifted
    url = inference_result_url(
        "v5.1", result.system.submitter_folder, result.system.folder, result.source_path
    )
    page = client.get(url).content.decode()
    assert 'id="history"' in page and f"result_id: {old} -&gt; 5.1-0999" in page
    table = client.get("/inference/v5.1/").content.decode()
    assert f'href="{url}#history" title="changed since publication: id"' in table
    feed = client.get("/changes/feed/?suite=inference").content.decode()
    assert f"result_id: {old} -&gt; 5.1-0999" in feed

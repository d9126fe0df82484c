"""Search (issue 13): one free-text box that matches names as people write them, and
parameters a page does not know refused with a message; on ../shared/mlperf."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from benchdb.models import Result

pytestmark = pytest.mark.django_db


def _search(client, **params) -> list[dict]:
    resp = client.get(reverse("benchdb:results"), {**params, "format": "json"})
    assert resp.status_code == 200, resp.content[:300]
    return json.loads(resp.content)["rows"]


def test_dgx_a100_finds_nvidias_dgx_a100_results(client, ingested_shared):
    rows = _search(client, q="DGX A100")
    want = set(
        Result.objects.filter(system__folder__startswith="dgxa100").values_list("id", flat=True)
    )
    assert len(want) == 9 and {r["id"] for r in rows} == want
    assert {r["submitter"] for r in rows} == {"NVIDIA"}


def test_names_match_whatever_their_dashes_case_and_spaces(client, ingested_shared):
    pod16 = {r["system"] for r in _search(client, q="IPU-POD16")}
    assert "ipu-pod16-TF1" in pod16 and pod16 == {
        r["system"] for r in _search(client, q="ipupod 16")
    }
    assert all("pod16" in s.lower().replace("-", "") for s in pod16)
    # every word must match somewhere: Baidu's BERT on Graphcore IPUs is found too
    rows = _search(client, q="graphcore bert")
    assert {(r["submitter"], r["benchmark"]) for r in rows} == {
        ("Graphcore", "bert"),
        ("Baidu", "bert"),
    }
    assert all("Graphcore" in r["accelerator_model"] for r in rows)
    assert _search(client, q="v1.1 resnet graphcore") == _search(
        client, round="v1.1", benchmark="resnet", submitter="graphcore"
    )
    assert _search(client, q="no-such-system-anywhere") == []


def test_every_page_carries_the_search_box(client, ingested_shared):
    for url in ("/", reverse("benchdb:results"), "/vendor/", reverse("benchdb:api")):
        html = client.get(url).content.decode()
        assert 'role="search"' in html and 'name="q"' in html, url


@pytest.mark.parametrize(
    "url",
    ["/leaderboard/v1.1/resnet/?q=graphcore", "/?submitter=x", "/results/?qq=graphcore"],
)
def test_an_unknown_parameter_is_refused_with_a_message(client, ingested_shared, url):
    resp = client.get(url)
    assert resp.status_code == 400
    name = url.split("?", 1)[1].split("=", 1)[0]
    assert f"unknown parameter &#x27;{name}&#x27;" in resp.content.decode()

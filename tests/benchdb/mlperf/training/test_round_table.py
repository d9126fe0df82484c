"""The round table and a system's history (issue 13), on ../shared/mlperf: one row per
system and division, a score column per benchmark, filters and order in the URL, the same
rows as CSV and JSON; scores as in official_scores.csv."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.urls import reverse

from benchdb.models import System

pytestmark = pytest.mark.django_db


def _json(client, url: str, **params) -> dict:
    resp = client.get(url, {**params, "format": "json"})
    assert resp.status_code == 200, resp.content[:300]
    return json.loads(resp.content)


def test_v20_closed_has_a_row_per_system_with_each_benchmarks_official_score(
    client, ingested_shared, official_scores, django_assert_num_queries
):
    url = reverse("benchdb:round_table", args=["v2.0"])
    with django_assert_num_queries(3):  # the round; the results with their joins; changes
        # since publication (the marks)
        client.get(url, {"division": "closed"})
    rows = _json(client, url, division="closed")["rows"]
    official = [r for r in official_scores if r["round"] == "v2.0" and r["division"] == "closed"]
    systems = {(r["submitter"], r["system"]) for r in official}
    assert len(rows) == len(systems)
    by_system = {r["system"]: r for r in rows}
    for o in official:
        row = by_system[o["system"]]
        assert row[f"{o['benchmark']}_minutes"] == pytest.approx(float(o["score_minutes"]), 1e-4)
    assert {r["submitter"] for r in rows} >= {"Graphcore", "Baidu"}
    assert all(r["division"] == "closed" for r in rows)
    baidu = [r for r in rows if r["submitter"] == "Baidu"]
    assert baidu and all(r["details"].startswith("/systems/training/v2.0/Baidu/") for r in baidu)
    assert all(
        r["logs"].startswith("https://github.com/mlcommons/training_results_v2.0/tree/8437fbb")
        for r in rows
    )


def test_the_html_csv_and_json_agree_and_sort_by_a_benchmark(client, ingested_shared):
    url = reverse("benchdb:round_table", args=["v2.0"])
    doc = _json(client, url, sort="bert")
    scores = [r["bert_minutes"] for r in doc["rows"] if r["bert_minutes"] is not None]
    assert scores == sorted(scores) and len(scores) >= 5
    assert doc["rows"][-1]["bert_minutes"] is None or len(scores) == len(doc["rows"])
    text = client.get(url, {"sort": "bert", "format": "csv"}).content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["system"] for r in rows] == [r["system"] for r in doc["rows"]]
    html = client.get(url, {"sort": "bert"}).content.decode()
    shown = re.findall(r'<td class="sys"><a href="([^"]+)"', html)
    assert shown == [r["details"] for r in doc["rows"]]


def test_every_round_in_one_table_and_an_unknown_round(client, ingested_shared):
    rows = _json(client, reverse("benchdb:round_table_all"))["rows"]
    assert {r["round"] for r in rows} == {"v1.0", "v1.1", "v2.0"}
    assert client.get(reverse("benchdb:round_table", args=["v9.9"])).status_code == 404
    assert client.get(reverse("benchdb:round_table_all"), {"sort": "x"}).status_code == 400


def test_a_system_page_shows_its_history_across_rounds(client, ingested_shared):
    """Graphcore's 16-IPU PopART BERT system in v1.0, v1.1 and v2.0 (Bow)."""
    system = System.objects.get(round__version="v1.1", folder="ipu-pod16-POPART-closed")
    html = client.get(system.get_absolute_url()).content.decode()
    history = html.split('id="history"', 1)[1].split("</table>", 1)[0]
    rounds = re.findall(r"<tr><td>(v[\d.]+)</td>", history)
    assert "v1.0" in rounds and "v2.0" in rounds and "v1.1" in rounds  # v1.1: other sizes
    assert rounds == sorted(rounds, key=lambda v: tuple(map(int, v[1:].split("."))))

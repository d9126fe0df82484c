"""``manage.py export results``: CSV and JSON that agree with the official scores."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db

REQUIRED = [
    "round",
    "submitter",
    "system",
    "division",
    "availability",
    "benchmark",
    "accelerator_model",
    "accelerators",
    "nodes",
    "framework",
    "score_minutes",
    "runs_counted",
    "runs_failed",
    "scaling_factor",
    "status",
    "reason",
    "source",
]


def _export(*args: str) -> str:
    out = io.StringIO()
    call_command("export", "results", *args, stdout=out)
    return out.getvalue()


def test_csv_has_one_row_per_result_with_the_official_scores(ingested_shared, official_scores):
    rows = list(csv.DictReader(io.StringIO(_export("--format", "csv", "--round", "v1.1"))))
    assert set(REQUIRED) <= set(rows[0])
    official = {
        (r["submitter"], r["system"], r["benchmark"]): float(r["score_minutes"])
        for r in official_scores
        if r["round"] == "v1.1"
    }
    mine = {(r["submitter"], r["system"], r["benchmark"]): float(r["score_minutes"]) for r in rows}
    assert mine.keys() == official.keys()
    for key, value in official.items():
        assert mine[key] == pytest.approx(value, rel=1e-12)


def test_json_agrees_with_csv_and_filters_by_submitter_and_benchmark(ingested_shared):
    args = ("--submitter", "graphcore", "--benchmark", "resnet")
    doc = json.loads(_export("--format", "json", *args))
    rows = list(csv.DictReader(io.StringIO(_export("--format", "csv", *args))))
    assert doc["schema"] == "benchdb.results/1" and doc["columns"][: len(rows[0])] == list(rows[0])
    assert len(doc["rows"]) == len(rows) == 10  # 2 in v1.0, 4 in v1.1, 4 in v2.0
    assert {r["submitter"] for r in doc["rows"]} == {"Graphcore"}
    for j, c in zip(doc["rows"], rows, strict=True):
        assert j["score_minutes"] == float(c["score_minutes"])
        assert j["accelerators"] == int(c["accelerators"])
        assert c["source"].startswith("https://github.com/mlcommons/training_results_")

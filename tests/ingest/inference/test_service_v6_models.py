"""tests/data/inference-v6 ingested as ``make demo`` ingests it: the new models of
v6.0 (whisper, llama3.1-8b, qwen3-vl-235b-a22b) stored with the values of the round's
checker (tests/data/inference-v6/official/, origin in tests/data/README.md), and the
v6.1 qwen3-vl-235b-a22b result page showing the round's rules."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from django.test import Client

from benchdb.models import InferenceResult
from ingest.inference.service import mlperf_inference_ingest

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[2] / "data" / "inference-v6"
NEW_MODELS = {"whisper", "llama3.1-8b", "qwen3-vl-235b-a22b"}
QWEN_V61 = "/inference/v6.1/results/closed/NVIDIA/B300-SXM-270GBx8_TRT/qwen3-vl-235b-a22b"


def test_the_new_v60_models_are_stored_as_the_checker_printed(client: Client) -> None:
    """Value, unit and status of every v6.0 row of the checker's CSV for a new model;
    the v6.1 Offline page names the rules applied and why it is unverifiable here."""
    mlperf_inference_ingest(location=str(DATA), workers=1)
    with open(DATA / "official" / "checker_6d0cf9dc_v6.0.csv", newline="") as f:
        want = {
            (r["Platform"], r["Model"], r["Scenario"]): ("valid", float(r["Result"]), r["Units"])
            for r in csv.DictReader(f)
            if r["Model"] in NEW_MODELS
        }
    got = {
        (r.source_path.split("/")[3], r.benchmark, r.scenario): (r.status, r.value, r.unit)
        for r in InferenceResult.objects.filter(round__version="v6.0", benchmark__in=NEW_MODELS)
    }
    assert len(want) == 5 and got == want
    page = client.get(f"{QWEN_V61}/Offline/").content.decode()
    assert "129.358" in page and "Unverifiable here" in page
    assert "Validity: every rule the round" in page and "accuracy_not_compared" in page
    assert "F1_HIERARCHICAL" in page and "/performance/result_summary.json:" in page

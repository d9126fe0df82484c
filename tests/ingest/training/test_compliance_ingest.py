"""Full compliance on ingest: the v3.0 Lenovo BERT result (real logs, tests/data/training)
is rejected, each run naming the rule it breaks, and the page shows it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from benchdb.models import Result, Run
from ingest.training.service import mlperf_training_ingest

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[2] / "data" / "training" / "training_results_v3.0"
RULE = "training_3.0.0/closed_bert.yaml opt_lamb_epsilon"


def test_the_lenovo_v30_bert_result_is_rejected_naming_opt_lamb_epsilon(client: Client) -> None:
    report = mlperf_training_ingest(location=str(DATA), workers=1)
    assert report.results_seen == 1
    result = Result.objects.get(benchmark__key="bert", system__submitter__name="Lenovo")
    assert result.round.version == "v3.0"
    assert result.status == Result.Status.UNSCORED
    assert result.score_minutes is None
    assert result.reason == "too many failed runs: 2 (at most 1)"
    runs = list(result.runs.order_by("index"))
    assert [r.role for r in runs] == [Run.Role.FAILED, Run.Role.FAILED]
    for run in runs:
        assert run.failure_reason.startswith(f"compliance: {RULE}: Required EXACTLY_ONE")
        assert run.compliance_ruleset == "training_3.0.0"
        assert [(f["source"], f["rule"], f["severity"]) for f in run.compliance] == [
            ("training_3.0.0/closed_bert.yaml", "opt_lamb_epsilon", "error")
        ]
    page = client.get(result.get_absolute_url())
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="compliance-findings"' in html
    assert html.count("<code>opt_lamb_epsilon</code>") == 2
    again = mlperf_training_ingest(location=str(DATA), workers=1)
    assert again.unchanged == 1

"""MLPerf HPC claims are checked against MLPerf HPC results (ingest.claims.facts puts
HPC's strong-scaling results among the facts, suite ``hpc``; weak-scaling results have
no time to train and are left out). On the real subset tests/data/hpc; the expected
figure is the summarizer's score quoted in tests/ingest/hpc/test_service.py
(``mlperf_logging`` at hpc-3.0.0), not benchdb's output."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command

from ingest.claims import facts as claim_facts
from ingest.claims.check import claims_check

DATA = Path(__file__).resolve().parents[2] / "data" / "hpc"
#: Clemson 18xR750-2xA100-PCIe-80GB, strong openfold, v3.0: the summarizer's score.
CLEMSON_OPENFOLD = 263.52031686921305
pytestmark = pytest.mark.django_db


@pytest.fixture
def hpc(db: None) -> None:
    call_command("ingest", "mlperf-hpc", str(DATA), "--json", stdout=io.StringIO())


def test_hpc_strong_scaling_results_are_facts_of_suite_hpc(hpc: None) -> None:
    """The four strong results (v0.7 cosmoflow, v1.0 deepcam, v3.0 oc20 and openfold),
    not the three weak ones."""
    facts = claim_facts.result_facts(suite="hpc")
    assert {(f.round, f.benchmark) for f in facts} == {
        ("v0.7", "cosmoflow"),
        ("v1.0", "deepcam"),
        ("v3.0", "oc20"),
        ("v3.0", "openfold"),
    }
    assert {f.suite for f in facts} == {"hpc"}
    hpc_keys = {"cosmoflow", "deepcam", "oc20", "openfold"}
    assert not [f for f in claim_facts.result_facts(suite="training") if f.benchmark in hpc_keys]


def test_a_time_on_an_hpc_benchmark_is_checked_against_the_hpc_result(hpc: None) -> None:
    """Clemson's words: it trained OpenFold in 263.5 minutes on 36 A100 GPUs in MLPerf
    HPC v3.0: consistent with its own result, 263.52 min; 200 minutes is not."""
    out = claims_check(
        text="In MLPerf HPC v3.0, Clemson trained OpenFold in 263.5 minutes on 36 A100 GPUs."
    )
    (row,) = [r for r in out["claims"] if r["kind"] == "time"]
    assert row["verdict"] == "consistent"
    assert row["recomputed_value"] == pytest.approx(CLEMSON_OPENFOLD)
    slow = claims_check(
        text="In MLPerf HPC v3.0, Clemson trained OpenFold in 200 minutes on 36 A100 GPUs."
    )
    (row,) = [r for r in slow["claims"] if r["kind"] == "time"]
    assert row["verdict"] == "inconsistent"

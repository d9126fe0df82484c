"""MLPerf Training v6.0 flux1, a benchmark new in v5.1 kept in v6.0: AMD's
8xMI325X_EPYC_9575F_pytorch result in ``tests/data/training-v6.0`` (10 runs read from a
public fork of training_results_v6.0, see tests/data/README.md), scored by benchdb and
compared with what mlcommons/logging at 6.0.0-rc6 printed on the same files (the
figures below are copied from its output, not computed by benchdb):

    PYTHONPATH=<logging at 6.0.0-rc6> python -m mlperf_logging.result_summarizer \
        <copy>/AMD training 6.0.0 --csv out.csv

``out_detailed.csv``: ``flux1:time_to_train`` 92.36037291666666, ``RCP`` Pass,
``rcp_scaling_factor`` 1.0, ``samples_to_converge`` 11304960.0, ``GBS`` 2048.0; the
per-run times (minutes) are its ``_compute_strong_score_standalone(...,
return_full_scores=True)``. ``python -m mlperf_logging.rcp_checker --rcp_usage training
--rcp_version 6.0.0 --verbose <folder>``: "Submission mean epochs: 11304960.0000",
record ``flux_ref_2048`` ("RCP Mean" 10296433.777777778), "RCP test PASSED";
``python -m mlperf_logging.compliance_checker --usage training --ruleset 6.0.0`` on each
of the 10 files: "SUCCESS".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchdb.models import Result, Run
from ingest.training.service import mlperf_training_ingest

pytestmark = pytest.mark.django_db

TREE = Path(__file__).resolve().parents[2] / "data" / "training-v6.0" / "training_results_v6.0"
FOLDER = "AMD/results/8xMI325X_EPYC_9575F_pytorch/flux1"
TIME_TO_TRAIN = 92.36037291666666
RUN_MINUTES = {
    "result_0.txt": 81.15041666666667,
    "result_1.txt": 96.52860000000001,
    "result_2.txt": 98.4465,
    "result_3.txt": 81.23813333333334,
    "result_4.txt": 102.62251666666667,
    "result_5.txt": 98.72664999999999,
    "result_6.txt": 85.68339999999999,
    "result_7.txt": 90.03463333333333,
    "result_8.txt": 91.97116666666668,
    "result_9.txt": 96.25389999999999,
}


@pytest.fixture
def result() -> Result:
    mlperf_training_ingest(location=str(TREE), round_version="v6.0", workers=1)
    return Result.objects.select_related("round", "benchmark").get(source_path=FOLDER)


def test_the_score_and_runs_equal_the_summarizer(result: Result) -> None:
    """The olympic mean of 8 of 10 runs (fastest result_0 and slowest result_4 out)."""
    assert (result.round.version, result.benchmark.key) == ("v6.0", "flux1")
    assert result.score_minutes == pytest.approx(TIME_TO_TRAIN, rel=1e-12)
    runs = {r.file_name: r for r in result.runs.all()}
    assert {name: r.time_to_train_minutes for name, r in runs.items()} == pytest.approx(
        RUN_MINUTES, rel=1e-12
    )
    assert not [r for r in runs.values() if r.failure_reason]
    dropped = sorted(n for n, r in runs.items() if r.role != Run.Role.COUNTED)
    assert dropped == ["result_0.txt", "result_4.txt"]


def test_the_result_page_shows_the_rules_and_the_rcp_check(client, result: Result) -> None:
    """The round's rules (quality target 0.586, 10 runs) and the RCP check the
    summarizer passed: mean samples to converge 11304960 against flux_ref_2048."""
    html = client.get(result.get_absolute_url()).content.decode()
    assert "mlperf_logging 6.0.0-rc6 rules" in html
    assert 'id="runs-required">(the round asks for 10' in html
    assert 'id="quality-target">&le; 0.586</span>' in html
    assert "RCP found (global batch size 2048: runs’ mean 11304960 vs RCP mean 10296433" in html

"""MLPerf Training v6.0 llama31_8b, one of the round's new benchmarks: AMD's
MI355X_EPYC_9575F_primus result in ``tests/data/training-v6.0`` (10 runs read from a
public fork of training_results_v6.0, see tests/data/README.md), scored by benchdb and
compared with what mlcommons/logging's result summarizer at 6.0.0-rc6 printed on the
same files (the figures below are copied from its output, not computed by benchdb):

    PYTHONPATH=<logging at 6.0.0-rc6> python -m mlperf_logging.result_summarizer \
        <copy>/AMD training 6.0.0 --csv out.csv

``out_detailed.csv``: ``llama31_8b:time_to_train`` 86.8447, ``RCP`` Pass,
``rcp_scaling_factor`` 1.0, ``samples_to_converge`` 185856.0, ``GBS`` 32.0; the
per-run times (minutes) are its ``_compute_strong_score_standalone(...,
return_full_scores=True)``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchdb.models import Result, Run
from ingest.training.service import mlperf_training_ingest

pytestmark = pytest.mark.django_db

TREE = Path(__file__).resolve().parents[2] / "data" / "training-v6.0" / "training_results_v6.0"
FOLDER = "AMD/results/MI355X_EPYC_9575F_primus/llama31_8b"
TIME_TO_TRAIN = 86.8447
RUN_MINUTES = {
    "result_0.txt": 86.27373333333334,
    "result_1.txt": 85.8888,
    "result_2.txt": 86.09075,
    "result_3.txt": 91.98988333333332,
    "result_4.txt": 86.30233333333332,
    "result_5.txt": 91.8427,
    "result_6.txt": 86.04073333333334,
    "result_7.txt": 86.13301666666666,
    "result_8.txt": 85.96335,
    "result_9.txt": 86.11098333333334,
}


@pytest.fixture
def result() -> Result:
    mlperf_training_ingest(location=str(TREE), round_version="v6.0", workers=1)
    return Result.objects.select_related("round", "benchmark").get(source_path=FOLDER)


def test_the_score_and_runs_equal_the_summarizer(result: Result) -> None:
    """The olympic mean of 8 of 10 runs (fastest result_1 and slowest result_3 out)."""
    assert (result.round.version, result.benchmark.key) == ("v6.0", "llama31_8b")
    assert result.score_minutes == pytest.approx(TIME_TO_TRAIN, rel=1e-12)
    runs = {r.file_name: r for r in result.runs.all()}
    assert {name: r.time_to_train_minutes for name, r in runs.items()} == pytest.approx(
        RUN_MINUTES, rel=1e-12
    )
    assert not [r for r in runs.values() if r.failure_reason]
    dropped = sorted(n for n, r in runs.items() if r.role != Run.Role.COUNTED)
    assert dropped == ["result_1.txt", "result_3.txt"]


def test_the_result_page_shows_the_rules_and_the_rcp_check(client, result: Result) -> None:
    """The round's rules (quality target, runs asked for) and the RCP check the
    summarizer passed, with its mean samples to converge (185856)."""
    html = client.get(result.get_absolute_url()).content.decode()
    assert "mlperf_logging 6.0.0-rc6 rules" in html
    assert 'id="runs-required">(the round asks for 10' in html
    assert 'id="quality-target">&le; 3.3</span>' in html
    assert "RCP found (global batch size 32: runs’ mean 185856 vs RCP mean" in html

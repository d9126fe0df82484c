"""MLPerf Training v6.0 deepseekv3_671b, a benchmark new in v6.0: NVIDIA's
theia_ngpu256_ngc26.04_nemo result in ``tests/data/training-v6.0`` (3 runs and the
systems file, read from a public fork of training_results_v6.0, see
tests/data/README.md), scored by benchdb and compared with what mlcommons/logging at
6.0.0-rc6 printed on the same files (the figures below are copied from its output, not
computed by benchdb):

    PYTHONPATH=<logging at 6.0.0-rc6> python -m mlperf_logging.result_summarizer \
        <copy>/NVIDIA training 6.0.0 --csv out.csv

``out_detailed.csv``: ``deepseekv3_671b:time_to_train`` 33.4302 (3 runs: the olympic mean
drops the fastest and the slowest), ``GBS`` 15360.0, ``samples_to_converge`` 752640.0,
``RCP`` Pass, ``rcp_scaling_factor`` 1.0; the per-run times (minutes) are its
``_compute_strong_score_standalone(..., return_full_scores=True)``. ``python -m
mlperf_logging.rcp_checker --rcp_usage training --rcp_version 6.0.0 --verbose <folder>``:
record ``deepseekv3_671b_ref_15360`` ("RCP Mean" 725760.0), "Submission mean epochs:
752640.0000", "RCP found, RCP test PASSED". ``python -m mlperf_logging.compliance_checker
--usage training --ruleset 6.0.0`` on each of the 3 files: "SUCCESS".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from benchdb.models import Result, Run
from ingest.training.service import mlperf_training_ingest

pytestmark = pytest.mark.django_db

TREE = Path(__file__).resolve().parents[2] / "data" / "training-v6.0" / "training_results_v6.0"
FOLDER = "NVIDIA/results/theia_ngpu256_ngc26.04_nemo/deepseekv3_671b"
TIME_TO_TRAIN = 33.4302
RUN_MINUTES = {
    "result_0.txt": 34.08871666666667,
    "result_1.txt": 33.4302,
    "result_2.txt": 32.74798333333333,
}


@pytest.fixture
def result() -> Result:
    mlperf_training_ingest(location=str(TREE), round_version="v6.0", workers=1)
    return Result.objects.select_related("round", "benchmark").get(source_path=FOLDER)


def test_the_score_and_runs_equal_the_summarizer(result: Result) -> None:
    """3 runs, the round's count for this benchmark: only the middle one is counted."""
    assert (result.round.version, result.benchmark.key) == ("v6.0", "deepseekv3_671b")
    assert result.score_minutes == pytest.approx(TIME_TO_TRAIN, rel=1e-12)
    assert result.scaling_factor == 1.0
    runs = {r.file_name: r for r in result.runs.all()}
    assert {name: r.time_to_train_minutes for name, r in runs.items()} == pytest.approx(
        RUN_MINUTES, rel=1e-12
    )
    assert not [r for r in runs.values() if r.failure_reason]
    counted = sorted(n for n, r in runs.items() if r.role == Run.Role.COUNTED)
    assert counted == ["result_1.txt"]


def test_the_result_page_shows_the_rules_and_the_rcp_check(client, result: Result) -> None:
    """The round's rules (log perplexity target 3.6, 3 runs) and the RCP check the
    summarizer passed: mean samples to converge 752640 against deepseekv3_671b_ref_15360."""
    html = client.get(result.get_absolute_url()).content.decode()
    assert "mlperf_logging 6.0.0-rc6 rules" in html
    assert 'id="runs-required">(the round asks for 3' in html
    assert 'id="quality-target">&le; 3.6</span>' in html
    rcp = "RCP found (global batch size 15360: runs’ mean 752640 vs RCP mean 725760 to"
    assert rcp in html
    assert '<span title="33.4302 min">33.43</span> min' in html


def test_the_leaderboard_of_the_new_benchmark_lists_it(client, result: Result) -> None:
    board = client.get(reverse("benchdb:leaderboard", args=["v6.0", "deepseekv3_671b"]))
    html = board.content.decode()
    assert board.status_code == 200
    assert "Theia" in html and result.get_absolute_url() in html

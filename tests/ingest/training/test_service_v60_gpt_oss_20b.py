"""MLPerf Training v6.0 gpt_oss_20b, a benchmark new in v6.0: GigaComputing's
DLB2-CB3_pytorch result in ``tests/data/training-v6.0`` (10 runs, the submitter's
``scaling.json`` and the systems file, read from a public fork of training_results_v6.0,
see tests/data/README.md), scored by benchdb and compared with what mlcommons/logging at
6.0.0-rc6 printed on the same files (the figures below are copied from its output, not
computed by benchdb):

    PYTHONPATH=<logging at 6.0.0-rc6> python -m mlperf_logging.result_summarizer \
        <copy>/GigaComputing training 6.0.0 --csv out.csv

``out_detailed.csv``: ``gpt_oss_20b:time_to_train`` 18.054896044182456 (the olympic mean
of 8 runs times the RCP factor), ``GBS`` 36.0, ``samples_to_converge`` 236313.0, ``RCP``
Pass, ``rcp_scaling_factor`` 1.0110884011177266; the per-run times (minutes) are its
``_compute_strong_score_standalone(..., return_full_scores=True)``. ``python -m
mlperf_logging.rcp_checker --rcp_usage training --rcp_version 6.0.0 --verbose <folder>``:
interpolation record at BS 36 between gpt_oss_20b_ref_16 and gpt_oss_20b_ref_64, "RCP
Mean" 238933.3333333333, "Submission mean epochs: 236313.0000", "Score should be
normalized by factor of 238933.3333333333 / 236313.0 = 1.0110884011177266", "RCP test
PASSED" (the factor equals the submitter's own ``scaling.json``). ``python -m
mlperf_logging.compliance_checker --usage training --ruleset 6.0.0`` on each of the 10
files: "SUCCESS".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from benchdb.models import Result, Run
from ingest.training.service import mlperf_training_ingest

pytestmark = pytest.mark.django_db

TREE = Path(__file__).resolve().parents[2] / "data" / "training-v6.0" / "training_results_v6.0"
FOLDER = "GigaComputing/results/DLB2-CB3_pytorch/gpt_oss_20b"
TIME_TO_TRAIN = 18.054896044182456
RCP_FACTOR = 1.0110884011177266
RUN_MINUTES = {
    "result_0.txt": 17.566583333333334,
    "result_1.txt": 17.54328333333333,
    "result_2.txt": 17.679516666666668,
    "result_3.txt": 16.788283333333332,
    "result_4.txt": 18.685766666666666,
    "result_5.txt": 16.7536,
    "result_6.txt": 18.546216666666666,
    "result_7.txt": 18.719433333333335,
    "result_8.txt": 17.542033333333332,
    "result_9.txt": 18.50345,
}


@pytest.fixture
def result() -> Result:
    mlperf_training_ingest(location=str(TREE), round_version="v6.0", workers=1)
    return Result.objects.select_related("round", "benchmark").get(source_path=FOLDER)


def test_the_score_and_runs_equal_the_summarizer(result: Result) -> None:
    """The olympic mean of 8 of 10 runs (fastest result_5 and slowest result_7 out),
    times the RCP factor the summarizer applies."""
    assert (result.round.version, result.benchmark.key) == ("v6.0", "gpt_oss_20b")
    assert result.score_minutes == pytest.approx(TIME_TO_TRAIN, rel=1e-12)
    assert result.scaling_factor == pytest.approx(RCP_FACTOR, rel=1e-12)
    runs = {r.file_name: r for r in result.runs.all()}
    assert {name: r.time_to_train_minutes for name, r in runs.items()} == pytest.approx(
        RUN_MINUTES, rel=1e-12
    )
    assert not [r for r in runs.values() if r.failure_reason]
    dropped = sorted(n for n, r in runs.items() if r.role != Run.Role.COUNTED)
    assert dropped == ["result_5.txt", "result_7.txt"]


def test_the_result_page_shows_the_rules_and_the_rcp_check(client, result: Result) -> None:
    """The round's rules (log perplexity target 3.34, 10 runs) and the RCP check the
    summarizer passed: mean samples to converge 236313 against the interpolated RCP."""
    html = client.get(result.get_absolute_url()).content.decode()
    assert "mlperf_logging 6.0.0-rc6 rules" in html
    assert 'id="runs-required">(the round asks for 10' in html
    assert 'id="quality-target">&le; 3.34</span>' in html
    rcp = "RCP Interpolation (global batch size 36: runs’ mean 236313 vs RCP mean 238933.3333 to"
    assert rcp in html
    assert "<code>scaling.json</code> = 1.0110884011177266" in html
    assert '<span title="18.0549 min">18.05</span> min' in html


def test_the_leaderboard_of_the_new_benchmark_lists_it(client, result: Result) -> None:
    board = client.get(reverse("benchdb:leaderboard", args=["v6.0", "gpt_oss_20b"]))
    html = board.content.decode()
    assert board.status_code == 200
    assert "DLB2-CB3" in html and result.get_absolute_url() in html

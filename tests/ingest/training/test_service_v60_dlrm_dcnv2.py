"""MLPerf Training v6.0 dlrm_dcnv2: NVIDIA's theia_ngpu64_ngc26.03_hugectr result in
``tests/data/training-v6.0`` (10 runs, the submitter's ``scaling.json`` and the systems
file, read from a public fork of training_results_v6.0, see tests/data/README.md), scored
by benchdb and compared with what mlcommons/logging at 6.0.0-rc6 printed on the same
files (the figures below are copied from its output, not computed by benchdb):

    PYTHONPATH=<logging at 6.0.0-rc6> python -m mlperf_logging.result_summarizer \
        <copy>/NVIDIA training 6.0.0 --csv out.csv

``out_detailed.csv``: ``dlrm_dcnv2:time_to_train`` 0.6748221215320243 (the olympic mean
of 8 runs times the RCP factor), ``GBS`` 135168.0, ``samples_to_converge`` 0.905375
(epochs), ``RCP`` Pass, ``rcp_scaling_factor`` 1.0069216704862216; the per-run times
(minutes) are its ``_compute_strong_score_standalone(..., return_full_scores=True)``.
``python -m mlperf_logging.rcp_checker --rcp_usage training --rcp_version 6.0.0
--verbose <folder>``: interpolation record at BS 135168 between dlrm_dcnv2_ref_55296 and
dlrm_dcnv2_ref_160000, "RCP Mean" 0.9116417074164629, "Submission mean epochs: 0.9054",
"Score should be normalized by factor of 0.9116417074164629 / 0.905375 =
1.0069216704862216", "RCP Interpolation, RCP test PASSED" (the factor equals the
submitter's own ``scaling.json``). ``python -m mlperf_logging.compliance_checker --usage
training --ruleset 6.0.0`` on each of the 10 files: "SUCCESS".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from benchdb.models import Result, Run
from ingest.training.service import mlperf_training_ingest

pytestmark = pytest.mark.django_db

TREE = Path(__file__).resolve().parents[2] / "data" / "training-v6.0" / "training_results_v6.0"
FOLDER = "NVIDIA/results/theia_ngpu64_ngc26.03_hugectr/dlrm_dcnv2"
TIME_TO_TRAIN = 0.6748221215320243
RCP_FACTOR = 1.0069216704862216
RUN_MINUTES = {
    "result_0.txt": 0.6931333333333334,
    "result_1.txt": 0.7597,
    "result_2.txt": 0.7313999999999999,
    "result_3.txt": 0.6940666666666667,
    "result_4.txt": 0.6204833333333334,
    "result_5.txt": 0.6189,
    "result_6.txt": 0.6551833333333332,
    "result_7.txt": 0.6544333333333333,
    "result_8.txt": 0.6563166666666668,
    "result_9.txt": 0.6564500000000001,
}


@pytest.fixture
def result() -> Result:
    mlperf_training_ingest(location=str(TREE), round_version="v6.0", workers=1)
    return Result.objects.select_related("round", "benchmark").get(source_path=FOLDER)


def test_the_score_and_runs_equal_the_summarizer(result: Result) -> None:
    """The olympic mean of 8 of 10 runs (fastest result_5 and slowest result_1 out),
    times the RCP factor the summarizer applies."""
    assert (result.round.version, result.benchmark.key) == ("v6.0", "dlrm_dcnv2")
    assert result.score_minutes == pytest.approx(TIME_TO_TRAIN, rel=1e-12)
    assert result.scaling_factor == pytest.approx(RCP_FACTOR, rel=1e-12)
    runs = {r.file_name: r for r in result.runs.all()}
    assert {name: r.time_to_train_minutes for name, r in runs.items()} == pytest.approx(
        RUN_MINUTES, rel=1e-12
    )
    assert not [r for r in runs.values() if r.failure_reason]
    dropped = sorted(n for n, r in runs.items() if r.role != Run.Role.COUNTED)
    assert dropped == ["result_1.txt", "result_5.txt"]


def test_the_result_page_shows_the_rcp_check(client, result: Result) -> None:
    """The round's rules (AUC target 0.80275, 10 runs) and the RCP check the summarizer
    passed: mean epochs to converge 0.905375 against the RCP interpolated at BS 135168
    (0.9116417074164629), shown to 4 places as rcp_checker prints them."""
    html = client.get(result.get_absolute_url()).content.decode()
    assert "mlperf_logging 6.0.0-rc6 rules" in html
    assert 'id="runs-required">(the round asks for 10' in html
    assert 'id="quality-target">&ge; 0.80275</span>' in html
    rcp = "RCP Interpolation (global batch size 135168: runs’ mean 0.9054 vs RCP mean 0.9116 to"
    assert rcp in html
    assert "<code>scaling.json</code> = 1.0069216704862216" in html
    assert '<span title="0.6748 min">0.67</span> min' in html


def test_the_leaderboard_of_the_benchmark_lists_it(client, result: Result) -> None:
    board = client.get(reverse("benchdb:leaderboard", args=["v6.0", "dlrm_dcnv2"]))
    html = board.content.decode()
    assert board.status_code == 200
    assert "theia_ngpu64" in html and result.get_absolute_url() in html

"""A result's score from its runs' times (``benchdb.mlperf.training.scoring``): the
olympic mean, the scaling factor, v0.5 NCF; plain pytest, no database."""

from __future__ import annotations

import pytest

from benchdb.mlperf.training import rules as training_rules
from benchdb.mlperf.training import scoring as training_scoring

V11, V20 = training_rules.ruleset_for("v1.1"), training_rules.ruleset_for("v2.0")


@pytest.mark.parametrize(
    ("minutes", "max_dropped", "expected", "counted"),
    [
        # 5 runs: mean of the middle three
        ([30.0, 28.0, 29.0, 31.0, 27.0], 1, (28.0 + 29.0 + 30.0) / 3, 3),
        # one failed run counts as the slowest: drop the fastest only
        ([30.0, None, 29.0, 31.0, 27.0], 1, (29.0 + 30.0 + 31.0) / 3, 3),
        # 10 runs: middle eight
        ([float(i) for i in range(1, 11)], 1, sum(range(2, 10)) / 8, 8),
        # 3 runs (gpt3): the median
        ([3.0, 1.0, 2.0], 1, 2.0, 1),
        # unet3d: 40 runs, four dropped at each end
        ([float(i) for i in range(40)], 4, sum(range(4, 36)) / 32, 32),
        # unet3d with 3 failures: drop 4 fastest and 1 more slowest
        ([float(i) for i in range(37)] + [None] * 3, 4, sum(range(4, 36)) / 32, 32),
    ],
)
def test_olympic_mean_drops_fastest_and_slowest(minutes, max_dropped, expected, counted):
    score = training_scoring.olympic_mean(minutes, max_dropped)
    assert score.score_minutes == pytest.approx(expected, rel=1e-12)
    assert len(score.counted) == counted
    assert score.runs_failed == sum(m is None for m in minutes)


def test_olympic_mean_gives_no_score_when_too_many_runs_fail():
    score = training_scoring.olympic_mean([30.0, None, None, 31.0, 27.0], 1)
    assert score.score_minutes is None
    assert "too many failed runs: 2" in score.reason


def test_olympic_mean_gives_no_score_without_runs():
    assert training_scoring.olympic_mean([], 1).score_minutes is None


def test_olympic_mean_applies_the_scaling_factor():
    score = training_scoring.olympic_mean([1.0, 2.0, 3.0, 4.0, 5.0], 1, scaling_factor=1.023)
    assert score.mean_minutes == pytest.approx(3.0)
    assert score.score_minutes == pytest.approx(3.0 * 1.023)


def test_scaling_efficiency_is_relative_to_the_reference():
    # 16 accelerators in 28 min vs 64 in 8.5 min
    assert training_scoring.scaling_efficiency(28.0, 16, 8.5, 64) == pytest.approx(
        28 * 16 / (8.5 * 64)
    )


def test_v0_5_ncf_uses_the_first_50_converged_runs():
    # 100 runs: every third fails; converged times grow with the index
    minutes = [None if i % 3 == 0 else float(i) for i in range(100)]
    converged = [i for i in range(100) if i % 3]
    score, unused = training_scoring.score_result(
        minutes, training_rules.ruleset_for("v0.5"), "ncf"
    )
    first50 = converged[:50]
    assert score.score_minutes == pytest.approx(sum(first50[1:-1]) / 48)
    assert set(unused) == set(converged[50:])
    assert score.runs_failed == 34


def test_v0_5_ncf_needs_50_converged_runs():
    score, _ = training_scoring.score_result(
        [1.0] * 49 + [None] * 51, training_rules.ruleset_for("v0.5"), "ncf"
    )
    assert score.score_minutes is None and "only 49 of 100" in score.reason


def test_other_results_score_with_the_olympic_mean():
    minutes = [30.0, None, 29.0, 31.0, 27.0]
    score, unused = training_scoring.score_result(minutes, V11, "resnet")
    # 27 (index 4) is the fastest and dropped; the failed run is the slowest one
    assert unused == () and score.score_minutes == pytest.approx((29.0 + 30.0 + 31.0) / 3)
    assert sorted(score.counted) == [0, 2, 3] and score.dropped_fastest == (4,)
    assert score.dropped_slowest == (1,)


@pytest.mark.parametrize("factor", [float("nan"), -1.0, 0.0, 1e-320, 1e300, float("inf"), 10.5])
def test_an_impossible_scaling_factor_leaves_no_score(factor):
    score, _ = training_scoring.score_result([30.0, 31.0, 32.0, 33.0, 34.0], V20, "resnet", factor)
    assert score.score_minutes is None and score.scaling_factor == 1.0
    assert score.reason.startswith("scaling.json: scaling_factor must be in [0.01, 10]")
    assert score.mean_minutes == pytest.approx(32.0) and len(score.counted) == 3


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -5.0, 0.0, 5e-324, 50_000.0])
def test_a_time_outside_the_bounds_counts_as_a_failed_run(bad):
    score, _ = training_scoring.score_result([30.0, bad, 29.0, 31.0, 27.0], V11, "resnet")
    assert score.score_minutes == pytest.approx((29.0 + 30.0 + 31.0) / 3)
    assert score.runs_failed == 1

"""MLPerf Training scoring rules (``benchdb.mlperf.training.rules``): plain pytest, no database."""

from __future__ import annotations

import pytest

from benchdb import vocabulary
from benchdb.mlperf.training import rules as training_rules
from ingest.parsers.types import EvalPoint, ParsedRun


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
    score = training_rules.olympic_mean(minutes, max_dropped)
    assert score.score_minutes == pytest.approx(expected, rel=1e-12)
    assert len(score.counted) == counted
    assert score.runs_failed == sum(m is None for m in minutes)


def test_olympic_mean_gives_no_score_when_too_many_runs_fail():
    score = training_rules.olympic_mean([30.0, None, None, 31.0, 27.0], 1)
    assert score.score_minutes is None
    assert "too many failed runs: 2" in score.reason


def test_olympic_mean_gives_no_score_without_runs():
    assert training_rules.olympic_mean([], 1).score_minutes is None


def test_olympic_mean_applies_the_scaling_factor():
    score = training_rules.olympic_mean([1.0, 2.0, 3.0, 4.0, 5.0], 1, scaling_factor=1.023)
    assert score.mean_minutes == pytest.approx(3.0)
    assert score.score_minutes == pytest.approx(3.0 * 1.023)


def test_time_to_train_is_minutes_between_run_start_and_run_stop():
    assert training_rules.time_to_train(1_000_000.0, 1_000_000.0 + 90_000.0) == pytest.approx(1.5)


@pytest.mark.parametrize(
    ("name", "round_version", "key"),
    [
        ("mask", "v1.1", "maskrcnn"),
        ("ResNet-50 v1.5", "v1.1", "resnet"),
        ("ssd", "v1.1", "ssd"),
        ("ssd", "v2.0", "retinanet"),
        ("dlrm", "v2.1", "dlrm"),
        ("dlrm", "v3.0", "dlrm_dcnv2"),
        ("gnn", "v4.0", "rgat"),
        ("bert", "v0.7", "bert"),
    ],
)
def test_canonical_benchmark_follows_renames(name, round_version, key):
    assert vocabulary.canonical_benchmark(name, round_version) == key


def _run(**kw) -> ParsedRun:
    base = dict(
        path="x/result_0.txt",
        sha256="0",
        size=1,
        log_format="mllog",
        run_start_ms=0.0,
        run_start_line=10,
        run_stop_ms=60_000.0,
        run_stop_line=20,
        run_stop_status="success",
        run_stop_has_status=True,
        init_start_ms=0.0,
        init_stop_ms=1000.0,
        key_counts={"run_start": 1, "run_stop": 1, "weights_initialization": 1},
        evals=(EvalPoint(1.0, 0.76, 50_000.0, 15),),
        submission={"division": "closed"},
    )
    base.update(kw)
    return ParsedRun(**base)


V11, V20 = training_rules.ruleset_for("v1.1"), training_rules.ruleset_for("v2.0")


def test_a_converged_closed_run_counts():
    assert training_rules.run_failure(_run(), V11, "resnet", "closed") == (None, [])


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"run_stop_ms": None, "run_stop_line": None}, "run_stop not recorded"),
        ({"run_start_ms": None}, "run_start not recorded"),
        ({"evals": (EvalPoint(1.0, 0.70, 1.0, 15),)}, "quality target not reached"),
        ({"run_stop_has_status": False}, "run_stop has no status"),
        ({"init_stop_ms": 31 * 60_000.0}, "initialization took 31.0 min"),
        ({"log_format": "none"}, "not an MLPerf log"),
    ],
)
def test_a_closed_run_fails_for_the_rounds_reasons(change, reason):
    why, _ = training_rules.run_failure(_run(**change), V11, "resnet", "closed")
    assert why is not None and why.startswith(reason)


def test_open_division_has_no_quality_target():
    run = _run(evals=(EvalPoint(1.0, 0.70, 1.0, 15),), submission={"division": "open"})
    assert training_rules.run_failure(run, V11, "resnet", "open")[0] is None


def test_weights_initialization_is_a_warning_in_v1_1_and_an_error_in_v2_0():
    run = _run(key_counts={"run_start": 1, "run_stop": 1})
    assert training_rules.run_failure(run, V11, "resnet", "closed")[0] is None
    assert training_rules.run_failure(run, V11, "resnet", "closed")[1]
    assert "weights_initialization" in training_rules.run_failure(run, V20, "resnet", "closed")[0]


def test_identical_repeated_run_start_is_only_a_warning_but_differing_fails():
    twice = {"run_start": 2, "run_stop": 1, "weights_initialization": 1}
    assert training_rules.run_failure(_run(key_counts=twice), V11, "resnet", "closed")[0] is None
    why, _ = training_rules.run_failure(
        _run(key_counts=twice, repeated_differ=("run_start",)), V11, "resnet", "closed"
    )
    assert why and "run_start logged 2 times" in why


@pytest.mark.parametrize(
    ("bench", "value", "met"),
    [
        ("maskrcnn", {"BBOX": 0.378, "SEGM": 0.340}, True),
        ("maskrcnn", {"BBOX": 0.378, "SEGM": 0.338}, False),
        ("rnnt", 0.057, True),
        ("rnnt", 0.059, False),
        ("resnet", 1.0, False),  # the checker rejects accuracies of 1.0 and above
        ("unet3d", 0.91, True),
        ("stable_diffusion", {"FID": 89.0, "CLIP": 0.16}, True),
        ("stable_diffusion", {"FID": 89.0, "CLIP": 0.14}, False),
    ],
)
def test_quality_targets(bench, value, met):
    target = training_rules.ruleset_for("v4.0" if bench == "stable_diffusion" else "v1.1").target(
        bench, "closed"
    )
    assert target is not None and target.met_by(value) is met


def test_unet3d_drops_four_from_v1_0_only():
    assert training_rules.ruleset_for("v1.0").max_dropped("unet3d") == 4
    assert training_rules.ruleset_for("v1.1").max_dropped("resnet") == 1


def test_scaling_applies_from_v2_0():
    assert not training_rules.ruleset_for("v1.1").applies_scaling
    assert training_rules.ruleset_for("v2.0").applies_scaling


def test_scaling_efficiency_is_relative_to_the_reference():
    # 16 accelerators in 28 min vs 64 in 8.5 min
    assert training_rules.scaling_efficiency(28.0, 16, 8.5, 64) == pytest.approx(
        28 * 16 / (8.5 * 64)
    )


def test_v0_5_ncf_uses_the_first_50_converged_runs():
    # 100 runs: every third fails; converged times grow with the index
    minutes = [None if i % 3 == 0 else float(i) for i in range(100)]
    converged = [i for i in range(100) if i % 3]
    score, unused = training_rules.score_result(minutes, training_rules.ruleset_for("v0.5"), "ncf")
    first50 = converged[:50]
    assert score.score_minutes == pytest.approx(sum(first50[1:-1]) / 48)
    assert set(unused) == set(converged[50:])
    assert score.runs_failed == 34


def test_v0_5_ncf_needs_50_converged_runs():
    score, _ = training_rules.score_result(
        [1.0] * 49 + [None] * 51, training_rules.ruleset_for("v0.5"), "ncf"
    )
    assert score.score_minutes is None and "only 49 of 100" in score.reason


def test_other_results_score_with_the_olympic_mean():
    minutes = [30.0, None, 29.0, 31.0, 27.0]
    score, unused = training_rules.score_result(minutes, V11, "resnet")
    # 27 (index 4) is the fastest and dropped; the failed run is the slowest one
    assert unused == () and score.score_minutes == pytest.approx((29.0 + 30.0 + 31.0) / 3)
    assert sorted(score.counted) == [0, 2, 3] and score.dropped_fastest == (4,)
    assert score.dropped_slowest == (1,)


def test_unparseable_lines_fail_a_run_from_v0_7_only():
    run = _run(parse_error_count=3)
    assert (
        "3 log line(s) do not parse" in training_rules.run_failure(run, V11, "resnet", "closed")[0]
    )
    assert (
        training_rules.run_failure(run, training_rules.ruleset_for("v0.6"), "resnet", "closed")[0]
        is None
    )


def test_a_run_whose_times_are_not_numbers_fails():
    why, _ = training_rules.run_failure(_run(run_start_ms=float("nan")), V11, "resnet", "closed")
    assert why == "run_start/run_stop time is not a number"


# --- impossible numbers (issue 9): benchdb sanity bounds -----------------------------


@pytest.mark.parametrize(
    ("start", "stop", "reason"),
    [
        (60_000.0, 0.0, "run_stop is not after run_start (-1 min; benchdb sanity bound)"),
        (0.0, 0.0, "run_stop is not after run_start (0 min; benchdb sanity bound)"),
        (0.0, 0.5, "run_stop is not after run_start (8.333e-06 min; benchdb sanity bound)"),
        (-1.7e308, 1.7e308, "run_start/run_stop time is not a number"),
        (0.0, 31 * 24 * 3_600_000.0, "time to train 4.464e+04 min is not below 30 days"),
        (0.0, float("inf"), "run_start/run_stop time is not a number"),
    ],
)
def test_a_run_with_an_impossible_time_fails(start, stop, reason):
    why, _ = training_rules.run_failure(
        _run(run_start_ms=start, run_stop_ms=stop), V11, "resnet", "closed"
    )
    assert why is not None and why.startswith(reason)
    v05 = training_rules.ruleset_for("v0.5")
    assert training_rules.run_failure(_run(run_start_ms=start, run_stop_ms=stop), v05, "ncf", "")[0]


def test_a_second_run_stop_at_another_time_fails_the_run():
    counts = {"run_start": 1, "run_stop": 2, "weights_initialization": 1}
    run = _run(key_counts=counts, repeated_times=("run_stop",))
    why, _ = training_rules.run_failure(run, V11, "resnet", "closed")
    assert why == "run_stop logged 2 times at different times (benchdb sanity bound)"


def test_an_accuracy_too_large_for_a_float_does_not_raise():
    run = _run(evals=(EvalPoint(1.0, 10**400, 1.0, 15),))
    assert training_rules.run_failure(run, V11, "resnet", "closed")[0].startswith("quality target")
    run = _run(evals=(EvalPoint(1.0, 10**400, 1.0, 15),), submission={"division": "open"})
    assert "below 1.0" in training_rules.run_failure(run, V11, "resnet", "open")[0]


@pytest.mark.parametrize("factor", [float("nan"), -1.0, 0.0, 1e-320, 1e300, float("inf"), 10.5])
def test_an_impossible_scaling_factor_leaves_no_score(factor):
    score, _ = training_rules.score_result([30.0, 31.0, 32.0, 33.0, 34.0], V20, "resnet", factor)
    assert score.score_minutes is None and score.scaling_factor == 1.0
    assert score.reason.startswith("scaling.json: scaling_factor must be in [0.01, 10]")
    assert score.mean_minutes == pytest.approx(32.0) and len(score.counted) == 3


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -5.0, 0.0, 5e-324, 50_000.0])
def test_a_time_outside_the_bounds_counts_as_a_failed_run(bad):
    score, _ = training_rules.score_result([30.0, bad, 29.0, 31.0, 27.0], V11, "resnet")
    assert score.score_minutes == pytest.approx((29.0 + 30.0 + 31.0) / 3)
    assert score.runs_failed == 1


@pytest.mark.parametrize(
    ("benchmark", "division", "value", "reached"),
    [
        # closed_gpt_oss_20b.yaml at 6.0.0-rc6: (v <= 3.34) and v > 0.0
        ("gpt_oss_20b", "closed", 3.34, True),
        ("gpt_oss_20b", "closed", 3.3401, False),
        ("gpt_oss_20b", "closed", 0.0, False),
        # closed_deepseekv3_671b.yaml: (v <= 3.6) and v > 0.0
        ("deepseekv3_671b", "closed", 3.6, True),
        ("deepseekv3_671b", "closed", 3.61, False),
        # open_gpt_oss_20b.yaml / open_deepseekv3_671b.yaml keep the target in 6.0.0
        ("gpt_oss_20b", "open", 3.5, False),
        ("deepseekv3_671b", "open", 3.59, True),
        # unchanged since 5.1.0: llama31_8b 3.3, flux1 0.586
        ("llama31_8b", "closed", 3.3, True),
        ("flux1", "closed", 0.587, False),
    ],
)
def test_v60_quality_targets(benchmark: str, division: str, value: float, reached: bool) -> None:
    target = training_rules.ruleset_for("v6.0").target(benchmark, division)
    assert target is not None and not target.higher_is_better
    assert target.met_by(value) is reached


def test_v60_open_llama31_8b_has_no_target_and_v51_knows_no_gpt_oss() -> None:
    """open_llama31_8b.yaml asks only a value < 1.0 (no target); 5.1 had no gpt_oss_20b
    rules of its own, so its open division has none either."""
    assert training_rules.ruleset_for("v6.0").target("llama31_8b", "open") is None
    assert training_rules.ruleset_for("v5.1").target("gpt_oss_20b", "open") is None


def test_v60_is_scored_with_its_tag_and_the_same_olympic_mean() -> None:
    rules = training_rules.ruleset_for("v6.0")
    assert rules.tag == "6.0.0-rc6"
    assert rules.applies_scaling and rules.init_minutes == (30.0, 240.0)
    assert rules.max_dropped("gpt_oss_20b") == 1
    # deepseekv3_671b: 3 runs, the olympic mean of three is the median
    assert training_rules.olympic_mean([2.1, 2.0, 2.3], 1).score_minutes == 2.1


@pytest.mark.parametrize(
    ("round_version", "benchmark", "runs"),
    [
        ("v6.0", "gpt_oss_20b", 10),
        ("v6.0", "deepseekv3_671b", 3),
        ("v6.0", "llama31_405b", 3),
        ("v6.0", "dlrm_dcnv2", 10),
        ("v6.0", "bert", None),  # retired in 6.0 (11073f7 "drop bert")
        ("v5.1", "llama31_8b", None),
    ],
)
def test_runs_required_per_benchmark(round_version: str, benchmark: str, runs: int | None) -> None:
    assert training_rules.runs_required(round_version, benchmark) == runs

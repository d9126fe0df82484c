"""MLPerf Training scoring rules (``benchdb.mlperf.training.rules``): plain pytest, no database."""

from __future__ import annotations

import pytest

from benchdb import vocabulary
from benchdb.mlperf.training import rules as training_rules
from benchdb.mlperf.training import scoring as training_scoring
from ingest.parsers.types import EvalPoint, ParsedRun


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
    assert training_scoring.olympic_mean([2.1, 2.0, 2.3], 1).score_minutes == 2.1


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

"""MLPerf HPC rules (``benchdb.mlperf.hpc.rules``): pure, no database.

Expected values come from the summarizer's source at each tag (quoted in
``hpc_rules``) and from arithmetic done by hand in the comments."""

from __future__ import annotations

import pytest

from benchdb.mlperf.hpc import rules as hpc_rules


@pytest.mark.parametrize(
    ("version", "tag", "checked", "scaling"),
    [
        ("v0.7", "", False, False),
        ("v1.0", "hpc-1.0.0-rc2", True, False),
        ("v2.0", "2.1.0", True, True),
        ("v3.0", "hpc-3.0.0", True, True),
    ],
)
def test_each_round_has_its_tag(version: str, tag: str, checked: bool, scaling: bool) -> None:
    rules = hpc_rules.ruleset_for(version)
    assert (rules.tag, rules.checked, rules.applies_scaling) == (tag, checked, scaling)


def test_an_unknown_round_is_refused() -> None:
    with pytest.raises(ValueError, match="no MLPerf HPC round v1.1"):
        hpc_rules.ruleset_for("v1.1")


@pytest.mark.parametrize(
    ("version", "benchmark", "count"),
    [
        ("v1.0", "oc20", 10),  # benchmark_meta.py at hpc-1.0.0-rc2
        ("v2.0", "oc20", 5),  # commit 6d57529, in 2.1.0
        ("v3.0", "openfold", 10),
        ("v3.0", "deepcam", 5),
        ("v1.0", "cosmoflow", 10),
    ],
)
def test_weak_models_required(version: str, benchmark: str, count: int) -> None:
    assert hpc_rules.ruleset_for(version).weak_models_required(benchmark) == count


def test_openfold_is_not_a_v2_benchmark() -> None:
    with pytest.raises(KeyError):
        hpc_rules.ruleset_for("v2.0").weak_models_required("openfold")


@pytest.mark.parametrize(
    ("benchmark", "evals", "errors", "met"),
    [
        ("cosmoflow", [], [0.13, 0.124], True),  # <= 0.124 inclusive
        ("cosmoflow", [], [0.1245], False),
        ("cosmoflow", [], [0.0], False),  # > 0 required
        ("oc20", [], [0.036], True),
        ("deepcam", [0.82], [], True),
        ("deepcam", [0.8199], [], False),
        ("deepcam", [1.01], [], False),  # <= 1 required
        ("openfold", [0.8], [], True),
        ("cosmoflow", [0.1], [], False),  # eval_accuracy does not count for cosmoflow
        ("resnet", [0.9], [], None),
    ],
)
def test_targets(benchmark: str, evals: list[float], errors: list[float], met: object) -> None:
    assert hpc_rules.met_target(benchmark, evals, errors) is met


def test_instance_scale_counts_cpu_nodes_as_one_accelerator() -> None:
    assert hpc_rules.instance_scale({"number_of_nodes": 128, "accelerators_per_node": 4}) == 512
    assert hpc_rules.instance_scale({"number_of_nodes": 128, "accelerators_per_node": 0}) == 128
    assert hpc_rules.instance_scale({"number_of_nodes": 1}) is None


def test_weak_score_spans_first_start_to_last_stop() -> None:
    # Five deepcam models of 16 accelerators: starts at 0, 1 and 2 minutes, last stop at
    # 62 minutes; one failed run (None) is not a model. TTTa = 62 min, 5 models.
    m = 60_000.0
    runs = [(0.0, 30 * m, 16), (m, 62 * m, 16), None, (2 * m, 40 * m, 16)]
    runs += [(0.0, 20 * m, 16), (m, 21 * m, 16)]
    score = hpc_rules.weak_score(runs, hpc_rules.ruleset_for("v1.0"), "deepcam")
    assert (score.models, score.instance_scale, score.reason) == (5, 16, "")
    assert score.time_to_train_all_minutes == 62.0
    assert score.throughput_models_per_minute == pytest.approx(5 / 62)
    assert score.failed == (2,)


def test_weak_score_needs_the_rounds_model_count() -> None:
    # Seven oc20 models: enough in v2.0 (5), not in v1.0 (10).
    runs = [(0.0, 60_000.0, 512)] * 7
    assert hpc_rules.weak_score(runs, hpc_rules.ruleset_for("v2.0"), "oc20").reason == ""
    v1 = hpc_rules.weak_score(runs, hpc_rules.ruleset_for("v1.0"), "oc20")
    assert v1.time_to_train_all_minutes is None
    assert v1.reason == "not enough converging weak scaling runs: 7 (at least 10)"


def test_weak_score_refuses_mixed_instance_scales() -> None:
    runs = [(0.0, 60_000.0, 16)] * 4 + [(0.0, 60_000.0, 32)]
    score = hpc_rules.weak_score(runs, hpc_rules.ruleset_for("v3.0"), "deepcam")
    assert score.reason.startswith("instance scales differ")

"""MLPerf Mobile's rules (``benchdb/mlperf/mobile``): the app's throughput
(mobile_app_open ``task_runner.dart`` ``_calculateThroughput`` at v4.0/v5.0) reproduces
the throughput the app exported in ``result.json`` from LoadGen's 90th percentile
latency; the judgement fails a result for the reasons the app would not list it."""

from __future__ import annotations

import pytest

from benchdb.mlperf.mobile import checks, rules
from benchdb.mlperf.mobile.rules import Inputs, Read


# (scenario, result_90.00_percentile_latency_ns of mlperf_log_detail.txt, the app's
# measured_samples, result.json's performance_run.throughput.value), copied from
# tests/data/mobile-v4.0 and mobile-v5.0 (README: origin).
@pytest.mark.parametrize(
    ("scenario", "latency_ns", "samples", "published"),
    [
        # v4.0 SD8G3 mobilenetV4/SingleStream = image_classification_v2
        ("SingleStream", 866771, None, 1153.7072652407614),
        # v4.0 SD8G3 mobilenetV4/Offline = image_classification_offline_v2
        ("Offline", 15092324786, 24720, 1637.9186341742964),
        # v4.0 SD8G3 EDSR/SingleStream = super_resolution
        ("SingleStream", 6175729, None, 161.92420360414133),
        # v4.0 Samsung exynos2400 image_classification_v2
        ("SingleStream", 1037070, None, 964.2550647497276),
        # v5.0 SD8Elite stable_diffusion
        ("SingleStream", 3780948072, None, 0.26448392862243997),
    ],
)
def test_the_apps_throughput_is_reproduced_from_loadgens_latency(
    scenario: str, latency_ns: int, samples: int | None, published: float
) -> None:
    assert rules.throughput(scenario, latency_ns, samples) == published


@pytest.mark.parametrize(
    ("scenario", "latency_ns", "samples", "message"),
    [
        ("Offline", 15092324786, None, "sample count"),
        ("MultiStream", 866771, None, "not one the app runs"),
        ("SingleStream", 0, None, "not positive"),
    ],
)
def test_it_refuses_what_the_app_cannot_compute(
    scenario: str, latency_ns: int, samples: int | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        rules.throughput(scenario, latency_ns, samples)


def _inputs(**kw: object) -> Inputs:
    base: dict[str, object] = {
        "version": "v4.0",
        "benchmark_id": "image_classification_v2",
        "scenario": Read("SingleStream", "d.txt", 10),
        "latency90_ns": Read(866771, "d.txt", 40),
        "validity": Read("VALID", "d.txt", 30),
        "accuracy": Read(0.82138, "result.json", 9, "82.14%"),
        "published": Read(1153.7072652407614, "result.json", 9),
    }
    return Inputs(**{**base, **kw})  # type: ignore[arg-type]


def test_a_complete_result_is_valid_and_its_evidence_names_each_line() -> None:
    j = checks.judge(_inputs())
    assert j.valid and j.throughput == 1153.7072652407614 and j.basis == "1 / latency90"
    lines = {(f.rule, f.path, f.line) for f in j.findings}
    assert ("read: 90th percentile latency", "d.txt", 40) in lines
    assert ("read: result_validity", "d.txt", 30) in lines
    published = next(f for f in j.findings if f.rule == "published: throughput")
    assert "equals" in published.message


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"validity": Read("INVALID", "d.txt", 30)}, "LoadGen result is INVALID"),
        ({"validity": None, "latency90_ns": None}, "no performance run log"),
        ({"accuracy": None}, "no accuracy reported"),
        ({"benchmark_id": "stable_diffusion"}, "not one of v4.0's"),
        ({"scenario": Read("Offline", "d.txt", 10)}, "is not the task's SingleStream"),
        ({"latency90_ns": Read("866771", "d.txt", 40)}, "latency '866771' ns"),
    ],
)
def test_a_result_the_app_would_not_list_is_not_valid(
    change: dict[str, object], reason: str
) -> None:
    j = checks.judge(_inputs(**change))
    assert not j.valid
    assert any(reason in r for r in j.reasons), j.reasons
    assert any(f.invalidates for f in j.findings)


def test_an_offline_run_without_the_apps_count_takes_loadgens_samples_per_second() -> None:
    """v4.0 SDX_Elite mobilenetV4/Offline: no result.json; its detail log's
    result_samples_per_second is 1105.8, the figure performance_results.txt prints."""
    j = checks.judge(
        _inputs(
            benchmark_id="image_classification_offline_v2",
            scenario=Read("Offline", "d.txt", 10),
            samples_per_second=Read(1105.8, "d.txt", 41),
            published=None,
        )
    )
    assert j.valid and j.throughput == 1105.8
    assert j.basis == "LoadGen result_samples_per_second"


def test_every_round_has_its_app_commit_and_tasks() -> None:
    assert set(rules.ROUNDS) == set(rules.TASKS) == {"v4.0", "v4.1", "v5.0"}
    assert "stable_diffusion" in rules.TASKS["v5.0"]
    assert "image_classification" not in rules.TASKS["v5.0"]


def test_an_exported_latency_that_is_not_the_logs_is_shown_beside_it() -> None:
    """v4.1 SD8SG3 image_segmentation_v2: result.json exports latency90 0.001063229 s
    and throughput 893.3556672; the detail log's latency is 1119375 ns."""
    j = checks.judge(
        _inputs(
            benchmark_id="image_segmentation_v2",
            latency90_ns=Read(1119375, "d.txt", 40),
            published=Read(893.3556672, "result.json", 9),
            published_latency=Read(0.001063229, "result.json", 9),
        )
    )
    messages = {f.rule: f.message for f in j.findings}
    assert "differs from the log's 0.001119375 s" in messages["published: latency90"]
    assert "equals, to the digits published," in messages["published: throughput"]
    assert j.valid


@pytest.mark.parametrize(
    ("task", "expected"),
    [
        # tasks.pbtxt at v5.0: image_classification_v2 runs.normal 1024 / 60 / 600
        ("image_classification_v2", (1024, 60000, 600000)),
        # image_classification_offline_v2: 24576 / 0 / 0
        ("image_classification_offline_v2", (24576, 0, 0)),
        # stable_diffusion: 1024 / 60 / 300
        ("stable_diffusion", (1024, 60000, 300000)),
    ],
)
def test_the_apps_loadgen_settings_are_those_of_its_task_file(
    task: str, expected: tuple[int, int, int]
) -> None:
    got = rules.loadgen_settings(rules.TASKS["v5.0"][task])
    assert tuple(got.values()) == expected

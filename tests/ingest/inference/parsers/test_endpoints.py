"""ingest/inference/parsers/endpoints.py: v6.1 endpoints files read as LoadGen keys, on the real
NVIDIA wan-2.2 folder of tests/data/inference-v6 and on broken copies of it (pure)."""

from __future__ import annotations

from pathlib import Path

from ingest.inference.parsers.endpoints import nested, parse_endpoints

WAN = (
    Path(__file__).resolve().parents[3]
    / "data/inference-v6/inference_results_v6.1/closed/NVIDIA/results"
    / "B300-SXM-270GBx8_TRT/wan-2.2-t2v-a14b/SingleStream"
)
PATHS = ("perf.json", "acc.json", "config.yaml")


def test_the_summary_and_config_give_the_checkers_keys() -> None:
    """``latency.avg`` -> ``result_mean_latency_ns``; the seeds and min duration from
    config.yaml (``ENDPOINTS_YAML_FIELD_MAP``); ``type: online`` as the scenario."""
    log = parse_endpoints(
        (WAN / "performance/result_summary.json").read_bytes(),
        None,
        (WAN / "config.yaml").read_bytes(),
        PATHS,
    )
    assert log.log_format == "endpoints" and log.path == "perf.json"
    assert log.values["result_mean_latency_ns"] == 17977183306.92361
    assert log.values["result_completed_samples_per_sec"] == 0.05562471088905986
    assert log.values["effective_schedule_rng_seed"] == 16159082839903944936
    assert log.values["effective_min_duration_ms"] == 600000
    assert log.values["effective_scenario"] == "online"
    assert "result_99.00_percentile_latency_ns" not in log.values  # null in the file


def test_the_accuracy_results_give_score_and_sample_count() -> None:
    log = parse_endpoints(None, (WAN / "accuracy/accuracy_results.json").read_bytes(), None, PATHS)
    assert log.path == "acc.json"
    assert log.values["accuracy_score"] == 0.7019984343473832
    assert log.values["effective_accuracy_sample_count"] == 248


def test_broken_files_are_problems_not_errors() -> None:
    log = parse_endpoints(b"{not json", None, b"a: [unclosed", PATHS)
    assert log.values == {}
    assert [p.path for p in log.problems] == ["perf.json", "config.yaml"]


def test_dotted_keys_match_the_longest_key_first() -> None:
    data = {"latency": {"early_stopping_percentiles": {"99.0": 5, "50.0": None}}}
    assert nested(data, "latency.early_stopping_percentiles.99.0") == 5
    assert nested(data, "latency.early_stopping_percentiles.50.0") is None
    assert nested({"a": {}}, "a") is None

"""benchdb's MLPerf Inference v6.0/v6.1 verdicts on the real subsets of
tests/data/inference-v6 against what the official tools printed on the same files,
recorded as data in tests/data/inference-v6/official/ (commands and origin: the
README.md of tests/data/inference-v6 and tests/data/README.md). Nothing here is
computed by benchdb on the expected side. Pure: no database."""

from __future__ import annotations

import csv
import re
from functools import cache
from pathlib import Path

import pytest

from benchdb.mlperf.inference.rules import INVALID, UNVERIFIABLE, VALID, evaluate
from ingest.inference.parsers.tree import Tree, find_results, load_result, read_omitted_manifest
from ingest.inference.parsers.types import LoadedInferenceResult

DATA = Path(__file__).resolve().parents[3] / "data" / "inference-v6"
OFFICIAL = DATA / "official"
V60 = DATA / "inference_results_v6.0"
V61 = DATA / "inference_results_v6.1"
#: "Results <path>/performance/run_1/mlperf_log_detail.txt <value>" and "NoResults <path>"
#: lines of the checker's log (main.py).
RESULT_LINE = re.compile(r"INFO\] Results (\S+)/performance/run_1/mlperf_log_detail\.txt (\S+)$")
NO_RESULT_LINE = re.compile(r"ERROR\] NoResults (\S+)/performance/run_1/mlperf_log_detail\.txt$")


@cache
def loaded(root: Path) -> dict[str, LoadedInferenceResult]:
    manifest = DATA / "manifests" / f"{root.name.removeprefix('inference_results_')}.omitted.tsv"
    omitted = read_omitted_manifest(manifest.read_bytes()) if manifest.exists() else None
    tree = Tree(root, omitted)
    return {f.path: load_result(tree, f) for f in find_results(tree)}


def checker_log_v60() -> tuple[dict[str, float], set[str]]:
    """The Results and NoResults paths (below inference_results_v6.0/) of the checker
    at 6d0cf9dc on the v6.0 subset."""
    text = (OFFICIAL / "checker_6d0cf9dc_v6.0.log").read_text()
    prefix = "inference_results_v6.0/"
    results = {
        m[1].removeprefix(prefix): float(m[2])
        for m in map(RESULT_LINE.search, text.splitlines())
        if m
    }
    rejected = {
        m[1].removeprefix(prefix) for m in map(NO_RESULT_LINE.search, text.splitlines()) if m
    }
    return results, rejected


def checker_csv_v60() -> list[dict[str, str]]:
    with open(OFFICIAL / "checker_6d0cf9dc_v6.0.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_benchdb_finds_exactly_the_results_the_checker_judged() -> None:
    """Every result folder of the v6.0 subset, no more: the checker's Results and
    NoResults lines together."""
    results, rejected = checker_log_v60()
    assert (len(results), len(rejected)) == (9, 1)
    assert set(loaded(V60)) == set(results) | rejected


@pytest.mark.parametrize("row", checker_csv_v60(), ids=lambda r: f"{r['Model']}/{r['Scenario']}")
def test_each_published_row_equals_the_checkers_csv(row: dict[str, str]) -> None:
    """Value, unit, validity and every accuracy figure of the checker's CSV row."""
    path = row["Location"].removeprefix("inference_results_v6.0/")
    path = path.removesuffix("/performance/run_1")
    v = evaluate(loaded(V60)[path], "v6.0")
    assert (v.status, v.value.value, v.value.unit) == (VALID, float(row["Result"]), row["Units"])
    printed = dict(re.findall(r"(\S+): (\S+)", row["Accuracy"]))
    assert {k: float(x) for k, x in printed.items()} == pytest.approx(v.accuracy, rel=1e-12)


def test_the_rejected_result_fails_for_the_checkers_reason() -> None:
    """deepseek-r1 Server: NoResults, with the ERROR line's message."""
    _, rejected = checker_log_v60()
    log = (OFFICIAL / "checker_6d0cf9dc_v6.0.log").read_text()
    for path in rejected:
        v = evaluate(loaded(V60)[path], "v6.0")
        assert v.status == INVALID
        reasons = [f.message for f in v.findings if f.invalidates]
        detail = f"{path}/performance/run_1/mlperf_log_detail.txt"
        assert reasons and all(f"{detail} {r}" in log for r in reasons)


def test_the_new_models_equal_nvidias_own_v60_checker_log() -> None:
    """whisper, llama3.1-8b and qwen3-vl-235b-a22b: the values of NVIDIA's run of the
    v6.0 checker on its whole submission (closed/NVIDIA/results/submission_checker_log.txt
    of the round, in the subset)."""
    log = (V60 / "closed/NVIDIA/results/submission_checker_log.txt").read_text()
    printed = {
        m[1].removeprefix("build/submission/"): float(m[2])
        for m in map(RESULT_LINE.search, log.splitlines())
        if m
    }
    new = [p for p in loaded(V60) if re.search(r"/(whisper|llama3\.1-8b|qwen3-vl-235b-a22b)/", p)]
    assert len(new) == 5
    for path in new:
        assert evaluate(loaded(V60)[path], "v6.0").value.value == printed[path]


def test_v61_qwen3_vl_offline_equals_the_checkers_endpoints_parser() -> None:
    """qwen3-vl-235b-a22b Offline (v6.1 endpoints): the value, seeds, accuracy score and
    sample count the checker's EndpointsParser at 2af078ba read from the same files, and
    the value of NVIDIA's v6.1 checker log; unverifiable here (measurements.json and
    README.md are not in the copy: manifests/v6.1.omitted.tsv)."""
    rows = (OFFICIAL / "endpoints_parser_2af078ba_v6.1_qwen3-vl_offline.tsv").read_text()
    parsed = dict(line.split("\t") for line in rows.splitlines())
    r = loaded(V61)["closed/NVIDIA/results/B300-SXM-270GBx8_TRT/qwen3-vl-235b-a22b/Offline"]
    v = evaluate(r, "v6.1")
    assert v.value.value == float(parsed["result_samples_per_second"])
    assert v.accuracy == {"score": float(parsed["accuracy_score"])}
    detail = r.runs[0].detail
    assert detail is not None
    for key in ("effective_sample_index_rng_seed", "effective_schedule_rng_seed"):
        assert detail.values[key] == int(parsed[key])
    assert v.status == UNVERIFIABLE
    nvidia = (OFFICIAL / "nvidia_v6.1_checker_log_B300_results.txt").read_text()
    line = f"qwen3-vl-235b-a22b/Offline/performance/run_1/mlperf_log_detail.txt {v.value.value!r}"
    assert f"{line}\n" in nvidia


def test_v61_qwen3_vl_server_without_its_config_has_no_value() -> None:
    """The Server folder's config.yaml is not in the copy (the checker's parser needs it
    for the scenario: it stops with AttributeError without it), so benchdb reports no
    value rather than guessing NVIDIA's 104.57819163892032; the result is unverifiable."""
    r = loaded(V61)["closed/NVIDIA/results/B300-SXM-270GBx8_TRT/qwen3-vl-235b-a22b/Server"]
    v = evaluate(r, "v6.1")
    assert (v.status, v.value.value) == (UNVERIFIABLE, None)

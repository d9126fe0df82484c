"""MLPerf Inference rules: every official result of ../shared/mlperf-inference reproduced
from its LoadGen logs, row by row (pure: no database), and bad input reported."""

from __future__ import annotations

import csv
import re
import shutil
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from benchdb.mlperf.inference.checks import power_unit
from benchdb.mlperf.inference.equal_issue import conf_equal_issue
from benchdb.mlperf.inference.rounds import compliance_tests
from benchdb.mlperf.inference.rules import (
    INVALID,
    UNVERIFIABLE,
    VALID,
    Verdict,
    evaluate,
    resolve_benchmark,
)
from benchdb.mlperf.inference.value import result_field, unit_for
from ingest.inference.parsers.tree import Tree, find_results, load_result, read_omitted_manifest
from ingest.inference.parsers.types import LoadedInferenceResult, ResultFolder, TextFile
from tests.inference_data import INFERENCE_DATA as DATA

OFFICIAL = DATA / "official_results.csv"


def _rows() -> list[dict[str, str]]:
    if not OFFICIAL.is_file():
        return []
    with OFFICIAL.open(newline="") as f:
        return list(csv.DictReader(f))


ROWS = _rows()
#: What the round-era checker says of a result it cannot judge on the public tree.
UNJUDGED = re.compile(r"absent from the snapshot|rejected on the public tree|gives no result")


@cache
def loaded_round(version: str) -> dict[str, LoadedInferenceResult]:
    """Every result folder of a round here, read once, by location."""
    manifest = read_omitted_manifest((DATA / f"manifests/{version}.omitted.tsv").read_bytes())
    tree = Tree(DATA / f"inference_results_{version}", manifest)
    return {f.path: load_result(tree, f) for f in find_results(tree)}


def close(got: float | None, want: float) -> bool:
    """Within 0.01% (the published values have 6 significant digits)."""
    return got is not None and abs(got - want) <= 1e-4 * abs(want)


def test_the_official_table_covers_every_result_folder() -> None:
    """190 rows, one per result folder of the seven rounds."""
    assert len(ROWS) == 190
    folders = {(v, p) for v in {r["round"] for r in ROWS} for p in loaded_round(v)}
    assert folders == {(r["round"], r["location"]) for r in ROWS}


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['round']}:{r['location']}" for r in ROWS])
def test_it_reproduces_the_official_result(row: dict[str, str]) -> None:
    """Value, unit, power and validity as published; results the public tree cannot
    prove are unverifiable (naming the absent file), never invalid."""
    result = loaded_round(row["round"])[row["location"]]
    verdict = evaluate(result, row["round"], {row["model"]: row["mlperf_model"]})
    assert verdict.benchmark == row["mlperf_model"]
    # The one unofficial row (v5.1 GATEOverflow pointpainting offline) has no published
    # value; its note gives what the checker accepts it with.
    note = re.search(r"Result=([\d.]+)", row["checker_note"])
    want = row["value"] or (note.group(1) if note else "nan")
    assert close(verdict.value.value, float(want)), verdict.value
    assert verdict.value.unit == row["unit"]
    assert verdict.value.inferred is (row["inferred"] == "1")
    if row["power_value"]:
        assert close(verdict.power, float(row["power_value"]))
        assert verdict.power_unit == (row["power_unit"] or verdict.power_unit)
    else:
        assert verdict.power is None
    if UNJUDGED.search(row["checker_note"]):
        assert verdict.status == UNVERIFIABLE, verdict.reasons
        assert_missing_is_explained(row["round"], verdict)
    else:
        assert verdict.status == VALID, verdict.reasons


def assert_missing_is_explained(version: str, verdict: Verdict) -> None:
    """Each file making a result unverifiable is a blob absent from the snapshot (its
    manifest says so) or the SDXL images stripped from the published repository."""
    omitted = read_omitted_manifest((DATA / f"manifests/{version}.omitted.tsv").read_bytes())
    assert verdict.missing
    for path in verdict.missing:
        assert path.endswith("accuracy/images/") or omitted.get(path) == -1, path


def test_an_unmapped_open_model_folder_is_unverifiable_naming_the_mapping_file() -> None:
    """Krai's llama3_1-70b-fp8_dyn counts as llama2-70b-99.9 only through the submitter's
    model_mapping.json, which this tree lacks."""
    loc = "open/Krai/results/xe9680_h100_x8_vllm_092/llama3_1-70b-fp8_dyn/offline"
    verdict = evaluate(loaded_round("v5.1")[loc], "v5.1")
    assert verdict.status == UNVERIFIABLE
    assert verdict.missing == ("open/Krai/model_mapping.json",)


def test_open_results_below_the_accuracy_target_are_kept() -> None:
    """The open division publishes results whatever their accuracy (logged, not rejected)."""
    loc = "open/NVIDIA/results/Orin_TRT_DepthPruned/llama2-70b-99/Offline"
    verdict = evaluate(loaded_round("v4.1")[loc], "v4.1")
    assert verdict.status == VALID
    assert verdict.accuracy_valid is False
    assert {f.rule for f in verdict.findings} >= {"accuracy_target"}


def test_v07_compliance_failures_only_flag_the_result() -> None:
    """v0.7: a compliance test without TEST PASS sets compliance=0; the result stays."""
    loc = "closed/Dividiti/results/xavier-tensorrt-v6.0/resnet50/offline"
    verdict = evaluate(loaded_round("v0.7")[loc], "v0.7")
    assert verdict.status == VALID
    assert verdict.compliance_valid is False


def test_it_records_the_loadgen_settings() -> None:
    loc = "closed/AMD/results/8xMI300X_2xEPYC_9575F/llama2-70b-99/Server"
    settings = evaluate(loaded_round("v5.1")[loc], "v5.1").settings
    assert settings["effective_target_qps"] == 83.5
    assert settings["effective_min_duration_ms"] == 600000


# --- rules in isolation ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "benchmark", "scenario", "key"),
    [
        ("v1.1", "resnet", "MultiStream", "effective_samples_per_query"),
        ("v2.1", "resnet", "SingleStream", "early_stopping_latency_ss"),
        ("v3.0", "bert-99", "Server", "result_scheduled_samples_per_sec"),
        ("v4.1", "resnet", "Server", "result_completed_samples_per_sec"),
        ("v4.1", "gptj-99", "Offline", "result_inferred_tokens_per_second"),
        ("v5.1", "llama3.1-8b-edge", "SingleStream", "result_90.00_percentile_latency_ns"),
        ("v5.1", "whisper", "Offline", "result_tokens_per_second"),
    ],
)
def test_result_field_follows_the_round(
    version: str, benchmark: str, scenario: str, key: str
) -> None:
    rt = (int(version[1]), int(version[3]))
    assert result_field(rt, benchmark, scenario) == key


def test_units_follow_the_round() -> None:
    assert unit_for((1, 1), "resnet", "MultiStream") == "Streams"
    assert unit_for((2, 1), "resnet", "MultiStream") == "Latency (ms)"
    assert unit_for((5, 1), "whisper", "Offline") == "Samples/s"
    assert unit_for((5, 1), "llama2-70b-99", "Interactive") == "Tokens/s"
    assert unit_for((5, 1), "llama3.1-8b", "Interactive") == "Queries/s"  # as printed
    assert [power_unit(rt, "SingleStream") for rt in ((1, 1), (2, 1), (3, 0))] == [
        "Joules",
        "Joules",
        "millijoules",
    ]


def test_compliance_tests_follow_the_round() -> None:
    assert compliance_tests((0, 7), "resnet", "Offline") == (
        "TEST01",
        "TEST04-A",
        "TEST04-B",
        "TEST05",
    )
    assert compliance_tests((3, 0), "bert-99", "Server") == ("TEST01", "TEST05")
    assert compliance_tests((4, 1), "llama2-70b-99", "Server") == ("TEST06",)
    assert compliance_tests((4, 1), "gptj-99", "Offline") == ()
    assert compliance_tests((5, 1), "resnet", "Offline") == ("TEST01", "TEST04")
    assert compliance_tests((5, 1), "llama3.1-405b", "Interactive") == ("TEST06",)


@pytest.mark.parametrize(
    ("version", "folder", "benchmark"),
    [
        ("v0.7", "mobilenet", "resnet"),  # the checker's model_mapping, not the v0.5 name
        ("v0.7", "ssd-mobilenet-non-quantized", "ssd-small"),  # dividiti, v0.7
        ("v0.7", "ssd-mobilenet-v1-edgetpu", "ssd-small"),
        ("v0.7", "efficientnet-lite0-quantized", "resnet"),
        ("v1.1", "faster-rcnn-resnet50", "ssd-small"),
        ("v2.1", "faster-rcnn-resnet50", "resnet"),  # resnet50 guessed before rcnn
        ("v4.1", "ssd-mobilenet-v1", "resnet"),  # c7db1c3f dropped the ssd guesses
        ("v0.5", "mobilenet", "mobilenet"),
    ],
)
def test_model_folders_are_guessed_as_the_round_checker_does(
    version: str, folder: str, benchmark: str
) -> None:
    path = f"open/S/results/sys/{folder}/Offline"
    result = LoadedInferenceResult(
        ResultFolder("open", "S", "sys", folder, "Offline", path), (), None, None, None
    )
    assert resolve_benchmark(result, version, None) == benchmark


def test_equal_issue_mode_can_be_set_in_the_conf_files() -> None:
    conf = TextFile("mlperf.conf", ("# x", "gptj.*.sample_concatenate_permutation = 1"))
    assert conf_equal_issue("gptj-99.9", "Offline", [conf])
    assert not conf_equal_issue("llama2-70b-99", "Offline", [conf])


# --- bad input, on a copy of a real v5.1 result ---------------------------------------

SRC = "closed/Lenovo/{}/SE100_RTX2000E_Ada_16GBx1_TRT/resnet50/Offline"


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A v5.1 tree holding one real closed result (results, compliance, system)."""
    src = DATA / "inference_results_v5.1"
    for part in ("results", "compliance"):
        shutil.copytree(src / SRC.format(part), tmp_path / SRC.format(part))
    system = "closed/Lenovo/systems/SE100_RTX2000E_Ada_16GBx1_TRT.json"
    (tmp_path / system).parent.mkdir(parents=True)
    shutil.copy(src / system, tmp_path / system)
    return tmp_path


def judge(root: Path) -> tuple[LoadedInferenceResult, Verdict]:
    tree = Tree(root)
    (folder,) = find_results(tree)
    result = load_result(tree, folder)
    return result, evaluate(result, "v5.1")


RUN = SRC.format("results") + "/performance/run_1"


def test_the_copy_is_valid(copy: Path) -> None:
    result, verdict = judge(copy)
    assert verdict.status == VALID, verdict.reasons
    assert verdict.value.value == 6607.08
    assert result.problems == ()


def test_a_detail_log_cut_short_is_a_problem_at_its_last_line(copy: Path) -> None:
    log = copy / RUN / "mlperf_log_detail.txt"
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:80]) + lines[80][:40])
    result, verdict = judge(copy)
    assert [(p.path, p.line) for p in result.problems] == [(f"{RUN}/mlperf_log_detail.txt", 81)]
    assert verdict.status == INVALID
    (f,) = [f for f in verdict.findings if f.rule == "log_unreadable"]
    assert (f.path, f.line) == (f"{RUN}/mlperf_log_detail.txt", 81)


def test_a_missing_detail_log_makes_the_result_unverifiable(copy: Path) -> None:
    (copy / RUN / "mlperf_log_detail.txt").unlink()
    _, verdict = judge(copy)
    assert verdict.status == UNVERIFIABLE
    assert verdict.missing == (f"{RUN}/mlperf_log_detail.txt",)
    assert verdict.value.value == 6607.08  # from the summary, kept beside


def test_a_summary_that_disagrees_with_its_detail_log_is_reported(copy: Path) -> None:
    summary = copy / RUN / "mlperf_log_summary.txt"
    text = summary.read_text()
    assert "Samples per second: 6607.08" in text
    summary.write_text(text.replace("Samples per second: 6607.08", "Samples per second: 9999.99"))
    _, verdict = judge(copy)
    (f,) = [f for f in verdict.findings if f.rule == "summary_detail_disagree"]
    line = text.splitlines().index("Samples per second: 6607.08") + 1
    assert (f.path, f.line) == (f"{RUN}/mlperf_log_summary.txt", line)
    assert verdict.value.value == 6607.08  # the detail log is what counts


def test_an_accuracy_txt_without_the_metric_is_rejected(copy: Path) -> None:
    acc = copy / SRC.format("results") / "accuracy/accuracy.txt"
    acc.write_text("good=38039, total=50000\n\nhash=f8fc0e\n")
    _, verdict = judge(copy)
    assert verdict.status == INVALID
    (f,) = [f for f in verdict.findings if f.rule == "accuracy_metric"]
    assert (f.path, f.line) == (SRC.format("results") + "/accuracy/accuracy.txt", 3)


def test_a_missing_compliance_folder_is_rejected(copy: Path) -> None:
    shutil.rmtree(copy / SRC.format("compliance"))
    _, verdict = judge(copy)
    assert verdict.status == INVALID
    assert [str(f) for f in verdict.findings if f.invalidates] == [
        SRC.format("compliance") + ": compliance folder missing"
    ]


def test_a_symlink_out_of_the_tree_is_not_followed(
    copy: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("outside") / "accuracy.txt"
    outside.write_text("accuracy=99.9%\nhash=00\n")
    acc = copy / SRC.format("results") / "accuracy/accuracy.txt"
    acc.unlink()
    acc.symlink_to(outside)
    result, verdict = judge(copy)
    rel = SRC.format("results") + "/accuracy/accuracy.txt"
    assert any(p.path == rel and "symbolic link" in p.message for p in result.problems)
    assert verdict.status == INVALID
    assert "accuracy_missing" in {f.rule for f in verdict.findings}


def test_a_result_without_runs_is_invalid(tmp_path: Path) -> None:
    folder = ResultFolder(
        "closed", "S", "sys", "resnet50", "Offline", "closed/S/results/sys/resnet50/Offline"
    )
    result = LoadedInferenceResult(folder, (), None, None, None)
    assert evaluate(result, "v5.1").status == INVALID


def test_a_detail_log_cut_before_its_verdict_is_invalid_at_its_last_line(copy: Path) -> None:
    log = copy / RUN / "mlperf_log_detail.txt"
    lines = log.read_bytes().splitlines(keepends=True)
    cut = next(i for i, ln in enumerate(lines) if b'"result_validity"' in ln)
    log.write_bytes(b"".join(lines[:cut]))
    _, verdict = judge(copy)
    (f,) = [f for f in verdict.findings if f.rule == "result_validity"]
    assert (f.path, f.line, f.invalidates) == (f"{RUN}/mlperf_log_detail.txt", cut, True)


def test_a_power_log_absent_from_the_snapshot_makes_the_result_unverifiable() -> None:
    """As for v3.0 Dell XR5610 3d-unet, whose spl.txt (4 MiB or more) snapshots lack: the
    published power is not recomputable here, and the result is not invalid. Without a
    manifest saying the file exists, a missing power log fails the power rule."""
    loc = "closed/Qualcomm/results/r282_z93_q5e-qaic-v1.8.3.7-aic100/resnet50/offline"
    result = loaded_round("v3.0")[loc]
    run = replace(result.runs[0], spl=None)
    spl = f"{run.path}/spl.txt"
    verdict = evaluate(replace(result, runs=(run,), elsewhere=(spl,)), "v3.0")
    assert (verdict.status, verdict.missing, verdict.power) == (UNVERIFIABLE, (spl,), None)
    verdict = evaluate(replace(result, runs=(run,)), "v3.0")
    assert verdict.status == INVALID
    assert [f.rule for f in verdict.findings if f.invalidates] == ["power_files"]


def test_v07_offline_inferred_from_a_singlestream_log(tmp_path: Path) -> None:
    """Dividiti's v0.7 firefly/rpi4 submissions hold a SingleStream run in their ``offline``
    folders; the v0.7 checker (75018167) then reports ``QPS w/o loadgen overhead``. Here a
    real v0.7 SingleStream result (Dividiti xavier-tensorrt-v6.0 resnet50) is laid out the
    same way; its summary prints ``QPS w/o loadgen overhead : 442.56`` and
    ``90th percentile latency (ns) : 2290468`` (the value read before this rule: 2.29)."""
    src = DATA / "inference_results_v0.7/closed/Dividiti"
    rel = "xavier-tensorrt-v6.0/resnet50"
    for part in ("results", "compliance"):
        shutil.copytree(
            src / part / rel / "singlestream", tmp_path / f"closed/Dividiti/{part}/{rel}/offline"
        )
    (tmp_path / "closed/Dividiti/systems").mkdir(parents=True)
    shutil.copy(src / "systems/xavier-tensorrt-v6.0.json", tmp_path / "closed/Dividiti/systems")
    tree = Tree(tmp_path)
    (folder,) = find_results(tree)
    verdict = evaluate(load_result(tree, folder), "v0.7")
    assert verdict.value.value == 442.56
    assert verdict.value.inferred

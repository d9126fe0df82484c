"""Frames of MLPerf Storage, Tiny and Mobile claims (benchdb.claims.other_suites): the
suite, benchmark, simulated accelerator, bandwidth unit, submitter and round, read
from sentences of real pages (each cited), and the count of a round's benchmarks."""

from __future__ import annotations

from benchdb.claims import other_suites
from benchdb.claims.facts import ClaimFacts, ResultFacts


def test_the_suite_from_the_sentence_or_a_page_naming_one() -> None:
    # blocksandfiles.com 2024-09-26: names MLPerf Storage in its sentence
    said = "The MLPerf Storage benchmark combines three workloads and two types of GPU"
    assert other_suites.suite_named(said, "", "", "") == "storage"
    # mlcommons.org "MLPerf Tiny" (tasks list), on a page naming only MLPerf Tiny
    page = "MLPerf Tiny, introduced in August 2021, is the first industry-standard benchmark"
    tasks = "The suite features four benchmarks: keyword spotting, visual wake words"
    assert other_suites.suite_named(tasks, "", page, "") == "tiny"
    # a sentence naming MLPerf Inference on a Tiny page is not Tiny's
    assert other_suites.suite_named("MLPerf Inference v4.0 results", "", page, "") == ""
    # solidigm.com: a page naming three suites decides none for a sentence naming none
    solidigm = "MLPerf benchmarks—Inference v4.1, Training v4.1, and MLPerf Storage v1.0"
    assert other_suites.suite_named("the D7-PS1010 peaks with fewer disks", "", solidigm, "") == (
        "storage"  # only "MLPerf Storage" is written as a suite name there
    )


def test_benchmarks_as_pages_write_them() -> None:
    # superdiscounts.store (2025-08-05): "the Unet3D, Cosmoflow, and Resnet50 AI training tasks"
    assert other_suites.benchmarks_named(
        "storage", "perform on the Unet3D, Cosmoflow, and Resnet50 AI training tasks"
    ) == ["unet3d", "cosmoflow", "resnet50"]
    # NeurIPS 2021 MLPerf Tiny paper abstract
    assert other_suites.benchmarks_named(
        "tiny",
        "keyword spotting, visual wake words, image classification, and anomaly detection",
    ) == ["kws", "vww", "ic", "ad"]


def _claim(**kw: object) -> ClaimFacts:
    base: dict[str, object] = {"kind": "count", "value": 3.0, "unit": "benchmark"}
    return ClaimFacts(**{**base, **kw})  # type: ignore[arg-type]


def test_a_simulated_accelerator_is_the_storage_frames_scenario_not_its_subject() -> None:
    # juicefs.com (2025-09-25) phrasing: results "with simulated H100 GPUs"
    c = other_suites.as_suite(
        _claim(kind="scale", value=36.0, unit="GPU", system="H100 GPUs"), "storage"
    )
    f = other_suites.frame(
        c,
        "DDN kept 36 simulated H100 GPUs busy on 3D U-Net in MLPerf Storage v1.0",
        "",
        "",
        "",
        ["DDN", "Hammerspace"],
    )
    assert (f.system, f.scenario, f.submitter, f.benchmark_key, f.round) == (
        "",
        "H100",
        "DDN",
        "unet3d",
        "v1.0",
    )


def test_a_bare_version_is_the_pages_suite_round() -> None:
    # csdn repost of YanRong's release (devpress.csdn.net/shanghai/66f66781...): "v0.5 版本"
    c = other_suites.as_suite(_claim(value=2.0), "storage")
    f = other_suites.frame(
        c,
        "2023 年发布的 v0.5 版本初步包含了 Unet-3D 和 BERT 两个模型",
        "",
        "",
        "MLPerf® Storage v1.0",
    )
    assert (f.round, f.context[-1]) == ("v0.5", "listed:unet3d,bert")


def _result(pk: int, model: str, submitter: str = "YanRongTech") -> ResultFacts:
    return ResultFacts(
        pk=pk,
        round="v1.0",
        submitter=submitter,
        system_folder="F8000X",
        system_name="F8000X",
        division="closed",
        availability="",
        accelerators=1,
        accelerator_model="NVIDIA H100 (simulated)",
        framework="",
        benchmark=model,
        score_minutes=None,
        suite="storage",
        model=model,
    )


def test_a_count_of_benchmarks_holds_for_the_round_and_the_subject_or_is_open() -> None:
    listed = ("listed:unet3d,resnet50,cosmoflow",)
    both = [_result(1, "unet3d"), _result(2, "resnet50"), _result(3, "cosmoflow")]
    c = _claim(suite="storage", round="v1.0", submitter="YanRongTech", context=listed)
    assert other_suites.verify_count(c, both).verdict == "consistent"  # type: ignore[union-attr]
    # the subject holds two of the three listed: the round's reading holds, its does not
    v = other_suites.verify_count(c, both[:2])
    assert v is not None and v.verdict == "unverifiable"
    # a round benchdb has no list of: no check
    assert other_suites.verify_count(_claim(suite="storage", round="v2.0"), both) is None
    # no list given: the subject's reading never holds (its results may be held in part)
    v = other_suites.verify_count(
        _claim(suite="storage", round="v1.0", submitter="YanRongTech"), both
    )
    assert v is not None and v.verdict == "unverifiable"

"""MLPerf Storage rules (``benchdb.mlperf.storage.rules``) against the round's published
reports: each result's runs recomputed from its DLIO summaries give the report's values
(``mlperf_storage_report.json``, written by mlcommons/storage v1.0 ``report.py``)."""

from __future__ import annotations

from dataclasses import replace

import pytest
import yaml

from benchdb.mlperf.storage import rules
from tests.storage_data import OWN_REPORT, ROOT, YANRONG_COPIED, report, summaries


def _runs(folder: str) -> list[rules.RunFigures]:
    """One RunFigures per summary (every run of the subset has one), by run folder."""
    out = []
    for rel, s in summaries(folder).items():
        m = s["metric"]
        wl = (ROOT / folder / rel).parent / "configs" / "overrides.yaml"
        model, acc = next(
            ln.split("workload=")[1].strip().split("_")
            for ln in wl.read_text().splitlines()
            if "workload=" in ln
        )
        out.append(
            rules.RunFigures(
                name=rel.split("/")[0],
                samples_per_second=rules.run_sum([m["train_throughput_mean_samples_per_second"]]),
                mb_per_second=rules.run_sum([m["train_io_mean_MB_per_second"]]),
                model=model,
                accelerator=acc,
                accelerators=s["num_accelerators"],
                num_files_train=s["num_files_train"],
                num_samples_per_file=s["num_samples_per_file"],
            )
        )
    return out


@pytest.mark.parametrize("folder", OWN_REPORT)
def test_each_run_is_one_the_report_lists(folder: str) -> None:
    published = report(folder)["runs"].values()
    runs = _runs(folder)
    assert sorted(r.samples_per_second for r in runs) == sorted(
        p["train_throughput_samples_per_second"] for p in published
    )
    assert sorted(r.mb_per_second for r in runs) == sorted(
        p["train_throughput_MB_per_second"] for p in published
    )
    assert rules.refusals(runs) == []


@pytest.mark.parametrize("folder", OWN_REPORT)
def test_the_mean_and_stdev_are_the_reports_bit_for_bit_in_its_run_order(folder: str) -> None:
    """``report.py`` sums the runs in ``os.walk`` order, which the report's key order
    records; summed in that order the five floats give its figures exactly."""
    rep = report(folder)
    by_value = {r.samples_per_second: r for r in _runs(folder)}
    ordered = [by_value[p["train_throughput_samples_per_second"]] for p in rep["runs"].values()]
    o = rules.overall(ordered)
    assert o.samples_per_second == rep["overall"]["train_throughput_mean_samples_per_second"]
    assert o.samples_per_second_stdev == rep["overall"]["train_throughput_stdev_samples_per_second"]
    assert o.mb_per_second == rep["overall"]["train_throughput_mean_MB_per_second"]
    assert o.mb_per_second_stdev == rep["overall"]["train_throughput_stdev_MB_per_second"]
    assert (ordered[0].model, ordered[0].accelerator) == (
        rep["overall"]["model"],
        rep["overall"]["accelerator"],
    )


def test_a_report_copied_from_another_result_is_not_what_its_runs_give() -> None:
    rep = report(YANRONG_COPIED)
    o = rules.overall(_runs(YANRONG_COPIED))
    assert o.samples_per_second < rep["overall"]["train_throughput_mean_samples_per_second"] / 10
    assert rep["overall"]["train_num_accelerators"] == "12"
    assert {r.accelerators for r in _runs(YANRONG_COPIED)} == {1}


@pytest.mark.parametrize("folder", OWN_REPORT)
def test_dlio_figures_of_each_summary_follow_from_its_epochs(folder: str) -> None:
    for rel, s in summaries(folder).items():
        m = s["metric"]
        cfg = yaml.safe_load(((ROOT / folder / rel).parent / "configs" / "config.yaml").read_text())
        au = cfg["workload"]["metric"]["au"]
        mean, meets = rules.au_check(m["train_au_percentage"], au)
        assert mean == m["train_au_mean_percentage"]
        assert meets == (m["train_au_meet_expectation"] == "success")
        assert (
            rules.epoch_mean(m["train_throughput_samples_per_second"])
            == (m["train_throughput_mean_samples_per_second"])
        )
        record = cfg["workload"]["dataset"]["record_length"]
        assert (
            rules.io_mb_per_second(m["train_throughput_samples_per_second"], record)
            == (m["train_io_mean_MB_per_second"])
        )


def test_the_tool_refuses_four_runs_an_au_failure_and_mixed_workloads() -> None:
    runs = _runs(OWN_REPORT[1])
    assert rules.refusals(runs[:4]) == [
        "Results are reported only for 4 runs. 5 runs are required."
    ]
    failed = [*runs[:4], replace(runs[4], au_fail=("run5/summary.json",))]
    assert rules.refusals(failed) == [
        "AU value didn't pass the threshold in the run reported by run5/summary.json"
    ]
    mixed = [*runs[:4], replace(runs[4], accelerator="h100", accelerators=3)]
    assert rules.refusals(mixed) == [
        "The accelerator name is different across runs",
        "The number of accelerators is different across runs",
    ]


@pytest.mark.parametrize(
    ("au_percentages", "au", "meets"),
    [([90.0, 90.0], 0.9, True), ([89.99, 90.0], 0.9, False), ([70.0], 0.7, True)],
)
def test_au_threshold_is_at_or_over(au_percentages: list[float], au: float, meets: bool) -> None:
    assert rules.au_check(au_percentages, au)[1] is meets


def test_overall_of_no_run_raises() -> None:
    with pytest.raises(ValueError, match="no run"):
        rules.overall([])

"""MLPerf Storage rules, pure: how the round's official tool turns a result's DLIO run
summaries into the published ``mlperf_storage_report.json``, and what makes it refuse.

Sources, at the round's tags:

* ``mlcommons/storage`` tag ``v1.0`` (:data:`ROUNDS`), ``report.py``
  ``StorageReport.generate_report`` (run by ``benchmark.sh reportgen``): every
  ``summary.json`` below the result folder is a run; ``REQUIRED_BENCHMARK_RUNS`` = 5;
  a run whose ``metric.train_au_meet_expectation`` is ``"fail"`` stops it; the
  workload (model, accelerator) comes from each run's ``configs/overrides.yaml``
  (``get_workload_details``); model, accelerator, accelerator count, training files
  and samples per file must be the same in every run (``check_unique``); a run's
  figures are ``np.sum`` over its summaries of ``train_throughput_mean_samples_per_second``
  and ``train_io_mean_MB_per_second``; the result is ``np.mean`` and ``np.std``
  (population) of the runs' figures.
* ``argonne-lcf/dlio_benchmark`` at :data:`DLIO_COMMIT` (the submodule of that tag),
  ``dlio_benchmark/utils/statscounter.py`` ``StatsCounter.end_run``: a run's
  ``train_au_mean_percentage`` is ``np.mean`` of its epochs' AU, it meets expectation
  when ``>= au * 100`` (``workload.metric.au`` of ``configs/config.yaml``: 0.90 for
  unet3d and resnet50, 0.70 for cosmoflow in ``storage-conf/workload/*.yaml``); its
  ``train_throughput_mean_samples_per_second`` is ``np.mean`` of the epochs' samples/s
  and ``train_io_mean_MB_per_second`` that mean x ``record_length`` / 1024 / 1024.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

#: Round -> commit of ``mlcommons/storage`` whose ``report.py`` the round's reports came
#: from (tag ``v1.0``; ``v1.0.1`` changes only the DLIO submodule).
ROUNDS: dict[str, str] = {"v1.0": "cd848ba808b2c627261dae8635f13593d3cceecc"}
#: Round -> publication date: the day (the committer's) of the newest commit of
#: mlcommons/storage_results_v1.0 as published, 64c2ce4 ("Merge pull request #1 from
#: mlcommons/swasson488-patch-1", 2024-09-25; results committed 1c5efa7 on 2024-09-24);
#: MLCommons announced the round that day (../shared/vendor-dev/inference/README.md,
#: "Storage (file 13)").
PUBLISHED: dict[str, date] = {"v1.0": date(2024, 9, 25)}
#: ``dlio_benchmark`` submodule commit of ``mlcommons/storage`` tag v1.0.
DLIO_COMMIT = "bc693c62cf28f896caf014e9089d9a7bcba5ef6a"
#: ``report.py`` ``REQUIRED_BENCHMARK_RUNS``.
REQUIRED_BENCHMARK_RUNS = 5
#: ``report.py`` ``check_unique`` is applied to these run fields, in this order, with
#: these messages.
UNIQUE_FIELDS = {
    "model": "The model name is different across runs",
    "accelerator": "The accelerator name is different across runs",
    "accelerators": "The number of accelerators is different across runs",
    "num_files_train": "The number of training files is different across runs",
    "num_samples_per_file": "The number of samples per file is different across runs",
}


@dataclass(frozen=True)
class RunFigures:
    """One run as ``report.py`` reads it: ``samples_per_second`` and ``mb_per_second``
    (summed over the run's summaries), the ``UNIQUE_FIELDS``, and ``au_fail``: the
    summaries whose ``train_au_meet_expectation`` is ``"fail"``."""

    name: str
    samples_per_second: float
    mb_per_second: float
    model: str
    accelerator: str
    accelerators: int
    num_files_train: int
    num_samples_per_file: int
    au_fail: tuple[str, ...] = ()


@dataclass(frozen=True)
class Overall:
    """The result: mean and population standard deviation over the runs, samples/s
    and MB/s (``report.py`` ``results["overall"]``)."""

    samples_per_second: float
    samples_per_second_stdev: float
    mb_per_second: float
    mb_per_second_stdev: float


def run_sum(values: Sequence[float]) -> float:
    """A run's figure from its summaries' figures (one per ``summary.json`` of the run,
    in any order; len >= 1): ``np.sum`` (``report.py`` ``generate_report``). Units as
    given (samples/s or MB/s)."""
    return float(np.sum(np.array(values, dtype=np.float64)))


def overall(runs: Sequence[RunFigures]) -> Overall:
    """Mean and ``np.std`` (population) of the runs' samples/s and MB/s, summed in the
    order given (``report.py`` sums in ``os.walk`` order; another order can move the
    last bit). Raises ValueError for no run."""
    if not runs:
        raise ValueError("no run")
    sps = np.array([r.samples_per_second for r in runs], dtype=np.float64)
    mbs = np.array([r.mb_per_second for r in runs], dtype=np.float64)
    return Overall(float(np.mean(sps)), float(np.std(sps)), float(np.mean(mbs)), float(np.std(mbs)))


def refusals(runs: Sequence[RunFigures]) -> list[str]:
    """Why ``report.py`` would refuse to write the report for these runs (empty: it
    writes it): the number of runs, a run under the AU threshold, a workload field
    that differs across runs. Messages quote the tool's own."""
    out = []
    if len(runs) != REQUIRED_BENCHMARK_RUNS:
        out.append(
            f"Results are reported only for {len(runs)} runs. "
            f"{REQUIRED_BENCHMARK_RUNS} runs are required."
        )
    for r in runs:
        for where in r.au_fail:
            out.append(f"AU value didn't pass the threshold in the run reported by {where}")
    for name, message in UNIQUE_FIELDS.items():
        if len({getattr(r, name) for r in runs}) > 1:
            out.append(message)
    return out


def au_check(au_percentages: Sequence[float], au: float) -> tuple[float, bool]:
    """(``train_au_mean_percentage``, meets expectation) of a run: ``au_percentages``
    per epoch, percent, len >= 1; ``au`` the threshold as a fraction (0.9). DLIO
    ``StatsCounter.end_run``: ``np.mean(train_au) >= au * 100``."""
    mean = float(np.mean(np.array(au_percentages, dtype=np.float64)))
    return mean, mean >= au * 100


def epoch_mean(values: Sequence[float]) -> float:
    """``train_throughput_mean_samples_per_second``: ``np.mean`` of the epochs'
    samples/s (DLIO ``StatsCounter.end_run``); len >= 1."""
    return float(np.mean(np.array(values, dtype=np.float64)))


def io_mb_per_second(epoch_samples_per_second: Sequence[float], record_length: float) -> float:
    """``train_io_mean_MB_per_second``: mean epoch samples/s x ``record_length`` (bytes
    per sample, ``workload.dataset.record_length``) / 1024 / 1024 (DLIO
    ``StatsCounter.end_run``; MB here is MiB)."""
    return float(np.mean(np.array(epoch_samples_per_second)) * record_length / 1024.0 / 1024.0)

"""MLPerf Training reference convergence points (RCPs): mlperf_logging's RCP checker,
reimplemented for the rounds whose RCP files are vendored (v6.0). Pure: no Django.

Source: mlcommons/logging ``mlperf_logging/rcp_checker/rcp_checker.py`` at tag
6.0.0-rc6, ``RCP_Checker`` and ``check_directory`` as the result summarizer calls it
(``_compute_strong_scaling_scores``: ``rcp_pass='pruned_rcps'``, ``set_scaling=True``):

- each RCP record's mean is the mean of its sorted samples (or epochs) to converge
  without the smallest and the largest (4 each for unet3d), its stdev ``np.std`` of all;
  its "min epochs" the smallest mean a t-test (``scipy.stats.ttest_ind_from_stats``, one
  sided, alpha 0.05) cannot tell from the reference, found by bisection to 1e-4
  (``_find_min_acceptable_mean``); max speedup = mean / min epochs (llama31_405b:
  mean / (min epochs - 46080));
- records whose mean is above the interpolation of their neighbours are pruned
  (``_prune_rcps``);
- a submission's samples to converge per run are the ``samples_count`` (``epoch_num``
  elsewhere) of its last evaluation before a successful ``run_stop`` (``read_submission_file``);
  its mean drops the fastest and the slowest run;
- with the record of its batch size (or one interpolated between the nearest below and
  above), the submission passes when its mean >= RCP mean / max speedup; when it converges
  faster than the RCP mean, the summarizer writes ``scaling.json`` with RCP mean / its mean
  (``_find_norm_factor``, never below 1) into the result folder, and its score is
  multiplied by it from the next summary on.

Libraries: numpy (means, stdev, interpolation) and scipy (the t-test), as the checker uses.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
import scipy.stats

#: ``rcp_checker.submission_runs['training']`` at 6.0.0-rc6 (benchmarks with RCP files).
SUBMISSION_RUNS = {
    "dlrm_dcnv2": 10,
    "flux1": 10,
    "llama2_70b_lora": 10,
    "llama31_405b": 3,
    "llama31_8b": 10,
    "gpt_oss_20b": 10,
    "deepseekv3_671b": 3,
}
RCP_DIRS = {"v6.0": "training_6.0.0"}
ALPHA = 0.05
TOLERANCE = 0.0001
_SAMPLES_UNIT = ("llama2_70b_lora", "flux1")


@dataclass
class Rcp:
    """One RCP record: batch size, mean and stdev of its epochs (or samples) to
    converge, and the fastest mean it accepts (``min_epochs``)."""

    bs: float
    mean: float
    stdev: float
    min_epochs: float
    max_speedup: float
    epochs: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class RcpVerdict:
    """``check_directory``'s answer: ``passed``, ``message`` (the checker's, e.g. "RCP
    found", "RCP Interpolation", "Missing RCP, please submit RCP with BS = 8"), the
    normalization factor it would write to ``scaling.json`` (1.0 when none), the record
    compared with and the submission's mean samples (epochs) to converge."""

    passed: bool
    message: str
    norm_factor: float
    rcp_mean: float | None = None
    subm_mean: float | None = None


def _p_value_ok(subm_mean: float, stdev: float, n_subm: int, ref_mean: float, n_ref: int) -> bool:
    t_stat, p_value = scipy.stats.ttest_ind_from_stats(
        subm_mean, stdev, n_subm, ref_mean, stdev, n_ref, equal_var=True
    )
    p = p_value / 2 if t_stat < 0 else 1 - p_value / 2
    return bool(p > ALPHA)


def min_acceptable_mean(mean: float, stdev: float, n_ref: int, runs: int) -> float:
    """``_find_min_acceptable_mean``: bisection on [0, mean] to ``TOLERANCE``.
    ``n_ref`` samples of the reference, ``runs`` the benchmark's submission runs."""
    if stdev == 0:
        return mean
    lo, hi = 0.0, mean
    mid = (lo + hi) / 2
    while hi - lo > TOLERANCE:
        # the checker passes (mid, n_ref) and (mean, runs - 2) in this order
        if _p_value_ok(mid, stdev, n_ref, mean, runs - 2):
            hi = mid
        else:
            lo = mid
        mid = (lo + hi) / 2
    return mid


def _record(benchmark: str, bs: float, epochs: Sequence[float], runs: int) -> Rcp:
    ep = sorted(float(e) for e in epochs)
    k = 4 if benchmark == "unet3d" else 1
    mean = float(np.mean(ep[k : len(ep) - k]))
    stdev = float(np.std(ep))
    min_ep = min_acceptable_mean(mean, stdev, len(ep) - 2 * k, runs)
    return Rcp(float(bs), mean, stdev, min_ep, mean / min_ep, ep)


def _interp(bs: float, low: Rcp, high: Rcp, runs: int) -> Rcp:
    """``_create_interp_rcp`` (min epochs with ``runs * 2`` reference samples)."""
    mean = float(np.interp(bs, [low.bs, high.bs], [low.mean, high.mean]))
    stdev = float(np.interp(bs, [low.bs, high.bs], [low.stdev, high.stdev]))
    min_ep = min_acceptable_mean(mean, stdev, runs * 2, runs)
    return Rcp(bs, mean, stdev, min_ep, mean / min_ep)


def _prune(records: list[Rcp], runs: int) -> list[Rcp]:
    """``_prune_rcps``: from the fastest-converging record up, drop each record whose
    mean is above the interpolation of its neighbours."""
    fastest = min(records, key=lambda r: r.mean)
    kept = [r for r in records if r.bs >= fastest.bs]
    i = 1
    while i < len(kept) - 1:
        if kept[i].mean > _interp(kept[i].bs, kept[i - 1], kept[i + 1], runs).mean:
            del kept[i]
            i -= 1
        i += 1
    return kept


@cache
def pruned_rcps(round_version: str, benchmark: str) -> tuple[Rcp, ...]:
    """The pruned RCP records of a benchmark, by batch size. Raises KeyError for a
    round or benchmark without a vendored RCP file."""
    runs = SUBMISSION_RUNS[benchmark]
    base = resources.files("benchdb.mlperf.training").joinpath("rcp_json", round_version)
    text = base.joinpath(RCP_DIRS[round_version], f"rcps_{benchmark}.json").read_text()
    raw: dict[str, Any] = json.loads(text)
    unit = "samples to converge" if benchmark in _SAMPLES_UNIT else "Epochs to converge"
    records = [
        _record(r["Benchmark"], r["BS"], r[unit], runs)
        for r in raw.values()
        if r["Benchmark"] == benchmark
    ]
    return tuple(_prune(sorted(records, key=lambda r: r.bs), runs))


#: benchmarks whose convergence point is the last evaluation's ``samples_count``
#: (``read_submission_file`` at 6.0.0-rc6); the others use ``epoch_num`` rounded to 3 places.
SAMPLES_COUNT = frozenset(
    {"llama2_70b_lora", "flux1", "llama31_405b", "llama31_8b", "gpt_oss_20b", "deepseekv3_671b"}
)


def convergence_point(benchmark: str, at: float) -> float:
    """A converged run's samples (or epochs) to converge from its last evaluation's
    ``samples_count`` / ``epoch_num`` (``read_submission_file``: epochs rounded to 3)."""
    return float(at) if benchmark in SAMPLES_COUNT else round(float(at), 3)


def _evaluate(benchmark: str, rcp: Rcp, subm: list[float], message: str) -> RcpVerdict:
    """``_eval_submission_record`` (llama31_405b: max speedup = mean / (min epochs -
    46080), 5.0.0 on)."""
    ep = sorted(subm)
    k = 4 if benchmark == "unet3d" else 1
    mean = float(np.mean(ep[k : len(ep) - k]))
    factor = max(rcp.mean / mean, 1.0)
    speedup = rcp.max_speedup
    if benchmark == "llama31_405b":
        speedup = rcp.mean / (rcp.min_epochs - 46080)
    passed = mean >= rcp.mean / speedup
    norm = factor if passed and mean < rcp.mean else 1.0
    return RcpVerdict(passed, message, norm, rcp.mean, mean)


def check(round_version: str, benchmark: str, bs: float, subm: Sequence[float]) -> RcpVerdict:
    """``check_directory`` on one result: ``bs`` its global batch size, ``subm`` each
    run's samples (epochs) to converge, ``inf`` for a run that did not converge.
    More than one unconverged run: "Insufficient convergence". Raises KeyError for a
    round or benchmark without RCPs here. ``norm_factor`` is what the summarizer writes
    to ``scaling.json`` (1.0: it writes none, and removes one that was there whenever a
    record was compared)."""
    if sum(1 for s in subm if s == float("inf")) > (4 if benchmark == "unet3d" else 1):
        return RcpVerdict(False, "Insufficient convergence", 1.0)
    rcps = pruned_rcps(round_version, benchmark)
    runs, subm = SUBMISSION_RUNS[benchmark], list(subm)
    missing = f"Missing RCP, please submit RCP with BS = {bs:g}"
    exact = next((r for r in rcps if r.bs == bs), None)
    if exact is not None:
        return _evaluate(benchmark, exact, subm, "RCP found")
    below = max((r for r in rcps if r.bs < bs), key=lambda r: r.bs, default=None)
    above = min((r for r in rcps if r.bs > bs), key=lambda r: r.bs, default=None)
    if below is not None and above is not None:
        return _evaluate(benchmark, _interp(bs, below, above, runs), subm, "RCP Interpolation")
    if below is None and above is not None:  # compared with the smallest batch size
        got = _evaluate(benchmark, rcps[0], subm, "")
        why = "RCP not found but slower convergence on smaller batch size"
        return RcpVerdict(
            got.passed, why if got.passed else missing, got.norm_factor, got.rcp_mean, got.subm_mean
        )
    return RcpVerdict(False, missing if rcps else "Cannot find any RCPs", 1.0)

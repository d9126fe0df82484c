"""MLPerf HPC scoring rules, round by round. Pure: no Django.

MLPerf HPC results are scored by the same ``mlperf_logging`` result summarizer as
training, with ``usage=hpc`` (``result_summarizer.py``; HPC support from commit
1ce757e, 2021-09-07). Each round is reproduced at the release that scored it:

========  ===================  ======================================================
round     mlperf_logging tag   why this tag
========  ===================  ======================================================
v0.7      none                 published 2020-11; the summarizer had no HPC support
                               and no ``hpc_0.7.0`` checker config ever existed
v1.0      ``hpc-1.0.0-rc2``    the last HPC 1.0 release (2021-10-06)
v2.0      ``2.1.0``            first release with ``hpc_2.0.0`` configs is 2.1.0-rc1
                               (2022-09-28); 2.1.0 (2022-11-01) is the released one
v3.0      ``hpc-3.0.0``        the HPC 3.0 release (2023-09-18)
========  ===================  ======================================================

Strong scaling is training's olympic mean (``_compute_strong_scaling_scores``):
:func:`benchdb.mlperf.training.scoring.olympic_mean`, one run dropped at each end.
Weak scaling (``_compute_weak_scaling_scores``) gives, per result folder, the number
of models that passed (M), their instance scale (S, accelerators per model) and the
time to train all of them (TTTa, first ``run_start`` to last ``run_stop``); the
result counts when M reaches the round's ``get_result_file_counts('hpc')``.

Units: minutes unless a name ends in ``_ms`` (MLLOG ``time_ms``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchdb.mlperf.training import rules as training_rules
from benchdb.mlperf.training.rules import RunFacts
from benchdb.vocabulary import round_tuple

#: Round -> the mlperf_logging tag whose summarizer scored it ("" for none).
HPC_TAGS = {"v0.7": "", "v1.0": "hpc-1.0.0-rc2", "v2.0": "2.1.0", "v3.0": "hpc-3.0.0"}

#: Quality targets: (log key, low, low inclusive, high, high inclusive). From
#: ``ATLEAST_ONE_CHECK`` of ``compliance_checker/hpc_<ruleset>/closed_<benchmark>.yaml``
#: (the ``open_<benchmark>.yaml`` files hold the same bounds): cosmoflow
#: ``0 < eval_error <= 0.124``, oc20 ``0 < eval_error <= 0.036``, deepcam
#: ``0.82 <= eval_accuracy <= 1``, openfold (3.0.0) ``0.8 <= eval_accuracy <= 1.0``.
TARGETS: dict[str, tuple[str, float, bool, float, bool]] = {
    "cosmoflow": ("eval_error", 0.0, False, 0.124, True),
    "oc20": ("eval_error", 0.0, False, 0.036, True),
    "deepcam": ("eval_accuracy", 0.82, True, 1.0, True),
    "openfold": ("eval_accuracy", 0.8, True, 1.0, True),
}

#: Initialization bound: ``init_stop`` less than 30 minutes after the first
#: ``init_start`` (``hpc_<ruleset>/common.yaml``, every HPC config).
INIT_LIMIT_MS = 30 * 60 * 1e3


@dataclass(frozen=True)
class HpcRuleset:
    """How an HPC round was scored: ``version`` ("v1.0"), ``tag`` (mlperf_logging
    release, "" when no summarizer existed), ``checked`` (whether a compliance
    checker config existed for the round: from v1.0)."""

    version: str
    tag: str
    checked: bool

    @property
    def applies_scaling(self) -> bool:
        """Whether ``scaling.json`` multiplies a strong-scaling score:
        ``_get_scaling_factor``, in the summarizer from 2.0.0 (commit 76a28ba,
        2022-03-31), so in 2.1.0 and hpc-3.0.0, not in hpc-1.0.0-rc2."""
        return round_tuple(self.version) >= (2, 0)

    def weak_models_required(self, benchmark: str) -> int:
        """Models a weak-scaling result needs (``benchmark_meta._ALL_RESULT_FILE_COUNTS
        ['hpc']`` at the tag): deepcam 5, cosmoflow 10, oc20 10 at hpc-1.0.0-rc2 and
        5 from commit 6d57529 (2.1.0, hpc-3.0.0), openfold 10 (hpc-3.0.0). Raises
        KeyError for a benchmark the round does not have."""
        counts = {"deepcam": 5, "cosmoflow": 10, "oc20": 10 if self.version == "v1.0" else 5}
        if round_tuple(self.version) >= (3, 0):
            counts["openfold"] = 10
        return counts[benchmark]

    def training_view(self) -> training_rules.Ruleset:
        """The training rules whose log checks HPC shares: a line that does not
        parse, ``run_start``/``run_stop`` missing, a time outside benchdb's sanity
        bounds (``training_rules._log_failure``)."""
        return training_rules.Ruleset(
            version=self.version,
            tag=self.tag,
            applies_scaling=self.applies_scaling,
            init_minutes=None,
            requires_success_status=False,
        )


def ruleset_for(round_version: str) -> HpcRuleset:
    """The rules of an HPC round. Raises ValueError for a round that is not one."""
    rt = round_tuple(round_version)
    version = f"v{rt[0]}.{rt[1]}"
    if version not in HPC_TAGS:
        raise ValueError(f"no MLPerf HPC round {round_version} (known: {', '.join(HPC_TAGS)})")
    return HpcRuleset(version=version, tag=HPC_TAGS[version], checked=rt >= (1, 0))


def met_target(benchmark: str, evals: Sequence[Any], errors: Sequence[Any]) -> bool | None:
    """Whether one logged value meets the benchmark's target (:data:`TARGETS`);
    ``evals``/``errors``: the ``eval_accuracy``/``eval_error`` values in file order.
    None when the benchmark has no target here."""
    if benchmark not in TARGETS:
        return None
    key, lo, lo_incl, hi, hi_incl = TARGETS[benchmark]
    for v in errors if key == "eval_error" else evals:
        try:
            x = float(v)
        except (TypeError, ValueError, OverflowError):
            continue
        if (x > lo or (lo_incl and x == lo)) and (x < hi or (hi_incl and x == hi)):
            return True
    return False


def run_failure(run: RunFacts, rules: HpcRuleset, benchmark: str) -> str | None:
    """Why a run does not count, or None (``_read_result_file``: the compliance
    checker's verdict, then ``'Parse error'``; then ``_query_run_start_stop``).

    Checked here, the subset of ``hpc_<ruleset>/common.yaml``/``closed_common.yaml``
    and ``closed_<benchmark>.yaml`` that decides results: every log check of training
    (:meth:`HpcRuleset.training_view`); from v1.0 ``run_start``/``run_stop``/
    ``init_stop`` EXACTLY_ONE (logged again with other values fails), ``status`` in
    ``run_stop`` metadata, ``init_stop`` < 30 min after the first ``init_start``,
    ``number_of_nodes`` and ``accelerators_per_node`` logged, and the quality target
    (:data:`TARGETS`, closed and open alike). v0.7 had no checker: only the log
    checks and the target of its rules.
    """
    why = training_rules.log_failure(run, rules.training_view())
    if why:
        return why
    if rules.checked:
        for key in ("run_start", "run_stop", "init_stop"):
            if run.key_counts.get(key, 0) > 1 and key in run.repeated_differ:
                return f"{key} logged {run.key_counts[key]} times with different values"
        if not run.run_stop_has_status:
            return "run_stop has no status"
        if run.init_start_ms is None or run.init_stop_ms is None:
            return "init_start/init_stop not logged"
        if run.init_stop_ms - run.init_start_ms >= INIT_LIMIT_MS:
            minutes = (run.init_stop_ms - run.init_start_ms) / 60000.0
            return f"initialization took {minutes:.1f} min (limit 30)"
        for key in ("number_of_nodes", "accelerators_per_node"):
            if not run.key_counts.get(key):
                return f"{key} not logged"
    errors = getattr(run, "eval_errors", ())
    met = met_target(benchmark, [e.value for e in run.evals], [e.value for e in errors])
    if met is False:
        key, lo, _, hi, _ = TARGETS[benchmark]
        return f"quality target not reached ({key} in [{lo:g}, {hi:g}])"
    return None


def instance_scale(hyperparameters: dict[str, Any]) -> int | None:
    """Accelerators per model: ``number_of_nodes x max(accelerators_per_node, 1)``
    (``result_summarizer._query_instance_scale``, hpc-1.0.0-rc1 on: CPU-only systems
    log 0 accelerators per node). None when either is missing or not a number."""
    try:
        nodes = int(hyperparameters["number_of_nodes"])
        per_node = int(hyperparameters["accelerators_per_node"])
    except (KeyError, TypeError, ValueError, OverflowError):
        return None
    return nodes * max(per_node, 1)


@dataclass(frozen=True)
class WeakScore:
    """A weak-scaling result: ``models`` (M) passed, ``instance_scale`` (S),
    ``time_to_train_all_minutes`` (TTTa) and ``throughput_models_per_minute``
    (M / TTTa, derived by benchdb: the summarizer reports M and TTTa, MLCommons'
    results table shows their ratio). All None (``reason`` set) when not scored."""

    models: int
    instance_scale: int | None
    time_to_train_all_minutes: float | None
    throughput_models_per_minute: float | None
    counted: tuple[int, ...]
    failed: tuple[int, ...]
    reason: str


def weak_score(
    runs: Sequence[tuple[float, float, int | None] | None], rules: HpcRuleset, benchmark: str
) -> WeakScore:
    """Score one weak-scaling folder. ``runs``: per run in file order, None for a
    failed run, else (``run_start`` ms, ``run_stop`` ms, instance scale).

    TTTa = (max stop - min start) / 60 / 1000 over the runs that passed; the result
    is scored when their number reaches :meth:`HpcRuleset.weak_models_required` and
    TTTa is within :func:`benchdb.mlperf.training.rules.time_error`'s bounds (benchdb
    sanity bound: under 30 days; the summarizer subtracts whatever it finds).
    Differing instance scales leave it unscored (the summarizer stops on an
    ``assert`` there). Source: ``_compute_weak_scaling_scores`` at the round's tag.
    """
    ok = [(i, r) for i, r in enumerate(runs) if r is not None]
    failed = tuple(i for i, r in enumerate(runs) if r is None)
    counted = tuple(i for i, _ in ok)
    scales = {r[2] for _, r in ok}
    scale = next(iter(scales)) if len(scales) == 1 else None
    required = rules.weak_models_required(benchmark)
    why = ""
    if len(ok) < required:
        why = f"not enough converging weak scaling runs: {len(ok)} (at least {required})"
    elif len(scales) > 1:
        why = f"instance scales differ between runs: {sorted(map(str, scales))}"
    elif scale is None:
        why = "number_of_nodes/accelerators_per_node not logged"
    if why:
        return WeakScore(len(ok), scale, None, None, counted, failed, why)
    ttta = (max(r[1] for _, r in ok) - min(r[0] for _, r in ok)) / 60 / 1000
    why = training_rules.time_error(0.0, ttta * 60_000) or ""
    if why:  # each run is under 30 days, but their starts may lie years apart
        why = "time to train all: " + why.replace("run_stop is not after run_start", "not > 0")
        return WeakScore(len(ok), scale, None, None, counted, failed, why)
    return WeakScore(len(ok), scale, ttta, len(ok) / ttta, counted, failed, "")

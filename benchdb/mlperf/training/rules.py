"""MLPerf Training scoring rules, round by round. Pure: no Django.

Everything here reproduces what MLCommons' ``mlperf_logging`` computed at the
release of each round (tags ``0.7.0``, ``1.0.0``, ``1.1.0-rc4``, ``2.0.0``,
``2.1.0`` ... of github.com/mlcommons/logging), not what today's release does to
old rounds. ``../shared/mlperf/SCORING.md`` is the reading of that code this
module follows; each rule's docstring names the file and function it comes from.
Here: the rules of a round (quality targets, bounds) and why a run fails; a result's
score from its runs (the olympic mean) is in :mod:`benchdb.mlperf.training.scoring`.

Units: times in minutes unless a name ends in ``_ms`` (milliseconds since the Unix
epoch, as MLLOG ``time_ms``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from benchdb.vocabulary import ROUNDS, round_tuple

# --- rules of a round -------------------------------------------------------------


# One condition on an eval_accuracy value: (dict part or None, low, low inclusive,
# high, high inclusive); None for an open end.
Bound = tuple[str | None, float | None, bool, float | None, bool]


@dataclass(frozen=True)
class Target:
    """Quality target: a run reaches it when one ``eval_accuracy`` value meets every
    bound. ``value`` is the headline figure (``>=`` it when ``higher_is_better``).
    The bounds copy ``ATLEAST_ONE_CHECK`` of ``closed_<benchmark>.yaml``, upper
    and lower sanity limits included (e.g. resnet ``0.759 <= v < 1.0``)."""

    value: float
    higher_is_better: bool
    bounds: tuple[Bound, ...]
    part: str | None = None

    def met_by(self, v: Any) -> bool:
        """True if one eval_accuracy value meets the target (raises nothing)."""
        try:
            return all(
                _within(float(v[p] if p else v), lo, li, hi, hi_i)
                for p, lo, li, hi, hi_i in self.bounds
            )
        except (TypeError, ValueError, KeyError, IndexError, OverflowError):
            return False


def _within(v: float, lo: float | None, lo_incl: bool, hi: float | None, hi_incl: bool) -> bool:
    if lo is not None and (v < lo or (v == lo and not lo_incl)):
        return False
    return hi is None or v < hi or (v == hi and hi_incl)


def _at_least(t: float, below: float | None = 1.0, part: str | None = None) -> Bound:
    return (part, t, True, below, False)


def _at_most(t: float, above: float = 0.0, part: str | None = None) -> Bound:
    return (part, above, False, t, True)


def _targets(rt: tuple[int, int]) -> dict[str, Target]:
    """Closed-division targets, from ``ATLEAST_ONE_CHECK`` of
    ``compliance_checker/training_<ruleset>/closed_<benchmark>.yaml`` (0.7.0 on)."""

    def up(t: float, below: float | None = 1.0) -> Target:
        return Target(t, True, (_at_least(t, below),))

    def down(t: float, above: float = 0.0) -> Target:
        return Target(t, False, (_at_most(t, above),))

    return {
        "resnet": up(0.759),
        "bert": up(0.720 if rt >= (1, 0) else 0.712),
        "maskrcnn": Target(
            0.377, True, (_at_least(0.377, part="BBOX"), _at_least(0.339, part="SEGM")), "BBOX"
        ),
        "ssd": up(0.23),
        "retinanet": up(0.34),
        "rnnt": down(0.058),
        "unet3d": up(0.908, None),
        "dlrm": up(0.8025),
        "minigo": up(0.5),
        "gnmt": up(0.24),
        "transformer": up(0.25),
        "dlrm_dcnv2": Target(0.80275, True, ((None, 0.80275, True, 1.0, True),)),
        "gpt3": down(2.69, 2.6),
        "rgat": up(0.72),
        "llama2_70b_lora": down(0.925),
        "llama31_405b": down(5.6),
        "llama31_8b": down(3.3),
        "flux1": down(0.586),
        "gpt_oss_20b": down(3.34),
        "deepseekv3_671b": down(3.6),
        "stable_diffusion": Target(
            90.0, False, (("FID", 0.0, True, 90.0, True), ("CLIP", 0.15, True, 1.0, True)), "FID"
        ),
    }


_WEIGHTS_INIT_BENCHMARKS = frozenset(
    {"bert", "dlrm", "maskrcnn", "resnet", "rnnt", "ssd", "retinanet", "unet3d"}
)


@dataclass(frozen=True)
class Ruleset:
    """How a round's results were scored.

    ``version``: round (``"v1.1"``); ``tag``: the mlperf_logging release that
    scored it; ``max_dropped``: runs dropped at each end of the olympic mean;
    ``applies_scaling``: whether ``scaling.json`` multiplies the score (2.0.0 on,
    ``result_summarizer._get_scaling_factor``); ``init_minutes``: the bound on
    ``init_stop`` - first ``init_start`` (``common.yaml``), closed / open.
    """

    version: str
    tag: str
    applies_scaling: bool
    init_minutes: tuple[float, float] | None
    requires_success_status: bool

    def max_dropped(self, benchmark: str) -> int:
        """Runs dropped at each end: 4 for unet3d from 1.0.0, else 1.
        Source: ``result_summarizer.py`` ``_compute_strong_score_standalone``
        (``max_dropped = 4 if benchmark == "unet3d" else 1``), tag 1.0.0 on."""
        return 4 if benchmark == "unet3d" and round_tuple(self.version) >= (1, 0) else 1

    @property
    def parse_errors_fail(self) -> bool:
        """A log line that does not parse fails the run from 0.7.0
        (``_read_result_file``: ``'Parse error'``); the v0.5 rules and the first
        v0.6 summarizer read only the ``run_start``/``run_stop`` lines."""
        return round_tuple(self.version) >= (0, 7)

    @property
    def open_below_one(self) -> bool:
        """Open division: at least one ``eval_accuracy`` value must be < 1.0
        (``open_<benchmark>.yaml`` / ``open_common.yaml`` ``ATLEAST_ONE_CHECK``, 0.7.0 on)."""
        return round_tuple(self.version) >= (0, 7)

    def weights_init(self, benchmark: str) -> str | None:
        """How a closed run that logs no ``weights_initialization`` is treated:
        None (not required), ``"warning"`` or ``"error"`` (the run fails).

        ``REQ: AT_LEAST_ONE`` in ``closed_rnnt.yaml`` of 1.0.0, and in
        ``closed_{bert,dlrm,maskrcnn,resnet,rnnt,ssd,unet3d}.yaml`` of 1.1.0-2.1.0;
        1.1.0's ``mlp_compliance.py`` downgrades it to a warning ("can be ignored
        for 1.1.0"); gone from 3.0.0.
        """
        rt = round_tuple(self.version)
        if rt == (1, 0):
            return "error" if benchmark == "rnnt" else None
        if (1, 1) <= rt <= (2, 1) and benchmark in _WEIGHTS_INIT_BENCHMARKS:
            return "warning" if rt == (1, 1) else "error"
        return None

    def target(self, benchmark: str, division: str) -> Target | None:
        """Quality target a run must reach, or None when the round checks none.

        Closed: ``closed_<benchmark>.yaml`` ``ATLEAST_ONE_CHECK``. Open: 0.7.0-3.x only
        require a value < 1.0 (``open_<benchmark>.yaml``); from 4.0.0 gpt3,
        llama31_405b and flux1 keep their target, and from 6.0.0 gpt_oss_20b and
        deepseekv3_671b (``open_<benchmark>.yaml`` of ``training_6.0.0``).
        v0.5/v0.6: no target is checked.
        """
        rt = round_tuple(self.version)
        if rt < (0, 7):
            return None
        targets = _targets(rt)
        if division == "open":
            if rt >= (4, 0) and benchmark in ("gpt3", "llama31_405b", "flux1"):
                return targets[benchmark]
            if rt >= (6, 0) and benchmark in ("gpt_oss_20b", "deepseekv3_671b"):
                return targets[benchmark]
            return None
        return targets.get(benchmark)


#: Runs a result must hold, per benchmark of v6.0: ``benchmark_meta.py``
#: ``_ALL_RESULT_FILE_COUNTS['training']`` at tag 6.0.0-rc6 (the package checker's
#: count; ``rcp_checker.submission_runs`` agrees). The summarizer scores whatever runs a
#: folder holds; only the olympic mean's drops depend on the count.
RUNS_REQUIRED_V6_0: dict[str, int] = {
    "llama31_8b": 10,
    "dlrm_dcnv2": 10,
    "flux1": 10,
    "llama2_70b_lora": 10,
    "llama31_405b": 3,
    "gpt_oss_20b": 10,
    "deepseekv3_671b": 3,
}


def runs_required(round_version: str, benchmark: str) -> int | None:
    """Runs the round's package checker asks of a result (:data:`RUNS_REQUIRED_V6_0`),
    None for a benchmark outside v6.0's list or a round before v6.0 (not kept here)."""
    if round_tuple(round_version) < (6, 0):
        return None
    return RUNS_REQUIRED_V6_0.get(benchmark)


def ruleset_for(round_version: str) -> Ruleset:
    """The rules a round was scored with. Raises ValueError for an unknown round."""
    rt = round_tuple(round_version)
    if rt < (0, 5):
        raise ValueError(f"no MLPerf Training round {round_version}")
    version = f"v{rt[0]}.{rt[1]}"
    tag = ROUNDS[version][1] if version in ROUNDS else f"{rt[0]}.{rt[1]}.0"
    if rt < (0, 7):
        init = None
    elif rt < (1, 0):
        init = (20.0, 20.0)
    elif rt < (2, 0):
        init = (30.0, 30.0)
    else:
        init = (30.0, 240.0)
    return Ruleset(
        version=version,
        tag=tag,
        applies_scaling=rt >= (2, 0),
        init_minutes=init,
        requires_success_status=rt < (0, 7),
    )


# --- one run ----------------------------------------------------------------------


class RunFacts(Protocol):
    """What the rules read from a parsed log (``ingest.parsers.types.ParsedRun``)."""

    @property
    def log_format(self) -> str: ...
    @property
    def run_start_ms(self) -> float | None: ...
    @property
    def run_stop_ms(self) -> float | None: ...
    @property
    def run_stop_status(self) -> str | None: ...
    @property
    def run_stop_has_status(self) -> bool: ...
    @property
    def init_start_ms(self) -> float | None: ...
    @property
    def init_stop_ms(self) -> float | None: ...
    @property
    def key_counts(self) -> dict[str, int]: ...
    @property
    def repeated_differ(self) -> tuple[str, ...]: ...
    @property
    def repeated_times(self) -> tuple[str, ...]: ...
    @property
    def submission(self) -> dict[str, Any]: ...
    @property
    def parse_error_count(self) -> int: ...
    @property
    def evals(self) -> Sequence[Any]: ...


def time_to_train(start_ms: float, stop_ms: float) -> float:
    """Minutes from ``run_start`` to ``run_stop``: (stop - start) / 60 / 1000.

    Source: ``result_summarizer._query_mlperf_strong_scaling_score`` (0.7.0 on).
    Not checked here: see :func:`time_error`.
    """
    return (stop_ms - start_ms) / 60.0 / 1000.0


#: Longest time to train a run may take, minutes: 30 days (benchdb sanity bound; the
#: slowest run of any published round took days, not weeks).
MAX_MINUTES = 30 * 24 * 60.0
#: Shortest, minutes: one millisecond, the resolution of MLLOG ``time_ms`` (benchdb
#: sanity bound; it also keeps an olympic mean of tiny times from rounding to 0).
MIN_MINUTES = 1 / 60_000

#: Range of ``scaling.json`` factors accepted (benchdb sanity bound): ``rcp_checker``
#: (``_eval_submission_record``) writes RCP mean / submission mean only when that is
#: > 1, and about 1.0-1.1 in practice; below 0.01 (1e-320, say) or above 10 a factor
#: would make a score a hundred times smaller or ten times larger.
MIN_SCALING_FACTOR = 0.01
MAX_SCALING_FACTOR = 10.0


def time_error(start_ms: float, stop_ms: float) -> str | None:
    """Why ``run_start``/``run_stop`` (ms) give no usable time to train, or None.

    The time must be a finite number of minutes in [:data:`MIN_MINUTES`,
    :data:`MAX_MINUTES`) (benchdb sanity bound: the summarizer subtracts whatever it
    finds, so a ``run_stop`` before ``run_start`` would count as a negative time).
    """
    minutes = time_to_train(start_ms, stop_ms)
    if not math.isfinite(minutes):
        return "run_start/run_stop time is not a number"
    if minutes < MIN_MINUTES:
        return f"run_stop is not after run_start ({minutes:.4g} min; benchdb sanity bound)"
    if minutes >= MAX_MINUTES:
        return f"time to train {minutes:.4g} min is not below 30 days (benchdb sanity bound)"
    return None


def scaling_factor_error(factor: float) -> str:
    """Why a ``scaling.json`` factor cannot be used ("" if it can): it must be a
    finite number in [:data:`MIN_SCALING_FACTOR`, :data:`MAX_SCALING_FACTOR`]
    (benchdb sanity bound; ``result_summarizer._get_scaling_factor`` multiplies the
    score by whatever it reads)."""
    if math.isfinite(factor) and MIN_SCALING_FACTOR <= factor <= MAX_SCALING_FACTOR:
        return ""
    return (
        f"scaling_factor must be in [{MIN_SCALING_FACTOR:g}, {MAX_SCALING_FACTOR:g}] "
        f"(benchdb sanity bound), got {factor!r}"
    )


def run_failure(
    run: RunFacts, rules: Ruleset, benchmark: str, division: str
) -> tuple[str | None, list[str]]:
    """Why a run does not count (None if it does), and warnings that do not fail it.

    Follows ``result_summarizer._read_result_file`` of the round: a run fails if
    the compliance checker reports an error. A log checked by the full checker
    (``run.compliance_ruleset`` set, v0.7 on: :func:`compliance_failure`) fails on
    its first error; otherwise a subset is applied here: EXACTLY_ONE
    ``run_start``/``run_stop``/``init_stop`` with differing values, ``status`` in
    ``run_stop`` metadata, ``init_stop`` within the round's bound of the first
    ``init_start``, ``weights_initialization`` where :meth:`Ruleset.weights_init`
    requires it, and the benchmark's quality target in the closed division. It also
    fails if an MLLOG line does not parse (``'Parse error'``), or if ``run_start``/``run_stop`` is
    missing (``_query_run_start_stop``). The division is the log's
    ``submission_division`` (``common.yaml`` enqueues ``<division>_common.yaml`` from
    it), else ``division``. Benchdb sanity bounds on top: the time to train
    (:func:`time_error`), and ``run_start``/``run_stop`` logged twice must agree.
    """
    warnings: list[str] = []
    why = _log_failure(run, rules)
    if getattr(run, "compliance_ruleset", ""):
        # _read_result_file: the compliance checker first, then 'Parse error', then
        # run_start/run_stop; benchdb's sanity bounds (_log_failure) last.
        checked, warnings = compliance_failure(run.compliance)  # type: ignore[attr-defined]
        return checked or why, warnings
    if why or rules.init_minutes is None:
        return why, warnings
    for key in ("run_start", "run_stop", "init_stop"):
        if run.key_counts.get(key, 0) > 1 and key in run.repeated_differ:
            return f"{key} logged {run.key_counts[key]} times with different values", warnings
    if not run.run_stop_has_status:
        return "run_stop has no status", warnings
    div = str(run.submission.get("division") or division).lower()
    if run.init_start_ms is not None and run.init_stop_ms is not None:
        bound = rules.init_minutes[1 if div == "open" else 0]
        init = (run.init_stop_ms - run.init_start_ms) / 60000.0
        if init > bound:
            return f"initialization took {init:.1f} min (limit {bound:g})", warnings
    weights_init = rules.weights_init(benchmark) if div == "closed" else None
    if weights_init and not run.key_counts.get("weights_initialization"):
        if weights_init == "error":
            return "no weights_initialization logged (closed division)", warnings
        warnings.append("no weights_initialization logged (a warning in 1.1.0)")
    return _accuracy_failure(run, rules, benchmark, div), warnings


def compliance_failure(findings: Sequence[Any]) -> tuple[str | None, list[str]]:
    """(why the run fails, warnings) from the findings of the round's full
    compliance checker (``benchdb.mlperf.training.compliance.check_log``): the first
    error, named by rule file and rule, fails the run, as ``_read_result_file``
    raises ``'Compliance check failed'``; warnings do not."""
    errors = [f for f in findings if f.severity == "error"]
    warnings = [f"compliance warning: {f}" for f in findings if f.severity != "error"]
    return (f"compliance: {errors[0]}" if errors else None), warnings


def log_failure(run: RunFacts, rules: Ruleset) -> str | None:
    """Why a run's log gives no time to train (None if it does): the checks of every
    round and of MLPerf HPC (``benchdb.mlperf.hpc.rules``): a log, lines that parse
    (0.7.0 on), ``run_start``/``run_stop`` present (``_query_run_start_stop``), a
    time within :func:`time_error`'s bounds."""
    return _log_failure(run, rules)


def _log_failure(run: RunFacts, rules: Ruleset) -> str | None:
    """The checks of every round: a log, its lines, run_start/run_stop and the time."""
    if run.log_format == "none":
        return "not an MLPerf log (no log lines)"
    if run.parse_error_count and rules.parse_errors_fail:
        return f"{run.parse_error_count} log line(s) do not parse"
    if run.run_start_ms is None:
        return "run_start not recorded"
    if run.run_stop_ms is None:
        return "run_stop not recorded (log cut off?)"
    why = time_error(run.run_start_ms, run.run_stop_ms)
    if why:
        return why
    for key in run.repeated_times:
        n = run.key_counts.get(key, 0)
        return f"{key} logged {n} times at different times (benchdb sanity bound)"
    if rules.requires_success_status and run.run_stop_status not in (None, "success"):
        return f"run_stop status is {run.run_stop_status!r}"
    return None


def _accuracy_failure(run: RunFacts, rules: Ruleset, benchmark: str, div: str) -> str | None:
    """The quality checks: an ``eval_accuracy`` logged; the target met (closed, and
    open from 4.0.0 for some), or one value below 1.0 (open, 0.7.0 on)."""
    if not run.evals:
        return "no eval_accuracy logged"
    target = rules.target(benchmark, div)
    if target is not None and not any(target.met_by(e.value) for e in run.evals):
        sign = ">=" if target.higher_is_better else "<="
        what = target.part or "eval_accuracy"
        return f"quality target not reached ({what} {sign} {target.value:g})"
    if (
        target is None
        and div == "open"
        and rules.open_below_one
        and not any(_below_one(e.value) for e in run.evals)
    ):
        return "no eval_accuracy below 1.0 (open division check)"
    return None


def _below_one(v: Any) -> bool:
    try:
        return float(v) < 1.0
    except OverflowError:
        return False  # an integer too large for a float is not below 1.0
    except (TypeError, ValueError):
        return True  # dict-valued metrics: open_*.yaml compares only scalars

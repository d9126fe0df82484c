"""MLPerf Training: a result's score from its runs' times (the olympic mean). Pure.

What ``mlperf_logging``'s ``result_summarizer`` computes from the times to train of a
result's runs at each round's tag (github.com/mlcommons/logging): the olympic mean,
the scaling factor applied, v0.5 NCF's first 50 converged runs; and the scaling
efficiency of the analysis pages. Times in minutes. Which runs count is decided by
:mod:`benchdb.mlperf.training.rules` (``run_failure``). Split from ``rules.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from benchdb.mlperf.training.rules import MAX_MINUTES, MIN_MINUTES, Ruleset, scaling_factor_error


@dataclass(frozen=True)
class Score:
    """A result's score: ``score_minutes`` is None when there is none (``reason``).

    ``counted`` and ``dropped`` are indices into the run list given to
    :func:`olympic_mean`; failed runs are in ``dropped`` as slowest ones.
    """

    score_minutes: float | None
    mean_minutes: float | None
    scaling_factor: float
    counted: tuple[int, ...]
    dropped_fastest: tuple[int, ...]
    dropped_slowest: tuple[int, ...]
    runs_failed: int
    reason: str

    @classmethod
    def none(cls, reason: str, failed: tuple[int, ...], scaling_factor: float) -> Score:
        """No score, for ``reason``; ``failed`` are the indices of the failed runs."""
        return cls(None, None, scaling_factor, (), (), failed, len(failed), reason)


def olympic_mean(
    minutes: Sequence[float | None], max_dropped: int, scaling_factor: float = 1.0
) -> Score:
    """Olympic mean of run times.

    ``minutes``: one entry per run, in file order; None marks a failed run, which
    counts as one of the slowest. Drops the ``max_dropped`` fastest runs and
    ``max_dropped - failed`` of the slowest, averages the rest (minutes), and
    multiplies by ``scaling_factor``. No score when more than ``max_dropped`` runs
    failed or nothing is left. Ties are broken by file order (stable sort).
    Source: ``result_summarizer._compute_olympic_average`` and its caller
    (mlperf_logging 1.0.0 to 5.1.0; 0.7.0 has the same effect with max_dropped 1).
    """
    ok = sorted((t, i) for i, t in enumerate(minutes) if t is not None)
    failed = tuple(i for i, t in enumerate(minutes) if t is None)
    if len(failed) > max_dropped:
        return Score.none(
            f"too many failed runs: {len(failed)} (at most {max_dropped})", failed, scaling_factor
        )
    keep_to = len(ok) - (max_dropped - len(failed))
    counted = ok[max_dropped:keep_to]
    if not counted:
        return Score.none(f"not enough runs: {len(minutes)}", failed, scaling_factor)
    mean = sum(t for t, _ in counted) * 1.0 / len(counted)  # as the summarizer sums
    return Score(
        score_minutes=mean * scaling_factor,
        mean_minutes=mean,
        scaling_factor=scaling_factor,
        counted=tuple(i for _, i in counted),
        dropped_fastest=tuple(i for _, i in ok[:max_dropped]),
        dropped_slowest=tuple(i for _, i in ok[max(keep_to, max_dropped) :]) + failed,
        runs_failed=len(failed),
        reason="",
    )


#: v0.5 NCF: "Run 100, use first 50 that converge" (mlcommons/training_policies,
#: training_rules.adoc at v0.5, commit 6e02163), then the olympic mean of those 50.
V05_NCF_RUNS_USED = 50


def score_result(
    minutes: Sequence[float | None], rules: Ruleset, benchmark: str, scaling_factor: float = 1.0
) -> tuple[Score, tuple[int, ...]]:
    """Score a result under its round's rules: (score, indices of converged runs
    that the rule leaves out).

    ``minutes``: per run in file order (``result_0``, ``result_1``, ... numerically),
    None for a failed run (so is a time outside [:data:`MIN_MINUTES`,
    :data:`MAX_MINUTES`)). Every
    round scores with :func:`olympic_mean`, except v0.5 NCF, which uses the first
    :data:`V05_NCF_RUNS_USED` converged runs in file order and leaves the others out
    (not failures, not dropped). A ``scaling_factor`` that :func:`scaling_factor_error`
    refuses leaves the result without a score (the runs keep their roles, and the
    score's factor is 1.0).
    """
    minutes = [t if t is not None and MIN_MINUTES <= t < MAX_MINUTES else None for t in minutes]
    error = scaling_factor_error(scaling_factor)
    if error:
        score, unused = _score_result(minutes, rules, benchmark, 1.0)
        return replace(score, score_minutes=None, reason=f"scaling.json: {error}"), unused
    return _score_result(minutes, rules, benchmark, scaling_factor)


def _score_result(
    minutes: Sequence[float | None], rules: Ruleset, benchmark: str, scaling_factor: float
) -> tuple[Score, tuple[int, ...]]:
    if rules.version == "v0.5" and benchmark == "ncf":
        ok = [i for i, t in enumerate(minutes) if t is not None]
        if len(ok) < V05_NCF_RUNS_USED:
            failed = tuple(i for i, t in enumerate(minutes) if t is None)
            why = (
                f"only {len(ok)} of {len(minutes)} runs converged "
                f"(v0.5 NCF uses the first {V05_NCF_RUNS_USED})"
            )
            return Score.none(why, failed, scaling_factor), ()
        used = ok[:V05_NCF_RUNS_USED]
        sub = olympic_mean([minutes[i] for i in used], 1, scaling_factor)

        def remap(idx: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(used[i] for i in idx)

        score = Score(
            sub.score_minutes,
            sub.mean_minutes,
            scaling_factor,
            remap(sub.counted),
            remap(sub.dropped_fastest),
            remap(sub.dropped_slowest),
            len(minutes) - len(ok),
            "",
        )
        return score, tuple(ok[V05_NCF_RUNS_USED:])
    return olympic_mean(minutes, rules.max_dropped(benchmark), scaling_factor), ()


def scaling_efficiency(
    ref_minutes: float, ref_accelerators: int, minutes: float, accelerators: int
) -> float:
    """E(N) = (T_ref x N_ref) / (T_N x N): 1.0 is perfect strong scaling.

    Times in minutes (any unit, the same for both), accelerator counts > 0.
    Raises ZeroDivisionError on a zero time or count.
    """
    return (ref_minutes * ref_accelerators) / (minutes * accelerators)

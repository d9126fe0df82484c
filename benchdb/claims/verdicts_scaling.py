"""Scaling efficiency between two time-to-train results of one submitter. Pure: no
Django. Part of :mod:`benchdb.claims.verdicts`, which dispatches ``scaling`` claims
to :func:`verify_scaling`.

A scaling efficiency ("90% scaling efficiency when expanding from 512 to 2,496
GPUs") is a derived figure, not an MLPerf metric: the messaging guidelines allow it
only when it is said how it is computed ("Comparisons based on secondary or derived
metrics must be explicit", ``../shared/vendor/MLPerf_Results_Messaging_Guidelines.adoc``).
It is read here as strong-scaling efficiency, the speedup over the growth in
accelerators:

    efficiency = (t_small x n_small) / (t_large x n_large) x 100 (%)

with ``t`` the official time to train (minutes) and ``n`` the accelerator count of the
smaller and the larger result: the usual parallel efficiency (the speedup
``t_small / t_large`` over the growth ``n_large / n_small``), as issue 20 ("scaling
efficiency between two results of one submitter") asks. Every claim so checked is
flagged ``scaling-efficiency`` (:mod:`benchdb.claims.flags`).

The two results are chosen from the frame alone: the claim's round, both accelerator
counts as the text gives them (the larger ``accelerators``, the smaller
``compared_accelerators``), its system or product family, submitter and division
when given, and its benchmark, or every benchmark when none is named. A pair is two
results of one submitter and one benchmark, division and system family; every such
pair is a reading (:mod:`benchdb.claims.readings`), and the verdict holds for all of
them or is left open. The claimed value never chooses a pair.
"""

from __future__ import annotations

from collections.abc import Sequence

from benchdb.claims.choices import looked_for
from benchdb.claims.facts import (
    ClaimFacts,
    Link,
    ResultFacts,
    Verification,
    submitter_matches,
    system_matches,
    tolerance,
    within,
)
from benchdb.claims.readings import Reading, settle
from benchdb.vocabulary import UNVERIFIABLE


def scaling_efficiency(
    small_minutes: float, small_count: int, large_minutes: float, large_count: int
) -> float:
    """Strong-scaling efficiency in percent (module docstring):
    ``small_minutes * small_count / (large_minutes * large_count) * 100``.

    Times in minutes (> 0), counts of accelerators (> 0). Raises ValueError when a
    time or count is not positive. Example (MLPerf Training v5.0, Llama 3.1 405B,
    CoreWeave + IBM + NVIDIA Carina): 121.0926 min on 512 GB200 and 27.3347 min on
    2,496 give 90.9%."""
    if min(small_minutes, large_minutes) <= 0 or min(small_count, large_count) <= 0:
        raise ValueError("scaling efficiency needs positive times and counts")
    return small_minutes * small_count / (large_minutes * large_count) * 100.0


def verify_scaling(
    c: ClaimFacts,
    bench: str,
    results: Sequence[ResultFacts],
    chosen: dict[str, list[ResultFacts]] | None,
) -> Verification:
    """A scaling efficiency (percent) between the claim's two accelerator counts: every
    pair of results the frame allows is a reading (module docstring). ``bench``: the
    canonical benchmark, or "" for any. ``chosen``: pinned links (subject: the larger
    result, compared: the smaller). Unverifiable, naming what is missing, when the
    text gives fewer than two counts or no pair is stored."""
    if c.value is None or c.accelerators is None or c.compared_accelerators is None:
        return Verification(
            UNVERIFIABLE,
            details={
                "reason": "a scaling efficiency needs the two accelerator counts it is"
                " between, and the text names fewer"
            },
        )
    pairs = _pairs(c, bench, results, chosen)
    if not pairs:
        what = f"{looked_for(c)} against {c.compared_accelerators} accelerators"
        return Verification(
            UNVERIFIABLE,
            details={
                "reason": f"no pair of results of one submitter for {what}"
                f" ({bench or 'any benchmark'}, {c.round})"
            },
        )
    readings = [_reading(c, large, small) for large, small in pairs]
    return settle(readings, {"formula": "t_small * n_small / (t_large * n_large) * 100"})


def _reading(c: ClaimFacts, large: ResultFacts, small: ResultFacts) -> Reading:
    eff = scaling_efficiency(
        small.score_minutes or 0.0,
        small.accelerators or 0,
        large.score_minutes or 0.0,
        large.accelerators or 0,
    )
    tol = tolerance(large.benchmark, c.suite or "training")
    return Reading(
        (Link(large.pk, "subject"), Link(small.pk, "compared")),
        eff,
        within(c.value or 0.0, eff, tol, c.qualifier),
        {
            "system": large.system_folder,
            "compared": small.system_folder,
            "benchmark": large.benchmark,
            "division": large.division,
        },
        f"{eff:.1f}% (tolerance {tol:.1%}): {small.label()} -> {large.label()}",
    )


def _pairs(
    c: ClaimFacts,
    bench: str,
    results: Sequence[ResultFacts],
    chosen: dict[str, list[ResultFacts]] | None,
) -> list[tuple[ResultFacts, ResultFacts]]:
    """(larger, smaller) result pairs of one submitter, benchmark and division."""
    if chosen:
        return [(a, b) for a in chosen["subject"] for b in chosen["compared"]]
    fits = [
        r
        for r in results
        if r.round == c.round
        and r.score_minutes
        and r.accelerators
        and (not bench or r.benchmark == bench)
        and (not c.division or r.division == c.division)
        and (not c.system or system_matches(c.system, r))
        and (not c.submitter or submitter_matches(c.submitter, r))
    ]
    large = [r for r in fits if r.accelerators == c.accelerators]
    small = [r for r in fits if r.accelerators == c.compared_accelerators]
    return [
        (a, b)
        for a in large
        for b in small
        if (a.submitter, a.benchmark, a.division, a.accelerator_model)
        == (b.submitter, b.benchmark, b.division, b.accelerator_model)
    ]

"""Parity claims ("X performs like Y"): every pair of results of the two frameworks or
systems on the same hardware in the round. Pure: no Django. Part of
:mod:`benchdb.claims.verdicts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from benchdb.claims.facts import (
    ClaimFacts,
    Link,
    ResultFacts,
    Verification,
    system_matches,
    tolerance,
)
from benchdb.claims.readings import Reading, settle
from benchdb.vocabulary import UNVERIFIABLE


def verify_parity(
    c: ClaimFacts,
    bench: str,
    results: Sequence[ResultFacts],
    chosen: dict[str, list[ResultFacts]] | None,
) -> Verification:
    """ "X performs like Y": every pair of results of the two frameworks (or systems)
    on the same hardware (accelerator model and count) in the round, each pair a
    reading (:func:`benchdb.claims.readings.settle`: consistent when every pair is
    within tolerance, inconsistent when none is); the recomputed value is the largest
    difference, in percent of Y's score."""
    tol = tolerance(bench, c.suite)
    pairs = _parity_pairs(c, bench, results, chosen)
    if not pairs:
        return Verification(
            UNVERIFIABLE,
            details={
                "reason": f"no results of both sides on the same hardware ({bench}, {c.round})",
                "tolerance": tol,
            },
        )
    diffs = [((x.score_minutes or 0.0) / (y.score_minutes or 1.0) - 1.0) * 100.0 for x, y in pairs]
    readings = [
        Reading(
            (Link(x.pk, "subject"), Link(y.pk, "compared")),
            d,
            abs(d) <= tol * 100.0,
            {"system": x.system_folder, "compared": y.system_folder, "division": x.division},
            f"{x.label()} vs {y.label()}: {d:+.1f}%",
        )
        for (x, y), d in zip(pairs, diffs, strict=True)
    ]
    details = {
        "tolerance": tol,
        "pairs": [
            {
                "subject": x.pk,
                "compared": y.pk,
                "difference_percent": d,
                "accelerators": x.accelerators,
            }
            for (x, y), d in zip(pairs, diffs, strict=True)
        ],
    }
    v = settle(readings, details)
    # the figure shown is the largest difference of the pairs read
    return replace(v, recomputed_value=max(diffs, key=abs)) if v.links else v


def _parity_pairs(
    c: ClaimFacts,
    bench: str,
    results: Sequence[ResultFacts],
    chosen: dict[str, list[ResultFacts]] | None,
) -> list[tuple[ResultFacts, ResultFacts]]:
    """(X, Y) result pairs of a parity claim: the chosen links, or the two frameworks'
    (else systems') results of the round on the same accelerator model and count."""
    pool = [
        r
        for r in results
        if r.round == c.round
        and r.benchmark == bench
        and r.score_minutes
        and (not c.division or r.division == c.division)
    ]
    if chosen:
        xs, ys = chosen["subject"], chosen["compared"]
    elif c.framework and c.compared_framework:
        xs = [r for r in pool if c.framework.lower() in r.framework.lower()]
        ys = [r for r in pool if c.compared_framework.lower() in r.framework.lower()]
    else:
        xs = [r for r in pool if c.system and system_matches(c.system, r)]
        ys = [r for r in pool if c.compared_system and system_matches(c.compared_system, r)]
    return [
        (x, y)
        for x in xs
        for y in ys
        if x.pk != y.pk
        and (
            chosen or (x.accelerator_model, x.accelerators) == (y.accelerator_model, y.accelerators)
        )
    ]

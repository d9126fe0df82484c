"""Training gains: a multiplier or percentage recomputed from two time-to-train results
(another system of the round, or the same system line in an earlier round), every pair
the text allows a reading (:mod:`benchdb.claims.readings`). Pure: no Django. Part of
:mod:`benchdb.claims.verdicts`, which dispatches to :func:`verify_gain`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from benchdb.claims.choices import best_pairs, choice, looked_for
from benchdb.claims.facts import (
    ClaimFacts,
    Link,
    ResultFacts,
    Verification,
    candidates,
    claimed_ratio,
    gain_tolerance,
    percent_readings,
    submitter_name_matches,
    system_matches,
)
from benchdb.claims.readings import Reading, bounded, extreme, settle
from benchdb.vocabulary import UNVERIFIABLE, canonical_benchmark, framework_family, round_tuple


def _baseline_rounds(
    c: ClaimFacts, new: ResultFacts, results: Sequence[ResultFacts], bench: str
) -> list[ResultFacts]:
    """Earlier results of the same system, benchmark and division that a gain is
    measured from: the first submission, the previous round, or a named round. A round
    given by the sentence's date words ("比 6 月成绩提升 3 倍": ``baseline-relative``)
    names a date, not a line: every result of the subject's vendor then (its joint
    submissions too, any software: :func:`_same_vendor`)."""
    line = _same_vendor if "baseline-relative" in c.context else _same_line
    olds = [
        r
        for r in results
        if r.benchmark == bench
        and r.division == new.division
        and r.score_minutes is not None
        and _earlier(r.round, new.round)
        and system_matches(c.system, r)
        and line(r, new)
    ]
    if not olds:
        return []
    if c.baseline.startswith("v"):
        return [r for r in olds if r.round == c.baseline]
    rounds = sorted({r.round for r in olds}, key=round_tuple)
    which = rounds[0] if c.baseline == "first-submission" else rounds[-1]
    return [r for r in olds if r.round == which]


def _earlier(a: str, b: str) -> bool:
    try:
        return round_tuple(a) < round_tuple(b)
    except ValueError:
        return False


def _same_line(old: ResultFacts, new: ResultFacts) -> bool:
    """Same submitter and framework family (``ipu-pod16-TF1`` in v1.0 and v1.1), the
    family as the software page draws its lines (``benchdb.vocabulary.framework_family``:
    ``"MXNet NVIDIA Release 21.05"`` and ``"NGC MXNet 21.09 , ..."`` are both MXNet)."""
    return old.submitter == new.submitter and framework_family(old.framework) == framework_family(
        new.framework
    )


def _same_vendor(old: ResultFacts, new: ResultFacts) -> bool:
    """Submitted by a common member ("NVIDIA" and "NVIDIA+CoreWeave": NVIDIA's June
    record was a joint submission), whatever the software."""
    members = [m for m in re.split(r"\s*(?:\+|&|,| and )\s*", new.submitter) if m]
    return any(submitter_name_matches(m, old.submitter) for m in members)


def verify_gain(
    c: ClaimFacts,
    bench: str,
    results: Sequence[ResultFacts],
    chosen: dict[str, list[ResultFacts]] | None,
) -> Verification:
    """A percentage or multiplier: against another system of the same round
    (``compared_system``) or the same system in an earlier round (``baseline``)."""
    tol = gain_tolerance(c.kind, c.value or 0.0, bench, c.suite or "training", c.qualifier)
    pairs = _gain_pairs(c, bench, results, chosen)
    if not pairs:
        other = looked_for(c, "compared") if c.compared_system else c.baseline
        what = f"{looked_for(c)} against {other or 'nothing named'}"
        return Verification(
            UNVERIFIABLE,
            details={
                "reason": f"no pair of results for {what} ({bench}, {c.round})",
                "tolerance": tol,
            },
        )
    readings = []
    for a, b, role in pairs:
        for name, figure, holds in _gain_readings(c, a, b, tol):
            readings.append(
                Reading(
                    (Link(a.pk, "subject"), Link(b.pk, role)),
                    figure,
                    holds,
                    {
                        "system": a.system_folder,
                        role: f"{b.round} {b.system_folder}",
                        "division": a.division,
                        "reading": name,
                    },
                    f"{name} {figure:.3g}{'x' if c.kind == 'multiplier' else '%'}:"
                    f" {b.label()} -> {a.label()}",
                )
            )
    if c.qualifier == "up to" and len(readings) > 1:
        readings = extreme(readings)
    if not readings:
        return Verification(
            UNVERIFIABLE, details={"reason": "no pair of scores to compute", "tolerance": tol}
        )
    a, b, role = pairs[0]
    details: dict[str, object] = {"tolerance": tol, "choices": _gain_choices(c, pairs, a, b, role)}
    if len(pairs) == 1:
        o, n = b.score_minutes or 0.0, a.score_minutes or 0.0
        details.update(old_minutes=o, new_minutes=n)
        if c.kind == "percentage" and o > 0 and n > 0:
            details["readings"] = percent_readings(o, n)
            details["readings_consistent"] = [r.slots["reading"] for r in readings if r.holds]
        elif c.kind == "multiplier" and n > 0:
            details["recomputed_ratio"] = o / n
    return settle(readings, details)


def _gain_readings(
    c: ClaimFacts, new: ResultFacts, old: ResultFacts, tol: float
) -> list[tuple[str, float, bool]]:
    """(reading, figure in the claim's unit, holds) of one pair: a multiplier is the
    speedup ``old / new``; a percentage is a time reduction or a speedup."""
    o, n = old.score_minutes or 0.0, new.score_minutes or 0.0
    if o <= 0 or n <= 0 or c.value is None:
        return []
    ratio = o / n
    if c.kind == "multiplier":
        return bounded("speedup", ratio, c.value, ratio, tol, c.qualifier)
    out = []
    figures = percent_readings(o, n)
    for reading in ("time_reduction", "speedup"):
        try:
            claimed = claimed_ratio(c.value, reading)
        except ZeroDivisionError:
            continue
        out += bounded(reading, figures[reading], claimed, ratio, tol, c.qualifier)
    return out


def _gain_choices(
    c: ClaimFacts,
    pairs: Sequence[tuple[ResultFacts, ResultFacts, str]],
    a: ResultFacts,
    b: ResultFacts,
    role: str,
) -> list[dict[str, object]]:
    """The choices of a gain: every subject and compared result of the pairs tried."""
    subj = list({x.pk: x for x, _, _ in pairs}.values())
    other = list({y.pk: y for _, y, _ in pairs}.values())
    why = (
        f"{len(pairs)} pairs fit; the pair read is the one under which the claim holds"
        " best (then closed division first, then the nearest figure)"
        if len(pairs) > 1
        else "the only pair that fits"
    )
    n = c.compared_accelerators
    if role == "compared" and n is not None and all(y.accelerators != n for y in other):
        why += f"; no result on {n}: the nearest counts below and above, both read"
    if role == "compared" and b.round != a.round:
        why += f"; {looked_for(c, 'compared')} has no result in {a.round}: its latest before"
    what = looked_for(c, "compared") if c.compared_system else c.baseline
    return [choice("subject", looked_for(c), subj, a, why), choice(role, what, other, b, why)]


def _gain_pairs(
    c: ClaimFacts,
    bench: str,
    results: Sequence[ResultFacts],
    chosen: dict[str, list[ResultFacts]] | None,
) -> list[tuple[ResultFacts, ResultFacts, str]]:
    """(new/subject, old/compared, role) pairs a gain may be read from: the chosen
    links, the claimed and compared systems, or the system and its earlier rounds."""
    if chosen:
        others = chosen["compared"] or chosen["baseline"]
        role = "compared" if chosen["compared"] else "baseline"
        return [(a, b, role) for a in chosen["subject"] for b in others]
    if c.compared_system:
        subj = candidates(
            results,
            round=c.round,
            benchmark=bench,
            system=c.system,
            submitter=c.submitter,
            division=c.division,
            accelerators=c.accelerators,
        )
        comp = _compared_results(c, bench, results) or _bracket(c, bench, results)
        pairs = [(a, b, "compared") for a in subj for b in comp if a.pk != b.pk]
        if c.compared_accelerators is None:  # chip to chip when the count is not stated
            pairs = [p for p in pairs if p[0].accelerators == p[1].accelerators] or pairs
        return pairs
    if c.baseline.startswith("best:"):  # an earlier round's best result
        return best_pairs(c, bench, results)
    if c.baseline and c.system:
        subj = candidates(
            results,
            round=c.round,
            benchmark=bench,
            system=c.system,
            framework=c.framework,
            division=c.division,
        )
        return [(a, b, "baseline") for a in subj for b in _baseline_rounds(c, a, results, bench)]
    return []


def _bracket(c: ClaimFacts, bench: str, results: Sequence[ResultFacts]) -> list[ResultFacts]:
    """A compared side "at the same cluster size" (tag ``compared-same-hardware``) with
    no result at that count: each submitter's results of the round at its nearest count
    below and its nearest above ("more than 2x faster than Hopper at the same cluster
    size", 2,496 GPUs: NVIDIA's H100 results on 2,432 and 2,560). A submitter's time
    falls as its count grows, so its run at the count in between would take between
    those two times: the claim holds if it holds at every end read, fails if it fails
    at every one, and is left open otherwise (``settle``). [] when no submitter ran
    counts on both sides of it."""
    n = c.compared_accelerators
    if n is None or "compared-same-hardware" not in c.context:
        return []
    every = candidates(
        results, round=c.round, benchmark=bench, system=c.compared_system, division=c.division
    )
    ends: list[ResultFacts] = []
    for who in sorted({r.submitter for r in every}):
        own = [r for r in every if r.submitter == who and r.accelerators is not None]
        below = [r.accelerators or 0 for r in own if (r.accelerators or 0) < n]
        above = [r.accelerators or 0 for r in own if (r.accelerators or 0) > n]
        if below and above:
            ends += [r for r in own if r.accelerators in (max(below), min(above))]
    return ends


def _compared_results(
    c: ClaimFacts, bench: str, results: Sequence[ResultFacts]
) -> list[ResultFacts]:
    """The compared side's results in the claim's round, else in the latest earlier
    round that has any ("vs the previous product": its last submission)."""

    def of(rnd: str) -> list[ResultFacts]:
        return candidates(
            results,
            round=rnd,
            benchmark=canonical_benchmark(bench, rnd) if bench else bench,
            system=c.compared_system,
            submitter=c.compared_submitter,
            division=c.division,
            accelerators=c.compared_accelerators,
        )

    found = of(c.round)
    earlier = sorted(
        {r.round for r in results if _earlier(r.round, c.round)}, key=round_tuple, reverse=True
    )
    if not found:
        return next((got for rnd in earlier if (got := of(rnd))), [])
    # A family of several products ("vs Hopper": H100 and H200): a product with no
    # result in the claim's round is read from its latest earlier round.
    models = {r.accelerator_model for r in found}
    for rnd in earlier:
        more = [r for r in of(rnd) if r.accelerator_model not in models]
        found += more
        models |= {r.accelerator_model for r in more}
    return found

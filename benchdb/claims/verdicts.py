"""Checking vendor claims against MLPerf results: which results a claim rests on,
the claimed quantity recomputed from their scores, a verdict and the flags that
MLPerf's results messaging guidelines call for. Pure: no Django.

Verdicts:

* ``consistent``: the recomputed quantity agrees within the benchmark's run-to-run
  tolerance (:func:`tolerance`);
* ``inconsistent``: it does not;
* ``ambiguous``: a percentage that holds under one reading only (time reduction
  ``(old - new) / old`` or speedup ``old / new - 1``); both readings are kept;
* ``not-mlperf``: not an MLPerf claim (a non-MLPerf model or metric, a hardware
  figure, a page that never mentions MLPerf, or numbers the page itself says are
  not the submitted ones);
* ``unverifiable``: no stored result matches.

Flags (``../shared/vendor/MLPerf_Results_Messaging_Guidelines.adoc``, section
"When comparing MLPerf results, you must identify any submission differences",
"Comparisons based on secondary or derived metrics must be explicit", "Required
Footnote" and "Use of MLPerf Benchmark for Non-MLCommons Reviewed Results"):
``different-divisions``, ``different-availability``, ``different-rounds``,
``different-accelerator-counts``, ``per-accelerator-normalization``,
``open-division-result``, ``no-result-id``, ``unverified-result``; and
``arithmetic-error`` when a sentence's own numbers do not give its multiplier
(70 min / 91.5 s is 45.9x), ``system-from-context`` when the system was named in
an earlier sentence, ``round-from-date`` when the round is the latest one published
on or before the page.

Times are minutes unless a unit says otherwise (``s``, ``h``).
"""

from __future__ import annotations

from collections.abc import Sequence

from benchdb.claims import verdicts_values
from benchdb.claims.choices import best_pairs, choice, looked_for, no_result
from benchdb.claims.facts import (
    IMAGE_BENCHMARKS,
    SUITES,
    ClaimFacts,
    Link,
    ResultFacts,
    Verification,
    arithmetic_ok,
    candidates,
    claimed_ratio,
    percent_readings,
    round_for_date,
    suite_of,
    system_matches,
    to_unit,
    tolerance,
    within,
)
from benchdb.claims.flags import with_flags
from benchdb.claims.readings import (
    Reading,
    extreme,
    named_elsewhere,
    scale_verdict,
    settle,
    subject_elsewhere,
    within_range,
)
from benchdb.claims.verdicts_parity import verify_parity
from benchdb.vocabulary import (
    NOT_MLPERF,
    UNVERIFIABLE,
    canonical_benchmark,
    framework_family,
    round_tuple,
)

# The types and rules verification uses are :mod:`benchdb.claims.facts`'s; callers
# read them here too (``verdicts.ClaimFacts``), with the verdicts.
__all__ = [
    "IMAGE_BENCHMARKS",
    "SUITES",
    "ClaimFacts",
    "Link",
    "ResultFacts",
    "Verification",
    "arithmetic_ok",
    "candidates",
    "claimed_ratio",
    "percent_readings",
    "round_for_date",
    "suite_of",
    "system_matches",
    "to_unit",
    "tolerance",
    "within",
    "verify_claim",
]

# --- verification --------------------------------------------------------------------


def verify_claim(
    claim: ClaimFacts, results: Sequence[ResultFacts], *, pinned: Sequence[Link] | None = None
) -> Verification:
    """Check one claim against ``results`` (every stored result it may rest on, of
    any suite: only those of the claim's suite are read, :data:`SUITES`).

    ``pinned``: links chosen by a person (a correction); they replace the search.
    Never raises on data: what cannot be decided is ``unverifiable`` with
    ``details["reason"]``. Raises KeyError on a claim of an unknown suite.
    """
    suite = suite_of(claim.suite)
    mine = [r for r in results if r.suite == suite.name]
    pins = [lk for lk in pinned if lk.suite == suite.name] if pinned else None
    out = _scope(claim)
    if out is None:
        out = within_range(claim, _CHECKS[suite.checks](claim, mine, pins))
        if not pins:
            out = subject_elsewhere(claim, out)
    return with_flags(claim, out, {r.pk: r for r in mine})


def _verify_time_to_train(
    claim: ClaimFacts, results: Sequence[ResultFacts], pinned: Sequence[Link] | None
) -> Verification:
    """The checks of a time-to-train suite (training; HPC when it lands)."""
    if claim.kind == "count":
        return Verification(
            UNVERIFIABLE,
            details={
                "reason": f"a count of {claim.unit}s: checking it needs every result of a"
                " round, and benchdb may hold a part"
            },
        )
    by_pk = {r.pk: r for r in results}
    chosen = None
    if pinned:
        chosen = {
            role: [by_pk[lk.result] for lk in pinned if lk.role == role and lk.result in by_pk]
            for role in ("subject", "compared", "baseline")
        }
    bench = (
        canonical_benchmark(claim.benchmark_key, claim.round)
        if claim.benchmark_key and claim.round
        else claim.benchmark_key
    )
    verify = {
        "time": _verify_time,
        "head_to_head": _verify_head_to_head,
        "percentage": _verify_gain,
        "multiplier": _verify_gain,
        "parity": verify_parity,
        "scale": _verify_scale,
    }.get(claim.kind)
    if verify is None:
        return Verification(UNVERIFIABLE, details={"reason": f"no check for a {claim.kind} claim"})
    if not claim.round:
        return Verification(
            UNVERIFIABLE, details={"reason": "no round named and no publication date"}
        )
    if not bench and claim.kind != "scale":
        return Verification(UNVERIFIABLE, details={"reason": "no MLPerf benchmark named"})
    return verify(claim, bench, results, chosen)


#: A suite's ``checks`` (:attr:`Suite.checks`) -> the function that checks its claims.
_CHECKS = {"time-to-train": _verify_time_to_train, "throughput": verdicts_values.verify}


def _scope(c: ClaimFacts) -> Verification | None:
    """A not-mlperf verdict when the claim is not about MLPerf results, else None."""
    reason, suite = "", suite_of(c.suite)
    if c.kind in suite.other_kinds or c.metric in suite.other_metrics:
        reason = f"{c.metric or c.kind} is not an {suite.title} metric ({suite.metric_label})"
    elif c.non_mlperf:
        reason = (
            "the page says this is not an MLPerf result"
            if c.non_mlperf == "stated"
            else f"{c.non_mlperf} is not an {suite.title} benchmark"
        )
    elif not c.mlperf_context:
        reason = "the page does not mention MLPerf"
    elif c.unverified and suite.unverified_not_mlperf:
        reason = "the page says these numbers are not the officially submitted (verified) results"
    return Verification(NOT_MLPERF, details={"reason": reason}) if reason else None


def _verify_time(
    c: ClaimFacts,
    bench: str,
    results: Sequence[ResultFacts],
    chosen: dict[str, list[ResultFacts]] | None,
) -> Verification:
    tol = tolerance(bench, c.suite)
    cands = (
        chosen["subject"]
        if chosen
        else _ids_or(c, results, bench)
        or candidates(
            results,
            round=c.round,
            benchmark=bench,
            system=c.system,
            submitter=c.submitter,
            framework=c.framework,
            division=c.division,
            accelerators=c.accelerators,
        )
    )
    what = looked_for(c)
    if not cands:
        return Verification(
            UNVERIFIABLE,
            details={"reason": no_result(what, bench, c.round), "tolerance": tol},
        )
    readings = [_time_reading(c, r, "subject", c.value, tol, c.qualifier) for r in cands]
    same_bench = [r for r in results if r.benchmark == bench and r.score_minutes]
    why = "every result the text allows was read; the verdict holds for all of them"
    if not c.system and not chosen and len({x.system_folder for x in cands}) > 1:
        why = f"no system named, so every system of {what} was read"
    v = settle(
        readings, {"tolerance": tol, "choices": [choice("subject", what, cands, _only(cands), why)]}
    )
    if v.recomputed_value is not None and c.value is not None:
        v.details["difference_percent"] = _diff(c.value, v.recomputed_value)
    if chosen:  # a person chose the results: their verdict stands
        return v
    return named_elsewhere(c, v, same_bench, lambda r: to_unit(r.score_minutes or 0.0, c.unit), tol)


def _time_reading(
    c: ClaimFacts, r: ResultFacts, role: str, claimed: float | None, tol: float, qualifier: str
) -> Reading:
    """One result read as the claimed time (``claimed`` in ``c.unit``)."""
    rec = to_unit(r.score_minutes or 0.0, c.unit)
    holds = claimed is not None and rec > 0 and within(claimed, rec, tol, qualifier)
    return Reading(
        (Link(r.pk, role),),
        rec,
        holds,
        {"system": r.system_folder, "division": r.division},
        f"{r.label()}",
    )


def _verify_head_to_head(
    c: ClaimFacts,
    bench: str,
    results: Sequence[ResultFacts],
    chosen: dict[str, list[ResultFacts]] | None,
) -> Verification:
    tol = tolerance(bench, c.suite)
    subj = (
        chosen["subject"]
        if chosen
        else candidates(
            results,
            round=c.round,
            benchmark=bench,
            system=c.system,
            submitter=c.submitter,
            framework=c.framework,
            division=c.division,
            accelerators=c.accelerators,
        )
    )
    comp = (
        chosen["compared"]
        if chosen
        else candidates(
            results,
            round=c.round,
            benchmark=bench,
            system=c.compared_system,
            division=c.division,
            accelerators=c.compared_accelerators,
        )
    )
    if not subj or not comp:
        missing = looked_for(c, "subject" if not subj else "compared")
        return Verification(
            UNVERIFIABLE, details={"reason": no_result(missing, bench, c.round), "tolerance": tol}
        )
    if c.compared_accelerators is None and c.accelerators is None:  # chip to chip
        same = [(a, b) for a in subj for b in comp if a.accelerators == b.accelerators]
    else:
        same = []
    pairs = same or [(a, b) for a in subj for b in comp]
    readings = []
    for a, b in pairs:
        ra, rb = (
            _time_reading(c, a, "subject", c.value, tol, c.qualifier),
            _time_reading(c, b, "compared", c.compared_value, tol, ""),
        )
        readings.append(
            Reading(
                ra.links + rb.links,
                ra.value,
                ra.holds and rb.holds,
                {"system": a.system_folder, "compared": b.system_folder, "division": a.division},
                f"{a.label()} vs {b.label()}",
                rb.value,
            )
        )
    why = "every pair the text allows was read; the verdict holds for all of them"
    v = settle(
        readings,
        {
            "tolerance": tol,
            "choices": [
                choice("subject", looked_for(c), subj, _only(subj), why),
                choice("compared", looked_for(c, "compared"), comp, _only(comp), why),
            ],
        },
    )
    if v.recomputed_value and v.compared_recomputed_value:
        v.details.update(
            difference_percent=_diff(c.value, v.recomputed_value),
            compared_difference_percent=_diff(c.compared_value, v.compared_recomputed_value),
            claimed_ratio=(c.compared_value or 0.0) / c.value if c.value else None,
            recomputed_ratio=v.compared_recomputed_value / v.recomputed_value,
        )
    return v


def _baseline_rounds(
    c: ClaimFacts, new: ResultFacts, results: Sequence[ResultFacts], bench: str
) -> list[ResultFacts]:
    """Earlier results of the same system, benchmark and division that a gain is
    measured from: the first submission, the previous round, or a named round."""
    olds = [
        r
        for r in results
        if r.benchmark == bench
        and r.division == new.division
        and r.score_minutes is not None
        and _earlier(r.round, new.round)
        and system_matches(c.system, r)
        and _same_line(r, new)
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


def _verify_gain(
    c: ClaimFacts,
    bench: str,
    results: Sequence[ResultFacts],
    chosen: dict[str, list[ResultFacts]] | None,
) -> Verification:
    """A percentage or multiplier: against another system of the same round
    (``compared_system``) or the same system in an earlier round (``baseline``)."""
    tol = tolerance(bench, c.suite)
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
        return [("speedup", ratio, within(c.value, ratio, tol, c.qualifier))]
    out = []
    figures = percent_readings(o, n)
    for reading in ("time_reduction", "speedup"):
        try:
            claimed = claimed_ratio(c.value, reading)
        except ZeroDivisionError:
            continue
        out.append((reading, figures[reading], within(claimed, ratio, tol, c.qualifier)))
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
        comp = _compared_results(c, bench, results)
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


def _verify_scale(
    c: ClaimFacts,
    bench: str,
    results: Sequence[ResultFacts],
    chosen: dict[str, list[ResultFacts]] | None,
) -> Verification:
    if c.unit in ("node", "system"):
        return Verification(
            UNVERIFIABLE, details={"reason": "a count of nodes or systems names no result"}
        )
    # no benchmark named ("a 2,496-GPU cluster"): any benchmark of the round
    benches = [bench] if bench else sorted({r.benchmark for r in results if r.round == c.round})
    cands = (
        chosen["subject"]
        if chosen
        else [
            r
            for b in benches
            for r in candidates(
                results, round=c.round, benchmark=b, system=c.system, submitter=c.submitter
            )
        ]
    )
    if not cands:
        return Verification(
            UNVERIFIABLE,
            details={"reason": no_result(looked_for(c), bench or "any benchmark", c.round)},
        )
    return scale_verdict(c, cands)


def _only(rs: Sequence[ResultFacts]) -> ResultFacts | None:
    """The result judged against when the frame allows exactly one, else None (every
    reading is judged: :func:`benchdb.claims.readings.settle`)."""
    return rs[0] if len(rs) == 1 else None


def _ids_or(c: ClaimFacts, results: Sequence[ResultFacts], bench: str) -> list[ResultFacts]:
    if not c.result_ids:
        return []
    return [
        r for r in results if r.result_id and r.result_id in c.result_ids and r.benchmark == bench
    ]


def _diff(claimed: float | None, rec: float) -> float | None:
    return None if claimed is None or not rec else (claimed / rec - 1.0) * 100.0

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
from benchdb.vocabulary import (
    AMBIGUOUS,
    CONSISTENT,
    INCONSISTENT,
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
        out = _CHECKS[suite.checks](claim, mine, pins)
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
        "parity": _verify_parity,
        "scale": _verify_scale,
    }.get(claim.kind)
    if verify is None:
        return Verification(UNVERIFIABLE, details={"reason": f"no check for a {claim.kind} claim"})
    if not claim.round:
        return Verification(
            UNVERIFIABLE, details={"reason": "no round named and no publication date"}
        )
    if not bench:
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


def _pick(
    cands: list[ResultFacts], claimed: float | None, unit: str, tol: float, qualifier: str
) -> tuple[ResultFacts | None, bool]:
    """The result a time most likely quotes: closed before open; within a division
    the nearest score; a consistent one if there is one. Returns (result, consistent)."""
    if not cands:
        return None, False
    order = sorted(
        cands,
        key=lambda r: (
            r.division != "closed",
            abs(to_unit(r.score_minutes or 0.0, unit) - (claimed or 0.0)),
        ),
    )
    if claimed is None:
        return order[0], False
    for r in order:
        if within(claimed, to_unit(r.score_minutes or 0.0, unit), tol, qualifier):
            return r, True
    return order[0], False


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
    if not c.system and not chosen and len({r.system_folder for r in cands}) > 1:
        return Verification(
            UNVERIFIABLE,
            details={
                "reason": f"no system named; {len(cands)} results of {c.submitter} could be meant",
                "candidates": [r.pk for r in cands],
                "tolerance": tol,
            },
        )
    r, ok = _pick(cands, c.value, c.unit, tol, c.qualifier)
    if r is None:
        return Verification(
            UNVERIFIABLE,
            details={
                "reason": _no_result(c.system or c.submitter, bench, c.round),
                "tolerance": tol,
            },
        )
    rec = to_unit(r.score_minutes or 0.0, c.unit)
    return Verification(
        CONSISTENT if ok else INCONSISTENT,
        rec,
        links=(Link(r.pk, "subject"),),
        details={"tolerance": tol, "difference_percent": _diff(c.value, rec)},
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
            framework=c.framework,
            division=c.division,
            accelerators=c.accelerators,
        )
    )
    comp = (
        chosen["compared"]
        if chosen
        else candidates(
            results, round=c.round, benchmark=bench, system=c.compared_system, division=c.division
        )
    )
    a, ok_a = _pick(subj, c.value, c.unit, tol, c.qualifier)
    b, ok_b = _pick(comp, c.compared_value, c.unit, tol, "")
    if a is None or b is None:
        missing = c.system if a is None else c.compared_system
        return Verification(
            UNVERIFIABLE, details={"reason": _no_result(missing, bench, c.round), "tolerance": tol}
        )
    ra, rb = to_unit(a.score_minutes or 0.0, c.unit), to_unit(b.score_minutes or 0.0, c.unit)
    details = {
        "tolerance": tol,
        "difference_percent": _diff(c.value, ra),
        "compared_difference_percent": _diff(c.compared_value, rb),
        "claimed_ratio": (c.compared_value or 0.0) / c.value if c.value else None,
        "recomputed_ratio": rb / ra if ra else None,
    }
    return Verification(
        CONSISTENT if ok_a and ok_b else INCONSISTENT,
        ra,
        rb,
        (Link(a.pk, "subject"), Link(b.pk, "compared")),
        details=details,
    )


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
    pick = rounds[0] if c.baseline == "first-submission" else rounds[-1]
    return [r for r in olds if r.round == pick]


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
        subject = c.system or c.submitter or "the system"
        what = f"{subject} against {c.compared_system or c.baseline or 'nothing named'}"
        return Verification(
            UNVERIFIABLE,
            details={
                "reason": f"no pair of results for {what} ({bench}, {c.round})",
                "tolerance": tol,
            },
        )
    scored = [(_gain_quality(c, a, b, tol), a, b, role) for a, b, role in pairs]
    scored.sort(key=lambda x: (-x[0][0], x[1].division != "closed", x[0][1]))
    (n_ok, _, readings, ok_readings), a, b, role = scored[0]
    links = (Link(a.pk, "subject"), Link(b.pk, role))
    if c.kind == "multiplier":
        ratio = readings["ratio"]
        return Verification(
            CONSISTENT if n_ok else INCONSISTENT,
            ratio,
            links=links,
            details={
                "tolerance": tol,
                "recomputed_ratio": ratio,
                "old_minutes": b.score_minutes,
                "new_minutes": a.score_minutes,
            },
        )
    best = min(("time_reduction", "speedup"), key=lambda k: abs(readings[k] - (c.value or 0.0)))
    verdict = CONSISTENT if n_ok == 2 else AMBIGUOUS if n_ok == 1 else INCONSISTENT
    details = {
        "tolerance": tol,
        "readings": {k: readings[k] for k in ("time_reduction", "speedup")},
        "readings_consistent": ok_readings,
        "old_minutes": b.score_minutes,
        "new_minutes": a.score_minutes,
    }
    return Verification(verdict, readings[best], links=links, details=details)


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
            results, round=c.round, benchmark=bench, system=c.system, division=c.division
        )
        comp = candidates(
            results, round=c.round, benchmark=bench, system=c.compared_system, division=c.division
        )
        return [(a, b, "compared") for a in subj for b in comp]
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


def _gain_quality(
    c: ClaimFacts, new: ResultFacts, old: ResultFacts, tol: float
) -> tuple[int, float, dict[str, float], list[str]]:
    """(readings that hold, distance, readings, which hold) for one pair."""
    o, n = old.score_minutes or 0.0, new.score_minutes or 0.0
    if o <= 0 or n <= 0 or c.value is None:
        return 0, float("inf"), {"ratio": 0.0, "time_reduction": 0.0, "speedup": 0.0}, []
    ratio = o / n
    readings = percent_readings(o, n) | {"ratio": ratio}
    if c.kind == "multiplier":
        ok = within(c.value, ratio, tol, c.qualifier)
        return int(ok), abs(c.value / ratio - 1), readings, ["ratio"] if ok else []
    ok_readings = []
    for reading in ("time_reduction", "speedup"):
        try:
            claimed = claimed_ratio(c.value, reading)
        except ZeroDivisionError:
            continue
        if within(claimed, ratio, tol, c.qualifier):
            ok_readings.append(reading)
    dist = min(abs(readings[k] - c.value) for k in ("time_reduction", "speedup"))
    return len(ok_readings), dist, readings, ok_readings


def _verify_parity(
    c: ClaimFacts,
    bench: str,
    results: Sequence[ResultFacts],
    chosen: dict[str, list[ResultFacts]] | None,
) -> Verification:
    """ "X performs like Y": every pair of results of the two frameworks (or systems)
    on the same hardware (accelerator model and count) in the round; the recomputed
    value is the largest difference, in percent of Y's score."""
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
    worst = max(diffs, key=abs)
    links: list[Link] = []
    for x, y in pairs:
        for lk in (Link(x.pk, "subject"), Link(y.pk, "compared")):
            if lk not in links:
                links.append(lk)
    verdict = CONSISTENT if all(abs(d) <= tol * 100.0 for d in diffs) else INCONSISTENT
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
    return Verification(verdict, worst, links=tuple(links), details=details)


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
    cands = (
        chosen["subject"]
        if chosen
        else candidates(
            results, round=c.round, benchmark=bench, system=c.system, submitter=c.submitter
        )
    )
    if not cands:
        return Verification(
            UNVERIFIABLE, details={"reason": _no_result(c.system or c.submitter, bench, c.round)}
        )
    match = [r for r in cands if r.accelerators == int(c.value or 0)]
    r = (match or cands)[0]
    return Verification(
        CONSISTENT if match else INCONSISTENT,
        float(r.accelerators or 0),
        links=(Link(r.pk, "subject"),),
    )


def _ids_or(c: ClaimFacts, results: Sequence[ResultFacts], bench: str) -> list[ResultFacts]:
    if not c.result_ids:
        return []
    return [
        r for r in results if r.result_id and r.result_id in c.result_ids and r.benchmark == bench
    ]


def _no_result(system: str, bench: str, rnd: str) -> str:
    return f"no stored result for {system or 'an unnamed system'} on {bench} in {rnd}"


def _diff(claimed: float | None, rec: float) -> float | None:
    return None if claimed is None or not rec else (claimed / rec - 1.0) * 100.0

"""Checking vendor claims against MLPerf results: which results a claim rests on,
the claimed quantity recomputed from their scores, a verdict and the flags that
MLPerf's results messaging guidelines call for. Pure: no Django.

Verdicts:

* ``consistent``: the recomputed quantity agrees within the benchmark's run-to-run
  tolerance (:func:`tolerance`);
* ``inconsistent``: it does not;
* ``ambiguous``: the claim holds under some readings its text allows and not under
  others (a percentage as a time reduction ``(old - new) / old`` or a speedup
  ``old / new - 1``; one division or another; one system or another); every reading
  is kept;
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

import re
from collections.abc import Mapping, Sequence

from benchdb.claims import (
    completeness,
    count_clauses,
    headline_times,
    own_baseline,
    per_watt,
    resolve_words,
    round_facts,
    same_hardware,
    system_specs,
    undated,
    unit_products,
    verdicts_values,
)
from benchdb.claims.choices import choice, fastest, looked_for, no_result
from benchdb.claims.facts import (
    BATCH_ONE,
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
    submitter_matches,
    suite_of,
    system_matches,
    to_unit,
    tolerance,
    within,
)
from benchdb.claims.flags import with_flags
from benchdb.claims.readings import (
    Reading,
    named_elsewhere,
    scale_verdict,
    settle,
    subject_elsewhere,
    within_range,
)
from benchdb.claims.round_counts import Holding
from benchdb.claims.targets import verify_target
from benchdb.claims.verdicts_gains import verify_gain
from benchdb.claims.verdicts_parity import verify_parity
from benchdb.claims.verdicts_scaling import verify_scaling
from benchdb.vocabulary import (
    BENCHMARK_NAMES,
    INFERENCE_ROUND_PUBLISHED,
    NOT_MLPERF,
    ROUND_PUBLISHED,
    UNVERIFIABLE,
    canonical_benchmark,
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
    claim: ClaimFacts,
    results: Sequence[ResultFacts],
    *,
    pinned: Sequence[Link] | None = None,
    holdings: Mapping[tuple[str, str], Holding] | None = None,
) -> Verification:
    """Check one claim against ``results`` (every stored result it may rest on, of
    any suite: only those of the claim's suite are read, :data:`SUITES`).

    ``pinned``: links chosen by a person (a correction); they replace the search.
    ``holdings``: the rounds whose trees benchdb recorded (``ingest.round_trees``), which
    a claim of an undated page needs to know a round is held whole
    (:func:`benchdb.claims.undated.verify_each_round`; None: no round is known whole).
    Never raises on data: what cannot be decided is ``unverifiable`` with
    ``details["reason"]``. Raises KeyError on a claim of an unknown suite.
    """
    suite = suite_of(claim.suite)
    mine, by_pk = _of_suite(results, suite.name)
    pins = [lk for lk in pinned if lk.suite == suite.name] if pinned else None
    # a count its round's rules decide ("the seven workloads in MLPerf Training 5.0")
    # a CPU's cores or clock: the system description of the systems the text names
    out = round_facts.verify_round_fact(claim) or system_specs.verify(claim, mine, pins)
    out = out or _scope(claim)
    if out is None and claim.kind == "target":  # a quality target: the round's rules
        out = (
            verify_target(claim)
            if suite.name == "training"
            else Verification(
                UNVERIFIABLE, details={"reason": f"no check for a quality target of {suite.title}"}
            )
        )
    if out is None and not pins and undated.applies(claim):
        # no round named, no date: every round with a result of the frame is a reading
        check = _CHECKS[suite.checks]
        out = undated.verify_each_round(
            claim,
            mine,
            _rounds_of(claim, suite.name),
            lambda c: within_range(c, check(c, mine, None)),
            holdings,
        )
    if out is None:
        out = within_range(claim, _CHECKS[suite.checks](claim, mine, pins))
        if not pins:
            out = subject_elsewhere(claim, out)
            # a figure per watt of a company that ran none of its benchmarks
            out = per_watt.absent_subject(claim, out, mine, holdings)
            out = completeness.best_needs_whole_rounds(claim, out, holdings, by_pk)
    return with_flags(claim, out, by_pk)


#: The last few (results, suite) -> (that suite's results, by pk): a page's claims are
#: verified one after the other against the same list (ingest.claims.facts.check_claims),
#: which need not be scanned again for each (22k inference facts: 5 ms a claim).
_SUITE_INDEX: list[
    tuple[Sequence[ResultFacts], str, list[ResultFacts], dict[int, ResultFacts]]
] = []


def _of_suite(
    results: Sequence[ResultFacts], suite: str
) -> tuple[list[ResultFacts], dict[int, ResultFacts]]:
    """``results`` of ``suite`` and the same by pk, remembered for the very same list
    object (identity, so a list changed in place is not a concern of callers that
    build a new list per data version)."""
    for held, name, mine, by_pk in _SUITE_INDEX:
        if held is results and name == suite:
            return mine, by_pk
    mine = [r for r in results if r.suite == suite]
    by_pk = {r.pk: r for r in mine}
    _SUITE_INDEX.insert(0, (results, suite, mine, by_pk))
    del _SUITE_INDEX[4:]
    return mine, by_pk


def _verify_time_to_train(
    claim: ClaimFacts, results: Sequence[ResultFacts], pinned: Sequence[Link] | None
) -> Verification:
    """The checks of a time-to-train suite (training; HPC when it lands)."""
    if claim.kind == "count":
        return Verification(
            UNVERIFIABLE,
            details={
                "reason": f"a count of {claim.unit}s that no check counts: over a round held"
                " whole, its benchmarks, a submitter's entries or wins and its submitters"
                " are counted, each when its words say it plainly"
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
        "percentage": verify_gain,
        "multiplier": verify_gain,
        "parity": verify_parity,
        "scale": _verify_scale,
        "scaling": verify_scaling,
    }.get(claim.kind)
    if verify is None:
        return Verification(UNVERIFIABLE, details={"reason": f"no check for a {claim.kind} claim"})
    if not claim.round:
        return Verification(
            UNVERIFIABLE, details={"reason": "no round named and no publication date"}
        )
    # a count, or a scaling efficiency between two counts, reads every benchmark the
    # subject ran when none is named (its readings must all agree)
    if not bench and claim.kind not in ("scale", "scaling"):
        return Verification(UNVERIFIABLE, details={"reason": "no MLPerf benchmark named"})
    if chosen is None and any(t.startswith(own_baseline.GAIN) for t in claim.context):
        # "compared to our baseline": the submitter's result named baseline, and its others
        picked = own_baseline.choose(claim, bench, results)
        if isinstance(picked, Verification):
            return picked
        chosen = picked
    return verify(claim, bench, results, chosen)


def _rounds_of(c: ClaimFacts, suite: str) -> tuple[str, ...]:
    """The rounds of ``suite`` a claim with no round is read in: every one, or those
    of the year its sentence gives (:data:`benchdb.claims.resolve_words.YEAR_TAG`)."""
    rounds = round_facts.suite_rounds(suite)
    year = resolve_words.year_of(c.context)
    if year is None:
        return rounds
    dates = INFERENCE_ROUND_PUBLISHED if suite == "inference" else ROUND_PUBLISHED
    return tuple(r for r in rounds if r in dates and dates[r].year == year)


#: A suite's ``checks`` (:attr:`Suite.checks`) -> the function that checks its claims.
_CHECKS = {"time-to-train": _verify_time_to_train, "throughput": verdicts_values.verify}


def _scope(c: ClaimFacts) -> Verification | None:
    """A not-mlperf verdict when the claim is not about MLPerf results, else None."""
    reason, suite = "", suite_of(c.suite)
    gain = c.kind in ("multiplier", "percentage")  # "5x the throughput of H100" on a benchmark
    if gain and c.metric == "throughput" and suite.checks == "time-to-train" and c.benchmark_key:
        why = f"a gain in throughput on {c.benchmark_key}: {suite.title} reports time to"
        why += " train, and the text does not say its gain is the time's (a speedup)"
        return Verification(UNVERIFIABLE, details={"reason": why})
    if c.kind in suite.other_kinds or c.metric in suite.other_metrics:
        reason = f"{c.metric or c.kind} is not an {suite.title} metric ({suite.metric_label})"
        if c.metric == "power" and suite.checks == "throughput":
            # MLPerf Inference does measure power (its power results): a bare watt figure
            # is a rating or the unit of a figure per watt, not a result's measured power
            reason = (
                f"a power figure (W) not tied to a result: {suite.title} measures a system's"
                " power only in its power results, read as a figure per watt"
            )
    elif c.non_mlperf == BATCH_ONE:
        why = "the text measures at batch size 1, which no MLPerf result states (the batch"
        why += " size is the submitter's): which result it is, if any, is not named"
        return Verification(UNVERIFIABLE, details={"reason": why})
    elif c.non_mlperf:
        if c.non_mlperf != "stated" and (named := _benchmark_of_model(c)):
            return Verification(UNVERIFIABLE, details={"reason": named})
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


def _name_words(name: str) -> list[str]:
    """The words of a model's or benchmark's name, letters and numbers apart ("Llama2
    70B" and "Llama 2 70B" are the same words; "GPT类" one word)."""
    return re.findall(r"[^\W\d_]+|\d+(?:\.\d+)?", name.lower())


def _benchmark_of_model(c: ClaimFacts) -> str:
    """Why ``c`` is no not-mlperf claim when the model it names begins the name of a
    benchmark of its round (of any round of its suite when none is resolved): "For the
    Llama 2 70B benchmark, ... a record time" on a Training v4.0 page names the model
    of Llama 2 70B LoRA, that round's fine-tuning benchmark, without saying it means it
    (whole words: "GPT类" is not GPT-3). "" when no benchmark's name begins so."""
    words = _name_words(c.non_mlperf)
    suite = c.suite or "training"
    for rnd in [c.round] if c.round else round_facts.suite_rounds(suite):
        for key in sorted(round_facts.round_benchmarks(suite, rnd) or ()):
            name = BENCHMARK_NAMES.get(key, key)
            if words and _name_words(name)[: len(words)] == words:
                return (
                    f"{c.non_mlperf} is the model of {name}, a benchmark of {suite_of(suite).title}"
                    f" {rnd}; the text does not say it means that benchmark"
                )
    return ""


def _verify_time(
    c: ClaimFacts,
    bench: str,
    results: Sequence[ResultFacts],
    chosen: dict[str, list[ResultFacts]] | None,
) -> Verification:
    tol = tolerance(bench, c.suite)
    cands, hardware = _time_candidates(c, bench, results, chosen)
    what = looked_for(c)
    if not cands:
        return Verification(
            UNVERIFIABLE,
            details={"reason": no_result(what, bench, c.round), "tolerance": tol},
        )
    # a record of the subject the sentence names (not one carried from another sentence)
    named = "record" in c.context and "system" not in c.context
    best = fastest(cands) if named and not chosen else None
    record = best is not None and len(cands) > 1
    if best is not None:  # "a record 11 minutes": the subject's fastest result, closed first
        cands = [best]
    # "H100 trains GPT-3 in 11 minutes": the product's fastest result, or some result
    reading_of = lambda r: _time_reading(c, r, "subject", c.value, tol, c.qualifier)  # noqa: E731
    head = None if named or chosen else headline_times.check(c, cands, reading_of, tol, what)
    if head is not None:
        return head
    readings = [_time_reading(c, r, "subject", c.value, tol, c.qualifier) for r in cands]
    same_bench = [r for r in results if r.benchmark == bench and r.score_minutes]
    why = "every result the text allows was read; the verdict holds for all of them"
    if record:
        why = "the sentence calls it a record: the subject's fastest result (closed first)"
    if not c.system and not chosen and len({x.system_folder for x in cands}) > 1:
        why = f"no system named, so every system of {what} was read"
    why = f"{hardware}; {why}" if hardware else why
    v = settle(
        readings, {"tolerance": tol, "choices": [choice("subject", what, cands, _only(cands), why)]}
    )
    if v.recomputed_value is not None and c.value is not None:
        v.details["difference_percent"] = _diff(c.value, v.recomputed_value)
    if v.verdict == UNVERIFIABLE and "reason" in v.details and not chosen:
        v.details["reason"] = headline_times.note(c, cands, str(v.details["reason"]))
    if chosen:  # a person chose the results: their verdict stands
        return v
    return named_elsewhere(c, v, same_bench, lambda r: to_unit(r.score_minutes or 0.0, c.unit), tol)


def _time_candidates(
    c: ClaimFacts,
    bench: str,
    results: Sequence[ResultFacts],
    chosen: dict[str, list[ResultFacts]] | None,
) -> tuple[list[ResultFacts], str]:
    """The results a time claim's frame allows (a person's choice, cited ids, or its
    slots), narrowed to the hardware of the page's own results when the text says "on
    the same hardware" of them (:mod:`benchdb.claims.same_hardware`: why, else "")."""
    if chosen:
        return list(chosen["subject"]), ""
    cited = _ids_or(c, results, bench)
    if cited:
        return list(cited), ""
    cands = _subject_candidates(c, bench, results)
    return same_hardware.narrow(c, cands, results, bench)


def _subject_candidates(
    c: ClaimFacts, bench: str, results: Sequence[ResultFacts]
) -> list[ResultFacts]:
    """The results the frame of ``c`` allows as its subject on ``bench``: its round,
    system, submitter, framework, division and accelerator count."""
    return candidates(
        results,
        round=c.round,
        benchmark=bench,
        system=c.system,
        submitter=c.submitter,
        framework=c.framework,
        division=c.division,
        accelerators=c.accelerators,
    )


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
    subj = chosen["subject"] if chosen else _subject_candidates(c, bench, results)
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
    readings = _pair_readings(c, subj, comp, tol)
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


def _pair_readings(
    c: ClaimFacts, subj: Sequence[ResultFacts], comp: Sequence[ResultFacts], tol: float
) -> list[Reading]:
    """Each (subject, compared) pair of a head-to-head as a reading: it holds when both
    times agree. Without counts on either side, chip to chip (equal accelerator counts)
    when such pairs exist."""
    same = []
    if c.compared_accelerators is None and c.accelerators is None:
        same = [(a, b) for a in subj for b in comp if a.accelerators == b.accelerators]
    readings = []
    for a, b in same or [(a, b) for a in subj for b in comp]:
        ra = _time_reading(c, a, "subject", c.value, tol, c.qualifier)
        rb = _time_reading(c, b, "compared", c.compared_value, tol, "")
        slots = {"system": a.system_folder, "compared": b.system_folder, "division": a.division}
        label = f"{a.label()} vs {b.label()}"
        readings.append(
            Reading(ra.links + rb.links, ra.value, ra.holds and rb.holds, slots, label, rb.value)
        )
    return readings


def _verify_scale(
    c: ClaimFacts,
    bench: str,
    results: Sequence[ResultFacts],
    chosen: dict[str, list[ResultFacts]] | None,
) -> Verification:
    if unit_products.TAG in c.context:  # "39 racks, each of 64 GPUs": N x M against the
        # whole the clause states, whichever result is the subject (pinned or not)
        return unit_products.verify(c, results)
    if c.unit not in ("node", "system", "rack") and "per-unit" in c.context:
        return Verification(
            UNVERIFIABLE,
            details={
                "reason": "the size of one unit of several (a domain, node or rack) names no result"
            },
        )
    if count_clauses.OPEN_TAG in c.context and not chosen:  # "..., with 8 GPUs each"
        why = "the sentence names several benchmarks and the count's own words none of them"
        return Verification(UNVERIFIABLE, details={"reason": why, "open_slots": ["benchmark"]})
    if c.unit in ("system", "rack") or (c.unit == "node" and (c.qualifier or not c.round)):
        return Verification(
            UNVERIFIABLE, details={"reason": f"a count of {c.unit}s names no result"}
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
    if c.submitter and not chosen:  # across benchmarks: the submitter's own, when it has any
        cands = [r for r in cands if submitter_matches(c.submitter, r)] or cands
    if not cands:
        return Verification(
            UNVERIFIABLE,
            details={"reason": no_result(looked_for(c), bench or "any benchmark", c.round)},
        )
    # a count of nodes ("on 1,344 VMs", "32x servers"): the systems JSON's number_of_nodes
    return scale_verdict(c, cands, count="nodes" if c.unit == "node" else "accelerators")


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

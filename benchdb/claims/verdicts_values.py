"""Checking claims about a suite whose results are values in a unit (MLPerf Inference:
tokens/s, samples/s, queries/s, latency): which results a claim rests on, the claimed
figure recomputed from their values, a verdict. Pure: no Django. Flags are added by
:func:`benchdb.claims.flags.with_flags`; the verdicts are
:mod:`benchdb.claims.verdicts`'.

A result is looked up by round, model (``ResultFacts.model``, the benchmark without
its accuracy variant: a page's "Llama 2 70B" is ``llama2-70b-99`` or ``-99.9``),
scenario when the text names one, and the system the text names (else the
submitter). What cannot be found is ``unverifiable`` with ``details["missing"]``
naming the result looked for (round, system or submitter, model, scenario) and
``details["reason"]`` saying it in words. The tolerance is the claim's printed
digits (:func:`benchdb.claims.facts.tolerance`; :data:`benchdb.claims.facts.SUITES`
cites why).

Checks by claim kind: ``throughput``, ``time`` and ``latency`` (a SingleStream or
MultiStream percentile latency, lower is better: its "up to" names no best case, so
every reading must agree) against one result;
``multiplier`` and ``percentage`` as the ratio of two results' values, both oriented
so that more is better (``a / b`` for throughputs, ``b / a`` for latencies), against
a compared system of the same round or the same system's earlier round
(``baseline``); ``scale`` against the system's accelerator count; ``count`` needs a
whole round. A per-accelerator claim compares values divided by accelerator counts,
and says so (``details["derived"]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from benchdb.claims import inference_frames, per_watt, virtualized
from benchdb.claims.compared_rounds import PREVIOUS_TAG, comparable, previous_round_of
from benchdb.claims.facts import (
    ClaimFacts,
    Link,
    ResultFacts,
    Verification,
    gain_tolerance,
    submitter_matches,
    tolerance,
    within,
)
from benchdb.claims.inference_systems import PRODUCTS, product_sides, products, system_matches
from benchdb.claims.inference_systems import UNITS as _UNITS
from benchdb.claims.inference_systems import norm as _norm
from benchdb.claims.other_suites import BYTE_UNITS
from benchdb.claims.readings import (
    Reading,
    bounded,
    extreme,
    named_elsewhere,
    scale_verdict,
    settle,
)
from benchdb.claims.subjects import cpu_generation, cpu_only
from benchdb.mlperf.inference.rounds import LLM_LIMITS_V51
from benchdb.vocabulary import CONSISTENT, INCONSISTENT, INFERENCE_ROUNDS, UNVERIFIABLE, round_key


def _find(
    results: Sequence[ResultFacts], c: ClaimFacts, rnd: str, system: str, unit: str
) -> list[ResultFacts]:
    """Results of round ``rnd`` on the claim's model (and scenario, division) in a unit
    the claim can be read in, of ``system`` (else the claim's submitter)."""
    units = _UNITS.get(unit, (frozenset(), 1.0))[0]
    out = [
        r
        for r in results
        if r.round == rnd
        and r.model == c.benchmark_key
        and r.value is not None
        and (not units or r.unit in units)
        and (not c.scenario or r.scenario == c.scenario)
        and (not c.division or r.division == c.division)
    ]
    if system:
        return [r for r in out if system_matches(system, r, c.accelerators)]
    if c.submitter:
        return [r for r in out if r.submitter.lower() == c.submitter.lower()]
    return []


def _missing(
    c: ClaimFacts, results: Sequence[ResultFacts], rnd: str, who: str, why: str = ""
) -> Verification:
    """``unverifiable``, naming the result looked for and what the stored data holds."""
    missing = {
        "round": rnd or "not named",
        "system": who or "not named",
        "model": c.benchmark_key or "not named",
        "scenario": c.scenario or "any (not named)",
    }
    held = sum(1 for r in results if r.round == rnd)
    what = (
        f"{missing['round']} result of {missing['system']} on {missing['model']}"
        f" ({missing['scenario']})"
    )
    have = (
        f"benchdb holds {held} inference results of {rnd}"
        if held
        else f"benchdb holds no inference results of {rnd or 'that round'}"
    )
    reason = f"{why}; " if why else ""
    unnamed = "" if who else " (the text names no system or company whose results these are)"
    return Verification(
        UNVERIFIABLE,
        details={
            "reason": f"{reason}no stored {what}{unnamed}; {have}",
            "missing": missing,
            "tolerance": _tol(c),
        },
    )


def _tol(c: ClaimFacts) -> float:
    return tolerance(c.benchmark_key, c.suite or "inference", c.value)


def _figure(r: ResultFacts, c: ClaimFacts, factor: float | None = None) -> float:
    """``r``'s value in the claim's unit (``factor``: a byte unit's reading,
    :data:`BYTE_UNITS`), per accelerator when the claim is."""
    factor = _UNITS.get(c.unit, (frozenset(), 1.0))[1] if factor is None else factor
    value = (r.value or 0.0) * factor
    return value / r.accelerators if c.per_accelerator and r.accelerators else value


def _value_readings(r: ResultFacts, c: ClaimFacts, tol: float) -> list[Reading]:
    """One result read as the claimed figure: once, or once per reading of a byte unit
    ("GB/s": 10^9 bytes or GiB, :data:`BYTE_UNITS`; slot ``unit``)."""
    units = BYTE_UNITS.get(c.unit) or ((c.unit, None),)
    out = []
    for unit, factor in units:
        rec = _figure(r, c, factor)
        holds = c.value is not None and rec > 0 and within(c.value, rec, tol, c.qualifier)
        slots = {
            "system": r.system_folder,
            "scenario": r.scenario,
            "division": r.division,
            "benchmark": r.benchmark,
        }
        label = f"{r.scenario} {r.label()}"
        if c.unit in BYTE_UNITS:
            slots["unit"] = unit
            label += f" = {rec:.4g} {unit}"
        out.append(Reading((Link(r.pk, "subject", r.suite),), rec, holds, slots, label))
    return out


def _verify_value(c: ClaimFacts, results: Sequence[ResultFacts], chosen: Any) -> Verification:
    cands = chosen["subject"] if chosen else _find(results, c, c.round, c.system, c.unit)
    if not cands:
        return _missing(c, results, c.round, c.system or c.submitter)
    tol = _tol(c)
    readings = [x for r in cands for x in _value_readings(r, c, tol)]
    if c.qualifier == "up to" and len(readings) > 1 and cands[0].higher_is_better:
        readings = extreme(readings)  # a latency's "up to" names no best case: all readings
    details: dict[str, Any] = {"tolerance": tol, "result_unit": cands[0].unit}
    if len({r.scenario for r in cands}) == 1:
        details["scenario"] = cands[0].scenario
    if c.per_accelerator:
        details["derived"] = "per accelerator: each result's value / its accelerator count"
    v = settle(readings, details)
    if c.value and v.recomputed_value:
        v.details["difference_percent"] = (c.value / v.recomputed_value - 1.0) * 100.0
    units = _UNITS.get(c.unit, (frozenset(), 1.0))[0]
    same = [r for r in results if r.model == c.benchmark_key and r.unit in units]
    return v if chosen else named_elsewhere(c, v, same, lambda r: _figure(r, c), tol)


def _baseline_round(c: ClaimFacts) -> str:
    """The round a gain is measured from: a named round, the first inference round
    (``first-submission``), or the round before the claim's in MLPerf's sequence
    (:data:`benchdb.vocabulary.INFERENCE_ROUNDS`), whether or not benchdb holds it."""
    if c.baseline.startswith("v"):
        return c.baseline
    rounds = sorted(INFERENCE_ROUNDS, key=round_key)
    if c.baseline == "first-submission":
        return rounds[0]
    before = [r for r in rounds if round_key(r) < round_key(c.round)] if c.round else []
    return before[-1] if before else ""


def _same_line(new: ResultFacts, old: ResultFacts) -> bool:
    """An earlier result of the same line as ``new``: same submitter, accelerator model
    and count ("H100 improved 31% since the last round" compares NVIDIA's 8-GPU H100
    system with itself, not with another submitter's); for CPU-only systems (no
    accelerator to compare) the same processor generation and count of processors
    (``subjects.cpu_generation``: an Ice Lake system's earlier round is not a Cooper
    Lake one's; unknown generations are no line)."""
    same = (
        new.submitter.lower() == old.submitter.lower()
        and _norm(new.accelerator_model) == _norm(old.accelerator_model)
        and new.accelerators == old.accelerators
    )
    if not same or not (cpu_only(new) or cpu_only(old)):
        return same
    gen = cpu_generation(new)
    return bool(gen) and gen == cpu_generation(old) and new.processors == old.processors


def _ratio(a: ResultFacts, b: ResultFacts, c: ClaimFacts) -> float:
    """How many times better ``a`` is than ``b`` (per accelerator when the claim is)."""
    va, vb = _figure(a, c), _figure(b, c)
    if va <= 0 or vb <= 0:
        return 0.0
    return va / vb if a.higher_is_better else vb / va


def _sides(
    c: ClaimFacts, results: Sequence[ResultFacts], chosen: Any
) -> tuple[list[ResultFacts], list[ResultFacts], str, str, str] | Verification:
    """(subjects, others, role, other round, other system) of a gain, or the
    ``unverifiable`` verification naming the side that is missing."""
    if chosen:
        role = "compared" if chosen["compared"] else "baseline"
        return chosen["subject"], chosen["compared"] or chosen["baseline"], role, "", ""
    who = c.system or c.submitter
    if c.baseline == "round-not-named":  # resolve_words.NO_ROUND: no round of the other product
        why = f"the text names no round of {c.compared_system}'s results"
        return _missing(c, results, "", c.compared_system, why)
    if c.compared_system and (c.baseline.startswith("v") or c.baseline == "previous-round"):
        # another product in an earlier round ("... compared to Cascade Lake in v0.7")
        role, rnd, other_who = "baseline", _baseline_round(c), c.compared_system
    elif c.compared_system:
        role, rnd, other_who = "compared", c.round, c.compared_system
    elif c.baseline in ("previous-round", "first-submission") or c.baseline.startswith("v"):
        role, rnd, other_who = "baseline", _baseline_round(c), who
    else:
        return _missing(c, results, c.round, who, "no compared system or earlier round named")
    subj = _find(results, c, c.round, c.system, "")
    others = _find(results, c, rnd, c.compared_system or c.system, "")
    if not subj or not others:
        v = _missing(c, results, c.round if not subj else rnd, who if not subj else other_who)
        if not subj and not others:  # name the other side too
            o = _missing(c, results, rnd, other_who)
            v.details["reason"] += f"; nor {o.details['reason'].split('; ')[0][3:]}"
            v.details["missing_" + role] = o.details["missing"]
        return v
    return subj, others, role, rnd, other_who


def _verify_gain(c: ClaimFacts, results: Sequence[ResultFacts], chosen: Any) -> Verification:
    sides = _sides(c, results, chosen)
    if isinstance(sides, Verification):
        return sides
    subj, others, role, _, _ = sides
    tol = gain_tolerance(c.kind, c.value or 0.0, c.benchmark_key, c.suite or "inference")
    claimed = (c.value or 0.0) if c.kind == "multiplier" else 1.0 + (c.value or 0.0) / 100.0
    if role == "baseline" and c.compared_system and not chosen:
        return _verify_generations(c, subj, others, claimed, tol)
    if role == "compared" and not chosen and products(c):  # each product's best, per chip
        return _verify_generations(*product_sides(c, subj, others), claimed, tol, *PRODUCTS)
    # one figure on both sides (a Storage or Tiny result has two: MiB/s and samples/s,
    # latency and energy)
    pairs = [
        (a, b)
        for a in subj
        for b in others
        if (a.pk != b.pk or a.suite != b.suite) and a.unit == b.unit
    ]
    if role == "baseline" and not chosen:  # the same system line in the earlier round
        pairs = [(a, b) for a, b in pairs if _same_line(a, b)]
    # MLCommons' convention: a ratio compares the same benchmark and scenario
    same = [(a, b) for a, b in pairs if (a.benchmark, a.scenario) == (b.benchmark, b.scenario)]
    readings = []
    for a, b in same or pairs:
        ratio = _ratio(a, b, c)
        if ratio <= 0:
            continue
        rec = ratio if c.kind == "multiplier" else (ratio - 1.0) * 100.0
        for name, _, holds in bounded("", rec, claimed, ratio, tol, c.qualifier):
            readings.append(
                Reading(
                    (Link(a.pk, "subject", a.suite), Link(b.pk, role, b.suite)),
                    rec,
                    holds,
                    {
                        "system": a.system_folder,
                        role: f"{b.round} {b.system_folder}",
                        "scenario": a.scenario,
                        "division": a.division,
                        "benchmark": a.benchmark,
                    }
                    | ({"reading": name} if name else {}),
                    f"{a.scenario} {rec:.3g}{'x' if c.kind == 'multiplier' else '%'}"
                    f"{' ' + name if name else ''}: {a.label()} against {b.label()}",
                )
            )
    if not readings:
        return _missing(c, results, c.round, c.system or c.submitter, "no pair of values")
    if c.qualifier == "up to" and len(readings) > 1:
        readings = extreme(readings)
    v = settle(readings, {"tolerance": tol, **(_PER_CHIP if c.per_accelerator else {})})
    if v.recomputed_value is not None and c.kind == "multiplier":
        v.details["recomputed_ratio"] = v.recomputed_value
    return v


def _best(rs: Sequence[ResultFacts], c: ClaimFacts) -> ResultFacts:
    """The best of ``rs`` (one benchmark and scenario): highest throughput, lowest
    latency."""
    pick = max if rs[0].higher_is_better else min
    return pick(rs, key=lambda r: _figure(r, c))


def _generation_pairs(
    c: ClaimFacts, subj: Sequence[ResultFacts], others: Sequence[ResultFacts]
) -> list[tuple[str, ResultFacts, ResultFacts]]:
    """(scope, best new result, best earlier result) per benchmark and scenario both
    products ran, over every submitter's results (``any submitter``) and, when the claim
    is a submitter's, over its own too (``<submitter>'s``); over its own only when the
    text says the results are its own ("Intel's MLPerf 1.1 results": context
    ``subject-own-results``)."""
    own_only = "subject-own-results" in c.context
    scopes = [] if own_only and c.submitter else [("any submitter", list(subj), list(others))]
    if c.submitter:
        own = [r for r in subj if submitter_matches(c.submitter, r)]
        own_o = [r for r in others if submitter_matches(c.submitter, r)]
        if own and own_o and (own_only or (len(own), len(own_o)) != (len(subj), len(others))):
            scopes.append((f"{c.submitter}'s", own, own_o))
    out = []
    for scope, new, old in scopes:
        for key in sorted({(r.benchmark, r.scenario) for r in new}):
            a = [r for r in new if (r.benchmark, r.scenario) == key]
            b = [r for r in old if (r.benchmark, r.scenario) == key]
            if a and b and comparable(a[0].model, a[0].round, b[0].round):
                out.append((scope, _best(a, c), _best(b, c)))
    return out


def _verify_generations(
    c: ClaimFacts,
    subj: Sequence[ResultFacts],
    others: Sequence[ResultFacts],
    claimed: float,
    tol: float,
    role: str = "baseline",
    compared: str = "best result of each product",
) -> Verification:
    """A gain of one product over another named in an earlier round ("up to 1.5X ...
    compared to 2nd Generation Xeon Scalable (Cascade Lake) in MLPerf Inference v0.7"),
    or of the same round (``role`` "compared"): each product is its best result per
    benchmark and scenario (its best configuration against the other's, not against the
    other's weakest), over every submitter and over the claim's submitter's own; "up
    to" takes the largest gain within each; the verdict must hold under both scopes."""
    readings: list[Reading] = []
    for scope in dict.fromkeys(s for s, _, _ in _generation_pairs(c, subj, others)):
        rs = []
        for _, a, b in [p for p in _generation_pairs(c, subj, others) if p[0] == scope]:
            ratio = _ratio(a, b, c)
            if ratio <= 0:
                continue
            rec = ratio if c.kind == "multiplier" else (ratio - 1.0) * 100.0
            rs.append(
                Reading(
                    (Link(a.pk, "subject", a.suite), Link(b.pk, role, b.suite)),
                    rec,
                    within(claimed, ratio, tol, c.qualifier),
                    {"scope": scope, "benchmark": a.benchmark, "scenario": a.scenario},
                    f"{scope}, {a.scenario} {rec:.3g}{'x' if c.kind == 'multiplier' else '%'}:"
                    f" best {a.label()} against best {b.label()}",
                )
            )
        readings += extreme(rs) if c.qualifier == "up to" and len(rs) > 1 else rs
    if not readings:
        return _missing(c, subj or others, c.round, c.system or c.submitter, "no pair of values")
    derived = _PER_CHIP if c.per_accelerator else {}  # a product is a chip: per GPU
    v = settle(readings, {"tolerance": tol, "compared": compared, **derived})
    if v.recomputed_value is not None and c.kind == "multiplier":
        v.details["recomputed_ratio"] = v.recomputed_value
    return v


def _open_benchmark(c: ClaimFacts) -> bool:
    """Whether a claim naming no benchmark is read over every benchmark: a gain of a
    system line over its own earlier round (not a range, not another product's)."""
    earlier = c.baseline.startswith("v")
    return (
        c.kind in ("multiplier", "percentage")
        and c.value_high is None
        and (not c.compared_system or (earlier and PREVIOUS_TAG in c.context))
        and (c.baseline in ("previous-round", "first-submission") or earlier)
    )


def _every_benchmark(c: ClaimFacts, results: Sequence[ResultFacts]) -> Verification:
    """A gain whose text names no benchmark ("improved H100's performance by up to 54%"):
    its readings are every benchmark and scenario the subject's line has a pair of
    results on (:func:`_verify_gain` per model); "up to" takes the largest within each
    scenario (the scenario is not named either). A verdict only when every reading
    agrees, or, for "up to", when the best case over every scenario holds
    (:func:`_best_case`); else ``unverifiable``, listing them."""
    held = {r.model for r in results if r.round == c.round}
    models = sorted(
        m for m in held if _find(results, replace(c, benchmark_key=m), c.round, c.system, "")
    )
    readings: list[Reading] = []
    for model in models:
        # "up to" is read over every scenario below; a bound ("more than") per reading
        plain = "" if c.qualifier == "up to" else c.qualifier
        v = _verify_gain(replace(c, benchmark_key=model, qualifier=plain), results, None)
        listed = v.details.get("readings_list", [])
        if v.verdict == UNVERIFIABLE and not listed:
            continue  # no pair of results on this benchmark: nothing to read
        if len(listed) != v.details.get("n_readings"):  # more than are listed: abstain
            why = f"more readings on {model} than benchdb lists"
            return _missing(c, results, c.round, c.system or c.submitter, why)
        readings += [_reading_of(d) for d in listed]
    if not readings:
        why = "the page names no MLPerf Inference benchmark"
        return _missing(c, results, c.round, c.system or c.submitter, why)
    if c.qualifier == "up to":  # the largest per scenario (and per scope of a product's best)
        by_scenario: dict[tuple[str, str], list[Reading]] = {}
        for r in readings:
            key = (r.slots.get("scope", ""), r.slots.get("scenario", ""))
            by_scenario.setdefault(key, []).append(r)
        readings = [r for group in by_scenario.values() for r in extreme(group)]
    tol = gain_tolerance(c.kind, c.value or 0.0, "", c.suite or "inference")
    base = {"tolerance": tol, "benchmark": "every benchmark (none named)"}
    v = settle(readings, base)
    if v.verdict not in (CONSISTENT, INCONSISTENT):
        best = _best_case(c, readings, base)
        if best is not None:
            return best
        words = "; ".join(f"{r.label}: {'holds' if r.holds else 'does not hold'}" for r in readings)
        why = f"the text names no benchmark, and the benchmarks' readings disagree: {words}"
        return Verification(UNVERIFIABLE, details={**v.details, "reason": why})
    return v


def compared_earlier(c: ClaimFacts, results: Sequence[ResultFacts]) -> ClaimFacts:
    """A gain over another product the text names with no round, which has no result in
    the claim's round's division (closed when none is named: MLCommons' convention,
    closed before open) while benchdb holds the subject's results of that round: ``c``
    with ``baseline`` the round before and that division (context
    ``compared-previous-round``; :mod:`benchdb.claims.compared_rounds`), read as a
    product of an earlier round (each product's best per benchmark and scenario:
    :func:`_verify_generations`). Others unchanged."""
    if c.kind not in ("multiplier", "percentage") or not c.compared_system or c.baseline:
        return c
    if per_watt.is_per_watt(c) or not c.round or not c.system:
        return c
    division = c.division or "closed"  # MLCommons' convention: closed before open

    def of_product(r: ResultFacts) -> bool:
        return r.division == division and system_matches(
            c.compared_system, r, c.compared_accelerators
        )

    def of_subject(r: ResultFacts) -> bool:  # benchdb holds the claim's round
        return r.division == division and system_matches(c.system, r, c.accelerators)

    prev = previous_round_of(c.round, results, of_product, of_subject)
    if not prev:
        return c
    return replace(c, baseline=prev, division=division, context=(*c.context, PREVIOUS_TAG))


def _best_case(
    c: ClaimFacts, readings: list[Reading], details: dict[str, Any]
) -> Verification | None:
    """ "Up to" with neither benchmark nor scenario named, whose scenarios' best cases
    disagree ("Orin delivers up to 5x more than Xavier": Offline 4.92x, SingleStream
    3.92x): the best case over every benchmark and scenario the text leaves open (per
    scope of a product's best), ``consistent`` when it holds in every scope; None (the
    verdict stays open) when it does not: a scenario's own best that fits a figure the
    overall best exceeds ("up to 54%": Offline 54%, Server 133%) is no verdict either
    way."""
    if c.qualifier != "up to" or c.scenario:
        return None
    scopes: dict[str, list[Reading]] = {}
    for r in readings:
        scopes.setdefault(r.slots.get("scope", ""), []).append(r)
    tops = [r for group in scopes.values() for r in extreme(group)]
    if not all(r.holds for r in tops):
        return None
    why = "up to: the best case over every benchmark and scenario the text leaves open"
    others = [f"{r.label}: {r.value:.3g}" for r in readings if r not in tops]
    return settle(tops, {**details, "up_to": why, "other_readings": others})


def _reading_of(d: dict[str, Any]) -> Reading:
    """A reading back from ``Reading.as_dict``."""
    links = tuple(Link(pk, role, "inference") for role, pk in d["links"])
    return Reading(links, d["value"], d["holds"], dict(d["slots"]), d["label"], d["compared_value"])


def _verify_scale(c: ClaimFacts, results: Sequence[ResultFacts], chosen: Any) -> Verification:
    cands = chosen["subject"] if chosen else _find(results, c, c.round, c.system, "")
    if not cands:
        return _missing(c, results, c.round, c.system or c.submitter)
    # a result with two figures (Storage, Tiny) is one result with its count
    return scale_verdict(c, list({(r.suite, r.pk): r for r in cands}.values()))


_KINDS = {
    "throughput": _verify_value,
    "time": _verify_value,
    # a latency: the SingleStream / MultiStream result's percentile latency (the
    # scenario's metric, ``benchdb.mlperf.inference``), lower is better
    "latency": _verify_value,
    # MLPerf Tiny's energy per inference (uJ), lower is better; no other suite of this
    # family has a result in an energy unit (``_UNITS``)
    "energy": _verify_value,
    "multiplier": _verify_gain,
    "percentage": _verify_gain,
    "scale": _verify_scale,
}
_PER_CHIP = {"derived": "per accelerator: each value / its system's accelerator count"}


def _verify_bound(c: ClaimFacts, results: Sequence[ResultFacts], chosen: Any) -> Verification:
    """A ratio of a model's latency bounds, Server over Interactive (``metric``
    ``latency-bound:TTFT`` or ``:TPOT``): a claim about the rules, checked against
    ``LLM_LATENCY_LIMITS`` of the v5.1 checker (``inference_rounds.LLM_LIMITS_V51``);
    no result is linked."""
    which = c.metric.split(":", 1)[-1]
    limits = LLM_LIMITS_V51.get(f"{c.benchmark_key}-99", {})
    if which not in ("TTFT", "TPOT") or not {"Server", "Interactive"} <= set(limits):
        return Verification(
            UNVERIFIABLE,
            details={
                "reason": f"no {which} bounds of {c.benchmark_key or 'the model'} for both"
                " Server and Interactive in the rules benchdb holds (v5.1 checker)"
            },
        )
    i = 0 if which == "TTFT" else 1
    server, interactive = limits["Server"][i] / 1e6, limits["Interactive"][i] / 1e6
    ratio, tol = server / interactive, _tol(c)
    ok = c.value is not None and within(c.value, ratio, tol, c.qualifier)
    return Verification(
        CONSISTENT if ok else INCONSISTENT,
        ratio,
        details={
            "tolerance": tol,
            "rule": f"{which} p99 bound: Server {server:g} ms / Interactive {interactive:g} ms"
            " (LLM_LATENCY_LIMITS, mlcommons/inference submission checker e20506b2, v5.1)",
            "rules_round": "v5.1",
        },
    )


def verify(
    c: ClaimFacts, results: Sequence[ResultFacts], pinned: Sequence[Link] | None
) -> Verification:
    """Check ``c`` against ``results`` (all of the claim's suite); ``pinned``: links a
    person chose, which replace the lookup. Never raises on data."""
    if c.kind == "count":
        return Verification(
            UNVERIFIABLE,
            details={
                "reason": f"a count of {c.unit}s that no check counts: over a round held"
                " whole, its benchmarks, a submitter's entries or wins and its submitters"
                " are counted, each when its words say it plainly"
            },
        )
    c, why = inference_frames.pin_first_round(c, results, sorted(INFERENCE_ROUNDS, key=round_key))
    if why and not pinned:
        return Verification(
            UNVERIFIABLE, details={"reason": why, "missing": {"round": "not named", "pinned": why}}
        )
    if per_watt.is_per_watt(c):  # a derived metric: benchdb.claims.per_watt
        return per_watt.verify(c, results, _chosen(results, pinned) if pinned else None)
    if virtualized.is_bare_metal_share(c) and not pinned:  # "94% to 105% of bare metal"
        return virtualized.verify(c, results)
    if virtualized.SCALE_TAG in c.context and not pinned:  # "with 4x virtualized A100"
        return virtualized.verify_scale(c, results)
    check = _verify_bound if c.metric.startswith("latency-bound") else _KINDS.get(c.kind)
    if check is None:
        return Verification(UNVERIFIABLE, details={"reason": f"no check for a {c.kind} claim"})
    if c.kind in ("throughput", "time", "latency", "energy") and c.unit not in _UNITS:
        return Verification(
            UNVERIFIABLE, details={"reason": f"no MLPerf Inference result is in {c.unit}"}
        )
    chosen = _chosen(results, pinned) if pinned else None
    if not chosen:
        c = compared_earlier(c, results)
    if not chosen and c.round and not c.benchmark_key and _open_benchmark(c):
        return _every_benchmark(c, results)
    if not chosen and (not c.round or not c.benchmark_key):
        return _missing(
            c,
            results,
            c.round,
            c.system or c.submitter,
            "the page names no " + ("round" if not c.round else "MLPerf Inference benchmark"),
        )
    return check(c, results, chosen)


def _chosen(results: Sequence[ResultFacts], pinned: Sequence[Link]) -> dict[str, list[ResultFacts]]:
    """The results ``pinned`` names, by role (subject, compared, baseline)."""
    by_pk = {r.pk: r for r in results}
    return {
        role: [by_pk[lk.result] for lk in pinned if lk.role == role and lk.result in by_pk]
        for role in ("subject", "compared", "baseline")
    }

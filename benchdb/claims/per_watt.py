"""Checking MLPerf Inference figures per watt ("197.6 server queries per watt"): a
metric MLPerf does not publish, derived by benchdb from what it does. Pure: no
Django.

MLPerf Inference's power results store, for the Offline and Server scenarios, the
system's average power in watts over LoadGen's power window (``ResultFacts.power``,
``power_unit`` ``Watts``: ``ingest`` reads it from the power logs); performance per
watt is the result's throughput over it (samples/s, queries/s or tokens/s per W),
which is how the press derives "queries per watt" (Reuters' Qualcomm/NVIDIA story on
v3.0: 290,033.61 / 1,467.63 W = 197.62). SingleStream and MultiStream power results
store energy per query (joules), which is no per-watt figure: they are not read.

The candidates come from the frame alone (:mod:`benchdb.claims.inference_frames`):
the round, the models (a named model, or an application's), the scenario when the
text names one, the subject company (its own results, and results of systems built on
the accelerators it makes) and its product when named; closed division before open
(MLCommons' convention) when no division is named. Each candidate is a reading; the
verdict holds for every reading the text allows (:func:`benchdb.claims.readings.settle`),
"up to" reads the best. An ``inconsistent`` verdict is withheld when another power
result of the round gives the figure (the subject is likely misread:
:func:`benchdb.claims.readings.named_elsewhere`). Tolerance: the printed digits
(:func:`benchdb.claims.facts.tolerance`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from benchdb.claims.facts import (
    ClaimFacts,
    Link,
    ResultFacts,
    Verification,
    gain_tolerance,
    submitter_matches,
    within,
)
from benchdb.claims.facts import tolerance as _tolerance
from benchdb.claims.inference_frames import PRODUCTS, frame_models, is_per_watt
from benchdb.claims.readings import Reading, extreme, named_elsewhere, settle
from benchdb.claims.subjects import family_matches
from benchdb.vocabulary import UNVERIFIABLE

__all__ = [
    "DERIVED",
    "THROUGHPUT_UNITS",
    "candidates",
    "is_per_watt",
    "per_watt",
    "verify",
    "verify_gain",
]

#: Result units whose value over the average power is a figure per watt.
THROUGHPUT_UNITS = frozenset({"Samples/s", "Queries/s", "Tokens/s"})
#: How a verdict names the derivation (MLPerf's messaging guidelines: a derived metric
#: must be explicit).
DERIVED = (
    "performance per watt, derived by benchdb (not an MLPerf metric): each result's"
    " throughput / its average system power in watts over LoadGen's power window"
)


def per_watt(r: ResultFacts) -> float | None:
    """``r``'s throughput per watt, or None when ``r`` has no power in watts or no
    throughput (a latency, an energy per query)."""
    if (
        r.power_unit != "Watts"
        or not r.power
        or r.power <= 0
        or r.value is None
        or r.unit not in THROUGHPUT_UNITS
    ):
        return None
    return r.value / r.power


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def _of_company(company: str, r: ResultFacts) -> bool:
    """A result of the company: its submission, or a system built on its accelerators
    (a Dell server with Qualcomm's Cloud AI 100: "Qualcomm's chips")."""
    return submitter_matches(company, r) or _norm(r.accelerator_model).startswith(_norm(company))


def _of_product(product: str, r: ResultFacts) -> bool:
    """A result whose accelerator is ``product`` (an inference product of
    ``inference_frames.PRODUCTS`` or a family of ``subjects.FAMILIES``)."""
    for pat, name, _ in PRODUCTS:
        if name == product:
            return re.search(pat, r.accelerator_model, re.I) is not None
    return family_matches(product, r, None) if product else True


def candidates(c: ClaimFacts, results: Sequence[ResultFacts]) -> list[ResultFacts]:
    """The power results the frame allows (module docstring)."""
    models = set(frame_models(c))
    out = [
        r
        for r in results
        if r.round == c.round
        and r.model in models
        and per_watt(r) is not None
        and (not c.scenario or r.scenario == c.scenario)
        and (not c.division or r.division == c.division)
        and _of_company(c.submitter, r)
        and _of_product(c.system, r)
    ]
    if not c.division and any(r.division == "closed" for r in out):
        out = [r for r in out if r.division == "closed"]
    return out


def _missing(c: ClaimFacts, what: str, reason: str) -> Verification:
    return Verification(
        UNVERIFIABLE,
        details={
            "reason": reason,
            "missing": {
                "round": c.round or "not named",
                "subject": c.submitter or "not named",
                "model": "/".join(frame_models(c)) or "not named",
                "scenario": c.scenario or "any (not named)",
                "slot": what,
            },
            "derived": DERIVED,
        },
    )


def verify(c: ClaimFacts, results: Sequence[ResultFacts]) -> Verification:
    """A figure per watt of ``c`` (``inference_frames.is_per_watt``) against
    ``results`` (the inference facts): module docstring. Never raises on data."""
    if c.kind in ("multiplier", "percentage") and c.value is not None:
        return verify_gain(c, results)
    if c.kind != "throughput" or c.value is None:
        return _missing(c, "kind", f"no per-watt check for a {c.kind} claim")
    for slot, ok, words in (
        ("round", c.round, "the page names no round and has no date"),
        ("benchmark", frame_models(c), "the text names no MLPerf Inference benchmark or task"),
        ("subject", c.submitter, "the figure's own words name no company"),
    ):
        if not ok:
            return _missing(c, slot, f"{words}, so no result can be chosen for it")
    cands = candidates(c, results)
    if not cands:
        return _missing(
            c,
            "results",
            f"no stored {c.round} power result of {c.submitter}"
            f"{' ' + c.system if c.system else ''} on {'/'.join(frame_models(c))}"
            f" ({c.scenario or 'any scenario'}) gives a figure per watt",
        )
    tol = _tolerance("", "inference", c.value)
    readings = [_reading(r, c, tol) for r in cands]
    if c.qualifier == "up to" and len(readings) > 1:
        readings = extreme(readings)
    details: dict[str, Any] = {"tolerance": tol, "derived": DERIVED, "result_unit": "per W"}
    v = settle(readings, details)
    same = [r for r in results if r.model in set(frame_models(c)) and per_watt(r) is not None]
    return named_elsewhere(c, v, same, per_watt, tol)


def _reading(r: ResultFacts, c: ClaimFacts, tol: float) -> Reading:
    rec = per_watt(r) or 0.0
    return Reading(
        (Link(r.pk, "subject", r.suite),),
        rec,
        c.value is not None and rec > 0 and within(c.value, rec, tol, c.qualifier),
        {
            "system": r.system_folder,
            "scenario": r.scenario,
            "division": r.division,
            "benchmark": r.benchmark,
        },
        f"{r.scenario} {rec:.2f}/W = {r.value:g} {r.unit} / {r.power:.2f} W: {r.label()}",
    )


def _side(c: ClaimFacts, results: Sequence[ResultFacts], rnd: str, who: str) -> list[ResultFacts]:
    """Power results of round ``rnd`` of the system ``who`` names (an accelerator
    family or product), on the frame's models and scenario."""
    models = set(frame_models(c))
    return [
        r
        for r in results
        if r.round == rnd
        and (not models or r.model in models)
        and per_watt(r) is not None
        and (not c.scenario or r.scenario == c.scenario)
        and (not c.division or r.division == c.division)
        and who
        and _of_product(who, r)
    ]


def verify_gain(c: ClaimFacts, results: Sequence[ResultFacts]) -> Verification:
    """A gain per watt ("2.3x more energy efficiency than Xavier"): the subject's power
    results over the compared system's of the same round (MLCommons' convention: the
    same model and scenario on both sides), every pair the frame allows a reading,
    "up to" the best. Unverifiable, naming the side, when either side has no power
    result in the round (a gain over an earlier round needs that round named)."""
    if not c.round or not c.system or not c.compared_system:
        return _missing(c, "compared", "a gain per watt needs the round and both systems named")
    subj = _side(c, results, c.round, c.system)
    others = _side(c, results, c.round, c.compared_system)
    if not subj or not others:
        who = c.system if not subj else c.compared_system
        return _missing(
            c, "results", f"no stored {c.round} power result of {who} gives a figure per watt"
        )
    tol = gain_tolerance(c.kind, c.value or 0.0)
    claimed = (c.value or 0.0) if c.kind == "multiplier" else 1.0 + (c.value or 0.0) / 100.0
    readings = []
    for a in subj:
        for b in others:
            if (a.benchmark, a.scenario) != (b.benchmark, b.scenario) or a.pk == b.pk:
                continue
            ratio = (per_watt(a) or 0.0) / (per_watt(b) or 1.0)
            rec = ratio if c.kind == "multiplier" else (ratio - 1.0) * 100.0
            readings.append(
                Reading(
                    (Link(a.pk, "subject", a.suite), Link(b.pk, "compared", b.suite)),
                    rec,
                    ratio > 0 and within(claimed, ratio, tol, c.qualifier),
                    {
                        "system": a.system_folder,
                        "compared": b.system_folder,
                        "scenario": a.scenario,
                        "division": a.division,
                        "benchmark": a.benchmark,
                    },
                    f"{a.scenario} {a.benchmark} {rec:.3g}: {a.label()} against {b.label()}",
                )
            )
    if not readings:
        return _missing(c, "results", "no pair of power results of one benchmark and scenario")
    if c.qualifier == "up to" and len(readings) > 1:
        readings = extreme(readings)
    return settle(readings, {"tolerance": tol, "derived": DERIVED})

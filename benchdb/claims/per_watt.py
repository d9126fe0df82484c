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
from collections.abc import Mapping, Sequence
from typing import Any

from benchdb.claims.compared_rounds import round_before
from benchdb.claims.facts import (
    ClaimFacts,
    Link,
    ResultFacts,
    Verification,
    gain_tolerance,
    submitter_matches,
    submitter_name_matches,
    within,
)
from benchdb.claims.facts import tolerance as _tolerance
from benchdb.claims.inference_frames import OWN_WORDS_TAG, PRODUCTS, frame_models, is_per_watt
from benchdb.claims.readings import Reading, extreme, named_elsewhere, settle
from benchdb.claims.round_counts import Holding
from benchdb.claims.subjects import family_matches
from benchdb.vocabulary import INCONSISTENT, UNVERIFIABLE

__all__ = [
    "DERIVED",
    "THROUGHPUT_UNITS",
    "absent_subject",
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


def verify(
    c: ClaimFacts,
    results: Sequence[ResultFacts],
    chosen: Mapping[str, Sequence[ResultFacts]] | None = None,
) -> Verification:
    """A figure per watt of ``c`` (``inference_frames.is_per_watt``) against
    ``results`` (the inference facts): module docstring. ``chosen``: results a person
    pinned by role (``subject``, ``compared``), which replace the frame's candidates
    (:func:`pinned`). Never raises on data."""
    if chosen and any(chosen.values()):
        return pinned(c, chosen)
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


def pinned(c: ClaimFacts, chosen: Mapping[str, Sequence[ResultFacts]]) -> Verification:
    """``c`` checked against the power results a person pinned (``chosen`` role ->
    results): a figure per watt against each ``subject`` result, a gain against each
    pair of ``subject`` and ``compared`` (or ``baseline``) result of one benchmark and
    scenario; the same readings, tolerance and settling as the automatic check, without
    its search (and without the guard that suspects a misread subject: the person chose
    it). Unverifiable, naming the pinned result, when one gives no figure per watt (no
    power in watts, or a latency)."""
    subj = list(chosen.get("subject") or ())
    other = list(chosen.get("compared") or ()) + list(chosen.get("baseline") or ())
    bad = [r for r in (*subj, *other) if per_watt(r) is None]
    if bad:
        return _missing(
            c, "results", f"the pinned result {bad[0].label()} gives no figure per watt"
        )
    if c.kind in ("multiplier", "percentage") and c.value is not None:
        if not subj or not other:
            return _missing(c, "compared", "a gain per watt needs both sides pinned")
        return _gain_readings(c, subj, other)
    if c.kind != "throughput" or c.value is None or not subj:
        return _missing(c, "kind", f"no per-watt check for a {c.kind} claim")
    tol = _tolerance("", "inference", c.value)
    readings = [_reading(r, c, tol, _whose(c, r)) for r in subj]
    if c.qualifier == "up to" and len(readings) > 1:
        readings = extreme(readings)
    return settle(readings, {"tolerance": tol, "derived": DERIVED, "result_unit": "per W"})


def _whose(c: ClaimFacts, r: ResultFacts) -> str:
    """Why pinned result ``r`` cannot be the figure of ``c``'s subject ("" when it can):
    the automatic check reads only the named company's results (its submissions and
    systems on its accelerators) and its product's (:func:`candidates`), so a figure the
    text gives one company does not hold on another's result."""
    if c.submitter and not _of_company(c.submitter, r):
        return f"a result of {r.submitter}, not of {c.submitter}"
    if c.system and not _of_product(c.system, r):
        return f"a result on {r.accelerator_model}, not on {c.system}"
    return ""


def _reading(r: ResultFacts, c: ClaimFacts, tol: float, other: str = "") -> Reading:
    """``r``'s figure per watt as a reading of ``c``; ``other``: why ``r`` is not the
    subject's (the reading then does not hold, and its label says why)."""
    rec = per_watt(r) or 0.0
    label = f"{r.scenario} {rec:.2f}/W = {r.value:g} {r.unit} / {r.power:.2f} W: {r.label()}"
    return Reading(
        (Link(r.pk, "subject", r.suite),),
        rec,
        not other and c.value is not None and rec > 0 and within(c.value, rec, tol, c.qualifier),
        {
            "system": r.system_folder,
            "scenario": r.scenario,
            "division": r.division,
            "benchmark": r.benchmark,
        },
        f"{label} ({other})" if other else label,
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
    return _gain_readings(c, subj, others)


def _gain_readings(
    c: ClaimFacts, subj: Sequence[ResultFacts], others: Sequence[ResultFacts]
) -> Verification:
    """Each pair of ``subj`` and ``others`` of one benchmark and scenario a reading of
    the gain per watt, settled ("up to": the best)."""
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


def _on_models(benchmark: str, models: Sequence[str]) -> bool:
    """Whether a stored benchmark key ("bert-99") is one of ``models`` ("bert"); a
    prefix is enough (it errs towards "has a result", which withholds the verdict)."""
    return any(benchmark == m or benchmark.startswith(m + "-") for m in models)


def absent_subject(
    c: ClaimFacts,
    v: Verification,
    results: Sequence[ResultFacts],
    holdings: Mapping[tuple[str, str], Holding] | None,
) -> Verification:
    """A figure per watt of a company that ran none of the frame's benchmarks
    (Reuters' first story: "while Neuchips ranked second at 8.9 samples per watt" on
    BERT, where Neuchips ran DLRM only): ``inconsistent``, when ``v`` found no power
    result of the subject (``missing`` slot ``results``) and all of these hold:

    * the figure's own clause names the company (context ``subject-own-words``,
      :func:`benchdb.claims.inference_frames.per_watt_frame`): the subject is the
      text's, not carried from elsewhere;
    * benchdb holds the round's tree and every result folder the company listed in it
      (``Holding.whole``), and the company submitted in the round;
    * no stored result of the round on the frame's models, valid or not, in any
      division or scenario, with or without power, is the company's or runs its
      accelerators (``Holding.entries`` and ``scores``); when the round comes from the
      page's date (``round-date``, ``round-page``), the same holds of the round before
      (a story may quote it), which benchdb must hold too.

    Then no reading exists whatever the division, scenario or system. The power results
    giving the figure are named (``named_elsewhere``), not linked. Else ``v``."""
    missing = v.details.get("missing", {}) if v.verdict == UNVERIFIABLE else {}
    models = frame_models(c)
    if missing.get("slot") == "benchmark" and not models:
        return _absent_anywhere(c, v, results, holdings)
    if (
        missing.get("slot") != "results"
        or not is_per_watt(c)
        or c.kind != "throughput"
        or c.value is None
        or OWN_WORDS_TAG not in c.context
        or not models
        or holdings is None
        or ("inference", c.round) not in holdings
    ):
        return v
    ran = _ran_only_others(c.submitter, models, holdings["inference", c.round])
    also = _none_before(c, models, holdings) if ran is not None else None
    if ran is None or also is None:
        return v
    tol = _tolerance("", "inference", c.value)
    fits = [r for r in results if r.round == c.round and _gives(r, models, c.value, tol)]
    why = (
        f"{c.submitter} ran no {'/'.join(models)} in {c.round} (benchdb holds every result"
        f" folder it listed: {', '.join(ran)}){also}, so no MLPerf figure per watt of"
        f" {c.submitter} on it exists"
    )
    return _refuted(why, ran, tol, fits)


def _refuted(
    why: str, subject: Sequence[str], tol: float, fits: Sequence[ResultFacts]
) -> Verification:
    """``inconsistent``, said so: ``why``, then the results of other submitters whose
    figure the claimed one is (``fits``, at most five, named in the reason and in
    ``named_elsewhere``, never linked); ``subject_results``: what the subject ran or
    gives (labels); ``tolerance``: fraction."""
    named = [_fit_label(r) for r in fits[:5]]
    out: dict[str, Any] = {
        "reason": why + (f"; the figure is that of {'; '.join(named)}" if named else ""),
        "derived": DERIVED,
        "subject_results": list(subject),
        "tolerance": tol,
    }
    if named:
        out["named_elsewhere"] = named
    return Verification(INCONSISTENT, details=out)


def _absent_anywhere(
    c: ClaimFacts,
    v: Verification,
    results: Sequence[ResultFacts],
    holdings: Mapping[tuple[str, str], Holding] | None,
) -> Verification:
    """A figure per watt of a company whose text names no benchmark (inference/01:
    "Neuchips Corp (...), a start-up founded by ..., took the top spot with 227 queries
    per watt", where Neuchips ran DLRM only, at 1,060 and 1,033 queries/s per W):
    ``inconsistent`` when every benchmark is a reading and none gives the figure: the
    company is named in the figure's own words (context ``subject-own-words``); benchdb
    holds the round's tree and every result folder the company listed in it
    (``Holding.whole``); every stored result of the round that is the company's or
    runs its accelerators (any benchmark, division, scenario) either ran no power
    measurement or gives a figure per watt, and none of those figures is the claimed
    one (a power result in joules per query, or without a score, withholds the
    verdict: its figure is unknown), nor does a result of the round whose system names
    the company in its processor, accelerator or name give it (another submitter's
    server on its chips). A round from the page's date needs the same of the round
    before, which benchdb must hold. Else ``v``."""
    if (
        not is_per_watt(c)
        or c.kind != "throughput"
        or c.value is None
        or OWN_WORDS_TAG not in c.context
        or holdings is None
        or not c.round
    ):
        return v
    rounds = [c.round]
    if any(t in c.context for t in _ROUND_FROM_DATE):
        rounds.append(round_before(c.round))
    tol = _tolerance("", "inference", c.value)
    figures: list[str] = []
    for rnd in rounds:
        held = holdings.get(("inference", rnd))
        if held is None or any(submitter_name_matches(c.submitter, s) for s in held.incomplete):
            return v  # not held, or a result folder the company listed is not stored
        mine = _company_results(c.submitter, rnd, results)
        if (rnd == c.round and not mine) or not _none_gives(c, mine, tol, figures):
            return v
    fits = [r for r in results if r.round == c.round and _gives(r, (r.model,), c.value, tol)]
    if any(_runs_its_chips(c.submitter, r) for r in fits):
        return v  # another submitter's system on the company's chips (its CPUs) gives it
    ran = ", ".join(dict.fromkeys(figures)) or "no figure per watt"
    why = (
        f"the text names no benchmark, but none of {c.submitter}'s results in"
        f" {' or '.join(rounds)} (benchdb holds every result folder it listed) gives"
        f" {c.value:g} per watt: {ran}"
    )
    return _refuted(why, figures, tol, fits)


def _company_results(company: str, rnd: str, results: Sequence[ResultFacts]) -> list[ResultFacts]:
    """Stored results of round ``rnd`` that are ``company``'s submissions or run its
    accelerators (:func:`_makes`)."""
    return [
        r
        for r in results
        if r.suite == "inference"
        and r.round == rnd
        and (submitter_name_matches(company, r.submitter) or _makes(company, r.accelerator_model))
    ]


def _runs_its_chips(company: str, r: ResultFacts) -> bool:
    """Whether ``r``'s system names ``company`` in its processor, accelerator or name
    (a Dell server with Intel Xeon CPUs is "Intel's chips" too)."""
    key = _norm(company)
    return bool(key) and any(
        key in _norm(x) for x in (r.processor, r.accelerator_model, r.system_name)
    )


def _none_gives(c: ClaimFacts, mine: Sequence[ResultFacts], tol: float, out: list[str]) -> bool:
    """Whether no result of ``mine`` can give ``c``'s figure per watt: each ran no power
    measurement or gives a figure that is not it (appended to ``out``)."""
    for r in mine:
        if r.power is None:
            continue
        rec = per_watt(r)
        if rec is None or rec <= 0 or within(c.value or 0.0, rec, tol, c.qualifier):
            return False
        out.append(f"{r.benchmark} {r.scenario} {rec:.2f}/W ({r.system_folder})")
    return True


#: Context tags of a round taken from the page's date, not named in the text.
_ROUND_FROM_DATE = ("round-date", "round-page")


def _none_before(
    c: ClaimFacts, models: Sequence[str], holdings: Mapping[tuple[str, str], Holding]
) -> str | None:
    """ "" when ``c``'s round is named in its text; when it comes from the page's date (a
    story may quote the round before), the words saying the company ran none of
    ``models`` in the round before either, or None when it did or benchdb does not hold
    that round."""
    if not any(t in c.context for t in _ROUND_FROM_DATE):
        return ""
    before = holdings.get(("inference", round_before(c.round)))
    if before is None or _ran_only_others(c.submitter, models, before, False) is None:
        return None
    return f", nor in {before.round} (the round is the page date's)"


def _ran_only_others(
    company: str, models: Sequence[str], held: Holding, submitted: bool = True
) -> list[str] | None:
    """The benchmarks ``company`` ran in ``held``'s round when it submitted there (or,
    ``submitted`` False, whether or not it did), benchdb holds every result folder it
    listed, the round has ``models`` and no stored result on them is the company's or
    runs its accelerators; else None."""
    mine = [e for e in held.entries if submitter_name_matches(company, e[0])]
    if (submitted and not mine) or any(submitter_name_matches(company, s) for s in held.incomplete):
        return None  # not a submitter, or a result folder it listed is not stored
    if any(_on_models(e[1], models) for e in mine) or any(
        _on_models(s.benchmark, models) and _makes(company, s.accelerator) for s in held.scores
    ):
        return None
    if not any(_on_models(e[1], models) for e in held.entries):
        return None  # the round has no such benchmark: another question
    return sorted({e[1] for e in mine})


def _makes(company: str, accelerator: str) -> bool:
    """Whether ``accelerator`` (a systems JSON's model name) is ``company``'s: its maker
    word, or one of its products (:data:`inference_frames.PRODUCTS`: RecAccel is
    Neuchips')."""
    if _norm(accelerator).startswith(_norm(company)):
        return True
    return any(maker == company and re.search(pat, accelerator, re.I) for pat, _, maker in PRODUCTS)


def _gives(r: ResultFacts, models: Sequence[str], value: float, tol: float) -> bool:
    """Whether ``r`` (a result of one of ``models``) gives ``value`` per watt."""
    rec = per_watt(r) if r.model in models else None
    return rec is not None and rec > 0 and abs(value - rec) / rec <= tol


def _fit_label(r: ResultFacts) -> str:
    return f"{r.scenario} {per_watt(r) or 0.0:.2f}/W: {r.label()}"

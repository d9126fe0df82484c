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

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import date
from typing import Any

from benchdb.vocabulary import (
    AMBIGUOUS,
    CONSISTENT,
    INCONSISTENT,
    NOT_MLPERF,
    ROUND_PUBLISHED,
    UNVERIFIABLE,
    canonical_benchmark,
    framework_family,
    round_tuple,
)

#: Benchmarks MLCommons counts as imaging ("Vision" in its benchmark table).
IMAGE_BENCHMARKS = frozenset({"resnet", "ssd", "retinanet", "maskrcnn", "unet3d"})


def tolerance(benchmark: str) -> float:
    """Run-to-run tolerance of a benchmark's score, as a fraction: 0.025 for imaging
    benchmarks (:data:`IMAGE_BENCHMARKS`), 0.05 for the others.

    Source: MLCommons, MLPerf Training results page
    (https://mlcommons.org/en/training-normal-05/): "Imaging benchmark results are
    very roughly +/- 2.5% and other benchmarks are very roughly +/- 5%".
    """
    return 0.025 if benchmark in IMAGE_BENCHMARKS else 0.05


def round_for_date(published: date | None, rounds: Mapping[str, date] | None = None) -> str:
    """The latest round published on or before ``published`` ("" when none is, or
    no date). ``rounds``: round -> publication date (default :data:`ROUND_PUBLISHED`)."""
    if published is None:
        return ""
    table = rounds if rounds is not None else ROUND_PUBLISHED
    before = [(d, r) for r, d in table.items() if d <= published]
    return max(before)[1] if before else ""


@dataclass(frozen=True)
class ResultFacts:
    """What verification reads from a stored result (``benchdb.models.Result`` and its
    system). ``round``: ``"v1.1"``; ``benchmark``: canonical key;
    ``score_minutes``: the olympic mean, minutes."""

    pk: int
    round: str
    submitter: str
    system_folder: str
    system_name: str
    division: str
    availability: str
    accelerators: int | None
    accelerator_model: str
    framework: str
    benchmark: str
    score_minutes: float | None
    nodes: int | None = None
    result_id: str = ""


@dataclass(frozen=True)
class ClaimFacts:
    """The claim as verification needs it: the fields of
    ``ingest.parsers.claim_text.Claim`` (see there), with ``round`` already resolved."""

    kind: str
    value: float | None
    unit: str
    qualifier: str = ""
    system: str = ""
    accelerators: int | None = None
    submitter: str = ""
    framework: str = ""
    benchmark_key: str = ""
    round: str = ""
    division: str = ""
    result_ids: tuple[str, ...] = ()
    compared_value: float | None = None
    compared_system: str = ""
    compared_framework: str = ""
    baseline: str = ""
    metric: str = ""
    non_mlperf: str = ""
    mlperf_context: bool = True
    per_accelerator: bool = False
    unverified: bool = False
    implied_value: float | None = None
    context: tuple[str, ...] = ()

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], **override: Any) -> ClaimFacts:
        """Build from a dict (``Claim.as_dict()`` or its stored JSON); unknown keys are
        ignored, lists become tuples."""
        names = {f.name for f in fields(cls)}
        kw: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in {**data, **override}.items() if k in names}  # fmt: skip
        return cls(**kw)


@dataclass(frozen=True)
class Link:
    """A result a claim rests on: ``role`` is ``subject`` (the claimed system),
    ``compared`` (the other side of a comparison) or ``baseline`` (the earlier
    result a gain is measured from)."""

    result: int
    role: str


@dataclass(frozen=True)
class Verification:
    """Outcome of :func:`verify_claim`. Values are in the claim's unit
    (``recomputed_value`` for the subject, ``compared_recomputed_value`` for the other
    side); ``details`` explains (tolerance, readings, reason, candidates...)."""

    verdict: str
    recomputed_value: float | None = None
    compared_recomputed_value: float | None = None
    links: tuple[Link, ...] = ()
    flags: tuple[str, ...] = ()
    details: dict[str, Any] = field(default_factory=dict)


# --- helpers ------------------------------------------------------------------------

_PER_MINUTE = {"min": 1.0, "s": 1 / 60.0, "h": 60.0}
_NON_MLPERF_METRICS = frozenset({"throughput", "clock", "compute", "memory", "cost", "process", "power"})  # fmt: skip


def to_unit(minutes: float, unit: str) -> float:
    """Minutes -> ``unit`` (``min``, ``s``, ``h``)."""
    return minutes / _PER_MINUTE.get(unit, 1.0)


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


_POD = re.compile(r"(ipu|bow)pod(\d+)")


def system_matches(mention: str, r: ResultFacts, accelerators: int | None = None) -> bool:
    """Whether a vendor's system mention names the system of result ``r``.

    ``IPU-POD16``/``Bow Pod16``: a Graphcore system of 16 IPUs (``Bow`` needs Bow IPUs);
    ``DGX A100``/``DGX H100``: NVIDIA's DGX folders, one node unless ``accelerators``
    says how many; ``DGX SuperPOD``: a multi-node DGX; ``A100``/``H100``/``V100``/``TPU v4``:
    the accelerator model; otherwise the system's name or folder, ignoring case and
    punctuation. ``accelerators``, when given, must equal the system's count.
    """
    key = _norm(mention)
    if not key:
        return False
    name, folder, accel = _norm(r.system_name), _norm(r.system_folder), _norm(r.accelerator_model)
    if accelerators is not None and r.accelerators is not None and r.accelerators != accelerators:
        return False
    pod = _POD.fullmatch(key)
    if pod:
        sizes = {int(m.group(2)) for hay in (name, folder) for m in _POD.finditer(hay)}
        return int(pod.group(2)) in sizes and "ipu" in accel and (pod.group(1) != "bow" or "bow" in accel)  # fmt: skip
    if key in ("dgxa100", "dgxh100"):
        named = folder.startswith(key) or key in name
        return named and (accelerators is not None or (r.nodes or 1) == 1)
    if key == "dgxsuperpod":
        return folder.startswith("dgx") and (r.nodes or 1) > 1
    if key in ("a100", "h100", "v100") or key.startswith("tpuv"):
        return key[:5] in accel
    return key in (name, folder) or (len(key) >= 5 and (key in name or key in folder))


def candidates(results: Iterable[ResultFacts], *, round: str, benchmark: str, system: str = "",
               submitter: str = "", framework: str = "", division: str = "",
               accelerators: int | None = None) -> list[ResultFacts]:  # fmt: skip
    """Scored results of ``round`` and ``benchmark`` that the mention can mean:
    by system (:func:`system_matches`) or, when no system is named, by submitter;
    none when neither is given."""
    out = [r for r in results if r.round == round and r.benchmark == benchmark and r.score_minutes is not None]  # fmt: skip
    if system:
        out = [r for r in out if system_matches(system, r, accelerators)]
    elif submitter:
        out = [r for r in out if r.submitter.lower() == submitter.lower()]
    else:
        return []
    if framework:
        out = [r for r in out if framework.lower() in r.framework.lower()] or out
    if division:
        out = [r for r in out if r.division == division]
    return out


def within(claimed: float, recomputed: float, tol: float, qualifier: str = "") -> bool:
    """Does ``recomputed`` support ``claimed`` (same unit) within ``tol`` (fraction)?

    No qualifier, "about", "nearly", "up to", "only": relative difference <= tol.
    "more than"/"at least": recomputed >= claimed x (1 - tol). "less than":
    recomputed <= claimed x (1 + tol). "just over": claimed x (1 - tol) <=
    recomputed <= claimed x (1 + 2 tol). Raises ZeroDivisionError if recomputed is 0.
    """
    if qualifier in ("more than", "at least"):
        return recomputed >= claimed * (1 - tol)
    if qualifier == "less than":
        return recomputed <= claimed * (1 + tol)
    if qualifier == "just over":
        return claimed * (1 - tol) <= recomputed <= claimed * (1 + 2 * tol)
    return abs(claimed - recomputed) / abs(recomputed) <= tol


def percent_readings(old_minutes: float, new_minutes: float) -> dict[str, float]:
    """Both readings of "N% better" from an old and a new time (minutes, > 0):
    ``time_reduction`` = (old - new) / old x 100, ``speedup`` = (old / new - 1) x 100."""
    return {
        "time_reduction": (old_minutes - new_minutes) / old_minutes * 100.0,
        "speedup": (old_minutes / new_minutes - 1.0) * 100.0,
    }


def claimed_ratio(percent: float, reading: str) -> float:
    """The old/new time ratio a percentage claims under a reading (see
    :func:`percent_readings`); raises ZeroDivisionError for a 100% time reduction."""
    if reading == "time_reduction":
        return 1.0 / (1.0 - percent / 100.0)
    return 1.0 + percent / 100.0


def arithmetic_ok(claimed: float, implied: float) -> bool:
    """A claim's own arithmetic: equal once rounded to the claimed digits, or within
    1% (45.9x claimed, 45.90x implied by 70 min / 91.5 s)."""
    digits = len(f"{claimed:g}".split(".")[1]) if "." in f"{claimed:g}" else 0
    return round(implied, digits) == round(claimed, digits) or abs(implied - claimed) <= 0.01 * abs(claimed)  # fmt: skip


# --- verification --------------------------------------------------------------------


def verify_claim(claim: ClaimFacts, results: Sequence[ResultFacts], *,
                 pinned: Sequence[Link] | None = None) -> Verification:  # fmt: skip
    """Check one claim against ``results`` (every stored result it may rest on).

    ``pinned``: links chosen by a person (a correction); they replace the search.
    Never raises on data: what cannot be decided is ``unverifiable`` with
    ``details["reason"]``.
    """
    out = _scope(claim)
    if out is None and claim.kind == "count":
        out = Verification(UNVERIFIABLE, details={"reason": f"a count of {claim.unit}s: checking it needs every result of a round, and benchdb may hold a part"})  # fmt: skip
    if out is None:
        by_pk = {r.pk: r for r in results}
        chosen = None
        if pinned:
            chosen = {role: [by_pk[lk.result] for lk in pinned if lk.role == role and lk.result in by_pk] for role in ("subject", "compared", "baseline")}  # fmt: skip
        bench = canonical_benchmark(claim.benchmark_key, claim.round) if claim.benchmark_key and claim.round else claim.benchmark_key  # fmt: skip
        verify = {"time": _verify_time, "head_to_head": _verify_head_to_head,
                  "percentage": _verify_gain, "multiplier": _verify_gain,
                  "parity": _verify_parity, "scale": _verify_scale}.get(claim.kind)  # fmt: skip
        if verify is None:
            out = Verification(UNVERIFIABLE, details={"reason": f"no check for a {claim.kind} claim"})  # fmt: skip
        elif not claim.round:
            out = Verification(UNVERIFIABLE, details={"reason": "no round named and no publication date"})  # fmt: skip
        elif not bench:
            out = Verification(UNVERIFIABLE, details={"reason": "no MLPerf benchmark named"})
        else:
            out = verify(claim, bench, results, chosen)
    return _with_flags(claim, out, {r.pk: r for r in results})


def _scope(c: ClaimFacts) -> Verification | None:
    """A not-mlperf verdict when the claim is not about MLPerf results, else None."""
    reason = ""
    if c.kind in ("spec", "throughput") or c.metric in _NON_MLPERF_METRICS:
        reason = f"{c.metric or c.kind} is not an MLPerf Training metric (time to train)"
    elif c.non_mlperf:
        reason = "the page says this is not an MLPerf result" if c.non_mlperf == "stated" else f"{c.non_mlperf} is not an MLPerf Training benchmark"  # fmt: skip
    elif not c.mlperf_context:
        reason = "the page does not mention MLPerf"
    elif c.unverified:
        reason = "the page says these numbers are not the officially submitted (verified) results"
    return Verification(NOT_MLPERF, details={"reason": reason}) if reason else None


def _pick(cands: list[ResultFacts], claimed: float | None, unit: str, tol: float, qualifier: str) -> tuple[ResultFacts | None, bool]:  # fmt: skip
    """The result a time most likely quotes: closed before open; within a division
    the nearest score; a consistent one if there is one. Returns (result, consistent)."""
    if not cands:
        return None, False
    order = sorted(cands, key=lambda r: (r.division != "closed", abs(to_unit(r.score_minutes or 0.0, unit) - (claimed or 0.0))))  # fmt: skip
    if claimed is None:
        return order[0], False
    for r in order:
        if within(claimed, to_unit(r.score_minutes or 0.0, unit), tol, qualifier):
            return r, True
    return order[0], False


def _verify_time(c: ClaimFacts, bench: str, results: Sequence[ResultFacts], chosen: dict[str, list[ResultFacts]] | None) -> Verification:  # fmt: skip
    tol = tolerance(bench)
    cands = chosen["subject"] if chosen else _ids_or(c, results, bench) or candidates(results, round=c.round, benchmark=bench, system=c.system, submitter=c.submitter, framework=c.framework, division=c.division, accelerators=c.accelerators)  # fmt: skip
    if not c.system and not chosen and len({r.system_folder for r in cands}) > 1:
        return Verification(UNVERIFIABLE, details={"reason": f"no system named; {len(cands)} results of {c.submitter} could be meant", "candidates": [r.pk for r in cands], "tolerance": tol})  # fmt: skip
    r, ok = _pick(cands, c.value, c.unit, tol, c.qualifier)
    if r is None:
        return Verification(UNVERIFIABLE, details={"reason": _no_result(c.system or c.submitter, bench, c.round), "tolerance": tol})  # fmt: skip
    rec = to_unit(r.score_minutes or 0.0, c.unit)
    return Verification(CONSISTENT if ok else INCONSISTENT, rec, links=(Link(r.pk, "subject"),),
                        details={"tolerance": tol, "difference_percent": _diff(c.value, rec)})  # fmt: skip


def _verify_head_to_head(c: ClaimFacts, bench: str, results: Sequence[ResultFacts], chosen: dict[str, list[ResultFacts]] | None) -> Verification:  # fmt: skip
    tol = tolerance(bench)
    subj = chosen["subject"] if chosen else candidates(results, round=c.round, benchmark=bench, system=c.system, framework=c.framework, division=c.division, accelerators=c.accelerators)  # fmt: skip
    comp = chosen["compared"] if chosen else candidates(results, round=c.round, benchmark=bench, system=c.compared_system, division=c.division)  # fmt: skip
    a, ok_a = _pick(subj, c.value, c.unit, tol, c.qualifier)
    b, ok_b = _pick(comp, c.compared_value, c.unit, tol, "")
    if a is None or b is None:
        missing = c.system if a is None else c.compared_system
        return Verification(UNVERIFIABLE, details={"reason": _no_result(missing, bench, c.round), "tolerance": tol})  # fmt: skip
    ra, rb = to_unit(a.score_minutes or 0.0, c.unit), to_unit(b.score_minutes or 0.0, c.unit)
    details = {"tolerance": tol, "difference_percent": _diff(c.value, ra),
               "compared_difference_percent": _diff(c.compared_value, rb),
               "claimed_ratio": (c.compared_value or 0.0) / c.value if c.value else None,
               "recomputed_ratio": rb / ra if ra else None}  # fmt: skip
    return Verification(CONSISTENT if ok_a and ok_b else INCONSISTENT, ra, rb,
                        (Link(a.pk, "subject"), Link(b.pk, "compared")), details=details)  # fmt: skip


def _baseline_rounds(c: ClaimFacts, new: ResultFacts, results: Sequence[ResultFacts], bench: str) -> list[ResultFacts]:  # fmt: skip
    """Earlier results of the same system, benchmark and division that a gain is
    measured from: the first submission, the previous round, or a named round."""
    olds = [r for r in results if r.benchmark == bench and r.division == new.division and r.score_minutes is not None
            and _earlier(r.round, new.round) and system_matches(c.system, r) and _same_line(r, new)]  # fmt: skip
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
    return old.submitter == new.submitter and framework_family(old.framework) == framework_family(new.framework)  # fmt: skip


def _verify_gain(c: ClaimFacts, bench: str, results: Sequence[ResultFacts], chosen: dict[str, list[ResultFacts]] | None) -> Verification:  # fmt: skip
    """A percentage or multiplier: against another system of the same round
    (``compared_system``) or the same system in an earlier round (``baseline``)."""
    tol = tolerance(bench)
    pairs: list[tuple[ResultFacts, ResultFacts, str]] = []  # (new/subject, old/compared, role)
    if chosen:
        others = chosen["compared"] or chosen["baseline"]
        role = "compared" if chosen["compared"] else "baseline"
        pairs = [(a, b, role) for a in chosen["subject"] for b in others]
    elif c.compared_system:
        subj = candidates(results, round=c.round, benchmark=bench, system=c.system, division=c.division)  # fmt: skip
        comp = candidates(results, round=c.round, benchmark=bench, system=c.compared_system, division=c.division)  # fmt: skip
        pairs = [(a, b, "compared") for a in subj for b in comp]
    elif c.baseline and c.system:
        subj = candidates(results, round=c.round, benchmark=bench, system=c.system, framework=c.framework, division=c.division)  # fmt: skip
        pairs = [(a, b, "baseline") for a in subj for b in _baseline_rounds(c, a, results, bench)]
    if not pairs:
        what = f"{c.system or c.submitter or 'the system'} against {c.compared_system or c.baseline or 'nothing named'}"  # fmt: skip
        return Verification(UNVERIFIABLE, details={"reason": f"no pair of results for {what} ({bench}, {c.round})", "tolerance": tol})  # fmt: skip
    scored = [(_gain_quality(c, a, b, tol), a, b, role) for a, b, role in pairs]
    scored.sort(key=lambda x: (-x[0][0], x[1].division != "closed", x[0][1]))
    (n_ok, _, readings, ok_readings), a, b, role = scored[0]
    links = (Link(a.pk, "subject"), Link(b.pk, role))
    if c.kind == "multiplier":
        ratio = readings["ratio"]
        return Verification(CONSISTENT if n_ok else INCONSISTENT, ratio, links=links,
                            details={"tolerance": tol, "recomputed_ratio": ratio, "old_minutes": b.score_minutes, "new_minutes": a.score_minutes}) # fmt: skip
    best = min(("time_reduction", "speedup"), key=lambda k: abs(readings[k] - (c.value or 0.0)))
    verdict = CONSISTENT if n_ok == 2 else AMBIGUOUS if n_ok == 1 else INCONSISTENT
    details = {"tolerance": tol, "readings": {k: readings[k] for k in ("time_reduction", "speedup")},
               "readings_consistent": ok_readings, "old_minutes": b.score_minutes,
               "new_minutes": a.score_minutes}  # fmt: skip
    return Verification(verdict, readings[best], links=links, details=details)


def _gain_quality(c: ClaimFacts, new: ResultFacts, old: ResultFacts, tol: float) -> tuple[int, float, dict[str, float], list[str]]:  # fmt: skip
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


def _verify_parity(c: ClaimFacts, bench: str, results: Sequence[ResultFacts], chosen: dict[str, list[ResultFacts]] | None) -> Verification:  # fmt: skip
    """"X performs like Y": every pair of results of the two frameworks (or systems)
    on the same hardware (accelerator model and count) in the round; the recomputed
    value is the largest difference, in percent of Y's score."""
    tol = tolerance(bench)
    pool = [r for r in results if r.round == c.round and r.benchmark == bench and r.score_minutes and (not c.division or r.division == c.division)]  # fmt: skip
    if chosen:
        xs, ys = chosen["subject"], chosen["compared"]
    elif c.framework and c.compared_framework:
        xs = [r for r in pool if c.framework.lower() in r.framework.lower()]
        ys = [r for r in pool if c.compared_framework.lower() in r.framework.lower()]
    else:
        xs = [r for r in pool if c.system and system_matches(c.system, r)]
        ys = [r for r in pool if c.compared_system and system_matches(c.compared_system, r)]
    pairs = [(x, y) for x in xs for y in ys if x.pk != y.pk and (chosen or (x.accelerator_model, x.accelerators) == (y.accelerator_model, y.accelerators))]  # fmt: skip
    if not pairs:
        return Verification(UNVERIFIABLE, details={"reason": f"no results of both sides on the same hardware ({bench}, {c.round})", "tolerance": tol})  # fmt: skip
    diffs = [((x.score_minutes or 0.0) / (y.score_minutes or 1.0) - 1.0) * 100.0 for x, y in pairs]
    worst = max(diffs, key=abs)
    links: list[Link] = []
    for x, y in pairs:
        for lk in (Link(x.pk, "subject"), Link(y.pk, "compared")):
            if lk not in links:
                links.append(lk)
    verdict = CONSISTENT if all(abs(d) <= tol * 100.0 for d in diffs) else INCONSISTENT
    details = {"tolerance": tol, "pairs": [{"subject": x.pk, "compared": y.pk, "difference_percent": d, "accelerators": x.accelerators} for (x, y), d in zip(pairs, diffs, strict=True)]}  # fmt: skip
    return Verification(verdict, worst, links=tuple(links), details=details)


def _verify_scale(c: ClaimFacts, bench: str, results: Sequence[ResultFacts], chosen: dict[str, list[ResultFacts]] | None) -> Verification:  # fmt: skip
    if c.unit in ("node", "system"):
        return Verification(UNVERIFIABLE, details={"reason": "a count of nodes or systems names no result"})  # fmt: skip
    cands = chosen["subject"] if chosen else candidates(results, round=c.round, benchmark=bench, system=c.system, submitter=c.submitter)  # fmt: skip
    if not cands:
        return Verification(UNVERIFIABLE, details={"reason": _no_result(c.system or c.submitter, bench, c.round)})  # fmt: skip
    match = [r for r in cands if r.accelerators == int(c.value or 0)]
    r = (match or cands)[0]
    return Verification(CONSISTENT if match else INCONSISTENT, float(r.accelerators or 0), links=(Link(r.pk, "subject"),))  # fmt: skip


def _ids_or(c: ClaimFacts, results: Sequence[ResultFacts], bench: str) -> list[ResultFacts]:
    if not c.result_ids:
        return []
    return [r for r in results if r.result_id and r.result_id in c.result_ids and r.benchmark == bench]  # fmt: skip


def _no_result(system: str, bench: str, rnd: str) -> str:
    return f"no stored result for {system or 'an unnamed system'} on {bench} in {rnd}"


def _diff(claimed: float | None, rec: float) -> float | None:
    return None if claimed is None or not rec else (claimed / rec - 1.0) * 100.0


def _with_flags(c: ClaimFacts, v: Verification, by_pk: Mapping[int, ResultFacts]) -> Verification:
    flags: list[str] = []
    linked = [(lk.role, by_pk[lk.result]) for lk in v.links if lk.result in by_pk]
    subj = [r for role, r in linked if role == "subject"]
    other = [r for role, r in linked if role != "subject"]
    compared = [(a, b) for a in subj for b in other]
    if "pairs" in v.details:  # parity: only the pairs that were compared
        compared = [(by_pk[p["subject"]], by_pk[p["compared"]]) for p in v.details["pairs"] if p["subject"] in by_pk and p["compared"] in by_pk]  # fmt: skip
    for a, b in compared:
        for differs, flag in ((a.division != b.division, "different-divisions"),
                              (a.availability != b.availability, "different-availability"),
                              (a.round != b.round, "different-rounds"),
                              (a.accelerators != b.accelerators, "different-accelerator-counts")):  # fmt: skip
            if differs:
                flags.append(flag)
    if any(r.division == "open" for _, r in linked):
        flags.append("open-division-result")
    if c.per_accelerator:
        flags.append("per-accelerator-normalization")
    if c.unverified and (c.benchmark_key or c.metric == "time-to-train"):
        flags.append("unverified-result")
    if v.verdict != NOT_MLPERF and not c.result_ids:
        flags.append("no-result-id")
    details = dict(v.details)
    if c.implied_value is not None and c.value is not None:
        details["arithmetic"] = {"claimed": c.value, "implied": c.implied_value}
        if not arithmetic_ok(c.value, c.implied_value):
            flags.append("arithmetic-error")
    if "system" in c.context and v.verdict != NOT_MLPERF:
        flags.append("system-from-context")
    if "round-date" in c.context and v.verdict != NOT_MLPERF:
        flags.append("round-from-date")
    uniq = tuple(dict.fromkeys(flags))
    return Verification(v.verdict, v.recomputed_value, v.compared_recomputed_value, v.links, uniq, details)  # fmt: skip

"""A verdict that holds for every reading the text allows. Pure: no Django.

A claim's text rarely pins one result: "H100 trains GPT-3 in 11 minutes" fits every
H100 system of the round that ran GPT-3; "17% faster" is a time reduction or a
speedup; "up to 1.9x" without a scenario is Server or Offline. Each way the text can
be read is a :class:`Reading`: the results it rests on (chosen from the claim's frame
alone: round, benchmark, system, submitter, division, scenario, counts; never from the
claimed number), the figure they give, and whether the claim holds on it.

:func:`settle` turns the readings into one verdict (issue 20, "Resolution that never
looks at the claimed value"):

* ``consistent`` only if every reading holds; ``inconsistent`` only if none does;
* readings that disagree along exactly one slot the text leaves open where MLPerf's
  own tables also split (:data:`ONE_CHOICE`: scenario, division, time reduction vs
  speedup, a byte unit read as decimal or binary, a top M read as places or as tests
  won) give ``ambiguous``, each reading's
  outcome listed ("Server: 1.9x holds; Offline: 1.4x does not");
* any other disagreement is ``unverifiable``, naming the slot(s) the text leaves open
  and the readings.

The readings are kept in ``Verification.details["readings_list"]`` (each: label,
figure, holds, slots) and the results of every reading are linked, so a reader sees
all the evidence a verdict rests on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from benchdb.claims.facts import Link, Verification, within
from benchdb.vocabulary import AMBIGUOUS, CONSISTENT, INCONSISTENT, UNVERIFIABLE

#: Slots along which a claim with disagreeing readings is ``ambiguous`` (one open
#: choice that MLPerf's tables also split on) rather than ``unverifiable``.
ONE_CHOICE = ("scenario", "division", "reading", "unit", "ranking")
#: Readings listed in ``details`` at most (all are counted in ``n_readings``).
MAX_LISTED = 24
#: Slot names as a person reads them.
SLOT_WORDS = {
    "system": "which system",
    "scenario": "which scenario",
    "division": "which division",
    "reading": "time reduction or speedup",
    "unit": "decimal or binary bytes (GB or GiB)",
    "ranking": "what the top places are (places in each test's ranking, or tests won)",
    "benchmark": "which benchmark",
    "round": "which round",
    "compared": "which compared result",
    "baseline": "which earlier result",
}


@dataclass(frozen=True)
class Reading:
    """One reading of a claim: ``links`` the results it rests on, ``value`` the figure
    they give in the claim's unit (``compared_value`` the other side's, for a
    head-to-head), ``holds`` whether the claim agrees within tolerance, ``slots`` what
    distinguishes this reading from the others (``{"system": "dgxh100_n64",
    "scenario": "Server"}``), ``label`` the reading in words."""

    links: tuple[Link, ...]
    value: float | None
    holds: bool
    slots: dict[str, str] = field(default_factory=dict)
    label: str = ""
    compared_value: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: label, value, compared_value, holds, slots, result pks
        (``results``) and ``links`` as ``[role, pk]``."""
        return {
            "label": self.label,
            "value": self.value,
            "compared_value": self.compared_value,
            "holds": self.holds,
            "slots": dict(self.slots),
            "results": [lk.result for lk in self.links],
            "links": [[lk.role, lk.result] for lk in self.links],
        }


def open_slots(readings: Sequence[Reading]) -> list[str]:
    """The slots whose value differs between readings, in a fixed order."""
    keys = sorted({k for r in readings for k in r.slots})
    return [k for k in keys if len({r.slots.get(k, "") for r in readings}) > 1]


def deciding_slot(readings: Sequence[Reading]) -> str:
    """The one slot that alone decides whether a reading holds (every reading with the
    same value of it has the same outcome, and both outcomes occur), or "". The slots of
    :data:`ONE_CHOICE` are tried first: a division that decides is reported as the
    division, not as the system folders that differ with it."""
    slots = open_slots(readings)
    for slot in [s for s in ONE_CHOICE if s in slots] + [s for s in slots if s not in ONE_CHOICE]:
        outcome: dict[str, set[bool]] = {}
        for r in readings:
            outcome.setdefault(r.slots.get(slot, ""), set()).add(r.holds)
        if all(len(v) == 1 for v in outcome.values()):
            return slot
    return ""


def _links(readings: Sequence[Reading]) -> tuple[Link, ...]:
    """The results of the readings listed (:data:`MAX_LISTED`), each once."""
    seen: dict[tuple[int, str, str], Link] = {}
    for r in readings[:MAX_LISTED]:
        for lk in r.links:
            seen.setdefault((lk.result, lk.role, lk.suite), lk)
    return tuple(seen.values())


def settle(readings: Sequence[Reading], details: dict[str, Any] | None = None) -> Verification:
    """One verdict from every reading the text allows (module docstring).

    ``readings``: at least one (raises ValueError on none: the caller says what is
    missing). ``details``: merged into the verification's details (tolerance, ...).
    The recomputed value is the readings' figure when they all give the same one,
    else the first reading's (the list in ``details`` has them all)."""
    if not readings:
        raise ValueError("settle needs at least one reading")
    out = dict(details or {})
    out["n_readings"] = len(readings)
    out["readings_list"] = [r.as_dict() for r in readings[:MAX_LISTED]]
    first = readings[0]
    held = [r for r in readings if r.holds]
    if len(held) == len(readings):
        verdict = CONSISTENT
    elif not held:
        verdict = INCONSISTENT
    else:
        slot = deciding_slot(readings)
        words = "; ".join(
            f"{r.label or r.slots}: {'holds' if r.holds else 'does not hold'}" for r in readings[:8]
        )
        more = f" (and {len(readings) - 8} more)" if len(readings) > 8 else ""
        if slot in ONE_CHOICE:
            out["open_slot"] = slot
            out["reason"] = (
                f"holds under one reading only; the text leaves {SLOT_WORDS[slot]} open:"
                f" {words}{more}"
            )
            verdict = AMBIGUOUS
        else:
            slots = open_slots(readings)
            out["open_slots"] = slots
            names = ", ".join(SLOT_WORDS.get(s, s) for s in slots) or "the result"
            out["reason"] = (
                f"the readings the text allows disagree ({names} left open): {words}{more}"
            )
            return Verification(UNVERIFIABLE, details=out)
    return Verification(
        verdict,
        first.value,
        first.compared_value,
        links=_links(readings),
        details=out,
    )


#: Qualifiers that make a figure a bound ("less than 2%", "不到2%", "within 2%", "more
#: than 4x", "at least 3x").
BOUND_QUALIFIERS = ("less than", "more than", "at least")


def bounded(
    reading: str, figure: float, claimed: float, ratio: float, tol: float, qualifier: str
) -> list[tuple[str, float, bool]]:
    """The reading(s) of one pair (``figure`` in the claim's unit; ``claimed`` and
    recomputed ``ratio`` as ratios; tolerance ``tol``, a fraction): one named
    ``reading``, holding when :func:`benchdb.claims.facts.within`; for a bound ("less
    than 2%") that the pair passes only within the tolerance (2.3% apart: "不到2%", not
    even 2%, is exceeded; "2%" as an approximate figure holds), two that disagree: ``reading`` "as a
    bound" (does not hold) and "as an approximate figure" (holds). The text allows both, so
    the claim is ambiguous, not consistent (slot ``reading``). ``reading`` "" names the
    two "as a bound" and "as an approximate figure"."""
    holds = within(claimed, ratio, tol, qualifier)
    if qualifier not in BOUND_QUALIFIERS or not holds or within(claimed, ratio, 0.0, qualifier):
        return [(reading, figure, holds)]
    lead = f"{reading} " if reading else ""
    return [(f"{lead}as a bound", figure, False), (f"{lead}as an approximate figure", figure, True)]


def extreme(readings: Sequence[Reading]) -> list[Reading]:
    """The readings an "up to" claim is about: those with the largest figure (the
    best case of the configurations the text allows), not the ones nearest the
    claimed figure."""
    valued = [r for r in readings if r.value is not None]
    if not valued:
        return list(readings)
    top = max(r.value or 0.0 for r in valued)
    return [r for r in valued if r.value == top]


#: A count given as a bound (the parser's qualifier): which counts it allows.
_BOUNDS: dict[str, Callable[[int, int], bool]] = {
    "more than": lambda n, want: n > want,
    "just over": lambda n, want: n > want,
    "at least": lambda n, want: n >= want,
    "less than": lambda n, want: 0 < n < want,
}


def scale_verdict(c: Any, cands: Sequence[Any], count: str = "accelerators") -> Verification:
    """A count of accelerators ("on 2,496 GPUs"), or of nodes with ``count`` "nodes"
    ("on 1,344 VMs": the systems JSON's ``number_of_nodes``), of the claim's subject: ``consistent``
    when a result of ``cands`` (the subject's results the frame allows: round, system or
    submitter, benchmark when named) ran on that many, linking each such result;
    ``unverifiable`` otherwise, naming the counts stored (benchdb may hold part of a
    round, so an absent count is not called inconsistent), and when the sentence gives
    the count for every result it speaks of (context ``every-result``: "all records
    were set on 3,584 GPUs"), which one result cannot show. "Up to N" / "as many as
    N" (qualifier ``up to``) is the subject's largest count: ``unverifiable`` when a
    result the frame allows ran on more. A bound ("more than N", "at least N", "under
    N": :data:`_BOUNDS`) holds for a result that ran on a count it allows (those are
    linked); none such is ``unverifiable`` as an absent exact count is."""
    want = int(c.value or 0)
    match = [r for r in cands if getattr(r, count) == want]
    if c.qualifier in _BOUNDS:  # "more than 5,000 Blackwell GPUs", "逾5,000顆", "under 1,000"
        match = [r for r in cands if _BOUNDS[c.qualifier](getattr(r, count) or 0, want)]
    if match and "every-result" in c.context:
        return Verification(
            UNVERIFIABLE,
            details={
                "reason": f"the sentence gives {want} {count} for every result it speaks"
                " of (all records, each benchmark) and does not say which: a result on"
                f" {want} exists, but the others are not named",
                "open_slots": ["which results"],
            },
        )
    largest = max((r.accelerators or 0 for r in cands), default=0)
    if match and c.qualifier == "up to" and largest > want:  # "as many as N": the largest
        return Verification(
            UNVERIFIABLE,
            details={
                "reason": f"'up to {want}' is the subject's largest count, but a result of"
                f" the subject the frame allows ran on {largest}",
                "open_slots": ["which results"],
            },
        )
    if match:
        return Verification(
            CONSISTENT,
            float(want if c.qualifier not in _BOUNDS else getattr(match[0], count)),
            links=tuple(Link(r.pk, "subject", r.suite) for r in match[:MAX_LISTED]),
            details={"readings_list": [{"label": r.label(), "holds": True} for r in match[:8]]},
        )
    counts = sorted({getattr(r, count) for r in cands if getattr(r, count)})
    return Verification(
        UNVERIFIABLE,
        details={
            "reason": f"no stored result of the subject ran on {want} {count}"
            f" (its results ran on {', '.join(map(str, counts[:12])) or 'no stated count'})",
            "missing": {count: str(want)},
        },
    )


def node_verdict(c: Any, cands: Sequence[Any]) -> Verification:
    """A count of nodes, servers or VMs ("on 1,344 ND H100 v5 VMs", "32x PowerEdge
    XE8545 servers") of the claim's subject: ``consistent`` when a result of ``cands``
    ran on that many nodes (the systems JSON's ``number_of_nodes``), linking each such
    result; ``unverifiable`` otherwise, naming the node counts stored (benchdb may hold
    part of a round, so an absent count is not called inconsistent)."""
    want = int(c.value or 0)
    match = [r for r in cands if r.nodes == want]
    if match:
        return Verification(
            CONSISTENT,
            float(want),
            links=tuple(Link(r.pk, "subject", r.suite) for r in match[:MAX_LISTED]),
            details={"readings_list": [{"label": r.label(), "holds": True} for r in match[:8]]},
        )
    counts = sorted({r.nodes for r in cands if r.nodes})
    return Verification(
        UNVERIFIABLE,
        details={
            "reason": f"no stored result of the subject ran on {want} nodes"
            f" (its results ran on {', '.join(map(str, counts[:12])) or 'no stated count'})",
            "missing": {"nodes": str(want)},
        },
    )


def within_range(c: Any, v: Verification) -> Verification:
    """A range claim ("2-3x", "7-54%": ``c.value`` to ``c.value_high``) judged as a
    range: when its readings rest on one set of results, each reading holds when its
    figure lies between the two ends (each widened by the tolerance) and the readings
    are settled again; when they rest on several (a spread over benchmarks or systems:
    "7-54% across the tests"), each end would need its own result, so the claim is
    ``unverifiable``. Other claims and verdicts are returned unchanged."""
    listed = v.details.get("readings_list")
    if c.value_high is None or c.value is None or not listed:
        return v
    if len({tuple(r["results"]) for r in listed}) > 1 or v.details.get("n_readings", 0) > len(
        listed
    ):
        out = {k: x for k, x in v.details.items() if k not in ("open_slot", "open_slots")}
        out["reason"] = (
            f"a range ({c.value:g}-{c.value_high:g}{c.unit}) over"
            f" {v.details.get('n_readings')} readings: each end needs the result it rests on,"
            " which the text does not name"
        )
        out["open_slots"] = ["range ends"]
        return Verification(UNVERIFIABLE, details=out)
    tol = float(v.details.get("tolerance") or 0.0)
    lo, hi = c.value * (1 - tol), c.value_high * (1 + tol)
    again = [
        Reading(
            v.links,
            r["value"],
            r["value"] is not None and lo <= r["value"] <= hi,
            dict(r["slots"]),
            r["label"],
            r.get("compared_value"),
        )
        for r in listed
    ]
    keep = {k: x for k, x in v.details.items() if k not in ("reason", "open_slot", "open_slots")}
    return settle(again, keep)


def page_conflict(v: Verification, page_verdict: str) -> Verification:
    """An ``inconsistent`` verdict on a claim the page's own figures give
    (``consistent-with-page``) is withheld: the claim agrees with the figures it is
    linked to in its text, and no result the frame allows does, so the frame (subject,
    compared side, baseline) is more likely misread than the claim wrong. The verdict
    becomes ``unverifiable`` saying so; anything else is returned unchanged."""
    if v.verdict != INCONSISTENT or page_verdict != "consistent-with-page":
        return v
    out = dict(v.details)
    out["withheld"] = INCONSISTENT
    out["reason"] = (
        "the page's own figures give this claim, but none of the results its frame"
        " allows does: the subject or the compared side is likely misread, so no verdict"
    )
    return Verification(UNVERIFIABLE, details=out)


def named_elsewhere(
    c: Any, v: Verification, results: Sequence[Any], figure: Any, tol: float
) -> Verification:
    """An ``inconsistent`` verdict on a single figure (a time, a throughput) is withheld
    when a result of the same round and benchmark outside the frame's readings gives
    that figure within ``tol``: the claim most likely quotes that result and its frame
    (system, submitter, division) was misread. ``figure(r)`` is ``r``'s figure in the
    claim's unit (None when it has none). The claimed figure chooses no evidence here:
    it only keeps benchdb from calling a claim wrong; the verdict becomes
    ``unverifiable`` naming the results that give it (at most 5)."""
    if v.verdict != INCONSISTENT or c.value is None or c.kind not in ("time", "throughput"):
        return v
    linked = {lk.result for lk in v.links}
    fits = []
    for r in results:
        if r.pk in linked or r.round != c.round:
            continue
        rec = figure(r)
        if rec and rec > 0 and abs(c.value - rec) / rec <= tol:
            fits.append(r)
    if not fits:
        return v
    out = dict(v.details)
    out["withheld"] = INCONSISTENT
    out["named_elsewhere"] = [r.label() for r in fits[:5]]
    out["reason"] = (
        f"no result the frame allows gives {c.value:g} {c.unit}, but {len(fits)} other"
        f" result(s) of {c.round} do ({'; '.join(out['named_elsewhere'])}): the subject is"
        " likely misread, so no verdict"
    )
    return Verification(UNVERIFIABLE, details=out)


def subject_elsewhere(c: Any, v: Verification) -> Verification:
    """An ``inconsistent`` verdict is withheld when the claim's subject was not named in
    its own sentence but carried over from another (context ``system``: "...allowing
    the cloud VMs to train it in under 10 minutes, a 2.3x improvement" after a sentence
    naming NVIDIA's software): the results judged are those of a system the sentence
    may not mean. The same holds for a subject taken from the page's title or its one
    product (context ``system-title``, ``system-page``: a list of "headline results"
    under a title naming GB300 may hold another product's figures). The verdict becomes
    ``unverifiable`` saying so."""
    where = [w for w in ("system", "system-title", "system-page") if w in c.context]
    if v.verdict != INCONSISTENT or not where or v.details.get("independent_of_subject"):
        return v  # a verdict no reading of the subject changes (benchdb.claims.unit_products)
    source = {
        "system": "another sentence",
        "system-title": "the page's title",
        "system-page": "the rest of the page",
    }[where[0]]
    out = dict(v.details)
    out["withheld"] = INCONSISTENT
    out["reason"] = (
        f"the sentence names no system; {c.system or 'the subject'} was taken from {source}"
        " and none of its results gives the claim, so no verdict"
    )
    return Verification(UNVERIFIABLE, details=out)

"""The claim workbench's rules (issue 27): a person's pins applied to a claim's frame,
the verdict recomputed with the automatic check's own rules, and the candidates of each
open slot with the outcome each would give. Pure: no Django.

A *pin* chooses what the text leaves open. Results are named by a *result key*, the
result's natural key joined by "/" (``training/v1.1/Graphcore/ipu-pod16-TF1/resnet``,
``inference/v5.1/closed/NVIDIA/<system>/<model folder>/Server``: :func:`key_of`), so a
pin survives a result deleted and ingested again. The pins (:class:`Pins`):

* ``subject``, ``compared``, ``baseline``: result keys (one or several each); they
  become the links :func:`benchdb.claims.verdicts.verify_claim` takes as ``pinned``
  (the same rules as the automatic verdict, the search replaced; a range, "7-54%", on
  several pinned subject results is read as their pairs' spread:
  :mod:`benchdb.claims.pin_ranges`). A
  role left unpinned
  is read from the automatic readings that share a pinned result (else all of them):
  pinning the subject of a head-to-head keeps the compared side the text names;
* ``scenario``, ``division``, ``round``, ``benchmark``, ``suite``, ``normalisation``
  (``per-accelerator``, ``per-watt`` or ``system``): slots of the frame
  (:class:`ClaimFacts`), replaced before the check runs again (a pinned round counts as
  named: a count over a round needs its round named, not inferred from the date); a
  round or benchmark the text leaves empty (a round only the page's date gave, too:
  the check API dates an undated text today) is taken from the pinned subject results
  when they share one;
* ``reading``: ``time_reduction`` or ``speedup`` for a percentage, ``round-best`` for a
  count of records read as the round's best results (counted as wins of the round held
  whole: :data:`benchdb.claims.round_wins.RECORD_AS_BEST`); ``counted``: what a
  count counts (a reading's label, as the candidates list them): the other readings
  are dropped and the rest settled again (:func:`readings.settle`); ``owners``
  ("VMware=Broadcom, ..."): a count of a round's organizations counts each as its
  owner, the one reading (:func:`benchdb.claims.round_counts.owners_pinned`; other
  claims ignore it). A count with
  result pins is counted over them (the subject's results, and the field it is
  compared with: :mod:`benchdb.claims.pin_counts`); a quality target takes none
  (:func:`check_applies`).

A verdict the automatic check withholds because the frame looks misread (another result
gives the figure; the subject came from another sentence) is given once a person has
pinned the frame: the pinned readings are settled again.

:func:`slot_candidates` lists, for each slot along which the readings differ, each
value the text allows with its readings' figure, ratio and verdict (settled with
:func:`readings.settle`, the automatic rule) and the pin that chooses it.
:func:`pin_state` flags a stored pin whose result changed or was withdrawn.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from benchdb.claims import other_suites, pin_counts, pin_ranges, round_counts, round_wins
from benchdb.claims.facts import SUITES, ClaimFacts, Link, ResultFacts, Verification, suite_of
from benchdb.claims.flags import with_flags
from benchdb.claims.readings import Reading, settle
from benchdb.claims.round_counts import Holding
from benchdb.claims.round_facts import ROUND_IN_SENTENCE
from benchdb.claims.round_wins import RECORD_AS_BEST
from benchdb.claims.verdicts import verify_claim

#: Pins that name results, as :class:`benchdb.claims.facts.Link` roles.
RESULT_ROLES = ("subject", "compared", "baseline")
#: Pins that fill a slot of the frame -> the :class:`ClaimFacts` field.
FRAME_PINS = {
    "scenario": "scenario",
    "division": "division",
    "round": "round",
    "benchmark": "benchmark_key",
    "normalisation": "per_accelerator",
    "suite": "suite",
}
#: The values some pins may take.
PIN_VALUES = {
    "division": ("closed", "open"),
    "reading": ("time_reduction", "speedup", "round-best"),
    "normalisation": ("per-accelerator", "system", "per-watt"),
    "scenario": ("Offline", "Server", "SingleStream", "MultiStream", "Interactive"),
    "suite": tuple(SUITES),
}
#: Pins that choose among the readings the check listed: ``reading`` (a percentage's
#: time reduction or speedup), ``counted`` (what a count counts: a reading's label).
READING_PINS = ("reading", "counted")
#: Pins that state a fact no results folder says: ``owners`` ("VMware=Broadcom": a count
#: of organizations counts each as its owner, :data:`benchdb.claims.round_counts.OWNERS`).
FACT_PINS = ("owners",)
PIN_KEYS = (*RESULT_ROLES, *FRAME_PINS, *READING_PINS, *FACT_PINS)
#: Kinds whose figure no result gives: a quality target is settled by its round and
#: benchmark (the round's rules), never by pinned results. (A count is settled by its
#: frame and by what it counts, or over the results a person names:
#: :mod:`benchdb.claims.pin_counts`.)
NO_RESULT_KINDS = ("target",)
#: Kinds that take only the frame pins of pins given for every claim of a text.
FRAME_ONLY_FOR_EVERY = ("count", "target")
#: Most results one role may pin, and the longest key or value read.
MAX_PINNED = 24
MAX_PIN_CHARS = 400
#: Candidates listed per slot at most.
MAX_CANDIDATES = 12
#: Open slots a candidate is chosen by naming its value (the others: by its results).
SLOT_PINS = ("scenario", "division", "reading", "counted")


class PinError(ValueError):
    """Pins that cannot be applied: an unknown key or value, or a result key that names
    no stored result; the message says which."""


@dataclass(frozen=True)
class Pins:
    """Pins as read by :func:`parse_pins`: ``results`` role -> result keys, ``frame``
    slot -> value (``reading`` included)."""

    results: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    frame: Mapping[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.results or self.frame)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, as the API takes them: a role with one key as a string."""
        out: dict[str, Any] = {k: v[0] if len(v) == 1 else list(v) for k, v in self.results.items()}
        return out | dict(self.frame)

    def result_keys(self) -> list[str]:
        """Every result key pinned, each once."""
        return list(dict.fromkeys(k for keys in self.results.values() for k in keys))


def parse_pins(data: Any) -> Pins:
    """``{"subject": "<key>" | ["<key>", ...], "scenario": "Server", ...}`` ->
    :class:`Pins` (empty strings and lists are dropped). Raises :class:`PinError` on
    anything else: not an object, an unknown pin, a value not a string, too many or too
    long keys, a value outside :data:`PIN_VALUES`."""
    if data is None:
        return Pins()
    if not isinstance(data, Mapping):
        raise PinError('pins must be an object: {"subject": "<result key>", ...}')
    unknown = sorted(set(data) - set(PIN_KEYS))
    if unknown:
        raise PinError(f"unknown pins {unknown}; pins are {', '.join(PIN_KEYS)}")
    results: dict[str, tuple[str, ...]] = {}
    frame: dict[str, str] = {}
    for name, value in data.items():
        values = value if isinstance(value, list) else [value]
        if not all(isinstance(v, str) for v in values):
            raise PinError(f"pin {name!r} must be a string or a list of strings")
        values = [v.strip() for v in values if v.strip()]
        if len(values) > MAX_PINNED or any(len(v) > MAX_PIN_CHARS for v in values):
            raise PinError(f"pin {name!r}: at most {MAX_PINNED} values of {MAX_PIN_CHARS} chars")
        if not values:
            continue
        if name in RESULT_ROLES:
            results[name] = tuple(dict.fromkeys(values))
            continue
        if len(values) > 1:
            raise PinError(f"pin {name!r} takes one value")
        allowed = PIN_VALUES.get(name)
        if allowed and values[0] not in allowed:
            raise PinError(f"pin {name!r} must be one of {', '.join(allowed)}: {values[0]!r}")
        if name == "owners" and not round_counts.OWNERS_PIN.match(values[0]):
            raise PinError(f"pin 'owners' reads '<organization>=<owner>, ...': {values[0]!r}")
        frame[name] = values[0]
    return Pins(results, frame)


def key_of(suite: str, natural_key: Sequence[str]) -> str:
    """A result's key: its suite and natural key joined by "/" (``Result.natural_key``
    starts with the suite already; ``InferenceResult.natural_key`` does not)."""
    parts = list(natural_key)
    if not parts or parts[0] != suite:
        parts.insert(0, suite)
    return "/".join(parts)


def claim_key(
    source: str,
    kind: str,
    unit: str,
    value: float | None,
    compared_value: float | None,
    sentence: str,
) -> str:
    """What names a claim across ingests of its page (sha256 hex): the page's source
    (URL, else file name), the claim's kind, unit, figures and sentence (whitespace
    collapsed). Another version of the page that keeps the sentence keeps the key."""
    text = re.sub(r"\s+", " ", sentence or "").strip()
    parts = [source or "", kind or "", unit or "", repr(value), repr(compared_value), text]
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def fact_value(r: ResultFacts) -> float | None:
    """A result's figure as a pin keeps it: the score (minutes) for training, the
    value in its unit for inference."""
    return r.score_minutes if r.score_minutes is not None else r.value


def check_applies(claim: ClaimFacts, pins: Pins) -> None:
    """Raise :class:`PinError` when ``pins`` cannot settle ``claim``: results pinned on
    a kind no result gives (:data:`NO_RESULT_KINDS`: a quality target is settled by
    its round and benchmark), ``compared`` or ``baseline`` without ``subject`` on a
    count (the subject's results are what it counts), or
    ``reading: round-best`` on anything but a count (of records)."""
    if claim.kind in NO_RESULT_KINDS and pins.results:
        raise PinError(
            f"a {claim.kind} is not settled by results: pin its round, suite, benchmark or division"
        )
    if claim.kind == "count" and pins.results and not pins.results.get("subject"):
        raise PinError("a count over pinned results needs the subject's results (subject)")
    if pins.frame.get("reading") == "round-best" and claim.kind != "count":
        raise PinError("reading 'round-best' reads a count of records; this is a " + claim.kind)


def pinned_frame(
    claim: ClaimFacts, pins: Pins, suite: str = "", subject: Sequence[ResultFacts] = ()
) -> ClaimFacts:
    """``claim`` with the frame pins in place (and the suite of the pinned results,
    ``suite``, when they name one the claim was not resolved to). ``normalisation``
    ``per-watt`` makes the figure one per watt (``metric`` ``per-watt``: the throughput
    over the average power, :mod:`benchdb.claims.per_watt`); ``system`` undoes both
    normalisations. A slot the text left empty (round, benchmark; a round only the
    page's date gave) is filled from the pinned ``subject`` results when they all share
    one value: pinning a result names its round and benchmark, as a person reading the
    table does."""
    changes: dict[str, Any] = {}
    for name, value in pins.frame.items():
        if name == "normalisation":
            changes["per_accelerator"] = value == "per-accelerator"
            if value == "per-watt":
                changes["metric"] = "per-watt"
            elif claim.metric == "per-watt":
                changes["metric"] = ""
        elif name in FRAME_PINS:
            changes[FRAME_PINS[name]] = value
    if pins.frame.get("round"):
        # the round is named (by the person), not inferred from the page's date or
        # title: a count over a round needs it named (round_facts, round_counts)
        kept = [t for t in claim.context if t not in _ROUND_GUESSED]
        changes["context"] = (*kept, ROUND_IN_SENTENCE)
    if pins.frame.get("reading") == "round-best":  # records counted as the round's wins
        changes["context"] = (*changes.get("context", claim.context), RECORD_AS_BEST)
    if pins.frame.get("owners"):  # read by a count of organizations only
        owned = f"{round_counts.OWNERS}{pins.frame['owners']}"
        changes["context"] = (*changes.get("context", claim.context), owned)
    if suite and suite_of(claim.suite).name != suite:
        changes["suite"] = suite
    dated = "round-date" in claim.context  # the page's date gave the round, not the text
    for slot, of in (("round", _round_of), ("benchmark_key", _benchmark_of)):
        shared = {of(r) for r in subject}
        empty = not getattr(claim, slot) or (slot == "round" and dated)
        if empty and slot not in changes and len(shared) == 1:
            changes[slot] = shared.pop()
    return replace(claim, **changes) if changes else claim


#: Context tags saying the frame's round was inferred, not named.
_ROUND_GUESSED = ("round-date", "round-page", "round-title", ROUND_IN_SENTENCE)


def _round_of(r: ResultFacts) -> str:
    return r.round


def _benchmark_of(r: ResultFacts) -> str:
    """A result's benchmark as a frame names it: inference's model without its accuracy
    variant (``ClaimFacts.benchmark_key``), training's canonical key."""
    return r.model if r.suite == "inference" else r.benchmark


def apply_pins(
    claim: ClaimFacts,
    results: Sequence[ResultFacts],
    pins: Pins,
    resolved: Mapping[str, ResultFacts],
    auto: Verification | None = None,
    holdings: Mapping[tuple[str, str], Holding] | None = None,
) -> Verification:
    """The verdict with ``pins`` (module docstring). ``results``: every result of the
    claim's suite (as ``verify_claim`` takes them); ``resolved``: result key -> its
    facts, for every key pinned (a key missing from it is left out: a withdrawn
    result); ``auto``: the automatic verification of ``claim``, when the caller has it;
    ``holdings``: the rounds held whole (``ingest.round_trees.round_holdings``), which
    the automatic check counts over (:func:`automatic`). Never raises on data (as
    ``verify_claim``)."""
    chosen = {
        role: [resolved[k] for k in keys if k in resolved] for role, keys in pins.results.items()
    }
    suites = {r.suite for rs in chosen.values() for r in rs}
    framed = pinned_frame(
        claim, pins, next(iter(suites)) if len(suites) == 1 else "", chosen.get("subject", ())
    )
    if framed.kind == "count" and any(chosen.values()):
        # a count over the results a person names (benchdb.claims.pin_counts)
        per_w = pins.frame.get("normalisation") == "per-watt"
        return pin_counts.count_pinned(framed, chosen, per_w)
    if auto is None or framed != claim:
        auto = automatic(framed, results, holdings)
    v = auto
    ranged = framed.value_high is not None and framed.value is not None
    if ranged and len(chosen.get("subject", ())) > 1:
        # a range over several pinned pairs: their spread (benchdb.claims.pin_ranges);
        # over one pair it is an estimate the figure must lie in (verify_claim's rule)
        each = replace(framed, value_high=None, qualifier="")
        pairs = verify_claim(each, results, pinned=_links(chosen, auto))
        v = pin_ranges.settle_range(framed, pairs, bool(pins.frame.get("scenario")))
    elif any(chosen.values()):
        v = verify_claim(framed, results, pinned=_links(chosen, auto))
        v = pin_ranges.settle_over_pinned(v, {r.pk for rs in chosen.values() for r in rs})
    if pins.frame.get("reading") in ("time_reduction", "speedup"):
        v = _only_reading(framed, v, pins.frame["reading"], results)
    elif pins.frame.get("counted"):
        counted = pins.frame["counted"]
        v = _settled_again(framed, v, results, lambda rd: rd["slots"].get("counted") == counted)
    elif v.details.get("withheld") and v.details.get("readings_list"):
        v = _settled_again(framed, v, results, lambda rd: True)
    return v


def automatic(
    claim: ClaimFacts,
    results: Sequence[ResultFacts],
    holdings: Mapping[tuple[str, str], Holding] | None = None,
) -> Verification:
    """The automatic verdict of ``claim``, the one sequence every check runs
    (``ingest.claims.facts.check_claims`` calls it for stored pages, the check API and
    the re-check): a count over a round held whole (:mod:`benchdb.claims.round_counts`,
    then :mod:`benchdb.claims.round_wins`), a count of a Storage, Tiny or Mobile round's
    benchmarks (:func:`benchdb.claims.other_suites.verify_count`), else
    :func:`benchdb.claims.verdicts.verify_claim`. ``results``: the claim's suite's
    result facts (others are ignored). A pinned frame is checked by it, so a count
    pinned to its round is counted as the automatic check counts it."""
    counted = round_counts.verify(claim, holdings) or round_wins.verify(claim, holdings)
    counted = counted or other_suites.verify_count(claim, list(results))
    return counted or verify_claim(claim, results, holdings=holdings)


def _links(chosen: Mapping[str, list[ResultFacts]], auto: Verification) -> list[Link]:
    """The pinned results as links, and for each role left unpinned the automatic
    readings' results of that role: those of readings sharing a pinned result, else
    all of them."""
    links = [Link(r.pk, role, r.suite) for role, rs in chosen.items() for r in rs]
    picked = {r.pk for rs in chosen.values() for r in rs}
    suite = links[0].suite if links else "training"
    rows = auto.details.get("readings_list") or []
    for role in RESULT_ROLES:
        if chosen.get(role):
            continue
        paired = [rd for rd in rows if picked & {pk for _, pk in rd.get("links", ())}]
        pool = [pk for rd in paired or rows for ro, pk in rd.get("links", ()) if ro == role]
        links += [Link(pk, role, suite) for pk in dict.fromkeys(pool)]
    return links


def _as_reading(rd: Mapping[str, Any], suite: str) -> Reading:
    """A reading listed in ``details["readings_list"]`` as a :class:`Reading`."""
    return Reading(
        tuple(Link(pk, role, suite) for role, pk in rd.get("links", ())),
        rd.get("value"),
        bool(rd.get("holds")),
        dict(rd.get("slots") or {}),
        str(rd.get("label", "")),
        rd.get("compared_value"),
    )


_SETTLED = ("readings_list", "n_readings", "reason", "open_slot", "open_slots")


def _only_reading(
    c: ClaimFacts, v: Verification, reading: str, results: Sequence[ResultFacts]
) -> Verification:
    """``v`` settled again on the readings of one kind (``time_reduction`` or
    ``speedup``); unchanged when none is of that kind."""
    return _settled_again(c, v, results, lambda rd: rd["slots"].get("reading") == reading)


def _settled_again(
    c: ClaimFacts,
    v: Verification,
    results: Sequence[ResultFacts],
    keep: Callable[[Mapping[str, Any]], bool],
) -> Verification:
    """``v``'s listed readings that ``keep`` keeps, settled again (``settle``, then the
    flags): also how a verdict withheld by a guard that suspects a misread frame
    (``named_elsewhere``, ``subject_elsewhere``, ``page_conflict``) is given once a
    person has pinned the frame. ``v`` unchanged when no reading is kept."""
    suite = suite_of(c.suite).name
    kept = [_as_reading(rd, suite) for rd in v.details.get("readings_list") or [] if keep(rd)]
    if not kept:
        return v
    details = {k: x for k, x in v.details.items() if k not in (*_SETTLED, "withheld")}
    by_pk = {r.pk: r for r in results if r.suite == suite}
    return with_flags(c, settle(kept, details), by_pk)


def _open(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The slots whose value differs between listed readings
    (:func:`benchdb.claims.readings.open_slots` over ``readings_list``)."""
    keys = sorted({k for rd in rows for k in rd.get("slots") or {}})
    return [k for k in keys if len({(rd.get("slots") or {}).get(k, "") for rd in rows}) > 1]


def slot_candidates(v: Verification, suite: str = "training") -> list[dict[str, Any]]:
    """Each value of each open slot of ``v``'s readings: ``{"slot", "value", "readings"
    (how many), "label", "evidence" (what a count counted, as its reading lists it: ""
    for others), "figure", "compared_figure", "ratio" (compared / figure, when both),
    "holds" (each reading's), "verdict" (its readings settled: the automatic rule),
    "results" (role -> result pks), "pin" (the pins that choose it: a frame slot's
    value, or its results by role as pks, for the caller to name by key)}``, at most
    :data:`MAX_CANDIDATES` per slot. Empty when the readings agree on every slot."""
    rows = v.details.get("readings_list") or []
    out: list[dict[str, Any]] = []
    for slot in _open(rows):
        groups: dict[str, list[Mapping[str, Any]]] = {}
        for rd in rows:
            groups.setdefault(str((rd.get("slots") or {}).get(slot, "")), []).append(rd)
        for value, group in list(groups.items())[:MAX_CANDIDATES]:
            out.append(_candidate(slot, value, group, suite))
    return out


def _candidate(
    slot: str, value: str, group: Sequence[Mapping[str, Any]], suite: str
) -> dict[str, Any]:
    settled = settle([_as_reading(rd, suite) for rd in group])
    by_role: dict[str, list[int]] = {}
    for rd in group:
        for role, pk in rd.get("links", ()):
            if pk not in by_role.setdefault(role, []):
                by_role[role].append(pk)
    figure, other = group[0].get("value"), group[0].get("compared_value")
    pin: dict[str, Any] = {slot: value} if slot in SLOT_PINS else dict(by_role)
    return {
        "slot": slot,
        "value": value,
        "readings": len(group),
        "label": str(group[0].get("label", "")),
        "evidence": str(group[0].get("evidence", "")),
        "figure": figure,
        "compared_figure": other,
        "ratio": other / figure if figure and other is not None else None,
        "holds": [bool(rd.get("holds")) for rd in group],
        "verdict": settled.verdict,
        "results": by_role,
        "pin": pin,
    }


def pin_state(
    then: Mapping[str, float | None], now: Mapping[str, float | None]
) -> list[dict[str, Any]]:
    """What became of a stored pin's results: ``then`` key -> value when pinned,
    ``now`` key -> value now (a key absent: no stored result of that key is scored or
    valid now). One ``{"key", "flag": "withdrawn" | "changed", "then", "now"}`` per
    result that is gone or whose value moved by more than one part in 10^9."""
    out = []
    for key, old in then.items():
        if key not in now:
            out.append({"key": key, "flag": "withdrawn", "then": old, "now": None})
            continue
        new = now[key]
        if (old is None) != (new is None) or (
            old is not None and new is not None and abs(new - old) > 1e-9 * max(abs(old), 1.0)
        ):
            out.append({"key": key, "flag": "changed", "then": old, "now": new})
    return out

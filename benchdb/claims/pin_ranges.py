"""A range claim settled on pinned pairs (the claim workbench, issue 27): "improved
7-54% across the tests", "少则1.8倍,多则可达4.5倍" with the results of each test pinned on
both sides. Pure: no Django.

The automatic check leaves a range over several results open
(:func:`benchdb.claims.readings.within_range`: each end needs the result it rests on,
which the text does not name). Once a person pins the pairs, the range is read as
their spread, with the automatic check's own figures and tolerance:

* the pairs are the readings :func:`benchdb.claims.verdicts.verify_claim` gives the
  pinned results (one benchmark and scenario each side, MLCommons' convention), each
  with its figure (a gain in the claim's unit);
* pairs of different scenarios are separate readings of the range unless the scenario
  is pinned (the text leaves it open, as MLPerf's tables split on it);
* in each reading, the **low end** holds when the lowest pair's figure gives it and
  the **high end** when the highest pair's does, each within the tolerance a single
  gain of that figure has on that benchmark (``gain_tolerance``: the printed digits
  for inference, run-to-run variation for training; ``within`` on the ratios);
* ``consistent`` when both ends hold in every reading; ``inconsistent`` when no end
  holds in any; else ``ambiguous``: the range holds at one end only (its best case, or
  only if the pairs beyond the other end are left out: the text does not say which
  results it spans), or in one scenario only. Each reading's ends are listed.

It abstains (``unverifiable``, saying why) when a subject result is paired with more
than one result of its test on the other side (pin one per test), when some pairs
were not listed, or when every pair is a loss where the text states a gain (a deficit,
"AMD is 30-40% behind", is not read yet: its sides may be swapped).

A single figure over several pinned pairs (:func:`settle_over_pinned`: "5x" with a
pair pinned per benchmark) that holds for some of them only is ``ambiguous``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from benchdb.claims.facts import ClaimFacts, Verification, gain_tolerance, suite_of, within
from benchdb.vocabulary import AMBIGUOUS, CONSISTENT, INCONSISTENT, UNVERIFIABLE


def _ratio(c: ClaimFacts, figure: float) -> float:
    """A figure in the claim's unit as a ratio (a multiplier as is; a percentage gain
    as 1 + figure / 100)."""
    return figure if c.kind == "multiplier" else 1.0 + figure / 100.0


def _holds(c: ClaimFacts, end: float, r: Mapping[str, Any]) -> bool:
    """Does pair ``r``'s figure give the range's ``end``, within the tolerance a gain of
    that figure has on that benchmark (:func:`benchdb.claims.facts.gain_tolerance`, as
    the automatic check judges one gain)?"""
    suite = suite_of(c.suite).name
    tol = gain_tolerance(c.kind, end, str(r["slots"].get("benchmark", "")), suite)
    return within(_ratio(c, end), _ratio(c, r["value"]), tol)


def _ends(c: ClaimFacts, rows: Sequence[Mapping[str, Any]]) -> tuple[bool, bool, str]:
    """Whether the lowest and the highest pair of ``rows`` give the claim's low and high
    ends, and the reading in words."""
    low = min(rows, key=lambda r: r["value"])
    high = max(rows, key=lambda r: r["value"])
    lo_ok = _holds(c, c.value or 0.0, low)
    hi_ok = _holds(c, c.value_high or 0.0, high)
    unit = "x" if c.kind == "multiplier" else "%"

    def said(end: float, r: Mapping[str, Any], ok: bool) -> str:
        figure = f"{r['value']:.3g}{unit}"
        return f"{end:g}{unit} {'holds' if ok else 'does not hold'} ({figure}: {r['label']})"

    words = f"low end {said(c.value or 0.0, low, lo_ok)}; high end"
    words += f" {said(c.value_high or 0.0, high, hi_ok)}"
    return lo_ok, hi_ok, words


def settle_range(c: ClaimFacts, v: Verification, scenario_pinned: bool) -> Verification:
    """The verdict of range claim ``c`` (``value`` to ``value_high``) on the pairs of
    ``v`` (``verify_claim`` of the claim without its high end, on the pinned results:
    each listed reading a pair with its figure and slots), by the module's rule.
    ``scenario_pinned``: the person pinned the scenario (one reading). ``v`` unchanged
    for a claim that is no range or a verification with no listed pairs."""
    rows = [r for r in v.details.get("readings_list") or [] if r.get("value") is not None]
    if c.value is None or c.value_high is None or not rows:
        return v
    details = {k: x for k, x in v.details.items() if k not in ("open_slot", "open_slots")}
    subjects = [next((pk for ro, pk in r.get("links", ()) if ro == "subject"), None) for r in rows]
    tests = [
        (s, r["slots"].get("benchmark"), r["slots"].get("scenario"))
        for s, r in zip(subjects, rows, strict=True)
    ]
    if len(set(tests)) < len(tests) or v.details.get("n_readings", 0) > len(rows):
        details["reason"] = (
            "a range over pinned pairs needs one result per test on the other side, and"
            " every pair listed: pin one compared result per benchmark and scenario"
        )
        return Verification(UNVERIFIABLE, details=details)
    if (
        c.kind == "percentage"
        and min(c.value, c.value_high) > 0
        and all(r["value"] < 0 for r in rows)
    ):
        details["reason"] = (
            "every pinned pair is a loss where the text states a gain: the text may state a"
            " deficit ('30-40% behind'), which benchdb does not read yet, or the sides are"
            " swapped; pin the other side as the subject"
        )
        return Verification(UNVERIFIABLE, details=details)
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for r in rows:
        groups.setdefault("" if scenario_pinned else r["slots"].get("scenario", ""), []).append(r)
    outcomes, words = [], []
    for scenario, group in groups.items():
        lo_ok, hi_ok, said = _ends(c, group)
        outcomes.append((lo_ok, hi_ok))
        words.append(f"{scenario or 'the pairs'} ({len(group)} pairs): {said}")
    if all(lo and hi for lo, hi in outcomes):
        verdict = CONSISTENT
    elif not any(lo or hi for lo, hi in outcomes):
        verdict = INCONSISTENT
    else:
        verdict = AMBIGUOUS
    details["reason"] = "the range read as the pinned pairs' spread: " + "; ".join(words)
    details["range"] = "pinned pairs"
    return Verification(verdict, v.recomputed_value, links=v.links, details=details)


def settle_over_pinned(v: Verification, pinned: set[int]) -> Verification:
    """A single figure over several pinned pairs ("5x more performance" with a pair
    pinned for each benchmark): ``v`` (``verify_claim`` on the pinned results) is left
    open when its readings disagree over which pair is meant; when every listed reading
    rests on results a person pinned (``pinned``: result pks), the candidates are the
    person's, not benchdb's guess, so the figure holding for some pinned pairs and not
    for others is ``ambiguous`` (it holds under one reading the text allows: the best
    case, as if "up to" were written), naming the pairs that give it. ``v`` unchanged
    otherwise (a verdict, unlisted readings, a reading resting on an unpinned result)."""
    rows = v.details.get("readings_list") or []
    if v.verdict != UNVERIFIABLE or not rows or v.details.get("n_readings", 0) > len(rows):
        return v
    if not all(pk in pinned for r in rows for _, pk in r.get("links", ())):
        return v
    holding = [r for r in rows if r.get("holds")]
    if not holding or len(holding) == len(rows):
        return v
    details = {k: x for k, x in v.details.items() if k not in ("open_slot", "open_slots")}
    details["reason"] = (
        f"holds for {len(holding)} of the {len(rows)} pairs of the pinned results only"
        f" ({'; '.join(str(r['label']) for r in holding[:4])}): the text does not say which"
        " of them it means"
    )
    return Verification(AMBIGUOUS, v.recomputed_value, links=v.links, details=details)

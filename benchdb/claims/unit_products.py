"""A count of units times the accelerators in each, against the whole the same clause
gives: "2,496 NVIDIA Blackwell GPUs across 39 racks, each containing 64 active GPUs".
Pure: no Django. The units-first form reads the same: "34 72-GPU NVLink domains
combined into a 2,496-GPU cluster" (NVIDIA's training/10), "18 4-GPU nodes joined into
one 72-GPU system".

The claim is the product: N units of M accelerators are N x M accelerators. The clause
names the whole (T accelerators), and that whole, not the claimed factors, chooses the
results: the round's results on exactly T accelerators, of the accelerator family the
clause names with T (else the claim's system when its own sentence names it, else the
submitter's, else any). Every such result ran on T accelerators, so every reading
gives the same verdict whichever system the subject is, and a subject carried over
from another sentence does not withhold it (``details["independent_of_subject"]``):
``consistent`` when N x M = T, ``inconsistent`` otherwise (the systems JSON's count,
``number_of_nodes x accelerators_per_node``, is the MLPerf figure the product is held
against); ``unverifiable`` when no stored result of the frame ran on T (benchdb may
hold part of a round). A unit's size alone ("72-GPU domains") or a count of units
alone ("39 racks") still names no result (``verdicts._verify_scale``).

:func:`scope_tags` reads the phrase at ingest (context tags :data:`TAG`, ``units:N``,
``per-unit:M``, ``total:T``, ``family:F``); :func:`verify` judges.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from benchdb.claims.facts import ClaimFacts, Link, ResultFacts, Verification, system_matches
from benchdb.claims.subjects import family_of, find_mentions
from benchdb.vocabulary import CONSISTENT, EN_NUMBER_WORDS, INCONSISTENT, UNVERIFIABLE

#: Context tags: the claim is a units-times-size product; its factors, whole and family.
TAG, UNITS, PER_UNIT, TOTAL, FAMILY = "units-product", "units:", "per-unit:", "total:", "family:"

#: The number words a units-times-size frame reads: every count word but "one" and the
#: dozens (a unit of one is no product).
_WORDS = {w: n for w, n in EN_NUMBER_WORDS.items() if n > 1 and "dozen" not in w}
_NUM = r"\d{1,3}(?:,\d{3})+(?![\d.])|\d+(?![\d.,]\d)"
_NUMW = rf"(?:{_NUM}|(?i:{'|'.join(sorted(_WORDS, key=len, reverse=True))}))"
_ACC = r"(?i:GPUs?|accelerators?|chips?|TPUs?|IPUs?|HPUs?|devices?)"
_UNIT = (
    r"(?i:racks?|nodes?|servers?|systems?|domains?|instances?|VMs?|virtual\s+machines?"
    r"|computers?|machines?|pods?|trays?|hosts?|boxes)"
)
_WORD = r"[A-Za-z][\w.+®™-]*"

#: "2,496 NVIDIA Blackwell GPUs across 39 racks, each containing 64 active GPUs";
#: "4,088 H100 GPUs spread across 511 computers, with eight GPUs to a computer".
_WHOLE_FIRST = re.compile(
    rf"(?P<total>{_NUM})\s+(?P<what>(?:{_WORD}\s+){{0,4}}?){_ACC}\s+"
    rf"(?:(?:spread|distributed|split)\s+)?(?:across|over|in|on|spanning)\s+"
    rf"(?P<units>{_NUMW})\s+(?:{_WORD}\s+){{0,3}}?{_UNIT},?\s+"
    rf"(?:each\s+(?:containing|with|holding|housing|packing|having|of)\s+(?P<per>{_NUMW})"
    rf"|with\s+(?P<per2>{_NUMW})(?=\s+(?:{_WORD}\s+){{0,2}}?{_ACC}\s+(?:each|apiece"
    rf"|(?:to|per|in)\s+(?:an?|each|every)\s+{_WORD})))"
    rf"\s+(?:{_WORD}\s+){{0,2}}?{_ACC}"
)

#: "34 72-GPU NVLink domains combined into a 2,496-GPU cluster": N M-accelerator units
#: (in)to a T-accelerator whole.
_UNITS_FIRST = re.compile(
    rf"(?<![\d,.])(?P<units>{_NUMW})\s+(?P<per>{_NUM})[- ]{_ACC}\s+(?:{_WORD}\s+){{0,3}}?"
    rf"{_UNIT},?\s+(?:(?:combined|joined|linked|connected|aggregated|interconnected|grouped"
    rf"|clustered|networked|scaled|built|assembled)\s+)?(?:into|to\s+form|forming|making\s+up)"
    rf"\s+(?:an?\s+|one\s+|the\s+|a\s+single\s+)?(?P<total>{_NUM})[- ]"
    rf"(?P<what>(?:{_WORD}\s+){{0,2}}?){_ACC}"
)


def _number(text: str) -> int:
    w = text.strip().lower()
    return _WORDS[w] if w in _WORDS else int(w.replace(",", ""))


def unit_product(sentence: str) -> list[tuple[int, int, int, str, tuple[int, int]]]:
    """Each units-times-size phrase of ``sentence``: (units N, accelerators per unit M,
    whole T, the words naming the accelerators of the whole, the phrase's span in
    ``sentence``), in text order."""
    found = [
        (
            _number(m.group("units")),
            _number(m.group("per") or m.group("per2")),
            _number(m.group("total")),
            m.group("what").strip(),
            m.span(),
        )
        for rx in (_WHOLE_FIRST, _UNITS_FIRST)
        for m in rx.finditer(sentence)
    ]
    return sorted(found, key=lambda p: p[4])


def scope_tags(c: ClaimFacts, sentence: str, start: int, end: int) -> tuple[str, ...]:
    """The context tags of a ``scale`` claim whose figure (``sentence[start:end]``) is
    the count of units or the size of one unit of a units-times-size phrase that
    states its whole (:func:`unit_product`); () for any other claim (the whole itself
    is an ordinary count of accelerators)."""
    if c.kind != "scale" or c.value is None or not 0 <= start <= end <= len(sentence):
        return ()
    for units, per, total, what, (a, b) in unit_product(sentence):
        if a <= start < b and int(c.value) in (units, per) and int(c.value) != total:
            fam = next((m.family for m in find_mentions(what)), "")
            return (
                TAG,
                f"{UNITS}{units}",
                f"{PER_UNIT}{per}",
                f"{TOTAL}{total}",
                *((f"{FAMILY}{fam}",) if fam else ()),
            )
    return ()


def _tag(c: ClaimFacts, prefix: str) -> str:
    return next((t[len(prefix) :] for t in c.context if t.startswith(prefix)), "")


def verify(c: ClaimFacts, results: Sequence[ResultFacts]) -> Verification:
    """N units x M accelerators against the results of ``c.round`` that ran on the
    whole T the clause states (module docstring); ``results`` are every stored result
    of the suite."""
    units, per, total = (int(_tag(c, k) or 0) for k in (UNITS, PER_UNIT, TOTAL))
    carried = any(w in c.context for w in ("system", "system-title", "system-page"))
    own = c.system if family_of(c.system) and not carried else ""
    family = _tag(c, FAMILY) or own
    if not (units and per and total and c.round):
        return Verification(
            UNVERIFIABLE, details={"reason": "a count of units and their size, with no whole"}
        )
    cands = [r for r in results if r.round == c.round and r.accelerators == total]
    if family:
        cands = [r for r in cands if system_matches(family, r, None)]
    elif c.submitter:
        cands = [r for r in cands if c.submitter.lower() in r.submitter.lower()]
    formula = f"{units} x {per} = {units * per} accelerators; the whole the text gives: {total}"
    if not cands:
        who = family or c.submitter or "the subject (not named)"
        return Verification(
            UNVERIFIABLE,
            details={
                "reason": f"no stored {c.round} result of {who} ran on {total} accelerators",
                "formula": formula,
                "missing": {"accelerators": str(total)},
            },
        )
    holds = units * per == total
    return Verification(
        CONSISTENT if holds else INCONSISTENT,
        float(units * per),
        links=tuple(Link(r.pk, "subject", r.suite) for r in cands[:8]),
        details={
            "formula": formula,
            "independent_of_subject": True,
            "n_readings": len(cands),
            "readings_list": [
                {"label": f"{r.label()}: {r.accelerators} accelerators", "holds": holds}
                for r in cands[:8]
            ],
        },
    )

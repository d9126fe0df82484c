"""Virtualized results against their bare-metal equivalents: "VMware, Dell, and NVIDIA
achieved from 94% to 105% of the equivalent bare metal performance" (MLPerf
Inference). Pure: no Django.

The frame pins the pairs or the claim is not checked (:func:`pairs`): the virtualized
systems of the round (a system name saying VMware vSphere / ESXi / virtualized, as the
systems JSON of Dell's v0.7, v3.0 and v5.1 submissions do) of the companies the
sentence names, each with the one system of the same submitter that is not virtualized
and has the same server (the system name before its first comma or parenthesis: "Dell
PowerEdge XE8545"), the same accelerator family and the same accelerator count. A
virtualized system with no such equivalent, or with several, leaves the claim
unverifiable. Each pair is read on every benchmark and scenario both ran (throughputs:
virtualized / bare metal; latencies: bare metal / virtualized); a range "from A% to
B%" holds when the smallest ratio is A% and the largest B%, each within the printed
figure's rounding (``facts.tolerance``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from benchdb.claims.facts import ClaimFacts, Link, ResultFacts, Verification, tolerance, within
from benchdb.claims.inference_frames import companies_in
from benchdb.claims.readings import scale_verdict
from benchdb.claims.subjects import find_mentions
from benchdb.vocabulary import CONSISTENT, INCONSISTENT, UNVERIFIABLE

#: A share of bare-metal performance ("of the equivalent bare metal performance").
BARE_METAL = re.compile(r"bare[- ]metal", re.I)
_VIRTUAL = re.compile(r"vSphere|VMware|ESXi|virtuali[sz]ed", re.I)


#: Context tags: the claim is a share of bare metal; a company its sentence names.
TAG, COMPANY = "bare-metal-share", "company:"


def scope_tags(c: ClaimFacts, sentence: str) -> tuple[str, ...]:
    """Context tags of a percentage of bare-metal performance (an inference claim whose
    ``sentence`` says "bare metal"): :data:`TAG` and ``company:<name>`` for each company
    it names (``inference_frames.companies_in``); () for any other claim."""
    if c.kind != "percentage" or c.suite != "inference" or not BARE_METAL.search(sentence):
        return ()
    named = dict.fromkeys(who for _, _, who in companies_in(sentence))
    return (TAG, *(COMPANY + who for who in named))


#: A scale of a virtualized server ("Dell PowerEdge XE8545 server with 4x virtualized
#: NVIDIA SXM A100-80GB GPU cards"), and the model tokens its sentence names.
SCALE_TAG, SERVER = "virtualized-scale", "server:"
_MODEL = re.compile(r"(?<![A-Za-z0-9])[A-Z]{1,3}\d{3,5}[A-Za-z]{0,3}(?![A-Za-z0-9])")


def scale_tags(c: ClaimFacts, sentence: str) -> tuple[str, ...]:
    """Context tags of a count of accelerators in a virtualized server (an inference
    ``scale`` claim whose ``sentence`` says virtualized / vSphere): :data:`SCALE_TAG`
    and ``server:<token>`` for each model number it names ("XE8545", "R750xa");
    () for any other claim."""
    if c.kind != "scale" or c.suite != "inference" or not _VIRTUAL.search(sentence):
        return ()
    return (SCALE_TAG, *dict.fromkeys(SERVER + t.lower() for t in _MODEL.findall(sentence)))


def verify_scale(c: ClaimFacts, results: Sequence[ResultFacts]) -> Verification:
    """A count of accelerators of the virtualized server the sentence names: the
    results of the round's virtualized systems whose server ("Dell PowerEdge XE8545")
    holds one of the model numbers the sentence names (:func:`scale_tags`), read by
    ``readings.scale_verdict``; unverifiable when no such system is stored."""
    tokens = [t[len(SERVER) :] for t in c.context if t.startswith(SERVER)]
    cands = [
        r
        for r in results
        if r.round == c.round
        and _VIRTUAL.search(r.system_name)
        and any(t in re.sub(r"[^a-z0-9]", "", _server(r)) for t in tokens)
    ]
    if not cands:
        named = ", ".join(tokens) or "no model number"
        why = f"no virtualized system of {c.round or 'an unnamed round'} with {named}"
        return Verification(UNVERIFIABLE, details={"reason": why})
    return scale_verdict(c, cands)


def is_bare_metal_share(c: ClaimFacts) -> bool:
    """Whether ``c`` is tagged a share of bare-metal performance (:func:`scope_tags`)."""
    return TAG in c.context


def _server(r: ResultFacts) -> str:
    return re.split(r"[,(]", r.system_name, maxsplit=1)[0].strip().lower()


def _family(r: ResultFacts) -> str:
    found = find_mentions(r.accelerator_model)
    return found[0].family if found else ""


def pairs(
    c: ClaimFacts, results: Sequence[ResultFacts]
) -> list[tuple[ResultFacts, ResultFacts]] | str:
    """(virtualized, bare-metal) result pairs the frame pins (module docstring), same
    benchmark and scenario; or why none are pinned."""
    named = {t[len(COMPANY) :] for t in c.context if t.startswith(COMPANY)}
    mine = [r for r in results if r.round == c.round and any(_of(who, r) for who in named)]
    virtual = {r.system_folder for r in mine if _VIRTUAL.search(r.system_name)}
    if not virtual:
        return (
            f"no virtualized system of {', '.join(sorted(named)) or 'a named company'} in {c.round}"
        )
    out = []
    for folder in sorted(virtual):
        v = next(r for r in mine if r.system_folder == folder)
        bare = {
            r.system_folder
            for r in mine
            if not _VIRTUAL.search(r.system_name)
            and r.submitter == v.submitter
            and _server(r) == _server(v)
            and _family(r)
            and _family(r) == _family(v)
            and r.accelerators == v.accelerators
        }
        if len(bare) != 1:
            return f"{folder} has {len(bare)} bare-metal equivalents in {c.round}, not one"
        (twin,) = bare
        for a in (r for r in mine if r.system_folder == folder):
            out += [
                (a, b)
                for b in mine
                if b.system_folder == twin
                and (b.benchmark, b.scenario) == (a.benchmark, a.scenario)
            ]
    return out or "no benchmark both the virtualized and the bare-metal systems ran"


def _of(who: str, r: ResultFacts) -> bool:
    key = re.sub(r"[^a-z0-9]", "", who.lower())
    return bool(key) and re.sub(r"[^a-z0-9]", "", r.submitter.lower()).startswith(key)


def _share(a: ResultFacts, b: ResultFacts) -> float:
    """``a``'s performance as a percentage of ``b``'s (latencies inverted)."""
    va, vb = a.value or 0.0, b.value or 0.0
    if va <= 0 or vb <= 0:
        return 0.0
    return 100.0 * (va / vb if a.higher_is_better else vb / va)


def verify(c: ClaimFacts, results: Sequence[ResultFacts]) -> Verification:
    """Check a range of shares of bare-metal performance (module docstring); a single
    figure ("95% of bare metal") is not checked (which pair it is of is not said)."""
    if c.value is None or c.value_high is None:
        return Verification(
            UNVERIFIABLE, details={"reason": "a share of bare metal with no range: which pair"}
        )
    found = pairs(c, results)
    if isinstance(found, str):
        return Verification(UNVERIFIABLE, details={"reason": found})
    shares = sorted(((_share(a, b), a, b) for a, b in found), key=lambda x: x[0])
    low, high = shares[0], shares[-1]
    ok_low = within(c.value, low[0], tolerance("", "inference", c.value))
    ok_high = within(c.value_high, high[0], tolerance("", "inference", c.value_high))
    links = tuple(
        dict.fromkeys(
            Link(r.pk, role, "inference")
            for _, a, b in (low, high)
            for r, role in ((a, "subject"), (b, "compared"))
        )
    )
    words = [
        f"{s:.1f}%: {a.benchmark} {a.scenario} {a.system_folder} / {b.system_folder}"
        for s, a, b in shares
    ]
    return Verification(
        CONSISTENT if ok_low and ok_high else INCONSISTENT,
        low[0],
        high[0],
        links=links,
        details={
            "shares": words,
            "range": f"{low[0]:.1f}% to {high[0]:.1f}% over {len(shares)} pairs",
            "compared": "virtualized / bare-metal equivalent (same server, accelerators)",
        },
    )

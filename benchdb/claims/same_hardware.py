"""Another submitter's time "on the same hardware" as the page's own results: "Our open
result of 23.8 minutes is 17% faster than NVIDIA's submission of 28.7 minutes in the
closed division on the same hardware" (MosaicML, Training v2.0). Pure: no Django.

The time is the other submitter's, and the sentence pins its configuration by the
page vendor's ("our") results, not by a count it states: the hardware is the
accelerator model and count those results ran on. From the text, :func:`tags` marks
the claim (the vendor, and the division the "our" side names, as a context tag); with
the stored results, :func:`narrow` keeps the other submitter's results on that
hardware, and only when every result of the vendor the frame allows (round,
benchmark, division) shares one accelerator model and count: where they differ the
text does not say which is meant and nothing is narrowed (the readings are left to
disagree). The claimed figure plays no part in it.
"""

from __future__ import annotations

from collections.abc import Sequence

from benchdb.claims import resolve_words as words
from benchdb.claims.facts import ClaimFacts, ResultFacts, candidates

#: The context tag: ``hardware-of:<vendor>|<division or "">``.
TAG = "hardware-of:"


def tags(c: ClaimFacts, subject_side: str, compared_side: str, vendor: str) -> list[str]:
    """``[TAG + "MosaicML|open"]`` for a time (``c``, no count of its own) whose side
    of the sentence (``subject_side``) says "on the same hardware" while the other side
    (``compared_side``) speaks as the page's ``vendor`` ("Our open result ..."); [] for
    any other claim or sentence."""
    if c.kind != "time" or not vendor or c.accelerators is not None:
        return []
    if not (words.same_hardware(subject_side) and words.first_person(compared_side)):
        return []
    return [f"{TAG}{vendor}|{words.division_words(compared_side)}"]


def narrow(
    c: ClaimFacts, cands: Sequence[ResultFacts], results: Sequence[ResultFacts], bench: str
) -> tuple[list[ResultFacts], str]:
    """(``cands`` on the hardware of the vendor ``c``'s :data:`TAG` names, why) when
    every result of that vendor in ``c.round`` and ``bench`` (and the tag's division)
    ran on one accelerator model and count; (``cands`` unchanged, "") when ``c`` has no
    tag, the vendor has no such result or its results differ in hardware. The kept
    list may be empty (the other submitter ran nothing on that hardware)."""
    tag = next((t for t in c.context if t.startswith(TAG)), "")
    if not tag:
        return list(cands), ""
    vendor, _, division = tag[len(TAG) :].partition("|")
    own = candidates(results, round=c.round, benchmark=bench, submitter=vendor, division=division)
    configs = {(_model(r), r.accelerators) for r in own}
    if len(configs) != 1:
        return list(cands), ""
    ((model, count),) = configs
    if not model or count is None:
        return list(cands), ""
    kept = [r for r in cands if _model(r) == model and r.accelerators == count]
    name = next(r.accelerator_model for r in own)
    return kept, f"on the same hardware as {vendor}'s results: {count} x {name}"


def _model(r: ResultFacts) -> str:
    return " ".join(r.accelerator_model.lower().split())

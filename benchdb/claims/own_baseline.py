"""A gain over the submitter's own baseline submission: "achieves a 4.5x speed-up (23.8
minutes) compared to our baseline (110.5 minutes)", "a 2.7x speed-up on training the
NLP benchmark compared to a Hugging Face baseline". Pure: no Django.

Some submitters enter a benchmark twice in a round, a baseline and an optimized
configuration, and name the systems so (MosaicML's open ``8xA100_80GB-baseline`` and
``8xA100_80GB-methods``, Training v2.0 and v2.1). When the compared side of a sentence
is "our/a/the ... baseline" and names no product or other company, the frame is:

* compared side: the subject submitter's results of the round and benchmark whose
  system folder or name has the word ``baseline``;
* subject side: the submitter's other results of the round and benchmark (its
  division when the text names one).

A system or count the text gives either side narrows that side's results.

These are the readings; each pair is read (``verdicts_gains`` settles them: the
verdict must hold for every one). The claimed figure chooses nothing. Unverifiable,
naming the missing slot, when the submitter has no result named baseline (or no other
result) in the round on that benchmark.

A time in such a sentence stands on the side its place gives it: right after the
phrase ("compared to our baseline (110.5 minutes)", "our baseline of 110.5 minutes") it
is the baseline's (:data:`BASE_TIME`: the results named baseline); before the phrase
("a 4.5x speed-up (23.8 minutes) compared to our baseline", "a score of 23.8 minutes
(4.5x speed-up relative to our baseline)") it is the subject's (:data:`SUBJECT_TIME`:
the submitter's other results). A time anywhere else in the sentence gets no tag.

:func:`scope_tags` reads the sentence at ingest (:data:`GAIN`); :func:`choose` gives
the verification its candidates.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from benchdb.claims.facts import (
    ClaimFacts,
    ResultFacts,
    Verification,
    submitter_matches,
    system_matches,
)
from benchdb.claims.subjects import find_mentions
from benchdb.vocabulary import UNVERIFIABLE

#: Context tag: a gain over the own baseline.
GAIN = "own-baseline"
#: Context tags: a time of the own baseline's side, and of the subject's (both start
#: with :data:`GAIN`, so that the verification asks :func:`choose`).
BASE_TIME = GAIN + ":baseline-time"
SUBJECT_TIME = GAIN + ":subject-time"
#: What may stand between the baseline phrase and the baseline's own time.
_BASE_TIME_GAP = re.compile(r"\s*(?:\(\s*|,\s*|of\s+|at\s+)?(?:(?:about|around|~)\s*)?$", re.I)

_BASELINE = re.compile(
    r"(?<![A-Za-z])(?:compared\s+(?:to|with)|relative\s+to|over|against|than|vs\.?|versus)\s+"
    r"(?P<side>(?:(?:our|its|their|the|a|an)\s+)?(?:own\s+)?(?:[\w.-]+\s+){0,3}?)"
    r"baseline(?![A-Za-z])",
    re.I,
)
_OWNER = re.compile(r"[A-Za-z0-9][’']s(?![A-Za-z])")
#: Words that name another compared side (an earlier round, another system): then the
#: optimizations are not what the gain is over.
_ANOTHER_SIDE = re.compile(
    r"(?<![A-Za-z])(?:than|compared|versus|vs\.?|over|relative|since|previous|prior|last"
    r"|earlier|generation)(?![A-Za-z])|相比|相较|對比|对比|上一代|上一轮|上一輪",
    re.I,
)
#: A gain its sentence credits to "our" optimizations, right after the figure (a
#: footnote mark or "faster" between): "accelerated the training of a Hugging Face BERT model by
#: 2.7x1 with our software and algorithmic optimizations". Its compared side is the
#: run without them: the submitter's own baseline, as with "compared to our baseline",
#: unless the sentence names another compared side (:data:`_ANOTHER_SIDE`).
_WITH_OURS = re.compile(
    r"^\s*\d?\s*(?:(?:faster|quicker|speed-?up)\s+)?"
    r"(?:with|using|through|thanks\s+to|from)\s+our\s+(?:own\s+)?"
    r"(?:[\w-]+\s+){0,4}?(?:optimi[sz]ations?|methods|speed-?ups|techniques)(?![A-Za-z])",
    re.I,
)


def _baseline_phrase(sentence: str) -> re.Match[str] | None:
    """The one "compared to our baseline" of ``sentence`` whose side names no product
    ("the A100 baseline") and no owner ("NVIDIA's baseline"), else None."""
    found = [
        m
        for m in _BASELINE.finditer(sentence)
        if not find_mentions(m.group("side")) and not _OWNER.search(m.group("side"))
    ]
    return found[0] if len(found) == 1 else None


def scope_tags(c: ClaimFacts, sentence: str, start: int, end: int) -> tuple[str, ...]:
    """``(GAIN,)`` for a percentage or multiplier (figure ``sentence[start:end]``) whose
    sentence compares with the submitter's own baseline (module docstring) or credits
    it to "our" optimizations right after the figure (:data:`_WITH_OURS`), a time's
    side (:data:`BASE_TIME`, :data:`SUBJECT_TIME`); () otherwise. A product the
    sentence gives the compared side ("compared to our baseline, on 8x A100") narrows
    the baseline's results (:func:`choose`)."""
    m = _baseline_phrase(sentence)
    if not 0 <= start <= end <= len(sentence):
        return ()
    if m is None:
        ours = c.kind in ("multiplier", "percentage") and _WITH_OURS.match(sentence[end:])
        other = c.compared_system or _ANOTHER_SIDE.search(sentence)
        return (GAIN,) if ours and not other else ()
    if c.kind == "time":
        if start >= m.end() and _BASE_TIME_GAP.match(sentence[m.end() : start]):
            return (BASE_TIME,)
        return (SUBJECT_TIME,) if end <= m.start() else ()
    return (GAIN,) if c.kind in ("multiplier", "percentage") else ()


def is_baseline(r: ResultFacts) -> bool:
    """Whether a result's system folder or name has the word ``baseline``."""
    words = re.split(r"[^a-z0-9]+", f"{r.system_folder} {r.system_name}".lower())
    return "baseline" in words


def choose(
    c: ClaimFacts, bench: str, results: Sequence[ResultFacts]
) -> dict[str, list[ResultFacts]] | Verification:
    """The candidates of a tagged claim by role (``subject``, ``compared``,
    ``baseline``), as ``verdicts`` reads chosen results, or an ``unverifiable``
    verification naming the missing side."""
    own = [
        r
        for r in results
        if r.round == c.round
        and r.benchmark == bench
        and r.score_minutes is not None
        and c.submitter
        and submitter_matches(c.submitter, r)
    ]
    base = [
        r
        for r in own
        if is_baseline(r)
        and (not c.compared_system or system_matches(c.compared_system, r, c.compared_accelerators))
    ]
    rest = [
        r
        for r in own
        if not is_baseline(r)
        and (not c.division or r.division == c.division)
        and (not c.system or system_matches(c.system, r, c.accelerators))
    ]
    who = f"{c.submitter or 'the submitter'}'s {bench or 'benchmark'} results in {c.round}"
    if BASE_TIME in c.context and base:  # the baseline's own time
        return {"subject": base, "compared": [], "baseline": []}
    if not base or not rest:
        side = "a result named baseline" if not base else "a result besides its baseline"
        return Verification(
            UNVERIFIABLE,
            details={"reason": f"{who} hold no {side}", "missing": {"compared": "own baseline"}},
        )
    return {"subject": rest, "compared": base, "baseline": []}

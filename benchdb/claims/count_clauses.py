"""The benchmark of an accelerator count read at the count's own place in its sentence
(a part of the frame, after :mod:`benchdb.claims.resolve`). Pure: no Django.

A sentence may give the same count for several benchmarks ("Whisper (up to ~45k
samples/s on 8x B200), Stable Diffusion XL (~33 queries/s on 8x B200)": ainews247.com,
Inference v5.1). The frame's benchmark is read from the clause of the first figure
equal to the claimed value (:func:`benchdb.claims.subjects.clause_of`), so every "8x"
was read as Whisper's and the second one linked Whisper's results. Here each count
binds to the benchmark named in its own clause, else in the head of the parenthesis
it stands in ("Whisper (... on 8x B200)"); when neither names exactly one, and the
count was read at another place of the sentence, its benchmark is open
(:data:`OPEN_TAG`) and the count is checked against no benchmark's results.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from benchdb.claims.facts import ClaimFacts
from benchdb.claims.printed import figure_at
from benchdb.claims.resolve_suite import models_named
from benchdb.claims.subjects import benchmarks_named, clause_at

#: Context tag of a count whose benchmark its own clause named.
CLAUSE_TAG = "benchmark-count-clause"
#: Context tag of a count whose own words name no one benchmark of several.
OPEN_TAG = "benchmark-count-open"


def count_frame(c: ClaimFacts, text: str, start: int, end: int, s0: int, s1: int) -> ClaimFacts:
    """``c`` with the benchmark its count's own words name (module docstring): a
    ``scale`` claim of training or inference whose sentence (``text[s0:s1]``, the
    page's text; the count at ``start``-``end``) names several benchmarks. Other
    claims, and counts whose offsets are unknown (-1), are returned unchanged."""
    suite = c.suite or "training"
    if c.kind != "scale" or suite not in ("training", "inference") or "suite-hpc" in c.context:
        return c
    if not 0 <= s0 <= start < end <= s1 <= len(text):
        return c
    sentence, at = text[s0:s1], start - s0
    names = models_named if suite == "inference" else benchmarks_named
    if len(names(sentence)) < 2:
        return c
    key = _own(sentence, at, names)
    first = figure_at(sentence, c.value)
    if key is None and first is not None and first.start() == at:
        return c  # the frame already read this count's own clause
    if key == c.benchmark_key:
        return c
    tag = CLAUSE_TAG if key else OPEN_TAG
    return replace(c, benchmark_key=key or "", context=(*c.context, tag))


def _own(sentence: str, at: int, names: Callable[[str], list[str]]) -> str | None:
    """The one benchmark named in the clause at ``at``, else in the head of the
    parenthesis ``at`` stands in (its clause up to the "("); None when neither names
    exactly one."""
    keys = names(clause_at(sentence, at))
    if not keys:
        opened = sentence.rfind("(", 0, at)
        if opened > 0 and ")" not in sentence[opened:at]:
            keys = names(clause_at(sentence[:opened], opened - 1))
    return keys[0] if len(keys) == 1 else None

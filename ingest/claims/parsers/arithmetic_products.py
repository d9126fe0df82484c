"""Page-level arithmetic of an aggregate hardware figure: a total the sentence gives as a
count of units times its per-unit figure. Pure: no Django. Part of
:mod:`.arithmetic`.

The class was shown by FuriosaAI's RNGD page (../shared/vendor-dev/inference/16: "Each
RNGD chip offers 512 TFLOPS (FP8) at an efficient 180W TDP, with an 8-chip server
configuration achieving 4 petaFLOPS (FP8)": 8 x 512 TFLOPS = 4.096 PFLOPS, printed 4).
The operands are only those the sentence links to the total, in this order: a per-unit
figure ("each", "per", "every" shortly before it), then one count of units ("8-chip",
"8 GPUs"), then the total, in the same dimension (compute in FLOPS, or in OPS) and with
the same bracketed precision right after both figures ("(FP8)") or none after either.

Only ``consistent-with-page`` is given (the figures multiply to the total, to its
printed digits): a total that does not multiply out may be another quantity (measured
against peak, another precision left unsaid), which the words do not rule out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .types import Claim

#: Units of an aggregate figure -> (dimension, factor to the dimension's base unit).
UNITS: dict[str, tuple[str, float]] = {
    "TFLOPS": ("flops", 1e12),
    "PFLOPS": ("flops", 1e15),
    "EFLOPS": ("flops", 1e18),
    "TOPS": ("ops", 1e12),
    "POPS": ("ops", 1e15),
}
#: Units a count of units is read in (``quantities._scale_unit``).
COUNT_UNITS = frozenset({"GPU", "IPU", "TPU", "HPU", "chip", "accelerator", "card"})
#: Words that make a figure a per-unit one, shortly before it ("Each RNGD chip offers";
#: a footnote mark may stick to the word: "2Each").
_EACH = re.compile(r"(?i:(?<![a-z])(?:each|per|every)\b)|每")
#: A bracketed precision right after a figure's unit: "(FP8)", "(INT8, sparse)".
_TAG = re.compile(r"^\s*\(([^()]{1,24})\)")


def product_figures(c: Claim, claims: Sequence[Claim]) -> tuple[int, int, float] | None:
    """(index of the per-unit figure, index of the count, total implied in ``c``'s unit)
    when ``c`` (a hardware figure) is the total of a count of units times a per-unit
    figure of its own sentence (module docstring); None otherwise."""
    dim = UNITS.get(c.unit)
    if c.kind != "spec" or dim is None or c.value is None or c.value <= 0:
        return None
    same = [
        (i, o)
        for i, o in enumerate(claims)
        if o.sentence_start == c.sentence_start and o.end <= c.start and o is not c
    ]
    per = [
        (i, o)
        for i, o in same
        if o.kind == "spec" and UNITS.get(o.unit, ("", 0.0))[0] == dim[0] and o.value
    ]
    if len(per) != 1 or not _per_unit(per[0][1]):
        return None
    pi, p = per[0]
    counts = [
        (i, o)
        for i, o in same
        if o.kind == "scale" and o.unit in COUNT_UNITS and o.start >= p.end and o.value
    ]
    if len(counts) != 1 or (counts[0][1].value or 0) < 2 or _tag(p) != _tag(c):
        return None
    ni, n = counts[0]
    implied = (n.value or 0.0) * (p.value or 0.0) * UNITS[p.unit][1] / dim[1]
    return pi, ni, implied


def _per_unit(p: Claim) -> bool:
    """Whether "each", "per" or "every" stands in the 40 characters before ``p``."""
    at = p.start - p.sentence_start
    return _EACH.search(p.sentence[max(0, at - 40) : at]) is not None


def _tag(c: Claim) -> str:
    """The bracketed precision right after ``c`` ("fp8"), or ""."""
    m = _TAG.match(c.sentence[c.end - c.sentence_start :])
    return re.sub(r"\s+", " ", m.group(1)).strip().lower() if m else ""


__all__ = ["COUNT_UNITS", "UNITS", "product_figures"]

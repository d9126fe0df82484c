"""Page-level arithmetic: every multiplier or percentage recomputed from two figures
the page itself gives, in its sentence or elsewhere on the page. Pure: no Django.

``page_arithmetic(claims)`` -> one :class:`PageArithmetic` or None per claim (the
claims of ``claim_text.extract_claims``, in their order). A claim is judged:

* ``consistent-with-page`` when two figures of the page (two times, or two
  throughputs in one unit) give it: as a speedup ``old / new`` (a multiplier: 70 min
  against 91.5 s is 45.9x), or for a percentage as a time reduction
  ``(old - new) / old`` or a speedup ``old / new - 1`` (6.25 s -> 2.69 s: 57% less
  time, 132% faster). Digits as written count (46x for 45.9x: :func:`fits`), and so do
  qualifiers ("more than", "nearly", "up to") and ranges ("2-3x");
* ``inconsistent-with-page`` when the page gives one pair of figures for it and they do
  not: the pair stands in the claim's own sentence or is the one pair in the sentences
  around it, and the claim is measured against nothing else (no earlier round, first
  submission or previous product named as its baseline: "28.3 vs 29.1 minutes, 24%
  since our first submission" is no 2.8% claim);
* not judged (None) when the page gives no figures for it.

Figures are looked for in the claim's sentence, then in the two sentences before it
and the one after it, then (to support a claim, never to contradict it) anywhere on
the page for the same benchmark; a figure the page repeats (46x in the headline and
in the text) takes the arithmetic of its judged repetition. The page's sentences may
be in any language: the figures are the claims ``claim_text`` found (``time``, ``head_to_head``,
``throughput``), whatever words surround them.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from benchdb.vocabulary import CONSISTENT_WITH_PAGE, INCONSISTENT_WITH_PAGE

from .claim_types import Claim

#: Relative slack of a figure read from a page, beyond its printed digits (45.9x claimed,
#: 45.90x implied; "46x" for 45.9x is within its digits).
SLACK = 0.01
#: Sentences before and after a claim whose figures are read as its operands.
BEFORE, AFTER = 2, 1
#: Most operands of one pool (sentence, nearby sentences, benchmark) whose pairs are
#: tried for one claim (:func:`_nearest`).
MAX_OPERANDS = 24
_PER_MIN = {"min": 1.0, "s": 1 / 60.0, "h": 60.0}
_GAIN_KINDS = ("multiplier", "percentage")


@dataclass(frozen=True)
class Operand:
    """A figure on the page: ``value`` in ``unit``; ``start``/``end`` its span in the
    text (the claim's span for a head-to-head's side); ``claim`` the index of the claim
    that holds it."""

    value: float
    unit: str
    start: int
    end: int
    claim: int

    def base(self) -> float:
        """The value in a common unit: minutes for a time, else as given."""
        return self.value * _PER_MIN.get(self.unit, 1.0)

    def dimension(self) -> str:
        return "time" if self.unit in _PER_MIN else self.unit


@dataclass(frozen=True)
class PageArithmetic:
    """A claim recomputed from the page: ``implied`` (in the claim's unit, ``x`` or
    ``%``) from ``old`` and ``new`` (the larger and smaller time, or the smaller and
    larger throughput); ``reading``: ``speedup`` (multiplier), ``time_reduction`` or
    ``percent_speedup``; ``where``: ``sentence`` (both figures in the claim's sentence)
    or ``page``; ``tried``: how many pairs of figures were read; ``verdict``:
    ``consistent-with-page`` or ``inconsistent-with-page``."""

    claimed: float
    unit: str
    implied: float
    reading: str
    old: Operand
    new: Operand
    where: str
    tried: int
    verdict: str

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: the operands as {value, unit, start, end, claim}."""
        out: dict[str, Any] = {}
        for k in self.__dataclass_fields__:
            v = getattr(self, k)
            out[k] = v.__dict__.copy() if isinstance(v, Operand) else v
        return out


def page_arithmetic(claims: Sequence[Claim]) -> list[PageArithmetic | None]:
    """Each claim's page arithmetic (module docstring), aligned with ``claims``."""
    ops = operands(claims)
    starts = sorted({c.sentence_start for c in claims})
    out: list[PageArithmetic | None] = []
    for c in claims:
        if c.kind not in _GAIN_KINDS or c.value is None or c.value <= 0:
            out.append(None)
            continue
        out.append(_judge(c, claims, ops, starts))
    # The same figure repeated (a headline, a summary) is the same claim: it takes the
    # arithmetic of the one the page's figures give.
    given = {(pa.claimed, pa.unit): pa for pa in out if pa and pa.verdict == CONSISTENT_WITH_PAGE}
    for i, c in enumerate(claims):
        same = given.get((c.value or 0.0, c.unit)) if c.kind in _GAIN_KINDS else None
        if out[i] is None and same is not None:
            out[i] = replace(same, where="page")
    return out


def operands(claims: Sequence[Claim]) -> list[Operand]:
    """The figures of the page that a multiplier or percentage may be computed from:
    times (a head-to-head gives both of its sides) and throughputs."""
    out: list[Operand] = []
    for i, c in enumerate(claims):
        if c.value is None or c.value <= 0 or c.kind not in ("time", "head_to_head", "throughput"):
            continue
        out.append(Operand(c.value, c.unit, c.start, c.end, i))
        if c.kind == "head_to_head" and c.compared_value:
            out.append(Operand(c.compared_value, c.unit, c.end, c.end, i))
    return out


def _judge(
    c: Claim, claims: Sequence[Claim], ops: Sequence[Operand], starts: list[int]
) -> PageArithmetic | None:
    k = bisect.bisect_left(starts, c.sentence_start)
    lo = starts[max(0, k - BEFORE)]
    hi = starts[k + AFTER + 1] if k + AFTER + 1 < len(starts) else math.inf
    own = _nearest(c, [o for o in ops if claims[o.claim].sentence_start == c.sentence_start])
    near = _nearest(c, [o for o in ops if lo <= claims[o.claim].sentence_start < hi])
    own_pairs, near_pairs = _pairs(own), _pairs(near)
    for pairs, where in ((own_pairs, "sentence"), (near_pairs, "page")):
        best = _best(c, pairs, where, len(pairs))
        if best and best.verdict == CONSISTENT_WITH_PAGE:
            return best
    if c.benchmark_key:
        same = _nearest(c, [o for o in ops if claims[o.claim].benchmark_key == c.benchmark_key])
        pairs = _pairs(same)
        best = _best(c, pairs, "page", len(pairs))
        if best and best.verdict == CONSISTENT_WITH_PAGE:
            return best
    if c.baseline:  # "24% since our first submission": the page's figures are not its operands
        return None
    if len(own_pairs) == 1:
        return _best(c, own_pairs, "sentence", 1)
    if len(near_pairs) == 1:
        return _best(c, near_pairs, "page", 1)
    return None


def _nearest(c: Claim, pool: list[Operand]) -> list[Operand]:
    """``pool``, or its :data:`MAX_OPERANDS` operands nearest ``c`` in the text (in
    their order): every pair of a pool is tried for every gain claim, so a table of
    thousands of rows of one benchmark made the page's reading cubic (issue 21). Real
    pages have at most 21 operands in all."""
    if len(pool) <= MAX_OPERANDS:
        return pool
    keep = {id(o) for o in sorted(pool, key=lambda o: abs(o.start - c.start))[:MAX_OPERANDS]}
    return [o for o in pool if id(o) in keep]


def _pairs(ops: Sequence[Operand]) -> list[tuple[Operand, Operand]]:
    """(old, new) pairs of one dimension and different values: the larger time is the
    old one, the smaller throughput."""
    out = []
    for a, b in combinations(ops, 2):
        if a.dimension() != b.dimension() or a.base() == b.base():
            continue
        slow_first = a.base() > b.base()
        if a.dimension() != "time":
            slow_first = not slow_first
        out.append((a, b) if slow_first else (b, a))
    return out


def _best(
    c: Claim, pairs: Sequence[tuple[Operand, Operand]], where: str, tried: int
) -> PageArithmetic | None:
    """The pair that gives the claim (consistent), else the closest one (inconsistent)."""
    found: list[tuple[float, PageArithmetic]] = []
    for old, new in pairs:
        for reading, implied in readings(c.unit, old, new):
            ok = fits(c.value or 0.0, implied, c.qualifier, c.value_high)
            verdict = CONSISTENT_WITH_PAGE if ok else INCONSISTENT_WITH_PAGE
            pa = PageArithmetic(
                c.value or 0.0, c.unit, implied, reading, old, new, where, tried, verdict
            )
            found.append((0.0 if ok else abs(math.log(implied / (c.value or 1.0))), pa))
    return min(found, key=lambda x: x[0])[1] if found else None


def readings(unit: str, old: Operand, new: Operand) -> list[tuple[str, float]]:
    """What a claim in ``unit`` (``x`` or ``%``) is under each reading of old -> new:
    for time, ``old`` is the longer; for throughput, the smaller."""
    a, b = old.base(), new.base()
    if a <= 0 or b <= 0:
        return []
    ratio = a / b if old.dimension() == "time" else b / a
    if unit == "x":
        return [("speedup", ratio)]
    if unit != "%":
        return []
    out = [("percent_speedup", (ratio - 1.0) * 100.0)]
    if old.dimension() == "time":
        out.insert(0, ("time_reduction", (1.0 - 1.0 / ratio) * 100.0))
    return out


def fits(claimed: float, implied: float, qualifier: str = "", high: float | None = None) -> bool:
    """Whether ``implied`` gives ``claimed`` as written: equal once rounded to the
    claimed digits or within :data:`SLACK`; "more than"/"at least"/"just over": not
    below it; "up to"/"less than": not above; "nearly": below it by at most 10%;
    ``high`` (a range "2-3x"): between ``claimed`` and ``high``."""
    if implied <= 0 or not math.isfinite(implied):
        return False
    lo, up = claimed * (1 - SLACK), (high if high is not None else claimed) * (1 + SLACK)
    if high is not None:
        return lo <= implied <= up
    if qualifier in ("more than", "at least", "just over"):
        return implied >= lo
    if qualifier in ("up to", "less than"):
        return implied <= up
    if qualifier == "nearly":
        return claimed * 0.9 <= implied <= up
    return _same_digits(claimed, implied) or lo <= implied <= up


def _same_digits(claimed: float, implied: float) -> bool:
    written = f"{claimed:g}"
    digits = len(written.split(".")[1]) if "." in written else 0
    return round(implied, digits) == round(claimed, digits)

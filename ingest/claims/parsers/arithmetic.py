"""Page-level arithmetic: a multiplier or percentage recomputed from two figures the
text links to it. Pure: no Django.

``page_arithmetic(claims)`` -> one :class:`PageArithmetic` or None per claim (the
claims of ``claim_text.extract_claims``, in their order). The operands are only those
the text links to the claim (issue 20: never a search over all pairs of a page, where
almost any percentage finds two numbers that give it):

* the figures of the claim's own sentence (two times, or two throughputs in one unit;
  a head-to-head gives both of its sides);
* a sentence with one figure of its own that points back at the one before ("This is
  nearly 3x the 10.9 minutes of June", "这比...10.9分钟,提升了近3倍") pairs it with the
  figures of the sentence before it of the same benchmark ("3.9 minutes");
* a sentence with none takes two figures of the two sentences before it whose sentences
  name different sides of it ("Snap ML is 46x faster than TensorFlow" after "Snap ML ...
  91.5 seconds" and "TensorFlow ... 70 minutes") when it names its compared side after
  the comparison word (not "compared to the last round");
* otherwise it is not judged: the figures around it belong to other claims ("23.8
  minutes (4.5x over our baseline)" after "NVIDIA's 28.7 minutes"; "24% since our
  first submission" beside "28.3 vs 29.1 minutes").

A hardware total its sentence gives as a count of units times a per-unit figure ("Each
RNGD chip offers 512 TFLOPS (FP8) ..., with an 8-chip server configuration achieving 4
petaFLOPS (FP8)") is judged by :mod:`.arithmetic_products` (consistent only).

Each pair of linked figures is read as a speedup ``old / new`` (a multiplier: 70 min
against 91.5 s is 45.9x), and a percentage both as a time reduction ``(old - new) /
old`` and as a speedup ``old / new - 1`` unless its words say it is a reduction
(:data:`REDUCTION`: "57% less time", "缩短"). The verdict must hold for every pair and
every reading: ``consistent-with-page`` when all give the claim (digits as written:
46x for 45.9x, :func:`fits`; qualifiers and ranges count), ``inconsistent-with-page``
when none does, and no verdict when they disagree ("17% faster" that is 17% less time
but a 21% speedup). A claim the page repeats (same figure, kind, qualifier and benchmark) takes
the arithmetic of its judged repetition.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from benchdb.vocabulary import CONSISTENT_WITH_PAGE, INCONSISTENT_WITH_PAGE

from .arithmetic_products import product_figures
from .types import Claim

#: Relative slack of a figure read from a page, beyond its printed digits (45.9x claimed,
#: 45.90x implied; "46x" for 45.9x is within its digits).
SLACK = 0.01
#: A ratio within this of the claimed one agrees: the tolerance for ratios of
#: ../shared/vendor-dev/README.md (MLCommons' run-to-run variation, 5 %), so that a
#: claim rounded from unrounded figures (4.5x for 110.5 / 23.8 = 4.64x) is not called
#: inconsistent with its own page.
RATIO_TOLERANCE = 0.05
#: Most operands of one sentence whose pairs are tried for one claim (:func:`_nearest`):
#: a table read as one sentence must not make the pairs quadratic (real pages have at
#: most 21).
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
        if c.kind == "spec":
            out.append(_product(c, claims))
            continue
        if c.kind not in _GAIN_KINDS or c.value is None or c.value <= 0:
            out.append(None)
            continue
        out.append(_judge(c, claims, ops, starts))
    # The same figure repeated (a headline, a summary) is the same claim: it takes the
    # arithmetic of the one the page's figures give.
    # Only the same claim: same figure, kind, qualifier, benchmark and compared side (a
    # headline's "46x faster than TensorFlow" and the text's), never another claim that
    # happens to print the same number.
    given = {
        _same_claim(claims[i]): pa
        for i, pa in enumerate(out)
        if pa and pa.verdict == CONSISTENT_WITH_PAGE
    }
    for i, c in enumerate(claims):
        same = given.get(_same_claim(c)) if c.kind in _GAIN_KINDS else None
        if out[i] is None and same is not None:
            out[i] = replace(same, where="page")
    return out


def _product(c: Claim, claims: Sequence[Claim]) -> PageArithmetic | None:
    """A hardware total its sentence gives as a count of units times a per-unit figure
    (:mod:`.arithmetic_products`): ``consistent-with-page`` when they multiply to it as
    printed (reading ``product``; ``old`` the per-unit figure, ``new`` the count), else
    None."""
    found = product_figures(c, claims)
    if found is None:
        return None
    pi, ni, implied = found
    if not fits(c.value or 0.0, implied, c.qualifier, c.value_high):
        return None
    p, n = claims[pi], claims[ni]
    return PageArithmetic(
        c.value or 0.0,
        c.unit,
        implied,
        "product",
        Operand(p.value or 0.0, p.unit, p.start, p.end, pi),
        Operand(n.value or 0.0, n.unit, n.start, n.end, ni),
        "sentence",
        1,
        CONSISTENT_WITH_PAGE,
    )


def _same_claim(c: Claim) -> tuple[object, ...]:
    """What makes two claims of a page the same claim repeated."""
    return (
        c.value,
        c.unit,
        c.kind,
        c.qualifier,
        c.benchmark_key,
        c.compared_system,
        c.compared_framework,
    )


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
    """The claim judged on the figures the text links to it (module docstring): those
    of its own sentence, or its one figure with those of the sentence before it of the
    same benchmark. Never a search over the page."""
    if c.baseline:  # an earlier round's figure, not the head-to-head of this round
        ops = [o for o in ops if claims[o.claim].kind != "head_to_head"]
    own = _nearest(c, [o for o in ops if claims[o.claim].sentence_start == c.sentence_start])
    clause = [o for o in own if _same_clause(c, o)]
    for linked, where in ((clause, "clause"), (own, "sentence")):
        pairs = _pairs(linked)
        if pairs:
            return _settle(c, pairs, "sentence" if where == "clause" else where)
    k = bisect.bisect_left(starts, c.sentence_start)
    before = {starts[i] for i in (k - 1, k - 2) if i >= 0}
    if len(own) == 1 and _ANAPHORA.match(c.sentence):
        # "This is nearly 3x the 10.9 minutes of June" after "3.9 minutes"; "That is 46
        # times faster than ... 70 minutes" after "91.5 seconds"
        same = [
            o
            for o in ops
            if claims[o.claim].sentence_start == starts[k - 1]
            and k > 0
            and (not c.benchmark_key or claims[o.claim].benchmark_key == c.benchmark_key)
        ]
        pairs = _pairs(own + same)
        return _settle(c, pairs, "page") if pairs else None
    # No figure of its own: linked only to two figures of the two sentences before it
    # that name different sides of it (:func:`_side_names`): "Snap ML is 46x faster than
    # TensorFlow" after "Snap ML ... in 91.5 seconds" and "TensorFlow ... in 70
    # minutes"; only when the sentence names its compared side after the comparison
    # word: a gain over an earlier round or a first submission has no operands on the
    # page ("5% for IPU-POD16 ... compared to the last round" after "IPU-POD128 ...
    # 5.67 minutes" and "IPU-POD256 ... 3.79 minutes").
    names = _side_names(c)
    if own or not names or not _names_compared_side(c, names):
        return None

    def named(o: Operand) -> frozenset[str]:
        text = claims[o.claim].sentence.lower()
        return frozenset(n for n in names if n in text)

    near = _nearest(c, [o for o in ops if claims[o.claim].sentence_start in before and named(o)])
    pairs = [(a, b) for a, b in _pairs(near) if named(a) - named(b) and named(b) - named(a)]
    return _settle(c, pairs, "page") if pairs else None


_COMPARED = re.compile(r"\b(?:than|vs\.?|versus|compared (?:to|with)|over)\b|比|相比|对比|對比")


def _names_compared_side(c: Claim, names: Sequence[str]) -> bool:
    """Whether a name of ``names`` follows a comparison word closely in the claim's
    sentence ("faster than TensorFlow", "比 TensorFlow 快"): the compared side is a named
    product, not an earlier round ("compared to the last MLPerf round")."""
    low = c.sentence.lower()
    for m in _COMPARED.finditer(low):
        after = low[m.end() : m.end() + 40]
        if any(n in after for n in names):
            return True
    return False


#: A sentence that opens by pointing back at the one before ("This", "That is", "这比").
_ANAPHORA = re.compile(r"\W*(?:this|that|these|it)\b|\W*[这這此它]", re.IGNORECASE)
#: Capitalised words that name no side of a claim (every MLPerf page has them).
_NOT_SIDES = frozenset({"mlperf", "mlcommons", "gpu", "gpus", "the", "this", "that", "with"})


def _side_names(c: Claim) -> list[str]:
    """The names a claim's sides go by, lower-cased: its system, compared system and
    frameworks as resolved, and the capitalised Latin words of its sentence ("Snap",
    "TensorFlow" in "Snap ML 因此比 TensorFlow 快了 46 倍"), but not :data:`_NOT_SIDES`."""
    words = re.findall(r"\b[A-Z][A-Za-z0-9]{2,}", c.sentence)
    named = [c.system, c.compared_system, c.compared_framework, c.framework, *words]
    return sorted({x.lower() for x in named if len(x) > 2 and x.lower() not in _NOT_SIDES})


_CLAUSE_END = re.compile(r"[;；]|, and |，而|; and ")


def _same_clause(c: Claim, o: Operand) -> bool:
    """Whether figure ``o`` stands in the claim's clause of its sentence (clauses end at
    ";", "；", ", and ": "from 6.25 s to 2.69 s, a 57% reduction, and ResNet from 28 s
    to 16 s" has two)."""
    lo, hi = sorted((c.start, o.start))
    between = c.sentence[lo - c.sentence_start : hi - c.sentence_start]
    return _CLAUSE_END.search(between) is None


def _settle(
    c: Claim, pairs: Sequence[tuple[Operand, Operand]], where: str
) -> PageArithmetic | None:
    """A page verdict that holds for every pair of linked figures and every reading the
    text allows: consistent when all hold, inconsistent when none does, else none
    (the figures do not decide it). A percentage reads as a time reduction and as a
    speedup unless its sentence says which (:data:`REDUCTION`)."""
    found: list[PageArithmetic] = []
    pinned = _reduction_words(c)
    for old, new in pairs:
        for reading, implied in readings(c.unit, old, new):
            if pinned and reading != "time_reduction" and old.dimension() == "time":
                continue
            ok = fits(c.value or 0.0, implied, c.qualifier, c.value_high) or (
                not c.qualifier
                and c.value_high is None
                and abs(implied / (c.value or 1.0) - 1.0) <= RATIO_TOLERANCE
            )
            verdict = CONSISTENT_WITH_PAGE if ok else INCONSISTENT_WITH_PAGE
            found.append(
                PageArithmetic(
                    c.value or 0.0, c.unit, implied, reading, old, new, where, len(pairs), verdict
                )
            )
    if not found or len({pa.verdict for pa in found}) > 1:
        return None
    return found[0]


#: Words that make a percentage a time reduction ("57% less time", "缩短了57%").
REDUCTION = re.compile(
    r"reduc|less time|shorter|cut|lower|fewer minutes|缩短|减少|降低|縮短|減少", re.IGNORECASE
)


def _reduction_words(c: Claim) -> bool:
    """Whether the words right around a percentage say it is a time reduction."""
    if c.unit != "%":
        return False
    lo, hi = max(0, c.start - c.sentence_start - 40), c.end - c.sentence_start + 40
    return REDUCTION.search(c.sentence[lo:hi]) is not None


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

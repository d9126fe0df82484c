"""The claims of one sentence, by kind: head-to-head times, gains (percentages and
multipliers, with their baseline or compared system), parity, counts, scales and the
rest. Pure: no Django. The lookups are :class:`~.claim_context.SentenceContext`'s.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

from .context import SentenceContext, distinct_keys
from .patterns import (
    CN_EFFICIENCY,
    COMPARE,
    FIRST,
    GAIN,
    GEOMEAN,
    OTHER_PRODUCT,
    PARITY,
    PREVIOUS,
    SCALING_EFFICIENCY,
    SCALING_SENTENCE,
    SYSTEMS,
)
from .pronouns import pronoun_pair
from .quantities import minutes_of, unit_scale
from .sentences import Mention
from .targets import target_part
from .types import Claim, Quantity, to_count, to_number


def sentence_claims(ctx: SentenceContext) -> list[Claim]:
    qs = ctx.quantities
    out: list[Claim] = []
    pair = _head_to_head(ctx, qs)
    if pair:
        out.append(pair)
        qs = [q for q in qs if not (pair.start <= q.start < pair.end)]
    respectively = _respectively(ctx, qs)
    before = _from_side(ctx, qs)
    for q in qs:
        if q.kind in ("percentage", "multiplier"):
            gain = _gain(ctx, q, respectively.get(id(q)))
            special = _gain_kind(ctx, q)
            counts = _scaled_counts(ctx.text) if special == "scaling" else None
            if counts:
                gain = replace(gain, accelerators=counts[1], compared_accelerators=counts[0])
            out.append(replace(gain, kind=special) if special else gain)
        elif q.kind == "count":  # a count is about the page's subject, not a nearby system
            out.append(
                replace(
                    ctx.claim("count", q, compared_value=q.compared),
                    system="",
                    benchmark="",
                    benchmark_key="",
                    context=(),
                )
            )
        elif q.kind == "scale":
            acc = to_count(q.value) if q.unit not in ("node", "system") else None
            named = re.search(SYSTEMS, q.system_hint, re.I) if q.system_hint else None
            extra = {"system": named.group()} if named else {}  # "8x MI300Xs": MI300X
            claim = ctx.claim("scale", q, accelerators=acc, **extra)
            if _PER_UNIT.search(ctx.t[max(0, q.start - 12) : q.end]):
                claim = replace(claim, accelerators=None, context=(*claim.context, "per-unit"))
            out.append(claim)
        elif q.kind == "target":  # "must reach Minimum Box mAP: 0.377" (parsers.targets)
            part = target_part(ctx.t[ctx.s.start : ctx.s.end], q.start - ctx.s.start)
            metric = f"quality:{part}" if part else "quality"
            out.append(ctx.claim("target", q, metric=metric, system=""))
        elif id(q) in before:  # "from 311.94 minutes ... down to 153.58": the earlier result
            out.append(ctx.claim(q.kind, q, baseline="previous-round"))
        else:
            out.append(ctx.claim(q.kind, q))
    parity = _parity(ctx)
    if parity:
        out.append(parity)
    return out


#: "34 72-GPU NVLink domains": a count, then a size of one unit ("72-GPU"): the size is
#: no result's accelerator count (verdicts._verify_scale leaves it unverifiable).
_PER_UNIT = re.compile(r"(?<![\d,.])\d[\d,]*\s+\d[\d,]*[-\u2010\u2011]\s?[A-Za-z]+$")


def _gain_kind(ctx: SentenceContext, q: Quantity) -> str:
    """``scaling`` for a percentage that is a scaling efficiency, ``geomean`` for a gain
    over a geometric mean of benchmarks (its clause, or 40 characters either side, says
    so), else "" (a gain)."""
    a, b = ctx.own(q)
    near = ctx.t[max(ctx.s.start, q.start - 40) : min(ctx.s.end, q.end + 40)]
    clause = ctx.t[a:b]
    if q.kind == "percentage" and (
        SCALING_EFFICIENCY.search(near)
        or SCALING_EFFICIENCY.search(clause)
        or (CN_EFFICIENCY.search(clause) and SCALING_SENTENCE.search(ctx.text))
    ):
        return "scaling"
    if GEOMEAN.search(near) or GEOMEAN.search(clause):
        return "geomean"
    return ""


_FROM_TO_COUNT = re.compile(
    r"(?i:from\s+(?P<a>\d[\d,]*)\s+(?:GPUs?\s+|accelerators?\s+|chips?\s+)?(?:up\s+)?to\s+"
    r"(?P<b>\d[\d,]*)(?![\d.])(?:[\s-]*(?:GPUs?|devices?|accelerators?|chips?|nodes?))?)"
    r"|从\s*(?P<za>\d[\d,]*)\s*(?:个|個|块|塊)?\s*(?:GPU)?\s*(?:扩展|擴展|增加|扩大|擴大)到\s*(?P<zb>\d[\d,]*)"
)


def _scaled_counts(sentence: str) -> tuple[int, int] | None:
    """The two accelerator counts of a scaling efficiency ("from 512 to 2,496 devices",
    "从 512 个 GPU 扩展到 2496"): (smaller, larger), or None when the sentence names no
    such pair."""
    m = _FROM_TO_COUNT.search(sentence)
    if not m:
        return None
    a, b = (
        to_count(to_number(x))
        for x in (m.group("a") or m.group("za"), m.group("b") or m.group("zb"))
    )
    if a is None or b is None or a >= b:
        return None
    return a, b


#: "from A (or A') down to B": the times between "from" and "to" are the baseline's.
_FROM_TO = re.compile(r"\bfrom\b(?P<side>.{1,80}?)\b(?:down\s+|up\s+)?to\b", re.I | re.S)
#: "X extended/improved/outperformed Y('s performance) by N": X is the subject, Y the
#: compared system, whatever the sentence's comparison words.
_VERB_BY = re.compile(
    r"\b(?:extend|improv|boost|increas|rais|outperform|outpac|beat)\w*\b(?P<mid>.{1,60}?)"
    r"\bby\b(?P<rest>[^.;]{0,24})$",
    re.I | re.S,
)


def _from_side(ctx: SentenceContext, qs: list[Quantity]) -> set[int]:
    """ids of the time quantities on the "from" side of a from->to pair of times."""
    out: set[int] = set()
    times = [q for q in qs if q.kind == "time"]
    for m in _FROM_TO.finditer(ctx.text):
        a, b = ctx.s.start + m.start("side"), ctx.s.start + m.end("side")
        inside = [q for q in times if a <= q.start < b]
        if inside and any(q.start >= b for q in times):
            out |= {id(q) for q in inside}
    return out


def _verb_by(ctx: SentenceContext, q: Quantity) -> tuple[Mention, Mention] | None:
    """(subject, compared) of "X extended Y's performance by up to 47%" for the gain
    ``q`` right after "by", or None."""
    m = _VERB_BY.search(ctx.t, ctx.s.start, q.start)
    if not m:
        return None
    systems = ctx.mentions_in("system", (ctx.s.start, ctx.s.end), role=None)
    subj = [x for x in systems if x.end <= m.start()]
    comp = [x for x in systems if m.start("mid") <= x.start < m.end("mid")]
    if not subj or not comp or subj[-1].key == comp[0].key:
        return None
    return subj[-1], comp[0]


def _head_to_head(ctx: SentenceContext, qs: list[Quantity]) -> Claim | None:
    times = [q for q in qs if q.kind == "time"]
    if len(times) != 2 or not ctx.says(COMPARE) or any(q.value is None for q in times):
        return None
    used: list[str] = []
    a, b = times
    sa, sb = (_nearest_system_strict(ctx, q) for q in times)
    named = distinct_keys(m for m in ctx.s.mentions if m.kind == "system")
    if (not sa or not sb or sa.key == sb.key) and len(named) == 2 and named[1].end < a.start:
        sa, sb = named  # "A vs B: 28.3 vs 29.1 minutes", in the order named
    if not sa or not sb or sa.key == sb.key:
        return None
    fast, slow = (a, b) if minutes_of(a) <= minutes_of(b) else (b, a)
    sf, ss = (sa, sb) if fast is a else (sb, sa)
    span = Quantity(
        "head_to_head",
        fast.value,
        fast.unit,
        min(a.start, b.start),
        max(a.end, b.end),
        fast.qualifier,
        fast.qualifier_text,
    )
    c = ctx.claim(
        "head_to_head",
        span,
        system=sf.text,
        compared_value=(slow.value or 0.0) * unit_scale(slow.unit, fast.unit),
        compared_system=ss.text,
    )
    bench = ctx.nearest("benchmark", fast, used)
    return replace(
        c, benchmark=bench.text if bench else "", benchmark_key=bench.key if bench else ""
    )


def _nearest_system_strict(ctx: SentenceContext, q: Quantity) -> Mention | None:
    own = ctx.mentions_in("system", ctx.own(q), role=None)
    if own:
        return min(own, key=lambda m: abs(m.start - q.start))
    before = [m for m in ctx.mentions_in("system", (ctx.s.start, q.start), role=None)]
    return before[-1] if before else None


def _respectively(ctx: SentenceContext, qs: list[Quantity]) -> dict[int, Mention]:
    """分别/分別/respectively: the k numbers go to the last k benchmarks named before them."""
    if not re.search(r"分别|分別|respectively", ctx.text, re.I):
        return {}
    nums = [q for q in qs if q.kind in ("percentage", "multiplier", "time")]
    if len(nums) < 2:
        return {}
    names = [m for m in ctx.s.mentions if m.kind == "benchmark" and m.start < nums[0].start]
    dedup: list[Mention] = []
    for m in names:
        if not dedup or dedup[-1].key != m.key or m.start - dedup[-1].end > 3:
            dedup.append(m)
    if len(dedup) < len(nums):
        return {}
    return {id(q): m for q, m in zip(nums, dedup[-len(nums) :], strict=True)}


def _gain(ctx: SentenceContext, q: Quantity, bench: Mention | None) -> Claim:
    own = ctx.own(q)
    baseline = ""
    base_round = ctx.mentions_in("round", own, role="baseline") or ctx.mentions_in(
        "round", (ctx.s.start, ctx.s.end), role="baseline"
    )
    if ctx.says(OTHER_PRODUCT, own):
        baseline = "other-product"
    elif ctx.says(FIRST, own):
        baseline = "first-submission"
    elif ctx.says(PREVIOUS, own):
        baseline = "previous-round"
    elif base_round:
        baseline = base_round[0].key
    elif ctx.says(OTHER_PRODUCT):
        baseline = "other-product"
    elif ctx.says(FIRST):
        baseline = "first-submission"
    elif ctx.says(PREVIOUS):
        baseline = "previous-round"
    pair = pronoun_pair(ctx, q)
    if pair:  # "它们的表现相差不到2%": the two the sentence before names
        if bench:
            pair |= {"benchmark": bench.text, "benchmark_key": bench.key}
        used = ctx.attrs(q)["context"]  # the benchmark, the round read from earlier
        kept = tuple(t for t in used if t != "system") if isinstance(used, tuple) else ()
        pair["context"] = (*kept, "system", "pronoun-pair")  # the pair, from earlier too
        return ctx.claim(q.kind, q, **pair)
    extra: dict[str, object] = {}
    systems = ctx.mentions_in("system", (ctx.s.start, ctx.s.end), role=None)
    subject = _subject(ctx, q)
    verb = _verb_by(ctx, q)
    if verb:
        subject, extra["compared_system"] = verb[0], verb[1].text
        baseline = "" if baseline in ("previous-round", "") else baseline
    elif (
        not baseline
        and subject
        and len({m.key for m in systems}) >= 2
        and ctx.says(COMPARE)
        or (not baseline and q.kind == "multiplier" and len({m.key for m in systems}) >= 2)
    ):
        other = [m for m in systems if m.key != (subject.key if subject else "")]
        compared = next((m for m in other if m.role == "compared"), other[0] if other else None)
        if compared:
            extra["compared_system"] = compared.text
    implied = _implied(ctx, q) if not baseline else None
    if not baseline and implied is None and "compared_system" not in extra and ctx.says(GAIN):
        baseline = "previous-round"
    extra["baseline"] = baseline
    if subject:
        extra["system"] = subject.text
    if bench:
        extra["benchmark"], extra["benchmark_key"] = bench.text, bench.key
    return ctx.claim(q.kind, q, implied_value=implied, **extra)


def _subject(ctx: SentenceContext, q: Quantity) -> Mention | None:
    own = [m for m in ctx.mentions_in("system", ctx.own(q)) if m.role != "compared"]
    if own:
        return min(own, key=lambda m: abs(m.start - q.start))
    sent = [m for m in ctx.mentions_in("system", (ctx.s.start, ctx.s.end)) if m.role != "compared"]
    before = [m for m in sent if m.start < q.start]
    if before and len(sent) > 1 and any(x.kind == "time" for x in ctx.quantities):
        return sent[0]  # the sentence's subject, as in "A takes 28.3 min vs B ... 24%"
    if before:
        return before[-1]
    if sent:
        return sent[0]
    used: list[str] = []
    return ctx.nearest("system", q, used)


def _implied(ctx: SentenceContext, q: Quantity) -> float | None:
    """What the sentence's own two times say the multiplier or percentage is
    (70 min and 91.5 s -> 45.9x; as a percentage: the speedup)."""
    times = [x for x in ctx.quantities if x.kind == "time"]
    if (
        len(times) != 2
        or q.kind not in ("multiplier", "percentage")
        or any(x.value is None for x in times)
    ):
        return None
    a, b = sorted(minutes_of(x) for x in times)
    if a <= 0:
        return None
    implied = b / a if q.kind == "multiplier" else (b / a - 1.0) * 100.0
    return implied if math.isfinite(implied) else None


def _parity(ctx: SentenceContext) -> Claim | None:
    m = PARITY.search(ctx.text)
    if not m:
        return None
    fws = [x for x in ctx.s.mentions if x.kind == "framework"]
    systems = [x for x in ctx.s.mentions if x.kind == "system"]
    a_list = (
        fws
        if len({x.key for x in fws}) >= 2
        else systems
        if len({x.key for x in systems}) >= 2
        else []
    )
    if not a_list:
        return None
    cue = ctx.s.start + m.start()
    subject = next((x for x in reversed(a_list) if x.start < cue), a_list[0])
    compared = next((x for x in a_list if x.start > cue and x.key != subject.key), None)
    if compared is None:
        return None
    q = Quantity("parity", 0.0, "%", ctx.s.start + m.start(), ctx.s.start + m.end())
    used: list[str] = []
    bench = ctx.nearest("benchmark", q, used)
    attrs: dict[str, object] = {
        "benchmark": bench.text if bench else "",
        "benchmark_key": bench.key if bench else "",
    }
    if subject.kind == "framework":
        attrs |= {"framework": subject.key, "compared_framework": compared.key, "system": ""}
    else:
        attrs |= {"system": subject.text, "compared_system": compared.text}
    return ctx.claim("parity", q, **attrs)

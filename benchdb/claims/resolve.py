"""A claim's subject and baseline resolved from its sentence and its page, as vendors
phrase them ("311.9 min on 384 Gaudi2 accelerators vs 64.3 min on 512 H100", "up to
2.8X vs the previous product on BERT-Large", "in the November 2023 update"). Pure: no
Django. The names it reads (families, rounds and benchmarks in words) are
:mod:`benchdb.claims.subjects`'.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta

from benchdb.claims import resolve_words as words
from benchdb.claims import same_hardware
from benchdb.claims.facts import ClaimFacts
from benchdb.claims.printed import bound_before, figure_at, figure_values
from benchdb.claims.resolve_slots import (
    BEST,
    GAINS,
    benchmark_fields,
    carried_benchmark_fields,
    round_fields,
)
from benchdb.claims.subjects import (
    PREVIOUS,
    Mention,
    clause_of,
    family_of,
    find_mentions,
    makes,
)


@dataclass(frozen=True)
class PageContext:
    """What a claim may take from its page: ``title``, ``text`` (the cleaned text),
    ``published`` (None when unknown), ``vendor`` (as stored: ``Intel``; whom "we"
    and "our" name) and ``url`` (where it came from; it may name the round)."""

    title: str = ""
    text: str = ""
    published: date | None = None
    vendor: str = ""
    url: str = ""


#: Words that put what follows on the compared side of a sentence.
_COMPARE = re.compile(
    r"(?<![A-Za-z])(?:vs\.?|versus|compared (?:to|with)|(?<!more )(?<!less )(?<!fewer )than"
    # "5x more than Jetson AGX Xavier": a figure's "more than" compares ("more than 5x"
    # alone is a bound)
    r"|(?:(?<=\dx more )|(?<=\dX more )|(?<=\d× more )|(?<=\d% more ))than(?=\s+[^\W\d])"
    r"|whereas|while|against|over(?!\s*\d)"  # "over 4x faster" is a qualifier
    r"|relative to|outperform(?:s|ed|ing)?|beat(?:s|ing)?|ahead of)(?![A-Za-z])"
    r"|相比|相较|相較|对比|對比|而",
    re.I,
)
#: Chinese comparisons that close the compared phrase they open with 与/和/跟/同
#: ("与 1 年前我们自己提交的 MLPerf v0.7 相比").
_AFTER_WORDS = frozenset({"相比", "相较", "相較", "对比", "對比"})
_WITH = re.compile(r"[与與和跟同][^,，。；;]*$")
#: Two counts paired by a comparison word, the subject's first: "at 384 vs 512
#: accelerators", "on 8 and 16 GPUs respectively" is not one (no comparison word).
_PAIRED_COUNTS = re.compile(
    r"(?<![\d.,])(\d[\d,]*)\s*(?:vs\.?|versus)\s*(\d[\d,]*)\s*"
    r"(?:accelerators|GPUs|chips|cards|HPUs|IPUs|TPUs|个|個|张|張|颗|顆)",
    re.I,
)
_PREVIOUS = re.compile(
    r"(?:previous|prior|last)[- ](?:product|generation|gen)|predecessor|上一代|上代|前一?代",
    re.I,
)
_BARE_COUNT = re.compile(  # not inside a name: "its H100 GPU" states no 100 GPUs
    r"(?<![A-Za-z\d.])(\d[\d,]*)(?:\s*|[-\u2010\u2011])"
    r"(?:accelerators?|GPUs?|chips?|cards?|HPUs?|IPUs?|TPUs?"
    r"|个|個|张|張|颗|顆)(?![A-Za-z])",
    re.I,
)


def _numbers(text: str) -> set[float]:
    """The values ``text`` prints, a k/M suffix applied ("~420k" is 420,000)."""
    return figure_values(text)


def sides(sentence: str, value: float | None, gain: bool = False) -> tuple[str, str]:
    """(subject side, compared side) of a sentence: split at its first comparison
    word (:data:`_COMPARE`); the side that holds the claimed ``value`` is the
    subject's (the left one when neither does), except for a ``gain`` (a multiplier
    or percentage: "X outperforms Y by 8%", "X is 2x faster than Y"), which is the
    left side's; a sentence that opens with the comparison ("Compared to Y, X...")
    has Y up to its first comma. ("sentence", "") when none."""
    m = _COMPARE.search(sentence)
    if not m:
        return sentence, ""
    left, right = sentence[: m.start()], sentence[m.end() :]
    opening = _WITH.search(left) if m.group() in _AFTER_WORDS else None
    if opening:  # "与 Y 相比, X ...": Y is between 与 and 相比
        return left[: opening.start()] + right, left[opening.start() :]
    if not re.search(r"\w", left):  # "Compared to Y, X is 2x faster"
        comma = re.search(r"[,，]", right)
        if comma:
            return right[comma.end() :], right[: comma.start()]
    if gain:  # "X outperforms Y by up to 8%": the gain is the left side's
        return left, right
    if value is not None and value not in _numbers(left) and value in _numbers(right):
        return right, left
    return left, right


def _best(mentions: Sequence[Mention], side: str, value: float | None) -> Mention | None:
    """The mention a side is about: the one nearest the claimed ``value`` in the side
    (the last one when the value is not there), preferring one that states a count
    among mentions of the same family."""
    if not mentions:
        return None
    at = _position(side, value)
    if at is None:
        near = mentions[-1]
    else:
        near = min(mentions, key=lambda m: min(abs(m.start - at), abs(m.end - at)))
    if near.count is None:
        same = [m for m in mentions if m.family == near.family and m.count is not None]
        if len({m.count for m in same}) == 1:
            return same[0]
    return near


def _position(text: str, value: float | None) -> int | None:
    """Where the first figure equal to ``value`` starts in ``text`` (a k/M suffix
    applied: "~420k tokens/s" is 420,000's), None when absent."""
    m = figure_at(text, value)
    return m.start() if m else None


@functools.lru_cache(maxsize=8)  # asked per claim of the same title and page text
def _only_family(text: str, vendor: str = "") -> str:
    """The one family ``text`` names; of a ``vendor`` that makes accelerators, the one
    family of its own it names (an Intel page titled "...vs NVIDIA's Hopper" is not
    about Hopper)."""
    names = {m.family for m in find_mentions(text)}
    if any(makes(vendor, n) is not None for n in names):
        names = {n for n in names if makes(vendor, n)}
    return names.pop() if len(names) == 1 else ""


def _near_count(side: str, value: float | None, mention: Mention) -> int | None:
    """A bare count ("1,152 GPUs") nearer the claimed ``value`` than ``mention``
    ("...in 5.2 minutes with 512 Blackwell Ultra GPUs and FLUX.1 in 12.5 minutes with
    1,152 GPUs": 1,152 is FLUX.1's), else None; 0 when that count is a bound ("with
    more than 1,000 GPUs": another system, of no known size)."""
    at = _position(side, value)
    if at is None:
        return None
    gap = min(abs(mention.start - at), abs(mention.end - at))
    for m in _BARE_COUNT.finditer(side):
        n = int(m.group(1).replace(",", "") or 0)
        if abs(m.start() - at) < gap and 0 < n < 10**6 and n != mention.count:
            return 0 if bound_before(side, m.start()) else n
    return None


#: A figure another claim could be about: a time, a multiplier or a percentage.
_CLAIM_FIGURE = re.compile(
    r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*(?:minutes?|mins?|seconds?|hours?|x|×|%|倍"
    r"|分钟|分鐘|秒|小时|小時)(?![A-Za-z])",
    re.I,
)


def _bare_count(text: str, value: float | None = None) -> int | None:
    """The count ``text`` states bare ("1,152 GPUs"); of several, the one in the
    clause of the claimed ``value`` ("...10.2 minutes with up to 64 MI355X GPUs and
    Stable Diffusion in 31.4 minutes with 256 GPUs": 256 is not 10.2's), else None;
    None too for a count that is a bound ("more than 3,000 GPUs": no size to pin)."""
    m = _BARE_COUNT.search(text)
    where = text
    if m and value is not None:
        count = float(m.group(1).replace(",", "") or 0)
        others = {
            float(f.group(1).replace(",", ""))
            for f in _CLAIM_FIGURE.finditer(clause_of(text, count))
        } - {count, value}
        if len(_BARE_COUNT.findall(text)) > 1 or others:
            # the count's clause holds another claim's figure: this figure's clause only
            where = clause_of(text, value)
            m = _BARE_COUNT.search(where)
    if m and bound_before(where, m.start()):
        return None
    n = m.group(1).replace(",", "") if m else ""
    return int(n) if n.isdigit() and 0 < int(n) < 10**6 else None


_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|\n+")


def _carried(c: ClaimFacts, sentence: str, page: PageContext) -> str:
    """The family the last sentence before ``sentence`` that names one names first,
    when it is not the family the parser carried from an earlier sentence: the parser
    reads only the names it knows ("CoreWeave used 3,584 Nvidia HGX-H100s..." carried
    Gaudi2 over from the sentence before); "" otherwise (a system that is no family
    stands)."""
    carried = family_of(c.system)
    at = page.text.find(sentence[:60]) if sentence else -1
    if not carried or at <= 0:
        return ""
    for earlier in reversed(_SENTENCE_END.split(page.text[max(0, at - 3000) : at])):
        found = find_mentions(earlier)
        if found:
            return found[0].family if found[0].family != carried else ""
    return ""


def _other_count(c: ClaimFacts, mention: Mention) -> int | None:
    """A scale claim's count when it is not ``mention``'s (another count is another
    system: "up to 512 Blackwell Ultra GPUs and FLUX.1 ... with 1,152 GPUs": not 1,152),
    else None: 512 itself is the bounded count of Blackwell Ultra, whose results alone
    it speaks of (not another generation's on as many)."""
    bound = mention.bounded and mention.limit != int(c.value or 0)
    other = bound or mention.count not in (None, c.value)
    return int(c.value or 0) if other else None


def _subject(
    c: ClaimFacts, side: str, page: PageContext, sentence: str = ""
) -> tuple[dict[str, object], list[str]]:
    """Subject fields (system, accelerators, submitter) and the context tags."""
    out: dict[str, object] = {}
    ctx: list[str] = []
    mentions = find_mentions(side)
    own = find_mentions(c.system) if c.system else []
    implied = len(own) == 1 and own[0].count is not None  # IPU-POD16 states its size
    if (c.baseline and not c.compared_system) or (c.system and not family_of(c.system)):
        # a gain over the same system's earlier rounds (not another product's), or a
        # system the parser read by its name: the parser's subject stands
        mentions = []
    elif c.system and c.system in side:
        # the parser reads clauses: its family stands, with the count beside it
        mentions = [m for m in mentions if m.text == c.system]
    mention = _best(mentions, side, c.value)
    if mention is not None:
        # The family nearest the claimed figure on its side of the sentence, over
        # the parser's (which reads the first system of the sentence).
        same = family_of(c.system) == mention.family
        out["system"] = c.system if same and not mention.count else mention.text
        if mention.count is not None:  # the count beside the figure, not the first
            out["accelerators"] = mention.count
            ctx.append("accelerators-sentence")
        elif not same:
            out["accelerators"] = None
        near = (
            _other_count(c, mention) if c.kind == "scale" else _near_count(side, c.value, mention)
        )
        if near is not None:  # "...and FLUX.1 in 12.5 minutes with 1,152 GPUs"
            out |= {"system": "", "accelerators": near or None}
            ctx.append("accelerators-sentence")
            mention = None
    elif "system" in c.context and c.system:
        carried = _carried(c, sentence, page)
        if carried:
            out["system"] = carried
            ctx.append("system-previous-sentence")
    elif not c.system:
        # the sentence's one family ("...(codenamed Ice Lake) by"), the title's, the page's
        for where, text in (("sentence", sentence), ("title", page.title), ("page", page.text)):
            fam = _only_family(text, c.submitter or page.vendor)
            if fam and fam != family_of(c.compared_system):  # not the product compared with
                out["system"] = fam
                ctx.append(f"system-{where}")
                break
    if c.accelerators is None and "accelerators" not in out and not implied:
        n = _bare_count(side, c.value)
        if n is not None:
            out["accelerators"] = n
            ctx.append("accelerators-sentence")
    out |= words.subject_submitter(c, side, sentence, page.vendor, mention is None)
    we = bool(out.get("submitter")) and words.first_person(side)
    ctx += ["submitter-we"] if we else []
    ctx += ["submitter-page"] if out.get("submitter") and not we else []
    return out, ctx


def _compared(c: ClaimFacts, side: str, subject: str) -> tuple[dict[str, object], list[str]]:
    """Compared-side fields (compared_system, compared_accelerators) and tags."""
    out: dict[str, object] = {}
    if not side or (c.baseline and not c.compared_system):  # a gain over earlier rounds
        return out, []
    mentions = [] if c.compared_system and not family_of(c.compared_system) else find_mentions(side)
    mention = _best(mentions, side, c.compared_value)
    if mention is not None:
        same = family_of(c.compared_system) == mention.family
        out["compared_system"] = c.compared_system if same and not mention.count else mention.text
        count = mention.count
        if count is None:  # "than the prior Blackwell-based submission with 2,496 GPUs"
            count = _bare_count(side)
        if count is not None:
            out["compared_accelerators"] = count
        return out, []
    if not c.compared_system and _PREVIOUS.search(side):
        prev = PREVIOUS.get(family_of(subject) or subject, "")
        if prev:
            return {"compared_system": prev}, ["compared-previous"]
    if c.compared_accelerators is None and c.compared_system:
        n = _bare_count(side)
        if n is not None:
            out["compared_accelerators"] = n
    return out, []


_YEAR = re.compile(r"last year|a year (?:ago|earlier|before)|year-ago|year-old|一年前|去年", re.I)
_OWN = re.compile(r"自己|our own|我们提交|我們提交", re.I)
_SCOPES = (
    ("single-node", re.compile(r"单机|單機|single[- ]node", re.I)),
    ("multi-node", re.compile(r"集群|叢集|multi[- ]node|at scale", re.I)),
)


def best_baseline(
    c: ClaimFacts, sentence: str, system: str | None = None, compared: str | None = None
) -> str:
    """The baseline of a gain measured from the best result of an earlier round:
    ``best:<round>`` (``best:v1.0``, the round the sentence names),
    ``best:year-earlier`` ("last year") or ``best:previous-round``, with
    ``:single-node`` / ``:multi-node`` when the sentence says which ("单机", "集群");
    "" when the sentence measures it from no best result, or names the other side.
    A submitter's gain over a named round with no system named ("微软云...训练速度
    相较V1.0提升58%") is over that round's best too: no system of its own is there
    to measure it from. ``system``: the subject as resolved (default ``c.system``);
    ``compared``: the compared side of the sentence (:func:`sides`), where the best
    result must be named ("a new record time ... 45% over a similar prior submission"
    is not over a record; default: the whole sentence)."""
    system = c.system if system is None else system
    implied = (
        not system
        and bool(c.submitter)
        and c.baseline.startswith("v")
        and not _OWN.search(sentence)  # "与我们自己提交的 MLPerf v0.7 相比": its own results
    )
    named = BEST.search(sentence if compared is None else compared)
    if c.kind not in GAINS or c.compared_system or not (implied or named):
        return ""
    if c.baseline.startswith("v"):
        where = c.baseline
    else:
        where = "year-earlier" if _YEAR.search(sentence) else "previous-round"
    scope = next((name for name, pat in _SCOPES if pat.search(sentence)), "")
    return ":".join(x for x in ("best", where, scope) if x)


def _other_product(c: ClaimFacts, subject_side: str, compared_side: str) -> bool:
    """Whether a gain the parser measured from an earlier round (``previous-round``,
    ``first-submission``) compares two products instead: each side of the sentence
    names a family, and not the same one."""
    if c.kind not in GAINS or c.baseline not in ("previous-round", "first-submission"):
        return False
    if c.value is None or c.value not in _numbers(subject_side):
        return False  # "...on the IPU-POD16, vs 29.1 min for DGX A100 - 24% since our first"
    mine = {m.family for m in find_mentions(subject_side)}
    other = {m.family for m in find_mentions(compared_side)}
    return bool(mine and other and not mine & other)


def year_earlier(rnd: str, rounds: Mapping[str, date]) -> str:
    """The round of ``rounds`` (round -> publication date) published nearest a year
    before ``rnd`` ("its year-old 512-GPU H100 systems", "last year"); "" if none."""
    if rnd not in rounds:
        return ""
    target = rounds[rnd] - timedelta(days=365)
    before = [r for r, d in rounds.items() if d < rounds[rnd]]
    return min(before, key=lambda r: abs(rounds[r] - target), default="")


def _paired(sentence: str) -> tuple[str, int | None, int | None]:
    """The sentence with a pair of counts ("384 vs 512 accelerators") blanked out (so
    that its "vs" splits no sides), and the two counts (None when there is none)."""
    m = _PAIRED_COUNTS.search(sentence)
    if not m:
        return sentence, None, None
    a, b = (int(g.replace(",", "")) for g in m.groups())
    blank = sentence[: m.start()] + " " * (m.end() - m.start()) + sentence[m.end() :]
    return blank, a, b


def _sides_fields(
    c: ClaimFacts, sentence: str, page: PageContext, rounds: Mapping[str, date]
) -> tuple[dict[str, object], list[str], str]:
    """Subject and compared-side fields and tags, and the subject's side of the
    sentence."""
    # a scale claim's figure is a count: the side holding it is its subject
    text, n_subject, n_compared = _paired(sentence) if c.kind != "scale" else (sentence, None, None)
    subject_side, compared_side = sides(text, c.value, gain=c.kind in GAINS)
    pre: dict[str, object] = words.earlier_product(c, subject_side, compared_side, rounds)
    if pre:
        c = replace(c, **pre)  # type: ignore[arg-type]
    elif _other_product(c, subject_side, compared_side):
        # "H200 ... up to 47% over the H100": another product, not an earlier round
        c = replace(c, baseline="")
        pre = {"baseline": ""}
    fields, ctx = _subject(c, subject_side, page, sentence)
    fields = pre | fields
    subject = str(fields.get("system", c.system))
    more, ctx2 = _compared(c, compared_side, subject)
    fields |= more
    other = str(fields.get("compared_system", c.compared_system))
    taken = {"system-title", "system-page"} & set(ctx)
    if taken and family_of(subject) and family_of(subject) == family_of(other):
        # the one product the page names is the one compared with, not the subject
        fields["system"] = ""
        ctx = [t for t in ctx if t not in taken]
    if words.compared_only(c, sentence, subject_side, compared_side) and "system" not in fields:
        # "对比A100,跨代提升...1.8倍": A100 is the baseline, not the subject
        fields |= {"system": "", "baseline": "", "accelerators": None}
        fields["compared_system"] = fields.get("compared_system") or c.system
        ctx2.append("system-compared-side")
    ctx += ctx2 + (["compared-product"] if pre and "compared_system" not in pre else [])
    if pre.get("compared_system"):
        ctx.append("compared-earlier-product")
        who = str(fields.get("submitter", c.submitter))
        if not who and page.vendor:  # the page's vendor's own results are one reading
            fields["submitter"] = who = page.vendor
            ctx.append("submitter-page")
        own = who and re.search(rf"(?<![A-Za-z]){re.escape(who)}[’']s(?![A-Za-z])", subject_side)
        if own or words.first_person(subject_side):
            ctx.append("subject-own-results")  # "Intel's MLPerf 1.1 results": its own
    if n_subject is not None and c.accelerators is None:
        fields["accelerators"] = n_subject
        if fields.get("compared_system", c.compared_system):
            fields["compared_accelerators"] = n_compared
        ctx.append("accelerators-paired")
    fields, ctx = words.frame_words(c, fields, ctx, subject_side, compared_side)
    ctx += same_hardware.tags(c, subject_side, compared_side, page.vendor)
    best = best_baseline(
        replace(c, submitter=str(fields.get("submitter", c.submitter))),
        sentence,
        str(fields.get("system", c.system)),
        compared_side,
    )
    if best:
        fields["baseline"] = best
        ctx.append("baseline-best")
    return fields, ctx, subject_side


def resolve_claim(
    c: ClaimFacts, sentence: str, page: PageContext, rounds: Mapping[str, date]
) -> ClaimFacts:
    """``c`` with what its ``sentence`` and ``page`` say about its subject and
    baseline filled in: the accelerator family and count of each side (:func:`sides`;
    counts paired as "at 384 vs 512 accelerators"), a "previous product" named by its
    family (:data:`subjects.PREVIOUS`), a gain over an earlier round's best result
    (:func:`best_baseline`), the submitter (the page's vendor), the benchmark and the
    round (``rounds``: the claim's suite's round -> publication date) as the
    sentence, else the title, else the page names them.
    What the parser found is kept; ``context`` tags what came from where (module
    docstring of :mod:`benchdb.claims.subjects`). Never raises on text."""
    fields, ctx, subject_side = _sides_fields(c, sentence, page, rounds)
    opening = re.split(r"[,，]", sentence, maxsplit=1)[0]  # "On a per-chip basis, ..."
    own = clause_of(sentence, c.value) + (" " + opening if not re.search(r"\d", opening) else "")
    if not c.per_accelerator and words.per_accelerator(own):
        fields["per_accelerator"] = True  # "每卡性能提升1.3倍": a derived, per-GPU figure
        ctx.append("per-accelerator-words")
    benchmark_fields(c, sentence, page, fields, ctx)
    round_fields(c, sentence, subject_side, page, rounds, fields, ctx)
    rnd = str(fields.get("round", c.round))
    if c.kind == "time" and c.baseline == "previous-round" and rnd in rounds:
        # the "from" side of "from 311.94 minutes ... down to 153.58": the round before
        earlier = [r for r in rounds if rounds[r] < rounds[rnd]]
        if earlier:
            fields["round"] = rnd = max(earlier, key=lambda r: rounds[r])
            ctx.append("round-before")
    carried_benchmark_fields(c, sentence, page, rnd, fields, ctx)
    if fields.get("baseline", c.baseline) == "previous-round" and _YEAR.search(sentence):
        older = year_earlier(rnd, rounds)
        if older:
            fields["baseline"] = older
            ctx.append("baseline-year")
    if not fields and not ctx:
        return c
    return replace(c, **fields, context=c.context + tuple(t for t in ctx if t))  # type: ignore[arg-type]

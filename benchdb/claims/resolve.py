"""A claim's subject and baseline resolved from its sentence and its page, as vendors
phrase them ("311.9 min on 384 Gaudi2 accelerators vs 64.3 min on 512 H100", "up to
2.8X vs the previous product on BERT-Large", "in the November 2023 update"). Pure: no
Django. The names it reads (families, rounds and benchmarks in words) are
:mod:`benchdb.claims.subjects`'.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from benchdb.claims.facts import ClaimFacts
from benchdb.claims.subjects import (
    PREVIOUS,
    Mention,
    benchmarks_named,
    family_of,
    find_mentions,
    rounds_named,
)


@dataclass(frozen=True)
class PageContext:
    """What a claim may take from its page: ``title``, ``text`` (the cleaned text),
    ``published`` (None when unknown) and ``vendor`` (as stored: ``Intel``)."""

    title: str = ""
    text: str = ""
    published: date | None = None
    vendor: str = ""


#: Words that put what follows on the compared side of a sentence.
_COMPARE = re.compile(
    r"(?<![A-Za-z])(?:vs\.?|versus|compared (?:to|with)|than|whereas|while|against|over"
    r"|relative to)(?![A-Za-z])|相比|相较|相較|对比|對比|而",
    re.I,
)
_PREVIOUS = re.compile(r"previous[- ](?:product|generation|gen)|predecessor|上一代|上代", re.I)
_BARE_COUNT = re.compile(
    r"(?<![\d.])(\d[\d,]*)\s*(?:accelerators|GPUs|chips|cards|HPUs|IPUs|TPUs|个|個|张|張|颗|顆)",
    re.I,
)
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _numbers(text: str) -> set[float]:
    out = set()
    for m in _NUMBER.finditer(text):
        try:
            out.add(float(m.group().replace(",", "")))
        except ValueError:
            continue
    return out


def sides(sentence: str, value: float | None) -> tuple[str, str]:
    """(subject side, compared side) of a sentence: split at its first comparison
    word (:data:`_COMPARE`); the side that holds the claimed ``value`` is the
    subject's (the left one when neither does). ("sentence", "") when none."""
    m = _COMPARE.search(sentence)
    if not m:
        return sentence, ""
    left, right = sentence[: m.start()], sentence[m.end() :]
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
    if value is None:
        return None
    for m in _NUMBER.finditer(text):
        try:
            if float(m.group().replace(",", "")) == value:
                return m.start()
        except ValueError:
            continue
    return None


def _only_family(text: str) -> str:
    names = {m.family for m in find_mentions(text)}
    return names.pop() if len(names) == 1 else ""


def _bare_count(text: str) -> int | None:
    m = _BARE_COUNT.search(text)
    n = m.group(1).replace(",", "") if m else ""
    return int(n) if n.isdigit() and 0 < int(n) < 10**6 else None


def _subject(c: ClaimFacts, side: str, page: PageContext) -> tuple[dict[str, object], list[str]]:
    """Subject fields (system, accelerators, submitter) and the context tags."""
    out: dict[str, object] = {}
    ctx: list[str] = []
    mentions = find_mentions(side)
    own = find_mentions(c.system) if c.system else []
    implied = len(own) == 1 and own[0].count is not None  # IPU-POD16 states its size
    if c.baseline or (c.system and not family_of(c.system)):
        # a gain over the same system's earlier rounds, or a system the parser read
        # by its name: the parser's subject stands
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
    elif not c.system:
        for where, text in (("title", page.title), ("page", page.text)):
            fam = _only_family(text)
            if fam:
                out["system"] = fam
                ctx.append(f"system-{where}")
                break
    if c.accelerators is None and "accelerators" not in out and not implied:
        n = _bare_count(side)
        if n is not None:
            out["accelerators"] = n
            ctx.append("accelerators-sentence")
    if not c.submitter and page.vendor and mention is None:
        out["submitter"] = page.vendor
        ctx.append("submitter-page")
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
        if mention.count is not None:
            out["compared_accelerators"] = mention.count
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


def _from_page(key: str, named: list[str], title: list[str], page: list[str]) -> tuple[str, str]:
    """(value, context tag) of a benchmark or round: the sentence's first, else the
    title's first, else the page's when it names exactly one."""
    if named:
        return named[0], ""
    if title:
        return title[0], f"{key}-title"
    if len(page) == 1:
        return page[0], f"{key}-page"
    return "", ""


def resolve_claim(
    c: ClaimFacts, sentence: str, page: PageContext, rounds: Mapping[str, date]
) -> ClaimFacts:
    """``c`` with what its ``sentence`` and ``page`` say about its subject and
    baseline filled in: the accelerator family and count of each side (the side that
    holds the claimed value is the subject's, :func:`sides`), a "previous product"
    named by its family (:data:`subjects.PREVIOUS`), the submitter (the page's
    vendor), the benchmark and the round (``rounds``: the claim's suite's round ->
    publication date) as the sentence, else the title, else the page names them.
    What the parser found is kept; ``context`` tags what came from where (module
    docstring of :mod:`benchdb.claims.subjects`). Never raises on text."""
    subject_side, compared_side = sides(sentence, c.value)
    fields, ctx = _subject(c, subject_side, page)
    subject = str(fields.get("system", c.system))
    more, ctx2 = _compared(c, compared_side, subject)
    fields |= more
    ctx += ctx2
    if not c.benchmark_key and (c.suite or "training") == "training":  # its vocabulary
        key, tag = _from_page(
            "benchmark",
            benchmarks_named(sentence),
            benchmarks_named(page.title),
            benchmarks_named(page.text),
        )
        if key:
            fields["benchmark_key"] = key
            ctx += [tag] if tag else []
    suite = c.suite or "training"
    named = [r for r in rounds_named(subject_side, suite, rounds) if r != c.baseline]
    if named and c.round and "round" in c.context and named[0] != c.round:
        # a round carried from an earlier sentence yields to the one this one names
        fields["round"] = named[0]
        ctx.append("round-words")
    elif not c.round:
        rnd, tag = _from_page(
            "round",
            named,
            rounds_named(page.title, suite, rounds),
            rounds_named(page.text, suite, rounds),
        )
        if rnd:
            fields["round"] = rnd
            ctx.append(tag or "round-words")
    if not fields:
        return c
    return replace(c, **fields, context=c.context + tuple(t for t in ctx if t))  # type: ignore[arg-type]

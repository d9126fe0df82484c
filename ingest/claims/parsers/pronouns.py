"""A gain whose subject is a plural pronoun ("它们的表现相差不到2%", "They were within 2%
of each other") compares the two parties the sentence before names as a pair ("Eos和Azure
在各自的提交中都采用了10,752个H100", "Google and Intel each submitted on 256 chips").
Pure: no Django.
"""

from __future__ import annotations

import re

from .context import SentenceContext
from .quantities import find_quantities
from .sentences import Mention, Sentence
from .types import Quantity, to_count

#: A plural pronoun opening the sentence: the pair is its subject.
PLURAL_PRONOUN = re.compile(
    r"\s*(?:它们|他们|它們|他們|两者|二者|兩者|双方|雙方"
    r"|(?i:they|their|the\s+two(?:\s+systems|\s+results)?|both(?:\s+systems|\s+results)?)(?![a-z]))"
)
#: What joins the pair's two names ("Eos和Azure", "Google and Intel").
_AND = re.compile(r"\s*(?:和|与|與|跟|同|及|(?i:and|&))\s*")
#: The count applies to each side ("各自", "都", "each", "both").
_EACH = re.compile(r"各自|分别|分別|都|均|(?i:\beach\b|\bboth\b|respective)")


def pronoun_pair(ctx: SentenceContext, q: Quantity) -> dict[str, object]:
    """The fields of a gain ``q`` whose sentence opens with a plural pronoun naming the
    two parties of the sentence before (same paragraph): ``system`` (and ``submitter``)
    for the first, ``compared_system`` (and ``compared_submitter``) for the second. A
    party named by its company only is read on the product the sentence before names
    ("Azure ... H100": Azure's H100 result); a count that sentence gives each side
    ("各自都采用了10,752个H100") is both sides' ``accelerators``. {} when the sentence
    opens otherwise or the sentence before names no such pair (two names joined by
    "和"/"and" as its subject, each a system or a submitter, the product needed named)."""
    head = ctx.t[ctx.s.start : q.start]
    if ctx.i == 0 or not PLURAL_PRONOUN.match(head):
        return {}
    prev = ctx.all[ctx.i - 1]
    if prev.paragraph != ctx.s.paragraph:
        return {}
    pair = _pair(ctx.t, prev)
    if pair is None:
        return {}
    products = [m for m in prev.mentions if m.kind == "system" and m.start >= pair[1].end]
    out: dict[str, object] = {"baseline": ""}
    for side, m in (("", pair[0]), ("compared_", pair[1])):
        if m.kind == "system":
            out[side + "system"] = m.text
        elif products:
            out |= {side + "system": products[0].text, side + "submitter": m.key}
        else:
            return {}
    counts = [
        x
        for x in find_quantities(ctx.t, prev)
        if x.kind == "scale" and x.unit not in ("node", "system")
    ]
    text = ctx.t[prev.start : prev.end]
    if len(counts) == 1 and _EACH.search(text):
        n = to_count(counts[0].value)
        out |= {"accelerators": n, "compared_accelerators": n}
    return out


#: A name the vocabulary does not know, as a party: a capitalised Latin word ("Eos").
_NAME = re.compile(r"[A-Z][A-Za-z0-9.+-]*(?![A-Za-z0-9])")


def _party(t: str, at: int, mentions: list[Mention]) -> Mention | None:
    """The system or submitter named at offset ``at`` of ``t``: a mention starting there,
    else a capitalised word (a system the vocabulary does not know: a cluster's name)."""
    m = next((m for m in mentions if m.start == at and m.kind in ("system", "submitter")), None)
    if m is not None:
        return m
    w = _NAME.match(t, at)
    return Mention("system", at, w.end(), w.group(), w.group().lower()) if w else None


def _pair(t: str, prev: Sentence) -> tuple[Mention, Mention] | None:
    """The two parties a sentence opens with, joined by "和"/"and" ("Eos和Azure在...",
    "Google and Intel each ..."); None when it opens otherwise."""
    at = prev.start + len(t[prev.start : prev.end]) - len(t[prev.start : prev.end].lstrip())
    a = _party(t, at, prev.mentions)
    if a is None:
        return None
    join = _AND.match(t, a.end)
    b = _party(t, join.end(), prev.mentions) if join else None
    if b is None or b.key == a.key or b.end > prev.end:
        return None
    return a, b

"""Claim families: the same claim made again, in another sentence, on another page, in
another language, is one family, with its first publication and every repetition.
Pure: no Django; computed when read (nothing stored).

Two claims are the same claim when they have the same subject (system, the system
compared against, benchmark; else the framework or submitter; else the page's
vendor with no subject named), the same quantity (kind and unit; times in minutes,
seconds and hours are one quantity) and the same value within rounding: equal once
both are rounded to the coarser of their printed precisions (IBM's "46x" and
"45.9x" are one value, "28.3 min" and "28.33 min" too; "24%" and "41%" are not),
and for a comparison the same value on the other side. A claim that names no
system joins the one family of its page that makes the same claim naming one
("GPT-3 ... 153.58 min" in a table row under "Gaudi 2 ... 153.58 min"). A family's first
publication is its earliest-dated page (undated pages last), then the earliest
claim on that page.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from benchdb.claims import explain

#: Time units -> minutes (``benchdb.claims.facts.to_unit``'s table).
_MINUTES = {"min": 1.0, "s": 1 / 60.0, "h": 60.0}


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", (s or "").lower())


def _decimals(value: float) -> int:
    """Decimal places a value is printed with (``28.3`` -> 1, ``46`` -> 0)."""
    text = f"{value:.10g}"
    return len(text.split(".")[1]) if "." in text and "e" not in text else 0


def same_value(a: float | None, b: float | None) -> bool:
    """Whether two printed figures are one value within rounding: equal once both are
    rounded to the coarser precision of the two (46 and 45.9: 46 = 46). None equals
    only None."""
    if a is None or b is None:
        return a is None and b is None
    if not (math.isfinite(a) and math.isfinite(b)):
        return False
    digits = min(_decimals(a), _decimals(b))
    return round(a, digits) == round(b, digits)


@dataclass(frozen=True)
class Member:
    """One claim of a family: ``claim`` (id), ``page`` (id) and the page's ``source``,
    ``published`` date, ``language``, ``sentence`` and ``verdict``."""

    claim: Any
    page: Any
    source: str
    published: date | None
    language: str
    sentence: str
    verdict: str
    position: int
    value: float | None = None
    compared_value: float | None = None
    shown: str = ""


@dataclass
class Family:
    """A claim and its repetitions: ``subject`` (words), ``quantity`` (kind and unit),
    ``value`` and ``compared_value`` as first published (in ``unit``), ``members`` in
    publication order (the first is the first publication)."""

    parts: tuple[str, str, str, str]
    subject: str
    kind: str
    unit: str
    value: float | None
    compared_value: float | None
    qualifier: str
    members: list[Member] = field(default_factory=list)

    @property
    def first(self) -> Member:
        return self.members[0]

    @property
    def pages(self) -> list[str]:
        """The sources of the pages that make the claim, first publication first."""
        return list(dict.fromkeys(m.source for m in self.members))

    @property
    def languages(self) -> list[str]:
        return list(dict.fromkeys(m.language for m in self.members if m.language))


def _subject(c: Mapping[str, Any]) -> tuple[tuple[str, str, str, str], str]:
    """What a claim is about (module docstring): ``(system, compared system, words,
    benchmark)`` normalized, and in words."""
    ex = c.get("extracted") or {}
    system, other = c.get("system") or "", c.get("compared_system") or ""
    bench = c.get("benchmark_key") or ex.get("benchmark_key") or ""
    words = " vs ".join(x for x in (system, other) if x)
    if not (system or other):
        words = ex.get("framework") or ex.get("submitter") or ""
    parts = (_norm(system), _norm(other), _norm(words) if not system else "", bench)
    if not (words or bench):
        vendor = c.get("vendor") or ""
        return parts, f"{vendor or 'unknown vendor'} (no subject named)"
    return parts, f"{words} on {bench}" if words and bench else words or bench


def _covers(named: Family, partial: Family, page: Any) -> bool:
    """Whether a claim of ``partial`` (naming no system) on ``page`` can be ``named``'s
    claim made again there: same quantity and value, a system on ``named``'s side, no
    other benchmark named, and ``named`` made on that page."""
    (s1, _, _, b1), b2 = named.parts, partial.parts[3]
    return (
        bool(s1)
        and b2 in ("", b1)
        and (named.kind, named.unit) == (partial.kind, partial.unit)
        and _same(named.value, partial.value, named.unit)
        and _same(named.compared_value, partial.compared_value, named.unit)
        and any(m.page == page for m in named.members)
    )


def _fold_partial(families: list[Family]) -> list[Family]:
    """Each claim naming no system joined to the one family of its page whose claim
    names its system (:func:`_covers`); left where it was when none or several could
    be meant."""
    named = [f for f in families if f.parts[0] or f.parts[1]]
    out = list(named)
    for f in families:
        if f.parts[0] or f.parts[1]:
            continue
        kept = []
        for m in f.members:
            fits = [g for g in named if _covers(g, f, m.page)]
            if len(fits) == 1:
                fits[0].members.append(m)
            else:
                kept.append(m)
        if kept:
            f.members = kept
            out.append(f)
    return out


def _in_unit(c: Mapping[str, Any]) -> tuple[str, float | None, float | None]:
    """The claim's unit and values, times in minutes."""
    unit = c.get("unit") or ""
    value, other = c.get("value"), c.get("compared_value")
    if unit in _MINUTES:
        f = _MINUTES[unit]
        return "min", None if value is None else value * f, None if other is None else other * f
    return unit, value, other


def _order(m: Member) -> tuple[Any, ...]:
    return (m.published is None, m.published or date.min, str(m.page), m.position)


def claim_families(claims: Iterable[Mapping[str, Any]]) -> list[Family]:
    """Group claims into families (module docstring).

    ``claims``: rows of ``benchdb.claims/1`` (``id``, ``kind``, ``value``, ``unit``,
    ``qualifier``, ``compared_value``, ``system``, ``compared_system``,
    ``sentence``, ``verdict``) with ``extracted``, ``benchmark_key``, ``page_id``,
    ``page`` (source), ``published`` (date or None), ``language``, ``vendor`` and
    ``position``. Claims without a value are left out. Returns families in the order
    of their first publication; each family's members in publication order.
    """
    groups: dict[tuple[str, str, str], list[Family]] = {}
    for c in claims:
        if c.get("value") is None:
            continue
        parts, words = _subject(c)
        skey = "|".join(parts) if any(parts) else f"vendor:{_norm(c.get('vendor') or '')}"
        unit, value, other = _in_unit(c)
        kind = c.get("kind") or ""
        member = Member(
            c.get("id"),
            c.get("page_id"),
            c.get("page") or "",
            c.get("published"),
            c.get("language") or "",
            c.get("sentence") or "",
            c.get("verdict") or "",
            c.get("position") or 0,
            value,
            other,
            explain.claimed_text(c),
        )
        bucket = groups.setdefault((skey, kind, unit), [])
        fam = next(
            (
                f
                for f in bucket
                if _same(f.value, value, unit) and _same(f.compared_value, other, unit)
            ),
            None,
        )
        if fam is None:
            fam = Family(parts, words, kind, unit, value, other, c.get("qualifier") or "")
            bucket.append(fam)
        fam.members.append(member)
    out = _fold_partial([f for bucket in groups.values() for f in bucket])
    for f in out:
        f.members.sort(key=_order)
        f.value, f.compared_value = f.first.value, f.first.compared_value
    return sorted(out, key=lambda f: _order(f.first))


def _same(a: float | None, b: float | None, unit: str) -> bool:
    """:func:`same_value`, but for times (converted to minutes) within 1%."""
    if unit == "min" and a is not None and b is not None:
        return same_value(a, b) or abs(a - b) <= 0.01 * max(abs(a), abs(b))
    return same_value(a, b)


def family_row(f: Family, index: int) -> dict[str, Any]:
    """A family -> a row of ``benchdb.claim_families/1``: ``{"family": int (its place
    in first-publication order, from 1), "subject": str, "kind": str, "value": str
    (as first published, as people write it: "46x", "1.8 h"), "number": float | None,
    "unit": str (times in minutes), "claims": int, "pages": [source], "languages": [str],
    "first_seen": "YYYY-MM-DD" | None, "first_page": str, "first_claim": id,
    "first_sentence": str, "claim_ids": [id], "verdicts": [str]}``."""
    first = f.first
    return {
        "family": index,
        "subject": f.subject,
        "kind": f.kind,
        "value": first.shown,
        "number": f.value,
        "unit": f.unit,
        "claims": len(f.members),
        "pages": f.pages,
        "languages": f.languages,
        "first_seen": first.published.isoformat() if first.published else None,
        "first_page": first.source,
        "first_claim": first.claim,
        "first_sentence": first.sentence,
        "claim_ids": [m.claim for m in f.members],
        "verdicts": sorted({m.verdict for m in f.members}),
    }


def family_rows(families: Sequence[Family]) -> list[dict[str, Any]]:
    """Rows of ``benchdb.claim_families/1`` for families in order."""
    return [family_row(f, i) for i, f in enumerate(families, 1)]


def families_per_page(families: Iterable[Family]) -> dict[Any, int]:
    """Page id -> how many families its claims fall into (a claim repeated on one
    page counts once)."""
    out: dict[Any, set[int]] = {}
    for i, f in enumerate(families):
        for m in f.members:
            out.setdefault(m.page, set()).add(i)
    return {page: len(s) for page, s in out.items()}


def family_index(families: Sequence[Family]) -> dict[Any, dict[str, Any]]:
    """Claim id -> its family as the claims list shows it: ``{"number": int (the
    family's place in :func:`family_rows`, from 1), "claims": int (claims in it, on
    every page), "repetitions": int (claims - 1), "pages": int (pages making it),
    "first": claim id (its first publication), "first_seen": date | None}``. Claims of
    no family (no value) are not keys."""
    out: dict[Any, dict[str, Any]] = {}
    for i, f in enumerate(families, 1):
        entry = {
            "number": i,
            "claims": len(f.members),
            "repetitions": len(f.members) - 1,
            "pages": len(f.pages),
            "first": f.first.claim,
            "first_seen": f.first.published,
        }
        for m in f.members:
            out[m.claim] = entry
    return out


def representatives(ids: Iterable[Any], families: Sequence[Family]) -> set[Any]:
    """Of the claim ``ids`` (a filtered list), one per family: the family's earliest
    published member among them (its first publication when that is among them);
    claims of no family are all kept."""
    wanted = set(ids)
    out = set(wanted)
    for f in families:
        later = [m.claim for m in f.members if m.claim in wanted][1:]
        out.difference_update(later)
    return out

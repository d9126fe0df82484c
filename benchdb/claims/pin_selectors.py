"""Reads of the claim workbench's stored pins (issue 27): the pin in force for a claim
(its own, else one of its family's: a family is settled once), what became of the
pinned results (values now, by natural key), the queue of claims that still need a
person, and the pin columns of the claims export. Django ORM; the rules are
:mod:`benchdb.claims.pins` (pure) and :mod:`benchdb.claims.families`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from datetime import date
from typing import Any

from django.db.models import Q

from benchdb.claims import families, pins
from benchdb.claims.reports import claim_family_list
from benchdb.models import Claim, ClaimPin, InferenceResult, Result

#: Verdicts of claims that still need a person, and kinds no pin can settle (a
#: hardware figure; a count needs whole rounds).
OPEN_VERDICTS = ("ambiguous", "unverifiable")
UNSETTLEABLE_KINDS = ("spec", "count")


def claim_key_of(c: Claim) -> str:
    """:func:`benchdb.claims.pins.claim_key` of a stored claim (needs ``page``)."""
    return pins.claim_key(c.page.source, c.kind, c.unit, c.value, c.compared_value, c.sentence)


def pins_in_force(keys: Iterable[str]) -> dict[str, ClaimPin]:
    """Claim key -> its latest pin, for the ``keys`` that have one (one query)."""
    out: dict[str, ClaimPin] = {}
    qs = ClaimPin.objects.filter(claim_key__in=list(set(keys))).select_related("user")
    for p in qs.order_by("claim_key", "-created", "-pk"):
        out.setdefault(p.claim_key, p)
    return out


def claim_pin_get(c: Claim) -> tuple[ClaimPin | None, bool]:
    """(the pin in force for claim ``c``, whether it is ``c``'s own): its own latest pin,
    else the latest pin made on a claim of its family (``ClaimPin.family_keys``), else
    (None, False). One query."""
    key = claim_key_of(c)
    qs = ClaimPin.objects.filter(Q(claim_key=key) | Q(family_keys__contains=f"|{key}|"))
    found = list(qs.select_related("user").order_by("-created", "-pk")[:50])
    own = next((p for p in found if p.claim_key == key), None)
    if own is not None:
        return own, True
    return (found[0], False) if found else (None, False)


def family_keys_of(c: Claim) -> list[str]:
    """The claim keys of the other claims of ``c``'s family as it is now (four
    queries: the families, the members)."""
    fam = next((f for f in claim_family_list() if any(m.claim == c.pk for m in f.members)), None)
    if fam is None:
        return []
    others = Claim.objects.filter(pk__in=[m.claim for m in fam.members if m.claim != c.pk])
    return [claim_key_of(o) for o in others.select_related("page").only(*_KEY_FIELDS)]


def values_now(keys: Iterable[str]) -> dict[str, float | None]:
    """Result key -> its value now (training score in minutes, inference value), for
    the ``keys`` that name a scored training or HPC or valid inference result; one query per
    suite and round named."""
    wanted = set(keys)
    rounds: dict[tuple[str, str], set[str]] = {}
    for key in wanted:
        parts = key.split("/")
        if len(parts) >= 3:
            rounds.setdefault((parts[0], parts[1]), set()).add(key)
    out: dict[str, float | None] = {}
    for (suite, rnd), ks in rounds.items():
        for key, value in _round_values(suite, rnd):
            if key in ks:
                out[key] = value
    return out


def _round_values(suite: str, rnd: str) -> Iterator[tuple[str, float | None]]:
    if suite == "inference":
        rows = InferenceResult.objects.filter(
            round__suite="inference",  # Mobile's v4.0/v4.1/v5.0 share the versions
            round__version=rnd,
            status=InferenceResult.Status.VALID,
            value__isnull=False,
        ).values_list(
            "system__submitter_folder", "system__folder", "model_folder", "scenario_folder", "value"
        )
        for sub, system, model, scenario, value in rows:
            yield pins.key_of("inference", (rnd, sub, system, model, scenario)), value
        return
    qs = Result.objects.filter(
        round__suite=suite, round__version=rnd, status=Result.Status.SCORED
    ).values_list("system__submitter_folder", "system__folder", "benchmark_folder", "score_minutes")
    for sub, system, bench, score in qs:
        yield pins.key_of(suite, (suite, rnd, sub, system, bench)), score


def pin_row(p: ClaimPin | None, own: bool = True) -> dict[str, Any] | None:
    """A pin as pages and exports show it: ``settled_by`` (user name), ``settled_at``
    (ISO time), ``pins``, ``note``, ``verdict`` (when pinned), ``own`` (False: a pin of
    another claim of the family), ``claim`` (the claim it was made on), ``flags`` (its
    results changed or withdrawn: :func:`benchdb.claims.pins.pin_state`)."""
    if p is None:
        return None
    keys = [k for k in p.values]
    return {
        "settled_by": p.user.get_username(),
        "settled_at": p.created.isoformat(),
        "pins": dict(p.pins),
        "note": p.note,
        "verdict": p.verdict,
        "own": own,
        "claim": p.claim_id,
        "flags": pins.pin_state(p.values, values_now(keys)) if keys else [],
    }


def with_pin_columns(rows: Iterable[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """``benchdb.claims/1`` rows with ``settled_by``, ``settled_at`` and ``pins`` of the
    pin in force for each (its own; "" and {} when none): one query for the pins, and
    one per round the pins name for their state (``pin_flags``). ``pins`` is
    JSON text (the export's columns are scalars or arrays)."""
    table = [dict(r) for r in rows]
    keys = [
        pins.claim_key(
            r["page"], r["kind"], r["unit"], r["value"], r["compared_value"], r["sentence"]
        )
        for r in table
    ]
    found = pins_in_force(keys)
    now = values_now(k for p in found.values() for k in p.values)
    for row, key in zip(table, keys, strict=True):
        p = found.get(key)
        row["settled_by"] = p.user.get_username() if p else ""
        row["settled_at"] = p.created.isoformat() if p else ""
        row["pins"] = json.dumps(p.pins, sort_keys=True) if p else ""
        row["pin_flags"] = [f["flag"] for f in pins.pin_state(p.values, now)] if p else []
        yield row


def claim_queue(*, limit: int = 200) -> list[dict[str, Any]]:
    """Claims that still need a person (verdict ``ambiguous`` or ``unverifiable``, a
    kind a pin can settle), one entry per family, most-cited families first (claims in
    the family, then pages, then first publication): ``{"family": Family, "open":
    [Member] (its members that need a person), "members": [Member]}``. A family with a
    pin on any member is settled and left out. Queries: the families (two), claim
    keys of the open families' members (one), their pins (one). A family is settled by
    a pin on any member, made before or after the family grew."""
    fams = [
        f
        for f in claim_family_list()
        if f.kind not in UNSETTLEABLE_KINDS and any(m.verdict in OPEN_VERDICTS for m in f.members)
    ]
    ids = [m.claim for f in fams for m in f.members]
    claims = (
        Claim.objects.filter(pk__in=ids).select_related("page").defer("page__raw", "page__text")
    )
    key_of = {c.pk: claim_key_of(c) for c in claims.only(*_KEY_FIELDS)}
    pinned = set(pins_in_force(key_of.values()))
    entries = [
        (f, [m for m in f.members if m.verdict in OPEN_VERDICTS])
        for f in fams
        if not any(key_of.get(m.claim) in pinned for m in f.members)
    ]
    entries.sort(key=lambda e: (-len(e[0].members), -len(e[0].pages), _first_seen(e[0])))
    return [{"family": f, "open": o, "members": f.members} for f, o in entries[:limit]]


_KEY_FIELDS = (
    "pk",
    "kind",
    "unit",
    "value",
    "compared_value",
    "sentence",
    "page__url",
    "page__file_name",
)


def _first_seen(f: families.Family) -> tuple[Any, ...]:
    """A family's first publication as :func:`families.claim_families` orders them
    (undated last)."""
    m = f.first
    return (m.published is None, m.published or date.min, str(m.page), m.position)

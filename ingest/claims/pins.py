"""The claim workbench's reads and its one write (issue 27): result keys for the facts
claims are checked against, a search over them as the site's search box matches names
(``benchdb.mlperf.search.squeezed``), the workbench of a claim (automatic verdict,
candidates of each open slot, the verdict with pins: :mod:`benchdb.claims.pins`), pins
in the check API, and stored pins (:func:`claim_pin_set`, login needed).

Result keys are built once per data version in each process, beside the result facts
(``ingest.claims.facts.result_facts``): one query per suite.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from benchdb.claims import pins as P
from benchdb.claims.facts import ClaimFacts, ResultFacts, Verification, suite_of
from benchdb.claims.pin_selectors import claim_key_of, family_keys_of
from benchdb.mlperf.search import squeezed
from benchdb.models import Claim, ClaimPin, InferenceResult, Result, Round
from benchdb.models.data_version import data_version
from ingest import round_trees
from ingest.claims import facts as claim_facts

#: Results a search returns at most.
MAX_SEARCH = 30


class _Keys:
    """Every fact's result key at one data version: ``by_key`` key -> facts,
    ``of_pk`` (suite, pk) -> key, and each fact's searched text squeezed."""

    def __init__(self, facts: Sequence[ResultFacts]) -> None:
        names: dict[tuple[str, int], str] = {}
        # time-to-train suites (training, HPC: ``hpc/v1.0/<sub>/<system>/strong/cosmoflow``)
        timed = Result.objects.filter(
            round__suite__in=[Round.Suite.TRAINING, Round.Suite.HPC]
        ).values_list(
            "pk",
            "round__suite",
            "round__version",
            "system__submitter_folder",
            "system__folder",
            "benchmark_folder",
        )
        for pk, suite, rnd, sub, system, bench in timed:
            names[suite, pk] = P.key_of(suite, (suite, rnd, sub, system, bench))
        inference = InferenceResult.objects.values_list(
            "pk",
            "round__version",
            "system__submitter_folder",
            "system__folder",
            "model_folder",
            "scenario_folder",
        )
        for pk, rnd, sub, system, model, scenario in inference:
            names["inference", pk] = P.key_of("inference", (rnd, sub, system, model, scenario))
        self.facts = list(facts)
        self.of_pk = {
            (f.suite, f.pk): names[f.suite, f.pk] for f in facts if (f.suite, f.pk) in names
        }
        self.by_pk = {(f.suite, f.pk): f for f in facts}
        self.by_key = {self.of_pk[f.suite, f.pk]: f for f in facts if (f.suite, f.pk) in self.of_pk}
        self.hay = [(f, _haystack(f)) for f in facts]


def _haystack(f: ResultFacts) -> tuple[str, ...]:
    """What the search looks at, as ``benchdb.mlperf.search._SEARCHED`` does for the
    site's search box: submitter, system name and folder, accelerator, framework,
    benchmark, round, scenario."""
    fields = (
        f.submitter,
        f.system_name,
        f.system_folder,
        f.accelerator_model,
        f.framework,
        f.benchmark,
        f.round,
        f.scenario,
    )
    return tuple(squeezed(x) for x in fields if x)


_keys: tuple[str, _Keys] | None = None
_lock = threading.Lock()


def result_keys() -> _Keys:
    """The keys of the facts of the current data version (built once per version in
    each process; every call where no data version is kept). One query (the data
    version) when built already."""
    global _keys
    version = data_version()
    if version is None:
        return _Keys(claim_facts.all_result_facts())
    with _lock:
        if _keys is None or _keys[0] != version.token:
            _keys = (version.token, _Keys(claim_facts.all_result_facts()))
        return _keys[1]


def result_search(
    text: str, *, round: str = "", benchmark: str = "", limit: int = MAX_SEARCH
) -> list[dict[str, Any]]:
    """Results matching ``text`` as the site's search box matches (the whole text, or
    each of its words, in a name; case, spaces, dashes, underscores, dots and slashes
    ignored), the claim's ``round`` and ``benchmark`` (or model) first, then by round
    (latest first): ``[{"key", "suite", "label", "value", "unit", "round",
    "scenario"}]``, at most ``limit``."""
    whole = squeezed(text)
    words = [w for w in map(squeezed, text.split()) if w]
    if not whole:
        return []
    keys = result_keys()
    hits = [
        f
        for f, hay in keys.hay
        if any(whole in h for h in hay) or (words and all(any(w in h for h in hay) for w in words))
    ]

    def rank(f: ResultFacts) -> tuple[Any, ...]:
        near = (f.round == round) + (benchmark in (f.benchmark, f.model))
        return (-near, f.round, f.system_folder)

    hits.sort(key=rank)
    return [result_row(f, keys.of_pk.get((f.suite, f.pk), "")) for f in hits[:limit]]


def result_row(f: ResultFacts, key: str) -> dict[str, Any]:
    """A result as the workbench lists it."""
    return {
        "key": key,
        "suite": f.suite,
        "label": f"{f.scenario} {f.label()}".strip() if f.scenario else f.label(),
        "value": P.fact_value(f),
        "unit": f.unit,
        "round": f.round,
        "scenario": f.scenario,
    }


def resolve_pins(
    pins: P.Pins, *, strict: bool = True, keys: _Keys | None = None
) -> dict[str, ResultFacts]:
    """Result key -> facts for every key pinned. ``strict``: raise
    :class:`benchdb.claims.pins.PinError` naming keys that name no scored training, HPC or
    valid inference result (the API); else leave them out (a stored pin, flagged)."""
    by_key = (keys or result_keys()).by_key
    missing = [k for k in pins.result_keys() if k not in by_key]
    if missing and strict:
        raise P.PinError(f"no stored result has the key(s) {missing[:5]}")
    return {k: by_key[k] for k in pins.result_keys() if k in by_key}


def workbench(
    claim: ClaimFacts,
    auto: Verification,
    pins: P.Pins,
    resolved: Mapping[str, ResultFacts],
    results: Sequence[ResultFacts],
    keys: _Keys | None = None,
    holdings: Mapping[Any, Any] | None = None,
) -> dict[str, Any]:
    """A claim's workbench as the API and page give it: ``automatic`` (verdict,
    recomputed value), ``pins`` (as given), ``pinned`` (the verification with them,
    None without pins), ``candidates`` (:func:`benchdb.claims.pins.slot_candidates` of
    the verification shown, each with its pin's results named by key and labelled).
    ``keys``, ``holdings``: read here when not given."""
    keys = keys or result_keys()
    P.check_applies(claim, pins)
    suite = suite_of(claim.suite).name
    if pins and holdings is None:
        holdings = round_trees.round_holdings()
    pinned = P.apply_pins(claim, results, pins, resolved, auto, holdings) if pins else None
    shown = pinned or auto
    labels = keys.by_pk
    cands = []
    for cand in P.slot_candidates(shown, suite):
        named = {
            role: [keys.of_pk.get((suite, pk), "") for pk in pks]
            for role, pks in cand["results"].items()
        }
        if cand["slot"] not in P.SLOT_PINS:
            cand["pin"] = {role: ks[0] if len(ks) == 1 else ks for role, ks in named.items()}
        cand["results"] = {
            role: [labels[suite, pk].label() if (suite, pk) in labels else str(pk) for pk in pks]
            for role, pks in cand["results"].items()
        }
        cands.append(cand)
    return {
        "automatic": {"verdict": auto.verdict, "recomputed_value": auto.recomputed_value},
        "pins": pins.as_dict() if pins else None,
        "pinned": _verification_out(pinned, keys) if pinned else None,
        "candidates": cands,
    }


def _verification_out(v: Verification, keys: _Keys) -> dict[str, Any]:
    return {
        "verdict": v.verdict,
        "recomputed_value": v.recomputed_value,
        "compared_recomputed_value": v.compared_recomputed_value,
        "reason": str(v.details.get("reason", "")),
        "flags": list(v.flags),
        "results": [
            {"role": lk.role, "key": keys.of_pk.get((lk.suite, lk.result), "")} for lk in v.links
        ],
    }


def stored_claim_facts(c: Claim) -> ClaimFacts:
    """A stored claim's frame resolved as at ingest (``claim_facts.claim_facts``)."""
    context = claim_facts.page_context(c.page)
    return claim_facts.claim_facts(c.extracted, context, claim_facts.round_dates())


def claim_workbench(c: Claim, pins: P.Pins) -> dict[str, Any]:
    """:func:`workbench` of a stored claim (needs ``page``) with ``pins`` (strictly
    resolved: :class:`benchdb.claims.pins.PinError` on a key naming no result)."""
    facts = stored_claim_facts(c)
    results = claim_facts.all_result_facts()
    auto = P.automatic(facts, results, round_trees.round_holdings())
    return workbench(facts, auto, pins, resolve_pins(pins), results)


def claim_pin_set(*, claim_id: int, pins: Mapping[str, Any], user: Any, note: str = "") -> ClaimPin:
    """Settle a claim by hand: check it with ``pins`` (:func:`benchdb.claims.pins.parse_pins`
    shape) and keep them with who (``user``, logged in), when, ``note`` (at most 2,000
    characters), the verdict they give and each pinned result's value now. Raises
    :class:`benchdb.claims.pins.PinError` on bad pins or a key naming no stored
    result, ValueError on an anonymous user or no pin; ``Claim.DoesNotExist``."""
    if not getattr(user, "is_authenticated", False):
        raise ValueError("pins need a logged-in user")
    parsed = P.parse_pins(pins)
    if not parsed:
        raise ValueError("no pin given")
    c = Claim.objects.select_related("page").defer("page__raw").get(pk=claim_id)
    wb = claim_workbench(c, parsed)
    resolved = resolve_pins(parsed)
    with transaction.atomic():
        return ClaimPin.objects.create(
            claim_key=claim_key_of(c),
            claim=c,
            page_source=c.page.source[:1000],
            sentence=c.sentence,
            pins=parsed.as_dict(),
            values={k: P.fact_value(f) for k, f in resolved.items()},
            verdict=wb["pinned"]["verdict"],
            family_keys="".join(f"|{k}" for k in family_keys_of(c)) + "|",
            user=user,
            created=timezone.now(),
            note=note[:2000],
        )


def api_pins(data: Any) -> dict[int | None, P.Pins]:
    """The check API's ``pins``: an object or a list of them, each with ``"claim": <id>``
    (the claim of the text they settle, from 0) or without it (every claim of the text)
    -> claim id (None: every claim) -> :class:`Pins`. Raises :class:`PinError`."""
    entries = data if isinstance(data, list) else [data]
    if len(entries) > 50:
        raise P.PinError("at most 50 pinned claims")
    out: dict[int | None, P.Pins] = {}
    for e in entries:
        if not isinstance(e, dict):
            raise P.PinError('pins must be an object: {"subject": "<result key>", ...}')
        claim = e.get("claim")
        if claim is not None and (
            not isinstance(claim, int) or isinstance(claim, bool) or claim < 0
        ):
            raise P.PinError(f"pins' claim must be a claim id of the text (0, 1, ...): {claim!r}")
        out[claim] = P.parse_pins({k: v for k, v in e.items() if k != "claim"})
    return out


def check_with_pins(
    checked: Sequence[tuple[Any, ClaimFacts, Verification]],
    pins: Mapping[int | None, P.Pins],
    *,
    keys: _Keys | None = None,
    holdings: Mapping[Any, Any] | None = None,
) -> list[dict[str, Any] | None]:
    """The check API's workbench of each checked claim (id = place in ``checked``):
    :func:`workbench` for a pinned claim (``pins`` key None: every claim; a count or a
    quality target takes only their frame pins) or one whose readings
    disagree, None for the others. Raises :class:`PinError` on a pinned claim id the
    text does not have, a key naming no stored result, or results pinned on the id of
    a claim no result settles (a quality target) or on a count without its subject.
    ``keys``, ``holdings``: :func:`result_keys` and ``round_trees.round_holdings()`` read
    already (default: read here), so that the check API's child process, which uses no
    database, can run it."""
    far = [i for i in pins if i is not None and i >= len(checked)]
    if far:
        raise P.PinError(f"pins name claim {far[0]}; the text has {len(checked)} claims")
    keys = keys or result_keys()
    results = keys.facts  # the facts the keys were made from: no second read
    out: list[dict[str, Any] | None] = []
    for i, (_, f, v) in enumerate(checked):
        p = pins.get(i) or P.Pins()
        if not p and pins.get(None):
            every = pins[None]
            p = P.Pins(frame=every.frame) if f.kind in P.FRAME_ONLY_FOR_EVERY else every
        if not p and not P.slot_candidates(v):
            out.append(None)
            continue
        resolved = resolve_pins(p, keys=keys)
        out.append(workbench(f, v, p, resolved, results, keys, holdings))
    return out

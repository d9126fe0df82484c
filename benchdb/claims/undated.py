"""Claims on pages that name no round and carry no date: every round a reading.

When neither the text nor the page fixes a round (no round named, no relative date,
no publication date), the readings the text allows are every round of the claim's
suite in which the claim's frame (subject system, submitter or accelerator family,
benchmark, accelerator count when given, division, scenario) has results. The claim is
checked in each of them with the round's own benchmark key
(:func:`benchdb.vocabulary.canonical_benchmark`: "SSD" is RetinaNet from v2.0) and the
outcomes settle it as :func:`benchdb.claims.readings.settle` settles a frame's
readings (issue 20, "What to build" 2): ``consistent`` only if it holds in every such
round, ``inconsistent`` only if it fails in every one, else ``unverifiable`` naming
each round's outcome. The claimed value never chooses the round.

A round of the suite that benchdb does not hold, or holds only in part for the claim's
possible subjects (:func:`held_whole`: the round's tree, ``manage.py round-tree``, lists
a result folder it does not store), is a reading whose outcome is unknown (so no
verdict: the missing result may be the claim's) unless the frame cannot have results
there:

* its benchmark is not in the round's official list
  (:func:`benchdb.claims.round_facts.round_benchmarks`; training v0.5 from the results
  repository's folders, :data:`TRAINING_V05_BENCHMARKS`), or
* the round precedes the first round holding every accelerator family the claim's
  sentence names, known only when every round before that first one is held (the rule
  of :func:`benchdb.claims.inference_frames.pin_first_round`; with training v0.5 and
  v0.6 and inference v0.5 not held, it bounds nothing today).

What this module does not do: take one claim's round to be another's. A page whose
other claims' hard slots (system names, accelerator counts) admit exactly one round
still allows each remaining claim to be about another round (a page recalling last
year's record beside this year's), so such a "page round" is not a reading every
text allows; each claim is read on its own frame.

Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from benchdb.claims import round_facts
from benchdb.claims.facts import (
    ClaimFacts,
    Link,
    ResultFacts,
    Verification,
    submitter_matches,
    submitter_name_matches,
    system_matches,
)
from benchdb.claims.inference_frames import FIRST_TAG
from benchdb.claims.resolve_words import year_of
from benchdb.claims.round_counts import Holding
from benchdb.claims.subjects import FAMILIES, family_matches, find_mentions
from benchdb.vocabulary import (
    CONSISTENT,
    INCONSISTENT,
    UNVERIFIABLE,
    canonical_benchmark,
    round_key,
)

#: The context tag :func:`ingest.claims.facts.claim_facts` gives a claim whose page
#: names no round and has no date (the tag, not an empty round, says the date is
#: missing: a dated page before a suite's first round also leaves the round empty).
TAG = "round-undated"
#: The context tag of a page's accelerator family (``page-family:H100``), for the
#: lower bound.
FAMILY_TAG = "page-family:"
#: The context tag of a claim checked in one round of several (its round's verdict).
EACH_TAG = "round-each"

#: MLPerf Training v0.5's benchmarks: the result folders of
#: mlcommons/training_results_v0.5 at c71f2e7 (``v0.5.0/<submitter>/<entry>/results/
#: <system>/<benchmark>/result_*.txt``): gnmt, maskrcnn, minigo, ncf, resnet, ssd,
#: transformer. mlperf_logging has no list for v0.5 (no summarizer existed), so
#: :func:`round_facts.round_benchmarks` gives None for it.
TRAINING_V05_BENCHMARKS = frozenset(
    {"gnmt", "maskrcnn", "minigo", "ncf", "resnet", "ssd", "transformer"}
)

Check = Callable[[ClaimFacts], Verification]


def round_benchmarks(suite: str, rnd: str) -> frozenset[str] | None:
    """The benchmark keys of ``rnd`` of ``suite`` (canonical for that round); None
    when unknown (every inference round: its checker's model tables are shared)."""
    if suite == "training" and rnd == "v0.5":
        return frozenset(canonical_benchmark(b, rnd) for b in TRAINING_V05_BENCHMARKS)
    return round_facts.round_benchmarks(suite, rnd)


def tags(sentence: str) -> tuple[str, ...]:
    """The context tags of a claim whose page names no round and has no date:
    :data:`TAG` and one :data:`FAMILY_TAG` per accelerator family its sentence names
    (:func:`benchdb.claims.subjects.find_mentions`). Only the sentence's: a page may
    name a product before its first MLPerf round ("the coming Blackwell"), which
    would bound its other claims' rounds wrongly."""
    families = dict.fromkeys(m.family for m in find_mentions(sentence))
    return (TAG, *(FAMILY_TAG + f for f in families))


def applies(c: ClaimFacts) -> bool:
    """Whether ``c`` is read in every round (:func:`verify_each_round`): no round,
    tagged :data:`TAG` (and no first-round tag), of training or inference, not a count,
    with a subject, and a benchmark unless it is a scale claim (a claim naming none
    keeps its own reason)."""
    return (
        not c.round
        and TAG in c.context
        and not any(t.startswith(FIRST_TAG) for t in c.context)
        and (c.suite or "training") in ("training", "inference")
        and c.kind != "count"  # a count over a round: benchdb.claims.round_counts
        and bool(c.system or c.submitter)
        and (bool(c.benchmark_key) or c.kind == "scale")
    )


def frame_has_results(c: ClaimFacts, results: Sequence[ResultFacts], rnd: str) -> bool:
    """Whether ``results`` hold a result of ``c``'s frame in round ``rnd``: its
    benchmark (the round's key; any benchmark for a scale claim naming none), its
    subject (system when named, else submitter; a frame with neither has none), its
    accelerator count, division and scenario when given."""
    subject = c.system or c.submitter
    if not subject:
        return False
    bench = canonical_benchmark(c.benchmark_key, rnd) if c.benchmark_key else ""
    for r in _by_round(results).get(rnd, ()):
        if bench and bench not in (r.benchmark, r.model):
            continue
        if c.division and r.division != c.division:
            continue
        if c.scenario and r.scenario and r.scenario != c.scenario:
            continue
        if c.accelerators is not None and r.accelerators != c.accelerators:
            continue
        if c.system and system_matches(c.system, r, c.accelerators):
            return True
        if not c.system and submitter_matches(c.submitter, r):
            return True
    return False


#: The last results list asked about (held, so its id is not reused), its results by
#: round, and per accelerator family the rounds holding it: a page's claims ask of the
#: same list (22k inference results, 13 rounds).
_HELD_BY: list[tuple[Sequence[ResultFacts], dict[str, list[ResultFacts]], dict[str, set[str]]]] = []


def _index(
    results: Sequence[ResultFacts],
) -> tuple[dict[str, list[ResultFacts]], dict[str, set[str]]]:
    if not _HELD_BY or _HELD_BY[0][0] is not results:
        grouped: dict[str, list[ResultFacts]] = {}
        for r in results:
            grouped.setdefault(r.round, []).append(r)
        _HELD_BY[:] = [(results, grouped, {})]
    return _HELD_BY[0][1], _HELD_BY[0][2]


def _by_round(results: Sequence[ResultFacts]) -> dict[str, list[ResultFacts]]:
    return _index(results)[0]


def _rounds_with(results: Sequence[ResultFacts], family: str) -> set[str]:
    grouped, families = _index(results)
    if family not in families:
        families[family] = {
            rnd for rnd, rs in grouped.items() if any(family_matches(family, r) for r in rs)
        }
    return families[family]


def warm(results: Sequence[ResultFacts]) -> None:
    """Build, once per results list, what every undated claim asks of it: the results
    by round and the rounds holding each accelerator family (:data:`FAMILIES`). The
    check API calls it before it forks the reader of a text, so that each request's
    reader finds them built (~1 s once per data version, not per request)."""
    for fam in FAMILIES:
        _rounds_with(results, fam.name)


def lower_bound(
    c: ClaimFacts, results: Sequence[ResultFacts], rounds: Sequence[str], held: frozenset[str]
) -> tuple[str, str]:
    """(the first of ``rounds`` holding every accelerator family the claim's sentence
    names (:data:`FAMILY_TAG`), why) or ("", why it is unknown): a family's first round
    is known only when every round of ``rounds`` before the first one with it in
    ``results`` is in ``held`` (one not held may have it)."""
    families = sorted({t[len(FAMILY_TAG) :] for t in c.context if t.startswith(FAMILY_TAG)})
    if not families:
        return "", ""
    bound, why = "", ""
    for family in families:
        having = [rnd for rnd in rounds if rnd in _rounds_with(results, family)]
        if not having:
            return "", f"no round benchdb holds has {family}"
        gaps = [rnd for rnd in rounds[: rounds.index(having[0])] if rnd not in held]
        if gaps:
            return "", f"{family}: benchdb does not hold {', '.join(gaps)}"
        if not bound or round_key(having[0]) > round_key(bound):
            bound, why = having[0], f"the first round with {family}"
    return bound, why


def verify_each_round(
    c: ClaimFacts,
    results: Sequence[ResultFacts],
    rounds: Sequence[str],
    check: Check,
    holdings: Mapping[tuple[str, str], Holding] | None,
    held: frozenset[str] | None = None,
) -> Verification:
    """``c`` (no round; :data:`TAG`) checked in every round of ``rounds`` (its suite's,
    in order) in which its frame has results, settled over them (module docstring).

    ``results``: every stored result of the claim's suite; ``check``: the suite's check
    of a claim with a round; ``holdings``: the rounds whose trees benchdb recorded
    (``ingest.round_trees.round_holdings``; None: none known), for :func:`held_whole`;
    ``held``: the rounds benchdb holds (None: those with a result in ``results``).
    Never raises on data."""
    held = frozenset(r.round for r in results) if held is None else held
    bound, bound_why = lower_bound(c, results, rounds, held)
    start = rounds.index(bound) if bound in rounds else 0
    suite = c.suite or "training"
    open_rounds, outcomes = [], []
    for rnd in rounds[start:]:
        known = round_benchmarks(suite, rnd)
        bench = canonical_benchmark(c.benchmark_key, rnd) if c.benchmark_key else ""
        if known is not None and bench and bench not in known:
            continue  # the benchmark is not one of the round's
        holding = holdings.get((suite, rnd)) if holdings is not None else None
        if rnd not in held or not held_whole(c, results, rnd, holding):
            open_rounds.append(rnd if rnd not in held else f"{rnd} (held in part)")
        elif frame_has_results(c, results, rnd):
            tagged = replace(c, round=rnd, context=(*c.context, EACH_TAG))
            outcomes.append((rnd, check(tagged)))
    return _settle(c, outcomes, open_rounds, bound_why)


def held_whole(
    c: ClaimFacts, results: Sequence[ResultFacts], rnd: str, holding: Holding | None
) -> bool:
    """Whether benchdb stores every result of round ``rnd`` that ``c``'s subject may
    be: the round's tree is recorded (``holding``) and every result folder it lists is
    stored, or, for a frame naming its submitter, every folder of that submitter is
    (when the frame also names a product, the submitter must have a stored result of
    it in the round: otherwise another's product is read, :func:`candidates`)."""
    if holding is None:
        return False
    if holding.whole() or not c.submitter:
        return holding.whole()
    if any(submitter_name_matches(c.submitter, f) for f in holding.incomplete):
        return False
    if not c.system:
        return True
    return any(
        submitter_matches(c.submitter, r) and system_matches(c.system, r, c.accelerators)
        for r in _by_round(results).get(rnd, ())
    )


def _settle(
    c: ClaimFacts,
    outcomes: list[tuple[str, Verification]],
    open_rounds: list[str],
    bound_why: str,
) -> Verification:
    details: dict[str, object] = {
        "rounds_read": [rnd for rnd, _ in outcomes],
        "rounds_not_held": open_rounds,
        "round_outcomes": {rnd: v.verdict for rnd, v in outcomes},
        "missing": {"round": _unnamed(c)},
    }
    if bound_why:
        details["round_bound"] = bound_why
    if not outcomes:
        return Verification(
            UNVERIFIABLE,
            details={
                **details,
                "reason": f"{_unnamed(c, True)}, and no round benchdb holds has a result"
                " of the claim's frame",
            },
        )
    verdicts = {v.verdict for _, v in outcomes}
    words = "; ".join(f"{rnd}: {v.verdict}" for rnd, v in outcomes)
    if open_rounds or len(verdicts) > 1 or verdicts - {CONSISTENT, INCONSISTENT}:
        if len(outcomes) == 1 and not open_rounds:  # one round: its own verdict
            return _one(outcomes[0], details)
        unheld = f"; not held, so unknown: {', '.join(open_rounds)}" if open_rounds else ""
        return Verification(
            UNVERIFIABLE,
            details={
                **details,
                "reason": f"{_unnamed(c, True)}; the rounds with a result of its frame"
                f" disagree or are not all held: {words}{unheld}",
            },
        )
    return _every(outcomes, details)


def _unnamed(c: ClaimFacts, whole: bool = False) -> str:
    """Why the round is open: the page names none and has no date, or the sentence
    gives a year of several rounds (:data:`benchdb.claims.resolve_words.YEAR_TAG`)."""
    year = year_of(c.context)
    if year is not None:
        return f"the sentence gives the year {year}, not which of its rounds"
    return (
        "the page names no round and has no date"
        if whole
        else "not named, and the page has no date"
    )


def _one(outcome: tuple[str, Verification], details: dict[str, object]) -> Verification:
    """The verdict of the only round the frame allows, with the rounds' details."""
    rnd, v = outcome
    why = f"the only round with a result of the claim's frame is {rnd}"
    return replace(v, details={**v.details, **details, "round_why": why})


def _every(outcomes: list[tuple[str, Verification]], details: dict[str, object]) -> Verification:
    """The verdict every round gives (consistent or inconsistent), with every round's
    results as links (the first round's recomputed figures)."""
    first = outcomes[0][1]
    links: list[Link] = []
    for _, v in outcomes:
        links += [lk for lk in v.links if lk not in links]
    rounds = ", ".join(rnd for rnd, _ in outcomes)
    why = f"the same verdict in every round with a result of the claim's frame: {rounds}"
    flags = tuple(dict.fromkeys(f for _, v in outcomes for f in v.flags))
    return replace(
        first,
        links=tuple(links),
        flags=flags,
        details={**first.details, **details, "round_why": why},
    )


__all__ = [
    "applies",
    "tags",
    "EACH_TAG",
    "FAMILY_TAG",
    "TAG",
    "TRAINING_V05_BENCHMARKS",
    "frame_has_results",
    "held_whole",
    "lower_bound",
    "round_benchmarks",
    "verify_each_round",
    "warm",
]

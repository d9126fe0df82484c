"""The stored results and page a vendor claim is checked against, and the check.

``result_facts`` gives the stored results claims are checked against as
:class:`benchdb.claims.verdicts.ResultFacts`, by suite, round and benchmark, built once
per data version in each process (``all_result_facts``: all of them);
``claim_facts`` resolves a claim's subject, benchmark and round from its sentence and
its page (``benchdb.claims.resolve``); ``check_claims`` verifies a page's claims
(``benchdb.claims.verdicts.verify_claim``). Reads only: ``ingest.claims.pages`` stores
what they return.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import date
from typing import Any

from benchdb import suites as registry
from benchdb import vocabulary
from benchdb.claims import (
    count_clauses,
    headline_times,
    inference_frames,
    other_suites,
    own_baseline,
    page_round,
    pins,
    readings,
    resolve,
    resolve_words,
    round_counts,
    round_facts,
    round_wins,
    system_specs,
    undated,
    unit_products,
    verdicts,
    virtualized,
)
from benchdb.claims.facts import PRESS_LEAD_DAYS, suite_of
from benchdb.claims.resolve_suite import resolve_suite
from benchdb.models import InferenceResult, Result, Round, VendorPage
from benchdb.models.data_version import data_version
from ingest import history
from ingest.claims import suite_facts
from ingest.claims.parsers import page_meta as vendor_meta
from ingest.claims.parsers import text as claim_text

#: The columns every suite reads the same way (:class:`verdicts.ResultFacts` fields):
#: round, submitter, system and its accelerators, division, availability, result ID.
_COMMON = {
    "pk": "pk",
    "round": "round__version",
    "submitter": "system__submitter__name",
    "system_folder": "system__folder",
    "system_name": "system__name",
    "division": "division",
    "availability": "system__availability",
    "accelerators": "system__accelerators",
    "accelerator_model": "system__accelerator_model",
    "processor": "system__host_processor_model",
    "processors": "system__host_processors_per_node",
    "processor_cores": "system__raw__host_processor_core_count",
    "processor_clock": "system__raw__host_processor_frequency",
    "framework": "system__framework",
    "nodes": "system__nodes",
    "result_id": "result_id",
}
_TRAINING = {**_COMMON, "benchmark": "benchmark__key", "score_minutes": "score_minutes"}
_INFERENCE = {
    **_COMMON,
    "benchmark": "benchmark",
    "metric": "metric",
    "unit": "unit",
    "higher_is_better": "higher_is_better",
    "value": "value",
    "scenario": "scenario",
    "category": "category",
    "power": "power",
    "power_unit": "power_unit",
}
#: Suites whose results claims are checked against, in the order they are listed: the
#: registry's suites with a family of checks (``benchdb.suites.Suite.claim_checks``).
#: Training, HPC and Inference first (the order they were listed in before the registry
#: named the others).
FACT_SUITES = tuple(
    sorted(
        (s.name for s in registry.SUITES if s.claim_checks),
        key=lambda n: ("training", "hpc", "inference", n).index(n),
    )
)


def _rows(
    suite: str, rounds: Iterable[str] | None, benchmarks: Iterable[str] | None
) -> Iterator[dict[str, Any]]:
    """The stored results of ``suite`` that claims rest on, as dicts of
    :class:`verdicts.ResultFacts` fields, filtered in SQL (one query; column values
    only: no model instance, no systems JSON). Training and HPC (one table): every
    scored result with a time to train; inference and the suites stored in its table
    (Automotive, Tiny, Mobile): every valid result with a value (``model`` is the
    benchmark without its accuracy variant; Mobile's the task without its variant);
    Storage: :func:`ingest.claims.suite_facts.storage_rows`."""
    if suite == "storage":
        yield from suite_facts.storage_rows(rounds, benchmarks)
        return
    if suite in ("training", "hpc"):  # HPC: its strong-scaling results (a time to train)
        qs: Any = Result.objects.filter(
            status=Result.Status.SCORED, round__suite=suite, score_minutes__isnull=False
        ).order_by("pk")
        columns, bench = _TRAINING, "benchmark__key__in"
    else:
        qs = InferenceResult.objects.filter(  # LoadGen suites share the table (benchdb.suites)
            round__suite=suite, status=InferenceResult.Status.VALID, value__isnull=False
        ).order_by("round__suite", "round__version", "source_path")  # the model's ordering
        columns, bench = _INFERENCE, "benchmark__in"
    training = suite in ("training", "hpc")
    qs = history.without_tombstoned(qs, training=training)
    if rounds is not None:
        qs = qs.filter(round__version__in=list(rounds))
    if benchmarks is not None:
        qs = qs.filter(**{bench: list(benchmarks)})
    names = list(columns)
    for values in qs.values_list(*columns.values()):  # 23k rows of scalars: one fetch
        row = dict(zip(names, values, strict=True))
        for key in ("processor_cores", "processor_clock"):  # JSON values, as written
            row[key] = "" if row[key] is None else str(row[key])
        if suite == "hpc":
            row["suite"] = "hpc"
        if training:
            yield row
            continue
        row |= {"suite": suite, "score_minutes": None}
        if suite == "mobile":
            row["model"] = suite_facts.mobile_model(row["benchmark"])
            yield row
        elif suite == "tiny":
            row["model"] = row["benchmark"]
            yield from suite_facts.tiny_extra(row)
        else:
            row["model"] = vocabulary.inference_base_model(row["benchmark"])
            yield row


def _query_facts(
    suites: Sequence[str], rounds: Iterable[str] | None, benchmarks: Iterable[str] | None
) -> list[verdicts.ResultFacts]:
    """:func:`result_facts` read from the database (one query per suite)."""
    return [
        verdicts.ResultFacts(**row) for suite in suites for row in _rows(suite, rounds, benchmarks)
    ]


class _FactStore:
    """Every result's facts at one data version (and the rounds' dates), built once
    and shared (frozen dataclasses), grouped by (suite, round, benchmark) so that a
    selection reads only its groups. Strings repeated across results (submitters,
    accelerators) are kept once."""

    def __init__(self) -> None:
        self.groups: dict[tuple[str, str, str], list[tuple[int, verdicts.ResultFacts]]] = {}
        self.by_suite: dict[str, list[verdicts.ResultFacts]] = {}
        self.count = 0
        self.everything: list[verdicts.ResultFacts] | None = None  # all_result_facts
        self.dates = _read_round_dates()
        seen: dict[Any, Any] = {}
        for suite in FACT_SUITES:
            for row in _rows(suite, None, None):
                row = {
                    k: seen.setdefault(v, v) if isinstance(v, str) else v for k, v in row.items()
                }
                facts = verdicts.ResultFacts(**row)
                key = (facts.suite, facts.round, facts.benchmark)
                self.groups.setdefault(key, []).append((self.count, facts))
                self.by_suite.setdefault(suite, []).append(facts)
                self.count += 1

    def select(
        self, suites: Sequence[str], rounds: Iterable[str] | None, benchmarks: Iterable[str] | None
    ) -> list[verdicts.ResultFacts]:
        if rounds is None and benchmarks is None:  # whole suites: no sorting
            return [f for suite in suites for f in self.by_suite.get(suite, ())]
        want_rounds = None if rounds is None else set(rounds)
        want_benchmarks = None if benchmarks is None else set(benchmarks)
        picked = [
            item
            for (suite, rnd, bench), items in self.groups.items()
            if suite in suites
            and (want_rounds is None or rnd in want_rounds)
            and (want_benchmarks is None or bench in want_benchmarks)
            for item in items
        ]
        picked.sort(key=lambda item: item[0])
        return [facts for _, facts in picked]


#: This process's store: (data version token, store); one version at a time.
_store: tuple[str, _FactStore] | None = None
_store_lock = threading.Lock()


def _current_store() -> _FactStore | None:
    """The store of the current data version, built on first use after a change;
    None where no data version is kept (``benchdb.models.data_version``)."""
    global _store
    version = data_version()
    if version is None:
        return None
    with _store_lock:  # threads of one process build it once
        if _store is None or _store[0] != version.token:
            _store = (version.token, _FactStore())
        return _store[1]


def result_facts(
    *,
    suite: str | None = None,
    rounds: Iterable[str] | None = None,
    benchmarks: Iterable[str] | None = None,
) -> list[verdicts.ResultFacts]:
    """The stored results claims are checked against, as
    :class:`benchdb.claims.ResultFacts`: every scored training result (``suite``
    "training", HPC left out) and every valid MLPerf Inference result with a value
    (``suite`` "inference"; ``value`` in ``unit``), training first.

    ``suite``: one of :data:`FACT_SUITES` (None: both); ``rounds``: versions
    (``"v3.0"``); ``benchmarks``: canonical keys (inference: the model with its
    accuracy variant, ``"llama2-70b-99"``); None: no filter. Each call returns a new
    list of shared frozen facts. They are built once per data version in each process
    (the first call after an ingest reads every result: about 0.5 s with all MLPerf
    history) and then selected in memory; inside a transaction, or on a database
    without a data version, they are read with the filters in SQL each time. Raises
    ValueError on an unknown suite.
    """
    if suite is not None and suite not in FACT_SUITES:
        raise ValueError(f"unknown suite {suite!r}; claims are checked on {FACT_SUITES}")
    suites = FACT_SUITES if suite is None else (suite,)
    store = _current_store()
    if store is None:
        return _query_facts(suites, rounds, benchmarks)
    return store.select(suites, rounds, benchmarks)


def inference_result_facts() -> list[verdicts.ResultFacts]:
    """Every valid MLPerf Inference result with a value (:func:`result_facts`)."""
    return result_facts(suite="inference")


def all_result_facts() -> list[verdicts.ResultFacts]:
    """The results of every suite claims are checked against (:func:`result_facts`):
    for one data version the same list on every call (shared; callers do not change
    it), so that what is built once per list (``benchdb.claims.undated.warm``: results
    by round, the rounds holding each product) serves every request."""
    store = _current_store()
    if store is None:
        return result_facts()
    if store.everything is None:
        store.everything = store.select(FACT_SUITES, None, None)
    return store.everything


def round_dates() -> dict[str, dict[str, date]]:
    """Suite -> round -> publication date, for claims that name a round in words or
    by their page's date: ``vocabulary.ROUND_PUBLISHED`` (training) and
    ``vocabulary.INFERENCE_ROUND_PUBLISHED``, over which the stored rounds' own dates
    win. Read once per data version with the result facts (:func:`result_facts`);
    a new dict each call."""
    store = _current_store()
    dates = store.dates if store is not None else _read_round_dates()
    return {suite: dict(rounds) for suite, rounds in dates.items()}


def _read_round_dates() -> dict[str, dict[str, date]]:
    """:func:`round_dates` from the database (one query)."""
    dates = {
        "training": dict(vocabulary.ROUND_PUBLISHED),
        "inference": dict(vocabulary.INFERENCE_ROUND_PUBLISHED),
    }
    dates |= {suite: dict(rounds) for suite, rounds in other_suites.ROUND_PUBLISHED.items()}
    for suite, version, published in Round.objects.filter(
        suite__in=list(dates), published__isnull=False
    ).values_list("suite", "version", "published"):
        if published is not None:
            dates[str(suite)][version] = published
    return dates


def page_context(page: VendorPage) -> resolve.PageContext:
    """What a page's claims may take from it (``benchdb.claims.resolve``): its vendor
    as MLPerf names the submitter (``vendor_meta.SUBMITS_AS``: Microsoft -> Azure)."""
    return context_of(
        title=page.title, text=page.text, published=page.published, vendor=page.vendor, url=page.url
    )


def context_of(
    *, title: str, text: str, published: date | None, vendor: str, url: str
) -> resolve.PageContext:
    """The one way a page's context is built, stored (:func:`page_context`) or checked
    (``ingest.claims.check``), so that both read the same text alike: ``published``
    None when the text gives no date (its claims naming no round are then read in every
    round, ``benchdb.claims.undated``), ``vendor`` as MLPerf names the submitter."""
    return resolve.PageContext(
        title=title,
        text=text,
        published=published,
        vendor=vendor_meta.SUBMITS_AS.get(vendor, vendor),
        url=url,
    )


def claim_facts(
    c: claim_text.Claim | Mapping[str, Any],
    page: resolve.PageContext,
    dates: dict[str, dict[str, date]],
    submitters: Mapping[str, Collection[str]] | None = None,
) -> verdicts.ClaimFacts:
    """A claim (the parser's, or a stored ``extracted`` dict) with its suite
    (``benchdb.claims.resolve_suite``), subject, benchmark and round resolved from its
    sentence and ``page`` (``benchdb.claims.resolve.resolve_claim``); a round still
    missing is the latest one of its suite published by the page's date (or a few
    days after it: ``benchdb.claims.facts.PRESS_LEAD_DAYS``), else, on a page with no
    date, the round its words fix (``benchdb.claims.page_round``); an MLPerf HPC claim gets
    no round from a date (HPC's rounds are not in ``dates``). ``submitters``: suite ->
    its submitters' names, which a Storage, Tiny or Mobile sentence may name (read from
    the result facts when not given)."""
    facts: verdicts.ClaimFacts
    if isinstance(c, claim_text.Claim):
        facts, sentence = c, c.sentence
    else:
        facts, sentence = verdicts.ClaimFacts.from_mapping(c), str(c.get("sentence", ""))
    other = other_suites.suite_named(sentence, page.title, page.text, page.url)
    if other in FACT_SUITES:  # "" is none
        names = (
            submitters.get(other, ())
            if submitters is not None
            else {r.submitter for r in result_facts(suite=other)}
        )
        facts = other_suites.as_suite(facts, other)
        return _other_suite_facts(facts, sentence, page, dates, names)
    facts = resolve_suite(facts, sentence, page.title, page.text, page.url)
    if inference_frames.is_per_watt(facts) and facts.mlperf_context:
        facts = replace(facts, suite="inference")  # a figure per watt: MLPerf Inference's power
    rounds = dates.get(facts.suite or "training", {})
    facts = resolve.resolve_claim(facts, sentence, page, rounds)
    facts = inference_frames.per_watt_frame(facts, page.text, *_spans(c))
    facts = inference_frames.value_frame(facts, page.text, *_spans(c))
    facts = inference_frames.per_watt_gain_frame(facts, page.text, *_spans(c))
    facts = count_clauses.count_frame(facts, page.text, *_spans(c))
    scope = _scope_tags(facts, sentence, _figure_span(c, page.text), page)
    if scope:
        facts = replace(facts, context=facts.context + scope)
    if facts.round or "suite-hpc" in facts.context:
        return facts
    if resolve_words.year_of(facts.context) is not None:  # each round of the year a reading
        return replace(facts, context=facts.context + undated.tags(sentence))
    rnd = verdicts.round_for_date(page.published, rounds, lead_days=PRESS_LEAD_DAYS)
    context = facts.context + ("round-date",) if rnd else facts.context
    if not rnd and page.published is None and page_round.OPEN_TAG not in context:
        fixed = page_round.page_round(page.title, page.text, facts.suite or "training")
        if fixed.round:  # the round the page's words fix ("本轮新的…Stable Diffusion")
            why = (page_round.TAG, f"{page_round.WHY_TAG}{fixed.round}: {fixed.why}")
            return replace(facts, round=fixed.round, context=context + why)
    if not rnd and page.published is None:  # every round a reading (benchdb.claims.undated)
        context += undated.tags(sentence)
    if not rnd:  # "for the first time ... MI300X": resolved against the rounds held
        return inference_frames.first_round_tag(replace(facts, context=context), page.text)
    return replace(facts, round=rnd, context=context)


def _scope_tags(
    facts: verdicts.ClaimFacts,
    sentence: str,
    span: tuple[int, int],
    page: resolve.PageContext,
) -> tuple[str, ...]:
    """The context tags each class of claim reads from the figure's sentence and its
    place in it (``span``): what a count or a time is of, the round's own facts, counts
    and wins over a round, headline times, shares of bare metal, units times their size,
    gains over the submitter's own baseline."""
    whole = f"{page.title}\n{page.text}"
    scope = resolve_words.scope_of_count(facts.kind, sentence)
    scope += resolve_words.scope_of_time(facts.kind, sentence)
    scope += round_facts.scope_tags(facts, sentence, *span)
    scope += round_counts.scope_tags(facts, sentence, *span, page=whole)
    scope += round_wins.scope_tags(facts, sentence, *span, page=whole)
    scope += headline_times.scope_tags(facts.kind, sentence)
    scope += virtualized.scope_tags(facts, sentence) + virtualized.scale_tags(facts, sentence)
    scope += unit_products.scope_tags(facts, sentence, *span)
    scope += own_baseline.scope_tags(facts, sentence, *span)
    scope += system_specs.scope_tags(facts, sentence, *span)
    return tuple(scope)


def _other_suite_facts(
    facts: verdicts.ClaimFacts,
    sentence: str,
    page: resolve.PageContext,
    dates: dict[str, dict[str, date]],
    submitters: Collection[str],
) -> verdicts.ClaimFacts:
    """A Storage, Tiny or Mobile claim's frame (``benchdb.claims.other_suites``): its
    subject as any claim's (``resolve.resolve_claim``), then the suite's benchmark,
    simulated accelerator, unit and round; a round still missing is the one published
    by the page's date, as for the other suites."""
    rounds = dates.get(facts.suite, {})
    facts = resolve.resolve_claim(facts, sentence, page, rounds)
    facts = other_suites.frame(facts, sentence, page.title, page.url, page.text, submitters)
    if facts.round:
        return facts
    rnd = verdicts.round_for_date(page.published, rounds, lead_days=PRESS_LEAD_DAYS)
    return replace(facts, round=rnd, context=facts.context + ("round-date",)) if rnd else facts


def _spans(c: claim_text.Claim | Mapping[str, Any]) -> tuple[int, int, int, int]:
    """(start, end, sentence start, sentence end) of a claim in its page's text (the
    parser's claim, or a stored ``extracted`` dict); -1s when unknown."""
    get = c.get if isinstance(c, Mapping) else lambda k, d=-1: getattr(c, k, d)
    keys = ("start", "end", "sentence_start", "sentence_end")
    out = [get(k, -1) for k in keys]
    return tuple(x if isinstance(x, int) else -1 for x in out)  # type: ignore[return-value]


def _figure_span(c: claim_text.Claim | Mapping[str, Any], text: str = "") -> tuple[int, int]:
    """The claimed figure's offsets in its sentence ((-1, -1) when unknown). The
    sentence is stored stripped while its start may be at the whitespace before it
    ("First. The second ..."): with the page's ``text``, that whitespace is skipped
    when the stripped sentence stands right after it."""
    get = c.get if isinstance(c, Mapping) else lambda k, d=None: getattr(c, k, d)
    start, end, base = get("start", None), get("end", None), get("sentence_start", None)
    if not all(isinstance(x, int) for x in (start, end, base)):
        return -1, -1
    sentence = str(get("sentence", "") or "")
    lead = len(text[base : base + 64]) - len(text[base : base + 64].lstrip())
    if lead and sentence and text[base + lead : base + lead + len(sentence)] == sentence:
        base += lead
    return start - base, end - base


def check_claims(
    found: Sequence[claim_text.Claim],
    page: resolve.PageContext,
    *,
    dates: dict[str, dict[str, date]] | None = None,
    results: list[verdicts.ResultFacts] | None = None,
    holdings: Mapping[tuple[str, str], round_counts.Holding] | None = None,
) -> list[tuple[claim_text.Claim, verdicts.ClaimFacts, verdicts.Verification]]:
    """Each claim of a page with its resolved facts and its verification against every
    stored result of its suite (``verify_claim`` reads only those: each claim is given
    them alone, so that it does not scan the other suites' results). Queries: the data
    version and the rounds' dates (the facts are built once per data version); none
    when ``dates`` (:func:`round_dates`) and ``results`` (every suite's facts) are given
    (the check API reads them first, then verifies in a time-limited child).
    ``holdings``: the rounds held whole (``ingest.round_trees.round_holdings``), read
    here when ``results`` is not given; counts over a round are checked against them
    (``benchdb.claims.round_counts``)."""
    dates = round_dates() if dates is None else dates
    if holdings is None and results is None:
        from ingest.round_trees import round_holdings

        holdings = round_holdings()
    names: dict[str, set[str]] | None = None
    if results is not None:  # no query: the submitters of the results given
        names = {}
        for r in results:
            names.setdefault(r.suite, set()).add(r.submitter)
    facts = [claim_facts(c, page, dates, names) for c in found]
    by_suite: dict[str, list[verdicts.ResultFacts]] = {}
    out = []
    for c, f in zip(found, facts, strict=True):
        suite = suite_of(f.suite).name  # KeyError on an unknown suite, as verify_claim
        if suite not in by_suite:
            if results is not None:
                by_suite[suite] = [r for r in results if r.suite == suite]
            else:
                by_suite[suite] = result_facts(suite=suite) if suite in FACT_SUITES else []
        # counts over a round (held whole, or its rules' list), else the results
        out.append((c, f, pins.automatic(f, by_suite[suite], holdings)))
    return out


def with_page_verdicts(
    checked: Sequence[tuple[claim_text.Claim, verdicts.ClaimFacts, verdicts.Verification]],
    on_page: Sequence[Any],
) -> list[tuple[claim_text.Claim, verdicts.ClaimFacts, verdicts.Verification]]:
    """``checked`` (from :func:`check_claims`) with each verdict reconciled with its
    claim's page verdict (``on_page``: ``claim_page.ClaimOnPage`` aligned with it): an
    inconsistent verdict the page's own figures contradict is withheld
    (``benchdb.claims.readings.page_conflict``). The ingest, the check API and the
    re-check all call it, so they give the same verdicts for the same text."""
    return [
        (c, f, readings.page_conflict(v, p.page_verdict))
        for (c, f, v), p in zip(checked, on_page, strict=True)
    ]

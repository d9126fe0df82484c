"""Check this text (issue 14): the claims of an article a journalist is writing (pasted
text, or a URL fetched with the SSRF checks of ``ingest.fetch``), their verdicts,
flags (each with its sentence and clause) and the page's guideline findings. Nothing
is stored. Served by ``ingest/claims/views_check.py`` (a form and ``POST /api/claims/check``)
and ``manage.py check-claims``.

It lives in ``ingest`` because it reads the outside world (a URL) and runs ingest's
parsers (``ingest.claims.parsers.text``, ``claim_page``); ``benchdb`` does not import
``ingest``. The checking is the ingest service's (``ingest.claims.facts.check_claims``:
the verdicts a stored page's claims get; ``claim_page.read_page``: page arithmetic,
baselines, every number accounted for), the report :mod:`benchdb.claims.guidelines`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.utils import timezone

from benchdb import suites as registry
from benchdb import vocabulary
from benchdb.claims import explain, families, guidelines, undated
from benchdb.models import InferenceResult, Result, StorageResult
from ingest import budget, fetch, round_trees
from ingest.claims import facts as claim_facts
from ingest.claims import pages as vendor_pages
from ingest.claims import pins as claim_pins
from ingest.claims import warm
from ingest.claims.parsers import page as claim_page
from ingest.claims.parsers import page_html as vendor_html
from ingest.claims.parsers import page_meta as vendor_meta
from ingest.claims.parsers import text as claim_text
from ingest.claims.parsers.page_tables import parse_vendor_tables
from ingest.parsers.types import ParseError

#: Most characters of text checked (pasted, or left after cleaning a fetched page): a long
#: article is about 20,000; five times that is a document, not an article. The same bound
#: as every vendor page's (``page_html.MAX_PAGE_CHARS``).
MAX_CHECK_CHARS = vendor_html.MAX_PAGE_CHARS
#: Most claims checked in one text.
MAX_CHECK_CLAIMS = 500
#: Seconds to wait for a URL (the whole fetch: DNS, connection, redirects, body).
FETCH_TIMEOUT_SECONDS = 10
#: Seconds of wall-clock time a whole check may take once its text is in hand (a URL's
#: fetch has its own deadline, :data:`FETCH_TIMEOUT_SECONDS`): reading the stored
#: results, then, in a child process killed when the time is up (``ingest.budget``),
#: the text's reading (cleaning, tables, claims, page arithmetic and numbers), the
#: verdicts and the answer, then the answer's result links. Real articles take about
#: 0.1 s; the view's own work (JSON in and out) keeps a hostile body's answer under 2 s.
CHECK_SECONDS = 1.5
SCHEMA = "benchdb.claims_check/1"
#: Earliest article date accepted: the year before MLPerf's first round (v0.5, 2018-12).
FIRST_PUBLISHED = date(2018, 1, 1)


class CheckError(Exception):
    """The text cannot be checked: ``status`` is the HTTP status that says why (400
    bad input, 413 too large, 422 over the time budget, 502 the URL could not be
    fetched); ``details``: JSON-ready facts for the API's answer (what was cut)."""

    def __init__(
        self, message: str, status: int = 400, details: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.details = details or {}

    def __reduce__(self) -> tuple[Any, ...]:  # raised in the budget's child: pickled whole
        return (CheckError, (str(self), self.status, self.details))


@dataclass(frozen=True)
class _Source:
    text: str
    kind: str
    url: str
    language: str
    raw: str
    html: bool


def _check_published(published: date | None) -> None:
    """A 400 for an article's date before :data:`FIRST_PUBLISHED` or more than a year
    ahead: no MLPerf claim was written then (and 9999-12-31 overflows date sums)."""
    today = timezone.now().date()
    if published is not None and not FIRST_PUBLISHED <= published <= today + timedelta(366):
        raise CheckError(
            f"published {published.isoformat()} is out of range: give a date from"
            f" {FIRST_PUBLISHED.isoformat()} to a year from today"
        )


def too_large(chars: int) -> CheckError:
    """The 413 error for a text of ``chars`` characters: nothing of it is checked; the
    answer gives both counts (``characters``, and ``limit_characters`` from the view)."""
    return CheckError(
        f"text too large: {chars:,} characters; at most {MAX_CHECK_CHARS:,} are checked",
        413,
        {"characters": chars},
    )


def _read(text: str, url: str) -> tuple[bytes, str, str, str]:
    """(bytes, content type, name, kind) of the text or of the page fetched from
    ``url`` (the fetch has its own deadline, ``FETCH_TIMEOUT_SECONDS``)."""
    if bool(text) == bool(url):
        raise CheckError("give either text or url")
    if url:
        why = fetch.url_problem(url)
        if why:
            raise CheckError(f"url {fetch.strip_userinfo(url)[:200]!r} is not fetched: {why}")
        _utf8(url, "url")
        try:
            data, ctype = vendor_pages.vendor_page_fetch(
                url, timeout=FETCH_TIMEOUT_SECONDS, public_only=True
            )
        except vendor_pages.VendorIngestError as exc:
            raise CheckError(str(exc), 502) from exc
        return data, ctype, url, "url"
    if len(text) > MAX_CHECK_CHARS:
        raise too_large(len(text))
    return _utf8(text, "text"), "text/plain; charset=utf-8", "", "text"


def _utf8(s: str, what: str) -> bytes:
    """``s`` in UTF-8; a 400 when it holds a lone surrogate (JSON's ``"\\ud800"``),
    which is no Unicode text."""
    try:
        return s.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise CheckError(
            f"{what} holds a lone surrogate (U+{ord(s[exc.start]):04X}) at character"
            f" {exc.start}: not Unicode text"
        ) from None


@dataclass(frozen=True)
class _Stored:
    """What the verdicts are computed against, read from the database before the fork:
    the rounds' dates, every result's facts, the rounds' holdings and the results' keys
    (``ingest.claims.pins.result_keys``, for the workbench)."""

    dates: dict[str, dict[str, date]]
    results: list[Any]
    holdings: dict[Any, Any]
    keys: Any


#: The stage of a check waiting for its web worker's keeper to build the stored results.
WAITING = "waiting for the stored results (built after a worker's start or a data change)"


def _stored(clock: budget.Clock) -> _Stored:
    """:class:`_Stored`, each part a stage of ``clock``: built once per data version in
    each process (``ingest.claims.warm`` keeps them built in a web worker: a check
    waits for its build at most the budget, :data:`WAITING`), read from the database on
    each call where no data version is kept."""
    clock.stage(WAITING)
    if not warm.ready(clock.left()):
        raise budget.BudgetExceeded(clock.seconds, clock.current)
    clock.stage("reading the stored results")
    dates, results = claim_facts.round_dates(), claim_facts.all_result_facts()
    clock.stage("reading the rounds' holdings")
    holdings = round_trees.round_holdings()
    clock.stage("reading the results' keys")
    keys = claim_pins.result_keys()
    clock.stage("indexing the results by round")
    undated.warm(results)  # built here, once per data version, not in each reader
    return _Stored(dates, results, holdings, keys)


def _read_claims(
    stage: budget.Stage, data: bytes, ctype: str, name: str, kind: str, published: date | None
) -> tuple[_Source, vendor_meta.PageMeta, list[claim_text.Claim], claim_page.PageReading]:
    """The text's reading, pure work: the page cleaned, its metadata, tables, claims and
    page reading (arithmetic, baselines, numbers)."""
    stage("cleaning the page")
    try:
        doc = vendor_html.parse_vendor_page(
            data, name=name, content_type=ctype, max_chars=MAX_CHECK_CHARS
        )
    except vendor_html.PageTooLarge as exc:  # a fetched page's text, or a pasted one's
        raise too_large(exc.chars) from None
    except ParseError as exc:
        raise CheckError(f"nothing to check: {exc.reason}") from None
    raw = vendor_html.decode(data, ctype)[0] if doc.format == "html" else doc.text
    src = _Source(
        doc.text, kind, name if kind == "url" else "", doc.language, raw, doc.format == "html"
    )
    stage("reading the page's date, title and vendor")
    meta = vendor_meta.page_metadata(
        src.raw,
        text=src.text,
        html=src.html,
        url=src.url,
        today=timezone.now().date(),
        published=published,
    )
    stage("finding the tables")
    tables = parse_vendor_tables(src.text)
    stage("finding the claims")
    try:
        found = claim_text.extract_claims(src.text, tables=tables, max_claims=MAX_CHECK_CLAIMS)
    except ParseError as exc:
        raise CheckError(f"{exc.reason}; at most {MAX_CHECK_CLAIMS} are checked", 413) from None
    stage("reading the page's arithmetic, baselines and numbers")
    return src, meta, found, claim_page.read_page(src.text, found, tables)


def _check_text(
    stage: budget.Stage,
    data: bytes,
    ctype: str,
    name: str,
    kind: str,
    published: date | None,
    stored: _Stored,
    pins: dict[int | None, Any] | None,
) -> dict[str, Any]:
    """The work of a check that reads no database, run by :func:`claims_check` in a
    child process: the text read (:func:`_read_claims`), its claims' verdicts against
    ``stored``, and the answer (:func:`_answer`) with its result links' ``url`` None."""
    src, meta, found, reading = _read_claims(stage, data, ctype, name, kind, published)
    stage("checking the claims against the results")
    # the context and verdicts a stored page of the same text gets: no date in the text
    # is no date (not today), the vendor as MLPerf names the submitter, the URL kept
    page = claim_facts.context_of(
        title=meta.title, text=src.text, published=meta.published, vendor=meta.vendor, url=src.url
    )
    checked = claim_facts.check_claims(
        found, page, dates=stored.dates, results=stored.results, holdings=stored.holdings
    )
    checked = claim_facts.with_page_verdicts(checked, reading.claims)
    stage("building the answer (claims, workbench, guidelines, families)")
    return _answer(src, meta, checked, reading, stored, pins)


def claims_check(
    *,
    text: str = "",
    url: str = "",
    published: date | None = None,
    pins: dict[int | None, Any] | None = None,
) -> dict[str, Any]:
    """Check the claims of ``text`` or of the page at ``url`` (one of them).

    ``published``: the article's date (default: the date the text gives; none: claims
    naming no round are read in every round, as for a stored page without a date).
    ``pins``: claim id (None: every claim) ->
    ``benchdb.claims.pins.Pins`` (``ingest.claims.pins.api_pins``): those claims are
    checked again with them; each claim pinned or whose readings disagree gets a ``workbench``
    (``ingest.claims.pins.workbench``: candidates of its open slots, the verdict with its
    pins). Returns ``{"schema": "benchdb.claims_check/1",
    "source": {...}, "counts": {...}, "claims": [...], "guidelines": [...],
    "seconds": float, "stages": {stage: {"wall": s, "cpu": s}}}`` (JSON-ready; ``claims``
    rows are described in :func:`_claim_out`, ``guidelines`` rows are
    ``benchdb.guidelines/1``; ``stages``: where the time went, :class:`ingest.budget.Clock`).
    The whole check after the text is in hand has :data:`CHECK_SECONDS`
    (:func:`_over_budget`). Raises :class:`CheckError` (with its HTTP status) on neither
    or both inputs, a text over :data:`MAX_CHECK_CHARS` characters or
    :data:`MAX_CHECK_CLAIMS` claims, a URL refused or not fetched, nothing readable, or
    the budget spent (422). Writes nothing.
    """
    t0 = time.perf_counter()
    _check_published(published)
    data, ctype, name, kind = _read(text, url)
    clock = budget.Clock(CHECK_SECONDS)
    try:
        stored = _stored(clock)
        out = budget.run_within(
            clock,
            lambda stage: _check_text(stage, data, ctype, name, kind, published, stored, pins),
        )
        clock.check()
        clock.stage("linking the results")
        _link(out["claims"])
        clock.check()
    except budget.BudgetExceeded as exc:
        raise _over_budget(clock, exc, len(data)) from None
    clock.stop()
    return out | {"seconds": round(time.perf_counter() - t0, 3), "stages": clock.timings()}


def _over_budget(clock: budget.Clock, exc: budget.BudgetExceeded, size: int) -> CheckError:
    """The 422 of a check over its :data:`CHECK_SECONDS`: the stage cut (``cut_at``),
    the seconds each stage took (``stages``), nothing checked."""
    clock.stop()
    return CheckError(
        f"the text could not be checked within the check's budget of {CHECK_SECONDS:g} s:"
        f" cut while {exc.stage or 'starting'}; nothing was checked. Check a shorter"
        " part of it.",
        422,
        {
            "budget_seconds": CHECK_SECONDS,
            "cut_at": exc.stage,
            "bytes": size,
            "stages": clock.timings(),
        },
    )


def _answer(
    src: _Source,
    meta: vendor_meta.PageMeta,
    checked: list[tuple[claim_text.Claim, Any, Any]],
    reading: claim_page.PageReading,
    stored: _Stored,
    pins: dict[int | None, Any] | None,
) -> dict[str, Any]:
    """The check's answer, JSON-ready, but each result link's ``url`` (None: the
    database gives it, :func:`_link`)."""
    when, when_source = meta.published, meta.published_source
    if when is None:  # the guidelines' dates only (§7); the claims were read undated
        when, when_source = timezone.now().date(), "none"
    vendor = meta.vendor
    rows = [
        _claim_out(i, c, f, v) | _on_page(p)
        for i, ((c, f, v), p) in enumerate(zip(checked, reading.claims, strict=True))
    ]
    _with_workbench(rows, checked, pins, stored)
    report = guidelines.page_report(
        [r | {"vendor": vendor} for r in rows],
        text=src.text,
        published=when,
        round_dates=vocabulary.ROUND_PUBLISHED,
    )
    fams = families.claim_families(r | {"vendor": vendor, "page_id": 0} for r in rows)
    return {
        "schema": SCHEMA,
        "source": _source_out(src, meta, when, when_source),
        "counts": {
            "claims": len(rows),
            "numbers": reading.counts,
            "verdicts": _count(r["verdict"] for r in rows),
            "families": len(fams),
            **guidelines.counts(report),
        },
        "claims": [{k: v for k, v in r.items() if k != "extracted"} for r in rows],
        "guidelines": [guidelines.finding_row(g) for g in report],
    }


def _link(rows: list[dict[str, Any]]) -> None:
    """Fill each result link's ``url`` of ``rows`` (the answer's claims) from the
    database (:func:`_result_urls`)."""
    links = [lk for r in rows for lk in r["results"]]
    urls = _result_urls(links)
    for lk in links:
        lk["url"] = urls.get((_table(lk["suite"]), lk["id"]))


def _with_workbench(
    rows: list[dict[str, Any]],
    checked: Sequence[Any],
    pins: dict[int | None, Any] | None,
    stored: _Stored,
) -> None:
    """Each row whose claim is pinned or whose readings disagree gets its ``workbench``
    (issue 27: ``ingest.claims.pins.check_with_pins``); a 400 on bad pins."""
    try:
        benches = claim_pins.check_with_pins(
            checked, pins or {}, keys=stored.keys, holdings=stored.holdings
        )
    except claim_pins.P.PinError as exc:
        raise CheckError(str(exc)) from None
    for row, bench in zip(rows, benches, strict=True):
        if bench is not None:
            row["workbench"] = bench


def _source_out(src: _Source, meta: Any, when: date, when_source: str) -> dict[str, Any]:
    """What was checked: kind (text, url), url, characters, language, title, vendor,
    the date used and where it came from (given, html, text, url; ``none``: the text
    gives none, its claims were read undated and ``published`` is today's date, for the
    guidelines only)."""
    return {
        "kind": src.kind,
        "url": src.url,
        "characters": len(src.text),
        "language": src.language,
        "title": meta.title,
        "vendor": meta.vendor,
        "published": when.isoformat(),
        "published_source": when_source,
    }


def _on_page(p: claim_page.ClaimOnPage) -> dict[str, Any]:
    """What the page itself says about a claim (``claim_page``): ``page_verdict``
    (consistent- or inconsistent-with-page, "" when the text gives no figures for it),
    ``page_arithmetic`` and ``baseline`` (what it is compared against; {} when none)."""
    return {"page_verdict": p.page_verdict, "page_arithmetic": p.arithmetic, "baseline": p.baseline}


def _count(values: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


def _table(suite: str) -> str:
    """The registry's ``result_model`` of a link's suite ("" is training)."""
    return registry.suite(suite or "training").result_model


def _result_urls(links: Sequence[dict[str, Any]]) -> dict[tuple[str, int], str]:
    """(result model, pk) -> the linked result's page; ``links``: the answer's
    ``{"suite", "id"}``, each link's table as the registry's ``result_model`` of its
    suite says (three queries at most: Tiny and Mobile results are ``InferenceResult``
    rows, Storage's ``StorageResult``)."""
    out: dict[tuple[str, int], str] = {}
    pks: dict[str, set[int]] = {}
    for lk in links:
        pks.setdefault(_table(lk["suite"]), set()).add(lk["id"])
    training = pks.get("benchdb.Result", set())
    qs = Result.objects.filter(pk__in=training).select_related("round", "system", "benchmark")
    for r in qs:
        out["benchdb.Result", r.pk] = r.get_absolute_url()
    if inference := pks.get("benchdb.InferenceResult"):
        from benchdb.mlperf.inference.suite_selectors import result_url

        iq = InferenceResult.objects.filter(pk__in=inference).select_related("round", "system")
        for i in iq:
            key = (i.round.version, i.system.submitter_folder, i.system.folder, i.source_path)
            out["benchdb.InferenceResult", i.pk] = result_url(i.round.suite, i.pk, *key)
    for pk in StorageResult.objects.filter(pk__in=pks.get("benchdb.StorageResult", ())).values_list(
        "pk", flat=True
    ):
        out["benchdb.StorageResult", pk] = StorageResult(pk=pk).get_absolute_url()
    return out


def _claim_out(
    i: int,
    c: claim_text.Claim,
    f: Any,
    v: Any,
) -> dict[str, Any]:
    """One checked claim: ``id`` (its place in the text, from 0), ``sentence``,
    ``start``/``end`` (characters in the checked text), ``kind``, ``value``, ``unit``,
    ``qualifier``, ``compared_value``, ``claimed`` (in words), ``system``,
    ``compared_system``, ``benchmark`` (as printed), ``benchmark_key`` and ``round`` (as
    resolved: the frame's, not the parser's first guess), ``division``,
    ``result_ids``, ``verdict`` and ``verdict_note``, ``recomputed_value``,
    ``compared_recomputed_value``, ``recomputed`` (in words), the reasoning
    (:func:`_reasoning_out`: frame, readings, open slots, tolerance), ``flags``
    (``[{"code", "label", "sentence", "clause", "clause_title", "url"}]``), ``results``
    (``[{"role", "suite", "id", "url"}]``, ``url`` None until :func:`_link`), ``reason``
    (why, when unchecked)."""
    row: dict[str, Any] = {
        "id": i,
        "sentence": c.sentence,
        "start": c.start,
        "end": c.end,
        "kind": c.kind,
        "value": c.value,
        "unit": c.unit,
        "qualifier": c.qualifier,
        "compared_value": c.compared_value,
        "system": c.system,
        "compared_system": c.compared_system,
        "benchmark": c.benchmark,
        "benchmark_key": f.benchmark_key,
        "round": f.round,
        "division": c.division,
        "result_ids": list(c.result_ids),
        "verdict": v.verdict,
        "recomputed_value": v.recomputed_value,
        "compared_recomputed_value": v.compared_recomputed_value,
        "reason": str(v.details.get("reason", "")),
        **_reasoning_out(f, v),
        "extracted": c.as_dict(),
        "position": i,
    }
    note = explain.verdict_explanation(v.verdict)
    row["verdict_note"] = note.sentence
    row["claimed"] = explain.claimed_text(row)
    row["recomputed"] = explain.recomputed_text(row, v.details)
    row["flags"] = list(v.flags)
    row["flag_notes"] = [_flag_out(code) for code in v.flags]
    row["results"] = [  # each url filled by the parent (:func:`_link`)
        {"role": lk.role, "suite": lk.suite, "id": lk.result, "url": None} for lk in v.links
    ]
    return row


#: The slots of a claim's frame as the check shows them (issue 20: an unfilled slot is
#: explicit, "").
FRAME_SLOTS = (
    "suite",
    "round",
    "division",
    "benchmark_key",
    "scenario",
    "system",
    "accelerators",
    "submitter",
    "framework",
    "compared_system",
    "compared_accelerators",
    "baseline",
    "metric",
    "qualifier",
    "value",
    "value_high",
    "unit",
    "per_accelerator",
    "context",
)


def _reasoning_out(f: Any, v: Any) -> dict[str, Any]:
    """Why the verdict: ``frame`` (:func:`_frame_out`), ``readings`` (each reading the
    text allows: label, value, holds, slots, results), ``n_readings``, ``open_slots``,
    ``tolerance`` (fraction)."""
    slots = list(v.details.get("open_slots", []))
    if v.details.get("open_slot"):
        slots = [v.details["open_slot"]]
    return {
        "frame": _frame_out(f),
        "readings": list(v.details.get("readings_list", [])),
        "n_readings": v.details.get("n_readings", 0),
        "open_slots": slots,
        "tolerance": v.details.get("tolerance"),
    }


def _frame_out(f: Any) -> dict[str, Any]:
    """A resolved claim's frame (``benchdb.claims.facts.ClaimFacts``) as JSON: every
    slot of :data:`FRAME_SLOTS`, "" (or None) where unfilled; ``context`` lists the
    slots taken from outside the sentence (title, page, date)."""
    out = {k: getattr(f, k, "") for k in FRAME_SLOTS}
    out["context"] = list(out["context"] or ())
    return out


def _flag_out(code: str) -> dict[str, Any]:
    e = explain.flag_explanation(code)
    return {
        "code": code,
        "label": e.label,
        "sentence": e.sentence,
        "clause": e.clause.number if e.clause else None,
        "clause_title": e.clause.title if e.clause else None,
        "url": e.clause.url if e.clause else None,
    }

"""Vendor pages: the services that write them, their claims and corrections.

``vendor_page_ingest`` reads a page (bytes, a file or an http(s) URL), cleans it,
finds its vendor tables and claims (``ingest.claims.parsers.page_html``,
``ingest.claims.parsers.text``), checks every claim against the stored MLPerf results
(``benchdb.claims.verdicts``) and stores it all in one short transaction: the same bytes twice
are one page, and a page either goes in whole or not at all.
``claims_reverify`` checks a page's claims again (after new MLPerf data; run again
with nothing new, it writes nothing);
``claim_links_correct`` lets a person set the results a claim rests on, and keeps
who did it, when, and the links before and after.
Each of the three then stores the result IDs the page cites for the results its claims
link (``ingest.result_ids.result_ids_cite``).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, cast

from django.db import IntegrityError, transaction
from django.utils import timezone

from benchdb import suites as registry
from benchdb import vocabulary
from benchdb.claims import other_suites, readings, round_counts, round_wins, verdicts
from benchdb.models import (
    Claim,
    ClaimCorrection,
    ClaimResult,
    Result,
    VendorPage,
    VendorResult,
)
from ingest import budget, fetch, result_ids, round_trees
from ingest.claims import facts as claim_facts
from ingest.claims.parsers import page as claim_page
from ingest.claims.parsers import page_html as vendor_html
from ingest.claims.parsers import page_meta as vendor_meta
from ingest.claims.parsers import text as claim_text
from ingest.claims.parsers.page_tables import VendorRow, VendorTable, parse_vendor_tables
from ingest.fetch import MAX_PAGE_BYTES as MAX_PAGE_BYTES  # re-exported: the upload view
from ingest.parsers.types import ParseError

FETCH_TIMEOUT_SECONDS = 30
#: Most claims stored for one page. The shared pages have at most 40; a page with more
#: than this (a generated or concatenated document) is refused rather than stored in
#: part, since every claim is checked, stored and listed.
MAX_CLAIMS_PER_PAGE = 2000
#: Seconds of wall-clock time a page's reading (cleaning, tables, claims, numbers) may
#: take (``ingest.budget``): a real page takes well under a second, 5 MiB of prose
#: about 9 s; an 80,000-row HTML table took minutes before issue 21 and is cut here.
READ_SECONDS = 30.0


class VendorIngestError(Exception):
    """The page cannot be ingested (not found, not fetched, too large, too deep, too
    many claims, nothing readable); names the input."""


@dataclass
class VendorIngestReport:
    """What one ingest did. ``created`` is False when the bytes were already stored
    (then nothing was written); ``verdicts`` counts claims by verdict."""

    page_id: int
    created: bool
    claims: int = 0
    vendor_results: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "verdicts": dict(self.verdicts)}


def vendor_page_fetch(
    url: str, *, timeout: float = FETCH_TIMEOUT_SECONDS, public_only: bool = False
) -> tuple[bytes, str]:
    """GET an http(s) URL: (body, content type). Raises :class:`VendorIngestError` on
    another scheme, a network error or a timeout (``timeout`` seconds), a body over
    :data:`MAX_PAGE_BYTES`, or, with ``public_only`` (a URL typed into the site), a
    URL or redirect to a loopback, private or reserved address."""
    if not fetch.is_http_url(url):
        raise VendorIngestError(f"{url}: only http and https URLs are fetched")
    try:
        got = fetch.vendor_fetch(url=url, timeout=timeout, public_only=public_only)
    except (fetch.SyncError, fetch.TransientError) as exc:
        raise VendorIngestError(f"cannot fetch: {exc}") from exc
    return got.body, got.content_type


def vendor_page_ingest(
    *,
    data: bytes | None,
    path_or_url: str,
    published: date | None = None,
    url: str = "",
    user: Any = None,
    content_type: str = "",
    title: str = "",
    vendor: str = "",
) -> VendorIngestReport:
    """Ingest one vendor page.

    ``data``: the page's bytes (at most :data:`MAX_PAGE_BYTES`; a caller may pass one
    byte more to say "larger"), or None to read ``path_or_url`` (a file, or an http(s)
    URL fetched with a timeout). ``path_or_url`` also gives the file name.
    ``published``, ``title``, ``vendor``: the page's date, title and vendor; those not
    given are looked for in the page (``ingest.claims.parsers.page_meta``: HTML metadata,
    the headline and date of the page's opening, the URL).
    ``url``: the page's source URL (default: ``path_or_url`` when it is a URL).
    ``user``: who uploaded it (None from the command line).
    Raises :class:`VendorIngestError` (file missing, fetch failed, larger than
    :data:`MAX_PAGE_BYTES`, HTML nested too deep, more than :data:`MAX_CLAIMS_PER_PAGE`
    claims, nothing readable); nothing is written then.
    """
    if data is None:
        data, content_type = _read(path_or_url)
    if len(data) > MAX_PAGE_BYTES:  # the one check of the limit, whatever the source
        raise VendorIngestError(
            f"{path_or_url}: larger than {MAX_PAGE_BYTES // (1024 * 1024)} MB"
            f" ({MAX_PAGE_BYTES} bytes); split the page"
        )
    sha = hashlib.sha256(data).hexdigest()
    existing = VendorPage.objects.filter(sha256=sha).only("pk").first()
    if existing:
        return VendorIngestReport(existing.pk, False)
    doc, tables, found, reading = _parse_within_budget(data, path_or_url, content_type)
    given = {"title": title, "vendor": vendor, "published": published}
    page = _new_page(
        sha, data, doc, path_or_url=path_or_url, content_type=content_type, url=url, given=given
    )
    page.created_by = user if getattr(user, "is_authenticated", False) else None
    rows = [_vendor_result(t, r) for t in tables for r in t.rows]
    checked = claim_facts.check_claims(found, claim_facts.page_context(page))
    checked = claim_facts.with_page_verdicts(checked, reading.claims)
    page.set_numbers(_json_safe(reading.numbers))
    stored = _store_page(page, rows, checked, reading.claims)
    if stored is None:
        return VendorIngestReport(_existing_page_id(sha), False)
    result_ids.result_ids_cite(page_id=page.pk)
    verdict_counts = Counter(v.verdict for _, _, v in checked)
    return VendorIngestReport(page.pk, True, len(checked), len(rows), verdict_counts)


def _parse_within_budget(
    data: bytes, path_or_url: str, content_type: str
) -> tuple[
    vendor_html.VendorDocument, list[VendorTable], list[claim_text.Claim], claim_page.PageReading
]:
    """:func:`_parse` and the page reading (``claim_page.read_page``), pure work run in
    a child process given :data:`READ_SECONDS` (``ingest.budget``);
    :class:`VendorIngestError` naming the stage cut when they take longer."""

    def work(stage: budget.Stage) -> Any:
        stage("cleaning the page, finding its tables and claims")
        doc, tables, found = _parse(data, path_or_url, content_type)
        stage("reading the page's arithmetic, baselines and numbers")
        return doc, tables, found, claim_page.read_page(doc.text, found, tables)

    try:
        return budget.run_within(READ_SECONDS, work)  # type: ignore[no-any-return]
    except budget.BudgetExceeded as exc:
        raise VendorIngestError(
            f"{path_or_url}: not read within {READ_SECONDS:g} s (cut while {exc.stage});"
            " nothing stored: split the page"
        ) from exc


def _parse(
    data: bytes, path_or_url: str, content_type: str
) -> tuple[vendor_html.VendorDocument, list[VendorTable], list[claim_text.Claim]]:
    """The page's text, tables and claims; :class:`VendorIngestError` when it cannot
    be read or makes more than :data:`MAX_CLAIMS_PER_PAGE` claims."""
    try:
        doc = vendor_html.parse_vendor_page(data, name=path_or_url, content_type=content_type)
    except ParseError as exc:
        raise VendorIngestError(str(exc)) from exc
    tables = parse_vendor_tables(doc.text)
    try:
        found = claim_text.extract_claims(doc.text, tables=tables, max_claims=MAX_CLAIMS_PER_PAGE)
    except ParseError as exc:
        raise VendorIngestError(
            f"{path_or_url}: {exc.reason} found; at most {MAX_CLAIMS_PER_PAGE} are stored"
            " per page (split the page)"
        ) from exc
    return doc, tables, found


def _new_page(
    sha: str,
    data: bytes,
    doc: vendor_html.VendorDocument,
    *,
    path_or_url: str,
    content_type: str,
    url: str,
    given: dict[str, Any],
) -> VendorPage:
    """The page row (not saved), its title, vendor and date ``given`` (title, vendor,
    published) or found in it (``vendor_meta.page_metadata``; no date after today)."""
    is_url = fetch.is_http_url(path_or_url)
    url = url or (path_or_url if is_url else "")
    html = doc.format == "html"
    meta = vendor_meta.page_metadata(
        vendor_html.decode(data, content_type)[0] if html else doc.text,
        text=doc.text,
        html=html,
        url=url,
        today=timezone.now().date(),
        **given,
    )
    return VendorPage(
        sha256=sha,
        raw=data,
        text=doc.text,
        format=doc.format,
        encoding=doc.encoding[:40],
        title=meta.title,
        url=url,
        file_name="" if is_url else path_or_url.rsplit("/", 1)[-1][:300],
        published=meta.published,
        published_source=meta.published_source,
        vendor=meta.vendor,
        vendor_source=meta.vendor_source,
        retrieved=timezone.now(),
        language=doc.language,
    )


def _store_page(
    page: VendorPage,
    rows: list[VendorResult],
    checked: Sequence[tuple[claim_text.Claim, verdicts.ClaimFacts, verdicts.Verification]],
    on_page: Sequence[claim_page.ClaimOnPage],
) -> VendorPage | None:
    """Write the page, its table rows and claims in one transaction; None when the
    same bytes were stored meanwhile by another request (then nothing is written)."""
    try:
        with transaction.atomic():
            page.save()
            for row in rows:
                row.page = page
            VendorResult.objects.bulk_create(rows)
            by_row = {(r.table, r.row): r for r in rows}
            _store_claims(page, checked, by_row, on_page)
    except IntegrityError:
        if not VendorPage.objects.filter(sha256=page.sha256).exists():
            raise
        return None
    return page


def _existing_page_id(sha256: str) -> int:
    """The id of the stored page with these bytes (``VendorPage.DoesNotExist`` if none)."""
    return VendorPage.objects.only("pk").get(sha256=sha256).pk


def _read(path_or_url: str) -> tuple[bytes, str]:
    """Bytes of a URL or file: at most one byte over the limit (the caller checks)."""
    if fetch.is_http_url(path_or_url):
        return vendor_page_fetch(path_or_url)
    try:
        with open(path_or_url, "rb") as f:
            return f.read(MAX_PAGE_BYTES + 1), ""
    except OSError as exc:
        raise VendorIngestError(f"{path_or_url}: {exc.strerror or exc}") from exc


def _vendor_result(t: VendorTable, r: VendorRow) -> VendorResult:
    v = r.values
    metric, value, unit = "", None, ""
    num = _number(v.get("time_to_train", ""))
    if num is not None:
        metric, value, unit = "time-to-train", num, "min"
    elif _number(v.get("throughput", "")) is not None:
        metric, value = "throughput", _number(v.get("throughput", ""))
        head = next((c for c in t.columns if c.lower().startswith("throughput")), "")
        unit = head[head.find("(") + 1 : head.rfind(")")] if "(" in head else ""
    model = v.get("model", "")
    acc = claim_text.to_count(_number(v.get("accelerators", "").split("x")[0]))
    rnd = claim_text.round_in(model) or claim_text.round_in(t.caption)
    div = (
        "closed"
        if "closed" in t.caption.lower()
        else "open"
        if "open division" in t.caption.lower()
        else ""
    )
    bench = next((key for pat, key in vocabulary.BENCHMARKS if _search(pat, model)), "")
    return VendorResult(
        table=t.index,
        row=r.index,
        line=r.line,
        caption=t.caption,
        columns=list(t.columns),
        cells=list(r.cells),
        carried=list(r.carried),
        model=model[:200],
        benchmark_key=bench,
        framework=v.get("framework", "")[:200],
        system=(v.get("system") or v.get("accelerator") or "")[:200],
        accelerators=acc,
        metric=metric,
        value=value,
        unit=unit[:32],
        result_id=v.get("result_id", "")[:32],
        round=rnd,
        division=div,
    )


def _search(pattern: str, text: str) -> bool:
    return bool(re.search(pattern, text, re.I))


def _number(cell: str) -> float | None:
    """The number a cell opens with, None if none or no finite figure (``to_number``)."""
    m = re.match(r"\s*(\d[\d,]*(?:\.\d+)?)", cell or "")
    return claim_text.to_number(m.group(1)) if m else None


def _db_float(value: float | None) -> float | None:
    """A float for a FloatField or JSON: None for NaN and infinities (PostgreSQL's
    jsonb has neither, and a CSV or JSON export must not carry them)."""
    return value if value is not None and math.isfinite(value) else None


def _json_safe(value: Any, *, parse_int: Any = int) -> Any:
    """``value`` as JSON stores it: non-finite floats None, tuples lists, keys strings."""
    return json.loads(
        json.dumps(value, default=str), parse_int=parse_int, parse_constant=lambda _: None
    )


def _same(stored: Any, new: Any) -> bool:
    """Whether a field read back from the database equals a new value. Numbers are
    compared as floats: jsonb gives 1.2345678901234567e+18 back as an integer."""
    return bool(_json_safe(stored, parse_int=float) == _json_safe(new, parse_int=float))


# --- checking -----------------------------------------------------------------------


def _store_claims(
    page: VendorPage,
    checked: Sequence[tuple[claim_text.Claim, verdicts.ClaimFacts, verdicts.Verification]],
    by_row: dict[tuple[int, int], VendorResult],
    on_page: Sequence[claim_page.ClaimOnPage],
) -> None:
    rows = []
    for i, ((c, f, v), p) in enumerate(zip(checked, on_page, strict=True)):
        row = Claim(
            page=page,
            position=i,
            source=c.source,
            vendor_result=by_row.get(c.table_row) if c.table_row else None,
            page_verdict=p.page_verdict,
            page_arithmetic=_json_safe(p.arithmetic),
            baseline_facts=_json_safe(p.baseline),
        )
        _apply(row, c.as_dict(), f, v)
        rows.append(row)
    Claim.objects.bulk_create(rows)
    pairs = zip(rows, checked, strict=True)
    links = [_claim_result(row, lk) for row, (_, _, v) in pairs for lk in v.links]
    ClaimResult.objects.bulk_create([lk for lk in links if lk is not None])


def _claim_result(row: Claim, lk: verdicts.Link) -> ClaimResult | None:
    """The row of a link: to a training or HPC ``Result``, an ``InferenceResult``
    (Inference and the suites stored in its table) or a ``StorageResult``, as the
    registry's ``result_model`` of the link's suite says. None for a suite whose
    results have no link column (none today)."""
    model = registry.suite(lk.suite or "training").result_model
    if model == "benchdb.InferenceResult":
        return ClaimResult(claim=row, inference_result_id=lk.result, role=lk.role)
    if model == "benchdb.Result":
        return ClaimResult(claim=row, result_id=lk.result, role=lk.role)
    if model == "benchdb.StorageResult":
        return ClaimResult(claim=row, storage_result_id=lk.result, role=lk.role)
    return None


def _stored_link(lk: ClaimResult) -> verdicts.Link:
    """A stored link as the check gives it: its result's suite (Inference's table holds
    Automotive, Tiny and Mobile too: the linked result's round says which)."""
    if lk.storage_result_id is not None:
        return verdicts.Link(lk.storage_result_id, lk.role, "storage")
    if lk.inference_result_id is not None:
        suite = lk.inference_result.round.suite if lk.inference_result else "inference"
        return verdicts.Link(lk.inference_result_id, lk.role, suite)
    return verdicts.Link(lk.result_id or 0, lk.role)


def _apply(
    row: Claim, extracted: dict[str, Any], f: verdicts.ClaimFacts, v: verdicts.Verification
) -> None:
    """Copy what was extracted and how it was checked onto a Claim row (no save)."""
    row.kind = extracted["kind"]
    row.sentence = extracted["sentence"]
    for name in ("sentence_start", "sentence_end", "start", "end"):
        setattr(row, name, extracted[name])
    row.value, row.compared_value = (
        _db_float(extracted["value"]),
        _db_float(extracted["compared_value"]),
    )
    row.unit, row.qualifier = extracted["unit"][:16], extracted["qualifier"][:16]
    row.system, row.compared_system = extracted["system"][:200], extracted["compared_system"][:200]
    row.benchmark, row.benchmark_key = extracted["benchmark"][:200], extracted["benchmark_key"][:64]
    row.round, row.division = f.round, extracted["division"]
    row.result_ids = list(extracted["result_ids"])
    row.extracted = _json_safe(extracted)
    _apply_verification(row, v)


def _apply_verification(row: Claim, v: verdicts.Verification) -> list[str]:
    """Set a Claim row's verification fields from ``v`` (no save); returns the names
    of the fields whose stored value changes (as the database would store it)."""
    new = {
        "verdict": v.verdict,
        "recomputed_value": _db_float(v.recomputed_value),
        "compared_recomputed_value": _db_float(v.compared_recomputed_value),
        "flags": list(v.flags),
        "details": _json_safe(v.details),
    }
    changed = [name for name, value in new.items() if not _same(getattr(row, name), value)]
    for name, value in new.items():
        setattr(row, name, value)
    return changed


_VERIFY_FIELDS = [
    "round",
    "verdict",
    "recomputed_value",
    "compared_recomputed_value",
    "flags",
    "details",
]


def claims_reverify(*, page_id: int) -> Counter[str]:
    """Check a page's claims again against the results stored now, after new MLPerf
    data (a sync) or new round dates, and read the page again
    (``claim_page.read_page``: each claim's page verdict, page arithmetic and
    baseline, and the page's numbers, as the parsers give them now, from the stored
    text and each claim as extracted); returns the count of the page's claims by verdict.

    Idempotent: a claim whose check comes out as stored is not written, and its
    links (``ClaimResult`` rows, with their ids) are kept; only the fields that
    change are saved (``update_fields``), and a claim's links are replaced only when
    they differ. Links a person set (``corrected``) are kept and recomputed: the
    check runs on them, and they stay when the check itself links nothing (as in
    :func:`claim_links_correct`). One transaction; the page's claims are locked
    (``select_for_update``) while they are rewritten. Raises
    ``VendorPage.DoesNotExist`` for an unknown page.
    """
    fields = ("pk", "published", "title", "text", "vendor", "numbers")
    page = VendorPage.objects.only(*fields).get(pk=page_id)
    context = claim_facts.page_context(page)
    dates = claim_facts.round_dates()
    results = claim_facts.all_result_facts()
    holdings = round_trees.round_holdings()  # counts over a round held whole
    counts: Counter[str] = Counter()
    with transaction.atomic():
        rows = list(
            Claim.objects.select_for_update()
            .filter(page=page)
            .order_by("position")
            .prefetch_related("links", "links__inference_result__round")
        )
        on_page = _read_again(page, rows)
        for row, p in zip(rows, on_page, strict=True):
            facts = claim_facts.claim_facts(row.extracted, context, dates)
            stored = [_stored_link(lk) for lk in row.links.all()]
            pinned = stored if row.corrected else None
            counted = (
                None
                if pinned
                else round_counts.verify(facts, holdings)
                or round_wins.verify(facts, holdings)
                or other_suites.verify_count(facts, results)  # as check_claims
            )
            v = counted or verdicts.verify_claim(facts, results, pinned=pinned, holdings=holdings)
            if not pinned:  # as at ingest: claim_facts.with_page_verdicts
                v = readings.page_conflict(v, p.page_verdict)
            changed = ["round"] if row.round != facts.round else []
            row.round = facts.round
            changed += _apply_verification(row, v) + _apply_page_reading(row, p)
            if changed:
                row.save(update_fields=changed)
            links = list(v.links or pinned or ())
            if links != stored:
                _replace_links(row, links)
            counts[v.verdict] += 1
    result_ids.result_ids_cite(page_id=page_id)
    return counts


def _read_again(page: VendorPage, rows: Sequence[Claim]) -> list[claim_page.ClaimOnPage]:
    """The page read again from its text and its claims as extracted (rows in position
    order); saves the page's ``numbers`` when they changed."""
    found = [cast(claim_text.Claim, claim_text.Claim.from_mapping(r.extracted)) for r in rows]
    reading = claim_page.read_page(page.text, found, parse_vendor_tables(page.text))
    numbers = _json_safe(reading.numbers)
    if not _same(page.numbers, numbers):
        page.set_numbers(numbers)
        page.save(update_fields=["numbers", "numbers_not_claims"])
    return reading.claims


def _apply_page_reading(row: Claim, p: claim_page.ClaimOnPage) -> list[str]:
    """Set a Claim row's page verdict, page arithmetic and baseline (no save); returns
    the names of the fields whose stored value changes."""
    new = {
        "page_verdict": p.page_verdict,
        "page_arithmetic": _json_safe(p.arithmetic),
        "baseline_facts": _json_safe(p.baseline),
    }
    changed = [name for name, value in new.items() if not _same(getattr(row, name), value)]
    for name in changed:
        setattr(row, name, new[name])
    return changed


def _replace_links(row: Claim, links: Sequence[verdicts.Link]) -> None:
    ClaimResult.objects.filter(claim=row).delete()
    rows = [_claim_result(row, lk) for lk in links]
    ClaimResult.objects.bulk_create([lk for lk in rows if lk is not None])


def claim_links_correct(
    *, claim_id: int, links: Sequence[tuple[int, str]], user: Any, note: str = ""
) -> Claim:
    """Set the results a claim rests on, re-check it with them, and keep the
    correction (who, when, links and verdict before and after, ``note``).

    ``links``: ``(result pk, role)`` pairs, role ``subject``, ``compared`` or
    ``baseline``; at least one subject. ``user`` must be a logged-in user. Raises
    ValueError on an unknown role, a missing subject or result, or an anonymous user.
    """
    if not getattr(user, "is_authenticated", False):
        raise ValueError("a correction needs a logged-in user")
    roles = {role for _, role in links}
    if not roles <= {"subject", "compared", "baseline"} or "subject" not in roles:
        raise ValueError("links need a subject; roles are subject, compared, baseline")
    pks = {pk for pk, _ in links}
    if Result.objects.filter(pk__in=pks).count() != len(pks):
        raise ValueError("unknown result in links")
    with transaction.atomic():
        row = Claim.objects.select_for_update().select_related("page").get(pk=claim_id)
        old = [{"result": lk.result_id, "role": lk.role} for lk in row.links.all()]
        old_verdict = row.verdict
        context = claim_facts.page_context(row.page)
        facts = claim_facts.claim_facts(row.extracted, context, claim_facts.round_dates())
        pinned = [verdicts.Link(pk, role) for pk, role in links]
        v = verdicts.verify_claim(facts, claim_facts.result_facts(suite="training"), pinned=pinned)
        _apply_verification(row, v)
        row.corrected = True
        row.save(update_fields=[*_VERIFY_FIELDS[1:], "corrected"])
        _replace_links(row, v.links or pinned)
        ClaimCorrection.objects.create(
            claim=row,
            user=user,
            created=timezone.now(),
            old_links=old,
            new_links=[{"result": pk, "role": role} for pk, role in links],
            old_verdict=old_verdict,
            new_verdict=v.verdict,
            note=note,
        )
    result_ids.result_ids_cite(page_id=row.page_id)
    return row

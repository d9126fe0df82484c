"""MLPerf Training result IDs on results: derived by the round's rule at ingest, cited
by vendor pages (``result_ids_cite``, after a page's claims are stored or checked again),
and imported from a table users hold from MLCommons (``manage.py import result-ids``).

Precedence (``Result.IdOrigin``): an imported ID overrides any other; a vendor-cited ID
overrides a derived one; a derived ID never replaces an imported or vendor-cited one. The
rule is ``benchdb.mlperf.training.result_ids``. An ID names a system row (round, division, system),
so a cited or imported ID is set on every result of the row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Prefetch, Q

from benchdb.mlperf.training import result_ids as rule
from benchdb.models import Claim, ClaimResult, Result, ResultIdCitation, Round, System
from benchdb.vocabulary import ROUNDS, canonical_benchmark, round_tuple
from ingest.parsers.result_id_table import IdRow, parse_id_table

_SUMMARY_FIELDS = (
    "division",
    "status",
    "submitter",
    "system_name",
    "host_processor_model_name",
    "host_processors_per_node",
    "number_of_nodes",
    "accelerator_model_name",
    "accelerators_per_node",
    "framework",
    "hw_notes",
    "sw_notes",
)


def _summary_row(
    system: System, scores: dict[str, float | None], tag: str
) -> rule.SummaryRow | None:
    """The summarizer's row of a system (``summarize_results``), or None where the
    summarizer skips it (a field missing, a count not an integer, 4.0 on: a status its
    ``config.yaml`` does not know)."""
    raw: dict[str, Any] = system.raw
    if any(k not in raw for k in _SUMMARY_FIELDS):
        return None
    try:
        nodes = int(raw["number_of_nodes"])
        hosts, accels = (
            int(raw["host_processors_per_node"]) * nodes,
            int(raw["accelerators_per_node"]) * nodes,
        )
    except (TypeError, ValueError):
        return None
    status = str(raw["status"])
    if rule.tag_key(tag) >= (4, 0):
        status = rule.summarizer_availability(status, tag) or ""
        if not status:
            return None
    notes = ";".join(str(s) for s in (raw["hw_notes"], raw["sw_notes"]) if s)
    return rule.SummaryRow(
        str(raw["division"]),
        status,
        str(raw["submitter"]),
        str(raw["system_name"]),
        str(raw["host_processor_model_name"]),
        hosts,
        str(raw["accelerator_model_name"]),
        accels,
        str(raw["framework"]),
        notes,
        tuple(scores[k] for k in sorted(scores)),
        system.folder,
        "",
        key=(str(system.pk),),
    )


def result_ids_derive(*, rnd: Round) -> int:
    """Set the derived ID of every result of a training round under its rule
    (``rule.published_ids``; none for a round without one) and clear derived IDs the rule
    no longer gives. Imported and vendor-cited IDs are left alone. Returns the number of
    results whose ID changed."""
    if rnd.suite == Round.Suite.TRAINING and round_tuple(rnd.version) >= (6, 0):
        # From v6.0 a system's ID comes from the round's frozen ID list, not its row's
        # place (``ingest.result_ids_list``); a re-ingest keeps what that list gave.
        return 0
    if rnd.suite != Round.Suite.TRAINING or rnd.version not in rule.PUBLISHED_RULES:
        ids: dict[tuple[str, ...], str] = {}
    else:
        tag = ROUNDS[rnd.version][1]
        systems = System.objects.filter(round=rnd).prefetch_related("results__benchmark")
        rows = []
        for s in systems:
            scores = {r.benchmark.key: r.score_minutes for r in s.results.all()}
            row = _summary_row(
                s, {k: v if v is None or math.isfinite(v) else None for k, v in scores.items()}, tag
            )
            if row is not None:
                rows.append(row)
        ids = rule.published_ids(rows, rnd.version, tag)
    changed = []
    mine = Q(result_id_origin__in=[Result.IdOrigin.DERIVED, Result.IdOrigin.NONE])
    for result in Result.objects.filter(mine, round=rnd).only("id", "system_id", "result_id"):
        want = ids.get((str(result.system_id),), "")
        if result.result_id != want:
            result.result_id = want
            result.result_id_origin = Result.IdOrigin.DERIVED if want else Result.IdOrigin.NONE
            changed.append(result)
    Result.objects.bulk_update(changed, ["result_id", "result_id_origin"])
    return len(changed)


@dataclass
class IdImportReport:
    """What an import did: ``imported`` results given an ID, ``unchanged`` already had
    it, ``conflicts`` (file:line and what was replaced), ``unmatched`` (file:line and why
    no result took the row)."""

    imported: int = 0
    unchanged: int = 0
    conflicts: list[str] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _targets(row: IdRow) -> tuple[list[Result], str]:
    """The results a row names, or [] and why."""
    rnd = Round.objects.filter(suite=Round.Suite.TRAINING, version=row.round).first()
    if rnd is None:
        return [], f"round {row.round} is not ingested"
    who = Q(submitter_folder__iexact=row.submitter) | Q(submitter__name__iexact=row.submitter)
    what = Q(folder__iexact=row.system) | Q(name__iexact=row.system)
    systems = list(System.objects.filter(who & what, round=rnd))
    if not systems:
        return [], f"no system {row.submitter}/{row.system} in {row.round}"
    if len(systems) > 1:
        names = ", ".join(sorted(s.folder for s in systems))
        return (
            [],
            f"{row.submitter}/{row.system} names {len(systems)} systems ({names}): give the folder",
        )
    results = list(Result.objects.filter(system=systems[0]).select_related("benchmark"))
    if row.division:
        results = [r for r in results if r.division == row.division]
    if row.benchmark:
        want = canonical_benchmark(row.benchmark, row.round)
        results = [r for r in results if want in (r.benchmark.key, r.benchmark_folder)]
    if not results:
        return (
            [],
            f"{row.submitter}/{row.system} has no result {row.benchmark} {row.division}".rstrip(),
        )
    return results, ""


def result_ids_import(*, data: bytes, path: str) -> IdImportReport:
    """Import a result-ID table (``ingest.parsers.result_id_table``): each row's ID is set
    on the results it names (origin ``imported``), replacing any other ID; a replaced
    different ID is reported as a conflict, a row that names no result (or several
    systems) as unmatched. Raises ``IdTableError`` (every fault, with file and line) and
    writes nothing when the table is not valid. One transaction."""
    rows = parse_id_table(data, path)
    report = IdImportReport()
    changed: dict[int, Result] = {}
    for row in rows:
        results, why = _targets(row)
        if why:
            report.unmatched.append(f"{path}:{row.line}: {why}")
        for r in results:
            r = changed.get(r.pk, r)
            if r.result_id == row.result_id and r.result_id_origin == Result.IdOrigin.IMPORTED:
                report.unchanged += 1
                continue
            if r.result_id and r.result_id != row.result_id:
                report.conflicts.append(
                    f"{path}:{row.line}: {r.source_path} had {r.result_id} "
                    f"({r.result_id_origin or 'none'}), now {row.result_id}"
                )
            r.result_id, r.result_id_origin = row.result_id, Result.IdOrigin.IMPORTED
            changed[r.pk] = r
    with transaction.atomic():
        Result.objects.bulk_update(list(changed.values()), ["result_id", "result_id_origin"])
        _settle({r.round_id for r in changed.values()})  # citations now meet an imported ID
    report.imported = len(changed)
    return report


# --- IDs vendor pages cite -------------------------------------------------------------

Cite = ResultIdCitation.Status
RowKey = tuple[int, str, int]  # round pk, division, system pk: one row of the ID table


def _id_round(result_id: str) -> str:
    """``"3.0-2053"`` -> ``"v3.0"``; "" for anything not an MLPerf result ID."""
    m = rule.RESULT_ID.fullmatch(result_id)
    return f"v{m.group(1)}.{m.group(2)}" if m else ""


def _page_citations(page_id: int) -> list[ResultIdCitation]:
    """The page's citations (unsaved, no status): each claim that is consistent (or
    whose links a person set), links exactly one training subject, and cites exactly one
    ID of that subject's round (its sentence's IDs and its table row's MLPerf-ID cell).
    A claim citing two IDs of the round (a comparison) names no one result: skipped."""
    subjects = ClaimResult.objects.filter(role="subject", result__isnull=False).select_related(
        "result__round"
    )
    claims = (
        Claim.objects.filter(page_id=page_id)
        .select_related("vendor_result")
        .prefetch_related(Prefetch("links", queryset=subjects))
    )
    out = []
    for c in claims:
        if c.verdict != Claim.Verdict.CONSISTENT and not c.corrected:
            continue
        linked = [lk.result for lk in c.links.all()]
        if len(linked) != 1 or linked[0] is None:
            continue
        r = linked[0]
        ids = set(c.result_ids) | {c.vendor_result.result_id if c.vendor_result else ""}
        mine = sorted(i for i in ids if _id_round(i) == r.round.version)
        if len(mine) == 1:
            out.append(ResultIdCitation(claim=c, page_id=page_id, result=r, cited_id=mine[0]))
    return out


def _row(r: Result) -> RowKey:
    return (r.round_id, r.division, r.system_id)


def _statuses(
    cits: list[ResultIdCitation], imported: dict[RowKey, set[str]]
) -> dict[int, tuple[str, str]]:
    """Citation pk -> (status, note), from every citation of their rounds: a row cited
    with two IDs, or an ID cited for two rows, is a conflict on each citation involved;
    an imported ID of the row wins (same or differs)."""
    by_row: dict[RowKey, set[str]] = {}
    by_id: dict[tuple[int, str], dict[RowKey, str]] = {}
    for c in cits:
        by_row.setdefault(_row(c.result), set()).add(c.cited_id)
        by_id.setdefault((c.result.round_id, c.cited_id), {})[_row(c.result)] = (
            f"{c.result.system.folder} ({c.result.division}), page {c.page_id}"
        )
    out: dict[int, tuple[str, str]] = {}
    for c in cits:
        key = _row(c.result)
        ids, rows = by_row[key], by_id[(key[0], c.cited_id)]
        if len(ids) > 1:
            others = ", ".join(sorted(ids - {c.cited_id}))
            out[c.pk] = (Cite.IDS_DIFFER, f"{c.result.system.folder} is also cited as {others}")
        elif len(rows) > 1:
            named = "; ".join(sorted(v for k, v in rows.items() if k != key))
            out[c.pk] = (Cite.ROWS_DIFFER, f"{c.cited_id} is also cited for {named}")
        elif key in imported:
            same = imported[key] == {c.cited_id}
            note = "" if same else f"imported {', '.join(sorted(imported[key]))} kept"
            out[c.pk] = (Cite.IMPORTED_SAME if same else Cite.IMPORTED_DIFFERS, note)
        else:
            out[c.pk] = (Cite.STORED, "")
    return out


def _settle(round_pks: set[int]) -> int:
    """Recompute the status of every citation of these rounds and the vendor-cited IDs
    of their results (set where a row's citation is stored, cleared where none is any
    longer, derived IDs restored then). Returns the number of results changed."""
    cits = list(
        ResultIdCitation.objects.filter(result__round_id__in=round_pks).select_related(
            "result__system"
        )
    )
    results = list(
        Result.objects.filter(round_id__in=round_pks).only(
            "id", "round_id", "division", "system_id", "result_id", "result_id_origin"
        )
    )
    imported: dict[RowKey, set[str]] = {}
    for r in results:
        if r.result_id_origin == Result.IdOrigin.IMPORTED:
            imported.setdefault(_row(r), set()).add(r.result_id)
    status = _statuses(cits, imported)
    for c in cits:
        if (c.status, c.note) != status[c.pk]:
            c.status, c.note = status[c.pk]
            c.save(update_fields=["status", "note"])
    want = {_row(c.result): c.cited_id for c in cits if c.status == Cite.STORED}
    changed = []
    for r in results:
        if r.result_id_origin == Result.IdOrigin.IMPORTED:
            continue
        new = want.get(_row(r))
        if new and (r.result_id, r.result_id_origin) != (new, Result.IdOrigin.VENDOR):
            r.result_id, r.result_id_origin = new, Result.IdOrigin.VENDOR
            changed.append(r)
        elif not new and r.result_id_origin == Result.IdOrigin.VENDOR:
            r.result_id, r.result_id_origin = "", Result.IdOrigin.NONE
            changed.append(r)
    Result.objects.bulk_update(changed, ["result_id", "result_id_origin"])
    for rnd in Round.objects.filter(pk__in=round_pks):
        result_ids_derive(rnd=rnd)
    return len(changed)


def result_ids_cite(*, page_id: int) -> dict[str, int]:
    """Store the result IDs a vendor page cites (:func:`_page_citations`) and settle them
    with every other citation and imported ID of their rounds (:func:`_settle`): a stored
    citation's ID goes on every result of its system row with origin ``vendor-cited``.
    Called by ``ingest.claims.pages`` after a page's claims are stored, checked again or
    corrected. Idempotent (nothing is written when nothing changed); one transaction.
    Returns ``{"citations": n, "stored": n, "conflicts": n, "results_changed": n}``."""
    with transaction.atomic():
        new = {(c.claim_id, c.cited_id): c for c in _page_citations(page_id)}
        old = {
            (c.claim_id, c.cited_id): c
            for c in ResultIdCitation.objects.filter(page_id=page_id).select_related("result")
        }
        rounds = {c.result.round_id for c in [*new.values(), *old.values()]}
        gone = [c.pk for k, c in old.items() if k not in new or new[k].result_id != c.result_id]
        ResultIdCitation.objects.filter(pk__in=gone).delete()
        ResultIdCitation.objects.bulk_create(
            [c for k, c in new.items() if k not in old or old[k].pk in gone]
        )
        changed = _settle(rounds) if rounds else 0
        statuses = list(
            ResultIdCitation.objects.filter(page_id=page_id).values_list("status", flat=True)
        )
    stored = sum(s in (Cite.STORED, Cite.IMPORTED_SAME) for s in statuses)
    return {
        "citations": len(statuses),
        "stored": stored,
        "conflicts": len(statuses) - stored,
        "results_changed": changed,
    }

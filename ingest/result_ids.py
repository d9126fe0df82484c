"""MLPerf Training result IDs on results: derived by the round's rule at ingest, and
imported from a table users hold from MLCommons (``manage.py import result-ids``).

Precedence (``Result.IdOrigin``): an imported ID overrides any other; a derived ID never
replaces an imported or vendor-cited one. The rule is ``benchdb.mlperf.result_ids``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q

from benchdb.mlperf import result_ids as rule
from benchdb.models import Result, Round, System
from benchdb.vocabulary import ROUNDS, canonical_benchmark
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
    report.imported = len(changed)
    return report

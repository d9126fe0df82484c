"""MLPerf Training result IDs from a round's frozen ID list (v6.0 on): the list that
mlcommons/logging's summarizer numbers systems from (``--id_json_path``, 75b9465; the
rule is ``benchdb.mlperf.training.result_ids_v6``). The list is not in the public results
repository; whoever holds it imports it (``manage.py import id-list FILE --round v6.0``)
and every system row it holds gets ``<round>-<position, 4 digits>`` on all its results,
origin ``derived``. The list gives the number; the ``6.0-`` prefix and four digits are the
form of every published ID (``benchdb.mlperf.training.result_ids.RESULT_ID``). A derived ID never
replaces an imported or vendor-cited one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from benchdb.mlperf.training import result_ids_v6 as rule
from benchdb.models import Result, Round, System


@dataclass
class IdListReport:
    """What an ID-list import did: ``derived`` results given an ID, ``unchanged``,
    ``kept`` (an imported or vendor-cited ID left alone), ``not_listed`` (system folders
    the list does not hold) and ``skipped`` (systems whose JSON lacks a hashed field)."""

    derived: int = 0
    unchanged: int = 0
    kept: int = 0
    not_listed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def result_ids_from_list(*, round_version: str, data: bytes, path: str) -> IdListReport:
    """Set the IDs a frozen ID list gives the systems of a training round. Raises
    :class:`benchdb.mlperf.training.result_ids_v6.IdListError` (naming ``path``) for a list that
    is not the summarizer's, or for a round that is not ingested; nothing is written then."""
    ids = rule.parse_id_list(data.decode("utf-8", errors="replace"), path)
    rnd = Round.objects.filter(suite=Round.Suite.TRAINING, version=round_version).first()
    if rnd is None:
        raise rule.IdListError(f"{path}: round {round_version} is not ingested")
    report = IdListReport()
    changed = []
    systems = System.objects.filter(round=rnd).prefetch_related("results")
    for system in systems.order_by("submitter_folder", "folder"):
        name = f"{system.submitter_folder}/{system.folder}"
        try:
            h = rule.row_hash(rule.summary_row_fields(system.raw), rule.LIST_FIELDS)
        except (KeyError, ValueError, TypeError):
            report.skipped.append(name)
            continue
        number = rule.frozen_numbers([h], ids)[0]
        if number is None:
            report.not_listed.append(name)
            continue
        want = f"{round_version.lstrip('v')}-{number:04}"
        for r in system.results.all():
            if r.result_id_origin in (Result.IdOrigin.IMPORTED, Result.IdOrigin.VENDOR):
                report.kept += 1
            elif (r.result_id, r.result_id_origin) == (want, Result.IdOrigin.DERIVED):
                report.unchanged += 1
            else:
                r.result_id, r.result_id_origin = want, Result.IdOrigin.DERIVED
                changed.append(r)
    with transaction.atomic():
        Result.objects.bulk_update(changed, ["result_id", "result_id_origin"])
    report.derived = len(changed)
    return report

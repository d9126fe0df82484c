"""The published table's fields of stored inference results kept current, with their
history: after an inference round's ingest, each stored result whose row of
``summary_results.json`` (v5.1 on: ``ID``, ``Performance_Result``, ``Power_Result``,
``Performance_Units``) now says something else is brought up to date and the change
kept as a version (``ingest.history``). A result's content hash covers its files, not
the table, so a commit that edits only the table (inference_results_v5.1 f6a497e1:
an ID shifted 5.1-0087 -> 5.1-0088) re-stores no result: this is what sees it.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from benchdb.models import InferenceResult, Round
from ingest import history
from ingest.inference.store import published_id
from ingest.store import finite


def published_fields(row: dict[str, Any]) -> dict[str, Any]:
    """The stored columns a published row gives (as ``inference_store`` stores them)."""
    unit = row.get("Performance_Units")
    return {
        "result_id": published_id(row.get("ID")),
        "published_value": finite(row.get("Performance_Result")),
        "published_unit": unit.replace("\x00", "")[:32] if isinstance(unit, str) else "",
        "published_power": finite(row.get("Power_Result")),
    }


def published_follow(*, rnd: Round, published: dict[str, dict[str, Any]], commit: str) -> int:
    """Bring the published fields of ``rnd``'s stored results up to ``published``
    (``summary_results.json`` by Location; an empty table changes nothing: a tree
    without one is no withdrawal of every ID), one transaction per result, each change
    a version from ``commit``. Returns the results changed."""
    if not published:
        return 0
    n = 0
    rows = InferenceResult.objects.filter(round=rnd).select_related("round", "system__submitter")
    for r in rows.only("pk", "source_path", "round", "system", *published_fields({})):
        new = published_fields(published.get(r.source_path, {}))
        changed = [k for k, v in new.items() if getattr(r, k) != v]
        if not changed:
            continue
        with transaction.atomic():
            before = history.result_before(InferenceResult, pk=r.pk)
            full = InferenceResult.objects.select_related("round", "system__submitter").get(pk=r.pk)
            for k in changed:
                setattr(full, k, new[k])
            full.save(update_fields=changed)
            history.result_changed(before=before, result=full, commit=commit)
        n += 1
    return n

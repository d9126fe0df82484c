"""Every MLPerf result ID benchdb knows, each with its provenance (``/ids/``): the ID a
stored result carries and where it came from (inference: ``summary_results.json`` at the
commit the result was read from; training: imported, vendor-cited with the citing pages'
URLs, or derived by a rule), the IDs vendor pages cite as facts (a claim's
``result_ids``, with the page's URL, whether or not a stored result carries them), and
the IDs a result carried before a change (its versions)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from benchdb.history.selectors import VERSION_JOINS, version_url
from benchdb.mlperf.inference.selectors import inference_result_url
from benchdb.models import Claim, InferenceResult, Result, ResultIdCitation, ResultVersion

_ORIGIN_SOURCES = {
    "derived": "derived by benchdb's rule (benchdb/mlperf/training/result_ids.py; v6.0 on: the "
    "imported ID list, benchdb/mlperf/training/result_ids_v6.py)",
    "imported": "imported from an ID table (manage.py import result-ids)",
}


def id_rows(*, suite: str = "", round_version: str = "", q: str = "") -> list[dict[str, Any]]:
    """``benchdb.result_ids/1`` rows, sorted by ID then origin; ``q`` keeps the rows
    whose ID contains it. Queries: training results with an ID, their citations,
    inference results with an ID, claims citing IDs, versions that changed an ID (5)."""
    rows = [*_training(), *_inference(), *_cited(), *_former()]
    rows = [
        r
        for r in rows
        if (not suite or r["suite"] == suite)
        and (not round_version or r["round"] == round_version)
        and (not q or q.lower() in r["result_id"].lower())
    ]
    return sorted(rows, key=lambda r: (r["result_id"], r["origin"], r["result"], r["source"]))


def _training() -> list[dict[str, Any]]:
    results = Result.objects.exclude(result_id="").select_related("round", "system")
    pages: dict[int, set[str]] = defaultdict(set)
    for rid, url, name in ResultIdCitation.objects.values_list(
        "result_id", "page__url", "page__file_name"
    ):
        pages[rid].add(url or name)
    out = []
    for r in results:
        origin = r.result_id_origin or "derived"
        source = _ORIGIN_SOURCES.get(origin, "")
        if origin == "vendor-cited":
            source = (
                "cited by " + ", ".join(sorted(pages.get(r.pk, set()))) if r.pk in pages else ""
            )
        out.append(
            _row(
                r.result_id,
                r.round.suite,
                r.round.version,
                origin,
                source,
                r.source_path,
                r.get_absolute_url(),
            )
        )
    return out


def _inference() -> list[dict[str, Any]]:
    results = InferenceResult.objects.exclude(result_id="").select_related("round", "system")
    out = []
    for r in results.only(
        "result_id",
        "source_path",
        "commit",
        "round__version",
        "round__suite",
        "system__submitter_folder",
        "system__folder",
    ):
        at = f"at {r.commit[:12]}" if r.commit else "in a plain folder (no commit)"
        url = inference_result_url(
            r.round.version, r.system.submitter_folder, r.system.folder, r.source_path
        )
        out.append(
            _row(
                r.result_id,
                "inference",
                r.round.version,
                "summary_results.json",
                f"summary_results.json {at}",
                r.source_path,
                url,
            )
        )
    return out


def _cited() -> list[dict[str, Any]]:
    """IDs vendor pages cite, as facts of the page (suite from the claim's round words:
    unknown here, so the ID's own round prefix is the round)."""
    out = []
    claims = Claim.objects.exclude(result_ids=[]).select_related("page")
    for c in claims.only("pk", "result_ids", "page__url", "page__file_name"):
        for rid in c.result_ids:
            if not isinstance(rid, str):
                continue
            out.append(
                _row(
                    rid,
                    "",
                    "v" + rid.split("-")[0],
                    "cited",
                    c.page.url or c.page.file_name,
                    "",
                    f"/vendor/claims/{c.pk}/",
                )
            )
    return out


def _former() -> list[dict[str, Any]]:
    out = []
    versions = ResultVersion.objects.filter(kinds__contains=",id,").select_related(*VERSION_JOINS)
    for v in versions:
        for c in v.changes:
            if c.get("field") not in ("result_id", "ID") or not c.get("old"):
                continue
            at = f"commit {v.commit[:12]}" if v.commit else v.seen.date().isoformat()
            source = f"replaced by {c.get('new') or '(none)'} at {at} ({v.origin})"
            url = version_url(v)
            out.append(_row(str(c["old"]), v.suite, v.round_version, "former", source, v.path, url))
    return out


def _row(
    rid: str, suite: str, rnd: str, origin: str, source: str, result: str, url: str
) -> dict[str, Any]:
    return {
        "result_id": rid,
        "suite": suite,
        "round": rnd,
        "origin": origin,
        "source": source,
        "result": result,
        "url": url,
    }

"""Keeping a published result's history as benchdb ingests it: the store hook of the
training and inference writers (:func:`result_before` before a stored result is
overwritten, :func:`result_changed` after, in the result's transaction), the tombstone
sweep at the end of a round's ingest (:func:`sweep`: a result folder gone from its
repository is withdrawn, moved to open or renamed, never deleted), and the claims that
rest on a changed result checked again with their verdict history kept
(:func:`claims_follow`, after a sync).

What changed is decided by the pure ``benchdb.history.diff``; the rows are
``benchdb.models.ResultVersion`` and ``ClaimVerdictVersion``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from benchdb.history import diff
from benchdb.models import (
    Claim,
    ClaimResult,
    ClaimVerdictVersion,
    InferenceLog,
    InferenceResult,
    Result,
    ResultVersion,
    Round,
    Run,
)

#: The fields of a stored result a version compares (``system.*``: its system's).
TRAINING_FIELDS = (
    "division",
    "result_id",
    "score_minutes",
    "status",
    "reason",
    "runs_total",
    "runs_counted",
    "runs_failed",
    "energy_joules",
)
INFERENCE_FIELDS = (
    "division",
    "result_id",
    "value",
    "unit",
    "status",
    "reason",
    "accuracy_valid",
    "compliance_valid",
    "power",
    "published_value",
    "published_power",
)
SYSTEM_FIELDS = (
    "name",
    "division",
    "availability",
    "nodes",
    "host_processor_model",
    "accelerator_model",
    "accelerators",
    "framework",
)

AnyResult = Result | InferenceResult


def snapshot(result: AnyResult) -> dict[str, Any]:
    """The fields of ``result`` a version compares, with its system's (``system.*``),
    its submitter's name and its files (name -> sha256; one query)."""
    fields = TRAINING_FIELDS if isinstance(result, Result) else INFERENCE_FIELDS
    out: dict[str, Any] = {name: getattr(result, name) for name in fields}
    system = result.system
    for name in SYSTEM_FIELDS:
        out[f"system.{name}"] = getattr(system, name)
    out["submitter"] = system.submitter.name
    if isinstance(result, Result):
        out["files"] = dict(Run.objects.filter(result=result).values_list("file_name", "sha256"))
    else:
        out["files"] = dict(
            InferenceLog.objects.filter(result=result).values_list("path", "sha256")
        )
    return out


def result_before(model: type[AnyResult], **key: Any) -> tuple[dict[str, Any], str] | None:
    """(snapshot, commit) of the stored result ``model.objects.filter(**key)`` about to
    be overwritten, None when there is none. Call it inside the result's transaction,
    before the system row is brought up to date."""
    found = model.objects.filter(**key).select_related("system__submitter").first()
    if found is None:
        return None
    return snapshot(found), found.commit


def result_changed(
    *, before: tuple[dict[str, Any], str] | None, result: AnyResult, commit: str
) -> ResultVersion | None:
    """Record what changed in ``result`` (just stored, with its files) since
    ``before`` (:func:`result_before`), as a version from ``commit``; nothing for a
    new result or one that did not change. A result stored again after a tombstone
    is ``restored``."""
    if before is None:
        return None
    old, commit_before = before
    changes = diff.field_changes(old, snapshot(result))
    last = _versions(result).first()
    if last is not None and last.tombstone:
        changes.insert(0, diff.Change("path", None, result.source_path, "restored"))
    if not changes:
        return None
    return _version(result, changes, old, commit, commit_before)


def sweep(
    *, rnd: Round, repository: str, present: Iterable[str], known: Iterable[str], commit: str
) -> int:
    """Tombstone the results of ``rnd`` read from ``repository`` whose folder is not
    among ``present`` (the round's result folders in the tree just read; ``known``:
    the paths stored before this ingest) and not tombstoned yet: ``withdrawn``,
    ``moved-to-open`` or ``renamed`` (``diff.fate``). Nothing is deleted. Returns the
    tombstones recorded."""
    model: type[AnyResult] = InferenceResult if rnd.suite == Round.Suite.INFERENCE else Result
    present = set(present)
    known = set(known)
    gone = (
        model.objects.filter(round=rnd, repository=repository)
        .exclude(source_path__in=present)
        .select_related("round", "system__submitter")
    )
    n = 0
    for result in gone:
        last = _versions(result).first()
        if last is not None and last.tombstone:
            continue
        fate = diff.fate(result.source_path, present, known)
        _version(result, [fate.change(result.source_path)], snapshot(result), commit, result.commit)
        n += 1
    return n


def without_tombstoned(qs: QuerySet[Any], *, training: bool) -> QuerySet[Any]:
    """``qs`` (results) without those whose newest version ends their life at their
    path (withdrawn, moved to open, renamed): what no claim may rest on any more. One
    correlated subquery on the versions' result index."""
    fk = "result" if training else "inference_result"
    newest = ResultVersion.objects.filter(**{fk: OuterRef("pk")}).order_by("-seen", "-pk")
    qs = qs.annotate(newest_kinds=Subquery(newest.values("kinds")[:1]))
    ended = Q()
    for kind in sorted(diff.TOMBSTONES):
        ended |= Q(newest_kinds__contains=f",{kind},")
    return qs.filter(Q(newest_kinds__isnull=True) | ~ended)


def _versions(result: AnyResult) -> Any:
    if isinstance(result, Result):
        return ResultVersion.objects.filter(result=result)
    return ResultVersion.objects.filter(inference_result=result)


def _version(
    result: AnyResult,
    changes: list[diff.Change],
    before: dict[str, Any],
    commit: str,
    commit_before: str,
) -> ResultVersion:
    return ResultVersion.objects.create(
        suite=result.round.suite,
        round_version=result.round.version,
        path=result.source_path,
        submitter=result.system.submitter_folder,
        result=result if isinstance(result, Result) else None,
        inference_result=result if isinstance(result, InferenceResult) else None,
        kinds="," + ",".join(diff.kinds(changes)) + ",",
        changes=[c.as_dict() for c in changes],
        before={k: diff.json_safe(v) for k, v in before.items()},
        commit=commit,
        commit_before=commit_before,
        seen=timezone.now(),
        origin=ResultVersion.Origin.INGEST,
    )


def claims_follow() -> int:
    """Check again, page by page, every claim linked to a result that changed since
    the last call (versions not yet ``claims_checked``), and keep each claim's verdict
    before and after as a ``ClaimVerdictVersion`` naming the version that caused it.
    Returns the claims checked. Run it after a sync's results are stored, before any
    other re-check (which would overwrite the verdicts before they are kept)."""
    from ingest.claims.pages import claims_reverify

    pending = list(
        ResultVersion.objects.filter(claims_checked=False, origin=ResultVersion.Origin.INGEST)
        .order_by("seen", "pk")
        .values_list("pk", "result_id", "inference_result_id")
    )
    if not pending:
        return 0
    cause: dict[tuple[str, int], int] = {}
    for pk, rid, iid in pending:  # the newest version of each result wins
        cause[("t", rid) if rid else ("i", iid)] = pk
    links = ClaimResult.objects.filter(
        Q(result_id__in=[k[1] for k in cause if k[0] == "t"])
        | Q(inference_result_id__in=[k[1] for k in cause if k[0] == "i"])
    ).values_list("claim_id", "result_id", "inference_result_id")
    claim_cause = {c: cause[("t", r) if r else ("i", i)] for c, r, i in links}
    before = dict(Claim.objects.filter(pk__in=claim_cause).values_list("pk", "verdict"))
    for page_id in sorted(
        set(Claim.objects.filter(pk__in=claim_cause).values_list("page_id", flat=True))
    ):
        claims_reverify(page_id=page_id)
    after = dict(Claim.objects.filter(pk__in=claim_cause).values_list("pk", "verdict"))
    notes = {
        v.pk: "; ".join(v.change_words())
        for v in ResultVersion.objects.filter(pk__in=set(claim_cause.values()))
    }
    now = timezone.now()
    ClaimVerdictVersion.objects.bulk_create(
        ClaimVerdictVersion(
            claim_id=c,
            verdict_before=before[c],
            verdict=after[c],
            checked=now,
            cause_id=v,
            note=notes.get(v, "")[:2000],
        )
        for c, v in claim_cause.items()
        if c in after
    )
    ResultVersion.objects.filter(pk__in=[p for p, *_ in pending]).update(claims_checked=True)
    return len(claim_cause)

"""The flags a checked claim gets, from MLPerf's results messaging guidelines
(``../shared/vendor/MLPerf_Results_Messaging_Guidelines.adoc``: "When comparing MLPerf
results, you must identify any submission differences", "Comparisons based on
secondary or derived metrics must be explicit", "Required Footnote", "Use of MLPerf
Benchmark for Non-MLCommons Reviewed Results"). Pure: no Django.

Between a claim's subject and the results it is compared with:
``different-divisions``, ``different-availability``, ``different-rounds``,
``different-accelerator-counts``, ``different-scenarios`` and
``different-categories`` (inference: datacenter, edge). On any linked result:
``open-division-result``, ``preview-result`` (availability ``preview``). On the
claim: ``per-accelerator-normalization`` and ``scaling-efficiency`` (derived metrics),
``unverified-result``,
``no-result-id``, ``arithmetic-error``, ``system-from-context``, ``round-from-date``,
``round-from-page`` (the round is the one the page names elsewhere),
``round-from-page-words`` (the page names none and has no date; its words fix it:
:mod:`benchdb.claims.page_round`, ``details["round_source"]`` says how).
"""

from __future__ import annotations

from collections.abc import Mapping

from benchdb.claims.facts import ClaimFacts, ResultFacts, Verification, arithmetic_ok
from benchdb.claims.page_round import TAG as PAGE_WORDS
from benchdb.claims.page_round import WHY_TAG
from benchdb.vocabulary import NOT_MLPERF


def with_flags(c: ClaimFacts, v: Verification, by_pk: Mapping[int, ResultFacts]) -> Verification:
    """``v`` with the flags its claim and linked results call for (module docstring);
    ``by_pk``: the results of the claim's suite by pk."""
    flags: list[str] = []
    linked = [(lk.role, by_pk[lk.result]) for lk in v.links if lk.result in by_pk]
    subj = [r for role, r in linked if role == "subject"]
    other = [r for role, r in linked if role != "subject"]
    compared = [(a, b) for a in subj for b in other]
    if "pairs" in v.details:  # parity: only the pairs that were compared
        compared = [
            (by_pk[p["subject"]], by_pk[p["compared"]])
            for p in v.details["pairs"]
            if p["subject"] in by_pk and p["compared"] in by_pk
        ]
    elif v.details.get("readings_list"):  # within each reading, not across readings
        compared = []
        for reading in v.details["readings_list"]:
            sides = [(role, by_pk[pk]) for role, pk in reading.get("links", []) if pk in by_pk]
            compared += [
                (a, b) for ra, a in sides if ra == "subject" for rb, b in sides if rb != "subject"
            ]
    for a, b in compared:
        for differs, flag in (
            (a.division != b.division, "different-divisions"),
            (a.availability != b.availability, "different-availability"),
            (a.round != b.round, "different-rounds"),
            (a.accelerators != b.accelerators, "different-accelerator-counts"),
            (a.scenario != b.scenario, "different-scenarios"),
            (a.category != b.category, "different-categories"),
        ):
            if differs:
                flags.append(flag)
    if any(r.division == "open" for _, r in linked):
        flags.append("open-division-result")
    if any(r.availability == "preview" for _, r in linked):
        flags.append("preview-result")
    if c.per_accelerator:
        flags.append("per-accelerator-normalization")
    if c.kind == "scaling" and v.links:  # benchdb.claims.verdicts_scaling
        flags.append("scaling-efficiency")
    if c.unverified and (c.benchmark_key or c.metric == "time-to-train"):
        flags.append("unverified-result")
    if v.verdict != NOT_MLPERF and not c.result_ids:
        flags.append("no-result-id")
    details = dict(v.details)
    if c.implied_value is not None and c.value is not None:
        details["arithmetic"] = {"claimed": c.value, "implied": c.implied_value}
        if not arithmetic_ok(c.value, c.implied_value):
            flags.append("arithmetic-error")
    if v.verdict != NOT_MLPERF:
        flags += _from_elsewhere(c, details)
    uniq = tuple(dict.fromkeys(flags))
    return Verification(
        v.verdict, v.recomputed_value, v.compared_recomputed_value, v.links, uniq, details
    )


def _from_elsewhere(c: ClaimFacts, details: dict[str, object]) -> list[str]:
    """The flags of slots the claim's sentence does not fill (its system, its round),
    and in ``details`` how the page's words fixed its round (``round_source``)."""
    flags = []
    if "system" in c.context:
        flags.append("system-from-context")
    if "round-date" in c.context:
        flags.append("round-from-date")
    if {"round-page", "round-title"} & set(c.context):
        flags.append("round-from-page")
    if PAGE_WORDS in c.context:
        flags.append("round-from-page-words")
        why = next((t[len(WHY_TAG) :] for t in c.context if t.startswith(WHY_TAG)), "")
        details.setdefault("round_source", f"page round {why}")
    return flags

"""A page's guideline report: each clause of MLPerf's results messaging guidelines
(``../shared/vendor/MLPerf_Results_Messaging_Guidelines.adoc``) that applies to the
page, with the statements that break it or satisfy it. Pure: no Django.

Built on :mod:`benchdb.claims.explain`, which maps every flag and verdict of
:mod:`benchdb.claims.verdicts` to its clause: a claim's flags and verdict give the
claim-level findings, and what a flag asks for is looked for in the statement itself
(a difference flag is satisfied when the sentence states the difference: the
baseline round of a gain, "open" for an open-division result, a chip count for each
side). The page-level clauses are read from the page's text as the guidelines word
them: §7 (no result before its round's publication date), §11.1 (® next to every
use of MLPerf), §11.2 (the trademark legend), §11.4 (never in the possessive or
plural).

A finding is one (clause, status, statement): ``status`` ``breaks`` or
``satisfies``; ``statement`` the sentence (or, for a page-level clause, the passage)
it rests on; ``claims``: the ids of the claims in that sentence the finding comes
from; ``reasons``: why, in sentences.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from benchdb.claims import explain
from benchdb.claims.explain import Clause

BREAKS = "breaks"
SATISFIES = "satisfies"

TIMING = Clause(
    "7",
    "Timing for Results Disclosures",
    "Submitters (i.e., those who have submitted results for review and verification by"
    " MLCommons) are not allowed to publish any results for a given benchmark version before"
    " its official publication date.",
)
NOTICE = Clause(
    "11.1", "Notice Symbol", "You must include the ® next to all uses of the MLPerf name."
)
ATTRIBUTION = Clause(
    "11.2",
    "Attribution",
    "You must attribute ownership of the MLPerf mark to MLCommons in all uses of the MLPerf name",
)
FULL_NAME = Clause(
    "11.4",
    "Use with Full Benchmark Name",
    "Never use the MLPerf name as a verb or noun, or in the possessive or plural forms.",
)

#: Every clause a report can hold, in the document's order.
CLAUSES: tuple[Clause, ...] = (
    explain.UNVERIFIED,
    explain.REQUIRED_INFORMATION,
    explain.REQUIRED_FOOTNOTE,
    explain.SIMILAR_RESULTS,
    explain.DIFFERENCES,
    explain.OPEN_VS_CLOSED,
    TIMING,
    explain.DERIVED,
    explain.CLEAR_AND_CORRECT,
    NOTICE,
    ATTRIBUTION,
    FULL_NAME,
)

#: Verdicts of claims checked against MLPerf results (the others are not-mlperf and
#: unverifiable).
_CHECKED = ("consistent", "inconsistent", "ambiguous")
#: A claim's page verdict (the claim recomputed from two figures of its own page,
#: ``benchdb.vocabulary.PAGE_VERDICTS``) as a §10 finding.
_PAGE_VERDICTS = {
    "consistent-with-page": (SATISFIES, "The page's own figures give the figure it states."),
    "inconsistent-with-page": (
        BREAKS,
        "The page's own figures do not give the figure it states.",
    ),
}
_COMPARATIVE = ("head_to_head", "multiplier", "percentage", "parity")
_LEGEND = re.compile(r"MLPerf\s+name\s+and\s+logo\s+are\s+registered", re.I)
#: The MLPerf name as prose writes it (not inside a URL or a file name).
#: (ASCII letters only before it: in Chinese text a Han character may stand right before.)
_NAME = r"(?<![/A-Za-z0-9_.-])(?:MLPerf|MLPERF)"
#: A use without ® (the legend's own "MLPerf name and logo" is no use of the mark).
_MLPERF = re.compile(_NAME + r"(?!\s*®)(?!\s+name\s+and\s+logo)(?P<tail>['’]s\b|s\b)?")
#: What a sentence says when it states the difference a flag is about.
_STATED = {
    "different-divisions": re.compile(r"\b(open|closed)\b|开放|開放|封闭|封閉", re.I),
    "open-division-result": re.compile(r"\bopen\b|开放|開放", re.I),
    "different-availability": re.compile(r"\b(preview|research|available)\b", re.I),
    "preview-result": re.compile(r"\bpreview\b|预览|預覽", re.I),
    "different-scenarios": re.compile(r"\b(offline|server|interactive|single-?stream)\b", re.I),
    "different-categories": re.compile(r"\b(datacenter|data center|edge)\b", re.I),
    "unverified-result": re.compile(r"\bunverified\b|not verified|未经验证|未經驗證", re.I),
}
_CHIPS = re.compile(
    r"\b\d[\d,]*\s*(?:x\s*)?(?:[A-Z]\w*\s+)?(?:GPUs?|IPUs?|TPUs?|HPUs?|chips?|accelerators?)\b"
    r"|\d+\s*(?:个|個|颗|顆|张|張)",
)


@dataclass(frozen=True)
class Finding:
    """One clause's verdict on one statement (module docstring)."""

    clause: Clause
    status: str
    statement: str
    claims: tuple[Any, ...] = ()
    reasons: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()


@dataclass
class _Acc:
    claims: list[Any] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)


def _stated(flag: str, claim: Mapping[str, Any]) -> str:
    """Why the sentence itself satisfies a difference flag's clause, "" if it does not."""
    sentence = claim.get("sentence") or ""
    extracted = claim.get("extracted") or {}
    if flag == "different-rounds" and extracted.get("baseline"):
        return f"The statement names what the gain is measured against ({extracted['baseline']})."
    if flag == "different-accelerator-counts" and len(_CHIPS.findall(sentence)) >= 2:
        return "The statement gives the chip count of each side."
    pattern = _STATED.get(flag)
    if flag in ("open-division-result", "different-divisions") and claim.get("division"):
        return f"The statement names the {claim['division']} division."
    if pattern is not None and pattern.search(sentence):
        return "The statement says so in its own words."
    return ""


def _claim_findings(
    claim: Mapping[str, Any], page_date: date | None, round_dates: Mapping[str, date]
) -> Iterable[tuple[Clause, str, str, str]]:
    """(clause, status, reason, flag) for one claim (a row of ``benchdb.claims/1``
    with ``extracted``)."""
    verdict = claim.get("verdict") or ""
    flags = list(claim.get("flags") or ())
    for flag in flags:
        note = explain.flag_explanation(flag)
        if note.clause is None:
            continue
        why = _stated(flag, claim) if note.clause.number in ("1", "5") else ""
        status = SATISFIES if why else BREAKS
        yield note.clause, status, why or note.sentence, flag
    if verdict in _CHECKED:
        note = explain.verdict_explanation(verdict)
        status = SATISFIES if verdict == "consistent" else BREAKS
        if "arithmetic-error" not in flags:
            yield explain.CLEAR_AND_CORRECT, status, note.sentence, ""
        if not ({"system-from-context", "round-from-date", "round-from-page"} & set(flags)):
            yield (
                explain.REQUIRED_INFORMATION,
                SATISFIES,
                "The statement names the system, benchmark and MLPerf version it rests on.",
                "",
            )
    page_verdict = claim.get("page_verdict") or ""
    if page_verdict in _PAGE_VERDICTS and verdict != "not-mlperf":
        status, why = _PAGE_VERDICTS[page_verdict]
        yield explain.CLEAR_AND_CORRECT, status, why, ""
    if claim.get("result_ids"):
        ids = ", ".join(claim["result_ids"])
        yield explain.REQUIRED_FOOTNOTE, SATISFIES, f"The statement cites result ID {ids}.", ""
    sentence = (claim.get("sentence") or "").lower()
    if verdict == "not-mlperf" and claim.get("kind") in _COMPARATIVE and "mlperf" in sentence:
        # A non-MLPerf figure compared in a sentence that invokes MLPerf.
        yield explain.SIMILAR_RESULTS, BREAKS, explain.verdict_explanation(verdict).sentence, ""
    named = claim.get("round") or ""
    out = round_dates.get(named)
    # A round taken from the page's date is by construction published by then.
    if out is not None and page_date and verdict in _CHECKED and "round-from-date" not in flags:
        if page_date < out:
            why = f"The page ({page_date}) is dated before {named} was published ({out})."
            yield TIMING, BREAKS, why, ""
        else:
            why = f"The page ({page_date}) is dated on or after {named}'s publication ({out})."
            yield TIMING, SATISFIES, why, ""


def _page_findings(text: str) -> Iterable[tuple[Clause, str, str, str]]:
    """(clause, status, reason, statement) of the page-level clauses (§11.1, §11.2,
    §11.4): only on a page that names MLPerf."""
    uses = [m for m in re.finditer(_NAME, text) if not _LEGEND.match(text, m.start())]
    if not uses:
        return
    bare = [m for m in _MLPERF.finditer(text)]
    if bare:
        n = len(bare)
        why = f"MLPerf is written without ® {n} time{'s' if n > 1 else ''} of {len(uses)}."
        yield NOTICE, BREAKS, why, _around(text, bare[0].start())
    else:
        yield NOTICE, SATISFIES, "Every use of MLPerf carries ®.", _around(text, uses[0].start())
    legend = _LEGEND.search(text)
    if legend:
        why = "The page carries the trademark legend naming MLCommons."
        yield ATTRIBUTION, SATISFIES, why, _around(text, legend.start())
    else:
        why = "The page names MLPerf but nowhere attributes the mark to MLCommons (the legend)."
        yield ATTRIBUTION, BREAKS, why, _around(text, uses[0].start())
    for m in _MLPERF.finditer(text):
        if m.group("tail"):
            form = "possessive" if m.group("tail").lower() != "s" else "plural"
            why = f'"{m.group(0)}": the MLPerf name in the {form} form.'
            yield FULL_NAME, BREAKS, why, _around(text, m.start())


def _around(text: str, pos: int, width: int = 90) -> str:
    """The line of ``text`` holding ``pos``, cut to about ``width`` characters each side."""
    start = max(text.rfind("\n", 0, pos) + 1, pos - width)
    end = text.find("\n", pos)
    end = min(len(text) if end < 0 else end, pos + width)
    return " ".join(text[start:end].split())


def page_report(
    claims: Sequence[Mapping[str, Any]],
    *,
    text: str = "",
    published: date | None = None,
    round_dates: Mapping[str, date] | None = None,
) -> list[Finding]:
    """The guideline report of a page.

    ``claims``: rows of ``benchdb.claims/1`` (``id``, ``sentence``, ``kind``,
    ``verdict``, ``flags``, ``round``, ``division``, ``result_ids``), optionally
    ``page_verdict`` (consistent/inconsistent-with-page), with ``extracted`` (the
    parser's fields: ``baseline``, ``context``...), in text order;
    ``text``: the page's text (for the page-level clauses; "" leaves them out);
    ``published``: the page's date; ``round_dates``: round -> official publication
    date (``benchdb.vocabulary.ROUND_PUBLISHED``). Returns findings ordered by clause
    (document order), breaks before satisfies, then statement order; a statement
    appears once per clause and status, with every claim of it and every reason.
    """
    dates = round_dates or {}
    acc: dict[tuple[str, str, str, str], _Acc] = {}
    by_key: dict[str, Clause] = {}
    order: dict[str, int] = {}
    for c in claims:
        sentence = " ".join((c.get("sentence") or "").split())
        order.setdefault(sentence, len(order))
        for clause, status, why, flag in _claim_findings(c, published, dates):
            key = (clause.number, clause.quote, status, sentence)
            by_key[clause.number + clause.quote] = clause
            a = acc.setdefault(key, _Acc())
            if c.get("id") not in a.claims:
                a.claims.append(c.get("id"))
            if why not in a.reasons:
                a.reasons.append(why)
            if flag and flag not in a.flags:
                a.flags.append(flag)
    for clause, status, why, statement in _page_findings(text):
        order.setdefault(statement, len(order))
        by_key[clause.number + clause.quote] = clause
        a = acc.setdefault((clause.number, clause.quote, status, statement), _Acc())
        if why not in a.reasons:
            a.reasons.append(why)
    rank = {c.number + c.quote: i for i, c in enumerate(CLAUSES)}
    keys = sorted(
        acc, key=lambda k: (rank.get(k[0] + k[1], 99), k[2] != BREAKS, order.get(k[3], 0))
    )
    return [
        Finding(
            by_key[k[0] + k[1]],
            k[2],
            k[3],
            tuple(acc[k].claims),
            tuple(acc[k].reasons),
            tuple(acc[k].flags),
        )
        for k in keys
    ]


def counts(findings: Iterable[Finding]) -> dict[str, int]:
    """``{"breaks": n, "satisfies": m, "clauses_broken": k}``: findings by status and
    how many distinct clauses are broken."""
    out = {BREAKS: 0, SATISFIES: 0}
    broken: set[str] = set()
    for f in findings:
        out[f.status] += 1
        if f.status == BREAKS:
            broken.add(f.clause.number)
    return {**out, "clauses_broken": len(broken)}


def finding_row(f: Finding) -> dict[str, Any]:
    """A finding -> a row of ``benchdb.guidelines/1``: ``{"clause": "5", "title": str,
    "quote": str, "status": "breaks" | "satisfies", "statement": str, "claims":
    [claim ids], "flags": [str], "reasons": [str], "url": str (the clause on
    GitHub)}``."""
    return {
        "clause": f.clause.number,
        "title": f.clause.title,
        "quote": f.clause.quote,
        "status": f.status,
        "statement": f.statement,
        "claims": list(f.claims),
        "flags": list(f.flags),
        "reasons": list(f.reasons),
        "url": f.clause.url,
    }

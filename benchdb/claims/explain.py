"""What a claim's flags and verdict mean, in sentences, each with the clause of MLPerf's
results messaging guidelines it comes from; and a claim's figures as people write them
("13 organizations", "18x", "24%"). Pure: no Django.

The one place a flag or verdict code (:mod:`benchdb.claims.verdicts`,
:data:`benchdb.vocabulary.VERDICTS`) becomes words: the claim pages, the claims list
and the tests read :data:`FLAGS` and :data:`VERDICTS`. Clause numbers and titles are
those of ``MLPerf_Results_Messaging_Guidelines.adoc`` (mlcommons/policies, a copy in
``../shared/vendor/``): its ``:sectnums:`` number the ``==`` (and Markdown-style
``##``) sections 1-14 and the ``===`` ones 3.1, 3.2, ...; the document itself cites
"Section 3" for footnotes and "Section 11.2" for the trademark legend, which this
numbering gives.
``tests/benchdb/claims/test_explain.py`` reads the numbers, titles and quotes back from
the file.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: The guidelines as published (mlcommons/policies, default branch ``master``).
GUIDELINES_URL = (
    "https://github.com/mlcommons/policies/blob/master/MLPerf_Results_Messaging_Guidelines.adoc"
)
GUIDELINES_FILE = "MLPerf_Results_Messaging_Guidelines.adoc"


@dataclass(frozen=True)
class Clause:
    """A numbered section of the guidelines: ``number`` ("5", "3.2"), ``title`` as
    the document writes it, ``quote``: words of the section that a flag rests on
    (verbatim, whitespace aside)."""

    number: str
    title: str
    quote: str

    @property
    def label(self) -> str:
        """``"§5 When comparing MLPerf results, ..."``."""
        return f"§{self.number} {self.title}"

    @property
    def url(self) -> str:
        """The section on GitHub (its heading anchor: lower case, words joined by
        ``-``, punctuation dropped)."""
        slug = re.sub(r"[^\w\- ]", "", self.title.lower()).strip().replace(" ", "-")
        return f"{GUIDELINES_URL}#{slug}"


UNVERIFIED = Clause(
    "1",
    "Use of MLPerf Benchmark for Non-MLCommons Reviewed Results",
    "your result is unverified, and you must disclose this fact",
)
REQUIRED_INFORMATION = Clause(
    "3.1",
    "Required Information",
    "Any disclosure of results must clearly identify the following information in the main"
    " text, table, or figure: submitting organization, benchmark name and version number,"
    " and system under test.",
)
REQUIRED_FOOTNOTE = Clause(
    "3.2",
    "Required Footnote",
    "MLPerf result ID (major-version.minor-version.entry.benchmark)",
)
SIMILAR_RESULTS = Clause(
    "4",
    "MLPerf results may only be compared against similar MLPerf results",
    "MLPerf results may not be compared against non-MLPerf results.",
)
DIFFERENCES = Clause(
    "5",
    "When comparing MLPerf results, you must identify any submission differences",
    "When comparing results the main text, table, or figure must clearly identify any"
    " difference in version, division, category, verified or unverified status, scenario or"
    " chip count",
)
OPEN_VS_CLOSED = Clause(
    "5",
    DIFFERENCES.title,
    "When comparing Open and Closed division results, any ways in which the Open result would"
    " not qualify as a Closed result must be identified.",
)
DERIVED = Clause(
    "9",
    "Comparisons based on secondary or derived metrics must be explicit",
    "Any comparison based on different or derived metric such as power rating, cost, model"
    " size/architecture, accuracy, etc. must make the basis for comparison clear in the text"
    " and in a footnote.",
)
CLEAR_AND_CORRECT = Clause(
    "10",
    "Statements Must be Clear and Correct; No Misrepresentation as to Meaning.",
    "All statements you make regarding your MLPerf benchmark results must be clear and correct.",
)


@dataclass(frozen=True)
class Explanation:
    """A flag or verdict code in words: ``label`` (a few words), ``sentence`` (what it
    means for this claim) and the guideline ``clause`` it comes from (None when it
    is benchdb's own note)."""

    code: str
    label: str
    sentence: str
    clause: Clause | None


def _e(code: str, label: str, sentence: str, clause: Clause | None) -> tuple[str, Explanation]:
    return code, Explanation(code, label, sentence, clause)


#: Every flag ``benchdb.claims.verdicts.verify_claim`` can set.
FLAGS: dict[str, Explanation] = dict(
    [
        _e(
            "different-divisions",
            "different divisions",
            "The results compared are from different divisions (closed and open); the"
            " comparison must say so.",
            DIFFERENCES,
        ),
        _e(
            "different-availability",
            "different availability",
            "The results compared are in different availability categories (available,"
            " preview, research); the comparison must say so.",
            DIFFERENCES,
        ),
        _e(
            "different-rounds",
            "different rounds",
            "The results compared are from different MLPerf rounds (versions); the"
            " comparison must say so.",
            DIFFERENCES,
        ),
        _e(
            "different-accelerator-counts",
            "different chip counts",
            "The systems compared use different numbers of accelerators; the comparison"
            " must state each chip count.",
            DIFFERENCES,
        ),
        _e(
            "different-scenarios",
            "different scenarios",
            "The inference results compared were measured in different scenarios (Offline,"
            " Server, ...), whose metrics are not comparable; the comparison must say so.",
            DIFFERENCES,
        ),
        _e(
            "different-categories",
            "different categories",
            "The inference results compared are in different categories (datacenter and"
            " edge); the comparison must say so.",
            DIFFERENCES,
        ),
        _e(
            "preview-result",
            "preview result",
            "A result it rests on is in the preview availability category: the system was"
            " not yet available when it was submitted, which must be stated.",
            DIFFERENCES,
        ),
        _e(
            "open-division-result",
            "open division",
            "A result it rests on is in the open division, where models and training may"
            " differ from the reference; how it would not qualify as closed must be stated.",
            OPEN_VS_CLOSED,
        ),
        _e(
            "per-accelerator-normalization",
            "per-accelerator figure",
            "The claim divides a result by its accelerator count, a derived metric that is"
            " not an MLPerf metric; its basis must be explicit.",
            DERIVED,
        ),
        _e(
            "scaling-efficiency",
            "scaling efficiency",
            "The claim is a scaling efficiency, t_small x n_small / (t_large x n_large),"
            " derived from two results; it is not an MLPerf metric and its basis must be"
            " explicit.",
            DERIVED,
        ),
        _e(
            "unverified-result",
            "unverified",
            "The page presents numbers that MLCommons did not review; each must be marked"
            " unverified.",
            UNVERIFIED,
        ),
        _e(
            "no-result-id",
            "no result ID",
            "The page cites no MLPerf result ID for this figure (such as 1.1-2040), so"
            " benchdb had to find the result by system, benchmark and round.",
            REQUIRED_FOOTNOTE,
        ),
        _e(
            "arithmetic-error",
            "arithmetic error",
            "The sentence's own numbers do not give the multiplier it states.",
            CLEAR_AND_CORRECT,
        ),
        _e(
            "system-from-context",
            "system from an earlier sentence",
            "The sentence names no system; benchdb took it from an earlier sentence of the"
            " page. The system under test must be identified with the result.",
            REQUIRED_INFORMATION,
        ),
        _e(
            "round-from-date",
            "round from the page's date",
            "The page names no MLPerf round here; benchdb checked the claim in the latest"
            " round published on or before the page's date. The benchmark version must be"
            " identified with the result.",
            REQUIRED_INFORMATION,
        ),
        _e(
            "round-from-page",
            "round from elsewhere on the page",
            "The sentence names no MLPerf round; benchdb took the one round the page names"
            " elsewhere. The benchmark version must be identified with the result.",
            REQUIRED_INFORMATION,
        ),
        _e(
            "round-from-page-words",
            "round from the page's words",
            "The page names no MLPerf round and has no date; benchdb took the round its"
            " words fix (a benchmark it calls new in its round is new in that round only)."
            " The benchmark version must be identified with the result.",
            REQUIRED_INFORMATION,
        ),
    ]
)

#: Every verdict of :data:`benchdb.vocabulary.VERDICTS`.
VERDICTS: dict[str, Explanation] = dict(
    [
        _e(
            "consistent",
            "consistent",
            "Recomputed from the linked MLPerf results' scores, the claimed figure holds"
            " within MLCommons' run-to-run variation for the benchmark.",
            CLEAR_AND_CORRECT,
        ),
        _e(
            "inconsistent",
            "inconsistent",
            "Recomputed from the linked MLPerf results' scores, the claimed figure is off by"
            " more than MLCommons' run-to-run variation for the benchmark.",
            CLEAR_AND_CORRECT,
        ),
        _e(
            "ambiguous",
            "ambiguous",
            "The claim holds under some of the readings its text allows and not under the"
            " others (a time reduction or a speedup, one division or another, one system or"
            " another), and the page does not say which it means; each reading is listed.",
            CLEAR_AND_CORRECT,
        ),
        _e(
            "not-mlperf",
            "not MLPerf",
            "This is not an MLPerf result (another metric, a hardware figure, or numbers the"
            " page itself says were not submitted), so it is not checked against MLPerf"
            " results, nor may it be compared with them.",
            SIMILAR_RESULTS,
        ),
        _e(
            "unverifiable",
            "unverifiable",
            "No stored MLPerf result matches what the claim names (organization, benchmark,"
            " version and system), so it cannot be checked here.",
            REQUIRED_INFORMATION,
        ),
    ]
)


def flag_explanation(code: str) -> Explanation:
    """:data:`FLAGS`' entry for ``code``; a code it lacks (a newer verifier's) gets a
    plain entry naming the code, never an error."""
    return FLAGS.get(code) or Explanation(code, code, f"benchdb flag {code}.", None)


#: Difference flags -> the linked results' field that differs (``result_label`` keys).
_DIFFERS = {
    "different-rounds": ("round", ""),
    "different-divisions": ("division", " division"),
    "different-availability": ("availability", ""),
    "different-accelerator-counts": ("accelerators", " accelerators"),
}


def flag_detail(code: str, linked: Sequence[Mapping[str, Any]]) -> str:
    """What differs, for a difference flag, from the claim's linked results (dicts
    with ``system`` and the differing field): ``"IPU-POD16: 16 accelerators; DGX
    A100: 8 accelerators"``; "" for other flags or without results."""
    if code not in _DIFFERS:
        return ""
    key, suffix = _DIFFERS[code]
    parts = dict.fromkeys(f"{r.get('system')}: {r.get(key)}{suffix}" for r in linked)
    return "; ".join(parts)


def verdict_explanation(code: str) -> Explanation:
    """:data:`VERDICTS`' entry for ``code`` (a plain entry for an unknown one)."""
    return VERDICTS.get(code) or Explanation(code, code, f"verdict {code}.", None)


# --- figures as people write them ----------------------------------------------------

#: Units written right after the number, without a space.
_TIGHT = frozenset({"x", "%"})
#: Count nouns (a claim's ``unit``) and their plurals; others are symbols ("min", "GB").
_PLURAL = {
    "organization": "organizations",
    "win": "wins",
    "task": "tasks",
    "card": "cards",
    "system": "systems",
    "node": "nodes",
    "result": "results",
    "chip": "chips",
    "GPU": "GPUs",
    "IPU": "IPUs",
    "TPU": "TPUs",
    "HPU": "HPUs",
    "accelerator": "accelerators",
    "token/s": "tokens/s",
    "sample/s": "samples/s",
    "image/s": "images/s",
    "query/s": "queries/s",
    "benchmark": "benchmarks",
    "record": "records",
    "item": "items",
    "product": "products",
    "core": "cores",
    "transistor": "transistors",
    "parameter": "parameters",
    "frame/s": "frames/s",
    "query/W": "queries/W",
    "sample/W": "samples/W",
    "image/W": "images/W",
    "token/W": "tokens/W",
}


def number(value: float, digits: int = 3) -> str:
    """A figure with at most ``digits`` significant decimals and no trailing zeros,
    thousands separated: 13.0 -> "13", 18.0 -> "18", 28.30 -> "28.3", 865000 ->
    "865,000", 23.6578 -> "23.66" (``digits`` 2 for percentages). "" for None, NaN or
    infinity."""
    if not math.isfinite(value):
        return ""
    text = f"{value:,.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def quantity(value: float | None, unit: str, qualifier: str = "") -> str:
    """``"more than 50 organizations"``, ``"18x"``, ``"24%"``, ``"28.3 min"``,
    ``"1 IPU"``: a claim's figure in its real unit; "" when there is no value."""
    if value is None or not math.isfinite(value):
        return ""
    digits = 2 if unit == "%" else 3
    num = number(value, digits)
    if unit in _TIGHT:
        text = f"{num}{unit}"
    elif unit:
        text = f"{num} {_PLURAL.get(unit, unit) if value != 1 else unit}"
    else:
        text = num
    return f"{qualifier} {text}" if qualifier else text


def claimed_text(claim: Mapping[str, Any]) -> str:
    """What a claim states, from a row of ``benchdb.claims/1`` (or the same keys):
    ``"28.3 min vs 29.1 min"``, ``"24%"``, a parity claim ``"same time to train"``, a
    range ``"3% to 7%"`` (``value_high``, in the row or its ``extracted`` facts: the
    parser marks a range's low end "at least", which alone would read as a bound)."""
    if claim.get("kind") == "parity":
        return "same time to train"
    unit = claim.get("unit") or ""
    qualifier = claim.get("qualifier") or ""
    high = claim.get("value_high")
    if high is None:
        high = (claim.get("extracted") or {}).get("value_high")
    if high is not None and claim.get("value") is not None and high != claim.get("value"):
        low = quantity(claim.get("value"), unit, "" if qualifier == "at least" else qualifier)
        return f"{low} to {quantity(high, unit)}"
    text = quantity(claim.get("value"), unit, qualifier)
    other = claim.get("compared_value")
    if other is not None:
        text += f" vs {quantity(other, unit)}"
    return text


def recomputed_text(claim: Mapping[str, Any], details: Mapping[str, Any] | None = None) -> str:
    """The claimed figure recomputed from MLPerf scores, in words: ``"28.33 min vs
    29.14 min"``, ``"23.66% (time reduction; 30.99% as a speedup)"``, a parity claim
    ``"largest difference 0.98%"``; "" when nothing was recomputed. ``details``: the
    claim's stored ``details`` (readings of a percentage)."""
    value = claim.get("recomputed_value")
    if value is None:
        return ""
    unit = claim.get("unit") or ""
    if claim.get("kind") == "parity":
        return f"largest difference {quantity(value, '%')}"
    text = quantity(value, unit)
    readings = (details or {}).get("readings") or {}
    if claim.get("kind") == "percentage" and readings:
        names = {"time_reduction": "time reduction", "speedup": "speedup"}
        best = min(readings, key=lambda k: abs(readings[k] - value))
        rest = [f"{quantity(v, '%')} as a {names.get(k, k)}" for k, v in readings.items()]
        rest = [r for k, r in zip(readings, rest, strict=True) if k != best]
        text += f" ({names.get(best, best)}{'; ' + '; '.join(rest) if rest else ''})"
    other = claim.get("compared_recomputed_value")
    if other is not None:
        text += f" vs {quantity(other, unit)}"
    return text


def claim_heading(claim: Mapping[str, Any]) -> str:
    """Who the claim is about: ``"IPU-POD16 vs DGX A100"``, a parity claim's
    frameworks ``"PaddlePaddle vs PopART"``, else its benchmark or submitter, else
    "no system named"."""
    extracted = claim.get("extracted") or {}
    one = claim.get("system") or extracted.get("framework") or ""
    other = claim.get("compared_system") or extracted.get("compared_framework") or ""
    if one and other:
        return f"{one} vs {other}"
    return one or other or extracted.get("submitter") or claim.get("benchmark") or "no system named"


_SECONDS = {"s": 1.0, "min": 60.0, "h": 3600.0}


def page_arithmetic_text(a: Mapping[str, Any]) -> str:
    """A claim's page arithmetic (``Claim.page_arithmetic``, from
    ``ingest.claims.parsers.arithmetic.PageArithmetic.as_dict``) as a formula: ``"4200 s
    / 91.5 s = 45.9x"`` (two times in the smaller of their units), ``"(6.25 s - 2.69 s) /
    6.25 s = 57%"`` (a time reduction), ``"6.25 s / 2.69 s - 1 = 132.3%"`` (a percent
    speedup), ``"2000 img/s / 1000 img/s = 2x"`` (throughputs: new over old); "" when
    there is none."""
    old, new, implied = a.get("old") or {}, a.get("new") or {}, a.get("implied")
    if not old or not new or implied is None:
        return ""
    o, n, ou, nu = old["value"], new["value"], old["unit"], new["unit"]
    if ou in _SECONDS and nu in _SECONDS and ou != nu:
        unit = min(ou, nu, key=_SECONDS.__getitem__)
        o, n = o * _SECONDS[ou] / _SECONDS[unit], n * _SECONDS[nu] / _SECONDS[unit]
        ou = nu = unit
    left, right = f"{number(o)} {ou}", f"{number(n)} {nu}"
    if ou not in _SECONDS:  # throughput: the larger (new) over the smaller (old)
        left, right = right, left
    reading = a.get("reading")
    if reading == "time_reduction":
        return f"({left} - {right}) / {left} = {number(implied, 1)}%"
    if reading == "percent_speedup":
        return f"{left} / {right} - 1 = {number(implied, 1)}%"
    return f"{left} / {right} = {number(implied, 2)}x"


def baseline_text(b: Mapping[str, Any]) -> str:
    """What a claim is compared against (``Claim.baseline_facts``, from
    ``ingest.claims.parsers.baselines.Baseline.as_dict``): its name as the page writes
    it, "not stated" when the page names none, "" for a claim that compares nothing."""
    if not b:
        return ""
    return "not stated" if b.get("kind") == "none" else str(b.get("name") or "not stated")

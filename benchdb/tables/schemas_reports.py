"""Column specs of the guideline report and claim families tables (issue 14), of the
home page's suites and rounds (issue 23) and of a claim's reasoning (issue 20, appended to
``benchdb.claims/1``), in the
``name | type | description`` form of :mod:`benchdb.tables.schemas`, which registers
them in ``SCHEMAS`` (kept apart so that module stays under 600 lines). Pure: no Django.
"""

from __future__ import annotations

GUIDELINE_SPEC = """
clause | string | section number of MLPerf_Results_Messaging_Guidelines.adoc ("5", "3.2", "11.1")
title | string | the section's title as the guidelines write it
quote | string | the words of the section the finding rests on (verbatim)
status | string | "breaks" or "satisfies"
statement | string | the page's sentence (or, for a page-level clause, the passage) it is about
claims | array | ids of the claims in that statement the finding comes from (empty: page-level)
flags | array | strings: the claims' flags behind the finding (benchdb.claims/1 flags)
reasons | array | strings: why, in sentences
url | string | the section on GitHub (mlcommons/policies)
"""

FAMILY_SPEC = """
family | integer | the family's place in order of first publication, from 1
subject | string | what the claim is about: systems compared, benchmark, else framework or
    submitter, else "<vendor> (no subject named)"
kind | string | the claims' kind (benchdb.claims/1 kind)
value | string | the claimed figure as first published, as people write it ("24%", "28.3 min vs
    29.1 min")
number | number|null | the claimed value as first published, in unit (times in minutes)
unit | string | its unit ("min" for every time)
claims | integer | claims in the family (every repetition, on every page)
pages | array | strings: source URL (else file name) of each page making the claim, first
    publication first
languages | array | strings: the pages' languages
first_seen | string|null | date of the earliest page making it, YYYY-MM-DD (null: no page dated)
first_page | string | that page's source URL, else file name
first_claim | integer | id of the claim first published
first_sentence | string | its sentence
claim_ids | array | integers: ids of every claim in the family, in publication order
verdicts | array | strings: the verdicts its claims got
"""

PAGE_NUMBERS_SPEC = """
page | integer | the vendor page's id
number | string | the number as the page writes it ("2021", "A100"'s "100", "0.1293")
reason | string | why it is no claim: url, result-id, date, version, model-size, name, price,
    page-count, footnote, negated, quality, ratio, share, vendor-table, setting, count, other
why | string | the reason in words ("a date, year or time of day")
line | integer|null | line of the page's text it is on, from 1 (null: the stored span no longer
    points at it)
start | integer | character offset of the number in the page's text, from 0
end | integer | character offset just past it
context | string | up to 50 characters of its line on each side of it ("…" where cut)
"""


#: Appended to ``benchdb.vendor_pages/1``: the page arithmetic and number accounting.
VENDOR_PAGE_NUMBERS_SPEC = """
consistent_with_page | integer|null | claims the page's own figures give ("consistent-with-page")
inconsistent_with_page | integer|null | claims the page's own figures contradict
numbers_not_claims | integer|null | numbers of the page's text not treated as claims (a date, a
    version, a name...; each with its reason on the page)
"""


#: ``benchdb.site_rounds/1``: the home page, one row per suite and round (issue 23).
SITE_ROUNDS_SPEC = """
suite | string | "training", "inference" or "hpc"
round | string | round version, e.g. "v1.1"
latest | boolean | the suite's latest round loaded here
results | integer | results of the round stored here
valid | integer | results judged valid (training and HPC: scored under the round's rules)
rejected | integer | results the round's rules reject (training and HPC: no score, with the
    reason on the result page)
unverifiable | integer | results whose needed files the published tree lacks (inference only;
    training and HPC results are recomputed from their stored logs: 0)
url | string | path of the round's page (inference, training: the round table; HPC: its boards)
"""

#: Appended to ``benchdb.claims/1`` (issue 20): why a verdict is what it is.
CLAIM_REASONING_SPEC = """
reason | string | why the verdict: for "unverifiable", the slot that was missing or the readings
    that disagree; for an inconsistent verdict withheld, why; "" when the readings settle it
tolerance | number|null | the relative difference (fraction) within which a reading holds, and its
    source: MLCommons' run-to-run variation (training), the printed digits (inference)
open_slots | array | strings: what the text leaves open when its readings disagree ("system",
    "scenario", "division", "reading" = time reduction or speedup, "compared", "baseline")
readings | array | strings: each reading the text allows, "<label>: holds" or "<label>: does not
    hold" (at most 24; benchdb.claims.readings)
"""

#: Appended to ``benchdb.claims/1`` (issue 27): the claim settled by hand, when it is.
CLAIM_PIN_SPEC = """
settled_by | string | who settled the claim by hand (pins kept in the claim workbench); "" when
    nobody did
settled_at | string | when (ISO 8601, UTC); "" when not settled by hand
pins | string | the pins as a JSON object: "subject", "compared", "baseline" (result keys: the
    result's natural key joined by "/", e.g. "training/v1.1/Graphcore/ipu-pod16-TF1/resnet"),
    "scenario", "division", "round", "benchmark", "reading", "normalisation"; "" when none
pin_flags | array | strings: "changed" or "withdrawn" for each pinned result whose value changed
    or that is no longer scored or valid since it was pinned
"""

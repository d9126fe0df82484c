"""Pure reshaping of selector output into table rows, CSV and JSON. No queries here.

Every table a page shows is also served as ``?format=csv`` and ``?format=json``,
built from the same rows. JSON shape (stable; ``schema`` names it and the version
after the slash changes only if a column is removed, renamed or changes type)::

    {"schema": "benchdb.<table>/1", "columns": ["col", ...], "rows": [{"col": value, ...}, ...]}

Numbers are JSON numbers at full precision (minutes as floats, counts as
integers), missing values ``null``, ``id`` the benchdb primary key, ``url`` a path on
this site. CSV has the same columns in the same order, a header line, ``\\n`` line
ends, missing values empty. The columns of each schema (see :data:`SCHEMAS`, served
at ``/api/``):

``benchdb.results/1``  (``manage.py export results``) :data:`RESULT_COLUMNS`.
``benchdb.result_table/1``  search, leaderboard, system page: ``id``, the
    columns of ``benchdb.results/1``, ``url``.
``benchdb.rounds/1``  home page: one row per round with counts.
``benchdb.runs/1``  result page: one row per run (``result_N.txt``).
``benchdb.compare/1``  compare page: one row per result, ``speedup`` against the
    baseline row, the derived ``speedup_per_accelerator`` and ``flags``.
``benchdb.divisions/1``  closed against open results of the same system.
``benchdb.software/1``  one accelerator model across frameworks, SDKs and rounds.
``benchdb.scaling/1``  time to train and scaling efficiency against accelerators.
``benchdb.round_table/1``  round table: one row per system and division, a score column
    (``<benchmark>_minutes``) per benchmark.
``benchdb.hpc_results/1``  (``manage.py export results --suite hpc``) the columns of
    ``benchdb.results/1`` for MLPerf HPC, with the scaling type and weak-scaling figures.
``benchdb.inference_results/1``  (``manage.py export results --suite inference``) one row
    per MLPerf Inference result: the published table's columns, benchdb's status and reason.

Derived figures follow MLPerf's results messaging guidelines
(``../shared/vendor/MLPerf_Results_Messaging_Guidelines.adoc``): a ratio of two
scores is flagged with every difference that must be stated (round, division,
availability category, accelerator count), and per-accelerator figures are named
as derived, not MLPerf metrics.
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec

from benchdb import suites
from benchdb.mlperf.training import schemas as training_schemas
from benchdb.tables import schemas_history, schemas_reports
from benchdb.tables.columns import Column, cols

#: Every published table: schema name -> its columns (served at ``/api/``): each suite's
#: (``<suite package>.schemas.SCHEMAS``, through the registry ``benchdb.suites``; a suite
#: that publishes another suite's tables has no such module), then the
#: claims' and the ingest jobs' below.
SCHEMAS: dict[str, tuple[Column, ...]] = {}
for _suite in suites.SUITES:
    if find_spec(f"{_suite.package}.schemas") is not None:  # one that publishes its own
        SCHEMAS |= import_module(f"{_suite.package}.schemas").SCHEMAS

#: The columns of ``benchdb.results/1`` (``manage.py export results``), in order.
RESULT_COLUMNS = training_schemas.RESULT_COLUMNS

# --- vendor pages and claims (benchdb.claims.selectors, /vendor/) -------------------
# "array": a JSON array (items space-separated in CSV).

_VENDOR_PAGE_SPEC = """
id | integer | id of the page (/vendor/pages/<id>/)
page | string | the page's source URL, else its file name
title | string | the page's title ("" if none)
file_name | string | name of the uploaded or ingested file ("" for a fetched URL)
url | string | source URL ("" if not known)
published | string|null | publication date, YYYY-MM-DD: given, or found in the page (its metadata,
    the date by its headline) or its URL; null if unknown (never guessed)
retrieved | string | when benchdb got the page, ISO 8601 with time zone
language | string | "en", "zh-Hans", "zh-Hant" or "und" (undetermined)
format | string | "html" or "text"
sha256 | string | sha256 of the page's bytes as fetched or uploaded
claims | integer|null | numeric claims found in the page
vendor_results | integer|null | rows of the vendor's own tables found in the page
link | string | path of the page on this site
vendor | string | the company whose results the page is about: given, or named by the page ("" if
    none)
vendor_source | string | where vendor came from: "given", "html" (site metadata), "url" (the
    URL's host), "title", "text" or ""
published_source | string | where published came from: "given", "html" (meta tags, JSON-LD),
    "text" (a date by the headline), "url" or ""
consistent | integer|null | claims of the page with verdict "consistent"
inconsistent | integer|null | claims with verdict "inconsistent"
ambiguous | integer|null | claims with verdict "ambiguous"
not_mlperf | integer|null | claims with verdict "not-mlperf"
unverifiable | integer|null | claims with verdict "unverifiable"
families | integer|null | claim families the page's claims fall into (a claim repeated counts once;
    benchdb.claim_families/1)
guideline_breaks | integer|null | statements of the page that break a clause of the messaging
    guidelines (one per clause and statement; benchdb.guidelines/1)
guideline_satisfies | integer|null | statements that satisfy a clause
guideline_clauses_broken | integer|null | distinct clauses the page breaks
"""

_CLAIM_SPEC = """
id | integer | id of the claim (/vendor/claims/<id>/)
page | string | source URL of the claim's page, else its file name
sentence | string | the sentence that states the claim, as the page gives it
kind | string | "time", "head_to_head", "multiplier", "percentage", "scale", "parity", "spec",
    "throughput" or "count"
value | number|null | the claimed figure, in unit; null when the page's number is no finite figure
unit | string | "min", "s" or "h" (times), "%", "x", "GPU", "IPU"... (scales), "TFLOPS", "GB"...
    (hardware)
qualifier | string | "up to", "nearly", "about", "more than", "at least", "just over", "less than",
    "only" or ""
system | string | the system the claim is about, as the page names it
benchmark | string | the benchmark as the page names it
round | string | round the claim is checked in ("v1.1"): named in the page, else the latest
    published on or before the page's date
division | string | "closed", "open" or "" (not named)
compared_system | string | the other side of a comparison, as the page names it
compared_value | number|null | the other side's figure, in unit
recomputed_value | number|null | the claimed figure recomputed from the linked results' scores, in
    unit
compared_recomputed_value | number|null | the other side's figure recomputed, in unit
verdict | string | "consistent", "inconsistent", "ambiguous", "not-mlperf" or "unverifiable"
    (benchdb.claims.verdicts)
flags | array | strings: differences and caveats MLPerf's results messaging guidelines require
    stating ("different-divisions"...)
result_ids | array | strings: MLPerf result IDs the page cites ("3.0-2053")
results | array | strings: the results the claim was checked against,
    "role:round/submitter/system/benchmark" (inference: ".../model/scenario"; Storage:
    ".../workload/acceleratorxcount", "subject:v1.0/DDN/<system>/unet3d/a100x72"); role
    "subject", "compared" or "baseline"
link | string | path of the claim on this site
page_verdict | string | "consistent-with-page", "inconsistent-with-page" or "" (the page gives no
    two figures for it): the claim recomputed from its own page's figures (columns after link
    were appended to version 1)
page_arithmetic | string | that recomputation as a formula, "4,200 s / 91.5 s = 45.9x",
    "(6.25 s - 2.69 s) / 6.25 s = 57%"; "" when none
baseline | string | what a comparative claim is measured against, as the page names it; "not
    stated" when the page names nothing; "" for a claim that compares nothing
baseline_flags | array | strings: where the claim's side and its baseline differ, or that the
    baseline is missing ("baseline-not-stated", "different-hardware", "different-software",
    "different-quality", "different-runner")
"""

_CLAIM_LINK_SPEC = """
claim | integer | id of the claim
role | string | "subject" (the claimed system), "compared" (the other side) or "baseline" (the
    earlier result a gain is measured from)
result | string | path of the result page on this site
round | string | round version of the result
submitter | string | submitting organization
system | string | system folder name
division | string | "closed" or "open"
availability | string | availability category
accelerators | integer|null | accelerator count
benchmark | string | benchmark key
score_minutes | number|null | the result's time to train, minutes (olympic mean x scaling factor)
link | string | path of the result page on this site
suite | string | the result's suite: "training", "inference", "automotive", "tiny", "mobile" or
    "storage" (columns after link were appended to version 1)
scenario | string | an inference result's LoadGen scenario, a Storage result's simulated
    accelerator ("A100"; "" for training)
value | number|null | an inference or Storage result's value in unit (null for training:
    score_minutes; Storage: the figure the claim was checked against)
unit | string | unit of value ("Tokens/s", "Samples/s", "ms", "MiB/s", "samples/s"...; "" for
    training)
"""

_VENDOR_RESULT_SPEC = """
page | integer | id of the page
table | integer | the table's number in the page, from 1
row | integer | the row's number in its table, from 1
line | integer | 1-based line of the page's cleaned text
caption | string | up to three lines of text above the table (its title and notes)
model | string | the model (network) cell as written
benchmark | string | benchmark key the model names ("" if none)
framework | string | the framework cell
system | string | the server cell, else the accelerator
accelerators | integer|null | the row's accelerator count
metric | string | "time-to-train", "throughput" or ""
value | number|null | the row's time to train (minutes) or throughput (in unit)
unit | string | "min", or the throughput unit of the column header
result_id | string | the MLPerf-ID cell ("3.0-2068") or ""
round | string | round named by the model or the caption ("v3.0") or ""
division | string | "closed" or "open" from the caption, else ""
carried | array | integers: 0-based indexes of the cells filled from the row above
cells | array | strings: the row's cells in column order
"""

SCHEMAS |= {
    "benchdb.guidelines/1": cols(schemas_reports.GUIDELINE_SPEC),
    "benchdb.claim_families/1": cols(schemas_reports.FAMILY_SPEC),
    "benchdb.page_numbers/1": cols(schemas_reports.PAGE_NUMBERS_SPEC),
    "benchdb.site_rounds/1": cols(schemas_reports.SITE_ROUNDS_SPEC),
}

SCHEMAS |= {
    "benchdb.vendor_pages/1": cols(_VENDOR_PAGE_SPEC)
    + cols(schemas_reports.VENDOR_PAGE_NUMBERS_SPEC),
    "benchdb.claims/1": cols(_CLAIM_SPEC)
    + cols(schemas_reports.CLAIM_REASONING_SPEC)
    + cols(schemas_reports.CLAIM_PIN_SPEC),
    "benchdb.claim_links/1": cols(_CLAIM_LINK_SPEC),
    "benchdb.vendor_results/1": cols(_VENDOR_RESULT_SPEC),
}


# --- ingest jobs (ingest.selectors, /ingest/jobs/) -------------------------------------------

_INGEST_JOB_SPEC = """
id | integer | id of the job (/ingest/jobs/<id>/)
source | string | name of the source synced
kind | string | "mlperf-training" or "vendor"
location | string|null | URL (no credentials) or path of the source; null unless logged in
ref | string|null | git branch, tag or commit sha ("" = default branch); null unless logged in
trigger | string | "schedule", "manual" (web), "command" or "resume" (after an interruption)
state | string | "queued", "running", "succeeded", "failed" or "interrupted"
created | string | when the job was queued, ISO 8601 with time zone
started | string|null | when a worker started it, ISO 8601
finished | string|null | when it ended, ISO 8601
commit_from | string | commit the diff starts from ("" for a full read)
commit_to | string | commit read ("" for a plain folder or a vendor page)
incremental | boolean | only the result folders changed since commit_from were read
files_seen | integer | input files read (runs, systems file, scaling.json; a vendor page is one)
results_total | integer|null | result folders to read (null until known)
results_seen | integer | result folders read so far
results_added | integer | results stored that were not there before
results_changed | integer | results stored again because their input changed
results_unchanged | integer | results whose input was unchanged (nothing written)
results_failed | integer|null | result folders read but not stored (known once the job ended)
errors | integer | error rows of the job (warnings not counted)
progress_percent | integer|null | results_seen / results_total, 0-100 (null: total unknown)
message | string|null | what the job did; raw error text of a failed job: null unless logged in
url | string | path of the job page
"""

_INGEST_JOB_ERROR_SPEC = """
job | integer | id of the job
path | string | the input file, relative to the source's tree ("" = the source itself)
line | integer|null | 1-based line in that file
severity | string | "error" or "warning"
message | string|null | the problem; raw error text (source, database): null unless logged in
"""

SCHEMAS |= {
    "benchdb.ingest_jobs/1": cols(_INGEST_JOB_SPEC),
    "benchdb.ingest_job_errors/1": cols(_INGEST_JOB_ERROR_SPEC),
}


#: The versions of results and claims (``benchdb.history``, /changes/ and /ids/).
SCHEMAS |= {f"benchdb.{k}/1": cols(v) for k, v in schemas_history.SPECS.items()}


def columns(schema: str) -> tuple[str, ...]:
    """Column names of a schema in :data:`SCHEMAS` (KeyError if unknown)."""
    return tuple(c.name for c in SCHEMAS[schema])

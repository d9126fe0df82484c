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

from dataclasses import dataclass

from benchdb.tables import schemas_history, schemas_reports
from benchdb.vocabulary import BENCHMARK_NAMES

RESULT_COLUMNS = (
    "round",
    "submitter",
    "system",
    "system_name",
    "division",
    "availability",
    "benchmark",
    "accelerator_model",
    "accelerators",
    "nodes",
    "framework",
    "score_minutes",
    "runs_total",
    "runs_counted",
    "runs_failed",
    "scaling_factor",
    "status",
    "reason",
    "result_id",
    "result_id_origin",
    "energy_joules",
    "energy_scope",
    "source",
)


@dataclass(frozen=True)
class Column:
    """One column of a published table: JSON type and meaning (with unit)."""

    name: str
    type: str
    description: str


def _cols(spec: str) -> tuple[Column, ...]:
    """``name | type | description`` lines -> columns; an indented line continues the
    previous line's description."""
    rows: list[list[str]] = []
    for line in spec.strip("\n").splitlines():
        if line.startswith(" ") and rows:
            rows[-1][2] += " " + line.strip()
        else:
            rows.append([p.strip() for p in line.split(" | ")])
    return tuple(Column(name, type_, desc) for name, type_, desc in rows)


_RESULT_SPEC = """
round | string | round version, e.g. "v1.1"
submitter | string | submitting organization (canonical name)
system | string | system folder name in the results repository
system_name | string | system_name from the systems JSON
division | string | "closed" or "open"
availability | string | "available", "preview", "research" or "" (unknown)
benchmark | string | benchmark key (mlperf_logging's), e.g. "resnet"
accelerator_model | string | accelerator_model_name from the systems JSON
accelerators | integer|null | nodes x accelerators per node
nodes | integer|null | number_of_nodes from the systems JSON
framework | string | framework from the systems JSON
score_minutes | number|null | time to train, minutes: olympic mean x scaling factor
runs_total | integer | runs (result_N.txt files) found
runs_counted | integer | runs averaged by the olympic mean
runs_failed | integer | runs that did not converge or did not parse
scaling_factor | number | scaling.json factor applied to the mean (1.0 if none)
status | string | "scored" or "unscored"
reason | string | why there is no score ("" when scored)
result_id | string | MLPerf result ID such as "1.1-2040" where known, else ""
result_id_origin | string | where result_id came from: "derived" (benchdb's rule), "vendor-cited",
    "imported" (an ID table from MLCommons), or "" (no ID)
energy_joules | number|null | energy to train, joules (v4.0 on, power results only): the mean of
    the counted runs' energies x scaling factor, as result_summarizer's *_power.csv
energy_scope | string | what the energy measures: "node" (node power logs) or "node+switch"
    (and the interconnect switches' estimates); "" without energy
source | string | URL (or path) of the result folder
"""

_RUN_SPEC = """
result | integer | id of the result
run | integer | id of the run
index | integer | position in file-name order (0-based)
file | string | file name, e.g. "result_0.txt"
path | string | path in the results repository
role | string | "counted", "dropped_fastest", "dropped_slowest", "failed" or "unused" (v0.5 NCF
    beyond the first 50 converged)
counted | boolean | averaged by the olympic mean
converged | boolean | the run reached the quality target and is valid
time_to_train_minutes | number|null | run_stop - run_start, minutes
converge_at | number|null | epoch_num (or samples_count) of the last eval_accuracy before run_stop
converge_unit | string | "epochs" or "samples": what converge_at counts, as logged
global_batch_size | integer|null | global_batch_size logged by the run
run_start_line | integer|null | 1-based line of run_start in the log
run_stop_line | integer|null | 1-based line of run_stop in the log
run_stop_status | string | status in run_stop metadata ("success", "aborted", "")
failure_reason | string | why the run does not count ("" if it does)
sha256 | string | sha256 of the log file
log_url | string | path of the stored log on this site (text/plain, byte for byte)
log_page | string | the stored log as a page: numbered lines, #L<n> anchors, at run_start
source | string | the log in its repository: GitHub URL with the run_start..run_stop lines
    highlighted, else its path
energy_joules | number|null | the run's energy, joules: its power/<run>/ node (and switch) logs'
    mean power x its time to train (power results only)
"""

_COMPARE_SPEC = """
id | integer | id of the result
baseline | boolean | the row speedups are measured against
round | string | round version
result_id | string | MLPerf result ID where known, else ""
submitter | string | submitting organization
system | string | system folder name
system_name | string | system_name from the systems JSON
division | string | "closed" or "open"
availability | string | availability category
benchmark | string | benchmark key
accelerator_model | string | accelerator model
accelerators | integer|null | accelerator count
framework | string | framework
score_minutes | number|null | time to train, minutes (the MLPerf metric)
speedup | number|null | baseline score / this score (ratio of MLPerf scores)
speedup_per_accelerator | number|null | DERIVED, NOT AN MLPERF METRIC: speedup x baseline
    accelerators / accelerators
flags | string | differences from the baseline that must be stated, "; "-separated
url | string | path of the result page
"""

_DIVISION_SPEC = """
round | string | round version
submitter | string | submitting organization
benchmark | string | benchmark key
system_name | string | system_name shared by both results
accelerator_model | string | accelerator model
accelerators | integer|null | accelerator count
closed_id | integer|null | id of the closed result (null: none)
closed_system | string | closed system folder
closed_score_minutes | number|null | closed time to train, minutes
open_id | integer | id of the open result
open_system | string | open system folder
open_score_minutes | number|null | open time to train, minutes
open_speedup | number|null | closed score / open score
differences | string | hyperparameters whose values differ between a counted run of each (";
    "-separated)
"""

_SOFTWARE_SPEC = """
id | integer | id of the result
round | string | round version
submitter | string | submitting organization
system | string | system folder name
system_name | string | system_name
benchmark | string | benchmark key
division | string | "closed" or "open"
accelerator_model | string | accelerator model
accelerators | integer|null | accelerator count
framework | string | framework as the systems JSON gives it
framework_family | string | PopART, TensorFlow, PaddlePaddle, PyTorch, MXNet, JAX... (derived from
    framework)
sdk | string | SDK or container release read from framework / software stack, e.g. "Poplar SDK
    2.3.0", "NGC 21.09"
score_minutes | number|null | time to train, minutes
line | string | the chart line this row belongs to: submitter, accelerator model, accelerators,
    framework family (a line never joins hardware generations)
progress | number|null | score of the line's earliest round / this score (1.0 on that round)
relative_to_fastest | number|null | this score / the fastest score of the same round and accelerator
    count in the table (1.0 = fastest)
url | string | path of the result page
"""

_SCALING_SPEC = """
id | integer | id of the result
round | string | round version
submitter | string | submitting organization
system | string | system folder name
system_name | string | system_name
benchmark | string | benchmark key
accelerator_model | string | accelerator model
framework_family | string | framework family (one series per round and family)
accelerators | integer | accelerator count N
score_minutes | number | time to train T_N, minutes
accelerator_minutes | number | T_N x N, accelerator-minutes (DERIVED, not an MLPerf metric)
reference_system | string | system folder of the series' smallest system
reference_accelerators | integer | N_ref
reference_minutes | number | T_ref, minutes
ideal_minutes | number | T_ref x N_ref / N: time to train under perfect scaling, minutes
speedup | number | T_ref / T_N
efficiency | number | E(N) = (T_ref x N_ref) / (T_N x N); 1.0 is perfect scaling (DERIVED)
url | string | path of the result page
"""

_ROUND_SPEC = """
round | string | round version, e.g. "v1.1"
suite | string | "training"
ruleset | string | mlperf_logging release whose rules scored the round
results | integer | results stored
scored | integer | results with a score
systems | integer | systems with at least one result
submitters | integer | submitters with at least one result
benchmarks | integer | benchmarks with at least one result
benchmark_keys | string | those benchmarks' keys, space-separated
repository | string | results repository of the round
"""

#: Every published table: schema name -> its columns (served at ``/api/``).
SCHEMAS: dict[str, tuple[Column, ...]] = {
    "benchdb.results/1": _cols(_RESULT_SPEC),
    "benchdb.result_table/1": (
        Column("id", "integer", "id of the result"),
        *_cols(_RESULT_SPEC),
        Column("url", "string", "path of the result page"),
    ),
    "benchdb.rounds/1": _cols(_ROUND_SPEC),
    "benchdb.runs/1": _cols(_RUN_SPEC),
    "benchdb.compare/1": _cols(_COMPARE_SPEC),
    "benchdb.divisions/1": _cols(_DIVISION_SPEC),
    "benchdb.software/1": _cols(_SOFTWARE_SPEC),
    "benchdb.scaling/1": _cols(_SCALING_SPEC),
}


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
    "role:round/submitter/system/benchmark"; role "subject", "compared" or "baseline"
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
suite | string | "training" or "inference" (columns after link were appended to version 1)
scenario | string | an inference result's LoadGen scenario ("" for training)
value | number|null | an inference result's value in unit (null for training: score_minutes)
unit | string | unit of value ("Tokens/s", "Samples/s", "ms"...; "" for training)
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
    "benchdb.guidelines/1": _cols(schemas_reports.GUIDELINE_SPEC),
    "benchdb.claim_families/1": _cols(schemas_reports.FAMILY_SPEC),
    "benchdb.page_numbers/1": _cols(schemas_reports.PAGE_NUMBERS_SPEC),
    "benchdb.site_rounds/1": _cols(schemas_reports.SITE_ROUNDS_SPEC),
}

SCHEMAS |= {
    "benchdb.vendor_pages/1": _cols(_VENDOR_PAGE_SPEC)
    + _cols(schemas_reports.VENDOR_PAGE_NUMBERS_SPEC),
    "benchdb.claims/1": _cols(_CLAIM_SPEC)
    + _cols(schemas_reports.CLAIM_REASONING_SPEC)
    + _cols(schemas_reports.CLAIM_PIN_SPEC),
    "benchdb.claim_links/1": _cols(_CLAIM_LINK_SPEC),
    "benchdb.vendor_results/1": _cols(_VENDOR_RESULT_SPEC),
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
    "benchdb.ingest_jobs/1": _cols(_INGEST_JOB_SPEC),
    "benchdb.ingest_job_errors/1": _cols(_INGEST_JOB_ERROR_SPEC),
}


_ROUND_TABLE_SPEC = """
round | string | round version, e.g. "v2.0"
division | string | "closed" or "open"
availability | string | "available", "preview", "research" or "" (unknown)
submitter | string | submitting organization (canonical name)
system | string | system folder name in the results repository
system_name | string | system_name from the systems JSON
accelerator_model | string | accelerator_model_name from the systems JSON
accelerators | integer|null | nodes x accelerators per node
nodes | integer|null | number_of_nodes from the systems JSON
host_processor_model | string | host_processor_model_name from the systems JSON
host_processors_per_node | integer|null | host_processors_per_node from the systems JSON
framework | string | framework from the systems JSON
result_ids | string | MLPerf result IDs of the system's results where known, "; "-separated
details | string | path of the system's page on this site
code | string | the submitter's code folder in the results repository (URL at the commit)
logs | string | the system's results folder in the results repository (URL at the commit)
"""

SCHEMAS |= {
    "benchdb.round_table/1": _cols(_ROUND_TABLE_SPEC)
    + tuple(
        Column(f"{key}_minutes", "number|null", f"{name}: the system's score, minutes")
        for key, name in BENCHMARK_NAMES.items()
    )
    + tuple(
        Column(
            f"{key}_energy_joules",
            "number|null",
            f"{name}: the system's energy to train, joules (power results, v4.0 on)",
        )
        for key, name in BENCHMARK_NAMES.items()
    )
}

_RUN_LOG_LINES_SPEC = """
line | integer | 1-based line number in the stored log (as the ingest numbered it)
text | string | the line, decoded as UTF-8 (undecodable bytes replaced)
mark | string | "run_start", "run_stop", "eval", "target" (the evaluation that reached the
    quality target) or ""
"""

SCHEMAS |= {"benchdb.run_log_lines/1": _cols(_RUN_LOG_LINES_SPEC)}
SCHEMAS |= {f"benchdb.{k}/1": _cols(v) for k, v in schemas_history.SPECS.items()}

_INFERENCE_ROUNDS_SPEC = """
round | string | round version, e.g. "v5.1"
results | integer | inference results stored for the round
valid | integer | results valid by the round's checker rules
invalid | integer | results the round's checker would reject
unverifiable | integer | results a file of which the published tree lacks
systems | integer | systems with a result
submitters | integer | submitting organizations
power | integer | results with a power or energy measurement
"""

_INFERENCE_FINDINGS_SPEC = """
rule | string | the rule, e.g. "result_validity", "accuracy_target", "compliance_missing"
path | string | the file the evidence is in, relative to the round's root
line | integer|null | 1-based line in that file (null: the whole file)
message | string | what the rule found
invalidates | boolean | whether the round's checker rejects the result for it
"""

SCHEMAS |= {
    "benchdb.inference_rounds/1": _cols(_INFERENCE_ROUNDS_SPEC),
    "benchdb.inference_findings/1": _cols(_INFERENCE_FINDINGS_SPEC),
}

_INFERENCE_RESULT_SPEC = """
id | integer | benchdb id of the result
result_id | string | MLCommons result ID from the round's published table, e.g. "5.1-0061"
    ("" where the round publishes none in its repository)
round | string | round version, e.g. "v5.1"
division | string | "closed", "open" or "network"
category | string | system_type of the systems JSON: "datacenter", "edge" or both
submitter | string | submitting organization (canonical name)
system | string | system folder name (Platform in the published table)
system_name | string | system_name from the systems JSON
accelerator | string | accelerator_model_name from the systems JSON
accelerators | integer|null | nodes x accelerators per node
processor | string | host_processor_model_name from the systems JSON
software | string | framework from the systems JSON
availability | string | "available", "preview", "research" or "" (unknown)
model_folder | string | model folder as written, e.g. "llama3_1-70b-fp8_dyn"
model | string | benchmark with accuracy variant, e.g. "llama2-70b-99.9" ("" if unmapped)
scenario | string | Offline, Server, SingleStream, MultiStream or Interactive
metric | string | detail-log key the value was read from, e.g. "result_tokens_per_second"
value | number|null | the result recomputed from its LoadGen logs, in unit
unit | string | as the round's checker prints it: Samples/s, Queries/s, Tokens/s, Latency (ms)
inferred | boolean | value taken from another scenario's run (get_inferred_result)
accuracy | string | accuracy.txt metrics, "NAME=value; ..."
accuracy_valid | boolean|null | every metric meets the round's target
power | number|null | average Watts (Offline, Server) or energy per query (SingleStream,
    MultiStream) in power_unit; null when not measured
power_unit | string | Watts, Joules, Joules/Stream or millijoules
compliance_valid | boolean|null | every required compliance test passed (null: open division)
status | string | "valid", "invalid" (the round's checker rejects it) or "unverifiable"
    (a file the checker needs is absent from the published tree)
reason | string | the failed rules that invalidate it, "path:line: message; ..."
missing | string | absent files that make it unverifiable, "; "-separated
published_value | number|null | the value in the round's published table
published_unit | string | its unit there
location | string | result folder relative to the round's root (Location in the table)
"""

SCHEMAS |= {"benchdb.inference_results/1": _cols(_INFERENCE_RESULT_SPEC)}

_INFERENCE_COMPARE_SPEC = """
baseline | boolean | the row the others are measured against
ratio | number|null | how many times better than the baseline (throughput / the baseline's, or
    the baseline's latency / this latency); null when the results are not comparable
flags | string | the differences MLPerf's messaging guidelines require to be stated, "; "-joined
"""

SCHEMAS |= {
    "benchdb.inference_compare/1": _cols(_INFERENCE_RESULT_SPEC) + _cols(_INFERENCE_COMPARE_SPEC)
}


#: MLPerf HPC: strong scaling fills ``score_minutes`` (as training), weak scaling the
#: last four columns (``result_summarizer._compute_weak_scaling_scores``).
_HPC_EXTRA_SPEC = """
scaling_type | string | "strong" (time to train) or "weak" (many models trained at once)
models_count | integer|null | weak: models that passed (the summarizer's number_of_models)
instance_scale | integer|null | weak: accelerators per model, nodes x max(accelerators, 1)
time_to_train_all_minutes | number|null | weak: first run_start to last run_stop, minutes
throughput_models_per_minute | number|null | weak: models_count / time_to_train_all_minutes
    (derived by benchdb; the summarizer reports the two figures)
"""
HPC_EXTRA_COLUMNS = tuple(c.name for c in _cols(_HPC_EXTRA_SPEC))
_HPC_ROUNDS_SPEC = """
round | string | HPC round version, e.g. "v1.0"
tag | string | mlperf_logging tag whose summarizer scored it ("" for v0.7: none existed)
benchmark | string | benchmark key: cosmoflow, deepcam, oc20, openfold
scaling_type | string | "strong" or "weak"
results | integer | results of the board
scored | integer | results with a score
"""
SCHEMAS |= {
    "benchdb.hpc_results/1": SCHEMAS["benchdb.results/1"] + _cols(_HPC_EXTRA_SPEC),
    "benchdb.hpc_rounds/1": _cols(_HPC_ROUNDS_SPEC),
    # HPC leaderboard (``/hpc/<round>/<benchmark>/<scaling>/``): the rows of the export
    # with the result's id and page.
    "benchdb.hpc_board/1": (
        Column("id", "integer", "id of the result"),
        *SCHEMAS["benchdb.results/1"],
        *_cols(_HPC_EXTRA_SPEC),
        Column("url", "string", "path of the result page"),
    ),
}


def columns(schema: str) -> tuple[str, ...]:
    """Column names of a schema in :data:`SCHEMAS` (KeyError if unknown)."""
    return tuple(c.name for c in SCHEMAS[schema])

"""MLPerf Training's published tables (registered into ``benchdb.tables.schemas.SCHEMAS``
through the suite registry): results, the result table of the lists, rounds, runs,
compare, divisions, software, scaling, the round table and a run log's lines. Pure."""

from __future__ import annotations

from benchdb.tables.columns import Column, cols
from benchdb.vocabulary import BENCHMARK_NAMES

#: The columns of ``benchdb.results/1`` (``manage.py export results``), in order.
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

#: The suite's tables: schema name -> its columns.
SCHEMAS: dict[str, tuple[Column, ...]] = {
    "benchdb.results/1": cols(_RESULT_SPEC),
    "benchdb.result_table/1": (
        Column("id", "integer", "id of the result"),
        *cols(_RESULT_SPEC),
        Column("url", "string", "path of the result page"),
    ),
    "benchdb.rounds/1": cols(_ROUND_SPEC),
    "benchdb.runs/1": cols(_RUN_SPEC),
    "benchdb.compare/1": cols(_COMPARE_SPEC),
    "benchdb.divisions/1": cols(_DIVISION_SPEC),
    "benchdb.software/1": cols(_SOFTWARE_SPEC),
    "benchdb.scaling/1": cols(_SCALING_SPEC),
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
    "benchdb.round_table/1": cols(_ROUND_TABLE_SPEC)
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

SCHEMAS |= {"benchdb.run_log_lines/1": cols(_RUN_LOG_LINES_SPEC)}

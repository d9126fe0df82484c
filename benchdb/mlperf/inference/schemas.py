"""MLPerf Inference's published tables (registered into ``benchdb.tables.schemas.SCHEMAS``
through the suite registry): rounds, findings, results (``manage.py export results
--suite inference``) and compare. Pure."""

from __future__ import annotations

from benchdb.tables.columns import Column, cols

SCHEMAS: dict[str, tuple[Column, ...]] = {}

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
    "benchdb.inference_rounds/1": cols(_INFERENCE_ROUNDS_SPEC),
    "benchdb.inference_findings/1": cols(_INFERENCE_FINDINGS_SPEC),
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

SCHEMAS |= {"benchdb.inference_results/1": cols(_INFERENCE_RESULT_SPEC)}

_INFERENCE_COMPARE_SPEC = """
baseline | boolean | the row the others are measured against
ratio | number|null | how many times better than the baseline (throughput / the baseline's, or
    the baseline's latency / this latency); null when the results are not comparable
flags | string | the differences MLPerf's messaging guidelines require to be stated, "; "-joined
"""

SCHEMAS |= {
    "benchdb.inference_compare/1": cols(_INFERENCE_RESULT_SPEC) + cols(_INFERENCE_COMPARE_SPEC)
}

"""MLPerf Mobile's published tables (registered into ``benchdb.tables.schemas.SCHEMAS``
through the suite registry): rounds, results (``manage.py export results --suite
mobile``), leaderboards and a result's evidence. Pure."""

from __future__ import annotations

from benchdb.tables.columns import Column, cols

_RESULT_SPEC = """
id | integer | id of the result (/mobile/result/<id>/)
round | string | Mobile round version, e.g. "v4.0"
division | string | "closed" or "open"
submitter | string | submitter folder
system | string | system folder (results/<system>/, systems/<system>.json)
device | string | the systems file's phone (notes "Phone summary"), "" when unreadable
task | string | the app's task id (tasks.pbtxt), e.g. "image_classification_v2"
task_name | string | the task as the app names it ("Image Classification v2")
model | string | the task's model ("MobileNetEdgeTPUv2-L")
scenario | string | LoadGen scenario: "SingleStream" or "Offline"
status | string | "valid" or "invalid" (reason says why)
reason | string | why not valid ("" when valid)
throughput | number|null | the app's throughput recomputed from LoadGen's log: SingleStream
    1 / 90th percentile latency (queries/s), Offline samples / latency (samples/s); higher
    is better
unit | string | "queries/s" or "samples/s"
basis | string | how throughput was computed ("1 / latency90", "samples / latency90",
    "LoadGen result_samples_per_second" when the app's sample count is not published)
settings_differ | boolean | the run's LoadGen settings (requested_*) are not those the app
    requests for the task (tasks.pbtxt; the evidence names them)
latency90_ms | number|null | LoadGen's 90th percentile latency, ms
accuracy_metric | string | top-1, mAP, mIoU, F1, PSNR or CLIP (what the app's figure measures)
accuracy | number|null | the app's normalized accuracy (0..1; not recomputed: ground truth is
    not in the repository)
accuracy_text | string | the accuracy as the app formatted it ("82.14%", "0.2740 mAP")
published_throughput | number|null | result.json's performance_run.throughput.value
accelerator | string | result.json's backend_info.accelerator_name
location | string | <division>/<submitter>/results/<system>/<task> (a key: the logs are in
    <task>-performance/ or <model>/<scenario>/log_performance/)
url | string | path of the result page
"""
_ROUNDS_SPEC = """
round | string | Mobile round version, e.g. "v4.0"
app_commit | string | mlcommons/mobile_app_open commit of the round's tag the rules follow
results | integer | results read (tasks on systems)
valid | integer | valid results
invalid | integer | results that are not
systems | integer | systems with results
submitters | integer | submitters with results
url | string | path of the round's table
published | string|null | publication date of the round (ISO; the newest commit of its results
    repository as published, rules.PUBLISHED)
"""
_EVIDENCE_SPEC = """
rule | string | "read: <figure>" (a line read), "recomputed: ..." (the app's formula),
    "published: ..." (the app's export beside it) or the rule applied
path | string | file, relative to the round's repository
line | integer|null | 1-based line (null: the whole file or folder)
message | string | the figure as written, or what the rule found
invalidates | boolean | the rule keeps the result out of the table
"""
RESULT_COLUMNS = cols(_RESULT_SPEC)
SCHEMAS: dict[str, tuple[Column, ...]] = {
    "benchdb.mobile_results/1": RESULT_COLUMNS,
    "benchdb.mobile_rounds/1": cols(_ROUNDS_SPEC),
    # leaderboard (/mobile/<round>/<task>/): valid results ranked by throughput
    "benchdb.mobile_board/1": (
        Column("rank", "integer", "1 = best (highest throughput)"),
        *RESULT_COLUMNS,
    ),
    "benchdb.mobile_evidence/1": cols(_EVIDENCE_SPEC),
}

"""MLPerf Storage's published tables (registered into ``benchdb.tables.schemas.SCHEMAS``
through the suite registry): results (``manage.py export results --suite storage``, the
round table and the leaderboards), rounds, and a result's runs. Pure."""

from __future__ import annotations

from benchdb.tables.columns import Column, cols

_RESULTS_SPEC = """
id | integer | id of the result (/storage/result/<id>/)
round | string | Storage round version, e.g. "v1.0"
division | string | "closed" or "open"
submitter | string | submitter folder
system | string | system folder below results/
workload | string | model as the runs' configs/overrides.yaml name it: unet3d, resnet50, cosmoflow
accelerator | string | simulated accelerator: a100, h100
accelerators | integer|null | simulated accelerators of a run (summed over its summaries)
mb_per_second | number|null | training I/O throughput, MiB/s (DLIO's "MB"): mean over the runs
    (report.py train_throughput_mean_MB_per_second)
mb_per_second_stdev | number|null | population standard deviation over the runs, MiB/s
samples_per_second | number|null | training throughput, samples/s: mean over the runs
    (report.py train_throughput_mean_samples_per_second)
samples_per_second_stdev | number|null | population standard deviation over the runs, samples/s
runs | integer | runs found (summary.json folders); the tool requires 5
status | string | "valid" or "invalid" (the official tool would refuse it, or a DLIO figure is
    not what its epochs give)
reason | string | why it is invalid ("" when valid)
published_mb_per_second | number|null | the result's mlperf_storage_report.json figure, MiB/s
published_samples_per_second | number|null | the report's figure, samples/s
location | string | result folder in the round's repository
url | string | path of the result page
"""
_ROUNDS_SPEC = """
round | string | Storage round version
tag | string | commit of mlcommons/storage whose report.py the rules follow
results | integer | results of the round
valid | integer | valid results
invalid | integer | rejected results
systems | integer | systems
submitters | integer | submitters
published | string|null | publication date of the round (ISO; the newest commit of its results
    repository as published, rules.PUBLISHED)
"""
_RUNS_SPEC = """
run | string | run folder (report.py's run name)
mb_per_second | number|null | the run's train_io_mean_MB_per_second, MiB/s (summed over its
    summaries)
samples_per_second | number|null | the run's train_throughput_mean_samples_per_second (summed)
accelerators | integer|null | simulated accelerators (summed num_accelerators)
au_mean_percentage | number|null | mean accelerator utilisation over the epochs, percent
au_threshold_percentage | number|null | the run's configs/config.yaml workload.metric.au x 100
evidence | string | the summary.json lines the figures were read from (path:line)
"""
RESULT_COLUMNS = tuple(c.name for c in cols(_RESULTS_SPEC))
SCHEMAS: dict[str, tuple[Column, ...]] = {
    "benchdb.storage_results/1": cols(_RESULTS_SPEC),
    "benchdb.storage_rounds/1": cols(_ROUNDS_SPEC),
    "benchdb.storage_runs/1": cols(_RUNS_SPEC),
}

"""MLPerf Tiny's published tables (registered into ``benchdb.tables.schemas.SCHEMAS``
through the suite registry): rounds, results (``manage.py export results --suite
tiny``), leaderboards and a result's evidence. Pure."""

from __future__ import annotations

from benchdb.tables.columns import Column, cols

_RESULT_SPEC = """
id | integer | id of the result (/tiny/result/<id>/)
round | string | Tiny round version, e.g. "v1.2"
result_id | string | result ID as generate_final_report.py numbers it ("1.2-0003"; "" when
    the result is not in the table)
result_id_origin | string | "summary.csv" (numbered over the published table), "derived"
    (over the results the checker lists here: the round publishes no table) or ""
division | string | "closed" or "open"
submitter | string | submitter folder
system | string | system folder (the systems file's name)
board | string | the systems file's "Board Name"
model | string | model folder: ad, ic, kws, vww (v1.3 also sww, streaming wakeword)
status | string | "valid" (the checker lists it) or "invalid" (reason says why)
reason | string | why not valid ("" when valid)
latency_ms | number|null | 1000 / the median throughput the checker reads, ms (lower is better)
throughput | number|null | median throughput of the 5 performance windows as the runner
    prints it, inf./sec. (sww: the estimated throughput)
energy | number|null | median energy per inference of the 5 energy windows, uJ/inf. (sww:
    power, mW); null when not measured
energy_unit | string | "uJ/inf.", "mW" or ""
accuracy_metric | string | "top-1" (percent), "auc" (0..1) or "f1" (sww)
accuracy | number|null | the accuracy the checker reads
published_throughput | number|null | the published table's Result (summary.csv, inf./sec.)
published_energy | number|null | the published table's Power (uJ/inf.; 0: none)
location | string | result folder, <division>/<submitter>/results/<system>/<model>
url | string | path of the result page
"""
_ROUNDS_SPEC = """
round | string | Tiny round version, e.g. "v1.2"
checker | string | mlcommons/tiny commit of the submission checker the rules follow
results | integer | result folders read
valid | integer | results the checker lists
invalid | integer | results it does not
systems | integer | systems with results
submitters | integer | submitters with results
url | string | path of the round's table
published | string|null | publication date of the round (ISO; the newest commit of its results
    repository as published, rules.PUBLISHED)
"""
_EVIDENCE_SPEC = """
rule | string | "read: <figure>" (a line the checker reads), "recomputed: ..." (benchdb's
    check of a printed median) or the rule applied
path | string | file, relative to the round's repository
line | integer|null | 1-based line (null: the whole file or folder)
message | string | the figure and the line as written, or what the rule found
invalidates | boolean | the rule keeps the result out of the table
"""
RESULT_COLUMNS = cols(_RESULT_SPEC)
SCHEMAS: dict[str, tuple[Column, ...]] = {
    "benchdb.tiny_results/1": RESULT_COLUMNS,
    "benchdb.tiny_rounds/1": cols(_ROUNDS_SPEC),
    # leaderboard (/tiny/<round>/<model>/<metric>/): valid results ranked by the metric
    "benchdb.tiny_board/1": (
        Column("rank", "integer", "1 = best (lowest latency or energy)"),
        *RESULT_COLUMNS,
    ),
    "benchdb.tiny_evidence/1": cols(_EVIDENCE_SPEC),
}

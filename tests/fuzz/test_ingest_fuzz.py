"""Fuzz targets (Hypothesis) over the ingest parsers the training and inference targets
do not reach (issue 21): MLPerf Training power logs, MLPerf HPC logs and weak-scaling
scores, inference power ``client.json`` timezones with ``power_begin``/``power_end``,
result-ID CSVs, and the compliance checker fed hostile benchmark names (the
``submission_benchmark: "common"`` hang).

Real inputs: the power logs of ``tests/data/training-power``, the HPC logs of
``tests/data/hpc``, NVIDIA's v1.1 AGX Xavier MaxQ resnet50 Offline power run of
../shared/mlperf-inference, the submitters and systems of ../shared/mlperf's
``official_scores.csv``, the smallest real training logs of ../shared/mlperf; mutated as
the training targets mutate logs. Each target asserts no uncaught exception (only the
parser's own error type escapes) and no impossible value. ``make fuzz`` runs them;
``FUZZ_EXAMPLES`` sets the cases.
"""

from __future__ import annotations

import csv
import io
import json
import math
import pickle
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from hypothesis import event, given
from hypothesis import strategies as st

from benchdb.mlperf.hpc import rules as hpc_rules
from benchdb.mlperf.inference.rules import VALID, evaluate
from benchdb.mlperf.inference.value import value_error
from benchdb.mlperf.training import energy as training_energy
from benchdb.mlperf.training import rules as training_rules
from benchdb.mlperf.training.compliance import Line, check_log
from benchdb.mlperf.training.compliance_files import RULE_DIRS
from ingest.inference.parsers import tree as inference_tree
from ingest.parsers.result_id_table import MAX_CELL, IdTableError, parse_id_table
from ingest.parsers.types import ParseError
from ingest.training.parsers import log as training_log
from ingest.training.parsers import power as training_power
from tests.fuzz.budget import FUZZ, stage, timed_cases
from tests.fuzz.test_training_fuzz import LOGS, _mutate, json_values, mutations
from tests.inference_data import INFERENCE_DATA

pytestmark = pytest.mark.fuzz

TESTS = Path(__file__).resolve().parents[1]

# --- training power logs ---------------------------------------------------------------

POWER = [
    p.read_bytes().split(b"\n")
    for p in sorted((TESTS / "data/training-power").glob("**/power/*/*.txt"))[:12]
]


@FUZZ
@given(base=st.sampled_from(range(len(POWER))), ops=mutations, ttt=st.floats(1.0, 1e8))
@timed_cases
def test_mutated_power_logs_give_a_positive_energy_or_a_problem(base, ops, ttt):
    lines = list(POWER[base])
    for op in ops:
        _mutate(lines, *op)
    try:
        events = training_power.parse_power_log(b"\n".join(lines), "power/r/node_0.txt")
    except ParseError as exc:
        assert exc.path == "power/r/node_0.txt"
        event("ParseError")
        return
    pickle.dumps(events)
    for version in ("v4.0", "v4.1", "v5.0"):
        try:
            joules, _ = training_energy.run_energy_j([("n.txt", events)], [], ttt, version)
        except training_energy.EnergyError:
            event(f"{version} EnergyError")
            continue
        assert math.isfinite(joules) and joules > 0
        event(f"{version} energy")


# --- MLPerf HPC logs -------------------------------------------------------------------

HPC_FILES = sorted((TESTS / "data/hpc").glob("hpc_results_v*/*/results/*/*/*/result_*.txt"))
HPC = [
    (p.relative_to(TESTS / "data/hpc").parts[0].split("_v")[1], p.parts[-2], p.read_bytes())
    for p in sorted(HPC_FILES, key=lambda p: p.stat().st_size)[:16]
]
HPC_BENCHMARKS = ("cosmoflow", "deepcam", "oc20", "openfold")


@FUZZ
@given(base=st.sampled_from(range(len(HPC))), ops=mutations, others=st.integers(0, 12))
@timed_cases
def test_mutated_hpc_logs_never_raise_nor_score_an_impossible_time(base, ops, others):
    version, bench, data = HPC[base]
    lines = data.split(b"\n")
    for op in ops:
        _mutate(lines, *op)
    stage("parsing the log")
    run = training_log.parse_log(b"\n".join(lines), "result_1.txt", compress=False)
    pickle.dumps(run)
    stage("judging and scoring the run")
    rules = hpc_rules.ruleset_for(f"v{version}")
    why = hpc_rules.run_failure(run, rules, bench if bench in HPC_BENCHMARKS else "deepcam")
    event(f"run {'fails' if why else 'passes'}")
    if why is None and run.run_start_ms is not None and run.run_stop_ms is not None:
        scale = hpc_rules.instance_scale(run.hyperparameters)
        real = [(0.0, 60_000.0 * 20, scale)] * others
        weak = hpc_rules.weak_score(
            [(run.run_start_ms, run.run_stop_ms, scale), *real], rules, "oc20"
        )
        if weak.time_to_train_all_minutes is not None:
            ttta = weak.time_to_train_all_minutes
            assert math.isfinite(ttta) and 0 < ttta < training_rules.MAX_MINUTES
            assert weak.throughput_models_per_minute is not None
            assert math.isfinite(weak.throughput_models_per_minute)
            event("weak scored")


# --- inference power: client.json timezone, power_begin / power_end -----------------------

_XAVIER = INFERENCE_DATA / "inference_results_v1.1"
_TREE = inference_tree.Tree(_XAVIER, keep=True)
[_OFFLINE] = [
    f
    for f in inference_tree.find_results(_TREE)
    if f.path == "closed/NVIDIA/results/AGX_Xavier_TRT_MaxQ/resnet50/Offline"
]
XAVIER = inference_tree.load_result(_TREE, _OFFLINE)
TIMES = st.one_of(
    st.sampled_from(
        [
            "12-31-9999 23:59:59.999",
            "01-01-0001 00:00:00.000",
            "08-10-2021 17:02:11.700",
            "08-10-2021 17:13:21.983",
            "02-30-2021 00:00:00.000",
            "",
            "NaN",
        ]
    ),
    st.text(max_size=30),
)


class _OneJson:
    """A stand-in for ``inference_tree.Tree`` with one JSON object (``_timezone``)."""

    def __init__(self, obj: dict[str, Any]) -> None:
        self.obj, self.problems = obj, []

    def json(self, rel: str) -> dict[str, Any]:
        return self.obj


@FUZZ
@given(
    client=st.one_of(st.floats(), st.integers(-(10**30), 10**30), json_values),
    server=st.one_of(st.floats(), st.integers(-(10**30), 10**30)),
    begin=TIMES,
    end=TIMES,
)
@timed_cases
def test_client_json_timezones_and_power_times_never_raise(client, server, begin, end):
    zones = tuple(
        inference_tree._timezone(_OneJson({"timezone": v}), "client.json")  # type: ignore[arg-type]
        for v in (client, server)
    )
    run = XAVIER.runs[0]
    assert run.detail is not None
    values = {**run.detail.values, "power_begin": begin, "power_end": end}
    run = replace(run, detail=replace(run.detail, values=values))
    result = replace(XAVIER, runs=(run, *XAVIER.runs[1:]), power_timezones=zones)
    verdict = evaluate(result, "v1.1")
    pickle.dumps(verdict)
    event(f"power {'none' if verdict.power is None else 'some'}")
    if verdict.power is not None:
        assert math.isfinite(verdict.power) and verdict.power > 0
    if verdict.status == VALID:
        assert verdict.value.value is not None
        assert value_error(verdict.value.value, verdict.value.unit) is None


# --- result-ID CSVs ----------------------------------------------------------------------

with (Path(django_settings.MLPERF_DATA) / "official_scores.csv").open(newline="") as _f:
    _SCORES = list(csv.DictReader(_f))
ID_ROWS = [
    [r["round"], f"{r['round'][1:]}-{n:04d}", r["submitter"], r["system"], r["benchmark"]]
    for n, r in enumerate(_SCORES[:40], 1)
]
CELLS = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["\x00", '"', "\n", "x" * 501, "x" * 200_000, "v9.9", "1.0-99999", ""]),
)


@FUZZ
@given(
    rows=st.lists(st.sampled_from(range(len(ID_ROWS))), max_size=12),
    edits=st.lists(st.tuples(st.integers(0, 20), st.integers(0, 4), CELLS), max_size=6),
    noise=st.binary(max_size=64),
    header=st.sampled_from(["round,id,submitter,system,benchmark", "Round,Result ID,Org,System"]),
)
@timed_cases
def test_result_id_tables_parse_or_say_where(rows, edits, noise, header):
    table = [list(ID_ROWS[i]) for i in rows]
    for at, col, cell in edits:
        if table:
            table[at % len(table)][col] = cell
    out = io.StringIO()
    csv.writer(out).writerows(table)
    data = (header + "\n" + out.getvalue()).encode("utf-8") + noise
    try:
        parsed = parse_id_table(data, "ids.csv")
    except IdTableError as exc:
        assert exc.errors and all(e.path == "ids.csv" for e in exc.errors)
        event("refused")
        return
    for r in parsed:
        for cell in (r.round, r.result_id, r.submitter, r.system, r.benchmark, r.division):
            assert len(cell) <= MAX_CELL and "\x00" not in cell
    event("parsed")


# --- the compliance checker and hostile benchmark names --------------------------------

NAMES = ["common", "closed_common", "open_common", "../common", "closed", "open", ""]
NAMES += ["resnet", "bert", "gpt3", "{}", "%s", "x" * 1000, "common.yaml", "lars", "sgd"]


@FUZZ
@given(
    base=st.sampled_from(range(len(LOGS))),
    version=st.sampled_from(sorted(RULE_DIRS)),
    values=st.lists(
        st.tuples(
            st.sampled_from(["submission_division", "submission_benchmark", "opt_name"]),
            st.one_of(st.sampled_from(NAMES), st.text(max_size=12), json_values),
        ),
        min_size=1,
        max_size=6,
    ),
)
@timed_cases
def test_hostile_benchmark_names_end_the_compliance_check_promptly(base, version, values):
    """Any value of the keys whose POST enqueues a rule file (division, benchmark,
    resnet's optimizer) put in a real log (its first such line replaced, or one added):
    findings within 2 s, never a hang."""
    lines = list(REAL_LINES[base])
    for key, v in values:
        at = next((i for i, ll in enumerate(lines) if ll.key == key), None)
        new = Line(key, {"value": v, "metadata": {}}, 0.0, 1 if at is None else lines[at].lineno)
        if at is None:
            lines.insert(0, new)
        else:
            lines[at] = new
    event(version)
    started = time.monotonic()
    found = check_log(lines, version)
    assert time.monotonic() - started < 2.0
    assert all(f.severity in ("error", "warning") for f in found)


def _mllog_lines(raw: list[bytes]) -> list[Line]:
    out = []
    for n, text in enumerate(raw, 1):
        if b":::MLLOG " in text:
            m = json.loads(text.split(b":::MLLOG ", 1)[1])
            out.append(Line(m["key"], {"value": m["value"], "metadata": m["metadata"]}, 0.0, n))
    return out


REAL_LINES = [_mllog_lines(raw) for raw in LOGS]

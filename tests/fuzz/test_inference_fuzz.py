"""Fuzz targets (Hypothesis) over the MLPerf Inference readers and rules: real LoadGen
detail and summary logs, accuracy files and power logs of ../shared/mlperf-inference,
mutated as the training targets mutate logs (lines deleted, duplicated, swapped, cut;
numbers made huge, negative, NaN; values nested deep; NUL inserted; keys changed).

Each target asserts no uncaught exception, a verdict that pickles (what a reader process
sends back), and no valid result whose value or power is not a finite number > 0 (nor a
value outside benchdb's bounds, ``inference_value.value_error``).
Run with ``pytest -m fuzz tests/fuzz`` (``make fuzz``); ``FUZZ_EXAMPLES`` sets the cases.
"""

from __future__ import annotations

import math
import pickle
from dataclasses import replace

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from benchdb.mlperf.inference.rules import VALID, evaluate
from benchdb.mlperf.inference.value import value_error
from ingest.inference.parsers.loadgen import (
    parse_detail_log,
    parse_spl,
    parse_summary,
    parse_text_file,
)
from ingest.inference.parsers.tree import Tree, find_results, load_result
from ingest.inference.parsers.types import LoadedInferenceResult
from tests.fuzz.budget import FUZZ, stage, timed_cases
from tests.fuzz.test_training_fuzz import _mutate, mutations
from tests.inference_data import INFERENCE_DATA as DATA

#: (round, result) of one result folder per round and scenario kind, with power runs.
CASES: list[tuple[str, LoadedInferenceResult, dict[str, bytes]]] = []
for version in ("v0.7", "v2.1", "v3.0", "v4.1", "v5.1"):
    root = DATA / f"inference_results_{version}"
    tree = Tree(root, keep=True)
    for folder in find_results(tree)[::6]:
        loaded = load_result(tree, folder)
        data = {f.path: f.data for f in loaded.files if f.kind != "accuracy_log"}
        if loaded.runs and loaded.runs[0].detail is not None:
            CASES.append((version, loaded, data))


def _check(version: str, result: LoadedInferenceResult) -> None:
    verdict = evaluate(result, version)
    pickle.dumps(verdict)
    event(f"{version} {verdict.status}")
    if verdict.status == VALID:
        value = verdict.value.value
        assert value is not None and math.isfinite(value) and value > 0, verdict.value
        assert value_error(value, verdict.value.unit) is None, verdict.value
        if verdict.power is not None:
            assert math.isfinite(verdict.power) and verdict.power > 0


@pytest.mark.fuzz
@FUZZ
@given(case=st.sampled_from(range(len(CASES))), ops=mutations, which=st.integers(0, 3))
@timed_cases
def test_mutated_real_inference_files_never_raise_nor_pass_an_impossible_value(case, ops, which):
    version, result, data = CASES[case]
    run = result.runs[0]
    target = (run.detail, run.summary, run.spl, result.accuracy)[which]
    if target is None:
        return
    lines = data[target.path].split(b"\n")
    for op in ops:
        _mutate(lines, *op)
    raw = b"\n".join(lines)
    stage("parsing the file")
    if which == 0:
        run = replace(run, detail=parse_detail_log(raw, target.path))
    elif which == 1:
        run = replace(run, summary=parse_summary(raw, target.path))
    elif which == 2:
        run = replace(run, spl=parse_spl(raw, target.path))
    else:
        result = replace(result, accuracy=parse_text_file(raw, target.path))
    stage("judging the result")
    _check(version, replace(result, runs=(run, *result.runs[1:])))


@pytest.mark.fuzz
@FUZZ
@given(data=st.binary(max_size=4096))
@timed_cases
def test_arbitrary_bytes_as_a_detail_log_never_raise(data):
    log = parse_detail_log(data, "mlperf_log_detail.txt")
    pickle.dumps(log)
    for problem in log.problems:
        assert problem.line is None or problem.line >= 1

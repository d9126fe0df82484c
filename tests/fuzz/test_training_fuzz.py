"""Fuzz targets (Hypothesis) over the MLPerf Training readers and rules: real logs and
systems files from ../shared/mlperf, mutated (lines deleted, duplicated, swapped, cut;
numbers made huge, negative, NaN; values nested deep; NUL inserted; keys changed).

Each target asserts no uncaught exception and no passing run whose time to train is
not a finite number > 0. Run with ``pytest -m fuzz tests/fuzz`` (``make fuzz``);
``FUZZ_EXAMPLES`` sets the cases per target (default 200);
``--hypothesis-show-statistics`` prints the counts of what the cases hit.
"""

from __future__ import annotations

import json
import math
import pickle
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from hypothesis import event, given
from hypothesis import strategies as st

from benchdb.mlperf.training import rules as training_rules
from benchdb.mlperf.training import scoring as training_scoring
from ingest.parsers.types import ParseError
from ingest.training.parsers import log as training_log
from ingest.training.parsers import systems as training_systems
from tests.fuzz.budget import FUZZ, stage, timed_cases

ROOT = Path(django_settings.MLPERF_DATA)
RULES = [training_rules.ruleset_for(v) for v in ("v0.6", "v1.0", "v1.1", "v2.0")]
BENCHMARKS = ("resnet", "bert", "maskrcnn", "unet3d", "rnnt", "ssd", "stable_diffusion")


def _real_logs(n: int = 40) -> list[list[bytes]]:
    """``result_0.txt`` of the ``n`` smallest result folders (one per folder, so
    that rounds, submitters and benchmarks vary), as lists of lines."""
    firsts = sorted(ROOT.glob("training_results_v*/*/results/*/*/result_0.txt"))
    chosen = sorted(firsts, key=lambda p: p.stat().st_size)[:n]
    return [p.read_bytes().split(b"\n") for p in chosen]


LOGS = _real_logs()
SYSTEMS = [p.read_bytes() for p in sorted(ROOT.glob("training_results_v*/*/systems/*.json"))]

NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
BAD_NUMBERS = [
    b"1e400",
    b"-1e400",
    b"9" * 401,
    b"9" * 5000,
    b"1.7e308",
    b"-1.7e308",
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b"-5",
    b"0",
    b"1e-320",
    b"1e300",
    b"3e9",
]
KEYS = [b"run_start", b"run_stop", b"eval_accuracy", b"init_start", b"init_stop"]
KEYS += [b"submission_division", b"weights_initialization", b"some_unknown_key"]


def _nest(depth: int, inner: bytes = b"1") -> bytes:
    return b"[" * depth + inner + b"]" * depth


any_float = st.floats(allow_nan=True, allow_infinity=True)
Mutation = tuple[str, int, int, int]
mutations = st.lists(
    st.tuples(
        st.sampled_from(["delete", "duplicate", "swap", "number", "nest", "nul", "key", "cut"]),
        st.integers(0, 10**6),
        st.integers(0, 10**6),
        st.integers(0, 10**6),
    ),
    min_size=1,
    max_size=8,
)


def _mutate(lines: list[bytes], op: str, a: int, b: int, c: int) -> None:
    """Apply one mutation in place; ``a``, ``b``, ``c`` pick lines and payloads."""
    if not lines:
        return
    i, j = a % len(lines), b % len(lines)
    line = lines[i]
    if op == "delete":
        del lines[i]
    elif op == "duplicate":
        lines.insert(j, line)
    elif op == "swap":
        lines[i], lines[j] = lines[j], line
    elif op == "number":
        found = list(NUMBER.finditer(line))
        if found:
            m = found[b % len(found)]
            bad = BAD_NUMBERS[c % len(BAD_NUMBERS)]
            lines[i] = line[: m.start()] + bad + line[m.end() :]
    elif op == "nest":
        depth = (3, 33, 950, 5000)[c % 4]
        lines[i] = re.sub(rb'"value": [^,}]*', b'"value": ' + _nest(depth), line, count=1)
    elif op == "nul":
        lines[i] = line.replace(b'"', b'"\\u0000', 2)
    elif op == "key":
        lines[i] = re.sub(rb'"key": "[^"]*"', b'"key": "' + KEYS[c % len(KEYS)] + b'"', line)
    elif op == "cut":
        lines[i] = line[: c % (len(line) + 1)]


def _check_run(run: Any) -> int:
    """Rules on one parsed run under every ruleset; returns how many passed."""
    passed = 0
    for rules in RULES:
        for bench in BENCHMARKS[:3]:
            why, _ = training_rules.run_failure(run, rules, bench, "closed")
            if why is not None:
                continue
            minutes = training_rules.time_to_train(run.run_start_ms, run.run_stop_ms)
            assert math.isfinite(minutes) and minutes > 0 and minutes < training_rules.MAX_MINUTES
            passed += 1
            score, _ = training_scoring.score_result([minutes] * 5, rules, bench, 1.0)
            assert score.score_minutes is not None and math.isfinite(score.score_minutes)
    return passed


@pytest.mark.fuzz
@FUZZ
@given(base=st.sampled_from(range(len(LOGS))), ops=mutations)
@timed_cases
def test_mutated_real_logs_never_raise_and_never_pass_an_impossible_time(base, ops):
    lines = list(LOGS[base])
    for op in ops:
        _mutate(lines, *op)
    stage("parsing the log")
    run = training_log.parse_log(b"\n".join(lines), "result_0.txt", compress=False)
    pickle.dumps(run)  # what a parser process sends back
    event(f"parse errors: {'some' if run.parse_error_count else 'none'}")
    stage("judging and scoring the run")
    passed = _check_run(run)
    event(f"passing (ruleset, benchmark) pairs: {'some' if passed else 'none'}")


@pytest.mark.fuzz
@FUZZ
@given(
    minutes=st.lists(
        st.one_of(st.none(), st.floats(1.0, 500.0), st.floats(0.0, 1e-300), any_float),
        max_size=12,
    ),
    factor=st.one_of(st.floats(0.5, 2.0), any_float),
    rules=st.sampled_from(RULES + [training_rules.ruleset_for("v0.5")]),
    bench=st.sampled_from((*BENCHMARKS, "ncf")),
)
@timed_cases
def test_scoring_never_raises_and_scores_are_finite_and_positive(minutes, factor, rules, bench):
    score, unused = training_scoring.score_result(minutes, rules, bench, factor)
    if score.score_minutes is not None:
        assert math.isfinite(score.score_minutes) and score.score_minutes > 0
        assert math.isfinite(score.scaling_factor)
        event("scored")
    for start, stop in zip(minutes, minutes[1:], strict=False):
        if start is not None and stop is not None:
            training_rules.time_to_train(start, stop)
            training_rules.time_error(start, stop)


json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**400), max_value=10**400),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=20),
    ),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


def _dumps(value: Any) -> bytes:
    return json.dumps(value, allow_nan=True).encode()


@pytest.mark.fuzz
@FUZZ
@given(
    base=st.sampled_from(range(len(SYSTEMS))),
    key=st.sampled_from(["number_of_nodes", "accelerators_per_node", "submitter", "division"]),
    value=json_values,
    depth=st.sampled_from([0, 0, 40, 950, 100_000]),
    cut=st.one_of(st.none(), st.integers(0, 4000)),
)
@timed_cases
def test_mutated_systems_files_parse_or_are_refused(base, key, value, depth, cut):
    raw = json.loads(SYSTEMS[base])
    data = _dumps({**raw, key: "@"}).replace(b'"@"', _nest(depth, _dumps(value)))
    data = data if cut is None else data[:cut]
    for parse in (training_systems.parse_systems_json, training_systems.parse_entry_json):
        try:
            system = parse(data, "s.json")
        except ParseError:
            event("refused")
            continue
        json.dumps(system.raw, allow_nan=False)  # storable: no NaN or Infinity
        assert "\\u0000" not in json.dumps(system.raw)
        for n in (system.number_of_nodes, system.accelerators_per_node, system.accelerators):
            assert n is None or 0 <= n < 10**6
        pickle.dumps(system)
        event("parsed")


@pytest.mark.fuzz
@FUZZ
@given(
    value=st.one_of(st.floats(0.001, 20.0), json_values),
    depth=st.sampled_from([0, 0, 0, 5, 40, 950, 100_000]),
    noise=st.binary(max_size=16),
)
@timed_cases
def test_scaling_files_give_a_factor_in_range_or_are_refused(value, depth, noise):
    for data in (
        b'{"scaling_factor": ' + _nest(depth, _dumps(value)) + b"}",
        _dumps(value) + noise,
    ):
        try:
            factor = training_systems.parse_scaling_json(data, "scaling.json")
        except ParseError:
            event("refused")
            continue
        assert training_rules.MIN_SCALING_FACTOR <= factor <= training_rules.MAX_SCALING_FACTOR
        event("factor")


@pytest.mark.fuzz
@FUZZ
@given(
    base=st.sampled_from(range(len(LOGS))),
    ops=mutations,
    version=st.sampled_from(["v0.7", "v1.0", "v1.1", "v2.0", "v3.1", "v4.0", "v5.1"]),
)
@timed_cases
def test_mutated_real_logs_under_full_compliance_never_raise(base, ops, version):
    """The compliance checker of any round on a mutated real log: findings, never an
    exception; a run that passes still has a finite time (run_failure)."""
    lines = list(LOGS[base])
    for op in ops:
        _mutate(lines, *op)
    stage("parsing the log and checking its compliance")
    run = training_log.parse_log(
        b"\n".join(lines), "result_0.txt", compress=False, compliance_round=version
    )
    pickle.dumps(run)
    stage("judging the run")
    assert run.compliance_ruleset
    event(f"compliance errors: {sum(f.severity == 'error' for f in run.compliance) > 0}")
    rules = training_rules.ruleset_for(version)
    why, _ = training_rules.run_failure(run, rules, "resnet", "closed")
    if why is None:
        minutes = training_rules.time_to_train(run.run_start_ms, run.run_stop_ms)
        assert math.isfinite(minutes) and 0 < minutes < training_rules.MAX_MINUTES

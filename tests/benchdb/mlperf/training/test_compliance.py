"""The compliance checker reimplementation (benchdb.mlperf.training.compliance) and its
restricted evaluator, on the vendored rule files and real log lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from benchdb.mlperf.training import compliance as compliance_rules
from benchdb.mlperf.training import compliance_eval, compliance_files
from benchdb.mlperf.training.compliance import Line, check_log
from ingest.training.parsers import log as training_log

DATA = Path(__file__).resolve().parents[3] / "data" / "training"
LENOVO = DATA / "training_results_v3.0/Lenovo/results/SR670v2-4xA100_SXM4_40GB_400W/bert"


@pytest.mark.parametrize("round_version", sorted(compliance_files.RULE_DIRS))
def test_every_vendored_rule_file_passes_the_whitelist(round_version: str) -> None:
    files = compliance_files.rule_files(round_version)
    rule_dir = compliance_files.RULE_DIRS[round_version]
    assert f"{rule_dir}/common.yaml" in files
    assert any(name.endswith("closed_common.yaml") for name in files)


@pytest.mark.parametrize(
    "snippet",
    [
        "__import__('os').system('true')",
        "v.__class__",
        "open('/etc/passwd')",
        "[x for x in v]",
        "(lambda: 1)()",
        "ll.timestamp.__class__",
        "s.clear()",
        "globals()",
        "9 ** 9 ** 9",
        "v['value'] ** v['value']",
        "2 ** 1000",
    ],
)
def test_the_evaluator_refuses_code_outside_the_whitelist(snippet: str) -> None:
    with pytest.raises(compliance_eval.UnsafeSnippet):
        compliance_eval.compile_snippet(snippet, "eval", "test")


def test_the_evaluator_refuses_imports_and_loops() -> None:
    for code in ("import os", "for x in v: pass", "x = 1", "ll.key = 'a'"):
        with pytest.raises((compliance_eval.UnsafeSnippet, SyntaxError)):
            compliance_eval.compile_snippet(code, "exec", "test")


def test_the_lenovo_v30_bert_runs_fail_on_opt_lamb_epsilon() -> None:
    """The real logs name ``opt_epsilon``; closed_bert.yaml of 3.0.0 requires exactly one
    ``opt_lamb_epsilon`` (issue 12)."""
    for path in sorted(LENOVO.glob("result_*.txt")):
        run = training_log.parse_log(path.read_bytes(), path.name, compliance_round="v3.0")
        errors = [f for f in run.compliance if f.severity == "error"]
        assert [(f.source, f.rule, f.kind) for f in errors] == [
            ("training_3.0.0/closed_bert.yaml", "opt_lamb_epsilon", "REQ EXACTLY_ONE")
        ]
        assert run.compliance_ruleset == "training_3.0.0"
        assert "opt_epsilon" in run.key_counts


def _lines(path: Path) -> list[Line]:
    out = []
    for n, text in enumerate(path.read_text(encoding="latin-1").splitlines(), 1):
        if ":::MLLOG " in text:
            m = json.loads(text.split(":::MLLOG ", 1)[1])
            value = {"value": m["value"], "metadata": m["metadata"]}
            out.append(Line(m["key"], value, float(m["time_ms"]), n))
    return out


def _replace_key(lines: list[Line], old: str, new: str) -> list[Line]:
    return [
        Line(new if ll.key == old else ll.key, ll.value, ll.timestamp, ll.lineno) for ll in lines
    ]


def test_renaming_the_key_back_makes_the_lenovo_log_compliant() -> None:
    lines = _replace_key(_lines(LENOVO / "result_1.txt"), "opt_epsilon", "opt_lamb_epsilon")
    assert [f for f in check_log(lines, "v3.0") if f.severity == "error"] == []


def test_a_hyperparameter_value_is_checked() -> None:
    """closed_common.yaml of 3.0.0: ``gradient_accumulation_steps`` CHECK ``v['value'] > 0``."""
    lines = _replace_key(_lines(LENOVO / "result_1.txt"), "opt_epsilon", "opt_lamb_epsilon")
    at = None
    for ll in lines:
        if ll.key == "gradient_accumulation_steps":
            ll.value = {"value": 0, "metadata": ll.value["metadata"]}
            at = ll.lineno
    errors = [f for f in check_log(lines, "v3.0") if f.severity == "error"]
    assert [(f.source, f.rule, f.kind, f.line) for f in errors] == [
        ("training_3.0.0/closed_common.yaml", "gradient_accumulation_steps", "CHECK", at)
    ]


def test_a_missing_key_of_common_yaml_and_a_repeated_one() -> None:
    lines = [ll for ll in _lines(LENOVO / "result_1.txt") if ll.key != "eval_samples"]
    rules = {(f.source, f.rule, f.kind) for f in check_log(lines, "v3.0")}
    assert ("training_3.0.0/common.yaml", "eval_samples", "REQ EXACTLY_ONE") in rules
    twice = _lines(LENOVO / "result_1.txt")
    extra = next(ll for ll in twice if ll.key == "train_samples")
    twice.append(Line("train_samples", {"value": 1, "metadata": {}}, extra.timestamp, 99999))
    found = [f for f in check_log(twice, "v3.0") if f.rule == "train_samples"]
    assert found[0].severity == "error" and "different values" in found[0].message


def test_the_quality_target_is_an_atleast_one_check() -> None:
    lines = _replace_key(_lines(LENOVO / "result_1.txt"), "opt_epsilon", "opt_lamb_epsilon")
    for ll in lines:
        if ll.key == "eval_accuracy":
            ll.value = {"value": 0.5, "metadata": ll.value["metadata"]}
    errors = [f for f in check_log(lines, "v3.0") if f.severity == "error"]
    assert [(f.source, f.kind) for f in errors] == [
        ("training_3.0.0/closed_bert.yaml", "ATLEAST_ONE_CHECK")
    ]


def _sd_lines(evals: list[tuple[int, str, float]]) -> list[Line]:
    """A minimal stable_diffusion log of v4.0 (keys of common/closed yaml), and the
    given (samples_count, metric, value) eval_accuracy lines."""
    return [
        Line(
            "eval_accuracy",
            {"value": v, "metadata": {"samples_count": n, "metric": m}},
            1000.0 + i,
            10 + i,
        )
        for i, (n, m, v) in enumerate(evals)
    ]


def test_stable_diffusion_needs_two_aggregated_evaluations() -> None:
    one = _sd_lines([(512000, "FID", 80.0), (512000, "CLIP", 0.2)])
    two = _sd_lines(
        [
            (512000, "FID", 95.0),
            (512000, "CLIP", 0.2),
            (1024000, "FID", 80.0),
            (1024000, "CLIP", 0.2),
        ]
    )

    def agg(lines: list[Line]) -> list[compliance_rules.Finding]:
        return [f for f in check_log(lines, "v4.0") if f.rule == "aggregated_eval_accuracy"]

    # The rule file is only enqueued by submission_benchmark: run it directly.
    rf = compliance_files.rule_files("v4.0")["training_4.0.0/closed_stable_diffusion.yaml"]
    for lines, want in ((one, {"REQ AT_LEAST(2)"}), (two, set())):
        msgs = compliance_rules._Messages()
        queue = compliance_rules._Queue(rf.name, msgs)
        compliance_rules._run_file(rf, list(lines), compliance_rules.Engine.of("v4.0"), msgs, queue)
        kinds = {f.kind for f in msgs.findings() if f.rule == "aggregated_eval_accuracy"}
        assert kinds == want
    assert agg(two) == []  # common.yaml alone does not name the virtual key


def _run_one_file(version: str, name: str, lines: list[Line]) -> list[compliance_rules.Finding]:
    rf = compliance_files.rule_files(version)[name]
    msgs = compliance_rules._Messages()
    queue = compliance_rules._Queue(rf.name, msgs)
    compliance_rules._run_file(rf, lines, compliance_rules.Engine.of(version), msgs, queue)
    return msgs.findings()


@pytest.mark.parametrize(
    ("value", "kind"), [(None, "REQ EXACTLY_ONE"), (0, "CHECK"), (4000, None), ("x", "CHECK")]
)
def test_gpt3_init_checkpoint_step(value: object, kind: str | None) -> None:
    """closed_gpt3.yaml of 4.0.0: ``init_checkpoint_step`` EXACTLY_ONE, CHECK ``> 0``
    (a string: the comparison raises, which the checker counts as a failed CHECK)."""
    lines = (
        []
        if value is None
        else [Line("init_checkpoint_step", {"value": value, "metadata": {}}, 1.0, 7)]
    )
    found = [
        f.kind
        for f in _run_one_file("v4.0", "training_4.0.0/closed_gpt3.yaml", lines)
        if f.rule == "init_checkpoint_step"
    ]
    assert found == ([kind] if kind else [])


def test_the_keys_of_a_later_file_replace_the_messages_of_an_earlier_one() -> None:
    """A file that defines a key again drops the earlier file's message for it
    (``overwrite_messages``); an unkeyed message (ATLEAST_ONE_CHECK) stays."""
    first = compliance_files.parse_rule_file(
        "- KEY:\n    NAME: x\n    REQ: EXACTLY_ONE\n"
        "- KEY:\n    NAME: y\n    ATLEAST_ONE_CHECK: \"v['value'] > 1\"\n",
        "a.yaml",
    )
    second = compliance_files.parse_rule_file("- KEY:\n    NAME: x\n", "b.yaml")
    lines = [Line("y", {"value": 0, "metadata": {}}, 1.0, 1)]
    msgs = compliance_rules._Messages()
    engine = compliance_rules.Engine.of("v3.0")
    queue = compliance_rules._Queue("a.yaml", msgs)
    compliance_rules._run_file(first, lines, engine, msgs, queue)
    assert {(f.rule, f.kind) for f in msgs.findings()} == {
        ("x", "REQ EXACTLY_ONE"),
        ("y", "ATLEAST_ONE_CHECK"),
    }
    compliance_rules._run_file(second, lines, engine, msgs, queue)
    assert {(f.rule, f.kind) for f in msgs.findings()} == {("y", "ATLEAST_ONE_CHECK")}


def test_findings_are_stored_bounded() -> None:
    f = compliance_rules.Finding("a\x00.yaml", "k", "CHECK", "m" * 900, 3)
    stored = compliance_rules.findings_json([f] * 60)
    assert len(stored) == 51 and stored[-1]["message"] == "10 more findings not kept"
    assert stored[0]["source"] == "a\ufffd.yaml" and len(stored[0]["message"]) == 500
    assert stored[0]["line"] == 3 and stored[0]["severity"] == "error"


def test_v60_rule_files_are_the_tags_and_enqueue_only_their_own() -> None:
    """The 17 files of ``training_6.0.0/`` at 6.0.0-rc6; every ``enqueue_config`` names
    a file of that directory, so no other round's files are needed."""
    files = compliance_files.rule_files("v6.0")
    assert len(files) == 17 and all(n.startswith("training_6.0.0/") for n in files)
    for b in ("gpt_oss_20b", "deepseekv3_671b", "llama31_8b", "flux1", "dlrm_dcnv2"):
        assert f"training_6.0.0/closed_{b}.yaml" in files
        assert f"training_6.0.0/open_{b}.yaml" in files


def test_v60_optional_keys_ask_nothing_when_absent_but_are_checked_when_logged() -> None:
    """common.yaml of 6.0.0: ``tensor_parallelism`` REQ OPTIONAL, CHECK is_integer."""
    head = [
        Line("submission_benchmark", {"value": "gpt_oss_20b", "metadata": {}}, 1.0, 1),
        Line("submission_division", {"value": "closed", "metadata": {}}, 1.0, 2),
    ]
    absent = check_log(head, "v6.0")
    assert not [f for f in absent if f.rule == "tensor_parallelism"]
    bad = head + [Line("tensor_parallelism", {"value": 2.5, "metadata": {}}, 2.0, 3)]
    found = [f for f in check_log(bad, "v6.0") if f.rule == "tensor_parallelism"]
    assert [(f.source, f.kind, f.line) for f in found] == [
        ("training_6.0.0/common.yaml", "CHECK", 3)
    ]


def test_a_small_constant_power_is_allowed() -> None:
    """closed_deepseekv3_671b.yaml of 6.0.0: the learning rate scales with the square
    root of the batch size."""
    code = compliance_eval.compile_snippet("(s['gbs'] / 16384) ** 0.5", "eval", "test")
    ns = compliance_eval.namespace({"gbs": 65536}, lambda name: None)
    assert eval(code, ns) == 2.0  # noqa: S307 - whitelisted snippet


# --- hardening, round two (issue 21) -------------------------------------------------

REAL_V20 = Path(django_settings.MLPERF_DATA) / (
    "training_results_v2.0/Baidu/results/1_node_8_A100_PyTorch/bert/result_0.txt"
)


def _timed_check(lines: list[Line], version: str) -> list[compliance_rules.Finding]:
    import time

    started = time.monotonic()
    found = check_log(lines, version)
    assert time.monotonic() - started < 2.0
    return found


@pytest.mark.parametrize("version", sorted(compliance_files.RULE_DIRS))
def test_submission_benchmark_common_returns_promptly_with_a_finding(version: str) -> None:
    """Issue 21 item 1: ``submission_benchmark: "common"`` made ``closed_common.yaml``
    enqueue itself forever in every round. The round's list (the CHECK before the POST)
    refuses the name: the CHECK fails and nothing is enqueued."""
    lines = [
        Line("submission_division", {"value": "closed", "metadata": {}}, 0, 1),
        Line("submission_benchmark", {"value": "common", "metadata": {}}, 0, 2),
    ]
    found = _timed_check(lines, version)
    rule_dir = compliance_files.RULE_DIRS[version]
    refused = [f for f in found if f.kind == "enqueue"]
    assert [(f.source, f.line, f.severity) for f in refused] == [
        (f"{rule_dir}/closed_common.yaml", 2, "error")
    ]
    assert "'submission_benchmark' on its line failed" in refused[0].message
    assert any(f.rule == "submission_benchmark" and f.kind == "CHECK" for f in found)


def test_a_real_v20_log_with_benchmark_common_fails_its_run_promptly() -> None:
    """The issue's repro on a real v2.0 log (Baidu's bert result_0.txt of
    ../shared/mlperf), its submission_benchmark edited to "common": the parser returns,
    the run fails on the benchmark name; the unedited log keeps no such finding."""
    import time

    data = REAL_V20.read_bytes()
    assert b'"key": "submission_benchmark", "value": "bert"' in data
    bad = data.replace(
        b'"key": "submission_benchmark", "value": "bert"',
        b'"key": "submission_benchmark", "value": "common"',
    )
    started = time.monotonic()
    run = training_log.parse_log(bad, "result_0.txt", compress=False, compliance_round="v2.0")
    assert time.monotonic() - started < 5.0
    kinds = {(f.rule, f.kind) for f in run.compliance if f.severity == "error"}
    assert ("submission_benchmark", "CHECK") in kinds and ("config", "enqueue") in kinds
    good = training_log.parse_log(data, "result_0.txt", compress=False, compliance_round="v2.0")
    assert not [f for f in good.compliance if f.kind in ("enqueue", "CHECK")]


def test_a_rule_file_runs_once_per_log() -> None:
    """v1.0 runs PRE/POST on every line of a key (no has_been_exec): two
    submission_division lines enqueue closed_common.yaml twice and two
    submission_benchmark lines closed_bert.yaml twice; each runs once, without a
    finding (the official checker would run them again, with the same findings), and
    the findings are those of one submission_division and one submission_benchmark line."""
    division = Line("submission_division", {"value": "closed", "metadata": {}}, 0, 1)
    bench = Line("submission_benchmark", {"value": "bert", "metadata": {}}, 0, 3)
    once = _timed_check([division, bench], "v1.0")
    twice = _timed_check([division, division, bench, bench], "v1.0")
    assert not [f for f in twice if f.kind == "enqueue"]
    without_repeats = [f for f in twice if "EXACTLY_ONE" not in f.kind]
    assert without_repeats == [f for f in once if "EXACTLY_ONE" not in f.kind]
    assert any(f.source == "1.0.0/closed_bert.yaml" for f in once)


def test_a_spent_budget_stops_the_check_with_a_finding() -> None:
    """Evaluating one log has a budget: the real Lenovo v3.0 bert log under a budget of
    50 snippets (it runs 100) stops with a ``budget`` error finding instead of running on."""
    path = sorted(LENOVO.glob("result_*.txt"))[0]
    lines = _lines(path)
    full = check_log(lines, "v3.0")
    assert not [f for f in full if f.kind == "budget"]
    cut = check_log(lines, "v3.0", budget=compliance_eval.Budget(limit=50))
    [stop] = [f for f in cut if f.kind == "budget"]
    assert stop.severity == "error"
    assert stop.message == (
        "check stopped: more than 50 rule evaluations for one log (benchdb's budget)"
    )


@pytest.mark.parametrize(
    "snippet",
    [
        "'{0.__globals__[__builtins__][__import__]}'.format(is_integer)",
        "'{0[x]}'.format(v)",
        "'{:>1000000000}'.format(1)",
        "'{:{0}}'.format(1)",
        "str.format('{0}', 1)",
    ],
)
def test_the_evaluator_refuses_format_fields_that_reach_attributes(snippet: str) -> None:
    """Issue 21 item 8: ``str.format`` fields with attribute or item access (which
    would reach ``__globals__`` and ``__import__``), nested or huge widths, and
    ``str.format`` with a template that is not a constant, are refused at load time."""
    with pytest.raises(compliance_eval.UnsafeSnippet):
        compliance_eval.compile_snippet(snippet, "eval", "test")


@pytest.mark.parametrize(
    "snippet",
    [
        "'x' * 1000000000",
        "1000000000 * [0]",
        "('ab',) * 100001",
        "'%1000000000d' % 1",
        "'%.99999f' % 1.0",
    ],
)
def test_the_evaluator_refuses_huge_products_when_it_runs_them(snippet: str) -> None:
    """A 1 GB string product compiles (the whitelist cannot see sizes) but is refused
    before it is built."""
    code = compliance_eval.compile_snippet(snippet, "eval", "test")
    ns = compliance_eval.namespace({}, lambda name: None)
    with pytest.raises(ValueError, match="bound|width"):
        eval(code, ns)  # noqa: S307 - the whitelisted snippet under test


def test_integer_products_are_bounded_and_small_ones_exact() -> None:
    with pytest.raises(ValueError, match="4096 bits"):
        compliance_eval.checked_binop("*", 1 << 3000, 1 << 2000)
    assert compliance_eval.checked_binop("*", 8000, 1152) == 9_216_000
    assert compliance_eval.checked_binop("%", 7, 3) == 1
    assert compliance_eval.checked_binop("+", "closed_", "bert") == "closed_bert"


def test_augmented_assignment_goes_through_the_checked_operation() -> None:
    code = compliance_eval.compile_snippet("s['x'] += s['x']", "exec", "test")
    state = {"x": "y" * 60_000}
    with pytest.raises(ValueError, match="over benchdb's bound"):
        exec(code, compliance_eval.namespace(state, lambda name: None))  # noqa: S102
    state = {"x": 2}
    exec(code, compliance_eval.namespace(state, lambda name: None))  # noqa: S102
    assert state == {"x": 4}

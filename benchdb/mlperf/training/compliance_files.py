"""MLPerf Training compliance rules: each round's rule files, compiled. Pure: no Django.

The YAML rule files of mlperf_logging's compliance checker, vendored byte for byte under
``compliance_yaml/<round>/`` (from ``mlperf_logging/compliance_checker/<dir>/`` at the
round's tag of github.com/mlcommons/logging; ``compliance_yaml/README.md`` names tag,
commit and directory of each), read as ``mlp_compliance.py`` ``configured_checks`` reads
them (``yaml.BaseLoader``: every scalar a string) and compiled through
:mod:`benchdb.mlperf.training.compliance_eval` (an ``ast`` whitelist). Stable
Diffusion's ``BEGIN`` block, the one that is real code, is recognised by its text here
and run natively by :mod:`benchdb.mlperf.training.compliance`, which runs the files on a
log. Split from ``compliance.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import yaml

from benchdb.mlperf.training.compliance_eval import compile_snippet

try:  # libyaml's loader when PyYAML was built with it; the same values, faster
    _Loader: Any = yaml.CBaseLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.BaseLoader

#: Rule directory of each round (``mlperf_logging/compliance_checker/<dir>``): the
#: ``ruleset`` the round's summarizer passes to the checker.
RULE_DIRS: dict[str, str] = {
    "v0.7": "0.7.0",
    "v1.0": "1.0.0",
    "v1.1": "training_1.1.0",
    "v2.0": "training_2.0.0",
    "v2.1": "training_2.1.0",
    "v3.0": "training_3.0.0",
    "v3.1": "training_3.1.0",
    "v4.0": "training_4.0.0",
    "v4.1": "training_4.1.0",
    "v5.0": "training_5.0.0",
    "v5.1": "training_5.1.0",
    "v6.0": "training_6.0.0",
}


@dataclass
class KeyRule:
    """One ``KEY`` record: compiled snippets, ``req`` as written."""

    name: str
    req: str = ""
    pre: Any = None
    checks: tuple[tuple[str, Any], ...] = ()
    post: Any = None
    atleast: tuple[str, Any] | None = None


@dataclass
class RuleFile:
    """One YAML rule file, compiled."""

    name: str
    begin: Any = None
    begin_native: str = ""  # "samples_count" / "step_num": the aggregation BEGIN block
    keys: dict[str, KeyRule] = field(default_factory=dict)
    end_pre: Any = None
    end_checks: tuple[tuple[str, Any], ...] = ()


#: Stable Diffusion's BEGIN block (``closed_stable_diffusion.yaml``, 3.1.0 on), with
#: ``{by}`` for ``samples_count`` or ``step_num`` and ``{only}`` for the metric test
#: some versions have: the only BEGIN that is code, run natively by _aggregate_evals.
_AGG_CODE = """from dataclasses import replace
agg_eval_lines = {{}}
for line in loglines:
    if line.key == "eval_accuracy"{only}:
        {by} = line.value['metadata']['{by}']
        if {by} not in agg_eval_lines:
            new_line = replace(line) # Make a copy
            new_line.key = "aggregated_eval_accuracy"
            new_line.full_string = "" # Not needed
            new_line.lineno = -1      # Not needed
            new_line.value = {{'value': {{'{by}': {by}}}, 'metadata':{{}}}}
            agg_eval_lines[{by}] = new_line

        agg_eval_lines[{by}].timestamp = max(line.timestamp, agg_eval_lines[{by}].timestamp)
        agg_eval_lines[{by}].value['value'][line.value['metadata']['metric']] = line.value['value']
loglines.extend(agg_eval_lines.values())
"""
_ONLY_METRIC = " and 'metric' in line.value['metadata']"


def _words(text: str) -> str:
    return " ".join(text.split())


#: Normalised text of each known aggregation block -> how to aggregate.
_AGG_BLOCKS = {
    _words(_AGG_CODE.format(by=by, only=only)): by + ("/metric" if only else "")
    for by in ("samples_count", "step_num")
    for only in ("", _ONLY_METRIC)
}


def _snippets(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _compile_key(body: dict[str, Any], where: str) -> KeyRule:
    name = str(body["NAME"])
    at = f"{where} {name}"
    rule = KeyRule(name=name, req=str(body.get("REQ", "")))
    if "PRE" in body:
        rule.pre = compile_snippet(str(body["PRE"]), "exec", at)
    if "CHECK" in body:
        rule.checks = tuple((t, compile_snippet(t, "eval", at)) for t in _snippets(body["CHECK"]))
    if "POST" in body:
        rule.post = compile_snippet(str(body["POST"]), "exec", at)
    if "ATLEAST_ONE_CHECK" in body:
        t = str(body["ATLEAST_ONE_CHECK"])
        rule.atleast = (t, compile_snippet(t, "eval", at))
    return rule


def parse_rule_file(text: str, name: str) -> RuleFile:
    """Compile one rule file's YAML (read as ``yaml.BaseLoader`` reads it: every
    scalar a string, as ``configured_checks`` loads it). Raises ValueError
    (:class:`~benchdb.mlperf.training.compliance_eval.UnsafeSnippet` included) or SyntaxError
    naming the file and key."""
    doc = yaml.load(text, Loader=_Loader) or []  # noqa: S506 - BaseLoader: str/list/dict only
    out = RuleFile(name=name)
    for item in doc:
        (kind, body), *_ = item.items()
        if kind == "KEY":
            rule = _compile_key(body, name)
            out.keys[rule.name] = rule  # a repeated NAME: the last wins, the first's place
        elif kind == "BEGIN":
            code = str(body["CODE"])
            out.begin_native = _AGG_BLOCKS.get(_words(code), "")
            if not out.begin_native:
                out.begin = compile_snippet(code, "exec", f"{name} BEGIN")
        elif kind == "END":
            if "PRE" in body:
                out.end_pre = compile_snippet(str(body["PRE"]), "exec", f"{name} END")
            out.end_checks = tuple(
                (t, compile_snippet(t, "eval", f"{name} END")) for t in _snippets(body["CHECK"])
            )
        else:
            raise ValueError(f"{name}: unknown record {kind!r}")
    return out


@cache
def rule_files(round_version: str) -> dict[str, RuleFile]:
    """Every rule file of a round, by the name ``enqueue_config`` uses
    (``training_3.0.0/closed_bert.yaml``): the round's directory, and the files of
    other directories its rules enqueue (1.1.0's ``open_common.yaml`` enqueues
    ``training_1.0.0/open_<benchmark>.yaml``; 4.0.0's ``closed_resnet.yaml``
    ``training_3.1.0/closed_resnet_<optimizer>.yaml``), as the tag holds them.
    Raises KeyError for a round without compliance rules (before v0.7)."""
    RULE_DIRS[round_version]  # KeyError for a round without rules
    base = resources.files("benchdb.mlperf.training").joinpath("compliance_yaml", round_version)
    out = {}
    for folder in sorted(base.iterdir(), key=lambda e: e.name):
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".yaml"):
                name = f"{folder.name}/{entry.name}"
                out[name] = parse_rule_file(entry.read_text(encoding="utf-8"), name)
    return out


@cache
def rule_keys(round_version: str) -> frozenset[str]:
    """Every key a round's rule files name: the only log lines the checker reads
    (``configured_checks`` skips a line whose key its file does not name)."""
    keys = {k for f in rule_files(round_version).values() for k in f.keys}
    return frozenset(keys | {"eval_accuracy"})


def has_rules(round_version: str) -> bool:
    """True for rounds whose summarizer ran the compliance checker (v0.7 on)."""
    return round_version in RULE_DIRS

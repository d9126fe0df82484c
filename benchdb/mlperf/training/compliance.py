"""MLPerf Training compliance rules, round by round: mlperf_logging's compliance
checker, reimplemented. Pure: no Django.

Each round's rule files are vendored byte for byte under ``compliance_yaml/<round>/``
(from ``mlperf_logging/compliance_checker/<dir>/`` at the round's tag of
github.com/mlcommons/logging; ``compliance_yaml/README.md`` names tag, commit and
directory of each). :func:`check_log` runs them as
``mlperf_logging/compliance_checker/mlp_compliance.py`` ``ComplianceChecker`` does
at that tag (``check_loglines`` and ``configured_checks``):

* ``common.yaml`` first; a rule's ``POST`` may ``enqueue_config`` another file
  (``closed_common.yaml``, ``closed_<benchmark>.yaml`` ...), run after it, first in
  first out. Each file runs over all log lines with its own state ``s``.
* Per line whose key the file names: ``PRE``, ``CHECK`` (each expression must be
  true), ``POST``; from 2.0.0 only on the first line of a ``submission_*`` key
  (``has_been_exec``). ``ATLEAST_ONE_CHECK`` must hold on at least one line.
* Then ``REQ``: ``EXACTLY_ONE`` (several equal values: a warning only),
  ``AT_LEAST_ONE``, ``AT_LEAST_ONE_OR(k)``, ``AT_LEAST(n)`` (3.1.0 on), and the
  ``END`` block. ``OPTIONAL`` (6.0.0 on: the parallelism and precision keys of
  ``common.yaml``) asks nothing when the key is absent; its ``CHECK`` still runs on
  each line that logs it.
* A message tied to a key is replaced by a later message for that key, and dropped
  when a later file defines the key again (``overwrite_messages``): ``open_common``
  relaxes ``common`` that way.
* 1.1.0: a missing ``weights_initialization`` and the ``initialized_tensors`` END
  check are warnings ("can be ignored for 1.1.0").

The rule files are read and compiled by :mod:`benchdb.mlperf.training.compliance_files`;
snippets run through :mod:`benchdb.mlperf.training.compliance_eval` (an ``ast`` whitelist,
not ``eval`` of arbitrary code). The one ``BEGIN`` block that is real code, Stable
Diffusion's (3.1.0 on), which merges the FID and CLIP ``eval_accuracy`` lines of one
evaluation into a virtual ``aggregated_eval_accuracy`` line, is recognised by its
text and run natively (:func:`_aggregate_evals`).

Differences from the official checker, where it would stop with a Python exception
(and the summarizer crash or drop the run): an ``ATLEAST_ONE_CHECK`` or ``BEGIN``
that raises, and a configuration file that does not exist, are errors of the run here.

Where the official checker would never return (``submission_benchmark: "common"``
makes ``closed_common.yaml`` enqueue itself forever), benchdb bounds the run
(:class:`_Queue`): a ``POST`` whose line failed a ``CHECK`` enqueues nothing (so a
benchmark name must be in the round's list, which that ``CHECK`` holds), each rule
file runs at most once per log (before 2.0.0 a log that repeats ``submission_benchmark``
makes the official checker run ``closed_<benchmark>.yaml`` again, with the same
findings: benchdb skips it without a finding), and one log may run at most
:data:`MAX_FILES` files and
:class:`~benchdb.mlperf.training.compliance_eval.Budget` snippets; each refusal is a
finding (an error) of the run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchdb.mlperf.training.compliance_eval import Budget, BudgetSpent, namespace
from benchdb.mlperf.training.compliance_files import RULE_DIRS, KeyRule, RuleFile, rule_files
from benchdb.vocabulary import round_tuple


@dataclass
class Line:
    """One MLLOG line as ``mlp_parser`` gives it: ``value`` is
    ``{"value": ..., "metadata": ...}`` (the JSON as logged, NaN and Infinity as
    floats), ``timestamp`` the ``time_ms``, ``lineno`` the 1-based line in the file."""

    key: str
    value: dict[str, Any]
    timestamp: float
    lineno: int


@dataclass(frozen=True)
class Finding:
    """A rule a run's log breaks. ``source``: rule file relative to the checker
    (``training_3.0.0/closed_bert.yaml``); ``rule``: the KEY name, or ``BEGIN``,
    ``END``, ``config``; ``kind``: ``REQ EXACTLY_ONE``, ``CHECK``,
    ``ATLEAST_ONE_CHECK``, ...; ``severity``: ``error`` fails the run, ``warning``
    does not; ``line``: 1-based line in the log, when one line is at fault."""

    source: str
    rule: str
    kind: str
    message: str
    line: int | None = None
    severity: str = "error"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (stored on the run)."""
        return {
            "source": self.source,
            "rule": self.rule,
            "kind": self.kind,
            "message": self.message,
            "line": self.line,
            "severity": self.severity,
        }

    def __str__(self) -> str:
        at = f" (line {self.line})" if self.line else ""
        return f"{self.source} {self.rule}: {self.message}{at}"


#: Findings stored per run, and characters kept per text (a message can quote every
#: value a key was logged with; a source can hold a log's value).
MAX_FINDINGS = 50
MAX_FINDING_TEXT = 500


def findings_json(found: Sequence[Finding]) -> list[dict[str, Any]]:
    """Findings as stored on a run (``Run.compliance``): at most :data:`MAX_FINDINGS`
    (then one note saying how many more), texts cut to :data:`MAX_FINDING_TEXT`
    characters, NUL replaced by U+FFFD (PostgreSQL's jsonb refuses it)."""
    out = []
    for f in found[:MAX_FINDINGS]:
        d = f.as_dict()
        for k in ("source", "rule", "kind", "message"):
            d[k] = d[k][:MAX_FINDING_TEXT].replace("\x00", "\ufffd")
        out.append(d)
    if len(found) > MAX_FINDINGS:
        more = f"{len(found) - MAX_FINDINGS} more findings not kept"
        out.append({"source": "", "rule": "", "kind": "", "message": more, "line": None})
        out[-1]["severity"] = "note"
    return out


@dataclass(frozen=True)
class Engine:
    """What the checker of a round's tag does differently (``mlp_compliance.py``)."""

    first_submission_only: bool  # has_been_exec: 2.0.0 on
    at_least_n: bool  # REQ AT_LEAST(n): 3.1.0 on
    weights_warning: bool  # 1.1.0 only

    @classmethod
    def of(cls, round_version: str) -> Engine:
        """The checker of a round (its tag's ``mlp_compliance.py``)."""
        rt = round_tuple(round_version)
        return cls(rt >= (2, 0), rt >= (3, 1), rt == (1, 1))


class _Messages:
    """``put_message`` / ``put_warning`` / ``overwrite_messages`` of the checker, and
    the log's :class:`~benchdb.mlperf.training.compliance_eval.Budget` (every snippet run
    spends one)."""

    def __init__(self, budget: Budget | None = None) -> None:
        self.first: list[Finding] = []  # the log's own: parse errors, no lines
        self.keyed: dict[str, Finding] = {}
        self.other: list[Finding] = []
        self.warnings: list[Finding] = []
        self.budget = budget or Budget()

    def put(self, f: Finding, key: str | None = None) -> None:
        if key:
            self.keyed[key] = f
        else:
            self.other.append(f)

    def warn(self, f: Finding) -> None:
        self.warnings.append(Finding(f.source, f.rule, f.kind, f.message, f.line, "warning"))

    def findings(self) -> list[Finding]:
        return [*self.first, *self.keyed.values(), *self.other, *self.warnings]


#: Rule files one log may run (benchdb's bound; a real log runs 3 to 5).
MAX_FILES = 16


class _Queue:
    """``enqueue_config``'s queue, bounded: see the module docstring."""

    def __init__(self, first: str, msgs: _Messages) -> None:
        self.pending = [first]
        self.seen = {first}
        self.msgs = msgs
        self.source = ""  # the file whose POST runs now
        self.line: int | None = None  # ... on this line
        self.closed = ""  # why nothing may be enqueued now ("" when it may)

    def put(self, name: object) -> None:
        """``enqueue_config(name)`` of a snippet."""
        text = str(name)
        if text in self.seen and not self.closed:
            return  # run (or queued) already: running it again adds the same findings
        why = self.closed
        if not why and len(self.seen) >= MAX_FILES:
            why = f"a log may run at most {MAX_FILES} rule files (benchdb's bound)"
        if why:
            what = f"{text[:100]!r} not enqueued: {why}"
            self.msgs.put(Finding(self.source, "config", "enqueue", what, self.line))
            return
        self.seen.add(text)
        self.pending.append(text)


def check_log(
    lines: Sequence[Line],
    round_version: str,
    *,
    parse_errors: int = 0,
    total_lines: int | None = None,
    budget: Budget | None = None,
) -> list[Finding]:
    """Findings of a round's compliance checker on one log, errors first.

    ``lines``: the log's MLLOG lines in file order (those whose key no rule file
    names may be left out: they change nothing; see :func:`rule_keys`);
    ``parse_errors``: lines that did not parse ("Log lines had parsing errors.");
    ``total_lines``: MLLOG lines parsed (default ``len(lines)``); ``budget``: the
    snippets (and seconds) the log may spend (default: a fresh
    :class:`~benchdb.mlperf.training.compliance_eval.Budget`); once spent, the check stops
    with a ``budget`` error finding. Never loops without end (see :class:`_Queue`).
    Raises KeyError for a round before v0.7. Source: ``mlp_compliance.py``
    ``check_file``, ``check_loglines``, ``configured_checks`` at the round's tag.
    """
    files = rule_files(round_version)
    rule_dir = RULE_DIRS[round_version]
    engine = Engine.of(round_version)
    msgs = _Messages(budget)
    if parse_errors:
        why = f"Log lines had parsing errors. ({parse_errors} log line(s) do not parse)"
        msgs.first.append(Finding("mlp_parser", "parse", "parse", why))
    if not (len(lines) if total_lines is None else total_lines):
        msgs.first.append(
            Finding(f"{rule_dir}/common.yaml", "log", "lines", "No log lines detected")
        )
    work = list(lines)
    queue = _Queue(f"{rule_dir}/common.yaml", msgs)
    while queue.pending:
        name = queue.pending.pop(0)
        rf = files.get(name)
        if rf is None:  # a name made of a log's value (submission_benchmark): kept short
            name = repr(name[:100])
            msgs.put(Finding(name, "config", "config", f"Could not find config file: {name}"))
            continue
        try:
            _run_file(rf, work, engine, msgs, queue)
        except BudgetSpent as exc:
            why = f"check stopped: {exc} for one log (benchdb's budget)"
            msgs.put(Finding(rf.name, "budget", "budget", why))
            break
    return msgs.findings()


def _run_file(
    rf: RuleFile, lines: list[Line], engine: Engine, msgs: _Messages, queue: _Queue
) -> None:
    """``configured_checks`` for one file."""
    state: dict[str, Any] = {}
    ns = namespace(state, queue.put)
    queue.source, queue.line, queue.closed = rf.name, None, ""
    msgs.budget.spend()
    try:
        if rf.begin_native:
            _aggregate_evals(lines, rf.begin_native)
        elif rf.begin is not None:
            exec(rf.begin, ns)  # noqa: S102,S307 - whitelisted snippet (compliance_eval)
    except Exception as exc:  # noqa: BLE001 - the official checker stops here
        why = f"BEGIN raised {exc!r} (the official checker stops)"
        msgs.put(Finding(rf.name, "BEGIN", "BEGIN", why))
    for k in rf.keys:
        msgs.keyed.pop(k, None)
    reported: dict[str, list[Any]] = {k: [] for k in rf.keys}
    atleast: dict[str, int] = {}
    done: set[str] = set()
    for ll in lines:
        rule = rf.keys.get(ll.key)
        if rule is None:
            continue
        reported[ll.key].append(ll.value.get("value"))
        if ll.key not in done:
            queue.line = ll.lineno
            _line_rules(rf.name, rule, ll, ns, msgs, queue)
        if rule.atleast is not None:
            atleast[ll.key] = atleast.get(ll.key, 0) + _atleast(rf.name, rule, ll, ns, msgs)
        if engine.first_submission_only and "submission_" in ll.key:
            done.add(ll.key)
    for k, n in atleast.items():
        if n == 0:
            test = rf.keys[k].atleast[0]  # type: ignore[index]
            msgs.put(Finding(rf.name, k, "ATLEAST_ONE_CHECK", f"Failed checks for {k} : {test}"))
    _requirements(rf, reported, engine, msgs)
    _end(rf, ns, engine, msgs)


def _line_rules(
    name: str, rule: KeyRule, ll: Line, ns: dict[str, Any], msgs: _Messages, queue: _Queue
) -> None:
    """PRE, CHECK and POST of one line (``run_check_exec`` / ``run_check_eval``); a
    POST after a failed CHECK may not enqueue (:class:`_Queue`)."""
    local = {"ll": ll, "v": ll.value}
    queue.closed = ""
    for what, code in (("PRE", rule.pre), ("CHECK", None), ("POST", rule.post)):
        if what == "CHECK":
            for test, compiled in rule.checks:
                msgs.budget.spend()
                try:
                    ok = eval(compiled, ns, local)  # noqa: S102,S307 - whitelisted snippet (compliance_eval)
                    why = f"CHECK for '{ll.key}' failed: {test.strip()}"
                except Exception as exc:  # noqa: BLE001 - the checker's bare except
                    ok, why = False, f"Failed executing CHECK code: {test.strip()} ({exc!r})"
                if not ok:
                    msgs.put(Finding(name, ll.key, "CHECK", why, ll.lineno), key=ll.key)
                    queue.closed = f"the CHECK of '{ll.key}' on its line failed"
        elif code is not None:
            msgs.budget.spend()
            try:
                exec(code, ns, local)  # noqa: S102,S307 - whitelisted snippet (compliance_eval)
            except Exception as exc:  # noqa: BLE001 - the checker's bare except
                why = f"Failed executing {what} code ({exc!r})"
                msgs.put(Finding(name, ll.key, what, why, ll.lineno), key=ll.key)


def _atleast(name: str, rule: KeyRule, ll: Line, ns: dict[str, Any], msgs: _Messages) -> int:
    test, compiled = rule.atleast  # type: ignore[misc]
    msgs.budget.spend()
    try:
        ok = eval(compiled, ns, {"ll": ll, "v": ll.value})  # noqa: S307 - whitelisted snippet
        return 1 if ok else 0
    except Exception as exc:  # noqa: BLE001 - the official checker stops here
        why = f"ATLEAST_ONE_CHECK raised {exc!r} (the official checker stops): {test.strip()}"
        msgs.put(Finding(name, ll.key, "ATLEAST_ONE_CHECK", why, ll.lineno))
        return 0


def _requirements(
    rf: RuleFile, reported: dict[str, list[Any]], engine: Engine, msgs: _Messages
) -> None:
    """The REQ checks of ``configured_checks``, in the file's key order."""
    alternatives: list[tuple[str, ...]] = []
    for k, rule in rf.keys.items():
        req, n = rule.req, len(reported[k])
        if req == "EXACTLY_ONE" and n != 1:
            f = Finding(rf.name, k, "REQ EXACTLY_ONE", f"Required EXACTLY_ONE occurrence of '{k}'")
            if n and all(x == reported[k][0] for x in reported[k]):
                msgs.warn(_with(f, f" but found {n}"))
            else:
                values = sorted({str(x) for x in reported[k]})
                differ = f" with different values: [{', '.join(values)}]" if n else ""
                msgs.put(_with(f, f" but found {n}{differ}"), key=k)
        if req == "AT_LEAST_ONE" and n < 1:
            f = Finding(
                rf.name, k, "REQ AT_LEAST_ONE", f"Required AT_LEAST_ONE occurrence of '{k}'"
            )
            f = _with(f, " but found 0")
            if engine.weights_warning and k == "weights_initialization":
                msgs.warn(f)
            else:
                msgs.put(f, key=k)
        if engine.at_least_n and req.startswith("AT_LEAST("):
            need = int(req[len("AT_LEAST(") : -1])
            if n < need:
                why = f"Required AT_LEAST({need}) occurrence of '{k}' but found {n}"
                msgs.put(Finding(rf.name, k, f"REQ AT_LEAST({need})", why), key=k)
        if req.startswith("AT_LEAST_ONE_OR("):
            names = [s.strip() for s in req[len("AT_LEAST_ONE_OR(") : -1].split(",")]
            alternatives.append((k, *names))
    for group in dict.fromkeys(tuple(sorted(set(a))) for a in alternatives):
        if not any(reported.get(k) for k in group):
            why = "Required AT_LEAST_ONE occurrence of " + " or ".join(f"'{s}'" for s in group)
            msgs.put(Finding(rf.name, group[0], "REQ AT_LEAST_ONE_OR", why))


def _with(f: Finding, more: str) -> Finding:
    return Finding(f.source, f.rule, f.kind, f.message + more, f.line, f.severity)


def _end(rf: RuleFile, ns: dict[str, Any], engine: Engine, msgs: _Messages) -> None:
    """The END block: PRE, then each CHECK (``run_check_end``)."""
    if rf.end_pre is not None:
        msgs.budget.spend()
        try:
            exec(rf.end_pre, ns)  # noqa: S102,S307 - whitelisted snippet (compliance_eval)
        except Exception as exc:  # noqa: BLE001 - the official checker stops here
            msgs.put(Finding(rf.name, "END", "END PRE", f"END PRE raised {exc!r}"))
    for test, compiled in rf.end_checks:
        msgs.budget.spend()
        try:
            ok = eval(compiled, ns)  # noqa: S102,S307 - whitelisted snippet (compliance_eval)
            why = f"failed test: {test.strip()[:200]}"
        except Exception as exc:  # noqa: BLE001 - the checker's bare except
            ok, why = False, f"Failed executing CHECK code: {test.strip()[:200]} ({exc!r})"
        if ok:
            continue
        f = Finding(rf.name, "END", "END CHECK", why)
        if engine.weights_warning and test.strip().split()[0] == "sorted(s['initialized_tensors'])":
            msgs.warn(Finding(rf.name, "weights_initialization", "END CHECK", why))
        else:
            msgs.put(f)


def _aggregate_evals(lines: list[Line], how: str) -> None:
    """Stable Diffusion's BEGIN block (``closed_stable_diffusion.yaml``, 3.1.0 on):
    one virtual ``aggregated_eval_accuracy`` line per evaluation (grouped by
    ``metadata[by]``, ``by`` = ``samples_count`` or ``step_num``), its value
    ``{by: n, <metric>: value, ...}``, its time the latest of the group's; appended
    after the log's lines. ``how`` is ``"<by>"`` or ``"<by>/metric"`` (only lines
    with a ``metric``). Raises KeyError where that code does (no ``metadata[by]``)."""
    by, _, only_metric = how.partition("/")
    agg: dict[Any, Line] = {}
    for ll in lines:
        if ll.key != "eval_accuracy" or (only_metric and "metric" not in ll.value["metadata"]):
            continue
        n = ll.value["metadata"][by]
        if n not in agg:
            agg[n] = Line("aggregated_eval_accuracy", {"value": {by: n}, "metadata": {}}, 0, -1)
            agg[n].timestamp = ll.timestamp
        agg[n].timestamp = max(ll.timestamp, agg[n].timestamp)
        agg[n].value["value"][ll.value["metadata"]["metric"]] = ll.value["value"]
    lines.extend(agg.values())

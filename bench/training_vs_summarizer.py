"""MLPerf Training: benchdb's stored results and runs against the round's own
result_summarizer and compliance checker, run on the same tree, one round.

    python bench/training_vs_summarizer.py v3.0 TREE LOGGING_DIR [--ingest]

``TREE``: a whole results repository (``training_results_v3.0``); ``LOGGING_DIR``: a
``git archive`` of github.com/mlcommons/logging at the round's tag (the directory that
holds ``mlperf_logging/``). With ``--ingest`` the tree is first ingested
(``manage.py ingest mlperf-training TREE``) into ``DATABASE_URL``. ``SUMMARIZER_JSONL``:
where the summarizer side writes its findings; an existing file there is reused.

The summarizer side runs in a child process with ``PYTHONPATH=LOGGING_DIR`` (this file
with ``--summarizer-side``): for every ``<org>/results/<system>/<benchmark>/`` folder it
reads each ``result_*.txt`` exactly as that tag's ``result_summarizer`` does
(``_read_result_file``: ``mlp_compliance`` checker on ``<ruleset>/common.yaml``, then
``mlp_parser``, then ``run_start``/``run_stop``; 0.7.0 and 1.0.0:
``_read_mlperf_score``), keeping for each run its time or the summarizer's reason, and
the keys of the checker's failing messages (``ComplianceChecker.overwritable``) and how
many unkeyed ones (``not_overwritable``). A result is rejected when more runs fail
than ``max_dropped_scores`` (4 for unet3d from 1.0.0, else 1): the summarizer's
"CRITICAL ERROR: Too many non-converging runs"; otherwise its score is the tag's
``_compute_olympic_average`` times ``_get_scaling_factor`` (2.0.0 on).

Compared per result (benchdb ``Result.source_path``): scored or rejected; the score (to
1e-9 relative); per run: failed or not, the reason kind (compliance / parse / other),
and for compliance failures the failing rule keys (benchdb ``Run.compliance`` errors
named by a KEY). Prints one line per round with the counts and EQUAL / NOT EQUAL, the
rules that rejected results, then every difference.
"""

from __future__ import annotations

import glob
import json
import math
import os
import subprocess
import sys
import tempfile
from collections import Counter
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))


# --- the summarizer side (runs with PYTHONPATH=LOGGING_DIR, no Django) ---------------


def _checker_run(mlp_compliance: Any, path: str, ruleset: str, config: str) -> dict[str, Any]:
    try:
        checker = mlp_compliance.make_checker("training", ruleset, True, False)
    except TypeError:  # 0.7.0 / 1.0.0: make_checker(ruleset, quiet, werror)
        checker = mlp_compliance.make_checker(ruleset, True, False)
    try:
        valid, _, _, _ = mlp_compliance.main(path, config, checker)
    except Exception as exc:  # noqa: BLE001 - the summarizer would crash or drop
        return {"valid": False, "crash": f"{type(exc).__name__}: {exc}"[:200], "keys": []}
    finally:
        mlp_compliance.enqueued_configs.clear()
    keys = sorted(checker.overwritable)
    return {"valid": bool(valid), "keys": keys, "other": len(checker.not_overwritable)}


def summarizer_side(tree: str, ruleset: str, out: str) -> None:
    """Write one JSON line per result folder of ``tree`` (see the module docstring)."""
    from mlperf_logging.compliance_checker import mlp_compliance
    from mlperf_logging.compliance_checker.mlp_parser import parse_file
    from mlperf_logging.result_summarizer import result_summarizer as rs

    prefix = ruleset if ruleset in ("0.7.0", "1.0.0") else f"training_{ruleset}"
    config = f"{prefix}/common.yaml"
    old = not hasattr(rs, "_read_result_file")
    with open(out, "w", encoding="utf-8") as f:
        for bench_dir in sorted(glob.glob(os.path.join(tree, "*", "results", "*", "*"))):
            if not os.path.isdir(bench_dir):
                continue
            rel = os.path.relpath(bench_dir, tree)
            runs = {}
            for path in sorted(glob.glob(os.path.join(bench_dir, "result_*.txt"))):
                run = _checker_run(mlp_compliance, path, ruleset, config)
                run["minutes"], run["reason"] = None, ""
                if not run["valid"]:
                    run["reason"] = "Compliance check failed"
                elif old:
                    try:
                        run["minutes"] = rs._read_mlperf_score(path, ruleset)
                    except Exception as exc:  # noqa: BLE001
                        run["reason"] = f"crash {type(exc).__name__}"
                else:
                    try:
                        lines, failed = parse_file(path, ruleset=ruleset)
                        if failed:
                            raise ValueError("Parse error")
                        start, stop = rs._query_run_start_stop(lines)
                        run["minutes"] = (stop - start) / 60 / 1000
                    except ValueError as exc:
                        run["reason"] = str(exc)
                runs[os.path.basename(path)] = run
            f.write(json.dumps({"path": rel, **_score(rs, ruleset, bench_dir, runs)}) + "\n")
            f.write(json.dumps({"path": rel, "runs": runs}) + "\n")


def _score(rs: Any, ruleset: str, folder: str, runs: dict[str, Any]) -> dict[str, Any]:
    bench = os.path.basename(folder)
    scores = [r["minutes"] for r in runs.values() if r["minutes"] is not None]
    dropped = len(runs) - len(scores)
    max_dropped = 4 if bench == "unet3d" and ruleset != "0.7.0" else 1
    if dropped > max_dropped or not runs:
        return {"score": None, "rejected": True}
    try:
        if ruleset == "0.7.0":
            score = rs._compute_olympic_average(scores, dropped)
        else:
            score = rs._compute_olympic_average(scores, dropped, max_dropped)
        if hasattr(rs, "_get_scaling_factor"):
            score *= rs._get_scaling_factor(folder)
    except Exception as exc:  # noqa: BLE001 - too few runs: ZeroDivisionError, ValueError
        return {"score": None, "rejected": True, "crash": type(exc).__name__}
    return {"score": score, "rejected": False}


# --- the benchdb side ----------------------------------------------------------------


def _official(path: str) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            out.setdefault(rec.pop("path"), {}).update(rec)
    return out


def _kind(reason: str) -> str:
    if reason.startswith("compliance") or reason == "Compliance check failed":
        return "compliance"
    if "parse" in reason.lower():
        return "parse"
    return "other" if reason else ""


def _run_diffs(path: str, theirs: dict[str, Any], ours: dict[str, Any]) -> list[str]:
    out = []
    for name in sorted(set(theirs) | set(ours)):
        t, o = theirs.get(name), ours.get(name)
        if t is None or o is None:
            out.append(f"{path}/{name}: only {'benchdb' if t is None else 'summarizer'}")
            continue
        t_kind = "" if t["minutes"] is not None else _kind(t["reason"])
        if t_kind != o["kind"]:
            out.append(f"{path}/{name}: summarizer {t['reason'] or 'ok'!r}, benchdb {o['why']!r}")
        elif t_kind == "compliance" and sorted(t["keys"]) != o["keys"]:
            out.append(f"{path}/{name}: rule keys summarizer {t['keys']} benchdb {o['keys']}")
    return out


def main(version: str, tree: str, logging_dir: str, ingest: bool) -> None:
    import django

    sys.path.insert(0, os.path.dirname(HERE))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")
    django.setup()
    from benchdb.mlperf.training.compliance_files import RULE_DIRS
    from benchdb.models import Result, Run

    ruleset = RULE_DIRS[version].replace("training_", "")
    out = os.environ.get("SUMMARIZER_JSONL") or ""
    if not out or not os.path.isfile(out):  # else: that file from an earlier run, reused
        out = out or os.path.join(tempfile.mkdtemp(), f"summarizer_{version}.jsonl")
        env = {**os.environ, "PYTHONPATH": logging_dir}
        cmd = [sys.executable, __file__, "--summarizer-side", tree, ruleset, out]
        workdir = tempfile.mkdtemp()  # the checker writes compliance_checker.log there
        subprocess.run(cmd, env=env, check=True, cwd=workdir, stdout=subprocess.DEVNULL)
    if ingest:
        manage = os.path.join(os.path.dirname(HERE), "manage.py")
        subprocess.run([sys.executable, manage, "ingest", "mlperf-training", tree], check=True)
    official = _official(out)
    results = {
        r.source_path: r
        for r in Result.objects.filter(round__suite="training", round__version=version)
    }
    runs: dict[str, dict[str, Any]] = {}
    for run in Run.objects.filter(result__in=results.values()).select_related("result"):
        errors = [f for f in run.compliance if f.get("severity") == "error"]
        # the checker's messages put with a key (REQ, CHECK, PRE, POST; not AT_LEAST_ONE_OR)
        keyed = {
            f["rule"]
            for f in errors
            if f["kind"].startswith(("REQ ", "CHECK", "PRE", "POST"))
            and f["kind"] != "REQ AT_LEAST_ONE_OR"
        }
        why = run.failure_reason
        runs.setdefault(run.result.source_path, {})[run.file_name] = {
            "kind": _kind(why),
            "why": why[:160],
            "keys": sorted(set(keyed)),
            "rules": sorted({f"{f['source']} {f['rule']} ({f['kind']})" for f in errors}),
        }
    diffs: list[str] = []
    rejected_by: Counter[str] = Counter()
    scored = rejected = equal_scores = 0
    for path in sorted(set(official) | set(results)):
        t, r = official.get(path), results.get(path)
        if t is None or r is None:
            diffs.append(f"{path}: only {'benchdb' if t is None else 'summarizer'}")
            continue
        ours_scored = r.score_minutes is not None
        if t["rejected"]:
            rejected += 1
            failing = [x for x in t["runs"].values() if x["minutes"] is None]
            keys = sorted({k for x in failing for k in x["keys"]})
            ours = sorted({rule for x in runs.get(path, {}).values() for rule in x["rules"]})
            named = f"keys {keys}; benchdb: {'; '.join(ours)}" if failing else "no result_*.txt"
            rejected_by[f"{path}: {len(failing)} runs fail; {named}"] += 1
        else:
            scored += 1
        if t["rejected"] == ours_scored:
            diffs.append(f"{path}: summarizer {'rejects' if t['rejected'] else 'scores'} it")
        elif ours_scored and not math.isclose(t["score"], r.score_minutes, rel_tol=1e-9):
            diffs.append(f"{path}: score summarizer {t['score']!r} benchdb {r.score_minutes!r}")
        elif ours_scored:
            equal_scores += 1
        diffs += _run_diffs(path, t["runs"], runs.get(path, {}))
    verdict = "EQUAL" if not diffs else f"NOT EQUAL ({len(diffs)} differences)"
    all_runs = [x for rec in official.values() for x in rec["runs"].values()]
    failed = Counter(_kind(x["reason"]) for x in all_runs if x["minutes"] is None)
    print(
        f"{version}: results {len(official)}, scored {scored} (equal scores {equal_scores}), "
        f"rejected {rejected}, benchdb results {len(results)}; runs {len(all_runs)}, "
        f"failed {sum(failed.values())} {dict(failed)}; {verdict}"
    )
    for rules in sorted(rejected_by):
        print(f"  rejected: {rules}")
    for d in diffs:
        print("  diff:", d)


if __name__ == "__main__":
    if sys.argv[1] == "--summarizer-side":
        summarizer_side(*sys.argv[2:5])
    else:
        main(sys.argv[1], sys.argv[2], sys.argv[3], "--ingest" in sys.argv[4:])

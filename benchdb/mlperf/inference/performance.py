"""MLPerf Inference v0.5-v5.1: the validity of a performance run. Pure.

The rules of the round's ``check_performance_dir()`` (mlcommons/inference
``tools/submission/submission_checker.py``, ``submission-checker.py`` before v3.0, at the
commits in :data:`~benchdb.vocabulary.INFERENCE_ROUNDS`) on one run's LoadGen logs, and
the LoadGen settings stored with a result; ``../shared/mlperf-inference/INFERENCE_SCORING.md``
§3 is the reading followed. Split from ``rules`` (which judges a whole result); v6.x:
``performance_v6``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benchdb.mlperf.inference.evidence import (
    Finding,
    LogLike,
    RunLike,
    error_findings,
    finding_at,
    number,
)
from benchdb.mlperf.inference.rounds import (
    LLM_LIMITS_V41,
    LLM_LIMITS_V51,
    SEEDS,
    RoundKey,
    offline_min_spq,
    performance_sample_count,
    server_latency_ns,
)
from benchdb.vocabulary import INFERENCE_LLM_BENCHMARKS, inference_scenario_for


def run_findings(
    rt: RoundKey,
    benchmark: str,
    scenario: str,
    division: str,
    run: RunLike,
    system: Mapping[str, Any],
) -> list[Finding]:
    """Every rule of ``check_performance_dir()`` the run fails (see INFERENCE_SCORING §3).

    Invalidating by round: ``result_validity`` (all; v4.x LLMs: replaced by the TTFT/TPOT
    check), detail-log ERRORs (all), performance sample count (v0.7+), seeds (v3.1+),
    early-stopping Server latency (v3.1+), min query count and Offline samples per query
    (v3.1+), min duration (v4.1+), equal-issue mode (v4.1+), network mode (v2.1+).
    """
    if rt < (1, 0) or run.detail is None or run.detail.log_format != "mllog":
        return _summary_findings(rt, benchmark, run)
    log = run.detail
    out: list[Finding] = []
    v4_llm = (4, 0) <= rt < (5, 0) and benchmark in LLM_LIMITS_V41
    if log.values.get("result_validity") != "VALID":
        found = log.values.get("result_validity", "absent (log cut short?)")
        out.append(
            finding_at(
                log, "result_validity", "result_validity", f"result_validity is {found}", not v4_llm
            )
        )
    out += error_findings(rt, log)
    # A line that does not parse makes the checker's MLPerfLog(strict=True) raise.
    out += [Finding("log_unreadable", p.path, p.line, p.message, True) for p in log.problems]
    out += _llm_findings(rt, benchmark, scenario, log)
    psc, need = (
        number(log, "effective_performance_sample_count"),
        performance_sample_count(rt, benchmark),
    )
    if need is not None and (psc is None or psc < need):
        out.append(
            finding_at(
                log,
                "effective_performance_sample_count",
                "performance_sample_count",
                f"performance sample count {psc} < {need}",
                True,
            )
        )
    out += _seed_findings(rt, log)
    out += _limit_findings(rt, benchmark, log)
    out += _network_findings(rt, division, log, system)
    return out


def _summary_findings(rt: RoundKey, benchmark: str, run: RunLike) -> list[Finding]:
    """v0.5/v0.7: ``Result is : VALID`` of the summary, ERROR lines of the text detail log,
    ``performance_sample_count`` (v0.7)."""
    out: list[Finding] = []
    s = run.summary
    if s is None:
        return out
    if s.result_valid is not True:
        out.append(
            Finding(
                "result_validity", s.path, None, "summary does not say 'Result is : VALID'", True
            )
        )
    if run.detail is not None:
        out += error_findings(rt, run.detail)
    need = performance_sample_count(rt, benchmark) if rt >= (0, 7) else None
    raw = s.values.get("performance_sample_count", "")
    if need is not None and raw.isdigit() and int(raw) < need:
        out.append(
            Finding(
                "performance_sample_count",
                s.path,
                s.lines.get("performance_sample_count"),
                f"performance sample count {raw} < {need}",
                True,
            )
        )
    return out


def _llm_findings(rt: RoundKey, benchmark: str, scenario: str, log: LogLike) -> list[Finding]:
    """``extra_check_llm()`` (v4.0+): token latencies requested; Server/Interactive p99 TTFT
    and TPOT below ``LLM_LATENCY_LIMITS`` (strictly)."""
    limits = (LLM_LIMITS_V51 if rt >= (5, 0) else LLM_LIMITS_V41).get(benchmark)
    if rt < (4, 0) or (
        limits is None and benchmark not in INFERENCE_LLM_BENCHMARKS - {"gptj-99", "gptj-99.9"}
    ):
        return []
    if not log.values.get("requested_use_token_latencies"):
        return [
            finding_at(
                log,
                "requested_use_token_latencies",
                "use_token_latencies",
                "requested_use_token_latencies is not true",
                True,
            )
        ]
    bound = (limits or {}).get(scenario if rt >= (5, 0) else "Server")
    if scenario not in ("Server", "Interactive") or bound is None:
        return []
    ttft = number(log, "result_first_token_99.00_percentile_latency_ns")
    tpot = number(log, "result_time_per_output_token_99.00_percentile_ns")
    if ttft is not None and tpot is not None and ttft < bound[0] and tpot < bound[1]:
        return []
    return [
        finding_at(
            log,
            "result_first_token_99.00_percentile_latency_ns",
            "ttft_tpot",
            f"TTFT p99 {ttft} ns / TPOT p99 {tpot} ns not below {bound[0]} / {bound[1]}",
            True,
        )
    ]


def _seed_findings(rt: RoundKey, log: LogLike) -> list[Finding]:
    """``effective_*_rng_seed`` equal to ``MODEL_CONFIG[<round>]["seeds"]``
    (``check_performance_dir()``): logged only up to v3.0, invalidating from v3.1; only
    rounds in :data:`SEEDS` are checked."""
    seeds = SEEDS.get(rt)
    if seeds is None:
        return []
    keys = (
        "effective_qsl_rng_seed",
        "effective_sample_index_rng_seed",
        "effective_schedule_rng_seed",
    )
    return [
        finding_at(log, k, "seeds", f"{k} is {log.values.get(k)}, expected {want}", rt >= (3, 1))
        for k, want in zip(keys, seeds, strict=True)
        if log.values.get(k) != want
    ]


_MIN_QUERIES = {"Offline": 1, "SingleStream": 1024, "MultiStream": 270336, "Server": 270336}


def _limit_findings(rt: RoundKey, benchmark: str, log: LogLike) -> list[Finding]:
    """Latency constraint (Server, early stopping, v2.0+), Offline samples per query
    (``OFFLINE_MIN_SPQ``), min duration (``TEST_DURATION_MS``) and min query count
    (``min-queries``, where early stopping is not used) of ``check_performance_dir()``;
    invalidating from v3.1, min duration from v4.1."""
    scen = inference_scenario_for(str(log.values.get("effective_scenario", ""))) or ""
    latency = server_latency_ns(rt, benchmark) if scen == "Server" and rt >= (2, 0) else None
    # (key, rule, bound, "max" or "min", applies, invalidating from)
    checks: list[tuple[str, str, float | None, str, bool, RoundKey]] = [
        ("effective_target_latency_ns", "latency_constraint", latency, "max", True, (3, 1)),
        (
            "effective_samples_per_query",
            "offline_samples_per_query",
            offline_min_spq(rt, benchmark),
            "min",
            scen == "Offline",
            (3, 1),
        ),
        (
            "effective_min_duration_ms",
            "min_duration",
            600_000 if rt >= (1, 0) else 60_000,
            "min",
            True,
            (4, 1),
        ),
        (
            "effective_min_query_count",
            "min_query_count",
            _MIN_QUERIES.get(scen),
            "min",
            rt < (2, 0) or scen == "Offline",
            (3, 1),
        ),
    ]
    out: list[Finding] = []
    for key, rule, bound, kind, applies, since in checks:
        v = number(log, key)
        if not applies or bound is None or v is None:
            continue
        if (kind == "max" and v > bound) or (kind == "min" and v < bound):
            sign = ">" if kind == "max" else "<"
            out.append(finding_at(log, key, rule, f"{key} {v:g} {sign} {bound:g}", rt >= since))
    return out


def _network_findings(
    rt: RoundKey, division: str, log: LogLike, system: Mapping[str, Any]
) -> list[Finding]:
    """``is_system_over_network()`` (v2.1+): ``is_network`` true in network, false in closed;
    a network SUT's ``sut_name`` contains ``Network SUT``."""
    if rt < (2, 1):
        return []
    raw = system.get("is_network")
    is_net = str(raw).lower() == "true" if raw is not None else False
    out = []
    expected = {"network": True, "closed": False}.get(division)
    if expected is not None and expected is not is_net:
        out.append(
            Finding(
                "network_mode", log.path, None, f"is_network={raw} in the {division} division", True
            )
        )
    if is_net and "Network SUT" not in str(log.values.get("sut_name", "")):
        out.append(
            finding_at(log, "sut_name", "network_sut_name", "sut_name lacks 'Network SUT'", True)
        )
    return out


def settings_of(run: RunLike) -> dict[str, Any]:
    """The LoadGen settings stored with a result (from the detail log, v1.0+)."""
    if run.detail is None:
        return {}
    keys = (
        "effective_target_qps",
        "effective_target_latency_ns",
        "effective_min_duration_ms",
        "effective_min_query_count",
        "effective_samples_per_query",
        "early_stopping_met",
        "effective_sample_concatenate_permutation",
        "result_query_count",
        "loadgen_version",
    )
    return {k: run.detail.values[k] for k in keys if k in run.detail.values}

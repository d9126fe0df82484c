"""MLPerf Inference equal-issue mode (v4.1+). Pure: no Django.

``Config.requires_equal_issue()`` and the check of ``check_performance_dir()`` /
``check_measurement_dir()`` of mlcommons/inference ``tools/submission/
submission_checker.py`` (v4.1 c7db1c3f, v5.x e20506b2); from v6.0 the checker requires
it of v4.1 only (``inference_rules_v6``). Split from ``inference_rules.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

from benchdb.mlperf.inference.evidence import Finding, LogLike, TextLike, finding_at
from benchdb.mlperf.inference.rounds import RoundKey, equal_issue_models


def conf_equal_issue(benchmark: str, scenario: str, confs: Sequence[TextLike]) -> bool:
    """``sample_concatenate_permutation = 1`` for the model (``-99``/``-99.9`` dropped, or
    ``*``) and scenario (or ``*``) in ``mlperf.conf`` then ``user.conf`` of the
    measurements folder (``check_measurement_dir()`` of the v4.1 checker, c7db1c3f)."""
    ref = benchmark.replace("-99.9", "").replace("-99", "")
    used = False
    for conf in confs:
        for raw in conf.lines:
            line = raw.replace(" ", "").strip()
            if not line or line.startswith("#") or line.count("=") != 1:
                continue
            key, val = line.split("=")
            parts = key.split(".")
            if (
                len(parts) == 3
                and parts[2] == "sample_concatenate_permutation"
                and parts[0] in (ref, "*")
                and parts[1] in (scenario, "*")
                and val.isdigit()
            ):
                used = int(val) == 1
    return used


def equal_issue_findings(
    rt: RoundKey,
    benchmark: str,
    scenario: str,
    division: str,
    log: LogLike,
    confs: Sequence[TextLike],
) -> list[Finding]:
    """Equal-issue mode (``Config.requires_equal_issue()``, v4.1+): v4.1 closed/network
    only, met by the log's ``effective_sample_concatenate_permutation`` or the measurement
    conf files (:func:`conf_equal_issue`); v5.x every division, the log only."""
    if benchmark not in equal_issue_models(rt):
        return []
    if rt < (5, 0) and division == "open":
        return []
    if log.values.get("effective_sample_concatenate_permutation") is True:
        return []
    if rt < (5, 0) and conf_equal_issue(benchmark, scenario, confs):
        return []
    key = "effective_sample_concatenate_permutation"
    return [finding_at(log, key, "equal_issue", "equal-issue mode not used", True)]

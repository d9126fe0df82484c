"""Facts of a round that its rules fix, whatever results were submitted: which
benchmarks MLPerf Training and HPC rounds had, which were new, and the round's place
in its suite's history; and the count claims they decide ("the seven workloads in
MLPerf Training 5.0", "这次MLPerf Training v3.0中增加了两项新任务", "its third annual
set of MLPerf HPC (v2.0) results"). Pure: no Django; the standard library's ``re``
reads the words.

A count is decided here only when what it counts is the round itself: its sentence
names the round, the words between the number and its noun are no restriction ("six
MLPerf benchmarks" is; "two LLM benchmarks", "five other tests", "data center
workloads" are not) and no word of the sentence makes it a count of one submitter's
entries or wins ("Google entered", 参加, "records", 霸榜). Those need the round's
results held whole (:mod:`benchdb.claims.round_counts`), not its rules.

Sources: the benchmarks of each round are ``_ALL_ALLOWED_BENCHMARKS`` of
``mlperf_logging/benchmark_meta.py`` (mlcommons/logging at 7bbf792, 2026-07-29, which
keeps every round's list), mapped to benchdb's keys by
:func:`benchdb.vocabulary.canonical_benchmark` (``ssd`` is RetinaNet from v2.0, ``gnn``
is R-GAT); the rounds of each suite are :data:`benchdb.vocabulary.ROUNDS` (training),
:data:`HPC_ROUNDS` and :data:`benchdb.vocabulary.INFERENCE_ROUND_PUBLISHED`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from benchdb.claims.facts import ClaimFacts, Verification
from benchdb.vocabulary import (
    CONSISTENT,
    INCONSISTENT,
    INFERENCE_ROUND_PUBLISHED,
    ROUNDS,
    UNVERIFIABLE,
    canonical_benchmark,
    round_key,
)

#: ``_ALL_ALLOWED_BENCHMARKS['training']`` of ``mlperf_logging/benchmark_meta.py`` at
#: 7bbf792 (folder keys as written there; v4.0 lists stable_diffusion twice).
_TRAINING_ALLOWED: dict[str, tuple[str, ...]] = {
    "v0.6": ("resnet", "ssd", "maskrcnn", "gnmt", "transformer", "ncf", "minigo"),
    "v0.7": ("bert", "dlrm", "gnmt", "maskrcnn", "minigo", "resnet", "ssd", "transformer"),
    "v1.0": ("bert", "dlrm", "maskrcnn", "minigo", "resnet", "ssd", "rnnt", "unet3d"),
    "v1.1": ("bert", "dlrm", "maskrcnn", "minigo", "resnet", "ssd", "rnnt", "unet3d"),
    "v2.0": ("bert", "dlrm", "maskrcnn", "minigo", "resnet", "ssd", "rnnt", "unet3d"),
    "v2.1": ("bert", "dlrm", "maskrcnn", "minigo", "resnet", "ssd", "rnnt", "unet3d"),
    "v3.0": ("bert", "dlrm_dcnv2", "gpt3", "maskrcnn", "resnet", "ssd", "rnnt", "unet3d"),
    "v3.1": (
        *("bert", "dlrm_dcnv2", "gpt3", "maskrcnn", "resnet", "ssd", "rnnt", "unet3d"),
        "stable_diffusion",
    ),
    "v4.0": (
        *("bert", "dlrm_dcnv2", "gpt3", "resnet", "ssd", "unet3d", "stable_diffusion"),
        *("llama2_70b_lora", "gnn"),
    ),
    "v4.1": ("bert", "dlrm_dcnv2", "gpt3", "ssd", "stable_diffusion", "llama2_70b_lora", "gnn"),
    "v5.0": (
        *("bert", "dlrm_dcnv2", "retinanet", "stable_diffusion", "llama2_70b_lora", "rgat"),
        "llama31_405b",
    ),
    "v5.1": (
        *("llama31_8b", "dlrm_dcnv2", "retinanet", "flux1", "llama2_70b_lora", "rgat"),
        "llama31_405b",
    ),
    "v6.0": (
        *("llama31_8b", "dlrm_dcnv2", "flux1", "llama2_70b_lora", "llama31_405b"),
        *("gpt_oss_20b", "deepseekv3_671b"),
    ),
}
#: ``_ALL_ALLOWED_BENCHMARKS['hpc']`` of the same file.
_HPC_ALLOWED: dict[str, tuple[str, ...]] = {
    "v0.7": ("cosmoflow", "deepcam"),
    "v1.0": ("cosmoflow", "deepcam", "oc20"),
    "v2.0": ("cosmoflow", "deepcam", "oc20"),
    "v3.0": ("cosmoflow", "deepcam", "oc20", "openfold"),
}
#: MLPerf HPC rounds in order (v0.7 2020-11, v1.0 2021-11, v2.0 2022-11, v3.0 2023-11).
HPC_ROUNDS = tuple(_HPC_ALLOWED)


def suite_rounds(suite: str) -> tuple[str, ...]:
    """The rounds of ``suite`` (``training``, ``hpc``, ``inference``) in order, first
    round first; () for another suite."""
    table: dict[str, object] = {
        "training": ROUNDS,
        "hpc": _HPC_ALLOWED,
        "inference": INFERENCE_ROUND_PUBLISHED,
    }.get(suite, {})  # type: ignore[assignment]
    return tuple(sorted(table, key=round_key))


def round_benchmarks(suite: str, rnd: str) -> frozenset[str] | None:
    """The benchmarks of round ``rnd`` of ``suite`` (``training`` or ``hpc``) as
    benchdb keys; None when benchdb does not know the round's list (v0.5 training,
    every inference round: the checker's model tables are shared across rounds)."""
    if suite == "hpc":
        return frozenset(_HPC_ALLOWED[rnd]) if rnd in _HPC_ALLOWED else None
    if suite != "training" or rnd not in _TRAINING_ALLOWED:
        return None
    return frozenset(canonical_benchmark(b, rnd) for b in _TRAINING_ALLOWED[rnd])


def new_benchmarks(suite: str, rnd: str) -> frozenset[str] | None:
    """The benchmarks of ``rnd`` that the suite's previous round did not have (a
    benchmark replaced under the same folder name, SSD by RetinaNet in v2.0, is new);
    None when either list is unknown or ``rnd`` is the suite's first round."""
    rounds = suite_rounds(suite)
    if rnd not in rounds or rounds.index(rnd) == 0:
        return None
    now, before = (
        round_benchmarks(suite, rnd),
        round_benchmarks(suite, rounds[rounds.index(rnd) - 1]),
    )
    return None if now is None or before is None else now - before


def round_ordinal(suite: str, rnd: str) -> int | None:
    """The place of ``rnd`` among its suite's rounds, from 1 (HPC v2.0: 3); None for a
    round benchdb does not list."""
    rounds = suite_rounds(suite)
    return rounds.index(rnd) + 1 if rnd in rounds else None


# --- which counts are about the round itself -----------------------------------------

#: Words that make a count one of a submitter's entries, wins or records, not of the
#: round's benchmarks.
RESTRICTING = re.compile(
    r"(?i:\b(?:enter(?:ed|s)?|submit(?:ted|s)?|participat\w*|compet\w*|won|wins?|winning"
    r"|records?|fastest|lead(?:s|ing)?|led|top|beat|best|swept|sweep\w*|first|ran|run"
    r"|complet\w*|achiev\w*|deliver\w*|set|only|all|of\s+the|out\s+of|other|except)\b)"
    r"|参加|參加|参与|參與|提交|霸榜|横扫|橫掃|纪录|紀錄|记录|記錄|冠军|冠軍|第一|领先|領先"
    r"|刷新|创下|創下|夺|奪|唯一|全部|其中|之一"
)
#: Words allowed between a count and its noun when the round's benchmarks are counted.
_NEUTRAL = re.compile(
    r"(?i:\b(?:MLPerf|AI|official|different|modern|new|training|HPC|benchmarks?|the)\b)"
    r"|新的?|典型的?|不同的?|主要的?|个|個|项|項|种|種|AI|MLPerf|基准|基準"
)
#: Count nouns of benchmarks (``claim_words``' units ``benchmark`` and ``task``).
_BENCHMARK_UNITS = frozenset({"benchmark", "task"})
_NOUN = re.compile(
    r"(?i:benchmarks?|workloads?|tests?|models?|applications?|tasks?)"
    r"|基准测试|基準測試|测试|測試|任务|任務|工作负载|工作負載|模型"
)
_NEW = re.compile(r"(?i:\bnew\b|\badd(?:s|ed)?\b)|新|增加|加入|纳入|納入")
#: An edition counted by round ("its third annual set", 第三届/轮) or by a version
#: number, which may also read as the version's major number (第七个大版本).
_EDITION_ROUND = re.compile(
    r"(?i:^\s*(?:annual\s+)?(?:set|round|edition)\b)|^\s*(?:个|個)?\s*(?:轮|輪|届|屆)"
)
_EDITION_VERSION = re.compile(
    r"(?i:^\s*(?:major\s+)?(?:release|version)\b)|^\s*(?:个|個)?\s*大?\s*版"
)


@dataclass(frozen=True)
class Scope:
    """What a count counts: ``what`` is ``benchmarks`` (the round's), ``new-benchmarks``
    (those the previous round lacked), ``edition`` (the round's place), ``version`` (a
    version's place, which may also be read as its major number) or ``""`` (not the
    round's own: restricted, ``why`` says by what)."""

    what: str
    why: str = ""


def count_scope(unit: str, sentence: str, figure: str, before: str, after: str) -> Scope:
    """What the count ``figure`` (the claim's own text: "seven workloads", "两项新任务",
    "third") counts in ``sentence``; ``before``/``after``: the sentence's text before
    and after the figure. New benchmarks when "new" is in the figure or "adds"/增加 just
    before it. Module docstring for the rules."""
    if unit == "edition":
        if _EDITION_ROUND.search(after) or re.search(r"(?:轮|輪|届|屆)$", figure):
            return Scope("edition")
        if _EDITION_VERSION.search(after) or re.search(r"版本?$", figure):
            return Scope("version")
        return Scope("", "the edition's noun is neither a round nor a version")
    if unit not in _BENCHMARK_UNITS:
        return Scope("", f"a count of {unit}s")
    restricted = RESTRICTING.search(sentence)
    if restricted:
        return Scope("", f"the sentence restricts it ({restricted.group(0).strip()!r})")
    noun = _NOUN.search(figure)
    if noun is None:
        return Scope("", "the count's noun is not in its own words")
    between = re.sub(r"[\d,.\s]+", " ", figure[: noun.start()])
    between = (
        re.sub(r"(?i:^\s*[a-z-]+\b)", "", between) if re.match(r"\s*[A-Za-z]", between) else between
    )
    rest = _NEUTRAL.sub("", between)
    rest = re.sub(r"[零〇一二两兩三四五六七八九十多的\s-]", "", rest)
    if rest:
        return Scope("", f"the words before the noun restrict it ({rest!r})")
    new = _NEW.search(figure) or _NEW.search(before[-12:])
    return Scope("new-benchmarks" if new else "benchmarks")


_SUITE_NAMES = {
    "training": re.compile(r"(?i:\bTraining\b)|训练|訓練"),
    "hpc": re.compile(r"\bHPC\b"),
    "inference": re.compile(r"(?i:\bInference\b)|推理|推論"),
}
#: Suites whose rules benchdb does not keep: a sentence naming one is none of the above.
_OTHER_SUITES = re.compile(r"(?i:\b(?:Storage|Tiny|Mobile|Automotive|Client)\b)|存储|存儲|储存")


def names_suite(sentence: str, suite: str) -> bool:
    """Whether ``sentence`` names ``suite`` ("MLPerf Training", 训练, "MLPerf HPC") and
    no suite whose rules benchdb does not keep (Storage, Tiny...)."""
    pattern = _SUITE_NAMES.get(suite)
    return bool(pattern and pattern.search(sentence)) and not _OTHER_SUITES.search(sentence)


def suite_clear(suite: str, sentence: str, page: str) -> bool:
    """Whether the claim's ``suite`` is said, not guessed: ``sentence`` names it, or
    ``page`` (its title and text) names it and no other suite benchdb keeps (a page on
    MLPerf Training and Inference leaves a sentence naming neither open)."""
    if names_suite(sentence, suite):
        return True
    others = [s for s in _SUITE_NAMES if s != suite and _SUITE_NAMES[s].search(page)]
    return names_suite(page, suite) and not others


def names_round(sentence: str, rnd: str) -> bool:
    """Whether ``sentence`` names round ``rnd`` ("v2.0", "5.0", "HPC 1.0")."""
    num = re.escape(rnd.lstrip("v"))
    return bool(re.search(rf"(?<![\d.]){num}(?![\d])", sentence))


# --- the verdict ----------------------------------------------------------------------

#: The context tag that carries a count's :class:`Scope` from its sentence to the
#: verdict (``ingest.claims.facts.claim_facts`` adds it; ``round-fact:<what>``).
TAG = "round-fact:"
#: The tag of a count whose sentence names the round it is checked against.
ROUND_IN_SENTENCE = "round-in-sentence"
_SUITE_WORDS = {"training": "MLPerf Training", "hpc": "MLPerf HPC", "inference": "MLPerf Inference"}


def scope_tags(c: ClaimFacts, sentence: str, start: int, end: int) -> tuple[str, ...]:
    """The context tags of a count claim ``c`` whose figure is ``sentence[start:end]``
    (offsets in the sentence): ``round-fact:<what>`` (:func:`count_scope`) and
    ``round-in-sentence`` when the sentence names ``c.round``; () for any other claim."""
    if c.kind != "count" or not 0 <= start <= end <= len(sentence):
        return ()
    scope = count_scope(c.unit, sentence, sentence[start:end], sentence[:start], sentence[end:])
    tags: tuple[str, ...] = (f"{TAG}{scope.what or 'restricted'}",)
    if c.round and names_round(sentence, c.round) and names_suite(sentence, _suite(c)):
        tags += (ROUND_IN_SENTENCE,)
    return tags


def _suite(c: ClaimFacts) -> str:
    return "hpc" if "suite-hpc" in c.context or c.suite == "hpc" else c.suite or "training"


def verify_round_fact(c: ClaimFacts) -> Verification | None:
    """The verdict on a count that its round's rules decide (:func:`scope_tags` put
    ``round-fact:<what>`` in ``c.context``), or None when this module does not decide it
    (the caller's checks run then). Unverifiable, naming what is missing, when the
    count is the round's but its sentence does not name the round, the count is
    qualified ("more than", "nearly"), or benchdb has no list for the round."""
    what = next((t[len(TAG) :] for t in c.context if t.startswith(TAG)), "")
    if c.kind != "count" or what in ("", "restricted") or not c.mlperf_context or c.non_mlperf:
        return None
    suite = _suite(c)
    title = f"{_SUITE_WORDS.get(suite, suite)} {c.round}".strip()
    missing = ""
    if not c.round or ROUND_IN_SENTENCE not in c.context:
        missing = (
            "the sentence names no round of the suite: a count of a round's benchmarks needs both"
        )
    elif c.qualifier and c.qualifier != "only":
        missing = f"a count qualified {c.qualifier!r} is not checked against the round's list"
    elif c.value is None:
        missing = "the count has no value"
    if missing:
        return Verification(UNVERIFIABLE, details={"reason": missing, "round_fact": what})
    readings = _readings(what, suite, c.round)
    if not readings:
        return Verification(
            UNVERIFIABLE,
            details={"reason": f"benchdb has no {what} list for {title}", "round_fact": what},
        )
    return _settle(readings, c.value or 0.0, title, what)


def _readings(what: str, suite: str, rnd: str) -> list[tuple[str, int, str]]:
    """(label, figure, evidence) of each reading of the count."""
    if what in ("edition", "version"):
        n = round_ordinal(suite, rnd)
        if n is None:
            return []
        rounds = ", ".join(suite_rounds(suite)[:n])
        out = [("the round's place among its suite's rounds", n, rounds)]
        if what == "version":
            majors = sorted({r.lstrip("v").split(".")[0] for r in suite_rounds(suite)[:n]}, key=int)
            out.append(("the version's major number counted", len(majors), ", ".join(majors)))
        return out
    found = round_benchmarks(suite, rnd) if what == "benchmarks" else new_benchmarks(suite, rnd)
    if found is None:
        return []
    label = "the round's benchmarks" if what == "benchmarks" else "benchmarks new in the round"
    return [(label, len(found), ", ".join(sorted(found)))]


def _settle(
    readings: list[tuple[str, int, str]], claimed: float, title: str, what: str
) -> Verification:
    """consistent when every reading's figure is the claimed count, inconsistent when
    none is, unverifiable (the readings named) otherwise."""
    holds = [n == claimed for _, n, _ in readings]
    listed = [
        {
            "label": label,
            "value": n,
            "holds": n == claimed,
            "slots": {"counted": label},
            "evidence": ev,
        }
        for label, n, ev in readings
    ]
    details = {
        "round_fact": what,
        "n_readings": len(readings),
        "readings_list": listed,
        "source": "mlperf_logging/benchmark_meta.py _ALL_ALLOWED_BENCHMARKS (mlcommons/logging"
        " 7bbf792); the suite's rounds as benchdb lists them",
    }
    said = "; ".join(f"{label}: {n} ({ev})" for label, n, ev in readings)
    if all(holds):
        return Verification(
            CONSISTENT, float(readings[0][1]), details=details | {"reason": f"{title}: {said}"}
        )
    if not any(holds):
        return Verification(
            INCONSISTENT, float(readings[0][1]), details=details | {"reason": f"{title}: {said}"}
        )
    details["open_slots"] = ["counted"]
    details["reason"] = f"the readings the text allows disagree (what is counted left open): {said}"
    return Verification(UNVERIFIABLE, details=details)

"""Wins and entries counted over a round benchdb holds whole: "H100 swept all eight
tests", "霸榜8项测试", "won four benchmarks", "是唯一一个参加8项测试的集群" (the only
cluster that entered all 8 tests). Pure: no Django; the standard library's ``re`` reads
the words.

**What is counted** comes from the sentence alone (never from the claimed number): a
count of benchmarks (or tests, workloads, 项测试) after a verb of winning (won, swept,
topped, led, 霸榜, 横扫, 夺冠) counts the benchmarks the subject won; after a verb of
entering (entered, competed in, 参加, 参与) it counts the benchmarks the subject has a
result in; "N of M benchmarks" also asks M of each reading (the field's benchmarks
with a scored result, and for wins those the subject entered). A sentence that
restricts the field ("in the cloud category", "per
accelerator", "at the same scale", "among", "edge", "power") or qualifies the count
("more than", "up to") is not counted. A count of records ("set records on", 创下新纪录)
is tagged and left unverifiable, saying why: a record is also read as faster than every
earlier round, which needs every earlier round that had the benchmark held whole
(MLPerf Training v0.5 and v0.6 are not) and benchmarks compared across rounds. A person
may settle that reading (the workbench's pin ``reading: round-best``, context
:data:`RECORD_AS_BEST`): the records are then counted as wins of the round.

**Places in a top M** ("four of the top five spots", "前5名中占据4位": a rank count
with M, nothing narrowing it, no TOP500-like list named) are read both as the places
the subject holds in the top M of each test's ranking and as M tests of which it won N
(:func:`_top`); where only that choice decides, the verdict is ``ambiguous``.

**Readings** (the verdict must hold for each; :func:`verify`):

* the subject: the product the sentence names ("H100": every result whose systems JSON
  names it as accelerator, any submitter), and the submitter (the page's or the
  sentence's organization: every result of a submitter folder that is its own or a
  joint one naming it, "NVIDIA_CoreWeave", as MLCommons publishes a joint submission
  under each of its partners); one reading each when both are known;
* the field: the closed division (MLCommons' results tables rank the closed division;
  the open division is not comparable, ``MLPerf_Results_Messaging_Guidelines.adoc``
  "Closed division ... Open division"), once with every availability category and once
  with available systems only; and every division;
* a win: the subject holds the best scored result of a benchmark (lowest time to train,
  highest inference throughput; MLPerf HPC strong scaling; inference per benchmark and
  scenario, a benchmark won when every scenario of it in the field is, and again when
  one is). Ties count as wins.

consistent when every reading's count is the claimed one, inconsistent when none is
(never for inference wins: vendors also count them per accelerator or per system
category, which is not read here), unverifiable (each reading named) otherwise.
"Only" / 唯一 also asks that no other subject (another product; another submitter)
reaches the count in the reading: where one does, the claim is left unverifiable, never
inconsistent on that ground.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from benchdb.claims.facts import ClaimFacts, Verification
from benchdb.claims.readings import Reading, settle
from benchdb.claims.round_counts import Holding, Score
from benchdb.claims.round_facts import suite_clear, suite_rounds
from benchdb.vocabulary import CONSISTENT, INCONSISTENT, UNVERIFIABLE

TAG = "round-win:"
#: Context of a count of records a person read as the round's best results (the pin
#: ``reading: round-best``, :mod:`benchdb.claims.pins`): counted as wins, every
#: reading of subject, field and benchmark as for "won".
RECORD_AS_BEST = "record-read:round-best"
_UNITS = frozenset({"benchmark", "task", "win"})
_WIN = re.compile(
    r"(?i:\b(?:won|wins?|winning|swept|sweeps?|sweeping|topp?(?:ed|s)?|led|leads?)\b)"
    r"|霸榜|横扫|橫掃|夺冠|奪冠|称霸|稱霸"
)
_ENTER = re.compile(
    r"(?i:\b(?:entered|enters?|competed\s+in|submitted\s+(?:to|in|on))\b)|参加|參加|参与|參與"
)
_RECORD = re.compile(r"(?i:\brecords?\b)|纪录|紀錄|记录|記錄|刷新|创下|創下")
_ONLY = re.compile(r"(?i:\bonly\b)|唯一")
#: Words that narrow the field or the measure: not counted here.
_NARROW = re.compile(
    r"(?i:\b(?:cloud|per[\s-](?:GPU|chip|accelerator|card|node|watt)|per\s+watt|scale|"
    r"among|edge|data\s*cent(?:er|re)|power|efficien\w*|single[\s-]node|"
    r"available|preview|open\s+division|closed\s+division|LLM|"
    r"except|other|of\s+the|out\s+of|than|nearly|almost|over|up\s+to)\b)"
    r"|云|雲|功耗|能效|单节点|單節點|边缘|邊緣|数据中心|數據中心|其中|之一|以上|超过|超過|近"
)
#: Words that may stand between the number and its noun ("eight MLPerf tests", "8项测试").
_BETWEEN = re.compile(
    r"^(?:\s|(?i:MLPerf|AI|official|different|of\s+the|benchmark)|项|項|个|個|种|種)*$"
)
#: "top five", "top-5", "前5名": a count of places in the top M of a ranking.
_TOP = re.compile(
    r"(?i:\btop[\s-]+(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\b)"
    r"|前\s*(?:\d+|[二两兩三四五六七八九十])\s*名"
)
#: Rankings that are not MLPerf's: a top M of them is not counted.
_LISTS = re.compile(r"(?i:\b(?:TOP|Green|Graph|IO)\s?500\b|\bHPL\b|\bHPCG\b)")
_NUMBER = re.compile(r"^\s*(?:[\d,.]+|[A-Za-z-]+|[零〇一二两兩三四五六七八九十百]+)")
_OF = re.compile(r"^\s*(?:of|/|out\s+of)\s*(?:[\d,.]+|[A-Za-z-]+)")
_NOUN = re.compile(
    r"(?i:benchmarks?|tests?|workloads?|tasks?|categories)|基准测试|基準測試|测试|測試|任务|任務"
)


def scope_tags(
    c: ClaimFacts, sentence: str, start: int, end: int, page: str = ""
) -> tuple[str, ...]:
    """``round-win:won[:only]`` or ``round-win:entered[:only]`` for a count of
    benchmarks whose figure is ``sentence[start:end]`` and whose sentence wins or enters
    with nothing narrowing it (module docstring); () otherwise, and when neither the
    sentence nor the page (``page``: its title and text) says the claim's suite
    (:func:`benchdb.claims.round_facts.suite_clear`)."""
    if c.kind != "count" or not 0 <= start < end <= len(sentence):
        return ()
    if c.unit == "rank" and c.compared_value is not None and _TOP.search(sentence[start:end]):
        # "four of the top five", "前5名中占据4位": places in a top M (or M tests won)
        rest = sentence[:start] + sentence[end:]
        clear = suite_clear(_suite(c), sentence, page or sentence)
        plain = c.qualifier == "" and not _NARROW.search(rest) and not _LISTS.search(sentence)
        return (f"{TAG}top",) if clear and plain else ()
    if c.unit not in _UNITS or not suite_clear(_suite(c), sentence, page or sentence):
        return ()
    figure = sentence[start:end]
    noun = _NOUN.search(figure)
    if noun is None or c.qualifier not in ("", "only"):
        return ()
    words = _NUMBER.sub("", figure[: noun.start()], count=1)
    if c.compared_value is not None:  # "six of eight tests": "of" and M before the noun
        words = _OF.sub("", words, count=1)
    if not _BETWEEN.match(words) or _NARROW.search(sentence):
        return ()
    before = sentence[max(0, start - 24) : start]
    what = "won" if _WIN.search(before) else "entered" if _ENTER.search(before) else ""
    if _RECORD.search(sentence) and what != "entered":
        return (f"{TAG}record",)
    if not what:
        return ()
    return (f"{TAG}{what}" + (":only" if _ONLY.search(sentence) else ""),)


def _suite(c: ClaimFacts) -> str:
    return "hpc" if "suite-hpc" in c.context or c.suite == "hpc" else c.suite or "training"


@dataclass(frozen=True)
class Subject:
    """Whose results a reading counts: ``label`` and the test on a score."""

    label: str
    has: Callable[[Score], bool]


@dataclass(frozen=True)
class Field:
    """Which results compete in a reading."""

    label: str
    has: Callable[[Score], bool]


FIELDS = (
    Field("closed division", lambda s: s.division == "closed"),
    Field(
        "closed division, available systems",
        lambda s: s.division == "closed" and s.availability == "available",
    ),
    Field("every division", lambda s: True),
)


def subjects(c: ClaimFacts, held: Holding) -> list[Subject]:
    """The subjects the claim's frame allows: its product (``c.system`` as an accelerator
    name) and its submitter (own and joint folders of the held round); [] when neither
    names any stored result of the round."""
    out = []
    product = _key(c.system)
    if product and any(product in _key(s.accelerator) for s in held.scores):
        out.append(Subject(f"results on {c.system}", lambda s: product in _key(s.accelerator)))
    who = _key(c.submitter)
    if who and any(who in _parts(s.submitter) for s in held.scores):
        out.append(
            Subject(
                f"{c.submitter}'s results (own and joint)", lambda s: who in _parts(s.submitter)
            )
        )
    return out


def _key(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def _parts(folder: str) -> set[str]:
    """A submitter folder and the organizations of a joint one ("NVIDIA_CoreWeave",
    "Fujitsu+RIKEN") as keys."""
    return {_key(folder)} | {_key(p) for p in re.split(r"[_+]", folder) if p}


def won(scores: Iterable[Score], mine: Callable[[Score], bool], every: bool) -> list[str]:
    """The benchmarks ``mine`` wins among ``scores`` (scored ones): a benchmark with
    several kinds (inference scenarios, HPC strong/weak) is won when ``every`` kind of
    it is (``every``) or when one is (not ``every``); only HPC strong scaling is
    ranked (weak scaling's throughput is another measure)."""
    best: dict[tuple[str, str], list[Score]] = {}
    for s in scores:
        if s.value is None or s.kind == "weak":
            continue
        best.setdefault((s.benchmark, s.kind), []).append(s)
    kinds: dict[str, list[bool]] = {}
    for (bench, _kind), group in best.items():
        lower = group[0].lower_better
        top = min(s.value or 0.0 for s in group) if lower else max(s.value or 0.0 for s in group)
        kinds.setdefault(bench, []).append(any(mine(s) and s.value == top for s in group))
    return sorted(b for b, ks in kinds.items() if (all(ks) if every else any(ks)))


def entered(scores: Iterable[Score], mine: Callable[[Score], bool]) -> list[str]:
    """The benchmarks ``mine`` has a stored result in (scored or not)."""
    return sorted({s.benchmark for s in scores if mine(s)})


def verify(
    c: ClaimFacts, holdings: Mapping[tuple[str, str], Holding] | None
) -> Verification | None:
    """The verdict on a count tagged by :func:`scope_tags` (None for any other claim),
    counted over the round benchdb holds whole, else ``unverifiable`` naming what is
    missing. ``holdings``: (suite, round) -> :class:`Holding`."""
    tag = next((t[len(TAG) :] for t in c.context if t.startswith(TAG)), "")
    if not tag or c.value is None or not c.mlperf_context or c.non_mlperf:
        return None
    if "round-date" in c.context or not c.round:
        return _open("the round is not named (a count over a round needs its round named)")
    suite = _suite(c)
    held = (holdings or {}).get((suite, c.round))
    if held is None or not held.scores:
        return _open(
            f"benchdb holds no whole {suite} {c.round}: no record of its results repository"
        )
    if not held.whole():
        return _open(f"{suite} {c.round} is not held whole: listed results not stored")
    who = subjects(c, held)
    if not who:
        return _open(
            f"the sentence names no product or submitter with a result in {suite} {c.round}"
        )
    what, _, only = tag.partition(":")
    if what == "top":
        return _top(c, held, who)
    if what == "record" and RECORD_AS_BEST not in c.context:
        return _open(_record_reason(suite, held, holdings or {}))
    what = "won" if what == "record" else what  # a person read the records as wins
    loadgen = suite in ("inference", "automotive")
    readings, others = [], set()
    for sub in who:
        for fld in FIELDS:
            for unit, pool in _units(suite, [s for s in held.scores if fld.has(s)], what):
                for every in (True, False) if what == "won" and loadgen else (True,):
                    got = won(pool, sub.has, every) if what == "won" else entered(pool, sub.has)
                    kind = (" (every scenario)" if every else " (one scenario)") if loadgen else ""
                    label = f"{sub.label}, {fld.label}, {unit or 'benchmarks'}{kind} {what}"
                    for of, denom in _denominators(c, pool, sub, what):
                        readings.append((label + of, len(got), ", ".join(got), denom))
                    if only:
                        others |= _reaching(pool, sub, what, every, c.value)
    out = _settle(c, readings, held, ", ".join(sorted(others)))
    if out.verdict == INCONSISTENT and what == "won" and suite in ("inference", "automotive"):
        why = "no reading gives the claimed count, but inference wins are also counted per"
        why += " accelerator or per system category, which are not read here: "
        return _open(why + str(out.details.get("reason", "")))
    return out


#: An inference model's accuracy variants ("bert-99", "bert-99.9": one benchmark in
#: MLCommons' words, two in the submission checker's model list).
_VARIANT = re.compile(r"-99(?:\.9)?$")


def _units(suite: str, pool: list[Score], what: str) -> list[tuple[str, list[Score]]]:
    """What a benchmark is in each reading: training, the benchmark; HPC, the benchmark
    (strong scaling ranked) and the benchmark and scaling type (weak scaling's
    throughput ranked too, a test of its own); inference
    and automotive, the model as the checker names it ("bert-99") and the model without
    its accuracy variant ("bert"), and for wins also the model and scenario as one
    category (a win per scenario counted)."""
    if suite == "hpc":  # strong scaling's time and weak scaling's throughput: two tests?
        pairs = [replace(s, benchmark=f"{s.benchmark} {s.kind}", kind="") for s in pool]
        return [("", pool), ("benchmark and scaling pairs", pairs)]
    if suite not in ("inference", "automotive"):
        return [("", pool)]
    family = [replace(s, benchmark=_VARIANT.sub("", s.benchmark)) for s in pool]
    out = [("models", pool), ("models without accuracy variant", family)]
    if what == "won":
        pairs = [replace(s, benchmark=f"{s.benchmark} {s.kind}", kind="") for s in pool]
        out.append(("model and scenario pairs", pairs))
    return out


def _reaching(pool: list[Score], sub: Subject, what: str, every: bool, claimed: float) -> set[str]:
    """The submitter folders with no result of ``sub`` whose results reach ``claimed``
    benchmarks won or entered in ``pool``."""
    out = set()
    for folder in {s.submitter for s in pool if not sub.has(s)}:
        theirs = [s for s in pool if s.submitter == folder and not sub.has(s)]

        def is_theirs(s: Score, f: str = folder) -> bool:
            return s.submitter == f and not sub.has(s)

        got = won(pool, is_theirs, every) if what == "won" else entered(theirs, is_theirs)
        if len(got) >= claimed:
            out.add(folder)
    return out


def _record_reason(suite: str, held: Holding, holdings: Mapping[tuple[str, str], Holding]) -> str:
    """Why a count of records is not decided: a record is also read as better than
    every earlier round's result on the benchmark, which needs every earlier round of
    the suite held whole."""
    rounds = suite_rounds(suite)
    earlier = rounds[: rounds.index(held.round)] if held.round in rounds else rounds
    missing = [r for r in earlier if (suite, r) not in holdings]
    said = f"benchdb holds no whole {suite} {', '.join(missing)}" if missing else ""
    return (
        "a record is read as the round's best and as better than every earlier round's"
        " result on the benchmark; counting the second needs every earlier round held"
        " whole and the benchmarks compared across rounds, which is not done here"
        + (f" ({said})" if said else "")
    )


def _open(why: str) -> Verification:
    return Verification(UNVERIFIABLE, details={"reason": why, "round_count": True})


def _denominators(
    c: ClaimFacts, pool: list[Score], sub: Subject, what: str
) -> list[tuple[str, int | None]]:
    """For "N of M" (``c.compared_value`` M): what M counts in each reading, the
    benchmarks of the field (with a scored result, for wins) and, for wins, the
    benchmarks the subject entered; [("", None)] for a plain count."""
    if c.compared_value is None:
        return [("", None)]
    scored = {s.benchmark for s in pool if s.value is not None or what != "won"}
    out: list[tuple[str, int | None]] = [(f" of the field's {len(scored)}", len(scored))]
    if what == "won":
        mine = entered(pool, sub.has)
        out.append((f" of the {len(mine)} it entered", len(mine)))
    return out


def _settle(
    c: ClaimFacts, readings: list[tuple[str, int, str, int | None]], held: Holding, only: str
) -> Verification:
    """consistent when every reading's count (and "of M", its field's) is the claimed
    one, inconsistent when none is, unverifiable (readings named) otherwise; ``only``:
    the others that reach the claimed count where the sentence says "only" ("" when
    none does)."""
    claimed, of = c.value or 0.0, c.compared_value
    holds = [n == claimed and (m is None or m == of) for _, n, _, m in readings]
    listed = [
        {"label": lb, "value": n, "holds": h, "slots": {"counted": lb}, "evidence": ev}
        for (lb, n, ev, _m), h in zip(readings, holds, strict=True)
    ]
    said = "; ".join(f"{lb}: {n} ({ev})" for lb, n, ev, _m in readings)
    details = {
        "round_count": True,
        "n_readings": len(readings),
        "readings_list": listed,
        "source": f"{held.suite} {held.round}: results repository at {held.commit[:12]}",
    }
    if all(holds) and only:
        return Verification(
            UNVERIFIABLE,
            details=details
            | {"reason": f"the count holds ({said}), but another reaches it: {only}"},
        )
    if all(holds) or not any(holds):
        verdict = CONSISTENT if all(holds) else INCONSISTENT
        return Verification(verdict, float(readings[0][1]), details=details | {"reason": said})
    details["open_slots"] = ["counted"]
    details["reason"] = f"the readings the text allows disagree: {said}"
    return Verification(UNVERIFIABLE, details=details)


def _top(c: ClaimFacts, held: Holding, who: list[Subject]) -> Verification:
    """ "N of the top M" (``c.value`` N, ``c.compared_value`` M): read as the places the
    subject holds in the top M of each test's ranking (each test a reading; a ranking
    with fewer than M results has no top M), and as M tests of which the subject won N
    (what a test is: :func:`_units`, each field of :data:`FIELDS`). The readings are
    settled by :func:`benchdb.claims.readings.settle`: where what is counted alone
    decides, ``ambiguous`` with each reading's outcome; never ``inconsistent`` for
    inference (wins are also counted per accelerator or system category)."""
    claimed, of = int(c.value or 0), int(c.compared_value or 0)
    suite, out = held.suite, []
    loadgen = suite in ("inference", "automotive")
    for sub in who:
        for fld in FIELDS:
            pool = [s for s in held.scores if fld.has(s)]
            for unit, upool in _units(suite, pool, "won"):
                tests = {(s.benchmark, s.kind) for s in upool if s.value is not None}
                benches = {b for b, k in tests if k != "weak"}
                for every in (True, False) if loadgen else (True,):
                    got = won(upool, sub.has, every)
                    what = f"{unit or 'benchmarks'} won" + (
                        (" (every scenario)" if every else " (one scenario)") if loadgen else ""
                    )
                    holds = len(got) == claimed and len(benches) == of
                    slots = {"ranking": what, "counted": what, "subject": sub.label}
                    slots["field"] = fld.label
                    label = f"{sub.label}, {fld.label}: {what} {len(got)} of {len(benches)}"
                    out.append(Reading((), float(len(got)), holds, slots, label))
            for test, n, size in _places(pool, sub, of):
                what = f"places in each test's top {of}"
                slots = {"ranking": what, "counted": what, "subject": sub.label}
                slots |= {"field": fld.label, "benchmark": test}
                label = f"{sub.label}, {fld.label}: {n} of the top {of} in {test} ({size} ranked)"
                holds = n == claimed and size >= of
                out.append(Reading((), float(n), holds, slots, label))
    if not out:
        return _open(f"no scored result of {suite} {held.round} to rank")
    source = f"{suite} {held.round}: results repository at {held.commit[:12]}"
    said = "; ".join(r.label for r in out[:8]) + (
        f" (and {len(out) - 8} more)" if len(out) > 8 else ""
    )
    v = settle(out, {"round_count": True, "source": source, "reason": said})
    if v.verdict == INCONSISTENT and loadgen:
        why = "no reading gives the claimed count, but inference wins are also counted per"
        return _open(why + f" accelerator or per system category, which are not read here: {said}")
    return v


def _places(pool: list[Score], sub: Subject, top: int) -> list[tuple[str, int, int]]:
    """Each test's ranking (benchmark and kind: scenario, strong or weak scaling) of the
    scored results of ``pool``: (test, the subject's results among its first ``top``,
    how many results it ranks)."""
    tests: dict[str, list[Score]] = {}
    for s in pool:
        if s.value is not None:
            tests.setdefault(" ".join(x for x in (s.benchmark, s.kind) if x), []).append(s)
    out = []
    for test, group in sorted(tests.items()):
        ranked = sorted(group, key=lambda s: s.value or 0.0, reverse=not group[0].lower_better)
        out.append((test, sum(sub.has(s) for s in ranked[:top]), len(ranked)))
    return out

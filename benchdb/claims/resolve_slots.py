"""The benchmark and round slots of a claim's frame, read from its sentence and its
page (a part of :mod:`benchdb.claims.resolve`): the benchmark its figure's clause names
(never one the sentence says was replaced), the model of an inference figure, and the
round named in words, by the page, by a date relative to the page's ("last June",
"今年6月": the figure's own date words before the page's round), or a gain's baseline
round ("the June record": that round's best). Pure: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import TYPE_CHECKING

from benchdb.claims import page_round, round_facts
from benchdb.claims import resolve_words as words
from benchdb.claims.facts import ClaimFacts
from benchdb.claims.resolve_suite import models_named
from benchdb.claims.subjects import (
    benchmark_in_clause,
    benchmarks_named,
    clause_of,
    rounds_named,
)
from benchdb.vocabulary import canonical_benchmark

if TYPE_CHECKING:  # resolve imports this module
    from benchdb.claims.resolve import PageContext

GAINS = frozenset({"multiplier", "percentage"})
#: A gain measured from the best result of an earlier round ("相较V1.0竞赛最佳成绩",
#: "compared to the record-setting NVIDIA submission made last year").
BEST = re.compile(
    r"最佳成[绩績]|最好成[绩績]|best (?:results?|scores?|times?|submissions?)"
    r"|record(?:-setting| setting)?(?: [A-Za-z]+)? (?:submissions?|results?|times?)"
    r"|previous record|(?:刷新)?[记紀纪][录錄]的?成[绩績]|[记紀纪][录錄]成[绩績]"
    # "over the June record", "last round's record", "the prior record of 10.9 minutes"
    r"|(?:prior|earlier|older|last|round's|year's|January|February|March|April|May|June"
    r"|July|August|September|October|November|December)\s+record(?![-\w])",
    re.I,
)


def from_page(key: str, named: list[str], title: list[str], page: list[str]) -> tuple[str, str]:
    """(value, context tag) of a benchmark or round: the sentence's first, else the
    title's first, else the page's when it names exactly one."""
    if named:
        return named[0], ""
    if title:
        return title[0], f"{key}-title"
    if len(page) == 1:
        return page[0], f"{key}-page"
    return "", ""


def benchmark_fields(
    c: ClaimFacts, sentence: str, page: PageContext, fields: dict[str, object], ctx: list[str]
) -> None:
    """The benchmark (training's vocabulary): the one named in the claimed figure's own
    clause when the sentence names several ("Llama 3.1 8B in 5.2 minutes ... and
    FLUX.1 in 12.5 minutes": each time its own); never one the sentence says was
    replaced ("Llama 3.1 8B replaced BERT-large": the other one, ``benchmark-replaced``),
    else the sentence's, the title's or the page's (:func:`from_page`)."""
    if c.suite == "inference":
        _model_fields(c, sentence, fields, ctx)
        words.scenario_fields(c, sentence, fields, ctx)
        return
    if (c.suite or "training") != "training" or "suite-hpc" in c.context:
        return
    own = benchmark_in_clause(sentence, c.value)
    several = len(benchmarks_named(sentence)) > 1
    # "将自然语言理解、目标物体检测、语音识别任务的AI训练速度分别提升22%、18%、14%": a
    # "respectively" list binds its figures to its names in order (the parser's
    # binding); the clause that holds a figure is then only the list's tail
    if own and own != c.benchmark_key and several and not _RESPECTIVELY.search(sentence):
        fields["benchmark_key"] = own
        ctx.append("benchmark-clause")
        return
    replaced = _replaced(sentence)
    if several and c.benchmark_key and c.benchmark_key in replaced:
        # "Llama 3.1 8B replaced BERT-large and NVIDIA reported a 5.2 minute training
        # time": a benchmark the sentence says was replaced is not the figure's
        kept = [k for k in benchmarks_named(sentence) if k not in replaced]
        fields["benchmark_key"] = kept[0] if len(kept) == 1 else ""
        ctx.append("benchmark-replaced")
        return
    if c.benchmark_key:
        return
    # a count of accelerators reads every benchmark of its round when its sentence and
    # the title name none (verdicts._verify_scale): one named elsewhere on the page
    # ("In previous 2023 benchmarks ... GPT-3") is not the count's
    key, tag = from_page(
        "benchmark",
        benchmarks_named(sentence),
        benchmarks_named(page.title),
        benchmarks_named(page.text) if c.kind != "scale" else [],
    )
    if key:
        fields["benchmark_key"] = key
        ctx += [tag] if tag else []


def _year_fields(
    c: ClaimFacts,
    subject_side: str,
    rounds: Mapping[str, date],
    fields: dict[str, object],
    ctx: list[str],
) -> bool:
    """The round of a claim whose subject's side gives its results a year ("In previous
    2023 benchmarks, Azure ... in approximately 4 minutes" on a page about v4.1): the
    year's one round (``round-year``), or none and the year's tag (each of its rounds a
    reading); True when the year decided it, False when it gives none or the claim's
    round is one of the year's."""
    year, in_year = words.year_rounds(subject_side, rounds)
    if not in_year or c.round in in_year or (c.round and "round" not in c.context):
        return False
    if len(in_year) == 1:
        fields["round"] = in_year[0]
        ctx.append("round-year")
    else:
        fields["round"] = ""
        ctx.append(f"{words.YEAR_TAG}{year}")
    return True


def carried_benchmark_fields(
    c: ClaimFacts,
    sentence: str,
    page: PageContext,
    rnd: str,
    fields: dict[str, object],
    ctx: list[str],
) -> None:
    """Drop a benchmark the claim took from another sentence (its own names none) when
    the claim's round ``rnd`` has no such benchmark: "1,024 个 Hopper GPU 在 2.5 分钟内完成了
    基于 Stable Diffusion ... (v3.1) ... 6 月份 ... 当时英伟达使用了 3,584 个 Hopper GPU"
    (v3.0, which had no Stable Diffusion): the benchmark is then found as when none was
    carried (:func:`from_page`: the title's, else for a claim that is no count the
    page's one), kept only if the round has it, else none (a count reads every
    benchmark of its round; another claim names none); ``benchmark-not-in-round``.
    Training only; a round whose benchmarks benchdb does not know keeps the benchmark."""
    key = str(fields.get("benchmark_key", c.benchmark_key))
    if not key or not rnd or (c.suite or "training") != "training" or "suite-hpc" in c.context:
        return
    if benchmarks_named(sentence):
        return  # the sentence's own benchmark stands (or is another slot's question)
    known = round_facts.round_benchmarks("training", rnd)
    if known is None or canonical_benchmark(key, rnd) in known:
        return
    again, tag = from_page(
        "benchmark",
        [],
        benchmarks_named(page.title),
        benchmarks_named(page.text) if c.kind != "scale" else [],
    )
    fields["benchmark_key"] = again if canonical_benchmark(again, rnd) in known else ""
    ctx += ["benchmark-not-in-round", *([tag] if fields["benchmark_key"] else [])]


#: A comparison word right before what it compares with ("相比去年", "than last year").
_COMPARED_WITH = re.compile(
    r"(?:相比|相较|相較|对比|對比|than|compared (?:to|with)|versus|vs\.?|relative to|over)"
    r"\s*(?:the\s+)?",
    re.I,
)


def _date_compared(sentence: str) -> bool:
    """Whether ``sentence`` compares with a date relative to the page's ("其 512 个 H100
    GPU 配置相比去年提高了 27%", "faster than last year"): that date is the compared
    side's, not the subject's figure's (a count, a time), whose round it does not move;
    a gain's it is (its baseline)."""
    return any(words.RELATIVE.match(sentence, m.end()) for m in _COMPARED_WITH.finditer(sentence))


_RESPECTIVELY = re.compile(r"分别|分別|\brespectively\b", re.I)

#: A benchmark named as replaced ("X replaced Y", "replacing Y", "in place of Y").
_REPLACED = re.compile(
    r"(?i:\breplac(?:ed|es|ing)|\bin place of|\binstead of|\bsupersed(?:ed|es|ing))"
    r"\s+(?:the\s+)?(?P<what>[^,;.]{1,40})"
)


def _replaced(sentence: str) -> set[str]:
    """Benchmark keys ``sentence`` names as replaced (:data:`_REPLACED`)."""
    out: set[str] = set()
    for m in _REPLACED.finditer(sentence):
        out.update(benchmarks_named(m.group("what"))[:1])
    return out


def _model_fields(c: ClaimFacts, sentence: str, fields: dict[str, object], ctx: list[str]) -> None:
    """An inference claim's model when its sentence names several: the one its
    figure's clause names ("...RetinaNet..., 3D U-Net医疗成像网络测试也能提升31%": 31%
    is 3D U-Net's); none when its clause names none ("在不同测试项目中提升了7-54%":
    across tests, not RetinaNet's), so that no one model's results are judged."""
    if len(models_named(sentence)) < 2:
        return
    own = models_named(clause_of(sentence, c.value))
    key = own[0] if len(own) == 1 else ""
    if key != c.benchmark_key:
        fields["benchmark_key"] = key
        ctx.append("benchmark-clause" if key else "benchmark-open")


def round_fields(
    c: ClaimFacts,
    sentence: str,
    subject_side: str,
    page: PageContext,
    rounds: Mapping[str, date],
    fields: dict[str, object],
    ctx: list[str],
) -> None:
    """The round: named in the subject's side of the sentence, else in the title or
    the page (the one it names), the URL, or a version benchdb does not hold ("MLPerf
    6.0": that round, so that no other is judged), else a date relative to the page's
    ("last June", "今年6月"; on a page with no date, relative to the round its words
    fix: :func:`benchdb.claims.page_round.relative_round`, ``round-relative-open`` when
    they fix none); a gain's relative date ("这比6月份的刷新记录的成绩") is its baseline,
    and one compared with dates no other figure (:func:`_date_compared`). A year the
    subject's side gives its results ("In previous 2023 benchmarks") over the page's
    round: its one round (``round-year``), or none and ``YEAR_TAG`` (each a reading)."""
    if "suite-hpc" in c.context:
        return  # its round is an HPC round, named or none (resolve_suite)
    suite = c.suite or "training"
    named = [r for r in rounds_named(subject_side, suite, rounds) if r != c.baseline]
    if not named and _year_fields(c, subject_side, rounds, fields, ctx):
        return
    dated = subject_side if c.kind not in GAINS and _date_compared(sentence) else sentence
    relative = words.relative_round(dated, page.published, rounds)
    if page.published is None:  # a page dated only by its words (benchdb.claims.page_round)
        fixed = page_round.page_round(page.title, page.text, suite).round
        relative, open_why = page_round.relative_round(dated, fixed, rounds)
        if open_why:
            ctx.append(page_round.OPEN_TAG)
    if relative and c.kind in GAINS and relative != c.round and not c.compared_system:
        if c.baseline in ("", "previous-round") or c.baseline.startswith("best:"):
            best = BEST.search(sentence) or c.baseline.startswith("best:")
            fields["baseline"] = f"best:{relative}" if best else relative
            ctx.append("baseline-relative")
        relative = ""
    if relative and not named and c.round != relative and (not c.round or "round" in c.context):
        # the sentence's own date ("In June, Gaudi 2 trained GPT-3 in 311.94 minutes" on
        # a page about the November round) is nearer its figure than the page's round
        fields["round"] = relative
        ctx.append("round-relative")
    elif named and c.round and "round" in c.context and named[0] != c.round:
        # a round carried from an earlier sentence yields to the one this one names
        fields["round"] = named[0]
        ctx.append("round-words")
    elif not c.round:
        rnd, tag = from_page(
            "round",
            named,
            rounds_named(page.title, suite, rounds),
            rounds_named(page.text, suite, rounds),
        )
        if not rnd:
            rnd, tag = words.round_elsewhere(sentence, page.title, page.url, suite, rounds)
            if not rnd and relative:
                rnd, tag = relative, "round-relative"
        if rnd:
            fields["round"] = rnd
            ctx.append(tag or "round-words")

"""The round of a page that names none and has no date, from words that fix it
without any claimed figure: a benchmark the page calls new in its round ("在本轮新的
生成式AI测试中…Stable Diffusion", "the newly added Llama 2 70B LoRA benchmark") is in
the round whose rules first list it; and a date a claim's sentence gives relative to
that round ("6月份的刷新记录": the June round before it). Pure: no Django.

Signals (:func:`signals`), each read from one sentence of the page and none from a
number:

* **new benchmark**: the sentence says a benchmark is new (:data:`_NEW`: "a new test
  for ... Stable Diffusion", "the newly added X benchmark", 新的…测试, 新工作负载,
  新加入, 首次将…引入), names exactly one benchmark of the suite
  (:func:`benchmarks_in`; for inference, or several all new in one round: "两个新的基准
  测试:Llama 2 70B和Stable Diffusion XL", and no new scenario of a model: "the new
  Llama 2 70B Interactive benchmark" is v5.0's, the model v4.0's), names no other
  time (a version, a date relative to the page's, "last round", 上一轮: then "new" may
  be another round's) and names the suite
  or sits on a page naming only it (:func:`benchdb.claims.round_facts.suite_clear`).
  Its round is the one round whose list first has the benchmark
  (:func:`benchdb.claims.round_facts.new_benchmarks`, from mlperf_logging's
  ``_ALL_ALLOWED_BENCHMARKS``); none when the benchmark is new in no or several
  rounds, or a list is unknown. Training and HPC read mlperf_logging's lists;
  MLPerf Inference reads each round's submission checker's model list
  (``MODEL_CONFIG[<round>]["models"]``:
  :func:`benchdb.mlperf.inference.scenarios.round_models`), a model being its name
  without the accuracy or edge variant (``llama2-70b-99.9`` is ``llama2-70b``), and a
  name the press writes for two models ("DLRM": the v0.7 DLRM and v3.1's DLRM-v2,
  :data:`_INFERENCE_ALIASES`) new in different rounds gives none.

The page round (:func:`page_round`) is the round every signal gives; signals that
disagree give none (and say so), as does a page naming only other rounds of the
suite. A page speaking of "this round" as current is dated between its round's
publication and the next round's: a month named without a year
("June", 6月份) is then the latest round up to the page round published that month
(:func:`relative_round`); a year-relative phrase ("last year", 去年, "今年6月") must
mean the same round from both ends of that window, else it is left open (a claim with
such words is read in every round, :mod:`benchdb.claims.undated`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta

from benchdb.claims import resolve_words
from benchdb.claims.round_facts import new_benchmarks, suite_clear, suite_rounds
from benchdb.claims.subjects import MARKETED_BENCHMARKS, find_mentions
from benchdb.mlperf.inference.scenarios import round_models
from benchdb.vocabulary import BENCHMARKS, INFERENCE_MODEL_NAMES

#: The context tag of a claim whose round is its page's round (:func:`page_round`),
#: and the tag prefix carrying why (``page-round:v3.1: stable_diffusion is new in ...``).
TAG = "round-page-words"
WHY_TAG = "page-round:"
#: The context tag of a claim whose sentence's date words fix no round relative to its
#: page round (it is read in every round, :mod:`benchdb.claims.undated`).
OPEN_TAG = "round-relative-open"

#: "New" said of a test: in English an article, "this round's" or a count before "new"
#: and a test noun after it, or "newly added/introduced" before one (not "new MLPerf
#: benchmarks", "new benchmark records", "a new round of tests", "a new industry
#: benchmark"); in Chinese 新加入, 首次(将…)引入/加入, 新(的)…测试/基准/工作负载 (not 最新
#: "latest", 刷新 "refresh", 创新, 更新, 重新, not 新的一轮 "a new round", not a record:
#: 新的…测试纪录). A product named inside the phrase makes it the product's
#: (:func:`says_new`).
_NOT_A_TEST = (
    r"(?!(?:[\w.+-]+\s+){0,5}?(?:round|version|release|edition|set|batch|results?|records?"
    r"|mlperf|training|inference|industry|performance|standard|high|bar)\b)"
)
_TEST_NOUN = (
    r"(?:benchmark|test|workload|task)s?\b(?!\s+(?:records?|for\s+(?:speed|performance"
    r"|scal\w*|efficiency|excellence|the\s+industry|others))\b)"
)
_NEW = re.compile(
    r"(?i:\b(?:the|a|this\s+round's|this\s+year's|its|two|three|four)\s+(?:brand[- ])?new\s+"
    rf"{_NOT_A_TEST}(?:[\w.+-]+\s+){{0,5}}?{_TEST_NOUN}"
    rf"|\bnewly[- ](?:added|introduced|included)\s+(?:[\w.+-]+\s+){{0,5}}?{_TEST_NOUN})"
    r"|新加入的?|首次将?[^，,。；;]{0,20}?(?:加入|纳入|納入|引入)"
    r"|(?<![刷创創最更重革])新的?(?!的?一?(?:轮|輪|届|屆|版|次))"
    r"(?:[^，,。；;\d]{0,10}?)(?:测试|測試|基准|基準|工作负载|工作負載|任务|任務)"
    r"(?!的?(?:纪录|紀錄|记录|記錄|成绩|成績|标杆|標杆))"
)
#: Another time named in the sentence: then its "new" may be another round's.
#: "Set a new benchmark", "establishing a new industry benchmark", 树立了新的基准: a
#: record or a standard, not a test.
_IDIOM = re.compile(
    r"(?i:\b(?:set|sets|setting|establish\w*|creat\w*|achiev\w*|rais\w*|represent\w*"
    r"|mark\w*|becom\w*|defin\w*|provid\w*|deliver\w*|offer\w*)\s*$)"
    r"|(?:树立|樹立|设立|設立|设定|設定|创下|創下|确立|確立|打造|立下)了?\s*$"
)
_OTHER_TIME = re.compile(
    r"(?i:\b(?:last|previous|prior|earlier|past|next|upcoming|future)\s+(?:round|release"
    r"|version|edition|year)s?\b|\b(?:v|version\s*|MLPerf[^\d.,;]{0,20}?)\d{1,2}\.\d\b"
    r"|\b(?:19|20)\d\d\b)"
    r"|上一?(?:轮|輪|次|届|屆|版)|前一?(?:轮|輪|届|屆)|下一?(?:轮|輪|次|届|屆)|去年|明年|\d{4}年"
)
_SENTENCE = re.compile(r"(?<=[。！？!?])|(?<=[.;])\s+(?=[A-Z\"“])|\n+")


@dataclass(frozen=True)
class Signal:
    """A page's words fixing its round: ``round`` (``v3.1``), ``why`` ("Stable
    Diffusion (stable_diffusion) is new in MLPerf Training v3.1") and ``words`` (the
    sentence, at most 120 characters)."""

    round: str
    why: str
    words: str


@dataclass(frozen=True)
class PageRound:
    """The round a page's words fix (``round``, "" when none or when they disagree)
    and why: the signals' reasons, or the disagreement."""

    round: str
    why: str


def says_new(sentence: str) -> bool:
    """Whether ``sentence`` calls a test new (:data:`_NEW`), not in the idiom "set a
    new benchmark" (a record) and not of a product ("the new H200 ran the BERT
    benchmark": a product is new, not the test; :func:`find_mentions`)."""
    return any(
        not _IDIOM.search(sentence[max(0, m.start() - 20) : m.start()])
        and not find_mentions(m.group(0))
        for m in _NEW.finditer(sentence)
    )


def benchmarks_in(sentence: str, suite: str = "training") -> list[str]:
    """The benchmark keys ``sentence`` names (training's vocabulary; for ``inference``
    the models of ``vocabulary.INFERENCE_MODEL_NAMES``, "DLRM" written without "v2"
    being ``dlrm|dlrm-v2``), leaving out a key whose every mention lies inside another
    key's ("DLRM" in "DLRM-DCNv2")."""
    spans: list[tuple[int, int, str]] = []
    if suite == "inference":
        for pat, key in INFERENCE_MODEL_NAMES:
            for m in re.finditer(pat, sentence, re.I):
                own = _INFERENCE_ALIASES.get(key)
                said = own is not None and not own[0].match(sentence, m.end())
                spans.append((m.start(), m.end(), own[1] if said and own else key))
    else:
        for pat, key in (*MARKETED_BENCHMARKS, *BENCHMARKS):
            spans += [(m.start(), m.end(), key) for m in re.finditer(pat, sentence, re.I)]
    keys: dict[str, None] = {}
    for start, end, key in sorted(spans):
        inside = any(
            k != key and s <= start and end <= e and (e - s) > (end - start) for s, e, k in spans
        )
        if not inside:
            keys[key] = None
    return list(keys)


#: Inference model keys a page may write without saying which of two checker models it
#: is: (the words that say the later one, right after the name; "key|older" when they
#: are not there). "DLRM" is v0.7's ``dlrm`` or v3.1's ``dlrm-v2`` (DCNv2).
_INFERENCE_ALIASES: dict[str, tuple[re.Pattern[str], str]] = {
    "dlrm-v2": (re.compile(r"[ -]?(?:v2|DCN[ -]?v2)", re.I), "dlrm-v2|dlrm"),
}
_VARIANT = re.compile(r"-(?:99(?:\.9)?|95|edge)$")


def inference_models(rnd: str) -> frozenset[str] | None:
    """The models of MLPerf Inference round ``rnd`` (``v4.0``) without their accuracy or
    edge variants (``llama2-70b``, ``3d-unet``, ``llama3.1-8b``), from the round's
    submission checker (``MODEL_CONFIG[<round>]["models"]``, v0.5 ``VALID_MODELS``:
    :func:`benchdb.mlperf.inference.scenarios.round_models`); None for a round benchdb
    has no list of."""
    m = re.fullmatch(r"v(\d+)\.(\d+)", rnd)
    models = round_models((int(m.group(1)), int(m.group(2)))) if m else frozenset()
    return frozenset(_VARIANT.sub("", x) for x in models) or None


def _new_in(suite: str, rnd: str) -> frozenset[str] | None:
    """The benchmarks (models) new in ``rnd`` of ``suite``; None when unknown or the
    suite's first round."""
    if suite != "inference":
        return new_benchmarks(suite, rnd)
    rounds = suite_rounds(suite)
    if rnd not in rounds or rounds.index(rnd) == 0:
        return None
    now, before = inference_models(rnd), inference_models(rounds[rounds.index(rnd) - 1])
    return None if now is None or before is None else now - before


def _first_new(suite: str, key: str) -> str:
    """The one round of ``suite`` in which ``key`` (or, for ``a|b``, each model it may
    be) is new; "" when none, several, or the names' rounds differ."""
    firsts = [
        [r for r in suite_rounds(suite) if k in (_new_in(suite, r) or ())] for k in key.split("|")
    ]
    found = {r for f in firsts for r in f}
    return found.pop() if len(found) == 1 and all(firsts) else ""


_SUITE_WORDS = {"training": "MLPerf Training", "hpc": "MLPerf HPC", "inference": "MLPerf Inference"}


@functools.lru_cache(maxsize=64)
def signals(title: str, text: str, suite: str) -> tuple[Signal, ...]:
    """The new-benchmark signals (module docstring) of the page (``title`` and
    ``text``) for ``suite`` (``training``, ``hpc`` or ``inference``; () for another),
    in page order."""
    if suite not in _SUITE_WORDS:
        return ()
    page = f"{title}\n{text}"
    out = []
    for sentence in _SENTENCE.split(page):
        if not says_new(sentence) or _OTHER_TIME.search(sentence):
            continue
        keys = benchmarks_in(sentence, suite)
        if not suite_clear(suite, sentence, page) or not _one_round_of_keys(suite, keys, sentence):
            continue
        rnd = _first_new(suite, keys[0])
        why = f"{', '.join(keys)} {'is' if len(keys) == 1 else 'are'} new in"
        out.append(Signal(rnd, f"{why} {_SUITE_WORDS[suite]} {rnd}", sentence.strip()[:120]))
    return tuple(out)


#: A new scenario or serving variant of a model the suite already has ("The new Llama 2
#: 70B Interactive benchmark": v5.0's, Llama 2 70B being v4.0's): not the model's round.
_VARIANT_WORDS = re.compile(r"(?i:\binteractive\b|low[- ]latency)|交互|低延迟|低延遲")


def _one_round_of_keys(suite: str, keys: list[str], sentence: str) -> bool:
    """Whether the benchmarks ``keys`` a "new" sentence names fix one round: exactly one
    benchmark with one first round; for inference, also several all first listed in
    the same round ("两个新的基准测试:Llama 2 70B和Stable Diffusion XL", both v4.0's),
    and never a sentence on a new scenario of a model (:data:`_VARIANT_WORDS`)."""
    if not keys or (len(keys) > 1 and suite != "inference"):
        return False
    if suite == "inference" and _VARIANT_WORDS.search(sentence):
        return False
    return len({_first_new(suite, k) for k in keys} - {""}) == 1 and all(
        _first_new(suite, k) for k in keys
    )


def page_round(title: str, text: str, suite: str) -> PageRound:
    """The round every signal of the page gives for ``suite`` (:func:`signals`), with
    why ("stable_diffusion is new in MLPerf Training v3.1 ('在本轮新的…')");
    ``PageRound("", "")`` with no signal, ``PageRound("", why)`` when they disagree
    or the page names rounds of the suite ("MLPerf Training v4.0") and not theirs."""
    found = signals(title, text, suite)
    rounds = sorted({s.round for s in found})
    if not rounds:
        return PageRound("", "")
    whys = "; ".join(dict.fromkeys(f"{s.why} ({s.words!r})" for s in found))
    if len(rounds) > 1:
        return PageRound("", f"the page's words give different rounds: {whys}")
    named = resolve_words.versions_named(f"{title}\n{text}", suite)
    if named and rounds[0] not in named:  # the page names other rounds only
        return PageRound("", f"{whys}, but the page names {', '.join(named)}")
    return PageRound(rounds[0], whys)


#: A page speaking of its round as current is dated before the suite's next round; with
#: no next round known, within this long of its round (MLPerf rounds are half-yearly).
_LAST_ROUND_WINDOW = timedelta(days=182)


def window(rnd: str, rounds: Mapping[str, date]) -> tuple[date, date] | None:
    """(first, last) day a page calling ``rnd`` its current round may be dated:
    from ``rnd``'s publication to the day before the suite's next round's
    (``rounds``: round -> publication date); None when ``rnd`` has no date."""
    if rnd not in rounds:
        return None
    start = rounds[rnd]
    later = [d for d in rounds.values() if d > start]
    end = min(later) - timedelta(days=1) if later else start + _LAST_ROUND_WINDOW
    return start, end


def relative_round(sentence: str, rnd: str, rounds: Mapping[str, date]) -> tuple[str, str]:
    """(round, "") a date in ``sentence`` relative to the page means, the page being
    in round ``rnd`` (:func:`window`); ("", why) when its phrases are open or disagree;
    ("", "") when it has none. A month without a year (6月份, "June") is the latest
    round up to ``rnd`` published that month; other phrases ("last year", 去年,
    "今年6月", "a year ago") must give the same round from both ends of the window
    (:func:`benchdb.claims.resolve_words.relative_round` at each end, over the rounds
    published by then)."""
    span = window(rnd, rounds)
    if span is None:
        return "", ""
    found: set[str] = set()
    for m in resolve_words.RELATIVE.finditer(sentence):
        month = m.group("month") or ""
        if month[:1].islower() or (month == "May" and not m.group("mod")):
            continue  # "may", "march": verbs (resolve_words.relative_dates)
        if month and not m.group("mod"):
            found.add(_month_round(m.group(0), rnd, rounds))
            continue
        ends = {
            resolve_words.relative_round(
                m.group(0), end, {r: d for r, d in rounds.items() if d <= end}
            )
            for end in span
        }
        found.add(ends.pop() if len(ends) == 1 else "")
    if not found:
        return "", ""
    if len(found) > 1 or "" in found:
        return "", f"its date words do not fix one round relative to the page round {rnd}"
    return found.pop(), ""


def _month_round(phrase: str, rnd: str, rounds: Mapping[str, date]) -> str:
    """The latest round up to ``rnd`` published in the month ``phrase`` names ("" if
    none or unread)."""
    when = resolve_words.parse_phrase(phrase, rounds[rnd])
    if when is None:
        return ""
    same = [r for r, d in rounds.items() if d <= rounds[rnd] and d.month == when.month]
    return max(same, key=lambda r: rounds[r]) if same else ""


__all__ = [
    "OPEN_TAG",
    "PageRound",
    "Signal",
    "TAG",
    "WHY_TAG",
    "benchmarks_in",
    "inference_models",
    "page_round",
    "relative_round",
    "signals",
    "window",
]

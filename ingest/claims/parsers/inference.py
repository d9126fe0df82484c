"""Claims of a page about MLPerf Inference: what ``claim_text`` found, read as
inference claims. Pure: no Django.

A page is about inference when it names "MLPerf Inference". Its claims then get
``suite="inference"`` and, from their sentence: the inference model
(``benchdb.vocabulary.INFERENCE_BENCHMARKS`` without the accuracy variant: "Llama 2
70B" -> ``llama2-70b``), the scenario when named, the systems (``GB200 NVL72``,
``H200 NVL8``, an accelerator), the round (named in the sentence, else the one round
the page names: ``round-page``), whether the figure is per accelerator. It also reads
what the training patterns do not: a decimal comma (``4,4x``), and gains in words
("nearly tripled", "more than triple"). Training pages are left as they are.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import replace

from benchdb.claims.facts import BATCH_ONE
from benchdb.vocabulary import INFERENCE_MODEL_NAMES

from .patterns import NOT_A_GAIN_AFTER
from .types import Claim

#: A page about MLPerf Inference.
INFERENCE_PAGE = re.compile(r"MLPerf\s+Inference", re.I)

#: (pattern, model): ``ResultFacts.model`` (the checker's benchmark name without -99/-99.9).
MODELS = INFERENCE_MODEL_NAMES
_SCENARIO = re.compile(r"\b(Offline|Server|Interactive|Single[- ]?Stream|Multi[- ]?Stream)\b")
#: System mentions, most specific first: a rack or node (``GB200 NVL72``), a cloud VM,
#: an accelerator.
_SYSTEM = re.compile(
    r"\b(?:(?:GB|B|H)\d{3}\s+NVL\d+|ND\s+GB200\s+v6|(?:GB|B|H|A|L)\d{2,3}|MI3\d{2}X?)\b"
)
_ROUND = re.compile(r"MLPerf[™®]?(?:\s+Inference)?\s+v?(\d+\.\d+)(?![\d.])", re.I)
#: Words that put a round named after them in their sentence on the compared side
#: ("... compared to Cascade Lake ... in MLPerf Inference v0.7": a baseline's round).
_COMPARED_BEFORE = re.compile(r"compared (?:to|with)|\bvs\.?|\bversus\b|\bthan\b|relative to", re.I)
_WORDS = re.compile(
    r"(?:(?P<q>nearly|almost|more than|over|about)\s+)?"
    r"\b(?P<w>doubl|tripl|quadrupl)(?:e[sd]?|ing)\b" + NOT_A_GAIN_AFTER,
    re.I,
)
_TIMES = {"doubl": 2.0, "tripl": 3.0, "quadrupl": 4.0}
#: Words near a gain that make it a hardware figure or a projection, not a result.
_NOT_RESULTS = re.compile(
    r"NVLink|interconnect|theoretical|TFLOPS|bandwidth|efficiency|CPU-to-GPU|projected", re.I
)
_END = re.compile(r"[.!?](?=\s)|\n")
_BOUNDS = re.compile(r"\b(TTFT|TPOT)\b")


def inference_claims(text: str, claims: list[Claim]) -> list[Claim]:
    """``claims`` of a page about MLPerf Inference (:data:`INFERENCE_PAGE`) read as
    inference claims (module docstring), with the gains in words added, in text
    order; ``claims`` unchanged for any other page. ``text``: the text the claims'
    spans point into."""
    if not INFERENCE_PAGE.search(text):
        return [_inference_sentence(text, c) for c in claims]
    rounds = {m.group(1) for m in _ROUND.finditer(text) if not _compared_round(text, m)}
    page_round = f"v{rounds.pop()}" if len(rounds) == 1 else ""
    out = [_read(text, _decimal_comma(text, c), page_round) for c in claims]
    taken = {(c.start, c.end) for c in out}
    for m in _WORDS.finditer(text):
        if (m.start("w"), m.end()) not in taken:
            out.append(_read(text, _word_gain(text, m), page_round))
    out.sort(key=lambda c: (c.start, c.end))
    return out


#: Models MLPerf Inference has and MLPerf Training never had: a figure in a paragraph
#: about one of them is an inference figure, even on a page about training.
_INFERENCE_ONLY = re.compile(
    r"GPT-?J|Stable Diffusion XL|SDXL|Mixtral|DeepSeek[ -]?R1|Whisper|Qwen[ -]?3[ -]?VL"
    r"|Wan[ -]?2\.2|\binference\b",
    re.I,
)


def _inference_sentence(text: str, c: Claim) -> Claim:
    """A claim of a page about training whose sentence names inference, or whose
    paragraph up to it names an inference-only model (se7enesport's "On GPTJ-99, ...
    The H100 is just 9% faster ... in Server throughput benchmarks"), read as an
    inference claim (:func:`_read`); the systems the training reading found are kept,
    and a round it named (a training round) is dropped. Other claims unchanged."""
    if c.source != "text":
        return c
    sent = text[c.sentence_start : c.sentence_end]
    # at most 2,000 characters back: a page on one line stays linear
    para_start = max(c.sentence_start - 2000, 0)
    nl = text.rfind("\n", para_start, c.sentence_start)
    para = text[nl + 1 if nl >= 0 else para_start : c.sentence_end]
    if not (_INFERENCE_ONLY.search(para) and _first_model(para)) and not re.search(
        r"\binference\b", sent, re.I
    ):
        return c
    read = _read(text, replace(c, round=""), "")
    if c.system:
        read = replace(read, system=c.system, compared_system=c.compared_system)
    return replace(read, baseline=c.baseline if not read.compared_system else "")


def _decimal_comma(text: str, c: Claim) -> Claim:
    """``4,4x``: the parser read ``4x`` (a comma followed by one or two digits and a
    multiplier sign is a decimal comma, not a thousands separator)."""
    if c.kind != "multiplier" or not re.match(r"\d{1,2}\s*[x×]", text[c.start : c.end]):
        return c
    # the digits just before the comma, read backwards (a regex search of the text up
    # to each claim was quadratic in the page, issue 21)
    first = c.start - 1
    while first > 0 and text[first - 1].isdecimal():
        first -= 1
    if first >= c.start - 1 or text[c.start - 1] != ",":
        return c
    digits = re.match(r"\d+", text[c.start :])
    assert digits is not None  # matched above
    whole = text[first : c.start - 1]
    return replace(c, value=float(f"{whole}.{digits.group()}"), start=first)


def _sentence(text: str, start: int) -> tuple[int, int]:
    """The sentence around ``start``: from after the last ". " (or line end) before
    it to the next one ("3.1" is no sentence end)."""
    ends = _ends(text)  # bisected, not searched from 0 per call (quadratic, issue 21)
    k = bisect.bisect_right(ends, start)
    if k and ends[k - 1] == start and text[start - 1] != "\n":
        k -= 1  # a "." right before start: its space lies past start, where it was not seen
    nxt = bisect.bisect_right(
        ends, start
    )  # the first end whose "." or newline is at start or later
    return (ends[k - 1] if k else 0), (ends[nxt] if nxt < len(ends) else len(text))


@functools.lru_cache(maxsize=4)
def _ends(text: str) -> list[int]:
    """Where each :data:`_END` match of ``text`` ends, in order (per page, once)."""
    return [m.end() for m in _END.finditer(text)]


def _word_gain(text: str, m: re.Match[str]) -> Claim:
    s0, s1 = _sentence(text, m.start("w"))
    qual = (m.group("q") or "").lower()
    return Claim(
        kind="multiplier",
        value=_TIMES[m.group("w").lower()],
        unit="x",
        qualifier={"almost": "nearly", "over": "more than"}.get(qual, qual),
        qualifier_text=m.group("q") or "",
        metric="throughput",
        mlperf_context=True,
        sentence=text[s0:s1].strip(),
        sentence_start=s0,
        sentence_end=s1,
        start=m.start("w"),
        end=m.end(),
    )


def _compared_round(text: str, m: re.Match[str]) -> bool:
    """Whether the round named at ``m`` stands on the compared side of its sentence
    (after "compared to", "vs", "than"): the round of a baseline, not of the page."""
    start = max((e.end() for e in _END.finditer(text, 0, m.start())), default=0)
    return _COMPARED_BEFORE.search(text, start, m.start()) is not None


#: A heading line: short, no sentence end and no table cell (a section's title).
_HEADING = re.compile(r"[^\n.!?。|]{3,100}")


def _heading_scenario(text: str, at: int) -> re.Match[str] | None:
    """The scenario a section heading names for the paragraph at ``at`` ("Data Center
    Offline Scenario - Llama 2 70B" over "H200 achieves ... 40% faster than H100"):
    the nearest non-empty line above the paragraph, when it is a heading (short, no
    sentence end) naming exactly one scenario; else None."""
    start = text.rfind("\n", 0, at)
    lines = text[max(0, start - 400) : max(start, 0)].split("\n")
    line = next((ln.strip() for ln in reversed(lines) if ln.strip()), "")
    found = list(_SCENARIO.finditer(line))
    if not _HEADING.fullmatch(line) or len({m.group(1) for m in found}) != 1:
        return None
    return found[0]


def _read(text: str, c: Claim, page_round: str) -> Claim:
    """``c`` with the suite, model, scenario, systems, round and normalisation its
    sentence (and paragraph) give."""
    sent = text[c.sentence_start : c.sentence_end]
    para = text[text.rfind("\n", 0, c.sentence_start) + 1 : c.sentence_end]
    model = _first_model(sent) or _first_model(para)
    scen = _SCENARIO.search(sent) or _heading_scenario(text, c.sentence_start)
    context = c.context
    rnd = c.round or next((f"v{m.group(1)}" for m in _ROUND.finditer(sent)), "")
    if not rnd and page_round:
        rnd, context = page_round, context + ("round-page",)
    after = text[c.end : c.end + 40]
    attrs: dict[str, object] = {
        "suite": "inference",
        "benchmark_key": model[1] if model else "",
        "benchmark": model[0] if model else c.benchmark,
        "scenario": (scen.group(1).replace(" ", "").replace("-", "") if scen else ""),
        "round": rnd,
        "context": context,
        # a model names the benchmark; a batch size of 1 still names no result of it
        "non_mlperf": "" if model and c.non_mlperf != BATCH_ONE else c.non_mlperf,
        "per_accelerator": bool(re.search(r"per[ -](?:GPU|accelerator|chip)", after)),
    }
    gain = c.kind in ("multiplier", "percentage")
    attrs |= _systems(text, c, gain)
    bound = _BOUNDS.search(text, c.end, min(c.end + 30, c.sentence_end))
    if bound and gain:
        attrs["metric"] = f"latency-bound:{bound.group(1)}"
    elif _NOT_RESULTS.search(text[max(0, c.start - 40) : c.end + 40]) and gain:
        attrs["metric"] = "hardware"
    return replace(c, **attrs)  # type: ignore[arg-type]


def _systems(text: str, c: Claim, gain: bool) -> dict[str, object]:
    """The subject system (the mention before the figure, else after it) and, for a
    gain, the compared one (the next other mention after it); from the sentence
    before when the claim's own names none (``system`` context)."""
    mentions = list(_SYSTEM.finditer(text, c.sentence_start, c.sentence_end))
    context = c.context
    if not mentions:
        prev = _sentence(text, max(c.sentence_start - 2, 0))[0]
        mentions = list(_SYSTEM.finditer(text, prev, c.sentence_start))
        context = context + ("system",) if mentions else context
    if not mentions:  # a system the training reading carried from afar is not kept
        return {"system": ""} if "system" in c.context else {}
    before = [m for m in mentions if m.end() <= c.start]
    after = [m for m in mentions if m.start() >= c.end or m.end() <= c.start and not gain]
    inside = [m for m in mentions if m.start() < c.end and m.end() > c.start]  # "8x MI300Xs"
    if context != c.context:
        subject = mentions[0]
    else:
        subject = (inside or before[-1:] or after or mentions)[0]
    out: dict[str, object] = {"system": _spaces(subject.group())}
    rest = [m for m in mentions if m.start() > subject.start() and m.group() != subject.group()]
    if gain and rest:
        out |= {"compared_system": _spaces(rest[0].group()), "baseline": "", "context": context}
    elif context != c.context:
        out["context"] = context
    return out


def _spaces(s: str) -> str:
    return re.sub(r"\s+", " ", s)


def _first_model(s: str) -> tuple[str, str] | None:
    found = [(m.start(), m.group(), key) for pat, key in MODELS for m in re.finditer(pat, s, re.I)]
    return min(found)[1:] if found else None

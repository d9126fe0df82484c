"""Numeric claims in vendor pages, English and Chinese (simplified and traditional).

Pure: no Django. ``extract_claims(text, tables=...)`` -> list of :class:`Claim`.

What is found (``Claim.kind``):

* ``time``: a time to train (min, mins, minutes, s, seconds, hours; 分钟 分鐘 秒 小时 小時);
* ``head_to_head``: two times on two systems in one sentence with a comparison word
  (vs, compared to/with, than, while, whereas; 而 相比 相较 相較 对比 對比). ``value``
  is the faster side (the one the claim advertises), ``compared_value`` the other;
* ``multiplier``: x, ×, times, -fold, 倍 (``8x H100`` is a scale, not a multiplier);
* ``percentage``: %, percent (提升/提高/快 N% are percentages with a gain word);
* ``scale``: N GPUs, IPUs, TPUs, HPUs, chips, accelerators, nodes, cards; N 个/個 IPU,
  GPU, 节点/節點, 系统/系統; N 颗/顆/张/張;
* ``parity``: "X performs like / is similar to / on par with / matches Y" (相当 相當
  持平 媲美) between two frameworks or two systems; no number: ``value`` 0 (%);
* ``spec``: hardware figures (TFLOPS, GB, MB, TB, GHz, nm): never an MLPerf metric;
* ``throughput``: tokens/s, samples/s, images/s: not MLPerf Training's metric;
* ``count``: wins, records, tasks, results, organizations (N 项冠军, 14家公司, 180项...成绩,
  "more than 50 other members"): counts that need a whole round to check.

Each claim carries what it is about, looked up in this order: its own clause (the
clause holding the number plus following clauses that hold no number and no
system), then the sentence, then earlier sentences of the same paragraph. Systems
that stand on the compared side of a comparison ("compared to ... DGX A100") are
not taken as the subject. Rounds are taken only when named (``v1.1``, "MLPerf
Training 2.0", "MLPerf 1.1"); a round named after "vs", "since", 相较/相比 is the
baseline of a gain, not the claim's round. The latest round published before the
page is filled in by the verifier (``benchdb.claims.verdicts``), which knows the rounds.

Machine-translated Chinese reposts carry pinyin glosses after converted characters
(``實(shí)現(xiàn)``); they are skipped while reading, and every span still points into
the text as given.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from benchdb.vocabulary import BENCHMARKS, FRAMEWORK_NAMES, KNOWN_ROUNDS

from .vendor_html import VendorTable

#: Largest magnitude read as a value. No figure a vendor page states comes near it;
#: the bound keeps every ratio derived from two values finite (1e15 / 1e-6 < 1e308).
MAX_VALUE = 1e15
#: Largest accelerator count kept (a PostgreSQL ``integer`` column holds it).
MAX_COUNT = 2**31 - 1


def to_number(text: str) -> float | None:
    """A number as written (``"28.3"``, ``"3,584"``) -> float, or None when it is not
    a finite number of magnitude <= :data:`MAX_VALUE` (a 400-digit number, which
    ``float`` reads as infinity; ``"nan"``; ``"inf"``; no number at all). A claim
    whose number is None keeps its text and span, with no value."""
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) and abs(value) <= MAX_VALUE else None


def to_count(value: float | None) -> int | None:
    """An accelerator count from a value: its integer part when 0 <= value <=
    :data:`MAX_COUNT`, else None."""
    if value is None or not 0 <= value <= MAX_COUNT:
        return None
    return int(value)



@dataclass(frozen=True)
class Claim:
    """One numeric claim.

    Spans are character offsets into the text given to :func:`extract_claims`:
    ``start``/``end`` cover the claimed quantity (both sides of a head-to-head),
    ``sentence_start``/``sentence_end`` its sentence. ``value``/``compared_value``
    are in ``unit`` (``min``, ``s``, ``h``, ``%``, ``x``, ``GPU``/``IPU``/...,
    ``TFLOPS``...); None when the page's number is no finite figure (:func:`to_number`).
    ``qualifier`` is normalized (``up to``, ``nearly``, ``about``,
    ``more than``, ``at least``, ``just over``, ``less than``, ``only``),
    ``qualifier_text`` as written. ``benchmark_key`` is a benchdb benchmark key
    (``resnet``, ``bert``...) or "" ; ``non_mlperf`` names a model that is not an
    MLPerf benchmark (``EfficientNet-B4``) or says "stated" when the text says the
    figure is not from MLPerf. ``baseline``: for a gain, what it is measured
    against: ``first-submission``, ``previous-round`` or a round (``v0.7``).
    ``metric``: ``time-to-train`` or a non-MLPerf metric (``throughput``, ``clock``,
    ``compute``, ``memory``, ``cost``). ``context`` lists which attributes were taken
    from earlier sentences (e.g. ``("system",)``).
    """

    kind: str
    sentence: str
    sentence_start: int
    sentence_end: int
    start: int
    end: int
    value: float | None
    unit: str
    qualifier: str = ""
    qualifier_text: str = ""
    system: str = ""
    accelerators: int | None = None
    submitter: str = ""
    framework: str = ""
    benchmark: str = ""
    benchmark_key: str = ""
    round: str = ""
    division: str = ""
    result_ids: tuple[str, ...] = ()
    compared_value: float | None = None
    compared_system: str = ""
    compared_framework: str = ""
    baseline: str = ""
    metric: str = ""
    non_mlperf: str = ""
    mlperf_context: bool = False
    per_accelerator: bool = False
    unverified: bool = False
    implied_value: float | None = None
    source: str = "text"
    table_row: tuple[int, int] | None = None
    context: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready dict of every field (tuples as lists)."""
        out: dict[str, Any] = {}
        for k in self.__dataclass_fields__:
            v = getattr(self, k)
            out[k] = list(v) if isinstance(v, tuple) else v
        return out


# --- vocabulary ------------------------------------------------------------------
# ASCII guards instead of \b: in Python a Han character is a word character, so
# "在IPU-POD16上" has no \b before "I".
_L = r"(?<![A-Za-z0-9])"
_R = r"(?![A-Za-z0-9])"

#: Models that are not MLPerf Training benchmarks (a claim about them is not-mlperf).
NON_MLPERF_MODELS = (
    r"EfficientNet(?:-B\d)?|ResNeXt|ViT" + _R + r"|GPT类|GPT類|GPT-class|LLaMA[ -]?V?\d(?:\.\d)?(?:\s*\d+[bB])?"
    r"|Llama\s*\d(?:\.\d)?\s*\d+[bB](?!\s*LoRA)|Mistral\s*\d+[bB]|BERT[- ]Base|Bert-Base|MCMC"
)  # fmt: skip
#: System mentions (case-insensitive).
SYSTEMS = (
    r"(?:IPU|Bow)[\s-]?POD\s?\d+|IPU[\s-]?M2000|Bow[\s-]?2000|M2000|GC200|DGX\s?SuperPOD"
    r"|DGX\s?[AH]100|HGX\s?H100|[AHV]100|TPU[\s-]?v\d(?:-\d+)?|(?:HLS-)?Gaudi\s?\d(?![.\d])|Selene|SeleN"
    r"|NDm?\s?A100\s?v4"
)
#: Submitter mentions -> canonical name.
SUBMITTERS = {
    "graphcore": "Graphcore", "nvidia": "NVIDIA", "英伟达": "NVIDIA", "英偉達": "NVIDIA",
    "google": "Google", "谷歌": "Google", "azure": "Azure", "微软云": "Azure", "微軟雲": "Azure",
    "microsoft": "Azure", "inspur": "Inspur", "浪潮": "Inspur", "baidu": "Baidu", "百度": "Baidu",
    "dell": "Dell", "戴尔": "Dell", "戴爾": "Dell", "intel": "Intel", "habana": "Intel",
}  # fmt: skip
_ROUND_PATTERNS = (
    r"MLPerf(?:™|\*|TM|®)?\s*(?:Training|训练|訓練)?\s*(?:[vV]|version\s*)?(?P<r>\d\.\d)(?![\d.])",
    _L + r"[vV](?P<r>\d\.\d)(?![\d.])",
    r"Training\s+version\s+(?P<r>\d\.\d)(?![\d.])",
)
# A "v1.5" after a model or software name is that thing's version, not a round.
_NOT_ROUND_BEFORE = re.compile(r"(?:ResNet[- ]?50|LLaMA|Llama|Diffusion|SDK|Poplar|PyTorch|Ubuntu|software|Lightning|DeepSpeed)\W{0,3}$", re.I)  # fmt: skip
_WORD_BEFORE = re.compile(r"([A-Za-z][\w*-]*)\.?\s*$")
_ROUND_WORDS = frozenset({"training", "benchmark", "round", "mlperf", "mlperftm", "vs", "versus", "and",
                          "or", "to", "from", "since", "in", "of", "than", "with", "the", "over"})  # fmt: skip
_BASELINE_BEFORE = re.compile(r"(?:vs\.?|versus|compared (?:to|with)|than|since|相较于?|相較於?|相比于?|相比於?|与|與|对比|對比|自)[^,;。，]{0,10}$", re.I)  # fmt: skip
_BASELINE_AFTER = re.compile(r"^\s*(?:相比|相較|相较|以来|以來)")
_DIVISIONS = (
    (r"(?i:" + _L + r"closed(?=\s+(?:and\s+open\s+)?(?:division|categor|submission|result))|ClosedDivision|closed division)" + r"|封闭(?:分区|类别|任务)?|封閉(?:分區|類別|任務)?|固定任务|固定任務", "closed"),  # fmt: skip
    (r"(?i:" + _L + r"open(?=\s+(?:and\s+closed\s+)?(?:division|categor|submission|result))|\(Open\))" + r"|(?:开放|開放)(?=(?:和|与|與|及)?(?:封闭|封閉)?(?:分区|分區|类别|類別|任务|任務|部分))", "open"),  # fmt: skip
)
_RESULT_ID = re.compile(r"(?<![\d.])(\d\.\d)-(\d{3,4})(?![\d])")
_COMPARE = re.compile(r"(?i:" + _L + r"(?:vs\.?|versus|compared (?:to|with)|than|while|whereas|outperform\w*)" + _R + r")|而|相比|相较|相較|对比|對比|优于|優於|(?<![相对對])比(?!例)")  # fmt: skip
_COMPARE_EN_BEFORE = re.compile(r"(?i:(?:vs\.?|versus|compared? (?:to|with)|than|over)\s+(?:the\s+|a\s+|an\s+|nvidia'?s?\s+)?[^,;]{0,12})$|(?:^|[^相对對])比\s*$")  # fmt: skip
# "達到 A100 的 18 倍" (reaches 18 times A100): the system before 的 N 倍 is the compared one.
_COMPARE_ZH_AFTER = re.compile(r"^\s*的\s*\d[\d.]*\s*倍")
_OTHER_PRODUCT = re.compile(r"(?i:first[- ]generation|previous generation)|第一代|上一代|前一代")
_PARITY = re.compile(r"(?i:similar to|on par with|comparable (?:to|with)|the same as|performs? like|match(?:es|ed|ing)?" + _R + r")|相当|相當|持平|媲美|不相上下")  # fmt: skip
_FIRST = re.compile(r"(?i:first (?:ever )?submission)|首次提交")
_PREVIOUS = re.compile(r"(?i:(?:last|previous|prior) (?:MLPerf )?(?:training )?round)|上一轮|上一輪|上轮|上輪")  # fmt: skip
_GAIN = re.compile(r"(?i:improve\w*|gain|faster|speed-?up|boost|increase\w*|better)|提升|提高|快|加速|改进|改進")  # fmt: skip
_PER_ACCEL = re.compile(r"(?i:per[- ](?:accelerator|chip|gpu|ipu)|chip[- ]to[- ]chip)|芯片对芯片|芯片對芯片|每(?:个|個)?芯片|单芯片|單芯片")  # fmt: skip
_METRICS = (
    (re.compile(r"(?i:throughput|tokens?/s|samples?/s|images?/s)|吞吐量"), "throughput"),
    (re.compile(r"(?i:clock|frequency)|主频|主頻"), "clock"),
    (re.compile(r"(?i:T?FLOPS)|算力"), "compute"),
    (re.compile(r"(?i:performance[- ]per[- ]dollar|price|cost)|性价比|性價比"), "cost"),
)
_NOT_MLPERF = re.compile(r"(?i:not\s+(?:part of|an?|our|from)\s+(?:the\s+)?(?:\w+\s+){0,3}MLPerf)|(?:并非|並非|不是)[^。]{0,20}MLPerf")  # fmt: skip
_UNVERIFIED = re.compile(r"(?i:improvements over the officially submitted|unverified|not verified by MLCommons)")  # fmt: skip

_NUM = r"(?<![A-Za-z0-9_.\-/#$])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_ACCEL_AFTER_X = re.compile(r"\s*(?P<acc>[AHV]100|GPUs?|IPUs?|TPUs?|HPUs?|Gaudi\s?\d|MI\d+)" + _R)
_QUANTITY = re.compile(
    _NUM + r"\s*(?:"
    r"(?P<thr>(?:tokens?|samples?|images?|sequences?)\s*/\s*s(?:ec(?:ond)?)?)" + _R + "|"
    r"(?P<time>minutes?|mins?|seconds?|secs?|hours?|hrs?|[smh])(?![A-Za-z0-9])|"
    r"(?P<ztime>分钟|分鐘|秒钟|秒鐘|秒|小时|小時)|"
    r"(?P<pct>%|percent" + _R + r"|per cent" + _R + r")|"
    r"(?P<mult>[xX×](?![A-Za-z0-9])|times" + _R + r"|-?fold" + _R + r"|倍)|"
    r"(?P<scale>GPUs?|IPUs?|TPUs?|HPUs?|chips?|accelerators?|nodes?|cards?)" + _R + "|"
    r"(?P<zscale>(?:个|個)\s*(?:IPU|GPU|TPU|芯片|加速器|节点|節點)|颗|顆|张|張)|"
    r"(?P<zsys>(?:个|個|台)\s*(?P<sysname>[A-Za-z0-9\- ]{0,24}?)\s*(?:系统|系統|服务器|服務器))|"
    r"(?P<spec>TFLOPS|TFlops|PFLOPS|PFlops|TOPS|GB/s|GB|MB|TB|GHz|MHz|nm)(?![A-Za-z])|"
    r"(?P<zcount>(?:项|項|个|個|家|类|類)[^,，。;；]{0,12}?(?P<zwhat>冠军|冠軍|任务|任務|成绩|成績|公司|厂商|廠商))|"
    r"(?P<count>(?i:other\s+)?(?P<what>(?i:wins?|first places?|world records?|records|members|submissions|results|companies|organizations|(?:hardware\s+)?manufacturers))" + _R + "))"
)
_TIME_UNITS = {"min": "min", "mins": "min", "minute": "min", "minutes": "min", "m": "min",
               "s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s",
               "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h", "分钟": "min",
               "分鐘": "min", "秒钟": "s", "秒鐘": "s", "秒": "s", "小时": "h", "小時": "h"}  # fmt: skip
_Q_BEFORE = re.compile(
    r"(?i:(?P<en>just over|just under|up to|nearly|almost|about|around|approximately|roughly|~|"
    r"more than|over|under|less than|at least|as much as|only|just)\s+(?:(?:a|an|the)\s+)?)$"
    r"|(?P<zh>将近|將近|接近|近|逾|超过|超過|高达|高達|最高|约|約|大约|大約|至少|不到)\s*"
    r"(?:提升了?|提高了?|达到|達到|可达|可達|达|達|快了?|加速|为|為)?\s*$"
)
_Q_AFTER = re.compile(r"^\s*(?P<zh>以上|左右|多)")
QUALIFIERS = {
    "up to": "up to", "as much as": "up to", "最高": "up to", "高达": "up to", "高達": "up to",
    "nearly": "nearly", "almost": "nearly", "近": "nearly", "将近": "nearly", "將近": "nearly",
    "接近": "nearly", "about": "about", "around": "about", "approximately": "about",
    "roughly": "about", "~": "about", "约": "about", "約": "about", "大约": "about",
    "大約": "about", "左右": "about", "more than": "more than", "over": "more than",
    "逾": "more than", "超过": "more than", "超過": "more than", "以上": "more than",
    "多": "more than", "at least": "at least", "至少": "at least", "just over": "just over",
    "less than": "less than", "under": "less than", "不到": "less than",
    "just under": "less than", "only": "only", "just": "only",
}  # fmt: skip
_CLAUSE = re.compile(r"[,，;；:：、]|\s[–—-]\s|" + _L + r"(?:and|while|whereas)" + _R + r"|而|以及")  # fmt: skip
_ABBREV = re.compile(r"(?i:(?:vs|e\.g|i\.e|etc|no|fig|approx|inc|mr|dr|u\.s|[A-Z]))$")
_GLOSS = re.compile(r"(?<=[\u3400-\u9fff])\([a-zü]*[āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ][a-zü]*\)")
_FULLWIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}

# --- text preparation --------------------------------------------------------------


@dataclass(frozen=True)
class _Mention:
    kind: str  # system | benchmark | nonmlperf | framework | submitter | round | division
    start: int  # offsets in the prepared text
    end: int
    text: str
    key: str = ""
    role: str = ""  # "baseline" for a round named as a gain's baseline; "compared"


@dataclass
class _Sentence:
    start: int
    end: int
    paragraph: int
    mentions: list[_Mention] = field(default_factory=list)


def _prepare(text: str, skip: Sequence[tuple[int, int]]) -> tuple[str, list[int]]:
    """Blank table spans, drop pinyin glosses and fold full-width forms.

    Returns the prepared text and ``where``: ``where[i]`` is the offset in ``text``
    of prepared character ``i`` (plus one entry for the end)."""
    chars = list(text)
    for a, b in skip:
        for i in range(max(0, a), min(len(chars), b)):
            if chars[i] != "\n":
                chars[i] = " "
    blanked = "".join(chars).translate(_FULLWIDTH)
    out: list[str] = []
    where: list[int] = []
    pos = 0
    for m in _GLOSS.finditer(blanked):
        out.append(blanked[pos : m.start()])
        where.extend(range(pos, m.start()))
        pos = m.end()
    out.append(blanked[pos:])
    where.extend(range(pos, len(blanked)))
    where.append(len(blanked))
    return "".join(out), where


#: A longer run of text without a sentence end is cut into pieces of at most this
#: many characters (at a space where there is one): real sentences are shorter
#: (the longest in ../shared/vendor has 1,128), and the work per sentence grows
#: with its quantities times its length.
MAX_SENTENCE_CHARS = 2000


def _sentence(out: list[_Sentence], t: str, start: int, end: int, paragraph: int) -> None:
    while end - start > MAX_SENTENCE_CHARS:
        cut = t.rfind(" ", start + 1, start + MAX_SENTENCE_CHARS)
        cut = cut if cut > start else start + MAX_SENTENCE_CHARS
        out.append(_Sentence(start, cut, paragraph))
        start = cut
    out.append(_Sentence(start, end, paragraph))


def _sentences(t: str) -> list[_Sentence]:
    """Split on newlines, 。！？, and on '.', '!' or '?' before a space or the end of the
    line (not after vs., e.g., i.e., single initials, or inside a number); pieces
    longer than :data:`MAX_SENTENCE_CHARS` are cut."""
    out: list[_Sentence] = []
    paragraph = 0
    pos = 0
    for line in t.split("\n"):
        if not line.strip():
            paragraph += 1
        start = pos
        for m in re.finditer(r"[。！？]+|[.!?](?=\s|$)", line):
            if m.group().startswith(".") and _ABBREV.search(line[: m.start()]):
                continue
            end = pos + m.end()
            if t[start:end].strip():
                _sentence(out, t, start, end, paragraph)
            start = end
        if t[start : pos + len(line)].strip():
            _sentence(out, t, start, pos + len(line), paragraph)
        pos += len(line) + 1
    return out


def _mentions(t: str, s: _Sentence) -> list[_Mention]:
    seg = t[s.start : s.end]
    found: list[_Mention] = []

    def add(kind: str, m: re.Match[str], key: str = "", role: str = "") -> None:
        found.append(_Mention(kind, s.start + m.start(), s.start + m.end(), m.group(), key, role))

    for pat, key in BENCHMARKS:
        for m in re.finditer(pat, seg, flags=re.I if key not in ("ssd",) else 0):
            add("benchmark", m, key)
    for m in re.finditer(NON_MLPERF_MODELS, seg):
        add("nonmlperf", m, m.group())
    for m in re.finditer(_L + r"(?:" + SYSTEMS + r")" + _R, seg, flags=re.I):
        before = seg[: m.start()]
        compared = _COMPARE_EN_BEFORE.search(before) or _COMPARE_ZH_AFTER.match(seg[m.end() :])
        add("system", m, _system_key(m.group()), "compared" if compared else "")
    for name, canon in {**SUBMITTERS, **FRAMEWORK_NAMES}.items():
        kind = "submitter" if name in SUBMITTERS else "framework"
        pat = re.escape(name) if not name.isascii() else _L + re.escape(name) + _R
        for m in re.finditer(pat, seg, flags=re.I):
            add(kind, m, canon)
    for k, pat in enumerate(_ROUND_PATTERNS):
        for m in re.finditer(pat, seg, flags=re.I):
            r = m.group("r")
            if r not in KNOWN_ROUNDS or _NOT_ROUND_BEFORE.search(seg[: m.start()]):
                continue
            word = _WORD_BEFORE.search(seg[: m.start()])
            if k == 1 and word and word.group(1).lower() not in _ROUND_WORDS:
                continue  # "MLFramework v4.1", "LLaMA V3.1": a product's version
            role = "baseline" if (_BASELINE_BEFORE.search(seg[: m.start()]) or _BASELINE_AFTER.match(seg[m.end() :])) else ""  # fmt: skip
            found.append(_Mention("round", s.start + m.start("r"), s.start + m.end("r"), m.group(), "v" + r, role))  # fmt: skip
    for pat, key in _DIVISIONS:
        for m in re.finditer(pat, seg):
            add("division", m, key)
    return _drop_nested(found)


def _drop_nested(ms: list[_Mention]) -> list[_Mention]:
    """Keep the longest of overlapping mentions of the same kind ("DGX A100" over "A100")."""
    ms.sort(key=lambda m: (m.start, -(m.end - m.start)))
    out: list[_Mention] = []
    for m in ms:
        if any(o.kind == m.kind and o.start <= m.start and m.end <= o.end for o in out):
            continue
        if any(o.kind == "system" and m.kind == "system" and o.start < m.end and m.start < o.end for o in out):  # fmt: skip
            continue
        out.append(m)
    return out


def _system_key(mention: str) -> str:
    return re.sub(r"[^a-z0-9]", "", mention.lower())


# --- quantities --------------------------------------------------------------------


@dataclass
class _Quantity:
    kind: str
    value: float | None  # None: too large to be a figure (see to_number)
    unit: str
    start: int
    end: int
    qualifier: str = ""
    qualifier_text: str = ""
    system_hint: str = ""


_SHARED_UNIT = re.compile(_NUM + r"(?=\s*(?:vs\.?|versus|compared (?:to|with)|against|对|對|比)\s*\d[\d,.]*\s*(?P<unit>minutes?|mins?|seconds?|hours?|分钟|分鐘|秒|小时|小時)(?![A-Za-z]))", re.I)  # fmt: skip


def _quantities(t: str, s: _Sentence) -> list[_Quantity]:
    seg = t[s.start : s.end]
    seg = _RESULT_ID.sub(lambda m: " " * len(m.group()), seg)
    out: list[_Quantity] = []
    for m in _SHARED_UNIT.finditer(seg):  # "28.3 vs 29.1 minutes": the first shares the unit
        unit = _TIME_UNITS[m.group("unit").lower()]
        out.append(_Quantity("time", to_number(m.group("num")), unit, s.start + m.start(), s.start + m.end()))  # fmt: skip
    for m in _QUANTITY.finditer(seg):
        if any(q.start <= s.start + m.start() < q.end for q in out):
            continue
        value = to_number(m.group("num"))
        unit, kind, hint = _unit(m, seg)
        q = _Quantity(kind, value, unit, s.start + m.start(), s.start + m.end(), system_hint=hint)
        qb = _Q_BEFORE.search(seg[max(0, m.start() - 24) : m.start()])
        qa = _Q_AFTER.match(seg[m.end() :])
        written = (qb.group("en") or qb.group("zh")) if qb else (qa.group("zh") if qa else "")
        if written:
            q.qualifier_text, q.qualifier = written, QUALIFIERS.get(written.lower(), "")
        out.append(q)
    return sorted(out, key=lambda q: q.start)


def _unit(m: re.Match[str], seg: str) -> tuple[str, str, str]:
    g = m.groupdict()
    if g["thr"]:
        return re.sub(r"\s+", "", g["thr"]).split("/")[0].rstrip("s") + "/s", "throughput", ""
    if g["time"] or g["ztime"]:
        return _TIME_UNITS[(g["time"] or g["ztime"]).lower()], "time", ""
    if g["pct"]:
        return "%", "percentage", ""
    if g["mult"]:
        after = _ACCEL_AFTER_X.match(seg[m.end() :]) if g["mult"] in "xX×" else None
        if after:  # "8x H100": eight H100s
            return _scale_unit(after.group("acc")), "scale", after.group("acc")
        return "x", "multiplier", ""
    if g["scale"]:
        return _scale_unit(g["scale"]), "scale", ""
    if g["zscale"]:
        return _scale_unit(g["zscale"]), "scale", ""
    if g["zsys"]:
        return "system", "scale", (g["sysname"] or "").strip()
    if g["zcount"] or g["count"]:
        return _COUNT_UNITS.get((g["zwhat"] or g["what"] or "").lower().split()[-1].rstrip("s"), "item"), "count", ""
    return _SPEC_UNITS.get(g["spec"].lower(), g["spec"]), "spec", ""


_COUNT_UNITS = {"冠军": "win", "冠軍": "win", "win": "win", "place": "win", "record": "record",
                "任务": "task", "任務": "task", "成绩": "result", "成績": "result", "result": "result",
                "submission": "result", "公司": "organization", "厂商": "organization",
                "廠商": "organization", "companie": "organization", "organization": "organization",
                "manufacturer": "organization", "member": "organization"}  # fmt: skip
_SPEC_UNITS = {"tflops": "TFLOPS", "pflops": "PFLOPS", "tops": "TOPS", "gb/s": "GB/s", "gb": "GB",
               "mb": "MB", "tb": "TB", "ghz": "GHz", "mhz": "MHz", "nm": "nm"}  # fmt: skip


def _scale_unit(word: str) -> str:
    w = word.strip().lower()
    for key, unit in (("gpu", "GPU"), ("ipu", "IPU"), ("tpu", "TPU"), ("hpu", "HPU"),
                      ("chip", "chip"), ("芯片", "chip"), ("颗", "chip"), ("顆", "chip"),
                      ("accelerator", "accelerator"), ("加速器", "accelerator"), ("node", "node"),
                      ("节点", "node"), ("節點", "node"), ("card", "card"), ("张", "card"),
                      ("張", "card"), ("a100", "GPU"), ("h100", "GPU"), ("v100", "GPU"),
                      ("gaudi", "HPU"), ("mi", "GPU")):  # fmt: skip
        if key in w:
            return unit
    return w


# --- assembling claims ---------------------------------------------------------------


def extract_claims(text: str, *, tables: Sequence[VendorTable] = ()) -> list[Claim]:
    """Every numeric claim of a cleaned page, in text order.

    ``text``: the cleaned text (``ingest.parsers.vendor_html.parse_vendor_page``);
    ``tables``: its vendor tables (:func:`~ingest.parsers.vendor_html.parse_vendor_tables`):
    their lines are read as table rows (:func:`claims_from_tables`), not as prose.
    Raises nothing on odd text: what cannot be read is left out.
    """
    t, where = _prepare(text, [(tb.start, tb.end) for tb in tables])
    page_mlperf = "mlperf" in t.lower()
    page_unverified = bool(_UNVERIFIED.search(t))
    sentences = _sentences(t)
    for s in sentences:
        s.mentions = _mentions(t, s)
    claims: list[Claim] = []
    for i in range(len(sentences)):
        ctx = _Context(t, sentences, i, page_mlperf, page_unverified)
        claims.extend(_map_back(c, text, where) for c in ctx.claims())
    claims.extend(claims_from_tables(tables, page_unverified=page_unverified))
    claims.sort(key=lambda c: (c.start, c.end))
    return claims


def _map_back(c: Claim, text: str, where: list[int]) -> Claim:
    def pos(i: int) -> int:
        return where[min(i, len(where) - 1)]

    s0, s1 = pos(c.sentence_start), pos(max(c.sentence_end - 1, c.sentence_start)) + 1
    return replace(c, start=pos(c.start), end=pos(max(c.end - 1, c.start)) + 1, sentence_start=s0,
                   sentence_end=s1, sentence=text[s0:s1].strip())  # fmt: skip


class _Context:
    """Claims of one sentence, with the lookups of the module docstring."""

    def __init__(self, t: str, sentences: list[_Sentence], i: int, page_mlperf: bool, page_unverified: bool) -> None:  # fmt: skip
        self.t, self.all, self.i, self.s = t, sentences, i, sentences[i]
        self.text = t[self.s.start : self.s.end]
        self.page_mlperf, self.page_unverified = page_mlperf, page_unverified
        self.quantities = _quantities(t, self.s)
        self.clauses = self._clauses()
        self._said: dict[tuple[re.Pattern[str], int, int], bool] = {}

    def _says(self, rx: re.Pattern[str], span: tuple[int, int] | None = None) -> bool:
        """Whether the sentence (or ``span`` of it, offsets in the prepared text) matches
        ``rx``; each is searched once (quantities of one clause share their span, and
        a sentence with many quantities asks the same for each)."""
        a, b = span or (self.s.start, self.s.end)
        if (rx, a, b) not in self._said:
            self._said[(rx, a, b)] = bool(rx.search(self.t[a:b]))  # a slice: lookbehinds stop at a
        return self._said[(rx, a, b)]

    @cached_property
    def _result_ids(self) -> tuple[str, ...]:
        return tuple(f"{a}-{b}" for a, b in _RESULT_ID.findall(self.text))

    @cached_property
    def _accelerator_counts(self) -> list[_Quantity]:
        return [x for x in self.quantities if x.kind == "scale" and x.unit not in ("node", "system")]

    def _clauses(self) -> list[tuple[int, int]]:
        cuts = [self.s.start] + [self.s.start + m.start() for m in _CLAUSE.finditer(self.text)] + [self.s.end]  # fmt: skip
        return [(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if b > a]

    def _own(self, q: _Quantity) -> tuple[int, int]:
        """The quantity's clause plus following clauses without number or system."""
        k = next(j for j, (a, b) in enumerate(self.clauses) if a <= q.start < b)
        a, b = self.clauses[k]
        for a2, b2 in self.clauses[k + 1 :]:
            if self.t[a2] in ";；" or any(a2 <= x.start < b2 for x in self.quantities) or any(
                m.kind in ("system", "benchmark", "nonmlperf") and a2 <= m.start < b2 for m in self.s.mentions
            ):
                break
            b = b2
        return a, b

    def _in(self, kind: str, span: tuple[int, int], role: str | None = "") -> list[_Mention]:
        return [m for m in self.s.mentions if m.kind == kind and span[0] <= m.start < span[1] and (role is None or m.role == role)]  # fmt: skip

    def _nearest(self, kind: str, q: _Quantity, used: list[str]) -> _Mention | None:
        own = self._in(kind, self._own(q))
        if own:
            return min(own, key=lambda m: abs(m.start - q.start))
        sent = self._in(kind, (self.s.start, self.s.end))
        before = [m for m in sent if m.start < q.start]
        if before:
            return before[-1]
        if sent:
            return sent[0]
        for s in reversed(self.all[max(0, self.i - 6) : self.i]):
            if s.paragraph != self.s.paragraph:
                break
            prev = [m for m in s.mentions if m.kind == kind and not m.role]
            if prev:
                used.append(kind)
                return prev[-1]
        return None

    def _attrs(self, q: _Quantity) -> dict[str, object]:
        used: list[str] = []
        own = self._own(q)
        system = self._nearest("system", q, used)
        nonml = [m for m in self.s.mentions if m.kind == "nonmlperf"]
        in_sentence = bool(self._in("benchmark", (self.s.start, self.s.end)))
        bench = None
        if in_sentence or not (nonml or q.kind in ("spec", "throughput")):
            bench = self._nearest("benchmark", q, used)
        rnd = self._nearest("round", q, used)
        divs = self._in("division", own) or self._in("division", (self.s.start, self.s.end))
        fw = self._in("framework", own) or self._in("framework", (self.s.start, self.s.end))
        sub = self._in("submitter", own) or self._in("submitter", (self.s.start, self.s.end))
        ids = self._result_ids
        metric = next((name for rx, name in _METRICS if self._says(rx, own)), "")
        if q.kind == "throughput":
            metric = "throughput"
        elif q.kind == "spec":
            metric = {"GHz": "clock", "MHz": "clock", "nm": "process"}.get(q.unit, "compute" if "FLOPS" in q.unit or q.unit == "TOPS" else "memory")  # fmt: skip
        counts = self._accelerator_counts
        return {
            "accelerators": to_count(counts[0].value) if len(counts) == 1 and q.kind != "scale" else None,
            "system": (system.text if system else q.system_hint),
            "benchmark": bench.text if bench else "",
            "benchmark_key": bench.key if bench else "",
            "round": rnd.key if rnd else "",
            "division": divs[0].key if len({d.key for d in divs}) == 1 else "",
            "result_ids": ids,
            "framework": fw[0].key if fw else "",
            "submitter": sub[0].key if sub else "",
            "metric": metric or ("time-to-train" if q.kind in ("time", "head_to_head") else ""),
            "non_mlperf": (nonml[0].text if nonml and not bench else "") or ("stated" if self._says(_NOT_MLPERF) else ""),  # fmt: skip
            "mlperf_context": self.page_mlperf,
            "per_accelerator": self._says(_PER_ACCEL, own),
            "unverified": self.page_unverified,
            "context": tuple(used),
            "qualifier": q.qualifier,
            "qualifier_text": q.qualifier_text,
        }

    def _claim(self, kind: str, q: _Quantity, **extra: object) -> Claim:
        attrs = self._attrs(q) | extra
        return Claim(kind=kind, sentence=self.text.strip(), sentence_start=self.s.start,
                     sentence_end=self.s.end, start=q.start, end=q.end, value=q.value,
                     unit=q.unit, **attrs)  # type: ignore[arg-type]  # fmt: skip

    def claims(self) -> list[Claim]:
        qs = self.quantities
        out: list[Claim] = []
        pair = self._head_to_head(qs)
        if pair:
            out.append(pair)
            qs = [q for q in qs if not (pair.start <= q.start < pair.end)]
        respectively = self._respectively(qs)
        for q in qs:
            if q.kind in ("percentage", "multiplier"):
                out.append(self._gain(q, respectively.get(id(q))))
            elif q.kind == "count":  # a count is about the page's subject, not a nearby system
                out.append(replace(self._claim("count", q), system="", benchmark="", benchmark_key="", context=()))  # fmt: skip
            elif q.kind == "scale":
                acc = to_count(q.value) if q.unit not in ("node", "system") else None
                out.append(self._claim("scale", q, accelerators=acc))
            else:
                out.append(self._claim(q.kind, q))
        parity = self._parity()
        if parity:
            out.append(parity)
        return out

    def _head_to_head(self, qs: list[_Quantity]) -> Claim | None:
        times = [q for q in qs if q.kind == "time"]
        if len(times) != 2 or not self._says(_COMPARE) or any(q.value is None for q in times):
            return None
        used: list[str] = []
        a, b = times
        sa, sb = (self._nearest_system_strict(q) for q in times)
        named = _distinct(m for m in self.s.mentions if m.kind == "system")
        if (not sa or not sb or sa.key == sb.key) and len(named) == 2 and named[1].end < a.start:
            sa, sb = named  # "A vs B: 28.3 vs 29.1 minutes", in the order named
        if not sa or not sb or sa.key == sb.key:
            return None
        fast, slow = (a, b) if _minutes(a) <= _minutes(b) else (b, a)
        sf, ss = (sa, sb) if fast is a else (sb, sa)
        span = _Quantity("head_to_head", fast.value, fast.unit, min(a.start, b.start), max(a.end, b.end), fast.qualifier, fast.qualifier_text)  # fmt: skip
        c = self._claim("head_to_head", span, system=sf.text, compared_value=(slow.value or 0.0) * _scale(slow.unit, fast.unit), compared_system=ss.text)  # fmt: skip
        bench = self._nearest("benchmark", fast, used)
        return replace(c, benchmark=bench.text if bench else "", benchmark_key=bench.key if bench else "")  # fmt: skip

    def _nearest_system_strict(self, q: _Quantity) -> _Mention | None:
        own = self._in("system", self._own(q), role=None)
        if own:
            return min(own, key=lambda m: abs(m.start - q.start))
        before = [m for m in self._in("system", (self.s.start, q.start), role=None)]
        return before[-1] if before else None

    def _respectively(self, qs: list[_Quantity]) -> dict[int, _Mention]:
        """分别/分別/respectively: the k numbers go to the last k benchmarks named before them."""
        if not re.search(r"分别|分別|respectively", self.text, re.I):
            return {}
        nums = [q for q in qs if q.kind in ("percentage", "multiplier", "time")]
        if len(nums) < 2:
            return {}
        names = [m for m in self.s.mentions if m.kind == "benchmark" and m.start < nums[0].start]
        dedup: list[_Mention] = []
        for m in names:
            if not dedup or dedup[-1].key != m.key or m.start - dedup[-1].end > 3:
                dedup.append(m)
        if len(dedup) < len(nums):
            return {}
        return {id(q): m for q, m in zip(nums, dedup[-len(nums) :], strict=True)}

    def _gain(self, q: _Quantity, bench: _Mention | None) -> Claim:
        own = self._own(q)
        baseline = ""
        base_round = self._in("round", own, role="baseline") or self._in("round", (self.s.start, self.s.end), role="baseline")  # fmt: skip
        if self._says(_OTHER_PRODUCT, own):
            baseline = "other-product"
        elif self._says(_FIRST, own):
            baseline = "first-submission"
        elif self._says(_PREVIOUS, own):
            baseline = "previous-round"
        elif base_round:
            baseline = base_round[0].key
        elif self._says(_OTHER_PRODUCT):
            baseline = "other-product"
        elif self._says(_FIRST):
            baseline = "first-submission"
        elif self._says(_PREVIOUS):
            baseline = "previous-round"
        extra: dict[str, object] = {}
        systems = self._in("system", (self.s.start, self.s.end), role=None)
        subject = self._subject(q)
        if not baseline and subject and len({m.key for m in systems}) >= 2 and self._says(_COMPARE) or (not baseline and q.kind == "multiplier" and len({m.key for m in systems}) >= 2):  # fmt: skip
            other = [m for m in systems if m.key != (subject.key if subject else "")]
            compared = next((m for m in other if m.role == "compared"), other[0] if other else None)
            if compared:
                extra["compared_system"] = compared.text
        implied = self._implied(q) if not baseline else None
        if not baseline and implied is None and "compared_system" not in extra and self._says(_GAIN):  # fmt: skip
            baseline = "previous-round"
        extra["baseline"] = baseline
        if subject:
            extra["system"] = subject.text
        if bench:
            extra["benchmark"], extra["benchmark_key"] = bench.text, bench.key
        return self._claim(q.kind, q, implied_value=implied, **extra)

    def _subject(self, q: _Quantity) -> _Mention | None:
        own = [m for m in self._in("system", self._own(q)) if m.role != "compared"]
        if own:
            return min(own, key=lambda m: abs(m.start - q.start))
        sent = [m for m in self._in("system", (self.s.start, self.s.end)) if m.role != "compared"]
        before = [m for m in sent if m.start < q.start]
        if before and len(sent) > 1 and any(x.kind == "time" for x in self.quantities):
            return sent[0]  # the sentence's subject, as in "A takes 28.3 min vs B ... 24%"
        if before:
            return before[-1]
        if sent:
            return sent[0]
        used: list[str] = []
        return self._nearest("system", q, used)

    def _implied(self, q: _Quantity) -> float | None:
        """What the sentence's own two times say the multiplier or percentage is
        (70 min and 91.5 s -> 45.9x; as a percentage: the speedup)."""
        times = [x for x in self.quantities if x.kind == "time"]
        if len(times) != 2 or q.kind not in ("multiplier", "percentage") or any(x.value is None for x in times):  # fmt: skip
            return None
        a, b = sorted(_minutes(x) for x in times)
        if a <= 0:
            return None
        implied = b / a if q.kind == "multiplier" else (b / a - 1.0) * 100.0
        return implied if math.isfinite(implied) else None

    def _parity(self) -> Claim | None:
        m = _PARITY.search(self.text)
        if not m:
            return None
        fws = [x for x in self.s.mentions if x.kind == "framework"]
        systems = [x for x in self.s.mentions if x.kind == "system"]
        a_list = fws if len({x.key for x in fws}) >= 2 else systems if len({x.key for x in systems}) >= 2 else []  # fmt: skip
        if not a_list:
            return None
        cue = self.s.start + m.start()
        subject = next((x for x in reversed(a_list) if x.start < cue), a_list[0])
        compared = next((x for x in a_list if x.start > cue and x.key != subject.key), None)
        if compared is None:
            return None
        q = _Quantity("parity", 0.0, "%", self.s.start + m.start(), self.s.start + m.end())
        used: list[str] = []
        bench = self._nearest("benchmark", q, used)
        attrs: dict[str, object] = {"benchmark": bench.text if bench else "", "benchmark_key": bench.key if bench else ""}  # fmt: skip
        if subject.kind == "framework":
            attrs |= {"framework": subject.key, "compared_framework": compared.key, "system": ""}
        else:
            attrs |= {"system": subject.text, "compared_system": compared.text}
        return self._claim("parity", q, **attrs)


def _distinct(ms: Iterable[_Mention]) -> list[_Mention]:
    out: list[_Mention] = []
    for m in ms:
        if all(o.key != m.key for o in out):
            out.append(m)
    return out


def _minutes(q: _Quantity) -> float:
    return (q.value or 0.0) * _scale(q.unit, "min")


def _scale(unit: str, to: str) -> float:
    per_min = {"min": 1.0, "s": 1 / 60.0, "h": 60.0}
    return per_min.get(unit, 1.0) / per_min.get(to, 1.0)


# --- tables ------------------------------------------------------------------------


def claims_from_tables(tables: Sequence[VendorTable], *, page_unverified: bool = False) -> list[Claim]:  # fmt: skip
    """A ``time`` claim for each table row that gives a time to train of an MLPerf
    benchmark (NVIDIA's MLPerf tables, Intel's "MLPerf 3.1" rows). Throughput rows
    stay vendor results only: throughput is not MLPerf Training's metric."""
    out: list[Claim] = []
    for tb in tables:
        cap_round = round_in(tb.caption)
        cap_div = next((key for pat, key in _DIVISIONS if re.search(pat, tb.caption)), "")
        for row in tb.rows:
            v = row.values
            ttt = v.get("time_to_train", "")
            num = re.match(r"\s*(\d[\d,]*(?:\.\d+)?)\s*(min|mins|minutes|s|h)?", ttt)
            model = v.get("model", "")
            bench = next((key for pat, key in BENCHMARKS if re.search(pat, model, re.I)), "")
            if not num or not bench:
                continue
            unit = _TIME_UNITS.get((num.group(2) or "min").lower(), "min")
            if "(mins)" in " ".join(tb.columns).lower():
                unit = "min"
            acc = re.match(r"\s*(\d[\d,]*)", v.get("accelerators", ""))
            rid = v.get("result_id", "")
            out.append(Claim(
                kind="time", sentence=row.raw.strip(), sentence_start=row.start, sentence_end=row.end,
                start=row.start, end=row.end, value=to_number(num.group(1)), unit=unit,
                system=v.get("system", "") or _accelerator_of(v, tb.caption), accelerators=to_count(to_number(acc.group(1))) if acc else None,  # fmt: skip
                framework=v.get("framework", ""), benchmark=model, benchmark_key=bench,
                round=round_in(model) or cap_round, division=cap_div,
                result_ids=(rid,) if _RESULT_ID.fullmatch(rid) else (),
                metric="time-to-train", mlperf_context=True, unverified=page_unverified,
                source="table", table_row=(tb.index, row.index),
            ))  # fmt: skip
    return out


def _accelerator_of(v: dict[str, str], caption: str) -> str:
    """The accelerator a row is about: its own column, "8x H100", or the caption's system."""
    m = re.match(r"\s*\d[\d,]*x\s*(\S.*)", v.get("accelerators", ""))
    named = v.get("accelerator") or (m.group(1) if m else "")
    if named:
        return named.strip()
    cap = re.search(SYSTEMS, caption, re.I)
    return cap.group() if cap else ""


def round_in(text: str) -> str:
    """The first MLPerf round named in ``text`` (``"v3.1"``), or ""."""
    for pat in _ROUND_PATTERNS:
        m = re.search(pat, text, re.I)
        if m and m.group("r") in KNOWN_ROUNDS:
            return "v" + m.group("r")
    return ""

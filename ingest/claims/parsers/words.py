"""Quantities written in words, or with words between the number and what it counts:
counts ("seven workloads", "four of the six benchmarks", 两项新任务, 23 家企业), ranks and
editions ("ranked second", "its third annual set", 第七个大版本, 前5名中占据4位), "a factor
of five", accelerator and machine counts ("2,496 NVIDIA Blackwell GPUs", "128 ND H100 v5
instances", 3584块H100) and hardware figures that are no MLPerf metric (cores, watts,
TB/s, petaFLOPS, 800亿晶体管). Pure: no Django.

Libraries: cn2an (``cn2an.cn2an``, "smart" mode) reads Chinese numerals (两, 八, 二十三,
两千多万 without its 多); English number words are a fixed table here (:data:`EN_WORDS`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import cn2an

from benchdb.vocabulary import EN_NUMBER_WORDS

from .patterns import EDGE_L, EDGE_R, NUM, Q_BEFORE, QUALIFIERS
from .types import Quantity, to_number

#: English number words read as counts (ordinals are ranks, :data:`EN_ORDINALS`); only
#: those :data:`_EN_NUM` lists are read.
EN_WORDS = EN_NUMBER_WORDS
EN_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
}
_EN_NUM = (
    r"(?i:a\s+half-dozen|half-dozen|half\s+a\s+dozen|a\s+dozen|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|eleven|twelve)"
)
_EN_ORD = (
    r"(?i:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th))"
)
_DIGITS = r"\d{1,3}(?:,\d{3})+|(?!(?:19|20)\d\d(?!\d))\d+"  # a year is no count
_ANY_EN = rf"(?:{_DIGITS}|{_EN_NUM})"
_CN_NUM = r"[零〇一二两兩三四五六七八九十百千]+|\d+"

#: What an English count counts -> its unit.
_EN_NOUNS = {
    "benchmark": "benchmark",
    "workload": "benchmark",
    "test": "benchmark",
    "model": "benchmark",
    "application": "benchmark",
    "task": "benchmark",
    "measure": "benchmark",
    "category": "benchmark",
    "categorie": "benchmark",
    "submitter": "organization",
    "organization": "organization",
    "sku": "product",
    "win": "win",
    "record": "record",
    "submission": "result",
    "result": "result",
}
_EN_COUNT = re.compile(
    EDGE_L + rf"(?<![\d.,\-])(?P<n>{_ANY_EN})(?:\s+(?:out\s+)?of(?:\s+the)?\s+(?P<of>{_ANY_EN}))?"
    r"\s+(?:(?:new|modern|other|different|official|MLPerf|AI|of\s+the|data\s?center|edge"
    r"|closed|open|inference|training|HPC)\s+){0,3}"
    r"(?P<what>(?i:benchmarks?|workloads?|tests?|models?|applications?|tasks?|measures?|"
    r"categor(?:y|ies)|submitters?|organi[sz]ations?|SKUs?|wins?|records?|submissions?|results?))"
    + EDGE_R
)
#: A count compared across years or rounds: "dipped to five this year from eight last
#: year and six the year before".
_EN_YEARLY = re.compile(
    EDGE_L + rf"(?i:to|from|and|was|were)\s+(?P<n>{_ANY_EN})\s+(?=(?i:this|last|the)\s+"
    r"(?:previous\s+)?(?:year|round)(?:\s+before)?" + EDGE_R + ")"
)
_EN_RANK = re.compile(
    EDGE_L + rf"(?i:(?:ranked|placed|finished|came|was|were|took)\s+(?:the\s+)?"
    rf"(?P<r1>{_EN_ORD})(?!\s+(?:time|generation|gen))"
    rf"|(?P<r2>{_EN_ORD})\s+place|(?:its|their|the)\s+(?P<r3>{_EN_ORD})\s+(?:annual\s+)?"
    r"(?:set|round|edition|release|version))" + EDGE_R
)
#: Places in a top M: "four of the top five spots", "2 out of the top 10 places".
_EN_TOP = re.compile(
    EDGE_L + rf"(?P<n>{_ANY_EN})\s+(?i:of|out\s+of)\s+(?i:the\s+)?(?i:top)[\s-]+(?P<top>{_ANY_EN})"
    r"(?:\s+(?i:places|spots|positions|slots|ranks))?" + EDGE_R
)
_FACTOR = re.compile(
    EDGE_L + r"(?i:a\s+factor\s+of\s+)(?P<q>(?i:up\s+to|about|nearly|almost|more\s+than|over)\s+)?"
    rf"(?P<n>\d+(?:\.\d+)?|{_EN_NUM})(?:\s*[xX×])?" + EDGE_R
)
_CN_COUNT = re.compile(  # a lone 一个 is mostly "a", not a count
    rf"(?<![\d.])(?!一\s*(?:个|個))(?P<n>{_CN_NUM})\s*多?\s*(?P<mw>项|項|个|個|家|种|種|款|位)\s*"
    r"(?:新的?|典型的?|提交|主要|不同的?|)\s*(?:[A-Za-z\s]{0,4})?(?:[\u4e00-\u9fff]{0,4}?)\s*"
    r"(?P<what>基准测试|基準測試|测试|測試|任务|任務|工作负载|工作負載|模型|企业|企業|公司|"
    r"组织|組織|厂商|廠商|结果|結果|冠军|冠軍)"
)
_CN_RANK = re.compile(
    rf"第\s*(?P<r>{_CN_NUM})\s*(?:个|個|次|轮|輪|届|屆)?\s*(?:大)?(?:版本|版|轮|輪|届|屆|名(?!的))"
    rf"|前\s*(?P<top>{_CN_NUM})\s*名[^。，,；]{{0,6}}?(?:占据|占據|占|拿下)了?\s*(?P<n>{_CN_NUM})\s*(?:位|席|个|個)"
)
#: Words that are no part of a product name between a count and its noun ("2x faster
#: GPUs", "4x H200 in the rack").
_NOT_NAME = (
    r"(?i:in|the|of|with|for|on|at|across|per|and|or|to|from|than|more|faster|higher|better"
    r"|performance|speed\w*|improve\w*|less|lower|larger|bigger|increase\w*|gains?|boost\w*"
    r"|each|are|is|was|were|times)"
)
#: Accelerators and machines with words between the number and the noun: "2,496 NVIDIA
#: Blackwell GPUs", "3,456 of our next-gen TPU v4 ASICs", "128 ND H100 v5 instances",
#: "39 racks", "a 2,496-GPU cluster", "32x PowerEdge XE8545 servers", "8x MI300Xs".
_EN_SCALE = re.compile(
    NUM + r"(?P<x>\s*[xX×])?(?:\s+of\s+(?:our|the|their)(?:\s+next-?gen)?)?"
    r"(?P<mid>(?:\s+(?!(?:GPUs?|accelerators?|chips?|ASICs?|TPUs?|racks?|servers?|nodes?"
    r"|instances?|VMs?|machines?|cards?|systems?|" + _NOT_NAME + ")" + EDGE_R + r")"
    r"[A-Za-z][\w.+-]*){0,5}?)"
    r"[\s-]+(?P<what>(?i:GPUs?|accelerators?|chips?|ASICs?|TPUs?|racks?|servers?|nodes?|"
    r"instances?|VMs?|(?:digital|virtual)\s+machines?|cards?))"
    + EDGE_R
    + r"(?!\s+(?:quer|sampl|token|image|per\b))"
    + r"|"
    + NUM.replace("num", "num2")
    + r"\s*[xX×]?\s+(?P<acc>(?:NVIDIA\s+|AMD\s+)?"
    r"(?:[ABHLV]\d{2,3}S?|GB?[23]00|MI\d{3}X?)s?)(?![\w-]*\s+(?:GPUs?|cards?))" + EDGE_R
)
#: A number right after these is part of a name: "Gen 2", "RTX Pro 6000", "Series 9",
#: "RX 7900".
_NAMED_BEFORE = re.compile(
    r"(?i:\b(?:gen|generation|pro|rtx|series|version|gaudi|mlperf))\s*$"
    # a product code of capitals: "Biren BR 104 GPU", "Radeon RX 7900 GPU"
    r"|(?<![\w-])[A-Z]{1,4}\s$"
)
_CN_SCALE = re.compile(
    r"(?<![\d.])(?P<n>\d{1,3}(?:,\d{3})+|\d+)\s*(?:块|塊|个|個|张|張|颗|顆)\s*"
    r"(?:NVIDIA\s*|英伟达\s*|英偉達\s*)?(?P<acc>[ABHLV]\d{2,3}|GB?[23]00|Hopper\s*(?:架构\s*)?GPU"
    r"|GPU|加速器|芯片)"
)
#: Throughput per second in Chinese: 每秒31000个令牌, 每秒处理 2 万张图像.
_CN_THR = re.compile(
    r"每秒(?:钟|鐘)?\s*(?:处理|處理|生成|推理|可达|可達|达到|達到|输出|輸出)?\s*"
    r"(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(?P<mag>万|萬)?\s*(?:多)?\s*"
    r"(?:个|個|张|張|帧|幀)?\s*(?P<u>令牌|tokens?|样本|樣本|图像|圖像|图片|圖片|帧|幀|查询|查詢)"
)
_CN_THR_UNITS = {
    "令牌": "token/s",
    "token": "token/s",
    "tokens": "token/s",
    "样本": "sample/s",
    "樣本": "sample/s",
    "图像": "image/s",
    "圖像": "image/s",
    "图片": "image/s",
    "圖片": "image/s",
    "帧": "frame/s",
    "幀": "frame/s",
    "查询": "query/s",
    "查詢": "query/s",
}
#: A time in minutes and seconds (or hours and minutes): "37 minutes 21 seconds",
#: "1 hour and 5 minutes", "2分30秒"; ``value`` in the larger unit.
_TWO_UNITS = re.compile(
    NUM + r"\s*(?P<u1>(?i:minutes?|mins?|hours?|hrs?)|分钟|分鐘|分|小时|小時)\s*(?:(?i:and)\s+)?"
    r"(?P<n2>\d{1,2}(?:\.\d+)?)\s*(?P<u2>(?i:seconds?|secs?|minutes?|mins?)|秒钟|秒鐘|秒|分钟|分鐘)"
    + EDGE_R
)

#: Energy: "2.3 MJ to train", "15.4 kWh", "1,200 joules", "3.2 兆焦" (kind ``energy``).
_ENERGY = re.compile(
    NUM + r"\s*(?P<u>(?i:kJ|MJ|GJ|kWh|MWh|Wh|(?:kilo|mega|giga|micro)?joules?)(?![A-Za-z/])"
    # MLPerf Tiny's energy per inference: µJ (micro sign or Greek mu) or "uJ"
    r"|[µμu]J(?![A-Za-z/])|千焦|兆焦|焦耳|千瓦时|千瓦時|度电|度電)"
)
_ENERGY_UNITS = {
    "kj": "kJ",
    "mj": "MJ",
    "gj": "GJ",
    "kwh": "kWh",
    "mwh": "MWh",
    "wh": "Wh",
    "joule": "J",
    "joules": "J",
    "kilojoule": "kJ",
    "kilojoules": "kJ",
    "megajoule": "MJ",
    "megajoules": "MJ",
    "gigajoule": "GJ",
    "gigajoules": "GJ",
    "microjoule": "uJ",
    "microjoules": "uJ",
    "µj": "uJ",
    "μj": "uJ",
    "uj": "uJ",
    "千焦": "kJ",
    "兆焦": "MJ",
    "焦耳": "J",
    "千瓦时": "kWh",
    "千瓦時": "kWh",
    "度电": "kWh",
    "度電": "kWh",
}

#: Latency: "76 ms latency", "a p99 TTFT of 450 ms", "20 毫秒" (kind ``latency``).
_LATENCY = re.compile(
    NUM + r"\s*(?P<u>(?i:ms|msec|milliseconds?|µs|μs|us|microseconds?)|毫秒|微秒)" + EDGE_R
)
_LATENCY_UNITS = {"毫秒": "ms", "微秒": "us", "µs": "us", "μs": "us"}

#: Hardware figures: no MLPerf metric (kind ``spec``).
_SPEC = re.compile(
    NUM + r"\s*(?P<u>(?i:petaflops|exaflops|teraflops|TB/s|W(?=\W|$)|watts?\b|"
    r"logical\s+CPU\s+cores?|(?:CUDA|Tensor|CPU)\s+cores?|-?cores?\b)|(?:个|個)?\s*(?:CUDA|Tensor)?\s*核心?|平方毫米|"
    r"G(?=\s*(?:内存|內存|显存|顯存))|亿晶体管|億晶體管|亿参数|億參數)"
)
_EN_SPEC_WORD = re.compile(
    EDGE_L + rf"(?P<n>(?i:single|dual|quad|{_EN_NUM}|\d+))[\s-]+(?i:core)" + EDGE_R
)
_SPEC_UNITS = {
    "petaflops": "PFLOPS",
    "exaflops": "EFLOPS",
    "teraflops": "TFLOPS",
    "tb/s": "TB/s",
    "w": "W",
    "watt": "W",
    "watts": "W",
    "平方毫米": "mm2",
    "g": "GB",
}
_SCALE_UNITS = {
    "gpu": "GPU",
    "accelerator": "accelerator",
    "chip": "chip",
    "asic": "chip",
    "tpu": "TPU",
    "card": "card",
    "rack": "rack",  # a rack holds nodes: its count is no node count
}


def en_number(word: str) -> float | None:
    """An English count as written ("seven", "half-dozen", "2,496") -> its value."""
    w = re.sub(r"\s+", " ", word.strip().lower())
    if w in EN_WORDS:
        return float(EN_WORDS[w])
    if w in ("single", "dual", "quad"):
        return {"single": 1.0, "dual": 2.0, "quad": 4.0}[w]
    if w in EN_ORDINALS:
        return float(EN_ORDINALS[w])
    m = re.fullmatch(r"(\d+)(?:st|nd|rd|th)", w)
    return float(m.group(1)) if m else to_number(w)


def cn_number(text: str) -> float | None:
    """A Chinese numeral or digits (两, 八, 二十三, 3,584) -> its value (cn2an), or None."""
    t = text.strip()
    if re.fullmatch(r"[\d,]+(?:\.\d+)?", t):
        return to_number(t)
    try:
        return float(cn2an.cn2an(t, "smart"))
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def word_quantities(seg: str, base: int) -> list[Quantity]:
    """The quantities of :mod:`claim_words` in the sentence ``seg`` (offsets + ``base``),
    in text order, none overlapping another."""
    found = sorted(_all(seg, base), key=lambda q: (q.start, -(q.end - q.start)))
    out: list[Quantity] = []
    for q in found:
        whole = any(  # the six of "four of the six benchmarks"
            o.kind == q.kind == "count" and o.compared == q.value and o.start < q.start for o in out
        )
        clash = any(o.start < q.end and q.start < o.end for o in out)
        if q.value is not None and (whole or not clash):
            out.append(q)
    return out


def _all(seg: str, base: int) -> Iterator[Quantity]:
    for m in _EN_COUNT.finditer(seg):
        what = m.group("what").lower().rstrip("s")
        q = Quantity("count", en_number(m.group("n")), _EN_NOUNS.get(what, "item"), *_span(m, base))
        q.compared = en_number(m.group("of")) if m.group("of") else None
        yield q
        if m.group("of") and re.search(r"\sof\s+the\s", m.group()):
            # "four of the six benchmarks Google entered": the six is a count the page
            # states too (a total it knows; "two out of three" states no total)
            whole = Quantity("count", q.compared, q.unit, *_span(m, base, "of"))
            yield whole
    for m in _EN_YEARLY.finditer(seg):
        yield Quantity("count", en_number(m.group("n")), "item", *_span(m, base, "n"))
    for m in _EN_RANK.finditer(seg):
        g = "r1" if m.group("r1") else "r2" if m.group("r2") else "r3"
        unit = "edition" if g == "r3" else "rank"
        yield Quantity("count", en_number(m.group(g)), unit, *_span(m, base, g))
    for m in _EN_TOP.finditer(seg):
        q = Quantity("count", en_number(m.group("n")), "rank", *_span(m, base))
        q.compared = en_number(m.group("top"))
        yield q
    for m in _FACTOR.finditer(seg):
        q = Quantity("multiplier", en_number(m.group("n")), "x", *_span(m, base))
        if m.group("q"):
            from .patterns import QUALIFIERS

            q.qualifier_text = m.group("q").strip()
            q.qualifier = QUALIFIERS.get(re.sub(r"\s+", " ", q.qualifier_text.lower()), "")
        yield q
    yield from _chinese(seg, base)
    yield from _times(seg, base)
    yield from _scales(seg, base)
    yield from _specs(seg, base)


def _chinese(seg: str, base: int) -> Iterator[Quantity]:
    for m in _CN_COUNT.finditer(seg):
        what = m.group("what")
        unit = (
            "organization"
            if what in ("企业", "企業", "公司", "组织", "組織", "厂商", "廠商")
            else "result"
            if what in ("结果", "結果")
            else "task"
            if what in ("任务", "任務")
            else "win"
            if what in ("冠军", "冠軍")
            else "benchmark"
        )
        yield Quantity("count", cn_number(m.group("n")), unit, *_span(m, base))
    for m in _CN_RANK.finditer(seg):
        if m.group("r"):
            unit = "rank" if seg[m.end() - 1] == "名" else "edition"
            yield Quantity("count", cn_number(m.group("r")), unit, *_span(m, base))
        else:
            q = Quantity("count", cn_number(m.group("n")), "rank", *_span(m, base))
            q.compared = cn_number(m.group("top"))
            yield q


def _times(seg: str, base: int) -> Iterator[Quantity]:
    for m in _TWO_UNITS.finditer(seg):
        hours = m.group("u1").lower().startswith(("h", "小"))
        small = m.group("u2").lower().startswith(("s", "秒"))
        if hours == small:  # "2 hours 30 seconds", "5 minutes 3 minutes": not one time
            continue
        whole, part = to_number(m.group("num")), to_number(m.group("n2"))
        if whole is None or part is None or part >= 60:
            continue
        yield Quantity("time", whole + part / 60, "h" if hours else "min", *_span(m, base))
    for m in _CN_THR.finditer(seg):
        value = to_number(m.group("n"))
        if value is not None and m.group("mag"):
            value *= 1e4
        unit = _CN_THR_UNITS.get(m.group("u").lower(), "sample/s")
        yield Quantity("throughput", value, unit, *_span(m, base))


def _scales(seg: str, base: int) -> Iterator[Quantity]:
    for m in _EN_SCALE.finditer(seg):
        if m.group("num2"):
            value, unit, hint = to_number(m.group("num2")), "GPU", m.group("acc").rstrip("s")
        else:
            what = re.sub(r"\s+", " ", m.group("what").lower()).split()[-1].rstrip("s")
            value, hint = to_number(m.group("num")), (m.group("mid") or "").strip(" -")
            unit = _SCALE_UNITS.get(what, "node")
        if "." in (m.group("num") or m.group("num2")) or _NAMED_BEFORE.search(seg, 0, m.start()):
            continue  # "197.6 server queries", "Gen 2 data center accelerator": no count
        if m.group("num") and m.group("mid") and seg[m.end("num")] == "-":
            continue  # "12-chiplet MI300X GPU": the hyphen binds the number to the next word
        # the span is the count ("8x", "2,496"), as for "8x H100" in claim_quantities:
        # the names after it stay names
        a, b = (
            (m.start("num2"), m.start("acc"))
            if m.group("num2")
            else (m.start("num"), m.end("x") if m.group("x") else m.end("num"))
            if m.group("mid")
            else (m.start("num"), m.end("what"))  # "384 accelerators", as claim_quantities
        )
        b = a + len(seg[a:b].rstrip())
        q = Quantity("scale", value, unit, base + a, base + b)
        q.system_hint = hint
        yield q
    for m in _CN_SCALE.finditer(seg):
        acc = m.group("acc")
        unit = "chip" if acc == "芯片" else "accelerator" if acc == "加速器" else "GPU"
        q = Quantity("scale", to_number(m.group("n")), unit, *_span(m, base, "n"))
        q.system_hint = acc if unit == "GPU" and acc != "GPU" else ""
        yield q


def _specs(seg: str, base: int) -> Iterator[Quantity]:
    for m in _LATENCY.finditer(seg):
        u = m.group("u").lower()
        unit = _LATENCY_UNITS.get(u, "us" if u.startswith(("us", "micro")) else "ms")
        q = Quantity("latency", to_number(m.group("num")), unit, *_span(m, base))
        qb = Q_BEFORE.search(seg[max(0, m.start() - 24) : m.start()])  # "in less than 10 ms"
        if qb:
            q.qualifier_text = qb.group("en") or qb.group("zh")
            q.qualifier = QUALIFIERS.get(q.qualifier_text.lower(), "")
        yield q
    for m in _ENERGY.finditer(seg):
        unit = _ENERGY_UNITS.get(m.group("u").lower(), m.group("u"))
        yield Quantity("energy", to_number(m.group("num")), unit, *_span(m, base))
    for m in _SPEC.finditer(seg):
        u = re.sub(r"\s+", " ", m.group("u").strip().lower())
        value = to_number(m.group("num"))
        if "亿" in u or "億" in u:
            value, unit = (value or 0.0) * 1e8, "transistor" if "晶" in u else "parameter"
        elif "core" in u or "核" in u:
            unit = "core"
        else:
            unit = _SPEC_UNITS.get(u, u)
        yield Quantity("spec", value, unit, *_span(m, base))
    for m in _EN_SPEC_WORD.finditer(seg):
        yield Quantity("spec", en_number(m.group("n")), "core", *_span(m, base))


def _span(m: re.Match[str], base: int, group: str | int = 0) -> tuple[int, int]:
    return base + m.start(group), base + m.end(group)

"""The quantities of a sentence: times, percentages, multipliers, scales, counts,
hardware figures and throughputs, each with its unit and qualifier. Pure: no Django.
"""

from __future__ import annotations

import re

from .patterns import (
    ACCEL_AFTER_X,
    FRACTION,
    FRACTION_VALUES,
    NEGATION,
    Q_AFTER,
    Q_BEFORE,
    QUALIFIERS,
    QUANTITY,
    RANGE,
    RESULT_ID,
    SHARED_UNIT,
    SPLIT_RANGES,
    TIME_UNITS,
    TRAINING_WORDS,
    quality_figure,
    share_figure,
)
from .sentences import Sentence
from .targets import target_quantities
from .types import Quantity, to_number
from .words import word_quantities

#: A product named right before "(8×)": the count of a label ("H100 SXM (8×)"), no gain.
ACCEL_BEFORE_PAREN_X = re.compile(
    r"(?<![A-Za-z0-9])(?P<acc>[ABHLV]\d{2,3}S?|GB?[23]00|MI\d+X?|Gaudi\s?\d|TPU\s?v\d\w*|GPUs?)"
    r"(?:[\s-]+(?:SXM\d?|PCIe|NVL|\d+\s?GB))*\s*\(\s*$"
)

#: The ")" closing such a label, with no comparison after it ("(30x) faster" is a gain).
_LABEL_END = re.compile(
    r"\s*\)(?!\s*(?i:faster|slower|higher|lower|more|better|speed|improve|gain|than|over|vs))"
)

#: A number right after these is part of a name, not a count: "Gaudi 2 accelerator",
#: "MLPerf Training 3.1 results", "MLPerf 4.0 results".
NAMED_BEFORE = re.compile(
    r"(?:\bGaudi|\bMLPerf|\b(?i:training|inference))\s*[vV]?$"
    # a product code of capitals: "Biren BR 104 GPU", "Radeon RX 7900 GPU", "Arc A 770"
    r"|(?<![\w-])[A-Z]{1,4}\s$"
)

#: Host processors after "Nx" ("2x AMD EPYC 9374F CPUs", "2x Intel Xeon Platinum 8480+"):
#: a configuration count, a hardware figure (kind ``spec``), never a multiplier.
CPU_AFTER_X = re.compile(
    r"\s*(?:\d(?:st|nd|rd|th)\s+Gen(?:eration)?\s+)?(?:AMD\s+|Intel(?:®|\(R\))?\s+|NVIDIA\s+|Arm\s+)?"
    r"(?:EPYC|Xeon|Grace(?!\s*Hopper|\s*Blackwell)|Core\s+i\d|Ampere\s+Altra|CPUs?|processors?|sockets?)"
    r"(?![\w-])"
)

# --- quantities --------------------------------------------------------------------


def find_quantities(t: str, s: Sentence) -> list[Quantity]:
    """The quantities of sentence ``s`` of the prepared text ``t``, in text order:
    ranges and gains in words first (:func:`_ranges_and_words`), then every
    figure with a unit; figures under a negation ("不能說 100% 超越") are left out
    (``claim_coverage`` lists them as negated)."""
    seg = t[s.start : s.end]
    seg = RESULT_ID.sub(lambda m: " " * len(m.group()), seg)
    out = target_quantities(seg, s.start)
    if not t[s.end :].strip():  # the page's last words: a count whose noun was cut off
        out += _cut_off_scale(seg, s.start)
    out += [q for q in _ranges_and_words(seg, s.start) if not _overlaps(q, out)]
    out += [
        _qualified(seg, q, s.start) for q in word_quantities(seg, s.start) if not _overlaps(q, out)
    ]
    for m in SHARED_UNIT.finditer(seg):  # "28.3 vs 29.1 minutes": the first shares the unit
        if any(q.start <= s.start + m.start() < q.end for q in out):
            continue
        unit = TIME_UNITS[m.group("unit").lower()]
        out.append(
            Quantity(
                "time", to_number(m.group("num")), unit, s.start + m.start(), s.start + m.end()
            )
        )
    for m in QUANTITY.finditer(seg):
        if any(q.start <= s.start + m.start() < q.end for q in out):
            continue
        value = to_number(m.group("num"))
        if value is not None and m.group("mag"):  # "~300k tokens/s"
            value *= 1e6 if m.group("mag").strip() == "M" else 1e3
        unit, kind, hint = _unit(m, seg)
        if unit == "d" and not _training_days(seg, m.start()):
            continue  # "within 30 days", "第3天": no time of training
        if kind in ("scale", "count") and (
            NAMED_BEFORE.search(seg[: m.start()]) or "." in m.group("num")
        ):
            continue  # "Gaudi 2 accelerators", "MLPerf 3.1 results": part of a name
        q = Quantity(kind, value, unit, s.start + m.start(), s.start + m.end(), system_hint=hint)
        qb = Q_BEFORE.search(seg[max(0, m.start() - 24) : m.start()])
        qa = Q_AFTER.match(seg[m.end() :])
        written = (qb.group("en") or qb.group("zh")) if qb else (qa.group("zh") if qa else "")
        if written:
            q.qualifier_text, q.qualifier = written, QUALIFIERS.get(written.lower(), "")
        out.append(q)
    out = [q for q in out if not negated(seg, q.start - s.start) and not _no_gain(seg, q, s.start)]
    return sorted(out, key=lambda q: q.start)


def _qualified(seg: str, q: Quantity, base: int) -> Quantity:
    """A count of accelerators in words ("多达10,752个H100") with the qualifier written
    before it ("多达", "as many as": ``up to``), as figures with a unit get theirs."""
    if q.kind != "scale" or q.qualifier:
        return q
    at = q.start - base
    qb = Q_BEFORE.search(seg[max(0, at - 24) : at])
    if qb:
        q.qualifier_text = qb.group("en") or qb.group("zh")
        q.qualifier = QUALIFIERS.get(q.qualifier_text.lower(), "")
    return q


#: A count the page's text stops right after ("We achieved this by scaling up to 3,456
#: of our next", "1,344 ... VMs, which represent 10,752"): a verb that gives a count of
#: accelerators, the number, at most "of our/the/their" and one word, then the end.
_CUT_SCALE = re.compile(
    r"(?i:\bscal(?:e|ed|ing)\s+(?:up\s+)?to|\b(?:represent|characteri[sz]e|total|compris)\w*)"
    r"\s+(?:up\s+to\s+)?(?P<num>\d{1,3}(?:,\d{3})+|\d+)"
    r"(?:\s+of\s+(?:our|the|their)(?:\s+[\w-]+)?)?\W*$"
)


def _cut_off_scale(seg: str, base: int) -> list[Quantity]:
    """The count of accelerators a cut-off last sentence ends on (:data:`_CUT_SCALE`),
    unit ``accelerator``; offsets + ``base``."""
    m = _CUT_SCALE.search(seg)
    if not m:
        return []
    value = to_number(m.group("num"))
    return [Quantity("scale", value, "accelerator", base + m.start("num"), base + m.end("num"))]


def _training_days(seg: str, at: int) -> bool:
    """A time in days at offset ``at`` of ``seg`` is a claim only in a sentence about
    training and not as an ordinal day ("第3天")."""
    return bool(TRAINING_WORDS.search(seg)) and not seg[max(0, at - 1) : at].endswith("第")


def _overlaps(q: Quantity, others: list[Quantity]) -> bool:
    return any(o.start < q.end and q.start < o.end for o in others)


def _no_gain(seg: str, q: Quantity, base: int) -> bool:
    """A percentage that is a quality figure or a share ("75.9% top-1 accuracy", "30%
    of the servers"): no claim (the page's number accounting gives its reason)."""
    if q.kind != "percentage":
        return False
    a, b = q.start - base, q.end - base
    return quality_figure(seg[max(0, a - 30) : a], seg[b : b + 30]) or share_figure(
        seg[max(0, a - 30) : a], seg[b - 1 : b + 60]
    )


def negated(seg: str, at: int) -> bool:
    """Whether a negation governs the figure at offset ``at`` of ``seg`` (NEGATION:
    the words just before it, a qualifier between them allowed)."""
    before = seg[max(0, at - 24) : at]
    qb = Q_BEFORE.search(before)
    if qb:
        before = before[: qb.start()]
    return bool(NEGATION.search(before))


def _ranges_and_words(seg: str, base: int) -> list[Quantity]:
    """Ranges ("2-3x", "20~30%": ``value`` the low figure, ``high`` the other,
    qualifier "at least") and gains in words ("缩短了一倍多": 2x, more than;
    "halved", "tripled"); offsets + ``base``."""
    out: list[Quantity] = []
    split = [m for rx in SPLIT_RANGES for m in rx.finditer(seg)]
    for m in [*RANGE.finditer(seg), *split]:
        if any(q.start < base + m.end() and base + m.start() < q.end for q in out):
            continue  # "from 2x to 3x": the range read once
        if m.groupdict().get("u1") and _range_unit(m.group("u1")) != _range_unit(m.group("unit")):
            continue  # "between 8% and 3x": no range
        low, high = to_number(m.group("num")), to_number(m.group("high"))
        unit = _range_unit(m.group("unit"))
        kind = "percentage" if unit == "%" else "multiplier"
        q = Quantity(kind, low, unit, base + m.start(), base + m.end(), "at least", m.group())
        q.high = high
        out.append(q)
    for m in FRACTION.finditer(seg):
        words = m.group("one") or m.group("zh2") or re.sub(r"\s+", " ", m.group("en").lower())
        q = Quantity("multiplier", FRACTION_VALUES[words], "x", base + m.start(), base + m.end())
        qb = Q_BEFORE.search(seg[max(0, m.start() - 24) : m.start()])
        written = (qb.group("en") or qb.group("zh")) if qb else ""
        if m.group("more"):
            written = m.group("more")
        if written:
            q.qualifier_text, q.qualifier = written, QUALIFIERS.get(written.lower(), "")
        out.append(q)
    return out


def _range_unit(written: str) -> str:
    return "%" if written in ("%", "percent") else "x"


def _unit(m: re.Match[str], seg: str) -> tuple[str, str, str]:
    g = m.groupdict()
    if g["thr"]:
        return throughput_unit(g["thr"]), "throughput", ""
    if g["time"] or g["ztime"]:
        return TIME_UNITS[(g["time"] or g["ztime"]).lower()], "time", ""
    if g["pct"]:
        return "%", "percentage", ""
    if g["mult"]:
        after = ACCEL_AFTER_X.match(seg[m.end() :]) if g["mult"] in "xX×" else None
        if after:  # "8x H100": eight H100s
            return _scale_unit(after.group("acc")), "scale", after.group("acc")
        label = g["mult"] in "xX×" and _LABEL_END.match(seg, m.end())
        # the product's words stand just before "(": a bounded window, not the sentence
        before = label and ACCEL_BEFORE_PAREN_X.search(seg, max(0, m.start() - 40), m.start())
        if before:
            # "H100 SXM (8×)": eight H100s, a label's count, not a gain
            return _scale_unit(before.group("acc")), "scale", before.group("acc")
        if g["mult"] in "xX×" and CPU_AFTER_X.match(seg[m.end() :]):  # "2x AMD EPYC CPUs"
            return "CPU", "spec", ""
        return "x", "multiplier", ""
    if g["scale"]:
        return _scale_unit(g["scale"]), "scale", ""
    if g["zscale"]:
        return _scale_unit(g["zscale"]), "scale", ""
    if g["zsys"]:
        return "system", "scale", (g["sysname"] or "").strip()
    if g["zcount"] or g["count"]:
        return (
            _COUNT_UNITS.get(
                (g["zwhat"] or g["what"] or "").lower().split()[-1].rstrip("s"), "item"
            ),
            "count",
            "",
        )
    return _SPEC_UNITS.get(g["spec"].lower(), g["spec"]), "spec", ""


_COUNT_UNITS = {
    "冠军": "win",
    "冠軍": "win",
    "win": "win",
    "place": "win",
    "record": "record",
    "任务": "task",
    "任務": "task",
    "成绩": "result",
    "成績": "result",
    "result": "result",
    "submission": "result",
    "公司": "organization",
    "厂商": "organization",
    "廠商": "organization",
    "companie": "organization",
    "organization": "organization",
    "manufacturer": "organization",
    "member": "organization",
}
_SPEC_UNITS = {
    "tflops": "TFLOPS",
    "pflops": "PFLOPS",
    "tops": "TOPS",
    "gb/s": "GB/s",
    "gb": "GB",
    "mb": "MB",
    "tb": "TB",
    "ghz": "GHz",
    "mhz": "MHz",
    "nm": "nm",
}


_THR_NOUNS = {"querie": "query", "inference": "sample", "sequence": "sample"}


def throughput_unit(written: str) -> str:
    """The unit of a throughput as written: "tokens/s" -> ``token/s``, "server queries
    per watt" -> ``query/W``, "FPS" -> ``frame/s``, "IPS/W" -> ``image/W``."""
    w = re.sub(r"\s+", " ", written.strip().lower())
    short = {"fps": "frame/s", "ips": "image/s", "qps": "query/s"}
    if w.replace(" ", "") in ("ips/w",):
        return "image/W"
    if w in short:
        return short[w]
    noun = re.split(r"\s*/\s*|\s+per\s+", w.removeprefix("server ").removeprefix("offline "))
    base = noun[0].rstrip("s")
    base = _THR_NOUNS.get(base, base)
    per = "s"
    if noun[-1] in ("watt", "w") or w.endswith("/w"):
        per = "W"
    elif noun[-1] == "joule":
        per = "J"
    return f"{base}/{per}"


def _scale_unit(word: str) -> str:
    w = word.strip().lower()
    for key, unit in (
        ("gpu", "GPU"),
        ("ipu", "IPU"),
        ("tpu", "TPU"),
        ("hpu", "HPU"),
        ("chip", "chip"),
        ("芯片", "chip"),
        ("颗", "chip"),
        ("顆", "chip"),
        ("accelerator", "accelerator"),
        ("加速器", "accelerator"),
        ("node", "node"),
        ("节点", "node"),
        ("節點", "node"),
        ("card", "card"),
        ("张", "card"),
        ("張", "card"),
        ("a100", "GPU"),
        ("h100", "GPU"),
        ("v100", "GPU"),
        ("gaudi", "HPU"),
        ("mi", "GPU"),
    ):
        if key in w:
            return unit
    if re.fullmatch(r"(?:gb?|[abhlv])\d{2,3}s?", w):  # "H200", "GB300", "L40S": a GPU
        return "GPU"
    return w


def minutes_of(q: Quantity) -> float:
    return (q.value or 0.0) * unit_scale(q.unit, "min")


def unit_scale(unit: str, to: str) -> float:
    per_min = {"min": 1.0, "s": 1 / 60.0, "h": 60.0, "d": 1440.0}
    return per_min.get(unit, 1.0) / per_min.get(to, 1.0)

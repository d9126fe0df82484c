"""Baselines: what a comparative claim is measured against, as the page states it, and
where the two sides differ. Pure: no Django.

``describe_baselines(text, claims, arithmetic)`` -> one :class:`Baseline` or None per
claim (None for a claim that compares nothing: a time, a scale, a hardware figure). For
a multiplier, percentage, head-to-head or parity claim it reads:

* the baseline's name: the words after the comparison ("46x faster than *the best
  result reported before, which used TensorFlow on Google Cloud*"; "比 *TensorFlow*
  快"), its software (a framework name), the compared system, or the round it is
  measured against (``Claim.baseline``);
* each side's hardware (CPU, GPU, IPU... machines, servers, accelerators, a cloud),
  software, quality reached (loss, accuracy) and who ran it, from the sentences that
  hold the side's figure (the page arithmetic's old and new operands,
  :mod:`.claim_arithmetic`) or name its software, anywhere on the page.

Flags: ``baseline-not-stated`` (a gain against nothing the page names),
``different-hardware`` (the two sides ran on different kinds of processor or a
different count of machines), ``different-software``, ``different-quality`` (the two
sides reached different losses or accuracies), ``different-runner`` (the baseline was
run by another organization than the claim's).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from benchdb.vocabulary import FRAMEWORK_NAMES

from .arithmetic import PageArithmetic
from .patterns import SUBMITTERS
from .sentences import split_sentences
from .types import Claim

_COMPARATIVE = ("multiplier", "percentage", "head_to_head", "parity")
#: Organizations a side may be run by: MLPerf submitters and others vendors compare with.
ORGANIZATIONS = {
    **SUBMITTERS,
    "ibm": "IBM",
    "huawei": "Huawei",
    "华为": "Huawei",
    "華為": "Huawei",
    "amd": "AMD",
    "aws": "AWS",
    "amazon": "AWS",
    "meta": "Meta",
    "facebook": "Meta",
}
_AFTER_COMPARE = re.compile(
    r"(?i:(?:than|vs\.?|versus|compared (?:to|with)|against|over)\s+(?P<en>[^.;:。；]{1,120}))"
    r"|比\s*(?P<zh>[^，。；,]{1,40}?)\s*(?:快|高|强|強|好|短|少|提升|提高)"
    r"|(?:与|與|和|较|較)\s*(?P<zh2>[^，。；,]{1,40}?)\s*(?:相比|相较|相較|比较|比較)"
)
_PROCESSORS = re.compile(
    r"(?i:(?<![A-Za-z])(?P<p>CPU|GPU|IPU|TPU|HPU|NPU|FPGA|[AHV]100|H200|Ascend|Gaudi\s?\d?)s?"
    r"(?![A-Za-z]))"
)
_MACHINES = re.compile(
    r"(?<![\w.])(?P<n>\d[\d,]*)\s*(?:台|个|個)?\s*(?:(?P<what>[A-Za-z][\w -]{0,30}?)\s*)?"
    r"(?i:machines|servers|nodes|instances|GPUs|CPUs|IPUs|TPUs|accelerators)"
    r"|(?P<zn>\d[\d,]*)\s*(?:台|个|個)\s*(?P<zwhat>[\w -]{0,30}?)\s*"
    r"(?:服务器|服務器|机器|機器|节点|節點)"
)
_CLOUD = re.compile(
    r"(?i:Google Cloud(?: Platform)?|AWS|Amazon Web Services|Azure|Alibaba Cloud|阿里云|华为云)"
)
_QUALITY = re.compile(
    r"(?i:(?P<what>(?:test |log |training )?loss|accuracy|准确率|準確率|精度|损失|損失))"
    r"[^\d]{0,20}?(?P<v>\d+(?:\.\d+)?%?)"
)
_RUN_BY = re.compile(
    r"(?i:run by|reported by|submitted by|measured by|from|by)\s+(?P<en>[A-Z][\w]+)"
    r"|(?:来自|來自|由)\s*(?P<zh>\S{1,6}?)(?:[:：，。]|提交|完成|测|測)"
)
_FRAMEWORK = re.compile(
    "|".join(re.escape(k) for k in sorted(FRAMEWORK_NAMES, key=len, reverse=True)), re.I
)


@dataclass(frozen=True)
class Side:
    """One side of a comparison as the page states it ("" / () when it does not)."""

    software: str = ""
    processors: tuple[str, ...] = ()
    machines: str = ""
    cloud: str = ""
    quality: str = ""
    run_by: str = ""


@dataclass(frozen=True)
class Baseline:
    """What a claim compares against: ``name`` (as written), ``kind`` (``stated``:
    named on the page; ``round``: an earlier MLPerf round, the first submission or a
    previous product; ``none``: not stated), the baseline and subject :class:`Side`, and
    ``flags`` (module docstring)."""

    name: str
    kind: str
    baseline: Side = field(default_factory=Side)
    subject: Side = field(default_factory=Side)
    flags: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready dict (sides as dicts, tuples as lists)."""
        return {
            "name": self.name,
            "kind": self.kind,
            "baseline": {k: _plain(v) for k, v in self.baseline.__dict__.items()},
            "subject": {k: _plain(v) for k, v in self.subject.__dict__.items()},
            "flags": list(self.flags),
        }


def _plain(v: object) -> object:
    return list(v) if isinstance(v, tuple) else v


def describe_baselines(
    text: str, claims: Sequence[Claim], arithmetic: Sequence[PageArithmetic | None]
) -> list[Baseline | None]:
    """Each claim's :class:`Baseline` (module docstring), aligned with ``claims``.
    ``text``: the text the claims' spans point into; ``arithmetic``: their page
    arithmetic (:func:`.claim_arithmetic.page_arithmetic`), aligned with them."""
    spans = [(x.start, x.end, text[x.start : x.end]) for x in split_sentences(text)]
    return [
        _baseline(text, c, pa, claims, spans) if c.kind in _COMPARATIVE else None
        for c, pa in zip(claims, arithmetic, strict=True)
    ]


def _baseline(
    text: str,
    c: Claim,
    pa: PageArithmetic | None,
    claims: Sequence[Claim],
    spans: list[tuple[int, int, str]],
) -> Baseline:
    m = _AFTER_COMPARE.search(c.sentence[max(0, c.start - c.sentence_start) :]) or (
        _AFTER_COMPARE.search(c.sentence)
    )
    phrase = (m.group("en") or m.group("zh") or m.group("zh2") or "").strip() if m else ""
    name = phrase or c.compared_system or c.compared_framework
    base_sw = _software(phrase) or c.compared_framework
    old_s = _sentence_of(claims, pa.old.claim) if pa else ""
    new_s = _sentence_of(claims, pa.new.claim) if pa else ""
    named = [s for _, _, s in spans if base_sw and base_sw.lower() in s.lower()]
    base = _side(base_sw, [old_s, phrase, *named], base_sw)
    subj_sw = _software(new_s) if new_s and _software(new_s) != base_sw else c.framework
    own = [new_s] if new_s and new_s not in named else []
    subject = _side(subj_sw, own, "")
    both = [s[: s.lower().find(base_sw.lower())] for s in named if base_sw]
    if not subject.quality:
        subject = replace(subject, quality=_side("", both, "").quality)
    subject = _with_runner(subject, text, c)
    if not name and c.baseline:
        return Baseline(c.baseline, "round", base, subject)
    if not name:
        flags: tuple[str, ...] = ("baseline-not-stated",) if c.kind != "parity" else ()
        return Baseline("", "none", base, subject, flags)
    return Baseline(name[:200], "stated", base, subject, _flags(base, subject))


def _sentence_of(claims: Sequence[Claim], i: int) -> str:
    return claims[i].sentence


def _software(s: str) -> str:
    m = _FRAMEWORK.search(s)
    return FRAMEWORK_NAMES[m.group().lower()] if m else ""


def _side(software: str, sentences: Sequence[str], key: str) -> Side:
    """A side's facts from its sentences; quality is read after the side's own name
    when the sentence names both sides ("Snap ML reached 0.1292, TensorFlow 0.1293")."""
    procs: list[str] = []
    machines = cloud = quality = run_by = ""
    for s in (x for x in sentences if x):
        procs += [p.group("p").upper() for p in _PROCESSORS.finditer(s)]
        mm = _MACHINES.search(s)
        machines = machines or (mm.group().strip() if mm else "")
        cm = _CLOUD.search(s)
        cloud = cloud or (cm.group() if cm else "")
        at = s.lower().find(key.lower()) if key else -1
        qm = _QUALITY.search(s, at if at >= 0 else 0)
        quality = quality or (f"{qm.group('what')} {qm.group('v')}" if qm else "")
        run_by = run_by or _runner(s)
    return Side(software, tuple(dict.fromkeys(procs)), machines, cloud, quality, run_by)


def _runner(s: str) -> str:
    for m in _RUN_BY.finditer(s):
        who = (m.group("en") or m.group("zh") or "").lower()
        for name, canon in ORGANIZATIONS.items():
            if who.startswith(name):
                return canon
    return ""


def _with_runner(side: Side, text: str, c: Claim) -> Side:
    """The subject is run by the organization its page names first (the claimant)."""
    if side.run_by:
        return side
    low = text[:2000].lower()
    hits = [(low.find(n), canon) for n, canon in ORGANIZATIONS.items() if n in low]
    who = min(hits)[1] if hits else c.submitter
    return replace(side, run_by=who)


def _flags(base: Side, subject: Side) -> tuple[str, ...]:
    flags = []
    kinds_b = {p for p in base.processors if p in ("CPU", "GPU", "IPU", "TPU", "HPU", "NPU")}
    kinds_s = {p for p in subject.processors if p in ("CPU", "GPU", "IPU", "TPU", "HPU", "NPU")}
    if (kinds_b and kinds_s and kinds_b != kinds_s) or (
        base.machines and subject.machines and base.machines != subject.machines
    ):
        flags.append("different-hardware")
    if base.software and subject.software and base.software != subject.software:
        flags.append("different-software")
    if base.quality and subject.quality and base.quality != subject.quality:
        flags.append("different-quality")
    if base.run_by and subject.run_by and base.run_by != subject.run_by:
        flags.append("different-runner")
    return tuple(flags)

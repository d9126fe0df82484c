"""Quality targets a page states for an MLPerf benchmark ("the model must reach Minimum
Box mAP: 0.377", "a target of 75.9% top-1 accuracy", "精度目标为 72%"). Pure: no Django.

``target_quantities(seg, base)`` -> :class:`Quantity` of kind ``target``: the figure as
written (``unit`` "%" for a percentage, "fraction" for a bare fraction below 1),
offsets + ``base``; ``target_part(seg, at)``: its part of a two-part target
(``BBOX``/``SEGM`` for Mask R-CNN's box and mask mAP, ``FID``/``CLIP`` for Stable
Diffusion), "" for a one-part target. A figure counts only when its clause says it is
required (target, must reach, minimum, threshold, specifies: "the benchmark specifies
an overall mAP score of 34%", 目标, 达到) and names a quality metric (mAP, accuracy,
top-1, BLEU, loss, perplexity, F1, AUC, FID, CLIP, 精度, 准确率) after that word or
right after the figure: an accuracy a model reached ("75.9% accuracy") is no target and
stays a number the page's accounting explains (``coverage``: ``quality``). Checked
against the round's rules by :mod:`benchdb.claims.targets`.
"""

from __future__ import annotations

import re

from .types import Quantity, to_number

#: Words saying a figure is required, then a quality metric, then the figure (at most
#: 60 characters between each, within one clause).
_TARGET = re.compile(
    r"(?i:target|must\s+(?:reach|achieve|hit|attain)|minimum|threshold|required"
    r"|(?<![A-Za-z])specif(?:y|ies|ied)(?![A-Za-z]))"
    r"|目标|目標|需达到|需達到|必须达到|必須達到"
)
_METRIC = re.compile(
    r"(?i:(?<![A-Za-z])(?:mAP|BLEU|F1|AUC|FID|CLIP|top-?[15])(?![A-Za-z])|accuracy|loss"
    r"|perplexity)|精度|准确率|準確率"
)
#: The metric right after the figure ("a target of 75.9% top-1 accuracy").
_METRIC_AFTER = re.compile(
    r"\s*(?i:(?:top-?[15]\s+)?(?:accuracy|mAP|BLEU|F1|AUC|FID|perplexity|loss)(?![A-Za-z]))"
    r"|\s*(?:的)?(?:精度|准确率|準確率)"
)
_FIGURE = re.compile(r"(?<![\w.])(?P<num>\d{1,3}(?:\.\d+)?|0?\.\d+)(?P<pct>\s?%)?(?!\w|\.\d)")
_CLAUSE_END = re.compile(r"[;；。]|\.\s|\band\b|，|,")
_PARTS = (
    ("BBOX", re.compile(r"(?i:\bbox|bbox)")),
    ("SEGM", re.compile(r"(?i:\bmask\b(?!\s*R-?CNN)|segm)")),
    ("FID", re.compile(r"(?<![A-Za-z])FID(?![A-Za-z])")),
    ("CLIP", re.compile(r"(?<![A-Za-z])CLIP(?![A-Za-z])")),
)


def target_quantities(seg: str, base: int) -> list[Quantity]:
    """The quality targets of one sentence ``seg`` (module docstring); offsets +
    ``base``. Raises nothing on odd text."""
    out: list[Quantity] = []
    for m in _FIGURE.finditer(seg):
        lead = _clause_before(seg, m.start())
        want = _TARGET.search(lead)
        if not want or not (_METRIC.search(lead, want.end()) or _METRIC_AFTER.match(seg, m.end())):
            continue
        value = to_number(m.group("num"))
        if value is None or (not m.group("pct") and value >= 1):
            continue  # a bare figure is read as a fraction only ("0.377", not "8 GPUs")
        unit = "%" if m.group("pct") else "fraction"
        out.append(Quantity("target", value, unit, base + m.start(), base + m.end()))
    return out


def target_part(seg: str, at: int) -> str:
    """The part of a two-part target the clause before offset ``at`` of ``seg`` names
    (module docstring), or ""."""
    lead = _clause_before(seg, at)
    want = _TARGET.search(lead)
    tail = lead[want.start() :] if want else lead
    return next((name for name, rx in _PARTS if rx.search(tail)), "")


def _clause_before(seg: str, at: int) -> str:
    """The text of ``seg`` before offset ``at`` back to the previous clause break,
    at most 120 characters."""
    lead = seg[max(0, at - 120) : at]
    breaks = [m.end() for m in _CLAUSE_END.finditer(lead)]
    return lead[breaks[-1] :] if breaks else lead

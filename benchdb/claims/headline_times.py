"""A training time its sentence gives a product, with no configuration and no record
word: "H100 trains GPT-3 in 11 minutes", "11分钟训完GPT-3, 8秒训完BERT" on a page about
H100. Pure: no Django.

The text names a product (one accelerator family), not a system, a count or a
submitter's configuration, so it cannot speak of each of the product's results (they
differ by scale: NVIDIA's v3.0 H100 GPT-3 results run from 10.9 to 64.3 minutes). It
allows two readings: the product's best result of the round (a headline's reading:
the fastest, closed division first) and some result of the product (existence). The
fastest holding implies that some result does, so the claim is ``consistent`` when the
fastest holds; when none of the product's results holds it is ``inconsistent`` (the
caller's reading of every result says so); when some result holds but not the
fastest, the readings disagree and the verdict stays ``unverifiable``, naming them.
A bound ("under 10 minutes", "up to", "more than") or a count ("on 3,584 H100")
leaves this module out: the caller reads every result the frame allows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from benchdb.claims.choices import choice, fastest
from benchdb.claims.facts import ClaimFacts, ResultFacts, Verification
from benchdb.claims.readings import Reading
from benchdb.claims.subjects import FAMILIES, family_of
from benchdb.vocabulary import CONSISTENT

#: Qualifiers that leave the figure a point ("about 11 minutes"), not a bound.
POINT_QUALIFIERS = frozenset({"", "about", "nearly"})
#: The readings' names, as the reason gives them.
HEADLINE = "the product's fastest result of the round (a headline)"
EXISTENCE = "some result of the product"
#: Why the fastest result is the one judged against (the check's "choices").
HEADLINE_WHY = "the text names a product and no configuration: its fastest result (closed first)"


#: A configuration in the sentence: a count of accelerators or machines ("on 1,344 ND
#: H100 v5 virtual machines", "8x H100", "3584块H100").
_COUNT = r"(?<![A-Za-z0-9.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?![\d.,]\d)"
_CONFIG = re.compile(
    rf"(?i:{_COUNT}\s*(?:x\s*)?(?:[\w.+-]+\s+){{0,4}}(?:GPUs?|accelerators?|chips?|nodes?|VMs?"
    r"|(?:virtual|digital)\s+machines?|instances?|servers?|systems?|racks?|TPUs?|IPUs?|HPUs?)\b)"
    rf"|{_COUNT}\s*[x×]\s*[A-Z]|{_COUNT}\s*(?:块|塊|张|張|台|个|個)\s*[\w\s]{{0,8}}?"
    r"(?:GPU|H100|H200|A100|B200|GB200|加速器|芯片|节点|節點|服务器|伺服器)"
)
#: The context tag of a time whose sentence names a configuration.
CONFIG_NAMED = "config-named"


def scope_tags(kind: str, sentence: str) -> tuple[str, ...]:
    """``("config-named",)`` for a time whose sentence names a count of accelerators or
    machines (:data:`_CONFIG`): no headline then; else ()."""
    return (CONFIG_NAMED,) if kind == "time" and _CONFIG.search(sentence) else ()


def product_of(r: ResultFacts) -> str:
    """The accelerator family of a result's system (:data:`benchdb.claims.subjects.
    FAMILIES`, first match on its accelerator model); "" when none matches."""
    for fam in FAMILIES:
        if re.search(fam.accelerator, r.accelerator_model, re.I):
            return fam.name
    return ""


def is_headline(c: ClaimFacts, cands: Sequence[ResultFacts]) -> bool:
    """Whether a time claim reads as a headline of one product: a point figure, no
    accelerator count (in the frame or anywhere in the sentence: :func:`scope_tags`), no
    system but a product family (or none, the page's subject), no record word (the
    caller reads records), and several results of one product."""
    if c.kind != "time" or c.qualifier not in POINT_QUALIFIERS or c.accelerators is not None:
        return False
    if {"record", CONFIG_NAMED} & set(c.context) or (c.system and not family_of(c.system)):
        return False
    products = {product_of(r) for r in cands}
    return len(cands) > 1 and len(products) == 1 and "" not in products


def check(
    c: ClaimFacts,
    cands: Sequence[ResultFacts],
    reading_of: Callable[[ResultFacts], Reading],
    tol: float,
    looked_for: str,
) -> Verification | None:
    """``consistent``, resting on the product's fastest result, when ``c`` is a headline
    (:func:`is_headline`) and that result holds (``reading_of`` reads one result as the
    claim; ``tol``: the tolerance it used, a fraction; ``looked_for``: the frame in
    words); None otherwise (the caller reads every result: inconsistent when none
    holds, unverifiable when the readings disagree; :func:`note` names them)."""
    if not is_headline(c, cands):
        return None
    best = fastest(cands)
    if best is None:
        return None
    r = reading_of(best)
    if not r.holds:
        return None
    out: dict[str, object] = {
        "tolerance": tol,
        "choices": [choice("subject", looked_for, cands, best, HEADLINE_WHY)],
        "n_readings": 2,
    }
    out["readings_list"] = [
        r.as_dict() | {"label": f"{HEADLINE}: {r.label}"},
        {"label": EXISTENCE, "value": r.value, "holds": True, "slots": {}, "results": []},
    ]
    out["reason"] = (
        f"the text names the product ({c.system or product_of(best)}) and no configuration:"
        f" read as {HEADLINE}, which holds ({r.label}), and so as {EXISTENCE}"
    )
    return Verification(CONSISTENT, r.value, links=r.links, details=out)


def note(c: ClaimFacts, cands: Sequence[ResultFacts], reason: str) -> str:
    """``reason`` with the two readings named, for a headline whose fastest result does
    not hold while another does (left unverifiable)."""
    if not is_headline(c, cands):
        return reason
    return (
        f"{reason}. The text names the product and no configuration: read as {HEADLINE}"
        f" it does not hold; read as {EXISTENCE} it does"
    )

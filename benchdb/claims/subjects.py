"""Subjects as vendors name them: accelerator families and counts, benchmarks as
marketed and rounds named in words, read from a claim's sentence and its page (title,
other sentences, publication date). Pure: no Django.

:func:`resolve_claim` fills in what a claim's sentence leaves out; the verifier
(:mod:`benchdb.claims.verdicts`) then matches results by submitter, accelerator family
and count (:func:`family_matches`), benchmark and round, never by system folder name
alone. Where each attribute came from is kept in ``ClaimFacts.context``:
``round-words`` (a round named in the sentence in words: "MLPerf 5.1 Training",
"the November 2023 update"), ``round-title`` / ``round-page`` (the page's title, or
the one round its text names), ``benchmark-title`` / ``benchmark-page``,
``system-title`` / ``system-page`` (the one accelerator family the title or page
names), ``submitter-page`` (the page's vendor) and ``accelerators-sentence``.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from benchdb.claims.printed import bound_before, figure_at
from benchdb.vocabulary import BENCHMARKS

if TYPE_CHECKING:  # facts imports this module
    from benchdb.claims.facts import ResultFacts

# --- families ------------------------------------------------------------------------


@dataclass(frozen=True)
class Family:
    """A product family as vendors market it. ``mention``: how a page writes it
    (regex, case-insensitive; a group ``n`` gives a count the name implies:
    ``IPU-POD16``); ``accelerator``: what the systems JSON of its results holds in
    ``accelerator_model_name`` (regex, case-insensitive); ``per_node``: accelerators
    a named node holds (``DGX H100``: 8) when no count is given; ``maker``: the
    company that makes the accelerator (as pages and submitters name it), so that a
    page's vendor takes from its title or text only its own products; ``host``: a
    processor generation (:data:`CPU_FAMILIES`): ``accelerator`` then matches the
    host processor (``ResultFacts.processor``) of a system with no accelerator."""

    name: str
    mention: str
    accelerator: str
    per_node: int | None = None
    maker: str = ""
    host: bool = False


_G = r"(?![A-Za-z0-9])"
#: After a product name: its plural too ("3,584 HGX-H100s", "Gaudi2s").
_P = r"s?" + _G
#: Marketed family names -> accelerator-name patterns, most specific first (the first
#: family whose mention matches a span wins). Sources: the ``accelerator_model_name``
#: spellings of MLPerf Training v0.7-v5.1 systems JSON (``Habana Gaudi2``, ``Intel
#: Gaudi2``, ``NVIDIA H100-SXM5-80GB``, ``Graphcore Bow IPU``, ``TPU-v4``...).
FAMILIES: tuple[Family, ...] = (
    Family("IPU-POD", r"(?<![A-Za-z])IPU[- ]?POD[- ]?(?P<n>\d+)", r"IPU", maker="Graphcore"),
    Family("Bow Pod", r"(?<![A-Za-z])Bow[- ]?Pod[- ]?(?P<n>\d+)", r"Bow IPU", maker="Graphcore"),
    Family("DGX GB200", r"DGX[- ]?GB200", r"GB200", 4, maker="NVIDIA"),
    Family("DGX B200", r"DGX[- ]?B200", r"(?<!G)B200", 8, maker="NVIDIA"),
    Family("DGX H100", r"DGX[- ]?H100", r"H100", 8, maker="NVIDIA"),
    Family("DGX A100", r"DGX[- ]?A100", r"A100", 8, maker="NVIDIA"),
    Family("Blackwell Ultra", r"Blackwell Ultra|GB300|B300" + _P, r"B300", maker="NVIDIA"),
    Family("GB200", r"GB200(?:\s*NVL\d+)?" + _P, r"GB200", maker="NVIDIA"),
    Family("B200", r"(?<![A-Za-z])B200" + _P, r"(?<!G)B200", maker="NVIDIA"),
    # An architecture names every accelerator model of it (the ``accelerator_model_name``
    # spellings of MLPerf Training v0.7-v5.1 and Inference v0.7-v5.1 systems JSON:
    # ``NVIDIA B200-SXM-180GB``, ``NVIDIA GB200``, ``NVIDIA GB300``, ``NVIDIA RTX PRO
    # 6000 Blackwell Server Edition``; NVIDIA's architecture of each product, nvidia.com
    # data sheets): a verdict must hold for each of them.
    Family("Blackwell", r"Blackwell", r"B[123]00|Blackwell", maker="NVIDIA"),
    Family("GH200", r"GH200" + _P, r"GH200", maker="NVIDIA"),
    Family("H200", r"(?<![A-Za-z])H200" + _P, r"(?<!G)H200", maker="NVIDIA"),
    Family("H100", r"(?<![A-Za-z])H100" + _P, r"H100", maker="NVIDIA"),
    Family("Hopper", r"(?<![A-Za-z])Hopper", r"H100|H200", maker="NVIDIA"),  # not "shoppers"
    # Ampere: A100, A30, A10(G), A16, A40, A2, RTX A5000 (not Ampere Computing's Altra CPUs)
    Family(
        "Ampere",
        r"(?<![A-Za-z])Ampere(?![\s-]*(?:Altra|One|Computing))",
        r"A100|(?<![A-Za-z0-9])A(?:10G?|16|2|30|40)(?![0-9])|RTX A\d{4}",
        maker="NVIDIA",
    ),
    Family("A100", r"(?<![A-Za-z])A100" + _P, r"A100", maker="NVIDIA"),
    Family("V100", r"(?<![A-Za-z])V100" + _P, r"V100", maker="NVIDIA"),
    Family("L40S", r"(?<![A-Za-z])L40S" + _P, r"L40S", maker="NVIDIA"),
    Family("MI350 Series", r"(?:Instinct\s+)?MI350 Series", r"MI35\dX", maker="AMD"),
    Family("MI300 Series", r"(?:Instinct\s+)?MI300 Series", r"MI3[02]\dX", maker="AMD"),
    Family("MI355X", r"(?<![A-Za-z])MI355X" + _P, r"MI355X", maker="AMD"),
    Family("MI350X", r"(?<![A-Za-z])MI350X" + _P, r"MI350X", maker="AMD"),
    Family("MI325X", r"(?<![A-Za-z])MI325X" + _P, r"MI325X", maker="AMD"),
    Family("MI300X", r"(?<![A-Za-z])MI300X" + _P, r"MI300X", maker="AMD"),
    Family("Gaudi3", r"Gaudi[ ®]*3" + _P, r"Gaudi ?3", maker="Intel"),
    Family("Gaudi2", r"Gaudi[ ®]*2" + _P, r"Gaudi ?2", maker="Intel"),
    Family("Bow IPU", r"Bow[- ]IPU", r"Bow IPU", maker="Graphcore"),
    Family("IPU", r"(?<![A-Za-z])(?:GC200 )?IPU" + _P, r"(?<!Bow )IPU", maker="Graphcore"),
    Family("Jetson AGX Thor", r"(?:Jetson\s+)?AGX\s+Thor|Jetson\s+Thor", r"Thor", maker="NVIDIA"),
    Family("Jetson AGX Orin", r"(?:Jetson\s+)?AGX\s+Orin|Jetson\s+Orin", r"Orin", maker="NVIDIA"),
    Family("Jetson Xavier NX", r"(?:Jetson\s+)?Xavier\s+NX", r"Xavier NX", maker="NVIDIA"),
    Family(
        "Jetson AGX Xavier",
        r"(?:Jetson\s+)?AGX\s+Xavier|Jetson\s+Xavier(?!\s+NX)",
        r"(?<!Jetson )Xavier(?! NX)|AGX Xavier",
        maker="NVIDIA",
    ),
    Family("TPU v5p", r"TPU[- ]?v5p", r"TPU-?v5p", maker="Google"),
    Family("TPU v5e", r"TPU[- ]?v5e", r"TPU-?v5e", maker="Google"),
    Family("Trillium", r"Trillium|TPU[- ]?v6e?", r"TPU-?v6|Trillium", maker="Google"),
    Family("TPU v4", r"TPU[- ]?v4", r"TPU-?v4", maker="Google"),
    Family("TPU v3", r"TPU[- ]?v3", r"TPU-?v3", maker="Google"),
)


def _generation(words: str, codename: str, alone: bool = True) -> str:
    """A processor generation as pages name it: its codename after its marketing name
    ("2nd Generation Intel® Xeon® Scalable Processors (codenamed “Cascade Lake”)" is
    one mention), or alone when ``alone`` (not a city: "Milan", "Rome")."""
    lead = rf"{words}[\s®™]*(?:processors?|CPUs?)?\s*\(?\s*(?:code[- ]?named\s*)?[“\"']?\s*"
    return rf"(?:{lead}){'?' if alone else ''}{codename}"


_XEON = r"(?:Intel[®™]?\s+)?Xeon[®™]?\s+(?:Scalable)?"
_GEN = r"(?<![A-Za-z0-9])(?:{n})(?:st|nd|rd|th)?[- ]Gen(?:eration)?\s+"
_SKU = r"(?:Platinum|Gold|Silver|Bronze)\s*"
_EPYC = r"(?:AMD\s+)?EPYC[®™]?"


def _epyc(ordinal: str, series: str, code: str) -> str:
    """How a page names an AMD EPYC generation (a regex): "4th Gen AMD EPYC processors
    (codenamed Genoa)", "EPYC 9004 Genoa", "Genoa", "Fourth Gen EPYC" (``ordinal``:
    "4|Fourth"; ``series``: "9004"; ``code``: "Genoa")."""
    gen = _GEN.format(n=ordinal) + _EPYC
    return _generation(gen, code, alone=False) + rf"|{_EPYC}\s+(?:{series}\s+|“|\")?{code}|{gen}"


#: Processor generations of CPU-only systems, most specific first. ``accelerator``
#: matches ``host_processor_model_name`` by model number, the generation digit Intel
#: and AMD put in it: Xeon Scalable ``<tier><gen><sku>`` (8180 Skylake, 6258R/8280
#: Cascade Lake, 8380H Cooper Lake, 8380/6330 Ice Lake, 8480+ Sapphire Rapids, 8592+
#: Emerald Rapids; Xeon 6 ``6980P`` Granite Rapids, ``6780E`` Sierra Forest: Intel,
#: "Intel Xeon Processor Scalable Family naming", ark.intel.com) and EPYC ``<series>
#: <sku><gen>`` (7742 Rome, 7763 Milan, 9654 Genoa, 9575F Turin: AMD, "AMD EPYC
#: processor model number decoder", amd.com); cloud SKUs too (8259CL, 8375C). A
#: generation named only by its marketing name where two share it ("3rd Gen Xeon
#: Scalable": Ice Lake or Cooper Lake; "Xeon 6") is both, and a verdict must hold for
#: both. Spellings as the systems JSON of MLPerf Inference v0.7-v5.1 write them.
CPU_FAMILIES: tuple[Family, ...] = (
    Family(
        "Cascade Lake",
        _generation(_GEN.format(n="2") + _XEON, r"Cascade[- ]Lake")
        + r"|"
        + _GEN.format(n="2|Second")
        + _XEON,
        _SKU + r"[3-9]2\d\d(?!\d)|Cascade[- ]Lake",
        maker="Intel",
        host=True,
    ),
    Family(
        "Cooper Lake",
        _generation(_GEN.format(n="3|Third") + _XEON, r"Cooper[- ]Lake"),
        _SKU + r"[5-8]3\d\dH|Cooper[- ]Lake",
        maker="Intel",
        host=True,
    ),
    Family(
        "Ice Lake",
        _generation(_GEN.format(n="3|Third") + _XEON, r"Ice[- ]Lake"),
        _SKU + r"[3-8]3\d\d(?![\dH])|Ice[- ]Lake",
        maker="Intel",
        host=True,
    ),
    Family(
        "3rd Gen Xeon Scalable",
        _GEN.format(n="3|Third") + _XEON,
        _SKU + r"[3-8]3\d\d(?!\d)|Ice[- ]Lake|Cooper[- ]Lake",
        maker="Intel",
        host=True,
    ),
    Family(
        "Sapphire Rapids",
        _generation(_GEN.format(n="4|Fourth") + _XEON, r"Sapphire[- ]Rapids")
        + r"|"
        + _GEN.format(n="4|Fourth")
        + _XEON,
        _SKU + r"[3-9]4\d\d(?!\d)|Max\s*94\d\d|Sapphire[- ]Rapids",
        maker="Intel",
        host=True,
    ),
    Family(
        "Emerald Rapids",
        _generation(_GEN.format(n="5|Fifth") + _XEON, r"Emerald[- ]Rapids")
        + r"|"
        + _GEN.format(n="5|Fifth")
        + _XEON,
        _SKU + r"[3-8]5\d\d(?!\d)|Emerald[- ]Rapids",
        maker="Intel",
        host=True,
    ),
    Family(
        "Granite Rapids",
        _generation(r"(?:Intel[®™]?\s+)?Xeon[®™]?\s+6", r"Granite[- ]Rapids"),
        r"Xeon(?:\(R\)|®)?\s*6\d{3}P(?![A-Za-z0-9])|Granite[- ]Rapids",
        maker="Intel",
        host=True,
    ),
    Family(
        "Sierra Forest",
        _generation(r"(?:Intel[®™]?\s+)?Xeon[®™]?\s+6", r"Sierra[- ]Forest"),
        r"Xeon(?:\(R\)|®)?\s*6\d{3}E(?![A-Za-z0-9])|Sierra[- ]Forest",
        maker="Intel",
        host=True,
    ),
    Family(
        "Xeon 6",
        r"(?:Intel[®™]?\s+)?Xeon[®™]?\s+6(?![\d.])",
        r"Xeon(?:\(R\)|®)?\s*6\d{3}[PE](?![A-Za-z0-9])|Granite[- ]Rapids|Sierra[- ]Forest",
        maker="Intel",
        host=True,
    ),
    Family(
        "Rome",
        _epyc("2|Second", "7002", "Rome"),
        r"EPYC\s*7\w\w2(?![\dA-Za-z])|EPYC\s*7\w\w2[A-Z]?\b",
        maker="AMD",
        host=True,
    ),
    Family(
        "Milan",
        _epyc("3|Third", "7003", "Milan"),
        r"EPYC\s*7\w\w3[A-Z]?\b",
        maker="AMD",
        host=True,
    ),
    Family(
        "Genoa",
        _epyc("4|Fourth", "9004", "Genoa"),
        r"EPYC\s*9[0-6]\w4[A-Z]?\b",
        maker="AMD",
        host=True,
    ),
    Family(
        "Turin",
        _epyc("5|Fifth", "9005", "Turin"),
        r"EPYC\s*9\w\w5[A-Z]?\b",
        maker="AMD",
        host=True,
    ),
)
FAMILIES += CPU_FAMILIES
_BY_NAME = {f.name: f for f in FAMILIES}
_MENTIONS = [(f, re.compile(f.mention, re.I)) for f in FAMILIES]

#: The product a family's "previous generation" is, for "vs the previous product".
PREVIOUS: Mapping[str, str] = {
    "Gaudi3": "Gaudi2",
    "H100": "A100",
    "DGX H100": "DGX A100",
    "H200": "H100",
    "B200": "H100",
    "GB200": "H100",
    "Blackwell": "Hopper",
    "Blackwell Ultra": "Blackwell",
    "MI355X": "MI300X",
    "MI350X": "MI300X",
    "MI350 Series": "MI300 Series",
    "MI325X": "MI300X",
    "Bow IPU": "IPU",
    "Bow Pod": "IPU",
    "TPU v5p": "TPU v4",
    "Trillium": "TPU v5p",
    "Jetson AGX Thor": "Jetson AGX Orin",
    "Jetson AGX Orin": "Jetson AGX Xavier",
}


@dataclass(frozen=True)
class Mention:
    """An accelerator family named in a text at ``start``-``end`` as ``text``, with
    the count it states or implies (``384 Gaudi2``, ``8x H100``, ``IPU-POD16``), None
    if none; ``bounded``: a count was given with "up to", "more than"... (and is not
    ``count``); ``limit``: that bounded number ("up to 512 Blackwell Ultra GPUs": 512),
    None when there is none."""

    family: str
    count: int | None
    start: int
    end: int
    text: str = ""
    bounded: bool = False
    limit: int | None = None


_COUNT_BEFORE = re.compile(
    # a count is not the number that ends a model name ("For ResNet-50, Gaudi2 ...":
    # no 50 Gaudi2), and a comma in it separates thousands ("3,584"), never a clause
    r"(?<![A-Za-z\d.])(?<![A-Za-z][-\u2010\u2011])(\d{1,3}(?:,\d{3})+|\d+)"
    # "5,000多颗" / "5000余张": more than the count ("多"/"余" after it bound it)
    r"(?P<more>多|余|餘)?"
    r"\s*(?:x|×|-way|个|個|张|張|颗|顆|块|塊"
    r"|[- \u2010\u2011](?:GPU|accelerator|chip)s?)?\s*"
    r"(?:(?:NVIDIA|Intel|AMD|Habana|Google|Graphcore|Instinct|Tensor Core)[®™]?\s+"
    r"|HGX[- ]?)*$",
    re.I,
)
_COUNT_AFTER = re.compile(r"^\s*(?:x|×)\s*(\d[\d,]*)(?![\d.])", re.I)


#: A memory variant right after a family's name: "-40GB", " 80GB", "-SXM-80GB",
#: "-PCIe-80G" (the spellings of ``accelerator_model_name``: ``NVIDIA A100-SXM4-40GB``).
_VARIANT = re.compile(r"(?:[- ](?:SXM\d?|PCIe))?[- ]?(?P<gb>\d{2,3}) ?GB?(?![A-Za-z\d])", re.I)
_GB = re.compile(r"(\d{2,3}) ?GB?(?![A-Za-z\d])", re.I)


def memory_fits(mention: str, accelerator_model: str) -> bool:
    """Whether a result's accelerator model (systems JSON ``accelerator_model_name``)
    is the memory variant ``mention`` names ("A100-40GB" is not ``NVIDIA
    A100-SXM4-80GB``); True when the mention names none, False when it names one and
    the model states no size (the variant cannot be told)."""
    m = _VARIANT.search(mention)
    if m is None:
        return True
    sizes = {int(x) for x in _GB.findall(accelerator_model)}
    return int(m.group("gb")) in sizes


def find_mentions(text: str) -> list[Mention]:
    """Every accelerator family named in ``text``, in order; overlapping names keep
    the first family of :data:`FAMILIES` (``DGX H100`` over ``H100``). Cached: every
    claim of a page asks it of the page's title and text."""
    return list(_mentions(text))


@functools.lru_cache(maxsize=512)
def _mentions(text: str) -> tuple[Mention, ...]:
    # Taken spans never overlap, so sorted by start their ends are sorted too: a match
    # overlaps one iff it overlaps the last that starts before its end (one bisect, not a
    # scan of all: 8,000 "H100" on a page made each call quadratic, issue 21).
    taken: list[Mention] = []
    starts: list[int] = []
    for fam, pat in _MENTIONS:
        for m in pat.finditer(text):
            k = bisect.bisect_left(starts, m.end())
            if k and taken[k - 1].end > m.start():
                continue
            n, limit = _count(text, m)
            # the memory variant written after the name is part of the mention
            # ("A100-40GB", "A100-SXM-80GB"): :func:`memory_fits` holds a result to it
            end = m.end() + (len(v.group()) if (v := _VARIANT.match(text, m.end())) else 0)
            starts.insert(k, m.start())
            said = text[m.start() : end]
            taken.insert(k, Mention(fam.name, n, m.start(), end, said, limit is not None, limit))
    return tuple(taken)


def _count(text: str, m: re.Match[str]) -> tuple[int | None, int | None]:
    """(count, limit): the count a mention states, or the number a word bounds
    ("more than 5,000 Blackwell GPUs", "up to 512 ..." pin no system: count None, limit
    5,000 or 512)."""
    if "n" in m.groupdict() and m.group("n"):
        return int(m.group("n")), None
    before = _COUNT_BEFORE.search(text[max(0, m.start() - 40) : m.start()])
    after = _COUNT_AFTER.match(text[m.end() : m.end() + 12])
    found = before.group(1) if before else after.group(1) if after else ""
    n = int(found.replace(",", "")) if found.replace(",", "").isdigit() else None
    n = n if n and n < 10**6 else None
    if before and (before.group("more") or bound_before(text, m.start() - len(before.group()))):
        return None, n
    return n, None


@functools.lru_cache(maxsize=1024)  # asked for each result a system mention is matched against
def family_of(mention: str) -> str:
    """The family a mention names when the whole mention is that family's name,
    give or take a vendor word and a count (``"NVIDIA H100"``, ``"8x H100"``,
    ``"Gaudi2 accelerators"``); "" otherwise."""
    found = find_mentions(mention)
    if len(found) != 1:
        return ""
    rest = mention[: found[0].start] + mention[found[0].end :]
    rest = re.sub(
        r"\d{2,3} ?GB?(?![A-Za-z])|SXM\d?|PCIe|"
        r"\d[\d,]*|x|×|NVIDIA|Intel|AMD|Habana|Google|Graphcore|Instinct|Tensor Core|"
        r"accelerators?|GPUs?|chips?|cards?|HPUs?|systems?|nodes?|[®™\s\-,.]",
        "",
        rest,
        flags=re.I,
    )
    return found[0].family if not rest else ""


def makes(vendor: str, family: str) -> bool | None:
    """Whether ``vendor`` (a page's vendor or a submitter: ``Intel``,
    ``Intel-HabanaLabs``) makes ``family``'s accelerator (:attr:`Family.maker`); None
    when the vendor makes none of :data:`FAMILIES` (a system builder, a cloud, a
    newspaper) or the family is unknown."""
    fam = _BY_NAME.get(family)
    key = re.sub(r"[^a-z0-9]", "", vendor.lower())
    makers = {re.sub(r"[^a-z0-9]", "", f.maker.lower()) for f in FAMILIES}
    own = next((m for m in makers if key and key.startswith(m)), "")
    if fam is None or not own:
        return None
    return re.sub(r"[^a-z0-9]", "", fam.maker.lower()) == own


#: Trademark marks as systems JSON writes them (MLPerf Training v4.0, Intel:
#: ``Intel(R) Gaudi(R) 2 AI Accelerator``), removed before a family is matched.
_MARKS = re.compile(r"\s*(?:\((?:R|TM)\)|[®™])", re.I)


def family_matches(family: str, r: ResultFacts, count: int | None = None) -> bool:
    """Whether result ``r``'s system is of ``family`` (:data:`FAMILIES`; its
    accelerator model, else its system name) with ``count`` accelerators when given
    (a named node's ``per_node`` when the mention gives none)."""
    fam = _BY_NAME.get(family)
    if fam is None:
        return False
    if fam.host:  # a processor generation: a CPU-only system of that processor
        return cpu_only(r) and _named(fam.accelerator, r.processor, "")
    if not _named(fam.accelerator, r.accelerator_model, r.system_name):
        return False
    want = count if count is not None else fam.per_node
    return want is None or r.accelerators is None or r.accelerators == want


@functools.lru_cache(maxsize=65536)  # a page's claims ask it of every stored result
def _named(pattern: str, accelerator_model: str, system_name: str) -> bool:
    """Whether ``pattern`` (a family's ``accelerator``) finds the accelerator model
    (trademark marks removed: "Intel(R) Gaudi(R) 2 AI Accelerator") or the system name."""
    found = re.compile(pattern, re.I)
    return bool(found.search(_MARKS.sub("", accelerator_model)) or found.search(system_name))


def cpu_only(r: ResultFacts) -> bool:
    """Whether result ``r``'s system has no accelerator: none counted, and its
    accelerator model empty or a placeholder ("N/A", "-", "None": the spellings of
    MLPerf Inference systems JSON)."""
    placeholder = re.sub(r"[^a-z0-9]", "", r.accelerator_model.lower()) in ("", "na", "none")
    return not r.accelerators and placeholder


def cpu_generation(r: ResultFacts) -> str:
    """The processor generation (:data:`CPU_FAMILIES`, the first that names one
    generation) of a CPU-only system, "" when unknown or when ``r`` has accelerators."""
    if not cpu_only(r):
        return ""
    return next(
        (
            f.name
            for f in CPU_FAMILIES
            if f.name not in _SHARED and re.search(f.accelerator, r.processor, re.I)
        ),
        "",
    )


#: Architectures: a name for several accelerator models (:data:`FAMILIES`), which an
#: MLPerf Inference system never carries as its own (its ``accelerator_model_name`` is a
#: model: ``NVIDIA B200-SXM-180GB``).
ARCHITECTURES = frozenset({"Blackwell", "Blackwell Ultra", "Hopper", "Ampere"})

#: Marketing names two generations share: no generation of their own.
_SHARED = frozenset({"3rd Gen Xeon Scalable", "Xeon 6"})


def is_host(family: str) -> bool:
    """Whether ``family`` is a processor generation (:data:`CPU_FAMILIES`)."""
    fam = _BY_NAME.get(family)
    return fam is not None and fam.host


# --- rounds and benchmarks in words ------------------------------------------------

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = re.compile(
    r"(?P<m>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+(?P<y>20\d\d)", re.I
)
_SUITE = r"(?P<s>Training|Inference|HPC)"
_ROUND_WORDS = (
    re.compile(r"MLPerf[™®]?\s*" + _SUITE + r"?\s*(?:round\s*)?v?(?P<r>\d\.\d)(?!\d)", re.I),
    re.compile(r"MLPerf[™®]?\s*v?(?P<r>\d\.\d)(?!\d)\s*" + _SUITE + "?", re.I),
    re.compile(r"MLPerf[™®]?\s*" + _SUITE + r"\s*(?:round\s*)?v?(?P<r>\d\.\d)(?!\d)", re.I),
    re.compile(r"MLPerf[™®]?\s*(?P<s>训练|訓練|推理)\s*V?(?P<r>\d\.\d)(?!\d)", re.I),
    # "MLPerf Training results, version 6.0", "MLPerf Inference benchmark round 4.1"
    re.compile(
        r"MLPerf[™®]?\s*" + _SUITE + r"\s*(?:benchmarks?\s*)?(?:results?|scores?)?,?\s*"
        r"(?:version|round)\s*v?(?P<r>\d\.\d)(?!\d)",
        re.I,
    ),
    # "version 3.1 of MLPerf Training", "round 4.1 of the MLPerf Inference benchmark"
    re.compile(
        r"(?:version|round)\s*v?(?P<r>\d\.\d)(?!\d)\s*of\s*(?:the\s*)?MLPerf[™®]?\s*"
        + _SUITE
        + "?",
        re.I,
    ),
)
_SUITE_WORDS = {"训练": "training", "訓練": "training", "推理": "inference"}
_ROUND_CONTEXT = re.compile(r"MLPerf|round|update|results|submission", re.I)


def rounds_named(text: str, suite: str, rounds: Mapping[str, date]) -> list[str]:
    """The rounds of ``suite`` that ``text`` names, in order (:func:`_rounds_named`;
    cached by text, suite and rounds: every claim of a page asks it of the page)."""
    return list(_rounds_named(text, suite, tuple(sorted(rounds.items()))))


@functools.lru_cache(maxsize=512)
def _rounds_named(text: str, suite: str, held: tuple[tuple[str, date], ...]) -> tuple[str, ...]:
    """The rounds of ``suite`` that ``text`` names, in order: by number ("MLPerf 5.1
    Training", "MLPerf Training v3.0", "MLPerf训练V1.1"; a number given for another
    suite is not this suite's) or by month ("the November 2023 update": the round of
    ``rounds`` (round -> publication date) published that month, when the text
    speaks of MLPerf, a round, an update or results)."""
    rounds = dict(held)
    found: list[tuple[int, str]] = []
    for pat in _ROUND_WORDS:
        for m in pat.finditer(text):
            s = (m.group("s") or "").lower()
            s = _SUITE_WORDS.get(m.group("s") or "", s)
            version = "v" + m.group("r")
            if (not s or s == suite) and version in rounds:
                found.append((m.start(), version))
    if _ROUND_CONTEXT.search(text):
        for m in _MONTH.finditer(text):
            month = _MONTHS.index(m.group("m")[:3].lower()) + 1
            year = int(m.group("y"))
            same = [r for r, d in rounds.items() if (d.year, d.month) == (year, month)]
            found.extend((m.start(), r) for r in same)
    return tuple(dict.fromkeys(r for _, r in sorted(found)))


#: Benchmarks as marketed, besides ``vocabulary.BENCHMARKS``'s patterns.
MARKETED_BENCHMARKS: tuple[tuple[str, str], ...] = (
    (r"Llama[- ]?2[- ]?70B[- ]?LoRA", "llama2_70b_lora"),
    (r"Llama[- ]?3\.1[- ]?405B|405[- ]billion[- ]parameter Llama[- ]?3\.1", "llama31_405b"),
    (r"Llama[- ]?3\.1[- ]?8B", "llama31_8b"),
    (r"GPT-?3(?:[- ]175B)?" + _G, "gpt3"),
    (r"Stable[- ]Diffusion", "stable_diffusion"),
    # MLCommons' own name for the BERT task ("Language | NLP | Wikipedia | BERT-large",
    # the Training results tables v1.0-v3.1)
    (r"(?<![A-Za-z])NLP(?![A-Za-z])|natural[- ]language processing", "bert"),
)


def benchmarks_named(text: str) -> list[str]:
    """Benchmark keys ``text`` names (marketed spellings first), in order (cached)."""
    return list(_benchmarks_named(text))


@functools.lru_cache(maxsize=512)
def _benchmarks_named(text: str) -> tuple[str, ...]:
    found: list[tuple[int, str]] = []
    for pat, key in (*MARKETED_BENCHMARKS, *BENCHMARKS):
        m = re.search(pat, text, re.I)
        if m:
            found.append((m.start(), key))
    return tuple(dict.fromkeys(k for _, k in sorted(found)))


#: Where a clause ends inside a sentence: a comma, semicolon or dash, or "and"/"while"
#: between two figures.
_CLAUSE_END = re.compile(r"(?<!\d),|,(?!\d)|[;，；、—]|\s(?:and|while|whereas|but)\s|以及|而")


def benchmark_in_clause(sentence: str, value: float | None) -> str:
    """The benchmark named in the clause of ``sentence`` that holds the claimed
    ``value`` ("...Llama 3.1 8B in 5.2 minutes and FLUX.1 in 12.5 minutes": 12.5 is
    FLUX.1's), when that clause names exactly one; "" otherwise (no value, the value
    not in the sentence, or its clause naming none or several)."""
    keys = benchmarks_named(clause_of(sentence, value))
    return keys[0] if len(keys) == 1 else ""


def clause_of(sentence: str, value: float | None) -> str:
    """The clause of ``sentence`` holding the first figure equal to ``value`` (as
    printed, a k/M suffix applied: :func:`~benchdb.claims.printed.figure_at`): between
    the nearest clause ends (:data:`_CLAUSE_END`) around it; "" when ``value`` is None
    or not in the sentence."""
    figure = figure_at(sentence, value)
    return "" if figure is None else clause_at(sentence, figure.start())


def clause_at(sentence: str, at: int) -> str:
    """The clause of ``sentence`` holding offset ``at`` (0 <= at < len): between the
    nearest clause ends (:data:`_CLAUSE_END`) around it."""
    cuts = [0, *(m.start() for m in _CLAUSE_END.finditer(sentence)), len(sentence)]
    start = max(c for c in cuts if c <= at)
    end = min(c for c in cuts if c > at)
    return sentence[start:end]

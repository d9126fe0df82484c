"""A vendor page's title, vendor and publication date, and where each was found.

Pure: no Django. ``page_metadata`` is the entry point; the service passes what the
command or upload gave (``--title``, ``--vendor``, ``--published``), which wins.

* HTML: trafilatura's ``extract_metadata`` reads the ``og:``/``twitter:`` meta tags,
  JSON-LD (``headline``, ``publisher``), ``<title>`` and ``<h1>``; the date is htmldate's
  (``article:published_time``, JSON-LD ``datePublished``, ``<time>``, the URL), run
  without its "extensive search", which guesses from any date-like text (it dates the
  EEPW capture's quote-only sibling 2000-01-01).
* Plain text (most of ``../shared/vendor``: captures of pages, no markup left): the
  headline is the first line of the opening that reads like one (not a sentence,
  breadcrumb, category, label or date line); the date is the first date in the
  opening (``vendor_html.guess_published``), else one in the URL's path
  (``/2025/04/03/``, htmldate), taken only when plausible.

A date is *plausible* when it is not after ``today`` and not before the year of the
newest MLPerf round the page names ("MLPerf 3.0" cannot be reported in 2020: NVIDIA's
v3.0 table opens with a template's ``date 2020-01-01``). Each MLPerf version's
inference round comes out in the same calendar year as its training round, a few
months earlier (MLCommons' announcements: inference v1.0 2021-04-21 / training
2021-06-30, ... inference v5.0 2025-04-02 / training 2025-06-04), so the training
round's year bounds both suites. No date is ever made up: none found is ``None``.

The vendor is the company whose results the page is about: given; else the one
named by the page's metadata (``og:site_name``, JSON-LD publisher) or URL's host when
that is a known vendor; else the known vendor named most in the title, else in the
opening text (ties: the first named). :data:`VENDORS` lists the names and spellings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from urllib.parse import urlsplit

from htmldate import find_date
from trafilatura import extract_metadata

from benchdb.vocabulary import KNOWN_ROUNDS, ROUND_PUBLISHED

from .page_html import guess_published

#: Known vendors: display name -> (web domains, how pages spell it).
VENDORS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "NVIDIA": (("nvidia.com", "nvidia.cn"), ("NVIDIA", "英伟达", "英偉達", "輝達")),
    "Graphcore": (("graphcore.ai",), ("Graphcore", "拟未", "擬未")),
    "Intel": (("intel.com", "habana.ai"), ("Intel", "Habana", "英特尔", "英特爾")),
    "Inspur": (("inspur.com", "ieisystem.com"), ("Inspur", "浪潮")),
    "Microsoft": (("microsoft.com", "azure.com"), ("Microsoft", "Azure", "微软", "微軟")),
    "Google": (("google.com",), ("Google", "谷歌")),
    "Baidu": (("baidu.com", "paddlepaddle.org.cn"), ("Baidu", "PaddlePaddle", "百度", "飞桨")),
    "AMD": (("amd.com",), ("AMD",)),
    "Dell": (("dell.com", "delltechnologies.com"), ("Dell", "戴尔", "戴爾")),
    "HPE": (("hpe.com",), ("HPE", "Hewlett Packard Enterprise")),
    "Lenovo": (("lenovo.com",), ("Lenovo", "联想", "聯想")),
    "Huawei": (("huawei.com",), ("Huawei", "华为", "華為")),
    "Supermicro": (("supermicro.com",), ("Supermicro",)),
    "Cerebras": (("cerebras.net", "cerebras.ai"), ("Cerebras",)),
    "Qualcomm": (("qualcomm.com",), ("Qualcomm", "高通")),
    # Databricks bought MosaicML (2023); MosaicML's MLPerf results are its own
    "MosaicML": (("mosaicml.com", "databricks.com"), ("MosaicML",)),
    "CoreWeave": (("coreweave.com",), ("CoreWeave",)),
}

#: A vendor whose MLPerf results are filed under another name: Microsoft's are the
#: ``Azure`` (and ``Azure+NVIDIA``) folders of training_results_v1.0-v4.1 and of the
#: inference rounds. "We" on its pages is that submitter.
SUBMITS_AS: dict[str, str] = {"Microsoft": "Azure"}

# Latin spellings are whole words between letters, not ``\b``: Chinese text runs a name
# into the next word ("Graphcore公布"), and ``\b`` sees no boundary there.
_VENDOR_RX = {
    name: re.compile(
        "|".join(
            rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])" if w.isascii() else re.escape(w)
            for w in spellings
        ),
        re.I,
    )
    for name, (_, spellings) in VENDORS.items()
}
#: "MLPerf 3.0", "MLPerf Inference v4.0", "MLPerf™ Training v1.1", "MLPerf训练V1.1".
_ROUND = re.compile(
    r"MLPerf(?:™|\*|TM|®)?\s*(?:Training|Inference|HPC|训练|訓練|推理)?\s*(?:[vV]|version\s*)?"
    r"(\d\.\d)(?![\d.])",
    re.I,
)
#: How far into the text the title and date are looked for ("near the headline").
OPENING_LINES = 20
OPENING_CHARS = 3000


@dataclass(frozen=True)
class PageMeta:
    """What :func:`page_metadata` found. ``*_source``: ``"given"`` (the command or
    upload), ``"html"`` (meta tags, JSON-LD, ``<title>``: trafilatura / htmldate),
    ``"url"`` (the URL's host), ``"title"`` / ``"text"`` (the page's words), or ""
    when nothing was found (then the value is "" or None)."""

    title: str
    title_source: str
    vendor: str
    vendor_source: str
    published: date | None
    published_source: str


def page_metadata(
    source: str,
    *,
    text: str,
    html: bool,
    url: str = "",
    today: date | None = None,
    title: str = "",
    vendor: str = "",
    published: date | None = None,
) -> PageMeta:
    """Title, vendor and date of one page. ``source``: the decoded page (HTML or
    text); ``text``: its cleaned text (``vendor_html``); ``html``: whether ``source``
    is HTML; ``url``: where it came from; ``today``: no later date is taken (None: no
    upper bound); ``title``/``vendor``/``published``: given values, which win.
    Never raises on a page's content."""
    found = _html_meta(source, url) if html else ("", "", None)
    t, t_src = (title, "given") if title else (found[0], "html") if found[0] else ("", "")
    if not t:
        t = text_title(text)
        t_src = "text" if t else ""
    rounds_year = _newest_round_year(text)
    d, d_src = (published, "given") if published else (None, "")
    if d is None:
        candidates = ((found[2], "html"), (_text_date(text), "text"), (_url_date(url), "url"))
        for candidate, where in candidates:
            if candidate and plausible(candidate, rounds_year, today):
                d, d_src = candidate, where
                break
    v, v_src = (vendor, "given") if vendor else _vendor(found[1], url, t, text)
    return PageMeta(t[:300], t_src, v[:100], v_src, d, d_src)


def _html_meta(source: str, url: str) -> tuple[str, str, date | None]:
    """(title, site name, date) from HTML metadata; blanks when the libraries find
    nothing or fail on the markup."""
    try:
        meta = extract_metadata(source, default_url=url or None, extensive=False)
        found = find_date(source, extensive_search=False, original_date=True, url=url or None)
    except Exception:  # noqa: BLE001 - a library's parse failure means "nothing found"
        return "", "", None
    when = date.fromisoformat(found) if found and re.fullmatch(r"\d{4}-\d\d-\d\d", found) else None
    return (meta.title or "").strip(), (meta.sitename or "").strip(), when


def _url_date(url: str) -> date | None:
    """A date in the URL's path (``/2025/04/03/``), read by htmldate; None if none."""
    if "://" not in url:
        return None
    try:
        found = find_date("<html></html>", url=url, extensive_search=False, original_date=True)
    except Exception:  # noqa: BLE001 - see _html_meta
        return None
    return date.fromisoformat(found) if found else None


def plausible(when: date, rounds_year: int | None, today: date | None) -> bool:
    """Whether a page may be dated ``when``: not after ``today`` and not before
    January 1st of ``rounds_year`` (the year of the newest round it names)."""
    if today is not None and when > today:
        return False
    return rounds_year is None or when.year >= rounds_year


def _newest_round_year(text: str) -> int | None:
    rounds = {f"v{m.group(1)}" for m in _ROUND.finditer(text)}
    years = [ROUND_PUBLISHED[r].year for r in rounds if r.lstrip("v") in KNOWN_ROUNDS]
    return max(years) if years else None


def _text_date(text: str) -> date | None:
    ymd = guess_published(text)
    if ymd is None:
        return None
    try:
        return date(*ymd)
    except ValueError:
        return None


# --- a text page's headline ----------------------------------------------------------

_DATE_IN_LINE = re.compile(
    r"(?<!\d)20\d\d[-/.年]\s*\d{1,2}|"
    r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+(?:\d{1,2},?\s+)?20\d\d",
    re.I,
)
_BREADCRUMB = re.compile(r"\s>\s|>\S|当前位置|當前位置|首页|首頁")
_BYLINE = re.compile(r"(?:Written|Posted|By|作者|来源|來源|图|圖|Figure|Fig\.|Image)\b", re.I)
_LABEL_END = (":", ":", "：")
_SENTENCE_END = (".", "。", "!", "!", "?", "?", ";", ";", "”", '"')


def text_title(text: str) -> str:
    """The headline of a plain-text page. Its candidates are the first
    :data:`OPENING_LINES` non-blank lines (tag debris removed) that read like a
    headline: not a date or byline line, a breadcrumb (``a > b``, 当前位置), a category
    (``AI / LLMs``), a figure caption (图 | ..., Figure 1), a label (ends with ``:``), a
    sentence (ends with ``.`` or ``。``) or a fragment (under four words, or under six
    Chinese characters). The first candidate before the body begins (a paragraph of
    over 200 characters, or 60 Chinese ones) is the headline; else the first one
    naming MLPerf (a section heading: NVIDIA's table page opens with a paragraph);
    else "" (a capture that starts inside the article has no headline)."""
    lines = [re.sub(r"<[^>]*>", "", ln).strip() for ln in text[:OPENING_CHARS].splitlines()]
    body = False
    later = ""
    for line in [ln for ln in lines if ln][:OPENING_LINES]:
        if not body and _headline(line):
            return line
        body = body or len(line) > 200 or sum(map(_is_han, line)) >= 60
        if body and not later and _headline(line) and "mlperf" in line.lower():
            later = line
    return later


def _is_han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"


def _headline(line: str) -> bool:
    han = sum(map(_is_han, line))
    words = len(re.findall(r"[A-Za-z][\w'’-]*", line))
    if han < 6 and words < 4:
        return False
    if len(line) > 200 or line.endswith(_SENTENCE_END) or line.endswith(_LABEL_END):
        return False
    if _DATE_IN_LINE.search(line) or _BREADCRUMB.search(line):
        return False
    if re.search(r"\s?[/\\]\s?", line) and (words + han // 2) < 8:
        return False  # a category path: "Generative AI / LLMs", "人工智能/深度学习"
    return not _BYLINE.match(line)


# --- vendor --------------------------------------------------------------------------


def vendor_named(text: str) -> str:
    """The known vendor :data:`VENDORS` named most in ``text``; "" when none is, or when
    two are named equally often ("MLPerf Inference v2.1 with NVIDIA GPU-Based Benchmarks
    on Dell PowerEdge Servers" is Dell's page as much as NVIDIA's: a tie is no vendor,
    and a claim naming no system is then no vendor's results)."""
    counts = sorted(
        ((len(rx.findall(text)), name) for name, rx in _VENDOR_RX.items()), reverse=True
    )
    if not counts or not counts[0][0] or (len(counts) > 1 and counts[1][0] == counts[0][0]):
        return ""
    return counts[0][1]


def vendor_of_host(url: str) -> str:
    """The known vendor whose web domain ``url`` is on (``developer.nvidia.com`` ->
    NVIDIA); "" otherwise (a repost site)."""
    host = (urlsplit(url).hostname or "") if "://" in url else ""
    for name, (domains, _) in VENDORS.items():
        if any(host == d or host.endswith("." + d) for d in domains):
            return name
    return ""


def _vendor(site: str, url: str, title: str, text: str) -> tuple[str, str]:
    for value, where in (
        (vendor_named(site), "html"),
        (vendor_of_host(url), "url"),
        (vendor_named(title), "title"),
        (vendor_named(text[:OPENING_CHARS]), "text"),
    ):
        if value:
            return value, where
    return "", ""

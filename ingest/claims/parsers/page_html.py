"""Vendor pages: bytes -> cleaned text, language, title and publication date.

Pure: no Django, no ORM, no settings. ``parse_vendor_page`` is the entry point.

* HTML (a ``.htm``/``.html`` name, a ``text/html`` content type, or a document that
  starts with ``<!doctype``, ``<html``, ``<head`` or ``<body``) goes through
  BeautifulSoup: scripts, styles, navigation (``<nav>``, ``role="navigation"``),
  forms, frames, comments and the doctype are dropped; block elements become lines;
  tables are kept as tables, written as pipe tables (``a | b | c`` with a ``---|---``
  line under the header) so that ``vendor_tables.parse_vendor_tables`` reads them
  back. Elements nested deeper than :data:`MAX_HTML_DEPTH` are refused
  (:class:`ParseError`), checked before and after the tree is built.
* A page whose cleaned text is longer than :data:`MAX_PAGE_CHARS` is refused
  (:class:`PageTooLarge`, saying how long it is): it is not cut, and not read.
* Anything else is plain text and is taken as it is: only line endings are
  normalized (``\\r\\n`` -> ``\\n``) and control characters other than tab and
  newline removed. Tag debris inside a text page (the EEPW repost starts with
  ``<meter><nav>`` junk) stays text; pages escape it when they show it.

The rows of vendor tables are read from the cleaned text by ``vendor_tables``.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from bs4 import BeautifulSoup
from bs4.element import Comment, NavigableString, PreformattedString, Tag

from ingest.parsers.types import ParseError

#: Most characters of cleaned text read from one page (benchdb's bound, issue 21). A
#: long article is about 20,000 characters, the largest page in ../shared/vendor 10,673;
#: reading costs 1-14 us of CPU per character (``bench/vendor_tables_scaling.py``), so
#: a page at the bound is read in about 0.5 s, within the check API's budget.
MAX_PAGE_CHARS = 100_000


class PageTooLarge(ParseError):
    """The page's cleaned text has ``chars`` characters, more than ``limit``
    (:data:`MAX_PAGE_CHARS`): nothing of it is read (``field`` "size")."""

    def __init__(self, chars: int, limit: int, *, path: str = "") -> None:
        self.chars, self.limit = chars, limit
        super().__init__(
            f"page too large: {chars:,} characters of text after cleaning;"
            f" at most {limit:,} are read (split the page)",
            path=path,
            field="size",
        )

    def __reduce__(self) -> tuple[object, ...]:  # pickles (the budget's child sends it)
        return (type(self), (self.chars, self.limit), {"path": self.path})


# --- decoding and cleaning ----------------------------------------------------------


@dataclass(frozen=True)
class VendorDocument:
    """A vendor page read from bytes.

    ``text``: the cleaned text (what claims and spans refer to); ``format``:
    ``"html"`` or ``"text"``; ``language``: ``"en"``, ``"zh-Hans"``, ``"zh-Hant"`` or
    ``"und"`` (see :func:`detect_language`); ``encoding``: the codec the bytes were
    decoded with; ``title``: the HTML ``<title>`` or the first non-blank line.
    """

    text: str
    format: str
    language: str
    encoding: str
    title: str


_HTML_START = re.compile(
    r"\A\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body)\b", re.I | re.S
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def parse_vendor_page(
    data: bytes, *, name: str = "", content_type: str = "", max_chars: int = MAX_PAGE_CHARS
) -> VendorDocument:
    """Decode and clean one page.

    ``data``: the raw bytes; ``name``: file name or URL (its extension may say HTML);
    ``content_type``: the HTTP Content-Type, if fetched. Raises :class:`ParseError`
    for empty input or bytes that decode to no text at all, and :class:`PageTooLarge`
    when the cleaned text has more than ``max_chars`` characters.
    """
    if not data or not data.strip():
        raise ParseError("empty page", path=name)
    text, encoding = decode(data, content_type)
    if is_html(text, name=name, content_type=content_type):
        try:
            cleaned, title, fmt = html_to_text(text), _html_title(text), "html"
        except ParseError as exc:
            raise ParseError(exc.reason, path=name, field=exc.field) from exc
    else:
        cleaned, fmt = clean_plain_text(text), "text"
        title = ""
    if not cleaned.strip():
        raise ParseError("no text left after cleaning", path=name)
    if len(cleaned) > max_chars:
        raise PageTooLarge(len(cleaned), max_chars, path=name)
    # a text page's title: its first line with words once tag debris is removed
    title = title or next(
        (t for ln in cleaned.splitlines() if (t := re.sub(r"<[^>]*>", "", ln).strip())), ""
    )
    return VendorDocument(cleaned, fmt, detect_language(cleaned), encoding, title[:300])


def decode(data: bytes, content_type: str = "") -> tuple[str, str]:
    """Bytes -> (text, codec). Tries the charset of ``content_type`` or of a
    ``<meta charset>``, a BOM, then UTF-8; bytes that are not UTF-8 are read as GB18030
    or Big5 (Chinese pages), whichever gives more common Chinese characters, else
    Windows-1252. Never raises (undecodable bytes become U+FFFD)."""
    head = data[:4000].decode("ascii", errors="ignore")
    declared = re.search(r"charset=([\w.-]+)", content_type or "", re.I) or re.search(
        r"<meta[^>]+charset=[\"']?([\w.-]+)", head, re.I
    )
    for bom, codec in (
        (b"\xef\xbb\xbf", "utf-8-sig"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
    ):
        if data.startswith(bom):
            return data.decode(codec, errors="replace"), codec
    for codec in ([declared.group(1)] if declared else []) + ["utf-8"]:
        try:
            return data.decode(codec), codec.lower()
        except (UnicodeDecodeError, LookupError):
            continue
    readings = []
    for codec in ("gb18030", "big5"):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        han = [ch for ch in text if _is_han(ch)]
        readings.append((sum(ch in _COMMON for ch in han) / max(1, len(han)), codec, text))
    if readings:
        _, codec, text = max(readings)
        return text, codec
    return data.decode("windows-1252", errors="replace"), "windows-1252"


def is_html(text: str, *, name: str = "", content_type: str = "") -> bool:
    """True when the page is HTML: by content type, by a ``.htm(l)`` name, or by a
    document start (``<!doctype html``, ``<html``, ``<head``, ``<body``). A text file
    that merely contains stray tags is not HTML."""
    if "html" in (content_type or "").lower():
        return True
    if re.search(r"\.x?html?(?:$|[?#])", name or "", re.I):
        return True
    return bool(_HTML_START.match(text[:4000]))


def clean_plain_text(text: str) -> str:
    """Plain text as it is: ``\\r\\n``/``\\r`` -> ``\\n``, control characters dropped."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    return _CONTROL.sub("", text)


_DROP = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "nav",
        "iframe",
        "frame",
        "frameset",
        "object",
        "embed",
        "svg",
        "canvas",
        "form",
        "button",
        "select",
        "head",
        "link",
        "meta",
        "input",
        "textarea",
    }
)
_BLOCK = frozenset(
    {
        "p",
        "div",
        "section",
        "article",
        "main",
        "header",
        "footer",
        "aside",
        "ul",
        "ol",
        "li",
        "dl",
        "dt",
        "dd",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "blockquote",
        "pre",
        "figure",
        "figcaption",
        "address",
        "hr",
        "br",
        "caption",
        "details",
        "summary",
        "body",
        "html",
    }
)


#: Deepest element nesting read. libxml2, which parses the HTML, builds no deeper tree
#: for ``lxml.html`` either (255 levels); real pages stay far below it (a few dozen).
#: Bounding it keeps :func:`_walk` (one frame per level) clear of Python's recursion
#: limit, and the per-element work below linear in the page.
MAX_HTML_DEPTH = 256


def html_to_text(html: str) -> str:
    """HTML -> text: dropped elements (module docstring) and comments removed,
    whitespace collapsed, one line per block, tables as pipe tables. Raises
    :class:`ParseError` when elements nest deeper than :data:`MAX_HTML_DEPTH`."""
    _prescan_depth(html)
    soup = BeautifulSoup(html, "lxml")
    _check_depth(soup)
    for c in soup.find_all(string=lambda s: isinstance(s, Comment)):
        c.extract()
    # Chosen first, then removed: an element inside a removed one is skipped (its name
    # is cleared by ``decompose``). ``tag.decomposed`` is not asked: on a Tag, a
    # missing attribute is looked up as a child element, a search of its subtree.
    drop = [tag for tag in soup.find_all(True) if isinstance(tag, Tag) and _dropped(tag)]
    for tag in drop:
        if tag.name:
            tag.decompose()
    out: list[str] = []
    _walk(soup, out)
    return _tidy("".join(out))


def _dropped(tag: Tag) -> bool:
    return tag.name in _DROP or (tag.get("role") or "") == "navigation" or tag.has_attr("hidden")


# ``[^<>]``: a tag with no ``>`` ends at the next ``<``, so each is scanned once.
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)[^<>]*?(/?)>")
_VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
        "keygen",
    ]
)
# Elements whose end tag may be left out: the parser closes them itself.
_OPTIONAL_END = frozenset(
    [
        "p",
        "li",
        "dt",
        "dd",
        "tr",
        "td",
        "th",
        "option",
        "optgroup",
        "thead",
        "tbody",
        "tfoot",
        "colgroup",
        "caption",
        "rb",
        "rt",
        "rtc",
        "rp",
        "html",
        "head",
        "body",
    ]
)


def _prescan_depth(html: str) -> None:
    """Refuse, before building a tree, a page whose tags open far deeper than
    :data:`MAX_HTML_DEPTH`: building 100,000 nested elements alone takes seconds. The
    count (open tags minus end tags, leaving out void elements and those whose end tag
    is optional) only bounds the tree's depth, so its threshold is four times the limit;
    :func:`_check_depth` then measures the tree itself."""
    depth = pos = 0
    lower = html.lower()
    while m := _TAG.search(html, pos):
        pos = m.end()
        name = m.group(2).lower()
        if name in ("script", "style") and not m.group(1):
            end = lower.find(f"</{name}", pos)  # their text is no markup
            pos = len(html) if end < 0 else end
            continue
        if name in _VOID or name in _OPTIONAL_END or m.group(3):
            continue
        depth = max(0, depth - 1) if m.group(1) else depth + 1
        if depth > 4 * MAX_HTML_DEPTH:
            raise ParseError(
                f"HTML elements nested more than {MAX_HTML_DEPTH} deep; not read", field="html"
            )


def _check_depth(soup: BeautifulSoup) -> None:
    """Raise :class:`ParseError` when elements nest deeper than :data:`MAX_HTML_DEPTH`
    (iterative: a deep tree must not recurse)."""
    stack: list[tuple[Tag, int]] = [(soup, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_HTML_DEPTH:
            raise ParseError(
                f"HTML elements nested more than {MAX_HTML_DEPTH} deep; not read", field="html"
            )
        stack.extend((c, depth + 1) for c in node.children if isinstance(c, Tag))


def _walk(node: Tag, out: list[str]) -> None:
    for child in node.children:
        if isinstance(child, NavigableString):
            if not isinstance(child, PreformattedString):  # comments, doctype, CDATA...
                out.append(re.sub(r"\s+", " ", str(child)))
            continue
        if not isinstance(child, Tag):
            continue
        if child.name == "table":
            out.append("\n" + _table_text(child) + "\n")
        elif child.name == "li":
            out.append("\n- ")
            _walk(child, out)
            out.append("\n")
        elif child.name in _BLOCK:
            out.append("\n")
            _walk(child, out)
            out.append("\n")
        else:
            _walk(child, out)


def _cell_text(cell: Tag) -> str:
    parts: list[str] = []
    _walk(cell, parts)
    return re.sub(r"\s+", " ", "".join(parts)).replace("|", "/").strip()


def _table_text(table: Tag) -> str:
    """A table as pipe-table lines: the first row is the header; colspans repeat."""
    rows: list[list[str]] = []
    for tr in table.find_all("tr"):
        if tr.find_parent("table") is not table:
            continue  # a nested table's rows are written by its own cell
        row: list[str] = []
        for cell in tr.find_all(["td", "th"], recursive=False):
            span = cell.get("colspan")
            n = int(span) if isinstance(span, str) and span.isdigit() else 1
            row.extend([_cell_text(cell)] * max(1, min(n, 50)))
        if any(row):
            rows.append(row)
    if not rows:
        return ""
    width = max(len(r) for r in rows)
    lines = [" | ".join(rows[0] + [""] * (width - len(rows[0]))) + " |", "---|" * width]
    lines += [" | ".join(r + [""] * (width - len(r))) + " |" for r in rows[1:]]
    cap = table.find("caption")
    head = [_cell_text(cap)] if isinstance(cap, Tag) else []
    return "\n".join(head + lines)


def _tidy(text: str) -> str:
    lines = [re.sub(r"[ \t\u00a0]+", " ", ln).strip() for ln in text.split("\n")]
    out: list[str] = []
    for ln in lines:
        if ln or (out and out[-1]):
            out.append(ln)
    return _CONTROL.sub("", "\n".join(out).strip()) + "\n"


_TITLE_OPEN = re.compile(r"<title[^<>]*>", re.I)
_TITLE_CLOSE = re.compile(r"</title>", re.I)


def _html_title(html: str) -> str:
    # Two searches, not one lazy ``<title>(.*?)</title>``: that rescans the rest of the
    # page from every ``<title`` that has no end tag.
    start = _TITLE_OPEN.search(html)
    end = _TITLE_CLOSE.search(html, start.end()) if start else None
    if start is None or end is None:
        return ""
    inner = html[start.end() : end.start()]
    return re.sub(r"\s+", " ", BeautifulSoup(inner, "lxml").get_text()).strip()


# --- language -----------------------------------------------------------------------

# Pairs (simplified, traditional) of common characters that differ between the two
# scripts. Characters that are also used in traditional text (后 里 范 只 台 面 系
# 干 发) are left out.
_PAIRS = (
    "个個们們这這来來时時为為对對会會说說与與过過国國学學开開实實体體动動进進长長点點"
    "现現经經关關应應当當样樣从從区區处處头頭产產计計数數据據练練将將于於间間认認论論"
    "达達续續务務统統线線记記结結网網术術类類传傳图圖办辦训訓绩績验驗脑腦机機亿億压壓"
    "营營业業东東车車还還么麼没沒问問题題让讓请請边邊华華电電层層员員场場导導报報书書"
    "见見观觀视視设設试試语語读讀费費资資质質轻輕较較运運选選门門闻聞际際难難须須领領"
    "频頻风風优優势勢级級组組终終给給维維编編总總称稱积積稳穩简簡节節获獲标標检檢构構"
    "权權欢歡备備专專广廣张張强強态態战戰扩擴护護择擇换換无無显顯条條极極测測满滿热熱"
    "爱愛环環确確种種络絡继繼综綜联聯职職装裝览覽许許证證评評识識词詞译譯话話详詳误誤"
    "调調谈談赛賽转轉软軟输輸连連适適释釋针針错錯键鍵闭閉队隊阶階随隨页頁项項顺順预預"
    "额額馈饋鲜鮮齐齊飞飛龙龍轮輪载載团團园園圆圓场場块塊够夠层層岁歲归歸录錄执執扫掃"
)
_SIMPLIFIED = frozenset(_PAIRS[0::2])
_TRADITIONAL = frozenset(_PAIRS[1::2])
# Very common characters of both scripts: a right reading of legacy bytes has many.
_COMMON = (
    _SIMPLIFIED
    | _TRADITIONAL
    | frozenset(
        "的一是在不了有和人中大上年我以要他到作地出就分成可主同工也能下子种面而方多定行法所得十三之着等部度家力里如水化高自二理起"
        "小物实加量都两体制当使好性开还因由其些然前外天政四日那社义事平形相全表样重新线内数正心反你明看原又么利比或但质气第向道命"
        "此变条只没结解问意建月公无系很情者最立代想已通并提直题程展五果料象员位入常文总次品式活设及管特件长求老头基资边流路级少图"
        "山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压"
        "志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类"
        "八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断"
        "深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼"
        "王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严"
    )
)


def _is_han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" or "\uf900" <= ch <= "\ufaff"


def _is_latin_letter(ch: str) -> bool:
    """A letter of an alphabet below U+2000 (Latin, Greek, Cyrillic...)."""
    if ch.isascii():
        return ch.isalpha()
    return unicodedata.category(ch).startswith("L") and ch.isalpha() and ord(ch) < 0x2000


def detect_language(text: str) -> str:
    """``"zh-Hans"``, ``"zh-Hant"``, ``"en"`` or ``"und"`` (nothing to go on).

    Heuristic, documented so it can be checked by hand: a Han character carries
    about a word, a Latin word about five letters, so the page is Chinese when
    Han characters x 3 >= Latin letters (spam sidebars of Chinese characters on an
    English page stay well below that). Simplified vs traditional: count the
    characters of :data:`_PAIRS` in each script; traditional wins only when it has
    more. Other scripts are not told apart ("en" for any Latin-script page).
    """
    han = latin = 0
    simp = trad = 0
    # Counted per distinct character: a page has a few thousand, so this stays fast
    # on megabytes of text.
    for ch, n in Counter(text).items():
        if _is_han(ch):
            han += n
            simp += n * (ch in _SIMPLIFIED)
            trad += n * (ch in _TRADITIONAL)
        elif _is_latin_letter(ch):
            latin += n
    if han == 0 and latin == 0:
        return "und"
    if han * 3 >= latin:
        return "zh-Hant" if trad > simp else "zh-Hans"
    return "en"


# --- publication date -----------------------------------------------------------------

_MONTHS = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
_DATES = (
    re.compile(r"(?<!\d)(?P<y>20\d\d)-(?P<m>\d\d)-(?P<d>\d\d)(?!\d)"),
    re.compile(r"(?P<y>20\d\d)\s*年\s*(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*日"),
    re.compile(
        r"(?P<mon>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|"
        r"Sep|Oct|Nov|Dec)[a-z]*\.?\s+(?P<d>\d{1,2}),?\s+(?P<y>20\d\d)"
    ),
)


def guess_published(text: str) -> tuple[int, int, int] | None:
    """(year, month, day) of the first date in the page's first 800 characters
    (``2021-12-02``, ``2021年12月2日``, ``Dec 01, 2021``), or None. A guess: pages
    carry other dates too (NVIDIA's table page opens with ``date 2020-01-01``)."""
    head = text[:800]
    best: tuple[int, tuple[int, int, int]] | None = None
    for rx in _DATES:
        m = rx.search(head)
        if not m:
            continue
        month = int(m.group("m")) if "m" in rx.groupindex else _MONTHS[m.group("mon")[:3].lower()]
        ymd = (int(m.group("y")), month, int(m.group("d")))
        if 1 <= ymd[1] <= 12 and 1 <= ymd[2] <= 31 and (best is None or m.start() < best[0]):
            best = (m.start(), ymd)
    return best[1] if best else None

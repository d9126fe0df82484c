"""Vendor pages: bytes -> cleaned text, language, and the rows of vendor tables.

Pure: no Django, no ORM, no settings. ``parse_vendor_page`` is the entry point.

* HTML (a ``.htm``/``.html`` name, a ``text/html`` content type, or a document that
  starts with ``<!doctype``, ``<html``, ``<head`` or ``<body``) goes through
  BeautifulSoup: scripts, styles, navigation (``<nav>``, ``role="navigation"``),
  forms, frames and comments are dropped; block elements become lines; tables are
  kept as tables, written as pipe tables (``a | b | c`` with a ``---|---`` line under
  the header) so that :func:`parse_vendor_tables` reads them back.
* Anything else is plain text and is taken as it is: only line endings are
  normalized (``\\r\\n`` -> ``\\n``) and control characters other than tab and
  newline removed. Tag debris inside a text page (the EEPW repost starts with
  ``<meter><nav>`` junk) stays text; pages escape it when they show it.

Vendor tables (:func:`parse_vendor_tables`): pipe tables (Intel's pages), whose
continuation rows may lack their leading cells, and NVIDIA's whitespace tables,
whose repeated leading cells (framework, network) are left blank; both are carried
down from the row above.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from bs4 import BeautifulSoup
from bs4.element import Comment, NavigableString, Tag

from .types import ParseError

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


_HTML_START = re.compile(r"\A\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body)\b", re.I | re.S)  # fmt: skip
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def parse_vendor_page(data: bytes, *, name: str = "", content_type: str = "") -> VendorDocument:
    """Decode and clean one page.

    ``data``: the raw bytes; ``name``: file name or URL (its extension may say HTML);
    ``content_type``: the HTTP Content-Type, if fetched. Raises :class:`ParseError`
    for empty input or bytes that decode to no text at all.
    """
    if not data or not data.strip():
        raise ParseError("empty page", path=name)
    text, encoding = decode(data, content_type)
    if is_html(text, name=name, content_type=content_type):
        cleaned, title, fmt = html_to_text(text), _html_title(text), "html"
    else:
        cleaned, fmt = clean_plain_text(text), "text"
        title = ""
    if not cleaned.strip():
        raise ParseError("no text left after cleaning", path=name)
    # a text page's title: its first line with words once tag debris is removed
    title = title or next((t for ln in cleaned.splitlines() if (t := re.sub(r"<[^>]*>", "", ln).strip())), "")  # fmt: skip
    return VendorDocument(cleaned, fmt, detect_language(cleaned), encoding, title[:300])


def decode(data: bytes, content_type: str = "") -> tuple[str, str]:
    """Bytes -> (text, codec). Tries the charset of ``content_type`` or of a
    ``<meta charset>``, a BOM, then UTF-8; bytes that are not UTF-8 are read as GB18030
    or Big5 (Chinese pages), whichever gives more common Chinese characters, else
    Windows-1252. Never raises (undecodable bytes become U+FFFD)."""
    head = data[:4000].decode("ascii", errors="ignore")
    declared = re.search(r"charset=([\w.-]+)", content_type or "", re.I) or re.search(r"<meta[^>]+charset=[\"']?([\w.-]+)", head, re.I)  # fmt: skip
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")):  # fmt: skip
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


_DROP = frozenset({"script", "style", "noscript", "template", "nav", "iframe", "frame", "frameset",
                   "object", "embed", "svg", "canvas", "form", "button", "select", "head", "link",
                   "meta", "input", "textarea"})  # fmt: skip
_BLOCK = frozenset({"p", "div", "section", "article", "main", "header", "footer", "aside", "ul",
                    "ol", "li", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
                    "pre", "figure", "figcaption", "address", "hr", "br", "caption", "details",
                    "summary", "body", "html"})  # fmt: skip


def html_to_text(html: str) -> str:
    """HTML -> text: dropped elements (module docstring) and comments removed,
    whitespace collapsed, one line per block, tables as pipe tables."""
    soup = BeautifulSoup(html, "lxml")
    for c in soup.find_all(string=lambda s: isinstance(s, Comment)):
        c.extract()
    for tag in soup.find_all(True):
        if not isinstance(tag, Tag) or tag.decomposed:
            continue
        if tag.name in _DROP or (tag.get("role") or "") == "navigation" or tag.has_attr("hidden"):
            tag.decompose()
    out: list[str] = []
    _walk(soup, out)
    return _tidy("".join(out))


def _walk(node: Tag, out: list[str]) -> None:
    for child in node.children:
        if isinstance(child, NavigableString):
            if not isinstance(child, Comment):
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


def _html_title(html: str) -> str:
    m = re.search(r"<title[^>]*>(.*?)</title>", html, re.I | re.S)
    return re.sub(r"\s+", " ", BeautifulSoup(m.group(1), "lxml").get_text()).strip() if m else ""  # fmt: skip


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
_COMMON = _SIMPLIFIED | _TRADITIONAL | frozenset("的一是在不了有和人中大上年我以要他到作地出就分成可主同工也能下子种面而方多定行法所得十三之着等部度家力里如水化高自二理起小物实加量都两体制当使好性开还因由其些然前外天政四日那社义事平形相全表样重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系很情者最立代想已通并提直题程展五果料象员位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严")


def _is_han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" or "\uf900" <= ch <= "\ufaff"


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
    for ch in text:
        if _is_han(ch):
            han += 1
            simp += ch in _SIMPLIFIED
            trad += ch in _TRADITIONAL
        elif ch.isascii() and ch.isalpha() or unicodedata.category(ch).startswith("L") and ch.isalpha() and ord(ch) < 0x2000:
            latin += 1
    if han == 0 and latin == 0:
        return "und"
    if han * 3 >= latin:
        return "zh-Hant" if trad > simp else "zh-Hans"
    return "en"


# --- vendor tables ------------------------------------------------------------------


@dataclass(frozen=True)
class VendorRow:
    """One row of a vendor table, after blank leading cells were carried down.

    ``cells`` line up with the table's ``columns``; ``carried`` lists the column
    indexes filled from the row above; ``line`` is the 1-based line of the cleaned
    text, ``start``/``end`` its character span. ``values`` maps the normalized field
    names (``model``, ``framework``, ``accelerators``, ``accelerator``, ``system``,
    ``time_to_train``, ``throughput``, ``result_id``, ``precision``, ``quality_target``,
    ``dataset``, ``batch_size``...) to the cell texts they came from.
    """

    index: int
    line: int
    start: int
    end: int
    raw: str
    cells: tuple[str, ...]
    carried: tuple[int, ...]
    values: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class VendorTable:
    """A table found in the cleaned text: ``style`` ``"pipe"`` or ``"whitespace"``;
    ``caption``: up to three lines of text right above it (its title and notes);
    ``start``/``end``: character span from the header to the last row."""

    index: int
    style: str
    line: int
    start: int
    end: int
    caption: str
    columns: tuple[str, ...]
    rows: tuple[VendorRow, ...]


# Header name (lower case, spaces squeezed) -> normalized field.
_FIELDS = {
    "model": "model", "network": "model", "framework": "framework", "# hpu": "accelerators",
    "#hpu": "accelerators", "gpu": "accelerators", "precision": "precision",
    "time to train": "time_to_train", "time to train (mins)": "time_to_train", "ttt": "time_to_train",
    "frameworks version": "framework_version", "framework version": "framework_version",
    "sequence length": "sequence_length", "batch size": "batch_size", "batch": "batch_size",
    "throughput (tokens/sec)": "throughput", "throughput": "throughput",
    "mlperf quality target": "quality_target", "server": "system", "mlperf-id": "result_id",
    "dataset": "dataset", "gpu version": "accelerator", "input length": "input_length",
    "output length": "output_length",
}  # fmt: skip

_PIPE_SEP = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_NUMERIC = re.compile(r"^[\d,.]+\s*[^\s\w]*$")


def parse_vendor_tables(text: str) -> list[VendorTable]:
    """All vendor tables of a cleaned text, in order (pipe tables, then NVIDIA-style
    whitespace tables, sorted by position). Never raises on odd rows: a row that
    does not fit is left out of the table (it stays in the text)."""
    lines = text.split("\n")
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln) + 1)
    found = _pipe_tables(lines, offsets) + _whitespace_tables(lines, offsets)
    found.sort(key=lambda t: t.start)
    return [VendorTable(i, t.style, t.line, t.start, t.end, t.caption, t.columns, t.rows) for i, t in enumerate(found)]  # fmt: skip


def _split_pipe(line: str) -> list[str]:
    cells = [c.strip() for c in line.strip().split("|")]
    if line.strip().startswith("|"):
        cells = cells[1:]
    if line.strip().endswith("|"):
        cells = cells[:-1]
    return cells


def _caption(lines: list[str], first: int) -> str:
    out: list[str] = []
    i = first - 1
    while i >= 0 and not lines[i].strip():
        i -= 1
    while i >= 0 and len(out) < 3 and lines[i].strip() and "|" not in lines[i]:
        out.insert(0, lines[i].strip())
        i -= 1
    return " ".join(out)


def _pipe_tables(lines: list[str], offsets: list[int]) -> list[VendorTable]:
    tables: list[VendorTable] = []
    i = 1
    while i < len(lines):
        if not (_PIPE_SEP.match(lines[i]) and "|" in lines[i - 1]):
            i += 1
            continue
        header = _split_pipe(lines[i - 1])
        rows: list[VendorRow] = []
        prev: list[str] = []
        j = i + 1
        while j < len(lines) and "|" in lines[j] and not _PIPE_SEP.match(lines[j]):
            cells, carried = _align_pipe_row(_split_pipe(lines[j]), header, prev, rows)
            rows.append(VendorRow(len(rows), j + 1, offsets[j], offsets[j] + len(lines[j]), lines[j], tuple(cells), tuple(carried), _values(header, cells)))  # fmt: skip
            prev = cells
            j += 1
        header, rows, group = _promote_header(header, rows)
        if rows:
            caption = " ".join(x for x in (_caption(lines, i - 1), group) if x)
            tables.append(VendorTable(0, "pipe", i, offsets[i - 1], offsets[j - 1] + len(lines[j - 1]), caption, tuple(header), tuple(rows)))  # fmt: skip
        i = j
    return tables


def _promote_header(header: list[str], rows: list[VendorRow]) -> tuple[list[str], list[VendorRow], str]:  # fmt: skip
    """A group header over the real one (Intel, version B: ``Max Throughput [TpS] | |||||``
    above ``---|``, then ``Model | # HPU | ...`` as the first body row): the first body
    row becomes the header, the group title goes to the caption."""
    if len(rows) < 2 or sum(1 for c in header if c) > 1:
        return header, rows, ""
    first = rows[0].cells
    if not all(c and not _NUMERIC.match(c) for c in first):
        return header, rows, ""
    cols = list(first)
    body = [VendorRow(k, r.line, r.start, r.end, r.raw, r.cells, r.carried, _values(cols, list(r.cells))) for k, r in enumerate(rows[1:])]  # fmt: skip
    return cols, body, " ".join(c for c in header if c)


def _align_pipe_row(cells: list[str], header: list[str], prev: list[str], rows: list[VendorRow]) -> tuple[list[str], list[int]]:  # fmt: skip
    """Line a row's cells up with the header and carry blank leading cells down.

    A continuation row may leave out its leading cells altogether (Intel's Gaudi 3
    table: ``1 | fp8 | 128 | ...`` under ``LLaMA 2 7b | 1 | fp8 | ...``): when its
    first cell is a number while the first column holds names, its cells belong to
    the right-hand columns. Otherwise short rows are padded on the right.
    """
    n = len(header)
    first_col_text = bool(rows) and not _NUMERIC.match(rows[0].cells[0] or "0")
    if cells and first_col_text and _NUMERIC.match(cells[0]):
        while cells and not cells[-1]:
            cells = cells[:-1]
        cells = [""] * max(0, n - len(cells)) + cells[-n:]
    else:
        cells = (cells + [""] * n)[:n] if len(cells) <= n else cells[: n - 1] + [" | ".join(cells[n - 1 :])]  # fmt: skip
    carried: list[int] = []
    for k in range(n):
        if cells[k] or not prev:
            break
        cells[k] = prev[k]
        carried.append(k)
    return cells, carried


def _values(header: list[str] | tuple[str, ...], cells: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, cell in zip(header, cells, strict=False):
        key = _FIELDS.get(re.sub(r"\s+", " ", name.strip().lower()))
        if key and cell and key not in out:
            out[key] = cell
    return out


# NVIDIA's whitespace table (developer.nvidia.com deep-learning-performance-training):
# the header names these columns in this order; cells hold spaces, so a row is read
# by its typed cells (time, "8x H100", MLPerf-ID), see _nv_row.
_NV_COLUMNS = ("Framework", "Network", "Time to Train (mins)", "MLPerf Quality Target", "GPU",
               "Server", "MLPerf-ID", "Precision", "Dataset", "GPU Version")  # fmt: skip
_NV_TIME = re.compile(r"\d+\.\d+|\d+")
_NV_GPUS = re.compile(r"\d[\d,]*x")
_NV_ID = re.compile(r"\d+\.\d+-\d+")
#: A longer line is no row of a vendor table (NVIDIA's longest is 118 characters): it
#: ends the table. Bounds the work per line whatever a page holds.
MAX_ROW_CHARS = 1000
FRAMEWORKS = ("NVIDIA Merlin HugeCTR", "HugeCTR", "MXNet", "PyTorch", "TensorFlow", "JAX",
              "PaddlePaddle", "NVIDIA NeMo", "NeMo", "MindSpore", "PopART", "Lingvo")  # fmt: skip


def _whitespace_tables(lines: list[str], offsets: list[int]) -> list[VendorTable]:
    tables: list[VendorTable] = []
    i = 0
    while i < len(lines):
        header = lines[i]
        width = 1
        if i + 1 < len(lines) and lines[i + 1].lstrip().startswith("("):
            header, width = header + " " + lines[i + 1], 2  # "Time to Train\n(mins)"
        squeezed = re.sub(r"\s+", " ", header)
        if not ("MLPerf-ID" in squeezed and "Time to Train" in squeezed and "|" not in header):
            i += 1
            continue
        rows: list[VendorRow] = []
        prev: list[str] = []
        j = i + width
        while j < len(lines) and lines[j].strip():
            m = _nv_row(lines[j].strip())
            if m is None:
                break
            cells, carried = _nv_cells(m, prev)
            rows.append(VendorRow(len(rows), j + 1, offsets[j], offsets[j] + len(lines[j]), lines[j], tuple(cells), tuple(carried), _values(_NV_COLUMNS, cells)))  # fmt: skip
            prev = cells
            j += 1
        if rows:
            tables.append(VendorTable(0, "whitespace", i + 1, offsets[i], offsets[j - 1] + len(lines[j - 1]), _caption(lines, i), _NV_COLUMNS, tuple(rows)))  # fmt: skip
        i = max(j, i + 1)
    return tables


def _nv_row(line: str) -> dict[str, str] | None:
    """The cells of one row of NVIDIA's table, or None when ``line`` is no row.

    A row is ``lead time target+ gpus accel server+ id precision dataset+ version``
    (``+``: one or more words): ``time`` a number (``13.466``), ``gpus`` a count with
    ``x`` (``8x``, ``3,584x``), ``id`` an MLPerf-ID (``3.0-2053``), ``version`` the last
    word. Where words could be read more than one way, the earliest time, then the
    earliest ``gpus``, then the earliest ``id`` that leave a whole row are taken (what
    one regular expression with lazy groups would match, without its backtracking:
    one pass over the words). Lines over :data:`MAX_ROW_CHARS` are no row.
    """
    if len(line) > MAX_ROW_CHARS:
        return None
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", line)]
    text = [line[a:b] for a, b in words]
    n = len(text)
    # id at i needs precision, dataset and version after it (i <= n - 4); gpus at g
    # needs its accelerator and a server word before the id (g + 3 <= i); time at t
    # needs a target word before gpus (t + 2 <= g).
    last_id = max((i for i in range(n - 3) if _NV_ID.fullmatch(text[i])), default=-1)
    last_gpus = max((g for g in range(last_id - 2) if _NV_GPUS.fullmatch(text[g])), default=-1)
    t = next((t for t in range(last_gpus - 1) if _NV_TIME.fullmatch(text[t])), None)
    if t is None:
        return None
    g = next(g for g in range(t + 2, n) if _NV_GPUS.fullmatch(text[g]) and g + 3 <= last_id)
    i = next(i for i in range(g + 3, n) if _NV_ID.fullmatch(text[i]))

    def span(first: int, last: int) -> str:
        return line[words[first][0] : words[last][1]]

    return {
        "lead": line[: words[t][0]], "time": text[t], "target": span(t + 1, g - 1),
        "gpus": span(g, g + 1), "server": span(g + 2, i - 1), "id": text[i],
        "precision": text[i + 1], "dataset": span(i + 2, n - 2), "version": text[n - 1],
    }  # fmt: skip


def _nv_cells(m: dict[str, str], prev: list[str]) -> tuple[list[str], list[int]]:
    lead = m["lead"].strip()
    framework = next((f for f in FRAMEWORKS if lead == f or lead.startswith(f + " ")), "")
    network = lead[len(framework) :].strip()
    cells = [framework, network, m["time"], m["target"], m["gpus"], m["server"], m["id"],
             m["precision"], m["dataset"], m["version"]]  # fmt: skip
    carried: list[int] = []
    for k in (0, 1):  # only the leading, repeated cells are left blank
        if not cells[k] and prev:
            cells[k] = prev[k]
            carried.append(k)
    return cells, carried


# --- publication date -----------------------------------------------------------------

_MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}  # fmt: skip
_DATES = (
    re.compile(r"(?<!\d)(?P<y>20\d\d)-(?P<m>\d\d)-(?P<d>\d\d)(?!\d)"),
    re.compile(r"(?P<y>20\d\d)\s*年\s*(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*日"),
    re.compile(r"(?P<mon>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+(?P<d>\d{1,2}),?\s+(?P<y>20\d\d)"),  # fmt: skip
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

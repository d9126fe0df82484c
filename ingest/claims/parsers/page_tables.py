"""Vendor tables in a cleaned page (``vendor_html.parse_vendor_page``): pipe tables
(Intel's pages), whose continuation rows may lack their leading cells, and NVIDIA's
whitespace tables, whose repeated leading cells (framework, network) are left blank;
both are carried down from the row above. Pure: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field


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
    "model": "model",
    "network": "model",
    "framework": "framework",
    "# hpu": "accelerators",
    "#hpu": "accelerators",
    "gpu": "accelerators",
    "precision": "precision",
    "time to train": "time_to_train",
    "time to train (mins)": "time_to_train",
    "time to train (minutes)": "time_to_train",
    "benchmark": "model",
    "ttt": "time_to_train",
    "frameworks version": "framework_version",
    "framework version": "framework_version",
    "sequence length": "sequence_length",
    "batch size": "batch_size",
    "batch": "batch_size",
    "throughput (tokens/sec)": "throughput",
    "throughput": "throughput",
    "mlperf quality target": "quality_target",
    "server": "system",
    "mlperf-id": "result_id",
    "dataset": "dataset",
    "gpu version": "accelerator",
    "input length": "input_length",
    "output length": "output_length",
}

# Possessive quantifiers: a long run of spaces must not be split every way before the
# match fails (a line of 5 MB of spaces took minutes with plain ``\s*\|?\s*``).
_PIPE_SEP = re.compile(r"^\s*+\|?+\s*+:?+-{3,}+:?+\s*+(?:\|\s*+:?+-{3,}+:?+\s*+)*+\|?+\s*+$")
_NUMERIC = re.compile(r"^[\d,.]++\s*+[^\s\w]*+$")


def parse_vendor_tables(text: str) -> list[VendorTable]:
    """All vendor tables of a cleaned text, in order (pipe tables, then NVIDIA-style
    whitespace tables, sorted by position). Never raises on odd rows: a row that
    does not fit is left out of the table (it stays in the text)."""
    lines = text.split("\n")
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln) + 1)
    found = _pipe_tables(lines, offsets) + _whitespace_tables(lines, offsets)
    taken = {t.line for t in found}
    found += [t for t in _bare_pipe_tables(lines, offsets) if t.line not in taken]
    found.sort(key=lambda t: t.start)
    return [
        VendorTable(i, t.style, t.line, t.start, t.end, t.caption, t.columns, t.rows)
        for i, t in enumerate(found)
    ]


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
            rows.append(_row(len(rows), lines, offsets, j, header, cells, carried))
            prev = cells
            j += 1
        header, rows, group = _promote_header(header, rows)
        if rows:
            caption = " ".join(x for x in (_caption(lines, i - 1), group) if x)
            tables.append(
                VendorTable(
                    0,
                    "pipe",
                    i,
                    offsets[i - 1],
                    offsets[j - 1] + len(lines[j - 1]),
                    caption,
                    tuple(header),
                    tuple(rows),
                )
            )
        i = j
    return tables


def _bare_pipe_tables(lines: list[str], offsets: list[int]) -> list[VendorTable]:
    """Pipe tables without a ``---`` line, as a page's table reads once its markup is
    stripped (NVIDIA's v5.0 blog: ``Benchmark | Time to Train (minutes) |`` over
    ``LLM Pretraining (Llama 3.1 405B) | 20.8 |``). Taken only when the header names a
    model and a time to train and at least one row below it has as many cells, so
    that a line of links ("Home | About") is no table. ``line`` is the header's."""
    tables: list[VendorTable] = []
    i = 0
    while i < len(lines) - 1:
        header = _split_pipe(lines[i]) if "|" in lines[i] else []
        fields = {_FIELDS.get(re.sub(r"\s+", " ", h.lower())) for h in header}
        if not {"model", "time_to_train"} <= fields:
            # rows are looked for only under a header: scanning them from every line
            # made 9,000 lines of "| a | b |" quadratic (issue 21)
            i += 1
            continue
        j = i + 1
        while j < len(lines) and "|" in lines[j] and len(_split_pipe(lines[j])) == len(header):
            j += 1
        if j == i + 1:
            i += 1
            continue
        rows = [
            _row(k, lines, offsets, i + 1 + k, header, _split_pipe(lines[i + 1 + k]), [])
            for k in range(j - i - 1)
        ]
        end = offsets[j - 1] + len(lines[j - 1])
        cap = _caption(lines, i)
        tables.append(
            VendorTable(0, "pipe", i + 1, offsets[i], end, cap, tuple(header), tuple(rows))
        )
        i = j
    return tables


def _promote_header(
    header: list[str], rows: list[VendorRow]
) -> tuple[list[str], list[VendorRow], str]:
    """A group header over the real one (Intel, version B: ``Max Throughput [TpS] | |||||``
    above ``---|``, then ``Model | # HPU | ...`` as the first body row): the first body
    row becomes the header, the group title goes to the caption."""
    if len(rows) < 2 or sum(1 for c in header if c) > 1:
        return header, rows, ""
    first = rows[0].cells
    if not all(c and not _NUMERIC.match(c) for c in first):
        return header, rows, ""
    cols = list(first)
    body = [
        VendorRow(
            k, r.line, r.start, r.end, r.raw, r.cells, r.carried, _values(cols, list(r.cells))
        )
        for k, r in enumerate(rows[1:])
    ]
    return cols, body, " ".join(c for c in header if c)


def _align_pipe_row(
    cells: list[str], header: list[str], prev: list[str], rows: list[VendorRow]
) -> tuple[list[str], list[int]]:
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
        cells = (
            (cells + [""] * n)[:n]
            if len(cells) <= n
            else cells[: n - 1] + [" | ".join(cells[n - 1 :])]
        )
    carried: list[int] = []
    for k in range(n):
        if cells[k] or not prev:
            break
        cells[k] = prev[k]
        carried.append(k)
    return cells, carried


def _row(
    index: int,
    lines: list[str],
    offsets: list[int],
    j: int,
    columns: Sequence[str],
    cells: list[str],
    carried: list[int],
) -> VendorRow:
    """Row ``index`` of a table, read from line ``j`` (0-based) of the text."""
    end = offsets[j] + len(lines[j])
    values = _values(columns, cells)
    return VendorRow(index, j + 1, offsets[j], end, lines[j], tuple(cells), tuple(carried), values)


def _values(header: Sequence[str], cells: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, cell in zip(header, cells, strict=False):
        key = _FIELDS.get(re.sub(r"\s+", " ", name.strip().lower()))
        if key and cell and key not in out:
            out[key] = cell
    return out


# NVIDIA's whitespace table (developer.nvidia.com deep-learning-performance-training):
# the header names these columns in this order; cells hold spaces, so a row is read
# by its typed cells (time, "8x H100", MLPerf-ID), see _nv_row.
_NV_COLUMNS = (
    "Framework",
    "Network",
    "Time to Train (mins)",
    "MLPerf Quality Target",
    "GPU",
    "Server",
    "MLPerf-ID",
    "Precision",
    "Dataset",
    "GPU Version",
)
_NV_TIME = re.compile(r"\d+\.\d+|\d+")
_NV_GPUS = re.compile(r"\d[\d,]*x")
_NV_ID = re.compile(r"\d+\.\d+-\d+")
#: A longer line is no row of a vendor table (NVIDIA's longest is 118 characters): it
#: ends the table. Bounds the work per line whatever a page holds.
MAX_ROW_CHARS = 1000
FRAMEWORKS = (
    "NVIDIA Merlin HugeCTR",
    "HugeCTR",
    "MXNet",
    "PyTorch",
    "TensorFlow",
    "JAX",
    "PaddlePaddle",
    "NVIDIA NeMo",
    "NeMo",
    "MindSpore",
    "PopART",
    "Lingvo",
)


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
            rows.append(_row(len(rows), lines, offsets, j, _NV_COLUMNS, cells, carried))
            prev = cells
            j += 1
        if rows:
            tables.append(
                VendorTable(
                    0,
                    "whitespace",
                    i + 1,
                    offsets[i],
                    offsets[j - 1] + len(lines[j - 1]),
                    _caption(lines, i),
                    _NV_COLUMNS,
                    tuple(rows),
                )
            )
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
        "lead": line[: words[t][0]],
        "time": text[t],
        "target": span(t + 1, g - 1),
        "gpus": span(g, g + 1),
        "server": span(g + 2, i - 1),
        "id": text[i],
        "precision": text[i + 1],
        "dataset": span(i + 2, n - 2),
        "version": text[n - 1],
    }


def _nv_cells(m: dict[str, str], prev: list[str]) -> tuple[list[str], list[int]]:
    lead = m["lead"].strip()
    framework = next((f for f in FRAMEWORKS if lead == f or lead.startswith(f + " ")), "")
    network = lead[len(framework) :].strip()
    cells = [
        framework,
        network,
        m["time"],
        m["target"],
        m["gpus"],
        m["server"],
        m["id"],
        m["precision"],
        m["dataset"],
        m["version"],
    ]
    carried: list[int] = []
    for k in (0, 1):  # only the leading, repeated cells are left blank
        if not cells[k] and prev:
            cells[k] = prev[k]
            carried.append(k)
    return cells, carried

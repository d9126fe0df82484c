"""What the vendor parser tests share: the real pages in ../shared/vendor (read in
place, through settings.VENDOR_DATA) parsed the way the ingest service parses them."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from ingest.claims.parsers.page_html import parse_vendor_page
from ingest.claims.parsers.page_tables import parse_vendor_tables
from ingest.claims.parsers.text import Claim, extract_claims

VENDOR = Path(settings.VENDOR_DATA)
FILES = sorted(p.name for p in VENDOR.iterdir() if p.is_file())


def page_claims(name: str) -> tuple[str, list[Claim]]:
    """The cleaned text of a shared page and its claims."""
    doc = parse_vendor_page((VENDOR / name).read_bytes(), name=name)
    return doc.text, extract_claims(doc.text, tables=parse_vendor_tables(doc.text))


def find(claims: list[Claim], kind: str, value: float, **attrs: object) -> list[Claim]:
    """The claims of a kind and value whose attributes equal ``attrs``."""
    return [
        c
        for c in claims
        if c.kind == kind and c.value == value and all(getattr(c, k) == v for k, v in attrs.items())
    ]


NV_HEADER = (
    "Framework Network Time to Train\n(mins) MLPerf Quality Target GPU Server MLPerf-ID"
    " Precision Dataset GPU Version"
)
NV_ROW = (
    "MXNet ResNet-50 v1.5 13.466 75.90% classification 8x H100 XE9680x8H100-SXM-80GB 3.0-2053"
    " Mixed ImageNet H100-SXM5-80GB"
)


def nv_page(*rows: str) -> str:
    """A page with NVIDIA's table header and ``rows`` under it."""
    return (
        "NVIDIA Performance on MLPerf 3.0: Single Node, Closed Division\n\n"
        + NV_HEADER
        + "\n"
        + "\n".join(rows)
        + "\n"
    )

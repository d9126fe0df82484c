"""The MLPerf Tiny subsets of ``tests/data/tiny-v1.2`` and ``tiny-v1.3`` (README:
origin) and v1.2's published tables, read with ``csv`` and ``zipfile`` alone (the
expected values)."""

from __future__ import annotations

import csv
import re
import zipfile
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
V12 = DATA / "tiny-v1.2" / "tiny_results_v1.2"
V13 = DATA / "tiny-v1.3" / "tiny_results_v1.3"
ST12 = "closed/STMicroelectronics/results/NUCLEO_U575ZI_Q"
#: The result folders of the v1.2 subset.
FOLDERS_V12 = (f"{ST12}/ad", f"{ST12}/kws", "closed/bosch/results/NUCLEO_H7A3ZI_float/ic")
ST13 = "closed/STMicroelectronics/results/NUCLEO_U575ZI_Q"
QC13 = "closed/Qualcomm/results/Next_Generation_Snapdragon_Mobile_Platform_MTP/ad"
FOLDERS_V13 = (QC13, f"{ST13}/kws", f"{ST13}/sww")


def summary() -> dict[str, dict[str, str]]:
    """v1.2's ``summary.csv`` rows (all 73) by result folder."""
    with open(V12 / "summary.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return {
        f"{r['Division']}/{r['Organization']}/results/{r['SystemDesc']}/{r['Model']}": r
        for r in rows
    }


def report_cells() -> dict[str, str]:
    """``final_report_v1.2.xlsx``'s first sheet, cell reference -> value as stored
    (shared strings resolved), read as raw XML text with regular expressions."""
    z = zipfile.ZipFile(V12 / "final_report_v1.2.xlsx")
    shared = re.findall(
        r"<si>(?:<t[^>]*>)?(.*?)(?:</t>)?</si>", z.read("xl/sharedStrings.xml").decode()
    )
    cells = {}
    sheet = z.read("xl/worksheets/sheet1.xml").decode()
    for ref, attrs, value in re.findall(
        r'<c r="([A-Z]+\d+)"([^>]*)>(?:<f>.*?</f>)?<v>(.*?)</v></c>', sheet
    ):
        cells[ref] = shared[int(value)] if 't="s"' in attrs else value
    return cells

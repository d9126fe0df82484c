"""Where a plain folder of results came from: the commit of each repository, as a README
beside the repositories records it. Pure: text in.

``../shared/mlperf/README.md`` and ``../shared/mlperf-inference/README.md`` hold a
Markdown table with one row per round: the repository URL and the commit the files were
copied from (``| 1.1 | https://github.com/mlcommons/training_results_v1.1 | ebe92f8... |``).
Source links can then point at that commit instead of ``HEAD``.
"""

from __future__ import annotations

import re

_ROW = re.compile(
    r"^\|[^|\n]*\|\s*(https://github\.com/[\w.-]+/[\w.-]+?)(?:\.git)?/?\s*\|\s*([0-9a-f]{40})\s*\|"
)


def readme_commits(text: str) -> dict[str, str]:
    """``{repository URL: commit}`` from the table rows of a README (``| round | URL |
    40-hex commit | ...``); rows of another shape are ignored. Never raises."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        m = _ROW.match(line.strip())
        if m:
            out[m.group(1)] = m.group(2)
    return out

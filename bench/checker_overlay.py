"""A symlink overlay of an extracted MLPerf Inference round whose ``code/`` folders were
left out, with an empty ``code/<model>/`` (a placeholder README) for every model a
submitter has results for: the round's submission checker refuses a result whose code
folder is missing ("is missing code_dir"), so without this it accepts nothing on such a
tree. Nothing is copied: every other entry is a symbolic link to the extraction.

    python bench/checker_overlay.py /work/rounds/inference_results_v5.1 /tmp/ov51
    (cd <inference>/tools/submission && python submission_checker.py --input /tmp/ov51 \\
        --version v5.1 --csv /tmp/check.csv --skip-extra-files-in-root-check)
    python bench/inference_vs_checker.py v5.1 --checker-csv /tmp/check.csv
"""

from __future__ import annotations

import os
import sys

DIVISIONS = ("closed", "open", "network")


def overlay(src: str, dst: str) -> int:
    """Build the overlay of ``src`` at ``dst`` (created); returns the code folders made."""
    os.makedirs(dst, exist_ok=True)
    made = 0
    for top in os.listdir(src):
        if top not in DIVISIONS:
            os.symlink(os.path.join(src, top), os.path.join(dst, top))
            continue
        for sub in os.listdir(os.path.join(src, top)):
            made += _submitter(os.path.join(src, top, sub), os.path.join(dst, top, sub))
    return made


def _submitter(src: str, dst: str) -> int:
    if not os.path.isdir(src):
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        os.symlink(src, dst)
        return 0
    os.makedirs(dst, exist_ok=True)
    for entry in os.listdir(src):
        if entry != "code":
            os.symlink(os.path.join(src, entry), os.path.join(dst, entry))
    models: set[str] = set()
    results = os.path.join(src, "results")
    for system in os.listdir(results) if os.path.isdir(results) else ():
        path = os.path.join(results, system)
        if os.path.isdir(path):
            models |= {m for m in os.listdir(path) if os.path.isdir(os.path.join(path, m))}
    for model in models:
        os.makedirs(os.path.join(dst, "code", model), exist_ok=True)
        with open(os.path.join(dst, "code", model, "README.md"), "w") as f:
            f.write("placeholder: code/ was left out of the extraction\n")
    return len(models)


if __name__ == "__main__":
    print(overlay(sys.argv[1], sys.argv[2]), "code folders")

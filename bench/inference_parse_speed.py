"""Wall time and peak memory of parsing and validating MLPerf Inference results (no database).

Usage (from the repository root)::

    python bench/inference_parse_speed.py [DATA] [--tree DIR --round v5.1]

``DATA`` defaults to ``../shared/mlperf-inference`` (one ``inference_results_<round>/``
folder per round, ``manifests/<round>.omitted.tsv`` beside them); every round found there
is read and judged. ``--tree`` instead reads one whole results repository (e.g. a fetched
``mlcommons/inference_results_v5.1``) as round ``--round``.

Printed: per round the results found, their verdicts (valid / invalid / unverifiable) and
the problems met while reading; then wall seconds, CPU seconds (user + system of this
process) and peak resident set size (``ru_maxrss``, MiB) of the whole run, in one process.
"""

from __future__ import annotations

import argparse
import collections
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchdb.mlperf.inference.rules import evaluate  # noqa: E402
from ingest.inference.parsers.tree import (  # noqa: E402
    Tree,
    find_results,
    load_result,
    read_omitted_manifest,
)


def judge_round(root: Path, version: str, manifest: Path | None) -> collections.Counter[str]:
    """Read and judge every result of one round's tree; counts by verdict and problems."""
    omitted = (
        read_omitted_manifest(manifest.read_bytes()) if manifest and manifest.is_file() else {}
    )
    tree = Tree(root, omitted)
    counts: collections.Counter[str] = collections.Counter()
    for folder in find_results(tree):
        result = load_result(tree, folder)
        verdict = evaluate(result, version)
        counts["results"] += 1
        counts[verdict.status] += 1
        counts["problems"] += len(result.problems)
    counts["problems"] += len(tree.problems)
    return counts


def main() -> None:
    default = Path(__file__).resolve().parents[2] / "shared" / "mlperf-inference"
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", nargs="?", type=Path, default=default)
    parser.add_argument("--tree", type=Path, help="one whole results repository")
    parser.add_argument("--round", dest="version", help="its round, e.g. v5.1")
    args = parser.parse_args()
    if args.tree:
        rounds = [(args.version, args.tree, None)]
    else:
        rounds = [
            (
                d.name.removeprefix("inference_results_"),
                d,
                args.data
                / "manifests"
                / f"{d.name.removeprefix('inference_results_')}.omitted.tsv",
            )
            for d in sorted(args.data.glob("inference_results_v*"))
        ]
    start, cpu0 = time.perf_counter(), time.process_time()
    total: collections.Counter[str] = collections.Counter()
    for version, root, manifest in rounds:
        counts = judge_round(root, version, manifest)
        total.update(counts)
        print(f"{version}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("all: " + ", ".join(f"{k} {v}" for k, v in sorted(total.items())))
    print(f"wall {wall:.2f} s, cpu {cpu:.2f} s, peak RSS {peak:.0f} MiB")


if __name__ == "__main__":
    main()

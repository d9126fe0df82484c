"""python manage.py round-tree <training|hpc|inference|automotive> <round> <git dir>
    [--ref HEAD] [--repository URL]

Record a round's whole results repository as git lists it at one commit (the commit's
result folders and submitters: ``ingest.round_trees.round_tree_record``), then print
whether benchdb holds the round whole (every listed result folder stored) and, if not,
for which submitters it does not. Counts over a round ("the six benchmarks Google
entered") are checked only against a round held whole."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ingest.round_trees import TREE_SUITES, RoundTreeError, round_holdings, round_tree_record


class Command(BaseCommand):
    requires_system_checks: list[str] = []
    help = "Record a round's whole results repository (git's listing of one commit)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("suite", choices=sorted(TREE_SUITES))
        parser.add_argument("round", help='e.g. "v1.0"')
        parser.add_argument("git_dir", help="a bare repository or .git folder")
        parser.add_argument("--ref", default="HEAD", help="branch, tag or commit (default HEAD)")
        parser.add_argument("--repository", default="", help="its URL as shown")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            tree = round_tree_record(
                suite=opts["suite"],
                version=opts["round"],
                git_dir=opts["git_dir"],
                ref=opts["ref"],
                repository=opts["repository"],
            )
        except RoundTreeError as exc:
            raise CommandError(str(exc)) from exc
        held = round_holdings()[opts["suite"], tree.round.version]
        self.stdout.write(
            f"{tree.round} at {tree.commit[:12]}: {len(tree.result_paths)} result folders of"
            f" {len(tree.submitters)} submitters listed"
        )
        if held.whole():
            self.stdout.write("held whole: every listed result folder is stored")
        else:
            self.stdout.write(
                "not held whole; listed results not stored for: "
                + ", ".join(sorted(held.incomplete))
            )

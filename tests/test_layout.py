"""The layout's rules, checked on the source (``ARCHITECTURE.md``): imports run one way
(``ingest`` -> ``benchdb``, never back), pure modules import neither Django nor web
code, and modules and functions stay small enough to read."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("benchdb", "ingest")

#: Modules with no Django: rules, parsers, vocabulary, contracts, derivations, figures.
PURE = (
    "benchdb/vocabulary.py",
    "benchdb/logcodec.py",
    "benchdb/tables/schemas.py",
    "benchdb/tables/writers.py",
    "benchdb/mlperf/training_rules.py",
    "benchdb/mlperf/hpc_rules.py",
    "benchdb/mlperf/compliance_rules.py",
    "benchdb/mlperf/compliance_eval.py",
    "benchdb/mlperf/derived.py",
    "benchdb/mlperf/figures.py",
    "benchdb/mlperf/figures_inference.py",
    "benchdb/mlperf/chart_marks.py",
    "benchdb/mlperf/inference_*.py",
    "benchdb/claims/facts.py",
    "benchdb/claims/verdicts.py",
    "benchdb/claims/explain.py",
    "benchdb/claims/subjects.py",
    "benchdb/claims/resolve.py",
    "benchdb/claims/choices.py",
    "benchdb/claims/verdicts_parity.py",
    "benchdb/claims/verdicts_gains.py",
    "benchdb/claims/verdicts_values.py",
    "benchdb/claims/readings.py",
    "benchdb/claims/inference_frames.py",
    "benchdb/claims/per_watt.py",
    "benchdb/claims/pins.py",
    "benchdb/claims/resolve_words.py",
    "benchdb/claims/resolve_suite.py",
    "benchdb/history/diff.py",
    "benchdb/history/commits.py",
    "benchdb/tables/schemas_history.py",
    "benchdb/claims/round_facts.py",
    "benchdb/claims/round_counts.py",
    "benchdb/claims/headline_times.py",
    "ingest/parsers/*.py",
    "benchdb/mlperf/automotive/*.py",
    "ingest/automotive/*.py",
)
#: What a pure module may not import: the web framework, the task queue, the
#: database driver, and any module that touches them.
IMPURE_PREFIXES = ("django", "celery", "psycopg2", "whitenoise", "ingest")
WEB_MODULES = ("models", "views", "selectors", "forms", "urls", "admin", "pages", "services")

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60


def _code_modules() -> Iterator[Path]:
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def _imports(path: Path, package: str | None = None) -> Iterator[tuple[int, str]]:
    """Every module an import statement names (at any depth: function-level imports
    count), with its line; relative imports are resolved against ``package`` (by
    default the file's own package)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    if package is None:
        package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def _pure_modules() -> list[Path]:
    found: list[Path] = []
    for pattern in PURE:
        found += sorted(p for p in ROOT.glob(pattern) if p.name != "__init__.py")
    return found


def test_benchdb_never_imports_ingest() -> None:
    """Data flows ingest -> domain -> pages: no module of ``benchdb`` imports ``ingest``."""
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in _code_modules()
        if path.relative_to(ROOT).parts[0] == "benchdb"
        for line, name in _imports(path)
        if name == "ingest" or name.startswith("ingest.")
    ]
    assert bad == []


def test_pure_modules_import_no_django_and_no_web_code() -> None:
    """Rules, parsers and contracts import no Django and none of the modules that do."""
    modules = _pure_modules()
    assert len(modules) >= 10, "the PURE list no longer matches the tree"
    bad = []
    for path in modules:
        rel = str(path.relative_to(ROOT))
        for line, name in _imports(path):
            parts = name.split(".")
            pure_ingest = ("ingest/parsers/", "ingest/automotive/")
            if rel.startswith(pure_ingest) and name.startswith(
                ("ingest.parsers", "ingest.automotive")
            ):
                continue
            if name.startswith(IMPURE_PREFIXES) or (
                parts[0] in PACKAGES and any(p in WEB_MODULES for p in parts[1:])
            ):
                bad.append(f"{rel}:{line} imports {name}")
    assert bad == []


def test_the_import_checks_catch_a_violation(tmp_path: Path) -> None:
    """The checker itself: an upward import inside a function, and a relative one,
    are found."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "def f():\n    from ingest.training import CODE_VERSION\nfrom .models import X\n"
    )
    found = list(_imports(probe, package="benchdb.mlperf"))
    assert (2, "ingest.training") in found
    assert (3, "benchdb.mlperf.models") in found


@pytest.mark.parametrize("path", list(_code_modules()), ids=lambda p: str(p.relative_to(ROOT)))
def test_modules_and_functions_stay_small(path: Path) -> None:
    """No module over 600 lines, no function over 60 (STYLE.md section 7)."""
    text = path.read_text()
    assert text.count("\n") <= MAX_MODULE_LINES
    long = [
        f"{node.name}: {node.end_lineno - node.lineno + 1} lines"  # type: ignore[operator]
        for node in ast.walk(ast.parse(text))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES  # type: ignore[operator]
    ]
    assert long == []


def test_formatting_is_not_fought() -> None:
    """``ruff format`` is kept; ``# fmt: skip`` only where a table reads better."""
    sources = [*_code_modules(), *ROOT.glob("tests/**/*.py"), *ROOT.glob("bench/*.py")]
    marker = "fmt: " + "skip"  # split, so this file does not count itself
    count = sum(p.read_text().count(marker) for p in sources)
    assert count < 30


def test_no_merge_conflict_markers_are_committed() -> None:
    """A merge that left ``<<<<<<<``/``>>>>>>>`` lines in a file git tracks (Python,
    templates, Markdown, Makefile) fails here rather than in a reader's hands."""
    import subprocess

    kinds = ["*.py", "*.html", "*.md", "Makefile", "*.toml", "*.txt", "*.css", "*.js"]
    git = ["git", "-C", str(ROOT), "ls-files", "-z", "--", *kinds]
    tracked = subprocess.run(git, capture_output=True, check=True).stdout.decode().split("\0")
    marker = ("<<<<<<< ", ">>>>>>> ")
    bad = [
        f"{rel}:{n}"
        for rel in tracked
        if rel and (ROOT / rel).is_file()
        for n, line in enumerate((ROOT / rel).read_text(errors="replace").splitlines(), 1)
        if line.startswith(marker)
    ]
    assert not bad, f"merge conflict markers: {bad}"

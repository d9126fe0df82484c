"""Reading a tree without leaving it (``ingest.parsers.safe_tree``): links refused at any
depth, sizes bounded, odd names escaped, long names shortened apart."""

from __future__ import annotations

import os

import pytest

from ingest.parsers import safe_tree
from ingest.parsers.types import ParseError


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside/secret.txt").write_text("secret")
    root = tmp_path / "root"
    (root / "a/b").mkdir(parents=True)
    (root / "a/b/file.txt").write_text("hello")
    (root / "a/link.txt").symlink_to(tmp_path / "outside/secret.txt")
    (root / "a/dirlink").symlink_to(tmp_path / "outside")
    (root / "a/loop").symlink_to(root / "a/loop")
    os.mkfifo(root / "a/fifo")
    return root


def test_a_regular_file_is_read(tree):
    assert safe_tree.read_file(str(tree), "a/b/file.txt", 100) == b"hello"
    assert safe_tree.read_file(str(tree), "a/b/file.txt", 3, head=True) == b"hel"


@pytest.mark.parametrize(
    ("rel", "reason"),
    [
        ("a/link.txt", "symbolic link, not followed"),
        ("a/dirlink/secret.txt", "symbolic link, not followed"),
        ("a/loop", "symbolic link, not followed"),
        ("a/fifo", "not a regular file: not read"),
        ("a/../../outside/secret.txt", "path leaves the tree: not read"),
        ("a/b", "not a regular file: not read"),
    ],
)
def test_links_and_other_files_are_refused(tree, rel, reason):
    with pytest.raises(ParseError) as exc:
        safe_tree.read_file(str(tree), rel, 100)
    assert exc.value.reason == reason


def test_a_file_over_its_limit_is_refused(tree):
    with pytest.raises(ParseError, match="5 bytes, over the 4 read for this kind of file"):
        safe_tree.read_file(str(tree), "a/b/file.txt", 4)


def test_a_listing_tells_links_from_folders_and_files(tree):
    listing = safe_tree.list_dir(str(tree), "a")
    assert listing.dirs == ("b",) and listing.files == ()
    assert listing.links == ("dirlink", "link.txt", "loop")
    with pytest.raises(ParseError, match="symbolic link"):
        safe_tree.list_dir(str(tree), "a/dirlink")
    assert [safe_tree.kind(str(tree), r) for r in ("a", "a/b/file.txt", "a/link.txt")] == [
        "dir",
        "file",
        "link",
    ]
    assert safe_tree.kind(str(tree), "a/fifo") == "other"
    assert safe_tree.kind(str(tree), "a/dirlink/secret.txt") is None


def test_a_listing_is_bounded(tree, monkeypatch):
    for i in range(5):
        (tree / f"a/b/f{i}").write_text("")
    monkeypatch.setattr(safe_tree, "MAX_ENTRIES", 3)
    listing = safe_tree.list_dir(str(tree), "a/b")
    assert listing.truncated and len(listing.files) == 3


def test_names_are_made_printable_and_shortened_apart():
    assert safe_tree.printable("bad\udcffname\n") == "bad\\xffname\\n"
    assert safe_tree.printable("ok ü") == "ok ü"
    a, b = safe_tree.shorten("x" * 600 + "a", 500), safe_tree.shorten("x" * 600 + "b", 500)
    assert len(a) == len(b) == 500 and a != b and a.startswith("x" * 487 + "…")
    assert safe_tree.shorten("short", 500) == "short"


def test_a_walk_is_top_down_bounded_in_depth_and_never_through_a_link(tree):
    (tree / "a/b/c/d").mkdir(parents=True)
    (tree / "a/.hidden").mkdir()
    found = list(safe_tree.walk(str(tree), "a", max_depth=2))
    assert [rel for rel, _ in found] == ["a", "a/b", "a/b/c", "a/b/c/d"]
    assert isinstance(found[-1][1], ParseError)
    assert found[-1][1].reason == "deeper than 2 folders: not read"
    assert all(rel != "a/dirlink" for rel, _ in found)
    [(rel, error)] = list(safe_tree.walk(str(tree), "a/dirlink"))
    assert isinstance(error, ParseError) and error.reason == "symbolic link, not followed"

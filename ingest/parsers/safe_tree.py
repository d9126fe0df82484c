"""Reading a results tree without leaving it. Pure: no Django.

No symbolic link below ``root`` is followed (file or folder), every file read has a
size limit for its kind, every listing a limit on its entries. ``root`` itself may be
reached through a link (the operator named it); nothing below it is. Paths are
relative to ``root`` with "/" separators.

Each component of a path is opened relative to its parent's descriptor with
``O_NOFOLLOW`` (``openat(2)``), so a link swapped in between a listing and a read is
refused as well: there is no check-then-use race. Hard links cannot be told from
files and are read (a checkout never makes them; ``fs.protected_hardlinks`` keeps
users from linking files they do not own).

Refusals raise :class:`~ingest.parsers.types.ParseError` naming the path; I/O errors
(a missing file, no permission) raise ``OSError``. Later suites (inference, power
logs) read their trees through the same functions.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .types import ParseError

#: Run logs (``result_*.txt``). GitHub refuses files over 100 MiB, so no log of the
#: MLCommons results repositories is larger; a log is held about three times over
#: while parsed (bytes, one decoded line, the compressed copy), so two parser
#: processes stay under about 1 GB even at this limit.
LOG_BYTES = 100 * 2**20
#: ``systems/<system>.json`` and v0.5 ``entry.json``: about 2 KB in every round;
#: 1 MiB leaves room for long notes and still bounds what a page shows.
SYSTEM_BYTES = 2**20
#: ``scaling.json`` holds one number (about 30 bytes).
SCALING_BYTES = 64 * 2**10
#: Small text files read for their first lines (``.git/config``, a log's head).
TEXT_BYTES = 2**20
#: Entries read from one folder: v0.5 NCF folders hold 100 logs, the largest
#: ``results/`` folders a few hundred systems.
MAX_ENTRIES = 100_000

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


@dataclass(frozen=True)
class Listing:
    """One folder's entries, each list sorted: ``dirs`` and ``files`` (regular
    files) are real; ``links`` are symbolic links (never followed); ``odd_names``
    are names that are not printable UTF-8 (shown escaped, see :func:`printable`),
    whatever they are; ``truncated`` is True when the folder held more than
    :data:`MAX_ENTRIES` entries and only that many were read; ``others`` are entries
    that are neither (a FIFO, a socket, a device: never opened)."""

    dirs: tuple[str, ...]
    files: tuple[str, ...]
    links: tuple[str, ...]
    odd_names: tuple[str, ...]
    truncated: bool = False
    others: tuple[str, ...] = ()


def _parts(rel: str) -> list[str]:
    parts = [p for p in rel.split("/") if p]
    if any(p in (".", "..") for p in parts):
        raise ParseError("path leaves the tree: not read", path=printable(rel))
    return parts


def _refusal(exc: OSError, dir_fd: int, name: str, rel: str) -> Exception:
    """The error to raise for an ``openat`` that failed: a refusal when ``name``
    is a symbolic link, else ``exc`` itself."""
    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
        try:
            mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
        except OSError:
            return exc
        if stat.S_ISLNK(mode):
            return ParseError("symbolic link, not followed", path=printable(rel))
    return exc


def _open_dir(root: str, parts: list[str]) -> int:
    """A descriptor of ``root/parts...``, reached without following a link."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for i, part in enumerate(parts):
            try:
                child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                raise _refusal(exc, fd, part, "/".join(parts[: i + 1])) from exc
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


class DirCache:
    """Descriptors of a tree's folders, each opened once (without following a link) and
    kept until :meth:`close`: reading a result's few dozen files then walks each folder
    once instead of once per file (a whole v5.1 round opened 400,000 folders). At most
    :data:`MAX_CACHED` are kept; beyond that the cache starts again. Not thread-safe."""

    MAX_CACHED = 256

    def __init__(self, root: str) -> None:
        self.root = root
        self.fds: dict[tuple[str, ...], int] = {}

    def open(self, parts: list[str]) -> int:
        """A descriptor of ``root/parts...`` owned by the cache (do not close it).
        Raises ParseError for a symbolic link on the way, OSError otherwise."""
        key = tuple(parts)
        fd = self.fds.get(key)
        if fd is not None:
            return fd
        if len(self.fds) >= self.MAX_CACHED:
            self.close()
        if not parts:
            fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        else:
            parent = self.open(parts[:-1])
            try:
                fd = os.open(parts[-1], _DIR_FLAGS, dir_fd=parent)
            except OSError as exc:
                raise _refusal(exc, parent, parts[-1], "/".join(parts)) from exc
        self.fds[key] = fd
        return fd

    def close(self) -> None:
        """Close every descriptor kept."""
        for fd in self.fds.values():
            os.close(fd)
        self.fds.clear()

    def __del__(self) -> None:  # a cache dropped without close() leaks no descriptor
        self.close()


def open_regular(root: str, rel: str, *, dirs: DirCache | None = None) -> int:
    """A read-only descriptor of the regular file ``root/rel``, no symbolic link followed
    on the way or at the end (the caller closes it). Raises ParseError for a link or a
    file that is not regular, OSError otherwise."""
    parts = _parts(rel)
    if not parts:
        raise ParseError("not a file: not read", path=printable(rel))
    dir_fd, owned = _dir(root, parts[:-1], dirs)
    try:
        try:
            fd = os.open(parts[-1], _FILE_FLAGS, dir_fd=dir_fd)
        except OSError as exc:
            raise _refusal(exc, dir_fd, parts[-1], rel) from exc
    finally:
        if owned:
            os.close(dir_fd)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ParseError("not a regular file: not read", path=printable(rel))
    return fd


def _dir(root: str, parts: list[str], dirs: DirCache | None) -> tuple[int, bool]:
    """(descriptor of ``root/parts``, whether the caller must close it)."""
    if dirs is not None:
        return dirs.open(parts), False
    return _open_dir(root, parts), True


def read_file(
    root: str, rel: str, limit: int, *, head: bool = False, dirs: DirCache | None = None
) -> bytes:
    """The bytes of the regular file ``root/rel``, at most ``limit`` of them.

    Raises ParseError (its ``path`` is ``rel``) if a component is a symbolic link,
    the file is not a regular file, or it is larger than ``limit`` bytes (with
    ``head``, its first ``limit`` bytes are returned instead). OSError otherwise.
    """
    fd = open_regular(root, rel, dirs=dirs)
    size = os.fstat(fd).st_size
    if size > limit and not head:
        os.close(fd)
        raise ParseError(_too_large(size, limit), path=printable(rel))
    with os.fdopen(fd, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:  # it grew while being read
        if not head:
            raise ParseError(_too_large(len(data), limit), path=printable(rel))
        data = data[:limit]
    return data


def _too_large(size: int, limit: int) -> str:
    return f"{size:,} bytes, over the {limit:,} read for this kind of file: not read"


def list_dir(root: str, rel: str = "", *, dirs: DirCache | None = None) -> Listing:
    """The entries of the folder ``root/rel`` (``rel`` "" for ``root``), sorted.

    Raises ParseError if a component of ``rel`` is a symbolic link; OSError if the
    folder cannot be read.
    """
    fd, owned = _dir(root, _parts(rel), dirs)
    folders, files, links, odd, others = [], [], [], [], []
    truncated = False
    try:
        with os.scandir(fd) as entries:  # on a duplicate of fd, rewound when closed
            for n, entry in enumerate(entries):
                if n >= MAX_ENTRIES:
                    truncated = True
                    break
                name = entry.name
                if not name.isprintable():
                    odd.append(printable(name))
                elif entry.is_symlink():
                    links.append(name)
                elif entry.is_dir(follow_symlinks=False):
                    folders.append(name)
                elif entry.is_file(follow_symlinks=False):
                    files.append(name)
                else:
                    others.append(name)
    finally:
        if owned:
            os.close(fd)
    return Listing(
        dirs=tuple(sorted(folders)),
        files=tuple(sorted(files)),
        links=tuple(sorted(links)),
        odd_names=tuple(sorted(odd)),
        truncated=truncated,
        others=tuple(sorted(others)),
    )


#: Folders walked below the start of a :func:`walk` (benchdb sanity bound: results
#: trees are 4 to 6 folders deep; a loop of bind mounts would be endless).
MAX_DEPTH = 8


def walk(
    root: str,
    rel: str = "",
    *,
    max_depth: int = MAX_DEPTH,
    descend: Callable[[str], bool] = lambda name: not name.startswith("."),
) -> Iterator[tuple[str, Listing | ParseError | OSError]]:
    """``(folder, its listing)`` for ``root/rel`` and every real folder below it whose
    name ``descend`` accepts (not hidden ones, by default), top-down in sorted order;
    links are never followed. A folder that cannot be listed comes with the error
    instead of a listing, as does a folder more than ``max_depth`` below ``rel``
    (a ParseError "deeper than N folders: not read"; nothing below it is read)."""
    stack = [(rel, 0)]
    while stack:
        here, depth = stack.pop()
        if depth > max_depth:
            yield here, ParseError(f"deeper than {max_depth} folders: not read", path=here)
            continue
        try:
            listing = list_dir(root, here)
        except (ParseError, OSError) as exc:
            yield here, exc
            continue
        yield here, listing
        below = [d for d in listing.dirs if descend(d)]
        stack += [(f"{here}/{d}" if here else d, depth + 1) for d in reversed(below)]


def kind(root: str, rel: str, *, dirs: DirCache | None = None) -> str | None:
    """``"dir"``, ``"file"``, ``"link"`` or ``"other"`` for the entry ``root/rel``
    (found without following a link above it); None when it is not there."""
    parts = _parts(rel)
    if not parts:
        return "dir"
    try:
        dir_fd, owned = _dir(root, parts[:-1], dirs)
    except (OSError, ParseError):
        return None
    try:
        mode = os.stat(parts[-1], dir_fd=dir_fd, follow_symlinks=False).st_mode
    except OSError:
        return None
    finally:
        if owned:
            os.close(dir_fd)
    if stat.S_ISLNK(mode):
        return "link"
    return "dir" if stat.S_ISDIR(mode) else "file" if stat.S_ISREG(mode) else "other"


def printable(text: str) -> str:
    """``text`` with bytes that were not UTF-8 (``\\xff``) and non-printable
    characters (``\\n``, ``\\x00``) written as escapes, so that it can be stored
    and shown."""
    if text.isprintable():
        return text
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def shorten(text: str, limit: int) -> str:
    """``text`` if it has at most ``limit`` characters, else its head, "…" and the
    first 12 hex digits of the whole text's sha256, ``limit`` characters in all (so
    two long names stay apart). ``limit`` >= 14."""
    if len(text) <= limit:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return text[: limit - 13] + "…" + digest

"""How stored logs are compressed: one codec for the training run logs (``RunLog``) and
the inference result files (``InferenceLog``).

New logs are Zstandard frames at :data:`LEVEL` (on the 2,418 v4.0 training logs, 401 MB:
zlib level 6 took 3.8 s for 26.9 MB, Zstandard level 3 0.5 s for 24.6 MB; on every 6th of
them, 65 MB: zlib 6 0.31 s for 4.36 MB, Zstandard 3 0.044 s for 3.97 MB, 1 0.038 s for
3.79 MB). Training logs stored before this codec are
zlib streams (level 6); they are read as they are, told apart by the first bytes: a
Zstandard frame starts with :data:`ZSTD_MAGIC` (RFC 8878, 3.1.1), a zlib stream with a
``CMF`` byte whose low nibble is 8 (RFC 1950, 2.2), so never with ``0x28``. No Django."""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from typing import IO, cast

import zstandard

#: Zstandard level of :func:`compress` (level 1: ~450 MB/s on LoadGen and MLLOG logs).
LEVEL = 1
#: The first four bytes of a Zstandard frame (RFC 8878, section 3.1.1).
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def compress(data: bytes) -> bytes:
    """``data`` as a stored log keeps it: one Zstandard frame with its content size."""
    return zstandard.ZstdCompressor(level=LEVEL).compress(data)


def decompress(data: bytes) -> bytes:
    """The log's bytes from what :func:`compress` (or, for training logs stored before
    it, ``zlib.compress``) returned. Raises ``zstandard.ZstdError`` or ``zlib.error``
    on bytes that are neither."""
    if data[:4] == ZSTD_MAGIC:
        return zstandard.ZstdDecompressor().decompress(data)
    return zlib.decompress(data)


class _Pieces:
    """A read-only file over stored bytes fetched a piece at a time: ``fetch(start, n)``
    returns up to ``n`` bytes from 1-based ``start`` (SQL ``substring``), fewer only at
    the end. ``first`` is the piece already fetched from 1."""

    def __init__(self, fetch: Callable[[int, int], bytes], chunk: int, first: bytes) -> None:
        self._fetch, self._chunk, self._pending = fetch, chunk, first
        self._next = 1 + len(first)
        self._done = len(first) < chunk  # a short piece is the last: no query for b""

    def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes (a piece of ``chunk`` when ``size`` is -1); b"" at the end."""
        if self._pending:
            data, self._pending = self._pending, b""
            return data
        if self._done:
            return b""
        data = self._fetch(self._next, self._chunk)
        self._next += len(data)
        self._done = len(data) < self._chunk
        return data


def stream(fetch: Callable[[int, int], bytes], chunk: int) -> Iterator[bytes]:
    """The log's bytes in pieces of at most ``chunk`` bytes, reading the stored bytes
    through ``fetch(start, n)`` (up to ``n`` bytes from 1-based ``start``, fewer only at
    the end) ``chunk`` at a time, so neither the stored nor the whole log is ever held:
    Zstandard frames through ``ZstdDecompressor.read_to_iter``, zlib streams through a
    ``decompressobj`` with a bounded output. Raises ``zstandard.ZstdError`` or
    ``zlib.error`` on bytes that are neither (a log replaced while it was read)."""
    first = fetch(1, chunk)
    if not first:
        return
    pieces = _Pieces(fetch, chunk, first)
    if first[:4] == ZSTD_MAGIC:
        unzstd = zstandard.ZstdDecompressor()
        reader = cast("IO[bytes]", pieces)  # read_to_iter calls only read(read_size)
        yield from unzstd.read_to_iter(reader, read_size=chunk, write_size=chunk)
        return
    inflate = zlib.decompressobj()
    while part := pieces.read():
        data = inflate.decompress(part, chunk)
        while True:
            if data:
                yield data
            if not inflate.unconsumed_tail:
                break
            data = inflate.decompress(inflate.unconsumed_tail, chunk)
    tail = inflate.flush()
    if tail:
        yield tail

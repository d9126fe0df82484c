"""One deadline for a whole vendor fetch (issue 21, item 5): a real server on
127.0.0.1 that answers slowly (a byte of the body, or of the headers, every 0.3 s; a
chain of slow redirects) holds ``vendor_fetch(timeout=T)`` for about T seconds, not
for as long as it keeps sending; a prompt answer is still read whole."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from ingest import fetch

#: Seconds between two bytes the slow server sends.
TRICKLE = 0.3


class SlowServer:
    """A TCP server on 127.0.0.1 answering each connection with ``mode``: ``body``
    (headers at once, then the body a byte per :data:`TRICKLE`), ``headers`` (the
    status line and headers a byte per :data:`TRICKLE`), ``redirect`` (a 302 to itself
    after 0.8 s, again and again) or ``fast`` (a whole page at once). Each answer sends
    at most 200 bytes slowly, and the server stops when closed."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/page"
        self.connections = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        self.sock.settimeout(0.1)
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            self.connections += 1
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        with conn:
            try:
                conn.recv(65536)
                head = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 200\r\n\r\n"
                if self.mode == "fast":
                    conn.sendall(head.replace(b"200\r\n\r\n", b"12\r\n\r\n") + b"H100 1.5 min")
                elif self.mode == "redirect":
                    self.stop.wait(0.8)
                    conn.sendall(
                        b"HTTP/1.1 302 Found\r\nLocation: /again\r\nContent-Length: 0\r\n\r\n"
                    )
                else:
                    slow = head + b"x" * 200 if self.mode == "headers" else b"x" * 200
                    if self.mode == "body":
                        conn.sendall(head)
                    for byte in slow[:200]:
                        if self.stop.wait(TRICKLE):
                            return
                        conn.sendall(bytes([byte]))
            except OSError:
                return  # the client went away: what the deadline is for

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        self.sock.close()


@pytest.fixture
def slow_server() -> Iterator[type[SlowServer]]:
    made: list[SlowServer] = []

    def make(mode: str) -> SlowServer:
        made.append(SlowServer(mode))
        return made[-1]

    yield make  # type: ignore[misc]
    for s in made:
        s.close()


@pytest.mark.parametrize("mode", ["body", "headers", "redirect"])
def test_a_slow_server_holds_the_fetch_no_longer_than_its_deadline(
    slow_server: type[SlowServer], mode: str
) -> None:
    srv = slow_server(mode)  # type: ignore[call-arg]
    t0 = time.perf_counter()
    with pytest.raises(fetch.TransientError) as err:
        fetch.vendor_fetch(url=srv.url, timeout=2)
    took = time.perf_counter() - t0
    assert 2 <= took < 3.5, took  # before: a byte per 0.3 s kept each read alive
    assert "no complete answer within 2 s" in str(err.value)
    assert srv.connections >= 1


def test_a_prompt_answer_is_read_whole(slow_server: type[SlowServer]) -> None:
    srv = slow_server("fast")  # type: ignore[call-arg]
    got = fetch.vendor_fetch(url=srv.url, timeout=2)
    assert (got.status, got.body, got.content_type) == (200, b"H100 1.5 min", "text/plain")


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("http://127.0.0.1:99999/", "Port out of range"),
        ("http://user:pw@127.0.0.1/", "password"),
        ("http://127.0.0.1/a b", "space"),
        ("http://127.0.0.1/\r\nX: y", "control"),
        ("ftp://127.0.0.1/", "only http and https"),
    ],
)
def test_a_url_that_is_no_http_url_is_refused_before_any_connection(url: str, words: str) -> None:
    with pytest.raises(fetch.SyncError) as err:
        fetch.vendor_fetch(url=url, timeout=2)
    assert words in str(err.value) and "pw" not in str(err.value)

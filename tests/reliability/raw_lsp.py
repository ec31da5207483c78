"""A byte-level JSON-RPC client for ``python -m skilldeck.lsp`` (no pygls on our side).

pytest-lsp can only send well-formed messages; these helpers write whatever bytes a test
wants to the server's stdin and read framed messages back on a thread, so a test can
send a broken header and then check that the next good request is still answered.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SERVER_COMMAND = [sys.executable, "-m", "skilldeck.lsp"]
#: Set in the server's environment; any process that still carries it is a leftover.
MARK_VARIABLE = "SKILLDECK_RELIABILITY_MARK"
#: Seconds an awaited message may take before a test calls it a hang (the waits return
#: as soon as it arrives; generous for a loaded machine, see ``lsp_harness.HANG_S``).
HANG_S = 60.0

Message = dict[str, Any]


def frame(message: Message | bytes) -> bytes:
    """``Content-Length`` framing of a JSON object (or of raw body bytes)."""
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class RawServer:
    """The server as a subprocess; ``messages`` receives everything it writes."""

    def __init__(self, env: dict[str, str], cwd: Path) -> None:
        self.process = subprocess.Popen(
            SERVER_COMMAND,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=cwd,
        )
        self.messages: queue.Queue[Message] = queue.Queue()
        self.seen: list[Message] = []
        self._next_id = 1000
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # -- writing -------------------------------------------------------------------

    def write(self, data: bytes) -> None:
        """Write raw bytes to the server's stdin."""
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: Message) -> None:
        """Write one framed JSON-RPC message."""
        self.write(frame(message))

    def notify(self, method: str, params: Any = None) -> None:
        """Send a notification."""
        message: Message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def request(self, method: str, params: Any = None, *, timeout: float = HANG_S) -> Message:
        """Send a request and return its response (``result`` or ``error``)."""
        self._next_id += 1
        ident = self._next_id
        message: Message = {"jsonrpc": "2.0", "id": ident, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.response(ident, timeout=timeout)

    def response(self, ident: int | str, *, timeout: float = HANG_S) -> Message:
        """Wait for the response carrying ``ident``."""
        return self.wait(
            lambda m: m.get("id") == ident and "method" not in m,
            timeout=timeout,
            what=f"response {ident}",
        )

    def initialize(self, root: Path) -> Message:
        """``initialize`` + ``initialized`` with a plain push client."""
        result = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                "capabilities": {},
            },
        )
        self.notify("initialized", {})
        return result

    # -- reading -------------------------------------------------------------------

    def wait(
        self, predicate: Callable[[Message], bool], *, timeout: float = HANG_S, what: str = "?"
    ) -> Message:
        """The first message (already seen or arriving) that satisfies ``predicate``."""
        for message in self.seen:
            if predicate(message):
                return message
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out waiting for {what}; seen: {self.seen[-5:]}")
            try:
                message = self.messages.get(timeout=remaining)
            except queue.Empty:
                continue
            self.seen.append(message)
            if predicate(message):
                return message

    def drain(self) -> None:
        """Move every message that already arrived into ``seen``."""
        while True:
            try:
                self.seen.append(self.messages.get_nowait())
            except queue.Empty:
                return

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                continue
            body = stream.read(length)
            if len(body) < length:
                return
            self.messages.put(json.loads(body))

    # -- ending --------------------------------------------------------------------

    def close_stdin(self) -> None:
        """The client goes away without ``shutdown`` / ``exit``."""
        assert self.process.stdin is not None
        self.process.stdin.close()

    def stop(self) -> None:
        """Kill the process if it is still running (test cleanup)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None and not stream.closed:
                stream.close()

    def stderr_text(self) -> str:
        """What the server wrote to stderr (only after it ended)."""
        assert self.process.stderr is not None
        return self.process.stderr.read().decode("utf-8", "replace")


def processes_marked(mark: str) -> list[int]:
    """PIDs of live processes whose environment carries ``MARK_VARIABLE=mark``."""
    needle = f"{MARK_VARIABLE}={mark}".encode()
    found: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                environ = handle.read().split(b"\0")
            with open(f"/proc/{entry}/stat", "rb") as handle:
                state = handle.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if needle in environ and state != b"Z":
            found.append(int(entry))
    return found

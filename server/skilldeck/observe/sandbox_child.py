"""The part of a host observation that runs inside the sandbox (``unshare``: new user,
network, mount and PID namespaces), as a script with the standard library only.

``python -I sandbox_child.py SPEC.json``: brings the loopback interface up (the only one
the namespace has), serves a fake model endpoint on ``127.0.0.1:PORT`` that records every
request and answers 400, mounts the spec's folders (``binds``: the user's skill folders
into the sandbox's home, read-only; a folder read-only onto itself), starts the host
(argv, cwd and environment from the spec, nothing inherited), and waits until a request
holds the listing (the spec's ``marker``, a regular expression over the strings of a JSON
body), the host exits, or the timeout passes. Then it ends the host's process group; this
script is PID 1 of the namespace, so when it exits the kernel ends every process left in
it. It writes ``requests.json`` (every request up to and including the one with the
listing) and ``result.json`` beside the spec.
"""

from __future__ import annotations

import fcntl
import http.server
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

_SIOCGIFFLAGS = 0x8913
_SIOCSIFFLAGS = 0x8914
_IFF_UP = 0x1
_ANSWER = (
    b'{"error":{"message":"skilldeck host lab: offline fake endpoint",'
    b'"type":"invalid_request_error","code":"host_lab"}}'
)


def loopback_up() -> None:
    """``ip link set lo up``, without needing iproute2."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14s", b"lo", 0, b"\0" * 14)
        flags = struct.unpack("16sH14s", fcntl.ioctl(sock, _SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, _SIOCSIFFLAGS, struct.pack("16sH14s", b"lo", flags | _IFF_UP, b"\0" * 14))


def _strings(body: str) -> list[str]:
    try:
        document: Any = json.loads(body)
    except ValueError:
        return [body]
    found: list[str] = []
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


class _State:
    def __init__(self, marker: str) -> None:
        self.marker = re.compile(marker)
        self.requests: list[dict[str, str]] = []
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.listing_seen = False


def _handler(state: _State) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _record(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            if self.headers.get("transfer-encoding", "").lower() == "chunked":
                raw = self._chunks()
            body = raw.decode("utf-8", "replace")
            with state.lock:
                if not state.listing_seen:
                    state.requests.append({"method": self.command, "path": self.path, "body": body})
                    if any(state.marker.search(text) for text in _strings(body)):
                        state.listing_seen = True
                        state.done.set()
            self.send_response(400)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(_ANSWER)))
            self.end_headers()
            self.wfile.write(_ANSWER)

        def _chunks(self) -> bytes:
            data = b""
            while True:
                size = int(self.rfile.readline().strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _record

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


def _end(process: subprocess.Popen[bytes]) -> None:
    """Ends the host's process group: TERM, then KILL after a grace period."""
    for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(grace)
            return
        except subprocess.TimeoutExpired:
            continue


def bind(source: str, target: str, *, read_only: bool) -> None:
    """``mount --bind source target`` in this mount namespace (read-only if asked): the
    host sees the folder at ``target``; with ``read_only`` it cannot change it."""
    subprocess.run(["mount", "--bind", source, target], check=True, capture_output=True)
    if read_only:
        subprocess.run(["mount", "-o", "remount,bind,ro", target], check=True, capture_output=True)


def main(spec_path: str) -> int:
    spec = json.loads(Path(spec_path).read_text("utf-8"))
    out = Path(spec_path).parent
    loopback_up()
    for source, target, read_only in spec.get("binds", []):
        bind(source, target, read_only=bool(read_only))
    state = _State(spec["marker"])
    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(spec["port"])), _handler(state))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    started = time.monotonic()
    with open(out / "host-output.txt", "wb") as output:
        process = subprocess.Popen(
            spec["argv"],
            cwd=spec["cwd"],
            env=spec["env"],
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

        def wait_exit() -> None:
            process.wait()
            state.done.set()

        threading.Thread(target=wait_exit, daemon=True).start()
        finished = state.done.wait(float(spec["timeout"]))
        exit_code = process.poll()
        _end(process)
    seconds = time.monotonic() - started
    server.shutdown()
    with state.lock:
        requests = list(state.requests)
        seen = state.listing_seen
    (out / "requests.json").write_text(json.dumps(requests), "utf-8")
    result = {
        "listing_seen": seen,
        "exit_code": exit_code,
        "timed_out": not finished,
        "seconds": round(seconds, 3),
    }
    (out / "result.json").write_text(json.dumps(result), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

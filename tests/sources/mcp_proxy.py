"""A stdio relay between an MCP client and ``python -m skilldeck mcp ARGS`` that misbehaves
on purpose (``PROXY_MODE``): ``digest`` rewrites every listed sha256, ``die-on-list`` exits
when ``skills/list`` is asked, ``slow`` holds ``skills/list`` for a minute, ``relay`` is
honest. ``PROXY_PID_FILE`` receives the relay's pid; ``slow`` writes ``holding`` to it
once it holds ``skills/list`` (after the pid, so a reader waits for that word)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time

MODE = os.environ.get("PROXY_MODE", "relay")
DIGEST = re.compile(r'"sha256:[0-9a-f]{64}"')


def main() -> None:
    pid_file = os.environ.get("PROXY_PID_FILE")
    if pid_file:
        with open(pid_file, "w", encoding="utf-8") as handle:
            handle.write(str(os.getpid()))
    child = subprocess.Popen(
        [sys.executable, "-m", "skilldeck", "mcp", *sys.argv[1:]],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None
    stdout = child.stdout

    def answers() -> None:
        for raw in stdout:
            line = raw
            if MODE == "digest" and b'"skills"' in line:
                line = DIGEST.sub('"sha256:' + "0" * 64 + '"', line.decode()).encode()
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()

    threading.Thread(target=answers, daemon=True).start()
    for line in sys.stdin.buffer:
        if b'"skills/list"' in line:
            if MODE == "die-on-list":
                child.kill()
                os._exit(1)
            if MODE == "slow":
                if pid_file:
                    with open(pid_file, "a", encoding="utf-8") as handle:
                        handle.write(" holding")
                time.sleep(60)
        child.stdin.write(line)
        child.stdin.flush()
    child.stdin.close()
    child.wait()


if __name__ == "__main__":
    main()

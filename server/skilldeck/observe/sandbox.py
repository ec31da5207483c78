"""Running one host once in the sandbox and collecting what it sent.

The sandbox is ``unshare --user --map-root-user --net --mount --pid --fork --mount-proc``:
the host sees only a loopback interface (brought up inside), its own process tree (all of
it ends with the sandbox) and whatever files the caller prepared (its home, its project).
The environment is built from scratch: nothing of the caller's, credentials included,
reaches the host. ``sandbox_child.py`` does the work inside.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

#: The fake endpoint's port inside the sandbox (each sandbox has its own loopback).
PORT = 18765
_CHILD = Path(__file__).with_name("sandbox_child.py")
UNSHARE = ("unshare", "--user", "--map-root-user", "--net", "--mount", "--pid", "--fork")


class SandboxUnavailable(RuntimeError):
    """This machine cannot make the sandbox (no ``unshare``, or user namespaces off)."""


@dataclass(frozen=True)
class Request:
    """One request the host sent to the fake endpoint."""

    method: str
    path: str
    body: str


@dataclass(frozen=True)
class SandboxResult:
    """What one run produced: the requests up to the one holding the listing, whether
    that one came, how the host ended, and its output (for a failure's message)."""

    requests: tuple[Request, ...]
    listing_seen: bool
    exit_code: int | None
    timed_out: bool
    seconds: float
    output: str


def run_in_sandbox(
    argv: Sequence[str],
    *,
    cwd: str,
    env: Mapping[str, str],
    marker: str,
    workdir: Path,
    timeout: float = 180.0,
    binds: Sequence[tuple[str, str, bool]] = (),
) -> SandboxResult:
    """Run ``argv`` in a fresh sandbox (``workdir`` keeps the spec, the requests and the
    host's output) until a request matches ``marker``, the host exits, or ``timeout``
    seconds pass. ``binds``: (folder, where the host sees it, read-only) mounted inside
    the sandbox only (the target must exist)."""
    unshare = shutil.which(UNSHARE[0])
    if unshare is None:
        raise SandboxUnavailable("unshare (util-linux) is not on PATH")
    workdir.mkdir(parents=True, exist_ok=True)
    spec = workdir / "spec.json"
    spec.write_text(
        json.dumps(
            {
                "argv": list(argv),
                "cwd": cwd,
                "env": dict(env),
                "marker": marker,
                "port": PORT,
                "timeout": timeout,
                "binds": [list(item) for item in binds],
            }
        ),
        "utf-8",
    )
    for stale in ("result.json", "requests.json", "host-output.txt"):
        (workdir / stale).unlink(missing_ok=True)
    command = [unshare, *UNSHARE[1:], "--mount-proc", sys.executable, "-I", str(_CHILD), str(spec)]
    completed = subprocess.run(
        command,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=timeout + 60,
        check=False,
    )
    result_file = workdir / "result.json"
    output_file = workdir / "host-output.txt"
    output = output_file.read_text("utf-8", "replace") if output_file.exists() else ""
    if not result_file.exists():
        detail = completed.stderr.decode("utf-8", "replace").strip()
        raise SandboxUnavailable(
            f"the sandbox did not run (unshare exit {completed.returncode}): {detail}"
        )
    result = json.loads(result_file.read_text("utf-8"))
    requests = json.loads((workdir / "requests.json").read_text("utf-8"))
    return SandboxResult(
        tuple(Request(r["method"], r["path"], r["body"]) for r in requests),
        bool(result["listing_seen"]),
        result["exit_code"],
        bool(result["timed_out"]),
        float(result["seconds"]),
        output,
    )

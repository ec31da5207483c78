"""Plain helpers of the reliability suite: run ``skilldeck``, read its JSON, snapshot trees.

Kept out of ``conftest.py`` so test modules import them by a unique module name (two
``conftest`` modules in one pytest run would shadow each other).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from lsp_harness import Deck


def server_env(deck: Deck, **extra: str) -> dict[str, str]:
    """The deck's environment with a private cache dir and a process mark."""
    env = deck.env()
    env["SKILLDECK_CACHE_DIR"] = str(deck.base / "cache")
    env.update(extra)
    return env


def run_cli(
    deck: Deck, *args: str, cwd: Path | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``skilldeck ARGS`` as a subprocess in the deck's environment."""
    return subprocess.run(
        [sys.executable, "-m", "skilldeck", *args],
        cwd=cwd or deck.project,
        env=server_env(deck),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def check_json(deck: Deck, *args: str, cwd: Path | None = None) -> list[dict[str, Any]]:
    """The findings of ``skilldeck check --format json ARGS`` (exit 0 or 1)."""
    done = run_cli(deck, "check", "--format", "json", *args, cwd=cwd)
    assert done.returncode in (0, 1), done.stderr
    findings: list[dict[str, Any]] = json.loads(done.stdout)
    return findings


def snapshot(root: Path) -> dict[str, tuple[str, int, str]]:
    """Every entry under ``root``: kind, mtime in ns, and a content digest for files."""
    result: dict[str, tuple[str, int, str]] = {}
    for directory, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(directory, name)
            st = os.lstat(path)
            if os.path.islink(path):
                result[path] = ("link", st.st_mtime_ns, os.readlink(path))
            elif os.path.isdir(path):
                result[path] = ("dir", st.st_mtime_ns, "")
            else:
                digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
                result[path] = ("file", st.st_mtime_ns, digest)
    return result

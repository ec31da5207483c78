"""Helpers for the end-to-end CLI tests: files on disk and the result of one run."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Result:
    code: int
    stdout: str
    stderr: str


Run = Callable[..., Result]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def skill(name: str, description: str = "Does a thing when asked.", extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n\nBody of {name}.\n"


def cli_environment(tmp_path: Path, home: Path) -> dict[str, str]:
    """The environment of a ``skilldeck`` run in a test: this one without skilldeck's
    variables, a fake home with empty user roots, a cache in ``tmp_path``, no colour."""
    environ = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DSH_", "SKILLDECK_")) and key != "NO_COLOR"
    }
    environ.update(
        {
            "DSH_HOME": str(home / ".dsh"),
            "DSH_AGENTS_HOME": str(home / ".agents"),
            "SKILLDECK_CACHE_DIR": str(tmp_path / "cache"),
            "NO_COLOR": "1",
            "HOME": str(home),
        }
    )
    return environ

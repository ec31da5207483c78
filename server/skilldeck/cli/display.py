"""How the CLI shows file paths: relative to the working directory when inside it."""

from __future__ import annotations

import os
from pathlib import Path


def display_path(path: str | os.PathLike[str], cwd: str | os.PathLike[str]) -> str:
    """``path`` relative to ``cwd`` when it lies inside ``cwd``; otherwise absolute.

    Both are made absolute first (without resolving symlinks, so a path shown is the
    path the engine scanned). Separators are ``/`` on every platform.
    """
    absolute = Path(os.path.abspath(path))
    base = Path(os.path.abspath(cwd))
    try:
        relative = absolute.relative_to(base)
    except ValueError:
        return absolute.as_posix()
    return relative.as_posix() or "."

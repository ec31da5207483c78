"""How the CLI shows file paths: relative to the working directory when inside it."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def display_path(path: str | os.PathLike[str], cwd: str | os.PathLike[str]) -> str:
    """``path`` relative to ``cwd`` when it lies inside ``cwd``; otherwise absolute.

    Both are made absolute first (without resolving symlinks, so a path shown is the
    path the engine scanned). Separators are ``/`` on every platform.
    """
    absolute = os.path.abspath(path)
    base = os.path.abspath(cwd)
    if os.sep == "/":  # the common case without pathlib (a 10,000-finding report)
        if absolute == base:
            return "."
        prefix = base if base.endswith("/") else base + "/"
        return absolute[len(prefix) :] if absolute.startswith(prefix) else absolute
    try:  # pragma: no cover - Windows: drive letters and case-insensitive names
        relative = Path(absolute).relative_to(Path(base))
    except ValueError:  # pragma: no cover
        return Path(absolute).as_posix()
    return relative.as_posix() or "."  # pragma: no cover


def printable(text: str) -> str:
    """``text`` safe for one line of terminal output.

    Control characters (newlines included) and undecodable bytes (surrogate escapes) become
    visible escapes, so a crafted file name can neither break a finding over two lines nor
    forge a line of its own.
    """
    if text.isprintable():
        return text
    out: list[str] = []
    for char in text:
        code = ord(char)
        if char in _NAMED_ESCAPES:
            out.append(_NAMED_ESCAPES[char])
        elif 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp"):
            out.append(f"\\u{code:04x}")
        else:
            out.append(char)
    return "".join(out)

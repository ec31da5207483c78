"""``file:`` URIs <-> filesystem paths, for POSIX and Windows paths alike.

POSIX paths are encoded from their bytes (``os.fsencode``), so a name that is not valid
UTF-8 (held as surrogate escapes, ``caf\\udce9``) becomes ``caf%E9`` instead of raising.
Windows paths (drive letters, backslashes, UNC shares) follow what VS Code sends and
accepts: ``C:\\a b\\x.md`` <-> ``file:///C:/a%20b/x.md`` (``file:///c%3A/...`` is read too),
``\\\\server\\share\\x.md`` <-> ``file://server/share/x.md``. The flavour is the running
system's unless a caller asks for the other one (tests use ``windows=True`` on Linux).
"""

from __future__ import annotations

import functools
import os
from urllib.parse import quote, quote_from_bytes, unquote, unquote_to_bytes, urlsplit

_ON_WINDOWS = os.name == "nt"


@functools.lru_cache(maxsize=1 << 15)
def uri_of(path: str, *, windows: bool = _ON_WINDOWS) -> str:
    """The ``file:`` URI of an absolute path (the inverse of :func:`path_of`)."""
    if windows:
        return _windows_uri(path)
    raw = os.fsencode(path)
    if not raw.startswith(b"/"):
        raw = b"/" + raw
    return "file://" + quote_from_bytes(raw, safe="/")


def path_of(uri: str, *, windows: bool = _ON_WINDOWS) -> str | None:
    """The filesystem path of a ``file:`` URI; ``None`` for any other scheme, a URI that
    is not well formed, one whose path holds a NUL (``%00``), or (on POSIX) a URI naming
    a remote host."""
    try:
        parts = urlsplit(uri)
    except ValueError:
        return None
    if parts.scheme.lower() != "file":
        return None
    if windows:
        return _windows_path(parts.netloc, parts.path)
    if parts.netloc not in ("", "localhost"):
        return None
    raw = unquote_to_bytes(parts.path)
    if b"\0" in raw:  # %00 names no file
        return None
    return os.fsdecode(raw) or None


def _windows_uri(path: str) -> str:
    slashed = path.replace("\\", "/")
    if slashed.startswith("//"):  # UNC: \\server\share\rest
        host, _, rest = slashed[2:].partition("/")
        return f"file://{quote(host, safe='')}/{quote(rest, safe='/')}"
    if not slashed.startswith("/"):  # C:/x -> /C:/x
        slashed = "/" + slashed
    return "file://" + quote(slashed, safe="/:")


def _windows_path(host: str, raw_path: str) -> str | None:
    text = unquote(raw_path)
    if "\0" in text:
        return None
    if host not in ("", "localhost"):
        return "\\\\" + host + text.replace("/", "\\")
    if len(text) >= 3 and text[0] == "/" and text[2] == ":" and text[1].isalpha():
        text = text[1:]
    return text.replace("/", "\\") or None

"""Reading one of skilldeck's own cache files: a regular file only, never blocking.

A cache file replaced by a FIFO (or a device, a socket, a symlink) must not hang a
``list`` or a ``check``: the file is opened non-blocking without following a symlink
and checked with ``fstat`` before a byte is read. Anything but a regular file is an
``OSError``, which every reader of the cache already treats as a miss (the file is
written again, atomically, by its next writer).
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat

_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_BINARY", 0)
)
_CHUNK = 1 << 20


def open_regular(path: str | os.PathLike[str]) -> tuple[int, os.stat_result]:
    """An open descriptor of the regular file ``path`` and its ``fstat``; ``OSError``
    for anything else (nothing is read from it). Also how the safety scan opens a
    bundle's files (:mod:`skilldeck.engine.safety`)."""
    fd = os.open(path, _FLAGS)
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file", os.fspath(path))
    return fd, info


def read_cache_bytes(path: str | os.PathLike[str], *, max_bytes: int | None = None) -> bytes:
    """The bytes of the regular file ``path``; ``OSError`` when it is missing, not a
    regular file, or larger than ``max_bytes`` (when given)."""
    fd, info = open_regular(path)
    try:
        if max_bytes is not None and info.st_size > max_bytes:
            raise OSError(errno.EFBIG, "cache file too large", os.fspath(path))
        chunks: list[bytes] = []
        read = 0
        while True:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            chunks.append(chunk)
            read += len(chunk)
            if max_bytes is not None and read > max_bytes:
                raise OSError(errno.EFBIG, "cache file too large", os.fspath(path))
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_cache_text(path: str | os.PathLike[str], *, max_bytes: int | None = None) -> str:
    """:func:`read_cache_bytes` decoded as UTF-8 (``ValueError`` when it is not)."""
    return read_cache_bytes(path, max_bytes=max_bytes).decode("utf-8")


def file_sha256(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of the regular file ``path``, read in chunks; ``OSError`` as for
    :func:`read_cache_bytes`."""
    fd, _info = open_regular(path)
    try:
        digest = hashlib.sha256()
        while chunk := os.read(fd, _CHUNK):
            digest.update(chunk)
        return digest.hexdigest()
    finally:
        os.close(fd)

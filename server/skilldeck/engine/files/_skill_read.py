"""Reading and decoding a skill file: size caps, never opening FIFOs or devices.

Every failure is a :class:`SkillReadError` carrying the finding that explains it
(``SD001`` unreadable, ``SD002`` not UTF-8, ``SD003`` UTF-16/32, ``SD005`` too large,
``SD006`` not a regular file).
"""

from __future__ import annotations

import os
import stat

from skilldeck.engine.frontmatter import (
    FrontmatterBounds,
    LineIndex,
    find_frontmatter,
    first_line_span,
    missing_frontmatter,
)
from skilldeck.engine.rules import Finding, rule
from skilldeck.engine.text import FILE_START, Position, Span

#: Skill files larger than this are not read past the cap (``SD005``). A SKILL.md is
#: instructions for a model; typical files are 2-20 KiB and the Agent Skills guidance
#: keeps them under ~500 lines. 1 MiB is fifty times a generous skill, still bounded
#: memory when thousands of files are indexed, and reads in well under a millisecond.
MAX_SKILL_FILE_BYTES = 1024 * 1024
#: The UTF-8 byte order mark: skipped when a skill file is decoded (SD110 says which
#: agents do not skip it).
UTF8_BOM = b"\xef\xbb\xbf"
_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32 little-endian"),
    (b"\x00\x00\xfe\xff", "UTF-32 big-endian"),
    (b"\xff\xfe", "UTF-16 little-endian"),
    (b"\xfe\xff", "UTF-16 big-endian"),
)


def format_size(size: int) -> str:
    """``1048576`` -> ``"1 MiB"``; ``65536`` -> ``"64 KiB"``; else bytes."""
    if size % (1024 * 1024) == 0:
        return f"{size // (1024 * 1024)} MiB"
    if size % 1024 == 0:
        return f"{size // 1024} KiB"
    return f"{size} bytes"


class SkillReadError(Exception):
    """A skill file could not be read or decoded; ``finding`` says why.

    ``os_error`` is the underlying error when the operating system reported one, so
    callers can tell a missing file (``FileNotFoundError``) from a transient failure.
    """

    def __init__(self, finding: Finding, os_error: OSError | None = None) -> None:
        super().__init__(finding.message)
        self.finding = finding
        self.os_error = os_error


def decode_skill_bytes(data: bytes) -> str:
    """Decode UTF-8 (BOM tolerated); ``SkillReadError`` on UTF-16/32, bad bytes, NUL."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            raise SkillReadError(rule("SD003").finding(FILE_START, encoding=encoding))
    if data.startswith(UTF8_BOM):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        prefix = data[: error.start].decode("utf-8")
        position = LineIndex(prefix).position(len(prefix))
        span = Span(position, Position(position.line, position.character + 1))
        raise SkillReadError(
            rule("SD002").finding(
                span,
                byte=data[error.start],
                line=position.line + 1,
                column=position.character + 1,
            )
        ) from None
    return text


def read_skill_bytes(
    path: str | os.PathLike[str], *, max_bytes: int = MAX_SKILL_FILE_BYTES
) -> bytes:
    """Read at most ``max_bytes`` of a regular file (symlinks followed).

    FIFOs, devices, sockets and directories are refused after ``stat`` without being
    opened; the file is opened non-blocking and checked again with ``fstat`` so a swap
    between the two calls cannot make the read block. Raises :class:`SkillReadError`.
    """
    try:
        info = os.stat(path)
    except OSError as error:
        raise SkillReadError(_unreadable(error), error) from error
    if not stat.S_ISREG(info.st_mode):
        raise SkillReadError(rule("SD006").finding(FILE_START, kind=file_kind(info.st_mode)))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        raise SkillReadError(_unreadable(error), error) from error
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            kind = file_kind(opened.st_mode)
            raise SkillReadError(rule("SD006").finding(FILE_START, kind=kind))
        if opened.st_size > max_bytes:
            raise SkillReadError(_too_large(max_bytes))
        chunks: list[bytes] = []
        remaining = max_bytes + 1
        # Ask for one byte more than the size fstat gave: a short read that brought the
        # whole of that size is the end (no second read to see it), and a file that grew
        # meanwhile, or a file system that reads short, is read on to its end.
        asked = min(remaining, opened.st_size + 1, 1024 * 1024)
        while remaining > 0:
            chunk = os.read(fd, asked)
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
            if len(chunk) < asked and max_bytes + 1 - remaining >= opened.st_size:
                break
            asked = min(remaining, 1024 * 1024)
        if remaining <= 0:
            raise SkillReadError(_too_large(max_bytes))
        return b"".join(chunks)
    except OSError as error:
        raise SkillReadError(_unreadable(error), error) from error
    finally:
        os.close(fd)


def buffer_has_bom(text: str, path: str | os.PathLike[str]) -> bool:
    """Whether an editor's buffer of the skill file ``path`` stands for a file that
    starts with a UTF-8 byte order mark: the buffer starts with U+FEFF, or the file on
    disk starts with the mark (editors hide it and write it back on save). Only a
    regular file is opened, non-blocking, and three bytes read; ``False`` on any error."""
    if text.startswith("\ufeff"):
        return True
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and os.read(fd, 3) == UTF8_BOM
    except OSError:
        return False
    finally:
        os.close(fd)


def read_skill_body(path: str | os.PathLike[str]) -> str:
    """A fresh read of the text after the frontmatter's closing line (not stripped).

    Raises :class:`SkillReadError` when the file cannot be read or decoded or has no
    complete frontmatter any more.
    """
    return body_of(decode_skill_bytes(read_skill_bytes(path)))


def body_of(text: str) -> str:
    """The text after the frontmatter's closing line of the decoded skill file ``text``
    (not stripped); :class:`SkillReadError` when it has no complete frontmatter."""
    bounds = find_frontmatter(text)
    if bounds is None:
        raise SkillReadError(missing_frontmatter(text))
    if not isinstance(bounds, FrontmatterBounds):
        raise SkillReadError(rule("SD102").finding(first_line_span(text)))
    return text[bounds.body_start :]


def _too_large(max_bytes: int) -> Finding:
    return rule("SD005").finding(FILE_START, cap=format_size(max_bytes))


def _unreadable(error: OSError) -> Finding:
    reason = (error.strerror or str(error) or type(error).__name__).lower()
    return rule("SD001").finding(FILE_START, reason=reason)


def file_kind(mode: int) -> str:
    """What a path that is not a regular file is, for a message (``a FIFO (named pipe)``)."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"

"""What the editing features read in a skill's Markdown body: headings, mentions, references.

Pure functions over lines of text (no I/O, no LSP types). Positions are engine spans
(0-based lines, code-point columns). ``/name`` mentions use the engine's gesture grammar
(:func:`skilldeck.engine.model_view.find_skill_mentions`) over the whole body, so mentions
inside fenced or inline code are left out exactly as the gesture leaves them out.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from skilldeck.engine.model_view import code_regions, fenced_blocks, find_skill_mentions
from skilldeck.engine.text import Span

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_URL = re.compile(r"https?://[^\s<>()\[\]{}\"'`]+")
_LINK_TARGET = re.compile(r"\]\(\s*(<[^>\n]*>|[^)\s]+)")
_PATH_TOKEN = re.compile(r"(?<![\w/.:~-])[A-Za-z0-9_.][A-Za-z0-9_./-]*")
_TRAILING = ".,;:!?"


@dataclass(frozen=True)
class Heading:
    """An ATX heading: ``level`` 1-6, its ``text`` and where that text is."""

    level: int
    text: str
    line: int
    span: Span


@dataclass(frozen=True)
class BodyReference:
    """A URL or a relative path written in the body (not yet resolved)."""

    kind: Literal["url", "path"]
    target: str
    span: Span


@dataclass(frozen=True)
class MentionAt:
    """A ``/name`` mention: ``span`` covers the ``/`` and the name."""

    name: str
    span: Span


def code_lines(lines: Sequence[str], start: int) -> set[int]:
    """Lines from ``start`` on that belong to fenced code blocks (fences included), as the
    gesture grammar finds them (:func:`skilldeck.engine.model_view.fenced_blocks`)."""
    if not any("```" in line or "~~~" in line for line in lines[start:]):
        return set()
    body, offsets = _body(lines, start)
    result: set[int] = set()
    for begin, end in fenced_blocks(body):
        first = _position(offsets, start, begin)[0]
        last = _position(offsets, start, max(begin, end - 1))[0] if end > begin else first
        result.update(range(first, last + 1))
    return result


def headings(lines: Sequence[str], start: int) -> list[Heading]:
    """ATX headings from line ``start`` on, outside fenced code blocks."""
    fenced = code_lines(lines, start)
    found: list[Heading] = []
    for number in range(start, len(lines)):
        if number in fenced:
            continue
        match = _ATX.match(lines[number])
        if match is None:
            continue
        text = match.group(2) or ""
        begin = match.start(2) if match.group(2) is not None else match.end(1)
        found.append(
            Heading(len(match.group(1)), text, number, Span.at(number, begin, begin + len(text)))
        )
    return found


def section_end(lines: Sequence[str], found: Sequence[Heading], position: int) -> int:
    """The last line of the section ``found[position]`` opens (trailing blank lines out)."""
    heading = found[position]
    end = len(lines) - 1
    for later in found[position + 1 :]:
        if later.level <= heading.level:
            end = later.line - 1
            break
    while end > heading.line and not lines[end].strip():
        end -= 1
    return end


def _body(lines: Sequence[str], start: int) -> tuple[str, list[int]]:
    """The body from line ``start`` joined by ``\\n``, and the offset each line starts at."""
    offsets: list[int] = []
    at = 0
    for line in lines[start:]:
        offsets.append(at)
        at += len(line) + 1
    return "\n".join(lines[start:]), offsets


def _position(offsets: list[int], start: int, offset: int) -> tuple[int, int]:
    line = bisect_right(offsets, offset) - 1
    return start + line, offset - offsets[line]


def mentions(lines: Sequence[str], start: int) -> Iterator[MentionAt]:
    """Every ``/name`` mention from line ``start`` on, in order (none inside code)."""
    if not any("/" in line for line in lines[start:]):
        return
    body, offsets = _body(lines, start)
    for mention in find_skill_mentions(body):
        number, column = _position(offsets, start, mention.start)
        yield MentionAt(mention.name, Span.at(number, column, column + mention.end - mention.start))


def mention_at(lines: Sequence[str], start: int, number: int, character: int) -> MentionAt | None:
    """The mention on line ``number`` touching column ``character`` (body from ``start``)."""
    if number < start or number >= len(lines) or "/" not in lines[number]:
        return None
    for mention in mentions(lines, start):
        span = mention.span
        if span.start.line == number and span.start.character <= character <= span.end.character:
            return mention
    return None


def in_code(lines: Sequence[str], start: int, number: int, character: int) -> bool:
    """Whether column ``character`` of line ``number`` is in fenced or inline code."""
    if number < start or number >= len(lines):
        return False
    body, offsets = _body(lines, start)
    offset = offsets[number - start] + character
    return any(begin <= offset < end for begin, end in code_regions(body))


def references(line: str, number: int) -> list[BodyReference]:
    """URLs and relative-path candidates on one body line, left to right.

    Markdown link targets (``[text](target)``, a ``#fragment`` left out) come first;
    then bare ``http(s)`` URLs; then path-like tokens (containing ``/`` or a file
    extension). Candidates still have to be resolved (and found) by the caller.
    """
    found: list[BodyReference] = []
    taken: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= a or start >= b for a, b in taken)

    def add(kind: Literal["url", "path"], target: str, start: int) -> None:
        end = start + len(target)
        if target and free(start, end):
            found.append(BodyReference(kind, target, Span.at(number, start, end)))
            taken.append((start, end))

    for match in _LINK_TARGET.finditer(line):
        raw = match.group(1)
        start = match.start(1)
        if raw.startswith("<") and raw.endswith(">"):
            raw, start = raw[1:-1], start + 1
        if _URL.fullmatch(raw):
            add("url", raw, start)
            continue
        if ":" in raw.split("/")[0] or raw.startswith("#"):
            taken.append((start, start + len(raw)))
            continue
        add("path", raw.split("#", 1)[0], start)
        taken.append((start, start + len(raw)))
    for match in _URL.finditer(line):
        url = match.group().rstrip(_TRAILING)
        if free(match.start(), match.start() + len(url)):
            add("url", url, match.start())
        taken.append((match.start(), match.end()))
    for match in _PATH_TOKEN.finditer(line):
        token = match.group().rstrip(_TRAILING)
        if "/" in token or re.search(r"[^./]\.[A-Za-z0-9]+$", token):
            add("path", token, match.start())
    found.sort(key=lambda ref: ref.span.start)
    return found


def reference_at(line: str, number: int, character: int) -> BodyReference | None:
    """The reference on ``line`` touching column ``character``, if any."""
    for ref in references(line, number):
        if ref.span.start.character <= character <= ref.span.end.character:
            return ref
    return None

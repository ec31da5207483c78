"""What the editing features read in a skill's Markdown body: headings, mentions, references.

Pure functions over lines of text (no I/O, no LSP types). Positions are engine spans
(0-based lines, code-point columns). ``/name`` mentions use the engine's gesture grammar
(:func:`skilldeck.engine.model_view.find_skill_mentions`) over the whole body, so mentions
inside fenced or inline code are left out exactly as the gesture leaves them out.

Headings are CommonMark's ATX (``# Title``) and setext ones (``Title`` over a line of
``=`` or ``-``), outside fenced code. Setext headings need CommonMark's block structure
around them, kept as small as the outline needs: a paragraph (its lines, which indented
code, a thematic break, a block quote, a list item, an HTML block or a fence interrupt),
indented code, HTML blocks, and the lazy lines of a block quote's or list item's
paragraph (an underline there is text, and ``---`` a thematic break). Headings inside
block quotes and list items are not looked for.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from skilldeck.engine.model_view import code_regions, fenced_blocks, find_skill_mentions
from skilldeck.engine.text import Position, Span
from skilldeck.engine.text import leading_columns as _indent

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT_UNDERLINE = re.compile(r" {0,3}(=+|-+)[ \t]*$")
_THEMATIC_BREAK = re.compile(r" {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_BLOCK_QUOTE = re.compile(r" {0,3}>")
_CONTAINER = re.compile(r" {0,3}(?:>|(?:[-+*]|[0-9]{1,9}[.)])(?:[ \t]|$))")
#: A list item that may interrupt a paragraph: not empty, and an ordered one starts at 1.
_INTERRUPTING_ITEM = re.compile(r" {0,3}(?:[-+*]|1[.)])[ \t]+\S")
#: HTML blocks 1-5 (CommonMark 4.6): their start, and the text that ends them.
_HTML_UNTIL = (
    (
        re.compile(r" {0,3}<(?:script|pre|style|textarea)(?:[ \t>]|$)", re.I),
        re.compile(r"</(?:script|pre|style|textarea)>", re.I),
    ),
    (re.compile(r" {0,3}<!--"), re.compile(r"-->")),
    (re.compile(r" {0,3}<\?"), re.compile(r"\?>")),
    (re.compile(r" {0,3}<![A-Za-z]"), re.compile(r">")),
    (re.compile(r" {0,3}<!\[CDATA\["), re.compile(r"\]\]>")),
)
#: HTML block 6: a block-level tag; it runs to a blank line.
_HTML_BLOCK_TAG = re.compile(
    r" {0,3}</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col"
    r"|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form"
    r"|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem"
    r"|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td"
    r"|tfoot|th|thead|title|tr|track|ul)(?:[ \t]|/?>|$)",
    re.I,
)
#: HTML block 7: a line holding one open or closing tag alone; it cannot interrupt a
#: paragraph and runs to a blank line.
_HTML_TAG_LINE = re.compile(
    r" {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*"
    r"(?:[ \t]*=[ \t]*(?:[^\s\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)*[ \t]*/?>"
    r"|</[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$"
)
_URL = re.compile(r"https?://[^\s<>()\[\]{}\"'`]+")
_LINK_TARGET = re.compile(r"\]\(\s*(<[^>\n]*>|[^)\s]+)")
_PATH_TOKEN = re.compile(r"(?<![\w/.:~-])[A-Za-z0-9_.][A-Za-z0-9_./-]*")
_TRAILING = ".,;:!?"


@dataclass(frozen=True)
class Heading:
    """A heading: ``level`` 1-6, its ``text`` and where that text is (``span``; a setext
    heading's text may take several lines); ``line`` is its first line and ``last`` its
    last (a setext heading's underline)."""

    level: int
    text: str
    line: int
    span: Span
    last: int


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
    """ATX and setext headings from line ``start`` on, outside fenced code blocks (see
    the module doc)."""
    fenced = code_lines(lines, start)
    found: list[Heading] = []
    paragraph: int | None = None  # the first line of the open paragraph
    lazy = False  # in a block quote's or list item's paragraph
    html: re.Pattern[str] | None = None  # in an HTML block: what ends it
    blank_ends_html = False
    for number in range(start, len(lines)):
        line = lines[number]
        blank = not line.strip()
        if html is not None or blank_ends_html:
            if blank_ends_html and blank:
                blank_ends_html = False
            elif html is not None and html.search(line):
                html = None
            continue
        if number in fenced or blank:
            paragraph, lazy = None, False
            continue
        match = _ATX.match(line)
        if match is not None:
            text = match.group(2) or ""
            begin = match.start(2) if match.group(2) is not None else match.end(1)
            span = Span.at(number, begin, begin + len(text))
            found.append(Heading(len(match.group(1)), text, number, span, number))
            paragraph, lazy = None, False
            continue
        if paragraph is not None:
            underline = _SETEXT_UNDERLINE.match(line)
            if underline is not None:
                found.append(_setext(lines, paragraph, number, underline.group(1)))
                paragraph = None
                continue
            if not _interrupts(line):
                continue
            paragraph = None
        elif lazy:
            if not _interrupts(line):
                continue
            lazy = False
        if _indent(line) >= 4 or _THEMATIC_BREAK.match(line):
            continue
        container = _CONTAINER.match(line)
        if container is not None:
            lazy = bool(line[container.end() :].strip())  # an empty one holds no paragraph
            continue
        for opening, closing in _HTML_UNTIL:
            opened = opening.match(line)
            if opened is not None:
                html = None if closing.search(line, opened.end()) else closing
                break
        else:
            if _HTML_BLOCK_TAG.match(line) or _HTML_TAG_LINE.match(line):
                blank_ends_html = True
            else:
                paragraph = number
    return found


def _interrupts(line: str) -> bool:
    """Whether ``line`` (not blank, no ATX heading, no fence) ends a paragraph."""
    return bool(
        _THEMATIC_BREAK.match(line)
        or _INTERRUPTING_ITEM.match(line)
        or _BLOCK_QUOTE.match(line)
        or any(opening.match(line) for opening, _ in _HTML_UNTIL)
        or _HTML_BLOCK_TAG.match(line)
    )


def _setext(lines: Sequence[str], first: int, underline: int, marks: str) -> Heading:
    """The setext heading of the paragraph ``first``..``underline - 1``."""
    last = underline - 1
    texts = [lines[number].strip(" \t") for number in range(first, underline)]
    begin = len(lines[first]) - len(lines[first].lstrip(" \t"))
    span = Span(Position(first, begin), Position(last, len(lines[last].rstrip(" \t"))))
    return Heading(1 if marks[0] == "=" else 2, " ".join(texts), first, span, underline)


def section_end(lines: Sequence[str], found: Sequence[Heading], position: int) -> int:
    """The last line of the section ``found[position]`` opens (trailing blank lines out)."""
    heading = found[position]
    end = len(lines) - 1
    for later in found[position + 1 :]:
        if later.level <= heading.level:
            end = later.line - 1
            break
    while end > heading.last and not lines[end].strip():
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

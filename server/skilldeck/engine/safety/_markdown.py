"""What a rendered view of a Markdown file hides from its reader, from a real parser.

A reviewer reads a skill rendered (GitHub, a registry's page, an editor's preview); the
model reads its source. Everything in the source a rendered view does not show is
*hidden*: this module finds it with markdown-it-py (a CommonMark parser; GFM tables and
strikethrough on, raw HTML passed through as GitHub's renderer does) and the HTML model
of :mod:`~skilldeck.engine.safety._html`, and maps each piece back to its exact source
range. Hidden, besides what HTML hides (``_html``):

- link reference definitions (``[//]: # "..."``, ``[x]: <> (...)``, any destination):
  the label and title render nowhere;
- link and image titles, image alt text and HTML ``title=`` / ``alt=`` attributes are
  *tooltips*: shown only on hover (or when an image fails);
- a fenced code block's info string (a renderer uses its first word, if any, to pick a
  highlighter and shows none of it).

Cost. markdown-it-py is pure Python (~1 ms a KB), so it never parses a whole skill just
in case. :func:`hidden_markdown` first looks for constructs that can hide anything
(:func:`candidates`, a regular expression, memoised per chunk of the body); a body with
none costs that scan. Otherwise an outline of the top-level blocks (:func:`outline`:
fenced code and HTML blocks, line by line, with CommonMark's rules, sure of what it says
or saying it is not sure) drops the candidates that sit in fenced code for certain, and
markdown-it parses only the windows of top-level blocks around the others (from a point
where the outline is sure a new block starts to the next one; memoised by the window's
text). A window is widened while HTML it opened still hides what follows. Line endings
(LF, CRLF, CR) never matter: markdown-it normalises them, offsets are counted per line.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.helpers import parseLinkDestination, parseLinkTitle
from markdown_it.rules_block.html_block import HTML_SEQUENCES

from skilldeck.engine.safety._hits import Gate, folded, present_marks, word_matches
from skilldeck.engine.safety._html import CLOSES_P, Hidden, SourceMap, Visibility
from skilldeck.engine.text import leading_columns as _indent

# --- lines -----------------------------------------------------------------------------

_LINE_BREAK = re.compile(r"\r\n?|\n")


@dataclass(frozen=True, slots=True)
class Lines:
    """The lines of ``text[start:end]``: each line's start and end (before its line
    break), whatever the line breaks."""

    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @classmethod
    def of(cls, text: str, start: int, end: int) -> Lines:
        starts = [start]
        ends: list[int] = []
        for match in _LINE_BREAK.finditer(text, start, end):
            ends.append(match.start())
            starts.append(match.end())
        ends.append(end)
        if starts[-1] == end and len(starts) > 1:
            starts.pop()
            ends.pop()
        return cls(tuple(starts), tuple(ends))

    def line_of(self, offset: int) -> int:
        """The line holding ``offset``."""
        return max(0, bisect_right(self.starts, offset) - 1)


# --- candidates: what could hide anything --------------------------------------------------

#: An attribute nobody sees (or a tooltip), by its name.
_ATTRIBUTE = re.compile(
    r"(?:style|title|alt|aria-[\w-]+|data-[\w-]+|content|label|summary|abbr|color)\s*=",
    re.IGNORECASE,
)
#: What can start hidden text, each with the gate that must open for it to be looked for
#: (:class:`~skilldeck.engine.safety._hits.Gate`: the chunk's marks, found in the one
#: Aho-Corasick pass every rule shares): comments, processing instructions and
#: declarations; elements a browser never renders; attributes nobody sees and
#: ``hidden``; a tag an HTML block may leave open; reference definitions; link titles;
#: image alt text.
_CANDIDATES: tuple[tuple[re.Pattern[str], Gate], ...] = (
    (re.compile(r"<[!?]"), Gate(("<!", "<?"))),
    (
        re.compile(
            r"<(?:template|script|style|noscript|title|iframe|noembed|noframes|head|datalist"
            r"|object|dialog|input|svg|plaintext|xmp|textarea)\b",
            re.IGNORECASE,
        ),
        Gate(("<template", "<script", "<style", "<noscript", "<title", "<iframe", "<noembed",
              "<noframes", "<head", "<datalist", "<object", "<dialog", "<input", "<svg",
              "<plaintext", "<xmp", "<textarea")),
    ),
    (
        _ATTRIBUTE,
        Gate(("style", "title", "alt", "aria-", "data-", "content", "label", "summary",
              "abbr", "color"), also=("=",)),
    ),
    (re.compile(r"<[A-Za-z][^<>\r\n]*?\shidden\b", re.IGNORECASE), Gate(("hidden",))),
    (re.compile(r"<[A-Za-z][\w-]*[^<>\r\n]*(?=[\r\n]|\Z)"), Gate(("<",))),
    (re.compile(r"\]:"), Gate(("]:",))),
    (re.compile(r"\]\([^)\r\n]*?\s[\"'(]"), Gate(("](",))),
    (re.compile(r"!\[[^\]\s]"), Gate(("![",))),
)  # fmt: skip
_FENCE_MARKS = Gate(("```", "~~~"))
_INFO_WORDS = re.compile(r"[ \t>]*(?:`{3,}|~{3,})[ \t]*\S+[ \t]+\S")


#: The attribute pattern's start words: Python's ``re`` tries a case-insensitive
#: alternation at every position of a chunk (nine tenths of the candidates' cost on the
#: collection), so it is tried only where one of them occurs (:func:`word_matches`).
_ATTRIBUTE_STARTS = ("style", "title", "alt", "aria-", "data-", "content", "label", "summary",
                     "abbr", "color")  # fmt: skip


def chunk_candidates(
    chunk: str, present: frozenset[str], lowered: str | None = None
) -> tuple[int, ...]:
    """The candidates of one chunk (:func:`candidates`) whose marks are ``present``;
    ``lowered``: the chunk :func:`folded`, when the caller has it."""
    if not present:
        return ()
    found: list[int] = []
    for pattern, gate in _CANDIDATES:
        if not gate.opens(present):
            continue
        if pattern is _ATTRIBUTE:
            lowered = folded(chunk) if lowered is None else lowered
            matches = word_matches(
                pattern, _ATTRIBUTE_STARTS, chunk, 0, len(chunk), lowered=lowered
            )
            found += (match.start() for match in matches)
        else:
            found += (match.start() for match in pattern.finditer(chunk))
    if _FENCE_MARKS.opens(present):
        # a fence whose info string has several words (the rest of it is shown nowhere)
        for mark in ("```", "~~~"):
            at = chunk.find(mark)
            while at >= 0:
                line_start = max(chunk.rfind("\n", 0, at), chunk.rfind("\r", 0, at)) + 1
                if _INFO_WORDS.match(chunk, line_start):
                    found.append(at)
                breaks = [b for b in (chunk.find("\n", at), chunk.find("\r", at)) if b >= 0]
                at = chunk.find(mark, min(breaks)) if breaks else -1
    return tuple(sorted(set(found)))


def candidates(text: str, chunks: Iterable[tuple[int, int]]) -> list[int]:
    """The offsets in ``text`` where something that can hide text starts (an HTML
    construct that hides or has unseen attributes, a reference definition, a link with
    a title, an image, a fence with an info string of several words)."""
    found: list[int] = []
    for first, last in chunks:
        found += (first + at for at in _chunk_candidates(text[first:last]))
    return found


@lru_cache(maxsize=1024)
def _chunk_candidates(chunk: str) -> tuple[int, ...]:
    return chunk_candidates(chunk, present_marks(folded(chunk)))


# --- the outline: top-level fenced code and HTML blocks, for certain -----------------------

_FENCE = re.compile(r"(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^\r\n]*)")
_HTML_STARTS: tuple[tuple[re.Pattern[str], re.Pattern[str], bool], ...] = tuple(
    (start, end, interrupts) for start, end, interrupts in HTML_SEQUENCES
)


def _html_start(stripped: str) -> int:
    """Which CommonMark HTML block (1-7) the line (its indentation removed) starts, or 0."""
    for index, (start, _end, _interrupts) in enumerate(_HTML_STARTS):
        if start.search(stripped):
            return index + 1
    return 0


@dataclass(frozen=True, slots=True)
class Outline:
    """What is sure about a body's top-level blocks: the source ranges that are fenced
    code for certain (content lines of a top-level fence the outline saw open), and the
    offsets where a top-level block certainly starts (a window can start there)."""

    code: tuple[tuple[int, int], ...]
    restarts: tuple[int, ...]
    #: Added to every offset (the outline of a body, asked about in the whole text).
    shift: int = 0

    def in_code(self, offset: int) -> bool:
        """Whether ``offset`` is in fenced code for certain."""
        offset -= self.shift
        index = bisect_right(self.code, (offset, 1 << 62)) - 1
        return index >= 0 and self.code[index][0] <= offset < self.code[index][1]

    def window(self, offset: int, end: int) -> tuple[int, int]:
        """The restart points around ``offset``: the last at or before its line and
        the first after it (``end`` when none)."""
        index = bisect_right(self.restarts, offset - self.shift)
        first = self.restarts[index - 1] if index > 0 else self.restarts[0]
        if index >= len(self.restarts):
            return first + self.shift, end
        return first + self.shift, self.restarts[index] + self.shift

    def after(self, offset: int, end: int) -> int:
        """The first restart point after ``offset`` (``end`` when none)."""
        index = bisect_right(self.restarts, offset - self.shift)
        return self.restarts[index] + self.shift if index < len(self.restarts) else end


_LIST_MARKER = re.compile(r"(?P<marker>[-+*]|\d{1,9}[.)])(?P<space>[ \t]+|$)")
_THEMATIC_BREAK = re.compile(r"([-*_])(?:[ \t]*\1){2,}[ \t]*$")


def _lazy_able(stripped: str) -> bool:
    """Whether a line could be a lazy continuation of a paragraph in a list item: plain
    text, not a line that starts a block (a fence, HTML, a quote, a heading, a list
    item, a thematic break)."""
    return not (
        _valid_info(_FENCE.match(stripped))
        or 1 <= _html_start(stripped) <= 6
        or stripped.startswith((">", "#"))
        or _LIST_MARKER.match(stripped)
        or _THEMATIC_BREAK.match(stripped)
    )


#: The first characters of a line that can close a fence, or start anything but text.
_FENCE_HEADS = frozenset(" \t`~")
_BLOCK_HEADS = frozenset(" \t`~<-+*>#_=|[\r\n") | {""}
#: The first characters of a line that may be blank.
_BLANK_HEADS = frozenset(" \t\r\n") | {""}
#: The first characters (after indentation) of a line that can open a fence, HTML or a
#: list item.
_CONTENT_STOPS = frozenset("`~<-+*")


class _Outliner:
    """The line-by-line state of :func:`outline`."""

    def __init__(self, text: str, start: int, end: int, state: tuple[object, ...] = ()) -> None:
        self.text, self.end = text, end
        self.lines = Lines.of(text, start, end)
        self.code: list[tuple[int, int]] = []
        self.restarts: list[int] = [] if state else [start]
        self.fence: tuple[str, int] | None = None
        self.fence_content = 0
        self.html_end: re.Pattern[str] | None = None
        self.html_to_blank = False
        self.previous_blank = True
        self.previous_text = False
        #: The content offsets of the list items open for certain, innermost last;
        #: ``maybe_items``: an item may be open that is not in ``items`` (a lazy line).
        self.items: list[int] = []
        self.maybe_items = False
        self.sure = True
        #: While not sure: the top-level constructs a reading may have open.
        self.maybe_fence: list[tuple[str, int]] = []
        self.maybe_html: list[re.Pattern[str] | None] = []
        self.blank_since = False
        if state:
            self.restore(state, start)

    def state(self) -> tuple[object, ...]:
        """Everything the next line's reading depends on (hashable; an open fence's
        content continues at the next text's start)."""
        return (
            self.fence, self.html_end, self.html_to_blank, self.previous_blank,
            self.previous_text, tuple(self.items), self.maybe_items, self.sure,
            tuple(self.maybe_fence), tuple(self.maybe_html), self.blank_since,
        )  # fmt: skip

    def restore(self, state: tuple[object, ...], start: int) -> None:
        """Continue from :meth:`state` of the text before."""
        (fence, html_end, self.html_to_blank, self.previous_blank, self.previous_text,
         items, self.maybe_items, self.sure, maybe_fence, maybe_html,
         self.blank_since) = state  # type: ignore[assignment]  # fmt: skip
        self.fence = fence  # type: ignore[assignment]
        self.html_end = html_end  # type: ignore[assignment]
        self.items = list(items)  # type: ignore[call-overload]
        self.maybe_fence = list(maybe_fence)  # type: ignore[call-overload]
        self.maybe_html = list(maybe_html)  # type: ignore[call-overload]
        self.fence_content = start

    def run(self) -> Outline:
        text = self.text
        ends = self.lines.ends
        for index, first in enumerate(self.lines.starts):
            last = ends[index]
            head = text[first] if first < last else ""
            # the common lines, decided by their first character: text in a paragraph
            # at column 0, and the content of a fence
            if self.fence is not None:
                if head not in _FENCE_HEADS:
                    continue
                if head in " \t" and text[first:last].lstrip(" \t")[:1] not in ("`", "~"):
                    continue
            elif self.sure and self.html_end is None and not self.html_to_blank:
                if head in _BLANK_HEADS and not text[first:last].strip():
                    self.previous_blank, self.previous_text = True, False
                    continue
                if not self.maybe_items and head in "#|[":
                    # a heading, table row or link line at column 0: text, or a block
                    # that closes every list item (it cannot be a lazy line)
                    if self.previous_blank:
                        self.restarts.append(first)
                    if head == "#" or self.previous_blank:
                        self.items = []
                    elif self.items:
                        self.line(index, first, last)
                        continue
                    self.previous_blank, self.previous_text = False, True
                    continue
                if not self.maybe_items and head in "-*+" and text[first + 1 : first + 2] == " ":
                    # a bullet at column 0: a sibling item (not a thematic break)
                    content = text[first + 2 : last]
                    stripped = content.lstrip(" ")
                    if (
                        stripped
                        and stripped[0] not in _CONTENT_STOPS
                        and (not stripped[0].isdigit())
                    ):
                        if self.previous_blank:
                            self.restarts.append(first)
                        spaces = 1 + len(content) - len(stripped)
                        self.items = [1 + (spaces if spaces <= 4 else 1)]
                        self.previous_blank, self.previous_text = False, True
                        continue
                if not self.items and not self.maybe_items:
                    if head not in _BLOCK_HEADS and not head.isdigit():
                        if self.previous_blank:
                            self.restarts.append(first)
                        self.previous_blank, self.previous_text = False, True
                        continue
                elif self.items and not self.maybe_items and head in " \t":
                    # a list item's content: indented into the item, and neither a
                    # fence, HTML nor a nested item's marker
                    line = text[first:last]
                    stripped = line.lstrip(" \t")
                    if (
                        stripped
                        and stripped[0] not in _CONTENT_STOPS
                        and not stripped[0].isdigit()
                        and _indent(line) >= self.items[-1]
                    ):
                        self.previous_blank, self.previous_text = False, True
                        continue
            self.line(index, first, last)
        if self.fence is not None and self.sure:
            self.code.append((self.fence_content, self.end))
        return Outline(tuple(self.code), tuple(sorted(set(self.restarts))))

    def line(self, index: int, first: int, last: int) -> None:
        line = self.text[first:last]
        blank = not line.strip()
        if self.fence is not None:
            if _closes(line, self.fence):
                if self.fence_content < first:
                    self.code.append((self.fence_content, first))
                self.fence = None
                self.previous_blank, self.previous_text = False, False
            return
        if self.html_end is not None:
            if self.html_end.search(line):
                self.html_end = None
                self.previous_blank, self.previous_text = False, False
            return
        if self.html_to_blank:
            if blank:
                self.html_to_blank = False
                self.previous_blank, self.previous_text = True, False
            return
        width = _indent(line)
        stripped = line.lstrip(" \t")
        if not self.sure and not self.unsure(line, stripped, width, blank):
            return
        if blank:
            self.previous_blank, self.previous_text = True, False
            return
        self.track_items(stripped, width)
        opener = _FENCE.match(stripped) is not None and _valid_info(_FENCE.match(stripped))
        block = opener or _html_start(stripped) != 0
        if width and block:
            if self.items and not self.maybe_items:
                # inside a list item for certain: its fence or HTML ends with the item
                self.previous_blank, self.previous_text = False, False
                return
            if width >= 4 or self.items or self.maybe_items:
                if width >= 4 and not self.items and not self.maybe_items:
                    self.previous_blank = False  # indented code or paragraph text
                    return
                self.doubt(stripped)
                return
        elif width:
            self.previous_blank, self.previous_text = False, True
            return
        self.block(index, first, last, stripped)

    def track_items(self, stripped: str, width: int) -> None:
        """Close the list items a line is not indented into; open the one it starts."""
        while self.items and width < self.items[-1]:
            self.items.pop()
            if not self.previous_blank and _lazy_able(stripped):
                self.maybe_items = True  # a lazy continuation keeps it open
        if width == 0 and (self.previous_blank or not _lazy_able(stripped)):
            self.items, self.maybe_items = [], False
        container = self.items[-1] if self.items else 0
        marker = _LIST_MARKER.match(stripped)
        if (
            marker is not None
            and not _THEMATIC_BREAK.match(stripped)
            and 0 <= width - container <= 3
        ):
            space = marker["space"].expandtabs(4)
            content = stripped[marker.end() :]
            size = len(marker["marker"])
            if not content.strip():
                self.maybe_items = True  # an empty item may end at the next blank line
                return
            self.items.append(width + size + (len(space) if len(space) <= 4 else 1))

    def doubt(self, stripped: str) -> None:
        """A line that may open a top-level construct, or one inside a list item."""
        self.sure = False
        self.blank_since = False
        self.maybe_fence, self.maybe_html = [], []
        self.items, self.maybe_items = [], True
        _possible(stripped, self.maybe_fence, self.maybe_html)

    def unsure(self, line: str, stripped: str, width: int, blank: bool) -> bool:
        """Follow a line while not sure; whether every reading agrees again at it."""
        was_open = bool(self.maybe_fence or self.maybe_html)
        fences = [f for f in self.maybe_fence if not _closes(line, f)]
        htmls = [h for h in self.maybe_html if not (blank if h is None else h.search(line))]
        closed = len(fences) < len(self.maybe_fence) or len(htmls) < len(self.maybe_html)
        self.maybe_fence, self.maybe_html = fences, htmls
        opens = (
            width <= 3
            and not blank
            and (
                (_FENCE.match(stripped) is not None and _valid_info(_FENCE.match(stripped)))
                or 1 <= _html_start(stripped) <= 6
            )
        )
        if opens and (closed or was_open or width):
            # another reading may read the line as an opener
            _possible(stripped, self.maybe_fence, self.maybe_html)
        elif width and not blank and _html_start(stripped) == 7:
            _possible(stripped, self.maybe_fence, self.maybe_html)
        if self.maybe_fence or self.maybe_html or (closed and not blank):
            self.blank_since = False
            return False
        if blank:
            self.blank_since = True
            return False
        if width == 0 and (self.blank_since or opens):
            self.sure = True
            self.items, self.maybe_items = [], False
            self.previous_blank = self.blank_since
            self.previous_text = False
            return True
        self.blank_since = False  # the blank line must come right before
        return False

    def block(self, index: int, first: int, last: int, stripped: str) -> None:
        """A line that starts a top-level block for certain."""
        if self.previous_blank:
            self.restarts.append(first)
        match = _FENCE.match(stripped)
        if match is not None and _valid_info(match):
            if not self.previous_blank:
                self.restarts.append(first)
            self.fence = (match["fence"][0], len(match["fence"]))
            following = index + 1
            starts = self.lines.starts
            self.fence_content = starts[following] if following < len(starts) else self.end
            self.previous_blank, self.previous_text = False, False
            return
        kind = _html_start(stripped)
        if 1 <= kind <= 6:
            if not self.previous_blank:
                self.restarts.append(first)
            if kind == 6:
                self.html_to_blank = True
            else:
                pattern = _HTML_STARTS[kind - 1][1]
                if not pattern.search(stripped):
                    self.html_end = pattern
            self.previous_blank, self.previous_text = False, False
            return
        if kind == 7:
            if self.previous_text:
                # it cannot interrupt a paragraph: text, or an HTML block after a line
                # that was not paragraph text after all
                self.sure = False
                self.blank_since = False
                self.maybe_fence, self.maybe_html = [], [None]
                self.items, self.maybe_items = [], True
                return
            self.html_to_blank = True
            self.previous_blank = False
            return
        self.previous_blank, self.previous_text = False, True


def _closes(line: str, fence: tuple[str, int]) -> bool:
    """Whether ``line`` closes a fence of ``fence[1]`` ``fence[0]`` characters."""
    match = _FENCE.match(line)
    return (
        match is not None
        and _indent(match["indent"]) <= 3
        and match["fence"][0] == fence[0]
        and len(match["fence"]) >= fence[1]
        and not match["info"].strip()
    )


def outline(
    text: str, start: int, end: int, chunks: Iterable[tuple[int, int]] | None = None
) -> Outline:
    """The :class:`Outline` of ``text[start:end]``, by CommonMark's block rules, read a
    chunk at a time (``chunks``, each ending at a line break; default: one), each
    chunk's reading memoised by its text and the state the text before left (a
    keystroke re-reads one chunk).

    Sure: a line at column 0 is never inside a list item, quote or HTML block opened
    in one (it closes them, or is lazy paragraph text, which opens nothing); so the
    top-level fences and HTML blocks follow from those lines, and from indented ones
    where it is certain whether a list item holds them (the items are followed by their
    content offsets). Not sure: a fence or HTML block that may open at the top level or
    inside a list item, or a type-7 HTML block after a line of text (it cannot
    interrupt a paragraph). The outline is then unsure until every reading agrees
    again: no construct a reading may have open, then a blank line and a line at
    column 0 (or a fence or HTML block opening at column 0).
    """
    code: list[tuple[int, int]] = []
    restarts: list[int] = []
    state: tuple[object, ...] = ()
    for first, last in chunks if chunks is not None else ((start, end),):
        part_code, part_restarts, state = _outline_chunk(text[first:last], state)
        code += ((first + a, first + b) for a, b in part_code)
        restarts += (first + at for at in part_restarts)
    return Outline(tuple(code), tuple(restarts))


@lru_cache(maxsize=1024)
def _outline_chunk(
    chunk: str, state: tuple[object, ...]
) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[object, ...]]:
    reader = _Outliner(chunk, 0, len(chunk), state)
    plan = reader.run()
    return plan.code, plan.restarts, reader.state()


def _valid_info(match: re.Match[str] | None) -> bool:
    """Whether a fence-like line is a fence: a backtick fence's info string holds no
    backtick."""
    return match is not None and not (match["fence"][0] == "`" and "`" in match["info"])


def _possible(
    stripped: str, maybe_fence: list[tuple[str, int]], maybe_html: list[re.Pattern[str] | None]
) -> None:
    """Note the top-level construct a line might open under another reading."""
    match = _FENCE.match(stripped)
    if match is not None and _valid_info(match):
        maybe_fence.append((match["fence"][0], len(match["fence"])))
        return
    kind = _html_start(stripped)
    if 1 <= kind <= 5:
        pattern = _HTML_STARTS[kind - 1][1]
        if not pattern.search(stripped):
            maybe_html.append(pattern)
    elif kind in (6, 7):
        maybe_html.append(None)


# --- markdown-it, with positions ------------------------------------------------------------


def _record_inline(name: str, rule: Any, kinds: tuple[str, ...]) -> Any:
    def recorded(state: Any, silent: bool) -> bool:
        before = len(state.tokens)
        start = state.pos
        ok = bool(rule(state, silent))
        if ok and not silent:
            for token in state.tokens[before:]:
                if token.type in kinds:
                    token.meta = {**(token.meta or {}), "src": (start, state.pos)}
                    break
        return ok

    recorded.__name__ = name
    return recorded


def _record_references(rule: Any) -> Any:
    def recorded(state: Any, start_line: int, end_line: int, silent: bool) -> bool:
        ok = bool(rule(state, start_line, end_line, silent))
        if ok and not silent:
            state.env.setdefault("skilldeck_references", []).append((start_line, state.line))
        return ok

    return recorded


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    for name, kinds in (
        ("html_inline", ("html_inline",)),
        ("link", ("link_open",)),
        ("image", ("image",)),
        ("backticks", ("code_inline",)),
        ("autolink", ("link_open",)),
    ):
        rule = next(r.fn for r in md.inline.ruler.__rules__ if r.name == name)
        md.inline.ruler.at(name, _record_inline(name, rule, kinds))
    reference = next(r.fn for r in md.block.ruler.__rules__ if r.name == "reference")
    md.block.ruler.at("reference", _record_references(reference))
    return md


_md: MarkdownIt | None = None


def _markdown_it() -> MarkdownIt:
    global _md  # noqa: PLW0603 - built on first use (its rules compile once)
    if _md is None:
        _md = _parser()
    return _md


@dataclass(frozen=True, slots=True)
class Rendered:
    """What markdown-it makes of a window: the hidden pieces and the code (fenced,
    indented and inline), offsets relative to the window; ``open``: HTML the window
    opened still hides what follows it."""

    hidden: tuple[Hidden, ...]
    code: tuple[tuple[int, int], ...]
    open: bool
    #: The inline code spans (``code`` holds the code blocks).
    spans: tuple[tuple[int, int], ...] = ()


_BLOCK_TAGS = {
    "paragraph": "p",
    "blockquote": "blockquote",
    "bullet_list": "ul",
    "ordered_list": "ol",
    "list_item": "li",
    "table": "table",
    "thead": "thead",
    "tbody": "tbody",
    "tr": "tr",
    "th": "th",
    "td": "td",
}


class _Window:
    """One window's text, its lines, and how a token's content maps to the source."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = Lines.of(text, 0, len(text))

    def line_span(self, first: int, last: int) -> tuple[int, int]:
        """Lines ``first:last`` as a range of the window."""
        count = len(self.lines.starts)
        if first >= count:
            return len(self.text), len(self.text)
        stop = self.lines.ends[min(last, count) - 1] if last > first else self.lines.starts[first]
        return self.lines.starts[first], stop

    def content_map(self, content: str, first_line: int, cursor: int = 0) -> SourceMap:
        """Map offsets of a token's ``content`` (lines of the source from
        ``first_line``, each with a prefix removed) to the window."""
        offsets: list[int] = []
        points: list[int] = []
        at = 0
        count = len(self.lines.starts)
        for number, part in enumerate(content.split("\n")):
            line = first_line + number
            if line >= count:
                break
            line_start, line_end = self.lines.starts[line], self.lines.ends[line]
            source = self.text[line_start:line_end]
            column = _locate(source, part, cursor if number == 0 else 0)
            offsets.append(at)
            points.append(line_start + column)
            at += len(part) + 1
        if not offsets:
            return SourceMap.at(0)
        return SourceMap(tuple(offsets), tuple(points))


def _locate(source: str, part: str, cursor: int) -> int:
    """Where ``part`` (a line of a token's content) sits in the source line."""
    if not part:
        return len(source.rstrip())
    trimmed = part.rstrip()
    body = source.rstrip()
    if trimmed and body.endswith(trimmed) and len(body) - len(trimmed) >= cursor:
        column = len(body) - len(trimmed)
        found = source.find(part, cursor)
        return found if 0 <= found <= column and source[found:].rstrip() == trimmed else column
    found = source.find(part, cursor)
    if found < 0 and trimmed:
        found = source.find(trimmed, cursor)
    return max(found, 0) if found >= 0 else min(cursor, len(source))


@lru_cache(maxsize=256)
def render(window: str) -> Rendered:
    """Parse ``window`` (whole top-level blocks) and follow what it renders."""
    md = _markdown_it()
    env: dict[str, Any] = {}
    tokens = md.parse(window, env)
    place = _Window(window)
    view = Visibility()
    code: list[tuple[int, int]] = []
    spans: list[tuple[int, int]] = []
    references = sorted(env.get("skilldeck_references", []))
    for token in tokens:
        if token.map is not None:
            while references and references[0][0] < token.map[0]:
                _reference(place, view, *references.pop(0))
        kind = token.type
        if kind.endswith("_open") and kind[:-5] in _BLOCK_TAGS:
            view.open(_BLOCK_TAGS[kind[:-5]])
        elif kind.endswith("_close") and kind[:-6] in _BLOCK_TAGS:
            view.close(_BLOCK_TAGS[kind[:-6]])
        elif kind == "heading_open":
            view.open(token.tag)
        elif kind == "heading_close":
            view.close(token.tag)
        elif kind in ("fence", "code_block") and token.map is not None:
            first, last = place.line_span(token.map[0], token.map[1])
            code.append((first, last))
            view.text(first, last)
            if kind == "fence" and token.info.strip():
                line_start, line_end = place.line_span(token.map[0], token.map[0] + 1)
                opener = window[line_start:line_end]
                at = opener.find(token.info.strip(), len(opener) - len(opener.lstrip(" \t>")))
                if at >= 0:
                    view.hide(
                        line_start + at,
                        line_start + at + len(token.info.strip()),
                        "a code fence's info string",
                    )
        elif kind == "html_block" and token.map is not None:
            where = place.content_map(token.content, token.map[0])
            view.raw(token.content, where)
        elif kind == "inline" and token.map is not None:
            _inline(place, view, token, spans)
    for reference in references:
        _reference(place, view, *reference)
    return Rendered(tuple(view.hidden), tuple(code), view.hiding() is not None, tuple(spans))


def _inline(place: _Window, view: Visibility, token: Any, code: list[tuple[int, int]]) -> None:
    """One inline token: its HTML, code spans, link titles and images, in order."""
    content: str = token.content
    where = place.content_map(content, token.map[0])
    at = 0
    for child in token.children or ():
        span = (child.meta or {}).get("src")
        if span is None:
            continue
        first, last = span
        if first < at:
            continue
        view.text(where(at), where(first))
        kind = child.type
        if kind == "html_inline":
            view.raw(content, where, first, last)
            at = last
        elif kind == "code_inline":
            code.append((where(first), where(last)))
            view.text(where(first), where(last))
            at = last
        elif kind == "image":
            label_end = content.find("](", first)
            if label_end < 0 or label_end > last:
                label_end = content.find("]", first, last)
            if label_end > first + 2:
                view.hide(where(first + 2), where(label_end), "image alt text", tooltip=True)
            _title(content, where, view, (label_end + 1, last), "an image title")
            view.text(where(first), where(last))
            at = last
        elif kind == "link_open" and child.markup != "autolink":
            # the label's own HTML and code follow as children; only the title here
            close = _label_end(content, first, last)
            if close is not None:
                _title(content, where, view, (close + 1, last), "a link title")
            view.text(where(first), where(first + 1))
            at = first + 1
        else:
            view.text(where(first), where(last))
            at = last
    view.text(where(at), where(len(content)))


def _label_end(content: str, first: int, last: int) -> int | None:
    """The ``]`` that closes a link's label starting at ``content[first]``."""
    depth = 0
    index = first
    while index < last:
        char = content[index]
        if char == "\\":
            index += 2
            continue
        if char == "`":
            close = content.find("`", index + 1, last)
            index = index + 1 if close < 0 else close + 1
            continue
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return None


def _title(
    content: str, where: SourceMap, view: Visibility, bounds: tuple[int, int], why: str
) -> None:
    """The title of an inline link or image whose ``(`` is at ``content[bounds[0]]``
    (the link ends at ``bounds[1]``)."""
    at, last = bounds
    if at >= last or content[at] != "(":
        return
    pos = at + 1
    while pos < last and content[pos] in " \t\n":
        pos += 1
    destination = parseLinkDestination(content, pos, last)
    if not destination.ok:
        return
    pos = destination.pos
    while pos < last and content[pos] in " \t\n":
        pos += 1
    title = parseLinkTitle(content, pos, last)
    if title.ok and title.pos - 1 > pos + 1:
        view.hide(where(pos + 1), where(title.pos - 1), why, tooltip=True)


_DEFINITION = re.compile(r"[ \t]{0,3}\[((?:[^\]\\]|\\.)*)\]:", re.DOTALL)


def _reference(place: _Window, view: Visibility, first_line: int, last_line: int) -> None:
    """A link reference definition: renders nowhere; it says its label and title."""
    start, end = place.line_span(first_line, last_line)
    text = place.text
    match = _DEFINITION.match(text, start, end)
    said = [] if match is None else [match.group(1)]
    if match is not None:
        pos = match.end()
        while pos < end and text[pos] in " \t\r\n":
            pos += 1
        destination = parseLinkDestination(text, pos, end)
        if destination.ok:
            pos = destination.pos
            while pos < end and text[pos] in " \t\r\n":
                pos += 1
            title = parseLinkTitle(text, pos, end)
            if title.ok and title.pos - 1 > pos + 1:
                said.append(text[pos + 1 : title.pos - 1])
    view.hide(start, end, "a link reference definition", said=" ".join(said))


# --- the body ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Structure:
    """The hidden pieces of a body, and the code markdown-it found in the windows it
    parsed (other code: the outline's fences)."""

    hidden: tuple[Hidden, ...]
    code: tuple[tuple[int, int], ...]
    outline: Outline | None
    #: The inline code spans in the windows parsed.
    spans: tuple[tuple[int, int], ...] = ()


#: An end tag's name; a start tag that closes an open ``<p>`` (``_html``'s list).
_END_TAG = re.compile(r"</([A-Za-z][^\s/>]*)")
_CLOSES_P_TAG = re.compile(
    r"<(?:" + "|".join(sorted(CLOSES_P, key=len, reverse=True)) + r")(?=[\s/>])", re.IGNORECASE
)


def _reaches_back(text: str, start: int, first: int, last: int) -> int | None:
    """Where raw HTML before ``text[first:last]`` may open an element that a tag in it
    closes (an end tag of that name, or a tag that closes an open ``<p>``): that element
    closes what the window opens inside it, so the window must start before it. ``None``:
    nothing before the window can matter (its elements are open in no reading that
    starts at ``first``, and only these tags reach past them)."""
    names = {match[1].lower() for match in _END_TAG.finditer(text, first, last)}
    if _CLOSES_P_TAG.search(text, first, last):
        names.add("p")
    if not names or first <= start:
        return None
    opener = re.compile(
        r"<(?:" + "|".join(re.escape(n) for n in sorted(names)) + r")(?=[\s/>]|$)",
        re.IGNORECASE,
    )
    found = opener.search(text, start, first)
    return None if found is None else found.start()


def _windows(
    text: str, start: int, end: int, plan: Outline, offsets: Iterable[int]
) -> list[tuple[int, int, Rendered]]:
    """markdown-it's reading of the windows around ``offsets`` (sorted): each from a
    restart point to the next one after its offset, joined when they overlap, widened
    while HTML in it still hides what follows, and started early enough that no element
    raw HTML opened before it is closed inside it (a restart point is one for Markdown's
    blocks, not for HTML's open elements: ``<div>`` in one HTML block, ``</div>`` in a
    later one closes a ``<p hidden>`` between them)."""
    done: list[tuple[int, int, Rendered]] = []
    for offset in offsets:
        if done and offset < done[-1][1]:
            continue
        first, last = plan.window(offset, end)
        while True:
            while done and first < done[-1][1]:
                # reaching back into windows already read: read them again as one
                before, after, _rendered = done.pop()
                first, last = min(first, before), max(last, after)
            rendered = render(text[first:last])
            if rendered.open and last < end:
                last = plan.after(last, end)
                continue
            back = _reaches_back(text, start, first, last)
            if back is None:
                break
            first = max(start, plan.window(back, end)[0])
        done.append((first, last, rendered))
    return done


def structure(
    text: str,
    start: int,
    end: int,
    chunks: Iterable[tuple[int, int]],
    *,
    also: Iterable[int] = (),
    found: Iterable[int] | None = None,
) -> Structure:
    """The hidden pieces of ``text[start:end]`` (a Markdown body), and the code around
    the offsets ``also`` (hits that must be checked against code) and the candidates."""
    found = list(found) if found is not None else candidates(text, chunks)
    extra = sorted(also)
    if not found and not extra:
        return Structure((), (), None)
    plan = outline(text, start, end, chunks)
    wanted = sorted(offset for offset in {*found, *extra} if not plan.in_code(offset))
    hidden: list[Hidden] = []
    code: list[tuple[int, int]] = []
    spans: list[tuple[int, int]] = []
    for first, _last, rendered in _windows(text, start, end, plan, wanted):
        hidden += (
            Hidden(first + h.start, first + h.end, h.why, h.tooltip, h.said)
            for h in rendered.hidden
        )
        code += ((first + a, first + b) for a, b in rendered.code)
        spans += ((first + a, first + b) for a, b in rendered.spans)
    return Structure(tuple(hidden), tuple(sorted(code)), plan, tuple(sorted(spans)))


def in_code(structure_: Structure, offset: int, *, spans: bool = True) -> bool:
    """Whether ``offset`` is in a code block (a window's, or the outline's fences), or
    in an inline code span (``spans``)."""
    if _within(structure_.code, offset) or (spans and _within(structure_.spans, offset)):
        return True
    return structure_.outline is not None and structure_.outline.in_code(offset)


def _within(ranges: tuple[tuple[int, int], ...], offset: int) -> bool:
    index = bisect_left(ranges, (offset + 1, -1)) - 1
    return index >= 0 and ranges[index][0] <= offset < ranges[index][1]

"""Splitting ``---`` frontmatter from the body and reading its YAML safely, with positions.

The YAML is read event by event (libyaml's C parser through ``ruamel.yaml.clib`` when
available, ruamel's pure-Python parser otherwise) and composed here, iteratively, into
plain Python values: ``str``, ``bool``, ``int``, ``float``, ``None``, ``list`` and ``dict``
with string keys. Scalars resolve by the YAML 1.2 core schema (so ``yes`` stays the text
``"yes"``; the invocation rule interprets such spellings). No tag constructs an object;
an unknown tag is ignored with a finding. Merge keys (``<<: *anchor``, ``<<: [*a, *b]``,
``<<: {...}``) merge as ruamel's safe loader merges them. Nesting depth and the number of
values after alias expansion are capped, so hostile YAML costs bounded time and memory.

Every top-level key and value keeps its span in the *document* (0-based lines,
code-point columns; line breaks are ``\\r\\n``, ``\\r`` and ``\\n`` as in LSP).

U+0085, U+2028 and U+2029 are line breaks to YAML and none to LSP; outside quotes,
with text after them on their line, libyaml and ruamel's pure parser read them
differently too. There they are ``SD103`` at the character (judged on the editor's
reading of the text, so with or without libyaml alike), before the YAML is composed.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from ruamel.yaml import events as yaml_events
from ruamel.yaml.nodes import MappingNode as _MappingNode
from ruamel.yaml.nodes import ScalarNode as _ScalarNode
from ruamel.yaml.nodes import SequenceNode as _SequenceNode

from skilldeck.engine.frontmatter._yaml_problems import (
    Edit,
    YamlProblem,
    explain,
    explain_break,
    explain_escape,
    explain_text_root,
)
from skilldeck.engine.rules import Finding, Fix, RelatedLocation, TextEdit, rule
from skilldeck.engine.text import LINE_BREAK, Position, Span

#: Frontmatter larger than this many UTF-8 bytes is not parsed (``SD106``). Real
#: frontmatter is a name, a description of at most ~1 KiB and some metadata; 64 KiB is
#: sixty times the Agent Skills standard's largest field and keeps one parse in the
#: low milliseconds even for hostile input.
MAX_FRONTMATTER_BYTES = 64 * 1024
#: Deepest collection nesting accepted (``SD107``).
MAX_YAML_DEPTH = 64
#: Most values (scalars and collections) accepted after alias expansion (``SD107``).
MAX_YAML_NODES = 50_000

_CLOSING_LINE = re.compile(r"^---\r?$", re.MULTILINE)
# Characters YAML 1.2 does not allow in a stream: c-printable's complement, spelt out
# (the negated class of c-printable took 5-7 ms to compile, at every process start).
_NOT_PRINTABLE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]"
)
_INT = re.compile(r"[-+]?[0-9]+")
_OCT = re.compile(r"0o[0-7]+")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_INF = re.compile(r"[-+]?\.(?:inf|Inf|INF)")
_NAN = re.compile(r"\.(?:nan|NaN|NAN)")
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_TRUES = frozenset({"true", "True", "TRUE"})
_FALSES = frozenset({"false", "False", "FALSE"})
_TAG_PREFIX = "tag:yaml.org,2002:"
_MERGE_TAG = _TAG_PREFIX + "merge"
# Line breaks YAML counts and LSP does not.
_YAML_ONLY_BREAK = re.compile("[\x85\u2028\u2029]")
# What stands in for each of them in the reading an editor makes of the text (a private
# use character: no line break, no space, nothing YAML gives a meaning), and back.
_STAND_INS = str.maketrans({"\x85": "\ue085", "\u2028": "\ue028", "\u2029": "\ue029"})
_STOOD_FOR = str.maketrans({"\ue085": "\x85", "\ue028": "\u2028", "\ue029": "\u2029"})
_STAND_IN = re.compile("[\ue085\ue028\ue029]")
# What follows a line break only YAML reads on its line, past spaces, tabs and such breaks.
_AFTER_BREAK = re.compile("[^ \t\x85\u2028\u2029]")
# The context of a parser error inside a quoted value.
_QUOTED_CONTEXT = "while scanning a quoted scalar"
# Opening lines after which the YAML starts at line 1, column 0.
_PLAIN_OPENINGS = frozenset({"---\n", "---\r\n", "\ufeff---\n", "\ufeff---\r\n"})
_STYLES = {"": "plain", "'": "single", '"': "double", "|": "literal", ">": "folded"}

try:  # libyaml through ruamel.yaml.clib: ~4x faster than the pure parser.
    from _ruamel_yaml import CParser as _CParser  # type: ignore[import-not-found]

    def _make_events(text: str) -> Callable[[], object]:
        return _CParser(text).get_event  # type: ignore[no-any-return]

    class _NodeLoader(_CParser):  # type: ignore[misc]
        """libyaml composing the node graph in C; every implicit tag stays ``None``."""

        def descend_resolver(self, *_: object) -> None:
            """No path-based resolution."""

        def ascend_resolver(self, *_: object) -> None:
            """No path-based resolution."""

        def resolve(self, *_: object) -> None:
            """Implicit scalars keep ``tag=None``; :func:`resolve_plain` types them."""

    def _compose_in_c(text: str) -> object:
        return _NodeLoader(text).get_single_node()

    _compose_nodes: Callable[[str], object] | None = _compose_in_c

    def _parser_error(text: str, error: Exception) -> Exception:
        """The pure parser's error for ``text`` that libyaml refused: errors read the same
        with or without ruamel.yaml.clib (the VS Code extension's bundled server has none),
        and they are rare enough to parse twice."""
        from ruamel.yaml.main import YAML  # noqa: PLC0415 - errors only

        try:
            for _ in YAML(typ="safe", pure=True).parse(text):
                pass
        except Exception as pure_error:  # any parser error is the answer
            return pure_error
        return error

except ImportError:  # pragma: no cover - exercised only without ruamel.yaml.clib

    def _make_events(text: str) -> Callable[[], object]:
        from ruamel.yaml.main import YAML  # noqa: PLC0415 - fallback only

        iterator: Iterator[object] = iter(YAML(typ="safe", pure=True).parse(text))
        return lambda: next(iterator)

    _compose_nodes = None  # the event composer reads everything

    def _parser_error(text: str, error: Exception) -> Exception:
        """The error the pure parser raised."""
        return error


Scalar = str | bool | int | float | None


@dataclass(frozen=True)
class FrontmatterEntry:
    """One top-level ``key: value`` of the frontmatter.

    ``value`` is plain Python data; ``style`` is how the value was written: ``plain``,
    ``single``, ``double``, ``literal``, ``folded``, ``mapping``, ``sequence`` or
    ``null`` (an empty value, ``~`` or ``null``).
    """

    key: str
    key_span: Span
    value: object
    value_span: Span
    style: str

    @property
    def span(self) -> Span:
        """From the start of the key to the end of the value."""
        return Span(self.key_span.start, max(self.key_span.end, self.value_span.end))


@dataclass(frozen=True)
class Frontmatter:
    """The parsed frontmatter of one document.

    ``entries`` are the top-level keys in file order, duplicates included; the keys a
    merge key (``<<``) brings in and no key written beside it overrides stand where the
    ``<<`` is, with the spans where they are written (in the anchored mapping). ``span``
    runs from the opening ``---`` line through the closing one; ``yaml_span`` covers
    the YAML text between them; ``body_start_line`` is the first line after the
    closing delimiter (it may equal the document's line count).
    """

    entries: tuple[FrontmatterEntry, ...]
    span: Span
    yaml_span: Span
    body_start_line: int

    def get(self, key: str) -> FrontmatterEntry | None:
        """The entry for ``key``; the last occurrence wins, as in YAML loaders."""
        for entry in reversed(self.entries):
            if entry.key == key:
                return entry
        return None


@dataclass(frozen=True)
class FrontmatterParse:
    """Result of :func:`parse_frontmatter`.

    ``frontmatter`` is ``None`` when the document has no usable frontmatter; then
    ``findings`` holds at least one finding that drops the skill. Non-fatal findings
    (ignored tags, ...) may accompany a frontmatter.
    """

    frontmatter: Frontmatter | None
    findings: tuple[Finding, ...] = ()
    #: Where the body starts (a code-point offset), when the frontmatter was parsed.
    body_start: int | None = None


@dataclass(frozen=True)
class FrontmatterBounds:
    """Where the delimiters are, as code-point offsets into the document."""

    yaml_start: int
    yaml_end: int
    body_start: int


class LineIndex:
    """Maps code-point offsets of a document prefix to :class:`Position`."""

    def __init__(self, text: str, end: int | None = None) -> None:
        limit = len(text) if end is None else end
        starts = [0]
        starts.extend(m.end() for m in LINE_BREAK.finditer(text, 0, limit))
        self._starts = starts
        self._limit = limit

    def position(self, offset: int) -> Position:
        """The position of ``offset`` (clamped into the indexed prefix)."""
        offset = max(0, min(offset, self._limit))
        line = bisect_right(self._starts, offset) - 1
        return Position(line, offset - self._starts[line])

    def span(self, start: int, end: int) -> Span:
        """The span between two offsets."""
        return Span(self.position(start), self.position(max(start, end)))

    def offset(self, position: Position) -> int:
        """The offset of ``position`` (the inverse of :meth:`position`; clamped)."""
        line = min(max(position.line, 0), len(self._starts) - 1)
        return min(self._starts[line] + max(position.character, 0), self._limit)


def find_frontmatter(text: str) -> FrontmatterBounds | str | None:
    """Locate the delimiters without parsing YAML.

    Returns the bounds, ``None`` when the first line is not ``---`` (missing), or the
    string ``"unterminated"`` when no closing line follows. A leading UTF-8 byte order
    mark is skipped.
    """
    start = 1 if text.startswith("\ufeff") else 0
    first_end = text.find("\n", start)
    if first_end < 0:
        # A file holding only the opening line (`---`, no line break): not closed (#31).
        return "unterminated" if text[start:].rstrip("\r") == "---" else None
    if text[start:first_end].rstrip("\r") != "---":
        return None
    yaml_start = first_end + 1
    match = _CLOSING_LINE.search(text, yaml_start)
    if match is None:
        return "unterminated"
    body_start = match.end() + 1 if match.end() < len(text) else len(text)
    return FrontmatterBounds(yaml_start, match.start(), body_start)


def first_line_span(text: str) -> Span:
    """The span of the document's first line (for whole-file findings)."""
    match = LINE_BREAK.search(text)
    return Span.at(0, 0, match.start() if match else len(text))


def missing_frontmatter(text: str) -> Finding:
    """SD101 for ``text``, whose first line is not ``---`` (:func:`find_frontmatter`
    returned ``None``), on that line, saying why.

    A file whose opening ``---`` ends in a lone carriage return (old Mac line endings)
    is told so: the delimiter lines end at ``\\n`` (a CR before it is tolerated), as
    the agents read them, so such a file is one long first line. No fix is offered:
    converting the line breaks rewrites the body, which a fix never touches.
    """
    start = 1 if text.startswith("\ufeff") else 0
    if text.startswith("---\r", start) and not text.startswith("---\r\n", start):
        problem = (
            "the opening '---' ends in a lone carriage return (CR), which skilldeck, like "
            "the agents, does not read as a line break; save the file with LF or CRLF line "
            "endings"
        )
    else:
        problem = "the first line must be exactly '---'"
    return rule("SD101").finding(first_line_span(text), problem=problem)


def parse_frontmatter(text: str, *, fast: bool = True) -> FrontmatterParse:
    """Split and parse the frontmatter of ``text``; never raises.

    ``fast=False`` always takes the event composer (the reference the fast path is
    tested against); the result is the same either way.
    """
    bounds = find_frontmatter(text)
    if bounds is None:
        return FrontmatterParse(None, (missing_frontmatter(text),))
    if isinstance(bounds, str):
        return FrontmatterParse(None, (rule("SD102").finding(first_line_span(text)),))
    yaml_text = text[bounds.yaml_start : bounds.yaml_end]
    if len(yaml_text) > MAX_FRONTMATTER_BYTES or (
        len(yaml_text) * 4 > MAX_FRONTMATTER_BYTES
        and len(yaml_text.encode("utf-8", "surrogatepass")) > MAX_FRONTMATTER_BYTES
    ):
        finding = rule("SD106").finding(first_line_span(text), cap="64 KiB")
        return FrontmatterParse(None, (finding,))
    if fast and text[: bounds.yaml_start] in _PLAIN_OPENINGS:
        entries = _compose_plain(yaml_text)
        if entries is not None:
            closing_line = 1 + _count_line_breaks(yaml_text)
            return FrontmatterParse(
                Frontmatter(
                    entries,
                    Span(Position(0, 0), Position(closing_line, 3)),
                    Span(Position(1, 0), Position(closing_line, 0)),
                    closing_line + 1,
                ),
                body_start=bounds.body_start,
            )
    index = LineIndex(text, bounds.body_start)
    closing = index.position(bounds.yaml_end)
    closing_end = index.position(bounds.yaml_end + 3)
    outline = Span(Position(0, 0), closing_end)
    yaml_span = Span(index.position(bounds.yaml_start), closing)
    body_line = closing.line + 1
    composer = _Composer(index, bounds.yaml_start)
    composer.run(yaml_text)
    if composer.fatal is not None:
        return FrontmatterParse(None, (*composer.findings, composer.fatal))
    frontmatter = Frontmatter(tuple(composer.entries), outline, yaml_span, body_line)
    return FrontmatterParse(frontmatter, tuple(composer.findings), bounds.body_start)


def describe_value(value: object) -> str:
    """A short description of a YAML value for messages: kind plus a preview."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {'true' if value else 'false'}"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        if not value:
            return "an empty string"
        if not value.strip():
            return "a blank string"
        return f"the string {display_text(value)!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__  # pragma: no cover - values are plain data


def display_text(value: str, limit: int = 60) -> str:
    """``value`` with control and invisible characters escaped, cut to ``limit``."""
    shown = "".join(
        f"\\u{ord(ch):04x}"
        if (ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 or ch in _INVISIBLE)
        else ch
        for ch in value[: limit + 1]
    )
    return shown if len(value) <= limit else shown[:limit] + "..."


_INVISIBLE = frozenset("\u200b\u200c\u200d\u200e\u200f\u2028\u2029\u2060\ufeff\u00ad")


# --- composition: the fast path --------------------------------------------------------

#: Most nesting the C composer is trusted with. It recurses on the C stack (30,000
#: levels crash the process; 10,000 do not), so text that *could* nest deeper than this
#: never reaches it: the event composer refuses such nesting (``SD107``) without
#: recursion.
_C_NESTING_BOUND = 256


def _nesting_bound(yaml_text: str) -> int:
    """An upper bound on how deep ``yaml_text`` can nest collections.

    Every level opens with ``[``, ``{``, a block ``-`` or ``?`` indicator, or (a block
    mapping inside a block mapping) a new line.
    """
    count = yaml_text.count
    return count("[") + count("{") + count("-") + count("?") + count("\n") + count("\r") + 1


#: A token name ruamel quotes as a Python tuple in a message (``('<stream end>',)``).
_TOKEN_TUPLE = re.compile(r"\('(<[^>']+>)',\)")
#: A UTF-16 surrogate: a character no text holds, made by a ``\\u`` escape.
_SURROGATE = re.compile("[\ud800-\udfff]")


class _NotPlain(Exception):
    """Internal: the fast path saw something only the event composer reports."""


def _compose_plain(yaml_text: str) -> tuple[FrontmatterEntry, ...] | None:
    """The entries of plain frontmatter composed in C, or ``None`` to use the events.

    "Plain" is what nearly every skill is: one mapping document with string keys, no
    duplicate keys, no merge keys (``<<``), no tags (no ``!``), no anchors or aliases
    (no ``&``), no line break LSP does not count (NEL, U+2028, U+2029), nothing the
    event composer would report.
    Anything else returns ``None`` and the event composer, which knows every finding,
    reads the text again; the result is the same either way (a property test holds the
    two paths to that). Positions come from libyaml's marks: the YAML starts at line 1,
    column 0 of the document (the caller checks the opening line).
    """
    if (
        _compose_nodes is None
        or "!" in yaml_text
        or "&" in yaml_text
        or _nesting_bound(yaml_text) > _C_NESTING_BOUND
        or _NOT_PRINTABLE.search(yaml_text) is not None
        or _YAML_ONLY_BREAK.search(yaml_text) is not None
    ):
        return None
    try:
        root = _compose_nodes(yaml_text)
    except Exception:  # every YAML error: the event composer words it with a position
        return None
    if type(root) is not _MappingNode:  # no tags: the text has no `!`
        return None
    entries: list[FrontmatterEntry] = []
    seen: set[str] = set()
    counter = [0]
    try:
        for key_node, value_node in root.value:
            key = _plain_key(key_node, seen)
            value, style = _plain_value(value_node, 1, counter)
            entries.append(
                FrontmatterEntry(key, _mark_span(key_node), value, _mark_span(value_node), style)
            )
    except _NotPlain:
        return None
    return tuple(entries)


def _mark_span(node: object) -> Span:
    start, end = node.start_mark, node.end_mark  # type: ignore[attr-defined]
    return Span(Position(start.line + 1, start.column), Position(end.line + 1, end.column))


def _count_line_breaks(text: str) -> int:
    """Line breaks as LSP counts them: ``\r\n``, ``\r`` and ``\n``."""
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def _plain_key(node: object, seen: set[str]) -> str:
    if type(node) is not _ScalarNode:
        raise _NotPlain
    key: str = node.value
    if key in seen or (key == "<<" and not node.style):
        raise _NotPlain  # a duplicate, or a merge key
    seen.add(key)
    return key


def _plain_value(node: object, depth: int, counter: list[int]) -> tuple[object, str]:
    """The value and style of a node; recursion is bounded by ``_C_NESTING_BOUND``."""
    counter[0] += 1
    if counter[0] > MAX_YAML_NODES:
        raise _NotPlain
    kind = type(node)
    if kind is _ScalarNode:
        raw: str = node.value  # type: ignore[attr-defined]
        style_char: str = node.style or ""  # type: ignore[attr-defined]
        value: Scalar = resolve_plain(raw) if style_char == "" else raw
        return value, ("null" if value is None else _STYLES.get(style_char, "plain"))
    if depth >= MAX_YAML_DEPTH:
        raise _NotPlain
    if kind is _SequenceNode:
        return [_plain_value(item, depth + 1, counter)[0] for item in node.value], "sequence"  # type: ignore[attr-defined]
    mapping: dict[str, object] = {}
    seen: set[str] = set()
    for key_node, value_node in node.value:  # type: ignore[attr-defined]
        mapping[_plain_key(key_node, seen)] = _plain_value(value_node, depth + 1, counter)[0]
    return mapping, "mapping"


# --- composition: the event composer ---------------------------------------------------


class _Abort(Exception):
    """Internal: stop composing with a fatal finding."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


@dataclass
class _Node:
    value: object
    start: int
    end: int
    style: str
    weight: int
    key_text: str | None  # the text to use when this node is a mapping key
    #: A mapping's keys after its merges, in its value's order, each where it is written.
    pairs: tuple[_Pair, ...] = ()
    #: A list's items (what a merge key's list merges).
    items: tuple[_Node, ...] = ()
    #: A merge key: a plain ``<<`` (or a ``!!merge`` tag) in a mapping key's place.
    merge: bool = False


@dataclass(frozen=True, slots=True)
class _Pair:
    """One ``key: value`` of a mapping: the key's text and offsets, the value's node."""

    key: str
    key_start: int
    key_end: int
    value: _Node


@dataclass
class _Frame:
    is_mapping: bool
    start: int
    anchor: str | None
    tag: str | None
    is_root: bool
    items: list[object] = field(default_factory=list)
    mapping: dict[str, object] = field(default_factory=dict)
    weight: int = 1
    key: _Node | None = None
    key_pending: bool = True
    seen: dict[str, int] = field(default_factory=dict)
    nodes: list[_Node] = field(default_factory=list)  # a list's items
    pairs: dict[str, _Pair] = field(default_factory=dict)  # the keys written, last wins
    #: What the merge key brings, in ruamel's order (a later pair wins); ``None``: no merge.
    merged: list[_Pair] | None = None
    merge_key: tuple[int, int] | None = None  # where the (first) merge key is written
    merge_entry: int = 0  # the root: where in the entries the merged keys go


class _Composer:
    """Builds plain values from parser events with an explicit stack.

    ``breaks``: judge the line breaks only YAML reads first (:func:`_break_read`);
    ``fixes``: offer fixes for the errors explained, each one checked first
    (:meth:`_gets_past`). The readings those checks make do neither.
    """

    def __init__(
        self, index: LineIndex, base: int, *, breaks: bool = True, fixes: bool = True
    ) -> None:
        self.index = index
        self.base = base
        self.breaks = breaks
        self.offer_fixes = fixes
        #: Where the fatal finding starts (an offset into the YAML text), if any.
        self.fatal_at: int | None = None
        #: Where the parser gave up, or composing stopped (an offset); the parser's error.
        self.stopped_at: int | None = None
        self.error: Exception | None = None
        #: Where the quoted scalars are (offsets into the YAML text), in text order.
        self.quoted: list[tuple[int, int]] = []
        self.entries: list[FrontmatterEntry] = []
        self.findings: list[Finding] = []
        self.fatal: Finding | None = None
        self.nodes = 0
        self.anchors: dict[str, _Node] = {}
        self.stack: list[_Frame] = []
        self.root: _Node | None = None
        self.root_frame_seen = False
        self.yaml_text = ""

    def span(self, start: int, end: int) -> Span:
        return self.index.span(self.base + start, self.base + end)

    def run(self, yaml_text: str) -> None:
        self._read(yaml_text)
        if self.fatal is not None:
            self.fatal_at = self.index.offset(self.fatal.span.start) - self.base

    def _read(self, yaml_text: str) -> None:
        self.yaml_text = yaml_text
        bad = _NOT_PRINTABLE.search(yaml_text)
        if bad is not None:
            char = f"U+{ord(bad.group()):04X}"
            self.fatal = rule("SD103").finding(
                self.span(bad.start(), bad.start() + 1),
                problem=f"character {char} is not allowed in YAML",
            )
            return
        if self.breaks and _YAML_ONLY_BREAK.search(yaml_text) is not None:
            editor = self._editor_reading(yaml_text, self.index, self.base)
            at = _break_read(yaml_text, editor, editor.stopped_at)
            if at is not None:
                self.fatal = self._break_finding(yaml_text, at, editor)
                return
            if editor.stopped_at is not None and _break_read(yaml_text, editor, None) is not None:
                # The editor's reading stops before a break YAML readers part on (what
                # YAML makes of the rest depends on the parser): its error is the verdict.
                self.fatal = _given_back(
                    self._yaml_error(editor.error, yaml_text)
                    if editor.error is not None
                    else editor.fatal
                )
                return
        try:
            self._consume(_make_events(yaml_text))
        except _Abort as abort:
            self.fatal = abort.finding
            self.stopped_at = self.index.offset(abort.finding.span.start) - self.base
        except Exception as error:
            self.error = _parser_error(yaml_text, error)
            self.stopped_at = _error_offset(self.error)
            self.fatal = self._yaml_error(self.error, yaml_text)
            error = self.error
            if _QUOTED_CONTEXT in str(getattr(error, "context", "")):
                # A quote never closed: the rest of the text is inside it.
                opened = getattr(getattr(error, "context_mark", None), "index", None)
                if isinstance(opened, int):
                    self.quoted.append((opened, len(yaml_text)))
        else:
            self._check_root(yaml_text)

    # --- the line breaks only YAML reads (U+0085, U+2028, U+2029) -----------------------

    def _editor_reading(self, yaml_text: str, index: LineIndex, base: int) -> _Composer:
        """``yaml_text`` read as an editor shows it: each line break only YAML reads
        stood in for by a character that breaks nothing (what a YAML 1.2 reader, such as
        the agents' js-yaml, makes of it). libyaml and ruamel's pure parser read such a
        text alike, so what is judged from it does not depend on the parser."""
        reading = _Composer(index, base, breaks=False, fixes=False)
        reading.run(yaml_text.translate(_STAND_INS))
        return reading

    def _break_finding(self, yaml_text: str, at: int, editor: _Composer) -> Finding:
        """SD103 for the line break at ``at``, with the fix that quotes its value when,
        quoted, the value reads as written (:meth:`_reads_as_written`)."""
        explained = explain_break(yaml_text, at)
        if self.offer_fixes:
            kept = tuple(
                fix for fix in explained.fixes if self._reads_as_written(yaml_text, fix[1], editor)
            )
            explained = replace(explained, fixes=kept)
        return self._invalid(explained)

    def _reads_as_written(self, yaml_text: str, edits: tuple[Edit, ...], editor: _Composer) -> bool:
        """True when, after ``edits``, the frontmatter reads as the editor's reading of
        ``yaml_text`` (every key and value the same, type-strictly); when that reading
        is no valid YAML either (`description: a<U+2028>b: c`), when the value the one
        edit quotes holds the text as written (its lines joined as a plain value joins
        them)."""
        if _STAND_IN.search(yaml_text) is not None:
            return False  # the stand-ins are written in the text: no telling them apart
        fixed, _ = _apply(yaml_text, edits)
        index = LineIndex(fixed)
        after = self._editor_reading(fixed, index, 0)
        if after.fatal is not None:
            return False
        if editor.fatal is None:
            return _as_read(after.entries) == _as_read(editor.entries)
        if len(edits) != 1:
            return False
        edit = edits[0]
        parts = LINE_BREAK.split(yaml_text[edit.start : edit.end])
        written = " ".join(part.strip(" \t") for part in parts)
        at = index.position(edit.start)
        return any(
            entry.value_span.start == at and _read(entry.value) == written
            for entry in after.entries
        )

    def _gets_past(self, edits: tuple[Edit, ...]) -> bool:
        """True when the YAML after ``edits`` reads past them: no error before the end
        of the last one (a fix that leaves the error where it was, or makes one in what
        it edited or before, is no fix; an error further on is the next one to fix:
        ``"C:\\Users\\q"`` has two)."""
        fixed, end = _apply(self.yaml_text, edits)
        probe = _Composer(LineIndex(fixed), 0, fixes=False)
        probe.run(fixed)
        return probe.fatal_at is None or probe.fatal_at >= end

    # --- explained errors -----------------------------------------------------------------

    def _yaml_error(self, error: Exception, yaml_text: str) -> Finding:
        """SD103 for a parser error: in the author's words where
        :func:`yaml_problems.explain` knows the cause, else the parser's."""
        problem = getattr(error, "problem", None) or getattr(error, "reason", None)
        offset = _error_offset(error)
        context = getattr(error, "context", None)
        context_offset = getattr(getattr(error, "context_mark", None), "index", None)
        explained = explain(
            yaml_text,
            problem=str(problem or ""),
            context=context if isinstance(context, str) else None,
            problem_offset=offset,
            context_offset=context_offset if isinstance(context_offset, int) else None,
            position=lambda at: self.span(at, at).start,
        )
        if explained is not None:
            return self._invalid(explained)
        # ruamel writes a token it did not expect as a tuple: "found ('<stream end>',)"
        text = _TOKEN_TUPLE.sub(r"'\1'", str(problem or type(error).__name__))
        if context and problem:
            text = f"{text} ({context})"
        return rule("SD103").finding(self.span(offset, offset), problem=text)

    def _check_root(self, yaml_text: str) -> None:
        if self.root_frame_seen or self.root is None:
            return  # a mapping (entries collected) or an empty document (no entries)
        root = self.root
        found = "null" if root.value is None else _kind(root.value, with_article=True)
        explained = explain_text_root(yaml_text) if isinstance(root.value, str) else None
        if explained is None:
            self.fatal = rule("SD104").finding(self.span(root.start, root.end), found=found)
            return
        self.fatal = rule("SD104").finding(
            self.span(explained.start, explained.end),
            fixes=self._fixes(explained),
            found=f"{found}: {explained.message}",
        )

    def _invalid(self, explained: YamlProblem) -> Finding:
        """SD103 for a YAML error explained in the author's words, with its fixes."""
        return rule("SD103").finding(
            self.span(explained.start, explained.end),
            fixes=self._fixes(explained),
            problem=explained.message,
        )

    def _fixes(self, explained: YamlProblem) -> tuple[Fix, ...]:
        """The fixes of ``explained`` that get the YAML past what they edit."""
        if not self.offer_fixes:
            return ()
        return tuple(
            Fix(title, tuple(TextEdit(self.span(e.start, e.end), e.text) for e in edits))
            for title, edits in explained.fixes
            if self._gets_past(edits)
        )

    def _consume(self, next_event: Callable[[], object]) -> None:
        documents = 0
        while True:
            event = next_event()
            kind = type(event)
            if kind is yaml_events.ScalarEvent:
                self._scalar(event)
            elif kind is yaml_events.MappingStartEvent or kind is yaml_events.SequenceStartEvent:
                self._start(event, kind is yaml_events.MappingStartEvent)
            elif kind is yaml_events.MappingEndEvent or kind is yaml_events.SequenceEndEvent:
                self._end(event)
            elif kind is yaml_events.AliasEvent:
                self._alias(event)
            elif kind is yaml_events.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    start = _mark(event, "start_mark")
                    raise _Abort(
                        rule("SD103").finding(
                            self.span(start, start),
                            problem="a second YAML document starts here; "
                            "frontmatter must be a single document",
                        )
                    )
            elif kind is yaml_events.StreamEndEvent:
                return

    def _count(self, weight: int, start: int) -> None:
        self.nodes += weight
        if self.nodes > MAX_YAML_NODES:
            raise _Abort(
                rule("SD107").finding(
                    self.span(start, start),
                    detail=f"more than {MAX_YAML_NODES:,} values after alias expansion",
                )
            )

    def _scalar(self, event: object) -> None:
        start, end = _mark(event, "start_mark"), _mark(event, "end_mark")
        raw: str = getattr(event, "value", "")
        tag: str | None = getattr(event, "tag", None)
        style_char = getattr(event, "style", None) or ""
        if style_char in ("'", '"') and not self._is_key():
            self.quoted.append((start, end))
        if style_char == '"' and _SURROGATE.search(raw) is not None:
            # The pure parser joins no "\ud83d\ude00" either, but keeps the halves as
            # characters where libyaml stops: the same error on both.
            explained = explain_escape(self.yaml_text, start)
            if explained is not None:
                raise _Abort(self._invalid(explained))
        value: Scalar
        merge = self._is_merge_key(raw, tag, style_char)
        if merge:
            value = raw
        elif tag is None or tag == "!":
            value = resolve_plain(raw) if style_char == "" and tag is None else raw
        else:
            value = self._tagged_scalar(raw, tag, start, end)
        style = "null" if value is None else _STYLES.get(style_char, "plain")
        node = _Node(value, start, end, style, 1, raw, merge=merge)
        self._count(1, start)
        self._remember(getattr(event, "anchor", None), node)
        self._complete(node)

    def _is_key(self) -> bool:
        """True when the scalar read now is a mapping's key."""
        return bool(self.stack) and self.stack[-1].is_mapping and self.stack[-1].key_pending

    def _is_merge_key(self, raw: str, tag: str | None, style_char: str) -> bool:
        """True for a scalar in a mapping key's place that ruamel's safe loader reads as
        a merge key: a plain ``<<`` (resolved to ``!!merge``), or any ``!!merge`` one."""
        if not self.stack:
            return False
        frame = self.stack[-1]
        if not (frame.is_mapping and frame.key_pending):
            return False
        return tag == _MERGE_TAG or (tag is None and style_char == "" and raw == "<<")

    def _tagged_scalar(self, raw: str, tag: str, start: int, end: int) -> Scalar:
        short = tag[len(_TAG_PREFIX) :] if tag.startswith(_TAG_PREFIX) else None
        if short == "str":
            return raw
        if short in ("int", "float", "bool", "null"):
            value = resolve_plain(raw)
            expected = {"int": int, "float": float, "bool": bool, "null": type(None)}[short]
            if isinstance(value, expected) and not (short == "int" and isinstance(value, bool)):
                return value
            if short == "float" and isinstance(value, int) and not isinstance(value, bool):
                return float(value)
        self.findings.append(
            rule("SD108").finding(self.span(start, end), tag=_short_tag(tag), kind="text")
        )
        return raw

    def _start(self, event: object, is_mapping: bool) -> None:
        start = _mark(event, "start_mark")
        if len(self.stack) >= MAX_YAML_DEPTH:
            raise _Abort(
                rule("SD107").finding(
                    self.span(start, start),
                    detail=f"collections nest deeper than {MAX_YAML_DEPTH} levels",
                )
            )
        is_root = not self.stack and self.root is None
        if is_root and is_mapping:
            self.root_frame_seen = True
        self.stack.append(
            _Frame(
                is_mapping=is_mapping,
                start=start,
                anchor=getattr(event, "anchor", None),
                tag=getattr(event, "tag", None),
                is_root=is_root,
            )
        )

    def _end(self, event: object) -> None:
        frame = self.stack.pop()
        end = _mark(event, "end_mark")
        value: object = frame.mapping if frame.is_mapping else frame.items
        expected = "map" if frame.is_mapping else "seq"
        if frame.tag not in (None, "!", _TAG_PREFIX + expected):
            kind = "mapping" if frame.is_mapping else "list"
            self.findings.append(
                rule("SD108").finding(
                    self.span(frame.start, frame.start), tag=_short_tag(frame.tag), kind=kind
                )
            )
        style = "mapping" if frame.is_mapping else "sequence"
        node = _Node(value, frame.start, end, style, frame.weight, None)
        if not frame.is_mapping:
            node.items = tuple(frame.nodes)
        elif frame.merged is None:
            node.pairs = tuple(frame.pairs.values())
        else:
            self._apply_merge(frame, node)
        self._count(1, frame.start)
        self._remember(frame.anchor, node)
        self._complete(node)

    def _alias(self, event: object) -> None:
        start, end = _mark(event, "start_mark"), _mark(event, "end_mark")
        name = getattr(event, "anchor", "")
        target = self.anchors.get(name)
        if target is None:
            raise _Abort(
                rule("SD103").finding(
                    self.span(start, end), problem=f"alias *{name} refers to no earlier anchor"
                )
            )
        self._count(target.weight, start)
        self._complete(
            _Node(
                target.value,
                start,
                end,
                target.style,
                target.weight,
                target.key_text if isinstance(target.value, str) else None,
                target.pairs,
                target.items,
            )
        )

    def _remember(self, anchor: str | None, node: _Node) -> None:
        if anchor:
            self.anchors[anchor] = node

    def _complete(self, node: _Node) -> None:
        if not self.stack:
            self.root = node
            return
        frame = self.stack[-1]
        frame.weight += node.weight
        if not frame.is_mapping:
            frame.items.append(node.value)
            frame.nodes.append(node)
            return
        if frame.key_pending:
            frame.key_pending = False
            frame.key = node
            return
        frame.key_pending = True
        key = frame.key
        frame.key = None
        if key is None:  # pragma: no cover - the parser always sends a key first
            return
        if key.merge:
            self._merge(frame, key, node)
            return
        if key.key_text is None:
            self.findings.append(
                rule("SD109").finding(
                    self.span(key.start, key.end), found=_kind(key.value, with_article=False)
                )
            )
            return
        key_span = self.span(key.start, key.end)
        first = frame.seen.get(key.key_text)
        if first is not None:
            first_span = self.span(first, first + len(key.key_text))
            self.findings.append(
                rule("SD105").finding(
                    key_span,
                    related=(
                        RelatedLocation("", first_span, f"'{key.key_text}' first defined here"),
                    ),
                    key=display_text(key.key_text),
                    first_line=first_span.start.line + 1,
                )
            )
        else:
            frame.seen[key.key_text] = key.start
        frame.mapping[key.key_text] = node.value
        frame.pairs[key.key_text] = _Pair(key.key_text, key.start, key.end, node)
        if frame.is_root:
            self.entries.append(
                FrontmatterEntry(
                    key=key.key_text,
                    key_span=key_span,
                    value=node.value,
                    value_span=self.span(node.start, node.end),
                    style=node.style,
                )
            )

    def _merge(self, frame: _Frame, key: _Node, value: _Node) -> None:
        """A merge key's value: the mappings whose keys ``frame`` takes where it has none.

        As ruamel's ``SafeConstructor.flatten_mapping``: a mapping, or a list of
        mappings of which the earlier wins; anything else is invalid YAML, and a second
        merge key in one mapping is a duplicate key. What the merge brings was counted
        with the value (its weight), so the alias expansion cap holds.
        """
        if frame.merge_key is not None:
            first_start, first_end = frame.merge_key
            first_span = self.span(first_start, first_end)
            self.findings.append(
                rule("SD105").finding(
                    self.span(key.start, key.end),
                    related=(RelatedLocation("", first_span, "'<<' first defined here"),),
                    key="<<",
                    first_line=first_span.start.line + 1,
                )
            )
            return
        frame.merge_key = (key.start, key.end)
        if isinstance(value.value, dict):
            sources = [value]
        elif isinstance(value.value, list):
            for item in value.items:
                if not isinstance(item.value, dict):
                    found = _kind(item.value, with_article=True)
                    raise _Abort(
                        self._bad_merge(item, key, f"a list of mappings, not one holding {found}")
                    )
            sources = list(reversed(value.items))
        else:
            found = _kind(value.value, with_article=True)
            raise _Abort(
                self._bad_merge(value, key, f"a mapping or a list of mappings, not {found}")
            )
        frame.merged = [pair for source in sources for pair in source.pairs]
        frame.merge_entry = len(self.entries)

    def _bad_merge(self, value: _Node, key: _Node, wanted: str) -> Finding:
        """SD103 for a merge of something else, at the value as written (an alias where
        the alias is), or at the key when no value is written."""
        start, end = (value.start, value.end) if value.end > value.start else (key.start, key.end)
        return rule("SD103").finding(
            self.span(start, end), problem=f"the merge key '<<' takes {wanted}"
        )

    def _apply_merge(self, frame: _Frame, node: _Node) -> None:
        """The value and pairs of a mapping with a merge key, as ruamel builds them: the
        merged keys first (a later pair wins), then the keys written, which win; at the
        root, the merged keys no written key overrides become entries where ``<<`` is."""
        assert frame.merged is not None
        final: dict[str, _Pair] = {}
        for pair in frame.merged:
            final[pair.key] = pair
        final.update(frame.pairs)
        node.value = {key: pair.value.value for key, pair in final.items()}
        node.pairs = tuple(final.values())
        if frame.is_root:
            self.entries[frame.merge_entry : frame.merge_entry] = [
                FrontmatterEntry(
                    key=key,
                    key_span=self.span(pair.key_start, pair.key_end),
                    value=pair.value.value,
                    value_span=self.span(pair.value.start, pair.value.end),
                    style=pair.value.style,
                )
                for key, pair in final.items()
                if key not in frame.pairs
            ]


def resolve_plain(raw: str) -> Scalar:
    """Resolve a plain (unquoted, untagged) scalar by the YAML 1.2 core schema."""
    if raw in _NULLS:
        return None
    if raw in _TRUES:
        return True
    if raw in _FALSES:
        return False
    first = raw[0]
    if not (first.isdigit() or first in "+-."):
        return raw
    try:
        if _INT.fullmatch(raw):
            return int(raw)
        if _OCT.fullmatch(raw):
            return int(raw[2:], 8)
        if _HEX.fullmatch(raw):
            return int(raw[2:], 16)
    except ValueError:  # more digits than Python converts (int_max_str_digits)
        return raw
    if _FLOAT.fullmatch(raw):
        return float(raw)
    if _INF.fullmatch(raw):
        return float("-inf") if raw.startswith("-") else float("inf")
    if _NAN.fullmatch(raw):
        return float("nan")
    return raw


def _error_offset(error: Exception) -> int:
    """Where a parser error says the parser gave up: an offset into the YAML text."""
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    offset = getattr(mark, "index", None)
    if isinstance(offset, int):
        return offset
    position = getattr(error, "position", None)
    return position if isinstance(position, int) else 0


def _break_read(yaml_text: str, editor: _Composer, limit: int | None) -> int | None:
    """The first line break only YAML reads (U+0085, U+2028, U+2029) that YAML readers
    disagree on, up to ``limit`` (an offset, or ``None``: the end), or ``None``: outside
    quoted values (per ``editor``, the editor's reading; a quoted key is no shelter, a
    key is one line) and followed on its line by text. Only there do libyaml (a new
    line, its column 0) and ruamel's pure parser (a line break, the column counted on)
    part, from each other and from an editor; inside quotes, or ending a line, all read
    it alike (unless the editor's reading stops at it: `key: |<U+2028>  `)."""
    starts = [start for start, _ in editor.quoted]
    text_at = -1
    end = len(yaml_text) if limit is None else min(limit + 1, len(yaml_text))
    for match in _YAML_ONLY_BREAK.finditer(yaml_text, 0, end):
        at = match.start()
        inside = bisect_right(starts, at) - 1
        if inside >= 0 and editor.quoted[inside][0] < at < editor.quoted[inside][1]:
            continue
        if at == limit:
            return at  # where the editor's reading stops: the break is what it trips on
        if text_at <= at:
            found = _AFTER_BREAK.search(yaml_text, at + 1)
            text_at = found.start() if found is not None else len(yaml_text)
        if text_at < len(yaml_text) and yaml_text[text_at] not in "\r\n":
            return at
    return None


def _given_back(finding: Finding | None) -> Finding | None:
    """A finding of the editor's reading, its message with the stand-ins given back."""
    if finding is None:
        return None
    return replace(finding, message=finding.message.translate(_STOOD_FOR))


def _apply(yaml_text: str, edits: tuple[Edit, ...]) -> tuple[str, int]:
    """``yaml_text`` with ``edits`` applied (offsets into it, none overlapping), and
    where the last edit ends in the result."""
    pieces: list[str] = []
    done = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        pieces += [yaml_text[done : edit.start], edit.text]
        done = max(done, edit.end)
    end = sum(len(piece) for piece in pieces)
    pieces.append(yaml_text[done:])
    return "".join(pieces), end


def _read(value: object) -> object:
    """A value as written, the stand-ins given back, in a type-strict comparable form."""
    if isinstance(value, dict):
        return (
            "map",
            tuple((str(key).translate(_STOOD_FOR), _read(v)) for key, v in value.items()),
        )
    if isinstance(value, list):
        return ("seq", tuple(_read(item) for item in value))
    if isinstance(value, str):
        return value.translate(_STOOD_FOR)
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


def _as_read(entries: list[FrontmatterEntry]) -> list[tuple[str, object]]:
    return [(entry.key.translate(_STOOD_FOR), _read(entry.value)) for entry in entries]


def _mark(event: object, name: str) -> int:
    mark = getattr(event, name, None)
    index = getattr(mark, "index", 0)
    return index if isinstance(index, int) else 0


def _short_tag(tag: str | None) -> str:
    if tag is None:
        return "!"
    return "!!" + tag[len(_TAG_PREFIX) :] if tag.startswith(_TAG_PREFIX) else tag


def _kind(value: object, *, with_article: bool) -> str:
    if isinstance(value, dict):
        return "a mapping" if with_article else "mapping"
    if isinstance(value, list):
        return "a list" if with_article else "list"
    return describe_value(value) if with_article else "scalar"

"""The state and the shared helpers of one file's checks: :class:`CheckContext`.

Every per-file check (a function of a family module, ``_sd2_name_description.py`` ...)
takes the context and the parsed frontmatter, appends its findings to
``ctx.findings`` and may set the fields later checks read (``ctx.name``,
``ctx.description``, ...). The helpers here are what several families need: the source
text of a span, where a visible character starts, adding or replacing a value, the
quote fix for a misread value, moving a key under ``metadata``, and :meth:`offer`, which
offers a fix only when its edits make exactly the intended change.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping

from skilldeck.engine.config import RuleSettings
from skilldeck.engine.frontmatter import (
    REMOVED,
    FixCheck,
    Frontmatter,
    FrontmatterEntry,
    FrontmatterParse,
    LineIndex,
    display_text,
    has_properties,
    replace_scalar,
    resolve_plain,
    scalar_source,
)
from skilldeck.engine.registry import InvocationPolicy
from skilldeck.engine.rules import Finding, Fix, TextEdit, get_profile
from skilldeck.engine.text import LINE_BREAK, Position, Span, collapse_whitespace

#: The keys DSH reads itself (never moved under ``metadata`` by a fix).
_DSH_INTERPRETED = frozenset({"disable-model-invocation", "user-invocable", "whenToUse"})


class CheckContext:
    """One skill file under check: its text and parse, the findings so far, the fields
    the checks read (name, description, ...), and the helpers every check shares
    (source text, spans, fixes that are offered only when exact)."""

    def __init__(
        self,
        text: str,
        path: str,
        expected_name: str | None,
        settings: RuleSettings,
        parsed: FrontmatterParse,
    ) -> None:
        self.text = text
        self.path = path
        self.expected_name = expected_name
        self.settings = settings
        #: The document's parse: the frontmatter, where the body starts, and the state
        #: before any fix (:class:`FixCheck` need not parse it again).
        self.parsed = parsed
        self.frontmatter = parsed.frontmatter
        self.findings: list[Finding] = []
        self.name: str | None = None
        self.description: str | None = None
        self.when_to_use: str | None = None
        self.metadata: Mapping[str, object] | None = None
        self.invocation = InvocationPolicy()
        self._lines: list[str] | None = None
        self._fix_check: FixCheck | None = None

    # helpers -------------------------------------------------------------------------

    @property
    def newline(self) -> str:
        """The document's line break, judged by its first line (for inserted lines)."""
        first = self.text.find("\n")
        return "\r\n" if first > 0 and self.text[first - 1] == "\r" else "\n"

    def line(self, number: int) -> str:
        """Line ``number`` of the frontmatter region (``""`` past it)."""
        if self._lines is None:
            end = self.parsed.body_start or 0
            self._lines = LINE_BREAK.split(self.text[:end])
        return self._lines[number] if number < len(self._lines) else ""

    def source(self, span: Span) -> str | None:
        """The text of a one-line span."""
        if span.start.line != span.end.line:
            return None
        return self.line(span.start.line)[span.start.character : span.end.character]

    def value_or_key_span(self, entry: FrontmatterEntry) -> Span:
        span = entry.value_span
        return span if span.start != span.end else entry.key_span

    @staticmethod
    def one_line_scalar(entry: FrontmatterEntry) -> bool:
        return (
            entry.style in ("plain", "single", "double")
            and entry.value_span.start.line == entry.value_span.end.line
            and entry.key_span.start.line == entry.value_span.start.line
        )

    def past_visible(self, entry: FrontmatterEntry, visible: int) -> Span:
        """From the source of the value's character after its first ``visible``
        characters that are not white space (as the catalog collapses it) to the value's
        end; the whole value when it has no such character or is not a scalar the
        source spells (:func:`~skilldeck.engine.frontmatter.scalar_source`)."""
        span = entry.value_span
        value = entry.value
        at = _nth_visible(value, visible) if isinstance(value, str) else None
        if at is None:
            return span
        found = self.value_chars_span(entry, at, at)
        return span if found is None else Span(found.start, span.end)

    def value_chars_span(self, entry: FrontmatterEntry, start: int, end: int) -> Span | None:
        """Where the source spells characters ``start`` to ``end`` (exclusive) of the
        entry's text value: inside quotes, escapes, folded and block scalars alike
        (:func:`~skilldeck.engine.frontmatter.scalar_source`); ``None`` when the value is
        not text the source spells (an alias, a tag, a merge key's value)."""
        if not isinstance(entry.value, str) or not entry.value:
            return None
        index = LineIndex(self.text, self.parsed.body_start)
        span = entry.value_span
        mapped = scalar_source(
            self.text, index.offset(span.start), index.offset(span.end), entry.style, entry.value
        )
        if mapped is None:
            return None
        return index.span(*mapped.source_range(start, end))

    def insert_line_after(self, entry: FrontmatterEntry | None) -> Position:
        assert self.frontmatter is not None
        if entry is None:
            return self.frontmatter.yaml_span.start
        end = entry.value_span.end
        return Position(end.line if end.character == 0 else end.line + 1, 0)

    # fixes ---------------------------------------------------------------------------

    def offer(
        self,
        title: str,
        edits: tuple[TextEdit, ...],
        changes: Mapping[str, object],
        *,
        unsafe: bool = False,
    ) -> tuple[Fix, ...]:
        """``(Fix(title, edits, unsafe),)`` when the edits make exactly ``changes`` to the
        top-level mapping and leave valid YAML (:meth:`FixCheck.exact`); else ``()``.
        ``unsafe``: the fix changes what the skill means (see :class:`Fix`)."""
        if self._fix_check is None:
            self._fix_check = FixCheck(self.text, parsed=self.parsed)
        if not edits or not self._fix_check.exact(edits, changes):
            return ()
        return (Fix(title, edits, unsafe),)

    def replace_value(self, entry: FrontmatterEntry, new_text: str) -> tuple[TextEdit, ...]:
        """Replace a one-line scalar value, keeping its anchor (an alias may use it)."""
        source = self.source(entry.value_span)
        if source is None:
            return ()
        return (TextEdit(entry.value_span, replace_scalar(source, new_text)),)

    def root_is_flow(self, fm: Frontmatter) -> bool:
        """True when the top-level mapping is written ``{...}`` (its first key follows ``{``)."""
        start = fm.yaml_span.start
        end = fm.entries[0].key_span.start if fm.entries else fm.yaml_span.end
        head: list[str] = []
        for number in range(start.line, end.line + 1):
            line = self.line(number)
            if number == end.line:
                line = line[: end.character]
            if number == start.line:
                line = line[start.character :]
            head.append(re.sub(r"(^|\s)#.*", "", line))
        return "{" in "".join(head)

    def add_entry(
        self, fm: Frontmatter, key: str, value: str, *, after: FrontmatterEntry | None
    ) -> tuple[TextEdit, ...]:
        """Edits adding ``key: value`` (plain text) to the top-level mapping: after
        ``after`` when given, else first; in the mapping's own style and indentation."""
        entries = fm.entries
        if self.root_is_flow(fm):
            if after is not None:
                at = after.value_span.end
                return (TextEdit(Span(at, at), f", {key}: {value}"),)
            if not entries:
                return ()
            at = entries[0].key_span.start
            return (TextEdit(Span(at, at), f"{key}: {value}, "),)
        indent = entries[0].key_span.start.character if entries else 0
        if entries and self.line(entries[0].key_span.start.line)[:indent].strip():
            return ()
        if after is not None:
            at = self.insert_line_after(after)
        elif entries and indent:
            at = Position(entries[0].key_span.start.line, 0)
        else:
            at = fm.yaml_span.start
        return (TextEdit(Span(at, at), f"{' ' * indent}{key}: {value}{self.newline}"),)

    def misread(self, entry: FrontmatterEntry) -> tuple[str, tuple[Fix, ...]]:
        """For text YAML resolved to a bool, number or null: message hint and quote fix.

        Only an unquoted, untagged one-line scalar qualifies; the fix wraps its source
        text, exactly as written, in double quotes.
        """
        if entry.style not in ("plain", "null") or isinstance(entry.value, str):
            return "", ()
        raw = self.source(entry.value_span)
        if not raw or isinstance(resolve_plain(raw), str):
            return "", ()  # empty, tagged or an alias: not a misread plain scalar
        value = entry.value
        kind = "null" if value is None else "a boolean" if isinstance(value, bool) else "a number"
        hint = (
            f" (YAML read the unquoted '{display_text(raw)}' as {kind}; quote it to keep the text)"
        )
        quoted = '"' + raw.replace("\\", "\\\\").replace('"', '\\"') + '"'
        edits = (TextEdit(entry.value_span, quoted),)
        return hint, self.offer("Quote the value", edits, {entry.key: raw})

    def max_length(self, key: str) -> int | None:
        """The active profile's length limit for ``key`` (``KeyInfo.max_length``)."""
        info = get_profile(self.settings.profile).key(key)
        return info.max_length if info is not None else None

    def nested_key_span(self, entry: FrontmatterEntry, key: object) -> Span:
        """The span of ``key`` (quotes included) in the block or flow mapping that is the
        entry's value: a key at the mapping's own level (not a deeper one) whose source
        spells ``key`` (:func:`~skilldeck.engine.frontmatter.scalar_source`: quoted,
        escaped); else the whole value."""
        span = entry.value_span
        index = LineIndex(self.text, self.parsed.body_start)
        start, end = index.offset(span.start), index.offset(span.end)
        wanted = str(key)
        for at in _mapping_key_starts(self.text, start, end, span.start.character):
            found = _key_token(self.text, at, end)
            if found is None:
                continue
            stop, style = found
            mapped = scalar_source(self.text, at, stop, style, wanted)
            inner = stop - 1 if style in ("single", "double") else stop
            if mapped is not None and mapped.ends and mapped.ends[-1] == inner:
                return index.span(at, stop)
        return span

    def move_to_metadata(self, fm: Frontmatter, entry: FrontmatterEntry) -> tuple[Fix, ...]:
        """Move a one-line ``key: value`` line under ``metadata`` (made when missing).

        Its trailing comment moves with it; a value that is not text is quoted. Not
        offered for an anchored or tagged value, an alias of a value that is not text,
        a key ``metadata`` already has, or a ``metadata`` that is not a plain block or
        flow mapping; and never unless the result is exactly the move.
        """
        if entry.key in _DSH_INTERPRETED or not self.one_line_scalar(entry):
            return ()
        line = entry.key_span.start.line
        source = self.source(entry.value_span)
        if entry.key_span.start.character != 0 or not source or has_properties(source):
            return ()
        tail = self.line(line)[entry.value_span.end.character :]
        if tail.strip() and not tail.lstrip().startswith("#"):
            return ()
        is_text = isinstance(entry.value, str)
        if not is_text and source.startswith("*"):
            return ()  # an alias of a number or boolean: quoting it would keep "*a"
        raw = source if is_text else json.dumps(source, ensure_ascii=False)
        moved = entry.value if is_text else source
        key_text = self.source(entry.key_span) or entry.key
        delete = TextEdit(Span(Position(line, 0), Position(line + 1, 0)), "")
        nl = self.newline
        metadata = fm.get("metadata")
        if metadata is None:
            at = self.insert_line_after(fm.entries[-1])
            insert = TextEdit(Span(at, at), f"metadata:{nl}  {key_text}: {raw}{tail}{nl}")
            new_metadata: dict[str, object] = {entry.key: moved}
        else:
            if not isinstance(metadata.value, dict) or entry.key in metadata.value:
                return ()
            new_metadata = {entry.key: moved, **metadata.value}
            first = self.line(metadata.value_span.start.line)[metadata.value_span.start.character :]
            if first.startswith("{"):
                if tail.strip():
                    return ()  # a comment cannot follow the key inside the braces
                at = Position(
                    metadata.value_span.start.line, metadata.value_span.start.character + 1
                )
                insert = TextEdit(Span(at, at), f"{key_text}: {raw}, ")
            elif (
                metadata.style == "mapping"
                and metadata.value_span.start.line > metadata.key_span.start.line
            ):
                indent = metadata.value_span.start.character
                at = Position(metadata.key_span.start.line + 1, 0)
                insert = TextEdit(Span(at, at), f"{' ' * indent}{key_text}: {raw}{tail}{nl}")
            else:
                return ()
        if delete.span.start < insert.span.start < delete.span.end:
            return ()
        edits = (delete, insert) if delete.span.start < insert.span.start else (insert, delete)
        changes = {entry.key: REMOVED, "metadata": new_metadata}
        return self.offer(f"Move '{entry.key}' under metadata", edits, changes, unsafe=True)


#: A per-file check: reads ``ctx`` and the frontmatter, appends findings to ``ctx.findings``.
Check = Callable[[CheckContext, Frontmatter], None]


def _nth_visible(value: str, visible: int) -> int | None:
    """The index in ``value`` of the character after its first ``visible`` characters
    that are not white space by :func:`collapse_whitespace`'s measure; ``None`` when
    there is none."""
    seen = 0
    for at, char in enumerate(value):
        if collapse_whitespace(char):
            if seen == visible:
                return at
            seen += 1
    return None


def _mapping_key_starts(text: str, start: int, end: int, column: int) -> list[int]:
    """Where the keys of the mapping spelt in ``text[start:end]`` may start: after ``{``
    and each ``,`` of a flow mapping (one level deep), or at ``column`` on each line of a
    block mapping (a deeper line is a nested value's)."""
    if text.startswith("{", start):
        starts: list[int] = []
        depth = 0
        quote = ""
        for at in range(start, end):
            char = text[at]
            if quote:
                quote = "" if char == quote and text[at - 1] != "\\" else quote
            elif char in "\"'":
                quote = char
            elif char in "{[":
                depth += 1
                if depth == 1:
                    starts.append(at + 1)
            elif char in "}]":
                depth -= 1
            elif char == "," and depth == 1:
                starts.append(at + 1)
        return [_skip_blank(text, at, end) for at in starts]
    line_start = start - column
    starts = []
    for match in LINE_BREAK.finditer(text, line_start, end):
        starts.append(match.end())
    return [line_start + column] + [
        at + column
        for at in starts
        if text[at : at + column].strip(" ") == ""
        and text[at + column : at + column + 1] not in " #\t\r\n"
    ]


def _skip_blank(text: str, at: int, end: int) -> int:
    while at < end and text[at] in " \t\r\n":
        at += 1
    return at


def _key_token(text: str, at: int, end: int) -> tuple[int, str] | None:
    """The end of the key spelt at ``at`` (a quoted scalar through its closing quote, a
    plain one up to ``:`` and a space) and its style; ``None`` when none is."""
    quote = text[at : at + 1]
    if quote in ("'", '"'):
        position = at + 1
        while position < end:
            char = text[position]
            if quote == '"' and char == "\\":
                position += 2
                continue
            if char == quote:
                if quote == "'" and text.startswith("''", position):
                    position += 2
                    continue
                return position + 1, "double" if quote == '"' else "single"
            position += 1
        return None
    position = at
    while position < end and text[position] not in "\r\n,{}":
        if text[position] == ":" and text[position + 1 : position + 2] in (
            "",
            " ",
            "\t",
            "\r",
            "\n",
        ):
            stop = position
            while stop > at and text[stop - 1] in " \t":
                stop -= 1
            return (stop, "plain") if stop > at else None
        position += 1
    return None

"""YAML parse errors in the author's words: what went wrong, where it started, a fix.

A YAML parser reports the place it gave up ("found character that cannot start any
token", an unclosed quote reported at the closing ``---``). :func:`explain` looks at the
frontmatter text around that place for the common causes and says them as an author
would: a tab used for indentation, a quote never closed, a missing space after a
key's ``:``, a ``: `` inside a plain value, a continuation line that is not indented.
Each explanation points at the cause and carries machine-applicable edits. Offsets
are code points into the YAML text; the caller turns them into spans.

:func:`explain_break` names the one cause no editor shows: U+0085, U+2028 and U+2029,
which YAML reads as line breaks (ruamel and libyaml read YAML 1.1's breaks) and LSP, so
an editor and skilldeck's positions, do not.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from skilldeck.engine.text import LINE_BREAK, Position

_NO_SPACE_KEY = re.compile(r"([ ]*)([A-Za-z_][A-Za-z0-9_-]*):(?=[^\s:/])")
_KEY_VALUE = re.compile(r"([ ]*)([^\s#:'\"][^:]*?):[ ]+(\S.*?)\s*$")
_TAB_WIDTH = "  "
#: The line breaks YAML reads and LSP (an editor) does not, with their names.
YAML_ONLY_BREAKS = {
    "\x85": "U+0085 NEXT LINE",
    "\u2028": "U+2028 LINE SEPARATOR",
    "\u2029": "U+2029 PARAGRAPH SEPARATOR",
}
#: Each of them as a double-quoted value writes it (kept as written, never folded).
_BREAK_ESCAPES = {ord(char): f"\\u{ord(char):04x}" for char in YAML_ONLY_BREAKS}
#: A line ``key: |`` or ``key: >`` (indicators, properties and a comment allowed).
_BLOCK_HEADER = re.compile(
    r"[ ]*(?:- )*([^\s#:'\"][^:]*?):[ ]+(?:[&!]\S*[ ]+)*[|>][-+1-9]*[ \t]*(?:#.*)?$"
)
#: A line's key (plain, or quoted: its quotes kept), with or without a value after it.
_KEY = re.compile(
    r"[ ]*(?:- )*(\"(?:[^\"\\]|\\.)*\"|'(?:[^']|'')*'|[^\s#:'\"][^:]*?)[ \t]*:(?:[ \t]|$)"
)
#: What a value that is not plain text starts with.
_NOT_PLAIN = frozenset("'\"|>[{&!*#")


@dataclass(frozen=True)
class Edit:
    """Replace ``start``-``end`` (offsets into the YAML text) with ``text``."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class YamlProblem:
    """One YAML error explained: the message, the cause's offsets and the fixes."""

    message: str
    start: int
    end: int
    fixes: tuple[tuple[str, tuple[Edit, ...]], ...] = ()


@dataclass(frozen=True)
class _Line:
    number: int
    start: int
    text: str


def _lines(text: str) -> list[_Line]:
    lines: list[_Line] = []
    start = 0
    for number, match in enumerate(LINE_BREAK.finditer(text)):
        lines.append(_Line(number, start, text[start : match.start()]))
        start = match.end()
    lines.append(_Line(len(lines), start, text[start:]))
    return lines


def _indent(text: str) -> str:
    """The leading spaces and tabs of a line."""
    return text[: len(text) - len(text.lstrip(" \t"))]


def _line_of(lines: list[_Line], offset: int) -> int:
    found = 0
    for line in lines:
        if line.start <= offset:
            found = line.number
    return found


def explain(
    yaml_text: str,
    *,
    problem: str,
    context: str | None,
    problem_offset: int,
    context_offset: int | None,
    position: Callable[[int], Position],
) -> YamlProblem | None:
    """The author-facing explanation of a YAML error, or ``None`` when none fits.

    ``position`` maps an offset of the YAML text to its document position (for the
    line and column a message quotes, 1-based).
    """
    lines = _lines(yaml_text)
    last = _line_of(lines, problem_offset)
    if "tab" in problem or "cannot start any token" in problem:
        found = _tab(lines[: last + 1], lines)
        if found is not None:
            return found
    if "mapping values are not allowed" in problem or "could not find expected ':'" in problem:
        found = _no_space(lines[: last + 1])
        if found is not None:
            return found
    if "cannot start any token" in problem and yaml_text[problem_offset : problem_offset + 1] in (
        "@",
        "`",
    ):
        return _reserved_start(yaml_text, lines, lines[last], problem_offset)
    if context is not None and "quoted scalar" in context and context_offset is not None:
        if yaml_text[context_offset : context_offset + 1] == '"':
            escape = explain_escape(yaml_text, context_offset)
            if escape is not None:
                return escape
        if "end of stream" in problem or "document" in problem:
            return _unclosed_quote(yaml_text, lines, context_offset, position)
        return None
    if "mapping values are not allowed" in problem:
        return _colon_in_value(yaml_text, lines, lines[last], problem_offset)
    if "could not find expected ':'" in problem and context_offset is not None:
        return _unindented(lines, _line_of(lines, context_offset))
    return None


def explain_text_root(yaml_text: str) -> YamlProblem | None:
    """Why frontmatter that YAML reads as one text is no mapping, when a ``key:value``
    line without a space after the colon explains it; else ``None``."""
    return _no_space(_lines(yaml_text))


def _tab(upto: list[_Line], lines: list[_Line]) -> YamlProblem | None:
    """A tab in a line's indentation (YAML indents with spaces only)."""
    first = next((line for line in upto if "\t" in _indent(line.text)), None)
    if first is None:
        return None
    indent = _indent(first.text)
    edits = tuple(
        Edit(line.start, line.start + len(lead), lead.replace("\t", _TAB_WIDTH))
        for line in lines
        for lead in (_indent(line.text),)
        if "\t" in lead
    )
    return YamlProblem(
        "tab used for indentation; YAML needs spaces",
        first.start + indent.index("\t"),
        first.start + len(indent),
        (("Replace the indentation tabs with spaces", edits),),
    )


def _no_space(upto: list[_Line]) -> YamlProblem | None:
    """``key:value``: without a space after the colon YAML reads one plain text."""
    for line in upto:
        match = _NO_SPACE_KEY.match(line.text)
        if match is None or ": " in line.text:
            continue
        colon = line.start + match.end()
        written = line.text.strip()
        shown = written if len(written) <= 40 else written[:37] + "..."
        return YamlProblem(
            f"missing space after ':' in '{shown}'; YAML reads the line as text, "
            f"not as the key '{match.group(2)}'",
            colon - 1,
            colon,
            ((f"Insert a space after '{match.group(2)}:'", (Edit(colon, colon, " "),)),),
        )
    return None


def _unclosed_quote(
    yaml_text: str, lines: list[_Line], opened: int, position: Callable[[int], Position]
) -> YamlProblem | None:
    quote = yaml_text[opened : opened + 1]
    if quote not in ("'", '"'):
        return None
    at = position(opened)
    line = lines[_line_of(lines, opened)]
    end = line.start + len(line.text.rstrip())
    kind = "double" if quote == '"' else "single"
    message = f"{kind} quote opened at {at.line + 1}:{at.character + 1} is never closed"
    written = yaml_text[line.start : end]
    if quote == '"' and (len(written) - len(written.rstrip("\\"))) % 2:
        # The line ends in a backslash: a quote added there would be escaped by it.
        return YamlProblem(message, opened, opened + 1)
    return YamlProblem(
        message,
        opened,
        opened + 1,
        ((f"Close the quote at the end of line {at.line + 1}", (Edit(end, end, quote),)),),
    )


#: The characters a backslash may escape in a double-quoted YAML value (YAML 1.2,
#: ``ns-esc-char``, besides the hexadecimal ``x``, ``u`` and ``U`` and a line break).
_SIMPLE_ESCAPES = frozenset('0abt\tnvfre "/\\N_LP')
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def explain_escape(yaml_text: str, opened: int) -> YamlProblem | None:
    """The first backslash escape YAML rejects in the double-quoted value opened at
    ``opened`` (``"C:\\Users"``: ``\\U`` wants eight hexadecimal digits), or ``None``
    when every escape up to the closing quote is valid. Also asked when the pure parser
    read ``"\\ud83d"`` as half a character where libyaml stops."""
    at = opened + 1
    end = len(yaml_text)
    while at < end:
        char = yaml_text[at]
        if char == '"':
            return None
        if char != "\\":
            at += 1
            continue
        follower = yaml_text[at + 1 : at + 2]
        if follower in _SIMPLE_ESCAPES or follower in ("\n", "\r"):
            at += 2
            continue
        width = _HEX_ESCAPES.get(follower)
        if width is None:
            return _literal_backslash(at, f"'\\{follower}' is not an escape YAML knows")
        digits = yaml_text[at + 2 : at + 2 + width]
        if len(digits) < width or not _HEX_DIGITS.issuperset(digits):
            return _literal_backslash(
                at, f"'\\{follower}' must be followed by {width} hexadecimal digits"
            )
        code = int(digits, 16)
        if 0xD800 <= code <= 0xDFFF:
            return _surrogate_escape(yaml_text, at, code)
        if code > 0x10FFFF:
            return YamlProblem(
                f"'{yaml_text[at : at + 2 + width]}' is beyond the last Unicode character",
                at,
                at + 2 + width,
            )
        at += 2 + width
    return None


def _literal_backslash(at: int, why: str) -> YamlProblem:
    """An escape YAML rejects: most often a Windows path or a regular expression, whose
    backslash the author meant as written."""
    return YamlProblem(
        f"{why} in a double-quoted value; write '\\\\' for a backslash, or quote the "
        "value with single quotes",
        at,
        at + 2,
        (("Escape the backslash", (Edit(at, at, "\\"),)),),
    )


def _surrogate_escape(yaml_text: str, at: int, code: int) -> YamlProblem:
    """``\\ud83d\\ude00``: JSON's way to write one character as a UTF-16 pair, which YAML
    does not join; the pair is the character ``\\U0001F600`` names."""
    written = yaml_text[at : at + 6]
    low = yaml_text[at + 6 : at + 12]
    message = (
        f"'{written}' is half of a UTF-16 surrogate pair, which YAML does not join; "
        "write the character itself or its '\\U' escape of 8 digits"
    )
    if (
        code <= 0xDBFF
        and low[:2] == "\\u"
        and _HEX_DIGITS.issuperset(low[2:])
        and len(low) == 6
        and 0xDC00 <= int(low[2:], 16) <= 0xDFFF
    ):
        joined = 0x10000 + ((code - 0xD800) << 10) + (int(low[2:], 16) - 0xDC00)
        escape = f"\\U{joined:08X}"
        return YamlProblem(
            message, at, at + 12, ((f"Write it as '{escape}'", (Edit(at, at + 12, escape),)),)
        )
    return YamlProblem(message, at, at + 6)


def _quote_value(
    yaml_text: str, lines: list[_Line], line: _Line
) -> tuple[str, tuple[Edit, ...]] | None:
    """The fix that wraps a ``key: value`` line's plain value in double quotes: up to a
    comment (`` #``, which stays a comment), and over its continuation lines (more
    indented than the key; a double-quoted value folds its lines as the plain one did)."""
    match = _KEY_VALUE.match(line.text)
    if match is None:
        return None
    start, end = line.start + match.start(3), line.start + match.end(3)
    comment = yaml_text.find(" #", start, end)
    if comment >= 0:
        end = len(yaml_text[:comment].rstrip())
        if end <= start:
            return None
    else:
        key_indent = len(match.group(1))
        for following in lines[line.number + 1 :]:
            written = following.text.strip()
            lead = _indent(following.text)
            if not written or written.startswith("#") or len(lead) <= key_indent:
                break
            if " #" in written or "\t" in lead:
                return None  # a comment or a tab in the continuation: left to the author
            end = following.start + len(following.text.rstrip())
    value = yaml_text[start:end]
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').translate(_BREAK_ESCAPES)
    return ("Quote the value", (Edit(start, end, '"' + escaped + '"'),))


def _reserved_start(yaml_text: str, lines: list[_Line], line: _Line, at: int) -> YamlProblem:
    """``key: @x`` or ``key: `x```: YAML reserves these characters at a value's start."""
    char = yaml_text[at]
    fix = _quote_value(yaml_text, lines, line)
    return YamlProblem(
        f"a value cannot start with '{char}' unquoted (YAML reserves it); quote the value",
        at,
        at + 1,
        (fix,) if fix is not None else (),
    )


def _colon_in_value(
    yaml_text: str, lines: list[_Line], line: _Line, colon: int
) -> YamlProblem | None:
    """``key: text: more``: the second ``: `` would start a nested mapping."""
    match = _KEY_VALUE.match(line.text)
    if match is None or not line.start + match.start(3) < colon:
        return None
    fix = _quote_value(yaml_text, lines, line)
    return YamlProblem(
        f"': ' inside the value of '{match.group(2)}' starts a nested mapping; quote the value",
        colon,
        colon + 1,
        (fix,) if fix is not None else (),
    )


def _unindented(lines: list[_Line], number: int) -> YamlProblem | None:
    """A line with no ``key:`` under a ``key: value`` line: a continuation of the
    value that is not indented."""
    line = lines[number]
    previous = next((lines[n] for n in range(number - 1, -1, -1) if lines[n].text.strip()), None)
    if previous is None or not line.text.strip() or _KEY_VALUE.match(line.text):
        # A line that reads as `key: value` is no continuation (indenting it would make
        # its key part of the value above): the parser saw another line here.
        return None
    match = _KEY_VALUE.match(previous.text)
    text_start = line.start + len(_indent(line.text))
    span = (text_start, line.start + len(line.text.rstrip()))
    if match is None:
        return YamlProblem("this line is not a 'key: value' pair", *span)
    indent = " " * (len(match.group(1)) + 2)
    return YamlProblem(
        f"this line continues the value of '{match.group(2)}' but is not indented; "
        "indent it or quote the whole value",
        *span,
        (("Indent the line", (Edit(line.start, text_start, indent),)),),
    )


def explain_break(yaml_text: str, at: int) -> YamlProblem:
    """The YAML error caused by the line break at ``at`` that YAML reads and an editor
    does not (:data:`YAML_ONLY_BREAKS`), by where it stands: in a block value, in a plain
    value (fixed by quoting the value, the character written as its escape), in a key,
    or elsewhere. The caller offers the fix only when the value then reads as written."""
    lines = _lines(yaml_text)
    line = lines[_line_of(lines, at)]
    column = at - line.start
    char = yaml_text[at : at + 1]
    named = YAML_ONLY_BREAKS.get(char, f"U+{ord(char or ' '):04X}")
    said = " as a line break (an editor shows none), so "
    block = _block_key(lines, line)
    if block is not None:
        return YamlProblem(
            f"YAML reads {named} in the block value of '{_shown(block)}'{said}the text after "
            "it starts a new line outside the block; remove the character or break the line "
            "there",
            at,
            at + 1,
        )
    comment = _comment_start(line.text)
    if comment is not None and comment < column:
        return YamlProblem(
            f"YAML reads {named} in a comment{said}the text after it is no comment; "
            "remove the character",
            at,
            at + 1,
        )
    pair = _KEY_VALUE.match(line.text)
    key = _KEY.match(line.text)
    if pair is not None and column >= pair.start(3) and pair.group(3)[0] not in _NOT_PLAIN:
        fix = _quote_value(yaml_text, lines, line)
        name = key.group(1) if key is not None else pair.group(2)
        return YamlProblem(
            f"YAML reads {named} in the unquoted value of '{_shown(name)}'{said}the "
            "text after it starts a new line; quote the value",
            at,
            at + 1,
            (fix,) if fix is not None else (),
        )
    if key is not None and column < key.end(1):
        return YamlProblem(
            f"YAML reads {named} in the key '{_shown(key.group(1))}'{said}the key ends there; "
            "remove the character",
            at,
            at + 1,
        )
    return YamlProblem(
        f"YAML reads {named}{said}the text after it starts a new line; remove the "
        "character, or quote the value it is in",
        at,
        at + 1,
    )


def _comment_start(text: str) -> int | None:
    """Where a comment starts on a line that is no block value's (a ``#`` first or after
    a space or tab, outside quotes), or ``None``."""
    quote = ""
    at = 0
    while at < len(text):
        char = text[at]
        if quote:
            if char == "\\" and quote == '"':
                at += 1
            elif char == quote:
                quote = ""
        elif char in "'\"" and (at == 0 or text[at - 1] in " \t[{,:-"):
            quote = char
        elif char == "#" and (at == 0 or text[at - 1] in " \t"):
            return at
        at += 1
    return None


def _block_key(lines: list[_Line], line: _Line) -> str | None:
    """The key of the block value (``key: |``, ``key: >``) that ``line`` is a line of."""
    indent = len(line.text) - len(line.text.lstrip(" "))
    for previous in reversed(lines[: line.number]):
        text = previous.text
        if not text.strip(" \t"):
            continue
        lead = len(text) - len(text.lstrip(" "))
        if lead >= indent:
            continue
        header = _BLOCK_HEADER.match(text)
        if header is not None:
            return header.group(1)
        indent = lead  # a line of the value that holds this one: look above it
    return None


def _shown(text: str) -> str:
    """A key as a message quotes it: the breaks an editor hides written as escapes."""
    shown = text.translate(_BREAK_ESCAPES)
    return shown if len(shown) <= 40 else shown[:37] + "..."

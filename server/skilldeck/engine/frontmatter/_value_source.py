"""Where each character of a parsed YAML scalar is spelt in the source: the span helper.

A value's text is not its source: a double-quoted scalar spells characters as escapes
(``\\u200b``, ``\\t``, an escaped line break that joins two lines), a single-quoted one
doubles its quotes, and every flow scalar folds its line breaks (and the indentation
around them) into spaces; a block scalar (``|``, ``>``) drops its header and its
indentation, and a folded one its single line breaks. :func:`scalar_source` maps each
character of the parsed value back to the source range that spells it, so a rule can
point at the words it found inside a value instead of at the whole value.

The map is made by walking the parsed value and its source together: every character
that is not YAML white space (space, tab, line break) is spelt by exactly one source
character or escape, in order, so the walk is unique; white space stands for the source
white space at that place (a folded line break, kept line breaks, indentation). The
node's properties (an anchor ``&a``, a tag ``!!str``) before the value are skipped. When
the walk cannot match (an alias, a comment between a property and the value, a value
changed by a merge key), the answer is ``None`` and the caller keeps its own, coarser
span. :func:`scalar_text_range` is the range of the value's own text (what a rename
replaces), from its first character that is not white space to its last.
"""

from __future__ import annotations

from dataclasses import dataclass

#: YAML's white space and line breaks: what folding and indentation are made of.
_WHITE = " \t\r\n"

_ESCAPES = {
    "0": "\x00",
    "a": "\x07",
    "b": "\x08",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\x0b",
    "f": "\x0c",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}

#: The styles a string value can be written in (``FrontmatterEntry.style``).
SCALAR_STYLES = frozenset({"plain", "single", "double", "literal", "folded"})


@dataclass(frozen=True)
class ScalarSource:
    """For character ``i`` of a parsed scalar, ``starts[i]`` and ``ends[i]`` delimit
    the source text that spells it (offsets into the document)."""

    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def source_range(self, start: int, end: int) -> tuple[int, int]:
        """The source range spelling the value's characters ``start`` to ``end``
        (exclusive; an empty range sits where character ``start`` is spelt)."""
        if not self.starts:
            return (0, 0)
        start = min(max(start, 0), len(self.starts) - 1)
        if end <= start:
            return (self.starts[start], self.starts[start])
        last = min(end, len(self.ends)) - 1
        return (self.starts[start], max(self.starts[start], self.ends[last]))


def scalar_source(text: str, start: int, end: int, style: str, value: str) -> ScalarSource | None:
    """Where each character of ``value`` is spelt in ``text``, whose ``[start, end)`` is
    the scalar's source (the value's span: from its opening quote or block indicator to
    its end) written in ``style`` (``plain``, ``single``, ``double``, ``literal``,
    ``folded``). ``None`` when the source does not spell ``value`` that way."""
    if style not in SCALAR_STYLES:
        return None
    start = _past_properties(text, start, end)
    at: int | None = start + 1 if style in ("single", "double") else start
    if style in ("literal", "folded"):
        at = _after_header(text, start, end)
    if at is None:
        return ScalarSource((), ()) if not value else None
    walk = _Walk(text, at, end, style == "double", style == "single")
    for char in value:
        if not walk.step(char):
            return None
    return ScalarSource(tuple(walk.starts), tuple(walk.ends))


def scalar_text_range(
    text: str, start: int, end: int, style: str, value: str
) -> tuple[int, int] | None:
    """The source range of ``value``'s own text (arguments as :func:`scalar_source`'s):
    from where its first character that is not white space is spelt to where its last
    one is, so quotes, properties, a block header and indentation stay outside it;
    ``None`` when the source does not spell ``value`` or it is all white space."""
    first = len(value) - len(value.lstrip(_WHITE))
    last = len(value.rstrip(_WHITE))
    mapped = scalar_source(text, start, end, style, value) if last > first else None
    return None if mapped is None else mapped.source_range(first, last)


def _past_properties(text: str, start: int, end: int) -> int:
    """``start`` moved past the node's anchor and tag (``&a !!str "x"``: at the quote)."""
    at = start
    while at < end and text[at] in "&!":
        while at < end and text[at] not in _WHITE:
            at += 1
        while at < end and text[at] in " \t":
            at += 1
    return at


def _after_header(text: str, start: int, end: int) -> int | None:
    """The offset after a block scalar's header line (``|-``, ``>2 # comment``)."""
    for index in range(start, end):
        char = text[index]
        if char == "\n":
            return index + 1
        if char == "\r":
            return index + 2 if text.startswith("\r\n", index) else index + 1
    return None


class _Walk:
    """The parsed value and its source walked together, one parsed character a step."""

    def __init__(self, text: str, at: int, end: int, double: bool, single: bool) -> None:
        self.text = text
        self.at = at
        self.end = end
        self.double = double
        self.single = single
        self.starts: list[int] = []
        self.ends: list[int] = []

    def spelt(self, start: int, end: int) -> bool:
        self.starts.append(start)
        self.ends.append(end)
        self.at = end
        return True

    def step(self, char: str) -> bool:
        """Match ``char``, the parsed value's next character, in the source."""
        text = self.text
        while True:
            if self.at >= self.end:
                # Kept trailing line breaks may end past the scalar's span.
                return char in _WHITE and self.spelt(self.end, self.end)
            here = text[self.at]
            if self.double and here == "\\":
                if self._escaped_break():
                    continue
                decoded, length = _escape(text, self.at)
                return decoded == char and self.spelt(self.at, self.at + length)
            if self.single and here == "'":
                return (
                    char == "'"
                    and text.startswith("''", self.at)
                    and self.spelt(self.at, self.at + 2)
                )
            if here == char:
                return self.spelt(self.at, self.at + 1)
            if here not in _WHITE:
                return False
            if char in _WHITE:
                # A folded line break or indentation stands for this white space.
                return self.spelt(self.at, self.at + 1)
            # Indentation, a folded line break's surroundings: not in the value.
            while self.at < self.end and text[self.at] in _WHITE:
                self.at += 1

    def _escaped_break(self) -> bool:
        """Skip ``\\`` at the end of a line, the break and the next line's indentation
        (an escaped line break joins the lines with nothing between them)."""
        text = self.text
        after = self.at + 1
        if after >= self.end or text[after] not in "\r\n":
            return False
        after += 2 if text.startswith("\r\n", after) else 1
        while after < self.end and text[after] in " \t":
            after += 1
        self.at = after
        return True


def _escape(text: str, at: int) -> tuple[str | None, int]:
    """The character a double-quoted escape at ``at`` spells, and the escape's length."""
    kind = text[at + 1 : at + 2]
    simple = _ESCAPES.get(kind)
    if simple is not None:
        return simple, 2
    digits = _HEX_ESCAPES.get(kind)
    if digits is None:
        return None, 1
    spelt = text[at + 2 : at + 2 + digits]
    try:
        return chr(int(spelt, 16)), 2 + digits
    except ValueError:
        return None, 1

"""What the HTML in a Markdown file hides from a reader, as a browser reads it.

A Markdown renderer passes raw HTML through; what a reader then sees is decided by the
HTML parser of the page (a browser, a preview, GitHub's sanitizer, which parses with an
HTML5 tokenizer too). :class:`Visibility` follows the rendered document in order -- the
raw HTML pieces (HTML blocks, inline HTML) and the text Markdown renders between them --
with the tokenizer rules of the WHATWG HTML standard (section 13.2.5) for the constructs
that hide text, and a stack of open elements for what hides their content:

- comments (``<!-- ... -->``, closed by ``-->`` or ``--!>``; ``<!-->`` and ``<!--->`` are
  empty), processing instructions (``<?...>``), declarations (``<!DOCTYPE ...>``,
  ``<!x ...>``) and CDATA sections, which HTML reads as bogus comments closed by the
  first ``>``; each hides its whole text;
- elements hidden by the ``hidden`` attribute (any value), by a ``style`` that hides
  them (``display: none``, ``visibility: hidden``, ``opacity: 0``, ``font-size: 0``,
  zero size with ``overflow: hidden``, ``color: transparent``, far off-screen
  positions, ``clip``, ``transform: scale(0)``; quoted or not), ``<input
  type=hidden>``, a ``<dialog>`` that is not ``open``, and the elements a browser never
  renders (``<template>``, ``<script>``, ``<style>``, ``<noscript>``, ``<title>``,
  ``<iframe>``, ``<noembed>``, ``<noframes>``, ``<head>``, ``<datalist>``, ``<object>``
  fallback, ``<svg>``'s ``<desc>``/``<metadata>``): everything inside them, nested
  elements included, until their end tag -- or the end of the document when there is
  none, as a browser does;
- a construct the renderer leaves open: a comment, a tag or a raw-text element
  (``<script>``) that an HTML block ends without closing swallows the rendered text after
  it, up to the raw HTML that closes it (the text Markdown renders is escaped and can
  never close it);
- attribute values: ``title`` and ``alt`` show only as a tooltip or when an image fails
  (a *tooltip*); ``aria-label``, ``aria-description``, ``data-*``, ``content``,
  ``label``, ``summary`` and the ``value`` of a hidden input are never shown.

Markdown's own containers (paragraphs, list items, quotes, cells) close elements opened
inside them, as an end tag would. Not modelled: the adoption agency algorithm and
foster parenting (they move text between visible places), CSS from style sheets, and
``<details>`` (its content is one click away).
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field

#: Elements whose content a browser never renders.
NEVER_RENDERED = frozenset(
    {"template", "script", "style", "noscript", "title", "iframe", "noembed", "noframes",
     "head", "datalist", "object", "desc", "metadata", "param", "frameset"}
)  # fmt: skip
#: Elements whose content the tokenizer reads as raw text up to their end tag.
RAW_TEXT = frozenset(
    {"script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "textarea",
     "title", "plaintext"}
)  # fmt: skip
VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
     "track", "wbr", "param", "keygen", "basefont", "bgsound", "frame", "image"}
)  # fmt: skip
#: Start tags that close an open ``<p>`` (the HTML standard's list).
CLOSES_P = frozenset(
    {"address", "article", "aside", "blockquote", "center", "details", "dialog", "dir",
     "div", "dl", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3",
     "h4", "h5", "h6", "header", "hgroup", "hr", "main", "menu", "nav", "ol", "p", "pre",
     "search", "section", "summary", "table", "ul", "li", "dd", "dt", "plaintext", "xmp",
     "listing"}
)  # fmt: skip
#: Attributes whose value is shown only on hover or when an image fails.
TOOLTIP_ATTRIBUTES = frozenset({"title", "alt"})
#: Attributes whose value is never shown (but read by the model with the source).
_UNSHOWN_ATTRIBUTES = frozenset(
    {"aria-label", "aria-description", "aria-roledescription", "content", "label",
     "summary", "abbr"}
)  # fmt: skip

_SPACE = " \t\n\r\f"
_NAME_END = re.compile(r"[\s/>]")


@dataclass(frozen=True, slots=True)
class Attribute:
    """One attribute: lowercase name, value as written (``""`` when it has none), and
    where the value is in the tokenized text."""

    name: str
    value: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Construct:
    """One construct of raw HTML at ``start:end`` of the tokenized text.

    ``kind``: ``start`` / ``end`` (tags), ``comment``, ``bogus`` (a processing
    instruction, declaration or CDATA section), ``doctype``, ``open`` (a tag the text
    ends inside: a browser drops it and what follows). ``closed``: a comment or bogus
    comment found its end in this text.
    """

    kind: str
    start: int
    end: int
    name: str = ""
    attributes: tuple[Attribute, ...] = ()
    self_closing: bool = False
    closed: bool = True


def _comment_end(text: str, at: int, end: int) -> tuple[int, bool]:
    """Where a comment whose text starts at ``at`` ends (after ``-->`` or ``--!>``)."""
    close = text.find("--", at, end)
    while close >= 0:
        rest = text[close + 2 : close + 4]
        if rest.startswith(">"):
            return close + 3, True
        if rest == "!>":
            return close + 4, True
        close = text.find("--", close + 1, end)
    return end, False


def _tag(text: str, at: int, end: int, kind: str) -> Construct:
    """A start or end tag whose name starts at ``at`` (after ``<`` or ``</``), its
    attributes read as the HTML tokenizer reads them."""
    stop = _NAME_END.search(text, at, end)
    name_end = end if stop is None else stop.start()
    name = text[at:name_end].lower()
    first = at - (1 if kind == "start" else 2)
    attributes: list[Attribute] = []
    pos = name_end
    self_closing = False
    while pos < end:
        char = text[pos]
        if char in _SPACE:
            pos += 1
            continue
        if char == ">":
            return Construct(kind, first, pos + 1, name, tuple(attributes), self_closing)
        if char == "/":
            self_closing = pos + 1 < end and text[pos + 1] == ">"
            pos += 1
            continue
        self_closing = False
        # an attribute name: up to whitespace, "/", ">" or "=" (the first character may be "=")
        name_start = pos
        pos += 1
        while pos < end and text[pos] not in _SPACE and text[pos] not in "/>=":
            pos += 1
        attribute = text[name_start:pos].lower()
        while pos < end and text[pos] in _SPACE:
            pos += 1
        if pos < end and text[pos] == "=":
            pos += 1
            while pos < end and text[pos] in _SPACE:
                pos += 1
            if pos >= end:
                break
            quote = text[pos]
            if quote in "\"'":
                close = text.find(quote, pos + 1, end)
                if close < 0:
                    attributes.append(Attribute(attribute, text[pos + 1 : end], pos + 1, end))
                    pos = end
                    break
                attributes.append(Attribute(attribute, text[pos + 1 : close], pos + 1, close))
                pos = close + 1
            elif quote == ">":
                attributes.append(Attribute(attribute, "", pos, pos))
            else:
                value_start = pos
                while pos < end and text[pos] not in _SPACE and text[pos] != ">":
                    pos += 1
                attributes.append(Attribute(attribute, text[value_start:pos], value_start, pos))
        else:
            attributes.append(Attribute(attribute, "", pos, pos))
    return Construct("open", first, end, name, tuple(attributes), closed=False)


def constructs(text: str, start: int = 0, end: int | None = None) -> Iterator[Construct]:
    """The HTML constructs of ``text[start:end]`` in order (text between them is
    character data). A start tag of a raw-text element (``<script>``) is followed by
    its end tag as the next construct: nothing between them is markup."""
    stop = len(text) if end is None else end
    pos = text.find("<", start, stop)
    while 0 <= pos < stop:
        following = text[pos + 1 : pos + 2]
        construct: Construct | None = None
        if text.startswith("<!--", pos):
            if text.startswith("<!-->", pos):
                construct = Construct("comment", pos, pos + 5)
            elif text.startswith("<!--->", pos):
                construct = Construct("comment", pos, pos + 6)
            else:
                close, closed = _comment_end(text, pos + 4, stop)
                construct = Construct("comment", pos, close, closed=closed)
        elif following in ("!", "?"):
            close = text.find(">", pos + 2, stop)
            kind = "doctype" if text[pos + 2 : pos + 9].lower() == "doctype" else "bogus"
            construct = Construct(kind, pos, stop if close < 0 else close + 1, closed=close >= 0)
        elif following == "/":
            after = text[pos + 2 : pos + 3]
            if after.isascii() and after.isalpha():
                construct = _tag(text, pos + 2, stop, "end")
            elif after == ">":
                construct = Construct("end", pos, pos + 3)
            elif after:
                close = text.find(">", pos + 2, stop)
                construct = Construct(
                    "bogus", pos, stop if close < 0 else close + 1, closed=close >= 0
                )
        elif following.isascii() and following.isalpha():
            construct = _tag(text, pos + 1, stop, "start")
        if construct is None:
            pos = text.find("<", pos + 1, stop)
            continue
        yield construct
        if construct.kind == "start" and construct.name in RAW_TEXT:
            raw_end = _raw_end(text, construct.end, stop, construct.name)
            if raw_end is None:
                return
            yield raw_end
            pos = text.find("<", raw_end.end, stop)
            continue
        pos = text.find("<", construct.end, stop)


def _raw_end(text: str, at: int, end: int, name: str) -> Construct | None:
    """The end tag of the raw-text element ``name`` whose content starts at ``at``."""
    if name == "plaintext":
        return None
    pattern = re.compile(rf"</{re.escape(name)}(?=[\s/>])", re.IGNORECASE)
    found = pattern.search(text, at, end)
    if found is None:
        return None
    return _tag(text, found.start() + 2, end, "end")


# --- what a style hides ------------------------------------------------------------------

_ZERO = r"(?:0|0?\.0+|0+\.?0*)(?:px|em|rem|pt|%|vh|vw|ex|ch|cm|mm|in|pc)?"
_HIDING_DECLARATIONS = re.compile(
    r"^(?:display:none|visibility:(?:hidden|collapse)|opacity:"
    + _ZERO
    + r"|font-size:"
    + _ZERO
    + r"|content-visibility:hidden|color:transparent"
    r"|transform:scale\(0(?:\.0+)?(?:,0(?:\.0+)?)?\)|clip:rect\(0(?:px)?,?0(?:px)?,?0(?:px)?,?0(?:px)?\)"
    r"|clip-path:(?:inset\((?:50|100)%\)|circle\(0(?:px)?\))"
    r"|(?:text-indent|left|top|right|margin-left|margin-top):-\d{3,}(?:\.\d+)?(?:px|em|rem|pt|%|vw|vh)?)$"
)
_ZERO_SIZE = re.compile(r"^(?:max-)?(?:height|width):" + _ZERO + r"$")


_WHITE = frozenset({"white", "#fff", "#ffffff", "#ffff", "#ffffffff", "rgb(255,255,255)",
                    "rgba(255,255,255,1)", "hsl(0,0%,100%)"})  # fmt: skip
_TINY_FONT = re.compile(r"^font-size:(?:0?\.\d+|1)(?:px|pt)$")


def _colour(value: str) -> str:
    value = value.strip().lower()
    if value in _WHITE:
        return "white"
    if re.fullmatch(r"#[0-9a-f]{3}", value):
        return "#" + "".join(c * 2 for c in value[1:])
    return value


def _colour_hides(declarations: list[str]) -> str | None:
    """Text drawn in the colour of what is behind it: ``color`` equal to the element's
    ``background(-color)``, or white with no background (a page's own is white); or a
    font too small to read (1px or less)."""
    colour = background = None
    for declaration in declarations:
        name, _, value = declaration.partition(":")
        if name == "color":
            colour = _colour(value)
        elif name in ("background-color", "background") and re.fullmatch(r"[#\w(),.%]+", value):
            background = _colour(value)
        elif _TINY_FONT.match(declaration):
            return declaration
    if colour is None:
        return None
    if background is not None and colour == background:
        return f"color:{colour};background:{background}"
    if background is None and colour == "white":
        return "color:white (on a white page)"
    return None


def style_hides(style: str) -> str | None:
    """The declaration of an inline ``style`` that hides the element, if one does
    (``display:none``), written without spaces."""
    declarations = [
        re.sub(r"\s+", "", part).lower().replace("!important", "")
        for part in html.unescape(style).split(";")
    ]
    for declaration in declarations:
        if _HIDING_DECLARATIONS.match(declaration):
            return declaration
    colour = _colour_hides(declarations)
    if colour is not None:
        return colour
    if "overflow:hidden" in declarations:
        for declaration in declarations:
            if _ZERO_SIZE.match(declaration):
                return f"{declaration};overflow:hidden"
    return None


def hides(construct: Construct) -> str | None:
    """Why the element a start tag opens hides its content (``None``: it does not)."""
    name = construct.name
    values = {a.name: a.value for a in construct.attributes}
    if "hidden" in values:
        return f"a `<{name} hidden>` element"
    style = values.get("style")
    if style is not None:
        declaration = style_hides(style)
        if declaration is not None:
            return f"a `<{name}>` element hidden by `style={declaration}`"
    if name == "font" and _colour(values.get("color") or "") == "white":
        return "a `<font color=white>` element (white on a white page)"
    if name in NEVER_RENDERED:
        return f"a `<{name}>` element"
    if name == "dialog" and "open" not in values:
        return "a `<dialog>` element that is not open"
    if name == "input" and values.get("type", "").strip().lower() == "hidden":
        return "an `<input type=hidden>` element"
    return None


# --- the document, in order -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hidden:
    """Source text ``start:end`` that a reader does not see: ``why`` says what hides it;
    ``tooltip``: it shows on hover (a title, alt text) rather than never."""

    start: int
    end: int
    why: str
    tooltip: bool = False
    #: The text it says, when that is not the whole source range (a reference
    #: definition says its label and title, not its destination).
    said: str | None = None


@dataclass(frozen=True, slots=True)
class SourceMap:
    """Offsets of a text built from pieces of the source: ``points[i]`` is where the
    piece starting at ``offsets[i]`` of the text starts in the source."""

    offsets: tuple[int, ...]
    points: tuple[int, ...]

    @classmethod
    def at(cls, base: int) -> SourceMap:
        """The map of a text that is the source from ``base`` on."""
        return cls((0,), (base,))

    def __call__(self, offset: int) -> int:
        index = max(0, bisect_right(self.offsets, offset) - 1)
        return self.points[index] + offset - self.offsets[index]


@dataclass
class Visibility:
    """The open elements and the construct left open, as raw HTML and rendered Markdown
    are fed in document order; what is hidden is collected in ``hidden``."""

    hidden: list[Hidden] = field(default_factory=list)
    #: (element name, why it hides its content or ``None``, opened by Markdown)
    stack: list[tuple[str, str | None, bool]] = field(default_factory=list)
    #: A construct the last raw HTML left open: ``comment``, ``bogus``, ``tag`` or a
    #: raw-text element's name; and what it is called in a message.
    swallowing: tuple[str, str] | None = None
    swallow_start: int = 0

    def hiding(self) -> str | None:
        """Why what comes now is hidden (the innermost hiding element), if it is."""
        if self.swallowing is not None:
            return self.swallowing[1]
        for _name, why, _markdown in reversed(self.stack):
            if why is not None:
                return why
        return None

    def _hide(self, start: int, end: int, why: str, tooltip: bool = False) -> None:
        if end <= start:
            return
        last = self.hidden[-1] if self.hidden else None
        if last is not None and last.why == why and last.tooltip == tooltip and last.end >= start:
            self.hidden[-1] = Hidden(last.start, max(last.end, end), why, tooltip)
        else:
            self.hidden.append(Hidden(start, end, why, tooltip))

    def text(self, start: int, end: int) -> None:
        """Rendered text (Markdown's output between raw HTML) at source ``start:end``."""
        why = self.hiding()
        if why is not None:
            self._hide(start, end, why)

    def hide(
        self, start: int, end: int, why: str, *, tooltip: bool = False, said: str | None = None
    ) -> None:
        """Source text that Markdown itself does not show (a reference definition, a
        link title): hidden whatever the elements around it."""
        around = self.hiding()
        if around is not None or said is None:
            self._hide(start, end, around or why, tooltip and around is None)
        elif end > start:
            self.hidden.append(Hidden(start, end, why, tooltip, said))

    def open(self, name: str) -> None:
        """An element Markdown renders (``p``, ``li``, ``blockquote``...) opens."""
        if self.swallowing is None:
            self.stack.append((name, None, True))

    def close(self, name: str) -> None:
        """An element Markdown rendered closes: elements opened inside it close too."""
        if self.swallowing is not None:
            return
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == name and self.stack[index][2]:
                del self.stack[index:]
                return

    def raw(self, text: str, where: SourceMap, start: int = 0, end: int | None = None) -> None:
        """Raw HTML ``text[start:end]`` (an HTML block or inline HTML); ``where`` maps
        offsets of ``text`` to the source."""
        stop = len(text) if end is None else end
        at = self._resume(text, where, start, stop)
        for construct in constructs(text, at, stop):
            self.text(where(at), where(construct.start))
            self._construct(text, where, construct, stop)
            at = construct.end
            if self.swallowing is not None:
                self._hide(where(at), where(stop), self.swallowing[1])
                return
        self.text(where(at), where(stop))

    def _resume(self, text: str, where: SourceMap, start: int, end: int) -> int:
        """Continue a construct the previous raw HTML left open; where the text after it
        starts."""
        if self.swallowing is None:
            return start
        kind, why = self.swallowing
        if kind == "comment":
            close, closed = _comment_end(text, start, end)
        elif kind in ("bogus", "tag"):
            found = text.find(">", start, end)
            close, closed = (end, False) if found < 0 else (found + 1, True)
        else:
            tag = _raw_end(text, start, end, kind)
            close, closed = (end, False) if tag is None else (tag.end, True)
        self._hide(where(start), where(close), why)
        if closed:
            self.swallowing = None
            if kind not in ("comment", "bogus", "tag"):
                self.close_element(kind)
        return close

    def close_element(self, name: str) -> None:
        """An end tag: pop to the nearest open element of that name (none: ignored)."""
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == name:
                del self.stack[index:]
                return

    def _construct(self, text: str, where: SourceMap, construct: Construct, end: int) -> None:
        start, stop = where(construct.start), where(construct.end)
        kind = construct.kind
        if kind in ("comment", "bogus", "doctype"):
            named = _construct_name(text, construct)
            self._hide(start, stop, self.hiding() or named)
            if not construct.closed:
                self.swallowing = ("comment" if kind == "comment" else "bogus", named)
            return
        if kind == "open":
            named = f"the unclosed tag `<{construct.name}`"
            self._hide(start, stop, self.hiding() or named)
            self.swallowing = ("tag", named)
            return
        if kind == "end":
            hidden = self.hiding()
            self.close_element(construct.name)
            if hidden is not None:
                self._hide(start, stop, hidden)
            return
        name = construct.name
        if name in CLOSES_P and any(n == "p" for n, _w, _m in self.stack):
            self.close_element("p")
        inherited = self.hiding()
        why: str | None = hides(construct)
        if inherited is not None or why is not None:
            self._hide(start, stop, inherited or why or "")
        else:
            self._attributes(construct, where)
        if name in VOID:
            return
        self.stack.append((name, why, False))
        if name in RAW_TEXT and _raw_end(text, construct.end, end, name) is None:
            hiding = self.hiding()
            if hiding is not None:
                self.swallowing = (name, hiding)

    def _attributes(self, construct: Construct, where: SourceMap) -> None:
        """The attribute values of a visible tag that a reader does not see."""
        for attribute in construct.attributes:
            if attribute.end <= attribute.start:
                continue
            start, stop = where(attribute.start), where(attribute.end)
            name = attribute.name
            if name in TOOLTIP_ATTRIBUTES:
                self._hide(start, stop, f"a `{name}` attribute", tooltip=True)
            elif name in _UNSHOWN_ATTRIBUTES or name.startswith("data-"):
                self._hide(start, stop, f"a `{name}` attribute")


def _construct_name(text: str, construct: Construct) -> str:
    """What a comment-like construct is called in a message."""
    opening = text[construct.start : construct.start + 9]
    if opening.startswith("<!--"):
        return "an HTML comment"
    if opening.startswith("<?"):
        return "a processing instruction"
    if opening.startswith("<![CDATA["):
        return "a CDATA section"
    if opening.startswith("<!"):
        return "an HTML declaration"
    return "a bogus HTML comment"

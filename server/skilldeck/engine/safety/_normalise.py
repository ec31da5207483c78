"""Text as the model reads it, made comparable: NFKC, case folded, without the characters
that render as nothing, with a map back to the offsets of the source.

An instruction is matched on this text, so ``ig\\u200bnore previous instructions``,
``IGNORE PREVIOUS INSTRUCTIONS``, ``ignore`` in fullwidth letters and ``ig&shy;nore`` read as the
words they spell, and a finding still points at the exact characters of the source.

Removed: every format character (Unicode category Cf: zero-width space, joiners, word
joiner, soft hyphen, bidirectional controls, tag characters, ...), the combining grapheme
joiner and the variation selectors. Each other character becomes its NFKC form, case
folded (``str.casefold``: ``ß`` -> ``ss``, the long s and the Kelvin sign -> ``s``, ``k``);
every character of that form maps to the offset of the source character. HTML character
references (``&#105;``, ``&amp;``) become the character they name when asked
(``entities=True``, for Markdown): a renderer shows the character, a model reads both.

Cost: text that is plain ASCII (nearly every skill), or whose every character folds to
exactly one character (accents, CJK, most emoji), is translated in one C call and keeps
an identity map; other text is walked one non-ASCII character at a time, each
character's form memoised.
"""

from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache

#: Code points removed besides category Cf: the combining grapheme joiner, the variation
#: selectors (U+FE00-U+FE0F, U+E0100-U+E01EF) and the Hangul fillers (they render as
#: blank space and spell nothing).
_REMOVED_EXTRA = frozenset({0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0}) | frozenset(
    range(0xFE00, 0xFE10)
)
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


@lru_cache(maxsize=4096)
def fold_char(char: str) -> str:
    """One character as :func:`normalise` makes it (``""`` when it is removed)."""
    point = ord(char)
    if point in _REMOVED_EXTRA or 0xE0100 <= point <= 0xE01EF:
        return ""
    if unicodedata.category(char) == "Cf":
        return ""
    return unicodedata.normalize("NFKC", char).casefold()


_LOWER = {point: point + 32 for point in range(ord("A"), ord("Z") + 1)}


def _one_for_one(piece: str) -> dict[int, str | int] | None:
    """The translation table that normalises ``piece`` when each of its characters
    folds to exactly one character (``None`` when one is removed or expands)."""
    table: dict[int, str | int] = dict(_LOWER)
    for char in set(_NON_ASCII.findall(piece)):
        folded = fold_char(char)
        if len(folded) != 1:
            return None
        if folded != char:
            table[ord(char)] = folded
    return table


@dataclass(frozen=True, slots=True)
class Normalised:
    """``text`` and, for each of its characters, the source range it came from.

    ``starts`` and ``ends`` are ``None`` when the map is ``base + index`` (plain ASCII);
    otherwise one source offset per character of ``text`` (a character that several
    come from, ``ﬁ`` -> ``fi``, maps each of them to the whole source character; an
    HTML character reference maps to the whole reference).
    """

    text: str
    base: int
    end: int
    starts: tuple[int, ...] | None
    ends: tuple[int, ...] | None

    def source(self, index: int) -> int:
        """The source offset of character ``index`` (``len(text)``: the source end)."""
        if self.starts is None:
            return self.base + index
        return self.starts[index] if index < len(self.starts) else self.end

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The source range holding ``text[start:end]``."""
        if self.starts is None or self.ends is None:
            return self.base + start, self.base + max(start, end)
        if end <= start:
            at = self.source(start)
            return at, at
        return self.starts[start], self.ends[end - 1]

    def index(self, offset: int) -> int:
        """The first character of ``text`` that comes from source ``offset`` or later."""
        if self.starts is None:
            return max(0, min(len(self.text), offset - self.base))
        return bisect_left(self.starts, offset)


def normalise(
    text: str, start: int = 0, end: int | None = None, *, entities: bool = False
) -> Normalised:
    """``text[start:end]`` normalised (module docstring), with its source map."""
    stop = len(text) if end is None else end
    piece = text[start:stop]
    entities = entities and "&" in piece and _ENTITY.search(piece) is not None
    if piece.isascii() and not entities:
        return Normalised(piece.lower(), start, stop, None, None)
    if not entities:
        table = _one_for_one(piece)
        if table is not None:
            # every character folds to one character: one C-speed translation
            folded = _latin_in_mixed_words(piece.translate(table))
            return Normalised(folded, start, stop, None, None)
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []

    def plain(segment: str, offset: int) -> None:
        at = 0
        for match in _NON_ASCII.finditer(segment):
            if match.start() > at:
                out.append(segment[at : match.start()].lower())
                starts.extend(range(offset + at, offset + match.start()))
                ends.extend(range(offset + at + 1, offset + match.start() + 1))
            folded = fold_char(match.group())
            if folded:
                out.append(folded)
                starts.extend([offset + match.start()] * len(folded))
                ends.extend([offset + match.end()] * len(folded))
            at = match.end()
        if at < len(segment):
            out.append(segment[at:].lower())
            starts.extend(range(offset + at, offset + len(segment)))
            ends.extend(range(offset + at + 1, offset + len(segment) + 1))

    at = 0
    if entities:
        for reference in _ENTITY.finditer(piece):
            plain(piece[at : reference.start()], start + at)
            decoded = "".join(
                char.lower() if char.isascii() else fold_char(char)
                for char in html.unescape(reference.group())
            )
            out.append(decoded)
            starts.extend([start + reference.start()] * len(decoded))
            ends.extend([start + reference.end()] * len(decoded))
            at = reference.end()
    plain(piece[at:], start + at)
    folded = _latin_in_mixed_words("".join(out))
    return Normalised(folded, start, stop, tuple(starts), tuple(ends))


#: Cyrillic and Greek, the scripts whose letters pass for Latin ones.
_LOOK_ALIKE_SCRIPTS = "\u0370-\u03ff\u0400-\u052f"
_MIXED = re.compile(f"[a-z][{_LOOK_ALIKE_SCRIPTS}]|[{_LOOK_ALIKE_SCRIPTS}][a-z]")
#: A word (letters only) that holds a Latin letter beside a Cyrillic or Greek one.
_MIXED_WORD = re.compile(
    f"[^\\W\\d_]*(?:[a-z][{_LOOK_ALIKE_SCRIPTS}]|[{_LOOK_ALIKE_SCRIPTS}][a-z])[^\\W\\d_]*"
)


def _latin_in_mixed_words(text: str) -> str:
    """``text`` (folded) with each Cyrillic or Greek letter that passes for a Latin one
    written as that Latin letter, in the words that mix it with Latin letters
    (``ign\\u043ere``, with U+043E CYRILLIC SMALL LETTER O, reads ``ignore``, as a model and a
    reader read it). Words of one script (Russian, Greek text) are left alone. One
    character for one, so the source map stays; the letters are those of the Unicode
    confusables data (``confusable_homoglyphs``), loaded only when a word mixes."""
    if _MIXED.search(text) is None:
        return text
    table = _latin_look_alikes()
    return _MIXED_WORD.sub(lambda word: word.group().translate(table), text)


@lru_cache(maxsize=1)
def _latin_look_alikes() -> dict[int, str]:
    """Each lowercase Cyrillic or Greek letter that the confusables data maps to one
    ASCII letter, and that letter."""
    from confusable_homoglyphs import confusables  # noqa: PLC0415 (~50 ms, rarely needed)

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    table: dict[int, str] = {}
    for point in (*range(0x0370, 0x0400), *range(0x0400, 0x0530)):
        char = chr(point)
        if not char.isalpha() or char != char.casefold():
            continue
        for glyph in data.get(char, []):
            latin = str(glyph["c"])
            if len(latin) == 1 and latin.isascii() and latin.isalpha():
                table[point] = latin.lower()
                break
    return table


def line_feeds(text: str) -> str:
    """``text`` with every line break a line feed, offsets and lines unchanged: a CRLF
    becomes a space and a line feed (a space at a line's end changes nothing a reader or
    a parser sees), a lone carriage return a line feed. The safety rules judge this, so
    a file saved with CRLF or CR line endings gets the findings of the same file with
    LF (each rule need not know the three)."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", " \n").replace("\r", "\n")
